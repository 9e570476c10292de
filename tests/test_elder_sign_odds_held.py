"""Elder Sign's odds with a die already held for the next roll (module._chances): a die chosen for the own marker
(focus, elder-sign-rules.txt:213), a die chosen for a Spell card after a failed roll or after one that completed a task
(:345), or one on a card from before. "Roll for me" holds no new die, but those held stay held ("you don't have to roll
it again ... you can still use the number rolled on the die to meet the requirements of a task", :347), so their chance
is told, not dropped: before, every held die left the page with no odds at all."""

from __future__ import annotations

from test_elder_sign_items import after_a_completed_task, at_two_tasks

from companion.games.elder_sign.engine import Game
from companion.games.elder_sign.module import MODULE
from companion.games.elder_sign.odds import card_probability


def published(game: Game) -> dict:
    """The state the page gets: the game's view with what the module publishes beside it."""
    view = game.view()
    return {**view, **MODULE.publish(view, game)}


def _odds(game: Game) -> dict | None:
    return published(game).get("card_odds")


def _lore_task(odds: dict) -> float:
    return next(t["probability"] for t in odds["tasks"] if t["need"] == "lore:1")


def test_a_die_chosen_for_the_spell_after_a_completing_roll_keeps_the_odds() -> None:
    game = after_a_completed_task()  # "Two Tasks": lore:1 left, the inv3 placed on task 2
    assert _odds(game) is not None
    game.push("spell die=lore")
    odds = _odds(game)
    assert odds is not None, "the odds vanished once a die was chosen for the spell"
    # the lore held on the spell meets the one task left, whatever the dice thrown show (:347)
    assert odds["roll_for_me"] == odds["probability"] == _lore_task(odds) == 1.0, odds


def test_a_die_chosen_with_focus_after_a_failed_roll_keeps_the_odds() -> None:
    game = at_two_tasks(1)
    game.push("roll faces=lore," + ",".join(["peril"] * (game.dice_to_roll() - 1)) + " task=none")
    game.push("focus die=lore")
    q = game.odds_question()
    assert q is not None and q["held"] == ["lore"]
    odds = _odds(game)
    assert odds is not None, "the odds vanished once a die was chosen with focus"
    assert _lore_task(odds) == 1.0, odds
    # "Roll for me" holds no new die; the one held by focus stays held for its roll (:347, :365-369)
    plain = card_probability(q["tasks"], q["ordered"], q["green"], 0, 0, None, 1, 0, ["lore"])
    assert odds["roll_for_me"] == plain > 0 and odds["probability"] >= plain, odds


def test_the_words_of_roll_for_me_name_the_die_held() -> None:
    """The first line of the odds says what "Roll for me" does: with a die held it names it, not "no die held"."""
    game = after_a_completed_task()
    game.push("spell die=lore")
    first = published(game)["odds_words"][0]
    assert "and the lore held" in first and "no die held" not in first and "no other die held" in first, first


def test_with_yellow_dice_a_free_marker_beside_a_held_die_still_counts_for_a_task_alone() -> None:
    """With the yellow die in the pool each task alone is worked out with one new hold at most; a die already on a
    Spell card (:345-347) does not take the investigator marker's place (:365-371: one die a marker), so the focus
    it leaves stays in the chance. Before, a held die left the yellow dice's task chance with no focus at all."""
    from companion.games.elder_sign.module import _chances

    need = "peril:1,terror:1"
    base = {"green": 4, "yellow": 1, "red": 0, "clues": 0, "tasks": [need], "ordered": False, "held": ["lore"]}
    _, _, free = _chances({**base, "holds": 2}, [(1, need)])  # the spell's die and the own marker, free
    _, _, full = _chances({**base, "holds": 1}, [(1, need)])  # the spell's die only: no place left
    assert free[1] > full[1], (free, full)


def test_after_a_focus_on_the_own_marker_the_best_play_offers_no_other_focus() -> None:
    """Alone on the card with the own marker full (focus, :365-371: one die a marker), the words of the best play
    offer no new focus: "holds" counts the marker the held die takes (module.publish), so the words test the free
    places. Before, they said "holding a die (focus)" for a marker already full."""
    game = at_two_tasks(1)
    game.push("roll faces=lore," + ",".join(["peril"] * (game.dice_to_roll() - 1)) + " task=none")
    game.push("focus die=lore")
    state = published(game)
    odds, words = state["card_odds"], " ".join(state["odds_words"])
    assert odds["holds"] == len(odds["held"]) == 1, odds
    assert "focus" not in words, words


def test_a_die_on_a_spell_in_the_ancient_one_battle_offers_no_focus() -> None:
    """In the battle (no investigator marker takes a die, :449) a die on a Spell card (:345) is no free place."""
    from companion.games.elder_sign.sentences import odds_words

    odds = {"name": "the Ancient One", "dice": 6, "probability": 0.5, "roll_for_me": 0.25, "clues": 1}
    odds |= {"holds": 1, "held": ["lore"], "tasks": []}
    said = " ".join(odds_words(odds))
    assert "spending up to 1 clue" in said and "focus" not in said, said
    assert "focus" in " ".join(odds_words({**odds, "holds": 2})), "a free place offers the focus"
