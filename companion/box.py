"""Your box: the cards of the copy on the table, filled in on the phone and kept as pack files.

The bundled packs hold placeholders wherever the rulebook names no card (docs/packs.md). The host's page
fills them in one entry at a time; each edit is made here on the text of the pack file it belongs to (with
tomlkit, so the file's comments stay), checked by :func:`companion.games.skeptics.packs.load_packs` exactly as a file edited
by hand would be, and only then written into the box folder (the data folder's ``packs``, or
``game.packs_dir``) as the same files ``companion packs export`` writes. A whole box is exported as one
file and imported the same way, so owners can share a filled-in box::

    box = Box(folder)
    change = box.edit(packs, BoxEdit("ghost", "shadow", {"name": "Shadow Ghost", "difficulty": 3}))
    new_packs = box.check(change)      # PackError names file, entry and field
    box.save(change)                   # atomic, one file per pack file changed

Nothing here knows about a game in play: the service checks that the game still replays with the
new packs before it saves (a table operation is one service call).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import AoT, Table

from companion import paths
from companion.errors import BadCommand, PackError
from companion.games.skeptics.packs import ROOM_COUNT, Packs, load_packs, owner_files, pack_texts
from companion.pack_files import game_pack_texts, owner_text
from companion.toml_text import MAX_BYTES, check_toml
from companion.validate import control_character

__all__ = ["Box", "BoxEdit", "BoxChange", "SECTIONS", "EXPORT_KIND", "box_view"]

SECTIONS = (
    "ghost",
    "environment",
    "evidence",
    "clue",
    "item",
    "space",
    "connection",
    "passage",
    "event",
    "es_adventure",
    "es_other_world",
    "es_investigator",
    "es_ancient_one",
    "es_mythos",
)
# the pack files of the other games the box keeps beside Skeptics' (file -> the game's rules)
OTHER_FILES: Mapping[str, str] = {
    "events.toml": "among-cultists",
    **dict.fromkeys(
        ("ancient_ones.toml", "investigators.toml", "adventures.toml", "other_worlds.toml", "mythos.toml"), "elder-sign"
    ),
}
# each other game's package (its bundled pack files)
_PACKAGES: Mapping[str, str] = {
    "among-cultists": "companion.games.among_cultists",
    "elder-sign": "companion.games.elder_sign",
}
# Elder Sign's sections: the pack file and the list in it
_ES_LISTS: Mapping[str, tuple[str, str, str]] = {
    "es_adventure": ("adventures.toml", "adventures", "the adventure"),
    "es_other_world": ("other_worlds.toml", "other_worlds", "the Other World"),
    "es_investigator": ("investigators.toml", "investigators", "the investigator"),
    "es_ancient_one": ("ancient_ones.toml", "ancient_ones", "the Ancient One"),
    "es_mythos": ("mythos.toml", "mythos", "the Mythos card"),
}
_EFFECT_KEYS = ("elder_signs", "clues", "doom", "sanity", "stamina", "monsters", "clock")
EXPORT_KIND = "skeptics companion box"
EXPORT_VERSION = 1
MAX_FILE = MAX_BYTES  # one pack file; the bundled ones are under 10 KB
_BOARD_FILE = re.compile(r"^boards/[a-z][a-z0-9_]*\.toml$")
_PACK_FILES = ("ghosts.toml", "environment.toml", "evidence.toml", "clues.toml", "items.toml")
_TEXT_MAX = 300
_WORDS = {
    "name": "name",
    "ability": "Ghost Hour ability",
    "lingering": "lingering effect",
    "effect": "effect",
    "text": "what it does",
}

# the fields the page may set, per section, and their kinds
_FIELDS: Mapping[str, Mapping[str, str]] = {
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
    "event": {"name": "text", "text": "text", "note": "text0"},  # Among Cultists' event markers
    # Elder Sign's cards (companion/games/elder_sign/packs/*.toml); effects are {elder_signs, clues, ..., text}
    "es_adventure": {
        "name": "text",
        "tasks": "texts",
        "ordered": "flag0",
        "trophies": "int0",
        "lock": "text0",
        "reward": "effect",
        "penalty": "effect",
        "terror": "effect",
    },
    "es_investigator": {"name": "text", "sanity": "int", "stamina": "int", "clues": "int0", "ability": "text0"},
    "es_ancient_one": {"name": "text", "doom": "int", "elder_signs": "int", "combat": "text", "attack": "text"},
    "es_mythos": {"name": "text", "immediate": "effect", "lingering": "text", "at_midnight": "effect"},
}
_FIELDS = {**_FIELDS, "es_other_world": {**_FIELDS["es_adventure"], "terror": "effect"}}


@dataclass(frozen=True)
class BoxEdit:
    """One entry filled in: `section` (see SECTIONS), its `key` and the fields the page sent.

    Keys: a ghost's or an environment card's or an evidence symbol's id; a clue card's number; a board
    space "BOARD:N" (0 is the Entrance); a connection or a secret passage "BOARD:A-B". ``fields`` may hold
    ``placeholder: true`` to mark the entry as not filled in again; any other edit marks it filled in.
    """

    section: str
    key: str
    fields: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BoxChange:
    """The new texts of the pack files an edit or an import changes (relative path -> text)."""

    files: Mapping[str, str]
    what: str  # "the Shadow Ghost", "door 7-8 of the Asylum": for the sentence the page shows


class Box:
    """The box folder: where the owner's pack files are kept. ``folder=None``: the bundled packs, read only."""

    rules = "skeptics"  # the game whose packs the box holds (the service's own packs); OTHER_FILES are other games'

    def __init__(self, folder: str | Path | None) -> None:
        self.folder = Path(folder) if folder is not None else None
        # the box's files that cannot be used (relative path or a game's rules -> what the host reads):
        # the bundled file plays instead until the owner mends it (docs/packs.md, "A damaged file")
        self.problems: dict[str, str] = {}

    def open_packs(self) -> Packs:
        """Skeptics' packs with every box file that can be read and checked; a damaged one is left out.

        Each file that cannot be used (unreadable, not TOML, over the limits, refused by the checks) is named
        in :attr:`problems` with how to mend it, and the bundled file plays in its place: a damaged box never
        stops the companion. Raises PackError only if the bundled packs themselves fail.
        """
        self.problems = {k: v for k, v in self.problems.items() if not k.endswith(".toml")}  # other games' stay
        for rules in sorted(set(OTHER_FILES.values())):  # said at start too, though that game loads when first played
            try:
                self.other_packs(rules)
            except PackError as exc:
                files = ", ".join(rel for rel, of in OTHER_FILES.items() if of == rules)
                self.problems[rules] = damaged(f"files for {rules} ({files})", exc)
        try:
            return self.check(BoxChange({}, "the box"))
        except PackError:
            pass
        if self.folder is not None and not self.folder.is_dir():
            return load_packs(None)
        good: dict[str, tuple[str, str]] = {}
        for rel, path in owner_files(self.folder).items() if self.folder is not None else ():
            try:
                candidate = {**good, rel: (self.label(rel), owner_text(path)[1])}
                load_packs(None, overrides=candidate)
            except PackError as exc:
                self.problems[rel] = damaged(rel, exc)
                continue
            good = candidate
        return load_packs(None, overrides=good)

    def label(self, rel: str) -> str:
        """How messages name one of the box's files: "packs/ghosts.toml" (no machine path, the phone shows it)."""
        return f"{self.folder.name}/{rel}" if self.folder is not None else rel

    @property
    def is_writable(self) -> bool:
        return self.folder is not None

    def texts(self) -> dict[str, str]:
        """Every pack file's text as in use now (the box folder's where there is one), the other games' too."""
        return {**pack_texts(self.folder), **self.other_texts()}

    def other_texts(self) -> dict[str, str]:
        """The other games' pack files the box keeps (OTHER_FILES): the box folder's, else the bundled one."""
        folder = self.folder if self.folder is not None and self.folder.is_dir() else None
        out: dict[str, str] = {}
        for rules, package in _PACKAGES.items():
            files = [rel for rel, of in OTHER_FILES.items() if of == rules]
            out.update({rel: text for rel, (_, text) in game_pack_texts(package, files, folder).items()})
        return out

    def among_cultists_packs(self, change: BoxChange | None = None) -> Any:
        """Among Cultists' packs as they are (or would be with `change`), validated like a file edited by hand."""
        return self.other_packs("among-cultists", change)

    def other_packs(self, rules: str, change: BoxChange | None = None) -> Any:
        """Another game's packs as they are (or would be with `change`), validated like files edited by hand."""
        texts = self.other_texts()
        if change is not None:
            texts.update({rel: text for rel, text in change.files.items() if rel in OTHER_FILES})
        mine = {rel: text for rel, text in texts.items() if OTHER_FILES.get(rel) == rules}
        if rules == "elder-sign":
            from companion.games.elder_sign.packs import parse_pack_texts as parse_elder_sign

            return parse_elder_sign(mine)
        from companion.games.among_cultists.packs import parse_pack_texts

        return parse_pack_texts(mine, where=self.folder if self.folder is not None else Path("your box"))

    # -- edits -------------------------------------------------------------------------------

    def edit(self, packs: Packs, edit: BoxEdit) -> BoxChange:
        """The file text that `edit` makes (not yet checked nor saved). BadCommand for a malformed edit."""
        if edit.section not in SECTIONS:
            raise BadCommand(f"box: unknown part {edit.section!r}; the parts are {', '.join(SECTIONS)}.")
        values = _clean_fields(edit.section, edit.fields)
        texts = self.texts()
        if edit.section == "event":
            rel = "events.toml"
            doc = _parse(rel, texts[rel])
            what = _edit_event(doc, edit.key, values)
        elif edit.section in _ES_LISTS:
            rel = _ES_LISTS[edit.section][0]
            doc = _parse(rel, texts[rel])
            what = _edit_elder_sign(doc, edit.section, edit.key, values)
        elif edit.section in ("space", "connection", "passage"):
            board_id, _, rest = edit.key.partition(":")
            if board_id not in packs.boards:
                raise BadCommand(f"box: there is no board {board_id!r}; the boards are {', '.join(packs.boards)}.")
            rel = f"boards/{board_id}.toml"
            doc = _parse(rel, texts[rel])
            what = _edit_board(doc, packs, board_id, edit.section, rest, values)
        else:
            rel = {
                "ghost": "ghosts.toml",
                "environment": "environment.toml",
                "evidence": "evidence.toml",
                "clue": "clues.toml",
                "item": "items.toml",
            }[edit.section]
            doc = _parse(rel, texts[rel])
            what = _edit_card(doc, packs, edit.section, edit.key, values)
        return BoxChange({rel: tomlkit.dumps(doc)}, what)

    def check(self, change: BoxChange) -> Packs:
        """The packs as they would be with `change`, validated like files edited by hand (PackError)."""
        for rules in sorted({OTHER_FILES[rel] for rel in change.files if rel in OTHER_FILES}):
            self.other_packs(rules, change)  # PackError names the file, the entry and the field
        overrides: dict[str, tuple[str, str]] = {}
        if self.folder is not None and self.folder.is_dir():
            for rel, path in owner_files(self.folder).items():
                if rel not in self.problems and rel not in change.files:  # a damaged file stays out until mended
                    overrides[rel] = (self.label(rel), owner_text(path)[1])
        overrides.update({rel: (self.label(rel), text) for rel, text in change.files.items() if rel not in OTHER_FILES})
        return load_packs(None, overrides=overrides)

    def save(self, change: BoxChange) -> None:
        """Write the changed files into the box folder, each atomically (a power cut keeps the old or the new)."""
        if self.folder is None:
            raise PackError(
                "this companion has no box folder to keep your cards in; set game.packs_dir "
                "in the configuration file (docs/packs.md)."
            )
        for rel, text in change.files.items():
            paths.write_atomic(self.folder / rel, text)
            self.problems.pop(rel, None)
            self.problems.pop(OTHER_FILES.get(rel, ""), None)

    def game_packs(self, module: Any) -> Any:
        """Another game's packs with the box's files for it; a damaged one: the bundled packs, and a problem."""
        folder = self.folder if self.folder is not None and self.folder.is_dir() else None
        try:
            return module.load_packs(folder)
        except PackError as exc:
            self.problems[module.rules] = damaged(f"files for {module.rules}", exc)
            return module.load_packs(None)

    # -- one file for the whole box ----------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """The whole box as one JSON-able value: every pack file in use, by its path."""
        return {"kind": EXPORT_KIND, "version": EXPORT_VERSION, "files": self.texts()}

    def parse_import(self, data: Any) -> BoxChange:
        """A box file (as :meth:`export` writes it) as a change; BadCommand says what is wrong with the file."""
        if isinstance(data, (bytes, str)):
            try:
                data = json.loads(data)
            except ValueError:
                raise BadCommand(
                    "box: that file is not a box file (it is not JSON); choose the file that "
                    '"Save my box to a file" made.'
                ) from None
        if not isinstance(data, dict) or data.get("kind") != EXPORT_KIND:
            raise BadCommand('box: that file is not a box file; choose the file that "Save my box to a file" made.')
        if data.get("version") != EXPORT_VERSION:
            raise BadCommand(
                f"box: that box file is version {data.get('version')!r}; this companion reads "
                f"version {EXPORT_VERSION}. Update the companion that made it, or this one."
            )
        files = data.get("files")
        if not isinstance(files, dict) or not files:
            raise BadCommand("box: that box file holds no pack files.")
        out: dict[str, str] = {}
        for rel, text in files.items():
            if not isinstance(rel, str) or not (rel in _PACK_FILES or rel in OTHER_FILES or _BOARD_FILE.match(rel)):
                raise BadCommand(f"box: that box file holds {str(rel)[:60]!r}, which is not a pack file.")
            if not isinstance(text, str) or len(text) > MAX_FILE:
                raise BadCommand(f"box: {rel} in that box file is not a pack file's text (or is too long).")
            check_toml(f"{rel} in that box file", text)  # bounded before any parser reads it
            out[rel] = text
        return BoxChange(out, "the box from the file")


