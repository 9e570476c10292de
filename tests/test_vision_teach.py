"""Teaching the reader a table's own dice (issue 12): symbol faces learned as the value they are taught,
the taught reader saved, loaded, used by `companion dice read --taught` and by the [tray] configuration,
and `companion dice teach --reset`; corrected readings kept as examples and taught from."""

from __future__ import annotations

import json
import math
import tomllib
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import ConfigError, VisionError
from vision.camera import sample_paths
from vision.cli import main as dice_main
from vision.dataset import Label, score_photo
from vision.reader import ReaderSettings, find_dice, read_dice
from vision.teach import (
    examples_dir,
    keep_example,
    load_examples,
    load_taught,
    save_taught,
    taught_path,
    teach,
    teach_folder,
)
from vision.training.synth import OTHER_TABLE, render_scene

# a small version of the benchmark's other table: blue dice with white pips, oblique, symbols on the six
TABLE = replace(OTHER_TABLE, width=(900, 1000), face=(50.0, 70.0), dice=(4, 8), symbol_share=0.3)


def table_photos(seed: int, count: int) -> list[tuple[np.ndarray, list[Label], list[bool]]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        image, dice = render_scene(rng, TABLE)
        out.append((image, [Label(d.value, d.box) for d in dice], [d.symbol for d in dice]))
    return out


@pytest.fixture(scope="module")
def taught_table() -> tuple[object, list[tuple[np.ndarray, list[Label], list[bool]]]]:
    teaching = table_photos(101, 5)
    return teach([(image, labels) for image, labels, _ in teaching]), table_photos(202, 6)


def symbol_reads(photos: list[tuple[np.ndarray, list[Label], list[bool]]], taught: object) -> tuple[int, int, int]:
    """(symbol faces, read as their value, read as another value)."""
    total = right = wrong = 0
    for image, labels, symbols in photos:
        readings = [(r.value, r.box) for r in read_dice(image, ReaderSettings(taught=taught))]
        for label, symbol in zip(labels, symbols):
            if symbol:
                one = score_photo(readings, [label])
                total += 1
                right += one.right
                wrong += one.wrong
    return total, right, wrong


def test_symbol_faces_are_unsure_untaught_and_read_as_taught_after(taught_table: tuple) -> None:
    taught, photos = taught_table
    total, right, _ = symbol_reads(photos, None)
    assert total >= 6
    assert right == 0  # the shipped reader never reads a symbol as a value
    total, right_taught, _ = symbol_reads(photos, taught)
    assert right_taught >= 0.3 * total, (right_taught, total)


def test_teaching_reads_the_table_better(taught_table: tuple) -> None:
    taught, photos = taught_table
    scores = []
    for t in (None, taught):
        right = dice = 0
        for image, labels, _ in photos:
            s = score_photo([(r.value, r.box) for r in read_dice(image, ReaderSettings(taught=t))], labels)
            right, dice = right + s.right, dice + s.dice
        scores.append(right / dice)
    assert scores[1] > scores[0], scores


def size_error(photos: list[tuple[np.ndarray, list[Label], list[bool]]], taught: object) -> float:
    """The median log(finder's face size / labelled face size) over the dice the finder found."""
    errors = []
    for image, labels, _ in photos:
        candidates, _, _ = find_dice(image, ReaderSettings(taught=taught))
        for label in labels:
            x, y, w, h = label.box
            sizes = [size for cx, cy, size, _ in candidates if x <= cx <= x + w and y <= cy <= y + h]
            if sizes:
                errors.append(math.log(sizes[0] / ((w + h) / 2)))
    return float(np.median(errors))


def shrunk(
    photos: list[tuple[np.ndarray, list[Label], list[bool]]], k: float
) -> list[tuple[np.ndarray, list[Label], list[bool]]]:
    """The photos with every label's box ``k`` times as large about its centre."""
    out = []
    for image, labels, symbols in photos:
        boxes = [
            Label(
                lab.value,
                (
                    lab.center[0] - k * lab.box[2] / 2,
                    lab.center[1] - k * lab.box[3] / 2,
                    k * lab.box[2],
                    k * lab.box[3],
                ),
            )
            for lab in labels
        ]
        out.append((image, boxes, symbols))
    return out


def test_teaching_teaches_the_finder_the_size_of_the_faces(taught_table: tuple) -> None:
    taught, photos = taught_table
    assert taught.size_weight is not None
    # a table whose labels box 0.75 of what the finder calls a face: the taught finder gives their size
    small = teach([(image, labels) for image, labels, _ in shrunk(table_photos(101, 5), 0.75)])
    untaught, learned = size_error(shrunk(photos, 0.75), None), size_error(shrunk(photos, 0.75), small)
    assert untaught > 0.2 and abs(learned) < 0.5 * untaught, (untaught, learned)


def test_taught_reader_saves_and_loads(tmp_path: Path, taught_table: tuple) -> None:
    taught, photos = taught_table
    path = save_taught(taught, tmp_path / "dice" / "taught.npz")
    loaded = load_taught(path)
    assert loaded.photos == 5 and loaded.dice == taught.dice
    assert np.allclose(loaded.weight, taught.weight) and loaded.heat_bias == pytest.approx(taught.heat_bias)
    assert np.allclose(loaded.size_weight, taught.size_weight) and loaded.size_bias == pytest.approx(taught.size_bias)
    image = photos[0][0]
    assert read_dice(image, ReaderSettings(taught=loaded)) == read_dice(image, ReaderSettings(taught=taught))
    # the [tray] table names it; a missing or broken file is an error naming the key
    assert ReaderSettings.from_config({"taught": str(path)}).taught is not None
    with pytest.raises(ConfigError, match="tray.taught: no taught reader"):
        ReaderSettings.from_config({"taught": str(tmp_path / "nothing.npz")})
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a numpy file")
    with pytest.raises(VisionError, match="not a taught reader"):
        load_taught(broken)


def test_a_reader_taught_on_other_networks_is_refused(tmp_path: Path, taught_table: tuple) -> None:
    taught, _ = taught_table
    path = save_taught(replace(taught, reader="0123456789abcdef"), tmp_path / "old.npz")
    with pytest.raises(VisionError, match="another version of the reader"):
        load_taught(path)


def test_teaching_needs_labelled_dice() -> None:
    image = cv2.imread(str(sample_paths()[0]))
    with pytest.raises(VisionError, match="no labelled dice"):
        teach([(image, [])])


def write_yolo(folder: Path, name: str, image: np.ndarray, labels: list[Label]) -> Path:
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "labels").mkdir(parents=True, exist_ok=True)
    h, w = image.shape[:2]
    path = folder / "images" / f"{name}.jpg"
    cv2.imwrite(str(path), image)
    rows = [
        f"{lab.value - 1} {(lab.box[0] + lab.box[2] / 2) / w} {(lab.box[1] + lab.box[3] / 2) / h} "
        f"{lab.box[2] / w} {lab.box[3] / h}"
        for lab in labels
    ]
    (folder / "labels" / f"{name}.txt").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_teach_command_saves_records_and_resets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photos = table_photos(303, 2)
    images = [str(write_yolo(tmp_path / "set", f"p{i}", image, labels)) for i, (image, labels, _) in enumerate(photos)]
    config = tmp_path / "config.toml"
    config.write_text("# my table\n[tray]\nunsure_below = 0.5\n", encoding="utf-8")
    save = tmp_path / "taught.npz"
    assert (
        dice_main(
            [
                "teach",
                *images,
                "--labels",
                str(tmp_path / "set" / "labels"),
                "--save",
                str(save),
                "--config",
                str(config),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "from 2 photos" in out and str(save) in out
    data = tomllib.loads(config.read_text(encoding="utf-8"))
    assert data["tray"]["taught"] == str(save.resolve()) and data["tray"]["unsure_below"] == 0.5
    assert "# my table" in config.read_text(encoding="utf-8")
    # read --taught prints the taught reader's readings, one JSON line per image as always
    assert dice_main(["read", images[0], "--json", "--taught", str(save)]) == 0
    line = json.loads(capsys.readouterr().out)
    expected = read_dice(cv2.imread(images[0]), ReaderSettings(taught=load_taught(save)))
    assert line["dice"] == [r.to_dict() for r in expected] and line["found"] == len(expected)
    # the configuration's [tray] taught is used by --tray (as companion serve does)
    assert dice_main(["read", images[0], "--json", "--config", str(config)]) == 0
    assert json.loads(capsys.readouterr().out)["dice"] == line["dice"]
    assert dice_main(["teach", "--reset", "--save", str(save), "--config", str(config)]) == 0
    assert "shipped reader is in use again" in capsys.readouterr().out
    assert "taught" not in tomllib.loads(config.read_text(encoding="utf-8"))["tray"]
    assert not save.exists()


def test_teach_command_says_what_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "c.toml"
    assert dice_main(["teach", "--config", str(config)]) == 1
    assert "give the labelled photos" in capsys.readouterr().err
    image = tmp_path / "lonely.jpg"
    cv2.imwrite(str(image), cv2.imread(str(sample_paths()[0])))
    assert dice_main(["teach", str(image), "--labels", str(tmp_path), "--config", str(config)]) == 1
    assert "no labels for" in capsys.readouterr().err
    with pytest.raises(VisionError, match="no labels for"):
        load_examples([image], tmp_path)


def test_kept_examples_teach_from_the_data_folder(tmp_path: Path) -> None:
    data = tmp_path / "data"
    folder = examples_dir(data)
    for i, (image, labels, _) in enumerate(table_photos(404, 2)):
        kept = keep_example(folder, image, [(lab.value, lab.box) for lab in labels], name="roll")
        assert kept.name == ("roll.jpg" if i == 0 else "roll-2.jpg")
    assert sorted(p.name for p in folder.iterdir()) == ["roll-2.jpg", "roll-2.txt", "roll.jpg", "roll.txt"]
    taught = teach_folder(folder, taught_path(data))
    assert taught.photos == 2 and taught_path(data).is_file()
    with pytest.raises(VisionError, match="value must be 1-6"):
        keep_example(folder, image, [(7, (1.0, 1.0, 5.0, 5.0))])
    with pytest.raises(VisionError, match="no teaching examples"):
        teach_folder(tmp_path / "empty", tmp_path / "t.npz")


def test_values_the_table_hardly_shows_keep_their_replayed_weight() -> None:
    from vision.teach import _replay_weights

    own = np.array([0] * 30 + [2] * 30)  # photos of 1s and 3s only
    replayed = np.array([0, 0, 1, 1, 2, 5])
    weights = _replay_weights(own, replayed, 0.5)
    assert weights[:2].sum() == pytest.approx(0.5 * 30)  # half the table's own 1s
    assert weights[2:4].sum() == pytest.approx(0.5 * 60 / 6)  # a value it never shows: half its mean per value
    assert weights[5] == pytest.approx(0.5 * 10) and weights[4] == pytest.approx(15)


class Counting:
    """A taught head that counts the crops it is shown, and is ``sure`` of each (0.95) or not (0.6)."""

    def __init__(self, sure: bool) -> None:
        self.sure = sure
        self.seen: list[int] = []

    def probs(self, feats: np.ndarray, probs: np.ndarray) -> np.ndarray:
        self.seen.append(len(feats))
        out = np.full_like(probs, 0.05 / (probs.shape[1] - 1) if self.sure else 0.4 / (probs.shape[1] - 1))
        out[:, 2] = 0.95 if self.sure else 0.6
        return out


def test_a_taught_reader_looks_again_at_a_doubtful_crop_turned_and_mirrored() -> None:
    from vision.reader import classify, dihedral

    crop = np.random.default_rng(3).integers(0, 255, (40, 40, 3), dtype=np.uint8)
    views = [dihedral(crop, k) for k in range(8)]
    assert len({v.tobytes() for v in views}) == 8 and all(v.shape == crop.shape for v in views)
    sure, doubtful = Counting(True), Counting(False)
    classify([crop, crop], sure)
    classify([crop, crop], doubtful)
    assert sure.seen == [2] and doubtful.seen == [2, 14]  # each doubtful crop seen in 7 more ways
    once = Counting(False)
    assert np.allclose(classify([crop], once, looks=False)[0, 2], 0.6) and once.seen == [1]


def test_teaching_keeps_the_tables_crops_and_they_vote(tmp_path: Path, taught_table: tuple) -> None:
    taught, photos = taught_table
    assert taught.bank is not None and taught.bank_cls is not None
    assert len(taught.bank) == len(taught.bank_cls) > 10 * taught.dice // 2
    assert np.allclose(np.linalg.norm(taught.bank.astype(np.float32), axis=1), 1.0, atol=1e-2)
    loaded = load_taught(save_taught(taught, tmp_path / "t.npz"))
    assert np.array_equal(loaded.bank, taught.bank) and np.array_equal(loaded.bank_cls, taught.bank_cls)
    # without its crops the taught reader reads by its layer alone, and differently
    image = photos[0][0]
    alone = replace(taught, bank=None, bank_cls=None)
    with_votes = read_dice(image, ReaderSettings(taught=taught))
    assert [r.confidence for r in read_dice(image, ReaderSettings(taught=alone))] != [r.confidence for r in with_votes]
    broken = replace(taught, bank_cls=np.full(len(taught.bank_cls), 99, np.int16))
    with pytest.raises(VisionError, match="taught crops do not fit"):
        load_taught(save_taught(broken, tmp_path / "broken.npz"))
