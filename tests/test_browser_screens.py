"""The table's screens, round three (issue 27), in real headless Chromium (Debian's /usr/bin/chromium): the table
display of its own (`?table=1`) at 1280x800 and 1920x1080 for each of the four games, announcements by weight on a
viewer, plain words on every player's screen, Elder Sign's odds before the roll and in Your box, and the first start.
Screenshots go to tests/artifacts/screens/ for a person to look at.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from games import cards_told, numbers_copied
from playwright.sync_api import expect
from test_browser_box import open_box
from test_browser_table import RECORDER
from test_browser_web import ARTIFACTS, PHONE, Phone, open_phone
from web_fixtures import Table, serve_table

from companion.box import Box
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "screens"
TABLET = {"width": 1280, "height": 800}
LARGE = {"width": 1920, "height": 1080}
NAMES = ["Anna", "Ben", "Cleo", "Dan"]
SETUPS: dict[str, dict[str, Any]] = {
    "skeptics": {"players": 3, "board": "asylum", "ghost": "child", "seed": 3, "names": NAMES[:3]},
    "elder-sign": {"rules": "elder-sign", "players": 3, "seed": 3, "names": NAMES[:3]},
    "among-cultists": {
        "rules": "among-cultists",
        "players": 5,
        "cultists": 1,
        "points_needed": 5,
        "seed": 3,
        "names": [*NAMES, "Eve"],
    },
    "spooks": {"rules": "spooks", "players": 4, "names": NAMES},
}
# What a player must never read: a place's id, a task grammar, a doc path, a stand-in's word.
NEVER = re.compile(r"ancient-one|\binv:\d|\b(?:lore|peril|terror):\d|docs/|\.md\b|placeholder", re.IGNORECASE)


@pytest.fixture
def companion(tmp_path: Path) -> Iterator[Table]:
    """A companion with the simulated table (its OLED and hand) and no game yet."""
    from hardware import Table as HardwareTable

    hw = HardwareTable(sim=True, threaded=False, sleep=lambda seconds: None)
    service = GameService(
        GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(4), box=Box(tmp_path / "packs")
    )

    def show(events: Any, state: Any) -> None:
        hw.show(state)
        hw.scheduler.run_pending()

    service.add_listener(show)
    yield from serve_table(tmp_path, service=service, threads=32, hardware=hw)


def shot(phone: Phone, name: str, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def on_screen(phone: Phone, selector: str) -> dict[str, float]:
    """The element's box, which must lie whole inside the first screen (no scrolling)."""
    box = phone.page.locator(selector).bounding_box()
    size = phone.page.viewport_size
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5, (selector, box, size)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, (selector, box, size)
    return dict(box)


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


