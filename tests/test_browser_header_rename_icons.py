"""Four findings of a fresh player on two phones, in real headless Chromium (Debian's /usr/bin/chromium) at 390x844,
against the real app on waitress, the real GameService, engines and SQLite file:

- the header cut a game's name short ("Among C..."): every game's name now reads whole on a phone;
- the host's "Phones at the table" kept a phone's old name until the Host tab was opened again: a rename (the
  player's own, or the host's) reaches the host's list at once, through the event stream;
- Skeptics' search sheet had icon buttons to tap while the prove sheet had counters: both count the icons the same
  way now (a counter for each icon, the red icons ticked);
- an environment card not filled in yet said "lasts until its objective is met" (the stand-in's duration) before
  the host had said how long the real card lasts: it says the table reads that from the card, then what was told.

Screenshots go to tests/artifacts/findings/ for a person to look at."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_screens import SETUPS
from test_browser_web import ARTIFACTS, Phone, open_phone
from web_fixtures import Table, serve_table

from companion.games.base import module_for
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "findings"


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Table]:
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(5))
    service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 5, "names": ["Hana", "Ben"]})
    yield from serve_table(tmp_path, service=service)


def shot(phone: Phone, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SHOTS / f"{name}.png"))


def header_fits(phone: Phone) -> dict[str, Any]:
    """The title's own width against the width its text needs, and the header's children against the screen."""
    return dict(
        phone.page.evaluate(
            """() => { const t = document.querySelector('#title');
            const right = Math.max(...[...document.querySelectorAll('#top > *')].filter((n) => !n.hidden)
              .map((n) => n.getBoundingClientRect().right));
            const lines = Math.round(t.getBoundingClientRect().height / parseFloat(getComputedStyle(t).lineHeight));
            return {need: t.scrollWidth, has: t.clientWidth, right, screen: window.innerWidth, lines,
              size: parseFloat(getComputedStyle(t).fontSize)}; }"""
        )
    )


def test_every_games_name_reads_whole_in_the_header_of_a_phone(browser: Any, live: Table) -> None:
    viewer = open_phone(browser, live, wait_map=False)
    try:
        for size in ("default", "larger", "largest"):
            if size != "default":
                viewer.page.click("#text-size")  # the player's larger text: the name still reads whole
            for rules, setup in SETUPS.items():
                live.service.new_game(setup)
                title = module_for(rules).title
                expect(viewer.page.locator("#title")).to_have_text(title)
                viewer.page.wait_for_timeout(150)
                shot(viewer, f"header-{size}-{rules}")
                fits = header_fits(viewer)
                assert fits["need"] <= fits["has"], (rules, size, fits)  # nothing cut off
                assert fits["right"] <= fits["screen"], (rules, size, fits)  # every header button on the screen
                if size != "largest":  # a fresh player's finding: "Among Cultists" on two lines at 390 wide
                    assert fits["lines"] == 1, (rules, size, fits)
        viewer.check_clean()
    finally:
        viewer.context.close()


def test_a_rename_reaches_the_hosts_list_of_phones_at_once(browser: Any, live: Table) -> None:
    host = open_phone(browser, live, host=True)
    player = open_phone(browser, live)
    try:
        host.tab("host")
        phones = host.page.locator("#phones")
        expect(phones.locator("li")).to_have_count(2)
        phones.scroll_into_view_if_needed()
        shot(host, "rename-1-host-list")
        # the player names its own phone: the host's list shows it without the host touching anything
        player.tab("host")
        player.page.fill("#phone-form input[name=name]", "Ben's phone")
        player.page.click("#phone-form button")
        expect(phones).to_contain_text("Ben's phone", timeout=1500)
        phones.scroll_into_view_if_needed()
        shot(host, "rename-2-host-list-after-player")
        # the host's rename from another of its pages (the list on this one is not reloaded by its own click)
        ben = next(p for p in live.host().get("/api/host/phones").json()["phones"] if p["name"] == "Ben's phone")
        answer = host.page.evaluate(
            """async (id) => { const s = await (await fetch('/api/session')).json();
            const r = await fetch('/api/host/phones/rename', {method: 'POST', headers: {'Content-Type':
              'application/json', 'X-CSRF-Token': s.csrf}, body: JSON.stringify({id, name: 'Ben at the window'})});
            return r.status; }""",
            ben["id"],
        )
        assert answer == 200
        expect(phones).to_contain_text("Ben at the window", timeout=1500)
        expect(phones).not_to_contain_text("Ben's phone")
        expect(player.page.locator("#phone-form input[name=name]")).to_have_value("Ben at the window")  # its own too
        host.check_clean()
        player.check_clean()
    finally:
        host.context.close()
        player.context.close()


def test_a_host_signed_out_by_a_new_pin_elsewhere_sees_the_sign_in_and_no_refusal(browser: Any, live: Table) -> None:
    """The host's list of phones is the host's alone: a page that stopped being the host (a new PIN chosen on
    another phone) asks again who it is when the phones change, and shows the sign-in instead of asking for it."""
    host = open_phone(browser, live, host=True)
    try:
        host.tab("host")
        expect(host.page.locator("#phones li")).to_have_count(1)
        assert live.host().post("/api/host/change-pin", {"pin": "975310"}).status == 200  # another host's phone
        expect(host.page.locator("#pin-form")).to_be_visible(timeout=1500)
        expect(host.page.locator("#logout")).to_be_hidden()
        expect(host.page.locator("#pin-title")).to_have_text("Host sign-in")
        expect(host.page.locator("#toast-text")).to_contain_text("a new host PIN was chosen")  # said, not only shown
        shot(host, "rename-3-signed-out-by-a-new-pin")
        host.check_clean()  # no 403 for /api/host/phones in the console
    finally:
        host.context.close()


def stepper_ids(phone: Phone) -> list[str]:
    return sorted(phone.page.locator("#sheet [id^=step-][id$=-plus]").evaluate_all("(ns) => ns.map((n) => n.id)"))


def test_search_and_prove_count_the_icons_the_same_way(browser: Any, live: Table) -> None:
    svc = live.service
    host = open_phone(browser, live, host=True)
    viewer = open_phone(browser, live)
    try:
        page = host.page
        page.click("#turn-card button[data-legal='attempt:search']")
        expect(page.locator("#sheet")).to_be_visible()
        searched = stepper_ids(host)
        assert page.locator("#sheet .needpad").count() == 0  # no tap-to-add icon buttons any more
        page.click("#step-eye-plus")
        page.click("#step-eye-plus")
        page.click("#step-camera-plus")
        page.click("#step-eye-minus")
        expect(page.locator("#step-eye")).to_have_text("1")
        expect(page.locator("#need-words")).to_have_text("Needs an eye and a camera: 3 dice.")
        page.check("#red-timer")
        shot(host, "icons-1-search")
        page.click("#sheet-ok")
        expect(page.locator("#v-dice")).to_be_visible()
        assert svc.state()["attempt"]["need"] == "eye:1,camera:1,timer"
        svc.undo()

        # the Ghost Hour draws an environment card not filled in yet: the table reads how long it lasts from the card
        for _ in range(4):
            svc.do("end-round")
        card = svc.state()["question"]["card"]
        lasts = viewer.page.locator(f"#env-lasts-{card}")
        expect(lasts).to_contain_text("read it from your card")
        expect(viewer.page.locator("#env")).not_to_contain_text("objective is met")
        expect(viewer.page.locator("#banner")).to_be_visible()
        viewer.page.click("#banner-ok")  # the Ghost Hour's banner, read
        viewer.page.locator("#env").scroll_into_view_if_needed()
        shot(viewer, "env-lasts-1-not-told")
        svc.do("tell-card", {"effect": "hour"})
        expect(lasts).to_have_text("lasts until the next Ghost Hour")
        viewer.page.locator("#env").scroll_into_view_if_needed()
        shot(viewer, "env-lasts-2-told")

        # the ghost card is not filled in yet: the host says it shows three icon sets, then proves the first
        svc.do("tell-ghost", {"sets": "3"})
        host.tab("game")
        if page.locator("#banner").is_visible():
            page.click("#banner-ok")
        page.click("#prove-pick")
        page.locator("#sheet button", has_text="icon set 1").first.click()
        expect(page.locator("#card-icons-note")).to_contain_text("not filled in yet")
        assert stepper_ids(host) == searched  # the same counters, the same way
        assert page.locator("#sheet .needpad").count() == 0
        page.click("#step-cobweb-plus")
        expect(page.locator("#need-words")).to_contain_text("Needs a cobweb: 3 dice")
        shot(host, "icons-2-prove")
        host.check_clean()
        viewer.check_clean()
    finally:
        host.context.close()
        viewer.context.close()
