"""The dice of Elder Sign, their faces, what a task needs, and ordinary pipped dice standing in for them.

elder-sign-rules.txt:60-62 (6 green, 1 yellow, 1 red die), :171 (the list of green faces is cut off after
"The green dice have different sides:"), :173 (the yellow die has a 4 investigation side instead of a terror
side), :175 (the red die has a wild side instead of a 1 investigation side; a wild result can be used as 1
investigation, a lore, a peril or a terror result).

The green faces follow the public simulators (and how :173 and :175 derive the other two dice from it):

    green   1, 2, 3 investigation, lore, peril, terror
    yellow  1, 2, 3, 4 investigation, lore, peril
    red     wild, 2, 3, 4 investigation, lore, peril

Every face is on one side of its die, so each face of a die has chance 1/6.
"""

from __future__ import annotations

import enum
import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from companion.errors import DiceError

__all__ = [
    "Colour",
    "Face",
    "Die",
    "Need",
    "PipMap",
    "GREEN_DICE",
    "parse_face",
    "parse_dice",
    "dice_text",
    "covers",
    "placement",
]

GREEN_DICE = 6  # elder-sign-rules.txt:60 and :107: "I have to roll the 6 green dice"


class Colour(enum.Enum):
    GREEN = "green"
    YELLOW = "yellow"
    RED = "red"

    def __str__(self) -> str:
        return self.value

    @property
    def faces(self) -> tuple[Face, ...]:
        """The six faces of a die of this colour, in the order of the default pip map (pips 1-6)."""
        return _SIDES[self]

    def chance(self, face: Face) -> Fraction:
        return Fraction(_SIDES[self].count(face), 6)

    @classmethod
    def parse(cls, text: str) -> Colour:
        word = str(text).strip().lower()
        found = _COLOUR_WORDS.get(word)
        if found is None:
            raise DiceError(f"unknown die colour {text!r}; the dice are green, yellow and red.")
        return found


class Face(enum.Enum):
    """One face of an Elder Sign die; the value is its spelling in commands and JSON."""

    INV1 = "inv1"
    INV2 = "inv2"
    INV3 = "inv3"
    INV4 = "inv4"
    LORE = "lore"
    PERIL = "peril"
    TERROR = "terror"
    WILD = "wild"

    def __str__(self) -> str:
        return self.value

    @property
    def investigation(self) -> int:
        """The investigation value of the face (0 for the symbols; a wild counts as 1 only when used so)."""
        return _INV.get(self, 0)


_INV = {Face.INV1: 1, Face.INV2: 2, Face.INV3: 3, Face.INV4: 4}
_SIDES: dict[Colour, tuple[Face, ...]] = {
    Colour.GREEN: (Face.INV1, Face.INV2, Face.INV3, Face.LORE, Face.PERIL, Face.TERROR),
    Colour.YELLOW: (Face.INV1, Face.INV2, Face.INV3, Face.INV4, Face.LORE, Face.PERIL),
    Colour.RED: (Face.WILD, Face.INV2, Face.INV3, Face.INV4, Face.LORE, Face.PERIL),
}
_COLOUR_WORDS = {
    "green": Colour.GREEN,
    "g": Colour.GREEN,
    "yellow": Colour.YELLOW,
    "y": Colour.YELLOW,
    "red": Colour.RED,
    "r": Colour.RED,
}
_FACE_WORDS = {
    "1": Face.INV1,
    "2": Face.INV2,
    "3": Face.INV3,
    "4": Face.INV4,
    "i1": Face.INV1,
    "i2": Face.INV2,
    "i3": Face.INV3,
    "i4": Face.INV4,
    "investigation1": Face.INV1,
    "investigation2": Face.INV2,
    "investigation3": Face.INV3,
    "investigation4": Face.INV4,
    "scroll": Face.LORE,
    "skull": Face.PERIL,
    "tentacle": Face.TERROR,
    "tentacles": Face.TERROR,
}


def parse_face(text: Face | str) -> Face:
    """A face from its spelling: "inv2" (or "2"), "lore", "peril", "terror", "wild"."""
    if isinstance(text, Face):
        return text
    word = str(text).strip().lower()
    try:
        return Face(word)
    except ValueError:
        pass
    found = _FACE_WORDS.get(word)
    if found is None:
        raise DiceError(
            f"unknown face {text!r}; the faces are {', '.join(f.value for f in Face)} "
            "(inv1 to inv4 are investigation results)."
        )
    return found


