"""Data packs: the boards, ghosts, environment cards and evidence symbols, as plain TOML files.

The bundled packs live in ``companion/games/skeptics/packs/`` (``boards/*.toml``, ``ghosts.toml``,
``environment.toml``, ``evidence.toml``). An owner copies a file into an extra directory,
edits it to match the copy of the game on the table and passes that directory to
:func:`load_packs`; a file there replaces the bundled file of the same relative path, and an
extra ``boards/NAME.toml`` adds a board. docs/packs.md describes the format.

Every file is validated on load. A :class:`~companion.errors.PackError` names the file, the
entry and the field, and says what is expected, e.g.::

    ghosts.toml: ghosts[2] (id "shadow"): field "difficulty" must be a whole number 1 to 10, not "hard".

Run ``python -m companion.games.skeptics.packs check [DIR]`` to validate packs, ``python -m companion.games.skeptics.packs export DIR``
to copy the bundled files into DIR for editing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.errors import DiceError, PackError
from companion.games.skeptics.dice.faces import DieKind
from companion.games.skeptics.dice.requirement import RED_ICONS, Requirement
from companion.pack_files import Entry, name_stand_ins, owner_folder, owner_text, show_value
from companion.toml_text import read_toml

__all__ = [
    "GHOST_KIND",
    "Room",
    "Connection",
    "Board",
    "Ghost",
    "EnvironmentCard",
    "EvidenceSymbol",
    "Packs",
    "load_packs",
    "bundled_dir",
    "ENTRANCE",
    "ROOM_COUNT",
    "DURATIONS",
    "CLUE_ICONS",
    "RED_ICONS",
    "icon_set_text",
    "ClueCard",
    "CLUE_CARDS",
    "Item",
    "ITEM_ACTIONS",
]

ENTRANCE = 0  # the Entrance is space 0: a space on the board, not a room card
ROOM_COUNT = 20  # "Game Components": 20 Room Cards
COMMON_CARDS = 10  # "Environment Deck": ten Common Cards ...
BOARD_CARDS = 5  # ... and five cards specific to each Environment
EVIDENCE_COUNT = 7  # "Game Components": 7 Evidence Tokens
CLUE_CARDS = 16  # "Game Components": 16 Clue Cards
MAX_FIRES = 4  # "Game Components": 4 Fires
DURATIONS = ("instant", "hour", "until_met")
CLUE_ICONS = tuple(face.value for face in DieKind.CLUE.icons)  # eye, camera, cobweb
_FILES = ("ghosts.toml", "environment.toml", "evidence.toml", "clues.toml", "items.toml")
ITEM_CARDS = 10  # "Game Components": 10 Item Cards
ITEM_ACTIONS = ("search", "solve", "prove", "unlock")


@dataclass(frozen=True)
class Room:
    """A space of a board: rooms 1-20 (one per room card) and the Entrance (number 0)."""

    number: int
    name: str
    pos: tuple[int, int]  # (column, row) on the map grid the phone page draws
    placeholder: bool = False
    note: str = ""


@dataclass(frozen=True)
class Connection:
    """Two spaces a player (and a pulled ghost) can move between; maybe through a door."""

    a: int
    b: int
    door: bool = False  # a green door marker: closed at the start of the game
    keys: int = 0  # key icons needed to unlock the door
    lock: bool = False  # red padlock icon: the door re-locks ("Red Icons: Locks")
    placeholder: bool = False

    @property
    def key(self) -> str:
        """The door's name in commands: the two space numbers, smaller first ("7-8")."""
        return f"{self.a}-{self.b}"


