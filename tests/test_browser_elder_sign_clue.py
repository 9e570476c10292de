"""After a roll that completed nothing, a clue token rolls all of its dice again (elder-sign-rules.txt:357-361, no die
set aside, unlike the next roll's :211): the host's phone (Chromium at 390x844) offers "Spend a clue and roll again",
whose sheet has one row for each die of the pool the engine rolls for the clue (the published clue_dice), and the
roll card says so beside the next roll's count. Sent, the clue goes in. A refused count reads in the page's words.
Screenshots go to tests/artifacts/elder_sign/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_browser_elder_sign import SHOTS, shot, tap, wait_for
from test_browser_elder_sign_aside import _failed_roll_with_the_yellow_die, _game
from test_browser_elder_sign_tasks import elder_sign_table, host_phone
from web_fixtures import Table

from companion.errors import CompanionError
from companion.games.elder_sign.sentences import for_players

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["elder_sign_table"]


def test_the_clue_sheet_offers_every_die_of_the_failed_roll_and_goes_in(
    browser: object, elder_sign_table: Table
) -> None:
    service = elder_sign_table.service
    _failed_roll_with_the_yellow_die(service)
    service.do("adjust", {"player": "1", "clues": "2"})  # the stand-in's card has none
    state = service.state()
    pool = state["attempt"]["free"]
    clue = [colour for colour in ("green", "yellow", "red") for _ in range(pool[colour])]
    assert state["clue_dice"] == clue  # the whole pool: 6 green and the yellow
    assert len(state["next_dice"]) == len(clue) - 1  # the next roll's, one die set aside
    clues = next(i for i in state["investigators"] if i["active"])["clues"]
    assert clues > 0
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        expect(page.locator("#es-attempt p").first).to_contain_text(
            f"a clue rolls all {len(clue)} dice again ({', '.join(clue)})"
        )
        page.locator("#es-attempt-card").screenshot(path=str(SHOTS / "clue-roll-card.png"))
        tap(host, "#es-clue")
        expect(page.locator("#sheet-title")).to_have_text("A clue: the dice rolled again")
        rows = page.locator("#sheet-body .row")
        expect(rows).to_have_count(len(clue))
        for i, colour in enumerate(clue, start=1):
            expect(rows.nth(i - 1).locator("b")).to_have_text(f"{colour.capitalize()} die {i}:")
            page.locator(f"#sheet-body [id^='es-die-{i}-']").first.click()
        shot(host, "clue-sheet")
        length = state["history_length"]
        page.click("#sheet-ok")
        wait_for(lambda: service.state()["history_length"] > length)
        sent = service.history()[length]["command"]
        assert sent["name"] == "clue" and len(sent["args"]["faces"].split(",")) == len(clue)
        assert next(i for i in service.state()["investigators"] if i["active"])["clues"] == clues - 1
        expect(page.locator("#sheet")).to_be_hidden()
        assert host.errors == []
    finally:
        host.context.close()


def test_a_clue_with_a_die_short_is_refused_in_the_pages_words() -> None:
    game = _game()
    short = ",".join(["green:inv1"] * 5 + ["yellow:inv1"])  # the next roll's count, not the clue's
    with pytest.raises(CompanionError) as refused:
        game.push(f"clue faces={short}")
    words = for_players(refused.value)
    assert "the dice sent have 5 green instead of 6" in words
    assert "open it again" in words
    assert not any(spelling in words for spelling in ("=", "yellow:", "yellow inv4", "red wild", "Write"))


def test_a_clue_after_a_focus_and_a_spell_leaves_their_dice_held(browser: object, elder_sign_table: Table) -> None:
    """:359 a clue re-rolls "the dice in my dice pool"; :371 a focused die "You don't get to roll it again", :347 nor
    one on a Spell card: the sheet asks only the others and says the two stay held; sent, the roll card lists them under
    Held."""
    service = elder_sign_table.service
    _failed_roll_with_the_yellow_die(service)
    service.do("adjust", {"player": "1", "clues": "2"})
    last = service.state()["attempt"]["last"]
    focus, spell = last[0], last[1]
    service.do("focus", {"die": focus})
    service.do("spell", {"die": spell})
    state = service.state()
    pool = sum(state["attempt"]["free"].values())
    assert len(state["clue_dice"]) == pool - 2
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        expect(page.locator("#es-attempt p").first).to_contain_text(f"a clue rolls {pool - 2} dice again")
        tap(host, "#es-clue")
        expect(page.locator("#sheet-body .row")).to_have_count(pool - 2)
        expect(page.locator("#es-clue-kept")).to_contain_text("Not rolled again, still held:")
        expect(page.locator("#es-clue-kept")).to_contain_text("(focus)")
        expect(page.locator("#es-clue-kept")).to_contain_text("(on the Spell card)")
        page.locator("#es-clue-kept").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "clue-sheet-held-phone.png"))  # as the phone's screen shows it
        for i in range(1, pool - 1):
            page.locator(f"#sheet-body [id^='es-die-{i}-lore']").first.click()
        shot(host, "clue-sheet-held")
        length = state["history_length"]
        page.click("#sheet-ok")
        wait_for(lambda: service.state()["history_length"] > length)
        held = sorted(h["how"] for h in service.state()["attempt"]["held"])
        assert held == ["focus", "spell"]
        expect(page.locator("#es-attempt")).to_contain_text("Held:")
        page.locator("#es-attempt-card").screenshot(path=str(SHOTS / "clue-held-roll-card.png"))
        assert host.errors == []
    finally:
        host.context.close()
