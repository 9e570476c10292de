"""Elder Sign's rules engine, rule by rule; every test cites the lines of elder-sign-rules.txt it checks.

The packs are small test packs (so each rule can be set up), built from the same loader and validator as
the bundled ones; expectations are worked out from those packs and the rules, not copied from a run.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from games import cards_told, numbers_copied

from companion import words
from companion.errors import BadCommand, CardsNeeded, IllegalCommand
from companion.games.elder_sign.dice import GREEN_DICE, Colour
from companion.games.elder_sign.engine import CLOCK, Command, Game, Reading, Setup
from companion.games.elder_sign.packs import ElderSignPacks, load_packs, parse_pack_texts

ANCIENT = """
[[ancient_ones]]
id = "old"
name = "The Old One"
doom = 5
elder_signs = 3
monster_spaces = [2]
combat = "inv:2"
attack = "test attack"
"""
INVESTIGATORS = "\n".join(
    f'[[investigators]]\nid = "inv{i}"\nname = "Investigator {i}"\nsanity = {3 + i % 2}\nstamina = {4 - i % 2}\n'
    f"clues = 1\n"
    for i in range(1, 6)
)
ADVENTURES = """
[[adventures]]
id = "easy"
name = "Easy"
tasks = ["inv:1"]
reward = { elder_signs = 1 }
penalty = { doom = 1 }

[[adventures]]
id = "two"
name = "Two Tasks"
tasks = ["lore:1", "inv:3"]
reward = { clues = 1 }
penalty = { sanity = -1 }
terror = { stamina = -1, text = "the lights go out" }

[[adventures]]
id = "arrow"
name = "Arrow"
tasks = ["inv:2", "lore:1"]
ordered = true

[[adventures]]
id = "costly"
name = "Costly"
tasks = [{ need = "inv:1", sanity = -3 }, "peril:1"]

[[adventures]]
id = "gate"
name = "Gate"
tasks = ["peril:1"]
reward = { gate = true }

[[adventures]]
id = "locked"
name = "Locked"
tasks = ["inv:12"]
lock = "green"

[[adventures]]
id = "spare1"
name = "Spare 1"
tasks = ["inv:2"]

[[adventures]]
id = "spare2"
name = "Spare 2"
tasks = ["inv:2"]
"""
WORLDS = """
[[other_worlds]]
id = "world"
name = "World"
tasks = ["inv:1"]
reward = { elder_signs = 1 }
"""
MYTHOS_DOOM = "\n".join(
    f'[[mythos]]\nid = "m{i}"\nname = "Mythos {i}"\nimmediate = {{ doom = 1 }}\nlingering = "x"\n' for i in range(1, 6)
)
MYTHOS_MIDNIGHT = "\n".join(
    f'[[mythos]]\nid = "n{i}"\nname = "Night {i}"\nimmediate = {{}}\nlingering = "lose stamina"\n'
    f'lingering_kind = "at_midnight"\nat_midnight = {{ stamina = -1 }}\n'
    for i in range(1, 4)
)
MYTHOS_QUIET = "\n".join(
    f'[[mythos]]\nid = "q{i}"\nname = "Quiet {i}"\nimmediate = {{}}\nlingering = "nothing"\n' for i in range(1, 4)
)


def packs(mythos: str = MYTHOS_QUIET, ancient: str = ANCIENT) -> ElderSignPacks:
    return parse_pack_texts(
        {
            "ancient_ones.toml": ancient,
            "investigators.toml": INVESTIGATORS,
            "adventures.toml": ADVENTURES,
            "other_worlds.toml": WORLDS,
            "mythos.toml": mythos,
        }
    )


def new(players: int = 2, mythos: str = MYTHOS_QUIET, seed: int = 1, **kw: object) -> Game:
    return Game.new(Setup(players=players, seed=seed, **kw), packs(mythos))  # type: ignore[arg-type]


def slot(game: Game, card: str) -> str:
    for adv in game.view()["adventures"]:
        if adv["id"] == card:
            return str(adv["slot"])
    raise LookupError(card)


def game_with(card: str, players: int = 2, mythos: str = MYTHOS_QUIET) -> Game:
    """A game (some seed) where `card` is among the six adventures dealt (and the card that locks a green die
    is not, unless it is the one asked for)."""
    for seed in range(500):
        game = new(players, mythos, seed)
        dealt = {a["id"] for a in game.view()["adventures"]}
        if card in dealt and (card == "locked" or "locked" not in dealt):
            return game
    raise LookupError(card)


def rest_green(game: Game, face: str = "peril") -> str:
    """Faces for every die of the next roll, all `face` (green)."""
    return ",".join([face] * game.dice_to_roll())


# -- setup and the clock ---------------------------------------------------------------------------------


def test_setup_puts_the_clock_at_midnight_deals_six_adventures_and_full_investigators() -> None:
    """elder-sign-rules.txt:80 (XII), :84 (six adventures; investigators with their stamina and sanity), :87."""
    game = new(players=3)
    view = game.view()
    assert view["rules"] == "elder-sign"
    assert view["clock"] == CLOCK[0] == "XII"
    assert len(view["adventures"]) == 6
    assert len({a["id"] for a in view["adventures"]}) == 6
    assert view["turn"] == 1 and view["current_player"] == 0
    pack = packs()
    for inv in view["investigators"]:
        card = pack.investigators[inv["id"]]
        assert (inv["sanity"], inv["stamina"], inv["clues"]) == (card.sanity, card.stamina, card.clues)
        assert inv["place"] == "entrance"
    assert view["doom_max"] == pack.ancient_ones["old"].doom
    assert view["elder_signs_needed"] == pack.ancient_ones["old"].elder_signs
    assert view["mythos"] is not None  # :87: one Mythos card drawn at setup
    assert view["outcome"] is None and view["ancient_one_awake"] is False


def test_the_setup_mythos_card_is_resolved() -> None:
    """elder-sign-rules.txt:87, :315: the immediate half of the setup's Mythos card happens at once."""
    game = new(mythos=MYTHOS_DOOM)
    assert game.view()["doom"] == packs(MYTHOS_DOOM).mythos[game.view()["mythos"]["id"]].immediate.doom


def test_the_same_seed_deals_the_same_game() -> None:
    assert new(seed=5).view() == new(seed=5).view()
    views = {str(new(seed=s).view()["adventures"]) for s in range(6)}
    assert len(views) > 1


def test_the_clock_moves_three_hours_at_the_end_of_every_turn_and_midnight_draws_a_mythos_card() -> None:
    """elder-sign-rules.txt:307 (three hours: XII, III, VI, IX), :309-311 (at XII a Mythos card), :323 (next player)."""
    game = new(players=2, mythos=MYTHOS_DOOM)
    doom = game.view()["doom"]
    seen = []
    for turn in range(4):
        events = game.push("end-turn")
        seen.append(game.view()["clock"])
        assert game.view()["current_player"] == (turn + 1) % 2
        drew = [e for e in events if e["type"] == "mythos_drawn"]
        assert len(drew) == (1 if turn == 3 else 0)
    assert seen == [CLOCK[1], CLOCK[2], CLOCK[3], CLOCK[0]]
    assert game.view()["midnights"] == 1
    assert game.view()["doom"] == doom + 1  # each test Mythos card adds one doom token


def test_a_card_that_moves_the_clock_to_midnight_mid_turn_is_resolved_at_the_end_of_the_turn() -> None:
    """elder-sign-rules.txt:309: "or if you did it at any time during your turn"."""
    game = new(mythos=MYTHOS_DOOM)
    game.push("end-turn")  # III
    events = game.push("clock hours=9")  # III -> XII during the turn
    assert game.view()["clock"] == "XII"
    assert not [e for e in events if e["type"] in ("midnight", "mythos_drawn")]
    assert game.view()["midnight_pending"] is True
    events = game.push("end-turn")
    types = [e["type"] for e in events]
    assert types.count("midnight") == 1 and types.count("mythos_drawn") == 1
    assert types.index("midnight") > types.index("clock_advanced")
    assert game.view()["clock"] == "III"


