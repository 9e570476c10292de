"""The dice reader (issue 4) on bundled held-out photos, and its edges: bad frames, regions,
unsure dice (a logo instead of pips), colour to kind through the pip map."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import CompanionError, ConfigError, VisionError
from companion.games.skeptics.dice import DieKind, Face, PipMap
from companion.games.skeptics.roll import to_roll
from vision import DieReading, ReaderSettings, read_dice
from vision.camera import sample_paths
from vision.dataset import Score, is_held_out, read_labels, score_photo
from vision.reader import pixel_median

# The reader reads 58 of these 60 dice right (none of the photos was used in training: one
# die wrong, one missed); the bar is one die under that.
ACCURACY_BAR = 0.95


def labelled_samples() -> list[tuple[Path, np.ndarray]]:
    return [(p, cv2.imread(str(p))) for p in sample_paths()]


def test_samples_are_held_out_photos_with_labels() -> None:
    samples = sample_paths()
    assert 4 <= len(samples) <= 6
    for path in samples:
        assert is_held_out(path.name), f"{path.name} was used in training"
        assert path.with_suffix(".txt").is_file()
    assert (samples[0].parent / "LICENSE").is_file()


def test_accuracy_on_held_out_samples() -> None:
    total = Score()
    for path, image in labelled_samples():
        labels = read_labels(path.with_suffix(".txt"), image.shape[1], image.shape[0])
        readings = read_dice(image)
        total.add(score_photo([(r.value, r.box) for r in readings], labels))
    assert total.dice >= 20
    assert total.accuracy >= ACCURACY_BAR, total
    assert total.wrong <= 2 and total.false_positives <= 1, total


def test_readings_are_well_formed() -> None:
    path, image = labelled_samples()[0]
    readings = read_dice(image)
    h, w = image.shape[:2]
    for r in readings:
        assert isinstance(r, DieReading)
        x, y, bw, bh = r.box
        assert 0 <= x + bw / 2 <= w and 0 <= y + bh / 2 <= h and bw > 0 and bh > 0
        assert 0.0 <= r.confidence <= 1.0
        assert r.value is None or 1 <= r.value <= 6
        assert r.color
    # the function is pure: same frame, same answer; the frame is not changed
    before = image.copy()
    assert read_dice(image) == readings
    assert np.array_equal(image, before)


def test_empty_tray_gives_no_dice() -> None:
    floor = np.full((480, 640, 3), (170, 175, 180), np.uint8)
    floor = cv2.add(floor, np.random.default_rng(1).integers(0, 6, floor.shape, dtype=np.uint8))
    assert read_dice(floor) == []


def test_region_limits_the_search_and_boxes_stay_in_frame_pixels() -> None:
    _, image = labelled_samples()[0]
    h, w = image.shape[:2]
    framed = cv2.copyMakeBorder(image, 40, 0, 70, 0, cv2.BORDER_CONSTANT, value=(0, 0, 0))
    plain = read_dice(image)
    inside = read_dice(framed, ReaderSettings(region=(70, 40, w, h)))
    assert plain
    shifted = sorted((r.box[0] - 70, r.box[1] - 40, r.box[2], r.box[3], r.value) for r in inside)
    assert shifted == sorted((*r.box, r.value) for r in plain)
    with pytest.raises(VisionError, match="outside"):
        read_dice(image, ReaderSettings(region=(w + 10, 0, 50, 50)))


def test_grey_and_bgra_frames_are_accepted() -> None:
    _, image = labelled_samples()[0]
    assert len(read_dice(cv2.cvtColor(image, cv2.COLOR_BGR2BGRA))) == len(read_dice(image))
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert all(r.color in ("white", "grey", "black") for r in read_dice(grey))


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        (None, "numpy array"),
        (np.zeros((100, 100, 3), np.float32), "8-bit"),
        (np.zeros((100, 100, 2), np.uint8), "colour image"),
        (np.zeros((8, 8, 3), np.uint8), "too small"),
    ],
)
def test_bad_frames_are_clear_errors(frame: object, message: str) -> None:
    with pytest.raises(VisionError, match=message):
        read_dice(frame)  # type: ignore[arg-type]


def with_logo(image: np.ndarray, center: tuple[float, float], size: float, text: str) -> np.ndarray:
    """The photo with one die's pips covered in the die's own colour and a printed logo drawn instead."""
    out = image.copy()
    cx, cy = round(center[0]), round(center[1])
    r = round(0.4 * size)
    face = out[cy - r : cy + r, cx - r : cx + r].reshape(-1, 3)
    body = np.median(face, axis=0)
    ink = (240, 240, 240) if body.mean() < 110 else (20, 20, 20)
    cv2.circle(out, (cx, cy), r, tuple(float(v) for v in body), -1)
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, 1.0, 2)
    scale = 0.55 * size / max(tw, th)
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 2)
    cv2.putText(out, text, (cx - tw // 2, cy + th // 2), cv2.FONT_HERSHEY_DUPLEX, scale, ink, 2, cv2.LINE_AA)
    return out


# Letters with a ring in them (O, Q, G) are left out: the photos' own logo dice carry a ring around a
# dot on their 1 face, labelled 1, so a ring-shaped logo on a small die can read as 1 (docs/vision.md).
@pytest.mark.parametrize("text", ["SK", "T", "Z", "A", "X", "K"])
def test_a_logo_face_is_unsure_or_not_a_die_never_a_value(text: str) -> None:
    """Faces with a logo instead of pips come out unsure (value None), not wrong."""
    path, image = labelled_samples()[0]
    labels = read_labels(path.with_suffix(".txt"), image.shape[1], image.shape[0])
    before = read_dice(image)
    changed = 0
    for label in labels:
        if label.value < 4:
            continue
        size = (label.box[2] + label.box[3]) / 2
        edited = with_logo(image, label.center, size, text)
        lx, ly, lw, lh = label.box
        on_die = [r for r in read_dice(edited) if lx <= r.center[0] <= lx + lw and ly <= r.center[1] <= ly + lh]
        assert all(r.value is None for r in on_die), (label, on_die)
        changed += 1
    assert changed >= 5
    assert read_dice(image) == before


def test_unsure_threshold_turns_doubtful_dice_into_none() -> None:
    _, image = labelled_samples()[0]
    sure = read_dice(image)
    doubtful = read_dice(image, ReaderSettings(unsure_below=1.01))
    # the same dice come out unsure; only a weak peak that a second look had read for sure can go (nothing is
    # sure now, so that look cannot save it)
    assert all(r.value is None for r in doubtful) and {r.box for r in doubtful} <= {r.box for r in sure}
    assert len(doubtful) >= len(sure) - 2
    with pytest.raises(VisionError, match="could not be read for sure"):
        to_roll(doubtful, {r.color: "clue" for r in doubtful})


def reading(value: int | None, color: str, x: int = 0) -> DieReading:
    return DieReading(value, (x, 10, 30, 30), 0.99, color)


def test_to_roll_maps_colours_to_kinds_and_pips_to_faces() -> None:
    readings = [reading(1, "blue"), reading(4, "blue", 40), reading(6, "red", 80), reading(5, "green", 120)]
    roll = to_roll(readings, {"blue": "clue", "green": "key", "red": "summon"}, PipMap.default())
    pips = PipMap.default()
    assert roll == {
        DieKind.CLUE: (pips.face(DieKind.CLUE, 1), pips.face(DieKind.CLUE, 4)),
        DieKind.SUMMON: (pips.face(DieKind.SUMMON, 6),),
        DieKind.KEY: (pips.face(DieKind.KEY, 5),),
    }
    assert roll[DieKind.SUMMON] == (Face.SUMMON,)
    custom = PipMap.from_dict({"summon": {"summon": [1]}})
    assert to_roll([reading(1, "red")], {"red": "summon"}, custom) == {DieKind.SUMMON: (Face.SUMMON,)}


def test_to_roll_refuses_an_unmapped_colour() -> None:
    with pytest.raises(VisionError, match="purple") as info:
        to_roll([reading(3, "blue"), reading(2, "purple")], {"blue": "clue"})
    assert isinstance(info.value, CompanionError)
    assert str(info.value) == (  # in words: no "colour=kind", no table of the configuration file
        "no kind of die is set for purple dice (blue dice are clue dice): take them out of the tray, or give that "
        "colour a kind of die in the configuration file (the tray's dice kinds)."
    )
    with pytest.raises(VisionError) as info:
        to_roll([reading(2, "purple"), reading(3, "orange")], {})
    assert str(info.value).startswith(
        "no kind of die is set for orange and purple dice (no colour has a kind yet): take them out of the tray, "
        "or give those colours a kind of die"
    )
    with pytest.raises(CompanionError, match="unknown kind of die"):
        to_roll([reading(3, "blue")], {"blue": "wizard"})


def test_reader_settings_from_config() -> None:
    settings = ReaderSettings.from_config(
        {"region": [1, 2, 300, 200], "colors": {"blue": [80, 140, 90]}, "unsure_below": 0.9}
    )
    assert settings.region == (1, 2, 300, 200) and settings.unsure_below == 0.9
    assert settings.colors == {"blue": (80.0, 140.0, 90.0)}
    for table, key in (
        ({"region": [1, 2, 3]}, "tray.region"),
        ({"colors": {"x": [1, 2]}}, "tray.colors.x"),
        ({"unsure_below": "high"}, "tray.unsure_below"),
        ({"regoin": [0, 0, 9, 9]}, "tray.regoin"),
    ):
        with pytest.raises(ConfigError, match=key):
            ReaderSettings.from_config(table)


def test_calibrated_colour_references_rename_dice() -> None:
    _, image = labelled_samples()[0]
    plain = read_dice(image)
    names = {r.color for r in plain}
    # a reference far from every die changes nothing; one wide enough catches every die
    far = ReaderSettings(colors={"ultraviolet": (0.0, 0.0, 0.0)}, color_distance=5.0)
    assert {r.color for r in read_dice(image, far)} == names
    wide = ReaderSettings(colors={"house": (128.0, 128.0, 128.0)}, color_distance=500.0)
    assert {r.color for r in read_dice(image, wide)} == {"house"}


@pytest.mark.parametrize("n", [1, 2, 399, 400, 6400])
def test_pixel_median_is_numpys_median(n: int) -> None:
    # the colour of every die and the finder's padding use it in place of np.median: the same values, or the readings move
    rng = np.random.default_rng(n)
    for high in (4, 256):  # few distinct values (ties at the middle), and any
        pixels = rng.integers(0, high, (n, 3), dtype=np.uint8)
        got, want = pixel_median(pixels), np.median(pixels, axis=0)
        assert got.dtype == want.dtype
        assert np.array_equal(got, want)
