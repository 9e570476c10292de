"""An audit of the rules engine against the rulebook, the tricky cases a pedantic player would raise.

Each test names the rulebook section (../shared/rules/skeptics-rulebook.txt) and quotes the sentence it
checks. The plainer cases are in tests/test_rules_clock.py, test_rules_ghost.py and test_rules_timers.py;
this file adds the corners: third timers at the edges of the clock, summons against the Ghost Hour, the
end of the room deck, Ghost Mode, the séance, pulls, and undo of each of them.
"""

from __future__ import annotations

import pytest
from games import PACKS, types
from games import new_game as new

from companion.errors import BadCommand, IllegalCommand
from companion.games.skeptics.engine import Command, Game, Setup

ASYLUM = PACKS.boards["asylum"]
Events = list[dict[str, object]]


def clocks(events: Events) -> list[tuple[object, object]]:
    return [(e["clock"], e["reason"]) for e in events if e["type"] == "clock_advanced"]


def rooms_drawn(events: Events) -> list[tuple[object, object]]:
    return [(e["room"], e["reason"]) for e in events if e["type"] == "room_drawn"]


def to_clock(game: Game, clock: str) -> None:
    while game.view()["clock"] != clock:
        game.push("end-round")


def with_dice(game: Game, n: int = 1) -> None:
    """Reveal and solve n clues: n summon dice."""
    for _ in range(n):
        game.push("reveal-clue")
        game.push("solve")


def to_player(game: Game, player: int) -> None:
    while game.view()["current_player"] != player:
        game.push("end-turn")


def ghost_mode_by_clues(game: Game) -> None:
    while game.view()["clues_revealed"] < 7:
        game.push("reveal-clue")
    assert game.view()["ghost_mode"]


def refused(game: Game, text: str, *words: str, kind: type[Exception] = IllegalCommand) -> str:
    before, view = game.state.copy(), game.view()
    with pytest.raises(kind) as info:
        game.push(text)
    assert game.state == before and game.view() == view
    for word in words:
        assert word in str(info.value), (word, str(info.value))
    return str(info.value)


def card_in_play(card: str, players: int = 2) -> Game:
    """A physical-deck game whose first Ghost Hour drew `card` (on its board: the Barrier is the Museum's)."""
    board = "museum" if card == "barrier" else "asylum"
    game = Game.new(Setup(players=players, board=board, ghost="child", seed=4, physical=True), PACKS)
    to_clock(game, "IX")
    game.push(f"end-round room=8 environment={card}")
    assert card in [c["id"] for c in game.view()["environment"]]
    return game


def seance_ready(players: int = 3) -> Game:
    """A physical-deck Child Ghost game whose séance symbols are all matched (so Ghost Mode is on)."""
    game = new(players=players, seed=5, physical=True)
    for symbol in PACKS.ghosts["child"].seance_symbols:
        game.push("reveal-clue")
        game.push(f"solve evidence={symbol}")
    assert game.view()["ghost_mode"] and game.view()["seance_available"]
    return game


def next_room(game: Game) -> int:
    rooms = game.view()["rooms_unseen"]
    assert isinstance(rooms, list)
    return int(rooms[0])


# -- Red Icons: Timers, at the edges of the clock ------------------------------------------------------


def test_timer_to_xii_on_the_last_turn_in_ghost_mode() -> None:
    """Red Icons, "Timers": 'If during the last players turn, the Timer advances the clock to the Ghost Hour,
    an Environment Card is still drawn and played. A Room Card is drawn and shown, but the Ghost disappears
    immediately ... If Ghost Mode is in effect, the Ghost will appear at the next fifteen-minute increment.'"""
    game = new(players=2)
    to_clock(game, "IX")
    ghost_mode_by_clues(game)
    to_player(game, 1)
    deck = list(game.state.room_deck)
    env_top = game.state.env_deck[-1]
    game.push("timer")
    game.push("timer")
    events = game.push("timer")
    assert clocks(events) == [("XII", "timer"), ("III", "round")]
    assert [e["card"] for e in events if e["type"] == "environment_drawn"] == [env_top]
    assert rooms_drawn(events) == [(deck[-1], "ghost_hour"), (deck[-2], "ghost_mode")]
    order = types(events)
    hour_ghost = order.index("ghost_hour")
    assert hour_ghost < order.index("ghost_disappeared") < order.index("clock_advanced", hour_ghost)
    view = game.view()
    assert view["rooms_revealed"] == [deck[-1], deck[-2]]  # both red markers stay
    assert (view["ghost_room"], view["ghost_reason"]) == (deck[-2], "ghost_mode")
    assert (view["clock"], view["hour"], view["current_player"], view["timers"]) == ("III", 1, 0, 0)


def test_timer_mid_round_in_ghost_mode_moves_the_ghost_and_the_round_goes_on() -> None:
    """Red Icons, "Timers": 'If in Ghost Mode, the Ghost will disappear and reappear following Ghost Mode
    rules.' The round is not over: 'The Clock advances as normal after the last player's turn.'"""
    game = new(players=3)
    game.push("end-round")  # III
    ghost_mode_by_clues(game)
    game.push("end-round")  # VI: Ghost Mode draws
    deck = list(game.state.room_deck)
    for _ in range(3):
        events = game.push("timer")
    assert clocks(events) == [("IX", "timer")]
    assert rooms_drawn(events) == [(deck[-1], "ghost_mode")]
    assert game.view()["current_player"] == 1 and game.view()["round"] == 3
    game.push("end-turn")
    events = game.push("end-turn")  # the last player: the round ends, XII
    assert clocks(events) == [("XII", "round")]
    assert rooms_drawn(events) == [(deck[-2], "ghost_hour")]


