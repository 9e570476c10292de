"""The dice of Skeptics, their faces, and how ordinary pipped dice stand in for them.

Rulebook, "Game Components": 5 clue dice, 4 key dice, 7 summon dice.
"Action 3: Search": each clue die has three eyes, two cameras and one cobweb.
"Action 2: Unlock": each key die has half of its sides keys, the other half blank.
"Action 7: Pull Ghost": each summon die has one chance in six of a summon icon.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from companion.errors import DiceError

__all__ = ["Face", "DieKind", "PipMap", "parse_face", "parse_faces"]


class Face(enum.Enum):
    """One face of a Skeptics die (the value is its spelling in commands and JSON)."""

    EYE = "eye"
    CAMERA = "camera"
    COBWEB = "cobweb"
    KEY = "key"
    SUMMON = "summon"
    BLANK = "blank"

    def __str__(self) -> str:
        return self.value


class DieKind(enum.Enum):
    """The three kinds of dice; each knows its faces and how many of its six sides show each."""

    CLUE = "clue"
    KEY = "key"
    SUMMON = "summon"

    def __str__(self) -> str:
        return self.value

    @property
    def sides(self) -> Mapping[Face, int]:
        """Face -> number of sides (out of six) showing it, in canonical order."""
        return _SIDES[self]

    @property
    def faces(self) -> tuple[Face, ...]:
        """The faces this die can show, in canonical order."""
        return tuple(_SIDES[self])

    @property
    def icons(self) -> tuple[Face, ...]:
        """The faces that can appear in an icon set (every face but blank)."""
        return tuple(face for face in _SIDES[self] if face is not Face.BLANK)

    def chance(self, face: Face) -> Fraction:
        """The exact chance that one roll of this die shows `face`."""
        return Fraction(_SIDES[self].get(face, 0), 6)

    @property
    def box_count(self) -> int:
        """How many dice of this kind the game box holds ("Game Components")."""
        return _BOX[self]

    @property
    def max_dice(self) -> int:
        """The most dice of this kind one roll may use (see docs/dice.md, "How many dice")."""
        return _MAX_DICE[self]

    @classmethod
    def of(cls, face: Face) -> DieKind:
        """The die kind a (non-blank) face belongs to."""
        for kind, sides in _SIDES.items():
            if face in sides and face is not Face.BLANK:
                return kind
        raise DiceError(f"a blank face does not belong to one kind of die; use one of {_icon_names()}.")

    @classmethod
    def parse(cls, text: str) -> DieKind:
        try:
            return cls(text.strip().lower())
        except ValueError:
            names = ", ".join(kind.value for kind in cls)
            raise DiceError(f"unknown kind of die {text!r}; use one of: {names}.") from None


_SIDES: dict[DieKind, Mapping[Face, int]] = {
    DieKind.CLUE: MappingProxyType({Face.EYE: 3, Face.CAMERA: 2, Face.COBWEB: 1}),
    DieKind.KEY: MappingProxyType({Face.KEY: 3, Face.BLANK: 3}),
    DieKind.SUMMON: MappingProxyType({Face.SUMMON: 1, Face.BLANK: 5}),
}
_BOX = {DieKind.CLUE: 5, DieKind.KEY: 4, DieKind.SUMMON: 7}
# Clue dice: "Players may not exceed five Clue Dice!" Key dice: the box holds four, the companion
# allows a fifth so that a table using pipped dice and an item that adds a key die is not refused.
# Summon dice: one per solved clue, and there are seven clues to solve.
_MAX_DICE = {DieKind.CLUE: 5, DieKind.KEY: 5, DieKind.SUMMON: 7}

_ALIASES = {
    "eyes": Face.EYE,
    "cameras": Face.CAMERA,
    "cobwebs": Face.COBWEB,
    "web": Face.COBWEB,
    "webs": Face.COBWEB,
    "keys": Face.KEY,
    "summons": Face.SUMMON,
    "-": Face.BLANK,
    "none": Face.BLANK,
}


def _icon_names() -> str:
    return ", ".join(face.value for face in Face if face is not Face.BLANK)


def parse_face(value: Face | str) -> Face:
    """A face from its spelling ("eye", "Camera", "eyes", "blank"); DiceError if unknown."""
    if isinstance(value, Face):
        return value
    if not isinstance(value, str):
        raise DiceError(f"a face must be given by name, not {value!r}; use one of: {', '.join(f.value for f in Face)}.")
    text = value.strip().lower()
    try:
        return Face(text)
    except ValueError:
        pass
    if text in _ALIASES:
        return _ALIASES[text]
    names = ", ".join(face.value for face in Face)
    raise DiceError(f"unknown die face {value!r}; the faces are: {names}.")


def parse_faces(values: str | Iterable[Face | str], kind: DieKind | None = None) -> tuple[Face, ...]:
    """Faces from "eye,eye,blank" or a list; with `kind`, each must be a face of that die."""
    if isinstance(values, str):
        items: list[Face | str] = [part for part in values.replace(" ", ",").split(",") if part.strip()]
    else:
        items = list(values)
    faces = tuple(parse_face(item) for item in items)
    if kind is not None:
        for face in faces:
            if face not in kind.sides:
                allowed = ", ".join(f.value for f in kind.faces)
                raise DiceError(f"a {kind.value} die has no {face.value} face; its faces are: {allowed}.")
    return faces


@dataclass(frozen=True, eq=False)
class PipMap:
    """Which face each pip count (1-6) of an ordinary die stands for, one table per kind of die.

    The default follows the issue and docs/dice.md: clue 1-3 eye, 4-5 camera, 6 cobweb;
    key 4-6 key, 1-3 blank; summon 6 summon, 1-5 blank. A mapping must give every pip
    exactly one face and keep the real die's face counts, so the odds stay true.
    """

    tables: Mapping[DieKind, tuple[Face, ...]]  # kind -> faces for pips 1..6

    def __post_init__(self) -> None:
        for kind in DieKind:
            if kind not in self.tables:
                raise DiceError(f"the pip map has no table for {kind.value} dice.")
            _check_table(kind, self.tables[kind])
        object.__setattr__(self, "tables", MappingProxyType(dict(self.tables)))

    def _key(self) -> tuple[tuple[DieKind, tuple[Face, ...]], ...]:
        return tuple((kind, self.tables[kind]) for kind in DieKind)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PipMap) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @classmethod
    def default(cls) -> PipMap:
        return _DEFAULT

    @classmethod
    def from_dict(cls, data: Mapping[str, Mapping[str, Sequence[int]]]) -> PipMap:
        """A mapping such as {"clue": {"eye": [1, 2, 3], "camera": [4, 5], "cobweb": [6]}}.

        Kinds left out keep the default table. Within a kind every pip 1-6 must appear
        exactly once (faces left out of the dict, such as blank, take the pips left over).
        """
        if not isinstance(data, Mapping):
            raise DiceError('a pip map must be a table of die kinds, e.g. {"clue": {"eye": [1, 2, 3], ...}}.')
        tables = dict(_DEFAULT.tables)
        for kind_name, faces in data.items():
            kind = DieKind.parse(str(kind_name))
            if not isinstance(faces, Mapping):
                raise DiceError(f"the pip map for {kind.value} dice must map faces to lists of pips.")
            slots: list[Face | None] = [None] * 6
            for face_name, pips in faces.items():
                face = parse_face(str(face_name))
                if face not in kind.sides:
                    allowed = ", ".join(f.value for f in kind.faces)
                    raise DiceError(f"a {kind.value} die has no {face.value} face; its faces are: {allowed}.")
                if isinstance(pips, (int, str)) or not isinstance(pips, Sequence):
                    raise DiceError(
                        f"pips for {kind.value} {face.value} must be a list such as [1, 2, 3], not {pips!r}."
                    )
                for pip in pips:
                    if not isinstance(pip, int) or isinstance(pip, bool) or not 1 <= pip <= 6:
                        raise DiceError(f"pip {pip!r} for {kind.value} {face.value} is not a number from 1 to 6.")
                    other = slots[pip - 1]
                    if other is not None:
                        raise DiceError(
                            f"pip {pip} of the {kind.value} die is mapped twice ({other.value} and {face.value}); "
                            "map every pip 1-6 exactly once."
                        )
                    slots[pip - 1] = face
            missing = [pip for pip, face in enumerate(slots, 1) if face is None]
            if missing:
                named = {f for f in slots if f is not None}
                left = [f for f in kind.faces if f not in named]
                if len(left) != 1:
                    raise DiceError(
                        f"pips {', '.join(map(str, missing))} of the {kind.value} die are not mapped; "
                        "map every pip 1-6 exactly once."
                    )
                for pip in missing:
                    slots[pip - 1] = left[0]
            tables[kind] = tuple(f for f in slots if f is not None)
        return cls(tables)

    def to_dict(self) -> dict[str, dict[str, list[int]]]:
        return {
            kind.value: {
                face.value: [pip for pip, f in enumerate(self.tables[kind], 1) if f is face] for face in kind.faces
            }
            for kind in DieKind
        }

    def face(self, kind: DieKind, pip: int) -> Face:
        """The face a standard die showing `pip` stands for."""
        if not isinstance(pip, int) or isinstance(pip, bool) or not 1 <= pip <= 6:
            raise DiceError(f"a standard die shows 1 to 6 pips, not {pip!r}.")
        return self.tables[kind][pip - 1]

    def faces(self, kind: DieKind, pips: Iterable[int]) -> tuple[Face, ...]:
        return tuple(self.face(kind, pip) for pip in pips)

    def pips(self, kind: DieKind, face: Face) -> tuple[int, ...]:
        """The pip counts that stand for `face` on a `kind` die."""
        if face not in kind.sides:
            allowed = ", ".join(f.value for f in kind.faces)
            raise DiceError(f"a {kind.value} die has no {face.value} face; its faces are: {allowed}.")
        return tuple(pip for pip, f in enumerate(self.tables[kind], 1) if f is face)


def _check_table(kind: DieKind, table: tuple[Face, ...]) -> None:
    if len(table) != 6:
        raise DiceError(f"the {kind.value} pip table needs six faces (pips 1-6), got {len(table)}.")
    for face in table:
        if face not in kind.sides:
            allowed = ", ".join(f.value for f in kind.faces)
            raise DiceError(f"a {kind.value} die has no {face.value} face; its faces are: {allowed}.")
    for face, count in kind.sides.items():
        have = sum(1 for f in table if f is face)
        if have != count:
            raise DiceError(
                f"the {kind.value} pip map gives {face.value} {have} pip(s) but the real die has {count} "
                f"{face.value} side(s); keep the real counts "
                f"({', '.join(f'{f.value} {n}' for f, n in kind.sides.items())}) so the odds stay true."
            )


_DEFAULT = PipMap(
    {
        DieKind.CLUE: (Face.EYE, Face.EYE, Face.EYE, Face.CAMERA, Face.CAMERA, Face.COBWEB),
        DieKind.KEY: (Face.BLANK, Face.BLANK, Face.BLANK, Face.KEY, Face.KEY, Face.KEY),
        DieKind.SUMMON: (Face.BLANK,) * 5 + (Face.SUMMON,),
    }
)