def damaged(what: str, exc: Exception) -> str:
    """The host's sentence for a box file that cannot be used (`what`: its path, or a game's rules)."""
    return (
        f"your box's {what} cannot be used, so the bundled cards play instead. {exc} Or bring back a box file "
        'you saved (Your box, "Bring back a box"), or delete the file.'
    )


def _parse(rel: str, text: str) -> tomlkit.TOMLDocument:
    check_toml(rel, text)  # bounded: the limits of companion.toml_text, before tomlkit reads it
    try:
        return tomlkit.parse(text)
    except tomlkit.exceptions.TOMLKitError as exc:
        raise PackError(f"{rel}: is not valid TOML ({exc}). Fix the file (see docs/packs.md).") from None


def _clean_fields(section: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    """The page's fields, checked for their kind only; the packs' validation checks the values."""
    if not isinstance(raw, Mapping):
        raise BadCommand("box: the fields must be an object.")
    kinds = _FIELDS[section]
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "placeholder":
            if not isinstance(value, bool):
                raise BadCommand("box: placeholder must be true or false.")
            out[key] = value
            continue
        kind = kinds.get(key)
        if kind is None:
            raise BadCommand(f"box: a {section} has no field {key!r}; the fields are {', '.join(kinds)}.")
        base = kind.rstrip("0")
        ok = {
            "text": isinstance(value, str) and len(value) <= _TEXT_MAX,
            "int": isinstance(value, int) and not isinstance(value, bool),
            "flag": isinstance(value, bool),
            "texts": isinstance(value, list)
            and len(value) <= 12
            and all(isinstance(v, str) and len(v) <= _TEXT_MAX for v in value),
            "pair": isinstance(value, list)
            and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value),
            "effect": isinstance(value, Mapping)
            and all(
                (k in _EFFECT_KEYS and isinstance(v, int) and not isinstance(v, bool))
                or (k == "text" and isinstance(v, str) and len(v) <= _TEXT_MAX)
                or (k == "gate" and isinstance(v, bool))
                for k, v in value.items()
            ),
        }[base]
        if not ok:
            raise BadCommand(f"box: the field {key!r} of a {section} has the wrong kind of value.")
        for text in value if isinstance(value, list) else value.values() if isinstance(value, Mapping) else [value]:
            if isinstance(text, str) and control_character(text) is not None:
                raise BadCommand(
                    f"box: the field {key!r} of a {section} must be plain text, with no control "
                    f"characters (it holds {control_character(text)})."
                )
        if base == "effect":  # what is nothing goes away: {doom: 1, text: ""} is {doom: 1}
            value = {k: v.strip() if isinstance(v, str) else v for k, v in value.items() if v not in (0, "", False)}
        out[key] = value.strip() if isinstance(value, str) else value
    return out


