"""What a reading of the dice tray means for the game: the roll of the attempt under way, or why not.

Pure: given the faces the tray shows (per kind of die, as ``companion.games.skeptics.roll.to_roll`` gives them, or the
reader's complaint), the attempt under way (as the state's ``attempt`` gives it), why the dice were read
and whether the configuration file lets a tray reading play, `settle_reading` decides whether those faces are the attempt's roll
and what, if anything, the table should be told. ``companion serve`` carries the decision out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion import words
from companion.games.skeptics.dice import Attempt, DieKind, Face, action_kind


@dataclass(frozen=True)
class TrayOutcome:
    """The decision: ``faces`` to roll (None: nothing is rolled), a message for the table, a line for the log."""

    faces: tuple[Face, ...] | None = None
    tell: str | None = None  # shown at the table (the OLED and a warning in the log)
    note: str | None = None  # only logged
    quiet: bool = False  # dice that came to rest with no roll waiting for them: logged for debugging only


def describe_roll(roll: Mapping[DieKind, Sequence[Face]]) -> str:
    """ "clue: eye, camera, blank; summon: summon", or "no dice"."""
    seen = "; ".join(f"{kind.value}: {', '.join(face.value for face in faces)}" for kind, faces in roll.items())
    return seen or "no dice"


def settle_reading(
    roll: Mapping[DieKind, Sequence[Face]] | None,
    attempt: Attempt | Mapping[str, Any] | None,
    *,
    why: str,
    auto_roll: bool,
    problem: str | None = None,
) -> TrayOutcome:
    """Decide what the dice read in the tray do.

    ``roll`` is None when the reading could not become faces; ``problem`` then says why. ``why`` is
    "button" (the read-dice button) or "settled" (the dice came to rest). Problems are told at the table
    only when the reading was wanted (a button press, or an attempt waiting for its roll); dice settling
    at other times (packing up, a sample photo) are only logged.
    """
    attempt = attempt if auto_roll else None
    wanted = why == "button" or attempt is not None
    if roll is None:
        message = problem or "the dice could not be read"
        if wanted:
            return TrayOutcome(tell=message)
        return TrayOutcome(note=f"dice settled, not read for a roll: {message}", quiet=True)
    seen = describe_roll(roll)
    if not auto_roll:
        return TrayOutcome(note=words.left_to_the_host(seen))
    if attempt is None:
        message = f"read {seen}; no attempt is under way, so nothing was rolled"
        if why == "button":
            # told at the table (the OLED, the voice, every phone) and on the host's "Use these dice": words for all
            return TrayOutcome(tell=message + ". The host starts the attempt first; then the dice are read again.")
        return TrayOutcome(note=f"dice settled: {message}", quiet=True)
    typed = attempt if isinstance(attempt, Attempt) else Attempt.from_dict(attempt)
    action = typed.action
    kind = action_kind(action)
    need = typed.dice_to_roll
    faces = tuple(roll.get(kind, ()))
    if len(faces) != need:
        return TrayOutcome(
            tell=f"the {action} roll needs {need} {kind.value} dice, the tray shows {len(faces)} ({seen}); "
            "roll again, or enter them on the page."
        )
    return TrayOutcome(
        faces=faces, note=f"tray: rolled {', '.join(face.value for face in faces)} for the {action} attempt"
    )
