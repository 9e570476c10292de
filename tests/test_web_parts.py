"""The table's parts on the phone page: the simulated hardware (hand, OLED) and the dice tray.

Real parts: hardware.Table in simulation (gpiozero MockFactory, luma dummy display) and
vision.tray.TrayWatcher fed a real photo of dice (its reader is injected: the web only shows what
the tray read, and the dice reader is tested by the vision tests).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_fixtures import Table, settled_tray, start_table

PHOTO = Path(__file__).resolve().parents[1] / "vision" / "samples" / "four_45.jpg"


@pytest.fixture
def hardware() -> Iterator[Any]:
    from hardware import Table as HardwareTable

    table = HardwareTable(sim=True, threaded=False, sleep=lambda seconds: None)
    try:
        yield table
    finally:
        table.close()


@pytest.fixture
def tray() -> Any:
    cv2 = pytest.importorskip("cv2")
    from vision.reader import DieReading

    frame = cv2.imread(str(PHOTO))
    assert frame is not None, f"the bundled sample photo {PHOTO} is missing"
    h, w = frame.shape[:2]
    readings = [
        DieReading(2, (w // 4, h // 3, 40, 40), 0.97, "blue"),
        DieReading(6, (w // 2, h // 3, 40, 40), 0.91, "blue"),
        DieReading(4, (w // 2, h // 2, 40, 40), 0.88, "blue"),
    ]
    watcher = settled_tray(frame, readings)
    assert watcher.last_readings == readings
    return watcher


@pytest.fixture
def parts_table(tmp_path: Path, hardware: Any, tray: Any) -> Iterator[Table]:
    t = start_table(tmp_path, hardware=hardware, tray=tray)
    hardware.show(t.service.state())
    hardware.scheduler.run_pending()
    try:
        yield t
    finally:
        t.server.stop()
        t.service.close()


def test_the_simulated_hand_and_oled_are_served(parts_table: Table, hardware: Any) -> None:
    viewer = parts_table.viewer()
    assert viewer.get("/api/session").json()["hardware"] is True
    hw = viewer.get("/api/hardware").json()
    assert hw["hand_angle"] == hardware.hand_angle
    assert hw["status"]["sim"] is True
    png = viewer.get("/api/hardware/oled.png")
    assert png.status == 200 and png.headers["content-type"] == "image/png"
    assert png.body == hardware.oled_png() and png.body.startswith(b"\x89PNG")
    # Advancing the Clock: the hand follows the game; the page reads where it points now.
    parts_table.service.add_listener(hardware.on_events)
    before = hardware.hand_angle
    assert parts_table.host().post("/api/command", {"command": "end-round"}).status == 200
    hardware.scheduler.run_pending()
    moved = viewer.get("/api/hardware").json()["hand_angle"]
    assert moved == hardware.hand_angle and moved != before
    assert viewer.get("/api/hardware/oled.png").body == hardware.oled_png() != png.body


def test_without_parts_the_endpoints_say_so(tmp_path: Path) -> None:
    t = start_table(tmp_path)
    try:
        viewer = t.viewer()
        session = viewer.get("/api/session").json()
        assert session["hardware"] is False and session["tray"] is False
        for path, word in (
            ("/api/hardware", "hardware"),
            ("/api/hardware/oled.png", "oled"),
            ("/api/tray", "tray"),
            ("/api/tray/photo", "photo"),
        ):
            reply = viewer.get(path)
            assert reply.status == 404 and word in reply.json()["error"].lower()
    finally:
        t.server.stop()
        t.service.close()


# a fresh player's finding: the refusal of a throw named the companion's parts, not what to do
INTERNAL = ("simulated", "sim_throw", "--sim", "thrower", "camera", "/api", "404")


def check_throw_refused(table: Table, then: str) -> None:
    """A phone's throw where the page offers none (a page left open from a --sim run): the GET and the POST are
    refused in the same player's words, saying that a phone cannot throw here and what to do with the dice."""
    viewer = table.viewer()
    assert viewer.get("/api/session").json().get("sim_throw") is not True
    for reply in (viewer.get("/api/tray/throw"), viewer.post("/api/tray/throw", {})):
        said = reply.json()["error"]
        assert reply.status == 404 and said.startswith("a phone cannot throw dice here: "), said
        assert then in said, said
        assert not [word for word in INTERNAL if word in said.lower()], said


