"""Skeptics' state in words for the terminal (`companion game state`, and the line after each command)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games.skeptics.sentences import NO_NAMES, actions_left, faces_words
from companion.words import asked, count, game_title, percent, player

__all__ = ["state_text", "status_line"]

_GHOST_REASONS = {
    "ghost_hour": "Ghost Hour",
    "ghost_mode": "Ghost Mode",
    "summon": "summoned",
    "seance": "séance",
    "manual": "set by the host",
}


def _room(number: Any, name: Any = None) -> str:
    return NO_NAMES.room(number, name) if number is not None else "no room"


def status_line(state: Mapping[str, Any]) -> str:
    """One line: where the game stands."""
    ghost = (
        f"ghost in {_room(state.get('ghost_room'), state.get('ghost_room_name'))}"
        if state.get("ghost_room") is not None
        else "no ghost on the board"
    )
    parts = [
        f"Round {state.get('round')}",
        f"clock {state.get('clock')}",
        f"{player(state.get('current_player'), state)} ({actions_left(state)})",
        ghost,
        f"{state.get('room_deck_left')} room cards left",
    ]
    if state.get("outcome"):
        parts.append(f"game {state.get('outcome')}")
    return " · ".join(parts)


def _header(g: Mapping[str, Any]) -> list[str]:
    ghost = g.get("ghost") or {}
    ghost_name = ghost.get("name") if isinstance(ghost, Mapping) else ghost
    difficulty = (
        f", difficulty {ghost.get('difficulty')}" if isinstance(ghost, Mapping) and ghost.get("difficulty") else ""
    )
    players = g.get("players")
    number = len(players) if isinstance(players, list) else players
    return [
        f"{game_title(g)}: {g.get('board')}, {ghost_name}{difficulty}, {number} players",
        f"Round {g.get('round')}, clock {g.get('clock')}, hours completed: {g.get('hour')}; "
        f"{player(g.get('current_player'), g)} to play, {actions_left(g)}",
    ]


def _ghost(g: Mapping[str, Any]) -> list[str]:
    if g.get("ghost_room") is None:
        return ["Ghost: not on the board"]
    how = _GHOST_REASONS.get(str(g.get("ghost_reason")), "placed")
    return [f"Ghost: in {_room(g.get('ghost_room'), g.get('ghost_room_name'))} ({how})"]


def _room_deck(g: Mapping[str, Any]) -> list[str]:
    revealed = ", ".join(str(r) for r in g.get("rooms_revealed") or []) or "none"
    deck = f"Room cards: {g.get('room_deck_left')} in the deck; revealed {revealed}"
    if g.get("room_cards_discarded_unseen"):
        deck += f"; {g.get('room_cards_discarded_unseen')} discarded unseen"
    if g.get("final_round"):
        deck += " (the last card is out: this is the final round)"
    return [deck]


def _environment(g: Mapping[str, Any]) -> list[str]:
    cards = g.get("environment") or []
    if not cards:
        return [f"Environment: {', '.join(str(x) for x in g.get('environment_active') or []) or 'none'}"]
    return [
        f"Environment: {card.get('name')}" + (f": {card.get('effect')}" if card.get("effect") else "")
        for card in cards
        if isinstance(card, Mapping)
    ]


def _team(g: Mapping[str, Any]) -> list[str]:
    summon = f"Summon dice: {g.get('summon_dice')}"
    if g.get("summon_odds") is not None:
        summon += f" ({percent(g.get('summon_odds'))} to succeed)"
    return [
        f"{summon}; timers: {g.get('timers')} of 3; clues revealed {g.get('clues_revealed')} of 7, "
        f"solved {g.get('clues_solved')}"
    ]


def _evidence(g: Mapping[str, Any]) -> list[str]:
    lines = []
    evidence = [item for item in g.get("evidence") or [] if isinstance(item, Mapping)]
    if evidence:
        flipped = ", ".join(
            f"{item.get('name') or item.get('symbol')}{' (match)' if item.get('matched') else ''}" for item in evidence
        )
        lines.append(f"Evidence: {flipped}")
    symbols = g.get("seance_symbols") or []
    if symbols:
        lines.append(f"Séance symbols: {', '.join(str(s) for s in symbols)}")
    for item in g.get("icon_sets") or []:
        if isinstance(item, Mapping):
            mark = "x" if item.get("proven") else " "
            lines.append(f"  [{mark}] set {item.get('index')}: {item.get('text') or item.get('need')}")
    return lines


def _modes(g: Mapping[str, Any]) -> list[str]:
    mode = "yes" if g.get("ghost_mode") else "no"
    seance = "active" if g.get("seance_active") else ("used" if g.get("seance_used") else "not used")
    pull = "; a pull is pending (move-ghost to=N)" if g.get("pull_pending") else ""
    return [f"Ghost Mode: {mode}; séance: {seance}{pull}"]


def _attempt(g: Mapping[str, Any]) -> list[str]:
    attempt = g.get("attempt")
    if not isinstance(attempt, Mapping):
        return []
    kept = faces_words(attempt.get("kept")) if attempt.get("kept") else "nothing"
    rolls = g.get("attempt_rolls_left")
    left = f"in the {count(rolls, 'roll')} it has left" if isinstance(rolls, int) else "with the actions left"
    chance = g.get("odds")
    odds = f"; {float(chance) * 100:.1f}% to succeed {left}" if isinstance(chance, (int, float)) else ""
    return [
        f"Attempt: {attempt.get('action')} {attempt.get('need')} with {attempt.get('dice')} dice, "
        f"{attempt.get('rolls')} rolls so far, kept {kept}{odds}"
    ]


def _end(g: Mapping[str, Any]) -> list[str]:
    if not g.get("outcome"):
        return []
    reason = f": {g.get('outcome_reason')}" if g.get("outcome_reason") else ""
    lines = [f"The game is {g.get('outcome')}{reason}."]
    removed = g.get("removed_rooms") or []
    if removed:
        lines.append(f"The removed room cards were: {', '.join(str(r) for r in removed)}")
    return lines


_PARTS: tuple[Callable[[Mapping[str, Any]], list[str]], ...] = (
    _header,
    _ghost,
    _room_deck,
    _environment,
    _team,
    _evidence,
    _modes,
    _attempt,
    _end,
)


def state_text(state: Mapping[str, Any]) -> str:
    """The state for a person at the table, a part a line or a few."""
    lines = [line for part in _PARTS for line in part(state)]
    lines.append(f"Commands so far: {state.get('history_length')}")
    # a ghost card not filled in yet: tell-ghost; where a card's fire tokens go: tell-fires
    kind = (state.get("question") or {}).get("kind")
    tell = {"ghost": "tell-ghost", "fires": "tell-fires spaces=N,N"}.get(str(kind), "tell-card")
    taps = asked(state, tell.split()[0])
    if kind == "fires" and taps:  # the spaces are the host's to give: the command spelled with them
        taps[-1] = "  Tell it with: " + tell + " (the spaces of your board's fire icons) | tell-fires spaces=none"
    return "\n".join(lines + taps)
