"""Rule tests: Red Icons (Timers), Variant Rules (1 Player Game) and the physical deck mode."""

from __future__ import annotations

import pytest
from games import PACKS, types
from games import new_game as new

from companion.errors import BadCommand, IllegalCommand
from companion.games.skeptics.engine import Game, Setup


def clocks(events: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(e["clock"], e["reason"]) for e in events if e["type"] == "clock_advanced"]


# -- Red Icons: Timers ---------------------------------------------------------------------------------


def test_third_timer_ends_the_turn_and_advances_the_clock() -> None:
    """Red Icons, "Timers": a third timer ends the player's turn and advances the clock; the tokens are discarded."""
    game = new(players=3)
    game.push("end-round")  # III, player 0
    game.push("timer")
    game.push("action kind=move")
    assert game.push("timer") == [{"type": "timer_added", "timers": 2}]
    events = game.push("timer")
    assert clocks(events) == [("VI", "timer")]
    assert types(events)[:3] == ["timer_added", "timers_reset", "clock_advanced"]
    view = game.view()
    assert view["timers"] == 0
    assert view["current_player"] == 1 and view["actions_left"] == 3
    assert view["round"] == 2  # the round goes on with the next player
    game.push("end-turn")
    assert clocks(game.push("end-turn")) == [("IX", "round")]  # the clock advances as normal after the last player


def test_third_timer_of_the_last_player_advances_the_clock_twice() -> None:
    """Red Icons, "Timers": 'The Clock will advance twice if it's the last player in the turn order'."""
    game = new(players=2)
    game.push("end-round")  # III
    game.push("end-turn")  # the last player
    for _ in range(2):
        game.push("timer")
    events = game.push("timer")
    assert clocks(events) == [("VI", "timer"), ("IX", "round")]
    assert game.view()["current_player"] == 0 and game.view()["round"] == 3


def test_third_timer_to_the_ghost_hour_by_the_last_player() -> None:
    """Red Icons, "Timers": to XII on the last player's turn the environment card is drawn and played, a room
    card is drawn and shown, but the ghost disappears at once as the clock advances again."""
    game = new(players=2)
    for _ in range(3):
        game.push("end-round")  # IX
    game.push("end-turn")
    room_top = game.state.room_deck[-1]
    game.push("timer")
    game.push("timer")
    events = game.push("timer")
    assert clocks(events) == [("XII", "timer"), ("III", "round")]
    order = types(events)
    assert order.index("environment_drawn") < order.index("room_drawn") < order.index("ghost_disappeared")
    view = game.view()
    assert view["rooms_revealed"] == [room_top]
    assert view["ghost_room"] is None
    assert len(view["environment_active"]) + view["environment_discards"] == 1


def test_third_timer_to_the_ghost_hour_mid_round() -> None:
    """Red Icons, "Timers": a third timer that brings XII draws the environment card and the ghost appears;
    it disappears after the last player's turn as normal."""
    game = new(players=3)
    for _ in range(3):
        game.push("end-round")
    for _ in range(3):
        events = game.push("timer")
    assert "ghost_hour" in types(events)
    room = game.view()["ghost_room"]
    assert room is not None and game.view()["current_player"] == 1
    game.push("end-turn")
    assert game.view()["ghost_room"] == room
    game.push("end-turn")
    assert game.view()["ghost_room"] is None and game.view()["clock"] == "III"


def test_third_timer_in_ghost_mode_draws_a_room_card() -> None:
    """Red Icons, "Timers": 'If in Ghost Mode, the Ghost will disappear and reappear following Ghost Mode rules.'"""
    game = new(players=3)
    game.push("end-round")
    for _ in range(7):
        game.push("reveal-clue")
    game.push("end-round")  # VI: Ghost Mode draws
    first = game.view()["ghost_room"]
    top = game.state.room_deck[-1]
    for _ in range(3):
        events = game.push("timer")
    assert [e["reason"] for e in events if e["type"] == "room_drawn"] == ["ghost_mode"]
    assert game.view()["ghost_room"] == top != first


def test_a_failed_timer_roll_adds_a_token() -> None:
    """Red Icons, "Timers": the team gets a timer token for each unsuccessful roll."""
    game = new()
    game.push("attempt action=search need=cobweb:1 timer=true")
    events = game.push("roll faces=eye,eye,eye")
    assert types(events) == ["rolled", "timer_added"]
    game.push("roll faces=eye,eye,cobweb")
    assert game.view()["timers"] == 1


