"""How long the games record and the figures take: a history of played games, its records made the first time
(every game replayed through its engine, the chance of each attempt worked out again), then read back from the file,
the figures across them, the pictures and the night's PNG.

    uv run python benchmarks/bench_stats.py [--games 30] [--repeat 5]

The games are Skeptics games played with a fixed seed until they end (search attempts rolled with the companion's
virtual dice until the actions run out, turn after turn), so every run measures the same history; their luck is
printed too, a check of the odds against fair dice. Medians of --repeat runs; "cold" makes every record
again (as the first look at a file written before there were records), "kept" reads them from the file.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.errors import CompanionError
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.night_card import night_png
from companion.pictures import calibration_svg, luck_svg, player_luck_svg, timeline_svg
from companion.record import RecordBook
from companion.service import GameService
from companion.stats import figures, nights, player_luck_by_game


def play(service: GameService, rng: random.Random, seed: int) -> None:
    """One Skeptics game to its end: every action an attempt's roll, thrown with the companion's dice."""
    service.new_game({"players": 3, "board": "asylum", "ghost": "child", "seed": seed})
    while service.state()["outcome"] is None:
        state = service.state()
        try:
            if state.get("attempt") is None and state.get("actions_left"):
                service.do("attempt", {"action": "search", "need": rng.choice(["eye:1", "eye:2,camera:1", "cobweb:1"])})
            elif state.get("attempt") is not None and state.get("actions_left"):
                service.roll_virtual()
            else:
                service.do("end-turn")
        except CompanionError:
            service.do("end-round")


def median_ms(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    # the history in memory's file system where there is one: the commits' fsync is bench_engine's to measure
    with tempfile.TemporaryDirectory(dir="/dev/shm" if Path("/dev/shm").is_dir() else None) as tmp:
        service = GameService(GameStore(Path(tmp) / "games.sqlite3"), load_packs(), rng=random.Random(1))
        rng = random.Random(2)
        for seed in range(args.games):
            play(service, rng, seed)
        store = service.store
        commands = sum(info.commands for info in store.list_games())
        book = RecordBook(store, service.packs_for)

        def cold() -> list[dict[str, Any]]:
            for info in store.list_games():
                store.save_record(info.id, {"version": 0})
            return book.records()

        cold_ms, records = median_ms(cold, args.repeat)
        kept_ms, _ = median_ms(book.records, args.repeat)
        attempts = sum(len(r["attempts"]) for r in records)
        fig_ms, found = median_ms(lambda: figures(records), args.repeat)
        svg_ms, _ = median_ms(lambda: [timeline_svg(r) for r in records], args.repeat)
        all_attempts = [a for r in reversed(records) for a in r["attempts"]]
        luck_ms, _ = median_ms(lambda: luck_svg(all_attempts), args.repeat)
        cal_ms, _ = median_ms(lambda: calibration_svg(found["calibration"]), args.repeat)
        by_game_ms, by_game = median_ms(lambda: player_luck_by_game(records), args.repeat)
        players_ms, _ = median_ms(lambda: player_luck_svg(by_game), args.repeat)
        night = nights(records)[-1]
        png_ms, png = median_ms(lambda: night_png(night), args.repeat)
        service.close()
    print(
        f"{args.games} games, {commands} commands, {attempts} attempts with their odds shown "
        f"(successes {found['successes']}, the odds said {found['expected_successes']:.1f}, "
        f"percentile {found['luck_percentile']})"
    )
    print(f"  records made (every game replayed): median {cold_ms:.1f} ms, {cold_ms / args.games:.2f} ms a game")
    print(f"  records kept in the file, read back: median {kept_ms:.1f} ms (x{cold_ms / kept_ms:.0f} faster)")
    print(f"  figures across the games:            median {fig_ms:.2f} ms")
    print(f"  every game's timeline SVG:            median {svg_ms:.2f} ms ({svg_ms / args.games:.3f} ms a game)")
    print(f"  the luck chart ({attempts} attempts, exact band):  median {luck_ms:.2f} ms")
    print(f"  the calibration chart:                median {cal_ms:.3f} ms")
    print(
        f"  each player's luck game by game:      median {by_game_ms:.2f} ms (of the figures' time), "
        f"its chart {players_ms:.2f} ms"
    )
    print(f"  the night's PNG ({len(night)} games, {len(png)} B):   median {png_ms:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
