"""A refusal names the player as the table named them: the engines word it by number ("player 1 has used all 3
actions"), and the service's words (GameService.say: the page's refusal, the log of the table's button) put the
name in, where the host gave one."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from web_fixtures import serve_table

from companion.errors import CompanionError
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService
from companion.words import by_name

SETUP = {"players": 2, "board": "asylum", "ghost": "child", "seed": 3}


def service_with(tmp_path: Path, **setup: Any) -> GameService:
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(3))
    service.new_game({**SETUP, **setup})
    return service


def fourth_action(service: GameService) -> CompanionError:
    """The turn's three actions spent, a fourth is refused (the engine's words name the player by number)."""
    for _ in range(3):
        service.do("action", {"kind": "move"})
    with pytest.raises(CompanionError) as refused:
        service.do("action", {"kind": "move"})
    return refused.value


def test_the_refusal_names_the_player_the_table_named(tmp_path: Path) -> None:
    service = service_with(tmp_path, names=["Ada", "Bo"])
    try:
        refusal = fourth_action(service)
        assert "player 1 " in str(refusal)  # the engine's own words: by number
        said = service.say(str(refusal))
        assert said.startswith("Ada has used all 3 actions"), said
        assert "layer 1" not in said
    finally:
        service.close()


def test_without_names_the_refusal_keeps_the_players_number(tmp_path: Path) -> None:
    service = service_with(tmp_path)
    try:
        said = service.say(str(fourth_action(service)))
        assert said.startswith("Player 1 has used all 3 actions"), said
    finally:
        service.close()


def test_the_hosts_phone_reads_the_refusal_with_the_name(tmp_path: Path) -> None:
    service = service_with(tmp_path, names=["Ada", "Bo"])
    for table in serve_table(tmp_path, service=service):
        host = table.host()
        for _ in range(3):
            assert host.post("/api/command", {"command": "action", "args": {"kind": "move"}}).status == 200
        reply = host.post("/api/command", {"command": "action", "args": {"kind": "move"}})
        assert reply.status == 409, reply.body
        assert reply.json()["say"].startswith("Ada has used all 3 actions"), reply.json()


def test_by_name_puts_each_seats_name_in_and_leaves_the_rest() -> None:
    names = ["Ada", "Bo", "Player 3"]
    assert by_name("Player 2's magnifying glass is used up.", names) == "Bo's magnifying glass is used up."
    assert by_name("seat 1's character was voted out", names) == "Ada's character was voted out"
    assert by_name("Player 3 holds 3 items already.", names) == "Player 3 holds 3 items already."  # no name given
    assert by_name("seat 2 (Bo) has played", names) == "seat 2 (Bo) has played"  # named already
    assert by_name("player 4 is not at the table", names) == "player 4 is not at the table"
    assert by_name("Player Turn: up to three actions", names) == "Player Turn: up to three actions"
    assert by_name("player 1 moves", []) == "player 1 moves"
