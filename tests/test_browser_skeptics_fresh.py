"""What a fresh Skeptics player found, in real headless Chromium (Debian's /usr/bin/chromium) at 390x844, against the
real app on waitress and the real GameService on an SQLite file: the Fire asks where the board's fire icons are and
a fight names its fire's space (skeptics-rulebook.txt:286-287), the summon sheet throws --sim's tray, a door picked
leaves the roll's buttons in sight, and the host's end card lists no cards to fill in.

Screenshots go to tests/artifacts/skeptics-fresh/ for a person to look at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_web import ARTIFACTS, Phone, open_phone
from web_fixtures import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "skeptics-fresh"


def shot(phone: Phone, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    phone.page.screenshot(path=str(path))
    return path


def physical_game(table: Table) -> None:
    """A game with the real decks (the host names each card drawn), two players, the Asylum and the Child Ghost."""
    table.service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 4, "physical": True})


def to_ghost_hour(table: Table, card: str) -> None:
    """Three rounds, then the fourth's end: the Ghost Hour draws `card` and room card 8."""
    for _ in range(3):
        table.service.do("end-round")
    table.service.do("end-round", {"room": "8", "environment": card})


def test_the_fire_asks_where_the_fire_icons_are_and_each_fight_names_its_space(browser: Any, table: Table) -> None:
    """Fire Card: 'one Fire Token is placed onto each Fire icon on the game board. Players entering or sharing a space
    with a Fire cannot take any further actions until the fire is extinguished' (skeptics-rulebook.txt:286): no count
    of the companion's own (not the box's 4, :36); the host taps the spaces, and a fight names the fire it fights."""
    physical_game(table)
    to_ghost_hour(table, "fire")
    phone = open_phone(browser, table, host=True)
    try:
        page = phone.page
        expect(page.locator("#fires-left")).to_have_count(0)  # nothing burns before the host said where
        question = page.locator("#turn-main #card-question")
        expect(question).to_have_text(
            "The Fire card puts a fire token on each fire icon of the board: on which spaces of your board are the "
            "fire icons?"
        )
        expect(page.locator("#turn-main")).not_to_contain_text("4 fire")
        expect(page.locator("#turn-main [data-legal^='attempt']").filter(has_text="fire")).to_have_count(0)
        question.scroll_into_view_if_needed()
        shot(phone, "fire-asked")
        page.locator("#turn-main button", has_text="Where the fire icons are").click()
        expect(page.locator("#sheet")).to_be_visible()
        expect(page.locator("#fire-words")).to_have_text("Tap each space of your board that shows a fire icon.")
        shot(phone, "fire-sheet")
        page.click("#fire-space-3")
        page.click("#fire-space-12")
        expect(page.locator("#fire-space-3")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#fire-words")).to_contain_text("2 fire tokens: on room 3")
        shot(phone, "fire-sheet-picked")
        page.click("#sheet-ok")
        expect(page.locator("#sheet")).to_be_hidden()
        state = table.service.state()
        assert state["fire_spaces"] == [3, 12] and state["fires"] == 2
        fights = page.locator("#turn-main button", has_text="Fight the fire in")
        expect(fights).to_have_count(2)
        expect(fights.first).to_contain_text("room 3")
        expect(fights.last).to_contain_text("room 12")
        expect(page.locator("#fires-left")).to_contain_text("2 fires still burn (room 3")
        fights.first.scroll_into_view_if_needed()
        shot(phone, "fire-fights")
        fights.last.click()
        expect(page.locator("#attempt")).to_contain_text("Fight the fire in room 12")
        assert table.service.state()["attempt"]["space"] == 12
        shot(phone, "fire-fight-roll")
        phone.check_clean()
    finally:
        phone.context.close()
