"""Rule tests from an independent review of the engines against the rule texts (issue 24's review): each test quotes
the line it checks and failed on the code before its fix."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction
from functools import cache
from types import MappingProxyType

import pytest
from games import BUNDLED as PACKS
from games import numbers_copied

from companion.errors import IllegalCommand
from companion.games.skeptics.engine import Game, Setup
from companion.games.skeptics.module import MODULE

# "Note: Each Clue Die has half of their sides as Eye icons, two as Cameras, and one as a Cobweb."
CLUE_SIDES = ("eye", "eye", "eye", "camera", "camera", "cobweb")


def _less(missing: tuple[tuple[str, int], ...], faces: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    left = dict(missing)
    for face in faces:
        if left.get(face, 0) > 0:
            left[face] -= 1
    return tuple(sorted((k, v) for k, v in left.items() if v))


@cache
def brute(missing: tuple[tuple[str, int], ...], free: int, rolls: int) -> Fraction:
    """The best chance by counting every side of every die on every roll, keeping any of the dice rolled (the
    review's own count, not the companion's odds code)."""
    if not missing:
        return Fraction(1)
    if not rolls or not free:
        return Fraction(0)
    total = Fraction(0)
    for sides in itertools.product(CLUE_SIDES, repeat=free):
        total += max(
            brute(_less(missing, kept), free - len(kept), rolls - 1)
            for r in range(free + 1)
            for kept in itertools.combinations(sides, r)
        )
    return total / 6**free


def ghost_on_board(ghost: str = "poltergeist", packs: object = PACKS) -> Game:
    game = Game.new(Setup(players=2, board="asylum", ghost=ghost, seed=7), packs)  # type: ignore[arg-type]
    game.push("end-round")
    game.push("ghost-at room=3")
    return game


def test_a_prove_on_a_ghost_card_not_filled_in_rolls_the_real_cards_icons() -> None:
    """Skeptics, "Action 6: Prove": "Players must match the icons in a chosen set" — the set printed on the Ghost Card
    on the table. The bundled Poltergeist's icon sets are stand-ins (its entry is a placeholder), so the icons the
    host gives (need=, red icons included) are the set rolled for; the stand-in's invented icons are not forced."""
    assert PACKS.ghosts["poltergeist"].placeholder
    stand_in = PACKS.ghosts["poltergeist"].icon_sets[0]
    assert stand_in != "cobweb:2"
    game = ghost_on_board()
    game.push("attempt action=prove set=1 need=cobweb:2")
    attempt = game.view()["attempt"]
    assert attempt is not None and attempt["need"] == "cobweb:2"
    events = game.push("roll faces=cobweb,cobweb,eye")
    assert "set_proven" in [e["type"] for e in events]
    # the real card's red icon, told by the host, is played too ("Red Icons: Timers")
    game.push("attempt action=prove set=2 need=eye:1 timer=true")
    assert [e["type"] for e in game.push("roll faces=camera,camera,cobweb")].count("timer_added") == 1


def test_a_prove_on_a_filled_in_ghost_card_still_takes_its_icons_from_the_card() -> None:
    """A ghost card filled in is the card on the table: a different need= is refused, as before."""
    real = replace(PACKS.ghosts["poltergeist"], placeholder=False)
    packs = replace(PACKS, ghosts=MappingProxyType({**PACKS.ghosts, "poltergeist": real}))
    game = ghost_on_board(packs=packs)
    with pytest.raises(IllegalCommand, match="Leave need= out"):
        game.push("attempt action=prove set=1 need=cobweb:2")
    game.push("attempt action=prove set=1")
    attempt = game.view()["attempt"]
    assert attempt is not None and attempt["need"] == real.icon_sets[0]