def test_at_midnight_effects_come_before_the_new_mythos_card() -> None:
    """elder-sign-rules.txt:319-321: At Midnight effects first (all investigators lose stamina), then the draw."""
    game = new(mythos=MYTHOS_MIDNIGHT)
    before = [i["stamina"] for i in game.view()["investigators"]]
    card = packs(MYTHOS_MIDNIGHT).mythos[game.view()["mythos"]["id"]]
    events = []
    for _ in range(4):
        events = game.push("end-turn")
    types = [e["type"] for e in events]
    assert types.index("at_midnight") < types.index("mythos_drawn")
    after = [i["stamina"] for i in game.view()["investigators"]]
    assert after == [b + card.at_midnight.stamina for b in before]


# -- doom, monsters, the Ancient One ---------------------------------------------------------------


def test_doom_on_a_monster_space_brings_a_monster_and_the_last_space_wakes_the_ancient_one() -> None:
    """elder-sign-rules.txt:419-423 (left to right; a monster icon), :427 (the last space), :431 (to its card)."""
    game = new()
    spaces = packs().ancient_ones["old"].monster_spaces
    events = game.push(f"doom n={spaces[0]}")
    assert [e for e in events if e["type"] == "monster_appears"]
    assert game.view()["monsters_pending"] == 1
    full = game.view()["doom_max"]
    events = game.push(f"doom n={full - game.view()['doom']}")
    assert [e for e in events if e["type"] == "ancient_one_awakens"]
    view = game.view()
    assert view["ancient_one_awake"] and view["doom"] == full
    assert {i["place"] for i in view["investigators"]} == {"ancient-one"}
    assert view["mythos"]["active"] is False  # :431: the lingering effect is forgotten


def test_waking_during_a_roll_sends_the_active_player_to_the_clock_step() -> None:
    """elder-sign-rules.txt:427 (the penalty is taken first), :433 (straight to Advance the Clock)."""
    game = game_with("easy")
    game.push(f"doom n={game.view()['doom_max'] - 1 - game.view()['doom']}")
    game.push(f"move to={slot(game, 'easy')}")
    game.push("give-up")  # Easy's penalty is one doom token: the last space
    view = game.view()
    assert view["ancient_one_awake"] and view["attempt"] is None
    with pytest.raises(IllegalCommand):
        game.push("roll faces=" + ",".join(["inv1"] * GREEN_DICE))
    game.push("end-turn")


def test_the_ancient_one_attacks_at_every_later_midnight() -> None:
    """elder-sign-rules.txt:441, :451, :457-459: at midnight no Mythos card; each investigator lowers a maximum
    by 1; a doom token is added unless the track is full."""
    game = new()
    game.push(f"doom n={game.view()['doom_max']}")
    game.push("end-turn")
    game.push("roll faces=inv2," + ",".join(["lore"] * (game.dice_to_roll() - 1)))  # combat task inv:2: one doom off
    doom = game.view()["doom"]
    assert doom == game.view()["doom_max"] - 1
    maxima = [(i["max_sanity"], i["max_stamina"]) for i in game.view()["investigators"]]
    game.push("end-turn")
    game.push("end-turn")
    events = game.push("end-turn attack=sanity,stamina")
    types = [e["type"] for e in events]
    assert "ancient_one_attack" in types and "mythos_drawn" not in types
    after = [(i["max_sanity"], i["max_stamina"]) for i in game.view()["investigators"]]
    assert after == [(maxima[0][0] - 1, maxima[0][1]), (maxima[1][0], maxima[1][1] - 1)]
    assert game.view()["doom"] == doom + 1


def _at_the_attack(players: int = 2) -> Game:
    """A game whose Ancient One is awake, at the end of the turn before midnight strikes (the clock at IX)."""
    game = new(players)
    game.push(f"doom n={game.view()['doom_max']}")
    while game.view()["clock"] != "IX":
        game.push("end-turn")
    return game


def test_at_the_attack_each_investigator_is_asked_what_to_lower() -> None:
    """elder-sign-rules.txt:457-459: "Each investigator, including myself, must make a tough decision. We have to lower
    either our maximum Sanity or our maximum Stamina by 1": each one's own choice, asked of each (the companion chose
    sanity for everyone before), and nothing else is played until every investigator has chosen."""
    game = _at_the_attack(3)
    before = [(i["max_sanity"], i["max_stamina"]) for i in game.view()["investigators"]]
    events = game.push("end-turn")
    assert [e["type"] for e in events if e["type"] in ("maximum_lowered", "attack_asked")] == ["attack_asked"]
    view = game.view()
    assert view["attack_choices"] == [0, 1, 2] and view["question"] is None
    assert [(i["max_sanity"], i["max_stamina"]) for i in view["investigators"]] == before  # nothing chosen for them
    offered = sorted((a.args["player"], a.args["stat"]) for a in game.legal_actions() if a.name == "lower")
    assert offered == [(str(p), stat) for p in (1, 2, 3) for stat in ("sanity", "stamina")]
    assert {a.name for a in game.legal_actions()} == {"lower"}  # the turn waits for the choices
    with pytest.raises(IllegalCommand, match="still to choose: player 1, player 2 and player 3") as refused:
        game.push("roll faces=" + rest_green(game, "lore"))
    said = words.by_name(str(refused.value), ["Ada", "Bo", "Cy"])  # as a page says it
    assert "still to choose: Ada, Bo and Cy." in said
    game.push("lower player=2 stat=stamina")  # in any order: each investigator answers for themselves
    game.push("lower player=1 stat=sanity")
    with pytest.raises(IllegalCommand):
        game.push("lower player=1 stat=stamina")  # one choice an investigator an attack
    game.push("lower player=3 stat=stamina")
    after = [(i["max_sanity"], i["max_stamina"]) for i in game.view()["investigators"]]
    assert after == [
        (before[0][0] - 1, before[0][1]),
        (before[1][0], before[1][1] - 1),
        (before[2][0], before[2][1] - 1),
    ]
    assert game.view()["attack_choices"] == []
    game.push("roll faces=" + rest_green(game, "lore"))  # the battle goes on
    assert "lower" not in {a.name for a in game.legal_actions()}


def test_choosing_a_maximum_below_zero_devours_and_drops_nothing_else() -> None:
    """elder-sign-rules.txt:407 (below 0: devoured), :453 (devoured in the battle: out of the game), :459."""
    game = _at_the_attack(2)
    first = game.view()["investigators"][0]
    game.push(f"adjust player=1 max_sanity=-{first['max_sanity']}")  # its maximum sanity at 0 (a card did it)
    game.push("end-turn")
    events = game.push("lower player=1 stat=sanity")
    assert [e for e in events if e["type"] == "investigator_devoured"]
    assert game.view()["attack_choices"] == [1] and game.view()["players_out"] == [0]
    game.push("lower player=2 stat=sanity")
    assert game.outcome is None and game.view()["attack_choices"] == []


def _items_left_out(view: dict[str, object]) -> dict[str, object]:
    investigators = [{k: v for k, v in i.items() if k != "items"} for i in view["investigators"]]  # type: ignore[attr-defined]
    return {**view, "investigators": investigators}


