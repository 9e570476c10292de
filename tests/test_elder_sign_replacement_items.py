"""A new investigator after a devouring comes "complete with their own starting items" (elder-sign-rules.txt:411): when
its card is not filled in yet (a stand-in), its items are asked with its numbers, on the same step (set-investigator
common= unique= spells=, as items counts them); the first investigators' numbers step is as before."""

from __future__ import annotations

import pytest
from test_elder_sign_devoured_rest import DEVOURED
from test_elder_sign_task_choice import at_two_tasks

from companion.errors import BadCommand
from companion.games.elder_sign.engine import Game


def numbers_step(game: Game, player: int) -> tuple[str, ...]:
    return next(
        tuple(a.asks) for a in game.legal_actions() if a.name == "set-investigator" and a.args["player"] == str(player)
    )


def test_the_new_investigators_items_are_asked_with_its_numbers() -> None:
    fresh = Game.new(at_two_tasks().setup, at_two_tasks().packs)
    assert numbers_step(fresh, 1) == ("sanity", "stamina", "clues")  # a first investigator's: as before
    game = at_two_tasks()
    for text in DEVOURED:
        game.push(text)
    game.push("card-did effect=nothing")
    assert numbers_step(game, 1) == ("sanity", "stamina", "clues", "common", "unique", "spells")
    new = next(i for i in game.view()["investigators"] if i["player"] == 0 and not i["devoured"])
    assert new["items"] is None  # not counted: a stand-in's are never made up
    with pytest.raises(BadCommand, match="give all three"):
        game.push("set-investigator player=1 sanity=5 stamina=5 clues=1 common=1")
    game.push("set-investigator player=1 sanity=5 stamina=5 clues=1 common=2 unique=1 spells=0")
    new = next(i for i in game.view()["investigators"] if i["player"] == 0 and not i["devoured"])
    assert new["items"] == {"common-items": 2, "unique-items": 1, "spells": 0} and new["sanity"] == 5
