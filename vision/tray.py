"""The dice tray: notice when the dice have settled, read them once; set up the tray.

``TrayWatcher`` is fed frames (``feed(frame)``, or ``run(camera)``) and compares each with
the one before inside the tray region. While the dice roll the frames differ; once the
difference stays below ``motion_threshold`` for ``still_frames`` frames and at least
``settle_seconds`` (by the injected clock), the watcher reads the dice once and calls
``when_settled(readings)``. It does not read again until something moves in the tray. An empty tray is
reported (``when_settled([])``) only when the rest before had dice: they were taken out, and the page's tray
card says the tray is empty instead of showing them; an empty tray at start is not reported.

``calibrate(empty, dice)`` finds the tray region in a photo of the empty tray, and the
colour references and the face size of the dice in a second photo, for ``companion dice calibrate``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from companion.errors import CameraError, VisionError
from vision.nets import FIND_SIZE
from vision.reader import CLOSER_FRAMES, FACE_TARGET, Box, DieReading, ReaderSettings, annotate, check_frame, read_dice

WATCH_WIDTH = 160  # frames are compared at this width: fast, and blind to sensor noise


class TrayWatcher:
    """Watches frames of the tray and reads the dice once each time they come to rest."""

    def __init__(
        self,
        settings: ReaderSettings | None = None,
        *,
        when_settled: Callable[[list[DieReading]], None] | None = None,
        now: Callable[[], float] = time.monotonic,
        still_frames: int = 5,
        settle_seconds: float = 0.5,
        motion_threshold: float = 0.004,
        pixel_threshold: int = 20,
        reader: Callable[[np.ndarray, ReaderSettings], list[DieReading]] = read_dice,
    ) -> None:
        self.settings = settings or ReaderSettings()
        self.when_settled = when_settled
        self.now = now
        self.still_frames = still_frames
        self.settle_seconds = settle_seconds
        self.motion_threshold = motion_threshold
        self.pixel_threshold = pixel_threshold
        self._reader = reader
        self._previous: np.ndarray | None = None
        self._still_count = 0
        self._still_since: float | None = None
        self._read_this_rest = False
        self._had_dice = False  # the last rest reported had dice: an empty tray after it is reported too
        self.last_motion = 0.0
        self.last_readings: list[DieReading] | None = None
        self.last_frame: np.ndarray | None = None
        self.reads = 0
        self._lock = threading.Lock()
        # The last JPEG made and what it was made from: every phone asks for the same photo of a rest.
        self._jpeg: tuple[np.ndarray, list[DieReading], ReaderSettings, int, bytes | None] | None = None

    # -- state
    @property
    def is_moving(self) -> bool:
        return self._still_count == 0

    @property
    def is_settled(self) -> bool:
        return self._read_this_rest

    def _small(self, frame: np.ndarray) -> np.ndarray:
        region = self.settings.region
        if region is not None:
            x, y, w, h = region
            frame = frame[y : y + h, x : x + w]
        h, w = frame.shape[:2]
        scale = WATCH_WIDTH / w
        small = cv2.resize(frame, (WATCH_WIDTH, max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
        gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        return cv2.GaussianBlur(gray, (5, 5), 0)

    def motion(self, frame: np.ndarray) -> float:
        """Share of the tray's pixels that changed since the frame before (1.0 for the first)."""
        small = self._small(frame)
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            return 1.0
        changed = cv2.absdiff(previous, small) > self.pixel_threshold
        return float(np.count_nonzero(changed)) / changed.size

    def feed(self, frame: np.ndarray) -> list[DieReading] | None:
        """Look at one frame; the readings when this frame settled the dice, else None."""
        frame = check_frame(frame)
        with self._lock:
            moved = self.motion(frame) > self.motion_threshold
            t = self.now()
            if moved:
                self._still_count = 0
                self._still_since = None
                self._read_this_rest = False
                self.last_motion = t
                return None
            self._still_count += 1
            if self._still_since is None:
                self._still_since = t
            if self._read_this_rest:
                return None
            if self._still_count < self.still_frames or t - self._still_since < self.settle_seconds:
                return None
            self._read_this_rest = True
            readings = self._reader(frame, self.settings)
            self.reads += 1
            self.last_readings = readings
            self.last_frame = frame
            report, self._had_dice = bool(readings) or self._had_dice, bool(readings)
        if self.when_settled is not None and report:
            self.when_settled(readings)
        return readings

    def annotated(self) -> np.ndarray | None:
        """The last frame read, with its readings drawn (None before the first reading)."""
        if self.last_frame is None or self.last_readings is None:
            return None
        return annotate(self.last_frame, self.last_readings, self.settings.region)

    def annotated_jpeg(self, quality: int = 80) -> bytes | None:
        """`annotated()` as JPEG bytes; made once per reading and kept, since the page asks for it again and again."""
        frame, readings = self.last_frame, self.last_readings
        if frame is None or readings is None:
            return None
        settings, cached = self.settings, self._jpeg
        if (
            cached is not None
            and cached[0] is frame
            and cached[1] is readings
            and cached[2] is settings
            and cached[3] == quality
        ):
            return cached[4]
        ok, data = cv2.imencode(".jpg", annotate(frame, readings, settings.region), [cv2.IMWRITE_JPEG_QUALITY, quality])
        jpeg = data.tobytes() if ok else None
        self._jpeg = (frame, readings, settings, quality, jpeg)
        return jpeg

    def run(
        self,
        camera: Any,
        stop: Callable[[], bool],
        sleep: Callable[[float], None] = time.sleep,
        interval: float = 0.1,
        when_error: Callable[[CameraError], None] | None = None,
    ) -> None:
        """Feed frames from ``camera`` until ``stop()``; a camera error ends the loop (reported)."""
        while not stop():
            try:
                frame = camera.read()
            except CameraError as exc:
                if when_error is not None:
                    when_error(exc)
                return
            self.feed(frame)
            sleep(interval)


