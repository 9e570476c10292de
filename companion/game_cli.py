"""`companion game ...`: play a game from the terminal, on the same engine, history and service.

    companion game new --players 3 --board asylum --ghost child --seed 7 --db game.sqlite
    companion game do --db game.sqlite end-round
    companion game do --db game.sqlite summon success=true
    companion game undo --db game.sqlite
    companion game state --db game.sqlite [--json]
    companion game list --db game.sqlite
    companion game history --db game.sqlite

These spellings are used outside the project (scripts, docs/terminal.md); keep them.
Exit status: 0 done, 1 refused by the rules or the history file, 2 bad usage or a malformed
command. Errors go to stderr as one clear message, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.errors import BadCommand, CompanionError, ConfigError, DiceError
from companion.games.base import GameModule, module_for, rules_of

__all__ = ["build_parser", "format_state", "main", "status_line"]

_EXIT_USAGE = 2
_EXIT_REFUSED = 1


class _UsageError(Exception):
    """argparse found a problem in the command line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # pragma: no cover - exercised through main()
        raise _UsageError(f"{self.prog}: {message}\n(run `{self.prog} --help` for the options)")


# --------------------------------------------------------------------------------------------
# The state in words (each game's module says it)


def status_line(state: Mapping[str, Any]) -> str:
    """One line: where the game stands."""
    if state.get("game_id") is None:
        return str(state.get("message", "No game yet."))
    return module_for(str(state.get("rules") or "") or None).status_line(state)


def format_state(state: Mapping[str, Any]) -> str:
    """The state for a person at the table (the JSON form is `--json`)."""
    if state.get("game_id") is None:
        return str(state.get("message", "No game yet."))
    return module_for(str(state.get("rules") or "") or None).state_text(state)


# --------------------------------------------------------------------------------------------
# The command line


def default_db(config_path: str | None = None) -> Path:
    """The history file in the data directory (COMPANION_DATA_DIR or the configuration decide)."""
    from companion.config import load_config

    return load_config(config_path).history_path


def _packs(ns: argparse.Namespace) -> Any:
    """--packs DIR, else the configuration's packs (game.packs_dir, COMPANION_PACKS_DIR, DATA_DIR/packs).

    A broken pack file is bad input: ConfigError (exit 2) naming the option or key, the file and the entry.
    """
    from companion.config import load_config
    from companion.errors import PackError

    if ns.packs is None:
        return load_config(ns.config).load_packs()
    try:
        return module_for(None).load_packs(Path(ns.packs))  # the packs the box holds (the default game's)
    except PackError as exc:
        raise ConfigError(f"--packs {ns.packs}: {exc}") from None