def test_a_history_stored_before_the_attack_asked_replays_as_it_was_played() -> None:
    """A game stored before the companion asked at the attack: its midnight lowered every investigator's maximum
    sanity (its end of the turn said no choice) and the game went on; it replays to that state, and plays on in that
    reading."""
    game = _at_the_attack(2)
    played = [c.to_dict() for c in game.history]
    then = Game.replay(Setup(players=2, seed=1), packs(), [*played, "end-turn attack=sanity,sanity", "end-turn"])
    old = Game.replay(Setup(players=2, seed=1), packs(), [*played, "end-turn", "end-turn"])
    assert old.reading >= Reading.SANITY and then.reading < Reading.SANITY
    # the items were not counted then either (Reading.ITEMS): the host counts them; all else alike
    assert [i["items"] for i in old.view()["investigators"]] == [None, None]
    assert _items_left_out(old.view()) == _items_left_out(then.view())
    assert old.view()["attack_choices"] == []
    # a game of now, answered, replays in the asking reading
    game.push("end-turn")
    game.push("lower player=1 stat=stamina")
    game.push("lower player=2 stat=sanity")
    again = Game.replay(Setup(players=2, seed=1), packs(), [c.to_dict() for c in game.history])
    assert again.reading < Reading.SANITY and again.view() == game.view()


def test_adventures_are_not_entered_or_attempted_once_the_ancient_one_is_awake() -> None:
    """elder-sign-rules.txt:431 (every marker on the Ancient One's card for the rest of the game), :435-437 (the turn
    is the attack and the clock): no adventure's tasks are offered or taken while it is awake."""
    game = new()
    offered = {a.args.get("adventure") for a in game.legal_actions() if a.name == "set-tasks"}
    assert offered == {a["slot"] for a in game.view()["adventures"]}  # asleep: each card's tasks may be put right
    first = game.view()["adventures"][0]["slot"]
    game.push(f"doom n={game.view()['doom_max']}")
    assert [a for a in game.legal_actions() if a.name == "set-tasks"] == []
    with pytest.raises(IllegalCommand, match="awake"):
        game.push(f"set-tasks adventure={first} tasks=inv:1")


def test_removing_the_last_doom_token_in_the_battle_wins() -> None:
    """elder-sign-rules.txt:439, :443 (the task may be completed again with the dice left), :461."""
    game = new()
    game.push(f"doom n={game.view()['doom_max']}")
    game.push("end-turn")
    for _ in range(game.view()["doom_max"] - 2):
        game.push("doom n=-1")
    assert game.view()["doom"] == 2
    dice = game.dice_to_roll()
    game.push("roll faces=inv2,inv2," + ",".join(["lore"] * (dice - 2)))  # one combat task per roll
    assert game.view()["doom"] == 1 and game.outcome is None
    assert game.dice_to_roll() == dice - 1  # the die placed on the task is not rolled again
    game.push("roll faces=inv3," + ",".join(["lore"] * (dice - 2)))
    assert game.outcome is not None and game.outcome.result == "won"


def test_no_focus_or_assist_against_the_ancient_one() -> None:
    """elder-sign-rules.txt:449."""
    game = new()
    game.push(f"doom n={game.view()['doom_max']}")
    game.push("end-turn")
    game.push("roll faces=" + rest_green(game, "lore"))
    with pytest.raises(IllegalCommand):
        game.push("roll faces=" + ",".join(["lore"] * (game.dice_to_roll() - 1)) + " hold=lore")


def test_enough_elder_signs_win() -> None:
    """elder-sign-rules.txt:74, :245, :461: Elder Signs equal to the limit win."""
    game = game_with("easy")
    needed = game.view()["elder_signs_needed"]
    game.push(f"elder-signs n={needed - 1}")
    assert game.outcome is None
    game.push(f"move to={slot(game, 'easy')}")
    game.push("roll faces=inv1," + ",".join(["peril"] * (GREEN_DICE - 1)))  # Easy rewards one Elder Sign
    assert game.outcome is not None and game.outcome.result == "won"
    assert game.legal_actions() == []


def test_a_devoured_investigator_adds_doom_and_the_player_takes_a_new_one() -> None:
    """elder-sign-rules.txt:407 (below 0: a doom token), :411-413 (a new investigator, full; the clock still
    advances)."""
    game = new()
    doom = game.view()["doom"]
    first = game.view()["investigators"][0]
    events = game.push(f"adjust player=1 sanity=-{first['sanity'] + 1}")
    assert [e for e in events if e["type"] == "investigator_devoured"]
    view = game.view()
    assert view["doom"] == doom + 1
    new_one = view["investigators"][-1]
    card = packs().investigators[new_one["id"]]
    assert new_one["player"] == 0 and new_one["id"] != first["id"]
    assert (new_one["sanity"], new_one["stamina"]) == (card.sanity, card.stamina)
    with pytest.raises(IllegalCommand):
        game.push("move to=entrance")  # devoured this turn: only the clock is left
    game.push("end-turn")
    assert game.view()["clock"] == "III"


def test_every_investigator_devoured_in_the_battle_loses() -> None:
    """elder-sign-rules.txt:453, :463."""
    game = new(players=2)
    game.push(f"doom n={game.view()['doom_max']}")
    for player in (1, 2):
        inv = next(i for i in game.view()["investigators"] if i["player"] == player - 1 and not i["devoured"])
        game.push(f"adjust player={player} stamina=-{inv['stamina'] + 1}")
    assert game.outcome is not None and game.outcome.result == "lost"


# -- rolling at an adventure -----------------------------------------------------------------------------


def test_one_task_per_roll_and_placed_dice_are_not_rolled_again() -> None:
    """elder-sign-rules.txt:185 (placed dice are not rolled again), :189 (one task per roll), :191."""
    game = game_with("two")
    game.push(f"move to={slot(game, 'two')}")
    events = game.push("roll faces=lore,inv3,peril,peril,peril,peril")  # meets both tasks: the player chooses one
    assert not [e for e in events if e["type"] == "task_completed"] and game.view()["attempt"]["choose"] == [1, 2]
    events = game.push("complete task=1")  # only one is done
    done = [e for e in events if e["type"] == "task_completed"]
    assert len(done) == 1
    tasks = next(a for a in game.view()["adventures"] if a["id"] == "two")["tasks"]
    assert sum(t["done"] for t in tasks) == 1
    assert game.dice_to_roll() == GREEN_DICE - len(done[0]["dice"])
    with pytest.raises(BadCommand):
        game.push("roll faces=" + ",".join(["inv3"] * GREEN_DICE))  # the placed die is not rolled again


def test_a_roll_that_completes_nothing_loses_a_die_and_may_hold_one() -> None:
    """elder-sign-rules.txt:211 (one die set aside), :213 and :367-371 (focus: one die on the marker, counted)."""
    game = game_with("two")
    game.push(f"move to={slot(game, 'two')}")
    events = game.push("roll faces=inv1,inv1,peril,peril,peril,peril")
    assert [e for e in events if e["type"] == "roll_failed"]
    assert game.dice_to_roll() == GREEN_DICE - 1
    game.push("roll faces=inv2,lore,peril,peril hold=inv1 task=1")  # one lost, one held: four dice rolled
    attempt = game.view()["attempt"]
    assert [h["face"] for h in attempt["held"]] == [] or attempt["held"][0]["how"] == "focus"
    # lore met "lore:1" with the roll; the held inv1 stays for the next roll (inv:3 = inv2 + held inv1)
    tasks = next(a for a in game.view()["adventures"] if a["id"] == "two")["tasks"]
    assert [t["done"] for t in tasks] == [True, False]
    before = game.view()["elder_signs"]
    events = game.push("roll faces=inv2,peril,peril")
    assert [e for e in events if e["type"] == "adventure_completed"]
    assert game.view()["elder_signs"] == before  # Two Tasks rewards a clue, not an Elder Sign


