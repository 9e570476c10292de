"""Each game's announcement says its weight (companion/games/*/sentences.py): the big moments take the screen
until OK ("screen"), the routine ones are a toast that goes by itself ("toast"); the page follows that word."""

from __future__ import annotations

import pytest

from companion.games.among_cultists import sentences as among_cultists
from companion.games.elder_sign import sentences as elder_sign
from companion.games.skeptics import sentences as skeptics
from companion.games.spooks import sentences as spooks

CASES = [
    (skeptics, {"type": "ghost_mode_started"}, "screen"),
    (skeptics, {"type": "seance_started"}, "screen"),
    (skeptics, {"type": "final_round"}, "screen"),
    (skeptics, {"type": "game_won"}, "screen"),
    (skeptics, {"type": "set_proven", "index": 1, "need": "eye:2"}, "toast"),
    (skeptics, {"type": "seance_declared"}, "toast"),
    (skeptics, {"type": "clock_advanced", "reason": "timer", "clock": "III"}, "toast"),
    (skeptics, {"type": "summon", "success": False}, "toast"),
    (elder_sign, {"type": "midnight"}, "screen"),
    (elder_sign, {"type": "ancient_one_awakens"}, "screen"),
    (elder_sign, {"type": "game_lost"}, "screen"),
    (elder_sign, {"type": "monster_appears", "count": 1}, "toast"),
    (elder_sign, {"type": "adventure_completed", "slot": "2"}, "toast"),
    (elder_sign, {"type": "mythos_drawn", "name": "Mythos 1", "stand_in": True}, "toast"),
    (among_cultists, {"type": "night_started"}, "screen"),
    (among_cultists, {"type": "vote"}, "screen"),
    (among_cultists, {"type": "round_started", "round": 2}, "toast"),
    (spooks, {"type": "game_won"}, "screen"),
    (spooks, {"type": "player_out", "player": 0}, "toast"),
]


@pytest.mark.parametrize(("words", "event", "weight"), CASES)
def test_every_announcement_says_its_weight(words: object, event: dict[str, object], weight: str) -> None:
    said = words.announcement(event)  # type: ignore[attr-defined]
    assert said is not None and said["weight"] == weight, said
    assert said["title"] and said["text"]


def test_the_attack_is_said_once() -> None:
    said = elder_sign.announcement(
        {"type": "ancient_one_attack", "name": "Azathoth", "text": "every investigator loses 1 sanity"}
    )
    assert said is not None and said["title"] == "The Ancient One attacks"
    assert said["text"] == "Every investigator loses 1 sanity." and "attacks" not in said["text"]
