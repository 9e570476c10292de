"""The narrator's voice: from a Ghost Hour command to the first audio sample written, with Piper and espeak-ng.

    uv run python benchmarks/bench_voice.py [--repeat 15] [--pi4-factor 6]

The whole path is real: the game service plays the end of a round that strikes the Ghost Hour, its listener
hands the events to a threaded ``hardware.Table`` (gpiozero's mock pins), whose worker starts the announcement;
the voice takes the sentence "Ghost Hour." from the cache (or renders it: "cold"), starts ``aplay`` (ALSA's null
device here, where there is no sound card; ``cat`` into /dev/null without alsa-utils) and writes the first samples
into its pipe. The clock stops when they are written. The budget is 300 ms.

Also measured: what one line costs to render (the night's first line, and the Ghost Hour), in wall time and in CPU
time (the work, which other programs on a shared machine do not stretch), the real-time factor (CPU seconds per
second of speech), and Piper's model load, which the Table does at start.

The Pi 4 column is an estimate, not a measurement: this machine's figure (CPU seconds for the renders) times
`--pi4-factor` (6 by default: a Pi 4's Cortex-A72 at 1.8 GHz runs Python and onnxruntime's kernels about five to
seven times slower per core than a current x86 core; the Pi's four cores are not counted, so the estimate is on the
slow side). Run the benchmark on the Pi itself for its real figures.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.games.skeptics.engine import Setup
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService
from hardware import Table
from hardware.config import HardwareConfig, VoiceConfig
from hardware.voice import EDGE_S, Player, Voice, piper_installed

BUDGET_MS = 300.0
NIGHT_LINE = "Night falls. Everyone, close your eyes, take the deck from your envelope and lay it face up."
GHOST_LINE = "Ghost Hour. The Watching Eyes. The ghost appears in room four, the library."


def player() -> Player:
    if shutil.which("aplay"):
        return Player(device="null")

    def spawn(argv: list[str]) -> Any:
        return subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)

    return Player(program="cat", spawn=spawn)


def first_sample_ms(engine: str, data_dir: Path, repeat: int, cold: bool) -> list[float]:
    """Milliseconds from `service.do("end-round")` (the one that strikes the Ghost Hour) to the first sample."""
    out = []
    for i in range(repeat):
        folder = data_dir / (f"cold-{i}" if cold else "warm")
        voice = Voice(VoiceConfig(engine=engine), data_dir=folder, player=player())
        assert voice.engine is not None and voice.engine.name == engine, voice.why
        if not cold:
            voice.prepare(["Ghost Hour."]).join()  # type: ignore[union-attr]  # what the Table does at start
        elif engine == "piper":
            voice.engine.render("Loaded.")  # the model is loaded at start; only the sentence is not cached
        with (
            GameService(GameStore(folder / "games.sqlite3"), load_packs()) as service,
            Table(
                HardwareConfig(), sim=True, pin_factory=MockFactory(pin_class=MockPWMPin), voice=voice, tick_s=0.05
            ) as table,
        ):
            service.new_game(Setup(players=3, board="asylum", ghost="child", special_items=3, seed=11 + i))
            service.add_listener(table.on_events)
            for _ in range(3):
                service.do("end-round")
            time.sleep(0.3)  # the hand's sweeps and the OLED settle
            voice.player.first_sample_at = None
            started = time.monotonic()
            result = service.do("end-round")
            assert any(e.get("type") == "ghost_hour" for e in result.events), "no Ghost Hour struck"
            deadline = started + 10
            while voice.player.first_sample_at is None and time.monotonic() < deadline:
                time.sleep(0.001)
            assert voice.player.first_sample_at is not None, "nothing was played"
            out.append((voice.player.first_sample_at - started) * 1000)
            voice.stop()
    return out


def render_s(voice: Voice, text: str, repeat: int) -> tuple[float, float, float]:
    """Median wall seconds and CPU seconds (this process and its children: espeak-ng runs as one) to render `text`
    (not from the cache), and the seconds of speech it makes."""
    assert voice.engine is not None
    times, cpu, length = [], [], 0.0
    for _ in range(repeat):
        started, used = time.perf_counter(), cpu_s()
        speech = voice.engine.render(text)
        times.append(time.perf_counter() - started)
        cpu.append(cpu_s() - used)
        length = speech.seconds - 2 * EDGE_S
    return statistics.median(times), statistics.median(cpu), length


def cpu_s() -> float:
    """CPU seconds of this process and its finished children: the work, which other programs on the machine do not
    stretch the way they stretch wall time."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--pi4-factor", type=float, default=6.0)
    args = parser.parse_args()
    factor = args.pi4_factor
    engines = [e for e, ok in (("piper", piper_installed()), ("espeak-ng", bool(shutil.which("espeak-ng")))) if ok]
    out = "aplay -D null" if shutil.which("aplay") else "cat > /dev/null (no alsa-utils)"
    print(
        f"first audio sample after the Ghost Hour command (output: {out}; {args.repeat} runs each; budget "
        f"{BUDGET_MS:.0f} ms; the Pi 4 column = this machine x {factor:g}, an estimate)"
    )
    print(f"{'engine':<10} {'cache':<6} {'median ms':>10} {'max ms':>8} {'/budget':>8} {'Pi 4 est. ms':>13}")
    with tempfile.TemporaryDirectory(prefix="bench-voice-") as tmp:
        for engine in engines:
            for cold in (False, True):
                ms = first_sample_ms(
                    engine, Path(tmp) / engine, args.repeat if not cold else max(3, args.repeat // 3), cold
                )
                med = statistics.median(ms)
                print(
                    f"{engine:<10} {'cold' if cold else 'warm':<6} {med:>10.1f} {max(ms):>8.1f} "
                    f"{med / BUDGET_MS:>8.2f} {med * factor:>13.0f}"
                )
        print()
        print(
            f"{'engine':<10} {'line':<22} {'render s':>9} {'CPU s':>7} {'speech s':>9} {'RTF':>6} {'Pi 4 est. s':>12}"
        )
        for engine in engines:
            voice = Voice(VoiceConfig(engine=engine), data_dir=Path(tmp) / "render")
            if engine == "piper":
                assert voice.engine is not None
                used = cpu_s()
                load = timed(partial(voice.engine.render, "Loaded."))
                used = cpu_s() - used
                print(
                    f"{engine:<10} {'model load + 1 word':<22} {load:>9.2f} {used:>7.2f} {'':>9} {'':>6} "
                    f"{used * factor:>12.1f}"
                )
            for name, text in (
                ("Ghost Hour. (fixed)", "Ghost Hour."),
                ("the Ghost Hour line", GHOST_LINE),
                ("the night's first line", NIGHT_LINE),
            ):
                seconds, used, length = render_s(voice, text, 5)
                print(
                    f"{engine:<10} {name:<22} {seconds:>9.3f} {used:>7.3f} {length:>9.2f} {used / length:>6.3f} "
                    f"{used * factor:>12.2f}"
                )


if __name__ == "__main__":
    main()
