"""A green lock during an attempt may take a held die whose face a rolled one shares (elder-sign-rules.txt:401 "you
get to decide which die goes on the locked die icon. You have to put the die there, even if it was on a Spell card or
Investigator marker"): the choice names where the die is (die=FACE from=roll|spell|focus|assist), the legal actions
and the page offer each, in words. And after a lock took the failed roll's last die, the attempt view counts the
yellow or red die still free as the next roll's (:403 the locked die is out of the rolls; the item's die stays in the
pool, :341)."""

from __future__ import annotations

from test_elder_sign_lock_mid_attempt import locked_event, rolling
from test_elder_sign_midnight_asked import refused

from companion.games.elder_sign.engine import Game
from companion.games.elder_sign.module import MODULE

LOCK = "set-tasks adventure=2 tasks=inv:1 ordered=false lock=green"


def on_spell_and_rolled() -> Game:
    """A die on the Spell card (peril), and the failed roll after it shows peril too."""
    return rolling("roll faces=peril,peril,peril,peril,peril,peril", "roll faces=peril,peril,peril,peril spell=peril")


def test_a_held_die_alike_a_rolled_one_may_be_chosen_for_a_green_lock() -> None:
    game = on_spell_and_rolled()
    attempt = game.view()["attempt"]
    assert [h["how"] for h in attempt["held"]] == ["spell"]
    assert attempt["lock_choices"] == [{"die": "peril", "from": "roll"}, {"die": "peril", "from": "spell"}]
    said = MODULE.publish(game.view(), game)["lock_choices_said"]
    assert said == ["the peril die of the roll", "the peril die on the Spell card"]  # the task sheet's words
    made = game.push(f"{LOCK} die=peril from=spell")
    assert (locked_event(made)["die"], locked_event(made)["from"]) == ("peril", "spell")
    after = game.view()["attempt"]
    assert after["held"] == [] and after["free"]["green"] == attempt["free"]["green"]  # the roll's dice stay
    # without from=, as before: the roll's die (a stored game's lock plays as it did)
    other = on_spell_and_rolled()
    made = other.push(LOCK)
    assert locked_event(made)["from"] == "roll" and [h["how"] for h in other.view()["attempt"]["held"]] == ["spell"]


def test_the_mythos_lock_offers_the_held_die_by_where_it_is() -> None:
    game = rolling(
        "roll faces=peril,peril,peril,peril,peril,peril",
        "roll faces=peril,peril,peril,lore hold=peril",
        told=False,
    )
    offered = [dict(a.args) for a in game.legal_actions() if a.name == "card-did" and a.args.get("colour") == "green"]
    assert sorted((a["die"], a["from"]) for a in offered) == [("lore", "roll"), ("peril", "focus"), ("peril", "roll")]
    names = MODULE.names(game)
    labels = [MODULE.action_label(a.to_dict(), names, None) for a in game.legal_actions() if a.name == "card-did"]
    assert "A green die locked: the peril die held on the marker (focus)" in labels, labels
    assert "A green die locked: the peril die of the roll" in labels, labels
    made = game.push("card-did effect=lock colour=green die=peril from=focus")
    assert locked_event(made)["from"] == "focus" and game.view()["attempt"]["held"] == []


def test_from_names_where_the_die_is_or_is_refused_saying_so() -> None:
    game = on_spell_and_rolled()
    message = refused(game, f"{LOCK} die=peril from=focus")
    assert "peril (on the spell)" in message and "(:401)" in message, message
    message = refused(game, f"{LOCK} die=lore from=roll")
    assert "no such green die" in message, message


def test_after_a_lock_took_the_failed_rolls_last_die_the_yellow_die_is_to_roll() -> None:
    game = rolling(*["roll faces=" + ",".join(["peril"] * n) for n in (6, 5, 4, 3, 2, 1)])
    game.push("add-die colour=yellow")
    game.push(LOCK)
    attempt = game.view()["attempt"]
    assert attempt["free"] == {"green": 0, "yellow": 1, "red": 0}
    assert attempt["dice_to_roll"] == len(game.next_roll_dice()) == 1  # :403 not the locked one; :341 the yellow
    made = game.push("roll faces=yellow:lore")
    assert [e["dice"] for e in made if e["type"] == "roll_failed"] == [["yellow:lore"]]
