"""Rule tests: Action 4: Solve (evidence), Action 6: Prove, Action 7: Pull Ghost, Action 8: Summon,
Ghost Mode, Séance and Game End. Each test names the rulebook section it checks."""

from __future__ import annotations

import json

import pytest
from games import PACKS, types
from games import new_game as new

from companion.errors import BadCommand, IllegalCommand
from companion.games.skeptics.engine import Game, Setup

ASYLUM = PACKS.boards["asylum"]


def with_dice(game: Game, n: int = 1) -> None:
    """Reveal and solve n clues (one summon die each); the table moves on to the round at III."""
    for _ in range(n):
        game.push("reveal-clue")
        game.push("solve")
    while game.view()["clock"] != "III":
        game.push("end-round")


def refused(game: Game, text: str, *words: str, kind: type[Exception] = IllegalCommand) -> str:
    before = game.state.copy()
    with pytest.raises(kind) as info:
        game.push(text)
    assert game.state == before
    for word in words:
        assert word in str(info.value), (word, str(info.value))
    return str(info.value)


# -- Action 8: Summon -----------------------------------------------------------------------------


def test_summon_needs_a_summon_die() -> None:
    """Action 8: Summon: only if the players have at least one summon die (gained from solving clues)."""
    game = new()
    game.push("end-round")
    refused(game, "summon success=true", "summon die", "Solve a clue")


def test_no_summon_at_the_ghost_hour() -> None:
    """Action 8: Summon: not at the Ghost Hour (XII on the clock)."""
    game = new()
    game.push("reveal-clue")
    game.push("solve")
    assert game.view()["clock"] == "XII"
    refused(game, "summon success=true", "XII")


def test_no_summon_in_ghost_mode() -> None:
    """Ghost Mode: players lose the Summon Action for the rest of the game."""
    game = new()
    with_dice(game)
    for _ in range(6):
        game.push("reveal-clue")
    assert game.view()["ghost_mode"]
    refused(game, "summon success=true", "Ghost Mode")


def test_successful_summon_places_the_ghost_and_allows_a_free_pull() -> None:
    """Action 8: Summon, "Summoning Sequence": draw a room card, red marker and ghost there, a free pull."""
    game = new()
    with_dice(game)
    top = game.state.room_deck[-1]
    left = game.view()["room_deck_left"]
    events = game.push("summon faces=summon")
    assert types(events)[:3] == ["summon", "room_drawn", "ghost_appeared"]
    view = game.view()
    assert view["ghost_room"] == top and view["ghost_reason"] == "summon"
    assert view["red_markers"] == [top]
    assert view["room_deck_left"] == left - 1
    assert view["pull_pending"] is True
    assert view["actions_left"] == 2


def test_failed_summon_discards_a_room_card_unseen() -> None:
    """Action 8: Summon, "Failing Summon Actions": a room card is drawn and discarded without looking at it."""
    game = new()
    with_dice(game)
    top = game.state.room_deck[-1]
    before = game.view()
    events = game.push("summon faces=blank")
    assert types(events) == ["summon", "room_discarded_unseen"]
    assert all("room" not in e for e in events)
    view = game.view()
    assert view["ghost_room"] is None
    assert view["room_deck_left"] == before["room_deck_left"] - 1
    assert view["room_cards_discarded_unseen"] == 1
    assert view["red_markers"] == before["red_markers"] == []
    assert view["rooms_unseen"] == before["rooms_unseen"]  # the discarded card is not told apart
    assert top in view["rooms_unseen"]
    assert game.state.discarded_unseen == [top]
    # the player may still attempt another summon with the remaining actions
    game.push("summon success=false")
    assert game.view()["room_cards_discarded_unseen"] == 2


