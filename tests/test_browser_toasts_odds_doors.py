"""Three findings of new players, in real headless Chromium (Debian's /usr/bin/chromium) at 390x844, against the real
app on waitress, the real GameService, engine and SQLite file: a toast never hides the top of the page and is read
to a screen reader; the Dice tab's odds calculator follows the roll under way (and says when the numbers are the
player's own); the doors the host may pick are buttons with their rooms' names, not only the small drawing.
Screenshots go to tests/artifacts/findings/ for a person to look at."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_screens import overlaps
from test_browser_web import ARTIFACTS, Phone, open_phone
from web_fixtures import Table, serve_table

from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "findings"


@pytest.fixture
def named(tmp_path: Path) -> Iterator[Table]:
    """A companion with a Skeptics game of Ada, Bo and Cy."""
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(5))
    service.new_game(
        {"players": 3, "board": "asylum", "ghost": "child", "special_items": 3, "seed": 5, "names": ["Ada", "Bo", "Cy"]}
    )
    yield from serve_table(tmp_path, service=service)


def shot(phone: Phone, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SHOTS / f"{name}.png"))


def box_of(phone: Phone, selector: str) -> dict[str, float]:
    box = phone.page.locator(selector).bounding_box()
    assert box is not None, selector
    return dict(box)


def test_one_toast_at_a_time_above_the_tabs_read_out_and_closed(browser: Any, named: Table) -> None:
    viewer = open_phone(browser, named)
    try:
        page = viewer.page
        viewer.tab("dice")
        expect(page.locator("#odds-whose")).to_contain_text("No roll under way")  # the calculator is loaded
        page.click("#odds-form button:has-text('Work out')")  # nothing tapped yet: refused
        toast = page.locator("#toast")
        expect(page.locator("#toast.bad")).to_be_visible()
        expect(page.locator("#say-now")).to_have_text("Tap the icons first.")  # a refusal is read out at once
        box, tabs = box_of(viewer, "#toast"), box_of(viewer, "#tabs")
        assert box["y"] + box["height"] <= tabs["y"] + 0.5, (box, tabs)
        assert not overlaps(box, box_of(viewer, "#top"))
        # the page can scroll its last lines clear of the toast
        padding = float(page.evaluate("parseFloat(getComputedStyle(document.body).paddingBottom)"))
        assert padding >= box["height"] + tabs["height"], (padding, box, tabs)
        shot(viewer, "toast-refusal-dice")
        viewer.tab("game")
        for _ in range(3):
            named.service.do("timer")
        # the routine toast takes the refusal's place: one message, never a pile
        expect(page.locator("#toast.routine")).to_contain_text("Third timer")
        assert page.locator("#toast:visible").count() == 1
        assert "Tap the icons" not in viewer.text("#toast")
        expect(page.locator("#say")).to_contain_text("Third timer")
        expect(page.locator("#say-now")).to_have_text("")
        shot(viewer, "toast-routine-game")
        page.click("#toast-close")
        expect(toast).to_be_hidden()
        assert float(page.evaluate("parseFloat(getComputedStyle(document.body).paddingBottom)")) < padding
        viewer.check_clean()
    finally:
        viewer.context.close()


def test_the_odds_calculator_follows_the_roll_under_way(browser: Any, named: Table) -> None:
    service = named.service
    viewer = open_phone(browser, named)
    try:
        page = viewer.page
        viewer.tab("dice")
        expect(page.locator("#odds-whose")).to_contain_text("No roll under way")
        expect(page.locator("#odds-out")).to_have_text("")
        service.do("attempt", {"action": "search", "need": "eye:2,camera:1"})
        expect(page.locator("#odds-whose")).to_contain_text("Ada\u2019s roll under way")
        # the calculator works out what the attempt card shows (the engine's odds of the roll under way)
        expect(page.locator("#odds-out")).to_have_text(re.compile(r"\d+\.\d %"))
        assert viewer.text("#odds-out") == viewer.text("#odds-now")
        first = float(viewer.text("#odds-out").removesuffix(" %"))
        assert abs(first - 100 * float(service.state()["odds"])) < 0.051
        shot(viewer, "odds-following")
        service.do("roll", {"faces": "eye,cobweb,cobweb"})  # an eye kept: the roll now needs less
        still = service.state()
        expect(page.locator("#odds-now")).not_to_have_text(f"{first:.1f} %")
        expect(page.locator("#odds-out")).to_have_text(viewer.text("#odds-now"))
        assert abs(float(viewer.text("#odds-out").removesuffix(" %")) - 100 * float(still["odds"])) < 0.051
        assert viewer.text("#odds-need-words") in viewer.text("#odds-whose")
        # the player's own numbers: said so, kept while the game moves on, given back by the button
        page.click("#odds-pad button:has-text('+ key')")
        expect(page.locator("#odds-whose")).to_contain_text("Your own numbers")
        expect(page.locator("#odds-out")).to_have_text("")
        own = viewer.text("#odds-need-words")
        assert "key" in own
        shot(viewer, "odds-own")
        service.do("roll", {"faces": "cobweb,cobweb"})
        expect(page.locator("#odds-now")).to_have_text(re.compile(r"\d+\.\d %"))
        page.wait_for_timeout(300)
        assert viewer.text("#odds-need-words") == own
        page.click("#odds-follow")
        expect(page.locator("#odds-whose")).to_contain_text("Ada\u2019s roll under way")
        expect(page.locator("#odds-out")).to_have_text(viewer.text("#odds-now"))
        assert page.locator("#odds-follow").is_hidden()
        # the attempt ends with the turn: no stale need, no stale odds
        service.do("end-turn")
        expect(page.locator("#odds-whose")).to_contain_text("No roll under way")
        expect(page.locator("#odds-out")).to_have_text("")
        expect(page.locator("#odds-need-words")).to_have_text("nothing yet")
        shot(viewer, "odds-after-the-attempt")
        viewer.check_clean()
    finally:
        viewer.context.close()


def test_the_doors_to_unlock_are_buttons_with_their_rooms_names(browser: Any, named: Table) -> None:
    host = open_phone(browser, named, host=True)
    try:
        page = host.page
        doors = [
            a for a in named.service.state()["legal"] if a["name"] == "attempt" and a["args"].get("action") == "unlock"
        ]
        assert doors, "the first turn offers doors to unlock"
        page.click("#unlock-pick")
        choices = page.locator("#map-choices button")
        expect(choices).to_have_count(len(doors))
        assert page.get_attribute("#map-choices", "aria-label") == "The doors you can pick"
        # each button says the door in the companion's words (the room names), as the legal action does
        assert sorted(choices.all_inner_texts()) == sorted(a["label"] for a in doors)
        assert all("room" in a["label"] for a in doors)
        page.locator("#map-choices").scroll_into_view_if_needed()
        shot(host, "doors-as-buttons")
        door = doors[0]["args"]["door"]
        page.click(f"#map-choices button[data-choice='{door}']")
        # the same as a tap on the drawing: the pick ends and the sheet asks what the door's roll needs
        expect(page.locator("#sheet")).to_be_visible()
        expect(page.locator("#map-choices")).to_be_hidden()
        assert page.locator("#map .door.target").count() == 0
        page.click("#sheet-cancel")
        host.check_clean()
    finally:
        host.context.close()
