"""Elder Sign on two phones (Chromium at 390x844): the host starts it in the wizard and plays by taps through two
midnights; the other phone follows the clock, the doom track, the Mythos banner and the rolls. Nothing a player
reads holds a command's spelling or a line number of the rules text. Screenshots go to tests/artifacts/elder_sign/.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_table import COMMAND_WORDS, RECORDER
from test_browser_web import ARTIFACTS, PHONE, Phone, open_phone
from web_fixtures import Table, serve_table

from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "elder_sign"
LINE_NUMBER = re.compile(r"\(:\d+|:\d{2,3}\b")


@pytest.fixture
def skeptics_table(tmp_path: Path) -> Iterator[Table]:
    """A companion with a Skeptics game under way: the host starts Elder Sign from the wizard."""
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(4))
    service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 3})
    service.do("end-turn")
    yield from serve_table(tmp_path, service=service, threads=32)


def shot(phone: Phone, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def wait_for(check: Any, timeout: float = 5.0) -> None:
    import time

    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "the companion did not take the roll"
        time.sleep(0.05)


def dismiss(phone: Phone) -> None:
    """A banner covers the page until it is tapped away, as at the table."""
    if phone.page.locator("#banner").is_visible():
        phone.page.click("#banner-ok")


def tap(phone: Phone, selector: str) -> None:
    """Tap a button; a banner that comes up meanwhile (it covers the page until tapped away) is tapped away first."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(6):
        dismiss(phone)
        try:
            phone.page.click(selector, timeout=2500)
            return
        except PlaywrightTimeout:
            continue
    phone.page.click(selector)


def copy_numbers(page: Any, numbers: dict[str, str] | None = None) -> None:
    """The host copies the numbers printed on each card not filled in yet, as the turn panel offers them first."""
    printed = numbers or {"doom": "12", "elder_signs": "10", "sanity": "5", "stamina": "5", "clues": "1"}
    while page.locator("#es-numbers-first").count():
        page.locator("#es-roll button").first.click()
        for name, value in printed.items():
            box = page.locator(f"#sheet-body input[name={name}]")
            if box.count():
                box.fill(value)
        page.click("#sheet-ok")
        page.wait_for_timeout(300)


def said(phone: Phone) -> list[str]:
    return [t for t in phone.page.locator("#said li").all_inner_texts() if t.strip()]


def tell_questions(table: Table, host: Any) -> None:
    """The host tells each open card question "that was all": while one is open the turn's end is not offered
    (elder-sign-rules.txt:219, :323), and a Mythos card asked at midnight holds the next turn's move (:311-323)."""
    page = host.page
    while table.service.state()["question"] is not None:
        length = table.service.state()["history_length"]
        expect(page.locator("#es-main button[data-legal=end-turn]")).to_have_count(0)
        tap(host, "#es-main button[data-legal=card-did]:has-text('that was all')")
        wait_for(lambda length=length: table.service.state()["history_length"] > length)


