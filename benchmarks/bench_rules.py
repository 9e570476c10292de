"""Replaying rules-heavy games: Ghost Hours, summons, pulls, timers, Ghost Mode, attempts, physical decks.

    uv run python benchmarks/bench_rules.py [--commands 500] [--repeat 15]

benchmarks/bench_engine.py measures a game of actions and dice through the service and SQLite; this one
makes games that use every rule the engine has (fixed seeds, so each run measures the same games) and
reports the median time to replay them, to push one command, to undo one, and to build the view.
The target: a 500-command game replays in well under 100 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.errors import CompanionError
from companion.games.skeptics.engine import Command, Game, Setup
from companion.games.skeptics.packs import Packs, load_packs

SETUPS = [
    Setup(players=2, board="asylum", ghost="child", seed=11),
    Setup(players=2, board="museum", ghost="shadow", seed=12),
    Setup(players=2, board="asylum", ghost="poltergeist", seed=13, physical=True),
]
# Room cards are few (18 with two players): commands that draw or move the clock are rarer, as at a table.
TEXTS = (
    ["action kind=move"] * 16
    + ["action kind=pickup", "action kind=other free=true", "ghost-at room=5", "ghost-at room=none"]
    + ["attempt action=search need=eye:2,camera:1", "attempt action=solve need=eye:1,cobweb:1"] * 3
    + ["attempt action=search need=cobweb:1,timer", "attempt action=unlock door=7-8", "attempt action=prove set=1"]
    + ["attempt action=search need=eye:1", "attempt action=fire", "ghost-at room=3", "ghost-at room=none"] * 4
    + ["ROLL"] * 20
    + ["reveal-clue", "solve", "pull success=true", "MOVE"] * 2
    + ["summon success=true"]
    + ["prove set=1", "prove set=2", "prove set=3", "unlock door=1-2", "end-turn"]
)
MAX_CLUES = 3  # no Ghost Mode: it draws a room card every round and would end the game early


def with_cards(game: Game, cmd: Command, rng: random.Random) -> Command:
    if not game.setup.physical:
        return cmd
    view = game.view()
    for rooms in range(3):
        for extra in ({}, {"environment": None}, {"evidence": None}):
            args = dict(cmd.args)
            if rooms:
                args["room"] = ",".join(map(str, rng.sample(view["rooms_unseen"], rooms)))
            if "environment" in extra and game.state.env_deck:
                args["environment"] = rng.choice(game.state.env_deck)
            if "evidence" in extra and game.state.evidence_left:
                args["evidence"] = rng.choice(game.state.evidence_left)
            candidate = Command(cmd.name, args)
            if game.is_legal(candidate):
                return candidate
    return cmd


def make_game(setup: Setup, packs: Packs, length: int) -> list[Command]:
    rng = random.Random(setup.seed)
    game = Game.new(setup, packs)
    faces = ["eye", "eye", "eye", "camera", "camera", "cobweb"]
    tries = 0
    while len(game.history) < length:
        tries += 1
        if tries > length * 200:
            view = game.view()
            raise SystemExit(
                f"could only make a game of {len(game.history)} commands (round {view['round']}, "
                f"room cards left {view['room_deck_left']}, final round {view['final_round']})"
            )
        text = rng.choice(TEXTS) if game.view()["actions_left"] else "end-turn"
        if text == "ROLL":
            attempt = game.view()["attempt"]
            if attempt is None:
                continue
            text = "roll faces=" + ",".join(rng.choice(faces) for _ in range(attempt["dice_to_roll"]))
        elif text == "reveal-clue" and game.view()["clues_revealed"] >= MAX_CLUES:
            continue
        elif text == "MOVE":
            room = game.view()["ghost_room"]
            if room is None:
                continue
            options = [n for n, _ in game.board.neighbours(room)]
            text = f"move-ghost to={rng.choice(options)}"
        cmd = with_cards(game, Command.parse(text), rng)
        try:
            game.push(cmd)
        except CompanionError:
            continue
        if game.outcome is not None and len(game.history) < length:
            game.pop()  # keep the game going: take back the command that ended it
    return game.history


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args(argv)
    packs = load_packs()
    for setup in SETUPS:
        commands = make_game(setup, packs, args.commands)
        game = Game.replay(setup, packs, commands)
        counts = {
            key: sum(1 for c in commands if c.name == key) for key in ("end-turn", "summon", "roll", "timer", "pull")
        }
        replay = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            Game.replay(setup, packs, commands)
            replay.append(time.perf_counter() - start)
        pushes, pops, views = [], [], []
        for _ in commands[-50:]:
            game.pop()
        for cmd in commands[-50:]:
            start = time.perf_counter()
            game.push(cmd)
            pushes.append(time.perf_counter() - start)
            start = time.perf_counter()
            game.view()
            views.append(time.perf_counter() - start)
        for _ in range(50):
            start = time.perf_counter()
            game.pop()
            pops.append(time.perf_counter() - start)
        mode = "physical" if setup.physical else "virtual"
        print(
            f"{setup.players}p {setup.board}/{setup.ghost} {mode}: {len(commands)} commands "
            f"(rounds {game.view()['round']}, hours {game.view()['hour']}, "
            f"cards drawn {len(game.view()['rooms_revealed'])}, "
            + ", ".join(f"{k} {v}" for k, v in counts.items())
            + ")"
        )
        total = median_ms(replay)
        print(f"  replay {len(commands)} commands   median {total:8.2f} ms   ({total / 100:.2f} of the 100 ms budget)")
        print(f"  one push                median {median_ms(pushes):8.4f} ms")
        print(f"  one pop (undo)          median {median_ms(pops):8.4f} ms")
        print(f"  view()                  median {median_ms(views):8.4f} ms")
        print(f"  ratio replay per command / one push: {total / len(commands) / median_ms(pushes):.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
