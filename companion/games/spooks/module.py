"""Spooks behind the game-module seam (companion.games.base): its engine and sentences, named once. Spooks has no
packs (the suits' rules are fixed text, in the engine and the sentences) and no dice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.errors import BadCommand
from companion.games.base import Engine, GameModuleOf, Record, SetupLike
from companion.games.spooks import sentences, terminal
from companion.games.spooks.engine import COMMANDS, Command, Game, Setup


def load_packs(path: Path | None = None) -> None:
    """Spooks has no packs: nothing to load (the engine takes None)."""
    return None


def _publish(view: Mapping[str, Any], game: Game) -> Mapping[str, Any]:
    """What the page shows beside the view: the card tally table and what each Master does now (with the direction
    of play in force)."""
    from companion.games.spooks.engine import CARD_POINTS, deck_points

    return {
        "rules_in_force": sentences.rules_in_force(view),
        "card_points": dict(CARD_POINTS),  # what a card left in a losing hand costs (the phone's card pad adds them)
        # a dealt hand's points on average: a hand typed above it is asked about (it grew, with Bat bites?)
        "dealt_points": deck_points(int(view.get("decks") or 1)) // max(1, int(view.get("players") or 1)),
        "tally": sentences.tally_table(),
        "master_rules": sentences.master_rules(view.get("direction") == "clockwise")
        if view.get("master_effects")
        else {},
    }


# -- the games record (companion.record): Spooks has no dice, so no odds and no luck ---------------------------


def _seat(view: Mapping[str, Any], seat: Any) -> str | None:
    names = list(view.get("player_names") or [])
    return names[seat - 1] if isinstance(seat, int) and 0 < seat <= len(names) else None


def _facts(view: Mapping[str, Any]) -> Mapping[str, Any]:
    return {
        "setup": [("Variant", view.get("variant"))],
        "rounds": len(view.get("hands") or []),
        "rounds_word": "hands",
        "winner": _seat(view, view.get("winner")),
    }


def _moments(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    marks = [f"Out: {_seat(view, e.get('seat'))}" for e in events if e.get("type") == "player_out"]
    names = list(view.get("player_names") or [])
    # the end chart's axis counts the hands played, evenly, not the minutes (a quick game's would crowd together)
    hands = len(view.get("hands") or [])
    limit = view.get("loss_limit")
    # «When one person hits 200, hes grabbed by the monsters» (spooks-rules.txt:3): the score the game is played to
    goal = {"goal": [limit, f"to {limit}"]} if isinstance(limit, int) else {}
    values = dict(zip(names, view.get("scores") or []))
    return {"marks": marks, "values": values, "step": hands, "step_word": "hand", **goal}


class SpooksModule(GameModuleOf[Game, sentences.Names]):
    """Spooks behind the seam."""

    engine_type = Game
    sentences = sentences
    terminal = terminal
    rules = "spooks"
    title = "Spooks"
    command_type = Command
    commands = COMMANDS
    started_keys = ("players", "variant")
    setup_choices = MappingProxyType(
        {
            "variant": "text",
            "decks": "int",
            "master_effects": "bool",
            "master_lasting": "text",
            "dealer": "int",
            "loss_limit": "int",
        }
    )
    seeded = False
    button_commands = ()

    def setup_from_dict(self, data: Record) -> Setup:
        return Setup.from_dict({k: v for k, v in data.items() if k != "rules"})

    def new(self, setup: SetupLike, packs: object) -> Game:
        if not isinstance(setup, Setup):
            raise BadCommand(f"{self.title} starts from its own setup, not {setup!r}.")
        return Game.new(setup, packs)

    def load_packs(self, folder: Path | None) -> None:
        return load_packs(folder)

    def names(self, game: Engine) -> sentences.Names:
        return sentences.Names.of_game(self.engine(game))

    def publish(self, view: Record, game: Engine) -> Mapping[str, object]:
        return _publish(view, self.engine(game))

    def setup_checklist(self, view: Record, names: object, hand: bool) -> list[dict[str, str]]:
        return sentences.setup_checklist(view, self.names_of(names), hand)

    def record_facts(self, view: Record) -> Mapping[str, object]:
        return _facts(view)

    def moments(self, view: Record, events: Sequence[Record]) -> Mapping[str, object]:
        return _moments(view, events)


MODULE = SpooksModule()
