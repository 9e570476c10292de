"""What a fresh Skeptics player found, in real headless Chromium (Debian's /usr/bin/chromium) at 390x844, against the
real app on waitress and the real GameService on an SQLite file: the setup checklist of a stand-in ghost ("Ghost 1")
says what the new-game wizard said of it (companion.words.card_note: play a Ghost card of your own); a failed search
says so at once, in the toast (whole) and the Log, with what happens next ("Failing Search Actions",
skeptics-rulebook.txt:152-154), a failed unlock too (:130-132); after the last roll the Dice tab says no roll is left;
and the roll's dice show their colour beside their face, in words and a swatch
("three blue Clue Dice and three green Key Dice", skeptics-rulebook.txt:83).

Screenshots go to tests/artifacts/skeptics-ghost-search-dice/ for a person to look at."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from playwright.sync_api import expect
from test_browser_web import ARTIFACTS, PHONE, Phone, open_phone
from web_fixtures import Table, serve_table, settled_tray

from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "skeptics-ghost-search-dice"

# the colour a chip's swatch is painted in (its ::before), and its border's
SWATCH = "(n) => [getComputedStyle(n, '::before').backgroundColor, getComputedStyle(n).borderTopColor]"


def shot(phone: Phone, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    phone.page.screenshot(path=str(path))
    return path


@pytest.fixture
def named(tmp_path: Path) -> Iterator[Table]:
    """A companion with a Skeptics game of Ada, Bo and Cy against the Child Ghost."""
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(5))
    service.new_game({"players": 3, "board": "asylum", "ghost": "child", "seed": 5, "names": ["Ada", "Bo", "Cy"]})
    yield from serve_table(tmp_path, service=service)


def test_a_stand_in_ghosts_setup_line_says_what_the_wizard_said_of_it(browser: Any, table: Table) -> None:
    """The host picks "Ghost 1 (a stand-in)" in the wizard, which says to play a Ghost card of one's own; the setup
    checklist then says the same words and asks for the table's card, never "the Ghost 1 card" (no card of the box
    is called so)."""
    host = open_phone(browser, table, host=True)
    page = host.page
    try:
        host.open_wizard("skeptics")
        page.select_option("#new-form select[name=ghost]", "ghost4")
        note = page.locator("#ghost-note")
        expect(note).to_be_visible()
        said = note.inner_text()
        assert "play any Ghost card of your own" in said, said
        page.click("#new-start")
        expect(page.locator("#checklist-card")).to_be_visible()
        line = page.locator("#checklist li", has_text="ghost pawn")
        expect(line).to_have_count(1)
        # the fixture's game (the Child Ghost) shows its checklist until the new game's state reaches the page
        expect(line).not_to_contain_text("Child Ghost")
        text = line.inner_text().strip()
        assert text.startswith(said), (text, said)  # the wizard's words, from the one place
        assert "Ghost 1 card" not in text and "Put your card and the ghost pawn within reach" in text, text
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        line.scroll_into_view_if_needed()
        shot(host, "setup-ghost-1")
        # a card of the box (the Child Ghost) is still named as it is
        table.service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 3})
        expect(page.locator("#checklist li", has_text="ghost pawn")).to_contain_text(
            "Put the Child Ghost card and the ghost pawn within reach"
        )
        host.check_clean()
    finally:
        host.context.close()


# whether an element shows all its text (nothing cut by a line clamp or an ellipsis)
def swatch_of(chip: Any) -> list[str]:
    """The chip's swatch and border colours once the page has settled: a chip re-rendered by the state's push reads
    no colour for a moment on a loaded machine; a chip that never gets one still fails its assertion."""
    for _ in range(50):
        colours = list(chip.evaluate(SWATCH))
        if colours[0] not in ("", "rgba(0, 0, 0, 0)", "transparent"):
            return colours
        chip.page.wait_for_timeout(100)
    return list(chip.evaluate(SWATCH))


WHOLE = "(n) => n.scrollHeight <= n.clientHeight + 1 && n.scrollWidth <= n.clientWidth + 1"


def tap_roll(host: Phone, faces: tuple[str, ...], dice: str = "", name: str = "") -> None:
    """Tap the real dice's faces in the sheet; `dice` is what its title names ("3 blue clue dice"); `name` the
    screenshot of the sheet with the faces tapped."""
    host.tab("game")
    host.page.click("#roll-tap2")
    if dice:
        expect(host.page.locator("#sheet")).to_contain_text(f"{dice} show")
    for face in faces:
        host.page.click(f"#face-{face}")
    if name:
        shot(host, name)
    host.page.click("#sheet-ok")
    expect(host.page.locator("#sheet")).to_be_hidden()


def test_a_failed_search_says_so_at_once_with_what_happens_next(browser: Any, named: Table) -> None:
    """Each failed search roll: "The search fails" leads the toast on the host's phone and a player's, shown whole
    (never cut by an ellipsis), and the Log, with the actions left to search again keeping the dice that count; the
    last one says no action is left and the token stays face down, before the turn ends. The sheet the faces are
    tapped in and the roll's sentence name the dice's colour (skeptics-rulebook.txt:83). After the last roll the
    Dice tab says no roll is left this turn, never a next roll and its 0.0 %."""
    service = named.service
    host = open_phone(browser, named, host=True)
    viewer = open_phone(browser, named)
    try:
        service.do("attempt", {"action": "search", "need": "eye:2,camera:1"})
        tap_roll(host, ("eye", "cobweb", "cobweb"), dice="3 blue clue dice", name="search-tap-sheet")
        first = "The search fails: Ada has 2 actions left to search again, rolling only the dice not kept."
        rolled = "Rolled eye, cobweb, cobweb on the blue clue dice: keeping eye."
        for phone in (host, viewer):
            toast = phone.page.locator("#toast-text")
            expect(toast).to_contain_text(first)
            expect(toast).to_contain_text(rolled)
            assert toast.inner_text().startswith(first), toast.inner_text()
            assert toast.evaluate(WHOLE), toast.inner_text()  # all of it shows: no line clamp, no ellipsis
            box = toast.bounding_box()
            assert box is not None and box["height"] > 3 * 16, box  # more than the two lines it was cut to
        shot(host, "search-failed-toast")
        tap_roll(host, ("cobweb", "cobweb"), dice="2 blue clue dice")
        tap_roll(host, ("cobweb", "cobweb"))
        last = "The search fails: Ada has no action left to search again; the search token stays face down."
        expect(viewer.page.locator("#toast")).to_contain_text(last)
        assert viewer.page.locator("#toast-text").evaluate(WHOLE), viewer.text("#toast-text")
        shot(viewer, "search-failed-last-toast")
        assert service.state()["current_player"] == 0  # said before the turn ends, not by its end
        assert service.state()["attempt_rolls_left"] == 0
        viewer.tab("dice")
        card = viewer.page.locator("#attempt")
        expect(card.locator("#attempt-next")).to_have_text("Ada\u2019s turn: no roll left this turn.")
        expect(card).not_to_contain_text("Next roll")
        expect(card).not_to_contain_text("%")  # no chance of a roll that cannot be made
        card.scroll_into_view_if_needed()
        shot(viewer, "search-failed-dice-tab")
        viewer.tab("log")
        log = viewer.page.locator("#v-log")
        expect(log).to_contain_text(first)
        expect(log).to_contain_text("Ada has 1 action left to search again")
        expect(log).to_contain_text(last)
        shot(viewer, "search-failed-log")
        host.check_clean()
        viewer.check_clean()
    finally:
        host.context.close()
        viewer.context.close()


def test_a_failed_unlock_says_so_at_once_as_a_search_does(browser: Any, named: Table) -> None:
    """A failed unlock roll ("Failing Unlock Actions", skeptics-rulebook.txt:130-132) says so first in the toast,
    whole, with the actions left to try the door again, as a failed search does; the sheet and the sentence name the
    green key dice (:83, :123)."""
    service = named.service
    host = open_phone(browser, named, host=True)
    try:
        door = next(
            a for a in service.state()["legal"] if a["name"] == "attempt" and a["args"].get("action") == "unlock"
        )
        service.do("attempt", {**door["args"], "need": "key:3"})
        tap_roll(host, ("key", "blank", "blank"), dice="3 green key dice", name="unlock-tap-sheet")
        toast = host.page.locator("#toast-text")
        expect(toast).to_contain_text(
            "The unlock fails: Ada has 2 actions left to try the door again, rolling only the dice not kept. "
            "Rolled key, blank, blank on the green key dice: keeping key."
        )
        assert toast.inner_text().startswith("The unlock fails"), toast.inner_text()
        assert toast.evaluate(WHOLE), toast.inner_text()
        shot(host, "unlock-failed-toast")
        host.check_clean()
    finally:
        host.context.close()


def test_the_rolls_dice_show_their_colour_in_words_and_a_swatch(browser: Any, tmp_path: Path) -> None:
    """The roll card: the dice kept are the clue dice's blue (the word and a swatch), the next roll "2 blue clue
    dice"; an unlock's "green key dice". The tray's chips: each die read, its face and its colour, with a swatch."""
    from vision.reader import DieReading

    readings = [DieReading(3, (40, 60, 50, 50), 0.95, "blue"), DieReading(5, (160, 60, 50, 50), 0.95, "green")]
    tray = settled_tray(np.full((240, 320, 3), 60, dtype=np.uint8), readings)
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(5))
    service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 5, "names": ["Ada", "Bo"]})
    tables = serve_table(tmp_path, service=service, tray=tray)
    table = next(tables)
    host = open_phone(browser, table, host=True)
    page = host.page
    try:
        service.roll_from_tray(readings, auto_roll=False)  # read in this game, not played
        service.do("attempt", {"action": "search", "need": "eye:2,camera:1"})
        service.do("roll", {"faces": "eye,cobweb,cobweb"})
        host.tab("dice")
        kept = page.locator("#attempt-kept .chip")
        expect(kept).to_have_count(1)
        expect(kept).to_have_text("\u25c9 eye \u00b7 blue")
        swatch, border = swatch_of(kept)
        assert swatch == border and swatch not in ("rgba(0, 0, 0, 0)", "transparent"), swatch
        expect(page.locator("#attempt-next")).to_have_text("Next roll: 2 blue clue dice.")
        chips = page.locator("#tray-dice .chip")
        expect(chips).to_have_count(2)
        expect(chips.first).to_contain_text("blue")
        expect(chips.last).to_contain_text("green")
        blue, green = swatch_of(chips.first)[0], swatch_of(chips.last)[0]
        assert blue == swatch and green != blue and green not in ("rgba(0, 0, 0, 0)", "transparent"), (blue, green)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        page.locator("#attempt").scroll_into_view_if_needed()
        shot(host, "roll-dice-colours")
        service.do("end-turn")
        door = next(
            a for a in service.state()["legal"] if a["name"] == "attempt" and a["args"].get("action") == "unlock"
        )
        service.do("attempt", {**door["args"], "need": "key:2"})  # a door not filled in yet: its keys are told
        expect(page.locator("#attempt-next")).to_contain_text("green key dice.")
        service.do("roll", {"faces": "key,blank,blank"})
        expect(kept).to_have_text("\u2625 key \u00b7 green")
        assert swatch_of(kept)[0] == green
        shot(host, "roll-dice-colours-key")
        host.check_clean()
    finally:
        host.context.close()
        next(tables, None)
