"""The `companion` command: a thin dispatcher to each part's own command line.

`companion game ...`  the game from the terminal (companion.game_cli)
`companion odds ...`  exact odds of a roll (companion.dice_cli)
`companion dice ...`  read dice from photos, calibrate the tray (vision.cli)
`companion hw ...`    test and calibrate the clock hand, OLED and buzzer (hardware.cli)
`companion packs ...` check or export the data packs (companion.games.skeptics.packs)
`companion stats ...` the games played and the dice's luck (companion.stats_cli)
`companion serve ...` run the whole table (companion.serve)

Each part is imported only when its command is used, so `companion game` never
needs OpenCV, gpiozero or Flask to be importable.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

COMMANDS: dict[str, tuple[str, str]] = {
    "game": ("companion.game_cli", "play a game from the terminal (new, do, undo, state, list)"),
    "odds": ("companion.dice_cli", "exact odds of rolling an icon set"),
    "dice": ("vision.cli", "read dice from photos; calibrate the dice tray"),
    "hw": ("hardware.cli", "test and calibrate the clock hand, OLED and buzzer"),
    "packs": ("companion.games.skeptics.packs", "check or export the data packs (boards, ghosts, cards) to edit them"),
    "stats": ("companion.stats_cli", "the games played, the dice's luck, win rates; --json, --csv, --png"),
    "serve": ("companion.serve", "run the companion: clock, OLED, dice tray and phone page"),
}


def version() -> str:
    """The installed version of the program (its distribution's metadata: what pip or uv installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("skeptics-companion")
    except PackageNotFoundError:
        return "unknown (not installed: run it from a checkout with `uv run companion`)"


def usage() -> str:
    lines = ["usage: companion COMMAND [ARGS ...]", "", "commands:"]
    lines += [f"  {name:<6} {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += [
        "",
        "Run `companion COMMAND --help` for the options of a command; `companion --version` says which version runs.",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0 if args else 2
    if args[0] == "--version":
        print(f"companion {version()}")
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"companion: unknown command {name!r}.\n\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    result: int = module.main(rest)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