@dataclass(frozen=True)
class Board:
    id: str
    name: str
    rooms: Mapping[int, Room]  # 1..20
    entrance: Room
    connections: tuple[Connection, ...]
    secret_passages: tuple[tuple[int, int], ...]
    source: str = field(default="", compare=False)
    _adjacent: Mapping[int, tuple[tuple[int, Connection], ...]] = field(
        default_factory=lambda: MappingProxyType({}), repr=False, compare=False
    )

    def space(self, number: int) -> Room:
        if number == ENTRANCE:
            return self.entrance
        return self.rooms[number]

    def space_name(self, number: int) -> str:
        return self.space(number).name

    @property
    def spaces(self) -> tuple[int, ...]:
        return (ENTRANCE, *sorted(self.rooms))

    def neighbours(self, number: int) -> tuple[tuple[int, Connection], ...]:
        """Spaces next to `number` through ordinary connections and doors (never secret passages)."""
        return self._adjacent.get(number, ())

    def connection(self, a: int, b: int) -> Connection | None:
        for other, conn in self.neighbours(a):
            if other == b:
                return conn
        return None

    @property
    def doors(self) -> tuple[Connection, ...]:
        return tuple(c for c in self.connections if c.door)

    def door(self, key: str) -> Connection | None:
        for conn in self.connections:
            if conn.door and conn.key == key:
                return conn
        return None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe description for drawing the map."""
        return {
            "id": self.id,
            "name": self.name,
            "spaces": [
                {"number": r.number, "name": r.name, "pos": list(r.pos), "stand_in": r.placeholder}
                for r in (self.entrance, *(self.rooms[n] for n in sorted(self.rooms)))
            ],
            "connections": [
                # a door not filled in yet shows no keys of its own: the board's printed keys are the table's
                {
                    "between": [c.a, c.b],
                    "door": c.door,
                    "keys": None if c.door and c.placeholder else c.keys,
                    "lock": c.lock,
                    "key": c.key,
                    "stand_in": c.door and c.placeholder,
                }
                for c in self.connections
            ],
            "secret_passages": [list(p) for p in self.secret_passages],
        }


@dataclass(frozen=True)
class Ghost:
    id: str
    name: str
    difficulty: int
    seance_symbols: tuple[str, ...]
    icon_sets: tuple[str, ...]  # requirement texts, "eye:2,camera:1,timer"
    ability: str
    lingering: str
    closes_doors: bool = False
    placeholder: bool = False
    note: str = ""
    first_sets: int = 0  # lingering: the first N icon sets must be proven before any other (the Child Ghost's top row)


GHOST_KIND = "Ghost"  # the kind in a stand-in ghost's name ("Ghost 1", companion.pack_files.stand_in_name)
LIMITS_ACTIONS = "the Corpse"  # the card whose effect limits the actions other than moves (rulebook :289)


def stand_in_called(told: str = "") -> str:
    """A stand-in environment card as the table calls it: "the environment card", and what the host told it plays
    ("the environment card, as the Corpse"); its pack name ("Common card 5") is no card on the table."""
    return f"the environment card, as {told}" if told else "the environment card"


@dataclass(frozen=True)
class EnvironmentCard:
    id: str
    name: str
    deck: str  # "common" or a board id
    duration: str  # "instant" | "hour" | "until_met"
    effect: str
    placeholder: bool = False
    note: str = ""
    clue_dice: int = 0  # while in play, every roll of clue dice starts with this many more (-1: the Watching Eyes)
    actions: int = 0  # while in play, each turn has at most this many actions other than moves (2: the Corpse)
    fires: int = 0  # fire tokens it puts on the board; it ends when the last is put out (the Fire)
    icon_sets: tuple[str, ...] = ()  # sets rolled with three clue dice, no items; it ends when all are (the Barrier)

    @property
    def called(self) -> str:
        """The card as the table calls it: its name; a stand-in (a pack placeholder, its name no card on the table)
        is the environment card, as what the host told it plays ("the environment card, as the Corpse")."""
        if not self.placeholder:
            return self.name
        told = [card for card, n in (("the Watching Eyes", self.clue_dice), (LIMITS_ACTIONS, self.actions)) if n]
        told += ["the Fire"] if self.fires else []
        return stand_in_called(*told[:1])

    @property
    def limiting(self) -> str:
        """The card as the table calls it where it limits the actions (the count of actions left, the refusal): a
        stand-in told several effects is named by that one ("the environment card, as the Corpse")."""
        return stand_in_called(LIMITS_ACTIONS) if self.placeholder else self.name

    @property
    def ends_by_itself(self) -> bool:
        """True when the companion ends the card: its fires are out or its icon sets are rolled."""
        return bool(self.fires or self.icon_sets)


@dataclass(frozen=True)
class EvidenceSymbol:
    id: str
    name: str
    placeholder: bool = False


@dataclass(frozen=True)
class ClueCard:
    """One of the 16 clue cards: the icon set a Solve rolls for ("Action 4: Solve")."""

    number: int
    icon_set: str  # requirement text, "eye:2,camera:1,timer"
    name: str = ""
    placeholder: bool = False
    note: str = ""

    @property
    def label(self) -> str:
        return self.name or f"Clue card {self.number}"


@dataclass(frozen=True)
class Item:
    """An item card: the dice it adds to some actions ("Items provide the owner bonuses for Key or Clue Dice rolls")."""

    id: str
    name: str
    effect: str
    dice: int = 0
    actions: tuple[str, ...] = ()
    placeholder: bool = False
    note: str = ""


@dataclass(frozen=True)
class Packs:
    boards: Mapping[str, Board]
    ghosts: Mapping[str, Ghost]
    environment: Mapping[str, EnvironmentCard]
    evidence: Mapping[str, EvidenceSymbol]
    sources: tuple[str, ...] = field(default=(), compare=False)  # where the files came from, not what they say
    clues: Mapping[int, ClueCard] = field(default_factory=lambda: MappingProxyType({}))
    items: Mapping[str, Item] = field(default_factory=lambda: MappingProxyType({}))

    def environment_deck(self, board: str) -> tuple[str, ...]:
        """The ids of the cards used with `board`: the common cards, then the board's own."""
        common = [c.id for c in self.environment.values() if c.deck == "common"]
        own = [c.id for c in self.environment.values() if c.deck == board]
        return (*common, *own)

    @property
    def placeholders(self) -> list[str]:
        """Human-readable names of every entry still marked as a placeholder."""
        out: list[str] = []
        for board in self.boards.values():
            out += [f"{board.id}: room {r.number} ({r.name})" for r in board.rooms.values() if r.placeholder]
            out += [f"{board.id}: connection {c.key}" for c in board.connections if c.placeholder]
        out += [f"ghost {g.id} ({g.name})" for g in self.ghosts.values() if g.placeholder]
        out += [f"environment card {c.id} ({c.name})" for c in self.environment.values() if c.placeholder]
        out += [f"evidence symbol {e.id} ({e.name})" for e in self.evidence.values() if e.placeholder]
        out += [f"clue card {c.number}" for c in self.clues.values() if c.placeholder]
        out += [f"item {i.id} ({i.name})" for i in self.items.values() if i.placeholder]
        return out


