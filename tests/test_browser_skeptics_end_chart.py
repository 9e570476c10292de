"""A fresh player's finding on Skeptics' end card, in real headless Chromium (Debian's /usr/bin/chromium) at 390x844,
against the real app on waitress, the real GameService, engine and SQLite file: the timeline's labels read whole at
the phone's width (was "Room cards le…"). The screenshot goes to tests/artifacts/findings/ for a person to look at."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_elder_sign import wait_for
from test_browser_web import ARTIFACTS, open_phone
from web_fixtures import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "findings"
SVG = "{http://www.w3.org/2000/svg}"


def test_the_end_charts_labels_read_whole_on_a_phone(browser: Any, table: Table) -> None:
    service = table.service
    viewer = open_phone(browser, table)
    try:
        page = viewer.page
        service.do("timer")
        while service.state()["outcome"] is None:  # the room cards run out: the game is lost
            service.do("end-round")
        expect(page.locator("#banner")).to_be_visible()
        page.click("#banner-ok")
        chart = page.locator("#end-timeline")
        expect(chart).to_be_visible()
        wait_for(lambda: chart.evaluate("(img) => img.complete && img.naturalWidth > 0"))
        drawn = ET.fromstring(page.evaluate("(src) => fetch(src).then((r) => r.text())", chart.get_attribute("src")))
        width = float(drawn.get("width") or 0)
        assert width < 390 and abs(width - chart.bounding_box()["width"]) < 2  # type: ignore[index]
        words = [t.text or "" for t in drawn.iter(f"{SVG}text")]
        assert not [w for w in words if "\u2026" in w], words  # nothing cut short
        assert "Room cards left" in words  # the legend
        left = service.state()["room_deck_left"]
        assert f"Room cards left {left}" in " ".join(words), words  # the end label, whole (on two lines if it must)
        chart.scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "skeptics-end-chart.png"))
        chart.screenshot(path=str(SHOTS / "skeptics-end-chart-whole.png"))  # the picture to its legend
        viewer.check_clean()
    finally:
        viewer.context.close()