@pytest.mark.parametrize("size", [TABLET, LARGE], ids=["1280x800", "1920x1080"])
def test_the_table_display_shows_each_game_on_its_first_screen(
    browser: Any, companion: Table, size: dict[str, int]
) -> None:
    """For each of the four games: the clock card (the clock, whose turn, the game's track) and the last
    announcement whole on the first screen; the board or the adventures beside it; no simulated OLED; the tabs
    never over the content; and after a switch of games no screen of the game before."""
    board = open_phone(browser, companion, viewport=size, init_script=RECORDER, wait_map=False, scale=1)
    try:
        board.page.goto(f"{companion.url}/?table=1")
        for rules, setup in SETUPS.items():
            companion.service.new_game(setup)
            if rules == "elder-sign":  # the stand-in cards' numbers, copied before the first turn
                numbers_copied(companion.service._game, companion.service)
                cards_told(companion.service._game, companion.service)  # the setup's Mythos card, before end-turn
            body = {"skeptics": "", "elder-sign": "es", "among-cultists": "ac", "spooks": "sp"}[rules]
            if body:
                expect(board.page.locator("body")).to_have_class(re.compile(rf"\b{body}\b"))
            else:
                expect(board.page.locator("body")).not_to_have_class(re.compile(r"\bother\b"))
            board.page.wait_for_timeout(400)
            if board.page.locator("#banner").is_visible():
                board.page.click("#banner-ok")
            first = {"skeptics": "timer", "elder-sign": "end-turn", "among-cultists": "night-done"}.get(rules)
            if first:  # the last thing told stays in the clock card
                told = companion.service.do(first).events
                story = next(e["story"] for e in told if e.get("story"))
                said = [e["announce"]["title"] for e in told if e.get("announce")]  # the announcement, else the story
                expect(board.page.locator("#last-said")).to_contain_text(said[-1] if said else story[:30])
                if board.page.locator("#banner").is_visible():
                    board.page.click("#banner-ok")
                on_screen(board, "#last-said")
            shot(board, f"table-{rules}-{size['width']}")
            clock = on_screen(board, "#clock-card")
            tabs = board.page.locator("#tabs").bounding_box()
            for card in board.page.locator("#v-game > .card:visible").all():
                box = card.bounding_box()
                assert box is not None
                assert not overlaps(tabs, box), ("the tabs cover a card", box, tabs)
            assert board.page.locator("#hw-card").is_hidden()  # no simulated OLED unless asked for
            main = {"skeptics": ".map-card", "elder-sign": "#es-adventures"}.get(rules)
            if main:
                beside = board.page.locator(main).bounding_box()
                assert beside is not None and beside["x"] >= clock["x"] + clock["width"] - 1, (main, beside, clock)
                assert beside["y"] < size["height"]
        board.check_clean()
    finally:
        board.context.close()


def test_the_simulated_oled_shows_only_when_asked_and_follows_the_game(browser: Any, companion: Table) -> None:
    """With ?oled=1 the table display shows the simulated OLED, and a new game fetches its screen anew (never the
    screen of the game before)."""
    companion.service.new_game(SETUPS["elder-sign"])
    board = open_phone(browser, companion, viewport=TABLET, wait_map=False, scale=1)
    try:
        board.page.goto(f"{companion.url}/?table=1&oled=1")
        expect(board.page.locator("#hw-card")).to_be_visible()
        expect(board.page.locator("#oled")).to_have_attribute("src", re.compile(r"oled\.png"))
        before = board.page.get_attribute("#oled", "src")
        companion.service.new_game(SETUPS["skeptics"])
        expect(board.page.locator("body")).not_to_have_class(re.compile(r"\bes\b"))
        expect(board.page.locator("#oled")).not_to_have_attribute("src", before or "")
        expect(board.page.locator("#last-said")).not_to_contain_text("Mythos")
        board.check_clean()
    finally:
        board.context.close()


