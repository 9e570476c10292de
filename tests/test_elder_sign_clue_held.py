"""A clue's re-roll keeps the dice held (elder-sign-rules.txt:359 a clue re-rolls "the dice in my dice pool"; :371 a
die on an Investigator marker "stays there for the rest of your turn. You don't get to roll it again"; :347 a die on a
Spell card "you don't have to roll it again"): the die chosen with focus and the one chosen for a Spell card after a
failed roll go on the marker and the Spell card when a clue is spent, and the clue re-rolls the others. Before, the
clue dropped both choices and asked for every die of the roll again. A game stored then reopens as played (a real
SQLite file written by main's code before, Reading.CLUE_ALL)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from games import numbers_copied, reopened

from companion.errors import BadCommand
from companion.games.elder_sign.engine import Game, Reading, Setup
from companion.games.elder_sign.module import MODULE
from companion.games.elder_sign.packs import load_packs

DATA = Path(__file__).parent / "data"
OLD_FILE = DATA / "elder-sign-clue-held.sqlite"  # written by main (bbfb726) before this change (see its .json)
OLD = json.loads((DATA / "elder-sign-clue-held.json").read_text())


def failed_once() -> Game:
    """Player 1 (one clue token) at the adventure in place 1 (tasks inv:4; lore:2), a first roll that met nothing."""
    game = Game.new(Setup(players=2, seed=5), load_packs())
    while game.view()["question"]:
        game.push("card-did effect=nothing")
    numbers_copied(game)
    game.push("move to=1")
    game.push("set-tasks adventure=1 tasks=inv:4;lore:2 ordered=false")
    game.push("roll faces=peril,peril,peril,peril,peril,lore")
    assert game.view()["investigators"][0]["clues"] == 1 and game.view()["attempt"]["failed"]
    return game


def test_a_clue_keeps_the_focus_and_the_spell_die_out_of_its_reroll() -> None:
    game = failed_once()
    game.push("focus die=lore")
    game.push("spell die=peril")
    rolled = len(game.view()["attempt"]["last"])
    clue_dice = game.next_roll_dice(clue=True)
    assert len(clue_dice) == rolled - 2  # :359 the dice in the pool: not the marker's, not the Spell card's
    assert MODULE.publish(game.view(), game)["clue_dice"] == [c.value for c in clue_dice]  # the page's clue sheet
    with pytest.raises(BadCommand):  # every die of the roll again is refused: two of them are held
        game.push("clue faces=" + ",".join(["peril"] * rolled))
    made = game.push("clue faces=" + ",".join(["peril"] * (rolled - 2)))
    held = sorted((e["face"], e["how"]) for e in made if e["type"] == "die_held")
    assert held == [("lore", "focus"), ("peril", "spell")], made
    attempt = game.view()["attempt"]
    assert sorted((h["face"], h["how"]) for h in attempt["held"]) == held  # the page's "Held:" line
    assert attempt["failed"] and game.view()["investigators"][0]["clues"] == 0
    rolled_event = next(e for e in made if e["type"] == "rolled")
    assert rolled_event["clue"] and sorted(rolled_event["held"]) == ["lore", "peril"]
    # the next roll sets one of the clue's dice aside and throws the others; the held dice still count (:371)
    assert attempt["dice_to_roll"] == rolled - 2 - 1
    made = game.push("roll faces=lore,inv1,inv1")
    assert [e["need"] for e in made if e["type"] == "task_completed"] == ["lore:2"]


def test_a_clue_without_a_choice_still_rerolls_every_die_and_loses_none() -> None:
    game = failed_once()
    rolled = len(game.view()["attempt"]["last"])
    assert len(game.next_roll_dice(clue=True)) == rolled
    question = game.odds_question(clue=True)
    assert question is not None and question["green"] == rolled and question["held"] == []
    game.push("clue faces=" + ",".join(["peril"] * rolled))
    assert game.view()["attempt"]["held"] == [] and game.view()["attempt"]["free"]["green"] == rolled


def test_the_clue_odds_count_the_dice_chosen_as_held() -> None:
    game = failed_once()
    game.push("focus die=lore")
    question = game.odds_question(clue=True)
    assert question is not None
    assert question["held"] == ["lore"] and question["green"] == len(game.view()["attempt"]["last"]) - 1


def test_a_game_stored_when_a_clue_rerolled_the_held_dice_reopens_as_played(tmp_path: Path) -> None:
    """The file (written by main's code before): a focus and a spell chosen after a failed roll, then a clue that
    re-rolled all six dice, then a roll of five. It reopens to the state it was stored with, in Reading.CLUE_ALL, and
    a clue spent after reopening keeps the held dice."""
    commands = OLD["commands"]
    clue = next(i for i, c in enumerate(commands) if c.startswith("clue"))
    assert commands[clue - 2].startswith("focus") and commands[clue - 1].startswith("spell")
    assert len(commands[clue].split("=", 1)[1].split(",")) == 6
    with reopened(OLD_FILE, tmp_path, OLD["game_id"], load_packs()) as game:
        assert isinstance(game, Game) and game.reading == Reading.CLUE_ALL
        view = json.loads(json.dumps(game.view(), sort_keys=True, default=str))
        # the green dice a lock could take say where each is since es40a ({"die", "from"}; then the faces alone, :401)
        stored = dict(OLD["view"], attempt={k: v for k, v in OLD["view"]["attempt"].items() if k != "lock_choices"})
        choices = view["attempt"].pop("lock_choices")
        assert [c["die"] for c in choices] == OLD["view"]["attempt"]["lock_choices"]
        # which die of the failed roll each choice is, published since es41b (engine.failed_dice): the green set aside
        marked = view["attempt"].pop("dice_chosen")
        aside = view["attempt"]["last"][marked["aside"]]
        assert (aside.split(":")[0] if ":" in aside else "green") == view["attempt"]["aside"]
        assert view == stored
        game.push("focus die=inv1")
        dice = len(game.next_roll_dice(clue=True))
        assert dice == len(game.view()["attempt"]["last"]) - 1  # played as now after reopening
