"""The Entrance's Lost & Found on the host's phone (Chromium at 390x844): elder-sign-rules.txt:293 "I roll a green die
and look at the chart on the Entrance": the host taps the green die's face, and the companion asks what the chart on
the Entrance sheet gave (it is not in the rules text). Screenshots go to tests/artifacts/elder_sign/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_browser_elder_sign import SHOTS, shot, tap
from test_browser_elder_sign_tasks import elder_sign_table, host_phone  # noqa: F401 (a fixture)
from web_fixtures import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_host_searches_the_lost_and_found_on_a_phone(browser: object, elder_sign_table: Table) -> None:  # noqa: F811
    service = elder_sign_table.service
    service.do("move", {"to": "entrance"})
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        expect(page.locator("#es-lost-found")).to_have_text("Search the Lost & Found")
        tap(host, "#es-lost-found")
        expect(page.locator("#sheet-body button[id^='es-lost-']")).to_have_count(6)  # the green die's six faces
        page.screenshot(path=str(SHOTS / "lost-found-sheet-phone.png"))
        page.click("#es-lost-peril")
        expect(page.locator("#es-card-question")).to_contain_text("Lost & Found chart is on the Entrance sheet")
        assert service.history()[-1]["command"] == {"name": "lost-found", "args": {"face": "peril"}}
        assert service.state()["question"]["part"] == "lost_found"
        expect(page.locator("#es-lost-found")).to_have_count(0)  # one Entrance activity a turn (:289)
        page.screenshot(path=str(SHOTS / "lost-found-asked-phone.png"))
        shot(host, "lost-found-asked")
        assert host.errors == []
    finally:
        host.context.close()
