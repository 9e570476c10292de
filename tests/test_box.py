"""Your box (companion/box.py): edits made on the pack files' text, checked like a file edited by hand, saved
atomically in the box folder, exported and imported as one file; through the service and the real web API."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from web_fixtures import Table

from companion.box import EXPORT_KIND, Box, BoxChange, BoxEdit
from companion.errors import BadCommand, PackError
from companion.games.skeptics.packs import bundled_dir, load_packs
from companion.games.skeptics.sentences import for_players
from companion.history import GameStore
from companion.service import GameService


@pytest.fixture
def box(tmp_path: Path) -> Box:
    return Box(tmp_path / "packs")


def fill(box: Box, section: str, key: str, **fields: Any) -> Any:
    packs = load_packs(box.folder if box.folder and box.folder.is_dir() else None)
    change = box.edit(packs, BoxEdit(section, key, fields))
    box.check(change)
    box.save(change)
    return load_packs(box.folder)


def test_a_ghost_filled_in_is_saved_as_a_pack_file_that_keeps_its_comments(box: Box) -> None:
    packs = fill(
        box,
        "ghost",
        "shadow",
        name="Shade",
        difficulty=4,
        icon_sets=["eye:2", "camera:1,timer"],
        ability="Puts out the lights.",
        lingering="No one may use a magnifying glass.",
    )
    ghost = packs.ghosts["shadow"]
    assert (ghost.name, ghost.difficulty, ghost.icon_sets) == ("Shade", 4, ("eye:2", "camera:1,timer"))
    assert not ghost.placeholder and "shadow" not in [p.split()[1] for p in packs.placeholders if p.startswith("ghost")]
    assert box.folder is not None
    text = (box.folder / "ghosts.toml").read_text(encoding="utf-8")
    bundled = bundled_dir().joinpath("ghosts.toml").read_text(encoding="utf-8")
    assert text.splitlines()[0] == bundled.splitlines()[0] and text.startswith("#")  # the comments stay
    # every other ghost is as bundled
    for gid, other in load_packs().ghosts.items():
        if gid != "shadow":
            assert packs.ghosts[gid] == other


def test_a_wrong_value_is_refused_with_the_packs_error_and_nothing_is_written(box: Box) -> None:
    packs = load_packs()
    change = box.edit(packs, BoxEdit("ghost", "child", {"difficulty": 40}))
    with pytest.raises(PackError) as err:
        box.check(change)
    assert 'field "difficulty"' in str(err.value)
    assert for_players(str(err.value)) == "The difficulty must be a whole number 1 to 10, not 40."
    assert box.folder is not None and not (box.folder / "ghosts.toml").exists()
    with pytest.raises(BadCommand, match="no field 'bogus'"):
        box.edit(packs, BoxEdit("ghost", "shadow", {"bogus": 1}))
    with pytest.raises(BadCommand, match="wrong kind"):
        box.edit(packs, BoxEdit("ghost", "shadow", {"difficulty": "hard"}))
    with pytest.raises(BadCommand, match="stand-in.s words"):  # filled in, but the text is still the stand-in
        box.edit(packs, BoxEdit("ghost", "shadow", {"name": "Shade"}))
    with pytest.raises(BadCommand, match="no ghost"):
        box.edit(packs, BoxEdit("ghost", "nobody", {"name": "X"}))


def test_environment_cards_take_the_effects_the_engine_applies(box: Box) -> None:
    packs = fill(
        box, "environment", "common4", name="Cold Spot", effect="One die fewer on clue rolls.", clue_dice=-1, actions=2
    )
    card = packs.environment["common4"]
    assert (card.name, card.clue_dice, card.actions, card.placeholder) == ("Cold Spot", -1, 2, False)
    packs = fill(box, "environment", "common4", clue_dice=0, actions=0)  # back to no change: the field goes away
    assert (packs.environment["common4"].clue_dice, packs.environment["common4"].actions) == (0, 0)
    assert box.folder is not None
    lines = (box.folder / "environment.toml").read_text(encoding="utf-8").splitlines()
    assert "clue_dice = -1" in lines and lines.count("clue_dice = -1") == 1  # the Watching Eyes' only
    with pytest.raises(PackError, match="until_met"):  # a card ended by its icon sets lasts until they are rolled
        box.check(box.edit(packs, BoxEdit("environment", "common4", {"duration": "hour", "icon_sets": ["eye:1"]})))
    packs = fill(
        box, "environment", "barrier", effect="A barrier blocks a space.", icon_sets=["eye:1,camera:1", "cobweb:2"]
    )
    assert packs.environment["barrier"].icon_sets == ("eye:1,camera:1", "cobweb:2")


def test_the_board_is_edited_space_by_space_and_way_by_way(box: Box) -> None:
    packs = fill(box, "space", "asylum:12", name="Chapel", pos=[9, 9])
    assert packs.boards["asylum"].rooms[12].name == "Chapel" and packs.boards["asylum"].rooms[12].pos == (9, 9)
    packs = fill(box, "connection", "asylum:12-13", kind="door", keys=2, lock=True)
    conn = packs.boards["asylum"].connection(12, 13)
    assert conn is not None and (conn.door, conn.keys, conn.lock) == (True, 2, True)
    packs = fill(box, "connection", "asylum:12-13", kind="none")
    assert packs.boards["asylum"].connection(12, 13) is None
    packs = fill(box, "passage", "asylum:1-20", on=True)
    assert (1, 20) in packs.boards["asylum"].secret_passages
    packs = fill(box, "passage", "asylum:1-20", on=False)
    assert (1, 20) not in packs.boards["asylum"].secret_passages
    other = packs.boards["asylum"].rooms[13].pos
    with pytest.raises(PackError, match="already"):
        box.check(box.edit(packs, BoxEdit("space", "asylum:12", {"pos": list(other)})))
    with pytest.raises(BadCommand):
        box.edit(packs, BoxEdit("connection", "asylum:5-5", {"kind": "open"}))
    with pytest.raises(BadCommand, match="no board"):
        box.edit(packs, BoxEdit("space", "castle:1", {"name": "Hall"}))


def test_a_clue_card_is_filled_in_by_its_icons(box: Box) -> None:
    packs = fill(box, "clue", "5", icon_set="eye:2,cobweb:1,timer", name="Torn diary")
    assert packs.clues[5].icon_set == "eye:2,cobweb:1,timer" and packs.clues[5].label == "Torn diary"
    with pytest.raises(PackError, match="icon_set"):
        box.check(box.edit(packs, BoxEdit("clue", "5", {"icon_set": "key:2"})))


def test_the_whole_box_goes_to_one_file_and_comes_back_in_another_companion(tmp_path: Path, box: Box) -> None:
    fill(box, "ghost", "shadow", name="Shade", ability="Puts out the lights.", lingering="Whispers.")
    fill(box, "evidence", "evidence3", name="Handprint")
    data = json.loads(json.dumps(box.export()))
    assert data["kind"] == EXPORT_KIND
    other = Box(tmp_path / "other")
    change = other.parse_import(data)
    other.check(change)
    other.save(change)
    assert load_packs(other.folder) == load_packs(box.folder)
    assert load_packs(other.folder).evidence["evidence3"].name == "Handprint"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("not json", "not JSON"),
        ({"kind": "something else"}, "not a box file"),
        ({"kind": EXPORT_KIND, "version": 9, "files": {}}, "version 9"),
        ({"kind": EXPORT_KIND, "version": 1, "files": {"../../etc/passwd": "x"}}, "not a pack file"),
        ({"kind": EXPORT_KIND, "version": 1, "files": {"boards/../x.toml": "x"}}, "not a pack file"),
        ({"kind": EXPORT_KIND, "version": 1, "files": {"ghosts.toml": 7}}, "not a pack file's text"),
        ({"kind": EXPORT_KIND, "version": 1, "files": {"ghosts.toml": "x" * 300_000}}, "too long"),
    ],
)
def test_a_hostile_or_broken_box_file_is_refused_and_nothing_is_written(box: Box, data: Any, words: str) -> None:
    with pytest.raises(BadCommand, match=words):
        box.parse_import(data)
    assert box.folder is not None and not box.folder.exists()


def test_a_box_file_with_a_broken_pack_is_refused_whole(box: Box) -> None:
    data = box.export()
    data["files"]["evidence.toml"] = "[[symbols]]\nid = 'one'\nname = 'One'\n"  # six symbols missing
    change = box.parse_import(data)
    with pytest.raises(PackError, match="7 evidence tokens"):
        box.check(change)


# -- through the service ---------------------------------------------------------------------------------


@pytest.fixture
def service(tmp_path: Path) -> Any:
    svc = GameService(
        GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(2), box=Box(tmp_path / "packs")
    )
    svc.new_game({"players": 2, "board": "asylum", "ghost": "shadow", "seed": 4})
    yield svc
    svc.close()


def test_the_game_in_play_goes_on_with_the_new_cards_and_every_phone_is_told(service: Any) -> None:
    seen: list[dict[str, Any]] = []
    service.add_listener(lambda records, state: seen.append(state))
    service.do("end-turn")
    before = service.state()
    out = service.edit_box(
        "ghost", "shadow", {"name": "Shade", "ability": "Puts out the lights.", "lingering": "Cold."}
    )
    assert out["said"] == "Saved: Shade." and out["box"]["ghosts"][2]["filled"]
    state = service.state()
    assert state["ghost"]["name"] == "Shade" and seen and seen[-1]["ghost"]["name"] == "Shade"
    assert state["history_length"] == before["history_length"] and state["current_player"] == before["current_player"]
    assert service.packs.ghosts["shadow"].name == "Shade"


def test_an_edit_that_the_game_in_play_no_longer_fits_is_refused_and_nothing_changes(service: Any) -> None:
    service.do("ghost-at", {"room": "3"})
    service.do("prove", {"set": "5"})  # the Shadow Ghost's fifth set is proven
    assert service.box.folder is not None
    with pytest.raises(PackError, match="does not fit the game"):
        service.edit_box(
            "ghost", "shadow", {"name": "Shade", "icon_sets": ["eye:1"], "ability": "A.", "lingering": "B."}
        )
    assert not (service.box.folder / "ghosts.toml").exists()
    assert service.state()["ghost"]["name"] == "Shadow Ghost"


def test_a_companion_without_a_box_folder_says_where_to_set_one(tmp_path: Path) -> None:
    svc = GameService(GameStore(tmp_path / "g.sqlite"), load_packs(), rng=random.Random(1))
    try:
        with pytest.raises(PackError) as refused:
            svc.edit_box("evidence", "evidence1", {"name": "Handprint"})
        assert str(refused.value) == (  # the host's words: the setting in words, no key
            "this companion has no folder to keep your box in: name one as the game's packs folder in the "
            "configuration file (docs/packs.md), then restart the companion."
        )
        with pytest.raises(PackError) as saved:
            Box(None).save(BoxChange({}, "nothing"))
        assert str(saved.value) == str(refused.value)  # the box's own refusal is the same sentence
    finally:
        svc.close()


# -- through the web API ----------------------------------------------------------------------------------


def test_the_box_api_is_the_hosts_and_round_trips_a_file(table: Table) -> None:
    table.service.box = Box(table.data_dir / "packs")
    viewer = table.client().join()
    assert viewer.get("/api/box").status == 403
    assert viewer.post("/api/box", {"part": "evidence", "key": "evidence1", "fields": {"name": "X"}}).status == 403
    host = table.host()
    reply = host.post("/api/box", {"part": "evidence", "key": "evidence1", "fields": {"name": "Handprint"}})
    assert reply.status == 200, reply.body
    assert reply.json()["box"]["evidence"][0] == {"id": "evidence1", "name": "Handprint", "filled": True}
    bad = host.post("/api/box", {"part": "ghost", "key": "child", "fields": {"difficulty": 0}})
    assert bad.status == 400 and bad.json()["say"] == "The difficulty must be a whole number 1 to 10, not 0."
    saved = host.get("/api/box/file")
    assert saved.status == 200 and "attachment" in saved.headers["content-disposition"]
    data = saved.json()
    assert "Handprint" in data["files"]["evidence.toml"]
    data["files"]["evidence.toml"] = data["files"]["evidence.toml"].replace("Handprint", "Footprint")
    back = host.request("PUT", "/api/box/file", body=data)
    assert back.status == 200, back.body
    assert table.service.packs.evidence["evidence1"].name == "Footprint"
    assert host.request("PUT", "/api/box/file", body={"kind": "x"}).status == 400


def test_an_item_is_filled_in_with_the_dice_it_adds(box: Box) -> None:
    packs = fill(
        box, "item", "item5", name="Flashlight", effect="One more die on a search.", dice=1, actions=["search"]
    )
    item = packs.items["item5"]
    assert (item.name, item.dice, item.actions, item.placeholder) == ("Flashlight", 1, ("search",), False)
    with pytest.raises(PackError, match="without actions"):
        box.check(box.edit(packs, BoxEdit("item", "item5", {"dice": 2, "actions": []})))
    with pytest.raises(PackError, match="adds dice to"):
        box.check(box.edit(packs, BoxEdit("item", "item5", {"actions": ["summon"], "dice": 1})))


def test_two_evidence_symbols_cannot_share_a_name_and_a_clash_on_the_map_is_said_in_the_forms_words(box: Box) -> None:
    packs = fill(box, "evidence", "evidence1", name="Cold Spot")
    with pytest.raises(PackError) as err:
        box.check(box.edit(packs, BoxEdit("evidence", "evidence2", {"name": "cold spot"})))
    assert (
        for_players(str(err.value))
        == "The name repeats the name 'cold spot' of symbol 'evidence1'; each symbol has its own name."
    )
    other = packs.boards["asylum"].rooms[1].pos
    with pytest.raises(PackError) as err:
        box.check(box.edit(packs, BoxEdit("space", "asylum:9", {"pos": list(other)})))
    assert for_players(str(err.value)) == (
        f"Room 9 would sit in column {other[0] + 1}, row {other[1] + 1}, where room 1 already is: choose another place."
    )


def test_among_cultists_event_markers_are_filled_in_and_drawn_in_the_game_under_way(tmp_path: Path) -> None:
    """The box keeps Among Cultists' events.toml beside Skeptics' files: an event marker filled in on the page is
    checked like a file edited by hand, saved with its comments, and the game under way shows it at once."""
    svc = GameService(GameStore(tmp_path / "g.sqlite"), load_packs(), rng=random.Random(2), box=Box(tmp_path / "packs"))
    try:
        svc.new_game({"rules": "among-cultists", "players": 4, "cultists": 1, "points_needed": 5, "seed": 3})
        for name in ("night-done", "next-phase", "draw-event"):
            svc.do(name)
        drawn = svc.state()["event"]
        assert drawn["stand_in"] and svc.box_view()["events_left"] == len(svc.box_view()["events"])
        with pytest.raises(BadCommand, match="what it does still holds the stand-in.s words"):
            svc.edit_box("event", drawn["id"], {"name": "Power cut"})
        with pytest.raises(BadCommand, match="no event marker"):
            svc.edit_box("event", "nothing", {"name": "Power cut", "text": "No light."})
        out = svc.edit_box("event", drawn["id"], {"name": "Power cut", "text": "No light in the house this round."})
        assert out["said"] == "Saved: the event marker Power cut."
        assert next(e for e in out["box"]["events"] if e["id"] == drawn["id"])["filled"]
        state = svc.state()
        assert state["event"]["name"] == "Power cut" and not state["event"]["stand_in"] and not state["stand_ins"]
        assert svc.box.folder is not None
        text = (svc.box.folder / "events.toml").read_text(encoding="utf-8")
        assert text.startswith("# Among Cultists") and "Power cut" in text  # the comments stay
        exported = svc.export_box()["files"]
        assert "Power cut" in exported["events.toml"] and "ghosts.toml" in exported
        # the owner's file is what the next game draws from
        svc.new_game({"rules": "among-cultists", "players": 4, "cultists": 1, "points_needed": 5, "seed": 3})
        for name in ("night-done", "next-phase", "draw-event"):
            svc.do(name)
        assert svc.state()["event"]["name"] == "Power cut"
        # a whole box brought back from a file keeps its event markers
        svc.import_box(
            {
                **svc.export_box(),
                "files": {**exported, "events.toml": exported["events.toml"].replace("Power cut", "Blackout")},
            }
        )
        assert svc.state()["event"]["name"] == "Blackout"
    finally:
        svc.close()