def test_a_routine_event_is_a_toast_that_goes_and_the_ghost_hour_asks_for_ok(browser: Any, companion: Table) -> None:
    """The third timer (routine) is a toast shown whole on a viewer, gone by itself, at the bottom above the
    tabs, never over the header and the clock card's state; taps go through it to the host's buttons; the Ghost
    Hour takes the screen until OK is tapped."""
    companion.service.new_game(SETUPS["skeptics"])
    host = open_phone(browser, companion, host=True)
    viewer = open_phone(browser, companion, viewport=PHONE, init_script=RECORDER, scale=1)
    try:
        for _ in range(3):
            companion.service.do("timer")
        toast = viewer.page.locator("#toast.routine")
        expect(toast).to_be_visible()
        expect(toast).to_contain_text("Third timer")
        assert viewer.page.locator("#banner").is_hidden()
        # shown whole, what comes next too (never cut at two lines by an ellipsis)
        expect(toast).to_contain_text("and the turn ends.")
        text = viewer.page.locator("#toast-text")
        assert text.evaluate("(n) => n.scrollHeight <= n.clientHeight + 1"), text.inner_text()
        box = toast.bounding_box()
        assert box is not None
        for top in ("#top", "#clock-card"):  # what a player reads first stays in sight
            top_box = viewer.page.locator(top).bounding_box()
            assert top_box is not None and not overlaps(box, top_box), (top, top_box, box)
        tabs = viewer.page.locator("#tabs").bounding_box()
        assert tabs is not None and box["y"] + box["height"] <= tabs["y"] + 0.5, (box, tabs)
        expect(viewer.page.locator("#say")).to_contain_text("Third timer")  # what a screen reader hears
        shot(viewer, "routine-toast-viewer", full=False)
        expect(host.page.locator("#toast.routine")).to_be_visible()
        assert host.page.evaluate("getComputedStyle(document.getElementById('toast')).pointerEvents") == "none"
        text_box = host.page.locator("#toast-text").bounding_box()
        assert text_box is not None
        under = host.page.evaluate(
            "([x, y]) => !!document.elementFromPoint(x, y).closest('#toast')",
            [text_box["x"] + text_box["width"] / 2, text_box["y"] + text_box["height"] / 2],
        )
        assert under is False  # a tap on the words goes to what is under them
        shot(host, "routine-toast-host", full=False)
        host.page.click("#toast-close")  # the host closes it at once
        expect(host.page.locator("#toast")).to_be_hidden()
        expect(toast).to_be_hidden(timeout=12000)  # by itself
        viewer.tab("log")
        expect(viewer.page.locator("#history")).to_contain_text("third timer")
        viewer.tab("game")
        for _ in range(12):
            if any(e["type"] == "ghost_hour" for e in companion.service.do("end-turn").events):
                break
        banner = viewer.page.locator("#banner")
        expect(banner).to_be_visible()
        expect(viewer.page.locator("#banner-title")).to_have_text("Ghost Hour")
        viewer.page.wait_for_timeout(3000)
        expect(banner).to_be_visible()  # it waits for OK
        shot(viewer, "ghost-hour-viewer", full=False)
        expect(host.page.locator("#banner")).to_be_visible()
        host.page.click("#banner-ok")  # the host taps OK ...
        expect(host.page.locator("#banner")).to_be_hidden()
        expect(banner).to_be_visible()
        companion.service.do("timer")  # ... and plays on: the viewer's banner goes by itself
        expect(banner).to_be_hidden()
        host.check_clean()
        viewer.check_clean()
    finally:
        host.context.close()
        viewer.context.close()


def test_your_box_starts_with_the_evidence_and_the_ghost_sheet_says_so(browser: Any, companion: Table) -> None:
    """First start of Your box: the evidence tab comes first; the ghosts tab and the ghost's sheet say to name the
    evidence first, and the sheet's button takes the owner there."""
    companion.service.new_game(SETUPS["skeptics"])
    host = open_phone(browser, companion, host=True)
    try:
        open_box(host)
        expect(host.page.locator("#box-tabs button").first).to_have_text("Evidence")
        expect(host.page.locator("#box-tab-evidence")).to_have_class(re.compile(r"\bon\b"))
        expect(host.page.locator("#box-list")).to_contain_text("Start here")
        host.page.click("#box-tab-ghosts")
        expect(host.page.locator("#box-evidence-first")).to_contain_text("First the evidence")
        host.page.click("#box-ghost-child button")
        expect(host.page.locator("#ghost-evidence-first")).to_contain_text("name them first")
        assert "not filled in yet" not in host.text("#sheet-body .field:has-text('Séance symbols')")
        shot(host, "box-ghost-evidence-first")
        host.page.click("#ghost-evidence-go")
        expect(host.page.locator("#sheet")).to_be_hidden()
        expect(host.page.locator("#box-tab-evidence")).to_have_class(re.compile(r"\bon\b"))
        host.check_clean()
    finally:
        host.context.close()


