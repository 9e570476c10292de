"""`companion odds --rules elder-sign`: the chance to complete one task with Elder Sign's dice within 1, 2, ...
rolls (companion.dice_cli reads the command line)."""

from __future__ import annotations

import argparse
from typing import Any

from companion.errors import CompanionError

__all__ = ["report", "render"]


def report(args: argparse.Namespace) -> dict[str, Any]:
    """Elder Sign: the chance to complete one task with the green dice (and yellow and red ones) within 1, 2, ...
    --rolls rolls, each failed roll losing a die, with the best play (companion.games.elder_sign.odds)."""
    from companion.games.elder_sign.dice import Need
    from companion.games.elder_sign.odds import odds_table
    from companion.games.elder_sign.sentences import need_words

    if not args.need:
        raise CompanionError('give a task such as "inv:4,lore:1"; see --help.')
    skeptics_only = [
        flag
        for flag, on in (
            ("--summon", args.summon is not None),
            ("--no-keep", args.no_keep),
            ("--action", args.action is not None),
            ("--kept", bool(args.kept)),
            ("--rolled", args.rolled is not None),
            ("--glass", args.glass),
            ("--aid", args.aid),
            ("--items", bool(args.items)),
            ("--minus", bool(args.minus)),
        )
        if on
    ]
    if skeptics_only:
        raise CompanionError(
            f"Skeptics' options ({', '.join(skeptics_only)}) do not apply to Elder Sign, which "
            "takes --dice, --yellow, --red, --holds and --rolls."
        )
    need = Need.parse(args.need)
    green = 6 if args.dice is None else args.dice
    rows = odds_table(need, green=green, yellow=args.yellow, red=args.red, rolls=args.rolls, holds=args.holds)
    return {
        "rules": "elder-sign",
        "need": str(need),
        "words": need_words(str(need)),
        "dice": green,
        "green": green,
        "yellow": args.yellow,
        "red": args.red,
        "holds": args.holds,
        "rows": rows,
    }


def render(result: dict[str, Any]) -> str:
    """The answer as the table the terminal prints."""
    extra = "".join(f", {result[c]} {c}" for c in ("yellow", "red") if result[c])
    held = f"{result['holds']} place{'s' if result['holds'] != 1 else ''} to hold a die"
    lines = [
        f"{result['need']} ({result['words']}) with {result['green']} green dice{extra}; a failed roll "
        f"loses a die; {held}",
        "",
        f"{'rolls':>5}  {'chance':>7}  exact",
    ]
    lines += [f"{row['rolls']:>5}  {row['percent']:>7}  {row['fraction']}" for row in result["rows"]]
    return "\n".join(lines)
