"""The phone page in real headless Chromium (Debian's /usr/bin/chromium via Playwright) at 390x844.

Against the real app on waitress, the real GameService, engine and SQLite file. Every page records
all its requests and console messages: nothing may leave the companion and nothing may be logged
as an error. Screenshots of the main views go to tests/artifacts/ (gitignored).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from web_fixtures import (
    HOST_PIN,
    JOIN_CODE,
    Table,
    settled_tray,
    start_table,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = Path(__file__).parent / "artifacts"
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}


@dataclass
class Phone:
    """One browser context (one phone) with everything it requested and logged."""

    context: Any
    page: Any
    origin: str
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def outside(self) -> list[str]:
        return [
            u for u in self.requests if not u.startswith(self.origin + "/") and not u.startswith(("data:", "blob:"))
        ]

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    def tab(self, name: str) -> None:
        self.page.click(f"#tabs button[data-view={name}]")
        self.page.wait_for_selector(f"#v-{name}:not([hidden])")

    def open_wizard(self, rules: str) -> None:
        """The host's new-game wizard, opened on the Host tab with `rules` (a game's id) chosen."""
        self.tab("host")
        form = self.page.locator("#new-form select[name=rules]")
        for _ in range(2):  # a tap lost to the Host tab's re-render under load is tapped again, as a host would
            self.page.click("#open-wizard")
            try:
                form.wait_for(state="visible", timeout=10_000)
                break
            except Exception:  # the tap again; a wizard that never opens fails at select_option below
                self.tab("host")
        self.page.select_option("#new-form select[name=rules]", rules)

    def text(self, selector: str) -> str:
        return str(self.page.inner_text(selector))

    def check_clean(self) -> None:
        assert self.outside() == [], self.outside()
        assert self.errors == [], self.errors


def open_phone(
    browser: Any,
    table: Table,
    host: bool = False,
    viewport: dict[str, int] = PHONE,
    init_script: str | None = None,
    wait_map: bool = True,
    scale: int = 2,
) -> Phone:
    """A phone that joined the table (and signed in as the host with `host`), its requests and errors recorded."""
    context = browser.new_context(
        viewport=viewport, device_scale_factor=scale, is_mobile=viewport is PHONE, has_touch=viewport is PHONE
    )
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    phone = Phone(context, page, table.url)
    context.on("request", lambda r: phone.requests.append(r.url))
    page.on("console", lambda m: phone.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: phone.errors.append(f"page error: {e}"))
    page.goto(f"{table.url}/join?code={JOIN_CODE}")
    page.wait_for_url(f"{table.url}/")
    page.wait_for_selector("#conn.on")
    if wait_map:
        page.wait_for_selector("#map g.room")
    if host:
        phone.tab("host")
        page.fill("#pin-form input[name=pin]", HOST_PIN)
        page.click("#pin-btn")
        page.wait_for_selector("#logout", state="visible")
        phone.tab("game")
        page.wait_for_selector("#turn-card button[data-legal=end-round]", state="visible")
    return phone


def wait_text(phone: Phone, selector: str, text: str, timeout: float = 3000) -> None:
    # Locator assertions poll without eval (the page's CSP forbids eval, and the test keeps the CSP on).
    from playwright.sync_api import expect

    expect(phone.page.locator(selector).first).to_have_text(text, timeout=timeout)


def test_the_state_shows_on_a_phone(browser: Any, live: Table) -> None:
    phone = open_phone(browser, live)
    try:
        state = live.service.state()
        assert phone.text("#clock-label") == state["clock"]
        assert phone.text("#round") == str(state["round"])
        assert phone.text("#hour") == str(state["hour"])
        assert phone.text("#deck-left") == str(state["room_deck_left"])
        assert phone.page.locator("#rooms-unseen .chip").count() == len(state["rooms_unseen"])
        board = live.service.packs.boards[state["board"]]
        assert phone.page.locator("#map g.room").count() == len(board.rooms) + 1  # and the entrance
        assert phone.page.get_attribute("#hand", "transform") == "rotate(0)"
        # Nothing for the host on a viewer's phone.
        assert not phone.page.is_visible("#turn-card button[data-legal=end-round]")
        phone.shot("phone-game")
        phone.tab("ghost")
        assert phone.text("#ghost-name") == state["ghost"]["name"]
        assert phone.page.locator("#icon-sets li.set").count() == len(state["icon_sets"])
        phone.shot("phone-ghost")
        phone.tab("dice")
        phone.page.click("#odds-pad button:has-text('+ eye')")  # no roll under way: the player's own need
        phone.page.click("#odds-form button:has-text('Work out')")
        expect(phone.page.locator("#odds-out")).to_contain_text("%")
        phone.shot("phone-dice")
        phone.tab("log")
        phone.shot("phone-log")
        phone.check_clean()
    finally:
        phone.context.close()


def test_a_host_command_appears_on_a_viewers_phone(browser: Any, live: Table) -> None:
    """Advancing the Clock: the host ends the round; every phone shows the hand at III, round 2."""
    host = open_phone(browser, live, host=True)
    viewer = open_phone(browser, live)
    try:
        host.tab("host")
        host.shot("phone-host")
        host.tab("game")
        host.page.click("#turn-card button[data-legal=end-round]")
        expect(host.page.locator("#sheet-body")).to_contain_text("have not played this round yet")
        host.page.click("#sheet-ok")
        wait_text(viewer, "#clock-label", "III")
        wait_text(viewer, "#round", "2")
        expect(viewer.page.locator("#hand")).to_have_attribute("transform", "rotate(90)")
        assert live.service.state()["clock"] == "III"
        viewer.tab("log")
        # Newest first: the time of day and what happened, in the sentence the terminal's history shows too.
        said = live.service.history()[-1]["text"]
        assert "moves to III" in said and "=" not in said
        expect(viewer.page.locator("#history li").first).to_have_text(re.compile(r"^\d\d:\d\d" + re.escape(said) + "$"))
        # Undo from the host's Log tab takes it back on the viewer's phone too (after asking once).
        host.tab("log")
        host.page.click("#log-undo")
        expect(host.page.locator("#sheet-body")).to_contain_text(said)
        host.page.click("#sheet-ok")
        wait_text(viewer, "#round", "1")
        assert live.service.state()["round"] == 1
        host.check_clean()
        viewer.check_clean()
    finally:
        host.context.close()
        viewer.context.close()


# Records what the page asks of the phone: vibrations and the chime's tones (an init script, so the
# page's own CSP stays on).
SENSES = """
window.__vibrations = [];
navigator.vibrate = (pattern) => { window.__vibrations.push(pattern); return true; };
window.__tones = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() { const o = super.createOscillator(); const start = o.start.bind(o);
    o.start = (...a) => { window.__tones += 1; return start(...a); }; return o; }
};
"""


def test_the_ghost_hour_banner_reaches_a_viewer(browser: Any, live: Table) -> None:
    """Quick Reference, "XII (The Ghost Hour)": the fourth end of round strikes XII on every phone.

    How fast it gets there is measured by benchmarks/bench_web.py (the Ghost Hour fan-out), not asserted here.
    """
    for _ in range(3):
        live.service.do("end-round", source="test")
    viewer = open_phone(browser, live, init_script=SENSES)
    host = live.host()
    try:
        wait_text(viewer, "#clock-label", "IX")
        assert viewer.page.is_hidden("#banner")
        viewer.page.click("#top h1")  # a first touch: phones allow vibration and sound only after one
        reply = host.post("/api/command", {"command": "end-round"})
        viewer.page.wait_for_selector("#banner:not([hidden])", timeout=10_000)
        assert reply.status == 200
        struck = next(e for e in reply.json()["events"] if e["type"] == "ghost_hour")
        # the environment card is drawn first, then the room card (skeptics-rulebook.txt:204-207): the room is said second
        assert f"room {struck['room']}" in viewer.text("#banner-env")
        assert viewer.page.get_attribute("#banner", "data-event-id") == str(struck["id"])
        viewer.shot("phone-ghost-hour")
        assert viewer.page.evaluate("() => window.__vibrations") == [[400, 150, 400, 150, 800]]
        assert viewer.page.evaluate("() => window.__tones") == 4
        viewer.page.click("#banner-ok")
        assert viewer.page.is_hidden("#banner")
        wait_text(viewer, "#clock-label", "XII")
        assert f"room {struck['room']}" in viewer.text("#ghost-line").lower()
        assert viewer.page.locator("#map g.room.ghost").count() == 1
        # Undo takes the banner's hour back; muted, the next strike vibrates but plays no chime.
        viewer.page.click("#mute")
        expect(viewer.page.locator("#mute")).to_have_text("Sound off")
        assert host.post("/api/undo").status == 200
        wait_text(viewer, "#clock-label", "IX")
        assert host.post("/api/command", {"command": "end-round"}).status == 200
        viewer.page.wait_for_selector("#banner:not([hidden])", timeout=10_000)
        assert len(viewer.page.evaluate("() => window.__vibrations")) == 2
        assert viewer.page.evaluate("() => window.__tones") == 4
        viewer.check_clean()
    finally:
        viewer.context.close()


def test_a_viewer_cannot_act(browser: Any, live: Table) -> None:
    viewer = open_phone(browser, live)
    try:
        before = (live.service.state(), live.service.history())
        viewer.tab("host")
        assert viewer.page.is_visible("#pin-form")
        for selector in (
            "#turn-card button[data-legal=end-round]",
            "#redo-btn",
            "#new-form",
            "#turn-card",
            "#undo-btn",
        ):
            assert not viewer.page.is_visible(selector), selector
        viewer.check_clean()
        # A forged POST from the viewer's own page, with the page's CSRF token: still not the host.
        status = viewer.page.evaluate(
            """async () => {
                const s = await (await fetch('/api/session')).json();
                const r = await fetch('/api/command', {method: 'POST', headers: {'Content-Type': 'application/json',
                    'X-CSRF-Token': s.csrf}, body: JSON.stringify({command: 'end-round', args: {}})});
                return [r.status, (await r.json()).error];
            }"""
        )
        assert status[0] == 403 and "host" in status[1]
        no_token = viewer.page.evaluate(
            """async () => (await fetch('/api/undo', {method: 'POST', headers: {'Content-Type': 'application/json'},
                body: '{}'})).status"""
        )
        assert no_token == 403
        assert (live.service.state(), live.service.history()) == before
    finally:
        viewer.context.close()


def test_another_site_cannot_make_a_hosts_browser_act(browser: Any, live: Table) -> None:
    """Cross-site request forgery: a page elsewhere posts to the companion with the host's cookies."""
    host = open_phone(browser, live, host=True)
    try:
        before = (live.service.state(), live.service.history())
        # Another origin (same machine, another port) served by a tiny second app.
        from flask import Flask

        from web.server import ServerThread

        evil = Flask("evil")
        target = live.url

        @evil.get("/")
        def attack() -> str:
            return (
                "<form id=f method=post action='" + target + "/api/command' enctype='text/plain'>"
                '<input name=\'{"command":"end-round","x":"\' value=\'"}\'></form>'
                "<script>fetch('" + target + "/api/undo', {method:'POST', credentials:'include', mode:'no-cors'})"
                ".finally(() => document.getElementById('f').submit())</script>"
            )

        with ServerThread(evil, threads=2) as other:
            page = host.context.new_page()
            page.goto(other.url + "/")
            page.wait_for_url(f"{target}/api/command")
            assert "403" in page.content() or "token" in page.content() or "another site" in page.content()
            page.close()
        assert (live.service.state(), live.service.history()) == before
    finally:
        host.context.close()


