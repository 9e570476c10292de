"""`companion odds`: the exact chance of rolling an icon set, from the terminal.

    companion odds "eye:2,camera:1" --dice 3 --rolls 3
    companion odds "key:3" --rolls 3 --json
    companion odds "eye:1,camera:1" --action prove --glass --aid
    companion odds "eye:1,camera:1" --dice 3 --rolls 2 --rolled eye,eye,cobweb
    companion odds "eye:2,camera:1" --kept eye --rolls 2 --rolled eye,cobweb
    companion odds --summon 4
    companion odds --rules elder-sign "inv:4,lore:1" --dice 6 --rolls 3 --yellow 1 --json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
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

RULES = ("skeptics", "elder-sign")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion odds",
        description="Exact odds of rolling an icon set with Skeptics dice, keeping the best dice after each roll.",
        epilog='Icon sets: "eye:2,camera:1", "key:3", "cobweb:1,timer", "eye:1,camera:1,disruption", '
        '"2 eyes and a camera". See docs/dice.md.',
    )
    parser.add_argument("need", nargs="?", help='the icon set, e.g. "eye:2,camera:1" (Elder Sign: a task, "inv:4,lore:1")')
    parser.add_argument("--rules", choices=RULES, default="skeptics",
                        help="the game whose dice are rolled (default skeptics); see docs/elder-sign.md")
    parser.add_argument("--yellow", type=int, default=0, help="Elder Sign: yellow dice added by items (0-2)")
    parser.add_argument("--red", type=int, default=0, help="Elder Sign: red dice added by items (0-2)")
    parser.add_argument("--holds", type=int, default=1,
                        help="Elder Sign: places to hold a die after a failed roll (focus, assist, spells; default 1)")
    parser.add_argument("--dice", type=int, help="dice rolled (default: 3, or worked out from --action and bonuses)")
    parser.add_argument("--rolls", type=int, default=3, help=f"rolls (actions) available, 1-{MAX_ROLLS} (default 3)")
    parser.add_argument("--no-keep", action="store_true", help="no dice may be kept (as under Disruption)")
    parser.add_argument("--action", choices=[a for a in ACTIONS if ACTIONS[a] is not DieKind.SUMMON],
                        help="work out the dice for this action (with --glass, --aid, --items, --minus)")
    parser.add_argument("--glass", action="store_true", help="a magnifying glass adds a die (search, solve, prove)")
    parser.add_argument("--aid", action="store_true", help="aiding adds a die (prove)")
    parser.add_argument("--items", type=int, default=0, help="dice added by items")
    parser.add_argument("--minus", type=int, default=0, help="dice taken away first (e.g. Watching Eyes)")
    parser.add_argument("--kept", metavar="FACES",
                        help="faces already set aside in this attempt (e.g. eye): the odds are from there on")
    parser.add_argument("--rolled", metavar="FACES",
                        help="faces just rolled: show which dice to keep, with --rolls counting this roll")
    parser.add_argument("--summon", type=int, metavar="N", help="chance of a summon or pull with N summon dice")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    return parser


def _pct(value: float) -> str:
    return f"{value * 100:.1f}%"


def report(args: argparse.Namespace) -> dict[str, Any]:
    """The answer as a JSON-safe dict (the table is printed from it)."""
    if args.rules == "elder-sign":
        return elder_sign_report(args)
    if args.yellow or args.red or args.holds != 1:
        raise CompanionError("--yellow, --red and --holds are Elder Sign's; add --rules elder-sign.")
    if args.summon is not None:
        exact = summon_fraction(args.summon)
        return {"summon_dice": args.summon, "probability": float(exact), "percent": _pct(float(exact)),
                "fraction": str(exact)}
    if not args.need:
        raise CompanionError('give an icon set such as "eye:2,camera:1" (or --summon N); see --help.')
    req = Requirement.parse(args.need)
    if args.dice is not None and args.action is not None:
        raise CompanionError("give either --dice or --action (with its bonuses), not both.")
    if not 1 <= args.rolls <= MAX_ROLLS:
        raise CompanionError(f"--rolls must be 1 to {MAX_ROLLS} rolls, not {args.rolls}.")
    if args.action is not None:
        if ACTIONS[args.action] is not req.kind:
            kind = ACTIONS[args.action]
            raise CompanionError(
                f"{an(args.action)} {args.action} rolls {kind.value} dice, so its icon set must use "
                f"{', '.join(f.value for f in kind.icons)}; {req} needs {req.kind.value} dice."
            )
        dice = dice_for(args.action, glass=args.glass, aid=args.aid, items=args.items, minus=args.minus)
    elif args.glass or args.aid or args.items or args.minus:
        raise CompanionError("--glass, --aid, --items and --minus need --action (search, solve, prove ...).")
    else:
        dice = 3 if args.dice is None else args.dice
    keep = not args.no_keep and not req.disruption
    attempt = Attempt.start(args.action or _any_action(req.kind), req, dice)
    if args.kept:
        if not keep:
            raise CompanionError("--kept needs dice that may be kept; leave out --no-keep (and Disruption).")
        kept = parse_faces(args.kept, req.kind)
        attempt = Attempt.from_dict(attempt.to_dict() | {"kept": [f.value for f in kept], "rolls": 1})
    missing = attempt.missing
    if missing is None:
        raise CompanionError(f"the kept dice already show {req}; there is nothing left to roll for.")
    free = attempt.dice_to_roll
    rows = []
    for n in range(1, args.rolls + 1):
        best = success_fraction(missing, free, n, keep)
        row: dict[str, Any] = {"rolls": n, "probability": float(best), "percent": _pct(float(best)),
                               "fraction": str(best)}
        if keep:
            every = keep_all_fraction(missing, free, n)
            row["keep_all_probability"] = float(every)
            row["keep_all_fraction"] = str(every)
        rows.append(row)
    result: dict[str, Any] = {
        "need": str(req), "words": req.describe(), "kind": req.kind.value, "dice": dice, "keep": keep,
        "kept": [f.value for f in attempt.kept], "dice_to_roll": free, "rows": rows,
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


def elder_sign_report(args: argparse.Namespace) -> dict[str, Any]:
    """Elder Sign: the chance to complete one task with the green dice (and yellow and red ones) within 1, 2, ...
    --rolls rolls, each failed roll losing a die, with the best play (companion.games.elder_sign.odds)."""
    from companion.games.elder_sign.dice import Need
    from companion.games.elder_sign.odds import odds_table
    from companion.games.elder_sign.sentences import need_words

    if not args.need:
        raise CompanionError('give a task such as "inv:4,lore:1"; see --help.')
    skeptics_only = [flag for flag, on in (("--summon", args.summon is not None), ("--no-keep", args.no_keep),
                                           ("--action", args.action is not None), ("--kept", bool(args.kept)),
                                           ("--rolled", args.rolled is not None), ("--glass", args.glass),
                                           ("--aid", args.aid), ("--items", bool(args.items)),
                                           ("--minus", bool(args.minus))) if on]
    if skeptics_only:
        raise CompanionError(f"Skeptics' options ({', '.join(skeptics_only)}) do not apply to Elder Sign, which "
                             "takes --dice, --yellow, --red, --holds and --rolls.")
    need = Need.parse(args.need)
    green = 6 if args.dice is None else args.dice
    rows = odds_table(need, green=green, yellow=args.yellow, red=args.red, rolls=args.rolls, holds=args.holds)
    return {"rules": "elder-sign", "need": str(need), "words": need_words(str(need)), "dice": green, "green": green,
            "yellow": args.yellow, "red": args.red, "holds": args.holds, "rows": rows}


def _any_action(kind: DieKind) -> str:
    return next(action for action, k in ACTIONS.items() if k is kind)


def render(result: dict[str, Any]) -> str:
    if result.get("rules") == "elder-sign":
        extra = "".join(f", {result[c]} {c}" for c in ("yellow", "red") if result[c])
        held = f"{result['holds']} place{'s' if result['holds'] != 1 else ''} to hold a die"
        lines = [f"{result['need']} ({result['words']}) with {result['green']} green dice{extra}; a failed roll "
                 f"loses a die; {held}", "", f"{'rolls':>5}  {'chance':>7}  exact"]
        lines += [f"{row['rolls']:>5}  {row['percent']:>7}  {row['fraction']}" for row in result["rows"]]
        return "\n".join(lines)
    if "summon_dice" in result:
        return (f"summon or pull with {result['summon_dice']} summon dice: "
                f"{result['percent']} ({result['fraction']})")
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        result = report(args)
    except CompanionError as exc:
        print(f"companion odds: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
