"""Never play a stand-in adventure's tasks (docs/elder-sign.md, "Cards not filled in yet"): an adventure not filled in
yet has no tasks of its own until the host enters the ones printed on it (elder-sign-rules.txt:115 "Every Adventure
card has horizontal rows of symbols. Each row is a task"), so no roll is judged against made-up ones (:177 "compare
the results to the requirements listed for each task on the Adventure card"). Through the engine, the service on a
real SQLite file, the app behind a real waitress server and the terminal's console script; and a history written
before, which rolled at stand-ins with their stand-in tasks, still opens and replays to the state it had."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from games import numbers_copied
from test_game_cli import assert_clean_error, run
from web_fixtures import Client, start_table

from companion.errors import BadCommand, IllegalCommand
from companion.games.elder_sign.engine import Command, Game, Reading, Setup
from companion.games.elder_sign.packs import TaskCard, load_packs, parse_tasks
from companion.games.skeptics.packs import load_packs as skeptics_packs
from companion.history import GameStore
from companion.service import GameService

DATA = Path(__file__).parent / "data"
OLD_FILE = DATA / "elder-sign-stand-in-tasks.sqlite"  # written by main before this change (see its .json)
OLD = json.loads((DATA / "elder-sign-stand-in-tasks.json").read_text())
SETUP = Setup(players=2, seed=11, names=("Ada", "Bo"))
FACES = "inv2,peril,peril,peril,peril,peril"


def new_game() -> Game:
    game = Game.new(SETUP, load_packs())
    game.push("card-did effect=nothing")  # the first Mythos card (a stand-in): told
    numbers_copied(game)
    return game


def card(game: Game | dict[str, Any], slot: str) -> dict[str, Any]:
    view = game.view() if isinstance(game, Game) else game
    found: dict[str, Any] = next(c for c in view["adventures"] if c["slot"] == slot)
    return found


def contains(big: Any, small: Any, path: str = "") -> None:
    """Every key and value of `small` (a view written by the old code) is in `big`, lists item by item."""
    if isinstance(small, dict):
        for key, value in small.items():
            assert key in big, f"{path}.{key} is gone"
            contains(big[key], value, f"{path}.{key}")
    elif isinstance(small, list):
        assert len(big) == len(small), (path, big, small)
        for i, (a, b) in enumerate(zip(big, small)):
            contains(a, b, f"{path}[{i}]")
    else:
        assert big == small, (path, big, small)


# -- the engine ------------------------------------------------------------------------------------------------


def test_a_stand_in_adventure_has_no_tasks_and_a_roll_there_is_refused_and_changes_nothing() -> None:
    packs = load_packs()
    game = new_game()
    assert all(c.placeholder for c in packs.adventures.values())  # the bundled cards are all stand-ins
    for c in game.view()["adventures"]:
        assert c["tasks"] == [] and c["tasks_missing"] is True and c["ordered"] is False
    game.push("move to=4")
    before, played = game.view(), game.played
    for text in (f"roll faces={FACES}", "add-die colour=yellow", "give-up"):
        with pytest.raises(IllegalCommand) as refused:
            game.push(text)
        message = str(refused.value)
        assert "the adventure in place 4" in message and "enter the tasks printed on the card first" in message
        assert game.view() == before and game.played == played
    assert game.odds_question() is None  # no odds against tasks that are not on the board
    legal = game.legal_actions()
    assert not [a for a in legal if a.name in ("roll", "clue", "give-up", "add-die")]
    entering = [(a.group, a.args["adventure"], a.asks) for a in legal if a.name == "set-tasks"]
    assert ("roll", "4", ("tasks", "ordered")) in entering  # instead of the roll, where the investigator stands
    assert [e for e in entering if e[0] == "roll"] == [("roll", "4", ("tasks", "ordered"))]
    assert {e[1] for e in entering if e[0] == "table"} == {"1", "2", "3", "5", "6"}


def test_the_host_enters_the_tasks_printed_on_the_card_and_the_roll_is_judged_against_them() -> None:
    """:281-283 the arrow; :185 "If the task tells me to move the Clock forward, lose Sanity, or lose Stamina, I have
    to do that now": the costs entered are paid, not asked; the card's reward is still the host's (:195)."""
    game = new_game()
    game.push("move to=4")
    with pytest.raises(BadCommand, match="ordered=true when it shows the arrow"):
        game.push("set-tasks adventure=4 tasks=inv:2;peril:1")
    events = game.push("set-tasks adventure=4 tasks=inv:2;peril:1,sanity:-1;inv:4,lore:1 ordered=true")
    told = next(e for e in events if e["type"] == "tasks_set")
    assert told["tasks"] == ["inv:2", "peril:1", "inv:4,lore:1"] and told["costs"] == [{}, {"sanity": -1}, {}]
    shown = card(game, "4")
    assert shown["tasks_missing"] is False and shown["ordered"] is True
    assert [(t["need"], t.get("sanity", 0)) for t in shown["tasks"]] == [
        ("inv:2", 0),
        ("peril:1", -1),
        ("inv:4,lore:1", 0),
    ]
    question = game.odds_question()
    assert question is not None and question["tasks"] == ["inv:2", "peril:1", "inv:4,lore:1"] and question["ordered"]
    sanity = game.view()["investigators"][0]["sanity"]
    first = game.push("roll faces=peril,peril,peril,peril,peril,inv2")  # the arrow: only the top task is open
    assert [e["task"] for e in first if e["type"] == "task_completed"] == [1]
    second = game.push("roll faces=peril,inv1,inv1,lore,lore")
    assert [e["task"] for e in second if e["type"] == "task_completed"] == [2]
    assert "card_asked" not in [e["type"] for e in first + second]  # the costs were entered: nothing to ask
    assert game.view()["investigators"][0]["sanity"] == sanity - 1
    third = game.push("roll faces=inv3,inv1,lore,terror")
    assert "adventure_completed" in [e["type"] for e in third]
    assert game.view()["question"]["part"] == "reward"  # the stand-in's reward is not played: asked


