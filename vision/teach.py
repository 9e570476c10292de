"""Teach the reader a table's own dice, camera and light, on the table's own CPU (no PyTorch).

The reader network ends in one linear layer over 64 features of the crop. Teaching keeps the network and
fits a new last layer on the features of the table's labelled photos (computed through cv2.dnn, as at
reading time), starting from the shipped layer and held near it, so values the photos do not show are
still read as before. What the photos teach:

- the table's dice as they look there: colours, pips, the camera's sharpness and light;
- a symbol face as the value it is labelled with (a winged emblem on the six reads 6);
- what the finder takes for a die there and is not one (peaks matching no label): "not a die";
- the finder's heads: where the dice are on this table (its heat map) and how large their top faces are
  (its size head, from the labels' boxes), so that the reader's crops hold the top face and not the side
  faces an oblique camera shows.

    from vision.teach import teach, save_taught, load_taught
    taught = teach([(frame, labels), ...])          # labels: vision.dataset.Label (value, box in pixels)
    save_taught(taught, path)
    read_dice(frame, ReaderSettings(taught=load_taught(path)))

``companion dice teach IMAGE... --labels DIR --save PATH`` does this from photos labelled in the datasets'
YOLO format; ``keep_example`` stores one corrected reading (its photo and labels) in a folder of examples,
and ``teach_folder`` teaches from such a folder (the phone page's "Teach the reader").
"""

from __future__ import annotations

import math
import os
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import VisionError
from vision.dataset import Label, read_labels, score_photo
from vision.nets import CLASSES, NOT_A_DIE, digest, networks
from vision.reader import (
    CROP_SCALE,
    STRIDE,
    TILE,
    DieReading,
    ReaderSettings,
    check_frame,
    crop_face,
    find_dice,
    finder_features,
    finder_view,
    read_dice,
    reader_outputs,
)
from vision.taught import TaughtReader, load_taught, save_taught, softmax, unit_rows

__all__ = [
    "Teacher",
    "TaughtReader",
    "examples_dir",
    "keep_example",
    "label_file_for",
    "load_examples",
    "load_taught",
    "readings_as_labels",
    "save_taught",
    "score",
    "taught_path",
    "teach",
    "teach_folder",
]

ROTATIONS = (0.0, 90.0, 180.0, 270.0)
POSITIVE_SHARE = 0.1  # the finder's positive cells weigh this much of its negative cells together
SIDE_NEGATIVES = 4  # "not a die" crops taught around each labelled die
BACKGROUND_CROPS = 24  # and "not a die" crops of the table itself in each photo, a face or more from every die
# (a third of them along the frame's edge)
SHIPPED_PEAKS = True  # the shipped finder's unlabelled peaks are taught as "not a die" too
CROP_JITTER = (math.log(0.9), math.log(1.2))  # the log range of the crop sizes taught around each die


def _shipped_layer() -> tuple[np.ndarray, np.ndarray]:
    """The shipped reader's last layer: (weights classes x features, bias)."""
    reader = networks().read
    names = list(reader.getLayerNames())
    gemm = next(n for n in names if n.endswith("Gemm"))
    return np.array(reader.getParam(gemm, 0), np.float64), np.array(reader.getParam(gemm, 1), np.float64).reshape(-1)


def _shipped_heads() -> tuple[np.ndarray, float, np.ndarray, float]:
    """The shipped finder's heat and size heads: (heat weights over its last features, heat bias, size
    weights, size bias)."""
    finder = networks().find
    names = list(finder.getLayerNames())
    head = [n for n in names if n.endswith("Conv")][-1]
    w = np.array(finder.getParam(head, 0), np.float64)[:, :, 0, 0]
    b = np.array(finder.getParam(head, 1), np.float64).reshape(-1)
    return w[0], float(b[0]), w[1], float(b[1])


# ---------------------------------------------------------------- examples


@dataclass(frozen=True)
class _Example:
    crop: np.ndarray
    cls: int


