"""Attempts settled through the rules engine (issue 3): the `attempt` and `roll` commands use
companion.games.skeptics.dice.Attempt, and what an attempt settles becomes engine events that undo takes back."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import BadCommand, IllegalCommand
from companion.games.skeptics.dice import Attempt, Requirement, success_fraction
from companion.games.skeptics.engine import Command, Game, Setup
from companion.games.skeptics.packs import load_packs


@pytest.fixture(scope="module")
def packs() -> Any:
    return load_packs()


def new_game(packs: Any, players: int = 2) -> Game:
    return Game.new(Setup(players=players, board="asylum", ghost="child", seed=7), packs)


def types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


def test_solved_clue_gives_a_summon_die(packs: Any) -> None:
    """ "Action 4: Solve": if the roll is successful, the players gain a Summon Die. The attempt
    follows "Failing Search Actions": the Eye is kept and only the other dice are rolled again."""
    game = new_game(packs)
    game.push("reveal-clue")
    game.push("attempt action=solve need=eye:2,camera:1")
    events = game.push("roll faces=eye,cobweb,cobweb")
    assert events == [
        {
            "type": "rolled",
            "action": "solve",
            "faces": ["eye", "cobweb", "cobweb"],
            "kept": ["eye"],
            "kept_now": ["eye"],
            "success": False,
            "actions_left": 2,
            "player": 0,  # a failed roll: who may roll again, and how often this turn
            "rolls_left": 2,
        }
    ]
    view = game.view()
    assert view["attempt"]["kept"] == ["eye"] and view["attempt"]["dice_to_roll"] == 2
    assert view["summon_dice"] == 0
    events = game.push("roll faces=camera,eye")
    assert types(events)[:3] == ["rolled", "attempt_succeeded", "clue_solved"]
    assert events[0]["success"] is True and events[0]["kept"] == ["eye", "eye", "camera"]
    view = game.view()
    assert view["summon_dice"] == 1 and view["clues_solved"] == 1
    assert view["attempt"] is None


def test_failed_summon_burns_a_room_card(packs: Any) -> None:
    """ "Action 8: Summon", "Failing Summon Actions": a Room Card is drawn and discarded without
    looking at it, and the Ghost is not placed on the board."""
    game = new_game(packs)
    game.push("reveal-clue")
    game.push("attempt action=solve need=eye:1")
    game.push("roll faces=eye,eye,eye")
    game.push("end-round")  # summons are not made at the Ghost Hour (XII)
    before = game.view()
    assert before["clock"] == "III" and before["summon_dice"] == 1
    with pytest.raises((BadCommand, IllegalCommand), match="holds 1 summon dice"):
        game.push("summon faces=blank,blank")
    assert game.view() == before
    events = game.push("summon faces=blank")
    assert "room_discarded_unseen" in types(events)
    after = game.view()
    assert after["room_deck_left"] == before["room_deck_left"] - 1
    assert after["room_cards_discarded_unseen"] == before["room_cards_discarded_unseen"] + 1
    assert after["ghost_room"] is None
    assert after["rooms_revealed"] == before["rooms_revealed"]


def test_third_timer_advances_the_clock(packs: Any) -> None:
    """ "Red Icons", Timers: a Timer Token for each unsuccessful roll; a third one ends that
    player's turn and advances the Clock fifteen minutes; the tokens are discarded."""
    game = new_game(packs)
    game.push("attempt action=search need=cobweb:1 timer=true")
    assert game.view()["attempt"]["timer"] is True
    game.push("roll faces=eye,eye,camera")
    game.push("roll faces=camera,eye,eye")
    assert game.view()["timers"] == 2 and game.view()["clock"] == "XII"
    events = game.push("roll faces=eye,camera,camera")
    kinds = types(events)
    assert kinds.index("rolled") < kinds.index("timer_added") < kinds.index("clock_advanced")
    assert {"type": "clock_advanced", "clock": "III", "hour": 0, "reason": "timer"} in [
        {k: e[k] for k in ("type", "clock", "hour", "reason")} for e in events if e["type"] == "clock_advanced"
    ]
    view = game.view()
    assert view["clock"] == "III" and view["timers"] == 0
    assert view["current_player"] == 1  # the turn ended
    assert view["attempt"] is None
    # Undo takes the third timer back: the clock hand returns to XII, two tokens, the attempt resumes.
    game.pop()
    view = game.view()
    assert view["clock"] == "XII" and view["timers"] == 2 and view["current_player"] == 0
    assert view["attempt"]["rolls"] == 2