def test_a_monster_on_a_card_without_tasks_stays_when_they_are_entered_and_the_roll_waits_for_them() -> None:
    """:391 a monster marker "under the bottom task, adding another task to the card": the card's own tasks are
    still not entered, so no roll is judged against the monster alone."""
    game = new_game()
    game.push("monster adventure=2 need=inv:3")
    shown = card(game, "2")
    assert shown["tasks_missing"] is True and [t["need"] for t in shown["tasks"]] == ["inv:3"]
    game.push("move to=2")
    with pytest.raises(IllegalCommand, match="enter the tasks printed on the card first"):
        game.push(f"roll faces={FACES}")
    game.push("set-tasks adventure=2 tasks=inv:8 ordered=false")
    assert [(t["need"], t["monster"]) for t in card(game, "2")["tasks"]] == [("inv:8", False), ("inv:3", True)]
    events = game.push("roll faces=inv3,inv1,peril,peril,peril,peril")
    assert [(e["task"], e["monster"]) for e in events if e["type"] == "task_completed"] == [(2, True)]


def test_an_other_world_not_filled_in_yet_comes_through_a_gate_without_tasks() -> None:
    """:247 a gate: an Other World card below the adventures; a stand-in one has no tasks either."""
    game = new_game()
    game.push("set-tasks adventure=4 tasks=inv:2 ordered=false")
    game.push("move to=4")
    game.push(f"roll faces={FACES}")
    assert game.view()["question"]["part"] == "reward"
    game.push("card-did effect=gate")
    world = next(c for c in game.view()["adventures"] if c["other_world"])
    assert world["tasks"] == [] and world["tasks_missing"] is True


