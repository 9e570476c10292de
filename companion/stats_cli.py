"""`companion stats`: the games record and the dice's luck in the terminal (docs/stats.md).

    companion stats --db games.sqlite3            # the figures in words, the games newest first
    companion stats --db games.sqlite3 --json     # the same figures as JSON (the contract below)
    companion stats --db games.sqlite3 --csv      # one row per game
    companion stats --db games.sqlite3 --png night.png   # the last night's summary as a picture to share

``--json`` prints :func:`companion.stats.figures`: ``games``, ``by_rules`` ({rules: {"played", "won", "lost"}}),
``attempts``, ``successes``, ``expected_successes`` (the sum of the chances shown before each attempt),
``luck_percentile``, then the other figures, and ``records`` (every game's record, newest first).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, HistoryError

EXIT_ERROR, EXIT_USAGE = 1, 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion stats", description="The games played, and the dice's luck.")
    parser.add_argument("--db", metavar="PATH", help="the game history file (default: the data directory's)")
    parser.add_argument("--config", metavar="PATH", help="configuration file (the data directory and the packs)")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the figures as JSON")
    out.add_argument("--csv", action="store_true", help="print one row per game as CSV")
    parser.add_argument("--png", metavar="PATH", help="also save the last night's summary as a PNG picture")
    return parser


def describe(figures: Mapping[str, Any], records: Sequence[Mapping[str, Any]], where: str) -> str:
    """The figures in words, for the terminal."""
    from companion.stats import duration, when

    if not records:
        return f"No game has been played with {where} yet."
    lines = [f"{len(records)} game{'s' if len(records) != 1 else ''} in {where}, the newest first:"]
    for r in records:
        result = {"won": "won", "lost": "lost"}.get(str(r.get("result")), "not finished")
        setup = ", ".join(f"{label} {value}" for label, value in r.get("setup") or [])
        rounds = f"{r.get('rounds')} {r.get('rounds_word')}" if r.get("rounds") is not None else ""
        marks = (
            f", {r.get('marks')} {r.get('marks_word')}" if r.get("marks_word") and r.get("marks") is not None else ""
        )
        lines.append(
            f"  #{r.get('game')} {r.get('title')} {when(r.get('started') or 0)}, {duration(r.get('minutes') or 0)}, "
            f"{', '.join(r.get('players') or [])}" + (f"; {setup}" if setup else "") + f"; {rounds}{marks}; "
            f"{result}"
            + (f": {r.get('why')}" if r.get("why") else "")
            + (f" ({r['odds_note']})" if r.get("odds_note") else "")
        )
    lines.append("")
    lines.append("Luck: " + str(figures["luck"]["words"]))
    for luck in (figures.get("players") or {}).values():
        lines.append(f"  {luck['words']}")
    trend = (figures.get("player_luck_by_game") or {}).get("words") or []
    if trend:
        lines.append("Game by game:")
        lines.extend(f"  {words}" for words in trend)
    if figures.get("attempts_without_odds"):
        lines.append(f"  ({figures['attempts_without_odds_words']})")
    lines.append("Were the odds right? (the chance shown, against how often the attempts came good)")
    for row in figures["calibration"]:
        if row["attempts"]:
            lines.append(
                f"  {row['label']:>8}: {row['good']} of {row['attempts']} came good "
                f"({row['rate'] * 100:.0f}%; the odds said {row['shown'] * 100:.0f}%)"
            )
    lines.append("Win rate by game:")
    for rules, tally in figures["win_rate_by_game"].items():
        rate = "" if tally["win_rate"] is None else f", {tally['win_rate'] * 100:.0f}% won"
        lines.append(f"  {rules}: {tally['played']} played, {tally['won']} won, {tally['lost']} lost{rate}")
    longest = figures.get("longest")
    if longest:
        lines.append(f"The longest game: #{longest['game']} {longest['title']}, {duration(longest['minutes'] or 0)}.")
    return "\n".join(lines)


def run(ns: argparse.Namespace) -> int:
    from companion.config import load_config
    from companion.history import GameStore
    from companion.record import RecordBook
    from companion.service import GameService
    from companion.stats import figures, to_csv

    config = load_config(ns.config)
    db = Path(ns.db) if ns.db else config.history_path
    if not db.exists():  # a look at a file that is not there must not create it
        raise HistoryError(f"there is no history file at {db}. Give the file with --db PATH.")
    with GameService(GameStore(db), config.load_packs()) as service:
        records = RecordBook(service.store, service.packs_for).records()
    found = figures(records)
    if ns.png:
        from companion.night_card import night_png
        from companion.stats import nights

        groups = nights(records)
        Path(ns.png).write_bytes(night_png(groups[-1] if groups else []))
    if ns.json:
        print(json.dumps({**found, "records": records}, ensure_ascii=False, indent=2))
    elif ns.csv:
        sys.stdout.write(to_csv(records))
    else:
        print(describe(found, records, str(db)))
        if ns.png:
            print(f"The night's summary is in {ns.png}.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        ns = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 0
    try:
        return run(ns)
    except CompanionError as exc:
        print(f"companion stats: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:  # pragma: no cover - `companion stats --json | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        print(f"companion stats: {exc.strerror or exc}: {exc.filename or ''}. Check the path.", file=sys.stderr)
        return EXIT_ERROR
