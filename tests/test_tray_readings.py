"""One throw is one roll: a tray reading is played at most once, and never after the game moved on since it was read
(a fresh player booked the dice of a throw the companion had already counted as a new roll: 2·1·1 = eye, eye, eye);
and --sim's tray throws only when a person taps (the first search threw twice within a second, spending two actions,
Elder Sign's tray played the adventure by itself, and the tray rolled after every command that was not a roll)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from games import numbers_copied

from companion.errors import IllegalCommand
from companion.games.base import TrayDie
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService
from companion.tray_readings import ALREADY_PLAYED
from vision.sim_tray import NO_ROLL, ThrowCamera, Thrower


@pytest.fixture
def service(tmp_path: Path) -> Iterator[GameService]:
    svc = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(5))
    svc.new_game({"players": 3, "board": "asylum", "ghost": "child", "seed": 7})
    yield svc
    svc.close()


def rolls(service: GameService) -> list[dict[str, object]]:
    return [h["command"] for h in service.history() if h["command"]["name"] == "roll"]


def test_a_reading_the_tray_played_is_refused_when_the_host_uses_it_again(service: GameService) -> None:
    service.do("attempt", {"action": "search", "need": "camera:3"})
    dice = [TrayDie("blue", 2), TrayDie("blue", 1), TrayDie("blue", 1)]
    outcome, result = service.roll_from_tray(dice, why="settled", auto_roll=True)
    assert result is not None and len(rolls(service)) == 1
    shown = service.tray_reading()
    assert shown is not None and shown["played"] and not shown["usable"]
    before = service.history()
    with pytest.raises(IllegalCommand, match="already played; throw again"):
        service.roll_from_tray([], why="button", reading=shown["reading"])
    assert service.history() == before  # nothing played


def test_a_reading_older_than_the_roll_under_way_is_refused(service: GameService) -> None:
    """A reading the host did not book, then "Roll for me": the dice in the tray are from before that roll."""
    service.do("attempt", {"action": "search", "need": "camera:3"})
    dice = [TrayDie("blue", 2), TrayDie("blue", 1), TrayDie("blue", 1)]
    _, result = service.roll_from_tray(dice, why="settled", auto_roll=False)  # read, not played: the host books it
    assert result is None
    shown = service.tray_reading()
    assert shown is not None and shown["usable"] and not shown["played"]
    assert [d["value"] for d in shown["dice"]] == [2, 1, 1]
    service.roll_virtual()  # "Roll for me": the companion's own dice
    shown = service.tray_reading()
    assert shown is not None and not shown["usable"] and not shown["played"]
    assert "before the game moved on" in str(shown["refusal"])
    with pytest.raises(IllegalCommand, match="throw again"):
        service.roll_from_tray([], why="button", reading=shown["reading"])
    assert len(rolls(service)) == 1  # the virtual roll alone


def test_the_newest_reading_is_played_once_and_only_the_newest(service: GameService) -> None:
    service.do("attempt", {"action": "search", "need": "camera:3"})
    service.roll_from_tray([TrayDie("blue", 6)] * 3, why="settled", auto_roll=False)
    first = service.tray_reading()
    service.roll_from_tray([TrayDie("blue", 2), TrayDie("blue", 6), TrayDie("blue", 6)], why="settled", auto_roll=False)
    newest = service.tray_reading()
    assert first is not None and newest is not None and newest["reading"] == first["reading"] + 1
    with pytest.raises(IllegalCommand, match="not the tray's newest"):
        service.roll_from_tray([], why="button", reading=first["reading"])
    # the service plays its own copy of the newest reading; the dice the caller passes are not looked at
    _, result = service.roll_from_tray([TrayDie("blue", 4)] * 3, why="button", reading=newest["reading"])
    assert result is not None and rolls(service)[-1]["args"] == {"faces": "eye,cobweb,cobweb"}
    assert service.history()[-1]["source"] == "tray"
    with pytest.raises(IllegalCommand, match=ALREADY_PLAYED.split(";")[0]):
        service.roll_from_tray([], why="button", reading=newest["reading"])
    assert len(rolls(service)) == 1


def test_a_reading_that_is_no_roll_is_refused_in_words_when_the_host_asks(service: GameService) -> None:
    service.do("attempt", {"action": "search", "need": "camera:3"})
    service.roll_from_tray([TrayDie("blue", 2)], why="settled", auto_roll=False)
    shown = service.tray_reading()
    assert shown is not None
    with pytest.raises(IllegalCommand, match="needs 3 clue dice, the tray shows 1"):
        service.roll_from_tray([], why="button", reading=shown["reading"])
    assert rolls(service) == []


def throws_of(camera: ThrowCamera, service: GameService, play: list[tuple[str, dict[str, str]]]) -> int:
    """How many times --sim's tray camera throws while ``play`` is played, a look at the tray after each command."""
    camera.read()
    start = camera.throws
    for name, args in play:
        service.do(name, args)
        camera.read()
        camera.read()
    return camera.throws - start


