"""Exact odds of rolling an icon set within a number of rolls, keeping dice or not.

The state of an attempt is what is still missing (a count per icon) and how many dice are
still free to roll. With rolls left, the chance to complete from a state is

    V(missing, free, rolls) = sum over roll outcomes R of P(R) * max over keep choices K of
                              V(missing - K, free - |K|, rolls - 1)

where a keep choice K is any part of the rolled dice that still counts toward what is missing.
V is 1 when nothing is missing and 0 when no rolls are left otherwise. All arithmetic is done
with fractions.Fraction, so the result is exact; floats are only produced at the end.
The maximum over keep choices means the odds are those of the best play. Keeping every die that
counts is NOT always the best play (docs/dice.md, "Keeping dice" has a worked counter-example), so
the programme really maximises; `keep_choices` tells a player which dice to keep.
Without keeping (Disruption, "Red Icons") every roll is a fresh roll of all the dice.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any, Literal

from companion.errors import DiceError
from companion.games.skeptics.dice.faces import DieKind, Face
from companion.games.skeptics.dice.requirement import Requirement

__all__ = [
    "success_probability",
    "success_fraction",
    "summon_probability",
    "summon_fraction",
    "odds_table",
    "MAX_ROLLS",
    "clear_cache",
    "keep_choices",
    "keep_all_fraction",
]

MAX_ROLLS = 10  # a turn has three actions; items that give free actions may add a few
Policy = Literal["best", "all"]


def _check(req: Requirement, dice: int, rolls: int) -> None:
    if not isinstance(req, Requirement):
        raise DiceError(f'odds need a Requirement (use Requirement.parse("eye:2,camera:1")), not {req!r}.')
    kind = req.kind
    if not isinstance(dice, int) or isinstance(dice, bool) or not 1 <= dice <= kind.max_dice:
        raise DiceError(f"{kind.value} rolls use 1 to {kind.max_dice} dice, not {dice!r}.")
    if not isinstance(rolls, int) or isinstance(rolls, bool) or not 0 <= rolls <= MAX_ROLLS:
        raise DiceError(f"the number of rolls must be 0 to {MAX_ROLLS}, not {rolls!r}.")


def success_fraction(req: Requirement | str, dice: int, rolls: int, keep: bool = True) -> Fraction:
    """The exact chance (a Fraction) that `req` is rolled within `rolls` rolls of `dice` dice.

    With keep=True the dice that count toward the set are kept between rolls (the best keeping
    choice is made after each roll); with keep=False, or when the set shows Disruption, every roll
    uses all the dice afresh. A set that needs more icons than there are dice has chance 0.
    """
    if isinstance(req, str):
        req = Requirement.parse(req)
    _check(req, dice, rolls)
    return _fraction(req, dice, rolls, bool(keep) and not req.disruption)


def success_probability(req: Requirement | str, dice: int, rolls: int, keep: bool = True) -> float:
    """success_fraction as a float; cached, so a repeated question costs a dictionary look-up."""
    if isinstance(req, str):
        req = Requirement.parse(req)
    _check(req, dice, rolls)
    return _probability(req, dice, rolls, bool(keep))


@lru_cache(maxsize=4096)
def _probability(req: Requirement, dice: int, rolls: int, keep: bool) -> float:
    return float(_fraction(req, dice, rolls, keep and not req.disruption))


@lru_cache(maxsize=4096)
def _fraction(req: Requirement, dice: int, rolls: int, keep: bool) -> Fraction:
    kind = req.kind
    if req.size > dice:
        return Fraction(0)
    # Faces the set does not ask for behave alike; only the needed icons are told apart.
    needed = tuple(face for face, _ in req.need)
    chances = tuple(kind.chance(face) for face in needed)
    missing = tuple(count for _, count in req.need)
    if keep:
        return _value(chances, missing, dice, rolls, "best")
    once = _value(chances, missing, dice, 1, "best")
    return 1 - (1 - once) ** rolls


def summon_fraction(dice: int) -> Fraction:
    """The exact chance that `dice` summon dice show at least one summon icon: 1 - (5/6)^dice."""
    if not isinstance(dice, int) or isinstance(dice, bool) or not 0 <= dice <= DieKind.SUMMON.max_dice:
        raise DiceError(f"the team holds 0 to {DieKind.SUMMON.max_dice} summon dice, not {dice!r}.")
    return 1 - Fraction(5, 6) ** dice


@lru_cache(maxsize=None, typed=True)  # typed: True is no count of dice (summon_fraction refuses it)
def summon_probability(dice: int) -> float:
    """The chance of a summon or pull with `dice` summon dice ("Action 7", "Action 8"): worked out once for each
    count (the published state asks it after every command, and the exact fraction takes some 20 µs)."""
    return float(summon_fraction(dice))


def odds_table(req: Requirement | str, dice: int, rolls: int = 3, keep: bool = True) -> list[dict[str, Any]]:
    """Rows for a phone or the CLI: the chance of success within 1, 2, ... `rolls` rolls.

    Each row is JSON-safe: {"rolls": n, "probability": 0.25, "percent": "25.0%", "fraction": "1/4"}.
    """
    if isinstance(req, str):
        req = Requirement.parse(req)
    _check(req, dice, rolls)
    rows = []
    for n in range(1, rolls + 1):
        exact = success_fraction(req, dice, n, keep)
        rows.append(
            {"rolls": n, "probability": float(exact), "percent": f"{float(exact) * 100:.1f}%", "fraction": str(exact)}
        )
    return rows


def clear_cache() -> None:
    """Forget every cached answer (benchmarks measure cold times with it)."""
    _probability.cache_clear()
    _fraction.cache_clear()
    _value.cache_clear()
    _useful.cache_clear()
    _outcomes.cache_clear()


# -- the dynamic programme ---------------------------------------------------------------


@cache
def _outcomes(chances: tuple[Fraction, ...], free: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every outcome of rolling `free` dice, as counts of each needed icon, with its exact chance.

    The last, implicit category is "any other face"; outcomes are multinomial.
    """
    other = 1 - sum(chances, Fraction(0))
    result = []
    for counts in _compositions(free, len(chances)):
        rest = free - sum(counts)
        ways = math.factorial(free) // math.prod(math.factorial(c) for c in counts) // math.factorial(rest)
        chance = Fraction(ways) * other**rest
        for c, p in zip(counts, chances):
            chance *= p**c
        if chance:
            result.append((counts, chance))
    return tuple(result)