# -- Variant Rules: 1 Player Game -----------------------------------------------------------------------


def test_one_player_uses_all_room_cards() -> None:
    """Variant Rules, "1 Player Game": all room cards are used."""
    assert new(players=1).view()["room_deck_left"] == 20


def test_one_player_summon_ends_with_the_turn() -> None:
    """Variant Rules, "1 Player Game": a summon action ends at the end of the player's turn."""
    game = new(players=1)
    game.push("reveal-clue")
    game.push("solve")
    game.push("end-turn")
    game.push("summon success=true")
    assert game.view()["ghost_room"] is not None
    events = game.push("end-turn")
    assert types(events).index("ghost_disappeared") < types(events).index("turn_ended")
    assert game.view()["ghost_room"] is None


def test_one_player_aiding_bonus_is_not_a_summon_die() -> None:
    """Variant Rules, "1 Player Game": the aiding bonus on a summon or séance is the prove die of "Aiding Players"
    (docs/rules-engine.md, Interpretations); the summon rolls the team's summon dice."""
    game = new(players=1)
    game.push("reveal-clue")
    game.push("solve")
    game.push("end-turn")
    with pytest.raises(BadCommand):
        game.push("summon faces=blank,summon")
    game.push("summon faces=summon")
    assert game.view()["ghost_reason"] == "summon" and game.view()["solo_aid"] is True


def test_one_player_third_timer_advances_the_clock_twice() -> None:
    """Variant Rules, "1 Player Game": a third timer ends the turn and advances the clock twice."""
    game = new(players=1)
    game.push("timer")
    game.push("timer")
    events = game.push("timer")
    assert clocks(events) == [("III", "timer"), ("VI", "round")]


# -- physical deck mode ------------------------------------------------------------------------------------


def test_physical_ghost_hour_needs_the_cards_drawn() -> None:
    """Ghost Hour Sequence in physical deck mode: the host names the environment card and the room card."""
    game = new(players=2, physical=True)
    for _ in range(3):
        game.push("end-round")
    before = game.state.copy()
    with pytest.raises(BadCommand) as info:
        game.push("end-round")
    message = str(info.value)
    assert "environment=ID" in message and "room=N" in message
    assert game.state == before
    events = game.push("end-round environment=fire room=8")
    assert [e["room"] for e in events if e["type"] == "room_drawn"] == [8]
    view = game.view()
    assert view["ghost_room"] == 8 and view["environment_active"] == ["Fire"]
    assert view["room_deck_left"] == 17


def test_physical_cards_must_still_be_possible() -> None:
    """Physical deck mode: a drawn room must not have been shown already; an environment card must be in the deck."""
    game = new(players=1, physical=True)
    for _ in range(3):
        game.push("end-round")
    game.push("end-round environment=fire room=8")
    for _ in range(3):
        game.push("end-round")
    with pytest.raises(IllegalCommand, match="already drawn"):
        game.push("end-round environment=corpse room=8")
    with pytest.raises(IllegalCommand, match="not in the environment deck"):
        game.push("end-round environment=fire room=9")
    with pytest.raises(IllegalCommand, match="not in the environment deck"):  # a museum card, not in this game
        game.push("end-round environment=barrier room=9")
    with pytest.raises(BadCommand, match="corpse"):
        game.push("end-round environment=nonsense room=9")
    with pytest.raises(BadCommand, match="1 to 20"):
        game.push("end-round environment=corpse room=21")
    game.push("end-round environment=corpse room=9")
    with pytest.raises(BadCommand, match="leave it out"):
        game.push("end-turn room=10")  # XII -> III: this end of round draws nothing


def test_physical_summon_and_solve() -> None:
    """Action 8: Summon and Action 4: Solve in physical deck mode: the card and the evidence token are entered."""
    game = new(players=2, physical=True)
    game.push("end-round")
    game.push("reveal-clue")
    with pytest.raises(BadCommand, match="evidence=SYMBOL"):
        game.push("solve")
    game.push("solve evidence=evidence5")
    game.push("reveal-clue")
    with pytest.raises(IllegalCommand, match="flipped already"):
        game.push("solve evidence=evidence5")
    game.push("solve evidence=evidence1")
    with pytest.raises(BadCommand, match="room=N"):
        game.push("summon success=true")
    game.push("summon success=false")  # discarded unseen: nothing to enter
    assert game.view()["room_cards_discarded_unseen"] == 1
    game.push("summon success=true room=12")
    assert game.view()["ghost_room"] == 12


