"""Cocked dice seen in the frame around the die (issue 26): a small linear head on what the two networks already
computed.

A die leaning on another die or on the tray's wall shows, seen from above, a second face beside its most-up one, its
bevels and a larger, tilted outline; a crop of its face alone looks like a flat die seen obliquely. So the head looks
further: at the finder's last features (and its heat map) sampled at the die's centre and on three rings around it
(0.45, 0.8 and 1.15 faces out, twelve points each, the ring's mean, maximum and minimum of every channel: the same
for a die turned any way), and at the reader's features of the die's own crop. Those are computed for every frame
anyway, so the head costs a few array operations a die. It was fitted by ``vision/training/cocked_head.py`` (numpy,
logistic regression) on rendered cocked and flat dice and on the real flat dice of the training photos, with a
threshold that calls none of those real dice cocked; it is tied to the networks it was fitted on (their digest) and is
not used with others.

Below it, the overhead network's crop (issue 26, fifth round): a small binary network on a crop two faces across, used
only at a calibrated overhead table (``vision.reader._overhead_cocked``). Neither ships (docs/vision.md, "Cocked
dice"): without their files the reader runs as before.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.errors import VisionError

STRIDE = 4  # the finder's heat map is at a quarter of its input (vision.reader.STRIDE)
RINGS = (0.45, 0.8, 1.15)  # faces from the die's centre
POINTS = 12  # points on each ring

# one look of the finder: the tile's origin (x0, y0) in the finder's input, and its features with the heat map on top
Look = tuple[int, int, np.ndarray]


@dataclass(frozen=True)
class CockedHead:
    """Standardisation, weights and threshold of the head; ``digest``: the networks it was fitted on."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    threshold: float  # on the logit
    digest: str

    def logits(self, descriptors: np.ndarray) -> np.ndarray:
        out: np.ndarray = ((descriptors - self.mean) / self.scale) @ self.weights + self.bias
        return out

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            mean=self.mean.astype(np.float32),
            scale=self.scale.astype(np.float32),
            weights=self.weights.astype(np.float32),
            bias=np.float32(self.bias),
            threshold=np.float32(self.threshold),
            digest=np.array(self.digest),
        )


def load_head(path: Path) -> CockedHead:
    """The head saved at ``path``; VisionError when the file is not one."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return CockedHead(
                np.asarray(data["mean"], np.float64),
                np.asarray(data["scale"], np.float64),
                np.asarray(data["weights"], np.float64),
                float(data["bias"]),
                float(data["threshold"]),
                str(data["digest"]),
            )
    except (OSError, KeyError, ValueError) as exc:
        raise VisionError(f"the cocked-dice head {path} cannot be read ({exc}); reinstall the companion.") from None


def _ring_offsets() -> np.ndarray:
    angles = 2 * math.pi * np.arange(POINTS) / POINTS
    return np.stack([np.cos(angles), np.sin(angles)], axis=1)


def _sample(features: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Bilinear samples (points, channels) of a (channels, H, W) map at feature-index positions."""
    _, h, w = features.shape
    x0 = np.clip(np.floor(x), 0, w - 2).astype(int)
    y0 = np.clip(np.floor(y), 0, h - 2).astype(int)
    fx = np.clip(x - x0, 0, 1)[:, None]
    fy = np.clip(y - y0, 0, 1)[:, None]
    f = features
    out: np.ndarray = (
        f[:, y0, x0].T * (1 - fx) * (1 - fy)
        + f[:, y0, x0 + 1].T * fx * (1 - fy)
        + f[:, y0 + 1, x0].T * (1 - fx) * fy
        + f[:, y0 + 1, x0 + 1].T * fx * fy
    )
    return out


def describe(
    looks: Sequence[Look], scale: float, dice: Sequence[tuple[float, float, float]], reader_features: np.ndarray
) -> np.ndarray:
    """One row per die (cx, cy, face size in pixels of the image the finder looked at, at ``scale`` finder pixels per
    image pixel): the finder's features at its centre and on the rings around it, then the reader's features of its
    crop (``reader_features``, one row per die)."""
    if not looks:
        raise VisionError("no finder features to describe the dice with.")
    ring = _ring_offsets()
    rows = []
    for cx, cy, size in dice:
        fx, fy = cx * scale, cy * scale  # in the finder's input
        # the tile whose middle is nearest the die (one tile but for large frames)
        x0, y0, feats = min(
            looks,
            key=lambda look: math.hypot(
                fx - look[0] - look[2].shape[2] * STRIDE / 2, fy - look[1] - look[2].shape[1] * STRIDE / 2
            ),
        )
        gx, gy, gs = (fx - x0) / STRIDE - 0.5, (fy - y0) / STRIDE - 0.5, size * scale / STRIDE
        parts = [_sample(feats, np.array([gx]), np.array([gy]))[0]]
        for r in RINGS:
            values = _sample(feats, gx + r * gs * ring[:, 0], gy + r * gs * ring[:, 1])
            parts += [values.mean(axis=0), values.max(axis=0), values.min(axis=0)]
        rows.append(np.concatenate(parts))
    return np.concatenate([np.array(rows), np.asarray(reader_features, np.float64)], axis=1)


# ---------------------------------------------------------------- the overhead cocked-dice network (issue 26, fifth round)
# At a calibrated overhead camera (``[tray] flat_ratio`` at least OVERHEAD_RATIO: pips seen round, the camera straight
# above) a flat die always shows a square top face, so a crop around a die tells a cocked die from a flat one there
# (seen obliquely it cannot: a flat die then shows its side faces too). A small binary network
# (``vision/models/dice_cocked.onnx``, trained by ``vision/training/cocked_net.py``) looks at a NET_CROP x NET_CROP
# crop, NET_SPAN calibrated faces across, centred on each candidate: the top face, the side face a leaning die shows
# and the neighbour it leans on.
OVERHEAD_RATIO = 0.9
NET_CROP = 64
NET_SPAN = 2.0


def net_crop(
    image: np.ndarray, cx: float, cy: float, face: float, angle: float = 0.0, span: float | None = None
) -> np.ndarray:
    """The NET_CROP x NET_CROP patch, ``span`` (default ``NET_SPAN``) faces of ``face`` pixels across, around
    (cx, cy) (turned by ``angle`` degrees: training's augmentation)."""
    import cv2

    scale = NET_CROP / ((span or NET_SPAN) * face)
    m = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    m[0, 2] += NET_CROP / 2 - cx
    m[1, 2] += NET_CROP / 2 - cy
    flags = cv2.INTER_AREA if scale < 0.8 else cv2.INTER_LINEAR
    out: np.ndarray = cv2.warpAffine(image, m, (NET_CROP, NET_CROP), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    return out


# the calls measured best (docs/vision.md); cocked_net.py measure --sure, --add-sure, --one-of-two try others
NET_SURE = 0.95  # a reading the network gives at least this chance is cocked
NET_ADD_SURE = 0.95  # a candidate the reader dropped is a cocked die at this chance
NET_ONE_OF_TWO = False  # of two cocked calls against each other, only the surer
