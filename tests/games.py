"""Games for the rules tests: one way to start one, instead of a copy of `new()` in each test module."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

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
