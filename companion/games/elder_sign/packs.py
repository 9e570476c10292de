"""Elder Sign's data packs: Ancient Ones, investigators, adventures, Other Worlds and Mythos cards (TOML).

The bundled files live in ``companion/games/elder_sign/packs/``. The rules text ships no card text, so
every entry is a placeholder (``placeholder = true``) that the owner fills in from the cards of the copy
on the table, then deletes that line; docs/elder-sign.md lists the fields. A file of the same name in an
extra directory replaces the bundled one. Every file is validated on load, and a PackError names the
file, the entry and the field::

    adventures.toml: adventures[3] (id "adv04"): field "tasks": task 2 cannot read 'inv4' ...
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.errors import DiceError, PackError
from companion.games.elder_sign.dice import Colour, Need
from companion.pack_files import Entry, game_pack_texts, name_stand_ins, names_no_card, show_value
from companion.toml_text import read_toml

__all__ = [
    "Effect",
    "TaskCard",
    "Adventure",
    "AncientOne",
    "Investigator",
    "MythosCard",
    "ElderSignPacks",
    "load_packs",
    "parse_tasks",
    "FILES",
]

ANCIENT_KIND = "Ancient One"  # the kind in a stand-in's name ("Ancient One 2")
FILES = ("ancient_ones.toml", "investigators.toml", "adventures.toml", "other_worlds.toml", "mythos.toml")
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
LINGERING = ("until_next", "at_midnight")  # elder-sign-rules.txt:317


@dataclass(frozen=True)
class Effect:
    """What a reward, penalty, terror or Mythos half does that the companion counts; `text` is the rest.

    Sanity and stamina are changes (-1 loses one); on an adventure they fall on the active investigator, on a
    Mythos card's half on whom it says (`who`, WHO; every investigator when left out, elder-sign-rules.txt:321: "All
    of us investigators will lose 2 Stamina"). `clock` is hours the clock moves (multiples of 3).
    """

    elder_signs: int = 0
    clues: int = 0
    doom: int = 0
    sanity: int = 0
    stamina: int = 0
    monsters: int = 0
    gate: bool = False
    clock: int = 0
    # item cards drawn from their decks (:229 Common Items, :237 Unique Items, :239 Spells), one an icon
    common_items: int = 0
    unique_items: int = 0
    spells: int = 0
    text: str = ""
    # a Mythos card's half only (WHO): whom its sanity, stamina, clues and items fall on, as the card says; "" (left
    # out, allowed without items): every investigator
    who: str = ""

    @property
    def empty(self) -> bool:
        return self == Effect(text=self.text, who=self.who) and not self.text

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: v for k, v in self.__dict__.items() if v}
        return out


# whom a Mythos card's half falls on (its sanity, stamina, clues and items), as the card says: the rules text names no
# one for the items (:315-319 name only "a Doom token" and "a Monster marker" of its halves) and "All of us
# investigators" only for a lingering half's stamina (:321), so a half with items must say it
WHO = MappingProxyType(
    {
        "each": "every investigator",
        "active": "the active investigator",
        # the card leaves it to the table ("one investigator of your choice", "the investigator with the most Clue
        # tokens"): the companion plays the rest of the half and asks the host whom
        "ask": "whom the card leaves to the table (the host is asked)",
    }
)
EFFECT_ITEMS = ("common_items", "unique_items", "spells")
# an effect's whole numbers, as its table in a pack file (and the box editor, companion.games.elder_sign.box) names them
EFFECT_NUMBERS = ("elder_signs", "clues", "doom", "sanity", "stamina", "monsters", "clock", *EFFECT_ITEMS)
TASK_COSTS = ("sanity", "stamina", "clock")  # what completing a task may cost (:157-165, :185)


@dataclass(frozen=True)
class TaskCard:
    """One task (row of symbols) as printed: what it needs, and what completing it costs (:185)."""

    need: Need
    sanity: int = 0
    stamina: int = 0
    clock: int = 0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"need": str(self.need)}
        for key in TASK_COSTS:
            if getattr(self, key):
                out[key] = getattr(self, key)
        return out

    def __str__(self) -> str:
        """The task as text, its costs after its symbols: "inv:3,lore:1,sanity:-1,clock:3" (parse_tasks reads it)."""
        return ",".join([str(self.need), *(f"{key}:{getattr(self, key)}" for key in TASK_COSTS if getattr(self, key))])


@dataclass(frozen=True)
class Adventure:
    """An Adventure or Other World card (:84, :115, :273-283)."""

    id: str
    name: str
    tasks: tuple[TaskCard, ...]
    ordered: bool = False  # the arrow on the left side (:281-283)
    trophies: int = 1
    lock: Colour | None = None  # a locked die icon (:397-403)
    reward: Effect = field(default_factory=Effect)
    penalty: Effect = field(default_factory=Effect)
    terror: Effect = field(default_factory=Effect)
    other_world: bool = False
    placeholder: bool = False
    note: str = ""


@dataclass(frozen=True)
class AncientOne:
    """An Ancient One card (:74, :245, :419-461)."""

    id: str
    name: str
    doom: int  # spaces on its doom track
    elder_signs: int  # the Elder Sign limit printed on the card
    monster_spaces: tuple[int, ...]  # doom track spaces (1-based) with a monster icon
    combat: Need  # the combat task (:439)
    attack: str
    monster_masks: bool = False  # Nyarlathotep's mask monsters (:82)
    placeholder: bool = False
    note: str = ""

    @property
    def said(self) -> str:
        """The Ancient One as every sentence, the view and the screens name it: its name, or "the Ancient One" while
        its card is a stand-in (not filled in yet), whose name is never told as the card's."""
        return "the Ancient One" if self.placeholder else self.name

    @property
    def names_a_card(self) -> bool:
        """Whether its name is a card's of the deck: a filled-in card's, or a stand-in's the rulebook gives it
        (Nyarlathotep, :82), not the companion's "Ancient One 2" (companion.pack_files.names_no_card)."""
        return not names_no_card(self, ANCIENT_KIND)