def _entries(doc: tomlkit.TOMLDocument, name: str) -> AoT | list[Any]:
    value = doc.get(name)
    return value if isinstance(value, (AoT, list)) else []


def _apply(entry: Table | dict[str, Any], values: Mapping[str, Any], kinds: Mapping[str, str]) -> None:
    """Set the fields on a TOML table; an optional field set to its empty value ("", 0, false, []) goes away."""
    for key, value in values.items():
        if key == "placeholder":
            continue
        optional = kinds.get(key, "").endswith("0")
        if optional and value in ("", 0, False, []):
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
        value = entry.get(key)
        if isinstance(value, str) and value.strip().lower().startswith("placeholder"):
            raise BadCommand(
                f"box: the {_WORDS.get(key, key)} still holds the stand-in's words; copy it from your card "
                "in your own short words."
            )


def _edit_card(doc: tomlkit.TOMLDocument, packs: Packs, section: str, key: str, values: Mapping[str, Any]) -> str:
    list_name, key_field = {
        "ghost": ("ghosts", "id"),
        "environment": ("cards", "id"),
        "evidence": ("symbols", "id"),
        "clue": ("cards", "number"),
        "item": ("items", "id"),
    }[section]
    wanted: Any = key
    if section == "clue":
        if not key.isdigit():
            raise BadCommand(f"box: a clue card is named by its number, not {key!r}.")
        wanted = int(key)
    for entry in _entries(doc, list_name):
        if isinstance(entry, (Table, dict)) and entry.get(key_field) == wanted:
            _apply(entry, values, _FIELDS[section])
            break
    else:
        raise BadCommand(f"box: there is no {section} {key!r} in the box.")
    new_name = values.get("name")
    if section == "ghost":
        return new_name or (packs.ghosts[key].name if key in packs.ghosts else key)
    if section == "environment":
        return f"the environment card {new_name or (packs.environment[key].name if key in packs.environment else key)}"
    if section == "evidence":
        return f"the evidence symbol {new_name}" if new_name else "the evidence symbol"
    if section == "item":
        return f"the item {new_name or (packs.items[key].name if key in packs.items else key)}"
    return f"clue card {key}"


