"""A fresh player's findings in Skeptics' words (session 34, g34): the end-round warning lists the players as
English does, the toasts say each thing once, the evidence tokens are the table's in every setup, a stand-in
environment card is not named as the real one, and an unlocked door tells of the free move."""

from __future__ import annotations

from companion.games.skeptics.sentences import (
    Names,
    announcement,
    describe_event,
    end_round_warning,
    setup_checklist,
)
from companion.words import listed


def toast_words(banner: dict[str, str]) -> str:
    """As the page's toast shows it (web/static/app.js: the title, then the text unless it starts with it)."""
    return banner["text"] if banner["text"].startswith(banner["title"]) else banner["title"] + ": " + banner["text"]


def test_the_end_round_warning_lists_who_has_not_played_with_commas() -> None:
    view = {"player_names": ["Ada", "Ben", "Cy", "Di"], "current_player": 0, "actions_left": 0}
    words = end_round_warning(view)
    assert f"{listed(['Ben', 'Cy', 'Di'])} have not played this round yet." in words
    assert "Ben, Cy and Di" in words and "Ben and Cy and" not in words
    one = end_round_warning({"player_names": ["Ada", "Ben"], "current_player": 0, "actions_left": 2})
    assert one.startswith("Ada still has 2 actions.") and "Ben has not played" in one
    assert end_round_warning({"player_names": ["Ada", "Ben"], "current_player": 1, "actions_left": 0}) == ""


def test_the_failed_summon_toast_has_no_capital_after_its_colon() -> None:
    banner = announcement({"type": "summon", "success": False})
    assert banner is not None
    said = toast_words(banner)
    assert said.count("Summon failed") == 1
    head, _, rest = said.partition(": ")
    assert rest[:1].islower(), said


def test_the_proven_toast_says_proven_once() -> None:
    banner = announcement({"type": "set_proven", "index": 1, "need": "eye:2,camera:1"})
    assert banner is not None
    said = toast_words(banner)
    assert said.lower().count("icon set") == 1 and said.lower().count("proven") == 1, said
    assert "set 1" in said


def test_the_evidence_tokens_are_shuffled_at_the_table_in_every_setup() -> None:
    """Setup, Evidence Tokens (skeptics-rulebook.txt:76) and a solved clue's "flips over one of the seven face-down
    Evidence Tokens" (:174): the table's tokens, whether the companion draws the decks or not."""
    for physical in (False, True):
        steps = setup_checklist({"physical": physical, "players": 2})
        texts = " ".join(step["text"] for step in steps)
        assert "Shuffle the seven evidence tokens face down beside the ghost card." in texts
        assert "draws the room cards, the environment cards and the evidence tokens" not in texts
        assert "companion" not in next(s["text"] for s in steps if s["id"] == "evidence")


def test_a_stand_in_environment_card_is_the_real_decks_top_card() -> None:
    said = describe_event({"type": "environment_drawn", "card": "common-7", "name": "Common card 7", "stand_in": True})
    assert "draw the top card of the real environment deck" in said
    assert "Common card 7" not in said and "common-7" not in said


def test_an_unlocked_door_tells_of_the_free_move() -> None:
    """Action 2: Unlock: "The player may then move into the next space without spending an action" (:125); "Moving
    for free may only be done immediately after unlocking a door" (:126)."""
    said = describe_event({"type": "door_unlocked", "door": "17-18", "relocks": False}, Names())
    assert "is unlocked" in said
    assert "without spending an action" in said and "straight after" in said
