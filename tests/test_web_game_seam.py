"""The page reaches a game's dice only through its module (companion.games.base): dice typed as pips go by the
table's own [dice.pips], and a game without an odds calculator says so, through the real app and server."""

from __future__ import annotations

import random
from pathlib import Path

from companion.games.base import TableDice
from companion.games.skeptics.dice import DieKind, PipMap
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService
from tests.web_fixtures import serve_table

# a table whose clue dice carry other pips than the default map's: 1 a cobweb, 2-3 a camera, 4-6 an eye
PIPS = {"clue": {"eye": [4, 5, 6], "camera": [2, 3], "cobweb": [1]}}


def test_pips_typed_on_the_page_use_the_tables_pip_map(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    service = GameService(
        GameStore(tmp_path / "data" / "games.sqlite"),
        load_packs(),
        rng=random.Random(3),
        table_dice=TableDice(pips=PIPS),
    )
    service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 3})
    for table in serve_table(tmp_path, service=service):
        host = table.host()
        started = host.post("/api/command", {"command": "attempt", "args": {"action": "search", "need": "eye:1"}})
        assert started.status == 200, started.body
        reply = host.post("/api/dice", {"pips": [1, 6, 3], "kind": "clue"})
        assert reply.status == 200, reply.body
        faces = [PipMap.from_dict(PIPS).face(DieKind.CLUE, p).value for p in (1, 6, 3)]
        assert faces != [PipMap.default().face(DieKind.CLUE, p).value for p in (1, 6, 3)]  # the map matters here
        assert table.service.history()[-1]["command"]["args"] == {"faces": ",".join(faces)}


def test_a_game_without_dice_refuses_pips_and_the_odds_calculator_by_its_name(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    service = GameService(GameStore(tmp_path / "data" / "games.sqlite"), load_packs(), rng=random.Random(3))
    service.new_game({"rules": "spooks", "players": 3, "names": ["Ada", "Bo", "Cy"]})
    for table in serve_table(tmp_path, service=service):
        odds = table.viewer().get("/api/odds?need=eye:1")
        assert odds.status == 400 and "Spooks" in odds.json()["error"], odds.body
        pips = table.host().post("/api/dice", {"pips": [1, 2], "kind": "clue"})
        assert pips.status == 400 and "Spooks" in pips.json()["error"], pips.body
        assert table.service.history() == []  # nothing was played


def test_among_cultists_asks_the_host_for_the_victory_points_and_takes_the_number_given(tmp_path: Path) -> None:
    # seance-deduction-rules-de.txt:57, :60 give no number of victory points: the page offers none, a new game
    # without one is refused saying what to give (nothing is started), and the host's number is the game's
    for table in serve_table(tmp_path):
        options = table.viewer().get("/api/setup-options").json()
        assert "ac_points_needed" not in options
        host = table.host()
        before = table.service.state()
        reply = host.post(
            "/api/new-game",
            {"rules": "among-cultists", "players": 5, "cultists": 1, "points_needed": "", "confirm": True},
        )
        assert reply.status == 400 and "victory points" in reply.json()["error"], reply.body
        assert "rules text gives no number" in reply.json()["error"]
        assert table.service.state().get("game_id") == before.get("game_id")  # nothing started
        reply = host.post(
            "/api/new-game",
            {"rules": "among-cultists", "players": 5, "cultists": 1, "points_needed": 7, "confirm": True},
        )
        assert reply.status == 200, reply.body
        assert table.service.state()["points_needed"] == 7


def test_the_setup_options_are_each_games_own_lists_from_its_packs(tmp_path: Path) -> None:
    """/api/setup-options lists each game's cards from its own packs (GameModule.setup_options): the Ancient Ones,
    the event markers, the boards and ghosts, each with whether it is a stand-in (not filled in yet)."""
    from companion.games.among_cultists.packs import load_packs as cultists_packs
    from companion.games.elder_sign.packs import load_packs as elder_sign_packs
    from companion.games.skeptics.packs import load_packs as skeptics_packs

    ancient_ones = elder_sign_packs(None).ancient_ones
    events = cultists_packs(None).events
    ghosts = skeptics_packs().ghosts
    for table in serve_table(tmp_path):
        options = table.viewer().get("/api/setup-options").json()
        assert [(a["id"], a["name"], a["stand_in"]) for a in options["ancient_ones"]] == [
            (a.id, a.name, a.placeholder) for a in ancient_ones.values()
        ]
        assert [(e["id"], e["stand_in"]) for e in options["ac_events"]] == [
            (e.id, e.placeholder) for e in events.values()
        ]
        assert [g["id"] for g in options["ghosts"]] == list(ghosts) and options["boards"]


def test_elder_signs_items_sheet_labels_come_once_with_the_setup_options_not_in_every_state(tmp_path: Path) -> None:
    """The labels of Elder Sign's items sheet (sentences.ITEM_FIELDS, as its refusals name the fields) are the same in
    every state: the page loads them once a visit with the setup options, and no state push carries them again."""
    from companion.games.elder_sign import sentences
    from companion.games.elder_sign.packs import load_packs as elder_sign_packs

    (tmp_path / "data").mkdir()
    service = GameService(GameStore(tmp_path / "data" / "games.sqlite"), elder_sign_packs(None), rng=random.Random(4))
    service.new_game({"rules": "elder-sign", "players": 2, "seed": 11, "names": ["Ada", "Bo"]})
    for table in serve_table(tmp_path, service=service):
        host = table.host()
        assert host.get("/api/setup-options").json()["item_fields"] == dict(sentences.ITEM_FIELDS)
        state = host.get("/api/state").json()
        assert state["rules"] == "elder-sign" and "item_fields" not in state
