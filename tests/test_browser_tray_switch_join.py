"""Three findings of a fresh player on two phones, in real headless Chromium (Debian's /usr/bin/chromium) at 390x844,
against the real app on waitress, the real GameService, engine and SQLite file:

- the Dice tray card once offered "Use these dice" for a reading already played, or read before the companion's own
  "Roll for me", and booked those dice as a new roll (one throw counted twice); the card now says the reading was
  used (or is from before the roll under way) and offers no button, and the service refuses it anyway;
- a phone on Skeptics' Ghost tab kept showing it after the host switched to Elder Sign (no tab lit);
- the first page says where the join code is.

Screenshots go to tests/artifacts/findings/ for a person to look at."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_web import ARTIFACTS, PHONE, Phone, open_phone
from web_fixtures import Table, serve_table, start_table

from companion.games.base import TrayDie
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "findings"


class Tray:
    """The tray camera's part the page reads (vision.tray_loop.TrayLoop's shape): its last reading, no photo."""

    def __init__(self) -> None:
        self.dice: list[TrayDie] = []
        self.at = 0.0

    def last_reading(self) -> dict[str, Any]:
        return {"dice": [{"color": d.color, "value": d.value} for d in self.dice], "at": self.at, "error": None}


@pytest.fixture
def tray() -> Tray:
    return Tray()


@pytest.fixture
def live(tmp_path: Path, tray: Tray) -> Iterator[Table]:
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(5))
    service.new_game(
        {"players": 2, "board": "asylum", "ghost": "child", "special_items": 3, "seed": 5, "names": ["Hana", "Ben"]}
    )
    yield from serve_table(tmp_path, service=service, tray=tray)


def shot(phone: Phone, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SHOTS / f"{name}.png"))


def read(live: Table, tray: Tray, pips: list[int]) -> None:
    """The tray reads dice: as companion serve does, the reading goes to the service (dice.auto_roll off)."""
    tray.dice = [TrayDie("blue", p) for p in pips]
    live.service.roll_from_tray(tray.dice, why="settled", auto_roll=False)


def rolls(live: Table) -> list[dict[str, Any]]:
    return [h for h in live.service.history() if h["command"]["name"] == "roll"]


def test_a_tray_reading_is_used_once_and_never_after_roll_for_me(browser: Any, live: Table, tray: Tray) -> None:
    live.service.do("attempt", {"action": "search", "need": "camera:3"})
    read(live, tray, [2, 1, 1])
    host = open_phone(browser, live, host=True)
    try:
        page = host.page
        host.tab("dice")
        expect(page.locator("#tray-dice .chip")).to_have_count(3)
        expect(page.locator("#tray-use")).to_be_visible()
        expect(page.locator("#tray-note")).to_be_hidden()
        shot(host, "tray-1-read")
        page.click("#tray-use")
        expect(page.locator("#tray-note")).to_have_text("Played as a roll. Throw the dice again for the next roll.")
        expect(page.locator("#tray-use")).to_be_hidden()
        expect(page.locator("#tray-fix")).to_be_hidden()  # nor a correction with dice already played
        assert len(rolls(live)) == 1 and rolls(live)[-1]["source"] == "tray"
        assert rolls(live)[-1]["command"]["args"]["faces"] == "eye,eye,eye"
        shot(host, "tray-2-used")
        # the dice are thrown again and read; then the host taps "Roll for me" instead of using them
        read(live, tray, [4, 6, 2])
        host.tab("game")
        host.tab("dice")
        expect(page.locator("#tray-use")).to_be_visible()
        page.click("#roll-now")
        expect(page.locator("#tray-note")).to_contain_text("Read before the last roll or move")
        expect(page.locator("#tray-use")).to_be_hidden()
        assert len(rolls(live)) == 2 and rolls(live)[-1]["source"] == "web"
        shot(host, "tray-3-after-roll-for-me")
        host.check_clean()
        # a page that still shows the button (an older copy of the page) is refused by the companion, nothing played
        answer = page.evaluate(
            """async () => { const s = await (await fetch('/api/session')).json();
            const r = await fetch('/api/tray/use', {method: 'POST', headers: {'Content-Type': 'application/json',
              'X-CSRF-Token': s.csrf}, body: JSON.stringify({reading: 2})});
            return [r.status, (await r.json()).error]; }"""
        )
        assert answer[0] == 409 and "throw again" in answer[1], answer
        assert len(rolls(live)) == 2
    finally:
        host.context.close()


def test_an_empty_tray_says_so_without_contradicting_itself(browser: Any, live: Table, tray: Tray) -> None:
    read(live, tray, [])
    viewer = open_phone(browser, live)
    try:
        viewer.tab("dice")
        expect(viewer.page.locator("#tray-dice")).to_contain_text("The tray was empty when last read, at ")
        expect(viewer.page.locator("#tray-at")).to_have_text("")
        assert "No dice read yet" not in viewer.text("#tray-card")
        shot(viewer, "tray-empty")
    finally:
        viewer.context.close()


def test_the_tray_card_says_the_tray_is_empty_once_the_dice_are_taken_out(browser: Any, tmp_path: Path) -> None:
    """The real tray watcher, wired to the service as companion serve does (dice.auto_roll off): two dice come to
    rest and are shown; then they are taken out, and the card on the open Dice tab says the tray is empty."""
    import numpy as np

    from vision.reader import DieReading
    from vision.tray import TrayWatcher

    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(5))
    service.new_game({"players": 2, "board": "asylum", "ghost": "child", "special_items": 3, "seed": 5})
    dice = [DieReading(3, (40, 60, 50, 50), 0.95, "blue"), DieReading(5, (160, 60, 50, 50), 0.95, "blue")]
    clock = [0.0]

    def now() -> float:
        clock[0] += 0.2
        return clock[0]

    watcher = TrayWatcher(
        now=now,
        reader=lambda frame, settings: list(dice) if frame.mean() < 100 else [],  # dark frame: the dice lie in it
        when_settled=lambda readings: service.roll_from_tray(readings, why="settled", auto_roll=False),
    )
    with_dice, empty = np.full((240, 320, 3), 60, dtype=np.uint8), np.full((240, 320, 3), 200, dtype=np.uint8)
    for _ in range(8):
        watcher.feed(with_dice)
    t = start_table(tmp_path, service=service, tray=watcher)
    host = open_phone(browser, t, host=True)
    try:
        host.tab("dice")
        expect(host.page.locator("#tray-dice .chip")).to_have_count(2)
        chips = host.page.locator("#tray-dice .chip").all_inner_texts()
        assert all(c.endswith(" · blue") and not c[0].isdigit() for c in chips), chips  # Skeptics' faces, not pips
        for _ in range(8):  # the dice are taken out: the tray moves, then lies still and empty
            watcher.feed(empty)
        assert watcher.reads == 2 and service.tray_reading()["dice"] == []
        expect(host.page.locator("#tray-dice")).to_contain_text("The tray was empty when last read, at ", timeout=12000)
        expect(host.page.locator("#tray-dice .chip")).to_have_count(0)
        expect(host.page.locator("#tray-use")).to_be_hidden()
        expect(host.page.locator("#tray-fix")).to_be_hidden()
        assert service.history() == []  # nothing was played, nothing told
        shot(host, "tray-taken-out")
    finally:
        host.context.close()
        t.server.stop()
        t.service.close()


def test_every_phone_takes_the_new_games_tabs_when_the_host_switches(browser: Any, live: Table) -> None:
    host = open_phone(browser, live, host=True)
    player = open_phone(browser, live)
    try:
        player.tab("ghost")
        expect(player.page.locator("#v-ghost")).to_be_visible()
        host.tab("dice")
        live.service.new_game({"rules": "elder-sign", "players": 2, "seed": 3})  # the host's switch
        for phone in (player, host):
            expect(phone.page.locator("#title")).to_have_text("Elder Sign")
            expect(phone.page.locator("#v-game")).to_be_visible()
            expect(phone.page.locator("#v-ghost")).to_be_hidden()
            expect(phone.page.locator("#v-dice")).to_be_hidden()
            expect(phone.page.locator("#tabs button.on")).to_have_attribute("data-view", "game")
            expect(phone.page.locator("#tabs button[data-view=ghost]")).to_be_hidden()
        shot(player, "switch-player-elder-sign")
        # a view Elder Sign has too stays where the player is
        player.tab("log")
        live.service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 9})
        expect(player.page.locator("#title")).to_have_text("Skeptics")
        expect(player.page.locator("#tabs button.on")).to_have_attribute("data-view", "log")
        expect(player.page.locator("#tabs button[data-view=ghost]")).to_be_visible()
        player.check_clean()
        host.check_clean()
    finally:
        player.context.close()
        host.context.close()


def test_the_first_page_says_where_the_join_code_is(browser: Any, live: Table) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(live.url + "/")
        expect(page.locator("#join")).to_be_visible()
        expect(page.locator("#join")).to_contain_text("shown on the companion's screen, beside its QR code")
        expect(page.locator("#join")).to_contain_text("on the Host tab")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "join-first-page.png"))
    finally:
        context.close()