def test_the_sim_tray_throws_on_a_tap_only_and_each_tap_the_dice_still_to_roll(service: GameService) -> None:
    """The first search's roll kept an eye, so the next roll throws two dice: that once made the tray throw again;
    now no command throws (a fresh player saw the tray roll by itself after every one), a tap does."""
    thrower = Thrower(service.next_throw)
    camera = ThrowCamera(thrower, kinds={"clue": "blue", "key": "green", "summon": "red"}, seed=1)
    assert throws_of(camera, service, [("attempt", {"action": "search", "need": "eye:1,camera:1"})]) == 0
    assert thrower.throw() == ("clue",) * 3
    camera.read()
    assert camera.shown == ("blue",) * 3
    assert throws_of(camera, service, [("roll", {"faces": "eye,cobweb,cobweb", "keep": "eye"})]) == 0
    assert service.state()["attempt"]["dice_to_roll"] == 2  # fewer dice to roll, and still no throw of its own
    assert thrower.throw() == ("clue",) * 2  # the next tap throws the two
    camera.read()
    assert camera.shown == ("blue",) * 2
    assert throws_of(camera, service, [("roll", {"faces": "cobweb,cobweb"}), ("end-turn", {})]) == 0


def test_a_tap_with_no_roll_under_way_throws_nothing_and_says_so(service: GameService) -> None:
    thrower = Thrower(service.next_throw)
    camera = ThrowCamera(thrower, seed=2)
    camera.read()
    with pytest.raises(IllegalCommand, match=r"none is under way"):
        thrower.throw()
    assert thrower.view() == {"dice": [], "why": NO_ROLL, "throws": 0}
    camera.read()
    assert camera.throws == 1 and camera.shown == ()  # the empty tray, drawn once


def test_elder_signs_sim_tray_throws_nothing_after_a_move_a_roll_or_a_clue(tmp_path: Path) -> None:
    with GameService(GameStore(tmp_path / "es.sqlite"), load_packs(), rng=random.Random(3)) as service:
        service.new_game({"rules": "elder-sign", "players": 2, "seed": 3})
        numbers_copied(service._game, service)  # the stand-in cards' numbers, copied before the first turn
        thrower = Thrower(service.next_throw)
        camera = ThrowCamera(thrower, seed=1)
        camera.read()
        start = camera.throws
        slot = service.state()["adventures"][0]["slot"]
        # a stand-in adventure plays the tasks the host enters from the real card (hard ones: a roll fails)
        service.do("set-tasks", {"adventure": slot, "tasks": "inv:5,lore:2", "ordered": "false"})
        service.do("move", {"to": slot})
        if service.state().get("question"):  # a Mythos card not filled in yet: the host says it did nothing
            service.do("card-did", {"effect": "nothing"})
        camera.read()
        assert camera.throws == start  # the move throws nothing: a person taps
        thrown = thrower.throw()
        camera.read()
        assert camera.throws == start + 1 and camera.shown == thrown  # the first roll at the adventure
        clue_seen = False
        for _ in range(6):  # every roll leaves fewer dice (placed on a task or lost): none is thrown by itself
            legal = {a["name"]: a for a in service.state()["legal"]}
            if "clue" in legal and not clue_seen:  # a clue rolls the failed roll again: no throw either
                clue_seen = True
                last = next(h for h in reversed(service.history()) if h["command"]["name"] == "roll")
                service.do("clue", {"faces": last["command"]["args"]["faces"]})
            elif "roll" in legal:
                service.roll_virtual()
            else:
                break
            camera.read()
            assert camera.throws == start + 1, service.history()[-1]
        assert clue_seen  # this seed's adventure offers a clue after a failed roll


