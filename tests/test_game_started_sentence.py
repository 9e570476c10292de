"""The first line of every game's log: the service writes a ``game_started`` record for each new game, and each
game says it in words (before, Elder Sign and Spooks said "Something happens on the table."), on a real SQLite
file, as the page's log reads it (GameService.events_since)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService

NAMES = ["Ada", "Bo", "Cy", "Di"]
SETUPS: dict[str, dict[str, Any]] = {
    "skeptics": {"players": 2, "board": "asylum", "ghost": "child", "seed": 3},
    "elder-sign": {"players": 2, "seed": 3},
    "among-cultists": {"players": 4, "cultists": 1, "points_needed": 5, "seed": 3},
    "spooks": {"players": 3},
    "spooks-long": {"players": 4, "variant": "long"},
}


@pytest.mark.parametrize("key", list(SETUPS))
def test_a_new_game_is_told_in_words_naming_the_table(tmp_path: Path, key: str) -> None:
    setup = SETUPS[key]
    service = GameService(GameStore(tmp_path / "g.sqlite3"), load_packs(), rng=random.Random(3))
    try:
        state = service.new_game({"rules": key.removesuffix("-long"), "names": NAMES[: setup["players"]], **setup})
        first = service.events_since(0)[0]
        said = first["text"]
    finally:
        service.close()
    assert first["type"] == "game_started" and said == service.describe([first])[0]
    assert "happens on the table" not in said
    if key != "among-cultists":  # the night's first line hides the players among whom the cultists hide
        assert all(name in said for name in NAMES[: setup["players"]]), said
    if key == "elder-sign":  # the Ancient One as the table calls it, then the stand-in drawn told plainly
        assert (
            said
            == f"A new game starts: Ada and Bo against {state['ancient_one']['said']}. {state['ancient_one_drawn']}"
        )
    if key.startswith("spooks"):  # spooks-rules.txt:3, the longer game: "until three players are left"
        assert ("until three are left" in said) == (setup.get("variant") == "long")
