"""What every game's packs share: reading a TOML table's fields with messages that name file, entry and field
(:class:`Entry`), and finding a game's bundled pack files and the owner's replacements for them.

    from companion.pack_files import Entry, game_pack_texts
    texts = game_pack_texts("companion.games.elder_sign", ["adventures.toml"], owner_dir)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, NoReturn, Protocol, TypeVar

from companion.errors import PackError
from companion.validate import control_character

__all__ = ["Entry", "game_pack_texts", "name_stand_ins", "owner_folder", "owner_text", "show_value", "stand_in_name"]

_ID = re.compile(r"^[a-z][a-z0-9_]*$")


class Entry:
    """Reads fields of one TOML table, raising PackError that names file, entry and field (every game's packs use
    it; ``docs`` is the page the message points to)."""

    docs: ClassVar[str] = "docs/packs.md"

    def __init__(self, source: str, label: str, data: Any) -> None:
        self.source = source
        self.label = label
        if not isinstance(data, dict):
            self.fail(f"must be a table (key = value lines under a [header]), not {_show(data)}")
        self.data: dict[str, Any] = data

    def fail(self, message: str, field_name: str | None = None) -> NoReturn:
        where = f"{self.source}: {self.label}"
        if field_name is not None:
            where += f': field "{field_name}"'
        raise PackError(f"{where} {message}. Fix the file (see {self.docs}) or remove it to use the bundled one.")

    def check_keys(self, allowed: Iterable[str]) -> None:
        allowed = tuple(allowed)
        for key in self.data:
            if key not in allowed:
                self.fail(f"has an unknown field {key!r}; the fields are: {', '.join(allowed)}")

    def text(self, name: str, default: str | None = None) -> str:
        value = self.data.get(name, default)
        if value is None:
            self.fail("is missing; add it as text in quotes", name)
        if not isinstance(value, str) or not value.strip():
            self.fail(f"must be non-empty text in quotes, not {_show(value)}", name)
        assert isinstance(value, str)
        self._plain(name, value)
        return value.strip()

    def _plain(self, name: str, value: str) -> None:
        found = control_character(value, lines=True)  # a card's text may have lines, nothing else of that kind
        if found is not None:
            self.fail(f"must be plain text; it holds the control character {found}", name)

    def ident(self, name: str) -> str:
        value = self.text(name)
        if not _ID.match(value):
            self.fail(f"must be a short lowercase id (letters, digits, _; starting with a letter), not {value!r}", name)
        return value

    def integer(self, name: str, low: int, high: int, default: int | None = None) -> int:
        value = self.data.get(name, default)
        if value is None:
            self.fail(f"is missing; add a whole number {low} to {high}", name)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            self.fail(f"must be a whole number {low} to {high}, not {_show(value)}", name)
        assert isinstance(value, int)
        return value

    def flag(self, name: str) -> bool:
        value = self.data.get(name, False)
        if not isinstance(value, bool):
            self.fail(f"must be true or false, not {_show(value)}", name)
        assert isinstance(value, bool)
        return value

    def pair(self, name: str, low: int, high: int) -> tuple[int, int]:
        value = self.data.get(name)
        if value is None:
            self.fail(f"is missing; add two whole numbers like [{low}, {low + 1}]", name)
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and low <= v <= high for v in value)
        ):
            self.fail(f"must be two whole numbers {low} to {high} like [{low}, {low + 1}], not {_show(value)}", name)
        assert isinstance(value, list)
        return (int(value[0]), int(value[1]))

    def note(self) -> str:
        """The optional "note" field (empty when left out)."""
        return self.text("note") if "note" in self.data else ""

    def new_id(self, taken: Mapping[str, Any], what: str) -> str:
        """The entry's "id", refused when an earlier entry of the file has it."""
        value = self.ident("id")
        if value in taken:
            self.fail(f"repeats the id {value!r}; each {what} needs its own", "id")
        return value

    def texts(self, name: str) -> list[str]:
        value = self.data.get(name)
        if value is None:
            self.fail('is missing; add a list of texts like ["a", "b"]', name)
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
            self.fail(f'must be a non-empty list of texts like ["a", "b"], not {_show(value)}', name)
        assert isinstance(value, list)
        for item in value:
            self._plain(name, str(item))
        return [str(v).strip() for v in value]


