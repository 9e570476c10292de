"""The tray watcher (settling) and tray calibration (issue 4), on synthetic frames and the samples."""

from __future__ import annotations

import tomllib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import CameraError, VisionError
from vision import DieReading, ReaderSettings, read_dice
from vision.camera import ReplayCamera, sample_paths
from vision.cli import main as dice_main
from vision.tray import TrayWatcher, calibrate, find_tray, parse_region


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def now(self) -> float:
        return self.t


def tray_frame(die_at: tuple[int, int] | None) -> np.ndarray:
    """A grey tray floor with one dark square "die" (or none)."""
    frame = np.full((240, 320, 3), 180, np.uint8)
    cv2.rectangle(frame, (0, 0), (319, 239), (40, 40, 40), 12)
    if die_at is not None:
        x, y = die_at
        cv2.rectangle(frame, (x, y), (x + 24, y + 24), (30, 30, 160), -1)
    return frame


class SpyReader:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, frame: np.ndarray, settings: ReaderSettings) -> list[DieReading]:
        self.calls += 1
        return [DieReading(4, (1, 2, 3, 4), 0.99, "red")]


def test_reads_once_when_the_dice_settle_and_not_again() -> None:
    clock, spy, seen = Clock(), SpyReader(), []
    watcher = TrayWatcher(when_settled=seen.append, now=clock.now, still_frames=3, settle_seconds=0.3, reader=spy)
    results = []
    for i in range(6):  # rolling: the die moves every frame
        clock.t += 0.1
        results.append(watcher.feed(tray_frame((40 + 25 * i, 60 + 10 * i))))
        assert watcher.is_moving or i == 0
    assert results == [None] * 6 and spy.calls == 0
    for _ in range(12):  # at rest
        clock.t += 0.1
        results.append(watcher.feed(tray_frame((190, 110))))
    assert spy.calls == 1
    assert len(seen) == 1 and seen[0][0].value == 4
    assert sum(r is not None for r in results) == 1
    assert watcher.is_settled and watcher.reads == 1


def test_settling_needs_the_clock_as_well_as_still_frames() -> None:
    clock, spy = Clock(), SpyReader()
    watcher = TrayWatcher(now=clock.now, still_frames=2, settle_seconds=1.0, reader=spy)
    watcher.feed(tray_frame((10, 10)))
    for _ in range(10):  # many still frames, but only 0.05 s apart
        clock.t += 0.05
        watcher.feed(tray_frame((10, 10)))
    assert spy.calls == 0
    clock.t += 1.0
    watcher.feed(tray_frame((10, 10)))
    assert spy.calls == 1


def test_a_new_roll_after_motion_is_read_again() -> None:
    clock, spy = Clock(), SpyReader()
    watcher = TrayWatcher(now=clock.now, still_frames=2, settle_seconds=0.0, reader=spy)
    for position in [(20, 20)] * 4 + [(60, 40), (120, 80)] + [(150, 100)] * 4:
        clock.t += 0.1
        watcher.feed(tray_frame(position))
    assert spy.calls == 2


def test_motion_outside_the_tray_region_is_ignored() -> None:
    clock, spy = Clock(), SpyReader()
    settings = ReaderSettings(region=(160, 0, 160, 240))  # the right half only
    watcher = TrayWatcher(settings, now=clock.now, still_frames=2, settle_seconds=0.0, reader=spy)
    for i in range(8):  # a hand moves on the left half; the tray is still
        clock.t += 0.1
        frame = tray_frame((200, 100))
        cv2.circle(frame, (20 + 12 * i, 120), 15, (0, 0, 0), -1)
        watcher.feed(frame)
    assert spy.calls == 1


def test_empty_tray_is_not_reported() -> None:
    clock, seen = Clock(), []
    watcher = TrayWatcher(
        when_settled=seen.append, now=clock.now, still_frames=2, settle_seconds=0.0, reader=lambda frame, settings: []
    )
    for _ in range(5):
        clock.t += 0.1
        watcher.feed(tray_frame(None))
    assert watcher.reads == 1 and seen == []


def test_an_empty_tray_is_reported_once_the_dice_are_taken_out() -> None:
    """Dice at rest, then taken out: the empty tray is reported (the page's tray card says it is empty), once."""
    clock, seen = Clock(), []
    die = DieReading(4, (100, 100, 24, 24), 0.99, "red")
    watcher = TrayWatcher(
        when_settled=seen.append,
        now=clock.now,
        still_frames=2,
        settle_seconds=0.0,
        reader=lambda frame, settings: [die] if frame.min() < 40 else [],  # the die's dark red square
    )
    for frame in [tray_frame((100, 100))] * 5 + [tray_frame(None)] * 5 + [tray_frame(None)] * 3:
        clock.t += 0.1
        watcher.feed(frame)
    assert watcher.reads == 2 and seen == [[die], []]