def test_third_timer_on_the_last_turn_of_a_seance() -> None:
    """Red Icons, "Timers": 'Collecting a third Timer also ends a Séance!' On the last player's turn the clock
    advances twice; in Ghost Mode the ghost reappears by Ghost Mode rules at each quarter hour."""
    game = seance_ready(players=2)
    game.push("seance room=4")
    game.push("end-round")  # XII -> III: the séance
    assert game.view()["seance_active"]
    game.push("end-turn")
    game.push("timer")
    game.push("timer")
    events = game.push("timer room=10,11")
    assert clocks(events) == [("VI", "timer"), ("IX", "round")]
    assert types(events).index("seance_ended") < types(events).index("clock_advanced")
    assert rooms_drawn(events) == [(10, "ghost_mode"), (11, "ghost_mode")]
    view = game.view()
    assert (view["seance_active"], view["seance_used"], view["ghost_room"]) == (False, True, 11)
    refused(game, "seance", "once per game")


def test_third_timer_calls_off_a_declared_seance() -> None:
    """Red Icons, "Timers": a third timer 'also ends a Séance'. A séance only declared has not begun; the
    engine calls it off and gives it back (docs/rules-engine.md, Interpretations)."""
    game = seance_ready(players=3)
    game.push("end-round room=9")  # III (Ghost Mode draw)
    game.push("seance room=2")
    game.push("timer")
    game.push("timer")
    events = game.push("timer room=12")  # III -> VI by the timer: Ghost Mode draws as usual
    assert types(events).count("seance_cancelled") == 1
    assert "seance_started" not in types(events)
    view = game.view()
    assert (view["ghost_room"], view["ghost_reason"]) == (12, "ghost_mode")
    assert view["seance_used"] is False and view["seance_available"] is True
    game.push("seance room=2")  # declared again for the next quarter (IX)
    assert game.view()["seance_declared"]


def test_timer_at_ghost_hour_round_keeps_the_ghost_until_the_last_player() -> None:
    """Red Icons, "Timers": the third timer advances the clock; the Ghost Hour ghost 'disappears after the last
    player's turn as normal'."""
    game = new(players=3)
    to_clock(game, "IX")
    game.push("end-round")  # XII: the Ghost Hour
    room = game.view()["ghost_room"]
    for _ in range(3):
        game.push("timer")
    view = game.view()
    assert (view["clock"], view["ghost_room"], view["ghost_reason"], view["current_player"]) == (
        "III",
        room,
        "ghost_hour",
        1,
    )
    game.push("end-turn")
    events = game.push("end-turn")
    assert "ghost_disappeared" in types(events)
    assert game.view()["clock"] == "VI"


# -- Action 8: Summon and the Ghost Hour ----------------------------------------------------------------


def test_timing_a_summon_example() -> None:
    """Action 8: Summon, "Timing a Summon Example": in a four-player game the third player summons fifteen
    minutes before XII, pulls the ghost freely, the fourth player proves; at the end of the round the clock
    moves to XII, 'thus ending the Summoning and preventing the other two players from having a chance to roll
    against the Ghost. At XII, an Environment Card is drawn as well as a new Room Card'."""
    game = new(players=4, seed=2)
    with_dice(game, 2)
    to_clock(game, "IX")
    to_player(game, 2)
    deck = list(game.state.room_deck)
    events = game.push("summon faces=blank,summon")
    assert rooms_drawn(events) == [(deck[-1], "summon")]
    summoned = deck[-1]
    two = [
        far
        for nxt, c in ASYLUM.neighbours(summoned)
        if not c.door
        for far, c2 in ASYLUM.neighbours(nxt)
        if not c2.door and far != summoned
    ]
    target = two[0] if two else ASYLUM.neighbours(summoned)[0][0]
    game.push(f"move-ghost to={target}")  # the free pull: no action
    assert game.view()["actions_left"] == 2
    game.push("prove set=1")  # the current player proves
    game.push("end-turn")
    game.push("prove set=2")  # so does the fourth
    env_top = game.state.env_deck[-1]
    events = game.push("end-turn")
    assert clocks(events) == [("XII", "round")]
    assert [e["card"] for e in events if e["type"] == "environment_drawn"] == [env_top]
    assert rooms_drawn(events) == [(deck[-2], "ghost_hour")]
    view = game.view()
    assert (view["ghost_room"], view["ghost_reason"], view["summoner"]) == (deck[-2], "ghost_hour", None)
    refused(game, "summon success=true", "XII")  # and no new summon during the Ghost Hour
    for player in (0, 1, 2):  # the Ghost Hour ghost stays past the summoner's turn, to the end of the round
        assert view["ghost_room"] == deck[-2], player
        game.push("end-turn")
        view = game.view()
    assert view["ghost_room"] == deck[-2]


def test_summon_with_the_last_action_lasts_until_the_summoners_next_turn() -> None:
    """Action 8: Summon: 'The Ghost disappears once play comes back to beginning of the Summoning player's
    turn, even if that player summoned the Ghost at the end of their turn.'"""
    game = new(players=3)
    with_dice(game)
    to_clock(game, "III")
    to_player(game, 2)  # the last player in the turn order summons with the third action
    game.push("action kind=move")
    game.push("action kind=move")
    game.push("summon success=true")
    room = game.view()["ghost_room"]
    events = game.push("end-turn")  # the round ends; III -> VI is no Ghost Hour
    assert "ghost_disappeared" not in types(events)
    game.push("end-turn")
    assert (game.view()["ghost_room"], game.view()["current_player"]) == (room, 1)
    events = game.push("end-turn")  # play comes back to the summoner
    assert types(events) == ["turn_ended", "turn_started", "ghost_disappeared"]
    assert game.view()["ghost_room"] is None