def test_summon_faces_must_match_the_summon_dice() -> None:
    """Action 8: Summon: the player rolls the appropriate number of dice (one per solved clue)."""
    game = new()
    with_dice(game, 2)
    refused(game, "summon faces=summon", "2 summon dice", kind=BadCommand)
    refused(game, "summon faces=eye,blank", "summon", kind=BadCommand)
    refused(game, "summon", "faces", kind=BadCommand)
    refused(game, "summon faces=summon,blank success=true", "both", kind=BadCommand)
    game.push("summon faces=blank,summon")
    assert game.view()["ghost_reason"] == "summon"


def test_summoned_ghost_leaves_at_the_start_of_the_summoners_next_turn() -> None:
    """Action 8: Summon: the ghost disappears once play comes back to the beginning of the summoner's turn."""
    game = new(players=3)
    with_dice(game)
    game.push("end-turn")  # player 1 summons
    game.push("summon success=true")
    room = game.view()["ghost_room"]
    for _ in range(3):  # player 1 ends, player 2, (round ends: VI), player 0
        assert game.view()["ghost_room"] == room
        game.push("end-turn")
    assert game.view()["current_player"] == 1
    assert game.view()["ghost_room"] is None


def test_the_ghost_hour_supersedes_a_summon() -> None:
    """Action 8: Summon, "Timing a Summon Example": if the clock strikes XII the Ghost Hour overrides the summon."""
    game = new(players=4)
    with_dice(game)
    while game.view()["clock"] != "IX":
        game.push("end-round")
    game.push("end-turn")
    game.push("end-turn")
    game.push("summon success=true")  # the third player summons fifteen minutes before XII
    summoned = game.view()["ghost_room"]
    top = game.state.room_deck[-1]
    game.push("end-turn")
    events = game.push("end-turn")
    assert "ghost_hour" in types(events)
    view = game.view()
    assert view["ghost_room"] == top != summoned
    assert view["ghost_reason"] == "ghost_hour"
    for _ in range(3):  # the ghost of the Ghost Hour stays past the summoner's turn
        game.push("end-turn")
    assert game.view()["ghost_room"] == top


# -- Action 7: Pull Ghost ---------------------------------------------------------------------------


def ghost_in(game: Game, room: int) -> None:
    game.push(f"ghost-at room={room}")


def test_pull_needs_a_summon_die_and_the_ghost_on_the_board() -> None:
    """Action 7: Pull Ghost: the ghost must be on the board and the players need at least one summon die."""
    game = new()
    refused(game, "pull success=true", "summon die")
    game.push("reveal-clue")
    game.push("solve")
    refused(game, "pull success=true", "not on the board")


def test_pull_moves_up_to_two_spaces() -> None:
    """Action 7: Pull Ghost: up to two spaces through adjacent connected spaces."""
    game = new()
    with_dice(game)
    start = 1
    ghost_in(game, start)
    game.push("pull success=true")
    assert game.view()["pull_pending"]
    two_away = [
        far
        for nxt, c in ASYLUM.neighbours(start)
        if not c.door
        for far, c2 in ASYLUM.neighbours(nxt)
        if not c2.door and far != start and ASYLUM.connection(start, far) is None
    ]
    assert two_away
    events = game.push(f"move-ghost to={two_away[0]}")
    assert events == [
        {"type": "ghost_moved", "from": start, "to": two_away[0], "room_name": ASYLUM.space_name(two_away[0])}
    ]
    assert not game.view()["pull_pending"]
    refused(game, "move-ghost to=1", "no pull is pending")