def icon_set_text(need: str) -> str:
    """ "eye:2,camera:1,timer" -> "2 eyes, 1 camera (timer)". The text is read by the dice' grammar."""
    requirement = Requirement.parse(need)
    text = ", ".join(f"{n} {face.value}{'s' if n != 1 else ''}" for face, n in requirement.need)
    red = [name for name, on in zip(RED_ICONS, (requirement.timer, requirement.disruption)) if on]
    return f"{text} ({', '.join(red)})" if red else text


# -- validation ------------------------------------------------------------------------------


_Entry = Entry
_show = show_value


def _id_entries(source: str, doc: Mapping[str, Any], name: str, fields: tuple[str, ...]) -> Iterator[_Entry]:
    """The [[name]] tables of a file whose entries have an "id", each labelled and checked for unknown fields."""
    for i, raw in enumerate(_table_list(source, doc, name)):
        label = f"{name}[{i}]" + (f' (id "{raw["id"]}")' if isinstance(raw, dict) and "id" in raw else "")
        entry = _Entry(source, label, raw)
        entry.check_keys(fields)
        yield entry


def _numbered_entries(
    source: str,
    doc: Mapping[str, Any],
    name: str,
    what: str,
    each: str,
    count: int,
    fields: tuple[str, ...],
    taken: Mapping[int, Any],
) -> Iterator[tuple[int, _Entry]]:
    """The [[name]] tables of a file whose entries are numbered 1-`count` (rooms, clue cards), each labelled,
    checked for unknown fields, and refused when its number is already in `taken` (which the caller fills)."""
    for i, raw in enumerate(_table_list(source, doc, name)):
        label = f"{name}[{i}]"
        if isinstance(raw, dict) and isinstance(raw.get("number"), int):
            label += f" ({what} {raw['number']})"
        entry = _Entry(source, label, raw)
        entry.check_keys(fields)
        number = entry.integer("number", 1, count)
        if number in taken:
            entry.fail(f"repeats {what} {number}; each {each} 1-{count} appears once", "number")
        yield number, entry