def test_one_die_on_each_investigator_marker() -> None:
    """elder-sign-rules.txt:371: a marker that holds a die takes no other."""
    game = game_with("locked")
    game.push(f"move to={slot(game, 'locked')}")
    game.push("roll faces=" + rest_green(game))
    game.push("roll faces=" + ",".join(["peril"] * (game.dice_to_roll() - 1)) + " hold=peril")
    with pytest.raises(IllegalCommand):
        game.push("roll faces=" + ",".join(["peril"] * (game.dice_to_roll() - 1)) + " hold=peril")


def test_a_spell_holds_one_die() -> None:
    """elder-sign-rules.txt:345-347: after a roll one die goes on the spell card, is not rolled again, counts."""
    game = game_with("locked")
    game.push("items player=1 spells=1")  # a Spell held (:345; the card lists none)
    game.push(f"move to={slot(game, 'locked')}")
    game.push("roll faces=inv3,inv3," + ",".join(["peril"] * (game.dice_to_roll() - 2)))
    game.push("roll faces=" + ",".join(["peril"] * (game.dice_to_roll() - 2)) + " hold=inv3 spell=inv3")
    held = game.view()["attempt"]["held"]
    assert sorted(h["how"] for h in held) == ["focus", "spell"]


def test_a_clue_rerolls_without_losing_a_die() -> None:
    """elder-sign-rules.txt:359-361."""
    game = game_with("two")
    game.push(f"move to={slot(game, 'two')}")
    clues = game.view()["investigators"][0]["clues"]
    game.push("roll faces=" + rest_green(game))
    dice = game.view()["attempt"]["free"]["green"]
    game.push("clue faces=" + ",".join(["peril"] * dice))
    assert game.view()["attempt"]["free"]["green"] == dice
    assert game.view()["investigators"][0]["clues"] == clues - 1


def test_a_locked_die_stays_out_of_the_roll() -> None:
    """elder-sign-rules.txt:111, :399-403: a green die locked on a card is not rolled."""
    game = game_with("locked")
    assert game.view()["locked"] == {"green": 1}
    assert game.dice_to_roll() == GREEN_DICE - 1


def test_a_terror_result_on_a_failed_roll_is_announced_and_its_effect_resolved() -> None:
    """elder-sign-rules.txt:202: a failed roll showing terror resolves the card's terror effects."""
    game = game_with("two")
    stamina = game.view()["investigators"][0]["stamina"]
    game.push(f"move to={slot(game, 'two')}")
    events = game.push("roll faces=terror,inv1,peril,peril,peril,peril")
    terror = [e for e in events if e["type"] == "terror"]
    assert terror and terror[0]["count"] == 1
    assert game.view()["investigators"][0]["stamina"] == stamina + packs().adventures["two"].terror.stamina


def test_ordered_tasks_go_top_to_bottom() -> None:
    """elder-sign-rules.txt:281-283: the arrow; a lower task cannot be done before the one above."""
    game = game_with("arrow")
    game.push(f"move to={slot(game, 'arrow')}")
    with pytest.raises(IllegalCommand):
        game.push("roll faces=lore,peril,peril,peril,peril,peril task=2")
    events = game.push("roll faces=lore,peril,peril,peril,peril,peril")
    assert not [e for e in events if e["type"] == "task_completed"]  # lore alone cannot do the first task


def test_completing_a_card_gives_its_reward_moves_markers_to_the_entrance_and_deals_a_new_card() -> None:
    """elder-sign-rules.txt:193-198."""
    game = game_with("easy")
    place = slot(game, "easy")
    game.push(f"move to={place}")
    events = game.push("roll faces=inv1," + ",".join(["peril"] * (GREEN_DICE - 1)))
    types = [e["type"] for e in events]
    assert "adventure_completed" in types and "adventure_drawn" in types
    view = game.view()
    assert view["elder_signs"] == packs().adventures["easy"].reward.elder_signs
    assert view["investigators"][0]["place"] == "entrance"
    assert len(view["adventures"]) == 6 and slot(game, view["adventures"][int(place) - 1]["id"]) == place
    assert "easy" not in {a["id"] for a in view["adventures"]}
    with pytest.raises(IllegalCommand):
        game.push("roll faces=inv1")  # on to the clock


def test_failing_a_card_takes_the_penalty_resets_its_tasks_and_costs_assistants() -> None:
    """elder-sign-rules.txt:217-219 (penalty; dice removed), :373 (assisting investigators lose 1)."""
    game = game_with("two", players=2)
    place = slot(game, "two")
    game.push("end-turn")
    game.push(f"move to={place}")  # player 2 waits on the card
    game.push("end-turn")
    game.push(f"move to={place}")
    game.push("roll faces=lore,inv1,peril,peril,peril,peril")  # lore:1 done
    game.push("roll faces=inv1,inv1,peril,peril,peril")  # inv:3 not met
    helper = game.view()["investigators"][1]
    me = game.view()["investigators"][0]
    game.push("roll faces=peril,peril,peril hold=inv1 on=2")
    game.push("give-up assist=stamina")
    view = game.view()
    tasks = next(a for a in view["adventures"] if a["id"] == "two")["tasks"]
    assert not any(t["done"] for t in tasks)
    assert view["investigators"][1]["stamina"] == helper["stamina"] - 1
    assert view["investigators"][0]["sanity"] == me["sanity"] + packs().adventures["two"].penalty.sanity


def test_a_task_may_not_take_sanity_below_zero() -> None:
    """elder-sign-rules.txt:189."""
    game = game_with("costly")
    for inv in range(2):
        game.push(f"adjust player={inv + 1} sanity=-{game.view()['investigators'][inv]['sanity'] - 1}")
    game.push(f"move to={slot(game, 'costly')}")
    with pytest.raises(IllegalCommand):
        game.push("roll faces=inv1,peril,peril,peril,peril,peril task=1")
    events = game.push("roll faces=inv1,peril,peril,peril,peril,peril")
    done = [e["task"] for e in events if e["type"] == "task_completed"]
    assert done == [2]  # the engine takes the task it may complete


def test_a_gate_brings_an_other_world_below_the_adventures() -> None:
    """elder-sign-rules.txt:247, :275-277 (not replaced once resolved)."""
    game = game_with("gate")
    game.push(f"move to={slot(game, 'gate')}")
    game.push("roll faces=peril," + ",".join(["inv1"] * (GREEN_DICE - 1)))
    worlds = [a for a in game.view()["adventures"] if a["other_world"]]
    assert len(worlds) == 1 and int(worlds[0]["slot"]) > 6


def test_items_add_the_yellow_and_red_dice_once() -> None:
    """elder-sign-rules.txt:109, :329-341."""
    game = game_with("two")
    game.push(f"move to={slot(game, 'two')}")
    game.push("items player=1 common=2")  # the investigator holds Common Items (:335)
    game.push("add-die colour=yellow")
    with pytest.raises(IllegalCommand):
        game.push("add-die colour=yellow")
    assert game.dice_to_roll() == GREEN_DICE + 1
    with pytest.raises(BadCommand):
        game.push("roll faces=" + ",".join(["inv1"] * (GREEN_DICE + 1)))  # the yellow die must be named
    game.push("roll faces=yellow:inv4," + ",".join(["peril"] * GREEN_DICE))


# -- history, legal actions, physical decks ------------------------------------------------------------


def test_undo_puts_back_exactly_the_state_before() -> None:
    game = game_with("two", mythos=MYTHOS_DOOM)
    commands = [
        f"move to={slot(game, 'two')}",
        "roll faces=lore,inv1,peril,peril,peril,peril",
        "end-turn",
        "end-turn",
        "end-turn",
        "end-turn",
    ]
    views = [game.view()]
    for cmd in commands:
        game.push(cmd)
        views.append(game.view())
    replayed = Game.replay(game.setup, game.packs, game.history)
    assert replayed.view() == game.view()
    for expected in reversed(views[:-1]):
        game.pop()
        view = game.view()
        assert view == expected
    with pytest.raises(IllegalCommand):
        game.pop()