def test_the_host_enters_dice_by_hand(browser: Any, live: Table) -> None:
    """Action 3: Search: the host taps the search token's icons, then the faces the real dice show."""
    host = open_phone(browser, live, host=True)
    try:
        host.page.click("#turn-card button[data-legal='attempt:search']")
        host.page.click("#step-eye-plus")
        expect(host.page.locator("#need-words")).to_have_text("Needs an eye: 3 dice.")
        host.page.click("#bonus-glass")  # a magnifying glass: the companion adds the die
        expect(host.page.locator("#need-words")).to_have_text("Needs an eye: 3 dice + glass.")
        host.page.click("#sheet-ok")
        expect(host.page.locator("#attempt")).to_contain_text("Needs an eye")
        attempt = live.service.state()["attempt"]
        assert (
            attempt is not None
            and attempt["dice"] == 4
            and attempt["counted"] == "3 dice + magnifying glass: 4 to roll"
        )
        expect(host.page.locator("#odds-now")).to_contain_text("%")
        host.tab("game")
        host.page.click("#roll-tap2")
        for face in ("camera", "cobweb", "eye", "cobweb"):
            host.page.click(f"#face-{face}")
        host.page.click("#faces-entered button[aria-label='take back eye']")  # a wrong tap, taken back
        host.page.click("#face-camera")
        assert host.page.locator("#faces-entered button").count() == 4
        host.shot("phone-dice-entry")
        host.page.click("#sheet-ok")
        expect(host.page.locator("#sheet")).to_be_hidden()
        # The host's own toast tells the result of the dice, as every phone's does.
        expect(host.page.locator("#toast")).to_contain_text(
            "Rolled camera, cobweb, cobweb, camera on the blue clue dice: nothing counts"
        )
        history = live.service.history()
        assert history[-1]["command"] == {"name": "roll", "args": {"faces": "camera,cobweb,cobweb,camera"}}
        # A wrong face count is refused with the service's message shown on the page, the game unchanged.
        before = live.service.state()
        host.page.click("#roll-tap2")
        host.page.click("#face-eye")
        host.page.click("#sheet-ok")
        host.page.wait_for_selector("#toast.bad:not([hidden])")
        assert "=" not in host.text("#toast")
        assert live.service.state() == before
        assert host.outside() == []
    finally:
        host.context.close()