@dataclass(frozen=True)
class Investigator:
    id: str
    name: str
    sanity: int
    stamina: int
    clues: int = 0
    # the item cards listed on the card (:84 "any item cards and Clue tokens listed on our cards")
    common_items: int = 0
    unique_items: int = 0
    spells: int = 0
    ability: str = ""
    placeholder: bool = False
    note: str = ""


@dataclass(frozen=True)
class MythosCard:
    """A Mythos card: the immediate half (top) and the lingering half (bottom) (:313-321)."""

    id: str
    name: str
    immediate: Effect
    lingering: str
    lingering_kind: str  # "until_next" (in force until the next Mythos card) or "at_midnight"
    at_midnight: Effect = field(default_factory=Effect)  # the lingering half's At Midnight effect
    terror: Effect = field(default_factory=Effect)  # resolved with a failed roll showing terror (:202)
    lock: Colour | None = None
    placeholder: bool = False
    note: str = ""


@dataclass(frozen=True)
class ElderSignPacks:
    ancient_ones: Mapping[str, AncientOne]
    investigators: Mapping[str, Investigator]
    adventures: Mapping[str, Adventure]
    other_worlds: Mapping[str, Adventure]
    mythos: Mapping[str, MythosCard]
    sources: tuple[str, ...] = ()

    def card(self, card_id: str) -> Adventure:
        return self.adventures.get(card_id) or self.other_worlds[card_id]

    @property
    def placeholders(self) -> list[str]:
        out = [f"ancient one {a.id} ({a.name})" for a in self.ancient_ones.values() if a.placeholder]
        out += [f"investigator {i.id} ({i.name})" for i in self.investigators.values() if i.placeholder]
        out += [f"adventure {a.id} ({a.name})" for a in self.adventures.values() if a.placeholder]
        out += [f"other world {a.id} ({a.name})" for a in self.other_worlds.values() if a.placeholder]
        out += [f"mythos card {m.id} ({m.name})" for m in self.mythos.values() if m.placeholder]
        return out


# -- validation ----------------------------------------------------------------------------------------


_show = show_value


