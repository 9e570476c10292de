"""The face size `companion dice calibrate` stores (vision.tray.calibrate), before and after its closer looks.

    uv run python benchmarks/bench_calibrate.py [--seeds N] [--models DIR]

Tables: the rendered Raspberry Pi tray (vision/training/synth.py's PI_TRAY, every die flat) 1640 and 3280 pixels
wide at four face sizes each, N scenes per size; and fitting photos of byler-train (``is_fitting``) pasted, 1 and
1.5 times as large, into 1920- and 2880-pixel frames of a dark table. Each frame is calibrated on itself (the whole
frame as the tray) with the two passes' size alone ("before": ``tray.SIZE_LOOKS = 0``) and with the closer looks
("after"); the size is given as a share of the drawn (labelled) one. The calibrated table then reads the frame and,
for the rendered tables, three more flat scenes of the same table: dice right of dice, and false positives.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vision.tray as tray
from vision.dataset import Label, Score, is_fitting, load_set, score_photo
from vision.nets import use_models
from vision.reader import ReaderSettings, read_dice
from vision.training.synth import PI_TRAY, render_scene

Frame = tuple[np.ndarray, list[Label]]


def pi_frames(width: int, face: float, seed: int, count: int) -> list[Frame]:
    style = replace(PI_TRAY, width=(width, width), face=(face, face), cocked=0.0, dice=(8, 10))
    frames = []
    for k in range(count):
        image, dice = render_scene(np.random.default_rng(seed + 7919 * k), style)
        frames.append((image, [Label(d.value, d.box) for d in dice]))
    return frames


def pasted(path: Path, labels: tuple[Label, ...], k: float, width: int) -> Frame:
    image = cv2.resize(cv2.imread(str(path)), None, fx=k, fy=k, interpolation=cv2.INTER_LINEAR)
    canvas = np.full((width * 3 // 4, width, 3), (25, 20, 18), np.uint8)
    x0, y0 = 500, 200
    canvas[y0 : y0 + image.shape[0], x0 : x0 + image.shape[1]] = image
    return canvas, [
        Label(lab.value, (lab.box[0] * k + x0, lab.box[1] * k + y0, lab.box[2] * k, lab.box[3] * k)) for lab in labels
    ]


def drawn(labels: list[Label]) -> float:
    return float(np.median([(lab.box[2] + lab.box[3]) / 2 for lab in labels]))


def measure(frames: list[Frame], looks: int) -> tuple[float, Score]:
    """The calibrated size of the first frame (share of the drawn one) and the score of reading every frame so."""
    tray.SIZE_LOOKS = looks
    image, labels = frames[0]
    size = tray.calibrate(None, image, (0, 0, image.shape[1], image.shape[0])).face_size
    score = Score()
    if size is None:
        return 0.0, score
    for image, labels_k in frames:
        readings = read_dice(image, ReaderSettings(face_size=size))
        score.add(score_photo([(r.value, r.box) for r in readings], labels_k))
    return size / drawn(labels), score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=2, help="rendered tables per face size")
    parser.add_argument("--models", default=None, help="a folder with dice_find.onnx and dice_read.onnx to measure")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.models:
        use_models(Path(args.models) / "dice_find.onnx", Path(args.models) / "dice_read.onnx")
    looks = tray.SIZE_LOOKS
    tables: dict[str, list[list[Frame]]] = {}
    for width, faces in ((1640, (60.0, 70.0, 80.0, 90.0)), (3280, (120.0, 150.0, 180.0, 240.0))):
        tables[f"Pi tray {width} wide"] = [
            pi_frames(width, f, int(f) + 1000 * s, 4) for f in faces for s in range(args.seeds)
        ]
    photos = [p for p in load_set("byler-train") if is_fitting(p.image.name) and len(p.labels) >= 3]
    random.Random(1).shuffle(photos)
    tables["byler-train pasted, 1920/2880"] = [
        [pasted(p.image, p.labels, k, w)] for p in photos[:6] for k, w in ((1.0, 1920), (1.5, 2880))
    ]
    print(
        "table                              frames  size/drawn before: median  range      in 10%   "
        "after: median  range      in 10%   read before   after (right/dice, fp)"
    )
    for name, sets in tables.items():
        row = []
        for n in (0, looks):
            ratios, score = [], Score()
            for frames in sets:
                ratio, one = measure(frames, n)
                ratios.append(ratio)
                score.add(one)
            r = np.array(ratios)
            row.append(
                (
                    f"{np.median(r):.2f}  {r.min():.2f}-{r.max():.2f}  {int(np.sum(abs(r - 1) <= 0.1)):>2}/{len(r)}",
                    f"{score.right}/{score.dice}, {score.false_positives}",
                )
            )
        print(
            f"{name:<34} {len(sets):>6}  {row[0][0]:>28}   {row[1][0]:>28}   {row[0][1]:>12}  {row[1][1]:>12}",
            flush=True,
        )
    tray.SIZE_LOOKS = looks


if __name__ == "__main__":
    main()
