"""An old file reopened, and the host undoes back into its stored commands: what is played then is new and plays as
the companion plays now (Game.in_stored_history: an older reading holds for the commands the file stored only). Undo
and redo, and the corrected read (GameService.replace_last, which takes the roll back and puts it back before playing
the correction), put a stored command back exactly as the file played it. On real SQLite files written the old way."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from games import numbers_copied, write_played_then

from companion.errors import BadCommand
from companion.games.elder_sign.engine import Game, Reading, Setup
from companion.games.elder_sign.packs import load_packs
from companion.history import GameStore, replay_game
from companion.record import RecordBook
from companion.service import GameService

PACKS = load_packs()
SETUP = Setup(players=2, seed=3)
ROLL = "roll faces=inv1,lore,peril,peril,peril,peril"  # meets all three tasks


def first_task_file(tmp_path: Path) -> tuple[GameStore, int, Game]:
    """A file of before the task choice (Reading.FIRST_TASK): its last roll met three tasks and completed the first."""
    then = Game.new(SETUP, PACKS, reading=Reading.FIRST_TASK)
    while then.view()["question"]:
        then.push("card-did effect=nothing")
    numbers_copied(then)
    played = [str(c) for c in then.history]
    then = Game.new(SETUP, PACKS, reading=Reading.FIRST_TASK)
    store = GameStore(tmp_path / "then.sqlite")
    adventure = ["set-tasks adventure=1 tasks=inv:1;lore:1;peril:1 ordered=false", "move to=1", ROLL]
    return store, write_played_then(store, then, [*played, *adventure]), then


def done(view: dict) -> list[bool]:
    return [t["done"] for t in view["adventures"][0]["tasks"]]


def opened(store: GameStore, game_id: int) -> GameService:
    service = GameService(store, PACKS, rng=random.Random(1))
    service.load_game(game_id)
    return service


def test_a_roll_played_after_undoing_into_the_stored_history_asks_the_task(tmp_path: Path) -> None:
    """:177 "you can complete that task", :189 "I can only pick one": the roll the host plays after undoing the
    stored roll is new, so it waits for the player's choice (the old reading completed the first task met); the file
    reopens so."""
    store, game_id, then = first_task_file(tmp_path)
    service = opened(store, game_id)
    try:
        assert done(service.state()) == [True, False, False]  # the stored roll, as played then
        service.undo()
        state = service.do("roll", {"faces": ROLL.split("=")[1]}).state
        assert state["attempt"]["choose"] == [1, 2, 3] and done(state) == [False, False, False]
        again = replay_game(store, game_id, PACKS)
        assert again.view()["attempt"]["choose"] == [1, 2, 3] and done(again.view()) == [False, False, False]
        service.do("complete", {"task": "3"})
        assert done(service.state()) == [False, False, True]
        assert replay_game(store, game_id, PACKS).view() == service._game.view()  # type: ignore[union-attr]
        record = RecordBook(store, lambda rules: PACKS).record(game_id)  # the games record reads it alike
        assert "problem" not in record and record["commands"] == len(service._game.history)  # type: ignore[union-attr]
    finally:
        service.close()


def test_undo_and_redo_of_a_stored_roll_put_it_back_as_the_file_played_it(tmp_path: Path) -> None:
    store, game_id, then = first_task_file(tmp_path)
    service = opened(store, game_id)
    try:
        service.undo()
        state = service.redo().state
        assert done(state) == [True, False, False] and "choose" not in state["attempt"]
        assert service._game.view() == then.view()  # type: ignore[union-attr]
        assert replay_game(store, game_id, PACKS).view() == then.view()
    finally:
        service.close()


def test_the_corrected_read_of_a_stored_roll_is_a_new_roll(tmp_path: Path) -> None:
    """The tray misread the stored roll: its correction is played as now (the roll meets two tasks: the choice is
    asked); a correction refused puts the stored roll back exactly as played."""
    store, game_id, then = first_task_file(tmp_path)
    service = opened(store, game_id)
    try:
        with pytest.raises(BadCommand, match="the pool rolls 6 dice"):
            service.replace_last("roll", {"faces": "inv1,lore"})  # not the pool's six dice: refused
        assert service._game.view() == then.view()  # type: ignore[union-attr]
        state = service.replace_last("roll", {"faces": "inv1,lore,terror,terror,terror,terror"}).state
        assert state["attempt"]["choose"] == [1, 2] and done(state) == [False, False, False]
        assert replay_game(store, game_id, PACKS).view() == service._game.view()  # type: ignore[union-attr]
    finally:
        service.close()


def test_a_command_played_as_now_after_the_undo_reopens_as_played(tmp_path: Path) -> None:
    """A file of before the stand-in's numbers were asked first (Reading.NUMBERS): the host undoes the stored terror's
    answer and tells stamina -9. Played as now, the investigator's numbers are the stand-in's, made up (not copied
    from the card): no one is devoured by them. Nothing but its events tells the reopened file so (no refusal, no
    other event): the command's events say the game plays as now from there, and the file reopens as played."""
    played = [
        "card-did effect=nothing",
        "set-tasks adventure=1 tasks=inv:1;lore:1 ordered=false",
        "move to=1",
        "roll faces=terror,peril,peril,peril,peril,peril",
        "card-did effect=nothing",
    ]
    store = GameStore(tmp_path / "then.sqlite")
    game_id = write_played_then(store, Game.new(SETUP, PACKS, reading=Reading.NUMBERS), played)
    service = opened(store, game_id)
    try:
        assert service._game.reading >= Reading.NUMBERS  # type: ignore[union-attr]
        service.undo()
        result = service.do("card-did", {"effect": "stamina", "n": "-9"})
        assert not any(i["devoured"] for i in result.state["investigators"])  # the made-up numbers devour no one
        again = replay_game(store, game_id, PACKS)
        assert again.view() == service._game.view()  # type: ignore[union-attr]
        said = " ".join(str(r.get("said") or r.get("text") or "") for r in result.events)
        assert "from here on it plays as the companion plays now" in said, said
    finally:
        service.close()
