"""Elder Sign's part of the owner's box (companion.box, through companion.pack_edits.BoxPacks): its cards (the
adventures, the Other Worlds, the investigators, the Ancient Ones, the Mythos cards) as the "Your box" page fills
them in, with the same checks as a file edited by hand."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from companion.errors import BadCommand
from companion.games.elder_sign.packs import (
    EFFECT_NUMBERS,
    FILES,
    WHO,
    Adventure,
    Effect,
    ElderSignPacks,
    parse_pack_texts,
)
from companion.pack_edits import BoxPacks, Doc, FieldValue

__all__ = ["BOX", "ElderSignBox"]

# each section: the pack file, the list in it and how the page's sentence names one
_LISTS: Mapping[str, tuple[str, str, str]] = {
    "es_adventure": ("adventures.toml", "adventures", "the adventure"),
    "es_other_world": ("other_worlds.toml", "other_worlds", "the Other World"),
    "es_investigator": ("investigators.toml", "investigators", "the investigator"),
    "es_ancient_one": ("ancient_ones.toml", "ancient_ones", "the Ancient One"),
    "es_mythos": ("mythos.toml", "mythos", "the Mythos card"),
}
# an adventure's fields; effects are {elder_signs, clues, ..., text}
_ADVENTURE = {
    "name": "text",
    "tasks": "texts",
    "ordered": "flag0",
    "trophies": "int0",
    "lock": "text0",
    "reward": "effect",
    "penalty": "effect",
    "terror": "effect",
}
_EMPTY: dict[str, list[dict[str, object]]] = {
    "adventures": [],
    "other_worlds": [],
    "mythos": [],
    "investigators": [],
    "ancient_ones": [],
}


class ElderSignBox(BoxPacks):
    """Elder Sign's pack files in the owner's box."""

    rules = "elder-sign"
    package = "companion.games.elder_sign"
    files = FILES
    effect_keys = EFFECT_NUMBERS
    # "who": whom a Mythos card's half falls on (packs.WHO); the packs' validation refuses it on any other card
    effect_texts = ("text", "who")
    sections = MappingProxyType(
        {
            "es_adventure": _ADVENTURE,
            "es_other_world": {**_ADVENTURE, "terror": "effect"},
            "es_investigator": {"name": "text", "sanity": "int", "stamina": "int", "clues": "int0", "ability": "text0"},
            "es_ancient_one": {"name": "text", "doom": "int", "elder_signs": "int", "combat": "text", "attack": "text"},
            "es_mythos": {
                "name": "text",
                "immediate": "effect",
                "lingering": "text",
                "lingering_kind": "text0",
                "at_midnight": "effect0",
                "terror": "effect0",
                "lock": "text0",
            },
        }
    )

    def parse(self, texts: Mapping[str, str], folder: Path | None) -> ElderSignPacks:
        return parse_pack_texts(texts)

    def file_of(self, packs: object, section: str, key: str) -> str:
        return _LISTS[section][0]

    def edit(self, doc: Doc, packs: object, section: str, key: str, values: Mapping[str, FieldValue]) -> str:
        _, list_name, word = _LISTS[section]
        entry = self.edit_entry(doc, section, list_name, "id", key, values)
        if entry is None:
            raise BadCommand(f"box: there is no {word.removeprefix('the ')} {key!r} in the box.")
        return f"{word} {values.get('name') or entry.get('name') or key}"

    def view(self, packs: object | None) -> dict[str, object]:
        """Elder Sign's cards, each with what is filled in ("elder_sign"), and how many are left; whom a Mythos
        card's half may fall on ("elder_sign_who", packs.WHO, in the page's choices' words)."""
        groups = _view(packs) if isinstance(packs, ElderSignPacks) else _EMPTY
        return {
            "elder_sign": groups,
            "elder_sign_left": sum(1 for group in groups.values() for card in group if not card["filled"]),
            "elder_sign_who": dict(WHO),
        }


def _effect_view(effect: Effect) -> dict[str, object]:
    return {k: v for k, v in dataclasses.asdict(effect).items() if v not in (0, "", False)}


def _adventure(a: Adventure) -> dict[str, object]:
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


def _view(packs: ElderSignPacks) -> dict[str, list[dict[str, object]]]:
    return {
        "adventures": [_adventure(a) for a in packs.adventures.values()],
        "other_worlds": [_adventure(a) for a in packs.other_worlds.values()],
        "mythos": [
            {
                "id": m.id,
                "name": m.name,
                "immediate": _effect_view(m.immediate),
                "lingering": "" if m.placeholder else m.lingering,
                "lingering_kind": m.lingering_kind,
                "at_midnight": _effect_view(m.at_midnight),
                "terror": _effect_view(m.terror),
                "lock": m.lock.value if m.lock else "",
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


BOX = ElderSignBox()