def build_parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument(
        "--db",
        metavar="PATH",
        help="the game history file (default: games.sqlite3 in the data directory, see COMPANION_DATA_DIR)",
    )
    common.add_argument(
        "--config", metavar="PATH", help="configuration file (used to find the data directory and the packs folder)"
    )
    common.add_argument("--json", action="store_true", help="print JSON instead of words")
    common.add_argument(
        "--packs",
        metavar="DIR",
        help="a folder of edited pack files (see docs/packs.md; default: "
        "game.packs_dir of the configuration, COMPANION_PACKS_DIR, or the data directory's packs folder)",
    )

    pick = _Parser(add_help=False)
    pick.add_argument("--game", type=int, metavar="ID", help="a saved game (default: the last one played)")

    parser = _Parser(prog="companion game", description="Play Skeptics (or Elder Sign) from the terminal.")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser)

    new = sub.add_parser("new", parents=[common], help="start a new game (it becomes the current one)")
    new.add_argument(
        "--rules", metavar="GAME", help="the game: skeptics (the default), elder-sign, among-cultists or spooks"
    )
    new.add_argument(
        "--players",
        type=int,
        required=True,
        metavar="N",
        help="1 to 4 (Elder Sign: 1 to 8; Among Cultists: 4 to 8; Spooks: 3 or more)",
    )
    new.add_argument(
        "--board",
        metavar="NAME",
        help="Skeptics: board id: asylum, museum, or one added with --packs (the packs decide)",
    )
    new.add_argument("--ghost", metavar="NAME", help="Skeptics: ghost id: child, poltergeist, shadow, ...")
    new.add_argument("--ancient-one", metavar="ID", help="Elder Sign: the Ancient One (default: one drawn by the seed)")
    new.add_argument(
        "--cultists",
        type=int,
        choices=(1, 2),
        help="Among Cultists: one or two cultists, as your box's table gives for the players (required)",
    )
    new.add_argument("--seer", action="store_true", help="Among Cultists: play with the seer")
    new.add_argument(
        "--points-needed", type=int, metavar="N", help="Among Cultists: the victory points the investigators need"
    )
    new.add_argument(
        "--variant",
        choices=("short", "long"),
        help="Spooks: short (the first to 200 loses) or long (players drop out at 200 until three are left)",
    )
    new.add_argument("--decks", type=int, choices=(1, 2), help="Spooks: one deck or two")
    new.add_argument("--master-effects", action="store_true", help="Spooks: play the Masters' optional effects")
    new.add_argument(
        "--master-lasting",
        choices=("game", "hand"),
        help="Spooks: the Bones and Bats effects last until the end of the game (the rules, the default) "
        "or until the hand ends",
    )
    new.add_argument("--names", metavar="A,B,C", help="the players' names, in seat order, with commas")
    new.add_argument("--seed", type=int, metavar="S", help="seed of the shuffles (default: a random one, printed)")
    new.add_argument("--special-items", type=int, metavar="K", help="Skeptics: 0 to 3 special item cards (default 3)")
    new.add_argument(
        "--physical", action="store_true", help="physical deck mode: you draw the real cards and enter them"
    )
    new.add_argument("--name", help="a name for the saved game")

    do = sub.add_parser("do", parents=[common, pick], help="give a command, e.g. `end-round` or `summon success=true`")
    do.add_argument("--source", default="terminal", help=argparse.SUPPRESS)
    do.add_argument("command", metavar="COMMAND", help="a command name (see docs/terminal.md)")
    do.add_argument("args", nargs="*", metavar="key=value", help="the command's arguments")

    sub.add_parser("undo", parents=[common, pick], help="take back the last command")
    roll = sub.add_parser("roll", parents=[common, pick], help="roll virtual dice for the attempt under way")
    roll.add_argument(
        "--for",
        dest="for_",
        choices=["attempt", "summon", "pull"],
        default="attempt",
        help="what to roll for (default: the attempt under way)",
    )
    sub.add_parser("state", parents=[common, pick], help="where the game stands")
    sub.add_parser("list", parents=[common], help="the saved games")
    sub.add_parser("history", parents=[common, pick], help="the commands of the game so far")
    load = sub.add_parser("load", parents=[common], help="make a saved game the current one")
    load.add_argument("id", type=int, metavar="ID")
    commands = sub.add_parser(
        "commands",
        parents=[common, pick],
        help="the commands `do` understands, with their arguments: the game in play's, or those of --rules",
    )
    commands.add_argument(
        "--rules",
        metavar="GAME",
        help="the game: skeptics, elder-sign, among-cultists or spooks (default: the game in play)",
    )
    return parser


def _module_asked(ns: argparse.Namespace) -> GameModule:
    """The game whose commands `commands` lists: --rules, else the game in play in the history file (--game, else the
    last one played), else the default game. Nothing is written (a file that is not there is not created)."""
    from companion.history import GameStore

    if ns.rules:
        return module_for(ns.rules)
    db = Path(ns.db) if ns.db else default_db(ns.config)
    if not db.exists():
        return module_for(None)
    with GameStore(db) as store:
        game_id = ns.game if ns.game is not None else store.last_game_id()
        return module_for(rules_of(store.game(game_id).setup) if game_id is not None else None)


