"""The active investigator devoured during their attempt, on a phone (Chromium at 390x844): the page asks only what
is left of the turn (elder-sign-rules.txt:405-415): one question, the doom tokens, monsters or clock of the rest
(the text silent), never a sanity or stamina that would fall on the new investigator (:413 full sanity and stamina,
played from the next turn); then the new investigator's numbers with its starting items on the same sheet (:411
"complete with their own starting items"), then the end of the turn (:413 the clock). Screenshots:
tests/artifacts/elder_sign/devoured-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_browser_elder_sign import SHOTS, shot, tap
from test_browser_elder_sign_tasks import elder_sign_table, host_phone
from web_fixtures import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["elder_sign_table"]


def test_after_a_devouring_the_page_asks_only_what_is_left(browser: object, elder_sign_table: Table) -> None:
    service = elder_sign_table.service
    do = service.do  # type: ignore[attr-defined]
    do("set-tasks", {"adventure": "1", "tasks": "inv:1;lore:1", "ordered": "false"})
    do("move", {"to": "1"})
    do("roll", {"faces": "lore,peril,peril,peril,peril,peril"})
    do("roll", {"faces": "terror,peril,peril,peril,peril"})  # the adventure's terror and the Mythos card's asked
    do("card-did", {"effect": "stamina", "n": "-9"})  # devours player 1's investigator
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        question = page.locator("#es-card-question")
        expect(question).to_contain_text("falls on no investigator")
        expect(question).to_contain_text("doom tokens, monsters or clock still happen")
        expect(question).not_to_contain_text("more card")  # the Mythos card's terror is not asked after it
        for effect in ("sanity", "stamina"):  # nothing of the turn falls on the new investigator
            expect(page.locator(f"#es-main [data-effect={effect}]")).to_have_count(0)
        expect(page.locator("#es-main [data-effect=doom]").first).to_be_visible()
        assert page.locator("#es-roll-me").count() == 0
        shot(host, "devoured-1-question")
        tap(host, "#es-main button:has-text('Nothing (more)')")
        enter = page.locator("#es-first-numbers-1")
        expect(enter).to_contain_text("sanity, stamina, clues and starting items")
        enter.click()
        expect(page.locator("#sheet")).to_be_visible()
        for label in ("Sanity", "Common Items held", "Unique Items held", "Spells held"):
            expect(page.locator("#sheet-body label", has_text=label)).to_have_count(1)
        for name, value in (("sanity", "5"), ("stamina", "6"), ("clues", "1"), ("common", "1"), ("unique", "0")):
            page.fill(f"#sheet-body input[name={name}]", value)
        page.screenshot(path=str(SHOTS / "devoured-2-numbers-and-items.png"))  # the sheet, as the phone shows it
        page.click("#sheet-ok")  # the spells not copied: the sheet asks every number first
        expect(page.locator("#sheet")).to_be_visible()
        page.fill("#sheet-body input[name=spells]", "1")
        page.click("#sheet-ok")
        expect(page.locator("#sheet")).to_be_hidden()
        new = next(i for i in service.state()["investigators"] if i["player"] == 0 and not i["devoured"])  # type: ignore[attr-defined]
        assert new["items"] == {"common-items": 1, "unique-items": 0, "spells": 1} and new["sanity"] == 5
        end = page.locator("#es-main button", has_text="End the turn")
        expect(end).to_be_visible()
        expect(page.locator("#es-main button", has_text="Go to")).to_have_count(0)  # :413 what is left: the clock
        shot(host, "devoured-3-end-turn")
    finally:
        host.context.close()


def test_the_turn_does_not_end_while_the_question_is_open(browser: object, elder_sign_table: Table) -> None:
    """The new investigator's numbers copied first: the question of what is left is still open, and the page offers
    no End the turn until it is told (engine.ASKED_BEFORE_ENDING; :413 the clock ends the devoured's turn, after it)."""
    service = elder_sign_table.service
    do = service.do  # type: ignore[attr-defined]
    do("set-tasks", {"adventure": "1", "tasks": "inv:1;lore:1", "ordered": "false"})
    do("move", {"to": "1"})
    do("roll", {"faces": "lore,peril,peril,peril,peril,peril"})
    do("roll", {"faces": "terror,peril,peril,peril,peril"})
    do("card-did", {"effect": "stamina", "n": "-9"})  # devours player 1's investigator
    numbers = {"player": "1", "sanity": "5", "stamina": "6", "clues": "1", "common": "1", "unique": "0", "spells": "0"}
    do("set-investigator", numbers)
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        expect(page.locator("#es-card-question")).to_contain_text("falls on no investigator")
        end = page.locator("#es-main button", has_text="End the turn")
        expect(end).to_have_count(0)
        shot(host, "devoured-4-question-no-end")
        tap(host, "#es-main button:has-text('Nothing (more)')")
        expect(end).to_be_visible()
        shot(host, "devoured-5-told-end")
    finally:
        host.context.close()
