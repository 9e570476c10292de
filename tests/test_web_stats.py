"""The Games view's API (web/stats.py) on the real app behind waitress: who may see it, the records and the
figures, the pictures (drawn at the width asked for), the exports and the night's picture."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_browser_games import LUCK_WORDS, played
from web_fixtures import Table, serve_table


@pytest.fixture(scope="module")
def games_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    path = tmp_path_factory.mktemp("games")
    yield from serve_table(path, service=played(path / "games.sqlite"))


def test_only_a_phone_that_joined_sees_the_games(games_table: Table) -> None:
    stranger = games_table.client()
    for path in (
        "/api/games",
        "/api/games/1/timeline.svg",
        "/api/stats/luck.svg",
        "/api/stats/players.svg",
        "/api/stats.csv",
        "/api/stats.json",
        "/api/night.png",
    ):
        reply = stranger.get(path)
        assert reply.status == 403, path
        assert "join link" in reply.json()["error"]


def test_the_games_newest_first_with_the_luck_and_the_figures(games_table: Table) -> None:
    data = games_table.viewer().get("/api/games").json()
    games = data["games"]
    assert [(g["game"], g["rules"], g["result"]) for g in games] == [(2, "skeptics", "lost"), (1, "spooks", "won")]
    assert games[0]["luck"]["words"] == LUCK_WORDS and games[1]["luck"] is None
    assert "timeline" not in games[0]  # the picture has its own address
    assert games[1]["odds_note"] == "Spooks is played without dice odds, so its record has no attempts and no luck."
    figures = data["figures"]
    assert figures["by_rules"] == {
        "skeptics": {"played": 1, "won": 0, "lost": 1, "not_finished": 0},
        "spooks": {"played": 1, "won": 0, "lost": 0, "not_finished": 0},  # one player wins, not the table
    }
    assert (
        figures["win_rate_by_game"]["spooks"]["win_rate"] is None and figures["win_rate_by_game"]["spooks"]["winners"]
    )
    assert (figures["attempts"], figures["successes"], figures["expected_successes"]) == (1, 0, 0.998047)
    assert figures["win_rate_by_game"]["spooks"]["title"] == "Spooks"


def test_the_timeline_is_svg_at_the_width_asked_for_and_an_unknown_game_is_404(games_table: Table) -> None:
    viewer = games_table.viewer()
    reply = viewer.get("/api/games/2/timeline.svg?w=390")
    assert reply.status == 200 and reply.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(reply.body)
    assert root.get("width") == "390"
    assert viewer.get("/api/games/2/timeline.svg?w=99999").body.count(b'width="1400"') >= 1  # at most 1400
    assert ET.fromstring(viewer.get("/api/games/2/timeline.svg?w=x").body).get("width") == "640"
    missing = viewer.get("/api/games/99/timeline.svg")
    assert missing.status == 404 and "no game 99" in missing.json()["error"]
    for path in ("/api/stats/luck.svg", "/api/stats/calibration.svg", "/api/stats/players.svg"):
        assert ET.fromstring(viewer.get(path).body).tag.endswith("svg")
    players = ET.fromstring(viewer.get("/api/stats/players.svg?w=390").body)
    assert players.get("width") == "390"
    # the chart's words are the figures' (one line for the one player who rolled, in the Skeptics game)
    words = viewer.get("/api/games").json()["figures"]["player_luck_by_game"]["words"]
    desc = players.find("{http://www.w3.org/2000/svg}desc")
    assert len(words) == 1 and desc is not None and (desc.text or "").startswith(words[0])
    assert len(players.findall("{http://www.w3.org/2000/svg}path")) == 1


def test_the_exports_download_as_csv_json_and_the_nights_png(games_table: Table) -> None:
    viewer = games_table.viewer()
    table_csv = viewer.get("/api/stats.csv")
    assert table_csv.headers["content-disposition"] == 'attachment; filename="games.csv"'
    rows = list(csv.DictReader(io.StringIO(table_csv.body.decode())))
    assert [(r["game"], r["result"], r["attempts"]) for r in rows] == [("2", "lost", "1"), ("1", "won", "")]
    exported = json.loads(viewer.get("/api/stats.json").body)
    assert {"games", "by_rules", "attempts", "successes", "expected_successes", "luck_percentile"} <= set(exported)
    assert len(exported["records"]) == 2 and exported["records"][0]["timeline"]["marks"]
    night = viewer.get("/api/night.png")
    assert night.headers["content-type"] == "image/png" and night.body.startswith(b"\x89PNG\r\n\x1a\n")
    assert night.headers["content-disposition"] == 'attachment; filename="night.png"'


def test_the_games_script_is_served_but_not_part_of_the_first_load(games_table: Table, tmp_path: Path) -> None:
    viewer = games_table.viewer()
    page = viewer.get("/").body.decode()
    assert "games.js" not in page and "app.js" in page
    script = viewer.get("/static/games.js")
    assert script.status == 200 and b"export async function show" in script.body
