"""How long the exact odds take: the hardest case cold (cache cleared) and cached.

    uv run python benchmarks/bench_odds.py [--repeats N]

The hardest case is five dice, three rolls and a four-icon set; several four-icon sets are timed
cold and the slowest is reported. The phone asks for the odds on every roll, so the cached time
must stay well under a millisecond; the script exits 1 if it does not.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.skeptics.dice import Attempt, Requirement, clear_cache, odds_table, success_probability

CANDIDATES = [
    "eye:2,camera:1,cobweb:1",
    "eye:1,camera:2,cobweb:1",
    "eye:1,camera:1,cobweb:2",
    "eye:2,camera:2",
    "camera:2,cobweb:2",
    "eye:1,camera:3",
    "cobweb:4",
    "key:4",
]


def cold(req: Requirement, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        clear_cache()
        start = time.perf_counter()
        success_probability(req, dice=5, rolls=3)
        times.append(time.perf_counter() - start)
    return times


def cached(req: Requirement, repeats: int, calls: int = 2000) -> list[float]:
    success_probability(req, dice=5, rolls=3)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            success_probability(req, dice=5, rolls=3)
        times.append((time.perf_counter() - start) / calls)
    return times


def per_call(fn: object, repeats: int, calls: int = 500) -> list[float]:
    assert callable(fn)
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - start) / calls)
    return times


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.2f} us"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()

    print(f"exact odds, five dice, three rolls, best keeping (median of {args.repeats} runs each)")
    print()
    print(f"{'icon set':<28}{'cold median':>12}{'cold min':>12}")
    samples: dict[str, list[float]] = {text: [] for text in CANDIDATES}
    for _ in range(args.repeats):  # interleaved, so a busy moment of the machine hits every set alike
        for text in CANDIDATES:
            samples[text] += cold(Requirement.parse(text), 1)
    colds = {text: statistics.median(times) for text, times in samples.items()}
    for text in CANDIDATES:
        print(f"{text:<28}{ms(colds[text]):>12}{ms(min(samples[text])):>12}")
    hardest = max(colds, key=colds.__getitem__)
    req = Requirement.parse(hardest)
    cold_median = colds[hardest]
    cached_median = statistics.median(cached(req, args.repeats))
    print()
    print(f"hardest: {hardest} with 5 dice and 3 rolls = {success_probability(req, 5, 3):.6f}")
    print(f"  cold   (cache cleared):  {ms(cold_median)}")
    print(f"  cached (same question):  {us(cached_median)}   ({cold_median / cached_median:,.0f}x faster)")

    attempt, _ = Attempt.start("prove", req, dice=5).roll(["eye"] * 5)
    second = ["camera"] * attempt.dice_to_roll
    table = statistics.median(per_call(lambda: odds_table(req, dice=5, rolls=3), args.repeats))
    advice = statistics.median(per_call(lambda: attempt.keep_choices(second, 1), args.repeats))
    state = statistics.median(per_call(lambda: attempt.odds(2), args.repeats))
    print(f"  odds_table 1..3 rolls, cached:          {us(table)}")
    print(f"  attempt.odds(2) mid-attempt, cached:    {us(state)}")
    print(f"  attempt.keep_choices({len(second)} faces), cached:  {us(advice)}")
    limit = 1e-3
    ok = cached_median < limit / 10
    print()
    print(f"cached {'well under' if ok else 'NOT well under'} 1 ms (limit used: {ms(limit / 10)})")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