class _Entry(Entry):
    """One TOML table of an Elder Sign pack; every PackError names the file, the entry and the field."""

    docs = "docs/elder-sign.md"

    def text(self, name: str, default: str | None = None) -> str:
        """As Entry.text, but a field with a default may be left empty ("")."""
        value = self.data.get(name, default)
        if value is None:
            self.fail("is missing; add it as text in quotes", name)
        if not isinstance(value, str) or (not value.strip() and default is None):
            self.fail(f"must be non-empty text in quotes, not {_show(value)}", name)
        assert isinstance(value, str)
        return value.strip()

    def colour(self, name: str) -> Colour | None:
        if name not in self.data:
            return None
        value = self.data[name]
        try:
            return Colour.parse(value) if isinstance(value, str) else Colour.parse("?")
        except DiceError:
            self.fail(f'must be "green", "yellow" or "red", not {_show(value)}', name)

    def need(self, name: str) -> Need:
        value = self.text(name)
        try:
            return Need.parse(value)
        except DiceError as exc:
            self.fail(f"is not a task ({exc})", name)

    def effect(self, name: str, mythos: bool = False) -> Effect:
        """An effect table; a Mythos card's half (`mythos`) may say, and with items must say, whom it falls on (who)."""
        value = self.data.get(name, {})
        sub = _Entry(self.source, f'{self.label}: field "{name}"', value)
        sub.check_keys((*(("who",) if mythos else ()), *EFFECT_NUMBERS, "gate", "text"))
        clock = sub.integer("clock", 0, 12, 0)
        if clock % 3:
            sub.fail("must be a multiple of 3 hours (the hand only stops on XII, III, VI and IX)", "clock")
        items = {key: sub.integer(key, -5, 5, 0) for key in EFFECT_ITEMS}  # drawn (1 or more) or given up (-1)
        who = sub.text("who", "") if mythos else ""
        if who and who not in WHO:
            sub.fail(f"must be one of {', '.join(repr(w) for w in WHO)}, not {who!r}", "who")
        if mythos and not who and any(items.values()):
            # the choices in WHO's words (the form's); the file's spelling in "(in the file: ...)", which the form's
            # words leave out (companion.words.pack_words)
            *others, last = WHO
            spelled = ", ".join(f'"{w}"' for w in others) + f' or "{last}"'
            sub.fail(
                "gives or takes items, and the rules text does not say whose they are (:315-319): say whom they fall "
                f"on, as the card says: {', '.join(WHO[w] for w in others)} or {WHO[last]}, e.g. the investigator of "
                f"your choice or with the most clues (in the file: who = {spelled})"
            )
        return Effect(
            who=who,
            elder_signs=sub.integer("elder_signs", -20, 20, 0),
            clues=sub.integer("clues", -10, 10, 0),
            doom=sub.integer("doom", -20, 20, 0),
            sanity=sub.integer("sanity", -10, 10, 0),
            stamina=sub.integer("stamina", -10, 10, 0),
            monsters=sub.integer("monsters", 0, 5, 0),
            gate=sub.flag("gate"),
            clock=clock,
            **items,
            text=sub.text("text", ""),
        )

    def note(self) -> str:
        return self.text("note", "") if "note" in self.data else ""


def _text_task(text: str) -> dict[str, Any]:
    """A task written as text, its costs after its symbols: "inv:3,lore:1,sanity:-1,clock:3" (:185: a task may move
    the clock forward, or cost sanity or stamina, when it is done) -> the fields of a task table."""
    item: dict[str, Any] = {}
    symbols = []
    for part in text.split(","):
        key, _, number = part.strip().partition(":")
        if key.strip().lower() not in TASK_COSTS:
            symbols.append(part)
            continue
        try:
            item[key.strip().lower()] = int(number.strip())
        except ValueError:
            raise ValueError(f"{part.strip()!r} needs a whole number after the colon, e.g. sanity:-1") from None
    if not any(part.strip() for part in symbols):
        raise ValueError("has costs but no symbol; give its symbols too, e.g. inv:3,sanity:-1")
    item["need"] = ",".join(symbols)
    return item


