"""A fresh player's findings on two phones, in real headless Chromium (Debian's /usr/bin/chromium) at 390x844, against
the real app on waitress, the real GameService, engines and SQLite file: Among Cultists' player phone points at no
control it does not have (the night's pause is the host's), and its note on the roles says only what the host told
(no role until the last cultist's card was shown, :52); Spooks' "So many points?" sheet is never covered by a refusal
from before it. Screenshots go to tests/artifacts/findings/ for a person to look at."""

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


def test_among_cultists_roles_note_says_only_the_last_cultist_the_host_told(browser: Any, table: Table) -> None:
    """A player's phone said "The companion never knows who is a cultist" under the vote line "Bo ... was the last
    cultist", which the host had told it: the note now says what it knows, and names no one the host did not."""
    player = open_phone(browser, table, viewport=PHONE)
    service = table.service
    try:
        service.new_game(
            {"rules": "among-cultists", "players": 5, "cultists": 1, "points_needed": 3, "names": NAMES, "seed": 4}
        )
        note = player.page.locator("#ac-roles-note")
        expect(note).to_have_text(
            "The companion never knows who is a cultist: the roles stay in their envelopes.", timeout=5000
        )  # no seer in this game, so none named
        assert service.state()["seer"] is False
        for command in ("night-done", "next-phase", "draw-event", "next-phase"):
            service.do(command)
        service.do("vote", {"seat": "2", "last": "yes"})
        expect(player.page.locator("#ac-vote")).to_contain_text("Bo was voted out, and was the last cultist")
        expect(note).to_have_text(
            "The companion knows only what the host told it: Bo showed the last cultist's card when voted out. It was "
            "told no other role."
        )
        assert [name for name in NAMES if name in note.inner_text()] == ["Bo"]
        player.page.click("#banner-ok")  # the win's banner, then the note under the seats
        expect(player.page.locator("#banner")).to_be_hidden()
        note.scroll_into_view_if_needed()
        shot(player, "ac-roles-note-last-cultist")
        player.check_clean()
    finally:
        player.context.close()


def test_spooks_so_many_points_sheet_is_not_covered_by_the_refusal_before_it(browser: Any, table: Table) -> None:
    """The host's points were refused (a blank); the host mends them, and one is over a dealt hand: the "So many
    points?" question opens with nothing of the refusal over it (the host never closed it by hand)."""
    host = open_phone(browser, table, host=True)
    page = host.page
    try:
        table.service.new_game({"rules": "spooks", "players": 4, "names": NAMES[:4]})
        expect(page.locator("#sp-points")).to_be_visible(timeout=5000)
        page.click("#sp-points")
        typed = {1: "0", 2: "35", 3: "", 4: "150"}
        for seat, points in typed.items():
            page.fill(f"#sp-p-{seat}", points)
        page.click("#sheet-ok")  # Cy left blank: refused, the sheet stays open with the points
        expect(page.locator("#toast.bad")).to_contain_text("Cy", timeout=3000)
        page.click("#sheet-cancel")  # the host gives up these points and starts the sheet again
        page.click("#sp-points")
        expect(page.locator("#sheet-title")).to_have_text("This hand's points")
        # the refused points are superseded: their refusal goes, at once (not the 7 s a refusal stays)
        expect(page.locator("#toast")).to_be_hidden(timeout=1000)
        shot(host, "sp-points-again-no-stale-refusal")
        typed[3] = "12"
        for seat, points in typed.items():
            page.fill(f"#sp-p-{seat}", points)
        page.click("#sheet-ok")  # Di's 150 is over a dealt hand: the question
        expect(page.locator("#sheet-title")).to_have_text("So many points?")
        page.wait_for_timeout(300)
        toast = page.locator("#toast")
        if toast.is_visible():  # what shows is not the refusal, and not over the sheet
            assert "Cy" not in toast.inner_text()
            shown, sheet = toast.bounding_box(), page.locator("#sheet .sheet-box, #sheet > *").first.bounding_box()
            assert shown is not None and sheet is not None
            assert shown["y"] + shown["height"] <= sheet["y"] or sheet["y"] + sheet["height"] <= shown["y"]
        shot(host, "sp-so-many-points-no-stale-refusal")
        page.click("#sheet-ok")
        expect(page.locator("#sp-score-4 td.num")).to_have_text("150", timeout=5000)
        assert host.errors == [  # the refusal's 400, asserted above
            "console error: Failed to load resource: the server responded with a status of 400 (BAD REQUEST)"
        ]
        assert host.outside() == []
    finally:
        host.context.close()
