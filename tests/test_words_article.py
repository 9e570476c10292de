"""The indefinite article every game's sentences take from companion.words (one place): "an 8 on a 9"."""

from __future__ import annotations

import pytest

from companion.games.spooks.engine import follow
from companion.games.spooks.sentences import suit_rule
from companion.words import a_or_an, article


@pytest.mark.parametrize(
    ("word", "said"),
    [
        ("8", "an"),  # eight
        ("9", "a"),
        ("1", "a"),  # one
        ("10", "a"),
        ("11", "an"),  # eleven
        ("18", "an"),  # eighteen
        ("80", "an"),
        ("180", "a"),  # a hundred and eighty
        ("800", "an"),
        ("8000", "an"),  # eight thousand
        ("11000", "an"),  # eleven thousand
        ("100", "a"),
        ("eye", "an"),
        ("unlock", "an"),
        ("Master", "a"),
        ("one", "a"),
        ("unique item", "a"),
        ("hour", "an"),
        ("search", "a"),
    ],
)
def test_the_article_goes_by_how_the_word_is_said(word: str, said: str) -> None:
    assert article(word) == said
    assert a_or_an(word) == f"{said} {word}"


def test_spooks_runs_say_an_8() -> None:
    """Found by a new player: "a 8 on a 9" read on the page (runs going backward from a 9 of Spooks)."""
    down = suit_rule(follow("spooks", "9", backward=True))[0]
    assert "an 8 on a 9" in down
    up = suit_rule(follow("spiders", "7"))[0]
    assert "an 8 on a 7" in up
    assert " a 8" not in down + up
