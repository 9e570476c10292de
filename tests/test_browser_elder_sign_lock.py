"""A stand-in Mythos card's locked die told during an attempt, on the host's phone (Chromium at 390x844): the card
question offers one button for each green die the player may choose (elder-sign-rules.txt:401 "you get to decide which
die goes on the locked die icon"), and the one tapped leaves the attempt at once (:399 "right away", :403).
Screenshots go to tests/artifacts/elder_sign/."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from games import numbers_copied
from playwright.sync_api import expect
from test_browser_elder_sign import SHOTS
from test_browser_elder_sign_tasks import host_phone
from web_fixtures import Table, serve_table

from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def rolling_table(tmp_path: Path) -> Iterator[Table]:
    """Ada rolled at the adventure in place 4 and failed; the setup's Mythos card (a stand-in) is still asked."""
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(4))
    service.new_game({"rules": "elder-sign", "players": 2, "seed": 11, "names": ["Ada", "Bo"]})
    numbers_copied(service._game, service)
    service.do("move", {"to": "4"})
    service.do("set-tasks", {"adventure": "4", "tasks": "inv:4; lore:2", "ordered": "false"})
    service.do("roll", {"faces": "peril,peril,peril,peril,peril,inv3"})
    yield from serve_table(tmp_path, service=service, threads=32)


def test_the_host_taps_which_green_die_the_mythos_card_locks(browser: object, rolling_table: Table) -> None:
    service = rolling_table.service
    assert service.state()["question"]["kind"] == "mythos"
    host = host_phone(browser, rolling_table)
    try:
        page = host.page
        buttons = page.locator("#es-main button[data-legal=card-did]", has_text="green die locked")
        expect(buttons).to_have_text(
            ["A green die locked: the peril die of the roll", "A green die locked: the 3 investigation die of the roll"]
        )
        buttons.first.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "lock-green-choice-phone.png"))  # as the phone's screen shows it
        buttons.filter(has_text="the 3 investigation die").click()
        expect(page.locator("#es-main button[data-legal=card-did]", has_text="green die locked")).to_have_count(
            0, timeout=5000
        )
        attempt = service.state()["attempt"]
        assert sorted(attempt["last"]) == ["peril"] * 5 and attempt["free"]["green"] == 5
        assert service.state()["locked"] == {"green": 1}
        expect(page.locator("#toast-text")).to_contain_text("A green die is locked on the Mythos card", timeout=5000)
        page.screenshot(path=str(SHOTS / "lock-green-told-phone.png"))
        assert host.errors == []
    finally:
        host.context.close()


def test_the_task_sheet_of_another_card_asks_which_green_die_it_locks(browser: object, rolling_table: Table) -> None:
    """:399 the host enters a stand-in card's tasks with its locked die icon during Ada's attempt: the sheet asks
    which of her green dice goes on it (:401), the one on her marker too though the roll shows its face ("even if it was
    on a Spell card or Investigator marker"), and the one chosen leaves the attempt."""
    service = rolling_table.service
    service.do("card-did", {"effect": "nothing"})  # the setup's Mythos card told
    service.do("roll", {"faces": "peril,peril,inv3,peril", "hold": "peril"})
    choices = [(c["die"], c["from"]) for c in service.state()["attempt"]["lock_choices"]]
    assert choices == [("peril", "roll"), ("inv3", "roll"), ("peril", "focus")]
    last = sorted(service.state()["attempt"]["last"])
    slot = next(c["slot"] for c in service.state()["adventures"] if c["slot"] != "4")
    host = host_phone(browser, rolling_table)
    try:
        page = host.page
        page.click("#es-fix summary")
        page.click(f"#es-fix-list button:has-text('Enter the tasks of the adventure in place {slot}')")
        expect(page.locator("#sheet")).to_be_visible()
        page.click("#task-1-inv-more")
        # the green die is asked only once the icon is told green (:401); its faces said as words, not codes
        expect(page.locator("#es-lock-die")).to_be_hidden()
        page.select_option("#es-lock", "yellow")
        expect(page.locator("#es-lock-die")).to_be_hidden()
        page.select_option("#es-lock", "green")
        expect(page.locator("#es-lock-die")).to_be_visible()
        expect(page.locator("#es-lock-die option")).to_have_text(
            [
                "The peril die of the roll",
                "The 3 investigation die of the roll",
                "The peril die held on the marker (focus)",
            ]
        )
        page.select_option("#es-lock-die", label="The peril die held on the marker (focus)")
        page.locator("#es-lock-die").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "lock-green-sheet-phone.png"))  # as the phone's screen shows it
        page.click("#sheet-ok")
        expect(page.locator("#sheet")).to_be_hidden()
        attempt = service.state()["attempt"]
        assert sorted(attempt["last"]) == last and attempt["held"] == []  # the marker's die went, the roll's stay
        assert service.state()["locked"] == {"green": 1}
        args = service.history()[-1]["command"]["args"]
        assert (args["die"], args["from"]) == ("peril", "focus")
        assert host.errors == []
    finally:
        host.context.close()
