"""Properties of icon sets, pip maps, odds and attempts, checked with Hypothesis (issue 3)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.skeptics.dice import Attempt, DieKind, Face, PipMap, Requirement, success_fraction
from companion.games.skeptics.dice.odds import keep_all_fraction

CLUE_ICONS = (Face.EYE, Face.CAMERA, Face.COBWEB)


@st.composite
def requirements(draw: st.DrawFn, max_size: int = 5) -> Requirement:
    if draw(st.booleans()):
        counts = draw(st.tuples(*(st.integers(0, 3) for _ in CLUE_ICONS)).filter(lambda c: 1 <= sum(c) <= max_size))
        need = {face: n for face, n in zip(CLUE_ICONS, counts) if n}
    else:
        need = {Face.KEY: draw(st.integers(1, max_size))}
    return Requirement.of(need, timer=draw(st.booleans()), disruption=draw(st.booleans()))


@given(requirements())
def test_text_round_trip(req: Requirement) -> None:
    assert Requirement.parse(str(req)) == req
    assert Requirement.parse(req.describe()) == req
    assert str(Requirement.parse(str(req))) == str(req)


@given(requirements(max_size=4), st.integers(1, 3))
@settings(max_examples=60, deadline=None)
def test_more_dice_never_hurt(req: Requirement, rolls: int) -> None:
    for dice in range(req.size, 5):
        assert success_fraction(req, dice + 1, rolls) >= success_fraction(req, dice, rolls)


@given(requirements(), st.integers(3, 5))
@settings(max_examples=60, deadline=None)
def test_more_rolls_never_hurt(req: Requirement, dice: int) -> None:
    values = [success_fraction(req, dice, rolls) for rolls in range(4)]
    assert values == sorted(values)
    assert all(0 <= v <= 1 for v in values)


@given(requirements(), st.integers(3, 5), st.integers(1, 3))
@settings(max_examples=60, deadline=None)
def test_keeping_never_hurts_and_best_play_beats_keeping_everything(req: Requirement, dice: int, rolls: int) -> None:
    plain = Requirement.of(req.need)  # without the red icons, so keeping is allowed
    best = success_fraction(plain, dice, rolls, keep=True)
    assert best >= success_fraction(plain, dice, rolls, keep=False)
    assert best >= keep_all_fraction(plain, dice, rolls)
    # With one roll there is nothing to keep.
    assert success_fraction(plain, dice, 1, keep=True) == success_fraction(plain, dice, 1, keep=False)


@given(requirements(), st.integers(3, 5), st.integers(1, 3), st.data())
@settings(max_examples=60, deadline=None)
def test_fewer_icons_are_easier(req: Requirement, dice: int, rolls: int, data: st.DataObject) -> None:
    face = data.draw(st.sampled_from([f for f, _ in req.need]))
    smaller = req.without([face])
    if smaller is not None:
        assert success_fraction(smaller, dice, rolls) >= success_fraction(req, dice, rolls)


@given(st.permutations(list(PipMap.default().tables[DieKind.CLUE])))
def test_any_arrangement_of_the_real_faces_is_a_valid_pip_map(faces: list[Face]) -> None:
    data = {"clue": {f.value: [pip for pip, g in enumerate(faces, 1) if g is f] for f in set(faces)}}
    pips = PipMap.from_dict(data)
    assert list(pips.faces(DieKind.CLUE, range(1, 7))) == faces
    assert PipMap.from_dict(pips.to_dict()) == pips


@given(requirements(), st.integers(0, 2), st.randoms(use_true_random=False), st.integers(1, 4))
@settings(max_examples=80, deadline=None)
def test_attempt_invariants(req: Requirement, extra: int, rng: random.Random, rolls: int) -> None:
    kind = req.kind
    dice = min(req.size + extra, kind.max_dice)
    sides = [face for face, n in kind.sides.items() for _ in range(n)]
    attempt = Attempt.start("search" if kind is DieKind.CLUE else "unlock", req, dice=dice)
    failures = 0
    for _ in range(rolls):
        faces = [rng.choice(sides) for _ in range(attempt.dice_to_roll)]
        before = attempt
        attempt, out = attempt.roll(faces)
        assert attempt.dice_to_roll == dice - len(attempt.kept)
        left = req.missing(attempt.kept)
        assert all(attempt.kept.count(face) + left.get(face, 0) == n for face, n in req.need)
        # Kept dice always count toward the set: never more of an icon than it asks for.
        assert all(attempt.kept.count(face) <= n for face, n in req.need)
        assert set(attempt.kept) <= {face for face, _ in req.need}
        assert out.success == req.satisfied_by(before.kept + out.faces)
        if req.disruption and not out.success:
            assert attempt.kept == ()
        if not out.success:
            failures += 1
            assert out.timer == req.timer
        else:
            assert req.satisfied_by(attempt.kept) and attempt.succeeded
            break
    assert attempt.timers == (failures if req.timer else 0)
    assert Attempt.from_dict(attempt.to_dict()) == attempt
