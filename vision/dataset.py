"""Labelled dice photos: loading, the fixed held-out split, and the scoring rule.

The photos are in YOLO format (``images/NAME.jpg`` beside ``labels/NAME.txt``; each line
``CLASS XC YC W H`` with coordinates as fractions of the image, CLASS 0..5 for 1..6 pips).

The held-out split is fixed by a hash of the file name, so the training script, the
benchmark and the tests agree on it without a list of files: a photo whose name hashes
into the last fifth is never used for fitting. That fifth has since been looked at while
the reader was tuned (thresholds, search rules), so it is a "tuned-on" figure now.

The held-back part (issue 26) is a second split, by another hash of the name, of the photos
outside the held-out fifth: about one in six of them. No tuning choice looks at it: it is
measured, never used to choose. The shipped networks were fitted before it existed, so they
did see those photos in training; a network trained from now on leaves them out too
(``is_fitting``).

The scoring rule is the dataset README's: a reading matches the labelled die whose box
contains the reading's centre (each label at most once, nearest centre first); per-die
accuracy is the share of labelled dice whose matched reading has the right value; a
reading that matches no label is a false positive.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

DEFAULT_ROOT = Path(os.environ.get("DICE_DATASET", Path(__file__).resolve().parents[1].parent / "shared/datasets/dice"))

SETS = ("byler-train", "matteop65/Train", "matteop65/Valid")
HELD_OUT_BUCKETS = 5  # one bucket of five is held out: about 20% of every set
HELD_BACK_BUCKETS = 6  # of the rest, one bucket of six is held back (issue 26): about 13% of every set
HELD_BACK_SALT = b"held back, issue 26: "


@dataclass(frozen=True)
class Label:
    value: int  # 1..6
    box: tuple[float, float, float, float]  # x, y, w, h in pixels

    @property
    def center(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return x + w / 2, y + h / 2


@dataclass(frozen=True)
class Photo:
    set_name: str
    image: Path
    labels: tuple[Label, ...]
    width: int
    height: int

    @property
    def held_out(self) -> bool:
        return is_held_out(self.image.name)

    @property
    def held_back(self) -> bool:
        return is_held_back(self.image.name)


def is_held_out(file_name: str) -> bool:
    """True for the fixed fifth of the photos that no fitting ever sees."""
    digest = hashlib.sha256(file_name.encode("utf-8")).digest()
    return digest[0] % HELD_OUT_BUCKETS == 0


def is_held_back(file_name: str) -> bool:
    """True for the held-back part: about a sixth of the photos outside the held-out fifth, by a second hash of
    the name (salted, so it is independent of the first). No tuning choice looks at these photos."""
    if is_held_out(file_name):
        return False
    digest = hashlib.sha256(HELD_BACK_SALT + file_name.encode("utf-8")).digest()
    return digest[0] % HELD_BACK_BUCKETS == 0


def is_fitting(file_name: str) -> bool:
    """True for a photo that training may fit on: neither held out nor held back."""
    return not is_held_out(file_name) and not is_held_back(file_name)


def dataset_root(root: str | os.PathLike[str] | None = None) -> Path:
    for candidate in (root, os.environ.get("DICE_DATASET"), DEFAULT_ROOT):
        if candidate and (Path(candidate) / "byler-train").is_dir():
            return Path(candidate)
    return Path(root or DEFAULT_ROOT)


def read_labels(path: Path, width: int, height: int) -> tuple[Label, ...]:
    labels = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) != 5:
            continue
        cls, xc, yc, w, h = int(float(parts[0])), *map(float, parts[1:])
        labels.append(Label(cls + 1, ((xc - w / 2) * width, (yc - h / 2) * height, w * width, h * height)))
    return tuple(labels)


def load_set(set_name: str, root: str | os.PathLike[str] | None = None) -> list[Photo]:
    """Every labelled photo of one set, sorted by name (sizes read from the JPEG header)."""
    from PIL import Image

    base = dataset_root(root) / set_name
    photos = []
    for image in sorted((base / "images").glob("*.jpg")):
        label_file = base / "labels" / (image.stem + ".txt")
        if not label_file.exists():
            continue
        with Image.open(image) as im:
            width, height = im.size
        photos.append(Photo(set_name, image, read_labels(label_file, width, height), width, height))
    return photos


def iter_photos(root: str | os.PathLike[str] | None = None, held_out: bool | None = None) -> Iterator[Photo]:
    for set_name in SETS:
        for photo in load_set(set_name, root):
            if held_out is None or photo.held_out == held_out:
                yield photo


@dataclass
class Score:
    dice: int = 0
    right: int = 0
    unsure: int = 0  # labelled dice read as unsure (counted as not right)
    wrong: int = 0  # labelled dice read with another value
    missed: int = 0  # labelled dice with no reading
    false_positives: int = 0
    photos: int = 0

    def add(self, other: Score) -> None:
        for name in ("dice", "right", "unsure", "wrong", "missed", "false_positives", "photos"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def accuracy(self) -> float:
        return self.right / self.dice if self.dice else 1.0

    @property
    def fp_per_20(self) -> float:
        return 20.0 * self.false_positives / self.photos if self.photos else 0.0


def score_photo(
    readings: Sequence[tuple[int | None, tuple[float, float, float, float]]], labels: Sequence[Label]
) -> Score:
    """Score (value, box) readings against labels by the README's rule."""
    score = Score(dice=len(labels), photos=1)
    pairs = []
    for r, (_, (x, y, w, h)) in enumerate(readings):
        cx, cy = x + w / 2, y + h / 2
        for i, label in enumerate(labels):
            lx, ly, lw, lh = label.box
            if lx <= cx <= lx + lw and ly <= cy <= ly + lh:
                mx, my = label.center
                pairs.append(((cx - mx) ** 2 + (cy - my) ** 2, r, i))
    pairs.sort()
    used_r: set[int] = set()
    matched: dict[int, int] = {}
    for _, r, i in pairs:
        if r in used_r or i in matched:
            continue
        used_r.add(r)
        matched[i] = r
    for i, label in enumerate(labels):
        if i not in matched:
            score.missed += 1
            continue
        value = readings[matched[i]][0]
        if value == label.value:
            score.right += 1
        elif value is None:
            score.unsure += 1
        else:
            score.wrong += 1
    score.false_positives = len(readings) - len(used_r)
    return score
