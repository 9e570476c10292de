"""A filled-in ghost card and evidence tokens not filled in yet, on the host's phone (Debian's Chromium, 390x844): the
solve asks which token the table turned over, as physical deck mode asks, and the answer decides the match
("If the image on the Evidence Token matches any of the Séance symbols on the Ghosts' Card",
../shared/rules/skeptics-rulebook.txt:175). Screenshot: tests/artifacts/stand_in_evidence/ (gitignored)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_table import dismiss, tap_text
from test_browser_web import ARTIFACTS, PHONE, open_phone
from test_rules_stand_in_evidence import GHOST_ONLY, SYMBOLS
from web_fixtures import Table, serve_table

from companion.history import GameStore
from companion.service import GameService

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "stand_in_evidence"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    service = GameService(GameStore(tmp_path / "games.sqlite"), GHOST_ONLY, rng=random.Random(3))
    service.new_game({"players": 2, "board": "asylum", "ghost": "poltergeist", "seed": 7, "names": ["Anna", "Ben"]})
    service.do("reveal-clue")
    yield from serve_table(tmp_path, service=service, threads=32)


def test_the_host_is_asked_which_evidence_token_came_up(browser: Any, table: Table) -> None:
    host = open_phone(browser, table, host=True)
    try:
        dismiss(host)
        host.page.locator("#turn-table summary").click()
        tap_text(host, "A clue was solved", "#turn-table")
        expect(host.page.locator("#sheet-title")).to_have_text("Which evidence token came up?")
        expect(host.page.locator("#sheet-body")).to_contain_text("not filled in yet: turn over one")
        select = host.page.locator("#sheet-body select[data-card=evidence]")
        options = select.locator("option").all_text_contents()
        assert sum("(a séance symbol of the ghost)" in o for o in options) == len(SYMBOLS)
        assert host.page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        SHOTS.mkdir(parents=True, exist_ok=True)
        host.page.screenshot(path=str(SHOTS / "host-which-token.png"))
        assert table.service.state()["clues_solved"] == 0  # nothing is played until the host answers
        select.select_option(SYMBOLS[0])
        host.page.click("#sheet-ok")
        expect(host.page.locator("#sheet")).to_be_hidden()
        for _ in range(50):
            if table.service.state()["clues_solved"]:
                break
            host.page.wait_for_timeout(100)
        state = table.service.state()
        assert state["evidence"] == [{"symbol": SYMBOLS[0], "name": "Evidence 2", "matched": True}]
        assert state["seance_symbols_matched"] == [SYMBOLS[0]]
        host.page.screenshot(path=str(SHOTS / "host-after.png"))
    finally:
        host.context.close()