def _edit_event(doc: tomlkit.TOMLDocument, key: str, values: Mapping[str, Any]) -> str:
    """One of Among Cultists' event markers, as the owner's bag has it."""
    for entry in _entries(doc, "events"):
        if isinstance(entry, (Table, dict)) and entry.get("id") == key:
            _apply(entry, values, _FIELDS["event"])
            return f"the event marker {values.get('name') or entry.get('name') or key}"
    raise BadCommand(f"box: there is no event marker {key!r} in the box.")


def _edit_elder_sign(doc: tomlkit.TOMLDocument, section: str, key: str, values: Mapping[str, Any]) -> str:
    """One of Elder Sign's cards (an adventure, an Other World, an investigator, an Ancient One, a Mythos card)."""
    _, list_name, word = _ES_LISTS[section]
    for entry in _entries(doc, list_name):
        if isinstance(entry, (Table, dict)) and entry.get("id") == key:
            _apply(entry, values, _FIELDS[section])
            return f"{word} {values.get('name') or entry.get('name') or key}"
    raise BadCommand(f"box: there is no {word.removeprefix('the ')} {key!r} in the box.")


def _pair_key(text: str, low: int) -> tuple[int, int]:
    a_text, sep, b_text = text.partition("-")
    if not sep or not a_text.isdigit() or not b_text.isdigit():
        raise BadCommand(f"box: name two spaces like 7-8, not {text!r}.")
    a, b = sorted((int(a_text), int(b_text)))
    if a < low or b > ROOM_COUNT or a == b:
        raise BadCommand(f"box: {text!r} does not name two different spaces of the board.")
    return a, b


