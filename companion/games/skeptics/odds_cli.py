"""`companion odds` for Skeptics' dice: the exact chance of rolling an icon set, keeping the best dice (or none),
from a part of an attempt on, and which dice to keep after a roll (companion.dice_cli reads the command line)."""

from __future__ import annotations

import argparse
from typing import Any

from companion.errors import CompanionError
from companion.games.skeptics.dice import (
    ACTIONS,
    MAX_ROLLS,
    Attempt,
    DieKind,
    Requirement,
    dice_for,
    parse_faces,
    success_fraction,
    summon_fraction,
)
from companion.games.skeptics.dice.odds import keep_all_fraction
from companion.games.skeptics.dice.requirement import an

__all__ = ["report", "render"]


def _pct(value: float) -> str:
    return f"{value * 100:.1f}%"


def _dice(args: argparse.Namespace, req: Requirement) -> int:
    """The dice rolled: --dice, or worked out from --action and its bonuses."""
    if args.dice is not None and args.action is not None:
        raise CompanionError("give either --dice or --action (with its bonuses), not both.")
    if args.action is None:
        if args.glass or args.aid or args.items or args.minus:
            raise CompanionError("--glass, --aid, --items and --minus need --action (search, solve, prove ...).")
        return 3 if args.dice is None else int(args.dice)
    kinds = {a: k for a, k in ACTIONS.items() if k is not DieKind.SUMMON}
    if args.action not in kinds:
        raise CompanionError(f"--action is one of {', '.join(kinds)}, not {args.action!r}.")
    if kinds[args.action] is not req.kind:
        kind = kinds[args.action]
        raise CompanionError(
            f"{an(args.action)} {args.action} rolls {kind.value} dice, so its icon set must use "
            f"{', '.join(f.value for f in kind.icons)}; {req} needs {req.kind.value} dice."
        )
    return dice_for(args.action, glass=args.glass, aid=args.aid, items=args.items, minus=args.minus)


def _attempt(args: argparse.Namespace, req: Requirement, dice: int, keep: bool) -> Attempt:
    """The attempt the odds are from: started, with the faces already kept (--kept)."""
    attempt = Attempt.start(args.action or _any_action(req.kind), req, dice)
    if args.kept:
        if not keep:
            raise CompanionError("--kept needs dice that may be kept; leave out --no-keep (and Disruption).")
        kept = parse_faces(args.kept, req.kind)
        attempt = Attempt.from_dict(attempt.to_dict() | {"kept": [f.value for f in kept], "rolls": 1})
    return attempt


def _rows(missing: Any, free: int, rolls: int, keep: bool) -> list[dict[str, Any]]:
    rows = []
    for n in range(1, rolls + 1):
        best = success_fraction(missing, free, n, keep)
        row: dict[str, Any] = {
            "rolls": n,
            "probability": float(best),
            "percent": _pct(float(best)),
            "fraction": str(best),
        }
        if keep:
            every = keep_all_fraction(missing, free, n)
            row["keep_all_probability"] = float(every)
            row["keep_all_fraction"] = str(every)
        rows.append(row)
    return rows


def _summon(count: int) -> dict[str, Any]:
    exact = summon_fraction(count)
    return {"summon_dice": count, "probability": float(exact), "percent": _pct(float(exact)), "fraction": str(exact)}


def report(args: argparse.Namespace) -> dict[str, Any]:
    """The answer as a JSON-safe dict (the table is printed from it)."""
    if args.yellow or args.red or args.holds != 1:
        raise CompanionError("--yellow, --red and --holds are Elder Sign's; add --rules elder-sign.")
    if args.summon is not None:
        return _summon(args.summon)
    if not args.need:
        raise CompanionError('give an icon set such as "eye:2,camera:1" (or --summon N); see --help.')
    req = Requirement.parse(args.need)
    dice = _dice(args, req)
    if not 1 <= args.rolls <= MAX_ROLLS:
        raise CompanionError(f"--rolls must be 1 to {MAX_ROLLS} rolls, not {args.rolls}.")
    keep = not args.no_keep and not req.disruption
    attempt = _attempt(args, req, dice, keep)
    missing = attempt.missing
    if missing is None:
        raise CompanionError(f"the kept dice already show {req}; there is nothing left to roll for.")
    free = attempt.dice_to_roll
    result: dict[str, Any] = {
        "need": str(req),
        "words": req.describe(),
        "kind": req.kind.value,
        "dice": dice,
        "keep": keep,
        "kept": [f.value for f in attempt.kept],
        "dice_to_roll": free,
        "rows": _rows(missing, free, args.rolls, keep),
    }
    if args.rolled is not None:
        faces = parse_faces(args.rolled, req.kind)
        choices = attempt.keep_choices(faces, args.rolls - 1)
        result["rolled"] = [f.value for f in faces]
        result["keep_choices"] = [
            {"keep": [f.value for f in kept], "probability": float(p), "percent": _pct(float(p)), "fraction": str(p)}
            for kept, p in choices
        ]
    return result


def _any_action(kind: DieKind) -> str:
    return next(action for action, k in ACTIONS.items() if k is kind)


def render(result: dict[str, Any]) -> str:
    """The answer as the table the terminal prints."""
    if "summon_dice" in result:
        return f"summon or pull with {result['summon_dice']} summon dice: {result['percent']} ({result['fraction']})"
    how = "keeping the best dice after each roll" if result["keep"] else "no dice kept (every roll afresh)"
    lines = [f"{result['need']} ({result['words']}) with {result['dice']} {result['kind']} dice, {how}"]
    if result["kept"]:
        lines.append(f"kept so far: {', '.join(result['kept'])}; {result['dice_to_roll']} dice to roll")
    lines.append("")
    header = f"{'rolls':>5}  {'chance':>7}  {'exact':<24}"
    if result["keep"]:
        header += "  keeping every counting die"
    lines.append(header)
    for row in result["rows"]:
        line = f"{row['rolls']:>5}  {row['percent']:>7}  {row['fraction']:<24}"
        if result["keep"]:
            line += f"  {_pct(row['keep_all_probability']):>7}"
        lines.append(line)
    if "keep_choices" in result:
        lines += ["", f"rolled {', '.join(result['rolled'])}: what to keep"]
        for choice in result["keep_choices"]:
            kept = ", ".join(choice["keep"]) or ("nothing more" if result["kept"] else "nothing (reroll all)")
            lines.append(f"  {choice['percent']:>7}  keep {kept}")
    return "\n".join(line.rstrip() for line in lines)
