"""Exact odds: hand-computed cases, keep choices, summons, the odds table and `companion odds` (issue 3).

Rules behind the numbers: "Action 2: Unlock", "Action 3: Search" (keep the dice that count and reroll
the others), "Red Icons" (Disruption: no dice may be saved), "Action 7: Pull Ghost" and
"Action 8: Summon" (one or more summon icons among the summon dice).
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion.dice_cli import main as odds_main
from companion.errors import DiceError
from companion.games.skeptics.dice import (
    Face,
    Requirement,
    clear_cache,
    odds_table,
    success_fraction,
    success_probability,
    summon_fraction,
    summon_probability,
)
from companion.games.skeptics.dice.odds import keep_all_fraction, keep_choices

R = Requirement.parse


# -- hand-computed cases ----------------------------------------------------------------------


def test_one_eye_one_die_one_roll_is_one_half() -> None:
    # Three of the six sides of a clue die are eyes.
    assert success_fraction(R("eye:1"), dice=1, rolls=1) == Fraction(1, 2)
    assert success_probability(R("eye:1"), dice=1, rolls=1, keep=True) == 0.5


def test_summon_with_four_summon_dice() -> None:
    """ "Action 7: Pull Ghost" example: four summon dice; each has a 1 in 6 chance."""
    assert summon_fraction(4) == 1 - Fraction(5, 6) ** 4
    assert summon_probability(4) == pytest.approx(1 - (5 / 6) ** 4, abs=1e-15)
    # The same number through an icon set: any summon face among four dice in one roll.
    assert success_fraction(R("summon"), dice=4, rolls=1) == Fraction(671, 1296)


def test_two_eyes_and_a_camera_in_one_roll_of_three() -> None:
    # The three dice must show exactly eye, eye, camera in some order: 3 orders * (1/2)^2 * (1/3) = 1/4.
    assert success_fraction(R("eye:2,camera:1"), dice=3, rolls=1) == Fraction(1, 4)


def test_one_key_with_three_key_dice() -> None:
    # Fails only if all three dice are blank: 1 - (1/2)^3 = 7/8.
    assert success_fraction(R("key:1"), dice=3, rolls=1) == Fraction(7, 8)


def test_three_keys_over_three_rolls_keeping_keys() -> None:
    """ "Unlock Action Example": three keys needed, three actions, keys are kept.

    Each die on its own must show a key within three rolls (kept once it does): 1 - (1/2)^3 = 7/8,
    and the three dice are independent: (7/8)^3 = 343/512.
    """
    assert success_fraction(R("key:3"), dice=3, rolls=3) == Fraction(343, 512)


def test_a_cobweb_with_one_die_over_three_rolls() -> None:
    # 1 - (5/6)^3 = 91/216; nothing to keep until it succeeds, so keeping changes nothing.
    assert success_fraction(R("cobweb:1"), dice=1, rolls=3) == Fraction(91, 216)
    assert success_fraction(R("cobweb:1"), dice=1, rolls=3, keep=False) == Fraction(91, 216)


def test_an_eye_and_a_camera_in_one_roll_of_three() -> None:
    # Inclusion-exclusion: 1 - P(no eye) - P(no camera) + P(neither) = 1 - 1/8 - 8/27 + 1/216 = 7/12.
    assert success_fraction(R("eye:1,camera:1"), dice=3, rolls=1) == Fraction(7, 12)


def test_disruption_makes_each_roll_a_fresh_roll() -> None:
    """ "Red Icons", Disruption: the player is not allowed to save any dice."""
    # Two independent tries at 7/12: 1 - (5/12)^2 = 119/144.
    req = R("eye:1,camera:1,disruption")
    assert success_fraction(req, dice=3, rolls=2) == Fraction(119, 144)
    assert success_fraction(R("eye:1,camera:1"), dice=3, rolls=2, keep=False) == Fraction(119, 144)
    # Disruption wins over keep=True: the rules forbid keeping.
    assert success_fraction(req, dice=3, rolls=2, keep=True) == Fraction(119, 144)


def test_more_icons_than_dice_cannot_succeed() -> None:
    """ "More Than Three Icons": four icons need at least four dice."""
    assert success_fraction(R("eye:2,camera:1,cobweb:1"), dice=3, rolls=3) == 0
    assert success_fraction(R("eye:2,camera:1,cobweb:1"), dice=4, rolls=1) > 0


def test_no_rolls_no_success() -> None:
    assert success_fraction(R("eye:1"), dice=3, rolls=0) == 0


# -- keeping dice -------------------------------------------------------------------------------


def test_keeping_every_counting_die_is_not_always_best() -> None:
    """An eye and a camera, three dice, two rolls. After a first roll of eye, eye, cobweb:
    keeping the eye leaves two dice to find a camera in one roll: 1 - (2/3)^2 = 5/9;
    rerolling all three gives a fresh one-roll chance of 7/12 > 5/9 (= 20/36 < 21/36)."""
    choices = keep_choices(R("eye:1,camera:1"), 3, [Face.EYE, Face.EYE, Face.COBWEB], rolls_after=1)
    assert choices == [((), Fraction(7, 12)), ((Face.EYE,), Fraction(5, 9))]
    # So the best play beats "keep every counting die" over two rolls.
    assert success_fraction(R("eye:1,camera:1"), 3, 2) > keep_all_fraction(R("eye:1,camera:1"), 3, 2)


def test_keep_all_rule_by_hand_for_one_eye_and_one_camera_over_two_rolls() -> None:
    # First roll of three dice, counting (eyes, cameras) showing:
    #   success (>=1 eye, >=1 camera): 7/12.
    #   eyes but no camera: P(no camera) - P(no camera, no eye) = 8/27 - 1/216 = 63/216. Keep an eye,
    #     then two dice need a camera: 5/9.
    #   cameras but no eye: P(no eye) - P(neither) = 1/8 - 1/216 = 26/216. Keep a camera, two dice need
    #     an eye: 3/4.
    #   neither (all cobwebs): 1/216, then a fresh roll of three: 7/12.
    expected = (
        Fraction(7, 12)
        + Fraction(63, 216) * Fraction(5, 9)
        + Fraction(26, 216) * Fraction(3, 4)
        + Fraction(1, 216) * Fraction(7, 12)
    )
    assert keep_all_fraction(R("eye:1,camera:1"), 3, 2) == expected


def test_keep_choices_when_the_roll_completes_the_set() -> None:
    choices = keep_choices(R("eye:1,camera:1"), 3, [Face.CAMERA, Face.EYE, Face.EYE], rolls_after=2)
    assert choices == [((Face.EYE, Face.CAMERA), Fraction(1))]


def test_keep_choices_are_sorted_best_first_and_match_the_odds_of_what_is_left() -> None:
    req = R("eye:2,camera:1,cobweb:1")
    choices = keep_choices(req, 5, [Face.EYE, Face.EYE, Face.EYE, Face.COBWEB, Face.COBWEB], rolls_after=2)
    values = [value for _, value in choices]
    assert values == sorted(values, reverse=True)
    for kept, value in choices:
        left = req.without(kept)
        assert left is not None
        assert value == success_fraction(left, 5 - len(kept), 2)
    # Every choice is a part of the counting faces: at most two eyes and one cobweb.
    assert all(kept.count(Face.EYE) <= 2 and kept.count(Face.COBWEB) <= 1 for kept, _ in choices)
    assert len(choices) == 3 * 2


def test_keep_choices_refuses_a_wrong_number_of_faces() -> None:
    with pytest.raises(DiceError, match="faces of all 3 dice"):
        keep_choices(R("eye:1"), 3, [Face.EYE], rolls_after=1)


def test_best_play_never_loses_to_keeping_everything_or_nothing() -> None:
    for text in ("eye:2,camera:1", "eye:1,cobweb:2", "key:3", "camera:2,cobweb:1", "eye:1,camera:1,cobweb:1"):
        req = R(text)
        for dice in range(req.size, 6):
            for rolls in (1, 2, 3):
                best = success_fraction(req, dice, rolls)
                assert best >= keep_all_fraction(req, dice, rolls)
                assert best >= success_fraction(req, dice, rolls, keep=False)


def test_for_keys_keeping_every_key_is_best() -> None:
    # A key set has one icon; a kept key is one die fewer to find, never a worse position.
    for k in range(1, 6):
        for dice in range(k, 6):
            for rolls in (1, 2, 3):
                assert success_fraction(R(f"key:{k}"), dice, rolls) == keep_all_fraction(R(f"key:{k}"), dice, rolls)


# -- API details --------------------------------------------------------------------------------


def test_success_probability_accepts_text_and_is_the_float_of_the_fraction() -> None:
    exact = success_fraction(R("eye:2,camera:1"), 3, 3)
    assert success_probability("eye:2,camera:1", dice=3, rolls=3) == float(exact)
    assert isinstance(success_probability(R("key:2"), 3, 2), float)


def test_success_probability_is_cached_and_clear_cache_forgets() -> None:
    from companion.games.skeptics.dice import odds

    clear_cache()
    success_probability(R("eye:2,camera:1,cobweb:1"), 5, 3)
    before = odds._probability.cache_info()
    success_probability(R("eye:2,camera:1,cobweb:1"), 5, 3)
    after = odds._probability.cache_info()
    assert after.hits == before.hits + 1 and after.misses == before.misses
    clear_cache()
    assert odds._probability.cache_info().currsize == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((R("eye:1"), 6, 1), "clue rolls use 1 to 5 dice, not 6"),
        ((R("eye:1"), 0, 1), "1 to 5 dice, not 0"),
        ((R("key:1"), 6, 1), "key rolls use 1 to 5 dice"),
        ((R("summon"), 8, 1), "summon rolls use 1 to 7 dice"),
        ((R("eye:1"), 3, 11), "rolls must be 0 to 10"),
        ((R("eye:1"), 3, -1), "rolls must be 0 to 10"),
        (("skull:1", 3, 1), "unknown icon 'skull'"),
        ((42, 3, 1), "need a Requirement"),
        ((["eye"], 3, 1), "need a Requirement"),
        ((R("eye:1"), "3", 1), "not '3'"),
    ],
)
def test_bad_odds_questions_are_refused(args: tuple, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        success_probability(*args)
    with pytest.raises(DiceError, match=message):
        success_fraction(*args)


def test_summon_probability_bounds() -> None:
    assert summon_fraction(0) == 0
    assert summon_fraction(7) == 1 - Fraction(5, 6) ** 7
    with pytest.raises(DiceError, match="0 to 7 summon dice"):
        summon_probability(8)


def test_odds_table_rows() -> None:
    rows = odds_table("eye:2,camera:1", dice=3, rolls=3)
    assert [row["rolls"] for row in rows] == [1, 2, 3]
    assert rows[0] == {"rolls": 1, "probability": 0.25, "percent": "25.0%", "fraction": "1/4"}
    for row in rows:
        assert Fraction(row["fraction"]) == success_fraction(R("eye:2,camera:1"), 3, row["rolls"])
    assert json.loads(json.dumps(rows)) == rows
    no_keep = odds_table("eye:1,camera:1", dice=3, rolls=2, keep=False)
    assert no_keep[1]["fraction"] == "119/144"


# -- companion odds -----------------------------------------------------------------------------


def test_cli_prints_percent_and_fraction_for_each_roll(capsys: pytest.CaptureFixture[str]) -> None:
    assert odds_main(["eye:2,camera:1", "--dice", "3", "--rolls", "3"]) == 0
    out = capsys.readouterr().out
    assert "eye:2,camera:1 (2 eyes and a camera) with 3 clue dice" in out
    assert "25.0%" in out and "1/4" in out
    assert str(success_fraction(R("eye:2,camera:1"), 3, 3)) in out
    assert len([line for line in out.splitlines() if line.strip()[:1].isdigit()]) == 3


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert odds_main(["eye:1", "--dice", "1", "--rolls", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["need"] == "eye:1" and data["dice"] == 1 and data["keep"] is True
    assert [row["fraction"] for row in data["rows"]] == ["1/2", "3/4"]


def test_cli_no_keep(capsys: pytest.CaptureFixture[str]) -> None:
    assert odds_main(["eye:1,camera:1", "--rolls", "2", "--no-keep", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["keep"] is False
    assert data["rows"][1]["fraction"] == "119/144"


def test_cli_works_out_the_dice_from_the_action(capsys: pytest.CaptureFixture[str]) -> None:
    assert odds_main(["eye:2,camera:1,cobweb:1", "--action", "prove", "--glass", "--aid", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dice"] == 5
    assert Fraction(data["rows"][2]["fraction"]) == success_fraction(R("eye:2,camera:1,cobweb:1"), 5, 3)


def test_cli_advises_what_to_keep(capsys: pytest.CaptureFixture[str]) -> None:
    assert odds_main(["eye:1,camera:1", "--rolls", "2", "--rolled", "eye,eye,cobweb"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    advice = lines[lines.index("rolled eye, eye, cobweb: what to keep") + 1 :]
    assert "keep nothing (reroll all)" in advice[0] and "58.3%" in advice[0]
    assert "keep eye" in advice[1] and "55.6%" in advice[1]


def test_cli_mid_attempt_with_kept_dice(capsys: pytest.CaptureFixture[str]) -> None:
    """The Search Action Example after the first roll: an eye kept, two dice, two actions left."""
    assert odds_main(["eye:2,camera:1", "--kept", "eye", "--rolls", "2", "--rolled", "eye,cobweb", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kept"] == ["eye"] and data["dice_to_roll"] == 2
    assert Fraction(data["rows"][1]["fraction"]) == success_fraction(R("eye:1,camera:1"), 2, 2)
    # Keeping the second eye or not: one die for a camera (1/3) or two dice for an eye and a camera (1/3).
    assert {tuple(c["keep"]): c["fraction"] for c in data["keep_choices"]} == {("eye",): "1/3", (): "1/3"}


def test_cli_summon(capsys: pytest.CaptureFixture[str]) -> None:
    assert odds_main(["--summon", "4"]) == 0
    assert "671/1296" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["eye:9"], "needs 9 clue dice but a roll may use at most 5"),
        (["skull"], "unknown icon 'skull'"),
        (["eye:1", "--dice", "6"], "1 to 5 clue dice, not 6"),
        (["eye:1", "--rolls", "0"], "rolls must be"),
        ([], "give an icon set"),
        (["eye:1", "--glass"], "need --action"),
        (["eye:1", "--action", "unlock"], "an unlock rolls key dice"),
        (["eye:1", "--rolled", "eye,eye"], "needs the faces of 3 clue dice"),
        (["eye:2,camera:1", "--kept", "cobweb"], "do not all count"),
        (["eye:2,camera:1", "--kept", "eye,eye,camera"], "nothing left to roll for"),
        (["eye:2,camera:1", "--kept", "eye", "--no-keep"], "--kept needs dice that may be kept"),
    ],
)
def test_cli_refuses_bad_input_with_a_message_and_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert odds_main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion odds: ")
    assert message in err


def test_cli_is_reached_through_the_companion_command(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["odds", "key:1", "--rolls", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"][0]["fraction"] == "7/8"


def test_the_odds_table_in_the_docs_is_what_the_code_says() -> None:
    """docs/dice.md, "Odds at a glance", must not drift from the code."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "dice.md").read_text(encoding="utf-8")
    section = text.split("## Odds at a glance", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert len(rows) >= 10
    columns = [(3, 1, True), (3, 3, True), (4, 3, True), (5, 3, True), (3, 3, False)]
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        req = R(cells[0].strip("`"))
        for cell, (dice, rolls, keep) in zip(cells[1:], columns):
            expected = "—" if req.size > dice else f"{success_probability(req, dice, rolls, keep) * 100:.1f} %"
            assert cell == expected, (str(req), dice, rolls, keep)
