"""Skeptics behind the game-module seam: the engine (companion.games.skeptics.engine), the packs (companion.games.skeptics.packs), the dice
(companion.games.skeptics.dice) and the sentences (companion.games.skeptics.sentences) stay where they are, so the terminal's contract, the
tests and the history files are unchanged; this module only names them for the seam."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import CompanionError
from companion.games.base import Chance, GameModule
from companion.games.skeptics import sentences
from companion.games.skeptics.engine import Command, Game, Setup
from companion.games.skeptics.packs import load_packs


def _label(action: Mapping[str, Any], names: Any, current: Any) -> str:
    return sentences.action_label(action, names, current)


def _summary(view: Mapping[str, Any], names: Any, minutes: float | None) -> dict[str, Any]:
    return sentences.end_summary(view, names, minutes=minutes)


def next_throw(game: Game) -> tuple[str, ...]:
    """The kinds of the dice the attempt under way rolls next (none without an attempt)."""
    from companion.games.skeptics.dice import action_kind

    attempt = game.state.attempt
    if attempt is None or attempt.succeeded:
        return ()
    return (action_kind(attempt.action).value,) * attempt.dice_to_roll


def icon_pips(name: str) -> int:
    """The pips (by the default pip map) that stand for an icon face: "eye", "camera", "cobweb", "key", "summon",
    or "key:blank" / "summon:blank" (a bare "blank" takes pips that are blank on both)."""
    from companion.errors import DiceError
    from companion.games.skeptics.dice import DieKind, PipMap, parse_face

    kind_name, _, face_name = name.strip().lower().rpartition(":")
    face = parse_face(face_name)
    kinds = [DieKind.parse(kind_name)] if kind_name else [kind for kind in DieKind if face in kind.sides]
    tables = PipMap.default().tables
    pips = [{p + 1 for p, f in enumerate(tables[kind]) if f is face} for kind in kinds]
    common = set.intersection(*pips) if pips else set()
    if not common:
        if kind_name:
            raise DiceError(f"a {kinds[0].value} die has no {face.value} face.")
        raise DiceError(f"say which die shows {face.value}: {' or '.join(f'{k.value}:{face.value}' for k in kinds)}.")
    return min(common)


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


# -- the games record and the dice's luck (companion.record) ---------------------------------------------------


def _luck(game: Any, command: Any, events: Sequence[Mapping[str, Any]] | None) -> Chance | None:
    """Skeptics' attempts with a chance on the page: a keep-and-reroll attempt (the chance shown once it is under
    way, with the actions left: it comes good on the roll that succeeds, fails when no action is left for another
    roll or a third timer ends the turn, and is dropped when the players turn to something else), and each summon
    or pull (one roll of the team's summon dice)."""
    name = command.name
    if name in ("summon", "pull"):
        if events is None:
            view = game.view()
            return Chance(begins=True, chance=summon_odds(view), player=view.get("current_player"), what=name)
        return next((Chance(good=bool(e.get("success"))) for e in events if e.get("type") == name), None)
    if events is None:
        return None
    if name == "attempt":
        view = game.view()
        attempt = view.get("attempt") or {}
        return Chance(begins=True, chance=attempt_odds(view), player=view.get("current_player"),
                      what=f"{attempt.get('action', 'attempt')} {attempt.get('need', '')}".strip())
    for event in events:
        if event.get("type") == "attempt_succeeded":
            return Chance(good=True)
        if event.get("type") == "attempt_ended":
            return Chance(good=False) if "timer" in str(event.get("why")) else Chance(dropped=True)
    rolled = next((e for e in events if e.get("type") == "rolled"), None)
    if rolled is not None and int(rolled.get("actions_left") or 0) <= 0:
        return Chance(good=False)  # the last action's roll failed: no roll is left for it this turn
    return None


def _facts(view: Mapping[str, Any]) -> Mapping[str, Any]:
    ghost = view.get("ghost") or {}
    return {"setup": [("Board", view.get("board_name") or view.get("board")), ("Ghost", ghost.get("name"))],
            "rounds": view.get("round"), "rounds_word": "rounds", "marks": view.get("hour"), "marks_word": "Ghost Hours"}


def _moments(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    marks = []
    for event in events:
        if event.get("type") == "ghost_hour":
            marks.append(f"Ghost Hour: room {event.get('room')}" if event.get("room") is not None else "Ghost Hour")
        elif event.get("type") == "ghost_appeared" and event.get("reason") != "ghost_hour":
            marks.append(f"Ghost in room {event.get('room')}")
    return {"clock": view.get("clock"), "marks": marks,
            "values": {"Room cards left": view.get("room_deck_left"), "Clues solved": view.get("clues_solved")}}


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
    luck=_luck,
    record_facts=_facts,
    moments=_moments,
    setup_checklist=sentences.setup_checklist,
    next_throw=next_throw,
    icon_pips=icon_pips,
)
