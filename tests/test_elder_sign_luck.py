"""Elder Sign's attempts for the dice's luck (companion.record through ElderSignModule.luck), as the game was played.

A new player's game (shot 067) ended "The table's 9 attempts came good once ... cursed, about 1 game in 291995"
after a battle in which blow after blow landed: each turn's attack was weighed as one attempt that failed when the
turn's last roll missed, even after blows had landed, the turns of a player without a clue token were left out, and
an adventure cut short by the Ancient One waking was lost. Now each blow is an attempt (the combat task is completed
again with the dice left, elder-sign-rules.txt:443), weighed with the chance the phones showed before its first roll.
Through a real SQLite file: the played game's own history (tests/data/elder-sign-battle-f33.json, the commands of that
game as the history file kept them) and a battle played through the service."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from games import numbers_copied

from companion.games.base import module_for
from companion.games.elder_sign.packs import load_packs
from companion.history import GameStore
from companion.record import RecordBook
from companion.service import GameService
from companion.stats import game_luck

PLAYED = json.loads((Path(__file__).parent / "data" / "elder-sign-battle-f33.json").read_text())


def stored(path: Path) -> tuple[GameStore, int]:
    """The played game written into a history file, command by command, at the times it was played."""
    store = GameStore(path)
    game_id = store.create_game(PLAYED["setup"], name="Elder Sign", at=PLAYED["created"])
    for seq, (command, at) in enumerate(zip(PLAYED["commands"], PLAYED["at"], strict=True), 1):
        store.append(game_id, seq, command, [], source="web", at=at)
    return store, game_id


def test_the_played_battle_counts_every_blow_and_every_adventure_as_it_came(tmp_path: Path) -> None:
    store, game_id = stored(tmp_path / "games.sqlite3")
    record = RecordBook(store, lambda rules: load_packs()).record(game_id)
    assert record["result"] == "won" and "problem" not in record
    # the game replayed by its engine, alone: what each command did, and whose turn it was
    module = module_for("elder-sign")
    game = module.new(module.setup_from_dict(PLAYED["setup"]), load_packs())
    commands = [module.command_from_dict(c) for c in PLAYED["commands"]]
    module.read_stored(game, commands)
    while game.played:
        game.pop()
    names = PLAYED["setup"]["names"]
    turn_of, blows, completed, blow_turns = {}, 0, 0, set()
    for seq, command in enumerate(commands, 1):
        turn_of[seq] = names[game.view()["current_player"]]
        for event in game.push(command):
            blows += event["type"] == "combat_task_completed"
            completed += event["type"] == "adventure_completed"
            if event["type"] == "combat_task_completed":
                blow_turns.add(turn_of[seq])
    assert blows >= 11 and completed == 1  # the end card's doom track came down from 11 to 0
    attempts = record["attempts"]
    good = [a for a in attempts if a["good"]]
    assert len(good) == blows + completed  # every blow landed and the adventure completed came good
    assert {a["player"] for a in good if a["what"].startswith("a blow")} == blow_turns == {"Hana", "Ben"}
    assert all(a["player"] == turn_of[a["seq"]] for a in attempts)  # each the roll of the player whose turn it was
    assert all(0 < a["chance"] <= 1 for a in attempts)  # a roll the dice cannot win at all is no attempt
    # the adventures: completed, failed by the dice, and failed by the dice before the Ancient One woke (seq 30-42)
    adventures = [(a["seq"], a["good"]) for a in attempts if not a["what"].startswith("a blow")]
    assert adventures == [(3, True), (14, False), (30, False)]
    words = game_luck(record)["words"]  # the end card's words, from these attempts
    assert words.startswith(f"The table's {len(attempts)} attempts came good {len(good)} times")
    store.close()


def test_a_record_kept_before_is_worked_out_again(tmp_path: Path) -> None:
    """The history file keeps each game's record; one kept by the code before (version 2, its battle weighed as one
    attempt a turn) is made again the next time the record is read."""
    store, game_id = stored(tmp_path / "games.sqlite3")
    book = RecordBook(store, lambda rules: load_packs())
    fresh = book.record(game_id)
    stale = {**fresh, "version": 2, "attempts": [{**fresh["attempts"][0], "good": False}]}
    store.save_record(game_id, stale)
    assert store.record(game_id) == stale
    assert book.record(game_id) == fresh
    store.close()


def test_a_blow_is_weighed_with_the_chance_the_phones_showed_before_its_roll(tmp_path: Path) -> None:
    """Through the service: the first roll of the attack lands a blow (came good at the chance shown before it); the
    dice left try for another (a new attempt, at the chance shown then) and run out (failed)."""
    clock = itertools.count(1_800_000_000, 60)
    svc = GameService(
        GameStore(tmp_path / "games.sqlite3"), load_packs(), rng=random.Random(1), now=lambda: float(next(clock))
    )
    svc.new_game({"rules": "elder-sign", "players": 2, "names": ["Cy", "Di"], "seed": 3, "ancient_one": "nyarlathotep"})
    while svc.state()["question"]:
        svc.do("card-did", {"effect": "nothing"})  # the first Mythos card, not filled in yet: it did nothing
    numbers_copied(svc._game, svc)
    svc.do("doom", {"n": str(svc.state()["doom_max"])})  # awake
    svc.do("set-tasks", {"adventure": "ancient-one", "tasks": "inv:2,lore:1"})  # the combat task from its card
    svc.do("end-turn")  # woken in Cy's turn: on to the clock (:433); Di attacks
    first = svc.state()["odds"]
    svc.do("roll", {"faces": "inv2,lore,peril,peril,peril,peril"})  # a blow: two dice on the task, four left
    second = svc.state()["odds"]
    assert 0 < second < first < 1
    while svc.state()["attempt"] and svc.state()["attempt"]["dice_to_roll"]:
        svc.do("roll", {"faces": ",".join(["peril"] * svc.state()["attempt"]["dice_to_roll"])})
    svc.do("end-turn")
    attempts = svc.records()[0]["attempts"]
    assert [(a["player"], a["chance"], a["good"]) for a in attempts] == [
        ("Di", pytest.approx(first), True),
        ("Di", pytest.approx(second), False),
    ]
    svc.close()


def test_the_played_game_whose_midnights_chose_sanity_for_everyone_replays_to_the_state_it_had(tmp_path: Path) -> None:
    """The game was played before each investigator was asked at the Ancient One's attack (elder-sign-rules.txt:459):
    its midnights lowered everyone's maximum sanity. Its history replays from the file to the state the code of then
    worked out (the view in tests/data, written by main before this change), in that reading."""
    from companion.history import replay_game

    store, game_id = stored(tmp_path / "games.sqlite3")
    game = replay_game(store, game_id, load_packs())
    view = game.view()
    # the end's words and the Ancient One's table words changed since (a stand-in's name is not told): all else kept
    # and the stand-in's doom track and Elder Sign limit, which no reader showed, are told as none (Game.doom_max)
    left_out = ("outcome_reason", "doom_max", "elder_signs_needed")
    now = {k: view[k] for k in PLAYED["view"] if k not in left_out}
    # the items held, counted since (not in a game stored before: none counted, the host counts them)
    assert [i["items"] for i in view["investigators"]] == [None] * len(view["investigators"])
    now["investigators"] = [{k: v for k, v in i.items() if k != "items"} for i in view["investigators"]]
    now["ancient_one"] = {k: v for k, v in view["ancient_one"].items() if k not in ("said", "stand_in")}
    # the dice placed on the tasks and the die put on a spell, published since (elder-sign-rules.txt:185, :345)
    placed, last = Counter(view["attempt"]["placed"]), Counter(view["attempt"]["last"])
    assert placed and placed <= last and view["attempt"]["spell"] is None
    assert Counter(view["attempt"]["left"]) == last - placed  # and the dice the task left, published since
    # and the green dice a lock told now could take (:401), published since es39d: each one of the pool
    assert {c["die"] for c in view["attempt"]["lock_choices"]} <= set(view["attempt"]["last"])
    now["attempt"] = {k: v for k, v in view["attempt"].items() if k not in ("placed", "left", "spell", "lock_choices")}
    assert now == {k: v for k, v in PLAYED["view"].items() if k not in left_out}
    assert (view["doom_max"], view["elder_signs_needed"]) == (None, None)
    assert view["attack_choices"] == [] and [i["max_sanity"] for i in view["investigators"]] == [
        i["max_sanity"] for i in PLAYED["view"]["investigators"]
    ]
    store.close()


def played_with_a_die_added(path: Path, tasks: str) -> tuple[GameService, dict[str, Any]]:
    """Anna moves to an adventure of `tasks`, spends an item for the yellow die before her first roll
    (elder-sign-rules.txt:329-341), rolls once (tapped in by hand) and gives up; the game is played to its end.
    Returns the service and the state the phones showed before the roll."""
    clock = itertools.count(1_800_000_000, 60)
    svc = GameService(GameStore(path), load_packs(), rng=random.Random(1), now=lambda: float(next(clock)))
    svc.new_game({"rules": "elder-sign", "players": 2, "names": ["Anna", "Ben"], "seed": 3})
    while svc.state()["question"]:
        svc.do("card-did", {"effect": "nothing"})
    numbers_copied(svc._game, svc)
    svc.do("move", {"to": "2"})
    svc.do("set-tasks", {"adventure": "2", "tasks": tasks, "ordered": "false"})
    svc.do("add-die", {"colour": "yellow"})
    shown = svc.state()
    assert shown["attempt"] is not None and shown["attempt"]["rolls"] == 0  # the die opened the attempt: no roll yet
    svc.do("roll", {"faces": ",".join(f"{c}:inv1" for c in shown["next_dice"])})
    svc.do("give-up")
    while svc.state()["question"]:
        svc.do("card-did", {"effect": "nothing"})
    while not svc.state()["outcome"]:
        svc.do("elder-signs", {"n": "5"})
    return svc, shown


def test_an_attempt_with_a_die_added_before_its_first_roll_is_counted_as_every_other(tmp_path: Path) -> None:
    """A yellow die added before the first roll of three tasks: the phones show each task's chance alone (a whole card
    with a coloured die is not worked out). The attempt is counted, not weighed, as any attempt the phones showed so
    (it was left out: the added die had opened the attempt, and only a roll with none under way began one)."""
    svc, shown = played_with_a_die_added(tmp_path / "games.sqlite3", "inv:2;lore:1;peril:1")
    assert shown["odds"] is None and all(t["probability"] > 0 for t in shown["card_odds"]["tasks"])
    assert shown["odds_words"][0].startswith("Each task alone")  # what the phones read before the roll
    attempts = svc.records()[0]["attempts"]
    assert [(a["player"], a["chance"], a["good"]) for a in attempts] == [("Anna", None, False)]
    words = svc.state()["summary"]["luck"]["words"]
    assert words == (
        "No attempt this game is weighed, so there is no luck to tell: for its attempt the page showed no chance of the"
        " whole attempt coming good (at most each task's chance alone)."
    ), words
    svc.close()


def test_a_die_added_before_the_first_roll_is_weighed_at_the_odds_shown_with_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two tasks and the yellow die added before the first roll: the phones show the chance of the whole card with
    that die (Roll for me's). The attempt is weighed at that chance on the end card, in the Games view (the real app
    behind waitress) and in the terminal's stats, all from the real SQLite file; a record the history file kept
    before (version 5, which left the attempt out) is worked out again, and the stored game replays unchanged."""
    from web_fixtures import serve_table

    from companion import stats_cli
    from companion.history import replay_game

    db = tmp_path / "data" / "games.sqlite"
    db.parent.mkdir()
    svc, shown = played_with_a_die_added(db, "inv:2;lore:1")
    chance = shown["odds"]
    assert chance is not None and 0 < chance < 1
    game_id = svc.game_id or 0
    record = svc.record(game_id)
    assert [(a["player"], a["chance"], a["good"]) for a in record["attempts"]] == [
        ("Anna", pytest.approx(chance), False)
    ]
    card = svc.state()["summary"]["luck"]
    assert card["attempts"] == 1 and card["unshown"] == 0
    assert card["words"].startswith("The table's 1 attempt never came good"), card["words"]
    # a record kept by the code before: no attempt counted (its luck "no attempt weighed"); made again when read
    store = svc.store
    store.save_record(game_id, {**record, "version": 5, "attempts": []})
    assert RecordBook(store, lambda rules: load_packs()).record(game_id) == record
    replayed = replay_game(store, game_id, load_packs()).view()
    assert replayed == svc._game.view()
    # the Games view
    tables = serve_table(tmp_path, service=svc)
    table = next(tables)
    try:
        games = table.viewer().get("/api/games").json()
        assert games["games"][0]["luck"]["words"] == card["words"]
        assert (games["figures"]["attempts"], games["figures"]["successes"]) == (1, 0)
        assert games["figures"]["expected_successes"] == pytest.approx(chance, abs=1e-6)
    finally:
        next(tables, None)
    # the terminal's stats, on the same file
    assert stats_cli.main(["--db", str(db), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["attempts"], out["successes"]) == (1, 0)
    assert out["expected_successes"] == pytest.approx(chance, abs=1e-6)
    assert stats_cli.main(["--db", str(db)]) == 0
    words = capsys.readouterr().out
    assert "Luck: These games' 1 attempt never came good" in words
    assert f"0 of 1 came good (0%; the odds said {chance * 100:.0f}%)" in words


def test_attempts_counted_but_not_weighed_are_said_as_such() -> None:
    """An attempt whose whole chance the page did not show (each task's alone): the words say so, never "no odds"."""
    from companion.luck import luck_of, unweighed_words

    assert luck_of([], 0).words("game", unweighed=1) == (
        "No attempt this game is weighed, so there is no luck to tell: for its attempt the page showed no chance of the"
        " whole attempt coming good (at most each task's chance alone)."
    )
    assert luck_of([0.5], 1).words("game", unweighed=2).endswith(" " + unweighed_words(2))
    assert unweighed_words(2).startswith("2 attempts are counted but not weighed: for them the page showed no chance")