def test_an_unlock_of_a_door_not_filled_in_rolls_for_the_keys_the_host_gives() -> None:
    """Skeptics, "Action 2: Unlock": "The number of Keys necessary is represented by either a single Key icon or an
    icon with a number above it" — on the board on the table. The bundled Asylum's doors are stand-ins (placeholder
    ways), so the keys the host gives (need=key:N) are rolled for; a filled-in door still refuses another count."""
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=7), PACKS)
    door = next(d for d in game.board.doors if d.placeholder and d.keys == 2)
    game.push(f"attempt action=unlock door={door.key} need=key:3")
    attempt = game.view()["attempt"]
    assert attempt is not None and attempt["need"] == "key:3"
    events = game.push("roll faces=key,key,blank")
    assert "door_unlocked" not in [e["type"] for e in events]  # two keys do not open a door of three

    board = PACKS.boards["asylum"]
    real_ways = tuple(replace(c, placeholder=False) for c in board.connections)
    packs = replace(PACKS, boards=MappingProxyType({**PACKS.boards, "asylum": replace(board, connections=real_ways)}))
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=7), packs)
    with pytest.raises(IllegalCommand, match="needs key:2"):
        game.push(f"attempt action=unlock door={door.key} need=key:3")


def test_a_stand_in_ancient_ones_combat_task_is_the_one_the_host_enters() -> None:
    """Elder Sign, elder-sign-rules.txt:439 "Each Ancient One has a specific Combat Task printed on its card. Every time
    you successfully complete this task, you'll remove a Doom token." An Ancient One not filled in yet has a stand-in
    task: the host enters the card's (set-tasks adventure=ancient-one), and the battle's rolls are checked against it;
    a filled-in Ancient One's task is the card's and cannot be changed."""
    from test_elder_sign_engine import ANCIENT, packs

    from companion.games.elder_sign.engine import Game as ElderSign
    from companion.games.elder_sign.engine import Setup as ElderSignSetup

    stand_in = ANCIENT.replace('attack = "test attack"', 'attack = "test attack"\nplaceholder = true')
    game = ElderSign.new(ElderSignSetup(players=2, seed=1), packs(ancient=stand_in))
    numbers_copied(game)  # the stand-in's doom track and Elder Signs, copied before the first turn
    game.push(f"doom n={game.view()['doom_max']}")  # awake
    game.push("end-turn")
    assert "set-tasks" in [a.name for a in game.legal_actions() if a.args.get("adventure") == "ancient-one"]
    game.push("set-tasks adventure=ancient-one tasks=lore:2")
    assert game.view()["ancient_one"]["combat"] == "lore:2"
    doom = game.view()["doom"]
    # the stand-in's task (inv:2) would take this roll; the card's (two lore) does not
    events = game.push("roll faces=inv3," + ",".join(["peril"] * (game.dice_to_roll() - 1)))
    assert "combat_task_completed" not in [e["type"] for e in events] and game.view()["doom"] == doom
    game.pop()
    events = game.push("roll faces=lore,lore," + ",".join(["peril"] * (game.dice_to_roll() - 2)))
    assert "combat_task_completed" in [e["type"] for e in events] and game.view()["doom"] == doom - 1

    filled = ElderSign.new(ElderSignSetup(players=2, seed=1), packs())
    with pytest.raises(IllegalCommand, match="printed on its card"):
        filled.push("set-tasks adventure=ancient-one tasks=lore:2")


@pytest.mark.parametrize(
    ("timers", "corpse", "rolls"), [(0, False, 3), (1, False, 2), (2, False, 1), (0, True, 2), (2, True, 1)]
)
def test_the_odds_shown_are_a_count_of_the_rolls_the_rules_leave(timers: int, corpse: bool, rolls: int) -> None:
    """Skeptics, "Red Icons: Timers": "If a third Timer Token is received as a result of an unsuccessful roll, then that
    player's turn ends immediately"; "Corpse": "reduce all players to two Actions per turn, excluding Move Actions".
    The chance shown for a timer set of one eye and one camera is the brute-force count over the rolls left."""
    from test_rules_audit import card_in_play

    game = (
        card_in_play("corpse") if corpse else Game.new(Setup(players=2, board="asylum", ghost="child", seed=7), PACKS)
    )
    if not corpse:
        game.push("end-round")
    while game.view()["current_player"] != 0 or game.view()["actions_left"] != 3:
        game.push("end-turn")
    for _ in range(timers):
        game.push("timer")
    game.push("attempt action=search need=eye:1,camera:1 timer=true")
    odds = MODULE.publish(game.view(), game)["odds"]
    assert odds == pytest.approx(float(brute((("camera", 1), ("eye", 1)), 3, rolls)), abs=1e-12)
