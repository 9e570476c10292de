"""Among Cultists' night read out: how long it takes at each pause the host may choose, and where the time goes.

    uv run python benchmarks/bench_night.py [--engine piper|espeak-ng] [--players 6] [--no-seer]

The path is the one `companion serve` wires: the game service times the night's steps by the voice's own length of
each line (``Voice.length``: the line rendered, its silence trimmed, its audio measured), then adds the host's pause
after every step but the last. Printed per pause: the speech (the voice's seconds, the same whatever the pause),
the pauses, the whole night, and the median and largest wait after a step's words end (what the table waits; it is
the pause chosen, rounded up to the hundredth). Also printed: each line's seconds of speech and the time it took to
render it the first time (the first line's includes loading Piper's model; the voice renders the night's lines
when the game starts, so the host waits for none of them when the night is read out). The figures are this machine's: the speech lengths are the voice's and do not
depend on the CPU; the render times do.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService
from hardware.config import VoiceConfig
from hardware.voice import Player, Voice

PAUSES = (2.0, 4.0, 6.0, 9.0, 14.0)  # the page's choices (web/static/among_cultists.js)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=("piper", "espeak-ng"), default="piper")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--no-seer", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-night-") as tmp:
        data = Path(tmp)
        voice = Voice(
            VoiceConfig(engine=args.engine), data_dir=data, player=Player(program="true")
        )  # no sound card needed
        if voice.engine is None:
            sys.exit(f"no voice to measure: {voice.why}")
        service = GameService(
            GameStore(data / "g.sqlite"), load_packs(), rng=random.Random(1), speech_length=voice.length
        )
        service.new_game(
            {
                "rules": "among-cultists",
                "players": args.players,
                "seer": not args.no_seer,
                "seed": 1,
                "points_needed": 5,
                "cultists": 2 if args.players >= 7 else 1,  # the host's number from the box's table
            }
        )
        print(f"voice: {voice.engine.description}; {args.players} players, seer: {not args.no_seer}")
        lines = service.script_lines()
        renders = []
        for line in lines:
            started = time.perf_counter()
            seconds = voice.length(line)
            renders.append((time.perf_counter() - started, seconds, line))
        print("  line (seconds of speech, first render)")
        for took, seconds, line in renders:
            if line in [s["text"] for s in service.narrate("night", 2.0)["narration"]["steps"]]:
                print(f"    {seconds:5.2f} s said, rendered in {took * 1000:6.0f} ms   {line[:60]}")
        print("  pause   speech   pauses   night   wait after a step's words (median, most)")
        for pause in PAUSES:
            narration = service.narrate("night", pause)["narration"]
            steps = narration["steps"]
            speech = sum(s["speech_s"] for s in steps)
            waits = [b["at"] - a["at"] - a["speech_s"] for a, b in zip(steps, steps[1:], strict=False)]
            print(
                f"  {pause:4.0f} s  {speech:5.1f} s  {sum(waits):5.1f} s  {narration['length']:5.1f} s   "
                f"{statistics.median(waits):.2f} s, {max(waits):.2f} s"
            )
        service.close()
        voice.close()


if __name__ == "__main__":
    main()
