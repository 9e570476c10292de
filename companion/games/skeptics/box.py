"""Skeptics' part of the owner's box (companion.box, through companion.pack_edits.BoxPacks): its pack files (the
five card files and one a board), the entries the "Your box" page fills in (ghosts, environment cards, evidence
symbols, clue cards, items, a board's spaces, ways and secret passages) and what the page shows of them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Protocol

import tomlkit
from tomlkit.items import Table

from companion.errors import BadCommand, PackError
from companion.games.skeptics.packs import ROOM_COUNT, Board, Packs, load_packs, owner_files, pack_texts
from companion.pack_edits import BoxPacks, Doc, FieldValue, apply_fields, entries

__all__ = ["BOX", "SkepticsBox"]

_BOARD_FILE = re.compile(r"^boards/[a-z][a-z0-9_]*\.toml$")
# the card files, and each card section's: its file, the list in it and the key its entries are named by
_CARDS: Mapping[str, tuple[str, str, str]] = {
    "ghost": ("ghosts.toml", "ghosts", "id"),
    "environment": ("environment.toml", "cards", "id"),
    "evidence": ("evidence.toml", "symbols", "id"),
    "clue": ("clues.toml", "cards", "number"),
    "item": ("items.toml", "items", "id"),
}
_WORDS = MappingProxyType(
    {
        "name": "name",
        "ability": "Ghost Hour ability",
        "lingering": "lingering effect",
        "effect": "effect",
        "text": "what it does",
    }
)


def _packs(packs: object) -> Packs:
    if not isinstance(packs, Packs):
        raise TypeError(f"Skeptics' box was given another game's packs: {type(packs).__name__}")
    return packs


class SkepticsBox(BoxPacks):
    """Skeptics' pack files in the owner's box."""

    rules = "skeptics"
    package = "companion.games.skeptics"
    files = ("ghosts.toml", "environment.toml", "evidence.toml", "clues.toml", "items.toml")  # and boards/NAME.toml
    field_words = _WORDS
    sections = MappingProxyType(
        {
            "ghost": {
                "name": "text",
                "difficulty": "int",
                "seance_symbols": "texts",
                "icon_sets": "texts",
                "ability": "text",
                "lingering": "text",
                "first_sets": "int0",
                "closes_doors": "flag0",
            },
            "environment": {
                "name": "text",
                "duration": "text",
                "effect": "text",
                "clue_dice": "int0",
                "actions": "int0",
                "fires": "int0",
                "icon_sets": "texts0",
            },
            "evidence": {"name": "text"},
            "clue": {"icon_set": "text", "name": "text0"},
            "item": {"name": "text", "effect": "text", "dice": "int0", "actions": "texts0"},
            "space": {"name": "text", "pos": "pair"},
            "connection": {"kind": "text", "keys": "int", "lock": "flag0"},
            "passage": {"on": "flag"},
        }
    )

    def holds(self, rel: str) -> bool:
        return rel in self.files or _BOARD_FILE.match(rel) is not None

    def owner_files(self, folder: Path) -> dict[str, Path]:
        return owner_files(folder)

    def texts(self, folder: Path | None) -> dict[str, str]:
        return pack_texts(folder)

    def parse(self, texts: Mapping[str, str], folder: Path | None) -> Packs:
        """The bundled packs with `texts` in their place, named as the box keeps them ("packs/ghosts.toml": no
        machine path, the phone shows it)."""
        label = (lambda rel: f"{folder.name}/{rel}") if folder is not None else (lambda rel: rel)
        return load_packs(None, overrides={rel: (label(rel), text) for rel, text in texts.items()})

    def file_of(self, packs: object, section: str, key: str) -> str:
        if section in _CARDS:
            return _CARDS[section][0]
        board_id = key.partition(":")[0]
        boards = _packs(packs).boards
        if board_id not in boards:
            raise BadCommand(f"box: there is no board {board_id!r}; the boards are {', '.join(boards)}.")
        return f"boards/{board_id}.toml"

    def edit(self, doc: Doc, packs: object, section: str, key: str, values: Mapping[str, FieldValue]) -> str:
        if section in _CARDS:
            return self._edit_card(doc, _packs(packs), section, key, values)
        board_id, _, rest = key.partition(":")
        board = _packs(packs).boards[board_id]
        if section == "space":
            return self._edit_space(doc, board, board_id, rest, values)
        if section == "passage":
            return _edit_passage(doc, board, rest, values)
        return _edit_connection(doc, board, rest, values)

    def _edit_card(self, doc: Doc, packs: Packs, section: str, key: str, values: Mapping[str, FieldValue]) -> str:
        _, list_name, key_field = _CARDS[section]
        wanted: str | int = key
        if section == "clue":
            if not key.isdigit():
                raise BadCommand(f"box: a clue card is named by its number, not {key!r}.")
            wanted = int(key)
        if self.edit_entry(doc, section, list_name, key_field, wanted, values) is None:
            raise BadCommand(f"box: there is no {section} {key!r} in the box.")
        new_name = values.get("name")
        if section == "ghost":
            return str(new_name or (packs.ghosts[key].name if key in packs.ghosts else key))
        if section == "environment":
            return (
                f"the environment card {new_name or (packs.environment[key].name if key in packs.environment else key)}"
            )
        if section == "evidence":
            return f"the evidence symbol {new_name}" if new_name else "the evidence symbol"
        if section == "item":
            return f"the item {new_name or (packs.items[key].name if key in packs.items else key)}"
        return f"clue card {key}"

    def _edit_space(self, doc: Doc, board: Board, board_id: str, rest: str, values: Mapping[str, FieldValue]) -> str:
        if not rest.isdigit() or int(rest) > ROOM_COUNT:
            raise BadCommand(f"box: name a space by its number 0-{ROOM_COUNT}, not {rest!r}.")
        number = int(rest)
        if number == 0:
            table = doc.get("entrance")
            if not isinstance(table, (Table, dict)):
                raise PackError(f"boards/{board_id}.toml: has no [entrance] table.")
            apply_fields(table, values, self.sections["space"], self.field_words)
        else:
            for entry in entries(doc, "rooms"):
                if entry.get("number") == number:
                    apply_fields(entry, values, self.sections["space"], self.field_words)
                    break
            else:
                raise BadCommand(f"box: the {board.name} has no room {number}.")
        return f"{'the Entrance' if number == 0 else f'room {number}'} of the {board.name}"

    def view(self, packs: object | None) -> dict[str, object]:
        """Every ghost, environment card, evidence symbol, clue card, item and board, each with whether it is filled
        in, and how many entries are left ("left")."""
        if packs is None:
            return {name: [] for name in ("ghosts", "environment", "evidence", "clues", "items", "boards")} | {
                "left": 0
            }
        return _view(_packs(packs))


def _pair_key(text: str, low: int) -> tuple[int, int]:
    a_text, sep, b_text = text.partition("-")
    if not sep or not a_text.isdigit() or not b_text.isdigit():
        raise BadCommand(f"box: name two spaces like 7-8, not {text!r}.")
    a, b = sorted((int(a_text), int(b_text)))
    if a < low or b > ROOM_COUNT or a == b:
        raise BadCommand(f"box: {text!r} does not name two different spaces of the board.")
    return a, b


def _edit_passage(doc: Doc, board: Board, rest: str, values: Mapping[str, FieldValue]) -> str:
    a, b = _pair_key(rest, 1)
    passages = doc.get("secret_passages")
    kept = [p for p in (passages or []) if sorted(p.get("between", [])) != [a, b]]
    if values.get("on", True):
        kept.append({"between": [a, b]})
    if "secret_passages" in doc:
        del doc["secret_passages"]
    if kept:
        aot = tomlkit.aot()
        for p in kept:
            t = tomlkit.table()
            for k, v in p.items():
                t[k] = v
            aot.append(t)
        doc["secret_passages"] = aot
    return f"the secret passage {a}-{b} of the {board.name}"


def _edit_connection(doc: Doc, board: Board, rest: str, values: Mapping[str, FieldValue]) -> str:
    a, b = _pair_key(rest, 0)
    kind = values.get("kind", "door")
    if kind not in ("none", "open", "door"):
        raise BadCommand("box: a connection is none, open or door.")
    found_entries = entries(doc, "connections")
    found = next(
        (index for index, entry in enumerate(found_entries) if sorted(entry.get("between", [])) == [a, b]), None
    )
    if kind == "none":
        if found is not None:
            del found_entries[found]
        return f"the way between {a} and {b} on the {board.name}"
    if found is None:
        table = tomlkit.table()
        table["between"] = [a, b]
        found_entries.append(table)
        found = len(found_entries) - 1
    entry = found_entries[found]
    for name in ("door", "keys", "lock", "placeholder"):
        if name in entry:
            del entry[name]
    if kind == "door":
        entry["door"] = True
        entry["keys"] = values.get("keys", 1)
        if values.get("lock"):
            entry["lock"] = True
    if values.get("placeholder") is True:
        entry["placeholder"] = True
    return f"{'door' if kind == 'door' else 'the way'} {a}-{b} of the {board.name}"


class _Card(Protocol):
    @property
    def placeholder(self) -> bool: ...


def _entry(card: _Card, *fields: str) -> dict[str, object]:
    """One card as the page shows it: its `fields` (a tuple as a list) and whether it is filled in."""
    shown: dict[str, object] = {}
    for name in fields:
        value = getattr(card, name)
        shown[name] = list(value) if isinstance(value, tuple) else value
    return {**shown, "filled": not card.placeholder}


def _view(packs: Packs) -> dict[str, object]:
    ghost_fields = ("id", "name", "difficulty", "seance_symbols", "icon_sets", "ability", "lingering", "first_sets")
    ghosts = [_entry(g, *ghost_fields, "closes_doors") for g in packs.ghosts.values()]
    environment = [
        _entry(c, "id", "name", "deck", "duration", "effect", "clue_dice", "actions", "fires", "icon_sets")
        for c in packs.environment.values()
    ]
    evidence = [_entry(e, "id", "name") for e in packs.evidence.values()]
    clues = [_entry(c, "number", "name", "icon_set") for c in packs.clues.values()]
    items = [_entry(i, "id", "name", "effect", "dice", "actions") for i in packs.items.values()]
    boards = []
    for board in packs.boards.values():
        data = board.to_dict()
        data["connections"] = [
            {**conn, "filled": not c.placeholder} for conn, c in zip(data["connections"], board.connections)
        ]
        data["spaces"] = [{**sp, "filled": not sp["stand_in"]} for sp in data["spaces"]]
        boards.append(data)
    return {
        "ghosts": ghosts,
        "environment": environment,
        "evidence": evidence,
        "clues": clues,
        "items": items,
        "boards": boards,
        "left": len(packs.placeholders),
    }


BOX = SkepticsBox()
