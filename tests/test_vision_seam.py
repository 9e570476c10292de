"""The dice seen in the tray reach a game only through its module (docs/DESIGN.md, "the parts reach a game only
through its module"): vision hands the service neutral dice (colour, pips, cocked, box) and the game's module says
what they are; the tray's colours are checked in the table's game's words."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.config import CameraConfig
from companion.errors import ConfigError
from companion.games.base import TrayDie, module_for
from companion.games.skeptics.dice import DieKind
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService
from vision.reader import HUE_NAMES, DieReading
from vision.tray_loop import TrayLoop, sim_color_kinds, tray_settings


def test_a_cocked_die_from_the_reader_is_the_games_to_call_and_rolls_nothing(tmp_path: Path) -> None:
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(2))
    try:
        service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 7})
        service.do("attempt", {"action": "search", "need": "eye:1"})
        played = service.state()["history_length"]
        leaning = DieReading(None, (40, 60, 30, 30), 0.8, "blue", cocked=True)
        flat = [DieReading(2, (100, 60, 30, 30), 0.99, "blue"), DieReading(5, (160, 60, 30, 30), 0.99, "blue")]
        for seen in (leaning, TrayDie("blue", None, (40, 60, 30, 30), cocked=True)):
            outcome, result = service.roll_from_tray([seen, *flat], why="button")
            assert result is None and outcome.command is None
            assert outcome.tell is not None and "cocked" in outcome.tell and "40,60" in outcome.tell
        assert service.state()["history_length"] == played
        # the same dice with the leaning one lying flat are the attempt's roll
        _, result = service.roll_from_tray([DieReading(1, (40, 60, 30, 30), 0.99, "blue"), *flat], why="button")
        assert result is not None and service.state()["history_length"] == played + 1
    finally:
        service.close()


def test_the_tray_kinds_are_checked_in_the_default_games_words() -> None:
    tray = tray_settings({"kinds": {" Blue": "KEY", "white": "clue "}})
    assert dict(tray.kinds) == {"blue": "key", "white": "clue"}
    assert dict(tray.usual) == dict(module_for(None).tray_kinds)
    with pytest.raises(ConfigError, match=r"tray\.kinds\.blue: unknown kind of die 'wizard'") as refused:
        tray_settings({"kinds": {"blue": "wizard"}})
    assert all(kind.value in str(refused.value) for kind in DieKind)  # it names the kinds there are
    assert dict(tray_settings({}).kinds) == dict(module_for(None).tray_kinds)  # none set: the usual colours


def test_a_game_whose_dice_are_known_by_colour_takes_any_kind() -> None:
    assert module_for("elder-sign").tray_kinds == {}
    assert module_for("elder-sign").check_tray_kind(" Yellow ") == "yellow"


def test_the_simulation_reads_every_other_colour_as_the_games_common_die() -> None:
    usual = dict(module_for(None).tray_kinds)
    kinds = sim_color_kinds()
    common = next(iter(usual.values()))
    assert {colour: kinds[colour] for colour in usual} == usual
    others = {name for _, name in HUE_NAMES} - set(usual)
    assert others and all(kinds[colour] == common for colour in others)


def test_the_simulated_tray_paints_a_kind_in_its_usual_colour_before_any_other() -> None:
    tray = tray_settings({"kinds": {"white": "clue", "purple": "key", "blue": "clue", "green": "key"}})
    loop = TrayLoop(CameraConfig(), tray, sim=True, on_readings=lambda readings, why: None)
    assert loop.kind_colours() == {"clue": "blue", "key": "green"}  # not white and purple, listed first
    moved = tray_settings({"kinds": {"white": "clue", "blue": "key"}})  # blue is not a clue die at this table
    loop = TrayLoop(CameraConfig(), moved, sim=True, on_readings=lambda readings, why: None)
    assert loop.kind_colours() == {"clue": "white", "key": "blue"}
