"""Elder Sign behind the game-module seam (companion.games.base): its engine, packs and sentences, named once."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.games.base import GameModule
from companion.games.elder_sign import sentences
from companion.games.elder_sign.engine import Command, Game, Setup
from companion.games.elder_sign.packs import load_packs


def _load(folder: Path | None) -> Any:
    return load_packs(folder)


def _label(action: Mapping[str, Any], names: Any, current: Any) -> str:
    return sentences.action_label(action, names)


def _sentence(command: Any, names: Any, events: Sequence[Mapping[str, Any]]) -> str:
    return sentences.command_sentence(command, names, events)


def _summary(view: Mapping[str, Any], names: Any, minutes: float | None) -> dict[str, Any]:
    return sentences.end_summary(view, names)


def _publish(view: Mapping[str, Any]) -> Mapping[str, Any]:
    return {"odds": None, "summon_odds": None}


def virtual_roll(game: Game, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """The next roll thrown by the companion: a face of each die the roll throws (companion's injected Random)."""
    faces = [f"{colour.value}:{rng.choice(colour.faces).value}" for colour in game.next_roll_dice()]
    return "roll", {"faces": ",".join(faces)}


MODULE = GameModule(
    rules="elder-sign",
    title="Elder Sign",
    game=Game,
    setup=Setup,
    command=Command,
    load_packs=_load,
    names=sentences.Names.of_game,
    describe_event=sentences.describe_event,
    describe_events=sentences.describe_events,
    announcement=sentences.announcement,
    action_label=_label,
    command_sentence=_sentence,
    end_summary=_summary,
    for_players=sentences.for_players,
    no_names=sentences.NO_NAMES,
    publish=_publish,
    started_keys=("players", "ancient_one"),
    virtual_roll=virtual_roll,
)
