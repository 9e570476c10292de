"""A fresh player's Skeptics findings on phones (real Flask app on waitress, the real GameService, engine and SQLite
file, Debian's headless Chromium at 390x844): the search sheet warns before the tap that a set needs more dice than
are rolled, in the engine's refusal (skeptics-rulebook.txt:148), and offers no "Start the roll" while it stands.
Screenshots go to tests/artifacts/findings/ for a person to look at."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_web import ARTIFACTS, Phone, open_phone
from web_fixtures import Table

from companion.errors import BadCommand
from companion.games.skeptics import sentences

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "findings"


def shot(phone: Phone, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SHOTS / f"{name}.png"))


def search_action(table: Table) -> dict[str, str]:
    legal = [
        a for a in table.service.state()["legal"] if a["name"] == "attempt" and a["args"].get("action") == "search"
    ]
    assert legal, table.service.state()["legal"]
    return dict(legal[0]["args"])


def test_the_search_sheet_warns_of_a_set_of_more_icons_than_dice_before_the_tap(browser: Any, table: Table) -> None:
    """3 eyes, a camera and a cobweb need 5 dice showing icons; 3 are rolled: the sheet says the engine's refusal at
    once and has no Start; a magnifying glass and a die from items make 5, and Start is back."""
    service = table.service
    args = {**search_action(table), "need": "eye:3,camera:1,cobweb:1"}
    with pytest.raises(BadCommand) as refused:
        service.check("attempt", args)
    words = sentences.for_players(refused.value)  # the engine's refusal, as every page words it
    host = open_phone(browser, table, host=True)
    try:
        page = host.page
        page.click("#turn-card button[data-legal='attempt:search']")
        expect(page.locator("#sheet")).to_be_visible()
        warned = page.locator("#roll-refused")
        expect(page.locator("#sheet-ok")).to_be_visible()
        for face, n in (("eye", 3), ("camera", 1), ("cobweb", 1)):
            for _ in range(n):
                page.click(f"#step-{face}-plus")
        expect(warned).to_be_visible()
        assert "needs 5 dice showing icons" in words and "only 3 would be rolled" in words
        expect(warned).to_contain_text(words[1:])  # the engine's own sentence, not one of the page's
        expect(page.locator("#sheet-ok")).to_be_hidden()
        warned.scroll_into_view_if_needed()
        shot(host, "search-sheet-too-many-icons")
        page.check("#bonus-glass")
        page.click("#bonus-item-plus")
        expect(warned).to_be_hidden()
        expect(page.locator("#sheet-ok")).to_be_visible()
        assert service.state()["attempt"] is None  # only checked: nothing was played
        host.check_clean()
    finally:
        host.context.close()