def _commands(ns: argparse.Namespace) -> int:
    module = _module_asked(ns)
    if ns.json:
        listed = {
            name: {"required": list(req), "optional": list(opt), "does": text}
            for name, (req, opt, text) in module.commands.items()
        }
        _print_json({"rules": module.rules, "title": module.title, "commands": listed})
        return 0
    print(f"{module.title}: companion game do [--db PATH] COMMAND [key=value ...]\n")
    for name, (required, optional, text) in module.commands.items():
        args = " ".join([f"{key}=..." for key in required] + [f"[{key}=...]" for key in optional])
        print(f"  {name:<20} {text}")
        if args:
            print(f"  {'':<20} {args}")
    print("\nEvery argument is described in docs/terminal.md.")
    return 0


def _pairs(items: Sequence[str]) -> dict[str, str]:
    args: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise BadCommand(f"argument {item!r} is not key=value (for example `success=true`).")
        if key in args:
            raise BadCommand(f"argument {key!r} is given twice.")
        args[key] = value
    return args


def _print_json(value: Any) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True))


def _run(ns: argparse.Namespace) -> int:
    from companion.history import GameStore
    from companion.service import GameService

    if ns.action == "commands":
        return _commands(ns)
    db = Path(ns.db) if ns.db else default_db(ns.config)
    if ns.action != "new" and not db.exists():
        return _no_file(ns, db)  # a look at a file that is not there must not create it
    packs = _packs(ns)
    store = GameStore(db)
    with GameService(store, packs, rng=random.Random()) as service:
        if ns.action == "new":
            return _new(service, ns, db)
        if ns.action == "list":
            return _list(service, ns, db)
        if ns.action == "load":
            state = service.load_game(ns.id)
            if ns.json:
                _print_json(state)
            else:
                print(f"Game {ns.id} is now the current game.")
                print(status_line(state))
            return 0
        if ns.game is not None:
            service.load_game(ns.game, make_current=ns.action in ("do", "undo", "roll"))
        else:
            service.resume_last()
        if ns.action == "state":
            state = service.state()
            if ns.json:
                _print_json(state)
            else:
                print(format_state(state))
            return 0
        if ns.action == "history":
            return _history(service, ns)
        if ns.action == "do":
            result = service.do(ns.command, _pairs(ns.args), source=ns.source)
        elif ns.action == "undo":
            result = service.undo(source="terminal")
        elif ns.action == "roll":
            result = service.roll_virtual(None if ns.for_ == "attempt" else ns.for_, source="terminal")
        else:  # pragma: no cover - argparse only lets the actions above through
            raise BadCommand(f"unknown action {ns.action!r}")
        if ns.json:
            _print_json(result.to_dict())
        else:
            sentences = service.describe(result.events)
            print(" ".join(sentences) if sentences else "Done.")
            print(status_line(result.state))
        return 0


def _no_file(ns: argparse.Namespace, db: Path) -> int:
    from companion.errors import HistoryError, IllegalCommand
    from companion.service import NO_GAME_MESSAGE, no_game_state

    if ns.action == "state":
        if ns.json:
            _print_json(no_game_state())
        else:
            print(f"There is no history file at {db} yet. {NO_GAME_MESSAGE}")
        return 0
    if ns.action in ("list", "history"):
        if ns.json:
            _print_json([])
        else:
            print(f"There is no history file at {db} yet: no saved games. Start one with `companion game new ...`.")
        return 0
    if ns.action == "load":
        raise HistoryError(f"there is no history file at {db}, so there is no game {ns.id} to load. Check --db.")
    raise IllegalCommand(f"there is no history file at {db} yet. {NO_GAME_MESSAGE}")


# the flags of `game new` that are a game's choices (GameModule.setup_choices): (flag, setup key)
_MODULE_FLAGS = (
    ("board", "board"),
    ("ghost", "ghost"),
    ("special-items", "special_items"),
    ("ancient-one", "ancient_one"),
    ("physical", "physical"),
    ("cultists", "cultists"),
    ("seer", "seer"),
    ("points-needed", "points_needed"),
    ("variant", "variant"),
    ("decks", "decks"),
    ("master-effects", "master_effects"),
    ("master-lasting", "master_lasting"),
)