def _edit_board(
    doc: tomlkit.TOMLDocument, packs: Packs, board_id: str, section: str, rest: str, values: Mapping[str, Any]
) -> str:
    board = packs.boards[board_id]
    edit = {"space": _edit_space, "passage": _edit_passage}.get(section, _edit_connection)
    return edit(doc, board, board_id, rest, values)


def _edit_space(doc: tomlkit.TOMLDocument, board: Any, board_id: str, rest: str, values: Mapping[str, Any]) -> str:
    if not rest.isdigit() or int(rest) > ROOM_COUNT:
        raise BadCommand(f"box: name a space by its number 0-{ROOM_COUNT}, not {rest!r}.")
    number = int(rest)
    if number == 0:
        table = doc.get("entrance")
        if not isinstance(table, (Table, dict)):
            raise PackError(f"boards/{board_id}.toml: has no [entrance] table.")
        _apply(table, values, _FIELDS["space"])
    else:
        for entry in _entries(doc, "rooms"):
            if entry.get("number") == number:
                _apply(entry, values, _FIELDS["space"])
                break
        else:
            raise BadCommand(f"box: the {board.name} has no room {number}.")
    return f"{'the Entrance' if number == 0 else f'room {number}'} of the {board.name}"


def _edit_passage(doc: tomlkit.TOMLDocument, board: Any, board_id: str, rest: str, values: Mapping[str, Any]) -> str:
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