# ---------------------------------------------------------------- calibration


def find_tray(empty_bgr: np.ndarray) -> Box:
    """The tray's floor in a photo of the empty tray: the even area around the middle.

    Grows a region from the centre over neighbours of nearly the same colour (so a slow
    change of light across the floor is followed) and takes its bounding box.
    """
    image = check_frame(empty_bgr)
    h, w = image.shape[:2]
    scale = 320 / max(h, w)
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    sh, sw = small.shape[:2]
    mask = np.zeros((sh + 2, sw + 2), np.uint8)
    seed = (sw // 2, sh // 2)
    flags = 4 | cv2.FLOODFILL_MASK_ONLY | (255 << 8)
    cv2.floodFill(small, mask, seed, (0, 0, 0), (3, 3, 3), (3, 3, 3), flags)
    floor = mask[1:-1, 1:-1]
    floor = cv2.morphologyEx(floor, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    count = int(np.count_nonzero(floor))
    if count < 0.08 * sh * sw:
        raise VisionError(
            "cannot find the tray in the empty-tray photo (its middle is not an even floor); "
            "give the region by hand with --region x,y,w,h."
        )
    x, y, bw, bh = cv2.boundingRect(floor)
    inv = 1 / scale
    box = (round(x * inv), round(y * inv), round(bw * inv), round(bh * inv))
    return (box[0], box[1], min(box[2], w - box[0]), min(box[3], h - box[1]))


@dataclass(frozen=True)
class Calibration:
    region: Box
    colors: dict[str, tuple[float, float, float]]
    dice_seen: int
    face_size: float | None = None  # median top face of the dice seen, in pixels of the frame
    flat_ratio: float | None = None  # how round the pips of its flat dice look (vision.reader.pip_roundness)

    def to_table(self) -> dict[str, Any]:
        table: dict[str, Any] = {
            "region": list(self.region),
            "colors": {name: [round(v, 1) for v in lab] for name, lab in sorted(self.colors.items())},
        }
        if self.face_size is not None:
            table["face_size"] = round(self.face_size, 1)
        if self.flat_ratio is not None:
            table["flat_ratio"] = round(self.flat_ratio, 3)
        return table


def face_size(readings: Sequence[DieReading]) -> float | None:
    """The median top face of the dice read for sure (all of them when none is sure), in pixels."""
    sure = [r for r in readings if r.value is not None] or list(readings)
    return float(np.median([(r.box[2] + r.box[3]) / 2 for r in sure])) if sure else None


# The finder's size head is flat for faces far under its size: on the rendered Raspberry Pi trays (faces 60-90 pixels
# in 1640-pixel frames, 120-240 in 3280) faces of 10 to 16 pixels in its input all measure about 22-25, and it
# measures within a tenth only from about 32 pixels up (on the real phone photos it is right from 14 to 32 and
# measures less past that). So on a frame the coarse pass shrinks to CLOSER_FRAMES of its side or less, calibration
# measures the faces again at the scale that brings the size just measured to SIZE_LOOK pixels, until a look
# measures at least SIZE_HOLDS of the size before it (at most SIZE_LOOKS looks); the last look's size is kept.
SIZE_LOOK = 32.0
SIZE_HOLDS = 0.9
SIZE_LOOKS = 4


def measured_dice(frame: np.ndarray, settings: ReaderSettings) -> list[DieReading]:
    """The dice of the calibration photo, read at the scale that measures their faces right: the automatic two
    passes, then (on a large frame) looks closer while the face size measured keeps shrinking."""
    readings = read_dice(frame, settings)
    size = face_size(readings)
    side = max(frame.shape[:2]) if settings.region is None else max(settings.region[2:])
    if size is None or FIND_SIZE / side > CLOSER_FRAMES:
        return readings
    for _ in range(SIZE_LOOKS):
        closer = read_dice(frame, replace(settings, face_size=size * FACE_TARGET / SIZE_LOOK))
        again = face_size(closer)
        if again is None:
            break
        readings, holds, size = closer, again >= SIZE_HOLDS * size, again
        if holds:
            break
    return readings


def _references(
    dice_bgr: np.ndarray, settings: ReaderSettings
) -> tuple[dict[str, tuple[float, float, float]], list[DieReading]]:
    from vision.reader import CROP_SCALE, crop_face, face_lab, generic_color

    frame = check_frame(dice_bgr)
    plain = replace(settings, colors={})
    readings = measured_dice(frame, plain)
    groups: dict[str, list[tuple[float, float, float]]] = {}
    for r in readings:
        x, y, w, h = r.box
        patch = crop_face(frame, x + w / 2, y + h / 2, w * CROP_SCALE)
        groups.setdefault(generic_color(patch), []).append(face_lab(patch))
    refs = {name: tuple(float(v) for v in np.mean(np.array(labs), axis=0)) for name, labs in groups.items()}
    return {k: (v[0], v[1], v[2]) for k, v in refs.items()}, readings


def calibrate(empty_bgr: np.ndarray | None, dice_bgr: np.ndarray, region: Box | None = None) -> Calibration:
    """The tray region (given, or found in the empty photo) and the dice's colour references."""
    frame = check_frame(dice_bgr)
    if region is None:
        if empty_bgr is None:
            raise VisionError("give a photo of the empty tray (--empty) or the region (--region x,y,w,h).")
        region = find_tray(empty_bgr)
    x, y, w, h = region
    if x < 0 or y < 0 or w < 8 or h < 8 or x + w > frame.shape[1] or y + h > frame.shape[0]:
        raise VisionError(f"the tray region {region} does not fit in the {frame.shape[1]}x{frame.shape[0]} photo.")
    # the faces are measured here (``measured_dice``); the size found is saved so that every later reading is
    # scaled for it in one pass
    colors, readings = _references(frame, ReaderSettings(region=region))
    if not readings:
        raise VisionError(
            "no dice found in the dice photo; put a few dice of each colour in the tray, "
            "take the photo again from the camera's place, and retry."
        )
    return Calibration(region, colors, len(readings), face_size(readings), flat_ratio(frame, readings))


def flat_ratio(frame: np.ndarray, readings: Sequence[DieReading]) -> float | None:
    """How round the pips of the calibration photo's dice look (they lie flat): the median of
    ``vision.reader.pip_roundness`` over the dice read for sure, None when no pip is measured."""
    from vision.reader import pip_roundness

    ratios = [pip_roundness(frame, *r.center, r.box[2]) for r in readings if r.value is not None]
    known = [v for v in ratios if v is not None]
    return float(np.median(known)) if known else None


def parse_region(text: str) -> Box:
    parts = text.replace(" ", "").split(",")
    try:
        values = [int(p) for p in parts]
    except ValueError:
        values = []
    if len(values) != 4 or any(v < 0 for v in values) or values[2] < 8 or values[3] < 8:
        raise VisionError(f"--region expects x,y,w,h in whole pixels (w and h at least 8), got {text!r}.")
    return (values[0], values[1], values[2], values[3])


def readings_summary(readings: Sequence[DieReading]) -> str:
    return ", ".join(r.text for r in readings) or "no dice"
