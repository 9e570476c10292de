"""Measure a geometric cocked-dice call at a calibrated overhead camera (issue 26, fourth round; not shipped).

    uv run python vision/training/cocked_shape.py [--seeds 0 10] [--short 0.8]

Seen from straight above (the camera's image plane parallel to the table), a flat die's top face is a square of one
size anywhere in the frame; a die leaning ``a`` degrees shows its most-up face squeezed to cos(a) along one axis (and
a second face beside it). So each reading's face is outlined (``face_outline``: the pixels of the face's own colour
around the reading's centre, its pips filled, the second moments of that blob as a rectangle's two sides) and a die
is called cocked when the outline is a clean blob (solidity ``SOLID``), its long side that of a flat face of the table
(within ``LONG`` of the calibration frame's median, so that two touching dice seen as one blob are not judged), and
its short side under ``--short`` of it.

Tables: ``synth.PI_TRAY`` (the Raspberry Pi camera straight above a dark tray of white dice, 1640x1232, a pinhole
camera 22 die sides up, dice leaning 20-55 degrees against a neighbour) and ``synth.OVERHEAD`` (the same camera over
any table and dice), each at four face sizes; every table is calibrated on a flat frame of its own (the face size the
reader measures there when scaled for the rendered size, ``flat_ratio``, and the flat faces' outline), then read on
its scenes (seeds ``--seeds`` + 100 x the face size). Real sets (``../shared/datasets/dice``): calibrated on five of
its fitting photos (``vision.dataset.is_fitting``), counted on its tuned-on fifth (``is_held_out``), where every die
lies flat; a set whose calibrated ``flat_ratio`` is under ``OVERHEAD`` (pips seen as ellipses: an oblique camera) is
counted both with that gate and without it.
"""

from __future__ import annotations

import argparse
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from vision.dataset import SETS, Photo, is_fitting, load_set
from vision.reader import DieReading, ReaderSettings, read_frame
from vision.training.synth import OVERHEAD as OVERHEAD_TABLE
from vision.training.synth import PI_TRAY, Style, SynthDie, die_at, render_scene
from vision.tray import face_size, flat_ratio

LOOK = 48  # pixels per face size in the window the face is outlined in
REACH = 1.3  # the window reaches this many face sizes from the reading's centre
SOLID = 0.9  # the outline's area over its convex hull's, at least
LONG = (0.85, 1.15)  # the long side against the table's flat faces
OVERHEAD = 0.9  # a calibrated flat_ratio this round or more: the camera looks straight down