def _edit_connection(doc: tomlkit.TOMLDocument, board: Any, board_id: str, rest: str, values: Mapping[str, Any]) -> str:
    a, b = _pair_key(rest, 0)
    kind = values.get("kind", "door")
    if kind not in ("none", "open", "door"):
        raise BadCommand("box: a connection is none, open or door.")
    entries = _entries(doc, "connections")
    found = next((index for index, entry in enumerate(entries) if sorted(entry.get("between", [])) == [a, b]), None)
    if kind == "none":
        if found is not None:
            del entries[found]
        return f"the way between {a} and {b} on the {board.name}"
    if found is None:
        table = tomlkit.table()
        table["between"] = [a, b]
        entries.append(table)
        found = len(entries) - 1
    entry = entries[found]
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


def box_view(packs: Packs, box: Box) -> dict[str, Any]:
    """What the "Your box" page shows: every entry with what is filled in, and what is still to do."""
    ghosts = [
        {
            "id": g.id,
            "name": g.name,
            "difficulty": g.difficulty,
            "seance_symbols": list(g.seance_symbols),
            "icon_sets": list(g.icon_sets),
            "ability": g.ability,
            "lingering": g.lingering,
            "first_sets": g.first_sets,
            "closes_doors": g.closes_doors,
            "filled": not g.placeholder,
        }
        for g in packs.ghosts.values()
    ]
    environment = [
        {
            "id": c.id,
            "name": c.name,
            "deck": c.deck,
            "duration": c.duration,
            "effect": c.effect,
            "clue_dice": c.clue_dice,
            "actions": c.actions,
            "fires": c.fires,
            "icon_sets": list(c.icon_sets),
            "filled": not c.placeholder,
        }
        for c in packs.environment.values()
    ]
    evidence = [{"id": e.id, "name": e.name, "filled": not e.placeholder} for e in packs.evidence.values()]
    clues = [
        {"number": c.number, "name": c.name, "icon_set": c.icon_set, "filled": not c.placeholder}
        for c in packs.clues.values()
    ]
    items = [
        {
            "id": i.id,
            "name": i.name,
            "effect": i.effect,
            "dice": i.dice,
            "actions": list(i.actions),
            "filled": not i.placeholder,
        }
        for i in packs.items.values()
    ]
    boards = []
    for board in packs.boards.values():
        data = board.to_dict()
        data["connections"] = [
            {**conn, "filled": not c.placeholder} for conn, c in zip(data["connections"], board.connections)
        ]
        data["spaces"] = [{**sp, "filled": not sp["stand_in"]} for sp in data["spaces"]]
        boards.append(data)
    left = len(packs.placeholders)
    try:
        markers = box.among_cultists_packs().events.values()
    except PackError:  # a broken file of the other game must not hide Skeptics' box
        markers = []
    events = [{"id": e.id, "name": e.name, "text": e.text, "filled": not e.placeholder} for e in markers]
    elder_sign = _elder_sign_view(box)
    return {
        "elder_sign": elder_sign,
        "elder_sign_left": sum(1 for group in elder_sign.values() for c in group if not c["filled"]),
        "ghosts": ghosts,
        "environment": environment,
        "evidence": evidence,
        "clues": clues,
        "items": items,
        "boards": boards,
        "events": events,
        "events_left": sum(1 for e in events if not e["filled"]),
        "left": left,
        "writable": box.is_writable,
        # where it is, for the host, by its last two parts ("skeptics/packs"): phones are not told the machine's paths
        "folder": "/".join(box.folder.parts[-2:]) if box.folder is not None else None,
    }


