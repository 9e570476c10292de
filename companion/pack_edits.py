"""A game's part of the owner's box (companion.box): which pack files it keeps there, how they are read and checked,
which of their entries the "Your box" page fills in, and what the page shows of them. Each game with packs an owner
fills in gives one :class:`BoxPacks` through its module (``GameModule.box_packs()``); the box asks it and never
names a game.

The helpers below are the edits' common ground: a pack file's text parsed with tomlkit (so its comments stay), the
page's fields checked for their kind, and set on an entry of the file::

    doc = parse_doc("ghosts.toml", text)
    values = clean_fields("ghost", {"name": "text", "difficulty": "int"}, {"name": "Shade"})
    apply_fields(entry_of(doc, "ghosts", "id", "shadow"), values, kinds)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

import tomlkit
from tomlkit.items import AoT, Table

from companion.errors import BadCommand, PackError
from companion.pack_files import game_pack_texts
from companion.toml_text import check_toml
from companion.validate import control_character

__all__ = ["BoxPacks", "Doc", "FieldValue", "apply_fields", "clean_fields", "entries", "parse_doc"]

Doc = tomlkit.TOMLDocument
#: one field's value as the page sent it, checked for its kind
FieldValue = str | int | bool | list[str] | list[int] | dict[str, str | int | bool]
TEXT_MAX = 300
# how the placeholder check names a field (a game may name them its own way: BoxPacks.field_words)
_WORDS = {
    "name": "name",
    "ability": "ability",
    "lingering": "lingering effect",
    "effect": "effect",
    "text": "what it does",
}


class BoxPacks(ABC):
    """One game's pack files in the owner's box.

    ``sections``: the parts the page fills in (``"ghost"``, ``"es_adventure"`` ...), each with its fields' kinds:
    ``text``, ``int``, ``flag``, ``texts`` (a list of texts), ``pair`` (two whole numbers), ``effect`` (whole numbers
    of :attr:`effect_keys`, texts of :attr:`effect_texts` and a ``gate`` flag); a kind ending in ``0`` is optional, and set to its empty
    value it goes away from the file. Every method is pure but for reading the bundled and the owner's files.
    """

    rules: ClassVar[str]
    package: ClassVar[str]  # the package whose ``packs`` folder holds the bundled files
    files: ClassVar[tuple[str, ...]]  # its pack files by relative path (a game may add more: :meth:`holds`)
    sections: ClassVar[Mapping[str, Mapping[str, str]]]
    effect_keys: ClassVar[tuple[str, ...]] = ()
    effect_texts: ClassVar[tuple[str, ...]] = ("text",)  # an effect's texts (the packs' validation checks their words)
    field_words: ClassVar[Mapping[str, str]] = _WORDS

    def holds(self, rel: str) -> bool:
        """Whether `rel` (a relative path) is one of the game's pack files."""
        return rel in self.files

    def owner_files(self, folder: Path) -> dict[str, Path]:
        """The game's pack files in the owner's `folder`, by relative path."""
        return {rel: folder / rel for rel in self.files if (folder / rel).is_file()}

    def texts(self, folder: Path | None) -> dict[str, str]:
        """The text of each of its pack files in use: the owner's in `folder` (a folder that exists), else the
        bundled one."""
        return {rel: text for rel, (_, text) in game_pack_texts(self.package, self.files, folder).items()}

    @abstractmethod
    def parse(self, texts: Mapping[str, str], folder: Path | None) -> object:
        """The game's packs with `texts` (relative path -> text) in place of the bundled files, checked like files
        edited by hand: PackError names the file (as kept in `folder`, the box folder), the entry and the field."""

    @abstractmethod
    def file_of(self, packs: object, section: str, key: str) -> str:
        """The pack file an entry of `section` is kept in; BadCommand for a key that names none."""

    @abstractmethod
    def edit(self, doc: Doc, packs: object, section: str, key: str, values: Mapping[str, FieldValue]) -> str:
        """Set `values` on the entry `key` of `section` in `doc` (that file's text, parsed) and say what was filled
        in ("the Shadow Ghost"); BadCommand when there is no such entry. ``packs``: the game's packs as in play."""

    def edit_entry(
        self,
        doc: Doc,
        section: str,
        list_name: str,
        key_field: str,
        wanted: str | int,
        values: Mapping[str, FieldValue],
    ) -> Table | dict[str, object] | None:
        """Set `values` on the entry of the list `list_name` in `doc` whose `key_field` is `wanted` (with the fields'
        kinds of `section`) and return it; None when the file has no such entry."""
        for entry in entries(doc, list_name):
            if isinstance(entry, (Table, dict)) and entry.get(key_field) == wanted:
                apply_fields(entry, values, self.sections[section], self.field_words)
                return entry
        return None

    @abstractmethod
    def view(self, packs: object | None) -> dict[str, object]:
        """What the "Your box" page shows of the game: its entries with what is filled in, and how many are left;
        ``packs`` None when the game's files cannot be read (the same keys, empty)."""


