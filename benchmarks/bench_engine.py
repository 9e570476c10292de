"""How long a command takes (engine only, and through the service with its SQLite commit),
and how long replaying a long game takes.

    uv run python benchmarks/bench_engine.py [--commands 500] [--repeat 15] [--db-dir DIR]

A long game of legal commands is made first (a fixed seed, so every run measures the same
game). The SQLite figures depend on the disk: a commit waits for fsync (synchronous=FULL),
which is what makes a power cut safe. Use --db-dir to measure on the disk the Pi will use.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.errors import CompanionError
from companion.games.skeptics.engine import Command, Game, Setup
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore, replay_game
from companion.service import GameService

# What a table does most in a turn: actions and dice, with the odd clue, pull and prove.
# (Timers, summons and Ghost Mode use up the room deck fast; they are left out so the game lasts.)
WEIGHTED: list[tuple[int, str]] = [
    (30, "action kind=move"),
    (8, "action kind=pickup"),
    (12, "attempt action=search need=eye:2,camera:1"),
    (18, "ROLL"),
    (2, "reveal-clue"),
    (1, "solve"),
    (1, "pull success=true"),
    (2, "prove set=1"),
]
MAX_CLUES = 2  # few clues: no Ghost Mode (seven tokens, or every séance symbol matched)


def make_game(packs: Any, setup: Any, length: int, seed: int) -> list[Any]:
    """`length` commands the engine accepts, picked at random from WEIGHTED."""
    rng = random.Random(seed)
    game = Game.new(setup, packs)
    population = [text for weight, text in WEIGHTED for _ in range(weight)]
    faces = ["eye", "eye", "eye", "camera", "camera", "cobweb"]
    tries = 0
    while len(game.history) < length:
        tries += 1
        if tries > length * 50:
            raise SystemExit(f"could only make a game of {len(game.history)} commands")
        if game.outcome is not None:
            game.pop()
            continue
        # A turn ends when its three actions are spent (the rulebook allows ending it early, but
        # a table mostly plays its actions); end-round is rare, so the room deck lasts.
        text = (
            rng.choice(population) if game.view()["actions_left"] > 0 else rng.choice(["end-turn"] * 30 + ["end-round"])
        )
        if text == "reveal-clue" and game.view()["clues_revealed"] >= MAX_CLUES:
            continue
        if text == "ROLL":
            attempt = game.view().get("attempt")
            if not attempt:
                continue
            count = int(attempt.get("dice_to_roll", attempt["dice"] - len(attempt["kept"])))
            text = "roll faces=" + ",".join(rng.choice(faces) for _ in range(count))
        try:
            game.push(Command.parse(text))
        except CompanionError:
            continue
    return list(game.history)


LISTENERS = 4  # as many as `companion serve` gives the service


def keep(held: list[Any], index: int, events: list[dict[str, Any]], state: dict[str, Any]) -> None:
    """A stand-in listener: it keeps the commit it is handed (until the next one), as a real one does."""
    held[index] = (events, state)


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--db-dir", default=None, help="where the SQLite file goes (default: a temporary directory)")
    ns = parser.parse_args(argv)

    packs = load_packs()
    setup = Setup(players=2, board="asylum", ghost="child", special_items=3, seed=7, physical=False)
    commands = make_game(packs, setup, ns.commands, seed=11)

    # 1. One command, engine only: push each command of the long game, timed one by one.
    engine_samples: list[float] = []
    for _ in range(3):
        game = Game.new(setup, packs)
        for command in commands:
            start = time.perf_counter()
            game.push(command)
            engine_samples.append(time.perf_counter() - start)

    # 1b. What the host's panel offers after each command: the legal actions, by each rule's own checks; and, to
    # compare, by trying every candidate command on a copy of the state (the way a game without checks goes).
    legal_samples: list[float] = []
    tried_samples: list[float] = []
    game = Game.new(setup, packs)
    for command in commands:
        game.push(command)
        start = time.perf_counter()
        game.legal_actions()
        legal_samples.append(time.perf_counter() - start)
        start = time.perf_counter()
        game.legal_actions_tried()
        tried_samples.append(time.perf_counter() - start)

    # 2. One command through the service: check, SQLite transaction (fsync), publish, listeners. `companion serve`
    # has four listeners: the page's event streams (web.events.EventHub), the table's hand, OLED and voice
    # (hardware.Table.on_events), the backups and the phones' action log (web.context). Four stand-ins here, each
    # keeping what it is handed as the streams' queues and the table's snapshot do: what the service pays to hand a
    # commit to each is measured, not the listeners' own work (done off the command, in their threads).
    service_samples: list[float] = []
    held: list[Any] = [None] * LISTENERS
    with tempfile.TemporaryDirectory(dir=ns.db_dir) as tmp:
        db = Path(tmp) / "bench.sqlite3"
        with GameService(GameStore(db), packs, rng=random.Random(1)) as service:
            for index in range(LISTENERS):
                service.add_listener(functools.partial(keep, held, index))
            service.new_game(setup)
            for command in commands:
                start = time.perf_counter()
                service.do(command.name, dict(command.args), source="bench")
                service_samples.append(time.perf_counter() - start)
            game_id = service.game_id
            assert game_id is not None

        # 3. Replaying the long game: engine only, and from the file (read + replay).
        replay_samples: list[float] = []
        file_samples: list[float] = []
        store = GameStore(db)
        for _ in range(ns.repeat):
            start = time.perf_counter()
            Game.replay(setup, packs, commands)
            replay_samples.append(time.perf_counter() - start)
            start = time.perf_counter()
            replay_game(store, game_id, packs)
            file_samples.append(time.perf_counter() - start)
        store.close()

    engine = median_ms(engine_samples)
    service = median_ms(service_samples)
    replay = median_ms(replay_samples)
    from_file = median_ms(file_samples)
    n = len(commands)
    print(f"long game: {n} commands (2 players, asylum, child ghost, seed 7)")
    print(
        f"one command, engine only            median {engine:9.4f} ms  ({len(engine_samples)} samples; "
        f"mean {statistics.fmean(engine_samples) * 1000:.4f} ms)"
    )
    legal = median_ms(legal_samples)
    print(f"legal actions after a command        median {legal:9.4f} ms  ({len(legal_samples)} samples)")
    tried = median_ms(tried_samples)
    print(f"  the same, every candidate tried    median {tried:9.4f} ms  ({len(tried_samples)} samples)")
    print(
        f"one command, service + SQLite commit median {service:9.4f} ms  ({len(service_samples)} samples; "
        f"{LISTENERS} listeners)"
    )
    print(f"replay {n} commands, engine only     median {replay:9.2f} ms  ({ns.repeat} runs)")
    print(f"replay {n} commands from the file    median {from_file:9.2f} ms  ({ns.repeat} runs)")
    print(f"ratio service / engine per command:           {service / engine:8.1f}x")
    print(f"ratio legal actions / one engine push:        {legal / engine:8.1f}x")
    print(
        f"ratio replay per command / one engine push:   {replay / n / engine:8.2f}x  "
        f"(against the mean push: {replay / n / (statistics.fmean(engine_samples) * 1000):.2f}x)"
    )
    print(f"ratio replay from file / replay in memory:    {from_file / replay:8.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