def test_the_page_installs_and_works_on_a_tablet(browser: Any, live: Table) -> None:
    tablet = open_phone(browser, live, viewport=TABLET)
    try:
        manifest = tablet.page.evaluate("async () => (await fetch('/manifest.webmanifest')).json()")
        assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
        assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
        scope = tablet.page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
        assert scope == live.url + "/"
        # The page asked to keep the screen on (headless Chromium may refuse, but it must have asked).
        expect(tablet.page.locator("body")).to_have_attribute("data-wake", re.compile("held|refused"))
        tablet.shot("tablet-game")
        tablet.check_clean()
    finally:
        tablet.context.close()


def test_the_simulated_table_and_the_tray_show_on_the_page(browser: Any, tmp_path: Path) -> None:
    import numpy as np

    from hardware import Table as HardwareTable
    from vision.reader import DieReading

    hw = HardwareTable(sim=True, threaded=False, sleep=lambda seconds: None)
    frame = np.full((240, 320, 3), 60, dtype=np.uint8)
    readings = [
        DieReading(3, (40, 60, 50, 50), 0.95, "blue"),
        DieReading(None, (160, 60, 50, 50), 0.3, "blue"),
        DieReading(None, (240, 60, 50, 50), 0.6, "green", cocked=True),
    ]
    tray = settled_tray(frame, readings)
    t = start_table(tmp_path, hardware=hw, tray=tray)
    t.service.roll_from_tray(readings, auto_roll=False)  # as the tray loop hands it on: read in this game
    hw.show(t.service.state())
    hw.scheduler.run_pending()
    phone = open_phone(browser, t, host=True)
    try:
        expect(phone.page.locator("#hw-card")).to_be_visible()
        mark = {0: "XII", 90: "III", 180: "VI", 270: "IX"}[round(hw.hand_angle) % 360]
        expect(phone.page.locator("#hw-angle")).to_have_text(f"at {mark}")  # the hand's mark, not its angle
        expect(phone.page.locator("#oled")).to_have_attribute("src", re.compile(r"/api/hardware/oled\.png"))
        phone.tab("dice")
        expect(phone.page.locator("#tray-dice .chip")).to_have_count(3)
        expect(phone.page.locator("#tray-dice .chip.red").first).to_have_text("? · blue")
        expect(phone.page.locator("#tray-dice .chip.red").last).to_have_text("cocked: reroll it · green")  # issue 26
        expect(phone.page.locator("#tray-photo")).to_be_hidden()  # folded away under the dice
        phone.page.click("#tray-card summary")
        expect(phone.page.locator("#tray-photo")).to_be_visible()
        phone.shot("phone-tray")
        phone.check_clean()
    finally:
        phone.context.close()
        t.server.stop()
        t.service.close()
        hw.close()


