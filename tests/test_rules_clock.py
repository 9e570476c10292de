"""Rule tests: Setup, Turn Sequence, Player Turn, Advancing the Clock, the Ghost Hour, Environment Cards.

Each test names the rulebook section it checks (../shared/rules/skeptics-rulebook.txt).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from games import PACKS, types
from games import new_game as new

from companion.errors import IllegalCommand
from companion.games.skeptics.engine import Game, Setup
from companion.games.skeptics.packs import load_packs

# -- Setup ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players, removed", [(1, 0), (2, 2), (3, 8), (4, 11)])
def test_room_deck_removes_cards_by_player_count(players: int, removed: int) -> None:
    """Setup, "Room Deck" (2: 2, 3: 8, 4: 11) and Variant Rules, "1 Player Game" (all room cards)."""
    for seed in range(5):
        game = new(players=players, seed=seed)
        s = game.state
        assert len(s.removed_rooms) == removed
        assert s.room_deck_left == 20 - removed == len(s.room_deck)
        assert sorted(s.room_deck + s.removed_rooms) == list(range(1, 21))
        view = game.view()
        assert view["room_deck_left"] == 20 - removed
        assert view["room_cards_removed"] == removed
        assert "removed_rooms" not in view  # "Without looking": removed cards stay secret


@pytest.mark.parametrize("board", ["asylum", "museum"])
def test_environment_deck_is_ten_common_and_five_of_the_board(board: str) -> None:
    """Setup, "Environment Deck": the ten Common Cards and the five of the chosen Environment, shuffled."""
    game = new(board=board)
    decks = [PACKS.environment[c].deck for c in game.state.env_deck]
    assert decks.count("common") == 10
    assert decks.count(board) == 5
    assert len(decks) == 15
    orders = {tuple(new(board=board, seed=s).state.env_deck) for s in range(5)}
    assert len(orders) > 1  # shuffled by the seed


def test_evidence_tokens_and_clue_cards() -> None:
    """Setup, "Evidence Tokens" (seven, shuffled face-down) and "Clue Deck" (seven of sixteen)."""
    game = new()
    assert sorted(game.state.evidence_left) == sorted(PACKS.evidence)
    assert len(game.state.clue_cards) == 7
    assert len(set(game.state.clue_cards)) == 7
    assert all(1 <= c <= 16 for c in game.state.clue_cards)
    assert len({tuple(new(seed=s).state.evidence_left) for s in range(6)}) > 1
    assert game.view()["evidence"] == []


def test_clock_starts_at_xii() -> None:
    """Setup, "Clock": the hand at XII."""
    view = new().view()
    assert (view["clock"], view["round"], view["hour"], view["current_player"], view["actions_left"]) == (
        "XII",
        1,
        0,
        0,
        3,
    )
    assert view["ghost_room"] is None


# -- Turn Sequence / Advancing the Clock --------------------------------------------------------


def test_turn_order_and_end_of_round() -> None:
    """Turn Sequence: each player takes a turn, then the clock advances fifteen minutes."""
    game = new(players=3)
    assert types(game.push("end-turn")) == ["turn_ended", "turn_started"]
    assert game.view()["current_player"] == 1
    game.push("end-turn")
    assert game.view()["current_player"] == 2
    events = game.push("end-turn")
    assert types(events)[:3] == ["turn_ended", "round_ended", "clock_advanced"]
    view = game.view()
    assert (view["clock"], view["round"], view["current_player"], view["actions_left"]) == ("III", 2, 0, 3)


def test_clock_cycle_and_hours() -> None:
    """Advancing the Clock: XII to III, III to VI, VI to IX, and back to XII; a full rotation is one hour."""
    game = new(players=2)
    seen = []
    for _ in range(8):
        events = game.push("end-round")
        clock = [e for e in events if e["type"] == "clock_advanced"]
        assert len(clock) == 1 and clock[0]["reason"] == "round"
        seen.append((clock[0]["clock"], clock[0]["hour"]))
    assert seen == [("III", 0), ("VI", 0), ("IX", 0), ("XII", 1), ("III", 1), ("VI", 1), ("IX", 1), ("XII", 2)]
    assert game.view()["round"] == 9


def test_players_may_end_a_round_at_any_time() -> None:
    """Advancing the Clock, note: players may end a round to advance the clock at any time."""
    game = new(players=4)
    game.push("end-turn")
    events = game.push("end-round")  # during the second player's turn
    assert types(events)[:3] == ["turn_ended", "round_ended", "clock_advanced"]
    assert game.view()["current_player"] == 0
    assert game.view()["clock"] == "III"


# -- Player Turn --------------------------------------------------------------------------------


def test_three_actions_per_turn() -> None:
    """Player Turn: up to three actions; a fourth is refused with the reason and what to do."""
    game = new()
    for left in (2, 1, 0):
        game.push("action kind=move")
        assert game.view()["actions_left"] == left
    before = game.state.copy()
    with pytest.raises(IllegalCommand) as info:
        game.push("action kind=pickup")
    assert "three actions" in str(info.value) and "end-turn" in str(info.value)
    assert game.state == before
    game.push("action kind=other free=true")  # FAQ: an item's free action adds to the three
    game.push("end-turn")
    assert game.view()["actions_left"] == 3


# -- The Ghost Hour -------------------------------------------------------------------------------


def to_ix(game: Game) -> None:
    while game.view()["clock"] != "IX":
        game.push("end-round")


def test_ghost_hour_environment_card_first_then_room_card() -> None:
    """Advancing the Clock, "Ghost Hour Sequence": an environment card is drawn first, then a room card;
    the ghost appears there and a red marker is placed."""
    game = new(players=3, seed=4)
    to_ix(game)
    env_top = game.state.env_deck[-1]
    room_top = game.state.room_deck[-1]
    events = game.push("end-round")
    order = types(events)
    assert order.index("environment_drawn") < order.index("room_drawn") < order.index("ghost_appeared")
    assert [e["card"] for e in events if e["type"] == "environment_drawn"] == [env_top]
    hour = next(e for e in events if e["type"] == "ghost_hour")
    assert hour["room"] == room_top
    assert hour["room_name"] == PACKS.boards["asylum"].space_name(room_top)
    view = game.view()
    assert view["clock"] == "XII" and view["hour"] == 1
    assert view["ghost_room"] == room_top
    assert view["ghost_reason"] == "ghost_hour"
    assert view["red_markers"] == [room_top]
    assert view["rooms_revealed"] == [room_top]
    assert PACKS.environment[env_top].name in view["environment_active"]


def test_ghost_hour_ghost_stays_one_round_and_leaves_after_the_last_player() -> None:
    """Ghost Hour Sequence: the ghost remains one full round, disappearing after the last player's turn."""
    game = new(players=3)
    to_ix(game)
    game.push("end-round")
    room = game.view()["ghost_room"]
    game.push("end-turn")
    game.push("end-turn")
    assert game.view()["ghost_room"] == room
    events = game.push("end-turn")
    order = types(events)
    assert order.index("ghost_disappeared") < order.index("clock_advanced")
    assert game.view()["ghost_room"] is None
    assert game.view()["clock"] == "III"


