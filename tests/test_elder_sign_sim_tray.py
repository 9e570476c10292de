"""Elder Sign on --sim's tray (vision.sim_tray.ThrowCamera over GameService.next_throw, read by the real dice reader
and played by GameService.roll_from_tray, as companion serve wires them): the table throws only when a player
would, never by itself after "Enter the tasks" or after the last answer about a terror.

A fresh player's two reports: the simulated tray threw (a roll was played) without anyone tapping after the task
entry sheet of a stand-in adventure and after the last terror answer, and one "Roll for me" then looked like two
rolls (the host's, then the tray's after the terror answer). The cause: the sim throws after every command that is
not a roll, and entering tasks and telling a card are such commands."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService
from vision.reader import read_dice
from vision.sim_tray import ThrowCamera


class SimTray:
    """What companion serve --sim does each frame: the drawn tray, read when a new throw lies in it, played."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.camera = ThrowCamera(service.next_throw, seed=11)
        self.seen = 0

    def look(self) -> list[str]:
        """One frame; the faces of the roll played from it (none: nothing new was thrown, or not a roll)."""
        frame = self.camera.read()
        if self.camera.throws == self.seen:
            return []
        self.seen = self.camera.throws
        dice = read_dice(frame)
        if not dice:
            return []
        _, result = self.service.roll_from_tray(dice, why="settled", auto_roll=True)
        if result is None:
            return []
        last = self.service.history()[-1]["command"]
        return [f"{last['name']} faces={last['args']['faces']}"]


@pytest.fixture
def service(tmp_path: Path) -> Iterator[GameService]:
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(4))
    service.new_game({"rules": "elder-sign", "players": 2, "seed": 3, "names": ["Anna", "Ben"]})
    yield service
    service.close()


def _rolls(service: GameService) -> list[tuple[str, str]]:
    return [(h["command"]["name"], h["source"]) for h in service.history() if h["command"]["name"] == "roll"]


def _answer_every_question(service: GameService, tray: SimTray) -> None:
    """The host taps "Nothing (more): that was all" for each card question; the tray is looked at after each tap."""
    while service.state().get("question"):
        service.do("card-did", {"effect": "nothing"})
        assert tray.look() == [], "the tray threw after an answer about a card"


def test_entering_the_tasks_and_answering_a_terror_throw_nothing_the_host_rolls(service: GameService) -> None:
    tray = SimTray(service)
    _answer_every_question(service, tray)  # the setup's Mythos card (a stand-in)
    assert tray.look() == []
    service.do("move", {"to": "1"})
    assert tray.look() == []  # its tasks are not entered: nothing to throw at
    service.do("set-tasks", {"adventure": "1", "tasks": "peril:3,terror:2", "ordered": "false"})
    assert tray.look() == [] and _rolls(service) == []  # the sim once rolled here by itself
    # the host taps "Roll for me" until a roll shows terror (the stand-in adventure's terror is asked)
    for _ in range(6):
        service.roll_virtual(source="web")
        assert tray.look() == []  # a roll settles the dice: no throw of its own
        if service.state().get("question"):
            break
    state = service.state()
    assert state["question"] and state["question"]["part"] == "terror", state["question"]
    rolled = len(_rolls(service))
    _answer_every_question(service, tray)  # the sim once threw and rolled after the last answer
    assert len(_rolls(service)) == rolled and all(source == "web" for _, source in _rolls(service))


def test_a_move_to_a_card_with_its_tasks_is_thrown_once(service: GameService) -> None:
    """The attempt starting is still the table's throw (the design of the --sim tray): one roll, from the tray."""
    tray = SimTray(service)
    _answer_every_question(service, tray)
    service.do("set-tasks", {"adventure": "2", "tasks": "inv:1", "ordered": "false"})
    assert tray.look() == []
    service.do("move", {"to": "2"})
    played = tray.look()
    assert len(played) == 1 and played[0].startswith("roll faces="), played
    assert _rolls(service) == [("roll", "tray")]
    assert tray.look() == [] and len(_rolls(service)) == 1
