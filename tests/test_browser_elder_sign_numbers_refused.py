"""The host's sheet for the numbers printed on a stand-in Ancient One's card (set-ancient-one,
elder-sign-rules.txt:245 the Elder Sign limit, :419-427 the doom track), on a phone (Chromium at 390x844): a refused
entry keeps the sheet open with what was typed and shows the refusal in it; put right, it goes in. Screenshot:
tests/artifacts/elder_sign/numbers-refused.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_browser_elder_sign import shot
from test_browser_elder_sign_tasks import host_phone, stand_in_service
from web_fixtures import Table, serve_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def numbers_table(tmp_path: Path) -> Iterator[Table]:
    """An Elder Sign game with the bundled packs (its Ancient One a stand-in), no numbers copied yet."""
    yield from serve_table(tmp_path, service=stand_in_service(tmp_path), threads=32)


def test_a_refused_ancient_one_entry_keeps_the_sheet_open_with_what_was_typed(
    browser: object, numbers_table: Table
) -> None:
    service = numbers_table.service
    host = host_phone(browser, numbers_table)
    try:
        page = host.page
        page.click("#es-first-ancient")
        expect(page.locator("#sheet")).to_be_visible()
        page.fill("#sheet-body input[name=doom]", "40")  # more than any track (the engine takes 1 to 30)
        page.fill("#sheet-body input[name=elder_signs]", "9")
        page.click("#sheet-ok")
        refused = page.locator("#es-numbers-refused")
        expect(refused).to_be_visible()
        expect(refused).to_contain_text("30")
        assert "=" not in refused.inner_text()
        expect(page.locator("#sheet")).to_be_visible()
        assert page.input_value("#sheet-body input[name=doom]") == "40"
        assert page.input_value("#sheet-body input[name=elder_signs]") == "9"
        assert service.state()["doom_max"] is None
        shot(host, "numbers-refused")
        page.fill("#sheet-body input[name=doom]", "12")
        page.click("#sheet-ok")
        expect(page.locator("#sheet")).to_be_hidden()
        assert (service.state()["doom_max"], service.state()["elder_signs_needed"]) == (12, 9)
    finally:
        host.context.close()


def test_an_investigator_sheet_sent_with_empty_numbers_names_them_by_their_labels(
    browser: object, numbers_table: Table
) -> None:
    """The investigator's numbers sheet (the first one's and a replacement's after a devouring, :411) sent with
    fields left empty says which, by the labels the sheet shows; nothing is sent, what was typed stays."""
    service = numbers_table.service
    host = host_phone(browser, numbers_table)
    try:
        page = host.page
        page.click("#es-first-numbers-1")
        expect(page.locator("#sheet")).to_be_visible()
        labels = page.locator("#sheet-body label.field > span").all_inner_texts()
        page.fill("#sheet-body input[name=stamina]", "5")
        length = service.state()["history_length"]
        page.click("#sheet-ok")
        refused = page.locator("#es-numbers-refused")
        expect(refused).to_be_visible()
        empty = [label.strip() for label in labels if "Stamina" not in label]
        assert len(empty) >= 2  # sanity and clues at least (a replacement's items too)
        for label in empty:
            expect(refused).to_contain_text(label)
        assert "Stamina" not in refused.inner_text()
        expect(page.locator("#sheet")).to_be_visible()
        assert page.input_value("#sheet-body input[name=stamina]") == "5"
        assert service.state()["history_length"] == length
        shot(host, "numbers-empty-named")
    finally:
        host.context.close()


def test_the_ancient_ones_sheet_names_every_field_that_does_not_fit_at_once(
    browser: object, numbers_table: Table
) -> None:
    """A fresh player's finding: doom 0 (out of range) and the Elder Signs left empty named only the empty field; the
    game's refusal now names both, by the labels the sheet shows (sentences.ANCIENT_FIELDS); nothing is entered."""
    from companion.games.elder_sign.sentences import ANCIENT_FIELDS

    service = numbers_table.service
    host = host_phone(browser, numbers_table)
    try:
        page = host.page
        page.click("#es-first-ancient")
        expect(page.locator("#sheet")).to_be_visible()
        labels = [t.strip() for t in page.locator("#sheet-body label.field > span").all_inner_texts()]
        assert labels == list(ANCIENT_FIELDS.values())
        page.fill("#sheet-body input[name=doom]", "0")
        page.click("#sheet-ok")
        refused = page.locator("#es-numbers-refused")
        expect(refused).to_be_visible()
        for label in labels:
            expect(refused).to_contain_text(label)
        expect(refused).to_contain_text("0 is out of range")
        expect(refused).to_contain_text("is empty")
        assert "=" not in refused.inner_text()
        expect(page.locator("#sheet")).to_be_visible()
        assert page.input_value("#sheet-body input[name=doom]") == "0"
        assert service.state()["doom_max"] is None
        shot(host, "numbers-every-field-named")
    finally:
        host.context.close()