def test_undo_takes_a_roll_back(packs: Any) -> None:
    """Undo of a roll puts back the attempt as it was, the action spent and nothing else."""
    game = new_game(packs)
    game.push("attempt action=search need=eye:2,camera:1")
    game.push("roll faces=eye,cobweb,cobweb")
    before = game.view()
    game.push("roll faces=eye,cobweb")
    assert game.view()["attempt"]["kept"] == ["eye", "eye"]
    undone = game.pop()
    assert undone == Command.parse("roll faces=eye,cobweb")
    assert game.view() == before
    assert before["attempt"]["kept"] == ["eye"] and before["attempt"]["rolls"] == 1
    # "Failing Unlock Actions", Important!: a different action loses the kept dice.
    events = game.push("action kind=move")
    assert "attempt_ended" in types(events)
    assert game.view()["attempt"] is None


def test_undo_takes_back_a_solve_and_its_summon_die(packs: Any) -> None:
    game = new_game(packs)
    game.push("reveal-clue")
    game.push("attempt action=solve need=camera:1")
    before = game.view()
    game.push("roll faces=camera,eye,eye")
    assert game.view()["summon_dice"] == 1
    game.pop()
    assert game.view() == before
    assert game.view()["summon_dice"] == 0


def test_the_engine_attempt_is_the_dice_attempt(packs: Any) -> None:
    """The view's attempt is Attempt.to_dict plus the engine's set/door, so the phone can ask for odds."""
    game = new_game(packs)
    game.push("attempt action=search need=eye:2,camera:1")
    game.push("roll faces=eye,cobweb,cobweb")
    view = game.view()["attempt"]
    attempt = Attempt.from_dict(view)
    assert attempt.kept and str(attempt.requirement) == "eye:2,camera:1"
    assert attempt.odds(2) == success_fraction(Requirement.parse("eye:1,camera:1"), 2, 2)


def test_keep_argument_lets_the_player_keep_fewer_dice(packs: Any) -> None:
    """The best play may be to reroll a counting die (docs/dice.md, "Keeping dice")."""
    game = new_game(packs)
    game.push("attempt action=search need=eye:1,camera:1")
    events = game.push("roll faces=eye,eye,cobweb keep=none")
    assert events[0]["kept"] == []
    assert game.view()["attempt"]["dice_to_roll"] == 3


def test_disruption_through_the_engine(packs: Any) -> None:
    """ "Red Icons", Disruption: no dice may be saved; every roll uses all the dice."""
    game = new_game(packs)
    game.push("attempt action=search need=eye:2 disruption=true")
    events = game.push("roll faces=eye,cobweb,cobweb")
    assert events[0]["kept"] == [] and game.view()["attempt"]["dice_to_roll"] == 3


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("roll faces=eye,eye", "needs the faces of 3 clue dice"),
        ("roll faces=eye,eye,blank", "clue die has no blank face"),
        ("roll faces=eye,eye,skull", "unknown die face 'skull'"),
        ("roll faces=eye,camera,camera keep=cobweb", "cannot keep cobweb"),
    ],
)
def test_bad_rolls_are_refused_and_change_nothing(packs: Any, command: str, message: str) -> None:
    game = new_game(packs)
    game.push("attempt action=search need=eye:2,camera:1")
    before = game.view()
    with pytest.raises(BadCommand, match=message):
        game.push(command)
    assert game.view() == before


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("attempt action=search need=skull:1", "unknown icon 'skull'"),
        ("attempt action=search need=eye:3,camera:3", "at most 5"),
        ("attempt action=search need=eye:2,camera:1,cobweb:1", "needs 4 dice showing icons, but only 3"),
        ("attempt action=search need=key:1", "search rolls clue dice"),
    ],
)
def test_bad_attempts_are_refused(packs: Any, command: str, message: str) -> None:
    game = new_game(packs)
    before = game.view()
    with pytest.raises(BadCommand, match=message):
        game.push(command)
    assert game.view() == before


def test_replay_gives_the_same_attempt(packs: Any) -> None:
    game = new_game(packs)
    for text in (
        "attempt action=search need=eye:2,camera:1 timer=true",
        "roll faces=eye,cobweb,cobweb",
        "roll faces=cobweb,cobweb",
    ):
        game.push(text)
    again = Game.replay(Setup(players=2, board="asylum", ghost="child", seed=7), packs, game.history)
    assert again.view() == game.view()
    assert again.view()["timers"] == 2