def _match(candidates: Sequence[tuple[float, float, float, float]], labels: Sequence[Label]) -> dict[int, int]:
    """label index -> candidate index, by the datasets' rule (the candidate's centre in the label's box)."""
    pairs = []
    for c, (cx, cy, _, _) in enumerate(candidates):
        for i, label in enumerate(labels):
            x, y, w, h = label.box
            if x <= cx <= x + w and y <= cy <= y + h:
                mx, my = label.center
                pairs.append(((cx - mx) ** 2 + (cy - my) ** 2, c, i))
    pairs.sort()
    used: set[int] = set()
    matched: dict[int, int] = {}
    for _, c, i in pairs:
        if c not in used and i not in matched:
            used.add(c)
            matched[i] = c
    return matched


@dataclass
class _Cells:
    """Cells of the finder's grid for teaching its heads: features, heat targets 0/1 and their weights, and
    the cells around each labelled die's centre with the log of its face size in cells (the size head)."""

    feats: np.ndarray
    target: np.ndarray
    weight: np.ndarray
    size_feats: np.ndarray
    size_target: np.ndarray


def _finder_cells(
    frame: np.ndarray, labels: Sequence[Label], scale: float, sizes: dict[int, float], rng: np.random.Generator
) -> _Cells | None:
    """The finder's view of the photo at the scale it was read at: a positive cell on every labelled die's
    centre, negatives elsewhere (weighted down near a die, as the finder was trained); ``sizes`` are the
    face sizes (pixels of the frame) the finder should give for each label."""
    view = finder_view(frame, scale)
    if max(view.shape[:2]) > TILE:
        return None
    feats, out = finder_features(view)
    c, gh, gw = feats.shape
    ys, xs = np.mgrid[0:gh, 0:gw].astype(np.float32)
    near = np.zeros((gh, gw), np.float32)
    positive = np.zeros((gh, gw), bool)
    size_feats, size_target = [], []
    for i, label in enumerate(labels):
        cx, cy = label.center
        gx, gy = cx * scale / STRIDE, cy * scale / STRIDE
        ix, iy = int(gx), int(gy)
        if not (0 <= ix < gw and 0 <= iy < gh):
            continue
        cells = sizes[i] * scale / STRIDE
        sigma = max(0.6, cells / 5.0)
        near = np.maximum(near, np.exp(-((xs - gx + 0.5) ** 2 + (ys - gy + 0.5) ** 2) / (2 * sigma**2)))
        positive[iy, ix] = True
        # the peak may land on a neighbouring cell: the size is taught on the 3x3 cells around the centre
        block = feats[:, max(0, iy - 1) : iy + 2, max(0, ix - 1) : ix + 2].reshape(c, -1).T
        size_feats.append(block)
        size_target += [math.log(max(cells, 0.25))] * len(block)
    flat = feats.reshape(c, -1).T
    neg_weight = ((1 - near) ** 4).ravel()
    pos = positive.ravel()
    # every positive, the negatives the finder is tempted by, and a sample of the rest
    tempted = (out[0].ravel() > 0.05) & ~pos
    rest = np.flatnonzero(~pos & ~tempted)
    keep = np.concatenate(
        [np.flatnonzero(pos), np.flatnonzero(tempted), rng.choice(rest, size=min(len(rest), 1500), replace=False)]
    )
    scale_rest = len(rest) / max(1, min(len(rest), 1500))
    weight = np.where(pos, 1.0, neg_weight)
    weight[rest] *= scale_rest
    return _Cells(
        flat[keep],
        pos[keep].astype(np.float64),
        weight[keep],
        np.concatenate(size_feats) if size_feats else np.zeros((0, c), np.float32),
        np.array(size_target, np.float64),
    )


Found = tuple[list[tuple[float, float, float, float]], float, dict[int, int]]


def _find(frame: np.ndarray, labels: Sequence[Label], taught: Any = None) -> Found:
    """The finder's candidates in a teaching photo (shipped, or with ``taught``'s heads), its scale, and which
    candidate is which label."""
    candidates, scale, _ = find_dice(frame, ReaderSettings(taught=taught))
    return candidates, scale, _match(candidates, labels)


def _face_sizes(labels: Sequence[Label], found: Found, label_sizes: bool) -> dict[int, float]:
    """The face size of each label, in pixels of the frame: its box's (the labels box the top face), or
    with ``label_sizes`` False the size the finder gave it (the median for a die it missed)."""
    candidates, _, matched = found
    given = {i: candidates[c][2] for i, c in matched.items()}
    fallback = (
        float(np.median(list(given.values())))
        if given
        else float(np.median([(lab.box[2] + lab.box[3]) / 2 for lab in labels] or [40.0]))
    )
    if label_sizes:
        return {i: (lab.box[2] + lab.box[3]) / 2 for i, lab in enumerate(labels)}
    return {i: given.get(i, fallback) for i in range(len(labels))}