@dataclass(frozen=True)
class Die:
    """One rolled die: its colour and the face it shows."""

    colour: Colour
    face: Face

    def __post_init__(self) -> None:
        if self.face not in _SIDES[self.colour]:
            raise DiceError(
                f"a {self.colour.value} die has no {self.face.value} face; its faces are "
                f"{', '.join(f.value for f in _SIDES[self.colour])}."
            )

    def __str__(self) -> str:
        return self.face.value if self.colour is Colour.GREEN else f"{self.colour.value}:{self.face.value}"

    @classmethod
    def parse(cls, text: str) -> Die:
        """ "inv2" (a green die), "yellow:inv4", "y:inv4", "red:wild"."""
        colour_text, sep, face_text = str(text).strip().partition(":")
        if not sep:
            return cls(Colour.GREEN, parse_face(colour_text))
        return cls(Colour.parse(colour_text), parse_face(face_text))


def parse_dice(text: str | Iterable[Die | str]) -> tuple[Die, ...]:
    """Dice from "inv1,lore,yellow:inv4" (a face without a colour is a green die) or a list."""
    items: list[Die | str]
    if isinstance(text, str):
        items = [part for part in re.split(r"[,\s]+", text) if part]
    else:
        items = list(text)
    return tuple(item if isinstance(item, Die) else Die.parse(item) for item in items)


def dice_text(dice: Iterable[Die]) -> str:
    return ",".join(str(d) for d in dice)


# -- what a task needs ---------------------------------------------------------------------------

_NEED_WORDS = {"inv": "inv", "investigation": "inv", "lore": "lore", "peril": "peril", "terror": "terror"}