def test_pull_only_one_space_through_a_closed_door_and_never_through_a_secret_passage() -> None:
    """Action 7: Pull Ghost: one space if pulled through a closed door; Secret Passages: never through one."""
    door = ASYLUM.door("7-8")
    assert door is not None
    beyond = [n for n, c in ASYLUM.neighbours(8) if n != 7 and not c.door]
    game = new()
    with_dice(game)
    ghost_in(game, 7)
    game.push("pull success=true")
    message = refused(game, f"move-ghost to={beyond[0]}", "closed door", "can reach")
    assert "8 (" in message
    game.push("move-ghost to=8")  # one space through the closed door is fine
    game.pop()
    game.push("unlock door=7-8")
    game.push(f"move-ghost to={beyond[0]}")  # the door is open now: two spaces
    # the secret passage of the asylum (Padded Room - Bed Ward)
    a, b = ASYLUM.secret_passages[0]
    assert ASYLUM.connection(a, b) is None
    game.push(f"ghost-at room={a}")
    game.push("pull success=true")
    refused(game, f"move-ghost to={b}", "secret passage")


def test_failed_pull_makes_the_ghost_disappear() -> None:
    """Action 7: Pull Ghost: if the roll is unsuccessful, the ghost disappears."""
    game = new()
    with_dice(game)
    ghost_in(game, 5)
    events = game.push("pull faces=blank")
    assert types(events)[-1] == "ghost_disappeared"
    assert game.view()["ghost_room"] is None


# -- Action 4: Solve / evidence -----------------------------------------------------------------------


def test_clue_tokens_and_solving() -> None:
    """Action 3: Search ("Clue") and Action 4: Solve: +1 summon die per solved clue, an evidence token flipped."""
    game = new(ghost="shadow")
    refused(game, "solve", "reveal-clue")
    game.push("reveal-clue")
    assert game.view()["clues_revealed"] == 1
    top = game.state.evidence_left[-1]
    events = game.push("solve")
    flipped = next(e for e in events if e["type"] == "evidence_flipped")
    assert flipped["symbol"] == top
    assert flipped["matched"] == (top in PACKS.ghosts["shadow"].seance_symbols)
    view = game.view()
    assert view["summon_dice"] == 1 and view["clues_solved"] == 1
    assert view["evidence"] == [{"symbol": top, "name": PACKS.evidence[top].name, "matched": flipped["matched"]}]
    refused(game, "solve", "reveal-clue")


def test_all_seven_clue_tokens_revealed_start_ghost_mode() -> None:
    """Ghost Mode: activates when all seven clue tokens are revealed; no eighth token exists."""
    game = new()
    for n in range(1, 8):
        events = game.push("reveal-clue")
        assert game.view()["clues_revealed"] == n
        assert ("ghost_mode_started" in types(events)) == (n == 7)
    assert game.view()["ghost_mode"]
    refused(game, "reveal-clue", "all 7 clue tokens")


def test_matching_every_seance_symbol_starts_ghost_mode() -> None:
    """Action 4: Solve: 'If all matching symbols are found, the ghost will also go into Ghost Mode.'"""
    symbols = set(PACKS.ghosts["poltergeist"].seance_symbols)
    started_by_symbols = 0
    for seed in range(10):
        game = new(ghost="poltergeist", seed=seed)
        flipped: set[str] = set()
        for _ in range(6):  # six clues: the seventh token would start Ghost Mode by itself
            game.push("reveal-clue")
            events = game.push("solve")
            flipped |= {str(e["symbol"]) for e in events if e["type"] == "evidence_flipped"}
            assert game.view()["ghost_mode"] == symbols.issubset(flipped)
        if game.view()["ghost_mode"]:
            started_by_symbols += 1
            assert game.view()["ghost_mode_why"] == "every séance symbol is matched"
            assert sorted(game.view()["seance_symbols_matched"]) == sorted(symbols)
    assert started_by_symbols > 0


