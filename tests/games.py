"""Games for the rules tests: one way to start one, instead of a copy of `new()` in each test module."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.games.base import Engine, GameModule, TableDice, TrayDie
from companion.games.skeptics.engine import Game, Setup
from companion.games.skeptics.packs import load_packs

PACKS = load_packs()


def new_game(
    players: int = 3,
    seed: int | str = 1,
    *,
    board: str = "asylum",
    ghost: str = "child",
    physical: bool = False,
    special_items: int = 3,
) -> Game:
    """A new game on the bundled packs (the Asylum and the Child unless told otherwise), seeded."""
    setup = Setup(players=players, board=board, ghost=ghost, special_items=special_items, seed=seed, physical=physical)
    return Game.new(setup, PACKS)


def types(events: Iterable[Mapping[str, object]]) -> list[object]:
    """The types of `events`, in order."""
    return [e["type"] for e in events]


def assert_no_dice(module: GameModule, game: Engine) -> None:
    """A game played without dice: the companion rolls none, and dice in the tray are told to be no roll."""
    import random

    import pytest

    from companion.errors import IllegalCommand

    with pytest.raises(IllegalCommand, match="does not roll dice"):
        module.virtual_roll(game, random.Random(1), None)
    outcome = module.tray_roll(game, [TrayDie("blue", 3)], TableDice(), why="button", auto_roll=True)
    assert outcome.command is None and outcome.tell and "without dice" in outcome.tell
