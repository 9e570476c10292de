"""--sim's tray camera (issue 26): the tray shows the dice of the roll under way, and no others, when a person
throws them (vision.sim_tray.Thrower)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from games import numbers_copied

from companion.config import CameraConfig
from companion.errors import CameraError
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService
from vision.reader import read_dice
from vision.sim_tray import ThrowCamera, Thrower
from vision.tray_loop import TrayLoop, sim_color_kinds, tray_settings


class Throws:
    """A stand-in for the service's next_throw: what the test says is under way."""

    def __init__(self) -> None:
        self.serial = 0
        self.names: tuple[str, ...] = ()

    def __call__(self) -> tuple[int, tuple[str, ...]]:
        return self.serial, self.names


def test_the_tray_shows_the_dice_of_the_throw_and_the_reader_reads_them_in_their_colours() -> None:
    throws = Throws()
    camera = ThrowCamera(throws, kinds={"clue": "blue", "key": "green", "summon": "red"}, seed=3)
    assert read_dice(camera.read()) == []  # no roll under way: an empty tray
    throws.serial, throws.names = 1, ("clue", "clue", "key", "summon")
    readings = read_dice(camera.read())
    assert Counter(r.color for r in readings) == Counter({"blue": 2, "green": 1, "red": 1})
    assert all(r.value is not None for r in readings)
    assert camera.shown == ("blue", "blue", "green", "red")


def test_the_dice_are_thrown_again_on_each_throw_and_only_then() -> None:
    throws = Throws()
    throws.serial, throws.names = 4, ("green", "yellow")
    camera = ThrowCamera(throws, seed=1)
    first = camera.read()
    assert (camera.read() == first).all() and camera.throws == 1  # the dice lie still: the same photo
    throws.serial = 5  # a person tapped "Throw the dice (simulated tray)": the same dice, thrown again
    assert not (camera.read() == first).all() and camera.throws == 2


def test_a_die_of_no_known_colour_is_a_clear_error() -> None:
    with pytest.raises(CameraError, match="no 'teal' dice"):
        ThrowCamera(lambda: (0, ("teal",))).read()


def test_the_services_next_throw_is_the_attempts_dice_and_a_tap_throws_them(tmp_path: Any) -> None:
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(2))
    try:
        thrower = Thrower(service.next_throw)
        assert service.next_throw() == () and thrower() == (0, ())  # no game, nothing thrown
        service.new_game({"players": 3, "board": "asylum", "ghost": "child", "seed": 7})
        assert service.next_throw() == ()  # no attempt under way
        service.do("attempt", {"action": "search", "need": "eye:1"})
        assert service.next_throw() == ("clue", "clue", "clue") and thrower() == (0, ())  # not thrown by itself
        camera = ThrowCamera(thrower, kinds={"clue": "blue"}, seed=1)
        camera.read()
        assert camera.shown == ()
        assert thrower.throw() == ("clue", "clue", "clue") and thrower() == (1, ("clue", "clue", "clue"))
        camera.read()
        assert camera.shown == ("blue", "blue", "blue")
        service.new_game({"rules": "elder-sign", "players": 2, "seed": 3})
        assert service.next_throw() == ()  # at the entrance: no roll yet
        numbers_copied(service._game, service)  # the stand-in cards' numbers, before the first turn
        card = service.state()["adventures"][0]["slot"]  # a stand-in: its tasks are entered before a roll
        service.do("set-tasks", {"adventure": card, "tasks": "inv:6", "ordered": "false"})
        service.do("move", {"to": card})
        names = service.next_throw()
        assert names and set(names) == {"green"}  # the first roll of an adventure throws the green dice alone
    finally:
        service.close()


def test_the_simulated_tray_loop_paints_each_kind_in_its_usual_colour() -> None:
    tray = tray_settings({"kinds": sim_color_kinds()})
    loop = TrayLoop(
        CameraConfig(),
        tray,
        sim=True,
        on_readings=lambda readings, why: None,
        throw=lambda: (1, ("clue", "key", "summon")),
    )
    assert loop.thrower is not None  # this tray's camera is the simulated one: the page offers the throw
    assert loop.kind_colours() == {"clue": "blue", "key": "green", "summon": "red"}
    camera = loop.open_camera()
    assert isinstance(camera, ThrowCamera)
    camera.read()
    assert camera.shown == ("blue", "green", "red")


def test_a_replayed_or_real_camera_offers_no_simulated_throw() -> None:
    tray = tray_settings({"kinds": sim_color_kinds()})
    throw = Thrower(lambda: ("clue",))
    replayed = TrayLoop(CameraConfig(source="replay:x"), tray, sim=True, on_readings=lambda r, w: None, throw=throw)
    real = TrayLoop(CameraConfig(), tray, sim=False, on_readings=lambda r, w: None, throw=throw)
    assert replayed.thrower is None and real.thrower is None