def test_watcher_reads_real_dice_from_the_replay_camera() -> None:
    """Replay of the bundled photos: each photo held still reads once with the real reader."""
    clock, seen = Clock(), []
    watcher = TrayWatcher(when_settled=seen.append, now=clock.now, still_frames=3, settle_seconds=0.0)
    samples = sample_paths()[:2]
    camera = ReplayCamera(samples, repeat=6, loop=False)

    def tick(seconds: float) -> None:
        clock.t += seconds

    errors: list[CameraError] = []
    watcher.run(camera, stop=lambda: False, sleep=tick, interval=0.1, when_error=errors.append)
    assert len(errors) == 1  # the replay ended, like an unplugged camera
    assert watcher.reads == 2
    assert [len(r) for r in seen] == [len(read_dice(cv2.imread(str(p)))) for p in samples]
    assert watcher.annotated_jpeg() is not None


def test_the_annotated_jpeg_is_made_once_per_reading() -> None:
    """The page asks for the photo of a rest again and again; a new reading makes a new photo."""
    watcher = TrayWatcher()
    assert watcher.annotated_jpeg() is None
    frame = tray_frame((100, 100))
    first = [DieReading(box=(100, 100, 25, 25), value=3, color="red", confidence=0.9)]
    watcher.last_frame, watcher.last_readings = frame, first
    jpeg = watcher.annotated_jpeg()
    assert jpeg is not None and jpeg.startswith(b"\xff\xd8")
    assert watcher.annotated_jpeg() is jpeg  # kept, not encoded again
    assert cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).shape == frame.shape
    second = [DieReading(box=(100, 100, 25, 25), value=5, color="red", confidence=0.9)]
    watcher.last_readings = second
    again = watcher.annotated_jpeg()
    assert again is not None and again is not jpeg and again != jpeg  # the new value is drawn
    assert watcher.annotated_jpeg(quality=50) != again


# ---------------------------------------------------------------- calibration


def empty_tray_photo() -> np.ndarray:
    """A dark table with a lighter tray floor (lit unevenly) at a known place."""
    frame = np.full((480, 640, 3), 35, np.uint8)
    floor = np.full((300, 400, 3), 170, np.uint8)
    floor = floor + np.linspace(0, 30, 400, dtype=np.uint8)[None, :, None]
    frame[100:400, 150:550] = floor
    return frame


def test_find_tray_in_the_empty_photo() -> None:
    x, y, w, h = find_tray(empty_tray_photo())
    assert abs(x - 150) <= 6 and abs(y - 100) <= 6
    assert abs(w - 400) <= 12 and abs(h - 300) <= 12


def test_find_tray_refuses_a_photo_without_a_floor() -> None:
    noise = np.random.default_rng(3).integers(0, 255, (240, 320, 3), dtype=np.uint8)
    with pytest.raises(VisionError, match="--region"):
        find_tray(noise)


def test_parse_region() -> None:
    assert parse_region("10, 20,300,200") == (10, 20, 300, 200)
    for bad in ("10,20,300", "a,b,c,d", "0,0,4,4", "-1,0,100,100"):
        with pytest.raises(VisionError, match="x,y,w,h"):
            parse_region(bad)


def test_calibrate_saves_region_and_colours(tmp_path: Path) -> None:
    sample = sample_paths()[0]
    dice = cv2.imread(str(sample))
    h, w = dice.shape[:2]
    config = tmp_path / "config.toml"
    config.write_text("# my table\n[web]\nport = 8080\n", encoding="utf-8")
    code = dice_main(["calibrate", "--dice", str(sample), "--region", f"0,0,{w},{h}", "--config", str(config)])
    assert code == 0
    text = config.read_text(encoding="utf-8")
    assert "# my table" in text
    data = tomllib.loads(text)
    assert data["web"]["port"] == 8080
    assert data["tray"]["region"] == [0, 0, w, h]
    readings = read_dice(dice)
    assert set(data["tray"]["colors"]) == {r.color for r in readings}
    # the saved table is accepted by the reader; reading with it uses the table's names, and the
    # references (means per name) give most dice the name they were measured under
    settings = ReaderSettings.from_config(data["tray"])
    named = read_dice(dice, settings)
    assert {r.color for r in named} <= set(data["tray"]["colors"])
    # (the saved face size makes the reader look once at its own scale: pair the dice by their centres)
    assert data["tray"]["face_size"] > 0 and settings.face_size == data["tray"]["face_size"]
    assert len(named) >= len(readings)  # at the calibrated size, a die the two passes missed may be found too
    same = sum(
        a.color == min(readings, key=lambda b: abs(a.center[0] - b.center[0]) + abs(a.center[1] - b.center[1])).color
        for a in named
    )
    assert same >= 0.75 * len(readings)


def test_calibrate_from_an_empty_tray_photo(tmp_path: Path) -> None:
    empty = empty_tray_photo()
    dice = empty.copy()
    sample = cv2.imread(str(sample_paths()[0]))
    patch = cv2.resize(sample, (300, 300))
    dice[100:400, 150:450] = patch
    result = calibrate(empty, dice)
    assert abs(result.region[0] - 150) <= 6 and abs(result.region[1] - 100) <= 6
    assert result.dice_seen > 0


def test_calibrate_without_dice_says_what_to_do(tmp_path: Path) -> None:
    empty = empty_tray_photo()
    with pytest.raises(VisionError, match="no dice found"):
        calibrate(empty, empty)
    config = tmp_path / "c.toml"
    path = tmp_path / "empty.png"
    cv2.imwrite(str(path), empty)
    code = dice_main(["calibrate", "--empty", str(path), "--dice", str(path), "--config", str(config)])
    assert code == 1 and not config.exists()
