"""A fresh player's findings on two phones, in real headless Chromium (Debian's /usr/bin/chromium) at 390x844, against
the real app on waitress, the real GameService, engines and SQLite file: Among Cultists' player phone points at no
control it does not have (the night's pause is the host's); Spooks' "So many points?" sheet is never covered by a
refusal from before it. Screenshots go to tests/artifacts/findings/ for a person to look at."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_web import ARTIFACTS, PHONE, Phone, open_phone
from web_fixtures import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "findings"
NAMES = ["Ada", "Bo", "Cy", "Di", "Ed"]


def shot(phone: Phone, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_among_cultists_night_note_points_at_the_pause_only_on_the_hosts_phone(browser: Any, table: Table) -> None:
    host = open_phone(browser, table, host=True)  # signed in on the Skeptics game, then Among Cultists starts
    player = open_phone(browser, table, viewport=PHONE)
    try:
        table.service.new_game(
            {"rules": "among-cultists", "players": 5, "cultists": 1, "points_needed": 3, "names": NAMES, "seed": 4}
        )
        for phone in (host, player):
            expect(phone.page.locator("#ac-night-note")).to_be_visible(timeout=5000)
        # the host has the pause control the note points at; the player has none, and is not sent looking for it
        expect(host.page.locator("#ac-night-host select")).to_be_visible()
        expect(host.page.locator("#ac-night-note")).to_contain_text("the pause chosen below")
        expect(player.page.locator("#ac-night-host select")).to_have_count(0)
        note = player.page.locator("#ac-night-note")
        expect(note).not_to_contain_text("below")
        expect(note).to_contain_text("the pause the host chose")
        note.scroll_into_view_if_needed()
        shot(player, "ac-night-note-player")
        host.page.locator("#ac-night-note").scroll_into_view_if_needed()
        shot(host, "ac-night-note-host")
        host.check_clean()
        player.check_clean()
    finally:
        host.context.close()
        player.context.close()
