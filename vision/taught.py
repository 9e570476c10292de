"""A reader taught one table's dice (`companion dice teach`, vision.teach): its last layer, its finder heads,
the table's own taught crops, and its file (a small .npz, checked against the networks it was taught on).

The dice reader (vision.reader) loads one from the table's config; vision.teach makes one.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import VisionError
from vision.nets import NOT_A_DIE, digest

__all__ = ["FORMAT", "TaughtReader", "load_taught", "save_taught", "softmax", "unit_rows"]

FORMAT = 1
NEIGHBOURS = 7  # a taught reader also asks the nearest of the table's own taught crops
NEIGHBOUR_SHARE = 0.3  # their votes' share of the chances
FAR_BACKGROUND = 0.95  # a crop is far from the taught dice when a taught background crop is at least this near
FAR_MARGIN = 0.02  # (in cosine) and nearer than every taught die by this much
NEIGHBOUR_WIDTH = 0.05  # a neighbour's vote weighs exp(-(its distance in cosine past the nearest's) / this)


def unit_rows(feats: np.ndarray) -> np.ndarray:
    x = np.asarray(feats, np.float32)
    out: np.ndarray = x / (np.linalg.norm(x, axis=1, keepdims=True) + 1e-9)
    return out


def _votes(feats: np.ndarray, bank: np.ndarray, bank_cls: np.ndarray, classes: int) -> np.ndarray:
    """The classes of the ``NEIGHBOURS`` taught crops nearest to each crop (cosine of their features), each
    vote weighed by how near it is: (crops, classes), rows summing to 1."""
    f = unit_rows(feats[:, : bank.shape[1]])
    sim = f @ bank.astype(np.float32).T
    k = min(NEIGHBOURS, bank.shape[0])
    top = np.argpartition(-sim, k - 1, axis=1)[:, :k]
    near = np.take_along_axis(sim, top, axis=1)
    weight = np.exp((near - near.max(axis=1, keepdims=True)) / NEIGHBOUR_WIDTH)
    votes = np.zeros((len(f), classes))
    np.add.at(votes, (np.repeat(np.arange(len(f)), k), bank_cls[top].ravel()), weight.ravel())
    out: np.ndarray = votes / votes.sum(axis=1, keepdims=True)
    return out


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


@dataclass(eq=False)
class TaughtReader:
    """A last layer for the reader fitted to one table, and the size of the dice in its frames."""

    weight: np.ndarray  # classes x features
    bias: np.ndarray
    photos: int
    dice: int
    reader: str  # digest of the networks it was taught on
    seconds: float = 0.0
    heat_weight: np.ndarray | None = None  # the finder's heat head (features,), None: the shipped one
    heat_bias: float = 0.0
    size_weight: np.ndarray | None = None  # the finder's size head (features,), None: the shipped one
    size_bias: float = 0.0
    bank: np.ndarray | None = None  # the table's own taught crops: their features (unit length, float16)
    bank_cls: np.ndarray | None = None  # and their classes

    def probs(self, feats: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """The chance of each class from the reader's features (``probs``, the shipped layer's, unused): the
        taught layer's, blended with the votes of the nearest taught crops (``NEIGHBOURS``, ``NEIGHBOUR_SHARE``)."""
        x = np.asarray(feats, np.float64)
        out = softmax(x @ self.weight.T + self.bias)
        if self.bank is not None and len(self.bank) and self.bank_cls is not None:
            out = (1 - NEIGHBOUR_SHARE) * out + NEIGHBOUR_SHARE * _votes(x, self.bank, self.bank_cls, out.shape[1])
        return out.astype(np.float32)

    def background(self, feats: np.ndarray) -> np.ndarray:
        """For each crop, whether the taught crop nearest to it is "not a die" (the table's background, a side
        face) rather than a die: the reader then needs more evidence (``vision.reader.FAR_SURE``). All False
        without taught crops, or when the crops hold no die or no background."""
        bank, cls = self.bank, self.bank_cls
        out = np.zeros(len(feats), bool)
        if bank is None or cls is None or not len(bank):
            return out
        dice, other = cls < NOT_A_DIE, cls == NOT_A_DIE
        if not dice.any() or not other.any():
            return out
        sim = unit_rows(np.asarray(feats)[:, : bank.shape[1]]) @ bank.astype(np.float32).T
        background, die = sim[:, other].max(axis=1), sim[:, dice].max(axis=1)
        nearer: np.ndarray = (background >= FAR_BACKGROUND) & (background > die + FAR_MARGIN)
        return nearer

    @property
    def heat(self) -> Any:
        """The finder's heat map from its last features (C, H, W), or None to keep the shipped head."""
        if self.heat_weight is None:
            return None
        w, b = self.heat_weight, self.heat_bias

        def heat(feats: np.ndarray) -> np.ndarray:
            logits = np.tensordot(w.astype(np.float32), feats, axes=(0, 0)) + np.float32(b)
            out: np.ndarray = 1.0 / (1.0 + np.exp(-logits))
            return out

        return heat

    @property
    def size(self) -> Any:
        """The finder's log face size (in its grid cells) from its last features, or None (the shipped head)."""
        if self.size_weight is None:
            return None
        w, b = self.size_weight, self.size_bias

        def size(feats: np.ndarray) -> np.ndarray:
            out: np.ndarray = np.tensordot(w.astype(np.float32), feats, axes=(0, 0)) + np.float32(b)
            return out

        return size


