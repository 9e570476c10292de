"""The next player's turn waits for what the Mythos card did at midnight (engine.MIDNIGHT_FIRST): at midnight the At
Midnight effects are resolved, then the Mythos card is drawn and resolved, and only then "it's the next player's turn"
(elder-sign-rules.txt:309-323). The companion asks the host about a card not filled in yet as the turn before ends, so
the question stands under the next player's turn: its move, rolls and end are not offered and are refused, naming the
question, until it is told; the table's corrections are not. A game stored when the next player moved and rolled with
it still asked reopens as it was played (a real SQLite file written by main's code before, Reading.MIDNIGHT_ASKED)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from games import numbers_copied

from companion.errors import IllegalCommand
from companion.games.elder_sign.engine import Game, Reading, Setup
from companion.games.elder_sign.module import MODULE
from companion.games.elder_sign.packs import load_packs
from companion.history import GameStore, replay_game

DATA = Path(__file__).parent / "data"
OLD_FILE = DATA / "elder-sign-midnight-asked.sqlite"  # written by main (b3aa71d) before this change (see its .json)
OLD = json.loads((DATA / "elder-sign-midnight-asked.json").read_text())
TURN = {"move", "roll", "end-turn"}


def at_midnight() -> Game:
    """Two players; the setup's Mythos card told, then four turns: the clock at XII, the Mythos card in play asked
    about at midnight, and the one drawn then, under player 1's turn."""
    game = Game.new(Setup(players=2, seed=5), load_packs())
    while game.view()["question"]:
        game.push("card-did effect=nothing")
    numbers_copied(game)
    for _ in range(4):
        game.push("end-turn")
    return game


def offered(game: Game) -> set[str]:
    return {a.name for a in game.legal_actions()}


def refused(game: Game, command: str) -> str:
    before, played = game.view(), game.played
    with pytest.raises(IllegalCommand) as no:
        game.push(command)
    assert game.view() == before and game.played == played  # nothing of it was played
    return str(no.value)


def told_then_moved(game: Game, player: int, to: str) -> None:
    """The question told as done: the turn is offered again, and its move is played."""
    game.push("card-did effect=nothing")
    assert game.view()["question"] is None
    assert {"move", "end-turn"} <= offered(game)
    game.push(f"move to={to}")
    assert game.view()["investigators"][player]["place"] == to


def test_the_next_turn_waits_for_the_mythos_card_of_midnight() -> None:
    game = at_midnight()
    view = game.view()
    assert view["current_player"] == 0 and view["midnights"] == 1
    assert (view["question"]["kind"], view["question"]["part"]) == ("mythos", "at_midnight")
    assert not TURN & offered(game)
    message = refused(game, "move to=1")
    assert "what the Mythos card in play did at midnight is still asked" in message, message
    assert ":311-323" in message and "card-did effect=nothing" in message
    said = MODULE.for_players(message, MODULE.names(game), 0)  # the page's words of the refusal
    assert "mythos card in play did at midnight is still asked" in said.lower(), said
    assert "effect=" not in said, said
    refused(game, "move to=entrance")
    assert "is still asked" in refused(game, "end-turn")
    game.push("doom n=1")  # a correction of the table is not the turn: it is played
    game.push("card-did effect=nothing")
    assert game.view()["question"]["part"] == "immediate"
    assert not TURN & offered(game)
    assert "what the Mythos card drawn at midnight did is still asked" in refused(game, "move to=1")
    told_then_moved(game, 0, "1")


def test_the_setup_mythos_card_and_the_turn_ending_question_are_as_before() -> None:
    """The Mythos card drawn at setup (:87) is asked before the first turn and does not hold it (only a midnight's
    does); a question of the turn itself (an adventure's penalty) holds only its end (engine.ASKED_BEFORE_ENDING)."""
    game = Game.new(Setup(players=2, seed=5), load_packs())
    assert game.view()["question"]["part"] == "immediate"
    numbers_copied(game)
    assert "move" in offered(game)
    message = refused(game, "end-turn")
    assert "belongs to this turn" in message and "next player's turn" not in message, message


@contextmanager
def reopened(tmp_path: Path, file: Path, old: Mapping[str, Any], reading: Reading) -> Iterator[Game]:
    """The stored game of `file` (written by main's code before, `old` its .json) reopened from a copy: in `reading`,
    to the state it was stored with, every command of it played."""
    path = tmp_path / "old.sqlite"
    shutil.copy(file, path)
    store = GameStore(path)
    try:
        game = replay_game(store, old["game_id"], load_packs())
        assert isinstance(game, Game) and game.reading == reading
        assert json_view(game) == old["view"]
        assert len(game.history) == len(old["commands"])
        yield game
    finally:
        store.close()


def json_view(game: Game) -> Any:
    return json.loads(json.dumps(game.view(), sort_keys=True, default=str))


def test_a_game_stored_with_the_turn_played_under_the_midnight_question_reopens_as_played(tmp_path: Path) -> None:
    """The file (written by main's code before): player 1 moved and rolled with the Mythos card of midnight still
    asked, told it after. It reopens to the state it was stored with; played on, the next midnight's turn waits."""
    commands = OLD["commands"]
    told = commands.index("card-did effect=nothing", commands.index("move to=1"))
    assert commands.index("move to=1") < told and any(c.startswith("roll") for c in commands[:told])
    with reopened(tmp_path, OLD_FILE, OLD, Reading.MIDNIGHT_ASKED) as game:
        # played on, as the companion plays now: the next midnight's Mythos card holds the turn after it
        while game.view()["midnights"] == OLD["view"]["midnights"]:
            game.push("end-turn")
        assert game.view()["question"]["part"] == "at_midnight"
        assert "is still asked" in refused(game, "move to=1")
