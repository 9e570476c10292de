"""An investigator devoured mid-game (elder-sign-rules.txt:411 "I am granted a fresh start with a new investigator,
someone who has not yet been devoured ... complete with their own starting items"): the host's panel says the player
takes a new investigator and asks the numbers of its card when it is a stand-in, not "Before the first turn"; no
stand-in's name is shown for it or for the one devoured (the page's published names, the terminal)."""

from __future__ import annotations

from games import numbers_copied

from companion.games.elder_sign.engine import Game, Reading, Setup
from companion.games.elder_sign.module import MODULE
from companion.games.elder_sign.packs import load_packs


def _state(game: Game) -> dict[str, object]:
    view = game.view()
    return {**view, **MODULE.publish(view, game)}


def test_a_devoured_players_new_stand_in_investigator_is_asked_as_a_new_one() -> None:
    game = Game.new(Setup(players=2, seed=3, names=("Ada", "Bo")), load_packs())
    opening = _state(game)["numbers_first_note"]
    assert str(opening).startswith("Before the first turn: copy the numbers printed on the cards not filled in yet")
    numbers_copied(game)
    while game.view()["question"]:
        game.push("card-did effect=nothing")
    assert _state(game)["numbers_first_note"] == ""
    events = game.push("adjust player=1 sanity=-20")  # :407 below 0: devoured, in the first turn
    assert "A new investigator joins the investigation for Ada." in MODULE.describe_events(events, MODULE.names(game))
    state = _state(game)
    assert state["turn"] == 1 and state["numbers_first"] == ["set-investigator player=1"]
    note = str(state["numbers_first_note"])
    assert note.startswith("Ada takes a new investigator, one not devoured yet in this game, with its starting items")
    assert "copy the numbers printed on it" in note and "Before the first turn" not in note
    names = [i["name"] for i in state["investigators"]]  # type: ignore[attr-defined]
    assert state["investigators_said"] == ["an investigator"] * 3
    text = MODULE.state_text(state)
    assert not [n for n in names if n in text], text
    assert "Ada's investigator (its card not filled in yet): sanity, stamina and clues not entered yet" in text
    game.push("set-investigator player=1 sanity=4 stamina=4 clues=1")
    assert _state(game)["numbers_first_note"] == ""


def test_numbers_asked_later_in_the_game_are_before_playing_on() -> None:
    view = {"turn": 4, "numbers_first": ["set-ancient-one"], "investigators": []}
    assert MODULE.sentences.numbers_first_note(view).startswith("Before playing on: copy the numbers")


def test_a_stand_in_devoured_before_its_numbers_were_copied_shows_none_of_them() -> None:
    """A stand-in investigator devoured (:407) before the host copied its card's numbers (a game stored before the
    numbers were asked first, Reading.NUMBERS, played by the stand-in's): the terminal's row tells the devouring
    alone, not the stand-in's made-up sanity and stamina; one devoured after they were copied keeps the card's."""
    game = Game.new(Setup(players=2, seed=3, names=("Ada", "Bo")), load_packs(), reading=Reading.NUMBERS)
    assert game.packs.investigators[game.view()["investigators"][0]["id"]].placeholder
    while game.view()["question"]:
        game.push("card-did effect=nothing")
    game.push("adjust player=1 sanity=-20")  # by the stand-in's sanity, below 0: devoured
    state = _state(game)
    assert state["investigators"][0]["devoured"]  # type: ignore[index]
    rows = MODULE.state_text(state).splitlines()
    assert "  Ada's investigator (its card not filled in yet): devoured" in rows, rows
    assert not [r for r in rows if "devoured" in r and "stamina" in r], rows
    game.push("set-investigator player=2 sanity=5 stamina=4 clues=1")  # Bo's copied: the card's, so shown
    game.push("adjust player=2 stamina=-20")
    rows = MODULE.state_text(_state(game)).splitlines()
    assert "  Bo's investigator (its card not filled in yet): sanity 5/5, stamina 0/4, clues 0 (devoured)" in rows, rows