def save_taught(taught: TaughtReader, path: str | os.PathLike[str]) -> Path:
    """Write the taught reader (a small .npz) atomically."""
    target = Path(path).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "format": FORMAT,
        "photos": taught.photos,
        "dice": taught.dice,
        "reader": taught.reader,
        "seconds": round(taught.seconds, 3),
    }
    tmp = target.with_name(f".{target.name}.tmp")
    arrays: dict[str, Any] = {"weight": taught.weight, "bias": taught.bias, "meta": np.array(json.dumps(meta))}
    if taught.heat_weight is not None:
        arrays.update(heat_weight=taught.heat_weight, heat_bias=np.array(taught.heat_bias))
    if taught.size_weight is not None:
        arrays.update(size_weight=taught.size_weight, size_bias=np.array(taught.size_bias))
    if taught.bank is not None and taught.bank_cls is not None:
        arrays.update(bank=taught.bank, bank_cls=taught.bank_cls)
    with open(tmp, "wb") as handle:
        np.savez(handle, **arrays)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, target)
    return target


def load_taught(path: str | os.PathLike[str]) -> TaughtReader:
    """The taught reader saved at ``path``; VisionError when it is missing, broken or for another reader."""
    source = Path(path).expanduser()
    if not source.is_file():
        raise VisionError(
            f"no taught reader at {source}; teach one with companion dice teach, or go back to the "
            "shipped reader with companion dice teach --reset."
        )
    try:
        with np.load(source, allow_pickle=False) as data:
            weight, bias, meta = data["weight"], data["bias"], json.loads(str(data["meta"]))
            heat_w = data["heat_weight"].astype(np.float64) if "heat_weight" in data else None
            heat_b = float(data["heat_bias"]) if "heat_bias" in data else 0.0
            size_w = data["size_weight"].astype(np.float64) if "size_weight" in data else None
            size_b = float(data["size_bias"]) if "size_bias" in data else 0.0
            bank = data["bank"].astype(np.float16) if "bank" in data else None
            bank_cls = data["bank_cls"].astype(np.int16) if "bank_cls" in data else None
    except (OSError, ValueError, KeyError) as exc:
        raise VisionError(f"{source} is not a taught reader ({exc}); teach again with companion dice teach.") from None
    if bank is not None and (
        bank_cls is None
        or bank.ndim != 2
        or bank_cls.shape != (len(bank),)
        or bank.shape[1] > weight.shape[1]
        or (len(bank_cls) and (bank_cls.min() < 0 or bank_cls.max() >= weight.shape[0]))
    ):
        raise VisionError(
            f"{source} is not a taught reader (its taught crops do not fit its layer); teach again "
            "with companion dice teach."
        )
    if meta.get("format") != FORMAT or weight.ndim != 2 or bias.shape != (weight.shape[0],):
        raise VisionError(f"{source} is a taught reader of another format; teach again with companion dice teach.")
    if meta.get("reader") != digest():
        raise VisionError(
            f"{source} was taught on another version of the reader network; teach again with "
            "companion dice teach (the photos it was taught with are still the right ones)."
        )
    return TaughtReader(
        weight.astype(np.float64),
        bias.astype(np.float64),
        int(meta.get("photos", 0)),
        int(meta.get("dice", 0)),
        str(meta["reader"]),
        float(meta.get("seconds", 0.0)),
        heat_w,
        heat_b,
        size_w,
        size_b,
        bank,
        bank_cls,
    )
