"""Icon sets ("requirements") and the number of dice an action may roll.

Rulebook: "Action 3: Search" (icon sets, numbers such as x2), "Red Icons" (Timers, Disruption),
"Magnifying Glass", "Aiding Players", FAQ ("What if I have Items that allow me to roll more than
five Clue Dice?").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from companion.errors import DiceError
from companion.games.skeptics.dice.faces import DieKind, Face, parse_face
from companion.words import a_or_an, article, listed

__all__ = ["Requirement", "dice_for", "ACTIONS", "action_kind"]

# Action -> the kind of die it rolls.
ACTIONS: Mapping[str, DieKind] = {
    "search": DieKind.CLUE,
    "solve": DieKind.CLUE,
    "prove": DieKind.CLUE,
    "barrier": DieKind.CLUE,  # "Barrier (Museum Board)": three clue dice, no items
    "fire": DieKind.CLUE,  # "Fire Card": one cobweb with three clue dice, no items
    "unlock": DieKind.KEY,
    "summon": DieKind.SUMMON,
    "pull": DieKind.SUMMON,
}
GLASS_ACTIONS = ("search", "solve", "prove")  # "Magnifying Glass"
NO_ITEM_ACTIONS = ("barrier", "fire")  # "Environment Cards": items cannot be used on them
RED_ICONS = ("timer", "disruption")
BASE_DICE = 3

_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_ICON_ORDER = (Face.EYE, Face.CAMERA, Face.COBWEB, Face.KEY, Face.SUMMON)


def an(word: str) -> str:
    """The article for `word` in messages: "an unlock", "a search" (companion.words.article, every game's)."""
    return article(word)


def action_kind(action: str) -> DieKind:
    """The kind of die an action rolls; DiceError naming the actions if unknown."""
    try:
        return ACTIONS[action]
    except (KeyError, TypeError):
        raise DiceError(f"unknown action {action!r}; dice are rolled for: {', '.join(ACTIONS)}.") from None


def _valid_icons() -> str:
    return ", ".join(face.value for face in _ICON_ORDER)


@dataclass(frozen=True)
class Requirement:
    """An icon set: how many of each icon are needed, with the red icons Timer and Disruption.

    `need` holds (face, count) pairs in canonical order (eye, camera, cobweb, key, summon),
    each count at least 1; all faces belong to one kind of die. Build one with `parse` or `of`.
    """

    need: tuple[tuple[Face, int], ...]
    timer: bool = False
    disruption: bool = False

    def __post_init__(self) -> None:
        if not self.need:
            raise DiceError(f"an icon set needs at least one icon; icons are: {_valid_icons()}.")
        seen: set[Face] = set()
        kinds = set()
        for face, count in self.need:
            if not isinstance(face, Face) or face is Face.BLANK:
                raise DiceError(f"unknown icon {face!r}; icons are: {_valid_icons()}.")
            if face in seen:
                raise DiceError(f"the icon {face.value} is given twice; give it once with its count.")
            seen.add(face)
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                raise DiceError(f"the count of {face.value} must be a whole number of at least 1, not {count!r}.")
            kinds.add(DieKind.of(face))
        if len(kinds) > 1:
            raise DiceError(
                "an icon set uses one kind of die: clue icons (eye, camera, cobweb), key, or summon; "
                f"got {', '.join(sorted(k.value for k in kinds))} icons together."
            )
        kind = kinds.pop()
        object.__setattr__(self, "_kind", kind)
        order = sorted(self.need, key=lambda pair: _ICON_ORDER.index(pair[0]))
        object.__setattr__(self, "need", tuple(order))
        # Odds are cached on the icon set, so its hash is worked out once (Enum hashing is slow).
        key = (tuple((face.value, count) for face, count in order), self.timer, self.disruption)
        object.__setattr__(self, "_hash", hash(key))
        if self.size > kind.max_dice:
            raise DiceError(
                f"the icon set {self} needs {self.size} {kind.value} dice but a roll may use at most {kind.max_dice}."
            )
        if kind is DieKind.SUMMON and self.size != 1:
            raise DiceError("a summon or pull succeeds on one summon icon; write it as summon:1.")
        if kind is DieKind.SUMMON and (self.timer or self.disruption):
            raise DiceError("summon and pull rolls carry no timer or disruption icon.")

    def __hash__(self) -> int:
        value: int = self.__dict__["_hash"]
        return value

    # -- building -----------------------------------------------------------------
    @classmethod
    def of(
        cls,
        need: Mapping[Face | str, int] | Iterable[tuple[Face | str, int]],
        *,
        timer: bool = False,
        disruption: bool = False,
    ) -> Requirement:
        pairs = need.items() if isinstance(need, Mapping) else need
        return cls(tuple((_icon(face), count) for face, count in pairs), timer=timer, disruption=disruption)

    @classmethod
    def parse(cls, text: str | Requirement) -> Requirement:
        """Parse "eye:2,camera:1", "key:3", "cobweb:1,timer", "eye:1,camera:1,disruption".

        Plain words work too: "2 eyes and a camera", "three keys", "an eye, a cobweb and a timer",
        "eye x2". An icon with no number counts once.
        """
        if isinstance(text, Requirement):
            return text
        if isinstance(text, str) and cls is Requirement:
            return _parsed(text)  # an icon set is read once: the legal actions read the same few again and again
        return cls._read(text)

    @classmethod
    def _read(cls, text: str) -> Requirement:
        if not isinstance(text, str) or not text.strip():
            raise DiceError(
                f'an icon set is text such as "eye:2,camera:1" or "key:3"; icons are: {_valid_icons()}, '
                "plus the red icons timer and disruption."
            )
        counts: dict[Face, int] = {}
        timer = disruption = False
        parts: list[str] = []
        for chunk in re.split(r"\s*(?:,|;|\+|&|\band\b|\bwith\b)\s*", text.strip().lower()):
            # "eye:2 camera:1" (spaces only) is read as two parts
            words = chunk.split()
            if len(words) > 1 and all(":" in w or w in RED_ICONS for w in words):
                parts += words
            elif chunk:
                parts.append(chunk)
        for part in parts:
            word, count = _parse_part(part, text)
            if word in ("timer", "timers"):
                timer = True
                continue
            if word in ("disruption", "disruptions"):
                disruption = True
                continue
            face = _icon(word, text)
            if face in counts:
                raise DiceError(f"the icon {face.value} is given twice in {text!r}; give it once with its count.")
            counts[face] = count
        return cls(tuple(counts.items()), timer=timer, disruption=disruption)

    # -- reading ------------------------------------------------------------------
    @property
    def kind(self) -> DieKind:
        """The kind of die this icon set is rolled with."""
        kind: DieKind = self.__dict__["_kind"]
        return kind

    @property
    def size(self) -> int:
        """How many dice must show an icon (the total of the counts)."""
        return sum(count for _, count in self.need)

    @property
    def counts(self) -> dict[Face, int]:
        return dict(self.need)

    def count(self, face: Face) -> int:
        return dict(self.need).get(face, 0)

    def vector(self) -> tuple[int, ...]:
        """The counts as a tuple over the die kind's icons in canonical order."""
        counts = dict(self.need)
        return tuple(counts.get(face, 0) for face in self.kind.icons)

    def missing(self, faces: Iterable[Face | str]) -> dict[Face, int]:
        """The icons still needed once `faces` are showing (empty when they satisfy the set)."""
        have: dict[Face, int] = {}
        for face in faces:
            f = parse_face(face)
            have[f] = have.get(f, 0) + 1
        return {face: count - have.get(face, 0) for face, count in self.need if count > have.get(face, 0)}

    def satisfied_by(self, faces: Iterable[Face | str]) -> bool:
        return not self.missing(faces)

    def without(self, faces: Iterable[Face]) -> Requirement | None:
        """What is still needed after `faces` count toward the set (None when nothing is left)."""
        left = self.missing(faces)
        if not left:
            return None
        return Requirement(tuple(left.items()), timer=self.timer, disruption=self.disruption)

    def __str__(self) -> str:
        parts = [f"{face.value}:{count}" for face, count in self.need]
        if self.timer:
            parts.append("timer")
        if self.disruption:
            parts.append("disruption")
        return ",".join(parts)

    def describe(self) -> str:
        """Plain words for a phone or the OLED: "2 eyes and a camera, with a timer" (parse reads it back)."""
        words = []
        for face, count in self.need:
            name = face.value
            words.append(a_or_an(name) if count == 1 else f"{count} {name}s")
        text = listed(words)
        red = [name for name, on in (("a timer", self.timer), ("disruption", self.disruption)) if on]
        return text + (f", with {' and '.join(red)}" if red else "")


def _icon(value: Face | str, text: str | None = None) -> Face:
    try:
        face = parse_face(value)
    except DiceError:
        where = f" in {text!r}" if text is not None else ""
        raise DiceError(
            f"unknown icon {value!r}{where}; icons are: {_valid_icons()}, plus the red icons timer and disruption."
        ) from None
    if face is Face.BLANK:
        raise DiceError(f"blank is not an icon to roll for; icons are: {_valid_icons()}.")
    return face


_PART = re.compile(
    r"^(?:(?P<n1>\d+|a|an|one|two|three|four|five|six|seven)\s*x?\s+)?(?P<word>[a-z-]+)"
    r"(?:\s*(?::|x|\*|=)\s*(?P<n2>\d+))?$"
)


def _parse_part(part: str, text: str) -> tuple[str, int]:
    part = part.strip()
    match = _PART.match(part)
    if not match or (match.group("n1") and match.group("n2")):
        raise DiceError(
            f'cannot read {part!r} in the icon set {text!r}; write icons as "eye:2,camera:1" '
            f"(icons: {_valid_icons()}; red icons: timer, disruption)."
        )
    raw = match.group("n1") or match.group("n2")
    word = match.group("word")
    if raw is None:
        return word, 1
    count = _NUMBER_WORDS[raw] if raw in _NUMBER_WORDS else int(raw)
    if count < 1:
        raise DiceError(f"the count of {word} in {text!r} must be at least 1, not {count}.")
    if (word in RED_ICONS or word.rstrip("s") in RED_ICONS) and count != 1:
        raise DiceError(f'the red icon {word!r} takes no count in {text!r}; write just "{word.rstrip("s")}".')
    return word, count


def dice_for(
    action: str, base: int = BASE_DICE, glass: bool = False, aid: bool = False, items: int = 0, minus: int = 0
) -> int:
    """How many dice an action rolls.

    `base` is three for clue and key dice ("Action 3: Search", "Action 2: Unlock"); for a summon or
    pull it is the number of summon dice the team holds. +1 for a magnifying glass (search, solve,
    prove only: "Magnifying Glass"), +1 when aiding on a prove ("Aiding Players"), +`items` for
    items that add dice. `minus` is a reduction such as the Watching Eyes environment card; per
    the FAQ it is applied first and the bonuses after, and the total is then capped at five clue dice.
    Bonuses that do not apply to the action are refused rather than ignored.
    """
    try:
        return _dice_for(action, base, glass, aid, items, minus)  # the same few counts, state after state
    except TypeError:  # a value that is not a number of dice (unhashable): refused as such below
        return _count_dice(action, base, glass, aid, items, minus)


# a count is a value of its arguments (typed: True is not taken for 1, which is refused as a number of dice)
@functools.lru_cache(maxsize=1024, typed=True)
def _dice_for(action: str, base: int, glass: bool, aid: bool, items: int, minus: int) -> int:
    return _count_dice(action, base, glass, aid, items, minus)


def _count_dice(action: str, base: int, glass: bool, aid: bool, items: int, minus: int) -> int:
    kind = action_kind(action)
    for name, value in (("base", base), ("items", items), ("minus", minus)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise DiceError(f"{name} must be a whole number of dice, 0 or more, not {value!r}.")
    if glass and action not in GLASS_ACTIONS:
        raise DiceError(f"a magnifying glass adds a clue die only to {', '.join(GLASS_ACTIONS)}, not to {action}.")
    if aid and action != "prove":
        raise DiceError(f"aiding adds a die only to a prove action, not to {action}.")
    if items and action in NO_ITEM_ACTIONS:
        raise DiceError(f"items cannot be used on environment cards, so {an(action)} {action} roll takes no item dice.")
    if kind is DieKind.SUMMON:
        if items:
            raise DiceError(
                f"items do not add summon dice; {an(action)} {action} rolls the summon dice the team holds."
            )
        if base < 1:
            raise DiceError(f"{an(action)} {action} needs at least one summon die (solve a clue to gain one).")
        if base > kind.max_dice:
            raise DiceError(f"the team can hold at most {kind.max_dice} summon dice, not {base}.")
        return base
    total = max(0, base - minus) + int(glass) + int(aid) + items
    total = min(total, kind.max_dice)
    if total < 1:
        raise DiceError(f"{an(action)} {action} needs at least one die to roll.")
    return total


@functools.lru_cache(maxsize=1024)
def _parsed(text: str) -> Requirement:
    """Requirement.parse of a text, kept (a Requirement is immutable; a refused text raises each time)."""
    return Requirement._read(text)