def parse_tasks(value: Any) -> tuple[TaskCard, ...]:
    """Tasks from a list of texts ("inv:4,lore:1", with costs "inv:3,sanity:-1") or tables ({need = "inv:4",
    sanity = -1}); also the text "inv:4; lore:1,peril:1" (tasks split by ';'). Raises ValueError with a readable
    message."""
    if isinstance(value, str):
        value = [part for part in value.split(";") if part.strip()]
    if not isinstance(value, list) or not value:
        raise ValueError('must be a non-empty list of tasks like ["inv:4,lore:1", "peril:1"]')
    tasks = []
    for i, item in enumerate(value, 1):
        try:
            if isinstance(item, str):
                if not any(key in item.lower() for key in TASK_COSTS):
                    tasks.append(TaskCard(Need.parse(item)))
                    continue
                item = _text_task(item)
            if not isinstance(item, dict):
                raise ValueError(f'is {_show(item)}; write it as text "inv:4" or a table {{need = "inv:4"}}')
            unknown = [k for k in item if k not in ("need", *TASK_COSTS)]
            if unknown:
                raise ValueError(f"has unknown key(s) {', '.join(unknown)}; use need, sanity, stamina, clock")
            costs = {}
            for key in TASK_COSTS:
                v = item.get(key, 0)
                if not isinstance(v, int) or isinstance(v, bool) or not -10 <= v <= 12:
                    raise ValueError(f"{key} must be a whole number, not {_show(v)}")
                costs[key] = v
            if costs["clock"] % 3 or costs["clock"] < 0:
                raise ValueError("clock must be 0, 3, 6, 9 or 12 hours")
            tasks.append(TaskCard(Need.parse(str(item.get("need", ""))), **costs))
        except DiceError as exc:
            raise ValueError(f"task {i} {exc}") from None
        except ValueError as exc:
            raise ValueError(f"task {i} {exc}") from None
    return tuple(tasks)


def _entries(source: str, doc: Mapping[str, Any], name: str, fields: tuple[str, ...]) -> Iterable[_Entry]:
    raw = doc.get(name)
    if not isinstance(raw, list) or not raw:
        raise PackError(f"{source}: has no [[{name}]] entries; add them (see docs/elder-sign.md).")
    for key in doc:
        if key != name:
            raise PackError(f"{source}: unknown section {key!r}; this file holds [[{name}]] entries only.")
    seen: set[str] = set()
    for i, item in enumerate(raw):
        label = f"{name}[{i}]" + (f' (id "{item["id"]}")' if isinstance(item, dict) and "id" in item else "")
        entry = _Entry(source, label, item)
        entry.check_keys(fields)
        ident = entry.ident("id")
        if ident in seen:
            entry.fail(f"repeats the id {ident!r}; each entry needs its own", "id")
        seen.add(ident)
        yield entry


_ADV_FIELDS = (
    "id",
    "name",
    "tasks",
    "ordered",
    "trophies",
    "lock",
    "reward",
    "penalty",
    "terror",
    "placeholder",
    "note",
)


def _adventures(source: str, doc: Mapping[str, Any], name: str, other: bool) -> dict[str, Adventure]:
    out = {}
    for e in _entries(source, doc, name, _ADV_FIELDS):
        try:
            tasks = parse_tasks(e.data.get("tasks"))
        except ValueError as exc:
            e.fail(str(exc), "tasks")
        card = Adventure(
            id=e.ident("id"),
            name=e.text("name"),
            tasks=tasks,
            ordered=e.flag("ordered"),
            trophies=e.integer("trophies", 0, 10, 1),
            lock=e.colour("lock"),
            reward=e.effect("reward"),
            penalty=e.effect("penalty"),
            terror=e.effect("terror"),
            other_world=other,
            placeholder=e.flag("placeholder"),
            note=e.note(),
        )
        out[card.id] = card
    return out


