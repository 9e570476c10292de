"""Among Cultists' state in words for the terminal (`companion game state`, and the line after each command)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.words import game_title, outcome_words, seat

__all__ = ["state_text", "status_line"]

_PHASES = {
    "night": "the night",
    "movement": "movement phase",
    "event": "event phase",
    "action": "action phase",
    "cleanup": "clean-up",
    "over": "over",
}


def status_line(state: Mapping[str, Any]) -> str:
    """One line: where the game stands."""
    parts = [
        f"Round {state.get('round')} of {state.get('rounds')}",
        str(_PHASES.get(str(state.get("phase")), state.get("phase"))),
        f"the knife with {seat(state, state.get('start_player'))}",
        f"victory points {state.get('points')} of {state.get('points_needed')}",
        "vote used" if state.get("vote_used") else "vote open",
    ]
    event = state.get("event")
    if isinstance(event, Mapping):
        parts.append("event " + ("not filled in yet" if event.get("stand_in") else str(event.get("name"))))
    said = outcome_words(state)
    if said:
        parts.append(said)
    return " · ".join(parts)


def state_text(state: Mapping[str, Any]) -> str:
    return f"{game_title(state)}: {state.get('rules_title')}, {state.get('players')} players\n" + status_line(state)
