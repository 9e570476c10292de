"""A fresh player's Skeptics findings on phones (real Flask app on waitress, the real GameService, engine and SQLite
file, Debian's headless Chromium at 390x844): a failed roll's toast is not the success colour (the event's success is
false); the player's strip says what its chance is of (the icons still missing); the clock's image is named with its
hour. Screenshots go to tests/artifacts/findings/ for a person to look at."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_skeptics_roll_warned import search_action, shot
from test_browser_web import open_phone
from web_fixtures import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_failed_roll_is_no_green_toast_and_the_players_strip_says_what_its_chance_is_of(
    browser: Any, table: Table
) -> None:
    service = table.service
    host = open_phone(browser, table, host=True)
    player = open_phone(browser, table)
    try:
        service.do("attempt", {**search_action(table), "need": "eye:1,camera:1,cobweb:1"})
        success_colour = host.page.evaluate(
            """() => { const t = document.querySelector("#toast"); const c = t.className; t.className = "";
                       const bg = getComputedStyle(t).backgroundColor; t.className = c; return bg; }"""
        )
        service.do("roll", {"faces": "eye,eye,eye"})  # the eye kept, the camera and the cobweb still missing
        assert service.state()["attempt"]["kept"] == ["eye"]
        for phone in (host, player):
            toast = phone.page.locator("#toast")
            expect(toast).to_contain_text("The search fails")
            expect(toast).to_have_class(re.compile(r"\bfailed\b"))
            colour = toast.evaluate("(t) => getComputedStyle(t).backgroundColor")
            assert colour != success_colour, colour
        shot(host, "failed-search-toast")
        player.tab("game")
        strip = player.page.locator("#g-attempt")
        expect(strip).to_be_visible()
        expect(strip).to_contain_text(" to roll a camera and a cobweb still missing")
        assert "%" in strip.inner_text().split(" to roll a camera")[0][-8:]
        clock = player.page.locator("#clock")
        label = player.page.locator("#clock-label").inner_text().strip()
        assert label
        expect(clock).to_have_attribute("aria-label", f"Clock: {label}")
        shot(player, "player-strip-chance-of")
        host.check_clean()
        player.check_clean()
    finally:
        host.context.close()
        player.context.close()