def test_a_timer_mid_round_does_not_end_a_summon_unless_it_brings_the_ghost_hour() -> None:
    """Action 8: Summon: the summoned ghost leaves at the summoner's next turn; Red Icons, "Timers" only advance
    the clock. 'If the clock strikes the XII, the Ghost Hour WILL override the Summon.'"""
    game = new(players=3)
    with_dice(game)
    to_clock(game, "III")
    game.push("summon success=true")  # player 0
    room = game.view()["ghost_room"]
    game.push("end-turn")
    for _ in range(3):
        game.push("timer")  # player 1: III -> VI
    assert (game.view()["clock"], game.view()["ghost_room"]) == ("VI", room)
    game.push("end-turn")  # player 2, the round ends: VI -> IX
    assert game.view()["ghost_room"] is None  # back at the summoner's turn
    # now the timer that strikes XII overrides the summon at once
    game.push("summon success=true")
    game.push("end-turn")
    deck = list(game.state.room_deck)
    for _ in range(3):
        events = game.push("timer")
    assert clocks(events) == [("XII", "timer")]
    assert (game.view()["ghost_room"], game.view()["ghost_reason"]) == (deck[-1], "ghost_hour")


def test_no_summon_once_a_timer_has_struck_xii() -> None:
    """Action 8: Summon: 'not at Ghost Hour'. A third timer that moves the clock to XII mid-round starts the
    Ghost Hour, and summons are refused from then on."""
    game = new(players=3)
    with_dice(game)
    to_clock(game, "IX")
    for _ in range(3):
        game.push("timer")
    assert game.view()["clock"] == "XII"
    refused(game, "summon success=true", "XII")


def test_a_summon_is_allowed_once_a_timer_has_moved_the_clock_past_xii_and_the_ghost_is_gone() -> None:
    """Action 8: Summon: 'During the regular hours of the Clock (not at Ghost Hour ...)'. The clock decides: a
    third timer in the Ghost Hour round moves the hand to III, a regular hour (docs/rules-engine.md); but the Ghost
    Hour's ghost stays for the round, and a summon brings a ghost that is not on the board."""
    game = new(players=3)
    with_dice(game)
    to_clock(game, "IX")
    game.push("end-round")  # XII
    refused(game, "summon success=true", "XII")
    for _ in range(3):
        game.push("timer")
    assert game.view()["clock"] == "III" and game.view()["ghost_present"]
    refused(game, "summon success=true", "already on the board")
    game.push("ghost-at room=none")  # the host takes the ghost off (it was pulled away and lost, say)
    events = game.push("summon success=true")
    assert game.view()["ghost_reason"] == "summon"
    assert "ghost_appeared" in types(events)


def test_no_summon_while_the_ghost_is_summoned() -> None:
    """Action 8: Summon: a player 'may use a Summon Action to attempt to Summon the Ghost'; 'When successfully
    Summoned, the Ghost is revealed'. While the summoned ghost is on the board there is none to summon, and the
    legal actions do not offer it."""
    game = new(players=2)
    with_dice(game)
    to_clock(game, "III")
    game.push("summon success=true")
    assert "summon" not in [a.name for a in game.legal_actions()]
    refused(game, "summon success=false", "already summoned")


def test_summoned_ghost_uses_no_ghost_hour_ability() -> None:
    """Action 8: Summon: 'The Ghost will not use its Ghost Hour Ability when summoned' (FAQ: 'Are all Ghost
    Abilities ignored on a Summon? Yes'); the Child Ghost does not close the doors next to it."""
    game = new(players=2, physical=True)
    game.push("reveal-clue")
    game.push("solve evidence=evidence4")
    game.push("end-round")
    game.push("unlock door=7-8")
    events = game.push("summon success=true room=8")
    assert "doors_closed" not in types(events)
    assert game.view()["doors_open"] == ["7-8"]


def test_summon_free_pull_needs_no_action_and_lapses() -> None:
    """Action 8: Summon, "Summoning Sequence": 'As a free action, the player may Pull the Ghost two spaces'.
    'Any further Pulls will count as a separate Pull Action.'"""
    game = new(players=2, physical=True)
    game.push("reveal-clue")
    game.push("solve evidence=evidence4")
    game.push("end-round")
    game.push("action kind=move")
    game.push("action kind=move")
    game.push("summon success=true room=1")  # the third action
    assert game.view()["actions_left"] == 0 and game.view()["pull_pending"]
    game.push("move-ghost to=6")
    refused(game, "move-ghost to=7", "no pull is pending")  # one free pull only
    refused(game, "pull success=true", "all 3 actions")  # a further pull is an action
    game.push("end-turn")
    game.push("end-turn")  # the summoner's next turn: the summoned ghost is gone
    assert not game.view()["ghost_present"]
    game.push("summon success=true room=2")
    game.push("action kind=move")  # another action: the free pull is gone
    refused(game, "move-ghost to=1", "no pull is pending")


# -- Variant Rules: 1 Player Game ---------------------------------------------------------------------


def test_one_player_rolls_the_team_summon_dice_only() -> None:
    """Variant Rules, "1 Player Game": 'The player may add the Aiding bonus on a Summon or Séance to a maximum
    of five dice.' The aiding bonus is a Clue Die on Prove Actions ("Aiding Players": 'only for Prove Actions',
    'may not exceed five Clue Dice'; a séance rolls no dice), so a summon still rolls one die per solved clue."""
    game = new(players=1)
    with_dice(game)
    game.push("end-turn")
    refused(game, "summon faces=blank,summon", "1 summon dice", kind=BadCommand)
    assert game.view()["solo_aid"] is False
    game.push("summon faces=summon")
    assert game.view()["solo_aid"] is True  # prove rolls may add the aiding die now
    game.push("end-turn")
    assert game.view()["solo_aid"] is False  # the summon ended with the turn


def test_one_player_aid_in_a_seance_but_not_at_the_ghost_hour() -> None:
    """Variant Rules, "1 Player Game": the aiding bonus on a Séance; none for the Ghost Hour or Ghost Mode."""
    game = seance_ready(players=1)
    game.push("seance room=3")
    game.push("end-round")
    assert (game.view()["ghost_reason"], game.view()["solo_aid"]) == ("seance", True)
    game.push("end-round room=4")
    assert (game.view()["ghost_reason"], game.view()["solo_aid"]) == ("ghost_mode", False)
    game.push("end-round room=5")
    game.push("end-round environment=fire room=6")
    assert (game.view()["ghost_reason"], game.view()["solo_aid"]) == ("ghost_hour", False)