@cache
def _useful(
    chances: tuple[Fraction, ...], missing: tuple[int, ...], free: int
) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """The outcomes of rolling `free` dice grouped by what counts toward `missing` (icons beyond
    the count still missing are surplus), with the chance of each group."""
    groups: dict[tuple[int, ...], Fraction] = {}
    for counts, chance in _outcomes(chances, free):
        useful = tuple(min(c, m) for c, m in zip(counts, missing))
        groups[useful] = groups.get(useful, Fraction(0)) + chance
    return tuple(groups.items())


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """All tuples of `parts` non-negative ints with sum at most `total`."""
    return (c for c in itertools.product(range(total + 1), repeat=parts) if sum(c) <= total)


@cache
def _value(chances: tuple[Fraction, ...], missing: tuple[int, ...], free: int, rolls: int, policy: Policy) -> Fraction:
    """V(missing, free, rolls): the chance to complete the set from this state (see the module doc).

    policy "best" maximises over every keep choice; "all" always keeps every useful die
    (the rulebook's habit and the Attempt's default). "all" can be worse (docs/dice.md).
    """
    if not any(missing):
        return Fraction(1)
    if rolls == 0 or sum(missing) > free:
        return Fraction(0)
    total = Fraction(0)
    for useful, chance in _useful(chances, missing, free):
        if useful == missing:
            total += chance
            continue
        if rolls == 1:
            continue
        if policy == "all":
            choices: Iterator[tuple[int, ...]] = iter((useful,))
        else:
            choices = itertools.product(*(range(u + 1) for u in useful))
        best = Fraction(0)
        for keep in choices:
            left = tuple(m - k for m, k in zip(missing, keep))
            value = _value(chances, left, free - sum(keep), rolls - 1, policy)
            if value > best:
                best = value
        total += chance * best
    return total


def keep_all_fraction(req: Requirement, dice: int, rolls: int) -> Fraction:
    """The chance under the fixed rule "keep every die that still counts" (for tests and docs)."""
    _check(req, dice, rolls)
    if req.size > dice:
        return Fraction(0)
    chances = tuple(req.kind.chance(face) for face, _ in req.need)
    return _value(chances, tuple(c for _, c in req.need), dice, rolls, "all")


def keep_choices(
    req: Requirement, dice: int, faces: Iterable[Face], rolls_after: int
) -> list[tuple[tuple[Face, ...], Fraction]]:
    """Every sensible choice of dice to keep from a roll, with its exact chance, best first.

    `req` is what is still missing before the roll, `dice` the dice just rolled, `faces` their
    faces, `rolls_after` the rolls still to come after this one. A choice is a part of the faces
    that count toward `req`; keeping other faces never helps (docs/dice.md). If the roll completes
    the set, the only choice is every face that counts, with chance 1. Ties keep the larger choice first.
    """
    _check(req, dice, rolls_after)
    rolled = tuple(faces)
    if len(rolled) != dice:
        raise DiceError(f"keep_choices needs the faces of all {dice} dice rolled, got {len(rolled)}.")
    needed = tuple(face for face, _ in req.need)
    chances = tuple(req.kind.chance(face) for face in needed)
    missing = tuple(count for _, count in req.need)
    useful = tuple(min(sum(1 for f in rolled if f is face), m) for face, m in zip(needed, missing))
    if useful == missing:
        return [(_faces(needed, useful), Fraction(1))]
    if req.disruption:
        return [((), _fraction(req, dice, rolls_after, False))]
    choices = []
    for keep in itertools.product(*(range(u + 1) for u in useful)):
        left = tuple(m - k for m, k in zip(missing, keep))
        free = dice - sum(keep)
        value = _value(chances, left, free, rolls_after, "best") if sum(left) <= free else Fraction(0)
        choices.append((_faces(needed, keep), value))
    choices.sort(key=lambda choice: (-choice[1], -len(choice[0])))
    return choices


def _faces(needed: tuple[Face, ...], counts: tuple[int, ...]) -> tuple[Face, ...]:
    return tuple(face for face, n in zip(needed, counts) for _ in range(n))
