"""Accuracy and speed of the dice reader on the labelled photos (one OpenCV thread).

    uv run python benchmarks/bench_vision.py [--data DIR] [--held-out-only] [--errors]

For each set (byler-train, matteop65/Train, matteop65/Valid) and for the held-out fifth of
all three (photos never used in training, see vision.dataset.is_held_out) it prints the
per-die accuracy by the dataset README's rule, the dice read unsure / wrong / missed, the
false positives per 20 photos and the median milliseconds per photo of ``read_dice``
(decoding the JPEG is not counted). ``--errors`` lists every die that was not read right.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.dataset import SETS, Photo, Score, dataset_root, load_set, score_photo  # noqa: E402
from vision.reader import read_dice  # noqa: E402


def run(photos: list[Photo], errors: bool) -> tuple[Score, list[float], Score]:
    total, held = Score(), Score()
    times = []
    for photo in photos:
        image = cv2.imread(str(photo.image))
        t0 = time.perf_counter()
        readings = read_dice(image)
        times.append((time.perf_counter() - t0) * 1000)
        score = score_photo([(r.value, r.box) for r in readings], photo.labels)
        total.add(score)
        if photo.held_out:
            held.add(score)
        if errors and (score.right != score.dice or score.false_positives):
            got = " ".join(f"{r.value or '?'}@{r.center[0]:.0f},{r.center[1]:.0f}({r.confidence:.2f})" for r in readings)
            want = " ".join(f"{lab.value}@{lab.center[0]:.0f},{lab.center[1]:.0f}" for lab in photo.labels)
            print(f"  {photo.set_name}/{photo.image.name}{' [held out]' if photo.held_out else ''}: "
                  f"right {score.right}/{score.dice} unsure {score.unsure} wrong {score.wrong} "
                  f"missed {score.missed} fp {score.false_positives}\n    read: {got}\n    want: {want}")
    return total, times, held


def line(name: str, score: Score, times: list[float]) -> str:
    ms = f"{statistics.median(times):6.2f}" if times else "   -  "
    return (f"{name:<28} {score.photos:>6} {score.dice:>5} {100 * score.accuracy:>8.2f}% {score.unsure:>6} "
            f"{score.wrong:>5} {score.missed:>6} {score.fp_per_20:>8.2f} {ms}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=None)
    parser.add_argument("--held-out-only", action="store_true")
    parser.add_argument("--errors", action="store_true")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    root = dataset_root(args.data)
    if not (root / SETS[0]).is_dir():
        raise SystemExit(f"no dataset at {root}; give --data DIR (the folder holding byler-train/ and matteop65/).")
    read_dice(cv2.imread(str(next((root / SETS[0] / "images").glob("*.jpg")))))  # load the networks
    print(f"dice reader on {root} (cv2 {cv2.__version__}, {cv2.getNumThreads()} thread)")
    print(f"{'set':<28} {'photos':>6} {'dice':>5} {'accuracy':>9} {'unsure':>6} {'wrong':>5} {'missed':>6} "
          f"{'fp/20ph':>8} {'ms med':>6}")
    held_all, held_times = Score(), []
    held_by_set = []
    for set_name in SETS:
        photos = load_set(set_name, root)
        if args.held_out_only:
            photos = [p for p in photos if p.held_out]
        total, times, held = run(photos, args.errors)
        held_all.add(held)
        held_times += [t for p, t in zip(photos, times) if p.held_out]
        held_by_set.append((set_name, held, [t for p, t in zip(photos, times) if p.held_out]))
        if not args.held_out_only:
            print(line(f"{set_name} (all)", total, times))
    for set_name, held, times in held_by_set:
        print(line(f"{set_name} (held out)", held, times))
    print(line("held out, all sets", held_all, held_times))


if __name__ == "__main__":
    main()
