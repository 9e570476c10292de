"""The Entrance's Lost & Found (elder-sign-rules.txt:289 "one of three activities", :293 "I roll a green die and look
at the chart on the Entrance"): the green die's face as it lies; the chart is printed on the Entrance sheet, not in the
rules text, so the companion plays nothing of it and asks the host what it gave, as for a card not filled in yet."""

from __future__ import annotations

import pytest
from games import numbers_copied

from companion.errors import BadCommand, IllegalCommand
from companion.games.elder_sign import sentences
from companion.games.elder_sign.engine import Game, Setup
from companion.games.elder_sign.module import MODULE
from companion.games.elder_sign.packs import load_packs


def at_the_entrance() -> Game:
    """Player 1 moved to the Entrance on the first turn (the setup's questions told, the numbers copied)."""
    game = Game.new(Setup(players=2, seed=3, names=("Ada", "Bo")), load_packs())
    numbers_copied(game)
    while game.view()["question"]:
        game.push("card-did effect=nothing")
    game.push("move to=entrance")
    return game


def test_the_lost_and_found_rolls_a_green_die_and_asks_what_the_entrance_chart_gave() -> None:
    game = at_the_entrance()
    clues = game.view()["investigators"][0]["clues"]
    events = game.push("lost-found face=lore")
    assert [e["face"] for e in events if e["type"] == "lost_and_found"] == ["lore"]
    question = game.view()["question"]
    assert (question["kind"], question["part"], question["player"]) == ("entrance", "lost_found", 0)
    words = sentences.describe_events(events, sentences.Names.of_game(game))
    assert any("Ada searches the Lost & Found: the green die shows lore" in w for w in words), words
    state = {**game.view(), **MODULE.publish(game.view(), game)}
    assert "Lost & Found chart is on the Entrance sheet" in state["card_question"]
    taps = {a.args["effect"] for a in game.legal_actions() if a.name == "card-did"}
    assert {"clues", "common-items", "sanity", "stamina", "nothing"} <= taps
    game.push("card-did effect=clues n=2")  # the chart on the table gave two clues
    assert game.view()["investigators"][0]["clues"] == clues + 2
    game.push("card-did effect=nothing")
    assert game.view()["question"] is None and "end-turn" in {a.name for a in game.legal_actions()}


def test_one_entrance_activity_a_turn_and_only_at_the_entrance() -> None:
    game = at_the_entrance()
    game.push("lost-found face=inv2")
    before = game.view()
    with pytest.raises(IllegalCommand, match="one Entrance activity a turn"):
        game.push("first-aid")
    assert game.view() == before
    game = at_the_entrance()
    game.push("first-aid")
    assert "lost-found" not in {a.name for a in game.legal_actions()}
    with pytest.raises(IllegalCommand, match="one Entrance activity a turn"):
        game.push("lost-found face=inv2")
    game = Game.new(Setup(players=2, seed=3), load_packs())
    numbers_copied(game)
    while game.view()["question"]:
        game.push("card-did effect=nothing")
    game.push("move to=1")
    with pytest.raises(IllegalCommand, match="Lost & Found is an activity of the Entrance; move there first"):
        game.push("lost-found face=lore")


@pytest.mark.parametrize("face", ["yellow:inv4", "lore,lore", "blue"])
def test_the_lost_and_found_die_is_one_green_die(face: str) -> None:
    game = at_the_entrance()
    before = game.view()
    with pytest.raises(BadCommand, match="lost-found: face"):
        game.push(f"lost-found face={face}")
    assert game.view() == before
