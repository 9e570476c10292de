"""A stand-in ghost's Ghost Hour ability on the host's phone (real Flask app, real waitress, Debian's headless Chromium
at 390x844): "Once the Ghost appears, the Ghost will use its Ghost Hour Ability" (skeptics-rulebook.txt:209). The
bundled Child Ghost is not filled in, so the companion plays none of its own: the turn panel asks what the real card's
ability did, after the environment card drawn first (:204-207), and the doors follow the host's tap. The glance says
plainly what is in force. Screenshots go to tests/artifacts/skeptics/ for a person to look at."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_web import open_phone
from test_skeptics_page import dismiss, shot
from web_fixtures import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_host_is_asked_what_the_stand_in_ghosts_ability_did_and_the_doors_follow(browser: Any, live: Table) -> None:
    svc = live.service
    svc.do("unlock", {"door": "13-14"})  # the table opened it before the Ghost Hour
    for _ in range(4):
        svc.do("end-round")
    state = svc.state()
    room = state["ghost_room"]
    assert state["ghost"]["stand_in"] and state["doors_open"] == ["13-14"] and room in (13, 14)
    host = open_phone(browser, live, host=True)
    try:
        dismiss(host)
        question = host.page.locator("#card-question")
        expect(question).to_contain_text("what does the real card do")  # the environment card's, drawn first
        svc.do("tell-card", {"effect": "nothing"})
        expect(question).to_contain_text("companion plays nothing of its Ghost Hour ability")
        taps = host.page.locator("#turn-main button[data-legal='tell-ghost']")
        expect(taps).to_have_text(["It closed the doors next to its room", "Something else (the table plays it)"])
        expect(host.page.locator("#g-env")).to_have_text(
            "In force: the card drawn from your deck (the host tells what it does)"
        )
        shot(host, "11-ghost-ability-question", full=False)
        assert svc.state()["doors_open"] == ["13-14"]  # nothing closed of the stand-in's own
        taps.first.click()
        expect(question).to_contain_text("how many icon sets")
        assert svc.state()["doors_open"] == []
        host.check_clean()
    finally:
        host.context.close()
