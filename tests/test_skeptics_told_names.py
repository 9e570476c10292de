"""Two things the table reads in Skeptics: how long an environment card not filled in yet lasts (the host's to say,
never the stand-in's), and a clue card's label in a command's whole story as in its own sentence."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from games import PACKS
from test_rules_audit import card_in_play, to_clock

from companion.history import GameStore
from companion.service import GameService


def _duration(game: object, card: str) -> object:
    return next(c["duration"] for c in game.view()["environment"] if c["id"] == card)  # type: ignore[attr-defined]


def test_a_stand_in_environment_card_lasts_as_long_as_the_host_said_and_not_before() -> None:
    """Environment Cards: a card "may end right away ..., may last for a full hour ..., or may last until the card's
    objectives are met": a stand-in does not say which, so until the host has said ("that was all", tell-card) the
    view says nobody knows yet (None), not the stand-in's own duration; then what the host told."""
    assert PACKS.environment["common3"].placeholder
    told = {"hour": "hour", "nothing": "until_met"}  # docs/rules-engine.md, "Cards not filled in yet"
    for effect, lasts in told.items():
        game = card_in_play("common3")
        assert _duration(game, "common3") is None
        game.push("tell-card effect=actions")  # an effect told, how long not yet
        assert _duration(game, "common3") is None
        game.push(f"tell-card effect={effect}")
        assert _duration(game, "common3") == lasts
    # a card filled in reads its own duration from the pack at once, beside a stand-in still waiting
    game = card_in_play("common3")
    to_clock(game, "IX")
    game.push("end-round room=9 environment=fire")
    assert _duration(game, "fire") == PACKS.environment["fire"].duration
    assert _duration(game, "common3") is None


def test_a_commands_story_names_the_clue_card_as_its_own_sentence_does(tmp_path: Path) -> None:
    """A clue card filled in with a name: the event's "text" and the command's "story" (every event of the command in
    one) both call it by that name, never "Clue card 9"."""
    clues = dict(PACKS.clues)
    clues[9] = replace(clues[9], icon_set="eye:2", name="the torn diary", placeholder=False)
    service = GameService(GameStore(tmp_path / "games.sqlite"), replace(PACKS, clues=clues), rng=random.Random(3))
    try:
        service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 3, "names": ["Ada", "Bo"]})
        records = service.do("reveal-clue", {"card": "9"}).events
        texts = [r["text"] for r in records]
        story = records[0]["story"]
        assert any("the torn diary" in t for t in texts), texts
        assert "the torn diary" in story and "Clue card 9" not in story, story
    finally:
        service.close()


def test_a_stand_in_told_as_the_corpse_is_called_by_what_the_host_told_never_by_its_pack_name() -> None:
    """A stand-in (a pack placeholder) the host told takes "two Actions per turn, excluding Move Actions" (Corpse,
    skeptics-rulebook.txt:289): the count of the actions left, the action's sentence and the refusal call it the
    environment card, as the Corpse; its pack name ("Common card 3") is no card on the table. The action event keeps
    the pack name it always stored (an old game's log reads the same way), and the card's end names no pack name."""
    from test_rules_audit import refused

    from companion.games.skeptics.sentences import Names, actions_left, describe_event

    game = card_in_play("common3")
    game.push("tell-card effect=actions")
    game.push("tell-card effect=nothing")
    view = game.view()
    assert view["other_actions_card"] == "the environment card, as the Corpse"
    assert actions_left(view) == "3 actions left, only 2 of them other than moves (the environment card, as the Corpse)"
    names = Names.of_game(game)
    (event,) = [e for e in game.push("action kind=other") if e["type"] == "action"]
    assert event["card"] == PACKS.environment["common3"].name  # stored as before
    said = describe_event(event, names)
    assert said.endswith("(the environment card, as the Corpse)."), said
    game.push("action kind=other")
    refused(game, "action kind=other", "while the environment card, as the Corpse, is in play each turn has 2 actions")
    ended = [describe_event(e, Names.of_game(game)) for e in game.push("discard-environment card=common3")]
    assert "The environment card ends (its objective is met)." in ended, ended
    assert not any("Common card" in s or "common3" in s for s in [said, *ended])


