"""companion.games.skeptics.tray: whether the dice in the tray are the roll of the attempt under way."""

from __future__ import annotations

from typing import Any

import pytest

from companion import words
from companion.games.skeptics.dice import DieKind, Face
from companion.games.skeptics.tray import TrayOutcome, describe_roll, settle_reading

THREE = {DieKind.CLUE: (Face.EYE, Face.CAMERA, Face.BLANK)}


def attempt(**changes: Any) -> dict[str, Any]:
    from companion.games.skeptics.dice import Attempt

    base = Attempt.start("search", "eye:2,camera:1", dice=3).to_dict()
    return {**base, **changes}


def test_exactly_the_attempts_dice_are_its_roll() -> None:
    outcome = settle_reading(THREE, attempt(), why="settled", auto_roll=True)
    assert outcome.faces == (Face.EYE, Face.CAMERA, Face.BLANK)
    assert outcome.tell is None
    assert outcome.note == "tray: rolled eye, camera, blank for the search attempt"


def test_the_wrong_number_of_dice_is_told_at_the_table() -> None:
    outcome = settle_reading({DieKind.CLUE: (Face.EYE, Face.EYE)}, attempt(), why="settled", auto_roll=True)
    assert outcome.faces is None
    assert outcome.tell == (
        "the search roll needs 3 clue dice, the tray shows 2 (clue: eye, eye); roll again, or enter them on the page."
    )


def test_dice_of_another_kind_do_not_count() -> None:
    roll = {DieKind.SUMMON: (Face.SUMMON,), DieKind.CLUE: (Face.EYE,)}
    outcome = settle_reading(roll, attempt(), why="settled", auto_roll=True)
    assert outcome.faces is None and outcome.tell is not None and "shows 1 (summon: summon; clue: eye)" in outcome.tell


@pytest.mark.parametrize(("why", "told"), [("button", True), ("settled", False)])
def test_no_attempt_under_way(why: str, told: bool) -> None:
    """The read-dice button pressed with no attempt under way: the table is told (everyone hears it, the OLED shows
    it), so the words send nobody to "the host page": the host starts the attempt."""
    outcome = settle_reading(THREE, None, why=why, auto_roll=True)
    assert outcome.faces is None
    if told:
        assert outcome.tell == (
            "read clue: eye, camera, blank; no attempt is under way, so nothing was rolled. "
            "The host starts the attempt first; then the dice are read again."
        )
    else:
        assert outcome.tell is None and outcome.note == (
            "dice settled: read clue: eye, camera, blank; no attempt is under way, so nothing was rolled"
        )


def test_auto_roll_off_rolls_nothing_and_only_logs() -> None:
    outcome = settle_reading(THREE, attempt(), why="settled", auto_roll=False)
    assert outcome == TrayOutcome(note=words.left_to_the_host("clue: eye, camera, blank"))
    assert "auto_roll" not in str(outcome.note) and "clue: eye, camera, blank" in str(outcome.note)


@pytest.mark.parametrize(
    ("why", "current", "told"), [("button", None, True), ("settled", "attempt", True), ("settled", None, False)]
)
def test_an_unreadable_tray_is_told_only_when_the_reading_was_wanted(why: str, current: str | None, told: bool) -> None:
    outcome = settle_reading(None, attempt() if current else None, why=why, auto_roll=True, problem="1 die unsure")
    assert outcome.faces is None
    assert (outcome.tell == "1 die unsure") is told
    assert (outcome.note == "dice settled, not read for a roll: 1 die unsure") is not told


def test_describe_roll() -> None:
    assert describe_roll({}) == "no dice"
    assert describe_roll({DieKind.KEY: (Face.KEY, Face.BLANK)}) == "key: key, blank"
