"""How long Elder Sign's exact odds take: a whole adventure card, cold (caches cleared) and cached.

    uv run python benchmarks/bench_elder_sign_odds.py [--repeats N] [--card ID] [--no-extra-dice]

Every adventure and Other World card of the bundled packs is timed once, cold, with the box's dice (6 green,
the yellow and the red die, one focus); the slowest is the hardest card, and it is timed again --repeats
times cold and many times cached. Also timed: one task with the CLI's question (inv:4,lore:1, 6 green dice,
3 rolls). The phone asks again before every roll, so the cached time must stay well under a millisecond;
the script exits 1 if it does not.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.elder_sign.odds import card_fraction, card_probability, clear_cache, odds_table
from companion.games.elder_sign.packs import Adventure, load_packs


def cold(card: Adventure, dice: tuple[int, int, int], repeats: int) -> list[float]:
    tasks = tuple(str(t.need) for t in card.tasks)
    times = []
    for _ in range(repeats):
        clear_cache()
        start = time.perf_counter()
        card_fraction(tasks, card.ordered, *dice, rolls=None, holds=1)
        times.append(time.perf_counter() - start)
    return times


def cached(card: Adventure, dice: tuple[int, int, int], repeats: int, calls: int = 2000) -> list[float]:
    tasks = tuple(str(t.need) for t in card.tasks)
    card_probability(tasks, card.ordered, *dice, rolls=None, holds=1)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            card_probability(tasks, card.ordered, *dice, rolls=None, holds=1)
        times.append((time.perf_counter() - start) / calls)
    return times


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="cold timings of the hardest card (median shown)")
    parser.add_argument("--card", help="time this card only instead of searching for the hardest")
    parser.add_argument("--no-extra-dice", action="store_true", help="6 green dice only (no yellow, no red)")
    args = parser.parse_args(argv)
    packs = load_packs()
    cards = {**packs.adventures, **packs.other_worlds}
    dice = (6, 0, 0) if args.no_extra_dice else (6, 1, 1)
    print(f"dice: {dice[0]} green, {dice[1]} yellow, {dice[2]} red; one focus; rolls until the dice run out")
    if args.card:
        hardest = cards[args.card]
    else:
        first: dict[str, float] = {}
        for card_id, card in cards.items():
            first[card_id] = cold(card, dice, 1)[0]
            tasks = "; ".join(str(t.need) for t in card.tasks)
            print(f"  {card_id:<8} {ms(first[card_id]):>12}  {'ordered ' if card.ordered else ''}{tasks}")
        hardest = cards[max(first, key=lambda k: first[k])]
    tasks = "; ".join(str(t.need) for t in hardest.tasks)
    chance = card_probability(tuple(str(t.need) for t in hardest.tasks), hardest.ordered, *dice, holds=1)
    cold_times = cold(hardest, dice, args.repeats)
    cached_times = cached(hardest, dice, 5)
    print(f"hardest card: {hardest.id} ({tasks}{', in order' if hardest.ordered else ''}), chance {chance:.4f}")
    print(
        f"  cold   median {ms(statistics.median(cold_times))} over {len(cold_times)} runs "
        f"(min {ms(min(cold_times))}, max {ms(max(cold_times))})"
    )
    print(f"  cached median {ms(statistics.median(cached_times))} per call")
    clear_cache()
    start = time.perf_counter()
    odds_table("inv:4,lore:1", green=6, rolls=3)
    task_cold = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(200):
        odds_table("inv:4,lore:1", green=6, rolls=3)
    task_cached = (time.perf_counter() - start) / 200
    print(f"one task (inv:4,lore:1, 6 green, rows for 1-3 rolls): cold {ms(task_cold)}, cached {ms(task_cached)}")
    if statistics.median(cached_times) > 0.001:
        print("FAIL: the cached answer takes more than a millisecond", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