def test_a_stand_in_card_is_never_named_by_its_pack_name_in_the_fire_question_nor_on_its_discard_button() -> None:
    """A stand-in told to put "one Fire Token ... onto each Fire icon" (skeptics-rulebook.txt:286) asks where they go
    and says where they went as "the environment card"; a stand-in told as the Corpse, lasting until its objective is
    met, has the discard button "The environment card, as the Corpse: met, discard it"."""
    from companion.games.skeptics.sentences import Names, action_label, describe_event

    pack_name = PACKS.environment["common3"].name
    game = card_in_play("common3")
    game.push("tell-card effect=fires")
    game.push("tell-card effect=nothing")
    names = Names.of_game(game)
    asked = describe_event({"type": "card_asked", **game.view()["question"]}, names)
    placed = [describe_event(e, names) for e in game.push("tell-fires spaces=7")]
    assert asked.startswith("The environment card puts a fire token on each fire icon"), asked
    assert any(s.startswith("The environment card puts 1 fire token") for s in placed), placed
    game = card_in_play("common3")
    game.push("tell-card effect=actions")
    game.push("tell-card effect=nothing")
    (discard,) = [a for a in game.legal_actions() if a.name == "discard-environment"]
    label = action_label(discard.to_dict(), Names.of_game(game), 0)
    assert label == "The environment card, as the Corpse: met, discard it"
    assert not any(pack_name in s for s in [asked, *placed, label])


def test_where_a_stand_in_limits_the_actions_it_is_named_by_that_effect_and_its_old_lines_keep_the_name() -> None:
    """A stand-in told two effects, clue dice ("as the Watching Eyes") and the action limit ("two Actions per turn,
    excluding Move Actions", skeptics-rulebook.txt:289), is named by the limit where the actions are counted and
    refused; an action's line told before the card ended still says "as the Corpse" after it (what the host told of a
    card is forgotten when it leaves play, and an action's limit is always that effect)."""
    from test_rules_audit import refused

    from companion.games.skeptics.sentences import Names, describe_event

    game = card_in_play("common3")
    game.push("tell-card effect=clue-dice")
    game.push("tell-card effect=actions")
    game.push("tell-card effect=nothing")
    assert game.view()["other_actions_card"] == "the environment card, as the Corpse"
    (event,) = [e for e in game.push("action kind=other") if e["type"] == "action"]
    game.push("action kind=other")
    refused(game, "action kind=other", "while the environment card, as the Corpse, is in play")
    game.push("discard-environment card=common3")
    said = describe_event(event, Names.of_game(game))  # the log read again after the card ended
    assert said.endswith("(the environment card, as the Corpse)."), said


def test_two_stand_ins_told_as_the_corpse_in_play_together_have_buttons_told_apart() -> None:
    """Two stand-in environment cards both told as the Corpse (skeptics-rulebook.txt:289) and in play together: each
    discard button says which it is, in the order drawn (as the page lists the cards in force), never by its pack
    name; one alone keeps its plain label (the test above)."""
    from companion.games.skeptics.sentences import Names, action_label

    game = card_in_play("common3")
    game.push("tell-card effect=actions")
    game.push("tell-card effect=nothing")
    to_clock(game, "IX")
    game.push("end-round room=9 environment=common4")
    game.push("tell-card effect=actions")
    game.push("tell-card effect=nothing")
    assert [c["id"] for c in game.view()["environment"]] == ["common3", "common4"]
    labels = [
        action_label(a.to_dict(), Names.of_game(game), 0)
        for a in game.legal_actions()
        if a.name == "discard-environment"
    ]
    assert labels == [
        "The environment card, as the Corpse, drawn first: met, discard it",
        "The environment card, as the Corpse, drawn second: met, discard it",
    ]
    assert not any(PACKS.environment[c].name in label for c in ("common3", "common4") for label in labels)
