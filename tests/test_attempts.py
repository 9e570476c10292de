"""Keep-and-reroll attempts as values (issue 3): the rulebook's worked examples step by step,
Disruption, Timers, summons and pulls, refusals, and a simulation through the Attempt itself."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from companion.errors import DiceError
from companion.games.skeptics.dice import (
    Attempt,
    DieKind,
    Face,
    Requirement,
    RollOutcome,
    success_fraction,
    summon_succeeds,
)
from companion.games.skeptics.dice.odds import keep_all_fraction

E, C, W, K, B = Face.EYE, Face.CAMERA, Face.COBWEB, Face.KEY, Face.BLANK


def test_unlock_action_example() -> None:
    """Rulebook, "Action 2: Unlock" -> "Unlock Action Example": three Key icons needed, three actions left."""
    attempt = Attempt.start("unlock", Requirement.parse("key:3"), dice=3)
    assert attempt.kind is DieKind.KEY and attempt.dice_to_roll == 3

    # First Action: rolls the default three Key Dice and only rolls one Key. Unsuccessful.
    attempt, out = attempt.roll([K, B, B])
    assert out == RollOutcome(faces=(K, B, B), kept=(K,), success=False, timer=False, newly_kept=(K,))
    assert attempt.kept == (K,) and attempt.rolls == 1 and not attempt.succeeded

    # Second Action: keeping the Key from the previous roll, rolling the other two dice. One more Key.
    assert attempt.dice_to_roll == 2
    with pytest.raises(DiceError, match="needs the faces of 2 key dice \\(1 kept: key\\), got 3"):
        attempt.roll([K, B, B])
    attempt, out = attempt.roll([B, K])
    assert not out.success and out.kept == (K, K)
    assert attempt.dice_to_roll == 1

    # Third Action: keeping the previous two Keys, rolls the third Key needed and unlocks the door.
    attempt, out = attempt.roll([K])
    assert out.success and out.kept == (K, K, K)
    assert attempt.succeeded and attempt.is_over and attempt.rolls == 3
    with pytest.raises(DiceError, match="already succeeded"):
        attempt.roll([K])


def test_unlock_example_keeping_the_key_was_the_best_play() -> None:
    """After the first roll (key, blank, blank) with two actions to come, keeping the key is better."""
    attempt = Attempt.start("unlock", "key:3", dice=3)
    choices = attempt.keep_choices([K, B, B], rolls_after=2)
    assert choices[0][0] == (K,)
    # Keeping: two dice must each show a key within two rolls: (3/4)^2 = 9/16.
    assert choices[0][1] == Fraction(9, 16)
    # Rerolling all three: three keys within two rolls, no dice yet: 27/64 = (3/4)^3.
    assert choices[1] == ((), Fraction(27, 64))


def test_search_action_example() -> None:
    """Rulebook, "Action 3: Search" -> "Search Action Example": two Eyes and one Camera, three actions left."""
    attempt = Attempt.start("search", Requirement.parse("eye:2,camera:1"), dice=3)

    # First Action: rolls the default three Clue Dice and only rolls one Eye.
    attempt, out = attempt.roll([E, W, W])
    assert not out.success and out.kept == (E,)
    assert str(attempt.missing) == "eye:1,camera:1"

    # Second Action: keeping the Eye, rolls one more Eye but the Camera is still needed.
    attempt, out = attempt.roll(["cobweb", "eye"])
    assert not out.success and out.kept == (E, E) and out.newly_kept == (E,)
    assert str(attempt.missing) == "camera:1"
    assert attempt.dice_to_roll == 1

    # Third Action: keeping the previous two Eyes, rolls the Camera needed: a successful search.
    attempt, out = attempt.roll("camera")
    assert out.success and out.kept == (E, E, C)
    assert attempt.succeeded and attempt.missing is None and attempt.odds(1) == 1


def test_search_example_odds_along_the_way() -> None:
    """The odds the phone shows at each step of the Search Action Example."""
    attempt = Attempt.start("search", "eye:2,camera:1", dice=3)
    assert attempt.odds(3) == success_fraction(Requirement.parse("eye:2,camera:1"), 3, 3)
    attempt, _ = attempt.roll([E, W, W])
    # An eye kept, two dice for an eye and a camera in two rolls.
    assert attempt.odds(2) == success_fraction(Requirement.parse("eye:1,camera:1"), 2, 2)
    attempt, _ = attempt.roll([W, E])
    # Two eyes kept; one die must show a camera in the last roll: 1/3.
    assert attempt.odds(1) == Fraction(1, 3)


def test_disruption_keeps_nothing_and_rerolls_all_dice() -> None:
    """ "Red Icons", Disruption: the player is not allowed to save any dice."""
    attempt = Attempt.start("solve", "eye:2,camera:1,disruption", dice=3)
    assert not attempt.keeps
    attempt, out = attempt.roll([E, E, W])
    assert out.kept == () and not out.success
    assert attempt.dice_to_roll == 3
    with pytest.raises(DiceError, match="no dice may be kept"):
        attempt.roll([E, E, W], keep=[E])
    attempt, out = attempt.roll([C, E, E])
    assert out.success and out.kept == (E, E, C)


def test_timer_on_each_failed_roll() -> None:
    """ "Red Icons", Timers: the team gets a Timer Token for each unsuccessful roll."""
    attempt = Attempt.start("search", "cobweb:1,timer", dice=3)
    attempt, out = attempt.roll([E, E, C])
    assert out.timer and attempt.timers == 1
    attempt, out = attempt.roll([E, C, C])
    assert out.timer and attempt.timers == 2
    attempt, out = attempt.roll([W, E, E])
    assert out.success and not out.timer and attempt.timers == 2


def test_no_timer_without_the_icon() -> None:
    attempt, out = Attempt.start("search", "cobweb:1", dice=3).roll([E, E, E])
    assert not out.timer and attempt.timers == 0


def test_the_player_may_keep_fewer_dice() -> None:
    """ "Failing Search Actions": the player MAY keep dice -- here the better play is to keep none."""
    attempt = Attempt.start("search", "eye:1,camera:1", dice=3)
    assert attempt.keep_choices([E, E, W], rolls_after=1)[0] == ((), Fraction(7, 12))
    after, out = attempt.roll([E, E, W], keep=[])
    assert after.kept == () and after.dice_to_roll == 3 and out.kept == ()
    after, out = attempt.roll([E, E, W], keep="eye")
    assert after.kept == (E,)
    with pytest.raises(DiceError, match="cannot keep cobweb: the dice that count are eye"):
        attempt.roll([E, E, W], keep=[W])
    with pytest.raises(DiceError, match="cannot keep eye"):
        attempt.roll([E, E, W], keep=[E, E])


def test_surplus_icons_are_not_kept() -> None:
    attempt, out = Attempt.start("search", "eye:1,cobweb:1", dice=3).roll([E, E, E])
    assert out.kept == (E,) and attempt.dice_to_roll == 2


def test_attempt_is_immutable() -> None:
    attempt = Attempt.start("search", "eye:2", dice=3)
    after, _ = attempt.roll([E, W, W])
    assert attempt.kept == () and attempt.rolls == 0
    assert after.kept == (E,)
    with pytest.raises(AttributeError):
        attempt.dice = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    ("action", "need", "dice", "message"),
    [
        ("search", "key:2", 3, "a search rolls clue dice, so its icon set must use eye, camera, cobweb"),
        ("unlock", "eye:1", 3, "an unlock rolls key dice"),
        ("search", "eye:2,camera:1,cobweb:1", 3, "needs 4 dice showing icons, but only 3 would be rolled"),
        # in the phone's words, not the command's (a fresh player's toast: "'Eye:3,cobweb:2,timer' needs 5 dice")
        ("search", "eye:3,cobweb:2,timer", 3, "3 eyes and 2 cobwebs, with a timer: that needs 5 dice showing icons"),
        ("search", "eye:1", 6, "1 to 5 clue dice, not 6"),
        ("search", "eye:1", 0, "1 to 5 clue dice, not 0"),
        ("dance", "eye:1", 3, "unknown action 'dance'"),
        ("search", "eyes:1,skull:2", 3, "unknown icon 'skull'"),
    ],
)
def test_start_refuses_what_cannot_be_rolled(action: str, need: str, dice: int, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        Attempt.start(action, need, dice=dice)


def test_roll_refuses_faces_the_die_does_not_have() -> None:
    attempt = Attempt.start("search", "eye:1", dice=3)
    with pytest.raises(DiceError, match="clue die has no blank face"):
        attempt.roll([E, B, B])
    with pytest.raises(DiceError, match="unknown die face 'ghost'"):
        attempt.roll("eye,ghost,eye")
    with pytest.raises(DiceError, match="needs the faces of 3 clue dice, got 4"):
        attempt.roll([E, E, E, E])


def test_to_dict_is_the_view_field_and_round_trips() -> None:
    attempt, _ = Attempt.start("search", "eye:2,camera:1,timer", dice=4).roll([E, W, W, W])
    data = attempt.to_dict()
    assert data == {
        "action": "search",
        "need": "eye:2,camera:1,timer",
        "dice": 4,
        "kept": ["eye"],
        "rolls": 1,
        "timers": 1,
        "timer": True,
        "disruption": False,
        "dice_to_roll": 3,
        "succeeded": False,
    }
    back = Attempt.from_dict(data)
    assert back == attempt


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"kept": ["cobweb"]}, "do not all count"),
        ({"kept": ["eye", "eye", "eye"]}, "do not all count"),
        ({"succeeded": True}, "succeeded attempt must keep"),
        ({"rolls": 0}, "at least 1 once dice are kept"),
        ({"timers": 1}, "timers must be 0 to"),
        ({"need": "eye:9"}, "needs 9 clue dice"),
    ],
)
def test_from_dict_refuses_inconsistent_data(change: dict, message: str) -> None:
    data = Attempt.start("search", "eye:2,camera:1", dice=3).roll([E, W, W])[0].to_dict() | change
    with pytest.raises(DiceError, match=message):
        Attempt.from_dict(data)


# -- summon and pull --------------------------------------------------------------------------


def test_summon_succeeds_on_any_summon_face() -> None:
    """ "Action 8: Summon": if one or more Summon icons are rolled, the Ghost is summoned."""
    assert summon_succeeds([B, Face.SUMMON, B], held=3)
    assert summon_succeeds("summon,summon", held=2)
    assert not summon_succeeds([B, B, B, B], held=4)


def test_summon_checks_the_dice_held() -> None:
    """ "Action 7: Pull Ghost": the player rolls their collected Summon Dice -- all of them."""
    with pytest.raises(DiceError, match="holds 4 summon dice, so the roll needs 4 faces, got 3"):
        summon_succeeds([B, B, B], held=4)
    with pytest.raises(DiceError, match="no summon dice yet"):
        summon_succeeds([], held=0)
    with pytest.raises(DiceError, match="summon die has no eye face"):
        summon_succeeds([Face.EYE])


def test_summon_attempt_is_one_roll_without_keeping() -> None:
    attempt = Attempt.start("summon", "summon", dice=4)
    assert not attempt.keeps
    after, out = attempt.roll([B, B, B, B])
    assert not out.success and after.dice_to_roll == 4
    after, out = after.roll([B, B, Face.SUMMON, B])
    assert out.success and out.kept == (Face.SUMMON,)


# -- simulation through the Attempt ---------------------------------------------------------------

CLUE_SIDES = (E, E, E, C, C, W)


def _play(attempt: Attempt, rolls: int, rng: random.Random, best: bool) -> bool:
    for left in range(rolls, 0, -1):
        faces = [rng.choice(CLUE_SIDES) for _ in range(attempt.dice_to_roll)]
        keep = attempt.keep_choices(faces, left - 1)[0][0] if best else None
        attempt, out = attempt.roll(faces, keep=keep)
        if out.success:
            return True
    return False


@pytest.mark.parametrize(
    ("need", "dice", "best"),
    [("eye:2,camera:1", 3, False), ("eye:1,cobweb:2", 4, True), ("eye:1,camera:1,cobweb:1", 4, True)],
)
def test_playing_attempts_matches_the_exact_odds(need: str, dice: int, best: bool) -> None:
    """Attempts played with seeded random faces -- keeping every counting die, or following
    keep_choices -- succeed as often as the exact odds say, within four standard errors."""
    rng = random.Random(f"attempts:{need}:{dice}")
    trials = 6000
    wins = sum(_play(Attempt.start("search", need, dice=dice), 3, rng, best) for _ in range(trials))
    req = Requirement.parse(need)
    exact = float(success_fraction(req, dice, 3) if best else keep_all_fraction(req, dice, 3))
    error = (exact * (1 - exact) / trials) ** 0.5
    assert abs(wins / trials - exact) <= 4 * error


def test_keep_choices_under_disruption_and_for_summons() -> None:
    attempt = Attempt.start("search", "eye:1,camera:1,disruption", dice=3)
    # Nothing may be kept: the only choice is a fresh roll, 1 - (5/12)^1 with one roll to come.
    assert attempt.keep_choices([E, E, W], rolls_after=1) == [((), Fraction(7, 12))]
    assert attempt.keep_choices([E, C, W], rolls_after=1) == [((E, C), Fraction(1))]
    summon = Attempt.start("pull", "summon", dice=2)
    assert summon.keep_choices([B, B], rolls_after=0) == [((), Fraction(0))]


def test_keep_choices_after_success_is_refused() -> None:
    done, _ = Attempt.start("search", "eye:1", dice=3).roll([E, C, C])
    with pytest.raises(DiceError, match="already succeeded"):
        done.keep_choices([E], rolls_after=1)
