"""Elder Sign's dice: the faces of each colour, stand-in pipped dice, tasks, and which dice a task takes.

elder-sign-rules.txt:60-62 (6 green, 1 yellow, 1 red), :171-175 (the faces), :177, :183-189 (meeting a task).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from companion.errors import DiceError
from companion.games.elder_sign.dice import Colour, Die, Face, Need, PipMap, covers, parse_dice, placement


def test_the_yellow_die_trades_terror_for_4_and_the_red_trades_1_for_wild() -> None:
    """elder-sign-rules.txt:173 (yellow: a 4 investigation side instead of terror), :175 (red: wild instead of 1)."""
    green, yellow, red = (set(c.faces) for c in Colour)
    assert yellow == (green - {Face.TERROR}) | {Face.INV4}
    assert red == (yellow - {Face.INV1}) | {Face.WILD}
    for colour in Colour:
        assert len(colour.faces) == 6 and len(set(colour.faces)) == 6
        assert sum(colour.chance(f) for f in set(colour.faces)) == 1
        assert colour.chance(colour.faces[0]) == Fraction(1, 6)


def test_a_wild_result_serves_as_1_investigation_lore_peril_or_terror() -> None:
    """elder-sign-rules.txt:175."""
    for need in ("inv:1", "lore:1", "peril:1", "terror:1"):
        assert covers(Need.parse(need), [Face.WILD])
    assert not covers(Need.parse("lore:1,peril:1"), [Face.WILD])  # one die, one result
    assert covers(Need.parse("inv:3"), [Face.WILD, Face.INV2])


def test_investigation_results_add_up() -> None:
    """elder-sign-rules.txt:137: a number on the investigation symbol is met by results adding up to it."""
    need = Need.parse("inv:5")
    for faces in itertools.product([Face.INV1, Face.INV2, Face.INV3, Face.LORE], repeat=3):
        total = sum(f.investigation for f in faces)
        assert covers(need, faces) == (total >= 5)


def test_every_symbol_of_the_task_at_once() -> None:
    """elder-sign-rules.txt:177: all of the requirements of a single task."""
    need = Need.parse("inv:2,lore:1")
    assert covers(need, [Face.INV2, Face.LORE])
    assert not covers(need, [Face.INV2, Face.PERIL])
    assert not covers(need, [Face.INV1, Face.LORE])


def test_the_fewest_dice_are_placed_green_first_and_rolled_dice_before_held_ones() -> None:
    """elder-sign-rules.txt:183-187: matching dice go on the requirements; the rest roll again (:191)."""
    rolled = parse_dice("inv3,yellow:inv3,inv1,lore")
    used, held = placement(Need.parse("inv:3,lore:1"), rolled, [Face.LORE]) or ((), ())
    assert sorted(rolled[i].face.value for i in used) == ["inv3", "lore"]
    assert all(rolled[i].colour is Colour.GREEN for i in used)
    assert held == ()
    assert placement(Need.parse("peril:1"), rolled) is None
    used, held = placement(Need.parse("peril:1"), rolled, [Face.PERIL]) or ((), ())
    assert used == () and held == (0,)


def test_tasks_read_and_write_back() -> None:
    need = Need.parse("investigation:4, lore:1")
    assert str(need) == "inv:4,lore:1" and Need.parse(str(need)) == need
    assert need.min_dice == 2
    assert Need.parse("inv:9").min_dice == 3
    for bad in ("", "inv", "inv:x", "magic:1", "inv:0", "inv:-1"):
        with pytest.raises(DiceError):
            Need.parse(bad)


def test_dice_are_written_with_their_colour_unless_green() -> None:
    dice = parse_dice("inv2, y:inv4 red:wild")
    assert [str(d) for d in dice] == ["inv2", "yellow:inv4", "red:wild"]
    with pytest.raises(DiceError):
        Die(Colour.YELLOW, Face.TERROR)  # a yellow die has no terror side
    with pytest.raises(DiceError):
        parse_dice("inv4")  # a green die has no 4


def test_the_default_pip_map_gives_each_face_one_pip_and_a_map_can_be_changed() -> None:
    pips = PipMap.default()
    for colour in Colour:
        faces = [pips.face(colour, p) for p in range(1, 7)]
        assert sorted(f.value for f in faces) == sorted(f.value for f in colour.faces)
        for p in range(1, 7):
            assert pips.pip(colour, pips.face(colour, p)) == p
    assert pips.face(Colour.RED, 1) is Face.WILD
    swapped = PipMap.from_dict({"green": {"inv1": 6, "inv2": 2, "inv3": 3, "lore": 4, "peril": 5, "terror": 1}})
    assert swapped.face(Colour.GREEN, 6) is Face.INV1 and swapped.face(Colour.YELLOW, 4) is Face.INV4
    assert PipMap.from_dict(swapped.to_dict()) == swapped
    bads: list[dict[str, dict[str, int]]] = [
        {"green": {"inv1": 1}},
        {"green": {"inv4": 1}},
        {"blue": {}},
        {"green": {"inv1": 1, "inv2": 1, "inv3": 3, "lore": 4, "peril": 5, "terror": 6}},
    ]
    for bad in bads:
        with pytest.raises(DiceError):
            PipMap.from_dict(bad)
