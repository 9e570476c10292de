"""Elder Sign's roll card says what is true when there is no roll to work out, in real headless Chromium at 390x844
against the real app on waitress, the real GameService, engine and SQLite file: before the first roll, "No roll under
way."; a failed roll's one die left (a clue held, so the attempt goes on, elder-sign-rules.txt:217, :359): no die to set
aside or roll again, only a clue or an item's die; the turn's roll done: whose turn it is and that no roll is left this
turn (never "under way"); the game over: no roll to come; a die left on a Spell card from an earlier turn (:345-349):
named, and the odds shown beside it (the task the investigator cannot pay, :189). Screenshots go to
tests/artifacts/elder_sign/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_browser_elder_sign import SHOTS, dismiss
from test_browser_elder_sign_tasks import elder_sign_table, host_phone
from test_browser_web import Phone, open_phone
from test_elder_sign_odds_costs import lore_on_a_spell_then_a_costly_card
from web_fixtures import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["elder_sign_table"]


def shot(phone: Phone, name: str) -> None:
    """The phone's screen (390x844) with the roll card on it (the game's end banner and the news tapped away)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    dismiss(phone)
    if phone.page.locator("#toast").is_visible():
        phone.page.click("#toast-close")
    phone.page.locator("#es-attempt").scroll_into_view_if_needed()
    phone.page.screenshot(path=str(SHOTS / f"{name}.png"))


def _roll_until_one_die_is_left(service: object) -> None:
    """Ada (a clue held) rolls at a lore task and misses each time until the failed roll's one die is left."""
    do, state = service.do, service.state  # type: ignore[attr-defined]
    do("adjust", {"player": "1", "clues": "1"})
    do("move", {"to": "1"})
    do("set-tasks", {"adventure": "1", "tasks": "lore:1", "ordered": "false"})
    while not state()["attempt"] or state()["attempt"]["dice_to_roll"]:
        do("roll", {"faces": ",".join(f"{c}:inv1" for c in state()["next_dice"])})


def test_the_roll_card_says_no_roll_is_left_and_that_the_game_is_over(browser: object, elder_sign_table: Table) -> None:
    service = elder_sign_table.service
    viewer = open_phone(browser, elder_sign_table, wait_map=False)
    host = host_phone(browser, elder_sign_table)
    try:
        page, box = viewer.page, viewer.page.locator("#es-attempt")
        expect(box).to_contain_text("No roll under way.")
        _roll_until_one_die_is_left(service)
        attempt = service.state()["attempt"]
        assert attempt["failed"] and sum(attempt["free"].values()) == 1 and attempt["dice_to_roll"] == 0
        # the one die left is the one set aside: nothing else to set aside, hold or roll again
        expect(box).to_contain_text("No dice are left to roll: the rolls go on only with a clue")
        expect(page.locator("#es-aside-note")).to_have_count(0)
        expect(box).not_to_contain_text("rolled again (")
        expect(box).not_to_contain_text("the others are all rolled again")
        expect(host.page.locator("#es-clue")).to_be_visible()  # the clue the card speaks of
        shot(viewer, "no-roll-1-one-die-left")
        service.do("give-up")
        while service.state()["question"]:  # the stand-in card's penalty, told as nothing
            service.do("card-did", {"effect": "nothing"})
        assert service.state()["attempt"] is None and service.state()["outcome"] is None
        # this turn's roll is done (the engine refuses another): whose turn it is, no roll left; never "under way"
        for phone in (viewer, host):
            expect(phone.page.locator("#es-attempt")).not_to_contain_text("under way")
            expect(phone.page.locator("#es-no-roll")).to_have_text("Ada\u2019s turn: no roll left this turn.")
        shot(viewer, "no-roll-2-none-left")
        while not service.state()["outcome"]:
            service.do("elder-signs", {"n": "5"})
        for phone in (viewer, host):
            expect(phone.page.locator("#es-attempt")).not_to_contain_text("under way")
            expect(phone.page.locator("#es-no-roll")).to_have_text("The game is over: no roll to come.")
        shot(viewer, "no-roll-3-game-over")
        viewer.check_clean()
    finally:
        viewer.context.close()
        host.context.close()


def test_before_the_roll_the_card_names_the_die_on_a_spell_card_and_shows_the_odds(
    browser: object, elder_sign_table: Table
) -> None:
    """A fresh player saw "No roll under way." alone here: no odds and no words for the task they could not pay."""
    lore_on_a_spell_then_a_costly_card(elder_sign_table.service)
    state = elder_sign_table.service.state()
    viewer = open_phone(browser, elder_sign_table, wait_map=False)
    try:
        page = viewer.page
        expect(page.locator("#es-spell-dice")).to_have_text(state["spell_words"])
        assert "cannot pay task 1's 5 sanity" in state["odds_words"][0]
        expect(page.locator("#es-odds")).to_have_text(state["odds_words"][0])
        expect(page.locator("#es-attempt")).to_contain_text("Before the first roll at")
        shot(viewer, "no-roll-spell-die-before-the-roll")
    finally:
        viewer.context.close()
