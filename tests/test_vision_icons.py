"""Teaching the reader by the game's icons (issue 26): labels name Skeptics' or Elder Sign's faces, and the taught
reader's reading becomes that game's roll, on rendered icon dice (vision/training/synth.py draws the icons)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from companion.errors import VisionError
from companion.games.base import module_for
from companion.games.skeptics.dice import DieKind, Face
from companion.games.skeptics.roll import to_roll
from vision.dataset import Label
from vision.reader import ReaderSettings, read_dice
from vision.sim_tray import DIE_PAINT
from vision.teach import read_icon_labels, teach
from vision.training.synth import Style, render_scene

TRAY = Style(
    width=(960, 960),
    aspect=(0.75, 0.75),
    face=(66.0, 76.0),
    backgrounds=("white",),
    tilt=(0.0, 8.0),
    cluster=0.0,
    spacing=1.6,
    lean=0.0,
    glare=0.0,
    motion_blur=0.0,
    perspective=0.0,
    marble=0.0,
)
DICE = {
    "clue": ("blue", ("eye", "camera", "cobweb")),
    "key": ("green", ("key", "key:blank")),
    "summon": ("red", ("summon", "summon:blank")),
}


def icon_photo(seed: int) -> tuple[np.ndarray, list[tuple[str, str]], tuple[Label, ...]]:
    """A tray of Skeptics' icon dice: the photo, each die's (kind, icon label) and the labels in pips."""
    rng = np.random.default_rng(seed)
    kinds = [str(k) for k in rng.choice(list(DICE), size=int(rng.integers(3, 7)))]
    faces = [str(rng.choice(DICE[k][1])) for k in kinds]
    image, dice = render_scene(rng, TRAY, [DIE_PAINT[DICE[k][0]] for k in kinds], [f.split(":")[-1] for f in faces])
    pips = module_for("skeptics").icon_pips
    assert pips is not None
    shown = [(kinds[d.index], faces[d.index]) for d in dice]
    return image, shown, tuple(Label(pips(faces[d.index]), d.box) for d in dice)


def faces_read(readings: list, taught: object) -> Counter[tuple[DieKind, Face]]:
    roll = to_roll(readings, {"blue": "clue", "green": "key", "red": "summon"})
    return Counter((kind, face) for kind, faces in roll.items() for face in faces)


def test_a_reader_taught_by_icon_labels_reads_rendered_icon_dice_as_the_games_faces() -> None:
    photos = [icon_photo(seed) for seed in range(100, 111)]
    taught = teach([(image, labels) for image, _, labels in photos[:5]])
    right = total = untaught_right = 0
    for image, shown, _ in photos[5:]:
        want = Counter((DieKind.parse(k), Face(f.split(":")[-1])) for k, f in shown)
        total += sum(want.values())
        for settings, count in ((ReaderSettings(taught=taught), "taught"), (ReaderSettings(), "untaught")):
            readings = read_dice(image, settings)
            try:
                got = faces_read(readings, settings.taught)
            except VisionError:
                continue  # an unsure die: no roll
            hits = sum((got & want).values())
            if count == "taught":
                right += hits
            else:
                untaught_right += hits
    assert total >= 20
    assert right >= 0.9 * total, (right, total)
    assert untaught_right < right  # the shipped reader does not know the icons


def test_icon_labels_are_read_by_the_games_pip_map_and_a_wrong_one_names_its_line(tmp_path: Path) -> None:
    labels = tmp_path / "a.txt"
    labels.write_text("eye 0.5 0.5 0.1 0.1\nkey:blank 0.2 0.2 0.1 0.1\n3 0.8 0.8 0.1 0.1\n", encoding="utf-8")
    pips = module_for("skeptics").icon_pips
    read = read_icon_labels(labels, 100, 100, pips)
    assert [label.value for label in read] == [1, 1, 4]  # eye and key:blank are pips 1 by the default map; class 3 is 4
    elder = module_for("elder-sign").icon_pips
    labels.write_text("yellow:lore 0.5 0.5 0.1 0.1\nperil 0.5 0.5 0.1 0.1\n", encoding="utf-8")
    with pytest.raises(VisionError, match=r"a.txt:2: say which die shows peril"):
        read_icon_labels(labels, 100, 100, elder)
    with pytest.raises(VisionError, match="--game"):
        read_icon_labels(labels, 100, 100, None)