def test_a_throw_at_a_real_tray_says_to_throw_the_dice_into_it(parts_table: Table) -> None:
    check_throw_refused(parts_table, "Throw your dice into the tray; the companion reads them when they stop")


def test_a_throw_without_a_tray_says_to_roll_at_the_table_and_tap_the_dice(tmp_path: Path) -> None:
    t = start_table(tmp_path)
    try:
        check_throw_refused(t, 'Roll your dice at the table; the host taps what they show (Dice tab, "Tap the real')
    finally:
        t.server.stop()
        t.service.close()


def test_the_tray_reading_and_annotated_photo_are_served(parts_table: Table, tray: Any) -> None:
    viewer = parts_table.viewer()
    reading = viewer.get("/api/tray").json()
    assert [d["value"] for d in reading["dice"]] == [r.value for r in tray.last_readings]
    assert reading["reads"] == tray.reads == 1
    assert reading["photo"] is True
    photo = viewer.get("/api/tray/photo")
    assert photo.status == 200 and photo.headers["content-type"] == "image/jpeg"
    assert photo.body[:2] == b"\xff\xd8"


def test_the_host_sends_the_trays_pips_and_corrects_a_wrong_read(parts_table: Table, tray: Any) -> None:
    """Action 3: Search with pipped dice: pips become faces through the table's pip map."""
    from companion.games.skeptics.dice import DieKind, PipMap

    host = parts_table.host()
    assert (
        host.post("/api/command", {"command": "attempt", "args": {"action": "search", "need": "eye:3"}}).status == 200
    )
    pips = [r.value for r in tray.last_readings]
    reply = host.post("/api/dice", {"pips": pips, "kind": "clue"})
    assert reply.status == 200, reply.body
    faces = [PipMap.default().face(DieKind.CLUE, p).value for p in pips]
    last = parts_table.service.history()[-1]
    assert last["command"] == {"name": "roll", "args": {"faces": ",".join(faces)}}
    rolls_before = [h for h in parts_table.service.history() if h["command"]["name"] == "roll"]
    # The read was wrong: the host corrects it; the wrong roll is replaced, not added to.
    reply = host.post("/api/dice", {"faces": ["eye", "eye", "camera"], "replace": True})
    assert reply.status == 200, reply.body
    rolls = [h for h in parts_table.service.history() if h["command"]["name"] == "roll"]
    assert len(rolls) == len(rolls_before)
    assert rolls[-1]["command"]["args"]["faces"] == "eye,eye,camera"


def test_a_correction_that_is_refused_puts_the_read_back(parts_table: Table) -> None:
    host = parts_table.host()
    assert (
        host.post("/api/command", {"command": "attempt", "args": {"action": "search", "need": "eye:3"}}).status == 200
    )
    assert host.post("/api/dice", {"faces": ["camera", "cobweb", "camera"]}).status == 200
    before = parts_table.service.state()
    history = parts_table.service.history()
    # Four dice for a three-dice attempt: the engine refuses; the first read stands as it was.
    reply = host.post("/api/dice", {"faces": ["eye", "eye", "eye", "eye"], "replace": True})
    assert reply.status == 400, reply.body
    after = parts_table.service.state()
    assert {k: v for k, v in after.items() if k != "last_event_id"} == {
        k: v for k, v in before.items() if k != "last_event_id"
    }
    assert [h["command"] for h in parts_table.service.history()] == [h["command"] for h in history]
