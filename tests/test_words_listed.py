"""The list every game's sentences say from companion.words (one place): "Ada, Bo and Cy"."""

from __future__ import annotations

from companion.games.among_cultists.sentences import NO_NAMES as AC_NAMES
from companion.games.among_cultists.sentences import end_summary
from companion.words import count, listed


def test_a_list_is_said_with_and_before_the_last_and_no_comma_before_it() -> None:
    assert listed(["Ada"]) == "Ada"
    assert listed(["Ada", "Bo"]) == "Ada and Bo"
    assert listed(("Ada", "Bo", "Cy")) == "Ada, Bo and Cy"
    assert listed([]) == "" and listed([], "nobody") == "nobody"


def test_a_count_says_one_or_many() -> None:
    assert count(1, "clue") == "1 clue" and count(2, "clue") == "2 clues" and count(3, "die", "dice") == "3 dice"


def test_a_game_says_its_lists_that_way() -> None:
    view = {"outcome": "won", "points": 5, "points_needed": 5, "round": 2, "rounds": 5, "eliminated": []}
    assert "Voted out: nobody." in end_summary(view, AC_NAMES)["lines"]
    lines = end_summary({**view, "eliminated": [1, 3], "found_dead": [2, 4, 5]}, AC_NAMES)["lines"]
    assert "Voted out: Player 1 and Player 3." in lines and "Found dead: Player 2, Player 4 and Player 5." in lines
