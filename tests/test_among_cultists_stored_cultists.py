"""Among Cultists' number of cultists in a game stored when the companion took it "by the number of players". The
review gives no count: it defers to the box's table (seance-deduction-rules-de.txt:4 "anhand der Tabelle in der
Anleitung"; two is possible, :9 and :21 "falls mit zwei Kultisten"), so a new game asks the host. A history file
written before, a real SQLite file whose setup says cultists 0 or the count then taken, reopens as it was played."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.errors import BadCommand
from companion.games.among_cultists.engine import Command, Game, Setup
from companion.games.among_cultists.packs import load_packs
from companion.games.skeptics.packs import load_packs as skeptics_packs
from companion.history import GameStore, replay_game
from companion.service import GameService

PACKS = load_packs()
COMMANDS = ["night-done", "next-phase", "draw-event", "next-phase", "vote seat=2", "end-round", "next-phase"]


def write_then(store: GameStore, setup_json: dict[str, Any], played: Game) -> int:
    """A file as the companion of then wrote it: `setup_json` as stored, each command with the events `played` gave."""
    game_id = store.create_game(setup_json, events=list(played.setup_events))
    for seq, text in enumerate(COMMANDS, 1):
        command = Command.parse(text)
        store.append(game_id, seq, command.to_dict(), played.push(command))
    return game_id


@pytest.mark.parametrize(("players", "then_count"), [(5, 1), (7, 2)])
def test_a_file_stored_with_cultists_0_reopens_with_the_count_of_then(
    tmp_path: Path, players: int, then_count: int
) -> None:
    # the count then: one with 4-6 players, two with 7 or 8 (written out here, not taken from the engine)
    played = Game.new(Setup(players=players, cultists=then_count, points_needed=5, seed=3), PACKS)
    stored = {**played.setup.to_dict(), "cultists": 0}
    path = tmp_path / "then.sqlite3"
    store = GameStore(path)
    try:
        game_id = write_then(store, stored, played)
        assert store.game(game_id).setup["cultists"] == 0  # the file says 0, as then
        game = replay_game(store, game_id, PACKS)
    finally:
        store.close()
    assert isinstance(game, Game) and game.view()["cultists"] == then_count
    assert game.view() == played.view() and game.history == played.history
    # the service reopens it from the file and plays on
    svc = GameService(GameStore(path), skeptics_packs(), rng=random.Random(2))
    try:
        svc.load_game(game_id)
        assert svc.state()["cultists"] == then_count and svc.state()["round"] == 2
        svc.do("draw-event")
        assert svc.state()["event"] and svc.state()["cultists"] == then_count
    finally:
        svc.close()


def test_a_file_stored_with_the_count_named_reopens_with_it(tmp_path: Path) -> None:
    # what the companion of before wrote for a game left "by the number of players": the count it took (7 players: 2)
    played = Game.new(Setup(players=7, cultists=2, points_needed=5, seed=3), PACKS)
    store = GameStore(tmp_path / "named.sqlite3")
    try:
        game_id = write_then(store, played.setup.to_dict(), played)
        game = replay_game(store, game_id, PACKS)
    finally:
        store.close()
    assert isinstance(game, Game) and game.view()["cultists"] == 2 and game.view() == played.view()


@pytest.mark.parametrize("setup", [{}, {"cultists": 0}, {"cultists": None}])
def test_a_new_game_without_the_count_is_refused_and_nothing_is_written(tmp_path: Path, setup: dict[str, Any]) -> None:
    store = GameStore(tmp_path / "new.sqlite3")
    svc = GameService(store, skeptics_packs(), rng=random.Random(2))
    try:
        with pytest.raises(BadCommand, match=r"how many cultists play, 1 or 2: .*your box's table"):
            svc.new_game({"rules": "among-cultists", "players": 7, "points_needed": 5, "seed": 3, **setup})
        assert svc.list_games() == []
        state = svc.new_game({"rules": "among-cultists", "players": 7, "cultists": 1, "points_needed": 5, "seed": 3})
        assert state["cultists"] == 1  # seven players with the one the host gave, not two of a made-up table
    finally:
        svc.close()
