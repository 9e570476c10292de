"""A Skeptics game stored before the companion asked where a Fire card's tokens go (Game.fires_counted,
skeptics-rulebook.txt:286): a Fire card drawn and not fought yet, its stored `fires_placed` naming no spaces, reopens
to the state it was played to (the fires counted), not to a question the table was never asked."""

from __future__ import annotations

from games import PACKS

from companion.games.skeptics.engine import Game, Setup


def test_a_stored_fire_drawn_and_not_fought_yet_reopens_with_its_fires_counted() -> None:
    setup = Setup(players=2, board="asylum", ghost="child", seed=4, physical=True)
    then = Game.new(setup, PACKS)
    then.fires_counted = True  # as the companion played it then
    played = ["end-round", "end-round", "end-round", "end-round room=8 environment=fire", "action kind=move"]
    events = [then.push(text) for text in played]
    assert then.view()["fires"] > 0 and then.view()["question"] is None
    game = Game.replay(setup, PACKS, played, events)
    assert game.fires_counted
    assert game.view() == then.view()
