"""Spooks behind the game-module seam (companion.games.base): its engine and sentences, named once. Spooks has no
packs (the suits' rules are fixed text, in the engine and the sentences) and no dice."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.games.base import GameModule, sentences_of
from companion.games.spooks import sentences
from companion.games.spooks.engine import Command, Game, Setup


def load_packs(path: Path | None = None) -> None:
    """Spooks has no packs: nothing to load (the engine takes None)."""
    return None


def _publish(view: Mapping[str, Any], game: Game) -> Mapping[str, Any]:
    """What the page shows beside the view: the card tally table and what each Master does now (with the direction
    of play in force)."""
    from companion.games.spooks.engine import CARD_POINTS

    return {
        "rules_in_force": sentences.rules_in_force(view),
        "card_points": dict(CARD_POINTS),  # what a card left in a losing hand costs (the phone's card pad adds them)
        "tally": sentences.tally_table(),
        "master_rules": sentences.master_rules(view.get("direction") == "clockwise")
        if view.get("master_effects") else {},
    }


MODULE = GameModule(
    rules="spooks",
    title="Spooks",
    game=Game,
    setup=Setup,
    command=Command,
    load_packs=load_packs,
    **sentences_of(sentences),
    publish=_publish,
    started_keys=("players", "variant"),
    setup_choices={"variant": "text", "decks": "int", "master_effects": "bool", "master_lasting": "text",
                   "dealer": "int", "loss_limit": "int"},
    virtual_roll=None,
    tray_roll=None,
    seeded=False,
    button_commands=(),
)
