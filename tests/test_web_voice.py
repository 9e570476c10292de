"""The narrator's voice on the host's settings: the real app behind the real server, a real Table whose voice keeps
the host's choice in the data folder, and the card on a phone in headless Chromium."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hardware_fakes import RecordingSpawn, ToneEngine
from playwright.sync_api import expect
from web_fixtures import Table, start_table

from hardware import Table as HardwareTable
from hardware.config import VoiceConfig
from hardware.voice import Player, Voice


@pytest.fixture
def voiced(tmp_path: Path) -> Iterator[tuple[Table, HardwareTable, RecordingSpawn]]:
    """A companion with a simulated table whose voice renders tones and plays them on a stand-in aplay."""
    spawn = RecordingSpawn()
    data = tmp_path / "data"
    voice = Voice(VoiceConfig(), data_dir=data, engine=ToneEngine(), player=Player(spawn=spawn, threaded=False))
    spawn.voice = voice
    hw = HardwareTable(sim=True, threaded=False, sleep=lambda seconds: None, voice=voice)
    t = start_table(tmp_path, hardware=hw)
    hw.show(t.service.state())  # the OLED has a picture for the page
    hw.run_pending()
    try:
        yield t, hw, spawn
    finally:
        t.server.stop()
        t.service.close()
        hw.close()


def test_the_host_chooses_the_voice_and_the_volume_and_hears_it(
    voiced: tuple[Table, HardwareTable, RecordingSpawn],
) -> None:
    t, hw, spawn = voiced
    viewer = t.viewer()
    assert viewer.get("/api/host/voice").status == 403  # the host's alone
    host = t.host()
    assert host.get("/api/session").json()["voice"] is True
    shown = host.get("/api/host/voice").json()
    assert shown["engine"] == "piper" and shown["volume"] == 80 and shown["engines"] == ["piper", "espeak-ng"]
    changed = host.post("/api/host/voice", {"engine": "espeak-ng", "volume": 40})
    assert changed.status == 200, changed.json()
    assert changed.json()["volume"] == 40 and changed.json()["engine"] == "espeak-ng"
    saved = json.loads((t.data_dir / "voice.json").read_text(encoding="utf-8"))
    assert saved["engine"] == "espeak-ng" and saved["volume"] == 40  # kept for the next start
    assert hw.voice.player.volume == 40
    for bad, word in (
        ({"volume": 101}, "volume"),
        ({"engine": "festival"}, "engine"),
        ({"loud": 1}, "send one"),
        ({"piper_voice": "../x.onnx"}, "not one of the voices"),
    ):
        reply = host.post("/api/host/voice", bad)
        assert reply.status == 400 and word in json.dumps(reply.json()), (bad, reply.json())
    assert json.loads((t.data_dir / "voice.json").read_text(encoding="utf-8"))["volume"] == 40  # nothing changed
    heard = host.post("/api/host/voice/test", {})
    assert heard.status == 200 and heard.json()["spoken"] is True
    assert spawn.said[-1] == "Skeptics companion. Sound test." and len(spawn.procs[-1].data) > 0


def test_a_companion_without_the_table_has_no_voice_settings(tmp_path: Path) -> None:
    t = start_table(tmp_path)
    try:
        host = t.host()
        assert host.get("/api/session").json()["voice"] is False  # the page offers no voice card
        assert host.get("/api/host/voice").status == 404
    finally:
        t.server.stop()
        t.service.close()


@pytest.mark.browser
@pytest.mark.slow
def test_the_voice_card_on_the_hosts_phone_and_the_table(
    browser: Any, voiced: tuple[Table, HardwareTable, RecordingSpawn]
) -> None:
    from test_browser_web import open_phone

    t, hw, spawn = voiced
    for viewport, name in (({"width": 390, "height": 844}, "phone"), ({"width": 1280, "height": 800}, "table")):
        phone = open_phone(browser, t, host=True, viewport=viewport)
        try:
            phone.tab("host")
            card = phone.page.locator("#voice-card")
            expect(card).to_be_visible()
            expect(phone.page.locator("#voice-status")).to_contain_text("a test tone")
            phone.page.select_option("#voice-form select[name=engine]", "espeak-ng")
            expect(phone.page.locator("#voice-form select[name=piper_voice]")).to_be_disabled()
            phone.page.locator("#voice-form input[name=volume]").fill("55")
            expect(phone.page.locator("#voice-form output[name=shown]")).to_have_text("55 %")
            expect(phone.page.locator("#voice-form input[name=volume]")).to_have_value("55")
            phone.page.click("#voice-test")
            expect(phone.page.locator("#toast")).to_contain_text("a chime, then the voice")
            assert hw.voice.cfg.engine == "espeak-ng" and hw.voice.cfg.volume == 55
            card.scroll_into_view_if_needed()
            card.screenshot(path=str(Path(__file__).parent / "artifacts" / f"{name}-voice-card.png"))
            phone.page.click("#logout")  # signed out: the voice is the host's alone
            expect(card).to_be_hidden()
            phone.check_clean()
        finally:
            phone.context.close()


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(shutil.which("aplay") is None, reason="needs ALSA's aplay (alsa-utils)")
def test_a_speaker_that_is_not_there_is_one_plain_sentence_on_the_host_tab(browser: Any, tmp_path: Path) -> None:
    """The real aplay on an output that no machine has: the host's card says what happened and what to do, never
    aplay's own words (they stay in the log)."""
    from test_browser_web import open_phone

    voice = Voice(VoiceConfig(), data_dir=tmp_path / "data", engine=ToneEngine(), player=Player(device="nowhere-9"))
    hw = HardwareTable(sim=True, threaded=False, sleep=lambda seconds: None, voice=voice)
    t = start_table(tmp_path, hardware=hw)
    hw.show(t.service.state())  # the OLED has a picture for the page
    hw.run_pending()
    try:
        host = t.host()
        assert host.get("/api/host/voice").json()["problem"] is None  # nothing played yet: nothing to tell
        assert host.post("/api/host/voice/test", {}).json()["spoken"] is True
        deadline = time.monotonic() + 10
        while voice.player.problem is None and time.monotonic() < deadline:
            time.sleep(0.05)  # aplay gives up in a few milliseconds; the player's thread reads its exit
        shown = host.get("/api/host/voice").json()
        assert shown["problem"].startswith("no sound device was found (nowhere-9): plug in the table's speaker")
        phone = open_phone(browser, t, host=True, viewport={"width": 390, "height": 844})
        try:
            phone.tab("host")
            status = phone.page.locator("#voice-status")
            expect(status).to_contain_text("Nothing was heard: no sound device was found (nowhere-9): plug in")
            for raw in ("aplay", "main:831", "audio open error", "ALSA device"):
                assert raw not in status.inner_text()
            phone.page.locator("#voice-card").scroll_into_view_if_needed()
            phone.page.locator("#voice-card").screenshot(
                path=str(Path(__file__).parent / "artifacts" / "phone-voice-not-heard.png")
            )
            phone.check_clean()
        finally:
            phone.context.close()
    finally:
        t.server.stop()
        t.service.close()
        hw.close()
