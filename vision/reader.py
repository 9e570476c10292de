"""Read the dice in a photo: where each die is, how many pips are up, what colour it is.

Two small networks, run by OpenCV's dnn module from the ONNX files in ``vision/models``
(trained by ``vision/training/train.py``):

1. The finder looks at the whole frame scaled to 320 pixels and puts a peak on the
   centre of every die's top face, with the face's size.
2. The reader looks at each face in the full-resolution frame (a 40x40 crop around the
   peak, 1.35 times the face) and gives the chance of each value 1-6, of "not a die" and of
   "a logo instead of pips".

The finder works best when faces are about ``FACE_TARGET`` pixels wide in its input. With a
calibrated face size (``ReaderSettings.face_size``) the frame is scaled for that in one pass;
without, a coarse pass at 320 pixels measures the median face and, when it is far from the
target, a second pass runs at the right scale (in tiles for large frames).

A face whose best value is below ``ReaderSettings.unsure_below``, or that looks more like a
logo than like its best value, comes out with value None (unsure): a logo, a die on its
edge, a blurred die. A weak candidate that the reader gives no value more likely than not is
dropped; a strong one (finder peak at least ``ReaderSettings.strong_peak``) is kept as an unsure
die, so a roll is never settled with a die silently missing. The colour is the median of the face (pips are the
minority) named by hue, or by the nearest calibrated colour reference of the table.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.errors import ConfigError, VisionError
from vision.cocked import NET_ADD_SURE, NET_ONE_OF_TWO, NET_SURE, OVERHEAD_RATIO, Look, describe, net_crop
from vision.nets import COCKED_DIE, CROP, FIND_SIZE, LOGO, NOT_A_DIE, networks
from vision.taught import load_taught

STRIDE = 4
FACE_TARGET = 22.0  # face size (pixels of the finder's input) the finder was trained around (15-34)
FACE_OK = (14.5, 44.0)  # a coarse pass whose median face lies in here is not repeated at another scale
TILE = 1600  # the finder runs on tiles of at most this size (pixels of its input), overlapping
SIZE_PEAK = 0.7  # peaks at least this strong measure the faces' size for the next pass
MAX_FIND_PIXELS = 1600 * 1200  # a second pass never makes the finder's input larger than this
# The finder's size head cannot tell small faces apart: faces of 11 to 22 pixels in its input all measure
# about 21-23 on an oblique table. So when the coarse pass shrank a large frame (to this share of its side
# or less) and its faces measure under SMALL_FACE, it looks again CLOSER times as close and takes that look.
CLOSER_FRAMES = 0.4
SMALL_FACE = 24.0
CLOSER = 1.5
CROP_SCALE = 1.35
RETRY_SCALES = (0.85, 1.2)  # a doubtful die is looked at again in crops this many times as large
RETRY_SHIFT = 0.15  # and in crops moved this share of its face left, right, up and down
SAME_FACE = 0.45  # two peaks closer than this share of a face are on one face
TOUCHING = (0.55, 1.6)  # a die touching another lies this many of its faces from its centre
TAUGHT_SURE = 0.9  # a taught reader looks again, in every turn and mirror image, at a crop less sure than this
# A taught reader keeps the crops it was taught, dice and the table's background; a candidate nearer to a taught
# background crop than to every taught die is far from the table's dice: it is kept only with a value this sure
# (never as an unsure die on a strong peak alone), so a patterned cloth does not make up dice
FAR_SURE = 0.9
# Cocked dice (issue 26): a die leaning on another or on the tray's wall has no face up. The reader network has a
# class for it (COCKED_DIE, learned from rendered cocked dice against the real flat dice of the training photos): a
# candidate whose chance of it is at least COCKED_SURE and above its best value's is cocked (value None), and is
# not looked at again for a value. Its "top" face is foreshortened, so its pips are ellipses: a second signal. FLAT_LOOK is the crop (pixels) the pips are measured in; at a calibrated table (``[tray]
# flat_ratio``: how round the pips of its flat dice look), a die the reader gives no sure value whose pips are
# flattened to under COCKED_RATIO of that is cocked. Only unsure dice, and only when calibrated: on real photos the
# pips of flat dice measure too unevenly to overrule a value or to judge a die by its neighbours (docs/vision.md).
COCKED_SURE = 0.5
FLAT_LOOK = 96
COCKED_RATIO = 0.82
COCKED = "cocked: reroll it"

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class DieReading:
    """One die: ``value`` 1-6 or None when unsure, ``box`` (x, y, w, h) of its top face in
    pixels of the frame, ``confidence`` 0-1 and the colour name."""

    value: int | None
    box: Box
    confidence: float
    color: str
    cocked: bool = False  # leaning on another die or the wall: no face is up, value None ("cocked: reroll it")

    @property
    def center(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return x + w / 2, y + h / 2

    def to_dict(self) -> dict[str, Any]:
        out = {"value": self.value, "box": list(self.box), "confidence": round(self.confidence, 3), "color": self.color}
        if self.cocked:
            out["cocked"] = True
        return out

    @property
    def text(self) -> str:
        """How a person is told this die: "blue 4", "blue ?" (unsure), "blue cocked: reroll it"."""
        return f"{self.color} {COCKED if self.cocked else self.value if self.value is not None else '?'}"


@dataclass(frozen=True)
class ReaderSettings:
    """How to read: the tray region, the thresholds and the table's colour references.

    ``region``: (x, y, w, h) of the tray in the frame, None for the whole frame.
    ``find_threshold``: the finder's peak height that makes a candidate die.
    ``strong_peak``: a candidate this strong that the reader calls "not a die" is kept as unsure.
    ``faint_peak``, ``faint_sure``: a candidate weaker than ``faint_peak`` is kept only when its value's chance
    is at least ``faint_sure`` (on the training photos nearly all such peaks read less surely were clutter).
    ``touch_peak``, ``touch_sure``: a peak under ``find_threshold`` but at least ``touch_peak``, lying against
    a candidate (touching dice: the finder's peak on the second is often faint), is read too, and kept only
    when its value's chance is at least ``touch_sure`` (and ``faint_sure``: it is faint too).
    ``unsure_below``: a value whose chance is lower than this is reported as None.
    ``colors``: name -> Lab reference (OpenCV's 8-bit Lab) measured by ``companion dice calibrate``;
    a die is given the nearest reference's name when it is closer than ``color_distance``.
    ``face_size``: a die's top face in pixels of the frame, measured by ``companion dice calibrate``
    (None: measured in each frame by a coarse pass of the finder).
    ``taught``: a reader adapted to the table by ``companion dice teach`` (vision.teach.TaughtReader),
    None for the shipped one.
    """

    region: Box | None = None
    find_threshold: float = 0.3
    strong_peak: float = 0.85
    unsure_below: float = 0.5
    not_a_die_above: float = 0.5
    faint_peak: float = 0.5
    faint_sure: float = 0.7
    touch_peak: float = 0.2
    touch_sure: float = 0.85
    colors: Mapping[str, tuple[float, float, float]] = field(default_factory=dict)
    color_distance: float = 40.0
    max_dice: int = 60
    face_size: float | None = None
    taught: Any = None
    flat_ratio: float | None = None  # how round the pips of a flat die look at this table (calibrated), None: measured

    @classmethod
    def from_config(cls, table: Mapping[str, Any]) -> ReaderSettings:
        """Settings from the ``[tray]`` table of the configuration (checked; ConfigError names the key)."""
        from companion.validate import Section, number

        tray = Section(
            table,
            "tray",
            known=(
                "region",
                "find_threshold",
                "strong_peak",
                "unsure_below",
                "colors",
                "color_distance",
                "kinds",
                "face_size",
                "taught",
                "flat_ratio",
            ),
        )

        def check_region(key: str, region: Any) -> tuple[int, int, int, int]:
            if (
                not isinstance(region, (list, tuple))
                or len(region) != 4
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in region)
                or region[2] < 8
                or region[3] < 8
            ):
                raise ConfigError(f"{key}: expected [x, y, w, h] in whole pixels (w, h >= 8), got {region!r}.")
            return (region[0], region[1], region[2], region[3])

        def check_lab(key: str, lab: Any) -> tuple[float, float, float]:
            if not isinstance(lab, (list, tuple)) or len(lab) != 3:
                raise ConfigError(f"{key}: expected [L, a, b] (0-255 each), got {lab!r}.")
            return (number(key, lab[0], 0, 255), number(key, lab[1], 0, 255), number(key, lab[2], 0, 255))

        def check_face(key: str, size: Any) -> float:
            try:
                return number(key, size, 4, 2000)
            except ConfigError as exc:
                raise ConfigError(
                    f"{exc}: a die's face size in pixels; measure it again with companion dice "
                    "calibrate, or remove the key."
                ) from None

        shades = tray.table("colors")
        values: dict[str, Any] = {
            "region": tray.value("region", check_region, None),
            "colors": {str(name): shades.value(str(name), check_lab, (0.0, 0.0, 0.0)) for name in shades.data},
        }
        for key in ("find_threshold", "strong_peak", "unsure_below", "color_distance"):
            if key in tray:
                values[key] = tray.number(key, 0.0, 0.0, math.inf)
        if "face_size" in tray:
            values["face_size"] = tray.value("face_size", check_face, 0.0)
        if "flat_ratio" in tray:
            values["flat_ratio"] = tray.number("flat_ratio", 0.0, 0.05, 1.0)
        if table.get("taught"):
            try:
                values["taught"] = load_taught(str(table["taught"]))
            except VisionError as exc:
                raise ConfigError(f"tray.taught: {exc}") from None
        return cls(**values)


@dataclass(frozen=True)
class ReadResult:
    """One frame read: the dice, and how they were found.

    ``found`` is the number of dice the finder found and kept (sure or unsure): compare it with the
    number of dice rolled before settling a roll. ``dropped`` counts weak candidates the reader gave no
    value as sure as their peak needs (more likely than not; surer for a faint one, see ``ReaderSettings``).
    ``finder_scale`` is the finder's input pixels per frame pixel of the (last) pass."""

    dice: list[DieReading]
    dropped: int = 0
    finder_scale: float = 0.0
    passes: int = 0

    @property
    def found(self) -> int:
        return len(self.dice)

    @property
    def unsure(self) -> int:
        return sum(r.value is None for r in self.dice)


def check_frame(frame: Any) -> np.ndarray:
    """The frame as an 8-bit BGR image, or VisionError saying what is wrong with it."""
    if not isinstance(frame, np.ndarray):
        raise VisionError(f"expected an image (a numpy array), got {type(frame).__name__}.")
    if frame.dtype != np.uint8:
        raise VisionError(f"expected an 8-bit image, got pixels of type {frame.dtype}.")
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    elif frame.ndim == 3 and frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise VisionError(f"expected a colour image (height, width, 3), got shape {frame.shape}.")
    if frame.shape[0] < 16 or frame.shape[1] < 16:
        raise VisionError(f"the image is too small to hold dice ({frame.shape[1]}x{frame.shape[0]} pixels).")
    checked: np.ndarray = frame
    return checked


def crop_face(img: np.ndarray, cx: float, cy: float, side: float, angle: float = 0.0) -> np.ndarray:
    """The CROP x CROP patch around (cx, cy) that the reader network sees (also used to train it)."""
    scale = CROP / side
    m = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    m[0, 2] += CROP / 2 - cx
    m[1, 2] += CROP / 2 - cy
    return cv2.warpAffine(
        img, m, (CROP, CROP), flags=cv2.INTER_AREA if scale < 0.8 else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


Candidate = tuple[float, float, float, float]  # cx, cy, face size (pixels of the image), finder score


def _run_finder(
    view: np.ndarray, taught: Any = None, looks: list[Look] | None = None, origin: tuple[int, int] = (0, 0)
) -> np.ndarray:
    """The finder's output (5, H/4, W/4) for a view whose sides are multiples of 16; with a taught
    finder head (``taught.heat``, ``taught.size``), its heat map and face sizes from the finder's last
    features instead of the shipped ones. With ``looks``, the view's last features with its heat map on top are
    appended to it, with the view's ``origin`` in the finder's input (for the cocked-dice head)."""
    nets = networks()
    finder = nets.find
    finder.setInput(cv2.dnn.blobFromImage(view, 1 / 255.0))
    heat, size = getattr(taught, "heat", None), getattr(taught, "size", None)
    if ((heat is None and size is None) and looks is None) or not nets.find_outputs:
        out: np.ndarray = finder.forward()[0]
        return out
    feats, raw = finder.forward(nets.find_outputs)
    out = np.array(raw[0])
    if looks is not None:
        looks.append((origin[0], origin[1], np.concatenate([feats[0], out[:1]], axis=0)))
    if heat is not None:
        out[0] = heat(feats[0])
    if size is not None:
        out[1] = size(feats[0])
    return out


def finder_features(view: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The finder's last features (16, H/4, W/4) and its output (5, H/4, W/4), for teaching its head."""
    nets = networks()
    nets.find.setInput(cv2.dnn.blobFromImage(view, 1 / 255.0))
    feats, raw = nets.find.forward(nets.find_outputs)
    return np.asarray(feats[0]), np.asarray(raw[0])


def pixel_median(pixels: np.ndarray) -> np.ndarray:
    """Each channel's median of an (n, channels) array of pixels: the same values as ``np.median(pixels, axis=0)``
    (float64, the mean of the two middle values when n is even), found by one partition, without the generic
    median's checks, which cost more than the partition on a die's few hundred pixels (it runs for every die)."""
    n = len(pixels)
    half = n // 2
    if n % 2:
        odd: np.ndarray = np.partition(pixels, half, axis=0)[half].astype(np.float64)
        return odd
    part = np.partition(pixels, (half - 1, half), axis=0)
    even: np.ndarray = (part[half - 1].astype(np.float64) + part[half]) / 2
    return even


def finder_view(image: np.ndarray, scale: float) -> np.ndarray:
    """``image`` scaled by ``scale`` and padded to multiples of 16, as the finder sees it (one tile)."""
    h, w = image.shape[:2]
    sw, sh = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    pw, ph = max(32, -(-sw // 16) * 16), max(32, -(-sh // 16) * 16)
    fill = [float(v) for v in pixel_median(small[::4, ::4].reshape(-1, 3))]
    return cv2.copyMakeBorder(small, 0, ph - sh, 0, pw - sw, cv2.BORDER_CONSTANT, value=fill)


def _peaks(out: np.ndarray, threshold: float, x0: int, y0: int, scale: float, w: int, h: int) -> list[Candidate]:
    heat = out[0]
    peaks = (heat >= threshold) & (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    found = []
    for iy, ix in zip(*np.nonzero(peaks)):
        gx, gy = ix + float(out[2, iy, ix]), iy + float(out[3, iy, ix])
        cx, cy = (gx * STRIDE + x0) / scale, (gy * STRIDE + y0) / scale
        if not (0 <= cx < w and 0 <= cy < h):
            continue
        size = math.exp(float(np.clip(out[1, iy, ix], -1.0, 5.0))) * STRIDE / scale
        found.append((cx, cy, size, float(heat[iy, ix])))
    return found


def find_candidates(
    image: np.ndarray,
    threshold: float,
    scale: float | None = None,
    taught: Any = None,
    looks: list[Look] | None = None,
) -> list[Candidate]:
    """(cx, cy, face size, score) of every peak of the finder, in pixels of ``image``, strongest first.

    ``scale`` is the finder's input pixels per pixel of ``image``; None: the longer side becomes 320
    (the coarse pass). A view larger than ``TILE`` is run in overlapping tiles. With ``looks``, each tile's
    features are appended to it (``_run_finder``)."""
    h, w = image.shape[:2]
    coarse = scale is None
    if scale is None:
        scale = FIND_SIZE / max(h, w)
    sw, sh = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    if coarse:
        pw, ph = FIND_SIZE, FIND_SIZE  # the coarse pass is square, as the finder was trained
    else:
        pw, ph = max(32, -(-sw // 16) * 16), max(32, -(-sh // 16) * 16)
    if (sw, sh) != (pw, ph):
        fill = [float(v) for v in pixel_median(small[::4, ::4].reshape(-1, 3))]
        small = cv2.copyMakeBorder(small, 0, ph - sh, 0, pw - sw, cv2.BORDER_CONSTANT, value=fill)
    found: list[Candidate] = []
    if pw <= TILE and ph <= TILE:
        found = _peaks(_run_finder(small, taught, looks), threshold, 0, 0, scale, w, h)
    else:
        overlap = 96  # more than two faces at the finder's size: every die lies whole in some tile
        step = TILE - overlap
        for ty in range(0, max(1, ph - overlap), step):
            for tx in range(0, max(1, pw - overlap), step):
                y1, x1 = min(ty + TILE, ph), min(tx + TILE, pw)
                y0, x0 = max(0, y1 - TILE), max(0, x1 - TILE)
                out = _run_finder(small[y0:y1, x0:x1], taught, looks, (x0, y0))
                found += _peaks(out, threshold, x0, y0, scale, w, h)
    found.sort(key=lambda c: -c[3])
    return found


def _one_per_face(candidates: Sequence[Candidate]) -> list[Candidate]:
    """Two peaks on one face (or in the overlap of two tiles): keep the stronger."""
    kept: list[Candidate] = []
    for c in candidates:
        if all(math.hypot(c[0] - k[0], c[1] - k[1]) > SAME_FACE * max(c[2], k[2]) for k in kept):
            kept.append(c)
    return kept


def find_dice(
    image: np.ndarray, settings: ReaderSettings, looks: list[Look] | None = None
) -> tuple[list[Candidate], float, int]:
    """The finder's candidates at the right scale: (candidates, finder scale, passes), with the faint peaks
    against them (``_touching``) after the others. With ``looks``, the finder's features of the pass whose
    candidates these are are appended to it."""
    every: dict[float, list[Look]] | None = {} if looks is not None else None
    found, faint, scale, passes = _find_dice(image, settings, every)
    if looks is not None and every is not None:
        looks.extend(every.get(scale, []))
    return found + _touching(found, faint), scale, passes


def _touching(found: Sequence[Candidate], faint: Sequence[Candidate]) -> list[Candidate]:
    """The faint peaks (strongest first) that lie against a found die, ``TOUCHING`` of its face from its centre,
    one per face, with that die's face size (the finder's size on a faint peak is often far off)."""
    out: list[Candidate] = []
    for cx, cy, _, score in faint:
        gaps = [math.hypot(cx - k[0], cy - k[1]) / k[2] for k in found]
        if not gaps or not TOUCHING[0] <= min(gaps) <= TOUCHING[1]:
            continue
        if any(math.hypot(cx - e[0], cy - e[1]) < TOUCHING[0] * e[2] for e in out):
            continue
        out.append((cx, cy, found[int(np.argmin(gaps))][2], score))
    return out


Pass = tuple[list[Candidate], list[Candidate], list[Candidate]]  # one pass's candidates, strong ones, faint peaks


def _find_dice(
    image: np.ndarray, settings: ReaderSettings, looks: dict[float, list[Look]] | None = None
) -> tuple[list[Candidate], list[Candidate], float, int]:
    """The finder's candidates at the right scale: (candidates, the faint peaks of the same pass (between
    ``touch_peak`` and ``find_threshold``), finder scale, passes).

    With a known face size, one pass at the scale that brings faces to ``FACE_TARGET``. Otherwise a
    coarse pass at 320 pixels, which stands when its faces lie in the trained range (but a large frame whose
    faces measure under ``SMALL_FACE`` there is looked at again ``CLOSER`` times as close, and that look is
    taken when it shows as many strong peaks: the size head measures faces of half its size about as large);
    when they do not, another pass at the scale that brings them to the target; when it found nothing, or
    only one or two strong peaks among more weak ones (a cluster of dice too small to tell apart looks like
    one die), a look at twice the scale, taken only when the dice there are smaller and more. At most three
    passes. With ``looks``, each pass's finder features are kept there by its scale."""
    h, w = image.shape[:2]
    top = min(2.0, math.sqrt(MAX_FIND_PIXELS / (w * h)))  # the largest scale the finder's input may have
    face = settings.face_size

    def run(scale: float | None) -> Pass:
        kept: list[Look] | None = None
        if looks is not None:
            kept = looks[FIND_SIZE / max(h, w) if scale is None else scale] = []
        every = find_candidates(image, min(settings.touch_peak, settings.find_threshold), scale, settings.taught, kept)
        found = _one_per_face([c for c in every if c[3] >= settings.find_threshold])
        return found, [c for c in found if c[3] >= SIZE_PEAK], [c for c in every if c[3] < settings.find_threshold]

    def median(strong: list[Candidate]) -> float:
        return float(np.median([c[2] for c in strong]))

    if face:
        scale = min(top, FACE_TARGET / face)
        found, _, faint = run(scale)
        return found, faint, scale, 1
    coarse = FIND_SIZE / max(h, w)
    found, strong, faint = run(None)
    scale, passes = coarse, 1
    sizing = strong or found  # only weak peaks: they still tell the size, unless they are clusters
    if not sizing or (len(strong) < 3 and 2 * len(strong) < len(found)):
        # nothing, or one or two strong peaks among more weak ones: look at twice the scale, and take
        # that look when it shows more and smaller dice (the coarse peaks were clusters of tiny dice)
        closer, strong2, faint2 = run(min(top, 2 * coarse))
        passes += 1
        if len(strong2) >= max(2, len(strong) + 1) and (not sizing or median(strong2) < 0.6 * median(sizing)):
            strong2 = _read_as_dice(image, strong2, settings)  # not the pips of a large die
        if len(strong2) >= max(2, len(strong) + 1) and (not sizing or median(strong2) < 0.6 * median(sizing)):
            found, sizing, faint, scale = closer, strong2, faint2, min(top, 2 * coarse)
        elif not sizing:
            return found, faint, coarse, passes
    if scale == coarse and FACE_OK[0] <= median(sizing) * coarse <= FACE_OK[1]:
        if coarse <= CLOSER_FRAMES and median(sizing) * coarse < SMALL_FACE and top >= coarse * CLOSER:
            nearer, strong_nearer, faint_nearer = run(coarse * CLOSER)
            if len(strong_nearer) >= len(strong):
                return nearer, faint_nearer, coarse * CLOSER, passes + 1
            return found, faint, coarse, passes + 1
        return found, faint, coarse, passes
    # bring the faces to the finder's size, unless they are near it already
    wanted = min(top, FACE_TARGET / median(sizing))
    if abs(wanted / scale - 1) < 0.2:
        return found, faint, scale, passes
    again, strong3, faint3 = run(wanted)
    passes += 1
    if len(strong3) >= len([c for c in found if c[3] >= SIZE_PEAK]):
        return again, faint3, wanted, passes
    return found, faint, scale, passes


def _even_sizes(candidates: list[Candidate]) -> list[Candidate]:
    """Dice in one tray are one size: with three or more strong peaks, a face size far from their median
    (two touching dice seen as one large face, a tilted one seen too large) is brought within 0.8-1.25 of it,
    so that the reader's crop holds one face."""
    strong = [c[2] for c in candidates if c[3] >= SIZE_PEAK]
    if len(strong) < 3:
        return candidates
    median = float(np.median(strong))
    return [(cx, cy, float(np.clip(size, 0.8 * median, 1.25 * median)), score) for cx, cy, size, score in candidates]


def _read_as_dice(image: np.ndarray, peaks: list[Candidate], settings: ReaderSettings) -> list[Candidate]:
    """The peaks the reader reads as a die with a value (not "not a die", not a logo, sure enough)."""
    probs = classify(
        [crop_face(image, cx, cy, size * CROP_SCALE) for cx, cy, size, _ in peaks], settings.taught, looks=False
    )
    return [p for p, good in zip(peaks, _surely(probs, settings)) if good]


def _chance(probs: np.ndarray, cls: int) -> np.ndarray:
    """Each row's chance of class ``cls`` (0 for a network without that class)."""
    out: np.ndarray = probs[:, cls] if probs.shape[1] > cls else np.zeros(len(probs), probs.dtype)
    return out


def _surely(probs: np.ndarray, settings: ReaderSettings) -> np.ndarray:
    """For each row of the reader's chances, whether it reads a value for sure: the best value's chance at least
    ``unsure_below``, more likely than a logo and than a cocked die, and not "not a die"."""
    best = probs[:, :NOT_A_DIE].max(axis=1)
    sure: np.ndarray = (
        (best >= settings.unsure_below)
        & (_chance(probs, LOGO) < best)
        & (_chance(probs, COCKED_DIE) < best)
        & (probs[:, NOT_A_DIE] <= settings.not_a_die_above)
    )
    return sure


def _is_cocked(probs: np.ndarray) -> np.ndarray:
    """For each row of the reader's chances, whether it is a cocked die: its chance at least ``COCKED_SURE`` and
    above the best value's."""
    cocked = _chance(probs, COCKED_DIE)
    out: np.ndarray = (cocked >= COCKED_SURE) & (cocked > probs[:, :NOT_A_DIE].max(axis=1))
    return out


def read_frame(frame_bgr: np.ndarray, settings: ReaderSettings | None = None) -> ReadResult:
    """Every die in the frame (or in ``settings.region``), left to right then top to bottom, with how
    many were found; ``read_dice`` gives the dice alone."""
    settings = settings or ReaderSettings()
    image, origin = _region(check_frame(frame_bgr), settings)
    looks: list[Look] = []
    # the finder's features are kept only for a cocked-dice head (vision.cocked), when one is fitted on these networks
    kept, scale, passes = find_dice(image, settings, looks if networks().cocked is not None else None)
    kept = _even_sizes(kept[: settings.max_dice])
    if not kept:
        return ReadResult([], 0, scale, passes)
    crops = [crop_face(image, cx, cy, size * CROP_SCALE) for cx, cy, size, _ in kept]
    first: list[np.ndarray] = []
    probs = classify(crops, settings.taught, features=first)
    probs, moved = _retry_doubtful(image, kept, probs, settings)
    crops = [
        crop if m == k else crop_face(image, m[0], m[1], m[2] * CROP_SCALE)  # a moved die's colour
        for crop, m, k in zip(crops, moved, kept)
    ]
    far, feats = _far_from_taught(first[0], crops, moved, kept, settings, bool(looks))
    leaning = _leaning(looks, scale, moved, feats)
    readings, unread = [], []
    for candidate, p, patch, sure, away, cocked, lean in zip(
        moved, probs, crops, _surely(probs, settings), far, _is_cocked(probs), leaning
    ):
        reading = _reading(candidate, p, origin, patch, (bool(sure), bool(away), bool(cocked), lean), settings)
        if reading is not None:
            readings.append(reading)
        elif not away:
            unread.append(candidate)
    dropped = len(moved) - len(readings)
    readings = _call_cocked(image, readings, origin, settings)
    if overhead_table(settings):
        readings = _overhead_cocked(image, origin, readings, unread, settings)
    readings.sort(key=lambda r: (r.box[1] // max(1, r.box[3]), r.box[0]))
    return ReadResult(readings, dropped, scale, passes)


def _region(frame: np.ndarray, settings: ReaderSettings) -> tuple[np.ndarray, tuple[int, int]]:
    """The part of the frame the dice are read in (``settings.region``, else all of it) and where it begins;
    VisionError when the region lies outside the frame."""
    if settings.region is None:
        return frame, (0, 0)
    x, y, w, h = settings.region
    image = frame[y : y + h, x : x + w]
    if image.shape[0] < 16 or image.shape[1] < 16:
        raise VisionError(
            f"the tray region {settings.region} lies outside the {frame.shape[1]}x{frame.shape[0]} "
            "frame; calibrate the tray again (companion dice calibrate)."
        )
    return image, (x, y)


def _far_from_taught(
    first: np.ndarray,
    crops: Sequence[np.ndarray],
    moved: Sequence[Candidate],
    kept: Sequence[Candidate],
    settings: ReaderSettings,
    looked: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """For each die, whether a taught reader finds it far from the taught dice (all False untaught), and the
    reader's features of each die where it is (a die the second looks moved is measured again, when a taught
    reader or a cocked-dice head (``looked``) is to see them)."""
    far = np.zeros(len(moved), bool)
    feats = np.array(first)
    taught_far = callable(getattr(settings.taught, "background", None))
    shifted = [i for i, (m, k) in enumerate(zip(moved, kept)) if m != k]
    if shifted and (taught_far or looked):
        feats[shifted] = reader_outputs([crops[i] for i in shifted])[0]  # the features of each die where it is
    if taught_far:
        far = settings.taught.background(feats)
    return far, feats


def _reading(
    candidate: Candidate,
    p: np.ndarray,
    origin: tuple[int, int],
    patch: np.ndarray,
    calls: tuple[bool, bool, bool, float | None],
    settings: ReaderSettings,
) -> DieReading | None:
    """One candidate's reading from the reader's chances ``p`` of its crop ``patch``, or None when it is
    dropped. ``calls``: whether its value is sure, whether it is far from the taught dice, whether its crop
    reads as a cocked die, and the cocked-dice head's chance that it leans (None: it does not)."""
    cx, cy, size, score = candidate
    sure, away, cocked, lean = calls
    half = size / 2
    box = (round(cx - half) + origin[0], round(cy - half) + origin[1], max(1, round(size)), max(1, round(size)))
    if cocked and not away and score >= settings.find_threshold:  # a cocked die, on a peak of its own
        return DieReading(None, box, float(p[COCKED_DIE]), color_name(patch, settings), cocked=True)
    best = int(np.argmax(p[:NOT_A_DIE]))
    confidence = float(p[best])
    if _dropped(p, best, score, away, settings):
        return None
    if lean is not None:  # the frame around it says it leans: no face is up, whatever its crop reads
        return DieReading(None, box, lean, color_name(patch, settings), cocked=True)
    return DieReading(best + 1 if sure else None, box, confidence, color_name(patch, settings))


def _dropped(p: np.ndarray, best: int, score: float, away: bool, settings: ReaderSettings) -> bool:
    """Whether a candidate is left out: a weak peak unless the reader gives it a value more likely than not (it
    is the clutter of a desk, the side face of an oblique die, half of two touching dice; a strong one stays,
    unsure when it is not read for sure, so that a die is never silently missing from a roll), and one far
    from the taught dice unless its value is ``FAR_SURE``."""
    confidence = float(p[best])
    logo = len(p) > LOGO and p[LOGO] >= confidence  # a printed logo rather than pips
    valued = (
        confidence > settings.not_a_die_above
        and not logo
        and not (p[NOT_A_DIE] > settings.not_a_die_above)
        and confidence >= _needed(score, settings)
    )
    return (not valued and (score < settings.strong_peak or away)) or (away and confidence < FAR_SURE)


def _leaning(
    looks: Sequence[Look], scale: float, dice: Sequence[Candidate], reader_features: np.ndarray
) -> list[float | None]:
    """For each candidate, the cocked-dice head's chance that it leans (when its logit passes the head's threshold),
    else None: no head for these networks, or it does not lean (vision.cocked)."""
    head = networks().cocked
    if head is None or not looks or not len(dice):
        return [None] * len(dice)
    logits = head.logits(describe(looks, scale, [(cx, cy, size) for cx, cy, size, _ in dice], reader_features))
    return [float(1 / (1 + math.exp(-z))) if z > head.threshold else None for z in logits]


def pip_roundness(image: np.ndarray, cx: float, cy: float, size: float) -> float | None:
    """How round the pips of the face at (cx, cy) look: the median ratio of the short to the long axis of each pip
    (1 for a face seen square on, cos(tilt) for one tilted away), or None when no pip is found. Pips are the
    blobs that differ from the face's median colour (Otsu's threshold on the distance in Lab), of a pip's size
    and about an ellipse's shape, inside the face."""
    n = FLAT_LOOK
    side = size * CROP_SCALE
    m = cv2.getRotationMatrix2D((cx, cy), 0.0, n / side)
    m[0, 2] += n / 2 - cx
    m[1, 2] += n / 2 - cy
    patch = cv2.warpAffine(image, m, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    q = n // 4
    face = np.median(lab[q : n - q, q : n - q].reshape(-1, 3), axis=0)
    ink = np.clip(np.linalg.norm(lab - face, axis=2) * 2, 0, 255).astype(np.uint8)
    e = n // 8
    threshold, _ = cv2.threshold(ink[e : n - e, e : n - e], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (ink > max(threshold, 40.0)).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    face_px = (n / CROP_SCALE) ** 2
    ratios = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if not 0.004 * face_px <= area <= 0.05 * face_px or x <= 1 or y <= 1 or x + w >= n - 1 or y + h >= n - 1:
            continue
        ys, xs = np.nonzero(labels[y : y + h, x : x + w] == i)
        low, high = np.linalg.eigvalsh(np.cov(np.stack([xs, ys]).astype(np.float64)))
        if high <= 0 or not 0.8 <= area / (4 * math.pi * math.sqrt(max(low, 1e-6) * high)) <= 1.2:
            continue  # not an ellipse: two pips run together, a logo, an edge
        ratios.append(math.sqrt(max(low, 1e-6) / high))
    return float(np.median(ratios)) if ratios else None


def _call_cocked(
    image: np.ndarray, readings: list[DieReading], origin: tuple[int, int], settings: ReaderSettings
) -> list[DieReading]:
    """The readings with every unsure die that is cocked marked so: its pips flattened to under ``COCKED_RATIO`` of
    the table's flat dice (``settings.flat_ratio``, measured by calibration: the camera's own tilt flattens every
    die alike). Without calibration none is called cocked; a die read with a value is never looked at."""
    flat = settings.flat_ratio
    if flat is None or all(r.value is not None for r in readings):
        return readings
    ox, oy = origin
    out = []
    for r in readings:
        if r.value is None:
            ratio = pip_roundness(image, r.center[0] - ox, r.center[1] - oy, r.box[2])
            if ratio is not None and ratio < COCKED_RATIO * flat:
                r = DieReading(None, r.box, r.confidence, r.color, cocked=True)
        out.append(r)
    return out


def overhead_table(settings: ReaderSettings) -> bool:
    """Whether the overhead cocked-dice network looks at this table's dice: one ships, and the table is calibrated
    as seen from straight above (``flat_ratio`` at least ``vision.cocked.OVERHEAD_RATIO``)."""
    return settings.flat_ratio is not None and settings.flat_ratio >= OVERHEAD_RATIO and networks().overhead is not None


def overhead_chances(image: np.ndarray, centres: Sequence[tuple[float, float]], face: float) -> np.ndarray:
    """The overhead cocked-dice network's chance that the die at each centre (pixels of ``image``) is cocked."""
    net = networks().overhead
    net.setInput(cv2.dnn.blobFromImages([net_crop(image, cx, cy, face) for cx, cy in centres], 1 / 255.0))
    logits = np.asarray(net.forward(), np.float64).reshape(len(centres))
    out: np.ndarray = 1 / (1 + np.exp(-logits))
    return out


def _overhead_cocked(
    image: np.ndarray,
    origin: tuple[int, int],
    readings: list[DieReading],
    unread: Sequence[Candidate],
    settings: ReaderSettings,
) -> list[DieReading]:
    """The readings at a calibrated overhead table with the overhead network's calls: a reading it gives at least
    ``NET_SURE`` is cocked (its value taken away), and a candidate the reader dropped (a weak peak, often all a
    cocked die gets) that it gives at least ``NET_ADD_SURE`` is a cocked die of its own, unless it lies on a reading
    or on another such die (within ``TOUCHING[0]`` of a face)."""
    ox, oy = origin
    face = settings.face_size
    centres = [(r.center[0] - ox, r.center[1] - oy) for r in readings] + [(c[0], c[1]) for c in unread]
    if not centres:
        return readings
    sizes = [float(r.box[2]) for r in readings] or [unread[0][2]]
    chances = overhead_chances(image, centres, face or float(np.median(sizes)))
    out = [
        DieReading(None, r.box, float(p), r.color, cocked=True) if p >= NET_SURE else r
        for r, p in zip(readings, chances)
    ]
    for (cx, cy, size, _), p in zip(unread, chances[len(readings) :]):
        side = face or size
        if p < NET_ADD_SURE or any(
            math.hypot(cx + ox - r.center[0], cy + oy - r.center[1]) < TOUCHING[0] * side for r in out
        ):
            continue
        half = side / 2
        box = (round(cx - half) + ox, round(cy - half) + oy, max(1, round(side)), max(1, round(side)))
        out.append(
            DieReading(None, box, float(p), color_name(crop_face(image, cx, cy, side * CROP_SCALE), settings), True)
        )
    if NET_ONE_OF_TWO:
        # a cocked die leans on a flat one, whose crop shows it too: of two cocked calls against each other, the surer
        called = [i for i, r in enumerate(out) if r.cocked and (i >= len(readings) or not readings[i].cocked)]
        lose = {
            i
            for i in called
            for j in called
            if out[j].confidence > out[i].confidence
            and math.hypot(out[i].center[0] - out[j].center[0], out[i].center[1] - out[j].center[1])
            < TOUCHING[1] * (face or out[i].box[2])
        }
        out = [readings[i] if i in lose else r for i, r in enumerate(out) if i < len(readings) or i not in lose]
    return out


def _needed(score: float, settings: ReaderSettings) -> float:
    """The chance of its value a candidate with this finder peak needs to be kept: a faint peak (desk clutter,
    a tray's hole) ``faint_sure``, one under the finder's threshold (against another die) ``touch_sure``."""
    return max(
        settings.faint_sure if score < settings.faint_peak else 0.0,
        settings.touch_sure if score < settings.find_threshold else 0.0,
    )


def _retry_doubtful(
    image: np.ndarray, kept: Sequence[Candidate], probs: np.ndarray, settings: ReaderSettings
) -> tuple[np.ndarray, list[Candidate]]:
    """The reader's chances and the candidates, with every doubtful die looked at again: in crops
    ``RETRY_SCALES`` times as large (the finder's size is often off on a tilted or small face, and the crop
    then takes in a side face or cuts pips off), and in crops moved ``RETRY_SHIFT`` of its face each way (the
    finder's centre on one of two touching dice is often pulled towards the other).
    Doubtful: no value likely enough, or not as sure as its peak needs (a faint peak, one against another
    die), or "not a die" on a strong peak (a weak peak that is "not a die" is dust or the table, and each look
    costs about a millisecond). A look that reads a value for sure (not a logo, not "not a die"), more likely
    than the first look's best, replaces it, and a moved one moves the die; a moved look that would land on
    another candidate (as it stands then, moved or not) is not used. A die that looked more like a logo than a
    value is not looked at again, so a symbol face stays unsure, and nor is one that looked more like a cocked
    die (a look from one side could read its most-up face as a value)."""
    out, moved = np.array(probs), list(kept)
    best = out[:, :NOT_A_DIE].max(axis=1)
    logo = _chance(out, LOGO)
    cocked = _chance(out, COCKED_DIE)
    doubtful = [
        i
        for i in range(len(kept))
        if (
            best[i] < max(settings.unsure_below, _needed(kept[i][3], settings))
            or out[i, NOT_A_DIE] > settings.not_a_die_above
        )
        and logo[i] < best[i]
        and cocked[i] < best[i]
        and (kept[i][3] >= settings.strong_peak or out[i, NOT_A_DIE] <= settings.not_a_die_above)
    ]
    if not doubtful:
        return out, moved
    looks = [(k, 0.0, 0.0) for k in RETRY_SCALES] + [
        (1.0, dx * RETRY_SHIFT, dy * RETRY_SHIFT) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
    ]
    crops = [
        crop_face(image, kept[i][0] + dx * kept[i][2], kept[i][1] + dy * kept[i][2], kept[i][2] * CROP_SCALE * k)
        for i in doubtful
        for k, dx, dy in looks
    ]
    flat = classify(crops, settings.taught, looks=False)
    again = flat.reshape(len(doubtful), len(looks), -1)
    sure = _surely(flat, settings).reshape(len(doubtful), len(looks))
    for j, i in enumerate(doubtful):
        cx, cy, size, score = kept[i]
        for (_, dx, dy), look, look_sure in zip(looks, again[j], sure[j]):
            if not (look_sure and float(look[:NOT_A_DIE].max()) > float(out[i, :NOT_A_DIE].max())):
                continue
            x, y = cx + dx * size, cy + dy * size
            if (dx or dy) and any(
                math.hypot(x - k[0], y - k[1]) < TOUCHING[0] * k[2] for m, k in enumerate(moved) if m != i
            ):
                continue  # it would land on another die (where it is now, moved or not)
            out[i] = look
            moved[i] = (x, y, size, score)
    return out, moved


def read_dice(frame_bgr: np.ndarray, settings: ReaderSettings | None = None) -> list[DieReading]:
    """Every die in the frame (or in ``settings.region``), left to right then top to bottom."""
    return read_frame(frame_bgr, settings).dice


def reader_outputs(crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The reader network on CROP x CROP crops: (features, chances of its classes). The features are the
    pooled ones its last layer sees, then the same pooled over the four overlapping quarters of the crop
    (where on the face the pips are)."""
    nets = networks()
    nets.read.setInput(cv2.dnn.blobFromImages(list(crops), 1 / 255.0))
    outs = nets.read.forward(nets.read_outputs)
    if len(outs) < 3:
        probs = np.asarray(outs[-1]).reshape(len(crops), -1)
        return probs, probs
    pooled, probs, grid = (np.asarray(o) for o in outs)
    n = len(crops)
    g = grid.shape[-1]
    half = (g + 1) // 2
    quarters = [grid[:, :, y : y + half, x : x + half].mean(axis=(2, 3)) for y in (0, g - half) for x in (0, g - half)]
    return np.concatenate([pooled.reshape(n, -1), *quarters], axis=1), probs.reshape(n, -1)


def dihedral(crop: np.ndarray, k: int) -> np.ndarray:
    """The crop turned by ``k % 4`` quarter turns, mirrored when ``k >= 4``: a die face seen so shows the same
    value (its pips' layout is mirror-symmetric up to a turn)."""
    out = np.rot90(crop, k % 4)
    return np.ascontiguousarray(out[:, ::-1] if k >= 4 else out)


def classify(
    crops: Sequence[np.ndarray], taught: Any = None, looks: bool = True, features: list[np.ndarray] | None = None
) -> np.ndarray:
    """The chance of each class for each crop: the shipped reader's, or the taught reader's.

    With ``looks``, the taught reader looks again at every crop it is not sure of (no class at ``TAUGHT_SURE``
    or more): in the seven other turns and mirror images of the crop, and the eight looks' chances are averaged
    (a small network does not see a face exactly alike in every turn, and the average is steadier). The crops'
    features (``reader_outputs``) are appended to ``features`` when it is given."""
    feats, probs = reader_outputs(crops)
    if features is not None:
        features.append(feats)
    if taught is None:
        return probs
    out = np.array(taught.probs(feats, probs))
    doubtful: list[int] = [int(i) for i in np.flatnonzero(out.max(axis=1) < TAUGHT_SURE)] if looks else []
    if doubtful:
        views = [dihedral(crops[i], k) for k in range(1, 8) for i in doubtful]
        more_feats, more_probs = reader_outputs(views)
        more = np.asarray(taught.probs(more_feats, more_probs)).reshape(7, len(doubtful), -1)
        out[doubtful] = (out[doubtful] + more.sum(axis=0)) / 8
    return out


# ---------------------------------------------------------------- colour

HUE_NAMES = (  # OpenCV hue 0-180: upper bound, name
    (7, "red"),
    (18, "orange"),
    (33, "yellow"),
    (85, "green"),
    (100, "teal"),
    (128, "blue"),
    (155, "purple"),
    (170, "pink"),
    (181, "red"),
)


def face_lab(patch: np.ndarray) -> tuple[float, float, float]:
    """Median Lab colour of the middle of a crop (the face; pips are the minority)."""
    m = CROP // 4
    middle = patch[m : CROP - m, m : CROP - m]
    lab = cv2.cvtColor(middle, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    med = pixel_median(lab)
    return float(med[0]), float(med[1]), float(med[2])


def generic_color(patch: np.ndarray) -> str:
    """A plain colour name from the face's median colour."""
    m = CROP // 4
    middle = patch[m : CROP - m, m : CROP - m]
    hsv = cv2.cvtColor(middle, cv2.COLOR_BGR2HSV).reshape(-1, 3)
    hue_s_v = pixel_median(hsv)
    s, v = float(hue_s_v[1]), float(hue_s_v[2])
    if s < 50 or v < 45:
        if v < 70:
            return "black"
        return "white" if v > 150 else "grey"
    # hue is circular: take the hue of the median BGR colour instead of the median hue
    bgr = pixel_median(middle.reshape(-1, 3)).astype(np.uint8)[None, None, :]
    hue = int(cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)[0, 0, 0])
    for bound, name in HUE_NAMES:
        if hue < bound:
            if name == "orange" and v < 120:
                return "brown"
            if name == "yellow" and s < 140 and v < 170:
                return "gold"
            return name
    return "red"


def color_name(patch: np.ndarray, settings: ReaderSettings) -> str:
    if settings.colors:
        lab = np.array(face_lab(patch))
        name, dist = min(
            ((n, float(np.linalg.norm(lab - np.array(ref)))) for n, ref in settings.colors.items()), key=lambda t: t[1]
        )
        if dist <= settings.color_distance:
            return name
    return generic_color(patch)


# ---------------------------------------------------------------- drawing


def annotate(frame_bgr: np.ndarray, readings: Sequence[DieReading], region: Box | None = None) -> np.ndarray:
    """A copy of the frame with each reading drawn: green box and value, orange "?" when unsure."""
    out = check_frame(frame_bgr).copy()
    if region is not None:
        x, y, w, h = region
        cv2.rectangle(out, (x, y), (x + w, y + h), (255, 200, 0), 1)
    thick = max(1, round(max(out.shape[:2]) / 500))
    for r in readings:
        x, y, w, h = r.box
        colour = (0, 200, 0) if r.value is not None else (0, 140, 255)
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, thick)
        text = "cocked" if r.cocked else str(r.value) if r.value is not None else "?"
        cv2.putText(out, text, (x, max(12, y - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * thick + 0.1, colour, thick)
    return out