def test_the_simulations_dice_tab_lists_the_dice_of_the_roll_under_way(browser: Any, tmp_path: Path) -> None:
    """Issue 26: --sim's tray shows the dice the attempt under way throws (vision.sim_tray), read by the real
    reader through the real tray watcher, and the Dice tab lists those and no others."""
    from web_fixtures import make_service

    from vision.sim_tray import ThrowCamera, Thrower
    from vision.tray import TrayWatcher

    service = make_service(tmp_path / "games.sqlite")
    service.do("attempt", {"action": "search", "need": "eye:1"})
    clock = [0.0]
    watcher = TrayWatcher(now=lambda: clock[0])
    thrower = Thrower(service.next_throw)
    camera = ThrowCamera(thrower, kinds={"clue": "blue", "key": "green", "summon": "red"}, seed=4)
    thrower.throw()  # a tap on "Throw the dice (simulated tray)"
    for _ in range(8):
        clock[0] += 0.2
        watcher.feed(camera.read())
    assert watcher.last_readings is not None and len(watcher.last_readings) == 3
    # as companion serve hands every reading to the service (dice.auto_roll off: the host books it on the page)
    service.roll_from_tray(watcher.last_readings, why="settled", auto_roll=False)
    t = start_table(tmp_path, tray=watcher, service=service)
    phone = open_phone(browser, t, host=True)
    try:
        phone.tab("dice")
        expect(phone.page.locator("#tray-dice .chip")).to_have_count(3)
        for chip in phone.page.locator("#tray-dice .chip").all():  # the clue dice by their faces, not their pips
            expect(chip).to_have_text(re.compile(r"^(eye|camera|cobweb) · blue$"))
        expect(phone.page.locator("#tray-use")).to_be_visible()
        phone.page.click("#tray-card summary")
        phone.shot("phone-sim-tray")
        phone.check_clean()
    finally:
        phone.context.close()
        t.server.stop()
        t.service.close()


