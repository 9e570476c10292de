"""The dice tray's readings as the game service keeps them: each one numbered, and played at most once.

One throw of the real dice is one roll. Every reading of the tray that reaches the service
(``GameService.roll_from_tray``) gets the next number and remembers the game and the moment of the game it was
read in (the game's last event id, which every command and every undo moves on). A reading is played as a roll
only while it is the newest, has not been played, and nothing has been played since it was read: after a roll
(from the tray, tapped, or rolled by the companion) or any other command the dice in the tray are from before the
roll now under way, and the players throw again. Pure bookkeeping: no clock (the caller gives the time), no game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import IllegalCommand
from companion.games.base import SeenDie

__all__ = ["ALREADY_PLAYED", "TrayReading", "TrayReadings"]

ALREADY_PLAYED = "those dice were already played; throw again (or tap the real dice in)."
OLDER = (
    "those dice were read before the game moved on (a roll or another command came since), so they are not the "
    "roll now under way; throw again (or tap the real dice in)."
)


@dataclass(frozen=True)
class TrayReading:
    """One reading of the tray: its number, the dice, when, and the game and its moment it was read in."""

    number: int
    dice: tuple[SeenDie, ...]
    at: float
    game_id: int
    mark: object  # the game's last event id when read
    played: bool = False


class TrayReadings:
    """The newest reading and whether it may still be played (see the module docstring)."""

    def __init__(self) -> None:
        self.last: TrayReading | None = None
        self._count = 0

    def add(self, dice: Sequence[SeenDie], *, game_id: int, mark: object, at: float) -> TrayReading:
        """A new reading from the tray: the newest from now on."""
        self._count += 1
        self.last = TrayReading(self._count, tuple(dice), at, game_id, mark)
        return self.last

    def refusal(self, reading: TrayReading, *, game_id: int, mark: object) -> str | None:
        """Why ``reading`` may not be played now, in words for the host; None when it may."""
        if reading.played:
            return ALREADY_PLAYED
        if reading.game_id != game_id or reading.mark != mark:
            return OLDER
        return None

    def take(self, number: int, *, game_id: int, mark: object) -> TrayReading:
        """The reading ``number`` to play now; IllegalCommand (nothing played) when it is not the newest, was
        played or is older than the roll now under way."""
        last = self.last
        if last is None or number != last.number:
            newest = "no reading yet" if last is None else f"the newest is reading {last.number}"
            raise IllegalCommand(
                f"tray reading {number} is not the tray's newest ({newest}); look at the tray card again."
            )
        refused = self.refusal(last, game_id=game_id, mark=mark)
        if refused is not None:
            raise IllegalCommand(refused)
        return last

    def played(self, reading: TrayReading) -> None:
        """``reading`` became a roll: it is never played again."""
        if self.last is not None and self.last.number == reading.number:
            self.last = replace(self.last, played=True)

    def view(self, *, game_id: int | None, mark: object) -> dict[str, Any] | None:
        """The newest reading as the page shows it: its number, dice, time, whether it was played and whether
        (and why not) it may be played now. None before the first reading, and when the newest was read in
        another game (or no game): another game's dice are never shown as this game's."""
        last = self.last
        if last is None or game_id is None or last.game_id != game_id:
            return None
        refused = self.refusal(last, game_id=game_id, mark=mark)
        return {
            "reading": last.number,
            "dice": [
                {"color": d.color, "value": d.value, "box": list(d.box), "cocked": bool(getattr(d, "cocked", False))}
                for d in last.dice
            ],
            "at": last.at,
            "played": last.played,
            "usable": refused is None,
            "refusal": refused,
        }