def _table_list(source: str, doc: Mapping[str, Any], name: str) -> list[Any]:
    value = doc.get(name)
    if value is None:
        raise PackError(f"{source}: has no [[{name}]] entries; add them (see docs/packs.md).")
    if not isinstance(value, list):
        raise PackError(f"{source}: {name!r} must be a list of [[{name}]] tables, not {_show(value)}.")
    return value


def parse_requirement_text(text: str) -> str:
    """Check a ghost's icon set and give it back in the dice' canonical form ("eye:2,camera:1,timer").

    The grammar is the dice' own (`Requirement.parse`: "eye:2,camera:1", "2 eyes and a camera, with a
    timer" ..., at most five clue dice); a pack adds that a ghost's sets use clue icons. Raises ValueError
    with a readable message; the caller adds file, entry and field.
    """
    try:
        requirement = Requirement.parse(text)
    except DiceError as exc:
        raise ValueError(str(exc)) from None
    if requirement.kind is not DieKind.CLUE:
        raise ValueError(
            f"{text!r} asks for {requirement.kind.value} icons; a ghost's icon sets use the clue icons "
            f"{', '.join(CLUE_ICONS)} (and the red icons {', '.join(RED_ICONS)})"
        )
    return str(requirement)


def _load_toml(source: str, text: str) -> dict[str, Any]:
    return read_toml(source, text)