def test_one_player_third_timer_to_the_ghost_hour() -> None:
    """Variant Rules, "1 Player Game": 'A third timer token ends the player's turn and advances the clock twice!
    Follow all the rules on Timers for the Ghost Hour': the card is drawn and shown, the ghost leaves at once."""
    game = new(players=1)
    to_clock(game, "IX")
    deck = list(game.state.room_deck)
    game.push("timer")
    game.push("timer")
    events = game.push("timer")
    assert clocks(events) == [("XII", "timer"), ("III", "round")]
    assert rooms_drawn(events) == [(deck[-1], "ghost_hour")]
    assert "environment_drawn" in types(events)
    assert game.view()["ghost_room"] is None and game.view()["red_markers"] == [deck[-1]]


def test_one_player_summon_ended_by_the_third_timer() -> None:
    """Variant Rules, "1 Player Game": the summon ends with the player's turn, and a third timer ends the turn."""
    game = new(players=1)
    with_dice(game)
    game.push("end-turn")  # III
    game.push("summon success=true")
    game.push("timer")
    events = game.push("timer")
    assert game.view()["ghost_reason"] == "summon"
    events = game.push("timer")
    assert clocks(events) == [("VI", "timer"), ("IX", "round")]
    assert game.view()["ghost_room"] is None


# -- Game End -----------------------------------------------------------------------------------------


def empty_room_deck_by_failed_summons(game: Game, leave: int) -> None:
    with_dice(game)
    to_clock(game, "III")
    while game.view()["room_deck_left"] > leave:
        if game.view()["actions_left"] == 0:
            game.push("end-turn")
            if game.view()["clock"] == "XII":
                game.push("end-round")
        game.push("summon success=false")
        assert game.view()["outcome"] is None


def test_last_room_card_discarded_unseen_loses_at_once() -> None:
    """Game End, "Losing": 'At any point during the game if the last Room Card is drawn, players have one more
    round ... If the round expires or the Ghost does not appear, the game ends and the players lose.' A failed
    summon discards the last card unseen: the ghost does not appear and nothing can bring it back."""
    game = new(players=4, seed=3)
    empty_room_deck_by_failed_summons(game, leave=1)
    if game.view()["actions_left"] == 0 or game.view()["clock"] == "XII":
        game.push("end-round")
        to_clock(game, "III")
    events = game.push("summon success=false")
    assert types(events)[-1] == "game_lost"
    assert "does not appear" in str(game.view()["outcome_reason"])
    assert game.view()["final_round"] is True
    game.pop()  # undo gives the card and the game back
    assert game.view()["outcome"] is None and game.view()["room_deck_left"] == 1


def test_no_failed_summon_takes_the_last_room_card_while_the_summoned_ghost_is_on_the_board() -> None:
    """Game End, "Losing" and Action 8: Summon: with the summoned ghost still on the board no summon is made (there
    is no ghost to summon), so the last room card stays in the deck for the players' round."""
    game = new(players=4, seed=3)
    empty_room_deck_by_failed_summons(game, leave=2)
    if game.view()["actions_left"] < 2 or game.view()["clock"] == "XII":
        game.push("end-round")
        to_clock(game, "III")
    game.push("summon success=true")
    refused(game, "summon success=false", "already summoned")
    assert game.view()["room_deck_left"] == 1 and not game.view()["final_round"]


def test_last_room_card_at_the_ghost_hour_gives_one_more_round() -> None:
    """Game End, "Losing": the last room card drawn at the Ghost Hour; 'players have one more round to make
    Prove Actions' and lose when it ends ('If the round ends during which the last Room Card was drawn')."""
    game = new(players=4, seed=3)  # nine room cards
    empty_room_deck_by_failed_summons(game, leave=1)
    to_clock(game, "IX")
    last_round = game.view()["round"]
    events = game.push("end-round")  # XII: the last card
    assert [r for _, r in rooms_drawn(events)] == ["ghost_hour"]
    assert [e["round"] for e in events if e["type"] == "final_round"] == [last_round + 1]
    for player in range(4):  # every player has a turn with the ghost
        assert game.view()["outcome"] is None and game.view()["current_player"] == player
        assert game.view()["ghost_present"]
        game.push("end-turn")
    assert game.view()["outcome"] == "lost"


def test_last_room_card_drawn_at_a_ghost_mode_quarter_then_the_round_is_played() -> None:
    """Game End, "Losing": the round in which the last room card was drawn is played to its end, then lost."""
    game = new(players=2, seed=4)  # 18 room cards
    ghost_mode_by_clues(game)
    while game.view()["room_deck_left"] > 0:
        game.push("end-round")
    view = game.view()
    assert view["final_round"] and view["ghost_room"] is not None and view["outcome"] is None
    refused(game, "seance", "séance symbol")
    game.push("prove set=1")
    game.push("end-turn")
    events = game.push("end-turn")
    assert types(events)[-1] == "game_lost"
    assert "clock_advanced" not in types(events)  # the game ends with the round


def test_last_room_card_drawn_by_a_third_timer_on_the_last_turn() -> None:
    """Red Icons, "Timers" with Game End, "Losing": a third timer on the last player's turn brings the Ghost Hour
    and its room card is the last one; the ghost disappears at once and the round in which the last card was
    drawn has ended, so the players lose (docs/rules-engine.md, Interpretations)."""
    game = new(players=4, seed=3)  # nine room cards
    empty_room_deck_by_failed_summons(game, leave=1)
    to_clock(game, "IX")
    to_player(game, 3)
    game.push("timer")
    game.push("timer")
    events = game.push("timer")
    assert [r for _, r in rooms_drawn(events)] == ["ghost_hour"]
    order = types(events)
    assert order.index("final_round") < order.index("ghost_disappeared") < order.index("game_lost")
    assert game.view()["outcome"] == "lost"


