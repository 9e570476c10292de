"""The Games view and the end card on a phone (390x844) and on the table display (1280x800), in Chromium, against
the real app behind waitress on a real SQLite file: two finished games (Spooks, then Skeptics with its attempts).

The end card tells the dice's luck in words and shows the game's timeline as a picture; the Games view lists the
games newest first, each with its timeline, and the luck, the calibration and the figures across games. Its
script (web/static/games.js) is loaded only when the view is opened. The web API of the view (who may see it,
the exports) is tested in tests/test_web_stats.py. Screenshots go to tests/artifacts/games/.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_web import ARTIFACTS, PHONE, Phone, open_phone
from web_fixtures import Table, serve_table

from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService

pytestmark = [pytest.mark.browser]

SHOTS = ARTIFACTS / "games"
TABLE_DISPLAY = {"width": 1280, "height": 800}
LUCK_WORDS = "The table's 1 attempt never came good; the odds said 1.0: cursed, about 1 game in 512 goes this way."


def played(path: Path) -> GameService:
    """A Spooks game played to its end, then a Skeptics game lost with one failed attempt (the newest)."""
    clock = itertools.count(1_800_000_000, 45)
    service = GameService(GameStore(path), load_packs(), rng=random.Random(2), now=lambda: float(next(clock)))
    service.new_game({"rules": "spooks", "players": 3, "names": ["Ada", "Bo", "Cy"]})
    while service.state()["outcome"] is None:
        service.do("hand", {"points": "0,60,10"})
    service.new_game({"players": 2, "names": ["Ada", "Bo"], "board": "asylum", "ghost": "child", "seed": 7})
    service.do("attempt", {"action": "search", "need": "eye:1"})
    for _ in range(3):
        service.do("roll", {"faces": "cobweb,cobweb,cobweb", "keep": "none"})
    while service.state()["outcome"] is None:
        service.do("end-round")
    return service


@pytest.fixture
def games_table(tmp_path: Path) -> Iterator[Table]:
    yield from serve_table(tmp_path, service=played(tmp_path / "games.sqlite"))


def shot(phone: Phone, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def pictures_drawn(phone: Phone, selector: str) -> int:
    """How many of the pictures under `selector` are loaded and drawn (an SVG the browser could not read has no
    natural width)."""
    images = phone.page.locator(selector)
    for i in range(images.count()):
        images.nth(i).scroll_into_view_if_needed()  # a lazy picture loads once it is near the screen
        expect(images.nth(i)).to_have_js_property("complete", True)
    return sum(1 for i in range(images.count()) if images.nth(i).evaluate("(img) => img.naturalWidth") > 0)


def check_games_view(phone: Phone, name: str) -> None:
    page = phone.page
    phone.tab("games")
    expect(page.locator("#games-list .game")).to_have_count(2)
    assert [page.locator("#games-list .game h3").nth(i).inner_text() for i in range(2)] == ["Skeptics #2", "Spooks #1"]
    first = page.locator("#games-list .game").first
    expect(first.locator(".luck")).to_have_text(LUCK_WORDS)
    expect(first).to_contain_text("Board: Asylum")
    expect(page.locator("#games-list .game").nth(1).locator(".luck")).to_contain_text(
        "Spooks is played without dice odds"
    )
    expect(page.locator("#games-luck .luck").first).to_contain_text("never came good")
    expect(page.locator("#games-figures")).to_contain_text("The longest game")
    assert pictures_drawn(phone, "#v-games img.chart") == 4  # two timelines, the luck and the calibration
    assert [u for u in phone.requests if "/static/games.js" in u]
    shot(phone, name)
    phone.check_clean()


def check_end_card(phone: Phone, name: str) -> None:
    page = phone.page
    expect(page.locator("#end-card")).to_be_visible()
    expect(page.locator("#end-luck")).to_have_text(LUCK_WORDS)
    assert pictures_drawn(phone, "#end-timeline") == 1
    box = page.locator("#end-timeline").bounding_box()
    assert box is not None and box["width"] > 300  # the picture is the card's width, not a thumbnail
    shot(phone, name)


def test_the_end_card_and_the_games_view_on_a_phone(browser: Any, games_table: Table) -> None:
    phone = open_phone(browser, games_table, viewport=PHONE, wait_map=False)
    check_end_card(phone, "end_card_phone")
    check_games_view(phone, "games_phone")
    width = phone.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the Games view scrolls sideways on a phone ({width} px)"
    phone.context.close()


def test_a_game_under_way_loads_the_games_module_only_when_the_tab_is_opened(browser: Any, tmp_path: Path) -> None:
    for table in serve_table(tmp_path):  # the default companion: a Skeptics game under way, nothing ended
        phone = open_phone(browser, table, viewport=PHONE)
        phone.page.wait_for_timeout(300)
        assert not [u for u in phone.requests if "/static/games." in u], "the first load must not carry the Games view"
        phone.tab("games")
        expect(phone.page.locator("#games-list .game")).to_have_count(1)
        assert [u for u in phone.requests if "/static/games.js" in u] and [
            u for u in phone.requests if "/static/games.css" in u
        ]
        expect(phone.page.locator("#games-list .game .result strong")).to_have_text("not finished")
        phone.check_clean()
        phone.context.close()


def test_the_end_card_and_the_games_view_on_the_table_display(browser: Any, games_table: Table) -> None:
    phone = open_phone(
        browser,
        games_table,
        viewport=TABLE_DISPLAY,
        wait_map=False,
        scale=1,
        init_script="localStorage.setItem('table-view', '1')",
    )
    assert phone.page.evaluate("document.body.classList.contains('table')")
    check_end_card(phone, "end_card_table")
    check_games_view(phone, "games_table")
    phone.context.close()


def test_the_open_games_view_follows_a_game_that_ends_and_words_each_result(browser: Any, tmp_path: Path) -> None:
    """PLAYTEST.md finding 7: after a game ended the open Games tab still showed the old list; a Spooks game (one
    player wins) was "won" at a 100 % table win rate; "1 rounds"; the demo game counted as played."""
    for table in serve_table(tmp_path):  # the default companion: a Skeptics game under way
        phone = open_phone(browser, table, viewport=PHONE)
        phone.tab("games")
        expect(phone.page.locator("#games-list .game .result strong")).to_have_text("not finished")
        table.service.new_game({"rules": "spooks", "players": 3, "names": ["Ada", "Bo", "Cy"]})
        while table.service.state()["outcome"] is None:
            table.service.do("hand", {"points": "0,60,10"})
        cards = phone.page.locator("#games-list .game")
        expect(cards).to_have_count(2, timeout=5000)  # refreshed without opening the tab again
        expect(cards.first.locator(".result strong")).to_have_text("Ada won")
        rows = phone.page.locator("#games-figures table").first.locator("tr")
        spooks = rows.filter(has_text="Spooks")
        expect(spooks.locator("td").nth(4)).to_have_text("Ada 1")  # its winner, not a table win rate
        skeptics = rows.filter(has_text="Skeptics")
        expect(skeptics.locator("td").nth(1)).to_have_text("0")  # played: the game under way is not
        expect(skeptics.locator("td").nth(5)).to_have_text("1")  # not finished
        assert " 1 rounds" not in phone.page.locator("#games-list").inner_text()
        shot(phone, "games_after_spooks")
        phone.check_clean()
        phone.context.close()