def test_ghost_mode_draws_a_room_card_every_quarter_and_environment_only_at_xii() -> None:
    """Ghost Mode: a room card at every fifteen-minute increment; environment cards ONLY at XII."""
    game = new(players=1)
    game.push("end-round")
    for _ in range(7):
        game.push("reveal-clue")
    drawn_rooms, env_draws = [], 0
    for _ in range(8):
        top = game.state.room_deck[-1]
        events = game.push("end-round")
        rooms = [e for e in events if e["type"] == "room_drawn"]
        assert len(rooms) == 1 and rooms[0]["room"] == top
        drawn_rooms.append(top)
        env = sum(1 for e in events if e["type"] == "environment_drawn")
        assert env == (1 if game.view()["clock"] == "XII" else 0)
        env_draws += env
        assert game.view()["ghost_room"] == top
        assert rooms[0]["reason"] == ("ghost_hour" if game.view()["clock"] == "XII" else "ghost_mode")
    assert env_draws == 2
    assert game.view()["rooms_revealed"] == drawn_rooms


# -- Séance -------------------------------------------------------------------------------------------


def seance_ready(players: int = 2) -> Game:
    """A child-ghost game (physical evidence so the test picks the tokens) with every séance symbol matched."""
    game = Game.new(Setup(players, "asylum", "child", 3, 5, physical=True), PACKS)
    for symbol in PACKS.ghosts["child"].seance_symbols:
        game.push("reveal-clue")
        game.push(f"solve evidence={symbol}")
    assert game.view()["ghost_mode"]
    return game


def test_seance_needs_every_symbol_matched() -> None:
    """Séance: once all evidence tokens that match the séance symbols are discovered."""
    game = new()
    refused(game, "seance", "séance symbol")


def test_seance_brings_the_ghost_for_one_round_without_a_room_card() -> None:
    """Séance: no room card is drawn; the ghost comes to the first player's space; it lasts one round."""
    game = seance_ready()
    left = game.view()["room_deck_left"]
    events = game.push("seance room=6")
    assert types(events) == ["seance_declared"]
    assert game.view()["seance_used"] and game.view()["seance_declared"]
    events = game.push("end-round")  # XII -> III: the séance replaces the Ghost Mode room card
    assert "room_drawn" not in types(events)
    view = game.view()
    assert view["room_deck_left"] == left
    assert (view["ghost_room"], view["ghost_reason"], view["seance_active"]) == (6, "seance", True)
    game.push("end-turn")
    assert game.view()["ghost_room"] == 6
    refused(game, "end-turn", "room=N", "Ghost Mode", kind=BadCommand)  # the host must enter the card drawn
    events = game.push("end-turn room=9")  # the séance ends after all players have taken their turn
    assert "seance_ended" in types(events)
    assert game.view()["ghost_room"] == 9
    assert game.view()["seance_active"] is False
    assert game.view()["ghost_reason"] == "ghost_mode"  # Ghost Mode draws as usual afterwards


def test_seance_only_once_and_never_at_the_ghost_hour() -> None:
    """Séance: only once per game; cannot be made during the Ghost Hour (XII)."""
    game = seance_ready()
    for _ in range(3):
        game.push("end-round room=" + str(game.view()["rooms_unseen"][0]))
    assert game.view()["clock"] == "IX"
    refused(game, "seance", "Ghost Hour")
    game.push("end-round environment=fire room=" + str(game.view()["rooms_unseen"][0]))
    game.push("seance room=4")
    refused(game, "seance", "once per game")


def test_a_third_timer_ends_a_seance() -> None:
    """Red Icons, Timers: 'Collecting a third Timer also ends a Séance!'"""
    game = seance_ready(players=3)
    game.push("seance room=2")
    game.push("end-round")
    assert game.view()["seance_active"]
    game.push("timer")
    game.push("timer")
    free_room = game.view()["rooms_unseen"][0]
    events = game.push(f"timer room={free_room}")  # III -> VI by the timer: Ghost Mode draws
    assert "seance_ended" in types(events)
    view = game.view()
    assert view["seance_active"] is False and view["seance_used"] is True
    assert (view["ghost_room"], view["ghost_reason"]) == (free_room, "ghost_mode")


