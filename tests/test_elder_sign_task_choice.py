"""A roll whose dice meet more than one task waits for the player's choice, however it was rolled
(elder-sign-rules.txt:177 "If you are able and willing to meet all of the requirements for a single task, you can
complete that task", :189 "Even if the results let me finish multiple tasks, I can only pick one", :179 "or choose
not to meet"); one task met plays at once as before; a game stored before replays as it was played."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from games import numbers_copied, write_played_then

from companion.errors import IllegalCommand
from companion.games.elder_sign.engine import Command, Game, Reading, Setup
from companion.games.elder_sign.module import MODULE, tray_roll
from companion.games.elder_sign.packs import load_packs
from companion.games.elder_sign.sentences import describe_events, for_players
from companion.history import GameStore, replay_game

PACKS = load_packs()


def at_two_tasks(reading: Reading = Reading.NOW) -> Game:
    game = Game.new(Setup(players=2, seed=3), PACKS, reading=reading)
    while game.view()["question"]:
        game.push("card-did effect=nothing")
    numbers_copied(game)
    game.push("set-tasks adventure=1 tasks=inv:1;lore:1 ordered=false")
    game.push("move to=1")
    return game


def done(game: Game) -> list[bool]:
    return [t["done"] for t in game.view()["adventures"][0]["tasks"]]


def test_two_tasks_met_wait_for_the_players_choice() -> None:
    game = at_two_tasks()
    events = game.push("roll faces=inv1,lore,peril,peril,terror,terror")
    assert game.view()["attempt"]["choose"] == [1, 2] and done(game) == [False, False]
    assert "its dice meet tasks 1 and 2, and Player 1 chooses the one it completes" in " ".join(describe_events(events))
    offered = [(a.name, a.args) for a in game.legal_actions() if a.group == "roll"]
    assert offered == [("complete", {"task": "1"}), ("complete", {"task": "2"}), ("complete", {"task": "none"})]
    assert game.odds_question() is None
    with pytest.raises(IllegalCommand, match="choose it first") as refused:
        game.push("roll faces=inv1,lore,peril,peril,terror")
    said = MODULE.for_players(str(refused.value), MODULE.names(game), 0)  # the page's words of the refusal
    assert said == (
        "The roll's dice meet tasks 1 and 2, and one roll completes one task, the one the player chooses (or none): "
        "choose it first."
    )
    with pytest.raises(IllegalCommand):
        game.push("give-up")
    game.push("complete task=2")
    assert done(game) == [False, True] and game.dice_to_roll() == 5  # the lore placed, the others rolled again


def test_none_chosen_fails_the_roll() -> None:
    game = at_two_tasks()
    game.push("roll faces=inv1,lore,peril,peril,peril,peril")
    game.push("complete task=none")
    assert done(game) == [False, False] and game.view()["attempt"]["failed"]


def test_one_task_met_plays_at_once() -> None:
    game = at_two_tasks()
    game.push("roll faces=inv1,peril,peril,peril,peril,peril")
    assert done(game) == [True, False] and "choose" not in game.view()["attempt"]


def test_roll_for_me_and_the_tray_wait_for_the_choice_too() -> None:
    game = at_two_tasks()
    name, args = MODULE.virtual_roll(game, random.Random(0), None)
    assert name == "roll" and "task" not in args  # the engine asks, whoever rolled
    name, args = tray_roll(game, [("green", 1), ("green", 4), ("green", 5), ("green", 5), ("green", 5), ("green", 5)])
    assert (name, args) == ("roll", {"faces": "green:inv1,green:lore,green:peril,green:peril,green:peril,green:peril"})
    game.push(Command(name, args))
    said = tray_roll(game, [("green", 1)] * 5)
    assert isinstance(said, str) and said == for_players(said) and "chooses" in said and "task=" not in said


def test_a_game_stored_before_replays_as_played() -> None:
    """Stored on main before the choice: the roll completed the first task met. Its events show it, also when that
    roll is the file's last command; what is played after reopening asks."""
    old = at_two_tasks(Reading.FIRST_TASK)
    stored = [*old.history]
    events = [old.push("roll faces=inv1,lore,peril,peril,peril,peril")]
    assert done(old) == [True, False]
    stored.append(old.history[-1])
    again = Game.new(Setup(players=2, seed=3), PACKS)  # the roll is the file's last command: its events tell
    for command in again.read_stored(stored, [[]] * (len(stored) - 1) + events):
        again.push(command)
    assert again.view() == old.view()
    old_later = at_two_tasks(Reading.FIRST_TASK)
    old_later.push("roll faces=inv1,lore,peril,peril,peril,peril")
    old_later.push("roll faces=inv1,lore,peril,peril,peril")  # two tasks met again: the first, task 2
    commands = list(old_later.history)
    again = Game.new(Setup(players=2, seed=3), PACKS)
    for command in again.read_stored(commands):  # no events: the later roll is refused in today's reading
        again.push(command)
    assert again.view() == old_later.view()


def test_a_game_stored_before_and_played_on_reopens_again_as_played(tmp_path: Path) -> None:
    """A file of before (a roll completing the first of the tasks its dice met), reopened and played on: a roll
    meeting two tasks then waits for the choice. Reopened again, the first-task reading holds for the commands before
    that roll only (its stored events asked the choice): the file reopens as played, choice pending or made."""
    setup = [
        "set-tasks adventure=1 tasks=inv:1;lore:1;peril:1 ordered=false",
        "move to=1",
        "roll faces=inv1,lore,peril,peril,peril,peril",  # three tasks met: then, the first one (task 1)
    ]
    then = Game.new(Setup(players=2, seed=3), PACKS, reading=Reading.FIRST_TASK)
    while then.view()["question"]:
        then.push("card-did effect=nothing")
    numbers_copied(then)
    played = [str(c) for c in then.history]
    then = Game.new(Setup(players=2, seed=3), PACKS, reading=Reading.FIRST_TASK)
    store = GameStore(tmp_path / "then.sqlite")
    try:
        game_id = write_played_then(store, then, [*played, *setup])
        game = replay_game(store, game_id, PACKS)
        assert isinstance(game, Game) and game.reading >= Reading.FIRST_TASK and game.view() == then.view()
        assert done(game) == [True, False, False]
        for text in ("roll faces=lore,peril,peril,peril,peril", "complete task=3"):
            command = Command.parse(text)
            store.append(game_id, len(game.history) + 1, command.to_dict(), game.push(command))
            assert replay_game(store, game_id, PACKS).view() == game.view()  # the choice pending, then made
        assert done(game) == [True, False, True]
    finally:
        store.close()