def _parse(texts: Mapping[str, tuple[str, str]]) -> ElderSignPacks:
    docs = {}
    for rel, (source, text) in texts.items():
        docs[rel] = (source, read_toml(source, text, docs="docs/elder-sign.md"))
    ancients: dict[str, AncientOne] = {}
    source, doc = docs["ancient_ones.toml"]
    for e in _entries(
        source,
        doc,
        "ancient_ones",
        (
            "id",
            "name",
            "doom",
            "elder_signs",
            "monster_spaces",
            "combat",
            "attack",
            "monster_masks",
            "placeholder",
            "note",
        ),
    ):
        doom = e.integer("doom", 1, 30)
        spaces = e.data.get("monster_spaces", [])
        if not isinstance(spaces, list) or not all(
            isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= doom for n in spaces
        ):
            e.fail(f"must be a list of doom track spaces 1 to {doom}, not {_show(spaces)}", "monster_spaces")
        one = AncientOne(
            id=e.ident("id"),
            name=e.text("name"),
            doom=doom,
            elder_signs=e.integer("elder_signs", 1, 30),
            monster_spaces=tuple(sorted(set(spaces))),
            combat=e.need("combat"),
            attack=e.text("attack"),
            monster_masks=e.flag("monster_masks"),
            placeholder=e.flag("placeholder"),
            note=e.note(),
        )
        ancients[one.id] = one
    investigators: dict[str, Investigator] = {}
    source, doc = docs["investigators.toml"]
    for e in _entries(
        source,
        doc,
        "investigators",
        (
            "id",
            "name",
            "sanity",
            "stamina",
            "clues",
            "common_items",
            "unique_items",
            "spells",
            "ability",
            "placeholder",
            "note",
        ),
    ):
        inv = Investigator(
            id=e.ident("id"),
            name=e.text("name"),
            sanity=e.integer("sanity", 1, 12),
            stamina=e.integer("stamina", 1, 12),
            clues=e.integer("clues", 0, 10, 0),
            common_items=e.integer("common_items", 0, 5, 0),
            unique_items=e.integer("unique_items", 0, 5, 0),
            spells=e.integer("spells", 0, 5, 0),
            ability=e.text("ability", ""),
            placeholder=e.flag("placeholder"),
            note=e.note(),
        )
        investigators[inv.id] = inv
    source, doc = docs["adventures.toml"]
    adventures = _adventures(source, doc, "adventures", False)
    source, doc = docs["other_worlds.toml"]
    other_worlds = _adventures(source, doc, "other_worlds", True)
    for card_id in other_worlds:
        if card_id in adventures:
            raise PackError(
                f'{source}: other_worlds (id "{card_id}"): field "id" is also an adventure\'s id; '
                "give each card its own id. Fix the file (see docs/elder-sign.md)."
            )
    mythos: dict[str, MythosCard] = {}
    source, doc = docs["mythos.toml"]
    for e in _entries(
        source,
        doc,
        "mythos",
        (
            "id",
            "name",
            "immediate",
            "lingering",
            "lingering_kind",
            "at_midnight",
            "terror",
            "lock",
            "placeholder",
            "note",
        ),
    ):
        kind = e.text("lingering_kind", "until_next")
        if kind not in LINGERING:
            e.fail(f"must be one of {', '.join(LINGERING)}, not {kind!r}", "lingering_kind")
        card = MythosCard(
            id=e.ident("id"),
            name=e.text("name"),
            immediate=e.effect("immediate", mythos=True),
            lingering=e.text("lingering"),
            lingering_kind=kind,
            at_midnight=e.effect("at_midnight", mythos=True),
            terror=e.effect("terror", mythos=True),
            lock=e.colour("lock"),
            placeholder=e.flag("placeholder"),
            note=e.note(),
        )
        if kind == "until_next" and card.at_midnight != Effect():
            e.fail('is only read when lingering_kind = "at_midnight"', "at_midnight")
        mythos[card.id] = card
    # the cards not filled in yet, named alike in every list (companion.pack_files.stand_in_name) and numbered as in
    # the bundled packs, so a card filled in mid-game renames no other
    shipped = game_pack_texts("companion.games.elder_sign", FILES)
    first = None if all(texts[n][1] == shipped[n][1] for n in FILES) else _parse(shipped)
    return ElderSignPacks(
        MappingProxyType(name_stand_ins(ancients, lambda a: ANCIENT_KIND, first.ancient_ones if first else None)),
        MappingProxyType(
            name_stand_ins(investigators, lambda i: "Investigator", first.investigators if first else None)
        ),
        MappingProxyType(name_stand_ins(adventures, lambda a: "Adventure", first.adventures if first else None)),
        MappingProxyType(name_stand_ins(other_worlds, lambda a: "Other World", first.other_worlds if first else None)),
        MappingProxyType(name_stand_ins(mythos, lambda m: "Mythos", first.mythos if first else None)),
        tuple(source for source, _ in texts.values()),
    )


def load_packs(extra_dir: str | Path | None = None) -> ElderSignPacks:
    """Load and validate the bundled Elder Sign packs; a file of the same name in `extra_dir` replaces one."""
    return _parse(game_pack_texts("companion.games.elder_sign", FILES, extra_dir))


def parse_pack_texts(texts: Mapping[str, str]) -> ElderSignPacks:
    """Packs from file texts by name (tests): names left out are the bundled files."""
    bundled = resources.files("companion.games.elder_sign").joinpath("packs")
    all_texts = {
        name: (name, texts[name] if name in texts else bundled.joinpath(name).read_text(encoding="utf-8"))
        for name in FILES
    }
    return _parse(all_texts)