def _parse_board(source: str, doc: Mapping[str, Any]) -> Board:
    for key in doc:
        if key not in ("board", "entrance", "rooms", "connections", "secret_passages"):
            raise PackError(
                f"{source}: unknown section {key!r}; a board file has [board], [entrance], [[rooms]], "
                "[[connections]] and [[secret_passages]]."
            )
    head = _Entry(source, "[board]", doc.get("board"))
    head.check_keys(("id", "name"))
    board_id = head.ident("id")
    entrance_entry = _Entry(source, "[entrance]", doc.get("entrance"))
    entrance_entry.check_keys(("name", "pos", "placeholder", "note"))
    entrance = Room(
        ENTRANCE,
        entrance_entry.text("name", "Entrance"),
        entrance_entry.pair("pos", 0, 99),
        entrance_entry.flag("placeholder"),
        entrance_entry.data.get("note", "") if isinstance(entrance_entry.data.get("note", ""), str) else "",
    )
    rooms: dict[int, Room] = {}
    positions: dict[tuple[int, int], str] = {entrance.pos: "the Entrance"}
    for number, entry in _numbered_entries(
        source, doc, "rooms", "room", "room", ROOM_COUNT, ("number", "name", "pos", "placeholder", "note"), rooms
    ):
        pos = entry.pair("pos", 0, 99)
        if pos in positions:
            entry.fail(f"puts room {number} on {list(pos)}, where {positions[pos]} already is", "pos")
        positions[pos] = f"room {number}"
        note = entry.note()
        rooms[number] = Room(number, entry.text("name"), pos, entry.flag("placeholder"), note)
    missing = [n for n in range(1, ROOM_COUNT + 1) if n not in rooms]
    if missing:
        raise PackError(
            f"{source}: rooms {', '.join(map(str, missing))} are missing; a board has rooms 1-{ROOM_COUNT}, "
            "one [[rooms]] entry each. Add them (see docs/packs.md)."
        )
    connections: list[Connection] = []
    seen: dict[tuple[int, int], str] = {}
    for i, raw in enumerate(_table_list(source, doc, "connections")):
        label = f"connections[{i}]"
        if isinstance(raw, dict) and isinstance(raw.get("between"), list):
            label += f" (between {raw['between']})"
        entry = _Entry(source, label, raw)
        entry.check_keys(("between", "door", "keys", "lock", "placeholder", "note"))
        a, b = entry.pair("between", 0, ROOM_COUNT)
        if a == b:
            entry.fail(f"connects space {a} to itself; give two different spaces (0 is the Entrance)", "between")
        a, b = min(a, b), max(a, b)
        if (a, b) in seen:
            entry.fail(f"repeats the connection {a}-{b} ({seen[(a, b)]})", "between")
        seen[(a, b)] = label
        door = entry.flag("door")
        lock = entry.flag("lock")
        if "keys" in entry.data and not door:
            entry.fail("is only for doors; add door = true or remove keys", "keys")
        if lock and not door:
            entry.fail("is only for doors; add door = true or remove lock", "lock")
        keys = entry.integer("keys", 1, 5, 1) if door else 0
        connections.append(Connection(a, b, door, keys, lock, entry.flag("placeholder")))
    passages: list[tuple[int, int]] = []
    for i, raw in enumerate(doc.get("secret_passages", []) or []):
        entry = _Entry(source, f"secret_passages[{i}]", raw)
        entry.check_keys(("between", "placeholder", "note"))
        a, b = entry.pair("between", 1, ROOM_COUNT)
        if a == b:
            entry.fail(f"connects room {a} to itself; give two different rooms", "between")
        pair = (min(a, b), max(a, b))
        if pair in passages:
            entry.fail(f"repeats the secret passage {pair[0]}-{pair[1]}", "between")
        passages.append(pair)
    adjacent: dict[int, list[tuple[int, Connection]]] = {}
    for conn in connections:
        adjacent.setdefault(conn.a, []).append((conn.b, conn))
        adjacent.setdefault(conn.b, []).append((conn.a, conn))
    frozen = MappingProxyType({k: tuple(sorted(v, key=lambda t: t[0])) for k, v in adjacent.items()})
    return Board(
        board_id,
        head.text("name"),
        MappingProxyType(dict(sorted(rooms.items()))),
        entrance,
        tuple(connections),
        tuple(passages),
        source,
        frozen,
    )


def _parse_evidence(source: str, doc: Mapping[str, Any]) -> dict[str, EvidenceSymbol]:
    out: dict[str, EvidenceSymbol] = {}
    for entry in _id_entries(source, doc, "symbols", ("id", "name", "placeholder", "note")):
        sid = entry.new_id(out, "symbol")
        name = entry.text("name")
        twin = next((e for e in out.values() if e.name.casefold() == name.casefold()), None)
        if twin is not None:
            entry.fail(f"repeats the name {name!r} of symbol {twin.id!r}; each symbol has its own name", "name")
        out[sid] = EvidenceSymbol(sid, name, entry.flag("placeholder"))
    if len(out) != EVIDENCE_COUNT:
        raise PackError(
            f"{source}: has {len(out)} symbols; the game has {EVIDENCE_COUNT} evidence tokens, one [[symbols]] "
            "entry each. Fix the file (see docs/packs.md)."
        )
    return out


