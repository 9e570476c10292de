"""A die locked during an attempt (elder-sign-rules.txt:399-403): "I have to place one die of the matching color on top
of it right away"; for green "you get to decide which die goes on the locked die icon ... even if it was on a Spell
card or Investigator marker" (:401); "you can't include that die in your rolls or use its result to complete tasks"
(:403). A lock the host tells during an attempt (a stand-in Mythos card's `card-did effect=lock`, or `set-tasks ...
lock=` on another card) takes the die out of the attempt at once: the next roll has one die fewer, and the die is
refused for a marker, a spell or a task, saying why. A game stored before, when the locked die was rolled on until the
next attempt, reopens as played (a real SQLite file written by main's code before, Reading.LOCK_LATE)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from games import numbers_copied, reopened
from test_elder_sign_midnight_asked import refused

from companion.errors import BadCommand
from companion.games.elder_sign.engine import Game, Reading, Setup
from companion.games.elder_sign.module import MODULE
from companion.games.elder_sign.packs import load_packs

DATA = Path(__file__).parent / "data"
OLD_FILE = DATA / "elder-sign-lock-mid-attempt.sqlite"  # written by main (a825cba) before this change (see its .json)
OLD = json.loads((DATA / "elder-sign-lock-mid-attempt.json").read_text())
LAST_FILE = DATA / "elder-sign-lock-last.sqlite"  # written by main (a825cba) too: the lock is its last command
LAST = json.loads((DATA / "elder-sign-lock-last.json").read_text())


def rolling(*rolls: str, told: bool = True) -> Game:
    """Two players at the adventure in place 1 (tasks inv:4; lore:2), its rolls played; the setup's Mythos card
    told first unless not `told` (its question stays open under the turn)."""
    game = Game.new(Setup(players=2, seed=5), load_packs())
    while told and game.view()["question"]:
        game.push("card-did effect=nothing")
    numbers_copied(game)
    game.push("move to=1")
    game.push("set-tasks adventure=1 tasks=inv:4;lore:2 ordered=false")
    for roll in rolls:
        game.push(roll)
    return game


def locked_event(events: Any) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "die_locked")


FAILED = "roll faces=peril,peril,peril,peril,peril,lore"


def test_a_lock_after_a_failed_roll_takes_the_chosen_green_die_out_at_once() -> None:
    game = rolling(FAILED, "roll faces=peril,peril,peril,lore hold=peril")
    before = game.view()["attempt"]
    assert before["free"]["green"] == 4 and before["failed"]
    lock = "set-tasks adventure=2 tasks=inv:1 ordered=false lock=green"
    message = refused(game, lock)  # the rolled dice differ: the player chooses (:401)
    assert "add die=FACE" in message and "lore (rolled)" in message and "peril (on the focus)" in message, message
    made = game.push(f"{lock} die=lore")
    assert locked_event(made)["die"] == "lore" and locked_event(made)["from"] == "roll"
    said = MODULE.describe_events(made, MODULE.names(game))
    assert any("the lore die of the roll, out of the attempt" in line for line in said), said
    after = game.view()["attempt"]
    assert after["free"]["green"] == before["free"]["green"] - 1
    assert "lore" not in after["last"] and after["dice_to_roll"] == before["dice_to_roll"] - 1
    # :403 "you can't include that die in your rolls": the old count of dice is refused, one fewer is rolled
    with pytest.raises(BadCommand):
        game.push("roll faces=lore,lore,lore")
    # nor goes it on a marker or a spell: refused naming the lock
    for command in ("focus die=lore", "spell die=lore", "roll faces=peril,peril spell=lore"):
        assert "locked on a card now (:399-403)" in refused(game, command), command
    made = game.push("roll faces=lore,lore")  # the roll's other dice go on
    assert [e["need"] for e in made if e["type"] == "task_completed"] == ["lore:2"]


def test_dice_alike_need_no_choice_and_a_die_on_a_spell_may_be_chosen() -> None:
    game = rolling("roll faces=peril,peril,peril,peril,peril,peril")
    game.push("roll faces=peril,peril,peril,peril spell=peril")  # one set aside, one on the spell
    # the pool's dice and the spell's have one face: die= could name no other, so nothing is asked; the roll's goes
    made = game.push("set-tasks adventure=2 tasks=inv:1 ordered=false lock=green")
    assert (locked_event(made)["die"], locked_event(made)["from"]) == ("peril", "roll")
    before = game.view()["attempt"]
    assert [h["how"] for h in before["held"]] == ["spell"] and before["free"]["green"] == 3
    other = rolling("roll faces=peril,peril,peril,peril,peril,peril")
    other.push("roll faces=inv3,inv1,lore,inv1 spell=peril")  # completes inv:4
    made = other.push("set-tasks adventure=2 tasks=inv:1 ordered=false lock=green die=peril")
    assert (locked_event(made)["die"], locked_event(made)["from"]) == ("peril", "spell")
    made = other.push("set-tasks adventure=3 tasks=inv:1 ordered=false lock=yellow")  # no yellow die in it
    assert "from" not in locked_event(made)
    assert other.view()["attempt"]["held"] == []  # the die on the Spell card went on the lock (:401)
    assert sorted(other.view()["attempt"]["last"]) == ["inv1", "inv1", "inv3", "lore"]  # the roll's stay
    alike = rolling("roll faces=peril,peril,peril,peril,peril,peril")
    made = alike.push("set-tasks adventure=2 tasks=inv:1 ordered=false lock=green")  # all alike: no choice
    assert locked_event(made)["from"] == "roll" and alike.view()["attempt"]["free"]["green"] == 5


def test_a_stand_in_mythos_lock_during_a_roll_is_offered_with_the_green_choice() -> None:
    game = rolling(FAILED, told=False)  # the setup's Mythos card still asked under the turn
    assert game.view()["question"]["kind"] == "mythos"
    offered = [dict(a.args) for a in game.legal_actions() if a.name == "card-did" and a.args["effect"] == "lock"]
    greens = sorted(a.get("die", "") for a in offered if a["colour"] == "green")
    assert greens == ["lore", "peril"], offered
    labels = [
        MODULE.action_label(a.to_dict(), MODULE.names(game), None) for a in game.legal_actions() if a.name == "card-did"
    ]
    assert "A green die locked: the lore die of the roll" in labels, labels
    game.push("card-did effect=lock colour=green die=peril")
    attempt = game.view()["attempt"]
    assert attempt["free"]["green"] == 5 and sorted(attempt["last"]) == ["lore"] + ["peril"] * 4


def test_a_game_stored_with_the_locked_die_rolled_on_reopens_as_played(tmp_path: Path) -> None:
    """The file (written by main's code before): a green lock told between two rolls of the attempt, the next roll
    still of the dice it locked. It reopens to the state it was stored with, in Reading.LOCK_LATE."""
    commands = OLD["commands"]
    lock = next(i for i, c in enumerate(commands) if "lock=green" in c)
    assert commands[lock - 1].startswith("roll") and commands[lock + 1].startswith("roll")
    with reopened(OLD_FILE, tmp_path, OLD["game_id"], load_packs()) as game:
        assert isinstance(game, Game) and game.reading == Reading.LOCK_LATE
        assert json.loads(json.dumps(game.view(), sort_keys=True, default=str)) == OLD["view"]
        assert len(game.history) == len(commands)


def test_a_game_stored_ending_on_a_lock_mid_attempt_reopens_with_the_die_in_the_pool(tmp_path: Path) -> None:
    """The file (written by main's code before): a green lock told after a failed roll of all alike dice, and nothing
    after it. Nothing refuses it now, but its stored die_locked event took no die from the attempt: it reopens in
    Reading.LOCK_LATE with the pool it was stored with, not one die fewer."""
    assert "lock=green" in LAST["commands"][-1] and LAST["commands"][-2].startswith("roll")
    stored_attempt = LAST["view"]["attempt"]
    with reopened(LAST_FILE, tmp_path, LAST["game_id"], load_packs()) as game:
        assert isinstance(game, Game) and game.reading == Reading.LOCK_LATE
        attempt = game.view()["attempt"]
        assert attempt["free"] == stored_attempt["free"] and attempt["dice_to_roll"] == stored_attempt["dice_to_roll"]
        view = json.loads(json.dumps(game.view(), sort_keys=True, default=str))
        # which die of the failed roll is set aside, published since es41b (engine.failed_dice): one of the set-aside colour
        marked = view["attempt"].pop("dice_chosen")
        aside = view["attempt"]["last"][marked["aside"]]
        assert (aside.split(":")[0] if ":" in aside else "green") == view["attempt"]["aside"]
        assert view == LAST["view"]
        assert len(game.history) == len(LAST["commands"])


def test_a_roll_after_a_lock_took_the_failed_rolls_last_die_refuses_its_choices() -> None:
    """A failed roll of one green die, the yellow die added, then a green lock takes the rolled die (:399): nothing of
    the failed roll is left to set aside, hold or put on a spell, so the next roll's lose=, hold= and spell= are
    refused saying why, and the roll without them goes on."""

    def locked() -> Game:
        game = rolling(*["roll faces=" + ",".join(["peril"] * n) for n in (6, 5, 4, 3, 2, 1)])
        game.push("add-die colour=yellow")
        game.push("set-tasks adventure=2 tasks=inv:1 ordered=false lock=green")
        assert game.view()["attempt"]["free"] == {"green": 0, "yellow": 1, "red": 0}
        return game

    for extra in ("lose=green", "hold=peril", "spell=peril", "hold=peril on=2"):
        game = locked()
        message = refused(game, f"roll faces=yellow:lore {extra}")
        assert "a lock took its last one (:399-403)" in message and "Roll again without" in message, message
        assert all(f"{arg.split('=')[0]}=" in message for arg in extra.split()), message
    game = locked()
    made = game.push("roll faces=yellow:lore")
    assert [e["dice"] for e in made if e["type"] == "roll_failed"] == [["yellow:lore"]]


def test_the_lock_words_say_an_investigation_die_as_the_spell_words_do() -> None:
    """The lock's button and event say a die as every other sentence does (sentences.dice_words): "the 3
    investigation die", not the face's code "inv3" (:401 the player's choice of green die)."""
    game = rolling("roll faces=peril,peril,peril,peril,peril,inv3", told=False)
    names = MODULE.names(game)
    labels = [MODULE.action_label(a.to_dict(), names, None) for a in game.legal_actions()]
    assert "A green die locked: the 3 investigation die of the roll" in labels, labels
    assert "Hold the 3 investigation die (focus)" in labels, labels
    assert not any("inv3" in label for label in labels), labels
    said = MODULE.describe_events(game.push("card-did effect=lock colour=green die=inv3"), names)
    assert any("the 3 investigation die of the roll, out of the attempt" in line for line in said), said
    assert not any("inv3" in line for line in said), said
