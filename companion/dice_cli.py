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
from companion.games.base import DEFAULT_RULES, RULES, module_for


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion odds",
        description="Exact odds of rolling an icon set with Skeptics dice, keeping the best dice after each roll.",
        epilog='Icon sets: "eye:2,camera:1", "key:3", "cobweb:1,timer", "eye:1,camera:1,disruption", '
        '"2 eyes and a camera". See docs/dice.md.',
    )
    parser.add_argument(
        "need", nargs="?", help='the icon set, e.g. "eye:2,camera:1" (Elder Sign: a task, "inv:4,lore:1")'
    )
    parser.add_argument(
        "--rules",
        choices=RULES,
        default=DEFAULT_RULES,
        help="the game whose dice are rolled (default skeptics); see docs/elder-sign.md",
    )
    parser.add_argument("--yellow", type=int, default=0, help="Elder Sign: yellow dice added by items (0-2)")
    parser.add_argument("--red", type=int, default=0, help="Elder Sign: red dice added by items (0-2)")
    parser.add_argument(
        "--holds",
        type=int,
        default=1,
        help="Elder Sign: places to hold a die after a failed roll (focus, assist, spells; default 1)",
    )
    parser.add_argument("--dice", type=int, help="dice rolled (default: 3, or worked out from --action and bonuses)")
    parser.add_argument("--rolls", type=int, default=3, help="rolls (actions) available (default 3)")
    parser.add_argument("--no-keep", action="store_true", help="no dice may be kept (as under Disruption)")
    parser.add_argument(
        "--action",
        metavar="ACTION",
        help="work out the dice for this action: search, solve, prove, unlock, barrier, fire "
        "(with --glass, --aid, --items, --minus)",
    )
    parser.add_argument("--glass", action="store_true", help="a magnifying glass adds a die (search, solve, prove)")
    parser.add_argument("--aid", action="store_true", help="aiding adds a die (prove)")
    parser.add_argument("--items", type=int, default=0, help="dice added by items")
    parser.add_argument("--minus", type=int, default=0, help="dice taken away first (e.g. Watching Eyes)")
    parser.add_argument(
        "--kept", metavar="FACES", help="faces already set aside in this attempt (e.g. eye): the odds are from there on"
    )
    parser.add_argument(
        "--rolled", metavar="FACES", help="faces just rolled: show which dice to keep, with --rolls counting this roll"
    )
    parser.add_argument("--summon", type=int, metavar="N", help="chance of a summon or pull with N summon dice")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    return parser


def report(args: argparse.Namespace) -> dict[str, Any]:
    """The answer as a JSON-safe dict (the table is printed from it), worked out by the game's module."""
    return module_for(args.rules).odds_report(args)


def render(result: dict[str, Any], rules: str | None = None) -> str:
    return module_for(rules).odds_text(result)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        result = report(args)
    except CompanionError as exc:
        print(f"companion odds: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2) if args.json else render(result, args.rules))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