def face_outline(image: np.ndarray, cx: float, cy: float, size: float) -> tuple[float, float, float] | None:
    """(short side, long side, solidity) of the face around (cx, cy), sides in ``size`` units, or None when the blob
    of the face's colour reaches the window's edge or is too small. The face's colour is the median of its middle;
    the blob is the pixels within 0.4 of the distance from it to the window's edge colour (10-35 in Lab) that hold
    the middle, its pips filled; its sides are those of the rectangle with its second moments."""
    n = int(2 * REACH * LOOK)
    scale = LOOK / size
    m = cv2.getRotationMatrix2D((cx, cy), 0.0, scale)
    m[0, 2] += n / 2 - cx
    m[1, 2] += n / 2 - cy
    flags = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    patch = cv2.GaussianBlur(cv2.warpAffine(image, m, (n, n), flags=flags, borderMode=cv2.BORDER_REPLICATE), (3, 3), 0)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    c, q = n // 2, int(0.2 * LOOK)
    face = np.median(lab[c - q : c + q, c - q : c + q].reshape(-1, 3), axis=0)
    edge = np.median(np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]]), axis=0)
    near = float(np.clip(0.4 * np.linalg.norm(face - edge), 10, 35))
    mask = cv2.morphologyEx((np.linalg.norm(lab - face, axis=2) < near).astype(np.uint8), cv2.MORPH_OPEN,
                            np.ones((3, 3), np.uint8))
    _, labels, _, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    middle = labels[c - q : c + q, c - q : c + q]
    ids, votes = np.unique(middle[middle > 0], return_counts=True)
    if not len(ids):
        return None
    contours, _ = cv2.findContours((labels == ids[np.argmax(votes)]).astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    outline = max(contours, key=cv2.contourArea)
    x, y, w, h = cv2.boundingRect(outline)
    if x <= 0 or y <= 0 or x + w >= n or y + h >= n:
        return None
    blob = np.zeros((n, n), np.uint8)
    cv2.drawContours(blob, [outline], -1, 1, -1)
    mo = cv2.moments(blob, binaryImage=True)
    if mo["m00"] < 0.1 * LOOK * LOOK:
        return None
    cov = np.array([[mo["mu20"], mo["mu11"]], [mo["mu11"], mo["mu02"]]]) / mo["m00"]
    low, high = np.linalg.eigvalsh(cov)
    solidity = mo["m00"] / max(cv2.contourArea(cv2.convexHull(outline)), 1.0)
    return math.sqrt(12 * max(low, 0.0)) / LOOK, math.sqrt(12 * high) / LOOK, solidity


def flat_side(image: np.ndarray, readings: Sequence[DieReading], size: float) -> float | None:
    """The median long side of the calibration frame's faces (read for sure), in ``size`` units."""
    sides = [o[1] for r in readings if r.value is not None and (o := face_outline(image, *r.center, size))]
    return float(np.median(sides)) if sides else None


def called(outline: tuple[float, float, float] | None, flat: float, short: float) -> bool:
    if outline is None:
        return False
    low, high, solidity = outline
    return solidity >= SOLID and LONG[0] * flat <= high <= LONG[1] * flat and low < short * flat


def on_die(reading: DieReading, dice: Sequence[SynthDie]) -> SynthDie | None:
    """The rendered die a reading lies on: the die seen at its centre (``synth.die_at``: a cocked die's side face
    over its flat neighbour's top face is the cocked die's), None on the table."""
    return die_at(*reading.center, dice)


BANDS = ((20.0, 30.0), (30.0, 40.0), (40.0, 55.1))


def rendered(name: str, style: Style, faces: Sequence[float], seeds: tuple[int, int], short: float) -> None:
    count: Counter[str] = Counter()
    for f in faces:
        table = replace(style, face=(f, f))
        flat_image, flat_dice = render_scene(np.random.default_rng(int(f)), replace(table, cocked=0.0, dice=(8, 10)))
        # the face size the reader measures when scaled for the rendered one (its coarse pass measures faces of
        # 60-90 pixels in a 1640-pixel frame as 120-150: the finder's size head is flat for small faces)
        rendered_size = float(np.median([d.size for d in flat_dice]))
        calibration = read_frame(flat_image, ReaderSettings(face_size=rendered_size)).dice
        size = face_size(calibration) or rendered_size
        settings = ReaderSettings(face_size=size, flat_ratio=flat_ratio(flat_image, calibration))
        flat = flat_side(flat_image, calibration, size)
        if flat is None:
            continue
        for seed in range(seeds[0] + 100 * int(f), seeds[1] + 100 * int(f)):
            image, dice = render_scene(np.random.default_rng(seed), table)
            seen: dict[int, tuple[bool, bool]] = {}  # die -> (read as a value, called cocked)
            for r in read_frame(image, settings).dice:
                d = on_die(r, dice)
                call = called(face_outline(image, *r.center, size), flat, short)
                if d is None:
                    count["off any die, called"] += call
                    continue
                was = seen.get(id(d), (False, False))
                seen[id(d)] = (was[0] or r.value is not None, was[1] or call)
            for d in dice:
                band = next((f"{lo:.0f}-{min(hi, 55):.0f}" for lo, hi in BANDS if lo <= d.leaning < hi), "other")
                kind = f"cocked {band}" if d.cocked else "flat"
                count[kind] += 1
                if id(d) in seen:
                    value, call = seen[id(d)]
                    count[kind + " read"] += 1
                    count[kind + " as value"] += value
                    count[kind + " called"] += call
    print(f"{name} (faces {', '.join(f'{f:.0f}' for f in faces)} px, seeds {seeds[0]}-{seeds[1] - 1} per face):")
    kinds = [f"cocked {lo:.0f}-{min(hi, 55):.0f}" for lo, hi in BANDS] + ["flat"]
    for kind in kinds:
        print(f"  {kind:<14} {count[kind]:>4} dice, read {count[kind + ' read']:>4} (as a value "
              f"{count[kind + ' as value']:>4}), called cocked {count[kind + ' called']:>4}")
    total = sum(count[k] for k in kinds[:-1])
    calls = sum(count[k + " called"] for k in kinds[:-1])
    print(f"  cocked, all: {calls}/{total} called; flat dice called cocked {count['flat called']}/{count['flat']}; "
          f"readings on no die called {count['off any die, called']}")


def calibrated(set_name: str) -> tuple[list[Photo], list[Photo], ReaderSettings | None]:
    """The set's photos, the 5 fitting photos it is calibrated on, and its settings as a calibrated table (the face
    size and flat_ratio those photos measure; None when no die is found there)."""
    photos = load_set(set_name)
    fitting = [p for p in photos if is_fitting(p.image.name)]
    random.Random(3).shuffle(fitting)
    pooled: list[DieReading] = []
    ratios = []
    for p in fitting[:5]:
        image = cv2.imread(str(p.image))
        readings = read_frame(image).dice
        pooled += readings
        ratio = flat_ratio(image, readings)
        if ratio is not None:
            ratios.append(ratio)
    size = face_size(pooled)
    if size is None:
        return photos, fitting[:5], None
    return photos, fitting[:5], ReaderSettings(face_size=size, flat_ratio=float(np.median(ratios)) if ratios else None)


def real(short: float) -> None:
    print("real sets (every die flat): calibrated on 5 fitting photos, read on the tuned-on fifth")
    for set_name in SETS:
        photos, fitting, settings = calibrated(set_name)
        if settings is None or settings.face_size is None:
            continue
        size, ratio = settings.face_size, settings.flat_ratio
        sides = []
        for p in fitting[:5]:
            image = cv2.imread(str(p.image))
            side = flat_side(image, read_frame(image, ReaderSettings(face_size=size)).dice, size)
            if side is not None:
                sides.append(side)
        flat = float(np.median(sides))
        readings = calls = 0
        for p in photos:
            if not p.held_out:
                continue
            image = cv2.imread(str(p.image))
            for r in read_frame(image, settings).dice:
                readings += 1
                calls += called(face_outline(image, *r.center, size), flat, short)
        overhead = ratio is not None and ratio >= OVERHEAD
        print(f"  {set_name:<16} face_size {size:.0f}, flat_ratio {ratio or 0:.3f} ({'overhead' if overhead else 'oblique'}):"
              f" {calls} of {readings} readings called cocked without the gate, {calls if overhead else 0} with it")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, nargs=2, default=(0, 10))
    parser.add_argument("--short", type=float, default=0.8, help="short side under this share of a flat face: cocked")
    parser.add_argument("--no-real", action="store_true")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    seeds = (args.seeds[0], args.seeds[1])
    print(f"cocked when the face's short side < {args.short} of a flat face's (long side {LONG[0]}-{LONG[1]} of it, "
          f"solidity >= {SOLID})")
    rendered("Pi camera over a dark tray (synth.PI_TRAY)", PI_TRAY, (60.0, 70.0, 80.0, 90.0), seeds, args.short)
    rendered("overhead, any table (synth.OVERHEAD)", OVERHEAD_TABLE, (50.0, 65.0, 80.0, 95.0), seeds, args.short)
    if not args.no_real:
        real(args.short)


if __name__ == "__main__":
    main()
