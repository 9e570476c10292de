"""Among Cultists' data pack: the event markers of the bag (TOML).

The bundled file is ``companion/games/among_cultists/packs/events.toml``. The review the rules come from names no
event marker, so every entry is a stand-in (``placeholder = true``) that the owner fills in from the markers of the
box on the table, then deletes that line; docs/among-cultists.md lists the fields. A file of the same name in an
extra directory (the owner's packs folder) replaces the bundled one. The file is validated on load, and a
PackError names the file, the entry and the field::

    events.toml: events[2] (id "event03"): field "name" must be non-empty text in quotes, not '' ...
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.errors import PackError
from companion.pack_files import Entry, game_pack_texts, name_stand_ins
from companion.toml_text import read_toml

__all__ = ["FILES", "AmongCultistsPacks", "EventMarker", "load_packs", "parse_pack_texts"]

FILES = ("events.toml",)
EVENT_FIELDS = ("id", "name", "text", "placeholder", "note")
MAX_EVENTS = 60


@dataclass(frozen=True)
class EventMarker:
    """One event marker of the bag (seance-deduction-rules-de.txt:37): what it does lasts the round only."""

    id: str
    name: str
    text: str = ""
    placeholder: bool = False
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "text": self.text, "placeholder": self.placeholder}


@dataclass(frozen=True)
class AmongCultistsPacks:
    events: Mapping[str, EventMarker]
    sources: tuple[str, ...] = ()

    @property
    def placeholders(self) -> list[str]:
        """The entries the owner has not filled in yet, for ``packs check``-style listings."""
        return [f"event {e.id} ({e.name})" for e in self.events.values() if e.placeholder]


class _Entry(Entry):
    """One [[events]] table; every PackError names the file, the entry and the field."""

    docs = "docs/among-cultists.md"

    def optional_text(self, name: str) -> str:
        if name not in self.data:
            return ""
        value = self.data[name]
        if not isinstance(value, str):
            self.fail(f"must be text in quotes, not {value!r}", name)
        return value.strip()


def _entries(source: str, doc: Mapping[str, Any]) -> Iterator[_Entry]:
    for key in doc:
        if key != "events":
            raise PackError(
                f"{source}: unknown section {key!r}; this file holds [[events]] entries only. "
                "Fix the file (see docs/among-cultists.md)."
            )
    raw = doc.get("events")
    if not isinstance(raw, list) or not raw:
        raise PackError(
            f"{source}: has no [[events]] entries; the bag needs at least one event marker. "
            "Add them (see docs/among-cultists.md)."
        )
    if len(raw) > MAX_EVENTS:
        raise PackError(f"{source}: has {len(raw)} events; give at most {MAX_EVENTS} (see docs/among-cultists.md).")
    for i, item in enumerate(raw):
        label = f"events[{i}]" + (f' (id "{item["id"]}")' if isinstance(item, dict) and "id" in item else "")
        entry = _Entry(source, label, item)
        entry.check_keys(EVENT_FIELDS)
        yield entry


def _parse(texts: Mapping[str, tuple[str, str]]) -> AmongCultistsPacks:
    source, text = texts["events.toml"]
    doc = read_toml(source, text, docs="docs/among-cultists.md")
    events: dict[str, EventMarker] = {}
    for entry in _entries(source, doc):
        ident = entry.new_id(events, "event")
        name = entry.text("name")
        twin = next((e for e in events.values() if e.name.casefold() == name.casefold()), None)
        if twin is not None:
            entry.fail(f"repeats the name {name!r} of event {twin.id!r}; each marker has its own name", "name")
        events[ident] = EventMarker(ident, name, entry.optional_text("text"), entry.flag("placeholder"), entry.note())
    # the markers not filled in yet, named alike in every list (companion.pack_files.stand_in_name) and numbered as
    # in the bundled pack, so a marker filled in mid-game renames no other
    shipped = game_pack_texts("companion.games.among_cultists", FILES)
    first = None if all(texts[n][1] == shipped[n][1] for n in FILES) else _parse(shipped)
    events = name_stand_ins(events, lambda e: "Event", first.events if first else None)
    return AmongCultistsPacks(MappingProxyType(events), tuple(source for source, _ in texts.values()))


def _bundled(name: str) -> str:
    return (
        resources.files("companion.games.among_cultists").joinpath("packs").joinpath(name).read_text(encoding="utf-8")
    )


def load_packs(extra_dir: str | Path | None = None) -> AmongCultistsPacks:
    """Load and validate the bundled pack; ``events.toml`` in `extra_dir` (the owner's folder) replaces it."""
    return _parse(game_pack_texts("companion.games.among_cultists", FILES, extra_dir))


def parse_pack_texts(texts: Mapping[str, str], where: str | Path | None = None) -> AmongCultistsPacks:
    """Packs from file texts by name (tests, the box's edits): names left out are the bundled files; `where` is the
    folder the messages name them in."""

    def source(name: str) -> str:
        return str(Path(where) / name) if where is not None else name

    return _parse({name: (source(name), texts[name] if name in texts else _bundled(name)) for name in FILES})