def _effect_view(effect: Any) -> dict[str, Any]:
    return {k: v for k, v in dataclasses.asdict(effect).items() if v not in (0, "", False)}


def _elder_sign_view(box: Box) -> dict[str, list[dict[str, Any]]]:
    """Elder Sign's cards as Your box shows them, each with what is filled in."""
    try:
        packs = box.other_packs("elder-sign")
    except PackError:  # a broken file of the other game must not hide Skeptics' box
        return {"adventures": [], "other_worlds": [], "mythos": [], "investigators": [], "ancient_ones": []}

    def adventure(a: Any) -> dict[str, Any]:
        return {
            "id": a.id,
            "name": a.name,
            "tasks": [str(t.need) for t in a.tasks],
            "ordered": a.ordered,
            "trophies": a.trophies,
            "lock": a.lock.value if a.lock else "",
            "reward": _effect_view(a.reward),
            "penalty": _effect_view(a.penalty),
            "terror": _effect_view(a.terror),
            "filled": not a.placeholder,
        }

    return {
        "adventures": [adventure(a) for a in packs.adventures.values()],
        "other_worlds": [adventure(a) for a in packs.other_worlds.values()],
        "mythos": [
            {
                "id": m.id,
                "name": m.name,
                "immediate": _effect_view(m.immediate),
                "lingering": "" if m.placeholder else m.lingering,
                "at_midnight": _effect_view(m.at_midnight),
                "filled": not m.placeholder,
            }
            for m in packs.mythos.values()
        ],
        "investigators": [
            {
                "id": i.id,
                "name": i.name,
                "sanity": i.sanity,
                "stamina": i.stamina,
                "clues": i.clues,
                "ability": "" if i.placeholder else i.ability,
                "filled": not i.placeholder,
            }
            for i in packs.investigators.values()
        ],
        "ancient_ones": [
            {
                "id": a.id,
                "name": a.name,
                "doom": a.doom,
                "elder_signs": a.elder_signs,
                "combat": str(a.combat),
                "attack": a.attack,
                "filled": not a.placeholder,
            }
            for a in packs.ancient_ones.values()
        ],
    }
