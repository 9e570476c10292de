"""elder-sign-rules.txt:202-211: after a failed roll with terror, "I need to resolve all Terror effects ... Whether or
not I resolved any Terror effects, I have a couple of options: 1. I can try again". While the host has not told what a
card not filled in yet's terror did, the host's page offers no roll; neither do the dice tray nor --sim's throw."""

from __future__ import annotations

from pathlib import Path

import pytest
from games import cards_told, write_played_then
from test_elder_sign_findings import stand_in_attempt

from companion.errors import IllegalCommand
from companion.games.base import TableDice, TrayDie
from companion.games.elder_sign.engine import Game, Reading, Setup
from companion.games.elder_sign.module import MODULE, TERROR_FIRST, icon_pips
from companion.games.elder_sign.packs import load_packs
from companion.history import GameStore, replay_game
from vision.sim_tray import NO_ROLL, Thrower


def _dice(count: int) -> list[TrayDie]:
    return [TrayDie("green", icon_pips("green:lore"))] * count


def test_no_tray_roll_and_no_simulated_throw_before_the_terror_is_told() -> None:
    game = stand_in_attempt("peril:3")
    game.push("roll faces=terror,terror,inv1,inv1,lore,lore")
    assert game.view()["question"]["part"] == "terror"
    thrower = Thrower(lambda: MODULE.next_throw(game))
    assert MODULE.next_throw(game) == ()
    with pytest.raises(IllegalCommand, match=NO_ROLL[:20]):
        thrower.throw()
    throws = len(game.next_roll_dice())
    outcome = MODULE.tray_roll(game, _dice(throws), TableDice(), why="button", auto_roll=True)
    assert outcome.command is None and outcome.tell == TERROR_FIRST
    played = len(game.history)
    while game.view()["question"]:
        game.push("card-did effect=nothing")  # the host tells what the real card's terror did
    assert MODULE.next_throw(game) == ("green",) * throws and thrower.throw() == ("green",) * throws
    outcome = MODULE.tray_roll(game, _dice(throws), TableDice(), why="settled", auto_roll=True)
    assert outcome.command is not None and outcome.command[0] == "roll"
    assert len(game.history) > played


def test_the_engine_refuses_a_roll_or_a_clue_before_the_terror_is_told() -> None:
    """:202-211: the terror is resolved, then "I can try again": a roll, or a clue's re-roll (:359), is refused while
    the host has not told what the real card's terror did; nothing changes, and told, the roll goes on."""
    game = stand_in_attempt("peril:3")
    game.push("adjust player=1 clues=1")
    game.push("roll faces=terror,terror,inv1,inv1,lore,lore")
    assert game.terror_open()
    before = game.view()
    for text in ("roll faces=inv1,inv1,inv1,inv1,inv1", "clue faces=inv1,inv1,inv1,inv1,inv1,inv1"):
        with pytest.raises(IllegalCommand, match="tell what the terror did first.*card-did effect=nothing"):
            game.push(text)
        assert game.view() == before
    assert not {"roll", "clue"} & {a.name for a in game.legal_actions()}
    while game.view()["question"]:
        game.push("card-did effect=nothing")
    assert not game.terror_open() and {"roll", "clue"} <= {a.name for a in game.legal_actions()}
    game.push("roll faces=inv1,inv1,inv1,inv1,inv1")
    assert game.view()["attempt"]["rolls"] == 2