class StandIn(Protocol):
    """A pack entry that may be a stand-in (a frozen dataclass with a name)."""

    @property
    def name(self) -> str: ...

    @property
    def placeholder(self) -> bool: ...


E = TypeVar("E", bound=StandIn)


def stand_in_name(kind: str, n: int) -> str:
    """The name of a card not filled in yet whose name no rulebook gives, in every list: its kind and its number
    among such cards of that kind, from 1 ("Asylum card 1"). Such a name is the companion's, not the card's, so the
    file's number is not used; the number is the card's place among the stand-ins of its kind in the bundled pack
    (:func:`name_stand_ins`), so a card keeps its name while the others around it are filled in."""
    return f"{kind} {n}"


def names_no_card(entry: StandIn, words: str) -> bool:
    """Whether a card not filled in yet is named as no rulebook names a card ("Ancient One 2": the companion's name,
    naming no card of the deck), not as one the rulebook gives ("Nyarlathotep"); `words` is its kind."""
    return _is_stand_in(entry, words)


def _is_stand_in(entry: StandIn, words: str) -> bool:
    return entry.placeholder and re.fullmatch(rf"{re.escape(words)} \d+", entry.name.strip(), re.IGNORECASE) is not None


def name_stand_ins(
    entries: Mapping[str, E], kind: Callable[[E], str], bundled: Mapping[str, E] | None = None
) -> dict[str, E]:
    """`entries` with each stand-in named "KIND N" in the file (no card's own name: "Asylum card 3") named again by
    :func:`stand_in_name`. N is the card's place among the stand-ins of its `kind(entry)` in the bundled pack
    (`bundled`: the same list as the bundled files have it; None: `entries` are the bundled ones), so when the owner
    fills a card in mid-game no other card renames itself; a stand-in the bundled pack lacks (the owner's own) is
    numbered after them, in the file's order. A stand-in with a name the rulebook gives ("Child Ghost", whose icon
    sets are not filled in) keeps it."""
    places: dict[str, tuple[str, int]] = {}  # key -> (kind, number) of the bundled pack's stand-ins
    counts: dict[str, int] = {}
    for key, entry in (entries if bundled is None else bundled).items():
        words = kind(entry)
        if _is_stand_in(entry, words):
            counts[words] = counts.get(words, 0) + 1
            places[key] = (words, counts[words])
    out: dict[str, E] = {}
    for key, entry in entries.items():
        words = kind(entry)
        if _is_stand_in(entry, words):
            place = places.get(key)
            if place is None or place[0] != words:
                counts[words] = counts.get(words, 0) + 1
                place = (words, counts[words])
            entry = replace(entry, name=stand_in_name(words, place[1]))  # type: ignore[type-var]
        out[key] = entry
    return out


def card_words(text: str) -> str:
    """A card's words as the table may read them: "" while they are still a stand-in's ("Placeholder: copy ...")."""
    return "" if text.strip().lower().startswith("placeholder") else text


def show_value(value: Any) -> str:
    """A value of a pack file as its owner wrote it, for a message."""
    return _show(value)


def _show(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    return repr(value)


def owner_folder(extra_dir: str | Path) -> Path:
    """The owner's packs folder (game.packs_dir, the box folder); PackError when it does not exist."""
    extra = Path(extra_dir)
    if not extra.is_dir():
        raise PackError(f"the packs directory {extra} does not exist; create it or leave the option out.")
    return extra


def owner_text(path: Path) -> tuple[str, str]:
    """One of the owner's pack files as (source label, text); PackError when it cannot be read."""
    try:
        return str(path), path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PackError(f"{path}: cannot be read ({exc}); check the file and its permissions.") from None


def game_pack_texts(
    package: str, names: Sequence[str], extra_dir: str | Path | None = None
) -> dict[str, tuple[str, str]]:
    """Another game's pack files by name, as (source label, text): the bundled file in `package`'s ``packs``
    folder, replaced by the owner's file of the same name in `extra_dir` (Elder Sign's, Among Cultists')."""
    bundled = resources.files(package).joinpath("packs")
    texts = {name: (name, bundled.joinpath(name).read_text(encoding="utf-8")) for name in names}
    if extra_dir is not None:
        extra = owner_folder(extra_dir)
        for name in names:
            if (extra / name).is_file():
                texts[name] = owner_text(extra / name)
    return texts
