"""A green lock during an attempt may take a held die whose face a rolled one shares (elder-sign-rules.txt:401 "you
get to decide which die goes on the locked die icon. You have to put the die there, even if it was on a Spell card or
Investigator marker"): the choice names where the die is (die=FACE from=roll|spell|focus|assist), the legal actions
and the page offer each, in words. And after a lock took the failed roll's last die, the attempt view counts the
yellow or red die still free as the next roll's (:403 the locked die is out of the rolls; the item's die stays in the
pool, :341)."""

from __future__ import annotations

from games import numbers_copied

from companion.games.elder_sign.engine import Game, Setup
from companion.games.elder_sign.packs import load_packs

LOCK = "set-tasks adventure=2 tasks=inv:1 ordered=false lock=green"


def rolling(*rolls: str, told: bool = True) -> Game:
    """Two players at the adventure in place 1 (tasks inv:4; lore:2), its rolls played; the setup's Mythos card
    told first unless not `told`."""
    game = Game.new(Setup(players=2, seed=5), load_packs())
    while told and game.view()["question"]:
        game.push("card-did effect=nothing")
    numbers_copied(game)
    game.push("move to=1")
    game.push("set-tasks adventure=1 tasks=inv:4;lore:2 ordered=false")
    for roll in rolls:
        game.push(roll)
    return game


def test_after_a_lock_took_the_failed_rolls_last_die_the_yellow_die_is_to_roll() -> None:
    game = rolling(*["roll faces=" + ",".join(["peril"] * n) for n in (6, 5, 4, 3, 2, 1)])
    game.push("add-die colour=yellow")
    game.push(LOCK)
    attempt = game.view()["attempt"]
    assert attempt["free"] == {"green": 0, "yellow": 1, "red": 0}
    assert attempt["dice_to_roll"] == len(game.next_roll_dice()) == 1  # :403 not the locked one; :341 the yellow
    made = game.push("roll faces=yellow:lore")
    assert [e["dice"] for e in made if e["type"] == "roll_failed"] == [["yellow:lore"]]