def test_an_elder_sign_game_through_two_midnights_on_two_phones(browser: Any, skeptics_table: Table) -> None:
    table = skeptics_table
    host = open_phone(browser, table, host=True)
    viewer = open_phone(browser, table, viewport=PHONE, init_script=RECORDER, wait_map=False, scale=1)
    page = host.page
    try:
        host.tab("host")
        page.click("#open-wizard")
        page.select_option("#new-form select[name=rules]", "elder-sign")
        expect(page.locator("#new-form select[name=board]")).to_be_hidden()
        inputs = page.locator("#names input")
        while inputs.count() > 2:
            page.click("#drop-player")
        inputs.nth(0).fill("Ada")
        inputs.nth(1).fill("Bo")
        shot(host, "01-wizard")
        page.click("#new-start")
        page.click("#sheet-ok")  # leave the Skeptics game under way (it stays in the history)
        expect(page.locator("#es-turn-title")).to_have_text("Ada's turn", timeout=5000)
        state = table.service.state()
        assert state["rules"] == "elder-sign" and state["player_names"] == ["Ada", "Bo"]
        expect(viewer.page.locator("#es-line")).to_contain_text("Ada", timeout=5000)
        expect(viewer.page.locator("nav#tabs button[data-view=ghost]")).to_be_hidden()
        # a card not filled in yet is listed by the name its sentences and buttons say: its place, not its pack name
        first = state["adventures"][0]["slot"]
        expect(viewer.page.locator(f"#es-adv-{first} b")).to_have_text(f"The adventure in place {first}")
        assert not re.search(r"Adventure \d", viewer.page.locator("#es-adventures").inner_text())
        shot(viewer, "02-viewer-start")
        # the setup's Mythos card is a stand-in: it played nothing, and the host taps what the real card did
        assert state["doom"] == 0 and state["question"]["part"] == "immediate"
        expect(page.locator("#es-card-question")).to_contain_text("not filled in yet")
        shot(host, "02b-host-card-question")
        # an amount is a stepper sent once; a double tap on "Tell" counts once (PLAYTEST.md finding 1)
        doom_row = page.locator("#es-main .row", has=page.locator("button[data-effect=doom]"))
        doom_row.locator("button", has_text="+").click()
        expect(doom_row.locator("b.amount")).to_have_text("+2")
        length = table.service.state()["history_length"]
        doom_row.locator("button[data-effect=doom]").dblclick()
        # the bundled Ancient One is a stand-in whose track length is not entered: the count alone, no made-up limit
        assert state["stand_ins"]["ancient_numbers"]
        expect(viewer.page.locator("#es-doom")).to_have_text("Doom 2", timeout=5000)
        expect(page.locator("#es-main button[data-effect=doom]")).to_have_count(0, timeout=5000)
        assert table.service.state()["history_length"] == length + 1 and table.service.state()["doom"] == 2
        shot(host, "02c-host-card-question-told")
        page.locator("#es-main button[data-legal=card-did]", has_text="that was all").click()
        expect(page.locator("#es-card-question")).to_have_count(0, timeout=5000)
        assert table.service.state()["question"] is None
        # the numbers printed on the cards not filled in yet come before the first turn: no move, no roll till then
        expect(page.locator("#es-numbers-first")).to_contain_text("Before the first turn")
        shot(host, "02d-host-numbers-first")
        copy_numbers(page)
        expect(viewer.page.locator("#es-doom")).to_have_text("Doom 2 of 12", timeout=5000)
        assert table.service.state()["numbers_first"] == []

        midnights = state["midnights"]
        turns = 0
        while table.service.state()["midnights"] < midnights + 2 and turns < 12:
            turns += 1
            turn = table.service.state()["turn"]
            tell_questions(table, host)  # a Mythos card drawn at midnight is told before the next turn moves (:323)
            tap(host, "#es-move")
            page.locator("#sheet-body button", has_text="adventure").first.click()
            roll, enter = page.locator("#es-roll-me"), page.locator("#es-enter-tasks")
            expect(roll.or_(enter)).to_be_visible()
            if enter.is_visible():  # a card not filled in yet: the host enters the tasks printed on it first
                enter.click()
                for _ in range(3):
                    page.click("#task-1-inv-more")
                page.click("#sheet-ok")
            expect(roll).to_be_visible()
            length = table.service.state()["history_length"]
            if turns == 1:  # the real dice, tapped die by die
                tap(host, "#es-roll-tap")
                dice = len(table.service.state()["next_dice"])
                for i in range(1, dice + 1):
                    page.locator(f"#sheet-body button[id^='es-die-{i}-']").first.click()
                expect(page.locator("#es-faces-words")).not_to_contain_text("?")
                page.click("#sheet-ok")
            else:
                tap(host, "#es-roll-me")
            wait_for(lambda length=length: table.service.state()["history_length"] > length)
            dismiss(host)
            if turns == 1:
                shot(host, "03-host-roll")
                shot(viewer, "04-viewer-roll")
            tell_questions(table, host)  # each card question told before the turn ends (:219, :323)
            tap(host, "#es-main button[data-legal=end-turn]")
            expect(viewer.page.locator("#es-line")).to_contain_text(f"Turn {turn + 1}", timeout=5000)
            if table.service.state()["outcome"]:
                break
            if viewer.page.locator("#banner").is_visible():
                shot(viewer, f"05-banner-turn-{turns}")
                viewer.page.click("#banner-ok")
        state = table.service.state()
        assert state["midnights"] >= midnights + 2 or state["outcome"], state
        expect(viewer.page.locator("#clock-label")).to_have_text(state["clock"])
        expect(viewer.page.locator("#es-doom")).to_have_text(f"Doom {state['doom']} of 12")
        texts = said(viewer)
        assert any("Midnight" in t or "Mythos" in t for t in texts), texts
        for text in texts:
            for word in COMMAND_WORDS:
                assert word not in text, (word, text)
            assert not LINE_NUMBER.search(text), text
            assert not re.search(r"\b[a-z_]+=\S", text), text
        tap(viewer, "#tabs button[data-view=log]")  # midnight takes the screen until OK: tapped away first
        expect(viewer.page.locator("#history li").first).to_be_visible()
        texts += [*viewer.page.locator("#history li").all_inner_texts(), viewer.page.locator("#v-game").inner_text()]
        for text in texts:
            assert "placeholder" not in text.lower(), text
        shot(viewer, "06-viewer-log")
        host.check_clean()
        viewer.check_clean()
    finally:
        host.context.close()
        viewer.context.close()