def test_no_seance_after_the_last_room_card() -> None:
    """FAQ: once the last room card is drawn, the game ends at the end of that round; no séance follows."""
    game = seance_ready(players=4)
    while not game.view()["final_round"]:
        game.push(
            "end-round room="
            + str(game.view()["rooms_unseen"][0])
            + (" environment=" + game.state.env_deck[0] if game.view()["clock"] == "IX" else "")
        )
    refused(game, "seance", "last room card")


# -- Action 6: Prove / Game End ----------------------------------------------------------------------


def test_prove_needs_the_ghost_and_all_sets_win_at_once() -> None:
    """Action 6: Prove: on the ghost's space; 'If all icon sets are resolved, the players ... win the game!'"""
    game = new()
    refused(game, "prove set=1", "not on the board")
    game.push("ghost-at room=4")
    sets = len(PACKS.ghosts["child"].icon_sets)
    for index in range(1, sets + 1):
        events = game.push(f"prove set={index}")
        assert ("game_won" in types(events)) == (index == sets)
    assert game.outcome is not None and game.outcome.result == "won"
    assert game.view()["outcome"] == "won"
    refused(game, "end-turn", "game is over")


def test_a_proven_set_cannot_be_proven_again() -> None:
    """Ghost Card, "Resolved Conditions": markers stay until the end of the game."""
    game = new()
    game.push("ghost-at room=4")
    game.push("prove set=2")
    refused(game, "prove set=2", "already proven")
    assert [s["proven"] for s in game.view()["icon_sets"]][:3] == [False, True, False]


def test_lost_when_the_round_of_the_last_room_card_ends() -> None:
    """Game End, "Losing": the last room card drawn, the players have until the end of that round."""
    game = new(players=4, seed=3)  # nine room cards
    with_dice(game)
    while game.view()["room_deck_left"] > 0:
        if game.view()["actions_left"] == 0:
            game.push("end-turn")
        # the last card by a successful summon: the ghost appears (a failed one would lose at once:
        # "or the Ghost does not appear", tests/test_rules_audit.py)
        game.push(f"summon success={'true' if game.view()['room_deck_left'] == 1 else 'false'}")
    assert game.view()["final_round"]
    assert game.view()["outcome"] is None
    while game.view()["current_player"] != 3:
        game.push("end-turn")
    events = game.push("end-turn")
    assert types(events)[-1] == "game_lost"
    assert game.view()["outcome"] == "lost"
    assert "clock_advanced" not in types(events)
    assert game.view()["removed_rooms"] == game.state.removed_rooms
    assert json.dumps(game.view())


def test_won_in_the_final_round() -> None:
    """Game End, "Winning": all icon sets before the last room card is drawn and that round ends."""
    game = new(players=2, seed=9)
    with_dice(game)
    while game.view()["room_deck_left"] > 1:
        if game.view()["actions_left"] == 0:
            game.push("end-turn")
        game.push("summon success=false")
    if game.view()["actions_left"] == 0:
        game.push("end-turn")
    game.push("summon success=true")  # the last room card: the ghost appears
    assert game.view()["final_round"]
    for index in range(1, len(PACKS.ghosts["child"].icon_sets) + 1):
        game.push(f"prove set={index}")
    assert game.view()["outcome"] == "won"


def test_child_ghost_closes_the_doors_next_to_its_room() -> None:
    """Ghost Card, "Ghost Hour Ability": 'the Child Ghost will close all adjacent doors' (closes_doors in the pack)."""
    assert PACKS.ghosts["child"].closes_doors and not PACKS.ghosts["shadow"].closes_doors
    for ghost, closes in (("child", True), ("shadow", False)):
        game = Game.new(Setup(1, "asylum", ghost, 3, 1, physical=True), PACKS)
        game.push("unlock door=7-8")
        for _ in range(3):
            game.push("end-round")
        events = game.push("end-round environment=fire room=8")
        assert ("doors_closed" in types(events)) == closes
        assert game.view()["doors_open"] == ([] if closes else ["7-8"])
