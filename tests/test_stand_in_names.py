"""A stand-in keeps its name while the owner fills in the cards around it (companion.pack_files.name_stand_ins):
its number is its place among the stand-ins of its kind in the bundled pack, so when "Asylum card 1" is filled in
mid-game the card the table knows as "Asylum card 3" is still "Asylum card 3". Through the real service, its box
folder and the box's edit path (GameService.edit_box), for each game whose packs have stand-ins."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from companion.box import Box
from companion.games.elder_sign.packs import load_packs as elder_sign_packs
from companion.games.elder_sign.packs import parse_pack_texts
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService


@pytest.fixture
def service(tmp_path: Path) -> Iterator[GameService]:
    svc = GameService(GameStore(tmp_path / "g.sqlite"), load_packs(), rng=random.Random(2), box=Box(tmp_path / "packs"))
    yield svc
    svc.close()


def stand_in_names(entries: Mapping[str, Any]) -> dict[str, str]:
    return {key: card.name for key, card in entries.items() if card.placeholder}


def test_skeptics_cards_keep_their_names_when_the_owner_fills_one_in_mid_game(service: GameService) -> None:
    service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 4, "physical": True})
    asylum = [key for key, card in service.packs.environment.items() if card.deck == "asylum" and card.placeholder]
    first, third = asylum[0], asylum[2]
    before = stand_in_names(service.packs.environment)
    assert before[first] == "Asylum card 1" and before[third] == "Asylum card 3"
    while service.state()["clock"] != "IX":
        service.do("end-round")
    service.do("end-round", {"room": "8", "environment": third})  # the Ghost Hour draws the third stand-in
    shown = [card["name"] for card in service.state()["environment"]]
    assert "Asylum card 3" in shown
    out = service.edit_box("environment", first, {"name": "Cold Spot", "effect": "One die fewer on clue rolls."})
    assert out["said"] == "Saved: the environment card Cold Spot."
    after = stand_in_names(service.packs.environment)
    assert first not in after and service.packs.environment[first].name == "Cold Spot"
    assert after == {key: name for key, name in before.items() if key != first}  # no other card renamed
    assert [card["name"] for card in service.state()["environment"]] == shown  # the table's card kept its name
    box_names = {card["id"]: card["name"] for card in out["box"]["environment"] if not card["filled"]}
    assert box_names[third] == "Asylum card 3"
    # the next load of the box folder (a restart) names them the same
    assert stand_in_names(load_packs(service.box.folder).environment) == after


def test_among_cultists_markers_keep_their_names_when_one_is_filled_in_mid_game(service: GameService) -> None:
    service.new_game({"rules": "among-cultists", "players": 4, "cultists": 1, "points_needed": 5, "seed": 3})
    for name in ("night-done", "next-phase", "draw-event"):
        service.do(name)
    drawn = service.state()["event"]
    box = service.box_view()["events"]
    names = {e["id"]: e["name"] for e in box if not e["filled"]}
    filled = next(key for key in names if key != drawn["id"])  # the first stand-in that is not on the table
    service.edit_box("event", filled, {"name": "Power cut", "text": "No light in the house this round."})
    assert service.state()["event"]["name"] == drawn["name"]  # the marker on the table kept its name
    after = {e["id"]: e["name"] for e in service.box_view()["events"] if not e["filled"]}
    assert after == {key: name for key, name in names.items() if key != filled}


def test_an_owners_own_stand_in_is_numbered_after_the_bundled_ones() -> None:
    """Elder Sign's packs from the owner's text (the box's check): the first Mythos stand-in filled in, a new one
    added at the top of the file; the bundled stand-ins keep their numbers and the new one comes after them."""
    bundled = elder_sign_packs()
    mythos = stand_in_names(bundled.mythos)
    assert len(mythos) >= 2
    first = next(iter(mythos))
    text = (Path(__file__).parents[1] / "companion/games/elder_sign/packs/mythos.toml").read_text(encoding="utf-8")
    entries = text.split("[[mythos]]")
    head, cards = entries[0], ["[[mythos]]" + e for e in entries[1:]]
    own = next(i for i, c in enumerate(cards) if f'id = "{first}"' in c)
    cards[own] = (
        cards[own]
        .replace("placeholder = true", "")
        .replace(
            next(line for line in cards[own].splitlines() if line.startswith("name")), 'name = "The Stars Are Right"'
        )
    )
    added = (
        cards[own]
        .replace(f'id = "{first}"', 'id = "owners_own"')
        .replace('name = "The Stars Are Right"', 'name = "Mythos 99"\nplaceholder = true')
    )
    packs = parse_pack_texts({"mythos.toml": head + added + "".join(cards)})
    after = stand_in_names(packs.mythos)
    assert packs.mythos[first].name == "The Stars Are Right"
    assert {k: v for k, v in after.items() if k != "owners_own"} == {k: v for k, v in mythos.items() if k != first}
    assert after["owners_own"] == f"Mythos {len(mythos) + 1}"
