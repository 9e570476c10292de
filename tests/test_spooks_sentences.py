"""Spooks' sentences: every event in words, banners at the big moments, what may be played on the top card, and
refusals in the page's words (no key=value, no command name). Fragments of the rules text are cited «so»."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.errors import BadCommand, IllegalCommand
from companion.games.spooks import sentences
from companion.games.spooks.engine import COMMANDS, Game, Setup, follow
from companion.games.spooks.module import MODULE
from companion.games.spooks.sentences import (
    Names,
    action_label,
    announcement,
    command_sentence,
    describe_event,
    end_summary,
    for_players,
    master_rule,
    suit_rule,
    top_rule,
)

ENGINE = Path(sentences.__file__).with_name("engine.py")
EMITTED = sorted(set(re.findall(r'emit\(\s*"([a-z_]+)"', ENGINE.read_text(encoding="utf-8"))))
FALLBACK = describe_event({"type": "no_such_event"})
SPELLINGS = re.compile(r"\b[a-z_]+=|^(?:" + "|".join(COMMANDS) + r"):|\bseat \d+ \(|«")
NAMES = Names(("Ada", "Bo", "Cy", "Di", "Ed"))

PLAYED = [
    "top suit=spiders number=8",
    "master suit=bones seat=2",
    "master suit=bats",
    "master suit=spooks seat=1",
    "master suit=goblins",
    "master suit=spiders",
    "top suit=cat",
    "hand cards=5+9+M;;cat+10;1;2",
    "end",
    "master suit=bones",
    "hand points=0,30,40,199,50",
    "master suit=bones",
    "master suit=bones",
    "hand points=10,0,100,-,30",
    "hand points=0,5,10,-,120",
    "hand points=3,0,10",
]


def played() -> tuple[Game, list[dict[str, object]]]:
    game = Game.new(Setup(players=5, names=NAMES.players, variant="long", master_effects=True, decks=2), None)
    events: list[dict[str, object]] = []
    for text in PLAYED:
        events += game.push(text)
    return game, events


def test_every_event_the_engine_emits_has_its_own_sentence() -> None:
    assert len(EMITTED) >= 9
    for kind in EMITTED:
        text = describe_event(
            {
                "type": kind,
                "seat": 1,
                "winners": [1],
                "points": [0, 3],
                "scores": [0, 3],
                "winner": 1,
                "suit": "bones",
                "dealer": 2,
                "hand": 2,
            },
            NAMES,
        )
        assert text != FALLBACK, kind
        assert text[0].isupper() and text[-1] in ".!?", (kind, text)


def test_a_played_game_is_told_in_plain_words_with_the_tables_names() -> None:
    game, events = played()
    assert game.view()["winner"] == 2 and game.view()["out"] == [4, 5]
    kinds = {e["type"] for e in events}
    assert set(EMITTED) <= kinds  # this game emits every kind of event
    said = MODULE.describe_events(events, MODULE.names(game))
    for line in said:
        assert not SPELLINGS.search(line), line
    assert (
        "Hand 1: Bo goes out; Ada 34 points (left: 5, 9, Master), Cy 40 points (left: Black Cat, 10), Di 1 point (left: 1), Ed 2 points (left: 2)."
        in said[[e["type"] for e in events].index("hand_scored")]
    )
    assert "Bo plays the Master of Bones." in said
    assert any(line.startswith("Di has 200 points, 200 or more: grabbed by the monsters") for line in said)
    assert "Di drops out of the game with 200; 4 players are left." in said
    assert "Ed drops out of the game with 202; 3 players are left." in said
    assert said[-1] == "Bo has the lowest score, 35, and is first out the door: Bo wins!"


def test_a_master_with_an_effect_that_happens_once_is_said_with_its_effect() -> None:
    # «Everyone passes a card to the right»; reversed, «the Master of Spooks makes you hand cards to the left»
    game = Game.new(Setup(players=3, names=("Ada", "Bo", "Cy"), master_effects=True), None)
    names = Names.of_game(game)
    line = describe_event(game.push("master suit=spooks seat=1")[0], names)
    assert line.startswith("Ada plays the Master of Spooks: everyone picks a card") and line.endswith("on his right.")
    game.push("master suit=bones")
    game.push("top suit=spiders number=2")
    assert describe_event(game.push("master suit=spiders")[0], names).startswith(
        "A player plays the Master of Spiders: the Master of Spiders may be laid on any Spider"
    )
    assert master_rule("spooks", reversed_=True).endswith("on his left.")
    # «gives it to the opponent with the cards» (a word lost: fewest)
    assert "fewest cards" in master_rule("goblins")


def test_the_banners_are_the_big_moments_only() -> None:
    game, events = played()
    banners = [announcement(e, NAMES) for e in events]
    kinds = [b["kind"] for b in banners if b is not None]
    assert {"grabbed", "out", "won", "direction", "runs"} == set(kinds)
    assert kinds[-1] == "won"
    for event, banner in zip(events, banners):
        if event["type"] in ("hand_scored", "deal_passed", "top_set", "master_played", "hand_given_up"):
            assert banner is None, event
        if event["type"] in ("direction_changed", "runs_changed") and event["why"] == "new hand":
            assert banner is None, event
    backward = next(b for b, e in zip(banners, events) if e["type"] == "runs_changed" and e["backward"])
    assert backward is not None and backward["title"] == "Runs go backward"


def test_what_may_follow_each_top_card_in_words() -> None:
    # «Next number in sequence»: up, or down while the runs go backward
    assert suit_rule(follow("spiders", "8"))[0] == "Spiders: the next number up, in any suit: a 9 on an 8."
    assert suit_rule(follow("spooks", "8", backward=True))[0] == (
        "Spooks: the next number down, in any suit: a 7 on an 8 (runs go backward)."
    )
    assert suit_rule(follow("spooks", "10"))[0].endswith("a Master on a 10.")
    assert suit_rule(follow("spiders", "M"))[0] == "Spiders: nothing follows the Master of Spiders in sequence."
    assert any("any Spider" in s for s in suit_rule(follow("spiders", "3"), master_effects=True))
    assert not any("any Spider" in s for s in suit_rule(follow("spiders", "3")))
    # «play a trick», the Cat «wins the trick automatically», ties «play another trick»
    trick = suit_rule(follow("goblins", "4"))[0]
    assert "highest Goblin" in trick and "Black Cat takes it outright" in trick and "another trick" in trick
    assert "lowest Goblin" in suit_rule(follow("goblins", "4", backward=True))[0]
    assert any("no effect" in s for s in suit_rule(follow("goblins", "4"), master_effects=True))
    # «Play the number OR the same suit», and what happens to whoever cannot
    bones = suit_rule(follow("bones", "6"))
    assert bones[0] == "Bones: a 6 in any suit, or any Bone." and "straight" in bones[1]
    bats = suit_rule(follow("bats", "M"))
    assert bats[0] == "Bats: a Master in any suit, or any Bat." and "going counterclockwise" in bats[1]
    assert (
        "going clockwise" in suit_rule(follow("bats", "2"), reversed_=True)[1]
    )  # «Bat bites go around the table clockwise»
    assert suit_rule(follow("cat", None)) == ["The Black Cat is wild: the next player may play any card at all."]
    assert "1 of Spiders" in suit_rule(follow(None, None))[0]
    assert bones[-1] == "The Black Cat may be played on any card."
    # the page's and the OLED's helper for any card, with the state's backward runs and direction
    assert (
        top_rule("spiders", "8", backward=True)[0]
        == "Spiders: the next number down, in any suit: a 7 on an 8 (runs go backward)."
    )
    assert "going clockwise" in top_rule("bats", "3", reversed_=True)[1]


def test_the_view_says_what_may_be_played_now() -> None:
    game = Game.new(Setup(players=3, master_effects=True), None)
    game.push("master suit=bats")
    game.push("top suit=spiders number=5")
    assert game.view()["may_play"][0] == "Spiders: the next number down, in any suit: a 4 on a 5 (runs go backward)."


def test_every_refusal_reads_without_spellings_on_the_page() -> None:
    game = Game.new(Setup(players=4, names=("Ada", "Bo", "Cy", "Di"), variant="long"), None)
    game.push("hand points=0,1,1,200")
    refused = [
        "hand",
        "hand points=0,1",
        "hand points=0,1,1,0",
        "hand points=0,-,1,-",
        "hand points=0,1,-",
        "hand points=1,1,1",
        "hand points=0,x,1",
        "hand points=0,1,999",
        "hand cards=;cat;cat",
        "hand cards=;k;2",
        "hand points=0,1,1 winner=2",
        "hand points=0,1,1 cards=;1;1",
        "top suit=cat number=3",
        "top suit=bones",
        "top suit=goblins number=12",
        "top suit=ghosts",
        "top",
        "top suit=bats number=1 x=2",
        "master suit=bones",
        "master suit=ghosts",
        "deal",
        "end now=1",
    ]
    seen = 0
    for text in refused:
        with pytest.raises((BadCommand, IllegalCommand)) as err:
            game.push(text)
        said = for_players(str(err.value))
        assert not SPELLINGS.search(said), (text, str(err.value), said)
        assert said[0].isupper() and said.endswith("."), said
        seen += 1
    assert seen == len(refused)
    with pytest.raises(BadCommand) as err:
        game.push("hand points=0,1,1,0")
    assert for_players(str(err.value)).startswith("Di is out of the game; mark it as out")


def test_the_buttons_and_the_history_say_what_they_do_in_words() -> None:
    game = Game.new(Setup(players=3, master_effects=True), None)
    labels = [action_label(a.to_dict(), NAMES) for a in game.legal_actions()]
    assert "Enter the hand's points" in labels and "Count the cards left in each hand" in labels
    assert (
        "The Black Cat is on top" in labels
        and "The Master of Bats was played" in labels
        and "A Goblin is on top" in labels
    )
    assert all("=" not in label and label != "Do it" for label in labels)
    assert command_sentence(game.history[0] if game.history else "top suit=cat", NAMES) == "The top card."
    assert command_sentence({"name": "hand", "args": {}}, NAMES) == "A hand's scores."
    events = game.push("hand points=0,4,5")
    assert command_sentence(None, NAMES, events).startswith("Hand 1: Ada goes out; Bo 4 points, Cy 5 points.")


def test_the_end_card_names_the_winner_and_the_scores_lowest_first() -> None:
    game, _ = played()
    card = MODULE.end_summary(game.view(), MODULE.names(game), 12.0)
    assert card["title"] == "Bo wins" and card["text"] == "Cy reached 200; Bo has the lowest score, 35, and wins."
    assert card["lines"][0] == "Bo: 35" and "Di: 200 (dropped out)" in card["lines"]
    assert card["lines"][-1] == "Hands played: 5."
    shared = end_summary({"winners": [1, 2], "scores": [30, 30, 200], "hands": [[0, 30, 30]]}, Names(("A", "B", "C")))
    assert shared["title"] == "A and B share the win"


def test_a_master_on_top_played_in_a_trick_says_its_effect_does_not_happen() -> None:
    # «If its played during a trick, it has no effect!»
    from companion.games.spooks.sentences import describe_event

    trick = describe_event({"type": "top_set", "suit": "bones", "number": "M", "effect": False})
    assert trick.startswith("On top of the pile: the Master of Bones") and "Goblin trick" in trick
    assert "effect does not happen" in trick
    plain = describe_event({"type": "top_set", "suit": "bones", "number": "9"})
    assert "trick" not in plain and "effect" not in plain


def test_the_setup_checklist_follows_the_text_for_this_table() -> None:
    # «There are 11 cards in each suit» of five suits, and «one BlackCat card»: 56; «simply combine two decks!»;
    # «Shuffle the cards and play each hand as usual»; «The player nearest the dealers leftplays it to start the game»
    one = Game.new(Setup(players=3, names=("Ada", "Bo", "Cy"), dealer=2), None)
    items = {i["id"]: i["text"] for i in MODULE.setup_checklist(one.view(), MODULE.names(one), False)}
    assert list(items) == ["deck", "deal", "start", "ghost", "score"]  # no Masters' effects chosen: no such step
    assert "56 cards" in items["deck"] and "one Black Cat" in items["deck"]
    assert items["deal"].startswith("Bo shuffles") and "3 players" in items["deal"]
    assert "1 of Spiders" in items["start"]
    two = Game.new(Setup(players=4, names=("Ada", "Bo", "Cy", "Di"), decks=2, master_effects=True), None)
    items = {i["id"]: i["text"] for i in MODULE.setup_checklist(two.view(), MODULE.names(two), True)}
    assert "112 cards" in items["deck"] and "two Black Cats" in items["deck"]
    assert "nearest Ada's left" in items["start"]  # two 1s of Spiders: the one nearest the dealer's left
    assert "played normally" in items["masters"] and "Goblin trick" in items["masters"]
    for text in items.values():
        assert not SPELLINGS.search(text) and text[0].isupper() and text.endswith("."), text