def test_a_locked_die_icon_on_the_card_is_told_with_its_tasks() -> None:
    """:399 "Some Adventure cards ... have a locked die icon": a stand-in's is not played (not the card's), so the
    host tells it with the tasks; the next roll throws one green die fewer (:111, :403)."""
    game = new_game()
    assert game.view()["locked"] == {} and len(game.next_roll_dice()) == 6
    game.push("set-tasks adventure=3 tasks=inv:3 ordered=false lock=green")
    assert card(game, "3")["lock"] == "green" and game.view()["locked"] == {"green": 1}
    assert len(game.next_roll_dice()) == 5
    with pytest.raises(BadCommand, match="lock= is told with the tasks of a card not filled in yet"):
        game.push("set-tasks adventure=3 tasks=inv:4 lock=red")  # its tasks are entered now
    game.push("set-tasks adventure=5 tasks=inv:3 ordered=false lock=yellow")
    with pytest.raises(IllegalCommand, match="every yellow die is locked already"):
        game.push("set-tasks adventure=6 tasks=inv:3 ordered=false lock=yellow")


def test_the_battle_waits_for_the_combat_task_printed_on_the_ancient_ones_card() -> None:
    """:439 "Each Ancient One has a specific Combat Task printed on its card": a stand-in Ancient One's is not the
    card's, so once it is awake the turn offers entering it instead of the attack, and no blow is judged without it."""
    game = new_game()
    assert game.ancient.placeholder and game.view()["ancient_one"]["combat_missing"] is True
    game.push(f"doom n={game.view()['doom_max']}")  # awake
    game.push("end-turn")
    assert game.view()["ancient_one"]["combat"] == "" and game.odds_question() is None
    before = game.view()
    with pytest.raises(IllegalCommand, match="enter the combat task printed on its card first"):
        game.push(f"roll faces={FACES}")
    assert game.view() == before
    legal = game.legal_actions()
    assert not [a for a in legal if a.name in ("roll", "add-die", "give-up")]
    assert [(a.group, dict(a.args)) for a in legal if a.name == "set-tasks" and a.group == "roll"] == [
        ("roll", {"adventure": "ancient-one"})
    ]
    game.push("set-tasks adventure=ancient-one tasks=lore:2")
    assert game.view()["ancient_one"]["combat"] == "lore:2" and game.odds_question() is not None
    doom = game.view()["doom"]
    events = game.push("roll faces=lore,lore,peril,peril,peril,peril")
    assert "combat_task_completed" in [e["type"] for e in events] and game.view()["doom"] == doom - 1


def test_a_task_written_as_text_carries_its_costs_and_bad_ones_are_refused() -> None:
    tasks = parse_tasks("inv:3,lore:1,sanity:-1,clock:3; peril:1,stamina:-2")
    assert tasks[0] == TaskCard(tasks[0].need, sanity=-1, clock=3) and str(tasks[0].need) == "inv:3,lore:1"
    assert tasks[1].stamina == -2 and str(tasks[1]) == "peril:1,stamina:-2"
    assert parse_tasks([str(t) for t in tasks]) == tasks
    for bad, words in (("inv:3,clock:2", "clock must be"), ("inv:3,sanity:x", "whole number"), ("lore:x", "lore")):
        with pytest.raises(ValueError, match=words):
            parse_tasks(bad)
    game = new_game()
    with pytest.raises(BadCommand, match="task 2 has costs but no symbol"):
        game.push("set-tasks adventure=1 tasks=inv:2;sanity:-1 ordered=false")


# -- a history written before ------------------------------------------------------------------------------------


def test_the_old_history_rolled_at_stand_ins_as_the_asking_reading_refuses() -> None:
    """The fixture is what it says: its commands roll at a stand-in whose tasks nobody entered."""
    game = Game.new(SETUP, load_packs(), reading=Reading.NUMBERS)  # played before the numbers were asked first
    with pytest.raises(IllegalCommand, match="enter the tasks printed on the card first"):
        for text in OLD["commands"]:
            game.push(text)


# the old view but the stand-in Ancient One's limits, which no reader showed (they are told as none now)
SHOWN = {k: v for k, v in OLD["view"].items() if k not in ("doom_max", "elder_signs_needed")}