def test_elder_sign_in_plain_words_with_its_odds_before_the_roll(browser: Any, companion: Table) -> None:
    """Elder Sign on a host's and a viewer's phone: where everyone stands by name, the odds before the first roll
    said as what "Roll for me" does, an adventure's tasks entered with icon steppers (no task grammar), and no
    "Roll for me" once no dice are left. No player's screen shows an id, a task grammar or a doc path."""
    service = companion.service
    service.new_game(SETUPS["skeptics"])
    host = open_phone(browser, companion, host=True)
    viewer = open_phone(browser, companion, viewport=PHONE, init_script=RECORDER, wait_map=False, scale=1)
    try:
        service.new_game(SETUPS["elder-sign"])
        numbers_copied(service._game, service)  # the stand-in cards' numbers, copied before the first turn
        expect(host.page.locator("body")).to_have_class(re.compile(r"\bes\b"))
        page = host.page
        # the tasks of the adventure in place 3, tapped: 2 investigation and a lore, then a peril
        page.click("#es-fix summary")
        page.locator("#es-fix-list button", has_text="Enter the tasks of").first.click()
        expect(page.locator("#sheet-body")).not_to_contain_text("inv:")
        for _ in range(2):
            page.click("#task-1-inv-more")
        page.click("#task-1-lore-more")
        page.click("#task-add")
        page.click("#task-2-peril-more")
        expect(page.locator("#task-1")).to_contain_text("2 investigation and 1 lore")
        shot(host, "es-task-steppers")
        page.click("#sheet-ok")
        expect(page.locator("#sheet")).to_be_hidden()
        slot = next(c for c in service.state()["adventures"] if c["tasks"][0]["need"] == "inv:2,lore:1")["slot"]
        assert [
            t["need"]
            for t in next(c for c in service.state()["adventures"] if c["slot"] == slot)["tasks"]
            if not t["monster"]
        ] == ["inv:2,lore:1", "peril:1"]
        # to that adventure: before the first roll, the odds as "Roll for me" plays them
        page.click("#es-move")
        page.locator("#sheet-body button", has_text="Go to").nth(int(slot) - 1).click()
        expect(viewer.page.locator("#es-investigators")).to_contain_text(service.state()["where"]["0"])
        expect(page.locator("#es-odds")).to_contain_text('"Roll for me" with 6 dice')
        expect(viewer.page.locator("#es-odds")).to_contain_text("Rolling all 6 dice")  # a player has no such button
        expect(viewer.page.locator("#es-odds")).not_to_contain_text("Roll for me")
        expect(page.locator("#es-roll-me")).to_be_visible()
        shot(host, "es-odds-before-the-roll", full=True)
        # rolls that complete nothing, until no die is left
        for _ in range(8):
            dice = service.state()["next_dice"]
            if not dice or (service.state()["attempt"] and not service.state()["attempt"]["dice_to_roll"]):
                break
            service.do("roll", {"faces": ",".join(f"{c}:terror" for c in dice)})
            while service.state().get("question"):  # the terror is told before the next roll (:202-211)
                service.do("card-did", {"effect": "nothing"})
        # the failed roll's one die left (a clue held keeps the attempt, :217): only a clue or an item's die goes on
        assert sum(service.state()["attempt"]["free"].values()) == 1
        expect(page.locator("#es-no-dice")).to_contain_text(
            "No dice are left to roll: the rolls go on only with a clue"
        )
        expect(page.locator("#es-roll-me")).to_have_count(0)
        shot(host, "es-no-dice-left", full=True)
        viewer.tab("log")
        texts = [viewer.text("#v-log"), viewer.page.locator("#said").inner_text()]
        viewer.tab("game")
        texts.append(viewer.text("#v-game"))
        for text in texts:
            assert not NEVER.search(text), NEVER.search(text)
        shot(viewer, "es-viewer", full=True)
        host.check_clean()
        viewer.check_clean()
    finally:
        host.context.close()
        viewer.context.close()