def _parse_ghosts(source: str, doc: Mapping[str, Any], evidence: Mapping[str, EvidenceSymbol]) -> dict[str, Ghost]:
    out: dict[str, Ghost] = {}
    fields = (
        "id",
        "name",
        "difficulty",
        "seance_symbols",
        "icon_sets",
        "ability",
        "lingering",
        "closes_doors",
        "placeholder",
        "note",
        "first_sets",
    )
    for entry in _id_entries(source, doc, "ghosts", fields):
        gid = entry.new_id(out, "ghost")
        symbols = entry.texts("seance_symbols")
        for symbol in symbols:
            if symbol not in evidence:
                entry.fail(
                    f"names {symbol!r}, which is not an evidence symbol; the symbols (evidence.toml) are: "
                    f"{', '.join(evidence)}",
                    "seance_symbols",
                )
        if len(set(symbols)) != len(symbols):
            entry.fail("names a symbol twice; list each séance symbol once", "seance_symbols")
        sets = list(_icon_sets(entry))
        out[gid] = Ghost(
            gid,
            entry.text("name"),
            entry.integer("difficulty", 1, 10),
            tuple(symbols),
            tuple(sets),
            entry.text("ability"),
            entry.text("lingering"),
            entry.flag("closes_doors"),
            entry.flag("placeholder"),
            entry.note(),
            entry.integer("first_sets", 0, max(len(sets) - 1, 0), 0),
        )
    return out


def _icon_sets(entry: _Entry, name: str = "icon_sets") -> tuple[str, ...]:
    sets: list[str] = []
    for j, text in enumerate(entry.texts(name)):
        try:
            sets.append(parse_requirement_text(text))
        except ValueError as exc:
            entry.fail(f"entry {j + 1}: {exc}", name)
    return tuple(sets)


def _parse_clues(source: str, doc: Mapping[str, Any]) -> dict[int, ClueCard]:
    out: dict[int, ClueCard] = {}
    for number, entry in _numbered_entries(
        source,
        doc,
        "cards",
        "clue card",
        "card",
        CLUE_CARDS,
        ("number", "name", "icon_set", "placeholder", "note"),
        out,
    ):
        try:
            need = parse_requirement_text(entry.text("icon_set"))
        except ValueError as exc:
            entry.fail(str(exc), "icon_set")
        name = entry.text("name") if "name" in entry.data else ""
        out[number] = ClueCard(number, need, name, entry.flag("placeholder"), entry.note())
    missing = [n for n in range(1, CLUE_CARDS + 1) if n not in out]
    if missing:
        raise PackError(
            f"{source}: clue cards {', '.join(map(str, missing))} are missing; the game has {CLUE_CARDS} clue cards, "
            "one [[cards]] entry each. Add them (see docs/packs.md)."
        )
    return dict(sorted(out.items()))


def _parse_items(source: str, doc: Mapping[str, Any]) -> dict[str, Item]:
    out: dict[str, Item] = {}
    for entry in _id_entries(source, doc, "items", ("id", "name", "effect", "dice", "actions", "placeholder", "note")):
        iid = entry.new_id(out, "item")
        actions = entry.texts("actions") if "actions" in entry.data else []
        for action in actions:
            if action not in ITEM_ACTIONS:
                entry.fail(f"names {action!r}; an item adds dice to {', '.join(ITEM_ACTIONS)}", "actions")
        dice = entry.integer("dice", 0, 2, 0)
        if dice and not actions:
            entry.fail("is given without actions; say which actions the dice are for", "dice")
        out[iid] = Item(
            iid,
            entry.text("name"),
            entry.text("effect"),
            dice,
            tuple(dict.fromkeys(actions)),
            entry.flag("placeholder"),
            entry.note(),
        )
    if len(out) != ITEM_CARDS:
        raise PackError(
            f"{source}: has {len(out)} items; the game has {ITEM_CARDS} item cards, one [[items]] entry each. "
            "Fix the file (see docs/packs.md)."
        )
    return out