def test_physical_decks_the_host_enters_the_cards_drawn(browser: Any, live: Table) -> None:
    """Physical deck mode: at the Ghost Hour the host enters the environment and room cards drawn."""
    live.service.new_game({"players": 3, "board": "asylum", "ghost": "child", "seed": 5, "physical": True})
    for _ in range(3):
        live.service.do("end-round", source="test")
    host = open_phone(browser, live, host=True)
    try:
        card = sorted(live.service.packs.environment_deck("asylum"))[0]
        host.page.click("#turn-card button[data-legal=end-round]")
        expect(host.page.locator("#sheet-title")).to_have_text("End the round now?")
        host.page.click("#sheet-ok")
        expect(host.page.locator("#sheet-title")).to_have_text("What did you draw?")
        # The cards filled in come first, then those not filled in yet, said so and numbered 1, 2, 3 in each deck
        offered = host.page.locator("#sheet select[data-card=environment] option").all_inner_texts()[1:]
        marked = [o for o in offered if o.endswith(" (not filled in yet)")]
        assert marked and offered[len(offered) - len(marked) :] == marked, offered
        for deck in ("Asylum card", "Common card"):
            numbers = sorted(int(o.split()[2]) for o in marked if o.startswith(deck))
            assert numbers == list(range(1, len(numbers) + 1)) and numbers, (deck, offered)
        host.page.select_option("#sheet select[data-card=room]", "8")
        host.page.select_option("#sheet select[data-card=environment]", card)
        expect(host.page.locator("#sheet-body")).to_contain_text("The room card for the Ghost Hour")  # why each card
        host.shot("phone-host-physical")
        host.page.click("#sheet-ok")
        wait_text(host, "#clock-label", "XII")
        state = live.service.state()
        assert state["ghost_room"] == 8 and state["rooms_revealed"] == [8]
        in_force = live.service.packs.environment[card]
        assert in_force.placeholder  # a card not filled in yet is in force: its name, and that its effect is the card's
        expect(host.page.locator("#env")).to_contain_text(in_force.name)
        expect(host.page.locator("#env")).to_contain_text("Not filled in yet: read the effect from your card.")
        assert live.service.history()[-1]["command"] == {
            "name": "end-round",
            "args": {"environment": card, "room": "8"},
        } or live.service.history()[-1]["command"] == {"name": "end-round", "args": {"room": "8", "environment": card}}
        # The first tap was answered "which cards?" (a 400 the page turns into the question); nothing else.
        assert len(host.errors) == 1 and "400" in host.errors[0], host.errors
        assert host.outside() == []
    finally:
        host.context.close()