def test_timer_needing_a_room_card_that_is_not_there_loses() -> None:
    """Game End, "Losing": 'or the Ghost does not appear'. In the final round of Ghost Mode a third timer's
    quarter hour needs a room card and none is left."""
    game = new(players=2, seed=4)
    ghost_mode_by_clues(game)
    while game.view()["room_deck_left"] > 0:
        game.push("end-round")
    assert game.view()["clock"] != "IX"
    for _ in range(3):
        events = game.push("timer")
    assert types(events)[-1] == "game_lost"
    assert "does not appear" in str(game.view()["outcome_reason"])


def test_win_the_moment_the_last_set_is_proven_by_a_roll() -> None:
    """Action 6: Prove: 'If all icon sets are resolved, the players ... win the game!' The win comes with the
    roll, in the final round too (Game End, "Winning": 'before the last Room Card is drawn and that round ends')."""
    game = new(players=2, seed=4)
    ghost_mode_by_clues(game)
    while game.view()["room_deck_left"] > 0:
        game.push("end-round")
    assert game.view()["final_round"] and game.view()["ghost_present"]
    sets = PACKS.ghosts["child"].icon_sets
    for index in range(1, len(sets)):
        game.push(f"prove set={index}")
    game.push(f"attempt action=prove set={len(sets)}")
    events = game.push("roll faces=cobweb,eye,eye")
    assert types(events)[-2:] == ["set_proven", "game_won"]
    assert game.view()["outcome"] == "won" and game.view()["seance_available"] is False
    refused(game, "end-turn", "game is over")


# -- Ghost Mode -------------------------------------------------------------------------------------------


def test_ghost_mode_by_clues_is_not_a_seance() -> None:
    """Ghost Mode: 'when all seven Clue Tokens have been revealed'; Séance: only 'once all Evidence Tokens that
    match the Séance symbols ... have been discovered'. Summons are lost, pulls are not."""
    game = new(players=2)
    with_dice(game)
    game.push("end-round")
    ghost_mode_by_clues(game)
    assert game.view()["ghost_mode_why"] == "all seven clue tokens are revealed"
    assert game.view()["seance_available"] is False
    refused(game, "seance", "séance symbol")
    refused(game, "summon success=true", "Ghost Mode")
    game.push("end-round")  # VI: Ghost Mode draws
    events = game.push("pull success=true")  # 'Players may still attempt Pull Actions.'
    assert game.view()["pull_pending"] and "pull" in types(events)


def test_ghost_mode_uses_the_ghost_hour_ability() -> None:
    """Ghost Card, "Ghost Hour Ability": 'Each time the Ghost is revealed at the Ghost Hour or during Ghost Mode
    ... the Ghost will immediately use its Ghost Hour Ability' (the Child Ghost closes adjacent doors); not a
    séance ghost ('the Ghost does not use its Ghost Hour Ability')."""
    game = seance_ready(players=1)
    game.push("unlock door=7-8")
    game.push("unlock door=13-14")
    events = game.push("end-round room=8")  # III: a Ghost Mode quarter hour
    assert [e["doors"] for e in events if e["type"] == "doors_closed"] == [["7-8"]]
    game.push("seance room=13")
    events = game.push("end-round")  # VI: the séance
    assert "doors_closed" not in types(events) and game.view()["doors_open"] == ["13-14"]


def test_ghost_mode_starting_mid_round_draws_at_the_next_quarter() -> None:
    """Turn Sequence: 'Advance the Clock fifteen-minutes; Activate Ghost Mode, if applicable'. Ghost Mode: 'The
    Ghost will now appear at the end of every round at each fifteen-minute increment.' The summoned ghost is
    superseded by the first Ghost Mode draw."""
    game = new(players=2)
    with_dice(game)
    game.push("end-round")  # III
    game.push("summon success=true")
    summoned = game.view()["ghost_room"]
    events: Events = []
    while not game.view()["ghost_mode"]:
        events += game.push("reveal-clue")
    assert "room_drawn" not in types(events) and game.view()["ghost_room"] == summoned
    deck = list(game.state.room_deck)
    game.push("end-turn")
    events = game.push("end-turn")
    assert rooms_drawn(events) == [(deck[-1], "ghost_mode")]
    assert game.view()["ghost_reason"] == "ghost_mode"


# -- Séance ---------------------------------------------------------------------------------------------


def test_seance_is_not_made_at_the_ghost_hour_even_after_a_timer() -> None:
    """Séance: 'A Séance cannot be made during the Ghost Hour (XII on the Clock).' Declared at IX it would fall
    on XII; the view says when a séance is possible."""
    game = seance_ready(players=2)
    for _ in range(3):
        game.push(f"end-round room={next_room(game)}")
    assert game.view()["clock"] == "IX" and game.view()["seance_available"] is False
    refused(game, "seance", "Ghost Hour")
    game.push(f"end-round environment=fire room={next_room(game)}")
    assert game.view()["seance_available"] is True


def test_seance_ghost_leaves_after_one_round_and_the_ghost_hour_follows() -> None:
    """Séance: 'the Séance lasts only one round, ending after all players have taken their turn'; Advancing the
    Clock, Caution: the Ghost Hour supersedes."""
    game = seance_ready(players=2)
    for _ in range(2):
        game.push(f"end-round room={next_room(game)}")
    game.push("seance room=7")  # at VI, for IX
    game.push("end-round")
    assert (game.view()["clock"], game.view()["ghost_room"]) == ("IX", 7)
    game.push("end-turn")
    events = game.push("end-turn environment=fire room=15")
    assert types(events).index("seance_ended") < types(events).index("ghost_hour")
    view = game.view()
    assert (view["ghost_room"], view["ghost_reason"], view["seance_active"]) == (15, "ghost_hour", False)


