"""Exact odds of completing an Elder Sign task, or a whole adventure card, with the best play.

How a roll is settled (elder-sign-rules.txt:177-191, :200-217, :363-373) and so what the odds count:

- Every roll throws all the free dice. One task may be completed per roll, and only when the dice of that
  one roll (with the dice held on markers and spells) meet ALL its symbols at once: a task keeps no partial
  progress from one roll to the next.
- The dice placed on a completed task are out; the others are rolled again for the next task.
- A roll that completes nothing (or whose result the player does not use) loses one of the dice rolled,
  and the player may hold one other die of that roll, its face unchanged, on a free hold (focus on their
  own marker, assist on another's, a spell card): ``holds`` is how many such places there are. At most one
  die is held per failed roll; a held die counts toward every later roll until it is placed on a task, which
  frees its place. While battling the Ancient One no die may be held (:449): use ``holds=0``.
- A clue token re-rolls the free dice of a roll that completed nothing, without losing a die (:359-361,
  read literally as "the dice in my dice pool"); ``clues`` is how many may be spent. A clue re-roll does not
  count against ``rolls``.
- ``rolls`` caps the rolls that count (each either completes a task or loses a die); ``None`` means no cap,
  so the attempt goes on until the dice run out.

The value of a state is the chance to finish from it with the best choices (which task to complete with a
roll, which dice to place on it, which die to lose and which to hold, whether to spend a clue):

    V(tasks left, free dice, held faces, clues, rolls) =
        sum over outcomes O of the free dice of P(O) * max(complete a task met by O, fail, clue)

All arithmetic is in fractions.Fraction, so the chances are exact. Faces are first reduced to what the card
can use (investigation values capped at the largest inv asked, unused symbols blank, a wild that can only
serve as 1 investigation written so), and outcomes that allow the same choices are summed before the
maximum is taken: that, and memoising every state, is what makes a whole card fast.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from companion.errors import DiceError
from companion.games.elder_sign.dice import GREEN_DICE, Colour, Face, Need

__all__ = [
    "task_fraction",
    "task_probability",
    "card_fraction",
    "card_probability",
    "odds_table",
    "clear_cache",
    "MAX_DICE",
    "MAX_ROLLS",
    "MAX_HOLDS",
    "MAX_TASKS",
]

MAX_DICE = {Colour.GREEN: GREEN_DICE, Colour.YELLOW: 2, Colour.RED: 2}
MAX_ROLLS = 12
MAX_HOLDS = 3
MAX_TASKS = 6
MAX_CLUES = 4

# reduced faces
BLANK, LORE, PERIL, TERROR, WILD = 0, 5, 6, 7, 8
NeedT = tuple[int, int, int, int]  # inv, lore, peril, terror
Pool = tuple[int, int, int]  # free green, yellow, red dice
Held = tuple[int, ...]  # reduced faces held, sorted
Outcome = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # sorted reduced faces per colour
Leftover = tuple[Pool, Held]


# -- the public questions ---------------------------------------------------------------------------------


def _count(name: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise DiceError(f"{name} must be a whole number {low} to {high}, not {value!r}.")
    return value


def _needs(tasks: Iterable[Need | str]) -> tuple[Need, ...]:
    needs = tuple(Need.parse(t) for t in tasks)
    if not 1 <= len(needs) <= MAX_TASKS:
        raise DiceError(f"an adventure card has 1 to {MAX_TASKS} tasks, not {len(needs)}.")
    return needs


def _check(green: int, yellow: int, red: int, rolls: int | None, holds: int, clues: int, held: Sequence[Face]) -> None:
    _count("green dice", green, 0, MAX_DICE[Colour.GREEN])
    _count("yellow dice", yellow, 0, MAX_DICE[Colour.YELLOW])
    _count("red dice", red, 0, MAX_DICE[Colour.RED])
    if rolls is not None:
        _count("the rolls", rolls, 0, MAX_ROLLS)
    _count("holds", holds, 0, MAX_HOLDS)
    _count("clues", clues, 0, MAX_CLUES)
    if len(held) > holds:
        raise DiceError(f"{len(held)} dice are held but there are only {holds} places to hold them.")
    if green + yellow + red + len(held) == 0:
        raise DiceError("there are no dice to roll.")


def card_fraction(
    tasks: Iterable[Need | str],
    ordered: bool = False,
    green: int = GREEN_DICE,
    yellow: int = 0,
    red: int = 0,
    rolls: int | None = None,
    holds: int = 1,
    clues: int = 0,
    held: Sequence[Face | str] = (),
) -> Fraction:
    """The exact chance to complete every task of a card (in order when `ordered`), with the best play."""
    needs = _needs(tasks)
    held_faces = tuple(f if isinstance(f, Face) else Face(str(f)) for f in held)
    _check(green, yellow, red, rolls, holds, clues, held_faces)
    needs, holds, held_faces = _held_placed_first(needs, holds, held_faces, green + yellow + red)
    return _searched(needs, bool(ordered), (green, yellow, red), rolls, holds, clues, held_faces)


def _searched(
    needs: tuple[Need, ...], ordered: bool, pool: Pool, rolls: int | None, holds: int, clues: int, held: Sequence[Face]
) -> Fraction:
    """The best play's chance, searched for (V of the module's docstring) from the dice `held` and the `pool`."""
    card = _card(needs, ordered, holds)
    start_held = tuple(sorted(_reduce(card.shape, f) for f in held))
    return _value(card, tuple(range(len(needs))), pool, start_held, clues, -1 if rolls is None else rolls)


def _held_placed_first(
    needs: tuple[Need, ...], holds: int, held: tuple[Face, ...], rolled: int
) -> tuple[tuple[Need, ...], int, tuple[Face, ...]]:
    """An order of the work for a card of one task with dice held (a per-task chance): a held die stays held until
    it is placed on a task (:347 "it stays there until it is used to complete a task", :371), so on the one task,
    when a roll completes it; each one's symbol is taken off the need first, and its place off the holds. The chance
    is the same (a held die placed is never worse than one left off; tests/test_elder_sign_odds.py compares them),
    with fewer states to search: with the yellow and red dice a held die's task took three times as long
    (benchmarks/bench_elder_sign_push.py). A wild (its symbol the player's choice, :175) is left to the search, as
    is a task the held dice meet whole."""
    if len(needs) != 1 or not held or not rolled or Face.WILD in held:
        return needs, holds, held
    left = {"inv": needs[0].inv, "lore": needs[0].lore, "peril": needs[0].peril, "terror": needs[0].terror}
    for face in held:
        symbol = "inv" if face.investigation else face.value
        left[symbol] = max(0, left[symbol] - (face.investigation or 1))
    if not any(left.values()):
        return needs, holds, held
    return (Need(**left),), holds - len(held), ()


def card_probability(
    tasks: Iterable[Need | str],
    ordered: bool = False,
    green: int = GREEN_DICE,
    yellow: int = 0,
    red: int = 0,
    rolls: int | None = None,
    holds: int = 1,
    clues: int = 0,
    held: Sequence[Face | str] = (),
) -> float:
    return _float(
        tuple(str(Need.parse(t)) for t in tasks),
        bool(ordered),
        green,
        yellow,
        red,
        rolls,
        holds,
        clues,
        tuple(str(f) for f in held),
    )


@lru_cache(maxsize=4096)
def _float(
    tasks: tuple[str, ...],
    ordered: bool,
    green: int,
    yellow: int,
    red: int,
    rolls: int | None,
    holds: int,
    clues: int,
    held: tuple[str, ...],
) -> float:
    return float(card_fraction(tasks, ordered, green, yellow, red, rolls, holds, clues, held))


def task_fraction(
    need: Need | str,
    green: int = GREEN_DICE,
    yellow: int = 0,
    red: int = 0,
    rolls: int | None = None,
    holds: int = 1,
    clues: int = 0,
    held: Sequence[Face | str] = (),
) -> Fraction:
    """The exact chance to complete one task within `rolls` rolls (None: until the dice run out)."""
    return card_fraction((need,), False, green, yellow, red, rolls, holds, clues, held)


def task_probability(
    need: Need | str,
    green: int = GREEN_DICE,
    yellow: int = 0,
    red: int = 0,
    rolls: int | None = None,
    holds: int = 1,
    clues: int = 0,
    held: Sequence[Face | str] = (),
) -> float:
    return card_probability((need,), False, green, yellow, red, rolls, holds, clues, held)


def odds_table(
    need: Need | str,
    green: int = GREEN_DICE,
    yellow: int = 0,
    red: int = 0,
    rolls: int = 3,
    holds: int = 1,
    clues: int = 0,
) -> list[dict[str, Any]]:
    """Rows for a phone or the CLI, as Skeptics' odds_table: the chance within 1, 2, ... `rolls` rolls."""
    _count("the rolls", rolls, 1, MAX_ROLLS)
    rows = []
    for n in range(1, rolls + 1):
        exact = task_fraction(need, green, yellow, red, n, holds, clues)
        rows.append(
            {"rolls": n, "probability": float(exact), "percent": f"{float(exact) * 100:.1f}%", "fraction": str(exact)}
        )
    return rows


def clear_cache() -> None:
    """Forget every memoised answer (the benchmark measures cold times with it)."""
    for fn in (_float, _card, _outcomes, _capped, _colour_outcomes, _greens_needed, _green_profile, _masks, _plan):
        fn.cache_clear()


# -- the card, reduced ------------------------------------------------------------------------------------


class _Card:
    """The tasks as tuples, with the face reduction they share, and the card's memo of states.

    Leftover states (free dice, held faces) are numbered as they are met, so the inner loop of the
    dynamic programme indexes lists instead of hashing tuples.
    """

    __slots__ = (
        "needs",
        "ordered",
        "holds",
        "shape",
        "caps",
        "dists",
        "ids",
        "leftovers",
        "classes",
        "memo",
        "undominated",
    )

    def __init__(self, needs: tuple[Need, ...], ordered: bool, holds: int) -> None:
        self.needs: tuple[NeedT, ...] = tuple((n.inv, n.lore, n.peril, n.terror) for n in needs)
        self.ordered = ordered
        self.holds = holds
        cap = max(n.inv for n in needs)
        symbols = (any(n.lore for n in needs), any(n.peril for n in needs), any(n.terror for n in needs))
        self.shape = (cap, *symbols)
        self.dists = tuple(_dist(self.shape, colour) for colour in Colour)
        most = [max(n[k] for n in self.needs) for k in range(4)]
        inv_caps = [-(-most[0] // v) for v in (1, 2, 3, 4)]
        self.caps = (
            99,
            *inv_caps,
            most[1],
            most[2],
            most[3],
            99,
        )  # per reduced face: blank, 1-4, lore, peril, terror, wild
        self.ids: dict[Leftover, int] = {}
        self.leftovers: list[Leftover] = []
        self.classes: dict[Leftover, list[tuple[Fraction, tuple[tuple[int, ...], ...], tuple[int, ...]]]] = {}
        # (tasks left, clues, rolls) -> value of each leftover id (None: not worked out yet)
        self.memo: dict[tuple[tuple[int, ...], int, int], list[tuple[Fraction, float] | None]] = {}
        self.undominated: dict[tuple[int, ...], tuple[int, ...]] = {}

    def id(self, leftover: Leftover) -> int:
        found = self.ids.get(leftover)
        if found is None:
            found = self.ids[leftover] = len(self.leftovers)
            self.leftovers.append(leftover)
        return found


@cache
def _card(needs: tuple[Need, ...], ordered: bool, holds: int) -> _Card:
    return _Card(needs, ordered, holds)


def _reduce(shape: tuple[int, bool, bool, bool], face: Face) -> int:
    cap, lore, peril, terror = shape
    if face is Face.LORE:
        return LORE if lore else BLANK
    if face is Face.PERIL:
        return PERIL if peril else BLANK
    if face is Face.TERROR:
        return TERROR if terror else BLANK
    if face is Face.WILD:
        if lore or peril or terror:
            return WILD
        return 1 if cap else BLANK
    return min(face.investigation, cap)


def _dist(shape: tuple[int, bool, bool, bool], colour: Colour) -> tuple[tuple[int, Fraction], ...]:
    out: dict[int, Fraction] = {}
    for face in colour.faces:
        code = _reduce(shape, face)
        out[code] = out.get(code, Fraction(0)) + Fraction(1, 6)
    return tuple(sorted(out.items()))


@cache
def _colour_outcomes(dist: tuple[tuple[int, Fraction], ...], n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every multiset of reduced faces `n` dice of one colour can show, with its weight (its chance times 6**n)."""
    out = []
    codes = [code for code, _ in dist]
    sides = [int(chance * 6) for _, chance in dist]
    for combo in itertools.combinations_with_replacement(range(len(dist)), n):
        ways = math.factorial(n)
        weight = 1
        for k in range(len(dist)):
            c = combo.count(k)
            ways //= math.factorial(c)
            weight *= sides[k] ** c
        out.append((tuple(codes[k] for k in combo), ways * weight))
    return tuple(out)


@cache
def _outcomes(card: _Card, pool: Pool) -> tuple[tuple[Outcome, Fraction], ...]:
    """Every outcome of rolling `pool`, with faces no task could use turned blank and summed together.

    A task uses at most as many dice of one face as it needs of that symbol, and at most ceil(inv / v)
    dice showing v investigation, so dice of one colour beyond those counts are blank to every choice
    (a blank die of that colour is still there to be lost).
    """
    caps = card.caps
    merged: dict[Outcome, int] = {}
    g, y, r = (_colour_outcomes(card.dists[i], pool[i]) for i in range(3))
    capped = [[(_cap(faces, caps), p) for faces, p in part] for part in (g, y, r)]
    for (a, pa), (b, pb), (c, pc) in itertools.product(*capped):
        key = (a, b, c)
        merged[key] = merged.get(key, 0) + pa * pb * pc
    scale = Fraction(1, 6 ** sum(pool))
    return tuple((key, weight * scale) for key, weight in merged.items())


def _cap(faces: tuple[int, ...], caps: tuple[int, ...]) -> tuple[int, ...]:
    seen = [0] * len(caps)
    out = []
    for code in faces:
        seen[code] += 1
        out.append(code if seen[code] <= caps[code] else BLANK)
    return tuple(sorted(out))


def _covers(need: NeedT, codes: Iterable[int]) -> bool:
    inv, lore, peril, terror, wild = _summary(codes)
    short = max(0, need[1] - lore) + max(0, need[2] - peril) + max(0, need[3] - terror)
    return short <= wild and inv + wild - short >= need[0]


Summary = tuple[int, int, int, int, int]  # inv, lore, peril, terror, wild of some dice


def _summary(codes: Iterable[int]) -> Summary:
    inv = lore = peril = terror = wild = 0
    for code in codes:
        if code == LORE:
            lore += 1
        elif code == PERIL:
            peril += 1
        elif code == TERROR:
            terror += 1
        elif code == WILD:
            wild += 1
        else:
            inv += code
    return (inv, lore, peril, terror, wild)


@cache
def _green_profile(greens: tuple[int, ...]) -> tuple[int, int, int, tuple[int, ...]]:
    """Lore, peril and terror faces among green dice, and the running sums of their investigation values,
    largest first (the fewest green dice reaching an inv total are the largest values)."""
    values = sorted((c for c in greens if 0 < c < LORE), reverse=True)
    return (greens.count(LORE), greens.count(PERIL), greens.count(TERROR), tuple(itertools.accumulate(values)))


@cache
def _greens_needed(need: NeedT, greens: tuple[int, ...], used: Summary) -> int | None:
    """The fewest green dice (of faces `greens`) that, with dice adding up to `used`, meet `need`; None if
    none do."""
    inv, lore, peril, terror, wild = used
    g_lore, g_peril, g_terror, sums = _green_profile(greens)
    best: int | None = None
    # every way to spend the wilds: on lore, peril, terror, the rest as 1 investigation each
    for wl in range(wild + 1):
        for wp in range(wild - wl + 1):
            for wt in range(wild - wl - wp + 1):
                wi = wild - wl - wp - wt
                rl = max(0, need[1] - lore - wl)
                rp = max(0, need[2] - peril - wp)
                rt = max(0, need[3] - terror - wt)
                if rl > g_lore or rp > g_peril or rt > g_terror:
                    continue
                ri = need[0] - inv - wi
                k = 0
                if ri > 0:
                    k = next((i + 1 for i, total in enumerate(sums) if total >= ri), -1)
                    if k < 0:
                        continue
                total = rl + rp + rt + k
                if best is None or total < best:
                    best = total
    return best


@cache
def _plan(need: NeedT, others: tuple[tuple[int, int], ...]) -> tuple[tuple[int, Summary], ...]:
    """The parts of the non-green dice worth trying for `need`: those made of dice whose face can count toward
    it (a part with a die that cannot is never better than the part without it), smallest masks first."""

    def useful(code: int) -> bool:
        if code == WILD:
            return True
        if code in (LORE, PERIL, TERROR):
            return bool(need[code - LORE + 1])
        return code > 0 and need[0] > 0

    bits = [i for i, (_, code) in enumerate(others) if useful(code)]
    out = []
    for chosen in range(1 << len(bits)):
        mask = sum(1 << bits[k] for k in range(len(bits)) if chosen >> k & 1)
        out.append((mask, _summary(others[bits[k]][1] for k in range(len(bits)) if chosen >> k & 1)))
    out.sort(key=lambda item: item[0])
    return tuple(out)


@cache
def _masks(others: tuple[tuple[int, int], ...]) -> tuple[tuple[int, Summary, tuple[int, int], Held], ...]:
    """Every part of the non-green dice (yellow 1, red 2, held 3; with their faces): its bit mask, what its
    faces add up to, the yellow and red dice it uses and the held faces it uses."""
    out = []
    for mask in range(1 << len(others)):
        part = [others[i] for i in range(len(others)) if mask >> i & 1]
        uy = sum(1 for kind, _ in part if kind == 1)
        ur = sum(1 for kind, _ in part if kind == 2)
        uh = tuple(sorted(code for kind, code in part if kind == 3))
        out.append((mask, _summary(code for _, code in part), (uy, ur), uh))
    return tuple(out)


def _minus(held: Held, used: Held) -> Held:
    rest = list(held)
    for code in used:
        rest.remove(code)
    return tuple(rest)


def _fails(outcome: Outcome, pool: Pool, held: Held, can_hold: bool) -> frozenset[Leftover]:
    """Where a failed roll can lead: one rolled die lost (its colour matters, not its face), maybe one held."""
    out: set[Leftover] = set()
    for lost in range(3):
        if not outcome[lost]:
            continue
        after = list(pool)
        after[lost] -= 1
        out.add((tuple(after), held))  # type: ignore[arg-type]
        if not can_hold:
            continue
        for colour in range(3):
            faces = outcome[colour]
            if len(faces) - (1 if colour == lost else 0) <= 0:
                continue
            # a blank face never helps held; of the investigation faces only the highest is worth holding
            # (a held 3 does whatever a held 1 would)
            values = [c for c in faces if 0 < c < LORE]
            candidates = {c for c in faces if c >= LORE} | ({max(values)} if values else set())
            for code in candidates:
                kept = list(after)
                kept[colour] -= 1
                out.add((tuple(kept), tuple(sorted((*held, code)))))  # type: ignore[arg-type]
    return frozenset(out)


def _classes(
    card: _Card, pool: Pool, held: Held
) -> list[tuple[Fraction, tuple[tuple[int, ...], ...], tuple[int, ...]]]:
    """The outcomes of rolling `pool`, summed by the choices they allow: per task, where completing it leads
    (empty if the roll does not meet it), and where failing leads (as leftover ids).

    The yellow and red dice and the held ones are the outer loop; for each of their outcomes the green
    outcomes are the inner one, so what depends only on the outer dice is worked out once.
    """
    found = card.classes.get((pool, held))
    if found is not None:
        return found
    can_hold = len(held) < card.holds
    greens = _capped(card, 0, pool[0])
    groups: dict[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], int] = {}
    needs = card.needs
    for (ys, wy), (rs, wr) in itertools.product(_capped(card, 1, pool[1]), _capped(card, 2, pool[2])):
        others = (*((1, c) for c in ys), *((2, c) for c in rs), *((3, c) for c in held))
        masks = _masks(others)
        plans = [_plan(need, others) for need in needs]
        leads_of: dict[tuple[int, int], int] = {}
        fails_of: dict[tuple[int, frozenset[int]], tuple[int, ...]] = {}
        outer = wy * wr
        for gs, wg in greens:
            per_task: list[tuple[int, ...]] = []
            for need, plan in zip(needs, plans):
                if _greens_needed(need, gs, plan[-1][1]) is None:
                    per_task.append(())
                    continue
                ways: list[tuple[int, int]] = []
                for mask, summary in plan:
                    n = _greens_needed(need, gs, summary)
                    if n is None or any(m2 & mask == m2 and n2 <= n for m2, n2 in ways):
                        continue
                    ways.append((mask, n))
                leads = set()
                for mask, n in ways:
                    lead = leads_of.get((mask, n))
                    if lead is None:
                        _, _, (uy, ur), uh = masks[mask]
                        lead = leads_of[(mask, n)] = card.id(
                            ((pool[0] - n, pool[1] - uy, pool[2] - ur), _minus(held, uh))
                        )
                    leads.add(lead)
                per_task.append(tuple(sorted(leads)))
            shape = (min(len(gs), 2), frozenset(gs))
            fails = fails_of.get(shape)
            if fails is None:
                fails = fails_of[shape] = tuple(
                    sorted(card.id(lo) for lo in _fails((gs, ys, rs), pool, held, can_hold))
                )
            key = (tuple(per_task), fails)
            groups[key] = groups.get(key, 0) + wg * outer
    scale = Fraction(1, 6 ** sum(pool))
    merged: dict[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], int] = {}
    for (tasks_leads, fail_leads), weight in groups.items():
        key = (tuple(_undominated(card, leads) for leads in tasks_leads), _undominated(card, fail_leads))
        merged[key] = merged.get(key, 0) + weight
    result = [(weight * scale, tasks_leads, fail_leads) for (tasks_leads, fail_leads), weight in merged.items()]
    card.classes[(pool, held)] = result
    return result


@cache
def _capped(card: _Card, colour: int, n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The outcomes of `n` dice of one colour with the faces beyond what a task can use blanked (see
    `_outcomes`), merged, with integer weights (chance times 6**n)."""
    merged: dict[tuple[int, ...], int] = {}
    for faces, weight in _colour_outcomes(card.dists[colour], n):
        key = _cap(faces, card.caps)
        merged[key] = merged.get(key, 0) + weight
    return tuple(merged.items())


def _dominates(terror: bool, a: Pool, b: Pool) -> bool:
    """True when free dice `a` are at least as good as `b` for every roll to come: each die of `b` can be
    matched with a die of `a` whose faces are as good side by side. A red die is as good as a yellow or a
    green one (wild for 1 investigation, 4 for terror, the rest alike); a yellow die is as good as a green
    one unless a task needs terror (yellow has 4 investigation where green has terror)."""
    ga, ya, ra = a
    gb, yb, rb = b
    if ra < rb or ra + ya + ga < rb + yb + gb:
        return False
    if terror:
        return ra + ya >= rb + yb and ra + ga >= rb + gb
    return ra + ya >= rb + yb


def _undominated(card: _Card, leads: tuple[int, ...]) -> tuple[int, ...]:
    """The leftovers of `leads` that no other one with the same held dice dominates (the best play never
    needs them)."""
    if len(leads) < 2:
        return leads
    known = card.undominated.get(leads)
    if known is not None:
        return known
    terror = card.shape[3]
    states = [card.leftovers[i] for i in leads]
    keep = []
    for i, (pool, held) in enumerate(states):
        beaten = False
        for j, (other, other_held) in enumerate(states):
            if j == i or other_held != held or not _dominates(terror, other, pool):
                continue
            if other != pool or j < i:  # equal states: keep the first only
                beaten = True
                break
        if not beaten:
            keep.append(leads[i])
    result = card.undominated[leads] = tuple(keep)
    return result


def _value(card: _Card, tasks: tuple[int, ...], pool: Pool, held: Held, clues: int, rolls: int) -> Fraction:
    """V(tasks left, free dice, held faces, clues, rolls): see the module's docstring."""
    return _value_of(card, tasks, card.id((pool, held)), clues, rolls)[0]


Valued = tuple[Fraction, float]  # the exact value, and the same as a float to compare quickly
_CLOSE = 1e-9  # floats closer than this are compared exactly


def _value_of(card: _Card, tasks: tuple[int, ...], state: int, clues: int, rolls: int) -> Valued:
    table = card.memo.get((tasks, clues, rolls))
    if table is None:
        table = card.memo[(tasks, clues, rolls)] = []
    if state < len(table):
        known = table[state]
        if known is not None:
            return known
    else:
        table.extend([None] * (len(card.leftovers) - len(table)))
    pool, held = card.leftovers[state]
    exact = _work_out(card, tasks, pool, held, clues, rolls)
    value = (exact, float(exact))
    if state >= len(table):
        table.extend([None] * (state + 1 - len(table)))
    table[state] = value
    return value


def _work_out(card: _Card, tasks: tuple[int, ...], pool: Pool, held: Held, clues: int, rolls: int) -> Fraction:
    """The sum over the outcome classes of their chance times the best choice. The choices are compared as
    floats, and exactly whenever two floats are too close to tell apart, so the maximum is exact."""
    if not tasks:
        return Fraction(1)
    if rolls == 0:
        return Fraction(0)
    if sum(pool) == 0 and not any(_covers(card.needs[t], held) for t in tasks):
        return Fraction(0)
    after = rolls - 1 if rolls > 0 else -1
    open_tasks = tasks[:1] if card.ordered else tasks
    rests = {t: tuple(x for x in tasks if x != t) for t in open_tasks}
    reroll: Valued = (Fraction(0), 0.0)
    if clues > 0 and sum(pool) > 0:
        reroll = _value_of(card, tasks, card.id((pool, held)), clues - 1, rolls)
    total = Fraction(0)
    for chance, per_task, fails in _classes(card, pool, held):
        best, fbest = reroll
        for t in open_tasks:
            for lead in per_task[t]:
                v, fv = _value_of(card, rests[t], lead, clues, after)
                if fv > fbest + _CLOSE or (fv > fbest - _CLOSE and v > best):
                    best, fbest = v, fv
            if fbest >= 1.0 and best == 1:
                break
        if best < 1:
            for lead in fails:
                v, fv = _value_of(card, tasks, lead, clues, after)
                if fv > fbest + _CLOSE or (fv > fbest - _CLOSE and v > best):
                    best, fbest = v, fv
        total += chance * best
    return total