def test_a_history_that_rolled_before_the_terror_was_told_reopens_as_it_was_played(tmp_path: Path) -> None:
    """A file as the companion of before wrote it: a roll before the terror was told, and a first aid after the
    adventure was completed that turn (:196-198). It opens to the same state (Reading.LENIENT); the same roll
    played after reopening is refused."""
    played = [str(c) for c in stand_in_attempt("peril:3").history]
    then = Game.new(Setup(players=2, seed=3), load_packs(), reading=Reading.LENIENT)  # as the companion played it then
    more = [
        "roll faces=terror,inv1,inv1,inv1,lore,lore",
        "roll faces=peril,peril,peril,inv1,lore",  # before the terror was told: completes the card
        "card-did effect=nothing",  # the terror
        "card-did effect=nothing",  # the reward
        "first-aid",  # back at the Entrance from the completed card, the same turn
    ]
    store = GameStore(tmp_path / "then.sqlite")
    try:
        game_id = write_played_then(store, then, [*played, *more])
        assert then.view()["investigators"][0]["place"] == "entrance" and then.state.first_aid  # it was played
        game = replay_game(store, game_id, load_packs())
        assert isinstance(game, Game) and game.reading is Reading.LENIENT
        assert game.view() == then.view() and game.history == then.history
    finally:
        store.close()
    cards_told(game)
    game.push("end-turn")
    game.push("move to=1")
    game.push("set-tasks adventure=1 tasks=peril:3 ordered=false")
    game.push("roll faces=terror,inv1,inv1,inv1,lore,lore")
    with pytest.raises(IllegalCommand, match="tell what the terror did first"):
        game.push("roll faces=peril,peril,peril,inv1,lore")


def test_the_engine_refuses_stopping_or_ending_the_turn_before_the_terror_is_told() -> None:
    """:202-209 "Whether or not I resolved any Terror effects, I have a couple of options: 1. I can try again ... 2. I
    can choose not to resolve the Adventure card": the terror comes before stopping the attempt, and so before the turn
    ends with it; refused in the player's words, nothing changes, and told, either goes on."""
    game = stand_in_attempt("peril:3")
    game.push("roll faces=terror,terror,inv1,inv1,lore,lore")
    assert game.terror_open()
    before = game.view()
    for text in ("give-up", "end-turn"):
        with pytest.raises(IllegalCommand, match="tell what the terror did first: a terror is resolved before") as err:
            game.push(text)
        assert game.view() == before
        said = MODULE.for_players(str(err.value), MODULE.names(game), 0)
        assert "=" not in said and "card-did" not in said and "end-turn" not in said, said
        # the buttons the page shows for it: each amount's "Tell" (core.js amountRow) and the closing tap
        assert said.endswith(
            "answer with the \u201cTell\u201d button, then the \u201cNothing (more): that was all\u201d button."
        ), said
    assert not {"give-up", "end-turn"} & {a.name for a in game.legal_actions()}
    while game.view()["question"]:
        game.push("card-did effect=nothing")
    assert {"give-up", "end-turn"} <= {a.name for a in game.legal_actions()}
    game.push("give-up")
    assert game.view()["attempt"] is None


def test_a_history_that_stopped_before_the_terror_was_told_reopens_as_it_was_played(tmp_path: Path) -> None:
    """A file as the companion of before wrote it: a give-up and an end of the turn before the terror was told. It
    opens to the same state (Reading.LENIENT); the same end of the turn played after reopening is refused."""
    played = [str(c) for c in stand_in_attempt("peril:3").history]
    then = Game.new(Setup(players=2, seed=3), load_packs(), reading=Reading.LENIENT)  # as the companion played it then
    more = ["roll faces=terror,inv1,inv1,inv1,lore,lore", "give-up", "end-turn"]
    store = GameStore(tmp_path / "then.sqlite")
    try:
        game_id = write_played_then(store, then, [*played, *more])
        assert then.view()["turn"] == 2 and then.terror_open()  # it was played with the terror still asked
        game = replay_game(store, game_id, load_packs())
        assert isinstance(game, Game) and game.reading is Reading.LENIENT
        assert game.view() == then.view() and game.history == then.history
    finally:
        store.close()
    while game.view()["question"]:
        game.push("card-did effect=nothing")
    game.push("move to=2")
    game.push("set-tasks adventure=2 tasks=peril:3 ordered=false")
    game.push("roll faces=terror,inv1,inv1,inv1,lore,lore")
    with pytest.raises(IllegalCommand, match="tell what the terror did first"):
        game.push("end-turn")
