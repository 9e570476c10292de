"""From the dice seen in the tray (companion.games.base.SeenDie) to a roll: colour says the kind of die, pips say the
face (companion.games.skeptics.dice.PipMap)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.errors import VisionError
from companion.games.base import SeenDie
from companion.games.skeptics.dice import DieKind, Face, PipMap

DEFAULT_COLOR_KINDS = {"blue": "clue", "green": "key", "red": "summon"}


def to_roll(
    readings: Sequence[SeenDie],
    color_kinds: Mapping[str, str | DieKind] | None = None,
    pip_map: PipMap | None = None,
    expected: int | None = None,
) -> dict[DieKind, tuple[Face, ...]]:
    """The faces per kind of die, in reading order.

    Raises VisionError when a die is unsure (value None) or has a colour that the table's
    mapping does not know: a roll is settled only from dice that are all read for sure.
    With ``expected`` (the number of dice rolled), also when the tray shows another number.
    """
    if expected is not None and len(readings) != expected:
        raise VisionError(
            f"{expected} dice were rolled but the reader found {len(readings)} in the tray; "
            "spread the dice so none touches another or the wall and read again, or enter the roll "
            "by hand."
        )
    kinds = {
        str(c).lower(): (k if isinstance(k, DieKind) else DieKind.parse(k))
        for c, k in (DEFAULT_COLOR_KINDS if color_kinds is None else color_kinds).items()
    }
    pip_map = pip_map or PipMap.default()
    cocked = [r for r in readings if r.cocked]
    if cocked:
        where = "; ".join(f"{r.color} die at {r.box[0]},{r.box[1]}" for r in cocked)
        raise VisionError(f"cocked: reroll it ({where}: it leans on another die or the wall, so no face is up).")
    unsure = [r for r in readings if r.value is None]
    if unsure:
        where = "; ".join(f"{r.color} die at {r.box[0]},{r.box[1]}" for r in unsure)
        raise VisionError(
            f"{len(unsure)} die/dice could not be read for sure ({where}); turn it so its pips "
            "face the camera, or enter the roll by hand."
        )
    unknown = sorted({r.color for r in readings if r.color.lower() not in kinds})
    if unknown:
        known = ", ".join(f"{c} dice are {k.value} dice" for c, k in kinds.items()) or "no colour has a kind yet"
        names = unknown[0] if len(unknown) == 1 else ", ".join(unknown[:-1]) + " and " + unknown[-1]
        raise VisionError(
            f"no kind of die is set for {names} dice ({known}): take them out of the tray, or give "
            f"{'that colour' if len(unknown) == 1 else 'those colours'} a kind of die in the configuration file "
            "(the tray's dice kinds)."
        )
    roll: dict[DieKind, list[Face]] = {}
    for r in readings:
        kind = kinds[r.color.lower()]
        assert r.value is not None
        roll.setdefault(kind, []).append(pip_map.face(kind, r.value))
    return {kind: tuple(faces) for kind, faces in roll.items()}