def test_red_dice_the_host_uses_with_no_attempt_are_the_summon_and_then_the_pull(service: GameService) -> None:
    """The card's "Use these dice" once sent a summon by itself; it now goes through the service like a roll."""
    from companion.games.skeptics.dice import DieKind, Face, PipMap

    for command in ("reveal-clue", "solve", "end-round"):
        service.do(command)
    summon_pips = PipMap.default().pips(DieKind.SUMMON, Face.SUMMON)[0]
    service.roll_from_tray([TrayDie("red", summon_pips)], why="settled", auto_roll=True)
    assert service.history()[-1]["command"]["name"] == "end-round"  # dice settling by themselves summon nothing
    shown = service.tray_reading()
    assert shown is not None and shown["usable"]
    _, result = service.roll_from_tray([], why="button", reading=shown["reading"])
    assert result is not None and service.history()[-1]["command"] == {"name": "summon", "args": {"faces": "summon"}}
    assert service.state()["ghost_room"] is not None
    with pytest.raises(IllegalCommand, match="already played"):
        service.roll_from_tray([], why="button", reading=shown["reading"])
    service.roll_from_tray([TrayDie("red", summon_pips)], why="button", auto_roll=True)  # the read-dice button
    assert service.history()[-1]["command"] == {"name": "pull", "args": {"faces": "summon"}}


def test_the_last_games_reading_is_not_shown_as_the_new_games(service: GameService) -> None:
    """The tray's newest reading was read in the game before: the new game's tray card shows no dice of it."""
    service.do("attempt", {"action": "search", "need": "camera:3"})
    service.roll_from_tray([TrayDie("blue", 2), TrayDie("blue", 1), TrayDie("blue", 1)], why="settled")
    assert service.tray_reading() is not None
    service.new_game({"players": 3, "board": "asylum", "ghost": "child", "seed": 8})
    assert service.tray_reading() is None
    service.do("attempt", {"action": "search", "need": "camera:3"})
    service.roll_from_tray([TrayDie("blue", 6), TrayDie("blue", 5), TrayDie("blue", 4)], why="settled", auto_roll=False)
    shown = service.tray_reading()
    assert shown is not None and [d["value"] for d in shown["dice"]] == [6, 5, 4] and shown["usable"]


def test_no_dice_to_throw_once_the_player_has_no_action_left_for_the_roll(service: GameService) -> None:
    """Player Turn: up to three actions (skeptics-rulebook.txt:101): a failed roll with the last action leaves the
    attempt on the table but no roll of it to make, so a tap throws nothing and says why."""
    service.do("attempt", {"action": "search", "need": "camera:3"})
    assert service.next_throw() == ("clue", "clue", "clue")
    thrower = Thrower(service.next_throw)
    rolled = 0
    while service.next_throw():
        service.do("roll", {"faces": "eye,eye,eye"})
        rolled += 1
    assert rolled == 3 and service.state()["attempt"] is not None
    view = thrower.view()
    assert view["dice"] == [] and view["why"] == NO_ROLL and "no action is left" in NO_ROLL
    with pytest.raises(IllegalCommand, match="no action is left"):
        thrower.throw()
    service.do("end-turn", {})
    assert service.next_throw() == ()  # the next player starts no roll by themselves


def test_the_thrower_says_the_game_is_over_once_it_has_ended(service: GameService) -> None:
    """After the end no roll comes: the simulated tray says the game is over, not "end the turn"."""
    from vision.sim_tray import GAME_OVER, NO_ROLL_PLAYER

    thrower = Thrower(service.next_throw, over=service.over)
    assert thrower.view()["why"] == NO_ROLL and not service.over()
    service.new_game({"rules": "elder-sign", "players": 2, "seed": 3})
    while service.state().get("question"):
        service.do("card-did", {"effect": "nothing"})
    numbers_copied(service._game, service)  # the stand-in cards' numbers (the Elder Signs it needs)
    service.do("elder-signs", {"n": str(service.state()["elder_signs_needed"])})
    assert service.over() and service.state()["outcome"] == "won"
    assert thrower.view()["why"] == thrower.view(host=False)["why"] == GAME_OVER != NO_ROLL_PLAYER
    with pytest.raises(IllegalCommand, match="the game is over"):
        thrower.throw()
