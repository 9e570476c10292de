"""Elder Sign's state in words for the terminal (`companion game state`, and the line after each command)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.words import asked, game_title, player

__all__ = ["state_text", "status_line"]


def status_line(state: Mapping[str, Any]) -> str:
    """One line: where the game stands."""
    parts = [
        f"Turn {state.get('turn')}",
        f"clock {state.get('clock')}",
        f"{player(state.get('current_player'), state)} to play",
        f"doom {state.get('doom')} of {state.get('doom_max')}",
        f"Elder Signs {state.get('elder_signs')} of {state.get('elder_signs_needed')}",
    ]
    if state.get("ancient_one_awake"):
        parts.append("the Ancient One is awake")
    if state.get("outcome"):
        parts.append(f"game {state.get('outcome')}")
    return " · ".join(parts)


def state_text(state: Mapping[str, Any]) -> str:
    """The state for a person at the table: the line, and each investigator."""
    ancient = (state.get("ancient_one") or {}).get("name", "the Ancient One")
    lines = [f"{game_title(state)}: Elder Sign against {ancient}, {state.get('players')} players", status_line(state)]
    for inv in state.get("investigators") or []:
        lines.append(
            f"  {inv['name']}: sanity {inv['sanity']}/{inv['max_sanity']}, stamina {inv['stamina']}/"
            f"{inv['max_stamina']}, clues {inv['clues']}" + (" (devoured)" if inv.get("devoured") else "")
        )
    return "\n".join(lines + asked(state, "card-did"))