def _boxes_are_faces(frames: Sequence[tuple[np.ndarray, Sequence[Label]]], found: Sequence[Found]) -> bool:
    """Whether the labels box what the finder calls a top face: their sizes are, in the median, within
    0.67-1.5 of the finder's (an oblique view makes the finder's a little large). Labels around the pip
    pattern (the matteop65 photos: a 1 is a box around one pip) are about half of it."""
    ratios = []
    for (_, labels), (candidates, _, matched) in zip(frames, found):
        for i, c in matched.items():
            _, _, w, h = labels[i].box
            ratios.append(math.log(max(1e-3, (w + h) / 2) / candidates[c][2]))
    return bool(ratios) and math.log(0.67) <= float(np.median(ratios)) <= math.log(1.5)


def _examples(
    frame: np.ndarray,
    labels: Sequence[Label],
    rng: np.random.Generator,
    variants: int,
    found: Found,
    sizes: dict[int, float],
) -> list[_Example]:
    """Crops as the reader sees them at this table: at the finder's own peaks (``found``), the labelled ones
    with their value, the others as "not a die"; labelled dice the finder missed at their labelled centres
    and ``sizes``."""
    candidates, _, matched = found
    out: list[_Example] = []
    for i, label in enumerate(labels):
        if i in matched:
            cx, cy, size, _ = candidates[matched[i]]
        else:
            cx, cy = label.center
            size = sizes[i]
        for k in range(variants):
            angle = ROTATIONS[k % 4] + (rng.uniform(-20, 20) if k >= 4 else 0.0)
            jitter = 0.0 if k == 0 else 0.06 * size
            side = size * CROP_SCALE * (1.0 if k == 0 else math.exp(rng.uniform(*CROP_JITTER)))
            crop = crop_face(frame, cx + rng.uniform(-jitter, jitter), cy + rng.uniform(-jitter, jitter), side, angle)
            out.append(_Example(crop, label.value - 1))
        # half a face and more off the centre is a side face, the table or a neighbour's edge: not a die
        for _ in range(SIDE_NEGATIVES):
            a = rng.uniform(0, 2 * math.pi)
            x, y = cx + rng.uniform(0.55, 0.85) * size * math.cos(a), cy + rng.uniform(0.55, 0.85) * size * math.sin(a)
            if all(math.hypot(x - lab.center[0], y - lab.center[1]) > 0.5 * size for lab in labels):
                out.append(_Example(crop_face(frame, x, y, size * CROP_SCALE, rng.uniform(0, 360)), NOT_A_DIE))
    # the table's own background (a patterned cloth, the tray's floor): anywhere a face or more from every die
    if labels:
        face = float(np.median([sizes[i] for i in range(len(labels))]))
        h, w = frame.shape[:2]
        for k in range(BACKGROUND_CROPS):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            if k % 3 == 0:  # along the frame's edge too, where the crop runs off the photo
                edge = int(rng.integers(4))
                near = rng.uniform(0, 0.6 * face)
                x = near if edge == 0 else w - 1 - near if edge == 1 else x
                y = near if edge == 2 else h - 1 - near if edge == 3 else y
            if all(math.hypot(x - lab.center[0], y - lab.center[1]) > face for lab in labels):
                side = face * CROP_SCALE * math.exp(rng.uniform(*CROP_JITTER))
                out.append(_Example(crop_face(frame, x, y, side, rng.uniform(0, 360)), NOT_A_DIE))
    used = set(matched.values())
    for c, (cx, cy, size, _) in enumerate(candidates):
        if c in used:
            continue
        for k in range(max(2, variants // 2)):
            out.append(_Example(crop_face(frame, cx, cy, size * CROP_SCALE, ROTATIONS[k % 4]), NOT_A_DIE))
    return out


def _fit(
    feats: np.ndarray,
    classes: np.ndarray,
    w0: np.ndarray,
    b0: np.ndarray,
    strength: float,
    sample_weights: np.ndarray | None = None,
    steps: int = 300,
) -> tuple[np.ndarray, np.ndarray]:
    """Multinomial logistic regression from (w0, b0), held near it: weighted mean cross-entropy
    + strength * |w - w0|^2, by gradient descent with momentum (Adam)."""
    n, k = len(feats), len(b0)
    onehot = np.zeros((n, k))
    onehot[np.arange(n), classes] = 1.0
    weights = np.ones(n) if sample_weights is None else np.asarray(sample_weights, np.float64)
    weights = weights * n / weights.sum()
    w, b = w0.copy(), b0.copy()
    mw, vw, mb, vb = np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b)
    lr, beta1, beta2 = 0.05, 0.9, 0.999
    x = np.asarray(feats, np.float64)
    for t in range(1, steps + 1):
        p = softmax(x @ w.T + b)
        g = (p - onehot) * weights[:, None] / n
        gw = g.T @ x + 2 * strength * (w - w0)
        gb = g.sum(axis=0)
        mw = beta1 * mw + (1 - beta1) * gw
        vw = beta2 * vw + (1 - beta2) * gw**2
        mb = beta1 * mb + (1 - beta1) * gb
        vb = beta2 * vb + (1 - beta2) * gb**2
        step = lr * math.sqrt(1 - beta2**t) / (1 - beta1**t)
        w -= step * mw / (np.sqrt(vw) + 1e-8)
        b -= step * mb / (np.sqrt(vb) + 1e-8)
    return w, b


def _features(crops: Sequence[_Example]) -> np.ndarray:
    feats = [reader_outputs([c.crop for c in crops[i : i + 256]])[0] for i in range(0, len(crops), 256)]
    return np.concatenate(feats) if feats else np.zeros((0, 0), np.float32)


_REPLAY: dict[str, tuple[np.ndarray, np.ndarray]] = {}


_REPLAY_CELLS: dict[str, list[_Cells]] = {}


def _replay_bank() -> tuple[np.ndarray, np.ndarray]:
    """Features and classes of the dice in the bundled sample photos (vision/samples), made once; their
    finder cells teach the finder's heads with the shipped finder's own sizes (some of those photos' labels
    box the pips, not the face)."""
    key = digest()
    if key not in _REPLAY:
        from vision.camera import sample_paths

        rng = np.random.default_rng(1)
        crops: list[_Example] = []
        cells: list[_Cells] = []
        for path in sample_paths():
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
            label_file = path.with_suffix(".txt")
            if frame is None or not label_file.is_file():
                continue
            labels = read_labels(label_file, frame.shape[1], frame.shape[0])
            found = _find(frame, labels)
            sizes = _face_sizes(labels, found, label_sizes=False)
            crops += _examples(frame, labels, rng, 4, found, sizes)
            grid = _finder_cells(frame, labels, found[1], sizes, rng) if labels else None
            if grid is not None:
                cells.append(grid)
        _REPLAY[key] = (_features(crops), np.array([c.cls for c in crops], int))
        _REPLAY_CELLS[key] = cells
    return _REPLAY[key]


def _replay_cells() -> list[_Cells]:
    _replay_bank()
    return _REPLAY_CELLS[digest()]


def _replay_weights(own: np.ndarray, replayed: np.ndarray, replay: float) -> np.ndarray:
    """Weights of the replayed examples: in each class together ``replay`` times the table's own examples of
    it, and never less than ``replay`` times the table's mean per value, so that a value the table's photos
    hardly show (photos of 1s, 3s and 5s only) keeps its say."""
    own_counts = np.bincount(own, minlength=CLASSES).astype(np.float64)
    floor = own_counts[:NOT_A_DIE].mean()
    weights = np.zeros(len(replayed))
    for k in range(len(own_counts)):
        mine = replayed == k
        if mine.any():
            weights[mine] = replay * max(own_counts[k], floor) / mine.sum()
    return weights


def _fit_heat(
    cells: Sequence[_Cells], w0: np.ndarray, b0: float, strength: float, steps: int = 300
) -> tuple[np.ndarray, float]:
    """The finder's heat head as a weighted logistic regression on its cells, held near (w0, b0); the
    positives weigh ``POSITIVE_SHARE`` of the negatives together (more makes it find clutter on a new table)."""
    x = np.concatenate([c.feats for c in cells]).astype(np.float64)
    t = np.concatenate([c.target for c in cells])
    wt = np.concatenate([c.weight for c in cells])
    pos = t > 0.5
    if not pos.any():
        return w0, b0
    wt = wt.copy()
    wt[pos] *= POSITIVE_SHARE * wt[~pos].sum() / max(wt[pos].sum(), 1e-9)
    wt /= wt.sum()
    w, b = w0.copy(), float(b0)
    mw, vw, mb, vb = np.zeros_like(w), np.zeros_like(w), 0.0, 0.0
    lr, beta1, beta2 = 0.02, 0.9, 0.999
    for step in range(1, steps + 1):
        p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
        g = (p - t) * wt
        gw = g @ x + 2 * strength * (w - w0)
        gb = float(g.sum())
        mw = beta1 * mw + (1 - beta1) * gw
        vw = beta2 * vw + (1 - beta2) * gw**2
        mb = beta1 * mb + (1 - beta1) * gb
        vb = beta2 * vb + (1 - beta2) * gb**2
        k = lr * math.sqrt(1 - beta2**step) / (1 - beta1**step)
        w -= k * mw / (np.sqrt(vw) + 1e-8)
        b -= k * mb / (math.sqrt(vb) + 1e-8)
    return w, b


def _fit_size(
    cells: Sequence[tuple[_Cells, float]], w0: np.ndarray, b0: float, strength: float
) -> tuple[np.ndarray, float]:
    """The finder's size head as ridge regression on the cells around each die (each set of cells with its
    weight), held near (w0, b0): least squares on the log size + strength * |w - w0|^2, in closed form."""
    rows = [(c.size_feats.astype(np.float64), c.size_target, weight) for c, weight in cells if len(c.size_target)]
    if not rows:
        return w0, b0
    x = np.concatenate([np.hstack([f, np.ones((len(f), 1))]) for f, _, _ in rows])
    t = np.concatenate([tt for _, tt, _ in rows])
    wt = np.concatenate([np.full(len(tt), weight) for _, tt, weight in rows])
    wt = wt / wt.sum()
    start = np.append(w0, b0)
    # the features' scale sets how far "near" is: the penalty is relative to their mean square
    ridge = strength * float((wt[:, None] * x[:, :-1] ** 2).sum(axis=0).mean()) * np.eye(len(start))
    ridge[-1, -1] = 1e-6
    solved = np.linalg.solve(x.T @ (wt[:, None] * x) + ridge, x.T @ (wt * t) + ridge @ start)
    return solved[:-1], float(solved[-1])


def _in_region(
    frame: np.ndarray, labels: tuple[Label, ...], region: tuple[int, int, int, int] | None
) -> tuple[np.ndarray, tuple[Label, ...]]:
    """The part of a teaching photo inside the tray's region, with the labels whose centre lies in it, moved."""
    if region is None:
        return frame, labels
    x, y, w, h = region
    part = frame[y : y + h, x : x + w]
    if part.shape[0] < 16 or part.shape[1] < 16:
        raise VisionError(
            f"the tray region {region} lies outside a {frame.shape[1]}x{frame.shape[0]} teaching photo; "
            "calibrate the tray again (companion dice calibrate)."
        )
    inside = tuple(
        Label(lab.value, (lab.box[0] - x, lab.box[1] - y, lab.box[2], lab.box[3]))
        for lab in labels
        if x <= lab.center[0] < x + w and y <= lab.center[1] < y + h
    )
    return np.ascontiguousarray(part), inside


def teach(
    examples: Sequence[tuple[np.ndarray, Sequence[Label]]],
    *,
    variants: int = 8,
    strength: float = 0.002,
    replay: float = 0.5,
    finder: bool = True,
    finder_strength: float = 0.01,
    size_strength: float = 0.05,
    label_sizes: bool | None = None,
    seed: int = 0,
    region: tuple[int, int, int, int] | None = None,
) -> TaughtReader:
    """A reader taught by labelled frames of one table: [(frame BGR, labels in pixels of the frame)].

    First the finder's heads (where the dice are, and how large: the size of each label's box, or with
    ``label_sizes`` False the size the shipped finder gives; None: the labels' sizes when they box about
    what the finder calls a face, see ``_boxes_are_faces``), then the reader's last layer on crops at the
    taught finder's peaks, as it will read them. With ``region`` (the tray's, as the reader uses it), each photo
    is taught inside it only: the table outside the tray is never read, so it is not learnt either.
    VisionError when no photo holds a labelled die."""
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed)
    frames = [_in_region(check_frame(frame), tuple(labels), region) for frame, labels in examples]
    dice = sum(len(labels) for _, labels in frames)
    if dice == 0:
        raise VisionError(
            "the teaching photos hold no labelled dice; label the dice of each photo "
            "(one line per die: CLASS XC YC W H, CLASS 0-5 for 1-6 pips) and try again."
        )
    w0, b0 = _shipped_layer()
    rx, ry = _replay_bank()
    if rx.shape[1] > w0.shape[1]:  # the quarters' features start with no say
        w0 = np.concatenate([w0, np.zeros((w0.shape[0], rx.shape[1] - w0.shape[1]))], axis=1)
    taught = TaughtReader(w0, b0, len(frames), dice, digest())
    shipped = [_find(frame, labels) for frame, labels in frames]
    if label_sizes is None:
        label_sizes = _boxes_are_faces(frames, shipped)
    sizes = [_face_sizes(labels, found, label_sizes) for (_, labels), found in zip(frames, shipped)]
    if finder:
        cells: list[_Cells] = []
        for k, (frame, labels) in enumerate(frames):
            grid = _finder_cells(frame, labels, shipped[k][1], sizes[k], rng) if labels else None
            if grid is not None:
                cells.append(grid)
        if cells:
            hw0, hb0, sw0, sb0 = _shipped_heads()
            replay_cells = (
                [_Cells(c.feats, c.target, c.weight * replay, c.size_feats, c.size_target) for c in _replay_cells()]
                if replay > 0
                else []
            )
            taught.heat_weight, taught.heat_bias = _fit_heat(cells + replay_cells, hw0, hb0, finder_strength)
            own = sum(len(c.size_target) for c in cells)
            other = sum(len(c.size_target) for c in replay_cells)
            taught.size_weight, taught.size_bias = _fit_size(
                [(c, 1.0) for c in cells] + [(c, replay * own / max(1, other)) for c in replay_cells],
                sw0,
                sb0,
                size_strength,
            )
    crops: list[_Example] = []
    for k, (frame, labels) in enumerate(frames):
        found = _find(frame, labels, taught) if finder else shipped[k]
        crops += _examples(frame, labels, rng, variants, found, sizes[k])
        if finder and SHIPPED_PEAKS:  # what the shipped finder took for dice there is the table's too (a cloth's eyes)
            candidates, _, matched = shipped[k]
            used = set(matched.values())
            crops += [
                _Example(crop_face(frame, cx, cy, size * CROP_SCALE, ROTATIONS[j % 4]), NOT_A_DIE)
                for c, (cx, cy, size, _) in enumerate(candidates)
                if c not in used
                for j in range(2)
                if all(math.hypot(cx - lab.center[0], cy - lab.center[1]) > 0.5 * size for lab in labels)
            ]
    x = _features(crops)
    y = np.array([c.cls for c in crops])
    sample_weights = np.ones(len(y))
    if replay > 0:  # the bundled photos' dice, so values the table's photos do not show are not forgotten
        x, y = np.concatenate([x, rx]), np.concatenate([y, ry])
        sample_weights = np.concatenate([sample_weights, _replay_weights(y[: len(crops)], ry, replay)])
    taught.weight, taught.bias = _fit(x, y, w0, b0, strength, sample_weights)
    taught.bank = unit_rows(x[: len(crops)]).astype(np.float16)
    taught.bank_cls = y[: len(crops)].astype(np.int16)
    taught.seconds = time.perf_counter() - t0
    return taught


