"""A fresh player's findings on Skeptics' Dice tab, in real headless Chromium (Debian's /usr/bin/chromium) at 390x844,
against the real app on waitress, the real GameService, engine and SQLite file: the odds calculator says what is true
in each state (a roll under way; a failed search with no roll left this turn: whose turn it is, never "under way";
the game over: no roll to come). Screenshots go to tests/artifacts/findings/ for a person to look at."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_toasts_odds_doors import named, shot
from test_browser_web import open_phone
from web_fixtures import Table

__all__ = ["named"]  # the fixture, found by pytest here

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_odds_calculator_says_no_roll_is_left_and_that_the_game_is_over(browser: Any, named: Table) -> None:
    service = named.service
    viewer = open_phone(browser, named)
    try:
        page = viewer.page
        whose, out = page.locator("#odds-whose"), page.locator("#odds-out")
        viewer.tab("dice")
        service.do("attempt", {"action": "search", "need": "eye:3"})
        expect(whose).to_contain_text("Ada\u2019s roll under way")
        while service.state()["attempt_rolls_left"] > 0:  # every roll fails: the actions run out
            service.do("roll", {"faces": "cobweb,cobweb,cobweb"})
        state = service.state()
        assert state["attempt"] and not state["attempt"]["succeeded"] and state["outcome"] is None
        # whose turn it is and that no roll is left this turn: never a roll "under way", nor its odds
        expect(whose).to_contain_text("Ada\u2019s turn")
        expect(whose).to_contain_text("no roll left this turn")
        expect(whose).not_to_contain_text("under way")
        expect(out).to_have_text("")
        expect(page.locator("#odds-need-words")).to_have_text("nothing yet")
        page.locator("#odds-whose").scroll_into_view_if_needed()
        shot(viewer, "odds-no-roll-left")
        while service.state()["outcome"] is None:  # the room cards run out: the game is lost
            service.do("end-round")
        expect(page.locator("#banner")).to_be_visible()  # the game's end takes the screen until OK
        page.click("#banner-ok")
        # after the end: the game is over and no roll is to come, on the calculator and on the roll card
        expect(whose).to_contain_text("The game is over")
        expect(whose).to_contain_text("no roll to come")
        expect(whose).not_to_contain_text("under way")
        expect(page.locator("#attempt")).to_contain_text("The game is over")
        expect(page.locator("#attempt")).not_to_contain_text("under way")
        expect(out).to_have_text("")
        page.locator("#odds-whose").scroll_into_view_if_needed()
        shot(viewer, "odds-game-over")
        viewer.check_clean()
    finally:
        viewer.context.close()


def test_with_no_action_left_and_no_roll_begun_the_cards_say_no_roll_is_left(browser: Any, named: Table) -> None:
    """skeptics-rulebook.txt:101 "up to three actions", :131 each roll is an action: with the three used (moves) and
    no roll begun, the roll card and the calculator say no roll is left this turn, not "No roll under way"."""
    service = named.service
    viewer = open_phone(browser, named)
    try:
        page = viewer.page
        for _ in range(3):
            service.do("action", {"kind": "move"})
        state = service.state()
        assert state["attempt"] is None and state["actions_left"] == 0
        viewer.tab("dice")
        for where in ("#attempt", "#odds-whose"):
            expect(page.locator(where)).to_contain_text("Ada\u2019s turn: no roll left this turn.")
            expect(page.locator(where)).not_to_contain_text("under way")
        page.locator("#odds-whose").scroll_into_view_if_needed()
        shot(viewer, "odds-no-action-left")
        viewer.check_clean()
    finally:
        viewer.context.close()
