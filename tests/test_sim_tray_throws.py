"""--sim's tray throws only when a person taps "Throw the dice (simulated tray)" (vision.sim_tray.Thrower).

A fresh player at two phones saw the simulated tray roll by itself, with no tap, after every command that was not
a roll: entering a card's tasks, moving to an adventure, a turn's start, "Add the yellow die", midnight's choices, and
Skeptics' "Start the roll". Here the whole of ``companion serve --sim`` runs (companion.serve.Companion): the real
ThrowCamera in the tray's camera thread, the real dice reader and tray watcher, the real GameService on an SQLite
file, the real Flask app behind waitress; the phones are HTTP clients. A command that is not a throw draws no new
photo and plays no roll; each tap throws once, and that throw is read and played from the tray as a real one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from games import numbers_copied
from web_fixtures import HOST_PIN, JOIN_CODE, Client

from companion.config import parse_config
from companion.daemon import Notifier
from companion.serve import Companion
from vision.sim_tray import NO_ROLL, NO_ROLL_PLAYER, ThrowCamera

FRAMES = 15  # frames the camera thread gives after a command before the test says nothing was thrown


def sim_companion(tmp_path: Path, interval: float = 0.02, settle_s: float = 0.1) -> Companion:
    """``companion serve --sim`` as built from its configuration (not started): a Skeptics demo game, the tray on."""
    config = parse_config(
        {
            "web": {"host": "127.0.0.1", "port": 0, "join_code": JOIN_CODE, "host_pin": HOST_PIN},
            "camera": {"enabled": True, "interval": interval, "settle_s": settle_s},
            "game": {"players": 3, "seed": 7},
            "hardware": {"voice": {"quiet": True}, "pins": {"debounce_s": 0.0}, "servo": {"speed_deg_s": 2000.0}},
        },
        env={"COMPANION_DATA_DIR": str(tmp_path / "data")},
    )
    return Companion(config, sim=True, notifier=Notifier(env={}))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Companion]:
    companion = sim_companion(tmp_path)
    companion.start()
    try:
        yield companion
    finally:
        companion.shutdown()


def until(served: Companion, done: Callable[[], Any], what: str, seconds: float = 30.0) -> Any:
    end = time.monotonic() + seconds
    while not (found := done()):
        assert time.monotonic() < end, f"timed out waiting for {what}"
        served.step(0.02)  # the main loop plays what the tray read
    return found


def camera(served: Companion) -> ThrowCamera:
    assert served.tray is not None
    found = until(served, lambda: served.tray.camera if served.tray else None, "the tray's camera")
    assert isinstance(found, ThrowCamera)
    return found


def frames_pass(served: Companion, count: int = FRAMES) -> None:
    assert served.tray is not None
    start = served.tray.frames
    until(served, lambda: served.tray is not None and served.tray.frames >= start + count, f"{count} frames")


def rolls(served: Companion) -> list[dict[str, Any]]:
    return [h for h in served.game.history() if h["command"]["name"] in ("roll", "clue")]


def phones(served: Companion) -> tuple[Client, Client]:
    url = f"http://127.0.0.1:{served.port}"
    return Client(url).join().sign_in(), Client(url).join()


def command(host: Client, name: str, **args: str) -> None:
    reply = host.post("/api/command", {"command": name, "args": args})
    assert reply.status == 200, reply.body


def no_throw_after(served: Companion, tray: ThrowCamera, host: Client, name: str, **args: str) -> None:
    """A command that is not a throw: the tray's photo stays, no roll is played."""
    thrown, played = tray.throws, len(rolls(served))
    command(host, name, **args)
    frames_pass(served)
    assert tray.throws == thrown, f"the tray threw by itself after {name}"
    assert len(rolls(served)) == played, f"a roll was played after {name} with no tap"