# ---------------------------------------------------------------- labelled photos and kept examples


def taught_path(data_dir: str | os.PathLike[str]) -> Path:
    """Where the table's taught reader is kept in the data folder."""
    return Path(data_dir) / "dice" / "taught.npz"


def examples_dir(data_dir: str | os.PathLike[str]) -> Path:
    """Where corrected readings are kept as teaching examples in the data folder."""
    return Path(data_dir) / "dice" / "examples"


def label_file_for(image: Path, labels_dir: Path | None) -> Path:
    """Where the YOLO labels of an image are: ``labels_dir/NAME.txt``, else beside it, else ../labels/."""
    candidates = [labels_dir / f"{image.stem}.txt"] if labels_dir is not None else []
    candidates += [image.with_suffix(".txt"), image.parent.parent / "labels" / f"{image.stem}.txt"]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise VisionError(
        f"no labels for {image} (looked for {candidates[0]}); write one line per die: "
        "CLASS XC YC W H (CLASS 0-5 for 1-6 pips, the rest fractions of the image)."
    )


def read_icon_labels(path: Path, width: int, height: int, icons: Any = None) -> tuple[Label, ...]:
    """A label file whose lines may name the game's icon faces instead of a class: ``eye XC YC W H`` (or
    ``key:blank ...``, ``yellow:lore ...``); ``icons`` (a GameModule's ``icon_pips``) gives the pips that stand for
    each, so the taught reader reads the icon as those pips and the tray's pip map makes it the game's face again.
    Lines with a class 0-5 are read as before. VisionError names the file and line of a face ``icons`` refuses."""
    from companion.errors import CompanionError

    labels = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split()
        if len(parts) != 5:
            continue
        try:
            box = [float(v) for v in parts[1:]]
        except ValueError:
            raise VisionError(f"{path}:{number}: expected FACE XC YC W H, got {line.strip()!r}.") from None
        token = parts[0]
        if re.fullmatch(r"[0-9.]+", token):
            value = int(float(token)) + 1
        elif icons is None:
            raise VisionError(
                f"{path}:{number}: {token!r} is not a class 0-5; to label the game's icon faces, "
                "name the game (companion dice teach ... --game RULES)."
            )
        else:
            try:
                value = int(icons(token))
            except CompanionError as exc:
                raise VisionError(f"{path}:{number}: {exc}") from None
        xc, yc, w, h = box
        labels.append(Label(value, ((xc - w / 2) * width, (yc - h / 2) * height, w * width, h * height)))
    return tuple(labels)


