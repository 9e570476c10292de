"""Teaching the reader from the phone (issue 12): the host keeps the tray's last photo with the right values, and
"Teach the reader" adapts the real reader (vision.teach) in the background, after which the tray reads with it.
The real TrayWatcher (fed a photo from vision/samples), the real teacher, the real Flask app behind waitress."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import pytest
from web_fixtures import Table, serve_table

from vision.teach import Teacher, taught_path
from vision.tray import TrayWatcher

SAMPLE = Path(__file__).resolve().parents[1] / "vision" / "samples" / "four_45.jpg"


def labelled_dice(image: Path, width: int, height: int) -> list[dict[str, Any]]:
    """The sample's own labels (YOLO: class = value - 1, centre and size as fractions) as the host would give them."""
    dice = []
    for line in image.with_suffix(".txt").read_text().split("\n"):
        if not line.strip():
            continue
        cls, cx, cy, w, h = line.split()
        bw, bh = float(w) * width, float(h) * height
        dice.append({"value": int(cls) + 1, "box": [float(cx) * width - bw / 2, float(cy) * height - bh / 2, bw, bh]})
    return dice


@pytest.fixture
def taught_table(tmp_path: Path) -> Any:
    watcher = TrayWatcher(now=lambda: 0.0)
    teacher = Teacher(tmp_path / "data", watcher, spawn=lambda fn: fn())  # taught at once: the test need not wait
    for table in serve_table(tmp_path, tray=watcher, teacher=teacher, threads=8):
        yield table, watcher, teacher


def test_the_host_keeps_a_corrected_photo_and_teaches_the_reader(taught_table: Any) -> None:
    table, watcher, teacher = taught_table
    host = table.host()
    assert table.client().join().get("/api/host/teach").status == 403  # the host's alone
    status = host.get("/api/host/teach").json()
    assert status == {"kept": 0, "running": False, "taught": None, "error": None, "in_use": False}
    frame = cv2.imread(str(SAMPLE))
    assert frame is not None
    height, width = frame.shape[:2]
    dice = labelled_dice(SAMPLE, width, height)
    refused = host.post("/api/host/teach/keep", {"dice": dice})
    assert refused.status == 400 and "no photo of the tray yet" in refused.json()["say"].lower()
    assert host.post("/api/host/teach/run", {}).status == 400  # nothing kept yet

    watcher.last_frame = frame  # the tray's last photo, as a settled roll leaves it
    bad = host.post("/api/host/teach/keep", {"dice": [{"value": 9, "box": [1, 2, 3, 4]}]})
    assert bad.status == 400 and "1 to 6" in bad.json()["error"]
    kept = host.post("/api/host/teach/keep", {"dice": [*dice, {"value": None, "box": [0, 0, 20, 20]}]})
    assert kept.status == 200 and kept.json()["kept"] == 1
    label = next(teacher.folder.glob("*.txt"))
    assert len(label.read_text().split("\n")) - 1 == len(dice)  # "not a die" is left out

    ran = host.post("/api/host/teach/run", {})
    assert ran.status == 202, ran.body
    after = host.get("/api/host/teach").json()
    assert after["error"] is None and after["in_use"] and after["taught"]["photos"] == 1
    assert after["taught"]["dice"] == len(dice)
    assert watcher.settings.taught is not None and taught_path(table.data_dir).is_file()

    back = host.post("/api/host/teach/reset", {})
    assert back.status == 200 and not back.json()["in_use"] and back.json()["kept"] == 1
    assert watcher.settings.taught is None and not taught_path(table.data_dir).exists()


def test_without_a_camera_there_is_no_reader_to_teach(table: Table) -> None:
    reply = table.host().get("/api/host/teach")
    assert reply.status == 404 and "without a dice tray camera" in reply.json()["error"]
