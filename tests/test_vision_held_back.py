"""The held-back part of the training photos (issue 26): a second fixed split, disjoint from the held-out fifth."""

from __future__ import annotations

import pytest

from vision.dataset import SETS, is_fitting, is_held_back, is_held_out, load_set


def test_the_held_back_part_is_a_sixth_of_the_rest_and_apart_from_the_held_out_fifth() -> None:
    names = [f"IMG_{n:05d}.jpg" for n in range(3000)]
    held_back = [n for n in names if is_held_back(n)]
    assert not any(is_held_out(n) for n in held_back)
    rest = [n for n in names if not is_held_out(n)]
    assert 0.13 <= len(held_back) / len(rest) <= 0.21  # one bucket of six
    assert all(is_fitting(n) == (not is_held_out(n) and not is_held_back(n)) for n in names)
    assert [is_held_back(n) for n in names] == [is_held_back(n) for n in names]  # by the name alone


def test_every_set_keeps_photos_back() -> None:
    try:
        sets = {name: load_set(name) for name in SETS}
    except OSError:
        pytest.skip("no dice dataset here")
    if not all(sets.values()):
        pytest.skip("no dice dataset here")
    for name, photos in sets.items():
        back = [p for p in photos if p.held_back]
        assert back and not any(p.held_out for p in back), name
