"""An attempt refused at its start says so in the phone's words: no icon-set spelling ("eye:2") and no quoted
Python values reach a player (the refusal walk's rule, tests/test_refusal_words.py)."""

from __future__ import annotations

import re

import pytest

from companion.errors import DiceError
from companion.games.skeptics.dice.attempt import Attempt

SPELLING = re.compile(r"[a-z]+:\d|'")


@pytest.mark.parametrize(
    ("action", "need", "dice"), [("search", "key:1", 2), ("search", "eye:1", 9), ("unlock", "eye:2", 2)]
)
def test_a_refused_start_names_the_icons_in_words(action: str, need: str, dice: int) -> None:
    with pytest.raises(DiceError) as refused:
        Attempt.start(action, need, dice)
    text = str(refused.value)
    assert not SPELLING.search(text), text
    assert str(dice) in text or "dice" in text
