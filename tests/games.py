"""Games for the rules tests: one way to start one, instead of a copy of `new()` in each test module."""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.games.base import Engine, GameModule, TableDice, TrayDie
from companion.games.skeptics.engine import Game, Setup
from companion.games.skeptics.packs import Packs, load_packs
from companion.history import GameStore

BUNDLED = load_packs()  # as shipped: every ghost card and every way of the boards is a stand-in


def filled_in(packs: Packs) -> Packs:
    """The packs with the ghost cards, the evidence tokens and the boards' ways taken as filled in from the cards on
    the table: the rules tests check what a card's printed icon sets, séance symbols and keys do, and what the
    companion's draw of a named evidence token decides (docs/rules-engine.md, "Cards not filled in yet", says what a
    stand-in does instead)."""
    ghosts = {g.id: replace(g, placeholder=False) for g in packs.ghosts.values()}
    evidence = {e.id: replace(e, placeholder=False) for e in packs.evidence.values()}
    boards = {
        b.id: replace(b, connections=tuple(replace(c, placeholder=False) for c in b.connections))
        for b in packs.boards.values()
    }
    return replace(
        packs, ghosts=MappingProxyType(ghosts), evidence=MappingProxyType(evidence), boards=MappingProxyType(boards)
    )


PACKS = filled_in(BUNDLED)


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


def write_played_then(store: GameStore, game: Any, commands: Iterable[str]) -> int:
    """A history file as the companion of then wrote it: the setup, then each command with the events the game of
    then (the old reading, set on `game`) gave it."""
    game_id = store.create_game(game.setup.to_dict(), events=list(getattr(game, "setup_events", ())))
    for seq, text in enumerate(commands, 1):
        command = game.command_type.parse(text)
        store.append(game_id, seq, command.to_dict(), game.push(command))
    return game_id


def numbers_copied(game: Any, service: Any = None) -> None:
    """The host copies the numbers printed on the Elder Sign cards not filled in yet before the first turn
    (Game.numbers_first): here the bundled stand-ins' own, so a test plays as it did with them. `service`: through
    GameService.do (its game is `game`)."""
    for command in game.numbers_first():
        name, *rest = command.split()
        args = dict(part.split("=", 1) for part in rest)
        if name == "set-ancient-one":
            args.update(doom=str(game.ancient.doom), elder_signs=str(game.ancient.elder_signs))
        else:
            inv = next(i for i in game.view()["investigators"] if i["player"] == int(args["player"]) - 1)
            card = game.packs.investigators[inv["id"]]
            args.update(sanity=str(card.sanity), stamina=str(card.stamina), clues=str(card.clues))
        if service is not None:
            service.do(name, args)
        else:
            game.push(" ".join([name, *(f"{k}={v}" for k, v in args.items())]))


def cards_told(game: Any, service: Any = None) -> None:
    """The host tells each Elder Sign card question still open that the real card did nothing (more): a turn ends only
    once they are told (engine.ASKED_BEFORE_ENDING). `service`: through GameService.do (its game is `game`)."""
    while game.view()["question"] is not None and not game.view()["attack_choices"]:
        if service is not None:
            service.do("card-did", {"effect": "nothing"})
        else:
            game.push("card-did effect=nothing")


@contextmanager
def reopened(stored: Path, tmp_path: Path, game_id: int, packs: object) -> Iterator[Engine]:
    """A game of a stored SQLite file (copied first, so the test data is never written) replayed as the companion
    reopens it; the store is closed after."""
    from companion.history import replay_game

    path = tmp_path / "old.sqlite"
    shutil.copy(stored, path)
    store = GameStore(path)
    try:
        yield replay_game(store, game_id, packs)
    finally:
        store.close()
