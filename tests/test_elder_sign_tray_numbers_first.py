"""Before the host copied the numbers printed on the Elder Sign cards not filled in yet (Game.numbers_first,
elder-sign-rules.txt:84, :245, :419-427), dice in the tray are no roll: the table is told, in the host's words, what to
copy first (not the terminal's command syntax the engine's refusal gives), and nothing is played."""

from __future__ import annotations

from companion.errors import IllegalCommand
from companion.games.base import TableDice, TrayDie
from companion.games.elder_sign.engine import Game, Setup
from companion.games.elder_sign.module import MODULE, icon_pips
from companion.games.elder_sign.packs import load_packs


def test_tray_dice_before_the_numbers_are_copied_tell_what_to_copy_and_play_nothing() -> None:
    game = Game.new(Setup(players=2, seed=3), load_packs())
    first = game.numbers_first()
    assert "set-investigator player=1" in first  # the bundled investigators are not filled in yet
    dice = [TrayDie("green", icon_pips("green:lore"))] * len(game.next_roll_dice())
    outcome = MODULE.tray_roll(game, dice, TableDice(), why="button", auto_roll=True)
    assert outcome.command is None and outcome.tell
    assert "=" not in outcome.tell and "set-" not in outcome.tell  # no command syntax reaches the table
    assert "Player 1's sanity, stamina and clue tokens" in outcome.tell
    assert game.history == []
    try:  # the engine refuses the roll the tray would have played
        game.push("roll faces=" + ",".join(["lore"] * len(dice)))
    except IllegalCommand as exc:
        assert "set-investigator" in str(exc)
    else:
        raise AssertionError("the roll was played before the numbers were copied")