def test_a_history_written_before_opens_and_replays_to_the_state_it_had(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    shutil.copy(OLD_FILE, db)
    service = GameService(GameStore(db), skeptics_packs(), rng=random.Random(1))
    try:
        state = service.resume_last()
        assert state is not None and state["game_id"] == OLD["game_id"]
        assert state["history_length"] == len(OLD["commands"])
        contains(state, SHOWN)  # every key and value the old code showed, the same
        # the stand-in's doom track and Elder Sign limit, which every reader hid then, are told as none (Game.doom_max)
        assert (state["doom_max"], state["elder_signs_needed"]) == (None, None)
        game = service._game
        assert isinstance(game, Game) and game.reading >= Reading.STAND_IN
        assert game.history == [Command.parse(text) for text in OLD["commands"]]
        # it plays on as it was played: the stand-in's task of the card in place 2 stays and is judged
        assert card(state, "2")["tasks_missing"] is False
        service.undo()
        service.redo()
        contains(service.state(), SHOWN)
        record = service.records()[0]
        assert "problem" not in record and record["commands"] == len(OLD["commands"])
        assert record["attempts"], record  # the attempts at the stand-ins are weighed, as they were played
    finally:
        service.close()
    again = Game.replay(SETUP, load_packs(), OLD["commands"])
    assert again.reading >= Reading.STAND_IN and again.view() == game.view()


def test_an_old_game_that_never_rolled_at_a_stand_in_plays_on_without_its_made_up_tasks() -> None:
    game = Game.replay(SETUP, load_packs(), OLD["commands"][:3])  # the Mythos card told, then a move
    assert game.reading < Reading.STAND_IN and card(game, "4")["tasks_missing"] is True
    numbers_copied(game)
    with pytest.raises(IllegalCommand, match="enter the tasks printed on the card first"):
        game.push(f"roll faces={FACES}")


def test_a_game_played_now_is_stored_and_opens_again_in_the_same_reading(tmp_path: Path) -> None:
    db = tmp_path / "now.sqlite"
    service = GameService(GameStore(db), skeptics_packs(), rng=random.Random(2))
    service.new_game({"rules": "elder-sign", "players": 2, "seed": 11, "names": ["Ada", "Bo"]})
    numbers_copied(service._game, service)
    service.do("card-did", {"effect": "nothing"})
    service.do("set-tasks", {"adventure": "4", "tasks": "inv:2;peril:1,sanity:-1", "ordered": "true"})
    service.do("move", {"to": "4"})
    service.roll_virtual()
    before = service.state()
    service.close()
    again = GameService(GameStore(db), skeptics_packs(), rng=random.Random(2))
    try:
        assert again.resume_last() == before
        game = again._game
        assert isinstance(game, Game) and game.reading < Reading.STAND_IN
    finally:
        again.close()


# -- the app and the terminal ----------------------------------------------------------------------------------


def test_the_app_refuses_a_roll_at_a_card_without_tasks_in_the_players_words_and_takes_the_tasks(
    tmp_path: Path,
) -> None:
    service = GameService(GameStore(tmp_path / "g.sqlite"), skeptics_packs(), rng=random.Random(3))
    service.new_game({"rules": "elder-sign", "players": 2, "seed": 11, "names": ["Ada", "Bo"]})
    numbers_copied(service._game, service)
    table = start_table(tmp_path, service=service)
    try:
        host = Client(table.url).join().sign_in()
        player = Client(table.url).join()
        assert host.post("/api/command", {"command": "move", "args": {"to": "4"}}).status == 200
        before = service.state(), service.history()
        refused = host.post("/api/roll", {})
        assert refused.status == 409
        said = refused.json()["say"]  # the page's words: what to do, no command's spelling
        assert said.startswith("The adventure in place 4 is not filled in yet") and "enter the tasks printed" in said
        assert "=" not in said and "set-tasks" not in said and ":115" not in said, said
        assert "set-tasks adventure=4" in refused.json()["error"]
        assert (service.state(), service.history()) == before
        state = player.get("/api/state").json()
        assert card(state, "4")["tasks"] == [] and card(state, "4")["tasks_missing"] is True
        assert state["odds"] is None and not state.get("card_odds")
        assert "legal" not in state  # the host's buttons, on the host's phone alone (web.events.for_phone)
        legal = host.get("/api/state").json()["legal"]
        offered = [a for a in legal if a["name"] == "set-tasks" and a["group"] == "roll"]
        assert [a["args"] for a in offered] == [{"adventure": "4"}] and offered[0]["asks"] == ["tasks", "ordered"]
        no_arrow = host.post("/api/command", {"command": "set-tasks", "args": {"adventure": "4", "tasks": "inv:2"}})
        assert no_arrow.status == 400 and "arrow" in no_arrow.json()["error"]
        args = {"adventure": "4", "tasks": "inv:2; peril:1,sanity:-1", "ordered": "false"}
        entered = host.post("/api/command", {"command": "set-tasks", "args": args})
        assert entered.status == 200
        shown = card(player.get("/api/state").json(), "4")
        assert [t["need"] for t in shown["tasks"]] == ["inv:2", "peril:1"] and shown["tasks"][1]["sanity"] == -1
        assert player.get("/api/state").json()["card_odds"]["slot"] == "4"
        rolled = host.post("/api/roll", {})
        assert rolled.status == 200 and service.history()[-1]["command"]["name"] == "roll"
    finally:
        table.server.stop()
        service.close()


def test_the_terminal_says_what_to_do_and_takes_the_tasks(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    done = run("new", "--rules", "elder-sign", "--players", "2", "--seed", "11", "--db", str(db))
    assert done.returncode == 0, done.stderr
    for numbers in ("set-ancient-one doom=12 elder_signs=10", "set-investigator player=1 sanity=5 stamina=5 clues=1"):
        assert run("do", *numbers.split(), "--db", str(db)).returncode == 0
    assert (
        run("do", "set-investigator", "player=2", "sanity=5", "stamina=5", "clues=0", "--db", str(db)).returncode == 0
    )
    assert run("do", "move", "to=4", "--db", str(db)).returncode == 0
    refused = run("do", "roll", f"faces={FACES}", "--db", str(db))
    assert_clean_error(refused, refused.returncode, "the adventure in place 4", "enter the tasks printed on the card")
    assert refused.returncode != 0 and "set-tasks adventure=4" in refused.stderr
    state = run("state", "--db", str(db))
    assert "4. The adventure in place 4: tasks not entered yet (set-tasks adventure=4" in state.stdout
    listed = run("commands", "--rules", "elder-sign")
    assert "set-tasks" in listed.stdout and "ordered=true" in listed.stdout
    entered = run("do", "set-tasks", "adventure=4", "tasks=inv:2;peril:1,sanity:-1", "ordered=false", "--db", str(db))
    assert entered.returncode == 0, entered.stderr
    assert "1 peril (sanity -1)" in entered.stdout
    assert "4. The adventure in place 4: 2 investigation; 1 peril (sanity -1)" in run("state", "--db", str(db)).stdout
    assert run("roll", "--db", str(db)).returncode == 0


def test_an_old_battle_against_a_stand_in_ancient_one_replays_with_its_stand_in_combat_task() -> None:
    """Packs whose adventures are all filled in and whose Ancient One is not: a game played before, which rolled at
    the stand-in's combat task, replays to the same doom in the stand-in's reading."""
    from test_elder_sign_engine import ANCIENT, packs

    stand_in = packs(ancient=ANCIENT.replace('attack = "test attack"', 'attack = "test attack"\nplaceholder = true'))
    played = Game.new(Setup(players=2, seed=1), stand_in, reading=Reading.STAND_IN)  # as the old code played it
    played.push("doom n=5")
    played.push("end-turn")
    played.push("roll faces=" + ",".join(["inv2"] + ["peril"] * (len(played.next_roll_dice()) - 1)))
    assert played.view()["doom"] == 4  # a blow by the stand-in's task (inv:2)
    again = Game.replay(Setup(players=2, seed=1), stand_in, played.history)
    assert again.reading >= Reading.STAND_IN and again.view() == played.view()