def test_a_refused_command_changes_nothing() -> None:
    game = game_with("two")
    before = game.view()
    for bad in ("fly", "move", "move to=99", "roll faces=inv1", "doom n=many", "clock hours=4"):
        with pytest.raises((BadCommand, IllegalCommand)):
            game.push(bad)
        assert game.view() == before


def test_every_legal_action_is_accepted_once_its_asks_are_filled() -> None:
    rng = random.Random(3)
    game = game_with("two", mythos=MYTHOS_DOOM)
    for _ in range(60):
        if game.outcome is not None:
            break
        actions = game.legal_actions()
        assert actions and all(a.name != "give-up" or game.view()["attempt"] or game.view()["moved"] for a in actions)

        def faces(clue: bool) -> str:
            return ",".join(f"{c.value}:{rng.choice(c.faces).value}" for c in game.next_roll_dice(clue))

        for action in actions:
            fill = {
                "faces": faces(action.name == "clue"),
                "need": "inv:2",
                "tasks": "inv:2",
                "player": "1",
                "sanity": "0",
                "common": "1",  # items: the item cards held (:329-351)
                "unique": "1",
                "spells": "0",
                "n": "0",
                "hours": "3",
                "face": "lore",  # lost-found: the green die rolled at the Entrance (:293)
            }
            args = {k: fill[k] for k in action.asks}
            game.check(action.command(**args))
        # the attack's choices block every other command (:459): they are among the moves then
        choice = rng.choice([a for a in actions if a.group in ("turn", "move", "roll", "attack")])
        game.push(choice.command(**{k: faces(choice.name == "clue") for k in choice.asks}))


def test_physical_decks_ask_for_the_mythos_card_at_midnight() -> None:
    """Physical deck mode: the table draws, the host names the card; refused without it, with what to add."""
    pack = packs(MYTHOS_DOOM)
    with pytest.raises(CardsNeeded):
        Game.new(Setup(players=1, physical=True), pack)
    dealt = tuple(list(pack.adventures)[:6])
    game = Game.new(Setup(players=1, physical=True, first_mythos="m1", adventures=dealt), pack)
    assert game.view()["mythos"]["id"] == "m1"
    for _ in range(3):
        game.push("end-turn")
    before = game.view()
    with pytest.raises(CardsNeeded) as refused:
        game.push("end-turn")
    assert refused.value.needs[0][0] == "mythos"
    assert game.view() == before
    with pytest.raises(BadCommand):
        game.push("end-turn mythos=m1")  # already drawn: not in the deck
    game.push("end-turn mythos=m3")
    assert game.view()["mythos"]["id"] == "m3"


def test_commands_round_trip_through_text_and_dicts() -> None:
    cmd = Command.parse("roll faces=inv1,yellow:inv4 hold=lore")
    assert Command.parse(str(cmd)) == cmd
    assert Command.from_dict(cmd.to_dict()) == cmd
    setup = Setup(players=2, seed=3, names=("Ann", "Bo"))
    assert Setup.from_dict(setup.to_dict()) == setup


def test_the_bundled_packs_set_up_a_game() -> None:
    pack = load_packs()
    game = Game.new(Setup(players=4, seed=11), pack)
    view = game.view()
    for key in (
        "rules",
        "clock",
        "turn",
        "doom",
        "doom_max",
        "elder_signs",
        "elder_signs_needed",
        "ancient_one_awake",
        "outcome",
    ):
        assert key in view
    assert view["ancient_one"]["id"] in pack.ancient_ones


def test_the_odds_question_for_the_next_roll() -> None:
    """The arguments the odds need before a roll: the tasks left, the dice, the holds (:367-371), the clues."""
    from companion.games.elder_sign.odds import card_fraction

    game = game_with("two")
    assert game.odds_question() is None  # not on a card yet
    game.push(f"move to={slot(game, 'two')}")
    question = game.odds_question()
    assert question is not None
    assert question["tasks"] == ["lore:1", "inv:3"] and question["green"] == GREEN_DICE and question["holds"] == 1
    game.push("roll faces=lore,inv1,peril,peril,peril,peril")
    question = game.odds_question()
    assert question is not None and question["tasks"] == ["inv:3"] and question["green"] == GREEN_DICE - 1
    assert 0 < card_fraction(**question) < 1
    game.push("roll faces=inv1,peril,peril,peril,peril")
    game.push("roll faces=inv1,peril,peril hold=inv1")
    question = game.odds_question()
    assert question is not None and question["held"] == ["inv1"] and question["holds"] == 1


def test_an_other_world_is_not_replaced_once_resolved() -> None:
    """elder-sign-rules.txt:277: "once you resolve them, they aren't replaced"."""
    game = game_with("gate")
    game.push(f"move to={slot(game, 'gate')}")
    game.push("roll faces=peril," + ",".join(["inv1"] * (GREEN_DICE - 1)))
    world = next(a for a in game.view()["adventures"] if a["other_world"])
    count = len(game.view()["adventures"])
    game.push("end-turn")
    game.push(f"move to={world['slot']}")
    events = game.push("roll faces=inv1," + ",".join(["peril"] * (game.dice_to_roll() - 1)))
    assert [e for e in events if e["type"] == "adventure_completed"]
    assert not [e for e in events if e["type"] == "adventure_drawn"]
    assert len(game.view()["adventures"]) == count - 1


