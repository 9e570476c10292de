"""Among Cultists' part of the owner's box (companion.box, through companion.pack_edits.BoxPacks): its event
markers, as the owner's bag has them, filled in on the "Your box" page."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from companion.errors import BadCommand
from companion.games.among_cultists.packs import FILES, AmongCultistsPacks, parse_pack_texts
from companion.pack_edits import BoxPacks, Doc, FieldValue

__all__ = ["BOX", "AmongCultistsBox"]


class AmongCultistsBox(BoxPacks):
    """Among Cultists' pack file in the owner's box."""

    rules = "among-cultists"
    package = "companion.games.among_cultists"
    files = FILES
    sections = MappingProxyType({"event": {"name": "text", "text": "text", "note": "text0"}})

    def parse(self, texts: Mapping[str, str], folder: Path | None) -> AmongCultistsPacks:
        return parse_pack_texts(texts, where=folder if folder is not None else Path("your box"))

    def file_of(self, packs: object, section: str, key: str) -> str:
        return "events.toml"

    def edit(self, doc: Doc, packs: object, section: str, key: str, values: Mapping[str, FieldValue]) -> str:
        """One of the event markers."""
        entry = self.edit_entry(doc, "event", "events", "id", key, values)
        if entry is None:
            raise BadCommand(f"box: there is no event marker {key!r} in the box.")
        return f"the event marker {values.get('name') or entry.get('name') or key}"

    def view(self, packs: object | None) -> dict[str, object]:
        """The event markers, each with whether it is filled in, and how many are left."""
        markers = packs.events.values() if isinstance(packs, AmongCultistsPacks) else ()
        events = [{"id": e.id, "name": e.name, "text": e.text, "filled": not e.placeholder} for e in markers]
        return {"events": events, "events_left": sum(1 for e in events if not e["filled"])}


BOX = AmongCultistsBox()
