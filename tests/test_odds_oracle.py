"""The exact odds checked two independent ways (issue 3, "Done when").

1. An exhaustive expectimax written here from the rules, sharing no code with companion.games.skeptics.dice.odds:
   it tracks the actual faces set aside, may keep ANY of the dice just rolled (even faces the set
   does not ask for), and stops on success. It must agree exactly with the dynamic programme,
   which keeps only faces that count and lumps unneeded faces together.
2. A large seeded Monte Carlo simulation (numpy) of the same keep rules -- the best play (its
   choices taken from the expectimax of 1), keeping every counting die, and Disruption (keeping
   nothing) -- for 36 requirements; every estimate must lie within four standard errors.

Rules: "Action 2: Unlock", "Action 3: Search" (keep dice, reroll the others), "Red Icons" (Disruption).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from companion.games.skeptics.dice import Requirement, success_fraction
from companion.games.skeptics.dice.odds import keep_all_fraction

# The dice, written out side by side as printed on them ("Action 3: Search" note, "Action 2: Unlock" note).
SIDES = {
    "clue": ("eye", "eye", "eye", "camera", "camera", "cobweb"),
    "key": ("key", "key", "key", "blank", "blank", "blank"),
}

Counts = tuple[int, ...]


class Oracle:
    """Exact best-play chances by brute force over what is set aside (faces as count vectors)."""

    def __init__(self, need: dict[str, int], sides: tuple[str, ...], dice: int) -> None:
        self.faces = tuple(sorted(set(sides)))
        self.chance = tuple(Fraction(sides.count(face), len(sides)) for face in self.faces)
        self.need = tuple(need.get(face, 0) for face in self.faces)
        self.dice = dice
        self.value = cache(self._value)
        self.outcomes = cache(self._outcomes)

    def covers(self, showing: Counts) -> bool:
        return all(have >= want for have, want in zip(showing, self.need))

    def _outcomes(self, free: int) -> list[tuple[Counts, Fraction]]:
        result = []
        for combo in itertools.combinations_with_replacement(range(len(self.faces)), free):
            counts = tuple(combo.count(i) for i in range(len(self.faces)))
            ways = math.factorial(free)
            chance = Fraction(1)
            for count, p in zip(counts, self.chance):
                ways //= math.factorial(count)
                chance *= p**count
            result.append((counts, ways * chance))
        return result

    def subsets(self, counts: Counts) -> list[Counts]:
        return list(itertools.product(*(range(c + 1) for c in counts)))

    def _value(self, kept: Counts, rolls: int) -> Fraction:
        free = self.dice - sum(kept)
        total = Fraction(0)
        for counts, chance in self.outcomes(free):
            showing = tuple(k + c for k, c in zip(kept, counts))
            if self.covers(showing):
                total += chance
            elif rolls > 1:
                total += chance * max(
                    self.value(tuple(k + s for k, s in zip(kept, sub)), rolls - 1) for sub in self.subsets(counts)
                )
        return total

    def best_keep(self, kept: Counts, counts: Counts, rolls_after: int) -> Counts:
        return max(
            self.subsets(counts), key=lambda sub: self.value(tuple(k + s for k, s in zip(kept, sub)), rolls_after)
        )


def _need(req: Requirement) -> dict[str, int]:
    return {face.value: count for face, count in req.need}


def _all_requirements() -> list[Requirement]:
    reqs = []
    for eye, camera, cobweb in itertools.product(range(6), repeat=3):
        if 1 <= eye + camera + cobweb <= 4:
            counts = {"eye": eye, "camera": camera, "cobweb": cobweb}
            reqs.append(Requirement.of({face: n for face, n in counts.items() if n}))
    reqs += [Requirement.of({"key": k}) for k in range(1, 5)]
    return reqs


@pytest.mark.parametrize("req", _all_requirements(), ids=str)
def test_dynamic_programme_equals_brute_force_up_to_four_dice(req: Requirement) -> None:
    """Every icon set of up to four icons, every dice count it fits up to four, one to three rolls."""
    for dice in range(req.size, 5):
        oracle = Oracle(_need(req), SIDES[req.kind.value], dice)
        for rolls in (1, 2, 3):
            assert success_fraction(req, dice, rolls) == oracle.value((0,) * len(oracle.faces), rolls), (dice, rolls)


@pytest.mark.parametrize("text", ["eye:2,camera:1,cobweb:1", "eye:1,camera:1", "cobweb:2,camera:1", "key:4", "eye:5"])
def test_dynamic_programme_equals_brute_force_with_five_dice(text: str) -> None:
    req = Requirement.parse(text)
    oracle = Oracle(_need(req), SIDES[req.kind.value], 5)
    for rolls in (1, 2, 3):
        assert success_fraction(req, 5, rolls) == oracle.value((0,) * len(oracle.faces), rolls)


# -- Monte Carlo ----------------------------------------------------------------------------------

Policy = Callable[[Counts, Counts, int], Counts]  # (kept, rolled counts, rolls after) -> counts to add


def simulate(
    need: dict[str, int], sides: tuple[str, ...], dice: int, rolls: int, policy: Policy, trials: int, seed: int
) -> float:
    """Play `trials` attempts at once with numpy; returns the share that succeeded."""
    rng = np.random.default_rng(seed)
    faces = sorted(set(sides))
    side_face = np.array([faces.index(side) for side in sides])
    want = np.array([need.get(face, 0) for face in faces])
    kept = np.zeros((trials, len(faces)), dtype=np.int64)
    done = np.zeros(trials, dtype=bool)
    for left in range(rolls, 0, -1):
        free = dice - kept.sum(axis=1)
        rolled = side_face[rng.integers(0, len(sides), size=(trials, dice))]
        active = np.arange(dice)[None, :] < free[:, None]
        counts = np.stack([((rolled == i) & active).sum(axis=1) for i in range(len(faces))], axis=1)
        done |= ((kept + counts) >= want).all(axis=1)
        if left == 1:
            break
        # Group the trials by (kept, rolled) -- a few dozen situations -- and ask the policy once each.
        state = np.concatenate([kept, counts], axis=1)
        codes = state @ (8 ** np.arange(state.shape[1]))
        _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
        add = np.array(
            [
                policy(tuple(map(int, state[i, : len(faces)])), tuple(map(int, state[i, len(faces) :])), left - 1)
                for i in first
            ]
        )
        kept = kept + add[inverse.reshape(-1)] * (~done)[:, None]
    return float(done.mean())


def keep_every_counting_die(need_vec: Counts) -> Policy:
    def policy(kept: Counts, counts: Counts, rolls_after: int) -> Counts:
        return tuple(min(c, max(w - k, 0)) for c, w, k in zip(counts, need_vec, kept))

    return policy


def keep_nothing(kept: Counts, counts: Counts, rolls_after: int) -> Counts:
    return (0,) * len(counts)


# 36 requirements: clue and key sets, with and without Disruption, one to three rolls, three to five dice.
CASES = [
    ("eye:1", 3, 1),
    ("eye:2", 3, 2),
    ("eye:2,camera:1", 3, 3),
    ("eye:1,camera:1", 3, 2),
    ("eye:1,camera:1,cobweb:1", 3, 3),
    ("cobweb:1", 3, 3),
    ("camera:2", 3, 2),
    ("eye:3", 3, 3),
    ("eye:1,cobweb:1", 4, 2),
    ("eye:2,camera:1,cobweb:1", 4, 3),
    ("camera:2,cobweb:1", 4, 3),
    ("eye:1,camera:2", 4, 2),
    ("eye:1,cobweb:2", 4, 3),
    ("eye:4", 4, 3),
    ("camera:1,cobweb:1", 4, 1),
    ("eye:2,camera:1,cobweb:1", 5, 3),
    ("eye:1,camera:1,cobweb:2", 5, 3),
    ("eye:2,camera:2,cobweb:1", 5, 3),
    ("eye:3,camera:2", 5, 2),
    ("cobweb:3", 5, 3),
    ("eye:1,camera:3", 5, 3),
    ("eye:5", 5, 3),
    ("key:1", 3, 1),
    ("key:2", 3, 2),
    ("key:3", 3, 3),
    ("key:3", 4, 3),
    ("key:4", 5, 3),
    ("key:2", 5, 1),
    ("eye:1,camera:1,disruption", 3, 3),
    ("eye:2,camera:1,disruption", 3, 3),
    ("eye:1,cobweb:1,disruption", 4, 2),
    ("eye:2,camera:1,cobweb:1,disruption", 5, 3),
    ("key:3,disruption", 3, 3),
    ("key:2,disruption", 4, 2),
    ("cobweb:1,timer", 3, 3),
    ("eye:2,camera:1,timer", 4, 2),
]
TRIALS = 100_000


def _within(estimate: float, exact: Fraction, trials: int) -> bool:
    p = float(exact)
    error = math.sqrt(p * (1 - p) / trials)
    return abs(estimate - p) <= 4 * error + 1e-12


def test_there_are_at_least_thirty_cases() -> None:
    kinds = {Requirement.parse(text).kind for text, _, _ in CASES}
    assert len(CASES) >= 30 and len(kinds) == 2
    assert {dice for _, dice, _ in CASES} == {3, 4, 5} and {rolls for _, _, rolls in CASES} == {1, 2, 3}
    assert any(Requirement.parse(text).disruption for text, _, _ in CASES)


@pytest.mark.parametrize(("text", "dice", "rolls"), CASES)
def test_simulation_of_best_play_agrees(text: str, dice: int, rolls: int) -> None:
    req = Requirement.parse(text)
    sides = SIDES[req.kind.value]
    seed = sum(map(ord, text)) * 100 + dice * 10 + rolls
    if req.disruption:
        estimate = simulate(_need(req), sides, dice, rolls, keep_nothing, TRIALS, seed)
    else:
        oracle = Oracle(_need(req), sides, dice)
        estimate = simulate(_need(req), sides, dice, rolls, oracle.best_keep, TRIALS, seed)
    assert _within(estimate, success_fraction(req, dice, rolls), TRIALS), (
        estimate,
        float(success_fraction(req, dice, rolls)),
    )


@pytest.mark.parametrize(("text", "dice", "rolls"), [case for case in CASES if "disruption" not in case[0]][::2])
def test_simulation_of_keeping_every_counting_die_agrees(text: str, dice: int, rolls: int) -> None:
    req = Requirement.parse(text)
    sides = SIDES[req.kind.value]
    need = _need(req)
    policy = keep_every_counting_die(tuple(need.get(face, 0) for face in sorted(set(sides))))
    estimate = simulate(need, sides, dice, rolls, policy, TRIALS, seed=dice * 1000 + rolls)
    assert _within(estimate, keep_all_fraction(req, dice, rolls), TRIALS)


def test_simulation_tells_best_play_from_keeping_everything() -> None:
    """The check has teeth: where best play and "keep every counting die" differ by more than
    eight standard errors, the keep-all simulation falls outside the best-play band."""
    req = Requirement.parse("eye:1,camera:1,cobweb:2")
    need, sides = _need(req), SIDES["clue"]
    policy = keep_every_counting_die(tuple(need.get(face, 0) for face in sorted(set(sides))))
    estimate = simulate(need, sides, 5, 3, policy, TRIALS, seed=11)
    assert not _within(estimate, success_fraction(req, 5, 3), TRIALS)
    assert _within(estimate, keep_all_fraction(req, 5, 3), TRIALS)
