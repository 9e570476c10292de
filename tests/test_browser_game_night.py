"""Game night: what a host and players trip over at a real table, in real headless Chromium at 390x844.

Each test plays a piece of a real game on the real app (waitress, GameService, engine, SQLite) and checks
what the phone shows against the service's own state, so a wrong number on the page fails the test.
Screenshots go to tests/artifacts/ (gitignored).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_web import Phone, open_phone, wait_text
from web_fixtures import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def close(*phones: Phone) -> None:
    for p in phones:
        p.context.close()


def test_the_game_tab_answers_the_tables_questions_at_a_glance(browser: Any, live: Table) -> None:
    """Quick Reference: hour, ghost, room cards left, summon dice, timers and what is in force, without scrolling."""
    svc = live.service
    for _ in range(4):  # The Ghost Hour: an environment card and a room card come up at XII
        svc.do("end-round", source="test")
    svc.do("reveal-clue", source="test")
    svc.do("solve", source="test")
    svc.do("timer", source="test")
    state = svc.state()
    viewer = open_phone(browser, live)
    try:
        wait_text(viewer, "#g-deck", str(state["room_deck_left"]))
        wait_text(viewer, "#g-summon", str(state["summon_dice"]))
        wait_text(viewer, "#g-timers", str(state["timers"]))
        # a card not filled in yet that the companion drew is the card the table drew, not its entry's stand-in name
        drawn = "the card drawn from your deck (the host tells what it does)"
        names = [c["name"] if not c["stand_in"] else drawn for c in state["environment"]]
        assert names, "the Ghost Hour drew an environment card"
        expect(viewer.page.locator("#g-env")).to_have_text("In force: " + ", ".join(names))
        ghost = viewer.text("#ghost-line")
        assert f"room {state['ghost_room']}" in ghost and "appeared at the Ghost Hour" in ghost
        # A room named only by its number is not said twice ("room 10 (Room 10)").
        assert not re.search(r"room (\d+) \(Room \1\)", ghost)
        # Everything above sits in the first screen of a phone, above the bottom tabs.
        nav_top = viewer.page.locator("#tabs").bounding_box()["y"]
        for sel in ("#clock-label", "#ghost-line", "#g-deck", "#g-env"):
            box = viewer.page.locator(sel).bounding_box()
            assert box["y"] + box["height"] <= nav_top, sel
        # The viewer has no host buttons; the duration is said in words, not as a pack id.
        assert viewer.page.locator(".hostbar").is_hidden()
        assert viewer.page.locator("#env button[data-discard]").count() == 0
        viewer.tab("ghost")
        assert viewer.page.locator("button.try-set").count() == 0  # the ghost is on the board, but this is a viewer
        viewer.tab("game")
        assert "until_met" not in viewer.text("#env") and "_" not in viewer.text("#env")
        viewer.shot("night-glance")
        viewer.check_clean()
    finally:
        close(viewer)


def test_a_phone_that_loses_the_companion_says_so(browser: Any, live: Table) -> None:
    """The Wi-Fi drops: the page says it is offline and reconnecting, not just a red dot."""
    viewer = open_phone(browser, live)
    try:
        assert viewer.page.locator("#conn-label").is_hidden()
        live.server.stop()
        expect(viewer.page.locator("#conn-label")).to_be_visible(timeout=5000)
        expect(viewer.page.locator("#conn")).to_have_class(re.compile(r"\boff\b"))
    finally:
        viewer.context.close()


def test_a_page_opened_without_the_companion_says_so_and_recovers(browser: Any, live: Table) -> None:
    """A phone that opens the page while the companion cannot be reached sees no made-up clock, then the game."""
    phone = open_phone(browser, live)
    try:
        phone.page.route("**/api/session", lambda route: route.abort())
        phone.page.reload()
        expect(phone.page.locator("#offline")).to_be_visible()
        assert phone.page.locator("#v-game").is_hidden()
        phone.page.unroute("**/api/session")
        expect(phone.page.locator("#offline")).to_be_hidden(timeout=8000)
        phone.page.wait_for_selector("#conn.on")
        wait_text(phone, "#clock-label", live.service.state()["clock"])
        assert phone.page.locator("#v-game").is_visible()
        assert phone.outside() == []
    finally:
        close(phone)