def test_virtual_mode_refuses_cards_from_the_host() -> None:
    """In a game that draws its own cards, room= or environment= is a mistake."""
    game = new()
    with pytest.raises(BadCommand, match="physical deck mode"):
        game.push("end-round room=3")


def test_physical_timer_of_the_last_player_in_ghost_mode_needs_two_rooms() -> None:
    """Red Icons, "Timers" in Ghost Mode: the timer's quarter hour and the round's quarter hour both draw."""
    game = new(players=1, physical=True)
    game.push("end-round")
    for _ in range(7):
        game.push("reveal-clue")
    game.push("timer")
    game.push("timer")
    with pytest.raises(BadCommand, match="room=N,N"):
        game.push("timer")
    events = game.push("timer room=4,5")
    assert [e["room"] for e in events if e["type"] == "room_drawn"] == [4, 5]
    assert game.view()["ghost_room"] == 5


# -- the odds count the rolls an attempt really has ("Red Icons: Timers", "Corpse") ---------------------------


def test_the_odds_of_a_timer_set_with_two_timers_are_one_rolls() -> None:
    """Red Icons: Timers: 'If a third Timer Token is received as a result of an unsuccessful roll, then that player's
    turn ends immediately': with two timers the first failed roll ends the turn, so three actions are one roll."""
    from companion.games.skeptics.module import MODULE

    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=7), PACKS)
    for command in ("end-round", "timer", "timer", "attempt action=search need=cobweb:1 timer=true"):
        game.push(command)
    view = game.view()
    assert view["actions_left"] == 3 and view["timers"] == 2 and view["attempt_rolls_left"] == 1
    odds = MODULE.publish(view, game)["odds"]
    assert odds == pytest.approx(1 - (5 / 6) ** 3) and round(odds * 100, 1) == 42.1
    # one timer: two rolls before the third timer
    game.pop()
    game.pop()
    game.push("attempt action=search need=cobweb:1 timer=true")
    assert game.view()["attempt_rolls_left"] == 2
    assert MODULE.publish(game.view(), game)["odds"] == pytest.approx(1 - (5 / 6) ** 6)


def test_the_odds_with_the_corpse_count_two_rolls_of_three_actions() -> None:
    """Corpse (Asylum Board): 'reduce all players to two Actions per turn, excluding Move Actions': a roll is such an
    action, so with three actions left an attempt has two rolls (1 - (5/6)^6 for one cobweb, 66.5%)."""
    from test_rules_audit import card_in_play

    from companion.games.skeptics.module import MODULE

    game = card_in_play("corpse")
    while game.view()["current_player"] != 0 or game.view()["actions_left"] != 3:
        game.push("end-turn")
    game.push("attempt action=search need=cobweb:1")
    view = game.view()
    assert view["actions_left"] == 3 and view["attempt_rolls_left"] == 2
    odds = MODULE.publish(view, game)["odds"]
    assert round(odds * 100, 1) == 66.5
    game.push("roll faces=eye,eye,eye")
    assert game.view()["attempt_rolls_left"] == 1


def test_the_third_timer_reads_as_one_moment_and_the_second_clock_as_again() -> None:
    """Red Icons, "Timers" (skeptics-rulebook.txt:296, :299): the third token, the tokens discarded and the clock
    advanced are told in one sentence, the news first; when the last player took it, the clock's move at the end
    of the round is said to be a second one."""
    from companion.games.skeptics.sentences import describe_events

    game = new(players=2)
    game.push("end-round")  # III
    game.push("end-turn")  # the last player
    for _ in range(2):
        game.push("timer")
    said = describe_events(game.push("timer"))
    assert said == [
        "The third timer token moves the clock to VI; the three tokens are set aside.",
        "Player 2's turn ends.",
        "Round 2 ends.",
        "The clock moves again, to IX.",
    ]
    assert describe_events(game.push("timer")) == ["The team takes a timer token (1 of 3)."]
    game.push("end-turn")
    assert "The clock moves to XII." in describe_events(game.push("end-turn"))  # once: no "again"
