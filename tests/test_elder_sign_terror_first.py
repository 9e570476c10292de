"""elder-sign-rules.txt:202-211: after a failed roll with terror, "I need to resolve all Terror effects ... Whether or
not I resolved any Terror effects, I have a couple of options: 1. I can try again". While the host has not told what a
card not filled in yet's terror did, the host's page offers no roll; neither do the dice tray nor --sim's throw."""

from __future__ import annotations

import pytest
from test_elder_sign_findings import stand_in_attempt

from companion.errors import IllegalCommand
from companion.games.base import TableDice, TrayDie
from companion.games.elder_sign.module import MODULE, TERROR_FIRST, icon_pips
from vision.sim_tray import NO_ROLL, Thrower


def _dice(count: int) -> list[TrayDie]:
    return [TrayDie("green", icon_pips("green:lore"))] * count


def test_no_tray_roll_and_no_simulated_throw_before_the_terror_is_told() -> None:
    game = stand_in_attempt("peril:3")
    game.push("roll faces=terror,terror,inv1,inv1,lore,lore")
    assert game.view()["question"]["part"] == "terror"
    thrower = Thrower(lambda: MODULE.next_throw(game))
    assert MODULE.next_throw(game) == ()
    with pytest.raises(IllegalCommand, match=NO_ROLL[:20]):
        thrower.throw()
    throws = len(game.next_roll_dice())
    outcome = MODULE.tray_roll(game, _dice(throws), TableDice(), why="button", auto_roll=True)
    assert outcome.command is None and outcome.tell == TERROR_FIRST
    played = len(game.history)
    while game.view()["question"]:
        game.push("card-did effect=nothing")  # the host tells what the real card's terror did
    assert MODULE.next_throw(game) == ("green",) * throws and thrower.throw() == ("green",) * throws
    outcome = MODULE.tray_roll(game, _dice(throws), TableDice(), why="settled", auto_roll=True)
    assert outcome.command is not None and outcome.command[0] == "roll"
    assert len(game.history) > played
