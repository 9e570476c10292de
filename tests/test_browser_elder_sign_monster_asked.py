"""A monster that appeared and is not placed yet is asked on the host's phone (elder-sign-rules.txt:377 "the active
player ... place[s] it on top of a monster task", :391 with none left under the bottom task of any adventure): a
stand-in card told "Monsters +1" leaves it pending, the host's turn card asks which adventure it went on, the host taps
it and the monster's icons, and that adventure's tasks (and so its odds) hold the monster. Real Chromium at 390x844;
screenshots go to tests/artifacts/elder_sign/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_browser_elder_sign import shot, tap, wait_for
from test_browser_elder_sign_tasks import elder_sign_table, host_phone
from web_fixtures import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["elder_sign_table"]


def test_a_monster_told_by_a_stand_in_card_is_asked_and_placed_on_the_adventure_the_host_taps(
    browser: object, elder_sign_table: Table
) -> None:
    service = elder_sign_table.service
    service.do("move", {"to": "1"})  # type: ignore[attr-defined]
    service.do("set-tasks", {"adventure": "1", "tasks": "inv:1", "ordered": "false"})  # type: ignore[attr-defined]
    service.do("roll", {"faces": "inv1,inv1,inv1,inv1,inv1,inv1"})  # type: ignore[attr-defined]
    assert service.state()["question"]["part"] == "reward"  # type: ignore[attr-defined]
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        expect(page.locator("#es-monster-question")).to_have_count(0)  # none appeared yet
        service.do("card-did", {"effect": "monster"})  # type: ignore[attr-defined]  # the real card's reward
        while service.state()["question"]:  # type: ignore[attr-defined]
            service.do("card-did", {"effect": "nothing"})  # type: ignore[attr-defined]
        assert service.state()["monsters_pending"] == 1  # type: ignore[attr-defined]
        question = page.locator("#es-monster-question")
        expect(question).to_contain_text("A monster appeared and is not placed yet: which adventure did Ada place it on?")
        places = page.locator("#es-monster-places button")
        adventures = [c["slot"] for c in service.state()["adventures"]]  # type: ignore[attr-defined]
        expect(places).to_have_count(len(adventures))  # every adventure in play may take it (:391)
        shot(host, "monster-asked")
        before = next(c for c in service.state()["adventures"] if c["slot"] == "2")  # type: ignore[attr-defined]
        tap(host, "#es-monster-2")
        expect(page.locator("#sheet")).to_be_visible()
        page.click("#task-1-peril-more")
        page.click("#task-1-terror-more")
        shot(host, "monster-sheet")
        length = service.state()["history_length"]  # type: ignore[attr-defined]
        page.click("#sheet-ok")
        wait_for(lambda: service.state()["history_length"] > length)  # type: ignore[attr-defined]
        state = service.state()  # type: ignore[attr-defined]
        after = next(c for c in state["adventures"] if c["slot"] == "2")
        assert state["monsters_pending"] == 0
        assert [t for t in after["tasks"] if t["monster"]] != [] and len(after["tasks"]) == len(before["tasks"]) + 1
        expect(question).to_have_count(0)  # placed: asked no more
        expect(page.locator("#es-tasks-2")).to_contain_text("(monster)")
        shot(host, "monster-placed")
        assert host.errors == [], host.errors
    finally:
        host.context.close()