# -- Action 7: Pull Ghost ---------------------------------------------------------------------------------


def test_pull_a_step_then_a_closed_door_is_too_far() -> None:
    """Action 7: Pull Ghost: 'The Ghost can only move one space if it is pulled through a closed door.' From 6,
    room 8 is one open step and then the closed door 7-8: refused; through the open door it is fine."""
    assert ASYLUM.door("7-8") is not None and ASYLUM.connection(6, 7) is not None
    game = new(players=2)
    with_dice(game)
    game.push("ghost-at room=6")
    game.push("pull success=true")
    message = refused(game, "move-ghost to=8", "closed door")
    assert "7 (" in message
    game.push("move-ghost to=7")
    game.push("unlock door=7-8")
    game.push("ghost-at room=6")
    game.push("pull success=true")
    game.push("move-ghost to=8")
    assert game.view()["ghost_room"] == 8


def test_pull_never_through_a_secret_passage_nor_in_place() -> None:
    """Action 7: Pull Ghost with Secret Passages: 'A Ghost cannot be pulled through a Secret Passage'; a pull
    moves it 'up to two spaces' to another space."""
    a, b = ASYLUM.secret_passages[0]
    game = new(players=2)
    with_dice(game)
    game.push(f"ghost-at room={a}")
    game.push("pull success=true")
    refused(game, f"move-ghost to={b}", "secret passage")
    refused(game, f"move-ghost to={a}", "cannot be pulled")


def test_failed_pull_of_a_summoned_ghost_ends_the_summon() -> None:
    """Action 7: Pull Ghost: 'If the roll is unsuccessful, the Ghost disappears.' Action 8: the further pulls
    after a summon 'will disappear if the attempt is failed'."""
    game = new(players=2)
    with_dice(game)
    game.push("end-round")
    game.push("summon success=true")
    events = game.push("pull faces=blank")
    assert types(events) == ["pull", "ghost_disappeared"]
    view = game.view()
    assert (view["ghost_room"], view["summoner"], view["pull_pending"]) == (None, None, False)
    refused(game, "pull success=true", "not on the board")


def test_pull_rolls_the_team_summon_dice() -> None:
    """Quick Reference, "Pull": 'Roll 1 Summon Die per solved Clue.' No aiding die, even for one player."""
    game = new(players=1)
    with_dice(game, 2)
    game.push("ghost-at room=5")
    refused(game, "pull faces=blank,blank,summon", "2 summon dice", kind=BadCommand)
    game.push("pull faces=blank,summon")
    assert game.view()["pull_pending"]


# -- Player Turn: free actions ----------------------------------------------------------------------------


def test_an_attempt_may_start_on_a_free_action() -> None:
    """FAQ: 'any Item that allows a free action, does just that - it adds to your normal three actions'."""
    game = new(players=2)
    for _ in range(3):
        game.push("action kind=move")
    refused(game, "attempt action=search need=eye:1", "free=true")
    game.push("attempt action=search need=eye:1 free=true")
    events = game.push("roll faces=eye,camera,camera free=true")
    assert types(events) == ["rolled", "attempt_succeeded"]
    assert game.view()["actions_left"] == 0


# -- Environment deck --------------------------------------------------------------------------------------


def test_reshuffle_then_undo_restores_the_deck_order() -> None:
    """Ghost Hour Sequence: 'If there are no cards left, reshuffle the deck and play one'; undo puts back the
    exact decks (and the same card comes again)."""
    game = new(players=1, seed=11)
    while game.state.env_deck:
        game.push("end-round")
        for card in list(game.state.env_active):
            game.push(f"discard-environment card={card}")
    to_clock(game, "IX")
    before = game.state.copy()
    events = game.push("end-round")
    assert "environment_reshuffled" in types(events)
    assert types(events).index("environment_reshuffled") < types(events).index("environment_drawn")
    assert types(events).index("environment_drawn") < types(events).index("room_drawn")
    game.pop()
    assert game.state == before and game.state.env_deck == [] and game.state.env_reshuffles == 0
    assert game.push("end-round") == events


# -- undo of every tricky case ------------------------------------------------------------------------------


def _timer_to_xii_last_turn(game: Game) -> str:
    to_clock(game, "IX")
    ghost_mode_by_clues(game)
    to_player(game, game.setup.players - 1)
    game.push("timer")
    game.push("timer")
    return "timer"


def _summon_at_ix(game: Game) -> str:
    with_dice(game)
    to_clock(game, "IX")
    return "summon success=true"


def _ghost_hour_over_summon(game: Game) -> str:
    with_dice(game)
    to_clock(game, "IX")
    to_player(game, min(1, game.setup.players - 1))
    game.push("summon success=true")
    to_player(game, game.setup.players - 1)
    return "end-turn"


def _summon_leaves(game: Game) -> str:
    with_dice(game)
    to_clock(game, "III")
    game.push("end-turn")
    game.push("summon success=true")
    to_player(game, 0)
    return "end-turn"


def _failed_summon(game: Game) -> str:
    with_dice(game)
    to_clock(game, "III")
    return "summon success=false"


def _pull_move(game: Game) -> str:
    with_dice(game)
    game.push("ghost-at room=6")
    game.push("pull success=true")
    return "move-ghost to=7"


def _failed_pull(game: Game) -> str:
    with_dice(game)
    game.push("ghost-at room=6")
    return "pull success=false"


def _ghost_mode_by_clue(game: Game) -> str:
    for _ in range(6):
        game.push("reveal-clue")
    return "reveal-clue"


def _prove_last_set(game: Game) -> str:
    game.push("ghost-at room=4")
    for index in range(1, len(game.ghost.icon_sets)):
        game.push(f"prove set={index}")
    return f"prove set={len(game.ghost.icon_sets)}"