def test_a_locked_die_comes_back_when_its_card_is_resolved() -> None:
    """elder-sign-rules.txt:403: locked "until the Adventure card is resolved"."""
    game = game_with("locked")
    game.push(f"move to={slot(game, 'locked')}")
    need = packs().adventures["locked"].tasks[0].need.inv
    threes = -(-need // 3)
    game.push("roll faces=" + ",".join(["inv3"] * threes + ["peril"] * (game.dice_to_roll() - threes)))
    assert "locked" not in {a["id"] for a in game.view()["adventures"]}
    assert game.view()["locked"] == {}
    game.push("end-turn")
    assert game.dice_to_roll() == GREEN_DICE


def test_a_monster_adds_a_task_that_must_be_done_and_is_won_even_when_the_card_fails() -> None:
    """elder-sign-rules.txt:377-381 (the monster's task joins the card), :395 (won before a failure)."""
    game = game_with("two")
    place = slot(game, "two")
    game.push(f"monster adventure={place} need=peril:1")
    tasks = next(a for a in game.view()["adventures"] if a["id"] == "two")["tasks"]
    assert tasks[-1] == {"index": 3, "need": "peril:1", "done": False, "monster": True}
    game.push(f"move to={place}")
    events = game.push("roll faces=peril,inv1,inv1,inv1,inv1,inv1 task=3")
    assert [e for e in events if e["type"] == "task_completed" and e["monster"]]
    game.push("give-up")
    tasks = next(a for a in game.view()["adventures"] if a["id"] == "two")["tasks"]
    assert len(tasks) == 2 and not any(t["done"] for t in tasks)


def test_an_investigator_devoured_by_terror_ends_the_roll() -> None:
    """elder-sign-rules.txt:202 (terror effects), :407 (devoured), :413 (the turn ends with the clock)."""
    game = game_with("two")
    stamina = game.view()["investigators"][0]["stamina"]
    game.push(f"adjust player=1 stamina={-stamina}")  # at 0: still playing (:407 "go below 0")
    game.push(f"move to={slot(game, 'two')}")
    events = game.push("roll faces=terror,inv1,peril,peril,peril,peril")
    types = [e["type"] for e in events]
    assert types.index("terror") < types.index("investigator_devoured")
    assert game.view()["attempt"] is None
    assert [a.name for a in game.legal_actions() if a.group != "table"] == ["end-turn"]


@pytest.mark.parametrize("seed", range(5))
def test_random_play_never_breaks_and_replays_exactly(seed: int) -> None:
    """Long games of random commands (legal or not, random faces and options): every refusal is a
    BadCommand or IllegalCommand and changes nothing; the history replays to the same state; undo walks back."""
    rng = random.Random(f"fuzz:{seed}")
    game = Game.new(Setup(players=rng.randint(1, 4), seed=seed), load_packs())
    numbers_copied(game)  # the numbers printed on the stand-in cards, before the first turn
    extras = [
        "",
        " task=none",
        " task=1",
        " task=2",
        " lose=yellow",
        " hold=lore",
        " hold=inv3 on=2",
        " spell=peril",
        " hold=inv2 spell=lore",
    ]
    views = [game.view()]
    for _ in range(120):
        if game.outcome is not None:
            break
        actions = game.legal_actions()
        action = rng.choice(actions)
        clue = action.name == "clue"
        faces = ",".join(f"{c.value}:{rng.choice(c.faces).value}" for c in game.next_roll_dice(clue))
        fill = {
            "faces": faces,
            "need": rng.choice(["inv:3", "peril:1", "lore:1,inv:2"]),
            "tasks": "inv:2;lore:1",
            "ordered": rng.choice(["true", "false"]),
            "player": str(rng.randint(1, game.setup.players)),
            "sanity": str(rng.choice([-2, -1, 0, 1])) if action.name != "set-investigator" else "4",
            "stamina": str(rng.choice([3, 5])),  # set-investigator: the numbers printed on a stand-in card
            "doom": str(rng.choice([8, 12])),  # set-ancient-one: the numbers printed on a stand-in card
            "elder_signs": "10",
            "clues": "1",  # set-investigator: the clue tokens printed on a stand-in card
            "common": str(rng.choice([0, 1, 2])),  # items: the item cards held (:329-351)
            "unique": str(rng.choice([0, 1])),
            "spells": str(rng.choice([0, 1])),
            "face": rng.choice(["inv1", "inv3", "lore", "peril", "terror"]),  # lost-found: the green die (:293)
            "n": str(rng.choice([-1, 1, 2])),
            "hours": rng.choice(["3", "6"]),
        }
        text = str(action.command(**{k: fill[k] for k in action.asks}))
        if action.name == "roll":
            text += rng.choice(extras)
        before = game.view()
        try:
            game.push(text)
        except (BadCommand, IllegalCommand):
            assert game.view() == before
            continue
        views.append(game.view())
    # the game went on (a turn ended at least; with the numbers copied first, seed 3 reaches no midnight in 120)
    assert len(game.history) > 20 and (game.view()["turn"] > 1 or game.outcome is not None)
    assert Game.replay(game.setup, game.packs, game.history).view() == game.view()
    for expected in reversed(views[:-1]):
        game.pop()
        assert game.view() == expected


def test_a_die_on_a_spell_stays_after_the_turn_and_any_active_player_may_use_it() -> None:
    """elder-sign-rules.txt:347-349: it stays "until it is used to complete a task"; "the active player can
    always use a die on a Spell card"."""
    game = game_with("two", players=2)
    game.push("items player=1 spells=1")  # a Spell held (:345; the card lists none)
    game.push(f"move to={slot(game, 'two')}")
    game.push("roll faces=inv1,inv1,peril,peril,peril,peril")
    game.push("roll faces=peril,peril,peril,peril spell=inv1")
    game.push("give-up")
    game.push("end-turn")
    assert game.view()["spell_dice"] == ["inv1"]
    assert game.dice_to_roll() == GREEN_DICE - 1  # the die on the spell is not in the new pool
    place = slot(game, "two")
    game.push(f"move to={place}")
    events = game.push("roll faces=inv2,lore,peril,peril,peril task=2")  # inv:3 = inv2 + the spell's inv1
    done = next(e for e in events if e["type"] == "task_completed")
    assert done["task"] == 2 and "inv1" in done["dice"]
    assert game.view()["spell_dice"] == []


def test_physical_decks_ask_for_the_adventure_that_replaces_a_completed_one_and_the_gate_s_world() -> None:
    """Physical deck mode: :198 (a new adventure is drawn), :247 (a gate draws an Other World)."""
    pack = packs()
    dealt = ("easy", "two", "arrow", "costly", "gate", "spare1")
    game = Game.new(Setup(players=1, physical=True, first_mythos="q1", adventures=dealt), pack)
    game.push("move to=5")  # Gate
    roll = "roll faces=peril," + ",".join(["inv1"] * (GREEN_DICE - 1))
    with pytest.raises(CardsNeeded) as refused:
        game.push(roll)
    assert [arg for arg, _ in refused.value.needs] == ["other_world", "adventure_card"]
    with pytest.raises(BadCommand):
        game.push(roll + " other_world=world adventure_card=easy")  # Easy is on the table already
    game.push(roll + " other_world=world adventure_card=spare2")
    ids = [a["id"] for a in game.view()["adventures"]]
    assert ids[4] == "spare2" and ids[-1] == "world"


def test_an_item_may_add_its_die_before_the_roll_after_a_failed_one() -> None:
    """elder-sign-rules.txt:329 (items before a roll), :341 (the die stays until set aside or used)."""
    game = game_with("two")
    game.push(f"move to={slot(game, 'two')}")
    game.push("roll faces=" + rest_green(game))
    game.push("items player=1 unique=1")  # a Unique Item held (:339)
    game.push("add-die colour=red")
    assert game.next_roll_dice().count(Colour.RED) == 1
    assert len(game.next_roll_dice()) == GREEN_DICE  # one green set aside, the red die added
    game.push("roll faces=red:wild," + ",".join(["peril"] * (GREEN_DICE - 1)))
    tasks = next(a for a in game.view()["adventures"] if a["id"] == "two")["tasks"]
    assert tasks[0]["done"]  # the wild served as the lore


# -- the Ferocious Fate: below 0, not at 0 (:189, :407) --------------------------------------------------------


def types(events: list[dict[str, object]]) -> list[object]:
    return [e["type"] for e in events]


def test_an_investigator_at_exactly_0_is_not_devoured() -> None:
    """elder-sign-rules.txt:407 "If my Sanity, Stamina, or both hit rock bottom and go below 0, I'm in for a
    gruesome fate – being devoured": at 0 the investigator plays on; one more loss devours."""
    game = new()
    first = game.view()["investigators"][0]
    events = game.push(f"adjust player=1 sanity=-{first['sanity']}")
    assert "investigator_devoured" not in types(events)
    view = game.view()
    assert view["investigators"][0]["sanity"] == 0 and not view["investigators"][0]["devoured"]
    assert view["doom"] == 0
    events = game.push("adjust player=1 sanity=-1")
    assert "investigator_devoured" in types(events) and game.view()["doom"] == 1


def test_a_task_may_take_sanity_to_0_and_the_investigator_plays_on() -> None:
    """elder-sign-rules.txt:189 "I can't finish a task if the requirements will make my Sanity or Stamina lower
    than 0": a task that costs exactly what is left may be done, and (:407) 0 is not below 0."""
    game = game_with("costly")  # task 1: inv:1 and 3 sanity
    sanity = game.view()["investigators"][0]["sanity"]
    game.push(f"adjust player=1 sanity={3 - sanity}")
    game.push(f"move to={slot(game, 'costly')}")
    events = game.push("roll faces=inv3,peril,lore,lore,lore,lore task=1")
    assert "task_completed" in types(events) and "investigator_devoured" not in types(events)
    inv = game.view()["investigators"][0]
    assert inv["sanity"] == 0 and not inv["devoured"] and game.view()["doom"] == 0


def test_a_task_that_would_take_sanity_below_0_is_refused_and_never_chosen() -> None:
    """elder-sign-rules.txt:189 "lower than 0": the engine refuses it, and does not pick it by itself."""
    game = game_with("costly")
    sanity = game.view()["investigators"][0]["sanity"]
    game.push(f"adjust player=1 sanity={2 - sanity}")
    game.push(f"move to={slot(game, 'costly')}")
    with pytest.raises(IllegalCommand, match="below 0"):
        game.push("roll faces=inv3,lore,lore,lore,lore,lore task=1")
    events = game.push("roll faces=inv3,lore,lore,lore,lore,lore")
    assert "task_completed" not in types(events) and game.view()["investigators"][0]["sanity"] == 2


# -- cards not filled in yet play nothing of their own (docs/elder-sign.md, "Cards not filled in yet") -----------


def test_eight_turns_of_stand_in_cards_and_no_roll_leave_doom_sanity_and_stamina_where_they_began() -> None:
    """elder-sign-rules.txt:309-321: at midnight a Mythos card is drawn and its immediate half resolved. The bundled
    cards are all stand-ins, not the cards on the table: two midnights and the setup's card add no doom, take no
    sanity or stamina and lock no die; the companion asks the host what each real card did instead."""
    bundled = load_packs()
    assert all(card.placeholder for card in bundled.mythos.values())
    game = Game.new(Setup(players=2, seed=7), bundled)
    numbers_copied(game)
    start = game.view()
    asked = []
    for _ in range(8):
        while game.view()["question"] is not None:  # told before the turn ends (engine.ASKED_BEFORE_ENDING)
            asked.append(game.view()["question"]["part"])
            game.push("card-did effect=nothing")
        game.push("end-turn")
    view = game.view()
    assert view["midnights"] == 2
    assert view["doom"] == start["doom"] == 0
    assert [(i["sanity"], i["stamina"]) for i in view["investigators"]] == [
        (i["sanity"], i["stamina"]) for i in start["investigators"]
    ]
    assert view["locked"] == {} and game.green_dice() == GREEN_DICE and view["monsters_pending"] == 0
    # the setup's card, then for each midnight the card in play at midnight and the new one
    assert asked == ["immediate", "at_midnight", "immediate"]
    assert view["question"] is not None and view["question"]["part"] == "at_midnight"
    assert view["question"]["left"] == 1
    assert "placeholder" not in json.dumps(view).lower()


STAND_IN_MYTHOS = """
[[mythos]]
id = "s1"
name = "Stand-in 1"
immediate = { doom = 2, monsters = 1 }
lingering = "Placeholder: copy the lingering effect from the card."
lingering_kind = "at_midnight"
at_midnight = { stamina = -2 }
terror = { sanity = -1 }
lock = "green"
placeholder = true
"""


def test_a_stand_in_mythos_card_asks_and_the_host_taps_what_the_real_card_did() -> None:
    """elder-sign-rules.txt:315 "Usually, you'll have to add a Doom token to the Doom track or draw a Monster
    marker", :399 a locked die icon: the host says which, one tap each; until then nothing is applied."""
    game = game_with("easy", mythos=STAND_IN_MYTHOS)
    view = game.view()
    assert view["doom"] == 0 and view["monsters_pending"] == 0 and view["locked"] == {}
    assert view["mythos"]["lingering"] == "" and view["mythos"]["stand_in"] is True
    assert view["question"] == {
        "card": "s1",
        "kind": "mythos",
        "part": "immediate",
        "player": None,
        "slot": None,
        "told": [],
        "left": 0,
    }
    offered = [dict(a.args) for a in game.legal_actions() if a.name == "card-did"]
    assert {"effect": "doom", "n": "1"} in offered and {"effect": "lock", "colour": "green"} in offered
    assert {"effect": "monster", "n": "1"} in offered and {"effect": "nothing"} in offered
    game.push("card-did effect=doom")
    game.push("card-did effect=lock colour=yellow")
    with pytest.raises(IllegalCommand, match="locked die was told already"):
        game.push("card-did effect=lock colour=green")
    sanity = [i["sanity"] for i in game.view()["investigators"]]
    game.push("card-did effect=sanity player=all")  # the host says whom it hits: every investigator
    view = game.view()
    assert view["doom"] == 1 and view["locked"] == {"yellow": 1}
    assert [i["sanity"] for i in view["investigators"]] == [x - 1 for x in sanity]
    game.push("card-did effect=nothing")
    assert game.view()["question"] is None
    assert not [a for a in game.legal_actions() if a.name == "card-did"]
    with pytest.raises(IllegalCommand, match="no card is waiting"):
        game.push("card-did effect=doom")
    game.pop()
    game.pop()
    assert game.view()["question"] is not None and game.view()["doom"] == 1


def test_a_card_question_takes_each_kind_once_so_taps_cannot_drift_from_the_board() -> None:
    """PLAYTEST.md finding 1: ten taps on "An Elder Sign" gave ten Elder Signs from one card, a double tap counted
    twice. Each kind of effect is told once, with its whole amount (n=); a second tell of it is refused and is no
    longer offered; the question closes only on effect=nothing."""
    game = game_with("easy", mythos=STAND_IN_MYTHOS)
    game.push("card-did effect=doom n=2")
    assert game.view()["doom"] == 2 and game.view()["question"]["told"] == ["doom"]
    for again in ("card-did effect=doom", "card-did effect=doom n=1"):
        with pytest.raises(IllegalCommand, match="told already"):
            game.push(again)
    assert game.view()["doom"] == 2
    offered = {a.args["effect"] for a in game.legal_actions() if a.name == "card-did"}
    assert "doom" not in offered and {"monster", "sanity", "nothing"} <= offered
    amounts = [a for a in game.legal_actions() if a.name == "card-did" and a.args["effect"] == "sanity"]
    # the page asks the amount, then sends it once; whom a Mythos card's sanity hits: everyone, or one investigator
    assert [list(a.asks) for a in amounts] == [["n"]] * len(amounts)
    assert [a.args["player"] for a in amounts] == ["all"] + [str(p + 1) for p in range(game.setup.players)]
    game.push("card-did effect=lock colour=red")
    assert not [a for a in game.legal_actions() if a.name == "card-did" and a.args["effect"] == "lock"]
    assert game.view()["question"] is not None  # still open until "that was all"
    game.push("card-did effect=nothing")
    assert game.view()["question"] is None


def test_a_stand_in_reward_gives_its_elder_signs_once() -> None:
    """The playtest's case: the reward of one adventure, told with ten taps, gives what the card gave, once."""
    easy = ADVENTURES.replace(
        "reward = { elder_signs = 1 }\npenalty = { doom = 1 }\n",
        "reward = { elder_signs = 1 }\npenalty = { doom = 1 }\nplaceholder = true\n",
        1,
    )
    texts = {
        "ancient_ones.toml": ANCIENT,
        "investigators.toml": INVESTIGATORS,
        "adventures.toml": easy,
        "other_worlds.toml": WORLDS,
        "mythos.toml": MYTHOS_QUIET,
    }
    game = next(
        g
        for g in (Game.new(Setup(players=2, seed=s), parse_pack_texts(texts)) for s in range(500))
        if {"easy"} <= {a["id"] for a in g.view()["adventures"]} - {"locked"}
        and "locked" not in {a["id"] for a in g.view()["adventures"]}
    )
    signs = game.view()["elder_signs"]
    game.push(f"set-tasks adventure={slot(game, 'easy')} tasks=inv:1 ordered=false")  # as printed on the card
    game.push(f"move to={slot(game, 'easy')}")
    game.push("roll faces=inv1," + ",".join(["peril"] * (GREEN_DICE - 1)) + " task=1")
    while game.view()["question"] and game.view()["question"]["part"] != "reward":
        game.push("card-did effect=nothing")
    assert game.view()["question"]["part"] == "reward" and game.view()["elder_signs"] == signs
    game.push("card-did effect=elder-signs n=1")
    for _ in range(9):
        with pytest.raises(IllegalCommand, match="told already"):
            game.push("card-did effect=elder-signs")
    assert game.view()["elder_signs"] == signs + 1


def test_a_stand_in_mythos_card_plays_nothing_at_midnight_or_on_terror() -> None:
    """elder-sign-rules.txt:202 (the Mythos card's terror effects), :319-321 (its At Midnight half): not played
    for a card not filled in yet; asked instead."""
    game = game_with("two", mythos=STAND_IN_MYTHOS)
    game.push("card-did effect=nothing")
    stamina = game.view()["investigators"][0]["stamina"]
    sanity = game.view()["investigators"][0]["sanity"]
    game.push(f"move to={slot(game, 'two')}")
    events = game.push("roll faces=terror,terror,peril,peril,peril,peril")
    assert [e["part"] for e in events if e["type"] == "card_asked"] == ["terror"]
    inv = game.view()["investigators"][0]
    assert inv["sanity"] == sanity and inv["stamina"] == stamina - 1  # the filled-in adventure's terror is played
    game.push("card-did effect=sanity n=-2")
    assert game.view()["investigators"][0]["sanity"] == sanity - 2


STAND_IN_ADVENTURES = ADVENTURES.replace(
    'terror = { stamina = -1, text = "the lights go out" }',
    'terror = { stamina = -1, text = "the lights go out" }\nplaceholder = true',
)


def test_a_stand_in_adventure_plays_no_terror_penalty_or_reward_of_its_own() -> None:
    """elder-sign-rules.txt:202 terror, :219 "the penalties listed on the card", :195 "the rewards that are listed at
    the bottom of the card": a card not filled in yet lists none the companion can know; the host is asked."""
    texts = {
        "ancient_ones.toml": ANCIENT,
        "investigators.toml": INVESTIGATORS,
        "adventures.toml": STAND_IN_ADVENTURES,
        "other_worlds.toml": WORLDS,
        "mythos.toml": MYTHOS_QUIET,
    }
    stand_ins = parse_pack_texts(texts)
    game = next(
        g
        for g in (Game.new(Setup(players=2, seed=s), stand_ins) for s in range(500))
        if {"two"} <= {a["id"] for a in g.view()["adventures"]} - {"locked"}
        and "locked" not in {a["id"] for a in g.view()["adventures"]}
    )
    before = game.view()["investigators"][0]
    game.push(f"set-tasks adventure={slot(game, 'two')} tasks=lore:1;inv:3 ordered=false")  # as printed on the card
    game.push(f"move to={slot(game, 'two')}")
    events = game.push("roll faces=terror,peril,peril,peril,peril,peril")
    terror = next(e for e in events if e["type"] == "terror")
    assert terror["effect"] is None
    assert "effect_text" not in types(events)
    inv = game.view()["investigators"][0]
    assert (inv["sanity"], inv["stamina"]) == (before["sanity"], before["stamina"])
    assert [q for q in (game.view()["question"],) if q] and game.view()["question"]["part"] == "terror"
    game.push("card-did effect=stamina")
    game.push("card-did effect=nothing")
    events = game.push("give-up")  # once the terror is told (:202-209)
    failed = next(e for e in events if e["type"] == "adventure_failed")
    assert failed["penalty"] is None
    assert game.view()["question"]["part"] == "penalty" and game.view()["question"]["player"] == 0
    game.push("card-did effect=doom")
    assert game.view()["doom"] == 1 and game.view()["investigators"][0]["stamina"] == before["stamina"] - 1


def test_a_stand_in_ancient_ones_monster_spaces_bring_no_monster() -> None:
    """elder-sign-rules.txt:423 "when a Doom token is put on a space with a monster icon ... a monster shows up": the
    icons of an Ancient One not filled in yet are not the card's, so no monster is called by them."""
    stand_in = ANCIENT.replace('attack = "test attack"', 'attack = "test attack"\nplaceholder = true')
    game = Game.new(Setup(players=2, seed=1), packs(ancient=stand_in))
    events = game.push("doom n=2")  # space 2 shows a monster on the stand-in's track
    assert "monster_appears" not in types(events) and game.view()["monsters_pending"] == 0
    assert game.view()["monster_spaces"] == []
    filled = new()
    assert "monster_appears" in types(filled.push("doom n=2"))


def test_the_terminal_says_who_still_chooses_at_the_attack_and_how_to_tell_it(tmp_path: Path) -> None:
    """`companion game state` at the attack (:459): the question, and the command that answers it, which works."""
    from companion.games.elder_sign.terminal import state_text
    from companion.history import GameStore
    from companion.service import GameService

    svc = GameService(GameStore(tmp_path / "games.sqlite3"), packs(), rng=random.Random(1))
    svc.new_game({"rules": "elder-sign", "players": 2, "names": ["Cy", "Di"], "seed": 1})
    numbers_copied(svc._game, svc)
    svc.do("doom", {"n": str(svc.state()["doom_max"])})
    while svc.state()["clock"] != "IX":
        cards_told(svc._game, svc)
        svc.do("end-turn")
    cards_told(svc._game, svc)
    svc.do("end-turn")
    text = state_text(svc.state())
    assert "Still to choose: Cy (player=1), Di (player=2)" in text
    assert "lower player=N stat=sanity | lower player=N stat=stamina" in text
    svc.do("lower", {"player": "2", "stat": "stamina"})
    assert "Still to choose: Cy (player=1)\n" in state_text(svc.state())
    svc.do("lower", {"player": "1", "stat": "sanity"})
    assert "Still to choose" not in state_text(svc.state())
    svc.close()


def test_two_midnights_in_one_turn_ask_each_investigator_twice() -> None:
    """:309 (a card moved the clock: the midnights are resolved at the end of the turn), :459 at each of them."""
    game = _at_the_attack(2)
    game.push("clock hours=12")  # a card moves the clock a whole round on: one more midnight this turn
    game.push("end-turn")
    assert game.view()["attack_choices"] == [0, 1, 0, 1]
    offered = [(a.args["player"], a.args["stat"]) for a in game.legal_actions() if a.name == "lower"]
    assert sorted(offered) == [(p, stat) for p in ("1", "2") for stat in ("sanity", "stamina")]  # each once
    before = game.view()["investigators"][0]["max_stamina"]
    game.push("lower player=1 stat=stamina")
    game.push("lower player=1 stat=stamina")
    assert game.view()["investigators"][0]["max_stamina"] == before - 2
    assert game.view()["attack_choices"] == [1, 1]


def test_a_reopened_old_game_asks_at_its_next_midnight():
    """A game stored before the attack asked (its stored midnight lowered sanity for everyone) replays that midnight
    as stored, but a midnight played after it was reopened asks each investigator (:457-459), as the companion
    plays now."""
    game = _at_the_attack(2)
    played = [c.to_dict() for c in game.history]
    old = Game.replay(Setup(players=2, seed=1), packs(), [*played, "end-turn", "end-turn"])
    assert (
        old.reading >= Reading.SANITY and old.view()["attack_choices"] == []
    )  # the stored midnight: as the old code played
    stored = len(old.history)
    while old.view()["clock"] != "IX" or len(old.history) == stored:
        old.push("end-turn")
    events = old.push("end-turn")  # the next midnight, after reopening
    assert [e["type"] for e in events if e["type"] in ("maximum_lowered", "attack_asked")] == ["attack_asked"]
    assert old.view()["attack_choices"] == [0, 1]
    old.push("lower player=1 stat=stamina")
    old.push("lower player=2 stat=sanity")
    again = Game.replay(Setup(players=2, seed=1), packs(), [c.to_dict() for c in old.history])
    assert again.view() == old.view()  # reopened once more: the same game
