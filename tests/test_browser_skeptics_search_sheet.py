"""A fresh player's finding on the host's "Search a room" sheet, in real headless Chromium (Debian's /usr/bin/chromium)
at 390x844, against the real app on waitress, the real GameService, engine and SQLite file: its − / + steppers (each
icon's, and the dice from items) stand in one column each, level with their value. Screenshots go to
tests/artifacts/findings/ for a person to look at."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_web import ARTIFACTS, Phone, open_phone
from web_fixtures import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "findings"


def shot(phone: Phone, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_the_search_sheets_steppers_are_aligned_with_each_other_and_their_value(browser: Any, table: Table) -> None:
    host = open_phone(browser, table, host=True)
    try:
        page = host.page
        page.click("#turn-card button[data-legal='attempt:search']")
        expect(page.locator("#sheet")).to_be_visible()
        page.click("#step-eye-plus")
        expect(page.locator("#step-eye")).to_have_text("1")
        rows = page.locator("#sheet .stepper").evaluate_all(
            """(rows) => rows.map((row) => [...row.querySelectorAll("button, b, #bonus-items")].map((n) => {
                 const r = n.getBoundingClientRect();
                 return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height };
               }))"""
        )
        assert len(rows) == 4, rows  # eye, camera, cobweb, and the dice from items
        for row in rows:
            assert len(row) == 3, row  # −, the value, +
            minus, value, plus = row
            assert abs(minus["y"] - plus["y"]) < 1 and abs(value["y"] - minus["y"]) < 1, row  # level with the value
            assert abs(minus["w"] - plus["w"]) < 1 and abs(minus["h"] - plus["h"]) < 1, row  # alike
        for k in range(3):  # each of −, the value and + in one column, row under row
            xs = [row[k]["x"] for row in rows]
            assert max(xs) - min(xs) < 1, (k, xs)
        widths = [row[0]["w"] for row in rows] + [row[2]["w"] for row in rows]
        assert max(widths) - min(widths) < 1 and min(widths) >= 44, widths  # one size, a thumb's
        page.locator("#sheet .stepper").first.scroll_into_view_if_needed()
        shot(host, "search-sheet-steppers")
        host.check_clean()
    finally:
        host.context.close()


def test_the_search_sheets_steppers_are_named_for_what_they_change(browser: Any, table: Table) -> None:
    """A fresh player's finding: the − and + had no name but their sign; each is named for its row ("Eye: one more",
    "Dice from items: one less"), found by its role and name, and counts what it names."""
    host = open_phone(browser, table, host=True)
    try:
        page = host.page
        page.click("#turn-card button[data-legal='attempt:search']")
        expect(page.locator("#sheet")).to_be_visible()
        sheet = page.locator("#sheet")
        for face in ("eye", "camera", "cobweb"):
            sheet.get_by_role("button", name=f"{face.capitalize()}: one more", exact=True).click()
            expect(page.locator(f"#step-{face}")).to_have_text("1")
            sheet.get_by_role("button", name=f"{face.capitalize()}: one less", exact=True).click()
            expect(page.locator(f"#step-{face}")).to_have_text("0")
        sheet.get_by_role("button", name="Dice from items: one more", exact=True).click()
        expect(page.locator("#bonus-items")).to_have_text("1")
        sheet.get_by_role("button", name="Dice from items: one less", exact=True).click()
        expect(page.locator("#bonus-items")).to_have_text("0")
        unnamed = sheet.locator("button").evaluate_all(
            "(bs) => bs.filter((b) => b.offsetParent && /^[\\u2212+]$/.test(b.textContent.trim()) && !b.ariaLabel)"
            ".map((b) => b.id)"
        )
        assert unnamed == [], unnamed
        host.check_clean()
    finally:
        host.context.close()