def tap(served: Companion, phone: Client, tray: ThrowCamera) -> dict[str, Any]:
    """One tap on "Throw the dice (simulated tray)": one new photo, read and played as the roll."""
    thrown, played = tray.throws, len(rolls(served))
    reply = phone.post("/api/tray/throw", {})
    assert reply.status == 200, reply.body
    answer = reply.json()
    until(served, lambda: len(rolls(served)) > played, "the roll read in the tray")
    frames_pass(served)
    assert tray.throws == thrown + 1 and len(rolls(served)) == played + 1  # one throw, one roll, no more
    assert rolls(served)[-1]["source"] == "tray"
    return dict(answer)


def test_skeptics_throws_only_on_a_tap_from_any_phone(served: Companion) -> None:
    host, player = phones(served)
    assert player.refresh()["sim_throw"] is True  # the page offers the throw: this tray is the simulated one
    tray = camera(served)
    frames_pass(served)
    before = tray.throws
    view = player.get("/api/tray/throw").json()
    # a player is told what comes next (only the host starts a roll or ends a turn); the host, what to do
    assert view["dice"] == [] and view["why"] == NO_ROLL_PLAYER and "start a roll" not in view["why"]
    assert host.get("/api/tray/throw").json()["why"] == NO_ROLL
    refused = player.post("/api/tray/throw", {})
    assert refused.status == 409 and NO_ROLL_PLAYER in refused.json()["error"]
    bare = player.post("/api/tray/throw")  # no body at all: as {} (docs/web.md: "nothing (or {})")
    assert bare.status == 409 and NO_ROLL_PLAYER in bare.json()["error"]
    assert NO_ROLL in host.post("/api/tray/throw", {}).json()["error"]
    assert player.post("/api/tray/throw", {"dice": 3}).status == 400  # it takes nothing
    frames_pass(served)
    assert tray.throws == before  # a refused tap throws nothing
    no_throw_after(served, tray, host, "attempt", action="search", need="eye:1")  # "Start the roll"
    assert player.get("/api/tray/throw").json()["dice"] == ["clue"] * 3
    answer = tap(served, player, tray)  # a player throws, as anyone at the table may throw real dice
    assert answer["thrown"] == ["clue"] * 3 and answer["throws"] == 1
    assert tray.shown == ("blue",) * 3  # exactly the dice of the roll under way
    assert served.tray is not None
    reading = served.tray.last_reading()
    assert reading is not None and sorted(d["color"] for d in reading["dice"]) == ["blue"] * 3
    # the roll left the attempt going (no eye) or ended it: either way nothing is thrown until the next tap
    frames_pass(served)
    assert tray.throws == before + 1


def test_elder_sign_throws_nothing_after_tasks_a_move_or_a_turn_and_once_per_tap(served: Companion) -> None:
    host, player = phones(served)
    served.game.new_game({"rules": "elder-sign", "players": 2, "seed": 3, "names": ["Anna", "Ben"]})
    tray = camera(served)
    frames_pass(served)
    while served.game.state().get("question"):  # the setup's Mythos card not filled in yet: it did nothing
        no_throw_after(served, tray, host, "card-did", effect="nothing")
    thrown = tray.throws
    numbers_copied(served.game._game, served.game)  # the stand-ins' numbers, copied before the first turn
    frames_pass(served)
    assert tray.throws == thrown, "the tray threw by itself while the numbers were copied"
    slot = served.game.state()["adventures"][0]["slot"]
    no_throw_after(served, tray, host, "set-tasks", adventure=str(slot), tasks="inv:5,lore:2", ordered="false")
    no_throw_after(served, tray, host, "move", to=str(slot))
    while served.game.state().get("question"):
        no_throw_after(served, tray, host, "card-did", effect="nothing")
    names = player.get("/api/tray/throw").json()["dice"]
    assert names and set(names) == {"green"}  # an adventure's first roll throws the green dice alone
    answer = tap(served, host, tray)  # the host throws too
    assert answer["thrown"] == names and tray.shown == tuple(names)
    roll = rolls(served)[-1]["command"]
    assert roll["name"] == "roll" and len(roll["args"]["faces"].split(",")) == len(names)
    legal = {x["name"] for x in served.game.state()["legal"]}
    if "end-turn" in legal:  # the next investigator's turn starts: still nothing thrown until a tap
        no_throw_after(served, tray, host, "end-turn")
