"""A Skeptics ghost card not filled in yet (every bundled one) plays no Ghost Hour ability of its own: "Once the Ghost
appears, the Ghost will use its Ghost Hour Ability" (skeptics-rulebook.txt:209), "Each time the Ghost is revealed at
the Ghost Hour or during Ghost Mode" (:219), and the ability is printed on the card on the table. The companion asks
the host what it did, as it asks the rest of the card (tell-ghost), after the environment card drawn first (:204-207),
and the doors follow the answer. A game stored before it asked reopens as it was played (a real SQLite file written
by main's code before, Game.ability_played)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from games import BUNDLED, PACKS, types

from companion.errors import IllegalCommand
from companion.games.skeptics.engine import Game, Setup
from companion.games.skeptics.module import MODULE
from companion.games.skeptics.sentences import Names, action_label, describe_event, describe_events
from companion.history import GameStore, replay_game

DATA = Path(__file__).parent / "data"
OLD_FILE = DATA / "skeptics-stand-in-ability.sqlite"  # written by main (bbfb726) before this change (see its .json)
OLD = json.loads((DATA / "skeptics-stand-in-ability.json").read_text())


def at_the_ghost_hour(packs: Any = BUNDLED, ghost: str = "child") -> tuple[Game, list[dict[str, Any]]]:
    """One player, physical decks: the door 7-8 unlocked, then the Ghost Hour draws the Fire and room 8."""
    game = Game.new(Setup(players=1, board="asylum", ghost=ghost, seed=3, physical=True), packs)
    game.push("unlock door=7-8")
    for _ in range(3):
        game.push("end-round")
    return game, game.push("end-round environment=fire room=8")


def taps(game: Game) -> list[dict[str, str]]:
    return [dict(a.args) for a in game.legal_actions() if a.name == "tell-ghost"]


def test_the_stand_ins_ability_is_asked_at_the_ghost_hour_and_plays_nothing_of_its_own() -> None:
    game, events = at_the_ghost_hour()
    assert BUNDLED.ghosts["child"].placeholder and BUNDLED.ghosts["child"].closes_doors
    assert "doors_closed" not in types(events) and game.view()["doors_open"] == ["7-8"]
    asked = [e.get("ask") for e in events if e["type"] == "card_asked" and e.get("kind") == "ghost"]
    assert asked == ["ability", "sets"]  # what happened at once first, then what the card shows
    # the environment card drawn first is asked first (:207): the Fire's tokens, then the ghost
    assert game.view()["question"]["kind"] == "fires" and taps(game) == []
    game.push("tell-fires spaces=none")
    assert game.view()["question"] == {"kind": "ghost", "ask": "ability", "left": 1}
    assert taps(game) == [{"ability": "doors"}, {"ability": "nothing"}]
    names = Names.of_game(game)
    labels = [action_label(a.to_dict(), names) for a in game.legal_actions() if a.name == "tell-ghost"]
    assert labels == ["It closed the doors next to its room", "Something else (the table plays it)"]
    said = describe_event({"type": "card_asked", **game.view()["question"]})
    assert "Ghost Hour ability" in said and "what did it do?" in said, said
    with pytest.raises(IllegalCommand, match="already open"):
        game.push("unlock door=7-8")  # the door is open: the host did not say it closed
    told = game.push("tell-ghost ability=doors")
    assert [e["doors"] for e in told if e["type"] == "doors_closed"] == [["7-8"]]
    assert game.view()["doors_open"] == [] and game.view()["question"]["ask"] == "sets"
    assert describe_events(told)[0] == "The ghost's Ghost Hour ability closed the doors next to room 8."
    with pytest.raises(IllegalCommand, match="nothing is asked about the ghost's ability"):
        game.push("tell-ghost ability=doors")


def test_something_else_closes_no_door_and_the_ghost_pulled_away_closes_those_of_where_it_appeared() -> None:
    game, _ = at_the_ghost_hour()
    game.push("tell-fires spaces=none")
    game.push("tell-ghost ability=nothing")
    assert game.view()["doors_open"] == ["7-8"] and game.view()["question"]["ask"] == "sets"
    game.pop()
    game.push("ghost-at room=3")  # moved by the host before the answer: the doors of room 8 close, not of room 3
    game.push("unlock door=2-3")
    game.push("tell-ghost ability=doors")
    assert game.view()["doors_open"] == ["2-3"]


def test_a_filled_in_ghost_card_plays_its_ability_and_a_summon_or_the_host_asks_nothing() -> None:
    game, events = at_the_ghost_hour(PACKS)
    assert [e["doors"] for e in events if e["type"] == "doors_closed"] == [["7-8"]]
    assert not any(e.get("ask") == "ability" for e in events)
    stand_in, _ = at_the_ghost_hour()
    stand_in.push("tell-fires spaces=none")
    stand_in.push("tell-ghost ability=nothing")
    events = stand_in.push("ghost-at room=13")  # the host's correction is no Ghost Hour (nor a summon, :219)
    assert not any(e.get("ask") == "ability" for e in events) and stand_in.view()["question"]["ask"] == "sets"


def json_view(game: Game) -> Any:
    return json.loads(json.dumps(game.view(), sort_keys=True, default=str))


@pytest.mark.parametrize("key", ["child", "poltergeist"])
def test_a_game_stored_before_the_ability_was_asked_reopens_as_it_was_played(tmp_path: Path, key: str) -> None:
    """The file (written by main's code before): the stand-in Child Ghost closed the door next to room 8 at the Ghost
    Hour and the table unlocked it again; the stand-in Poltergeist's Ghost Hour asked nothing of its ability. Both
    reopen to the state they were stored with, not to a question the table was never asked."""
    old = OLD["games"][key]
    path = tmp_path / "old.sqlite"
    shutil.copy(OLD_FILE, path)
    with GameStore(path) as store:
        game = replay_game(store, old["game_id"], BUNDLED, MODULE)
    assert isinstance(game, Game) and game.ability_played and not game.stand_in_reading
    assert len(game.history) == len(old["commands"])
    assert json_view(game) == old["view"]
    assert not any(a.name == "tell-ghost" and "ability" in a.args for a in game.legal_actions())


def test_a_game_that_asked_reopens_asking_whether_told_or_not(tmp_path: Path) -> None:
    game, _ = at_the_ghost_hour()
    setup = game.setup
    with GameStore(tmp_path / "new.sqlite") as store:
        gid = store.create_game(setup.to_dict())
        fresh = Game.new(setup, BUNDLED)
        for seq, command in enumerate(game.history, 1):
            store.append(gid, seq, command.to_dict(), fresh.push(command))
        asked = replay_game(store, gid, BUNDLED, MODULE)
        assert isinstance(asked, Game) and not asked.ability_played
        assert asked.view() == game.view() and asked.view()["doors_open"] == ["7-8"]
        for text in ("tell-fires spaces=none", "tell-ghost ability=doors"):
            command = Game.command_type.parse(text)
            store.append(gid, len(fresh.history) + 1, command.to_dict(), fresh.push(command))
        told = replay_game(store, gid, BUNDLED, MODULE)
    assert isinstance(told, Game) and not told.ability_played and told.view()["doors_open"] == []


def test_a_file_stored_before_events_were_reopens_as_played_when_its_ghost_hour_came_unasked(tmp_path: Path) -> None:
    """The same commands in a file of before the events were stored (the setup and the commands only): playing them
    tells that the ghost appeared at a Ghost Hour, so they were played with the stand-in's own ability."""
    old = OLD["games"]["child"]
    setup = Setup(players=1, board="asylum", ghost="child", seed=3, physical=True)
    with GameStore(tmp_path / "then.sqlite") as store:
        gid = store.create_game(setup.to_dict())
        for seq, text in enumerate(old["commands"], 1):
            store.append(gid, seq, Game.command_type.parse(text).to_dict(), [])
        game = replay_game(store, gid, BUNDLED, MODULE)
    assert isinstance(game, Game) and game.ability_played and json_view(game) == old["view"]