def _parse_environment(source: str, doc: Mapping[str, Any], boards: Iterable[str]) -> dict[str, EnvironmentCard]:
    decks = ("common", *boards)
    out: dict[str, EnvironmentCard] = {}
    fields = (
        "id",
        "name",
        "deck",
        "duration",
        "effect",
        "placeholder",
        "note",
        "clue_dice",
        "actions",
        "fires",
        "icon_sets",
    )
    for entry in _id_entries(source, doc, "cards", fields):
        cid = entry.new_id(out, "card")
        deck = entry.text("deck")
        if deck not in decks:
            entry.fail(f"must be one of {', '.join(decks)}, not {deck!r}", "deck")
        duration = entry.text("duration")
        if duration not in DURATIONS:
            entry.fail(f"must be one of {', '.join(DURATIONS)}, not {duration!r}", "duration")
        out[cid] = EnvironmentCard(
            cid,
            entry.text("name"),
            deck,
            duration,
            entry.text("effect"),
            entry.flag("placeholder"),
            entry.note(),
            entry.integer("clue_dice", -3, 3, 0),
            entry.integer("actions", 0, 2, 0),
            entry.integer("fires", 0, MAX_FIRES, 0),
            _icon_sets(entry) if "icon_sets" in entry.data else (),
        )
        card = out[cid]
        if card.ends_by_itself and card.duration != "until_met":
            entry.fail(
                'must be "until_met": a card with fires or icon sets lasts until they are all dealt with', "duration"
            )
        if card.fires and card.icon_sets:
            entry.fail(
                "cannot be given with fires; a card ends by its fires or by its icon sets, not both", "icon_sets"
            )
    for deck in decks:
        count = sum(1 for c in out.values() if c.deck == deck)
        want = COMMON_CARDS if deck == "common" else BOARD_CARDS
        if count != want:
            raise PackError(
                f'{source}: has {count} cards with deck = "{deck}"; the game has {want} '
                f"({COMMON_CARDS} common cards and {BOARD_CARDS} for each board). Fix the file (see docs/packs.md)."
            )
    return out


def bundled_dir() -> Traversable:
    """The directory of the bundled packs (inside the installed package)."""
    return resources.files("companion.games.skeptics").joinpath("packs")


def _bundled_files(bundled: Traversable) -> list[str]:
    """The paths of the bundled pack files, relative to their directory (the boards sorted by name)."""
    boards = sorted(
        f"boards/{item.name}" for item in bundled.joinpath("boards").iterdir() if item.name.endswith(".toml")
    )
    return [*_FILES, *boards]


def _read(base: Traversable, relative: str) -> str:
    node = base
    for part in relative.split("/"):
        node = node.joinpath(part)
    return node.read_text(encoding="utf-8")


def load_packs(extra_dir: str | Path | None = None, *, overrides: Mapping[str, tuple[str, str]] | None = None) -> Packs:
    """Load and validate the bundled packs; files in `extra_dir` replace those of the same path.

    `extra_dir` holds any of ``ghosts.toml``, ``environment.toml``, ``evidence.toml``, ``clues.toml`` and
    ``boards/NAME.toml`` (a new NAME adds a board). `overrides` (relative path -> (source label, text)) replace
    files once more without writing them, so an edit is checked before it is saved. Raises PackError naming
    file, entry and field.
    """
    texts = bundled_texts()  # relative path -> (source label, text)
    if extra_dir is not None:
        for rel, path in owner_files(owner_folder(extra_dir)).items():
            texts[rel] = owner_text(path)
    texts.update(overrides or {})
    return _from_texts(texts)


def bundled_texts() -> dict[str, tuple[str, str]]:
    """The bundled pack files by relative path, as (source label, text)."""
    bundled = bundled_dir()
    return {rel: (rel, _read(bundled, rel)) for rel in _bundled_files(bundled)}


def owner_files(extra: Path) -> dict[str, Path]:
    """The pack files in the owner's folder `extra`, by relative path (ghosts.toml, boards/NAME.toml ...)."""
    found = [p for p in (extra / name for name in _FILES) if p.is_file()]
    if (extra / "boards").is_dir():
        found += sorted((extra / "boards").glob("*.toml"))
    return {path.relative_to(extra).as_posix(): path for path in found}


