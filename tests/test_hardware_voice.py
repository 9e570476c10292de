"""The spoken Ghost Hour (espeak-ng): the sentence, the options, a real WAV file, and no crash without it."""

from __future__ import annotations

import logging
import shutil
import struct
import wave
from pathlib import Path

import pytest
from hardware_fakes import RecordingSpawn

from hardware.config import VoiceConfig
from hardware.voice import Voice, ghost_hour_text

EVENT = {"type": "ghost_hour", "environment": "Fire", "room": 8, "room_name": "Bath"}


def test_the_announcement_names_the_environment_and_the_room() -> None:
    """Rulebook, "Ghost Hour Sequence": an environment card first, then a room card."""
    assert ghost_hour_text(EVENT) == "Ghost Hour. Fire. The ghost appears in room 8, the Bath."
    assert ghost_hour_text({**EVENT, "room_name": None}) == "Ghost Hour. Fire. The ghost appears in room 8."
    assert ghost_hour_text({**EVENT, "environment": None}).startswith("Ghost Hour. The ghost appears in room 8")
    assert "Geisterstunde" in ghost_hour_text(EVENT, "de")
    assert ghost_hour_text({"type": "ghost_hour"}) == "Ghost Hour."
    for language, title in (("de", "Geisterstunde."), ("fr", "L'heure du fantôme."), ("es", "La hora del fantasma.")):
        assert ghost_hour_text({"type": "ghost_hour"}, language) == title  # no card, no room: no empty sentence
        assert ". ." not in ghost_hour_text({**EVENT, "environment": None}, language)


def test_voice_volume_speed_and_language_reach_espeak() -> None:
    spawn = RecordingSpawn()
    voice = Voice(VoiceConfig(voice="en-us+f3", volume=60, speed=170), spawn=spawn)
    voice.path = voice.path or "espeak-ng"
    assert voice.announce_ghost_hour(EVENT)
    argv = spawn.calls[-1]
    assert argv[argv.index("-v") + 1] == "en-us+f3"
    assert argv[argv.index("-a") + 1] == "120"  # 60 % of espeak-ng's 0-200
    assert argv[argv.index("-s") + 1] == "170"
    assert argv[-1] == "Ghost Hour. Fire. The ghost appears in room 8, the Bath."
    german = Voice(VoiceConfig(language="de"), spawn=spawn)
    german.path = german.path or "espeak-ng"
    german.announce_ghost_hour(EVENT)
    assert spawn.calls[-1][spawn.calls[-1].index("-v") + 1] == "de"


def test_quiet_mode_and_disabled_say_nothing() -> None:
    spawn = RecordingSpawn()
    for cfg in (VoiceConfig(quiet=True), VoiceConfig(enabled=False)):
        voice = Voice(cfg, spawn=spawn)
        voice.path = "espeak-ng"
        assert voice.announce_ghost_hour(EVENT) is False
    assert spawn.calls == []


def test_missing_espeak_is_one_log_line_not_a_crash(caplog: pytest.LogCaptureFixture) -> None:
    voice = Voice(VoiceConfig(), program="espeak-ng-not-installed-here")
    caplog.set_level(logging.WARNING, logger="hardware.voice")
    assert voice.announce_ghost_hour(EVENT) is False
    assert voice.announce_ghost_hour(EVENT) is False
    warnings = [r for r in caplog.records if "espeak-ng is not installed" in r.message]
    assert len(warnings) == 1
    assert voice.status()["found"] is False and "apt install espeak-ng" in voice.status()["message"]


def test_speaking_does_not_wait_for_the_sentence() -> None:
    """say() starts espeak-ng and returns; the process is left to run in the background."""
    started: list[list[str]] = []

    class Running:
        def poll(self) -> None:
            return None  # still speaking

        def terminate(self) -> None:
            started.append(["terminated"])

        def wait(self, timeout: float | None = None) -> int:
            return 0

    def spawn(argv: list[str]) -> Running:
        started.append(argv)
        return Running()

    voice = Voice(VoiceConfig(), spawn=spawn)
    voice.path = "espeak-ng"
    assert voice.say("one")
    assert voice.say("two")  # a newer announcement replaces the unfinished one
    assert started[1] == ["terminated"] and started[2][-1] == "two"


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (CI installs it)")
def test_rendered_announcement_holds_sound(tmp_path: Path) -> None:
    voice = Voice(VoiceConfig())
    wav = voice.render(ghost_hour_text(EVENT), tmp_path / "ghost.wav")
    with wave.open(str(wav), "rb") as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1
        frames = w.getnframes()
        duration = frames / w.getframerate()
        samples = struct.unpack(f"<{frames}h", w.readframes(frames))
    assert duration > 1.0
    loud = sum(1 for s in samples if abs(s) > 1000)
    assert loud > 0.1 * len(samples)  # speech, not silence
    quieter = Voice(VoiceConfig(volume=20)).render(ghost_hour_text(EVENT), tmp_path / "quiet.wav")
    with wave.open(str(quieter), "rb") as w:
        n = w.getnframes()
        quiet_samples = struct.unpack(f"<{n}h", w.readframes(n))
    assert max(abs(s) for s in quiet_samples) < max(abs(s) for s in samples)  # volume is applied
