"""Rule tests: keep-and-reroll attempts ("Action 2: Unlock", "Action 3: Search", "Action 4: Solve",
"Action 6: Prove", "Red Icons") settled by the engine through companion.games.skeptics.dice."""

from __future__ import annotations

import pytest
from games import PACKS, new_game, types

from companion.errors import BadCommand, IllegalCommand
from companion.games.skeptics.engine import Game


def new(players: int = 2, ghost: str = "child") -> Game:
    return new_game(players, ghost=ghost)


def test_search_keeps_dice_between_rolls() -> None:
    """Action 3: Search, "Search Action Example": keep the eyes, reroll the rest, one roll per action."""
    game = new()
    game.push("attempt action=search need=eye:2,camera:1")
    attempt = game.view()["attempt"]
    assert attempt is not None
    assert (attempt["action"], attempt["need"], attempt["dice"], attempt["kept"]) == ("search", "eye:2,camera:1", 3, [])
    assert game.view()["actions_left"] == 3  # starting the attempt is no action; each roll is
    events = game.push("roll faces=eye,cobweb,cobweb")
    assert events[0]["success"] is False and events[0]["kept"] == ["eye"]
    assert game.view()["attempt"]["kept"] == ["eye"]
    with pytest.raises(BadCommand, match="2 clue dice"):
        game.push("roll faces=eye,eye,eye")  # the kept die is not rolled again
    game.push("roll faces=eye,cobweb")
    events = game.push("roll faces=camera")
    assert types(events) == ["rolled", "attempt_succeeded"]
    assert game.view()["attempt"] is None
    assert game.view()["actions_left"] == 0


def test_another_action_ends_the_attempt() -> None:
    """Action 3: Search: 'If the player performs a different action or their turn ends, they do not keep any
    previously rolled dice.'"""
    game = new()
    game.push("attempt action=search need=eye:3")
    game.push("roll faces=eye,camera,camera")
    events = game.push("action kind=move")
    assert types(events) == ["attempt_ended", "action"]
    assert game.view()["attempt"] is None
    with pytest.raises(IllegalCommand, match="no attempt"):
        game.push("roll faces=eye,eye,eye")


def test_the_end_of_the_turn_ends_the_attempt() -> None:
    """Action 2: Unlock: kept dice are lost when the turn ends."""
    game = new()
    game.push("attempt action=unlock door=7-8")
    assert game.view()["attempt"]["need"] == "key:1"  # the door's key count from the board pack
    game.push("roll faces=blank,blank,blank")
    events = game.push("end-turn")
    assert types(events)[0] == "attempt_ended"
    assert game.view()["attempt"] is None


def test_unlock_attempt_opens_the_door() -> None:
    """Action 2: Unlock: the door marker is removed; the door stays open for the rest of the game."""
    game = new()
    game.push("attempt action=unlock door=8-7")
    events = game.push("roll faces=blank,key,blank")
    assert {"type": "door_unlocked", "door": "7-8", "relocks": False} in events
    assert game.view()["doors_open"] == ["7-8"]
    with pytest.raises(IllegalCommand, match="already open"):
        game.push("attempt action=unlock door=7-8")
    with pytest.raises(BadCommand, match="not a door"):
        game.push("unlock door=1-20")


def test_a_door_opened_meanwhile_ends_the_unlock_attempt() -> None:
    """Action 2: Unlock: once a door is unlocked it stays open; no roll is spent on it."""
    game = new()
    game.push("attempt action=unlock door=7-8")
    game.push("unlock door=7-8")
    with pytest.raises(IllegalCommand, match="already open"):
        game.push("roll faces=key,key,key")
    assert game.view()["doors_open"] == ["7-8"]


def test_solve_attempt_solves_the_clue() -> None:
    """Action 4: Solve: a successful roll gains a summon die and flips an evidence token."""
    game = new()
    with pytest.raises(IllegalCommand, match="reveal"):
        game.push("attempt action=solve need=eye:1,cobweb:1")
    game.push("reveal-clue")
    game.push("attempt action=solve need=eye:1,cobweb:1")
    events = game.push("roll faces=eye,cobweb,camera")
    assert types(events)[:3] == ["rolled", "attempt_succeeded", "clue_solved"]
    assert "evidence_flipped" in types(events)
    assert game.view()["summon_dice"] == 1


def test_prove_attempt_uses_the_ghost_card_and_proves_the_set() -> None:
    """Action 6: Prove: call the icon set before rolling; a success marks it resolved."""
    game = new(ghost="shadow")
    with pytest.raises(IllegalCommand, match="not on the board"):
        game.push("attempt action=prove set=1")
    game.push("ghost-at room=3")
    with pytest.raises(BadCommand, match="set=N"):
        game.push("attempt action=prove")
    game.push("attempt action=prove set=1")
    need = PACKS.ghosts["shadow"].icon_sets[0]
    assert game.view()["attempt"]["need"] == need
    assert game.view()["attempt"]["set"] == 1
    game.push("roll faces=eye,eye,camera")
    assert game.view()["icon_sets"][0]["proven"] is True


def test_prove_attempt_needing_four_dice_says_so() -> None:
    """Action 6: Prove, note: some ghosts need more than three dice (items, magnifying glass, aid)."""
    game = new(ghost="ghost6")
    game.push("ghost-at room=3")
    with pytest.raises(BadCommand, match="dice"):
        game.push("attempt action=prove set=1")  # eye:2,camera:2 with three dice
    game.push("attempt action=prove set=1 dice=5")
    assert game.view()["attempt"]["dice"] == 5


def test_disruption_keeps_no_dice() -> None:
    """Red Icons, "Disruption": the player is not allowed to save any dice."""
    game = new()
    game.push("attempt action=search need=eye:2 disruption=true")
    game.push("roll faces=eye,camera,camera")
    assert game.view()["attempt"]["kept"] == []
    assert game.view()["attempt"]["disruption"] is True


def test_a_fourth_roll_is_refused_and_the_third_timer_ends_the_attempt() -> None:
    """Player Turn (three actions) and Red Icons, "Timers"."""
    game = new()
    game.push("timer")
    game.push("attempt action=search need=cobweb:2 timer=true")
    game.push("roll faces=eye,eye,eye")  # second timer
    events = game.push("roll faces=eye,eye,eye")  # third timer: the turn ends
    assert "clock_advanced" in types(events)
    assert game.view()["attempt"] is None
    assert game.view()["current_player"] == 1
    game.push("attempt action=search need=eye:3")
    for _ in range(3):
        game.push("roll faces=camera,camera,camera")
    with pytest.raises(IllegalCommand, match="three actions"):
        game.push("roll faces=camera,camera,camera")
    assert game.view()["attempt"]["rolls"] == 3


def test_keep_choice_is_honoured() -> None:
    """Action 3: Search: the player 'may keep' dice; keeping none rerolls all of them."""
    game = new()
    game.push("attempt action=search need=eye:1,camera:1")
    game.push("roll faces=eye,cobweb,cobweb keep=none")
    assert game.view()["attempt"]["kept"] == []
    game.push("roll faces=eye,cobweb,cobweb keep=eye")
    assert game.view()["attempt"]["kept"] == ["eye"]


def test_summon_and_pull_with_faces() -> None:
    """Action 7 and Action 8: any summon icon on the summon dice succeeds."""
    game = new()
    game.push("reveal-clue")
    game.push("solve")
    game.push("end-round")
    game.push("summon faces=blank")
    assert game.view()["ghost_room"] is None
    game.push("summon faces=summon")
    assert game.view()["ghost_room"] is not None
    game.push("pull faces=summon")
    assert game.view()["pull_pending"]