def test_no_ghost_hour_at_the_start() -> None:
    """Setup puts the clock at XII, but the Ghost Hour comes 'when the hand comes back around to the XII'."""
    game = new()
    assert game.view()["environment_active"] == []
    assert game.view()["rooms_revealed"] == []


def test_environment_deck_reshuffles_when_empty() -> None:
    """Ghost Hour Sequence: 'If there are no cards left, reshuffle the deck and play one.'"""
    game = new(players=1, seed=11)
    drawn: list[str] = []
    while len(drawn) < 15:
        events = game.push("end-round")
        for e in events:
            if e["type"] == "environment_drawn":
                drawn.append(str(e["card"]))
        for card in list(game.state.env_active):  # meet every card so it goes to the discard pile
            game.push(f"discard-environment card={card}")
    assert sorted(drawn) == sorted(PACKS.environment_deck("asylum"))
    assert game.state.env_deck == []
    expected = sorted(game.state.env_discard)
    random.Random(f"{game.setup.seed}:env:1").shuffle(expected)
    for _ in range(4):
        events = game.push("end-round")
    assert "environment_reshuffled" in types(events)
    card = next(e["card"] for e in events if e["type"] == "environment_drawn")
    assert card == expected[-1]
    assert game.state.env_reshuffles == 1


def test_hour_cards_end_at_the_next_draw_and_until_met_cards_stay(tmp_path: Path) -> None:
    """Environment Cards: one-time effects end at once, some last a full hour, others until their objective is met."""
    text = (Path(__file__).parents[1] / "companion" / "games" / "skeptics" / "packs" / "environment.toml").read_text()
    text = text.replace(
        'id = "common3"\nname = "Common card 3"\ndeck = "common"\nduration = "until_met"',
        'id = "common3"\nname = "Common card 3"\ndeck = "common"\nduration = "instant"',
    )
    (tmp_path / "environment.toml").write_text(text)
    packs = load_packs(tmp_path)
    assert packs.environment["common3"].duration == "instant"
    game = Game.new(Setup(1, "asylum", "child", 3, 1, physical=True), packs)
    to_ix(game)
    game.push("end-round environment=watching_eyes room=1")
    assert game.view()["environment_active"] == ["Watching Eyes"]
    for _ in range(3):
        game.push("end-round")
    events = game.push("end-round environment=fire room=2")
    assert [e["card"] for e in events if e["type"] == "environment_ended"] == ["watching_eyes"]
    assert game.view()["environment_active"] == ["Fire"]
    for _ in range(3):
        game.push("end-round")
    game.push("end-round environment=common3 room=3")
    assert game.view()["environment_active"] == ["Fire"]  # the instant card is played and discarded
    assert "common3" in game.state.env_discard
    game.push("discard-environment card=fire")
    assert game.view()["environment_active"] == []
    with pytest.raises(IllegalCommand, match="not in play"):
        game.push("discard-environment card=fire")
