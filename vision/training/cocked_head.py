"""Fit the cocked-dice head (vision/cocked.py) on what the shipped networks compute, in numpy (no PyTorch).

    uv run python vision/training/cocked_head.py --out vision/models/dice_cocked.npz

Examples, every one read by the shipped reader as at a table (``read_frame``), described by ``vision.cocked.describe``:

- rendered trays with cocked dice (``synth.COCKED_TRAY``, seeds 7000-7059, dice leaning 45-55 degrees seen from above;
  any table seen from up to 6 degrees off vertical, seeds 9300-9419, dice leaning 24-55 degrees): a reading on a
  cocked die (its top face or a side face it shows) is "cocked", a reading on a flat die is not;
- rendered other tables (``synth.OTHER_TABLE``, seeds 7800-7829, flat dice seen 15-35 degrees off vertical): not
  cocked, so that the side faces an oblique camera shows are not taken for a lean;
- the real photos' dice (all flat): the training photos (``vision.dataset.is_fitting``) and the tuned-on fifth.

The benchmark's seeds (3000-3019, 9100-9139, the other table's 777) and the held-back photos are not used: they
report. The head is a logistic regression (L2 ``--lam``, real and other-table dice weighted ``--negative-weight``);
its threshold is the highest logit of any real die and any other-table die and the 99th percentile of the rendered
flat dice, so that no real flat die it was fitted on is called cocked.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.cocked import CockedHead, Look, describe
from vision.dataset import iter_photos
from vision.nets import digest
from vision.reader import CROP_SCALE, DieReading, ReaderSettings, crop_face, find_dice, read_frame, reader_outputs
from vision.training.synth import COCKED_TRAY, OTHER_TABLE, Style, SynthDie, render_scene

ANYWHERE = Style(tilt=(0.0, 6.0), cocked=0.35, cocked_angle=(24.0, 55.0), symbol_share=0.0)


def descriptors(image: np.ndarray) -> tuple[list[DieReading], np.ndarray]:
    """The dice the reader reads in ``image`` and the head's descriptor of each, as ``read_frame`` computes it."""
    readings = read_frame(image).dice
    if not readings:
        return readings, np.zeros((0, 0))
    looks: list[Look] = []
    _, scale, _ = find_dice(image, ReaderSettings(), looks)
    centres = [(r.center[0], r.center[1], float(r.box[2])) for r in readings]
    feats, _ = reader_outputs([crop_face(image, cx, cy, size * CROP_SCALE) for cx, cy, size in centres])
    return readings, describe(looks, scale, centres, feats)


def on_cocked_die(reading: DieReading, dice: Sequence[SynthDie]) -> bool:
    """Whether a reading lies on a rendered cocked die: not inside a flat die's top face, and within a face of a
    cocked die's top face centre (its top face or a side face it shows)."""
    x, y = reading.center
    if any(
        not d.cocked and d.box[0] <= x <= d.box[0] + d.box[2] and d.box[1] <= y <= d.box[1] + d.box[3] for d in dice
    ):
        return False
    nearest = min(dice, key=lambda d: math.hypot(d.cx - x, d.cy - y), default=None)
    return nearest is not None and nearest.cocked and math.hypot(nearest.cx - x, nearest.cy - y) < nearest.size


def examples() -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    """(group, descriptors, cocked) for each frame: groups "rendered", "other" and "real"."""
    scenes = [render_scene(np.random.default_rng(s), COCKED_TRAY) for s in range(7000, 7060)]
    scenes += [render_scene(np.random.default_rng(s), ANYWHERE) for s in range(9300, 9420)]
    for image, dice in scenes:
        readings, rows = descriptors(image)
        if readings:
            yield "rendered", rows, np.array([on_cocked_die(r, dice) for r in readings])
    for seed in range(7800, 7830):
        image, _ = render_scene(np.random.default_rng(seed), OTHER_TABLE)
        readings, rows = descriptors(image)
        if readings:
            yield "other", rows, np.zeros(len(readings), bool)
    for photo in iter_photos():
        if photo.held_back:
            continue
        readings, rows = descriptors(cv2.imread(str(photo.image)))
        if readings:
            yield "real", rows, np.zeros(len(readings), bool)


def fit(
    x: np.ndarray, y: np.ndarray, weight: np.ndarray, lam: float, steps: int = 2000, rate: float = 0.1
) -> tuple[np.ndarray, float]:
    """Weighted L2 logistic regression by gradient descent on standardised ``x``: (weights, bias)."""
    w, b = np.zeros(x.shape[1]), 0.0
    total = float(weight.sum())
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        g = (p - y) * weight
        w -= rate * (x.T @ g / total + lam * w / len(x))
        b -= rate * float(g.sum()) / total
    return w, b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("vision/models/dice_cocked.npz"))
    parser.add_argument("--lam", type=float, default=30.0)
    parser.add_argument("--negative-weight", type=float, default=27.0)
    args = parser.parse_args()
    groups, rows, labels = [], [], []
    for group, x, y in examples():
        groups += [group] * len(x)
        rows.append(x)
        labels.append(y)
    x, y, kind = np.concatenate(rows), np.concatenate(labels), np.array(groups)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    z = (x - mean) / scale
    weight = np.where(kind == "rendered", 1.0, args.negative_weight) * np.where(y, 2.0, 1.0)
    w, b = fit(z, y.astype(np.float64), weight, args.lam)
    logits = z @ w + b
    flat = (kind == "rendered") & ~y
    threshold = max(
        float(logits[kind == "real"].max()), float(logits[kind == "other"].max()), float(np.quantile(logits[flat], 0.99))
    )
    CockedHead(mean, scale, w, b, threshold, digest()).save(args.out)
    called = logits > threshold
    print(
        f"{len(x)} dice: rendered cocked {int(called[y].sum())}/{int(y.sum())} called, rendered flat "
        f"{int(called[flat].sum())}/{int(flat.sum())}, other table {int(called[kind == 'other'].sum())}/"
        f"{int((kind == 'other').sum())}, real {int(called[kind == 'real'].sum())}/{int((kind == 'real').sum())}; "
        f"saved {args.out}"
    )


if __name__ == "__main__":
    main()
