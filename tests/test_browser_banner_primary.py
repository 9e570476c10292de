"""One highlighted button per view, and a midnight that does not stop the game (Chromium at 390x844).

- The host's turn panel highlights one button, the likely next step: "Roll for me" while a roll is under way, else
  "End the turn"; the Dice tab's "Roll for me" alone (Elder Sign's: test_browser_elder_sign_attack).
- Elder Sign's midnight banner is a panel across the top, not a screen to tap away: the player's phone changes tab
  under it, and the host answers the Mythos card's question (a stand-in) while it is up, the banner's button taking
  the host there. The game's end still takes the screen.
- A message already shown when a sheet opens moves to the top: it never covers the sheet's last answers.
Screenshots go to tests/artifacts/banner_primary/.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_elder_sign import wait_for
from test_browser_elder_sign_tasks import elder_sign_table, host_phone
from test_browser_web import ARTIFACTS, PHONE, Phone, open_phone
from web_fixtures import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["elder_sign_table"]  # the fixture, found by pytest here

SHOTS = ARTIFACTS / "banner_primary"


def shot(phone: Phone, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SHOTS / f"{name}.png"))


def primaries(phone: Phone, where: str) -> list[str]:
    """The highlighted buttons shown in `where`, by their words."""
    return [t.strip() for t in phone.page.locator(f"{where} button.primary:visible").all_inner_texts()]


def test_the_skeptics_turn_highlights_the_roll_under_way_else_the_end_of_the_turn(browser: Any, table: Table) -> None:
    host = open_phone(browser, table, host=True)
    try:
        expect(host.page.locator("#turn-end button[data-legal=end-turn]")).to_have_class("primary")
        assert primaries(host, "#v-game") == [host.page.locator("#turn-end button[data-legal=end-turn]").inner_text()]
        table.service.do("attempt", {"action": "search", "need": "eye:2"})
        expect(host.page.locator("#roll-me")).to_be_visible()
        expect(host.page.locator("#turn-end button[data-legal=end-turn]")).not_to_have_class("primary")
        assert primaries(host, "#v-game") == ["Roll for me"]
        host.page.locator("#turn-card").scroll_into_view_if_needed()
        shot(host, "skeptics-roll-primary")
        host.tab("dice")
        expect(host.page.locator("#roll-now")).to_be_visible()
        assert primaries(host, "#v-dice") == ["Roll for me"]
        shot(host, "skeptics-dice-tab")
        assert host.errors == []
    finally:
        host.context.close()


def test_the_midnight_banner_leaves_the_game_to_be_played(browser: object, elder_sign_table: Table) -> None:
    service = elder_sign_table.service
    host = host_phone(browser, elder_sign_table)
    player = open_phone(browser, elder_sign_table, viewport=PHONE, wait_map=False, scale=1)
    try:
        while service.state()["clock"] != "IX":
            service.do("end-turn")
        service.do("end-turn")  # midnight: the Mythos card drawn is a stand-in, so the host is asked what it did
        assert service.state()["card_question"]
        for phone in (player, host):
            expect(phone.page.locator("#banner")).to_be_visible(timeout=5000)
            expect(phone.page.locator("#banner-title")).to_have_text("Midnight")
            expect(phone.page.locator("#banner")).to_have_class("strip")
            box = phone.page.locator("#banner").bounding_box()
            assert box is not None and box["height"] < PHONE["height"] / 2  # a panel, the game below it
        shot(player, "midnight-player")
        shot(host, "midnight-host")
        for phone in (player, host):  # the banner says it: no toast of the same turn beside it
            expect(phone.page.locator("#toast")).to_be_hidden()
        expect(player.page.locator("#banner-ok")).to_have_text("OK")
        player.page.click("#tabs button[data-view=log]")  # a tap on the page under it goes through
        expect(player.page.locator("#v-log")).to_be_visible()
        expect(player.page.locator("#banner")).to_be_visible()  # still up until OK, or the game moving on
        player.page.click("#banner-ok")
        expect(player.page.locator("#banner")).to_be_hidden()
        ok = host.page.locator("#banner-ok")
        expect(ok).to_have_text("Answer the question")
        ok.click()
        expect(host.page.locator("#banner")).to_be_hidden()
        question = host.page.locator("#es-card-question")
        expect(question).to_be_in_viewport()
        while service.state()["card_question"]:  # each card drawn not filled in yet: the host taps what it did
            length = service.state()["history_length"]
            host.page.click("#es-main button[data-legal=card-did]:has-text('that was all')")
            wait_for(lambda length=length: service.state()["history_length"] > length)
        expect(question).to_have_count(0, timeout=5000)
        assert host.errors == []
        player.check_clean()
    finally:
        host.context.close()
        player.context.close()


def test_the_games_end_still_takes_the_screen(browser: object, elder_sign_table: Table) -> None:
    service = elder_sign_table.service
    player = open_phone(browser, elder_sign_table, viewport=PHONE, wait_map=False, scale=1)
    try:
        service.do("elder-signs", {"n": "1"})  # told in a message at the bottom (a loaded machine: up to 15 s)
        expect(player.page.locator("#toast")).to_be_visible(timeout=15000)
        service.do("elder-signs", {"n": str(service.state()["elder_signs_needed"] - 1)})  # sealed away: won
        assert service.state()["outcome"] == "won"
        expect(player.page.locator("#banner")).to_be_visible(timeout=15000)
        expect(player.page.locator("#banner")).not_to_have_class("strip")
        box = player.page.locator("#banner").bounding_box()
        assert box is not None and box["height"] == PHONE["height"]
        expect(player.page.locator("#toast")).to_be_hidden()  # no message of the move before stays (Spooks, shot 218)
        shot(player, "end-screen")
        player.page.click("#banner-ok")
        expect(player.page.locator("#end-card")).to_be_visible()
        expect(player.page.locator("#toast")).to_be_hidden()
    finally:
        player.context.close()


def test_a_message_up_when_a_sheet_opens_goes_to_the_top_off_its_answers(browser: Any, table: Table) -> None:
    host = open_phone(browser, table, host=True)
    try:
        page = host.page
        table.service.do("end-turn")  # every phone is told, in a message at the bottom
        expect(page.locator("#toast")).to_be_visible()
        expect(page.locator("#toast")).not_to_have_class("top")
        page.click("#undo-btn")  # the sheet that asks "Take this back?", its answers at the bottom
        expect(page.locator("#sheet")).to_be_visible()
        expect(page.locator("#toast")).to_be_visible()
        toast = page.locator("#toast").bounding_box()
        assert toast is not None
        for answer in ("#sheet-ok", "#sheet-cancel"):
            box = page.locator(answer).bounding_box()
            assert box is not None
            assert toast["y"] + toast["height"] <= box["y"] or box["y"] + box["height"] <= toast["y"], (answer, toast)
        shot(host, "toast-over-sheet")
        page.click("#sheet-cancel")
        expect(page.locator("#sheet")).to_be_hidden()
        assert host.errors == []
    finally:
        host.context.close()


def test_a_new_game_clears_the_last_games_banner_and_message(browser: object, elder_sign_table: Table) -> None:
    """A fresh player's finding (shots 088-089): the last game's "You won!" banner stayed over the new game on a
    player's phone, and an old message under it. Another game's first state takes them away on every phone; the
    new game's own messages are shown."""
    service = elder_sign_table.service
    host = host_phone(browser, elder_sign_table)
    player = open_phone(browser, elder_sign_table, viewport=PHONE, wait_map=False, scale=1)
    try:
        service.do("elder-signs", {"n": str(service.state()["elder_signs_needed"])})  # sealed away: won
        assert service.state()["outcome"] == "won"
        for phone in (host, player):
            expect(phone.page.locator("#banner")).to_be_visible(timeout=5000)
            expect(phone.page.locator("#banner")).not_to_have_class("strip")  # the screen, until OK
        ended = player.page.locator("#banner-title").inner_text()
        # nobody tapped OK: the host starts Among Cultists (the finding's case)
        names = ["Ada", "Bo", "Cy", "Di", "Ed"]
        service.new_game(
            {"rules": "among-cultists", "players": 5, "cultists": 1, "points_needed": 3, "names": names, "seed": 4}
        )
        for phone in (host, player):
            expect(phone.page.locator("#title")).to_have_text("Among Cultists", timeout=5000)
            expect(phone.page.locator("#banner")).to_be_hidden()
            expect(phone.page.locator("#toast")).to_be_hidden()
        shot(player, "new-game-player")
        shot(host, "new-game-host")
        # a message of this game up when the next one starts goes too
        service.do("night-done")
        toast = player.page.locator("#toast")
        expect(toast).to_be_visible(timeout=5000)
        said = player.page.locator("#toast-text").inner_text()
        service.new_game({"rules": "spooks", "players": 3, "names": names[:3]})
        expect(player.page.locator("#title")).to_have_text("Spooks", timeout=5000)
        assert not toast.is_visible() or player.page.locator("#toast-text").inner_text() != said, said
        shot(player, "new-game-after-a-message")
        assert ended and host.errors == []
        player.check_clean()
    finally:
        host.context.close()
        player.context.close()