def test_your_box_offers_elder_signs_cards_and_fills_one_in_by_taps(browser: Any, companion: Table) -> None:
    """Your box has an Elder Sign tab (adventures, Other Worlds, Mythos cards, investigators, Ancient Ones); an
    adventure is filled in with the icon steppers and small numbers, saved with the same checks, and played."""
    companion.service.new_game(SETUPS["skeptics"])
    host = open_phone(browser, companion, host=True)
    try:
        page = host.page
        open_box(host, "es")
        expect(page.locator("#box-es-left")).to_contain_text("not filled in yet")
        for tab in ("adventures", "other_worlds", "mythos", "investigators", "ancient_ones"):
            page.click(f"#box-es-tab-{tab}")
            expect(page.locator("#box-list li.box-entry").first).to_be_visible()
        page.click("#box-es-tab-adventures")
        shot(host, "box-elder-sign")
        page.click("#box-es-adv01 button")
        page.fill("#sheet-body input[name=name]", "The Hedge Maze")
        for _ in range(3):
            page.click("#task-1-inv-more")
        page.click("#task-add")
        page.click("#task-2-lore-more")
        page.click("#task-2-peril-more")
        expect(page.locator("#task-2")).to_contain_text("1 lore and 1 peril")
        page.fill("#sheet-body input[name=reward-elder_signs]", "1")
        page.fill("#sheet-body input[name=penalty-doom]", "1")
        assert "inv:" not in host.text("#sheet-body")
        shot(host, "box-elder-sign-adventure")
        page.click("#sheet-ok")
        expect(page.locator("#sheet")).to_be_hidden()
        expect(page.locator("#box-es-adv01")).to_contain_text("filled in")
        expect(page.locator("#box-es-adv01")).to_contain_text("3 investigation")
        adventure = companion.service.packs_for("elder-sign").adventures["adv01"]
        assert adventure.name == "The Hedge Maze" and [str(t.need) for t in adventure.tasks] == [
            "inv:3",
            "lore:1,peril:1",
        ]
        assert adventure.reward.elder_signs == 1 and adventure.penalty.doom == 1
        host.check_clean()
    finally:
        host.context.close()


def test_elder_sign_has_a_setup_checklist_from_the_text(browser: Any, companion: Table) -> None:
    """A new Elder Sign game shows the host the rules text's setup to tick off (the clock at midnight, the six
    adventures in two rows, the Mythos deck ...), with the first player by name."""
    companion.service.new_game(SETUPS["skeptics"])
    host = open_phone(browser, companion, host=True)
    try:
        companion.service.new_game(SETUPS["elder-sign"])
        card = host.page.locator("#checklist-card")
        expect(card).to_be_visible()
        expect(card).to_contain_text("midnight (XII)")
        expect(card).to_contain_text("two rows of three")
        expect(card).to_contain_text("Anna plays first")
        assert "ghost" not in card.inner_text()  # nothing of Skeptics' setup shows
        assert host.page.locator("#checklist li").count() == 10  # the text's nine steps and the numbers to copy
        expect(card).to_contain_text("Copy the numbers printed on the cards not filled in yet")
        card.screenshot(path=str(SHOTS / "es-setup-checklist.png"))
        host.check_clean()
    finally:
        host.context.close()


def test_the_table_displays_own_link_joins_and_opens_the_table_display(browser: Any, companion: Table) -> None:
    """The host's invitation names the table display's link; a tablet that opens it joins and shows the display."""
    from web_fixtures import JOIN_CODE

    companion.service.new_game(SETUPS["elder-sign"])
    context = browser.new_context(viewport=TABLET)
    try:
        page = context.new_page()
        page.goto(f"{companion.url}/join?code={JOIN_CODE}&table=1")
        page.wait_for_url(f"{companion.url}/?table=1")
        expect(page.locator("body")).to_have_class(re.compile(r"\btable\b"))
        expect(page.locator("#es-adventures li").first).to_be_visible()
    finally:
        context.close()