def _ghost_hour(game: Game) -> str:
    to_clock(game, "IX")
    return "end-round"


SCENARIOS = {
    "third timer to XII on the last turn in Ghost Mode": _timer_to_xii_last_turn,
    "summon at IX": _summon_at_ix,
    "the Ghost Hour supersedes a summon": _ghost_hour_over_summon,
    "the summoned ghost leaves": _summon_leaves,
    "failed summon": _failed_summon,
    "pull and move": _pull_move,
    "failed pull": _failed_pull,
    "Ghost Mode by the seventh clue": _ghost_mode_by_clue,
    "the last set proven": _prove_last_set,
    "the Ghost Hour": _ghost_hour,
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
@pytest.mark.parametrize("players", [1, 3])
def test_undo_restores_the_exact_state(name: str, players: int) -> None:
    """Issue 2, "The game history": undo takes back the last command; undoing a draw puts exactly that card back.
    After the undo the state (deck orders included) is the one from before, and the command gives the same
    events again; replaying the history gives the same game."""
    game = new(players=players, seed=6)
    text = SCENARIOS[name](game)
    before, view = game.state.copy(), game.view()
    events = game.push(text)
    assert game.state != before
    assert Game.replay(game.setup, PACKS, game.history).state == game.state
    assert game.pop() == Command.parse(text)
    assert game.state == before and game.view() == view
    assert game.state.room_deck == before.room_deck and game.state.env_deck == before.env_deck
    assert game.push(text) == events


@pytest.mark.parametrize("action", ["fire", "barrier"])
def test_environment_card_rolls_take_no_item_dice(action: str) -> None:
    """Environment Cards: 'Items, including Magnifying Glasses, cannot be used on Environment Cards'; the Fire
    Card is put out 'by rolling one Cobweb with three Clue Dice, as an action, without help from Items', the
    Barrier with 'three Clue Dice without the use of Items'."""
    game = card_in_play(action)
    if action == "fire":
        game.push("tell-fires spaces=3")  # where the board's fire icon is (skeptics-rulebook.txt:286)
    need = " space=3" if action == "fire" else " need=eye:1,camera:1"
    refused(game, f"attempt action={action}{need} dice=4", "Environment Cards", "dice=3")
    game.push(f"attempt action={action}{need} dice=2")  # fewer is fine (Watching Eyes)
    game.push(f"attempt action={action}{need}")
    assert game.view()["attempt"]["dice"] == 3


# -- what the view promises matches what the engine accepts --------------------------------------------

_WALK = [
    "end-turn",
    "end-turn",
    "end-round",
    "action kind=move",
    "reveal-clue",
    "solve",
    "summon success=true",
    "summon success=false",
    "pull success=true",
    "pull success=false",
    "timer",
    "timer",
    "seance room=3",
    "prove set=1",
    "prove set=2",
    "move-ghost to=7",
    "ghost-at room=6",
]


@pytest.mark.parametrize("players", [1, 2, 4])
def test_view_flags_agree_with_the_rules_in_random_games(players: int) -> None:
    """Séance ("once per game", "not during the Ghost Hour", FAQ: not after the last room card): the view's
    seance_available is exactly whether `seance` is accepted; Variant Rules: solo_aid only for one player;
    the room cards always add up to twenty (Setup, "Room Deck")."""
    import random

    rng = random.Random(players)
    checked = available = refusals = 0
    for game_no in range(12):
        game = new(players=players, seed=game_no)
        for _ in range(160):
            if game.outcome is not None:
                break
            view = game.view()
            assert view["seance_available"] == game.is_legal("seance room=3"), (game_no, view["clock"])
            available += bool(view["seance_available"])
            refusals += bool(view["ghost_mode"] and not view["seance_available"] and not view["seance_used"])
            assert not view["solo_aid"] or players == 1
            s = game.state
            assert len(s.room_deck) + len(s.rooms_revealed) + len(s.discarded_unseen) + len(s.removed_rooms) == 20
            assert s.room_deck_left == len(s.room_deck)
            text = rng.choice(_WALK)
            if game.is_legal(text):
                game.push(text)
                checked += 1
    assert checked > 500 and available > 0 and refusals > 0


@pytest.mark.parametrize("players", [1, 3])
def test_undo_of_the_seance_and_of_a_timer_that_ends_it(players: int) -> None:
    """Séance and Red Icons, "Timers" ('Collecting a third Timer also ends a Séance!'): undo gives back the state
    from before the declaration, the séance's start and the timer that ended it."""
    game = seance_ready(players=players)
    for text in ("seance room=5", "end-round", "timer", "timer", "timer room=6" + (",7" if players == 1 else "")):
        before, view = game.state.copy(), game.view()
        events = game.push(text)
        assert Game.replay(game.setup, PACKS, game.history).state == game.state
        game.pop()
        assert game.state == before and game.view() == view
        assert game.push(text) == events
    assert game.view()["seance_used"] and not game.view()["seance_active"]


def test_a_prove_and_an_unlock_take_their_icons_from_the_card_and_the_door() -> None:
    """Action 6: Prove ('Players must call the icon set they are proving') and Action 2: Unlock (the door's keys):
    a contradicting need= is refused, the set's red icons always apply; the box has 5 clue and 4 key dice. The ghost
    card and the board are filled in here: a card or a door not filled in yet takes the host's icons
    (test_rules_review.py)."""
    from dataclasses import replace
    from types import MappingProxyType

    child = replace(PACKS.ghosts["child"], placeholder=False)
    board = PACKS.boards["asylum"]
    ways = tuple(replace(c, placeholder=False) for c in board.connections)
    packs = replace(
        PACKS,
        ghosts=MappingProxyType({**PACKS.ghosts, "child": child}),
        boards=MappingProxyType({**PACKS.boards, "asylum": replace(board, connections=ways)}),
    )
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=3), packs)
    for _ in range(4):
        game.push("end-round")  # the Ghost Hour: the ghost is on the board
    sets = game.view()["icon_sets"]
    wrong = "eye:3" if sets[0]["need"] != "eye:3" else "camera:3"
    refused(game, f"attempt action=prove set=1 need={wrong}", "needs")
    game.push(f"attempt action=prove set=1 need={sets[0]['need']}")  # the same set, typed, is fine
    assert game.view()["attempt"]["need"] == sets[0]["need"]
    door = next(d for d in game.board.doors if d.keys >= 2)
    refused(game, f"attempt action=unlock door={door.key} need=key:1", "needs")
    refused(game, f"attempt action=unlock door={door.key} dice=5", "4 of them")
    refused(game, "attempt action=search need=eye:1 dice=6", "5 of them")
    game.push(f"attempt action=unlock door={door.key} dice=4")
    assert game.view()["attempt"]["need"] == f"key:{door.keys}"
    timer_sets = [s for s in sets if "timer" not in s["need"]]
    refused(game, f"attempt action=prove set={timer_sets[0]['index']} timer=true", "not on that icon set")