def load_examples(
    images: Sequence[str | os.PathLike[str]], labels_dir: str | os.PathLike[str] | None = None, icons: Any = None
) -> list[tuple[np.ndarray, tuple[Label, ...]]]:
    """Labelled photos for ``teach``: each image with its YOLO label file (whose lines may name the game's icon
    faces, with ``icons``: see ``read_icon_labels``)."""
    out = []
    folder = Path(labels_dir) if labels_dir is not None else None
    for name in images:
        path = Path(name)
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise VisionError(f"{path}: not an image OpenCV can read (JPEG, PNG, BMP ...).")
        out.append((frame, read_icon_labels(label_file_for(path, folder), frame.shape[1], frame.shape[0], icons)))
    return out


def keep_example(
    folder: str | os.PathLike[str],
    frame: np.ndarray,
    dice: Sequence[tuple[int, tuple[float, float, float, float]]],
    name: str | None = None,
) -> Path:
    """Keep one corrected reading as a teaching example: ``folder/NAME.jpg`` and ``folder/NAME.txt``.

    ``dice`` are (value 1-6, box x, y, w, h in pixels of the frame) as the host corrected them (a symbol
    face with the value it stands for). Returns the image's path."""
    frame = check_frame(frame)
    target = Path(folder).expanduser()
    target.mkdir(parents=True, exist_ok=True)
    stem = name or time.strftime("roll-%Y%m%d-%H%M%S")
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", stem):
        raise VisionError(f"an example's name may hold letters, digits, '-', '_' and '.', not {stem!r}.")
    base, n = stem, 1
    while (target / f"{stem}.jpg").exists():
        n += 1
        stem = f"{base}-{n}"
    h, w = frame.shape[:2]
    lines = []
    for value, (x, y, bw, bh) in dice:
        if not 1 <= int(value) <= 6:
            raise VisionError(f"a die's value must be 1-6, got {value!r}.")
        lines.append(f"{int(value) - 1} {(x + bw / 2) / w:.6f} {(y + bh / 2) / h:.6f} {bw / w:.6f} {bh / h:.6f}")
    (target / f"{stem}.txt").write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    if not cv2.imwrite(str(target / f"{stem}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 92]):
        raise VisionError(f"cannot write {target / f'{stem}.jpg'}; check the data folder's space and rights.")
    return target / f"{stem}.jpg"


def teach_folder(folder: str | os.PathLike[str], save: str | os.PathLike[str], **options: Any) -> TaughtReader:
    """Teach from every example kept in ``folder`` (NAME.jpg beside NAME.txt) and save the result."""
    images = sorted(p for p in Path(folder).expanduser().glob("*.jpg") if p.with_suffix(".txt").is_file())
    if not images:
        raise VisionError(f"no teaching examples in {folder}; correct a reading on the page first.")
    taught = teach(load_examples(images), **options)
    save_taught(taught, save)
    return taught


def readings_as_labels(readings: Sequence[DieReading]) -> list[tuple[int, tuple[float, float, float, float]]]:
    """Sure readings as (value, box) for ``keep_example`` (the page replaces the wrong and unsure ones)."""
    return [(r.value, tuple(float(v) for v in r.box)) for r in readings if r.value is not None]  # type: ignore[misc]


def score(taught: TaughtReader | None, examples: Sequence[tuple[np.ndarray, Sequence[Label]]]) -> tuple[int, int]:
    """(labelled dice read right, labelled dice) on ``examples`` with the taught (or shipped) reader."""
    right = total = 0
    for frame, labels in examples:
        readings = read_dice(frame, ReaderSettings(taught=taught))
        s = score_photo([(r.value, r.box) for r in readings], labels)
        right += s.right
        total += s.dice
    return right, total


class Teacher:
    """Teaching the reader from the phone (issue 12): the tray's last photo is kept with the values the host gives
    its dice, and the reader is taught from every photo kept, in a thread of its own (seconds here, about half a
    minute on a Pi 4), then used by the tray at once. The taught reader is kept in the data folder, where
    ``companion serve`` finds it at the next start; ``reset`` goes back to the shipped one."""

    def __init__(self, data_dir: str | os.PathLike[str], watcher: Any, spawn: Any = None) -> None:
        self.folder = examples_dir(data_dir)
        self.save_to = taught_path(data_dir)
        self.watcher = watcher
        self._lock = threading.Lock()
        self._spawn = spawn or (lambda fn: threading.Thread(target=fn, name="teach the reader", daemon=True).start())
        self._running = False
        self.taught: dict[str, Any] | None = None
        self.error: str | None = None

    def kept(self) -> int:
        """How many photos are kept for teaching."""
        if not self.folder.is_dir():
            return 0
        return sum(1 for p in self.folder.glob("*.jpg") if p.with_suffix(".txt").is_file())

    def status(self) -> dict[str, Any]:
        with self._lock:
            return {
                "kept": self.kept(),
                "running": self._running,
                "taught": self.taught,
                "error": self.error,
                "in_use": getattr(self.watcher.settings, "taught", None) is not None,
            }

    def keep(self, dice: Sequence[tuple[int | None, tuple[float, float, float, float]]]) -> Path:
        """Keep the tray's last photo with these values (None: not a die, left out). VisionError says what is
        missing."""
        frame = self.watcher.last_frame
        if frame is None:
            raise VisionError("there is no photo of the tray yet: roll the dice into the tray, then keep it.")
        labels = [(int(value), box) for value, box in dice if value is not None]
        if not labels:
            raise VisionError("give at least one die of the photo its value before keeping it.")
        return keep_example(self.folder, frame, labels)

    def start(self) -> bool:
        """Teach from every photo kept, in the background; False when teaching is already under way."""
        with self._lock:
            if self._running:
                return False
            if not self.kept():
                raise VisionError("no photo is kept for teaching yet: correct a reading of the tray and keep it.")
            self._running, self.error = True, None
        self._spawn(self._run)
        return True

    def _run(self) -> None:
        try:
            taught = teach_folder(self.folder, self.save_to, region=self.watcher.settings.region)
            self.watcher.settings = replace(self.watcher.settings, taught=taught)
            result: dict[str, Any] | None = {
                "photos": taught.photos,
                "dice": taught.dice,
                "seconds": round(taught.seconds, 1),
            }
            error = None
        except Exception as exc:  # a failure is reported on the page; the shipped or earlier reader stays in use
            result, error = None, str(exc)
        with self._lock:
            self._running = False
            self.taught = result if result is not None else self.taught
            self.error = error

    def reset(self) -> None:
        """Back to the shipped reader (the kept photos stay, to teach again)."""
        self.save_to.unlink(missing_ok=True)
        self.watcher.settings = replace(self.watcher.settings, taught=None)
        with self._lock:
            self.taught = None
