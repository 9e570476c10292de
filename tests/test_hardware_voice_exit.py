"""A program that speaks ends cleanly: closing the voice waits for the sentence rendered in the background, cuts off
one that would take too long (Piper's onnxruntime aborted the process at exit, code 134, when a render still ran),
and a voice nobody closed is closed at exit. The Piper cases run real processes with the real packaged voice."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from hardware_fakes import RecordingSpawn, ToneEngine

from companion.errors import HardwareError
from hardware.config import VoiceConfig
from hardware.voice import Player, Speech, Voice, piper_installed

ROOT = Path(__file__).parent.parent
needs_piper = pytest.mark.skipif(not piper_installed(), reason="Piper is not installed (uv sync --extra voice)")

# A process whose voice renders a script in the background; it leaves while the second line is being rendered.
LEAVES_MID_RENDER = """
import logging, sys, time
from hardware.config import VoiceConfig
from hardware.voice import Voice
logging.basicConfig(level=logging.INFO, stream=sys.stderr)
voice = Voice(VoiceConfig(enabled=True), data_dir=sys.argv[1])
assert voice.engine is not None and voice.engine.name == "piper", voice.why
voice.prepare([f"Line {i} of a long script that the narrator reads out slowly at the table." for i in range(30)])
while voice.cache.misses < 2:  # the first line is rendered, the second is being rendered now
    time.sleep(0.01)
print("leaving", flush=True)
"""


def run_script(code: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("COMPANION_CONFIG", None)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), str(tmp_path / "voice-data"), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )


@needs_piper
@pytest.mark.parametrize("closes", [True, False], ids=["closed", "left-open"])
def test_a_process_that_leaves_during_a_piper_render_exits_0(tmp_path: Path, closes: bool) -> None:
    """Before the fix this process ended with 134 every time ("terminate called without an active exception")."""
    result = run_script(LEAVES_MID_RENDER + ("voice.close()\n" if closes else ""), tmp_path)
    assert "leaving" in result.stdout, result.stderr
    assert "terminate called" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stderr[-2000:]


@needs_piper
def test_closing_cuts_off_a_piper_render_that_would_take_too_long(tmp_path: Path) -> None:
    """A render that would outlast the stop (minutes under emulation) is cancelled: the process exits 0, the cut
    line is in the log and the sentence never reaches the cache."""
    code = """
    import logging, sys, time
    from hardware.config import VoiceConfig
    from hardware.voice import SpeechCache, Voice
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    voice = Voice(VoiceConfig(enabled=True), data_dir=sys.argv[1])
    long = ", ".join(f"and then the ghost walked through room {i} of the old asylum" for i in range(60)) + "."
    voice.prepare([long])
    while voice.engine._voice is None:  # the model is loaded: the render is under way
        time.sleep(0.01)
    voice.close(wait_s=0)
    print("cached:", voice.cache.get(SpeechCache.key(voice.engine, long)) is not None, flush=True)
    """
    result = run_script(code, tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "cached: False" in result.stdout, result.stdout + result.stderr
    assert "closing the voice: a sentence rendered in the background is cut off" in result.stderr
    assert "could not be rendered" not in result.stderr  # a cut-off render is no problem to tell


class StuckEngine(ToneEngine):
    """An engine whose render waits until it is cancelled (a render that would take minutes)."""

    def __init__(self) -> None:
        super().__init__()
        self.started = threading.Event()
        self.cancelled = threading.Event()

    def render(self, text: str) -> Speech:
        self.started.set()
        self.cancelled.wait(60)
        raise HardwareError("cancelled")

    def cancel(self) -> None:
        self.cancelled.set()


def test_close_cancels_a_render_that_does_not_end_and_waits_for_its_thread() -> None:
    engine = StuckEngine()
    voice = Voice(VoiceConfig(enabled=True), engine=engine, player=Player(spawn=RecordingSpawn(), threaded=False))
    thread = voice.prepare(["A line that never ends."])
    assert thread is not None and engine.started.wait(10)
    voice.close(wait_s=0)
    assert engine.cancelled.is_set()
    assert not thread.is_alive()
    voice.close()  # closing again does nothing more


class SlowEngine(ToneEngine):
    """An engine whose render goes on once the test lets it; cancel() is recorded."""

    def __init__(self) -> None:
        super().__init__()
        self.started, self.go = threading.Event(), threading.Event()
        self.cancels = 0

    def render(self, text: str) -> Speech:
        self.started.set()
        self.go.wait(10)
        return super().render(text)

    def cancel(self) -> None:
        self.cancels += 1


def test_close_lets_a_render_end_by_itself_and_the_voice_closes_with_with() -> None:
    engine = SlowEngine()
    with Voice(VoiceConfig(enabled=True), engine=engine, player=Player(spawn=RecordingSpawn(), threaded=False)) as v:
        thread = v.prepare(["First line.", "Second line."])
        assert thread is not None and engine.started.wait(10)
        engine.go.set()
    assert not thread.is_alive()
    assert engine.rendered == ["First line."] and engine.cancels == 0  # the line under way ended; the rest waits
    assert v.player.play([Speech.silence(0.1)]) is False  # a closed voice plays nothing more