def parse_doc(rel: str, text: str) -> Doc:
    """A pack file's text as a tomlkit document, bounded first (companion.toml_text); PackError if it is no TOML."""
    check_toml(rel, text)  # bounded: the limits of companion.toml_text, before tomlkit reads it
    try:
        return tomlkit.parse(text)
    except tomlkit.exceptions.TOMLKitError as exc:
        raise PackError(f"{rel}: is not valid TOML ({exc}). Fix the file (see docs/packs.md).") from None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and len(value) <= TEXT_MAX else None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _flag(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def _texts(value: object) -> list[str] | None:
    if not isinstance(value, list) or len(value) > 12:
        return None
    texts = [text for text in map(_text, value) if text is not None]
    return texts if len(texts) == len(value) else None


def _pair(value: object) -> list[int] | None:
    if not isinstance(value, list) or len(value) != 2:
        return None
    pair = [number for number in map(_int, value) if number is not None]
    return pair if len(pair) == 2 else None


def _effect(
    value: object, effect_keys: tuple[str, ...], effect_texts: tuple[str, ...]
) -> dict[str, str | int | bool] | None:
    """Whole numbers of the game's `effect_keys`, texts of its `effect_texts` and a "gate" flag."""
    if not isinstance(value, Mapping):
        return None
    effect: dict[str, str | int | bool] = {}
    for key, item in value.items():
        checked = (
            _int(item)
            if key in effect_keys
            else _text(item)
            if key in effect_texts
            else _flag(item)
            if key == "gate"
            else None
        )
        if checked is None:
            return None
        effect[str(key)] = checked
    return effect


_KINDS = {"text": _text, "int": _int, "flag": _flag, "texts": _texts, "pair": _pair}


def _checked(
    base: str, value: object, effect_keys: tuple[str, ...], effect_texts: tuple[str, ...]
) -> FieldValue | None:
    """`value` as a field of kind `base` takes it; None when it is not of that kind."""
    check = _KINDS.get(base)
    return check(value) if check is not None else _effect(value, effect_keys, effect_texts)


def clean_fields(
    section: str,
    kinds: Mapping[str, str],
    raw: object,
    effect_keys: tuple[str, ...] = (),
    effect_texts: tuple[str, ...] = ("text",),
) -> dict[str, FieldValue]:
    """The page's fields for an entry of `section`, checked for their kind only (the packs' validation checks the
    values); BadCommand names the field."""
    if not isinstance(raw, Mapping):
        raise BadCommand("box: the fields must be an object.")
    out: dict[str, FieldValue] = {}
    for key, raw_value in raw.items():
        if key == "placeholder":
            if not isinstance(raw_value, bool):
                raise BadCommand("box: placeholder must be true or false.")
            out[key] = raw_value
            continue
        kind = kinds.get(key)
        if kind is None:
            raise BadCommand(f"box: a {section} has no field {key!r}; the fields are {', '.join(kinds)}.")
        value = _checked(kind.rstrip("0"), raw_value, effect_keys, effect_texts)
        if value is None:
            raise BadCommand(f"box: the field {key!r} of a {section} has the wrong kind of value.")
        for text in value if isinstance(value, list) else value.values() if isinstance(value, Mapping) else [value]:
            if isinstance(text, str) and control_character(text) is not None:
                raise BadCommand(
                    f"box: the field {key!r} of a {section} must be plain text, with no control "
                    f"characters (it holds {control_character(text)})."
                )
        if isinstance(value, dict):  # what is nothing goes away: {doom: 1, text: ""} is {doom: 1}
            out[key] = {k: v.strip() if isinstance(v, str) else v for k, v in value.items() if v not in (0, "", False)}
        else:
            out[key] = value.strip() if isinstance(value, str) else value
    return out


def entries(doc: Doc, name: str) -> AoT | list[Table]:
    """The array of tables `name` of a pack file (none: empty)."""
    value = doc.get(name)
    return value if isinstance(value, (AoT, list)) else []


def apply_fields(
    entry: Table | dict[str, object],
    values: Mapping[str, FieldValue],
    kinds: Mapping[str, str],
    words: Mapping[str, str] = _WORDS,
) -> None:
    """Set the fields on a TOML table; an optional field set to its empty value ("", 0, false, [], {}) goes away. The
    entry is marked filled in (its placeholder flag and the bundled stand-in note go) unless ``placeholder`` is
    true; BadCommand when a text is still the stand-in's words (`words` name the fields)."""
    for key, value in values.items():
        if key == "placeholder":
            continue
        optional = kinds.get(key, "").endswith("0")
        if optional and value in ("", 0, False, [], {}):
            if key in entry:
                del entry[key]
        elif isinstance(value, Mapping):  # an effect: one inline table, as the bundled files write it
            effect = tomlkit.inline_table()
            effect.update(value)
            entry[key] = effect
        else:
            entry[key] = value
    if values.get("placeholder") is True:
        entry["placeholder"] = True
        return
    if "placeholder" in entry:
        del entry["placeholder"]
    note = entry.get("note")
    if isinstance(note, str) and "placeholder" in note.lower():
        del entry["note"]  # the bundled note says what was a stand-in; the owner has filled it in
    for key in ("name", "ability", "lingering", "effect", "text"):
        said = entry.get(key)
        if isinstance(said, str) and said.strip().lower().startswith("placeholder"):
            raise BadCommand(
                f"box: the {words.get(key, key)} still holds the stand-in's words; copy it from your card "
                "in your own short words."
            )