def pack_texts(extra_dir: str | Path | None = None) -> dict[str, str]:
    """The text of every pack file in use: the file of `extra_dir` where there is one, else the bundled one."""
    bundled = bundled_dir()
    out = {rel: _read(bundled, rel) for rel in _bundled_files(bundled)}
    if extra_dir is not None and Path(extra_dir).is_dir():
        for rel, path in owner_files(Path(extra_dir)).items():
            out[rel] = owner_text(path)[1]
    return out


def _from_texts(texts: Mapping[str, tuple[str, str]]) -> Packs:
    boards: dict[str, Board] = {}
    for rel in sorted(r for r in texts if r.startswith("boards/")):
        source, text = texts[rel]
        board = _parse_board(source, _load_toml(source, text))
        expected = rel.removeprefix("boards/").removesuffix(".toml")
        if board.id != expected:
            raise PackError(
                f'{source}: [board]: field "id" is {board.id!r} but the file is named {expected}.toml; '
                "name the file after the board id."
            )
        boards[board.id] = board
    src, text = texts["evidence.toml"]
    evidence = _parse_evidence(src, _load_toml(src, text))
    src, text = texts["ghosts.toml"]
    ghosts = _parse_ghosts(src, _load_toml(src, text), evidence)
    src, text = texts["environment.toml"]
    environment = _parse_environment(src, _load_toml(src, text), boards)
    src, text = texts["clues.toml"]
    clues = _parse_clues(src, _load_toml(src, text))
    src, text = texts["items.toml"]
    items = _parse_items(src, _load_toml(src, text))
    # the cards not filled in yet, named alike in every list (companion.pack_files.stand_in_name) and numbered as in
    # the bundled packs, so a card filled in mid-game renames no other
    shipped = bundled_texts()
    same = all(texts.get(rel, ("", ""))[1] == text for rel, (_, text) in shipped.items())
    first = None if same else _from_texts(shipped)
    ghosts = name_stand_ins(ghosts, lambda g: GHOST_KIND, first.ghosts if first else None)
    evidence = name_stand_ins(evidence, lambda e: "Evidence", first.evidence if first else None)
    items = name_stand_ins(items, lambda i: "Item", first.items if first else None)
    environment = name_stand_ins(
        environment,
        lambda c: "Common card" if c.deck == "common" else f"{boards[c.deck].name} card",
        first.environment if first else None,
    )
    return Packs(
        MappingProxyType(boards),
        MappingProxyType(ghosts),
        MappingProxyType(environment),
        MappingProxyType(evidence),
        tuple(source for source, _ in texts.values()),
        MappingProxyType(clues),
        MappingProxyType(items),
    )


def export_bundled(target: str | Path) -> list[Path]:
    """Copy the bundled pack files into `target` (for an owner to edit); existing files are kept."""
    out = Path(target)
    bundled = bundled_dir()
    written: list[Path] = []
    for rel in _bundled_files(bundled):
        dest = out / rel
        if dest.exists():
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(_read(bundled, rel), encoding="utf-8")
        written.append(dest)
    return written


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion packs", description="Check the data packs, or export the bundled ones to edit them."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = sub.add_parser("check", help="check a folder of edited pack files (or the bundled packs)")
    check.add_argument("folder", nargs="?", metavar="DIR", help="the edited packs (default: the bundled ones)")
    export = sub.add_parser("export", help="write the bundled packs into DIR, to edit them")
    export.add_argument("folder", metavar="DIR")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``companion packs check [DIR]`` / ``companion packs export DIR``."""
    try:
        args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:  # --help (0) or a usage error (2), already printed by argparse
        return int(exc.code or 0)
    try:
        if args.command == "export":
            for path in export_bundled(args.folder):
                print(f"wrote {path}")
            return 0
        packs = load_packs(args.folder)
    except PackError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(
        f"packs OK: boards {', '.join(packs.boards)}; ghosts {', '.join(packs.ghosts)}; "
        f"{len(packs.environment)} environment cards; {len(packs.evidence)} evidence symbols."
    )
    left = packs.placeholders
    if left:
        print(f"{len(left)} entries are still placeholders (edit them to match your copy of the game):")
        for name in left:
            print(f"  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
