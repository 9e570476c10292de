"""Spooks' state in words for the terminal (`companion game state`, and the line after each command)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.words import game_title, outcome_words, seat

__all__ = ["state_text", "status_line"]


def status_line(state: Mapping[str, Any]) -> str:
    """One line: the scores, who deals, how the game ended."""
    scores = state.get("scores") or []
    parts = [", ".join(f"{seat(state, number)} {score}" for number, score in enumerate(scores, 1))]
    if not state.get("outcome"):
        parts.append(f"{seat(state, state.get('dealer'))} deals")
    said = outcome_words(state)
    if said:
        parts.append(said)
    if isinstance(state.get("winner"), int):
        parts.append(f"{seat(state, state.get('winner'))} wins")
    return " · ".join(parts)


def state_text(state: Mapping[str, Any]) -> str:
    return f"{game_title(state)}: {state.get('rules_title')}, {state.get('players')} players\n" + status_line(state)