def test_the_ghost_hour_always_plays_an_environment_card() -> None:
    """Ghost Hour Sequence: 'If there are no cards left, reshuffle the deck and play one', even with every card
    in play (they last until met): the card in play longest ends and comes back."""
    from dataclasses import replace

    lasting = replace(PACKS, environment={k: replace(c, duration="until_met") for k, c in PACKS.environment.items()})
    game = Game.new(Setup(players=1, board="asylum", ghost="child", seed=5), lasting)
    hours = reshuffled = 0
    while game.outcome is None and hours < 30:
        events = game.push("end-round")
        if any(e["type"] == "ghost_hour" for e in events):
            hours += 1
            assert [e for e in events if e["type"] == "environment_drawn"], f"Ghost Hour {hours} played no card"
            assert not [e for e in events if e["type"] == "environment_deck_empty"]
            reshuffled += sum(1 for e in events if e.get("why") == "reshuffled")
            state = game.state
            assert len(state.env_deck) + len(state.env_discard) + len(state.env_active) == len(
                PACKS.environment_deck(game.setup.board)
            )
    assert hours > 15 and reshuffled > 0  # the deck ran dry with every card in play, and a card was still played


def test_watching_eyes_and_the_bonuses_are_counted_by_the_engine_in_the_faqs_order() -> None:
    """FAQ ('the Environment Card is played out first and the bonuses added after', 'The maximum amount of Clue
    Dice you can roll is five'): under the Watching Eyes a clue roll starts with 2 dice; a glass, the aid die and
    items are added after, to five at most; key dice are not reduced; the odds use the dice worked out."""
    from companion.games.skeptics.dice import Requirement, success_probability
    from companion.games.skeptics.module import attempt_odds as _odds

    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=4, physical=True), PACKS)
    for _ in range(3):
        game.push("end-round")
    game.push("end-round room=8 environment=watching_eyes")  # the Ghost Hour draws the Watching Eyes
    assert "watching_eyes" in game.state.env_active and game.view()["ghost_room"] == 8
    game.push("attempt action=search need=eye:1")
    assert game.view()["attempt"]["dice"] == 2
    assert game.view()["attempt"]["counted"] == "3 dice − Watching Eyes: 2 to roll"
    game.push("attempt action=search need=eye:1 glass=true")
    assert game.view()["attempt"]["dice"] == 3
    # The FAQ's example: an EVP recorder, a glass and the aid die under the Watching Eyes: six counted, five rolled.
    game.push("attempt action=prove set=1 glass=true aid=true items=2")
    view = game.view()
    assert view["attempt"]["dice"] == 5
    assert _odds({**view, "odds": None}) == pytest.approx(
        success_probability(Requirement.parse(view["icon_sets"][0]["need"]), dice=5, rolls=view["actions_left"])
    )
    door = game.board.doors[0]
    game.push(f"attempt action=unlock door={door.key}")
    assert game.view()["attempt"]["dice"] == 3  # key dice: the Watching Eyes takes clue dice only
    game.push(f"attempt action=unlock door={door.key} items=2")
    assert game.view()["attempt"]["dice"] == 4  # 3 + 2 from items, but the box has 4 key dice
    refused(game, "attempt action=unlock door=" + door.key + " glass=true", "magnifying glass")
    fire = card_in_play("fire")
    fire.push("tell-fires spaces=3")
    refused(fire, "attempt action=fire space=3 items=1", "items cannot be used")


@pytest.mark.parametrize("players,easier,removed", [(2, 1, 1), (3, 2, 6), (4, 1, 10), (2, 2, 0), (1, 2, 0)])
def test_easier_play_removes_one_or_two_fewer_room_cards(players: int, easier: int, removed: int) -> None:
    """Variant Rules, Easier Play: 'Players may remove one or two fewer Room Cards during setup.'"""
    from companion.games.skeptics.sentences import Names, setup_checklist

    game = Game.new(Setup(players=players, board="asylum", ghost="child", seed=2, easier=easier), PACKS)
    view = game.view()
    assert (view["room_cards_removed"], view["room_deck_left"], view["easier"]) == (removed, 20 - removed, easier)
    assert Game.replay(game.setup, PACKS, []).state == game.state
    assert Setup.from_dict(game.setup.to_dict()) == game.setup
    physical = Game.new(
        Setup(players=players, board="asylum", ghost="child", seed=2, easier=easier, physical=True), PACKS
    )
    rooms = {i["id"]: i["text"] for i in setup_checklist(physical.view(), Names.of_game(physical))}["rooms"]
    assert (f"take {removed} away" in rooms) if removed else ("all twenty" in rooms)
    with pytest.raises(BadCommand, match="Easier Play"):
        Game.new(Setup(players=players, board="asylum", ghost="child", seed=2, easier=3), PACKS)
