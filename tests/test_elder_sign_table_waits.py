"""What a player's phone says while the table waits for the host to tell a card question (sentences.table_waits_words,
published as table_waits), and whose a terror's or a penalty's sanity and stamina are (sentences.whose_words, in the
host's question too): one sentence for every card question (elder-sign-rules.txt:202-211, :219, :323)."""

from __future__ import annotations

import pytest

from companion.games.elder_sign.sentences import Names, describe_event, table_waits_words

NAMES = Names(("Ada", "Ben", "Cleo"))


@pytest.mark.parametrize(
    ("question", "words"),
    [
        (
            {"kind": "mythos", "part": "at_midnight", "player": None},
            "The table waits for the host to tell the companion what the Mythos card did at midnight, from the real "
            "card. Ben's turn goes on after it.",
        ),
        (
            {"kind": "adventure", "part": "penalty", "player": 0, "slot": "2"},
            "The table waits for the host to tell the companion what the adventure in place 2 did as its penalty, from "
            "the real card. Whatever sanity or stamina it costs is Ada's, who failed the card. Ben's turn goes on "
            "after it.",
        ),
        (
            {"kind": "mythos", "part": "terror", "player": 1},  # the Mythos card's terror (:202) is the roller's too
            "The table waits for the host to tell the companion what the Mythos card did on the terror, from the real "
            "card. Whatever sanity or stamina it costs is Ben's, whose roll showed the terror. The rolls go on after it.",
        ),
    ],
)
def test_the_table_waits_for_what_the_host_tells_and_whose_it_is(question: dict[str, object], words: str) -> None:
    assert table_waits_words({"type": "card_asked", **question}, NAMES, 1) == words


def test_the_host_question_of_a_terror_names_whose_it_is_and_a_reward_names_no_one_twice() -> None:
    terror = describe_event(
        {"type": "card_asked", "kind": "adventure", "part": "terror", "player": 2, "slot": "1"}, NAMES
    )
    assert terror.endswith(
        "on the terror? Whatever sanity or stamina it costs is Cleo's, whose roll showed the terror."
    )
    reward = describe_event(
        {"type": "card_asked", "kind": "adventure", "part": "reward", "player": 2, "slot": "1"}, NAMES
    )
    assert "Whatever" not in reward


def test_the_ancient_ones_attack_is_no_card_the_table_waits_for() -> None:
    assert table_waits_words({"type": "card_asked", "kind": "attack", "part": "attack", "player": 0}, NAMES, 0) == ""
