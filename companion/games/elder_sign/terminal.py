"""Elder Sign's state in words for the terminal (`companion game state`, and the line after each command)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.elder_sign.sentences import cost_words, items_words, limited, need_words
from companion.words import asked, game_title, player

__all__ = ["state_text", "status_line"]


def status_line(state: Mapping[str, Any]) -> str:
    """One line: where the game stands (a stand-in Ancient One's track length and Elder Sign limit, not entered yet,
    are not the card's: the counts alone)."""
    parts = [
        f"Turn {state.get('turn')}",
        f"clock {state.get('clock')}",
        f"{player(state.get('current_player'), state)} to play",
        f"doom {limited(state, 'doom', 'doom_max')}",
        f"Elder Signs {limited(state, 'elder_signs', 'elder_signs_needed')}",
    ]
    if state.get("ancient_one_awake"):
        parts.append("the Ancient One is awake")
    if state.get("outcome"):
        parts.append(f"game {state.get('outcome')}")
    return " · ".join(parts)


def state_text(state: Mapping[str, Any]) -> str:
    """The state for a person at the table: the line, and each investigator."""
    ancient = (state.get("ancient_one") or {}).get("said", "the Ancient One")
    lines = [f"{game_title(state)}: Elder Sign against {ancient}, {state.get('players')} players", status_line(state)]
    if state.get("ancient_one_drawn"):  # a stand-in the companion drew at random (sentences.drawn_words)
        lines.append(str(state["ancient_one_drawn"]))
    missing = (state.get("stand_ins") or {}).get("numbers") or []
    never = (state.get("stand_ins") or {}).get("numbers_never_entered") or []
    said = state.get("investigators_said") or []
    for index, inv in enumerate(state.get("investigators") or []):
        name = str(inv["name"])
        if index < len(said) and said[index] != name:  # a stand-in's name is not its card's
            name = f"{player(inv['player'], state)}'s investigator (its card not filled in yet)"
        if not inv.get("devoured") and inv.get("player") in missing:  # a card not filled in yet: no made-up number
            number = int(inv["player"]) + 1
            lines.append(
                f"  {name}: sanity, stamina and clues not entered yet "
                f"(set-investigator player={number} sanity=S stamina=T clues=C)"
            )
            continue
        if inv.get("devoured") and index in never:  # devoured before its numbers were copied: none of the card's
            lines.append(f"  {name}: devoured")
            continue
        lines.append(
            f"  {name}: sanity {inv['sanity']}/{inv['max_sanity']}, stamina {inv['stamina']}/"
            f"{inv['max_stamina']}, clues {inv['clues']}"
            + (" (devoured)" if inv.get("devoured") else f", {items_words(inv.get('items'))}")
        )
    names = state.get("adventure_names") or {}
    for card in state.get("adventures") or []:
        slot = str(card.get("slot"))
        name = str(names.get(slot) or card.get("name"))
        tasks = [
            ("done: " if t.get("done") else "")
            + need_words(t.get("need"))
            + cost_words(t)
            + (" (a monster)" if t.get("monster") else "")
            for t in card.get("tasks") or []
        ]
        if card.get("tasks_missing"):
            # a card not filled in yet: no tasks of its own until the host enters the ones printed on it
            spelling = f"set-tasks adventure={slot} tasks=... ordered=true|false [lock=green|yellow|red]"
            tasks.insert(0, f"tasks not entered yet ({spelling})")
        order = "in order: " if card.get("ordered") else ""
        lines.append(f"  {slot}. {name[:1].upper() + name[1:]}: {order}" + "; ".join(tasks))
    choosing = [f"{player(p, state)} (player={int(p) + 1})" for p in state.get("attack_choices") or []]
    if choosing:  # :459: each investigator chooses which maximum the Ancient One's attack lowers
        lines.append(
            f"Asked: the Ancient One attacked; each investigator lowers maximum sanity or maximum stamina by 1. Still "
            f"to choose: {', '.join(choosing)}"
        )
        lines.append("  Tell it with: lower player=N stat=sanity | lower player=N stat=stamina")
    return "\n".join(lines + asked(state, "card-did"))
