"""`companion dice read` (issue 4): the JSON line contract, --annotate, and unreadable files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from vision import read_dice
from vision.camera import sample_paths
from vision.cli import main as dice_main
from vision.dataset import read_labels, score_photo

ROOT = Path(__file__).resolve().parents[1]


def run_companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "dice", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_json_lines_contract_for_good_and_unreadable_images(tmp_path: Path) -> None:
    samples = [str(p) for p in sample_paths()[:2]]
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8 this is not really a JPEG")
    missing = tmp_path / "missing.jpg"
    result = run_companion("read", samples[0], str(broken), str(missing), samples[1], "--json")
    assert result.returncode == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["image"] for line in lines] == [samples[0], str(broken), str(missing), samples[1]]
    for line, path in ((lines[0], samples[0]), (lines[3], samples[1])):
        assert set(line) == {"image", "width", "height", "dice", "found", "ms"}
        assert line["found"] == len(line["dice"])
        image = cv2.imread(path)
        assert (line["height"], line["width"]) == image.shape[:2]
        assert isinstance(line["ms"], (int, float)) and line["ms"] > 0
        assert line["dice"], "the sample photos all hold dice"
        for die in line["dice"]:
            assert set(die) == {"value", "box", "confidence", "color"}
            assert die["value"] is None or die["value"] in range(1, 7)
            assert len(die["box"]) == 4 and all(isinstance(v, int) for v in die["box"])
            assert 0.0 <= die["confidence"] <= 1.0 and isinstance(die["color"], str) and die["color"]
        # the JSON is the reader's own answer, and it reads the labelled dice
        expected = [r.to_dict() for r in read_dice(image)]
        assert line["dice"] == expected
        labels = read_labels(Path(path).with_suffix(".txt"), line["width"], line["height"])
        score = score_photo([(d["value"], tuple(d["box"])) for d in line["dice"]], labels)
        assert score.right >= 0.85 * score.dice
    assert set(lines[1]) == {"image", "error"} and "not an image" in lines[1]["error"]
    assert set(lines[2]) == {"image", "error"} and "no such file" in lines[2]["error"]


def test_all_good_images_exit_zero_and_plain_text_is_readable(capsys: pytest.CaptureFixture[str]) -> None:
    sample = str(sample_paths()[0])
    assert dice_main(["read", sample]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{sample}: ") and " dice" in out and " ms]" in out


def test_annotate_writes_each_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    samples = sample_paths()[:2]
    out_dir = tmp_path / "drawn"
    assert dice_main(["read", *map(str, samples), "--json", "--annotate", str(out_dir)]) == 0
    written = sorted(out_dir.iterdir())
    assert [p.name for p in written] == sorted(f"{p.stem}.annotated.jpg" for p in samples)
    drawn = cv2.imread(str(written[0]))
    original = cv2.imread(str(samples[0]))
    assert drawn.shape == original.shape
    assert cv2.absdiff(drawn, original).max() > 100  # boxes were drawn on it


def test_usage_errors() -> None:
    assert dice_main([]) == 2
    assert dice_main(["read"]) == 2
    assert dice_main(["calibrate", "--dice", "x.jpg"]) == 1  # neither --empty nor --region