def test_while_wrong_pins_hold_sign_in_the_host_types_the_code_the_companion_shows(
    browser: Any, tmp_path: Path
) -> None:
    """Issue 25: 20 wrong PINs from four addresses; the page asks for the code on the companion's screen."""
    from web_fixtures import Client

    from tests.test_web_locks import Screen

    screen = Screen()
    table = start_table(tmp_path, hardware=screen)
    try:
        for number in range(2, 6):
            guesser = Client(table.url, source=f"127.0.0.{number}").join()
            for attempt in range(5):
                guesser.post("/api/host/login", {"pin": f"00{attempt:02d}"})
        for viewport, name in ((PHONE, "phone"), ({"width": 1280, "height": 800}, "table")):
            phone = open_phone(browser, table, viewport=viewport)
            phone.tab("host")
            page = phone.page
            assert page.is_hidden("#table-code")
            page.fill("#pin-form input[name=pin]", HOST_PIN)
            page.click("#pin-btn")
            page.wait_for_selector("#table-code", state="visible")
            expect(page.locator("#pin-error")).to_contain_text("code on the companion's screen")
            phone.shot(f"sign-in-code-{name}")
            page.fill("#table-code", screen.shown[-1][1].removeprefix("Code "))
            page.click("#pin-btn")
            page.wait_for_selector("#logout", state="visible")
            assert page.is_hidden("#table-code")
            assert phone.outside() == []  # (the console has the 429 itself, and the stand-in screen's missing picture)
            phone.context.close()
            screen.shown.clear()
            table.app.extensions["skeptics_web"].sign_in.offer()  # the next phone reads a fresh code
    finally:
        table.server.stop()
        table.service.close()


def test_a_damaged_box_file_is_named_in_the_hosts_banner(browser: Any, tmp_path: Path) -> None:
    """Issue 25: the companion plays on with the bundled ghosts, and the page says which file and how to mend it."""
    import random

    from companion.box import Box
    from companion.history import GameStore
    from companion.service import GameService

    folder = tmp_path / "data" / "packs"
    folder.mkdir(parents=True)
    (folder / "ghosts.toml").write_text("[[ghosts]\nid = 'child'\n", encoding="utf-8")
    box = Box(folder)
    service = GameService(GameStore(tmp_path / "games.sqlite"), box.open_packs(), rng=random.Random(4), box=box)
    service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 4})
    table = start_table(tmp_path, service=service)
    try:
        phone = open_phone(browser, table, host=True)  # the banner sits at the top of the game view
        banner = phone.page.locator("#problems")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("packs/ghosts.toml")
        expect(banner).to_contain_text("Bring back a box")
        assert str(tmp_path) not in phone.text("#problems")
        phone.shot("damaged-box-banner")
        phone.check_clean()
    finally:
        table.server.stop()
        table.service.close()
