"""Skeptics behind the game-module seam: the engine (companion.games.skeptics.engine), the packs (companion.games.skeptics.packs), the dice
(companion.games.skeptics.dice) and the sentences (companion.games.skeptics.sentences) stay where they are, so the terminal's contract, the
tests and the history files are unchanged; this module only names them for the seam."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import CompanionError
from companion.games.base import GameModule
from companion.games.skeptics import sentences
from companion.games.skeptics.engine import Command, Game, Setup
from companion.games.skeptics.packs import load_packs


def _label(action: Mapping[str, Any], names: Any, current: Any) -> str:
    return sentences.action_label(action, names, current)


def _summary(view: Mapping[str, Any], names: Any, minutes: float | None) -> dict[str, Any]:
    return sentences.end_summary(view, names, minutes=minutes)


def attempt_odds(state: Mapping[str, Any]) -> float | None:
    """The chance that the attempt under way succeeds in the rolls it really has left (the engine's
    ``attempt_rolls_left``: the actions left, the Corpse's limit, the rolls until a third timer)."""
    attempt = state.get("attempt")
    if not attempt:
        return None
    try:
        from companion.games.skeptics.dice import Attempt

        current = Attempt.from_dict(attempt)
        rolls = state.get("attempt_rolls_left")
        rolls_left = int(rolls if rolls is not None else state.get("actions_left") or 0)
        if current.succeeded:
            return 1.0
        if rolls_left <= 0:
            return 0.0
        return float(current.odds(rolls_left))
    except (CompanionError, KeyError, TypeError, ValueError, ImportError):
        return None


def summon_odds(state: Mapping[str, Any]) -> float | None:
    """The chance that a summon or pull with all the team's summon dice succeeds."""
    try:
        count = int(state.get("summon_dice") or 0)
        if count < 1:
            return None
        from companion.games.skeptics.dice import summon_probability

        return float(summon_probability(count))
    except (CompanionError, TypeError, ValueError, ImportError):
        return None


def _publish(view: Mapping[str, Any], game: Any) -> Mapping[str, Any]:
    question = view.get("question")
    # an environment card not filled in yet came up: what the host is asked (its taps are the legal tell-card actions)
    asked = sentences.describe_event({"type": "card_asked", **question}) if question else None
    return {"odds": attempt_odds(view), "summon_odds": summon_odds(view), "card_question": asked}


MODULE = GameModule(
    rules="skeptics",
    title="Skeptics",
    game=Game,
    setup=Setup,
    command=Command,
    load_packs=load_packs,
    names=sentences.Names.of_game,
    describe_event=sentences.describe_event,
    describe_events=sentences.describe_events,
    announcement=sentences.announcement,
    action_label=_label,
    command_sentence=sentences.command_sentence,
    end_summary=_summary,
    for_players=sentences.for_players,
    publish=_publish,
    started_keys=("players", "board", "ghost"),
)
