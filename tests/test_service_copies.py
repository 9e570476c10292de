"""What the service hands out is one published state, the same object for the caller of a command, every listener
and state(), copied for nobody: JSON data every game publishes (dicts, lists, strings, numbers, booleans, None), read
only where a change could reach anyone else. Walked here through the real service and SQLite file, for every game."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.errors import CompanionError
from companion.games.base import module_for
from companion.history import GameStore
from companion.service import GameService, ReadOnlyDict, ReadOnlyList
from tests.test_engine_legal import ENDINGS, FILL

PLAIN = (dict, list, str, int, float, bool, type(None), ReadOnlyDict, ReadOnlyList)


def odd_types(value: Any, where: str = "state") -> list[str]:
    """Where `value` holds anything but JSON data (dicts and lists, read-only or not, and scalars)."""
    found = [] if type(value) in PLAIN else [f"{where}: {type(value).__name__}"]
    if isinstance(value, dict):
        for key, item in value.items():
            found += odd_types(item, f"{where}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += odd_types(item, f"{where}[{index}]")
    return found


def spoil(value: Any) -> tuple[int, int]:
    """Try to change every dict and list inside `value`, as deep as it goes (a listener that writes on what it is
    handed): (how many let themselves be changed, how many refused)."""
    changed = refused = 0
    items = list(value.values()) if isinstance(value, dict) else list(value) if isinstance(value, list) else []
    for item in items:
        c, r = spoil(item)
        changed, refused = changed + c, refused + r
    if isinstance(value, (dict, list)):
        try:
            if isinstance(value, dict):
                value["spoiled"] = True
            else:
                value.append("spoiled")
            changed += 1
        except TypeError:
            refused += 1
    return changed, refused


SETUPS: list[dict[str, Any]] = [
    {"players": 3, "board": "asylum", "ghost": "child", "seed": 3},
    {"rules": "elder-sign", "players": 2, "seed": 4},
    {"rules": "among-cultists", "players": 5, "cultists": 1, "points_needed": 5, "seed": 5},
    {"rules": "spooks", "players": 4, "master_effects": True},
]


def play(service: GameService, rng: random.Random) -> bool:
    """One legal action of the game in play, picked with `rng` (its ending last); False when none is accepted."""
    legal = list(service.state()["legal"])
    rng.shuffle(legal)
    legal.sort(key=lambda action: action["name"] in ENDINGS)  # the game goes on: its end comes last
    for action in legal:
        args = dict(action["args"])
        args.update({ask: rng.choice(FILL.get(ask) or ("1",)) for ask in action["asks"]})
        try:
            service.do(action["name"], args)
        except CompanionError:
            continue
        return True
    return False


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: str(s.get("rules", "skeptics")))
def test_every_game_publishes_one_read_only_state_for_everyone(tmp_path: Path, setup: dict[str, Any]) -> None:
    module = module_for(setup.get("rules"))
    heard: list[tuple[list[dict[str, Any]], dict[str, Any]]] = []
    with GameService(GameStore(tmp_path / "games.sqlite3"), module.load_packs(None), rng=random.Random(1)) as service:
        service.add_listener(lambda events, state: heard.append((events, state)))
        service.add_listener(lambda events, state: heard.append((events, state)))
        service.new_game(setup)
        rng = random.Random(7)
        played = 0
        for _ in range(60):
            state = service.state()
            assert odd_types(state) == []
            assert state is service.state()  # one state, copied for nobody
            before = json.dumps(state, sort_keys=True)
            with pytest.raises(TypeError, match="change a copy"):
                state["legal"] = []
            with pytest.raises(TypeError, match="change a copy"):
                state.pop("game_id")
            with pytest.raises(TypeError, match="change a copy"):
                state["legal"].append({"name": "spoiled"})
            if state["legal"]:
                with pytest.raises(TypeError, match="change a copy"):
                    state["legal"][0]["args"]["spoiled"] = "1"
                with pytest.raises(TypeError, match="change a copy"):
                    state["legal"][0]["asks"].append("spoiled")
            mine = copy.deepcopy(state)  # a copy is the reader's own, plain all the way down
            assert mine == state and type(mine) is dict and type(mine["legal"]) is list
            mine["legal"].append({"name": "spoiled"})
            mine["round"] = "spoiled"
            assert json.dumps(service.state(), sort_keys=True) == before
            if not play(service, rng):
                break
            played += 1
            (events, first), (events_again, second) = heard[-2:]
            assert first is second is service.state() and events is events_again  # the same for every listener
            assert odd_types(events, "events") == []
            if events:
                with pytest.raises(TypeError, match="change a copy"):
                    events[0]["text"] = "spoiled"
        assert played >= 5


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: str(s.get("rules", "skeptics")))
def test_a_listener_that_spoils_what_it_is_handed_changes_nothing_of_the_game(
    tmp_path: Path, setup: dict[str, Any]
) -> None:
    """A listener that tries to change every dict and list it is handed, after each commit, changes none of them: a
    listener after it, and every later state, see what a table without it sees."""
    module = module_for(setup.get("rules"))
    spoiled: list[tuple[int, int]] = []
    seen: list[str] = []  # each state as published, after the spoiler had it
    with (
        GameService(GameStore(tmp_path / "a.sqlite3"), module.load_packs(None), rng=random.Random(1)) as spoilt,
        GameService(GameStore(tmp_path / "b.sqlite3"), module.load_packs(None), rng=random.Random(1)) as clean,
    ):
        spoilt.add_listener(lambda events, state: spoiled.append(spoil([events, state])))
        spoilt.add_listener(lambda events, state: seen.append(json.dumps(state, sort_keys=True)))
        spoilt.new_game(setup)
        clean.new_game(setup)
        plain = {"game_id", "started", "last_event_id"}  # the two files' own
        rng = random.Random(7)
        for _ in range(40):
            assert {k: v for k, v in json.loads(seen[-1]).items() if k not in plain} == {
                k: v for k, v in json.loads(json.dumps(clean.state())).items() if k not in plain
            }
            before = len(spoilt.history())
            if not play(clean, random.Random(rng.random())):
                break
            command = clean.history()[-1]["command"]
            spoilt.do(command["name"], command["args"])
            assert len(spoilt.history()) == before + 1
        assert sum(c for c, _ in spoiled) == len(spoiled)  # only the list the spoiler made itself let it write
        assert sum(r for _, r in spoiled) > 40 * len(spoiled)  # every dict and list of each state refused it
        assert [row["command"] for row in spoilt.history()] == [row["command"] for row in clean.history()]
        game_id = spoilt.game_id
        assert game_id is not None
        played = seen[-1]
        spoilt.load_game(game_id)  # the game again from its file: what it was before the spoiler had it
        assert json.loads(seen[-1]) == json.loads(played)