def _new(service: Any, ns: argparse.Namespace, db: Path) -> int:
    from companion.games.base import RULES

    seed = ns.seed if ns.seed is not None else random.SystemRandom().randrange(1, 1_000_000)
    module = module_for(ns.rules)
    setup: dict[str, Any] = {"rules": module.rules, "players": ns.players}
    if module.seeded:
        setup["seed"] = seed
    elif ns.seed is not None:
        raise _UsageError(f"companion game new: {module.title} shuffles nothing, so --seed is not a choice of it.")
    for flag, key in _MODULE_FLAGS:
        value = getattr(ns, key)
        if value in (None, False):
            continue
        if key not in module.setup_choices:
            owners = " or ".join(m.title for m in map(module_for, RULES) if key in m.setup_choices)
            raise _UsageError(
                f"companion game new: --{flag} is not a choice of {module.title} (it is for {owners}); leave it out."
            )
        setup[key] = value
    missing = [f"--{flag}" for flag, key in _MODULE_FLAGS if key in module.required_choices and key not in setup]
    if missing:
        from companion.words import a_or_an

        raise _UsageError(f"companion game new: {a_or_an(module.title)} game needs {' and '.join(missing)}.")
    if ns.names:
        setup["names"] = [name.strip() for name in ns.names.split(",")]
    state = service.new_game(setup, name=ns.name)
    if ns.json:
        _print_json(state)
        return 0
    print(f"New game {state['game_id']} saved in {db}" + (f" (seed {seed})." if module.seeded else "."))
    print(format_state(state))
    return 0


def _list(service: Any, ns: argparse.Namespace, db: Path) -> int:
    games = service.list_games()
    last = games[0]["id"] if games else None
    if ns.json:
        _print_json([{**g, "current": g["id"] == last} for g in games])
        return 0
    if not games:
        print(f"No saved games in {db}. Start one with `companion game new ...`.")
        return 0
    print(f"{'':1} {'id':>3}  {'name':<14} {'board':<7} {'ghost':<12} {'pl':>2}  {'status':<8} {'cmds':>4}  started")
    for g in games:
        setup = g["setup"]
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(g["created"]))
        mark = "*" if g["id"] == last else ""
        print(
            f"{mark:1} {g['id']:>3}  {g['name'] or '-'!s:<14.14} {setup.get('board', '?')!s:<7} "
            f"{setup.get('ghost', '?')!s:<12.12} {setup.get('players', '?')!s:>2}  {g['status']:<8} "
            f"{g['commands']:>4}  {started}"
        )
    print("* the current game (the one `do`, `undo` and `state` use without --game)")
    return 0


def _history(service: Any, ns: argparse.Namespace) -> int:
    records = service.history()
    if ns.json:
        _print_json(records)
        return 0
    if service.game_id is None:
        print(service.state().get("message"))
        return 0
    if not records:
        print(f"Game {service.game_id}: no commands yet.")
        return 0
    for record in records:
        when = time.strftime("%H:%M:%S", time.localtime(record["at"]))
        print(f"{record['seq']:>4}. {when}  {record['text']}  ({record['source']})")
    return 0


def _exit_code(exc: CompanionError) -> int:
    return _EXIT_USAGE if isinstance(exc, (BadCommand, DiceError, ConfigError)) else _EXIT_REFUSED


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        ns = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
        if ns.action is None:
            parser.print_help(sys.stderr)
            return _EXIT_USAGE
        return _run(ns)
    except _UsageError as exc:
        print(exc, file=sys.stderr)
        return _EXIT_USAGE
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0
    except CompanionError as exc:
        print(f"companion game: {exc}", file=sys.stderr)
        return _exit_code(exc)
    except BrokenPipeError:  # `companion game state --json | head`
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("companion game: interrupted; every command accepted so far is saved.", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: say so in one line, the traceback only on request
        if os.environ.get("COMPANION_DEBUG"):
            raise
        print(
            f"companion game: internal error ({type(exc).__name__}: {exc}). Nothing half-done was saved. "
            "Run again with COMPANION_DEBUG=1 for the details and report it.",
            file=sys.stderr,
        )
        return _EXIT_REFUSED


if __name__ == "__main__":
    raise SystemExit(main())
