"""No end of the turn while a card question is still open (engine.ASKED_BEFORE_ENDING): what a card not filled in yet
did is resolved in the turn it came up in, before the clock (elder-sign-rules.txt:219 the penalties, then "I move on
to the Advance the Clock step"; :413 a devoured investigator's turn still ends with the clock), and a Mythos card drawn
at midnight before "it's the next player's turn" (:317, :323). Told in a later turn, its clock would come after that
turn's clock, and the companion's state would drift from the board. So end-turn is not offered and is refused, naming
the question and what to do; a game stored when a turn ended with a question open reopens as it was played (a real
SQLite file written by the code before, Reading.END_ASKED)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from games import numbers_copied
from test_elder_sign_devoured_rest import DEVOURED
from test_elder_sign_task_choice import at_two_tasks

from companion.errors import IllegalCommand
from companion.games.elder_sign.engine import Game, Reading, Setup
from companion.games.elder_sign.module import MODULE
from companion.games.elder_sign.packs import load_packs
from companion.history import GameStore, replay_game

DATA = Path(__file__).parent / "data"
OLD_FILE = DATA / "elder-sign-end-turn-asked.sqlite"  # written by main before this change (see its .json)
OLD = json.loads((DATA / "elder-sign-end-turn-asked.json").read_text())


def ends(game: Game) -> bool:
    return any(a.name == "end-turn" for a in game.legal_actions())


def refused_end(game: Game) -> str:
    before, played = game.view(), game.played
    with pytest.raises(IllegalCommand) as refused:
        game.push("end-turn")
    assert game.view() == before and game.played == played  # nothing of the turn's end was played
    return str(refused.value)


def test_the_question_after_a_devouring_is_told_before_the_turn_ends() -> None:
    game = at_two_tasks()
    for text in DEVOURED:
        game.push(text)
    numbers_copied(game)  # the new investigator's numbers: nothing else stands before the end of the turn
    assert game.view()["question"]["part"] == "devoured_rest"
    assert not ends(game)
    message = refused_end(game)
    assert "what is left of the devoured investigator's turn is still asked" in message, message
    assert "card-did effect=nothing" in message and ":413" in message
    said = MODULE.for_players(message, MODULE.names(game), 0)  # the page's words of the refusal
    assert "what is left of the devoured investigator's turn is still asked" in said.lower(), said
    assert "Nothing (more)" in said and "effect=" not in said, said
    game.push("card-did effect=nothing")
    assert ends(game)
    game.push("end-turn")
    assert game.view()["current_player"] == 1 and game.view()["question"] is None


def test_a_mythos_card_drawn_at_midnight_is_told_before_the_next_turn_ends() -> None:
    """The bundled Mythos cards are stand-ins: the one drawn at midnight is asked, under the next player's turn; that
    turn does not end before it is told, so its clock comes before that turn's (:317, :323)."""
    game = Game.new(Setup(players=2, seed=5), load_packs())
    while game.view()["question"]:
        game.push("card-did effect=nothing")
    numbers_copied(game)
    for _ in range(4):  # XII -> III -> VI -> IX -> XII: midnight, a Mythos card drawn
        assert ends(game)
        game.push("end-turn")
    question = game.view()["question"]
    # the Mythos card in play at midnight (:309), then the one drawn (:311, :317): both under player 1's turn
    assert (question["kind"], question["part"], question["left"]) == ("mythos", "at_midnight", 1)
    assert game.view()["current_player"] == 0 and not ends(game)
    message = refused_end(game)
    # the Mythos card of midnight holds the whole of the next turn, its end too (engine.MIDNIGHT_FIRST)
    assert "what the Mythos card in play did at midnight is still asked" in message and ":311-323" in message, message
    game.push("card-did effect=nothing")
    assert game.view()["question"]["part"] == "immediate" and not ends(game)
    assert "what the Mythos card drawn at midnight did is still asked" in refused_end(game)
    clock = game.view()["clock"]
    game.push("card-did effect=clock n=3")
    assert game.view()["clock"] != clock  # told in the turn it came up: the board's clock moved with it
    assert not ends(game)  # told one effect: the card may have done more
    game.push("card-did effect=nothing")
    assert ends(game)
    game.push("end-turn")


def json_view(game: Game) -> Any:
    return json.loads(json.dumps(game.view(), sort_keys=True, default=str))


def test_a_game_stored_with_a_turn_ended_while_asked_reopens_as_played(tmp_path: Path) -> None:
    """The file (written by the code before): the devoured player's turn ended with the question open, told under the
    next player's turn (the clock 3 hours on), then that turn ended too. It reopens to the state it was stored with;
    played on, the end of a turn waits for the questions again."""
    path = tmp_path / "old.sqlite"
    shutil.copy(OLD_FILE, path)
    assert OLD["commands"].count("end-turn") == 2
    store = GameStore(path)
    try:
        game = replay_game(store, OLD["game_id"], load_packs())
        assert isinstance(game, Game) and game.reading == Reading.END_ASKED
        assert json_view(game) == OLD["view"]
        assert len(game.history) == len(OLD["commands"])
        # played on, as the companion plays now: the adventure's penalty asked, and the turn waits for it (:219)
        game.push("move to=1")
        game.push("roll faces=peril,peril,peril,peril,peril,peril")
        game.push("give-up")
        assert game.view()["question"]["part"] == "penalty" and not ends(game)
        assert "what the adventure in place 1 did is still asked" in refused_end(game)
        game.push("card-did effect=nothing")
        assert ends(game)
    finally:
        store.close()