@dataclass(frozen=True, order=True)
class Need:
    """The symbols of one task, to be met by one roll (elder-sign-rules.txt:137, :177, :183-189).

    ``inv`` is the investigation results needed, added up ("inv:4": dice whose investigation values
    add up to 4 or more); ``lore``, ``peril`` and ``terror`` are the dice needed showing that symbol.
    """

    inv: int = 0
    lore: int = 0
    peril: int = 0
    terror: int = 0

    def __post_init__(self) -> None:
        for name in ("inv", "lore", "peril", "terror"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 40:
                raise DiceError(f"a task's {name} must be a whole number 0 to 40, not {value!r}.")
        if not (self.inv or self.lore or self.peril or self.terror):
            raise DiceError("a task needs at least one symbol, e.g. inv:4 or lore:1.")

    @classmethod
    def parse(cls, text: str | Need) -> Need:
        """ "inv:4,lore:1", "investigation:4, peril:1", "terror:1"."""
        if isinstance(text, Need):
            return text
        if not isinstance(text, str) or not text.strip():
            raise DiceError(f'a task is written like "inv:4,lore:1", not {text!r}.')
        counts = {"inv": 0, "lore": 0, "peril": 0, "terror": 0}
        for part in re.split(r"[,;]+", text):
            part = part.strip()
            if not part:
                continue
            name, sep, number = part.partition(":")
            key = _NEED_WORDS.get(name.strip().lower())
            if key is None or not sep:
                raise DiceError(
                    f"cannot read {part!r} in the task {text!r}; write symbols like inv:4, lore:1, peril:1, terror:1."
                )
            try:
                value = int(number.strip())
            except ValueError:
                raise DiceError(f"{part!r} in the task {text!r} needs a whole number after the colon.") from None
            if value < 0:
                raise DiceError(f"{part!r} in the task {text!r} cannot be negative.")
            counts[key] += value
        return cls(**counts)

    def __str__(self) -> str:
        parts = [f"{name}:{getattr(self, name)}" for name in ("inv", "lore", "peril", "terror") if getattr(self, name)]
        return ",".join(parts)

    @property
    def symbols(self) -> int:
        return self.lore + self.peril + self.terror

    @property
    def min_dice(self) -> int:
        """The fewest dice that can ever meet the task (a 4 investigation covers 4 of inv)."""
        return self.symbols + -(-self.inv // 4)


def covers(need: Need, faces: Iterable[Face]) -> bool:
    """True when dice showing `faces` meet every symbol of `need` at once (wilds used as best they can be)."""
    lore = peril = terror = wild = inv = 0
    for face in faces:
        if face is Face.LORE:
            lore += 1
        elif face is Face.PERIL:
            peril += 1
        elif face is Face.TERROR:
            terror += 1
        elif face is Face.WILD:
            wild += 1
        else:
            inv += face.investigation
    short = max(0, need.lore - lore) + max(0, need.peril - peril) + max(0, need.terror - terror)
    if short > wild:
        return False
    return inv + (wild - short) >= need.inv


_COLOUR_RANK = {Colour.GREEN: 0, Colour.YELLOW: 1, Colour.RED: 2}


def placement(
    need: Need, free: Sequence[Die], held: Sequence[Face] = ()
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The dice placed on a task met by `free` (the dice just rolled) and `held` (dice on markers and spells).

    Returns (indices into `free`, indices into `held`) of a smallest set of dice that meets `need`, or None
    when no set does. Ties prefer rolled dice to held ones (a held die keeps its face for a later task),
    then green dice to yellow and red ones, then the lowest investigation values. The dice not placed are
    rolled again for the next task (elder-sign-rules.txt:183-191).
    """
    items: list[tuple[Face, int, int]] = [(d.face, 0, i) for i, d in enumerate(free)]  # (face, held?, index)
    items += [(f, 1, i) for i, f in enumerate(held)]
    if not covers(need, (face for face, _, _ in items)):
        return None
    best: tuple[tuple[int, int, int, int], tuple[int, ...]] | None = None
    for size in range(1, len(items) + 1):
        for combo in itertools.combinations(range(len(items)), size):
            faces = [items[k][0] for k in combo]
            if not covers(need, faces):
                continue
            used_held = sum(items[k][1] for k in combo)
            colour = sum(_COLOUR_RANK[free[items[k][2]].colour] for k in combo if not items[k][1])
            inv = sum(items[k][0].investigation for k in combo)
            key = (size, used_held, colour, inv)
            if best is None or key < best[0]:
                best = (key, combo)
        if best is not None:
            break
    assert best is not None
    combo = best[1]
    return (tuple(items[k][2] for k in combo if not items[k][1]), tuple(items[k][2] for k in combo if items[k][1]))


# -- stand-in pipped dice -------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class PipMap:
    """Which face each pip count (1-6) of an ordinary die of each colour stands for.

    Default: green 1-3 inv1-inv3, 4 lore, 5 peril, 6 terror; yellow 1-4 inv1-inv4, 5 lore, 6 peril;
    red 1 wild, 2-4 inv2-inv4, 5 lore, 6 peril. A table must give each face of the real die one pip.
    """

    tables: Mapping[Colour, tuple[Face, ...]]

    def __post_init__(self) -> None:
        for colour in Colour:
            if colour not in self.tables:
                raise DiceError(f"the pip map has no table for {colour.value} dice.")
            table = tuple(self.tables[colour])
            if sorted(f.value for f in table) != sorted(f.value for f in _SIDES[colour]):
                raise DiceError(
                    f"the {colour.value} pip map must give each face of the real die ("
                    f"{', '.join(f.value for f in _SIDES[colour])}) exactly one pip 1-6, so the odds stay true."
                )
        object.__setattr__(self, "tables", MappingProxyType({c: tuple(self.tables[c]) for c in Colour}))

    def _key(self) -> tuple[tuple[Face, ...], ...]:
        return tuple(self.tables[c] for c in Colour)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PipMap) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @classmethod
    def default(cls) -> PipMap:
        return cls({c: _SIDES[c] for c in Colour})

    @classmethod
    def from_dict(cls, data: Mapping[str, Mapping[str, int]]) -> PipMap:
        """{"green": {"inv1": 1, "inv2": 2, "inv3": 3, "lore": 4, "peril": 5, "terror": 6}, ...}; colours left
        out keep the default table."""
        if not isinstance(data, Mapping):
            raise DiceError('a pip map is a table of colours, e.g. {"green": {"inv1": 1, ...}}.')
        tables = {c: _SIDES[c] for c in Colour}
        for colour_name, faces in data.items():
            colour = Colour.parse(str(colour_name))
            if not isinstance(faces, Mapping):
                raise DiceError(f"the pip map for {colour.value} dice must map each face to a pip 1-6.")
            slots: list[Face | None] = [None] * 6
            for face_name, pip in faces.items():
                face = parse_face(str(face_name))
                if face not in _SIDES[colour]:
                    raise DiceError(f"a {colour.value} die has no {face.value} face.")
                if not isinstance(pip, int) or isinstance(pip, bool) or not 1 <= pip <= 6:
                    raise DiceError(f"pip {pip!r} for the {colour.value} {face.value} is not a number from 1 to 6.")
                if slots[pip - 1] is not None:
                    raise DiceError(f"pip {pip} of the {colour.value} die is mapped twice; map every pip 1-6 once.")
                slots[pip - 1] = face
            if any(s is None for s in slots):
                raise DiceError(f"the {colour.value} pip map must give all six faces a pip 1-6.")
            tables[colour] = tuple(s for s in slots if s is not None)
        return cls(tables)

    def to_dict(self) -> dict[str, dict[str, int]]:
        return {c.value: {f.value: pip for pip, f in enumerate(self.tables[c], 1)} for c in Colour}

    def face(self, colour: Colour, pip: int) -> Face:
        if not isinstance(pip, int) or isinstance(pip, bool) or not 1 <= pip <= 6:
            raise DiceError(f"a standard die shows 1 to 6 pips, not {pip!r}.")
        return self.tables[colour][pip - 1]

    def die(self, colour: Colour, pip: int) -> Die:
        return Die(colour, self.face(colour, pip))

    def pip(self, colour: Colour, face: Face) -> int:
        table = self.tables[colour]
        if face not in table:
            raise DiceError(f"a {colour.value} die has no {face.value} face.")
        return table.index(face) + 1
