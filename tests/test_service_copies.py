"""What the service hands out is a copy of the published state, each caller and listener its own: made from the state's
marshal bytes, which equals the plain deep copy for JSON data of the exact types. Every game publishes only those
(dicts, lists, strings, numbers, booleans, None), walked here through the real service and SQLite file."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.errors import CompanionError
from companion.games.base import module_for
from companion.history import GameStore
from companion.service import GameService
from tests.test_engine_legal import ENDINGS, FILL

PLAIN = (dict, list, str, int, float, bool, type(None))


def odd_types(value: Any, where: str = "state") -> list[str]:
    """Where `value` holds anything but JSON data of the exact types."""
    found = [] if type(value) in PLAIN else [f"{where}: {type(value).__name__}"]
    if type(value) is dict:
        for key, item in value.items():
            found += odd_types(item, f"{where}.{key}")
    elif type(value) is list:
        for index, item in enumerate(value):
            found += odd_types(item, f"{where}[{index}]")
    return found


SETUPS: list[dict[str, Any]] = [
    {"players": 3, "board": "asylum", "ghost": "child", "seed": 3},
    {"rules": "elder-sign", "players": 2, "seed": 4},
    {"rules": "among-cultists", "players": 5, "seed": 5},
    {"rules": "spooks", "players": 4, "master_effects": True},
]


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: str(s.get("rules", "skeptics")))
def test_every_game_publishes_plain_json_and_each_gets_its_own_copy(tmp_path: Path, setup: dict[str, Any]) -> None:
    module = module_for(setup.get("rules"))
    heard: list[dict[str, Any]] = []
    with GameService(GameStore(tmp_path / "games.sqlite3"), module.load_packs(None), rng=random.Random(1)) as service:
        service.add_listener(lambda events, state: heard.append(state))
        service.add_listener(lambda events, state: state.clear())  # a listener that spoils its own copy
        service.new_game(setup)
        rng = random.Random(7)
        played = 0
        for _ in range(60):
            state = service.state()
            assert odd_types(state) == []
            state["legal"].append({"name": "spoiled"})  # a caller that changes its copy changes nobody else's
            assert service.state() != state
            legal = service.state()["legal"]
            rng.shuffle(legal)
            legal.sort(key=lambda action: action["name"] in ENDINGS)  # the game goes on: its end comes last
            for action in legal:
                args = dict(action["args"])
                args.update({ask: rng.choice(FILL.get(ask) or ("1",)) for ask in action["asks"]})
                try:
                    result = service.do(action["name"], args)
                except CompanionError:
                    continue
                played += 1
                # the caller is handed the state as published; each listener and state() a copy made from its
                # bytes, equal to it and their own
                assert heard[-1] == result.state == service.state()
                assert result.state is not heard[-1]
                result.state.clear()  # the caller spoils the state it was handed: nobody else sees it
                assert service.state() == heard[-1] != {}
                break
            else:
                break
        assert played >= 5
