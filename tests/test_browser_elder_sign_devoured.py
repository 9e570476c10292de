"""The active investigator devoured during their attempt, on a phone (Chromium at 390x844): the page asks only what
is left of the turn (elder-sign-rules.txt:405-415): one question, the doom tokens, monsters or clock of the rest
(the text silent), never a sanity or stamina that would fall on the new investigator (:413 full sanity and stamina,
played from the next turn); then the new investigator's numbers with its starting items on the same sheet (:411
"complete with their own starting items"), then the end of the turn (:413 the clock). Screenshots:
tests/artifacts/elder_sign/devoured-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from test_browser_elder_sign import SHOTS, shot, tap
from test_browser_elder_sign_tasks import elder_sign_table, host_phone
from web_fixtures import Table

from companion.games.elder_sign.engine import STATS, TABLE_DRAWS

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["elder_sign_table"]


def devoured_at(table: Table, second_roll: str, stat: str) -> None:
    """At the adventure in place 1 (two tasks), the lore task done, then `second_roll`, whose question the host
    answers with `stat` -9: player 1's investigator is devoured."""
    do = table.service.do  # type: ignore[attr-defined]
    do("set-tasks", {"adventure": "1", "tasks": "inv:1;lore:1", "ordered": "false"})
    do("move", {"to": "1"})
    do("roll", {"faces": "lore,peril,peril,peril,peril,peril"})
    do("roll", {"faces": second_roll})
    do("card-did", {"effect": stat, "n": "-9"})


def asks(page: Page, words: tuple[str, ...], taps: tuple[str, ...], not_taps: tuple[str, ...]) -> None:
    """The host's card question says `words`; its taps are offered, none of `not_taps`."""
    for said in words:
        expect(page.locator("#es-card-question")).to_contain_text(said)
    for effect in not_taps:
        expect(page.locator(f"#es-main [data-effect={effect}]")).to_have_count(0)
    for effect in taps:
        expect(page.locator(f"#es-main [data-effect={effect}]").first).to_be_visible()


def test_after_a_devouring_the_page_asks_only_what_is_left(browser: object, elder_sign_table: Table) -> None:
    service = elder_sign_table.service
    devoured_at(elder_sign_table, "terror,peril,peril,peril,peril", "stamina")  # the two terrors asked: the first
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        # nothing of the turn falls on the new investigator: no sanity or stamina asked
        asks(page, ("falls on no investigator", "doom tokens, monsters or clock still happen"), ("doom",), STATS)
        expect(page.locator("#es-card-question")).not_to_contain_text("more card")  # the Mythos card's is not asked
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


def test_a_reward_that_devoured_asks_only_what_goes_to_the_table(browser: object, elder_sign_table: Table) -> None:
    """The card completed, its reward's sanity devours the investigator (:223 a reward may not be beneficial): the
    rest of the reward is asked with the table's taps only (Elder Signs :245, gate :247, monster :269, doom :271),
    none that would fall on the new investigator (:409, :413)."""
    devoured_at(elder_sign_table, "inv1,peril,peril,peril,peril", "sanity")  # the card completed: its reward's sanity
    host = host_phone(browser, elder_sign_table)
    try:
        words = ("falls on no one", "Elder Signs, a doom token, a monster or a gate")
        asks(host.page, words, ("elder-signs", "doom", "monster", "gate"), ("clues", *TABLE_DRAWS, *STATS))
        shot(host, "devoured-4-reward-rest")
    finally:
        host.context.close()


def test_the_turn_does_not_end_while_the_question_is_open(browser: object, elder_sign_table: Table) -> None:
    """The new investigator's numbers copied first: the question of what is left is still open, and the page offers
    no End the turn until it is told (engine.ASKED_BEFORE_ENDING; :413 the clock ends the devoured's turn, after it)."""
    devoured_at(elder_sign_table, "terror,peril,peril,peril,peril", "stamina")  # the terror's stamina devours
    numbers = {"player": "1", "sanity": "5", "stamina": "6", "clues": "1", "common": "1", "unique": "0", "spells": "0"}
    elder_sign_table.service.do("set-investigator", numbers)  # type: ignore[attr-defined]
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        expect(page.locator("#es-card-question")).to_contain_text("falls on no investigator")
        end = page.locator("#es-main button", has_text="End the turn")
        expect(end).to_have_count(0)
        shot(host, "devoured-6-question-no-end")
        tap(host, "#es-main button:has-text('Nothing (more)')")
        expect(end).to_be_visible()
        shot(host, "devoured-7-told-end")
    finally:
        host.context.close()
