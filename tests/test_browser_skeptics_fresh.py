"""What a fresh Skeptics player found, in real headless Chromium (Debian's /usr/bin/chromium) at 390x844, against the
real app on waitress and the real GameService on an SQLite file: the Fire asks where the board's fire icons are and
a fight names its fire's space (skeptics-rulebook.txt:286-287), the summon sheet throws --sim's tray, a door picked
leaves the roll's buttons in sight, and the host's end card lists no cards to fill in.

Screenshots go to tests/artifacts/skeptics-fresh/ for a person to look at."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_sim_throw import served  # noqa: F401 (the fixture: companion serve --sim, its loop running)
from test_browser_web import ARTIFACTS, Phone, open_phone
from web_fixtures import HOST_PIN, Table

from companion.serve import Companion

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "skeptics-fresh"


def shot(phone: Phone, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    phone.page.screenshot(path=str(path))
    return path


def physical_game(table: Table) -> None:
    """A game with the real decks (the host names each card drawn), two players, the Asylum and the Child Ghost."""
    table.service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 4, "physical": True})


def to_ghost_hour(table: Table, card: str, room: int = 8) -> None:
    """Three rounds, then the fourth's end: the Ghost Hour draws `card` and room card `room`."""
    for _ in range(3):
        table.service.do("end-round")
    table.service.do("end-round", {"room": str(room), "environment": card})


def test_the_fire_asks_where_the_fire_icons_are_and_each_fight_names_its_space(browser: Any, table: Table) -> None:
    """Fire Card: 'one Fire Token is placed onto each Fire icon on the game board. Players entering or sharing a space
    with a Fire cannot take any further actions until the fire is extinguished' (skeptics-rulebook.txt:286): no count
    of the companion's own (not the box's 4, :36); the host taps the spaces, and a fight names the fire it fights."""
    physical_game(table)
    to_ghost_hour(table, "fire")
    phone = open_phone(browser, table, host=True)
    try:
        page = phone.page
        expect(page.locator("#fires-left")).to_have_count(0)  # nothing burns before the host said where
        question = page.locator("#turn-main #card-question")
        expect(question).to_have_text(
            "The Fire card puts a fire token on each fire icon of the board: on which spaces of your board are the "
            "fire icons?"
        )
        expect(page.locator("#turn-main")).not_to_contain_text("4 fire")
        expect(page.locator("#turn-main [data-legal^='attempt']").filter(has_text="fire")).to_have_count(0)
        question.scroll_into_view_if_needed()
        shot(phone, "fire-asked")
        page.locator("#turn-main button", has_text="Where the fire icons are").click()
        expect(page.locator("#sheet")).to_be_visible()
        expect(page.locator("#fire-words")).to_have_text("Tap each space of your board that shows a fire icon.")
        shot(phone, "fire-sheet")
        page.click("#fire-space-3")
        page.click("#fire-space-12")
        expect(page.locator("#fire-space-3")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#fire-words")).to_contain_text("2 fire tokens: on room 3")
        shot(phone, "fire-sheet-picked")
        page.click("#sheet-ok")
        expect(page.locator("#sheet")).to_be_hidden()
        state = table.service.state()
        assert state["fire_spaces"] == [3, 12] and state["fires"] == 2
        fights = page.locator("#turn-main button", has_text="Fight the fire in")
        expect(fights).to_have_count(2)
        expect(fights.first).to_contain_text("room 3")
        expect(fights.last).to_contain_text("room 12")
        expect(page.locator("#fires-left")).to_contain_text("2 fires still burn (room 3")
        fights.first.scroll_into_view_if_needed()
        shot(phone, "fire-fights")
        fights.last.click()
        expect(page.locator("#attempt")).to_contain_text("Fight the fire in room 12")
        assert table.service.state()["attempt"]["space"] == 12
        shot(phone, "fire-fight-roll")
        phone.check_clean()
    finally:
        phone.context.close()


def test_the_summon_sheet_throws_the_simulated_tray_and_the_reading_is_the_summon(
    browser: Any,
    served: Companion,  # noqa: F811
) -> None:
    """--sim's "Throw the dice (simulated tray)" on the summon sheet, as on the other roll cards: "the player attempting
    the summon would roll the appropriate number of dice" (skeptics-rulebook.txt:243), one summon die per solved clue;
    the tray reads the throw and it is played as the summon (source "tray"), one tap one throw."""
    served.game.do("end-round")  # III: no summon at the Ghost Hour (skeptics-rulebook.txt:243)
    for _ in range(2):  # two solved clues: two summon dice
        served.game.do("reveal-clue")
        served.game.do("solve")
    while served.game.state().get("question"):
        served.game.do("tell-ghost", {"seance": "no"})
    assert served.game.next_throw() == ("summon", "summon")
    phone = sim_phone(browser, served)
    try:
        page = phone.page
        page.locator("#turn-main button", has_text="Summon the ghost").click()
        throw = page.locator("#sheet #dice-throw")
        expect(throw).to_have_text(page.locator("#sim-throw-btn").inner_text())
        expect(throw).to_have_text("Throw the dice (simulated tray)")
        expect(page.locator("#sheet button.primary:visible")).to_have_count(1)  # the throw, not "Roll for me"
        shot(phone, "summon-sheet-sim")
        throw.click()
        expect(page.locator("#sheet")).to_be_hidden()
        for _ in range(300):  # the tray settles, is read and its reading played as the summon (30 s at most)
            summons = [h for h in served.game.history() if h["command"]["name"] == "summon"]
            if summons:
                break
            page.wait_for_timeout(100)
        assert [h["source"] for h in summons] == ["tray"]
        assert len(summons[0]["command"]["args"]["faces"].split(",")) == 2
        page.wait_for_timeout(500)
        shot(phone, "summon-thrown")
        phone.check_clean()
    finally:
        phone.context.close()


def sim_phone(browser: Any, companion: Companion) -> Phone:
    return open_phone(browser, SimpleNamespace(url=f"http://127.0.0.1:{companion.port}"), host=True)  # type: ignore[arg-type]


def in_sight(phone: Phone, selector: str) -> bool:
    """The element lies wholly inside the phone's screen (390x844); on the page (not a sheet, which covers them),
    above the tab bar."""
    box = phone.page.locator(selector).bounding_box()
    tabs = phone.page.locator("#tabs").bounding_box()
    sheet = selector.startswith("#sheet")
    bottom = tabs["y"] if tabs and not sheet else phone.page.viewport_size["height"]
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= bottom


def comes_in_sight(phone: Phone, selector: str, seconds: float = 5.0) -> bool:
    """The element is in sight (in_sight) once the page has settled: the page's own scroll to it is smooth, and on a
    loaded machine it ends later than any fixed wait; a button that never comes in sight still fails."""
    for _ in range(int(seconds * 10)):
        if in_sight(phone, selector):
            return True
        phone.page.wait_for_timeout(100)
    return in_sight(phone, selector)


def test_after_a_door_is_picked_the_next_step_is_in_sight(browser: Any, served: Companion) -> None:  # noqa: F811
    """Action 2: Unlock: 'Players may use an Unlock Action to unlock a door by rolling three green Key Dice'
    (skeptics-rulebook.txt:123): the host picks the door under the map, starts the roll, and the roll's buttons (and
    --sim's throw, the highlighted one) are on the screen, not below it."""
    phone = sim_phone(browser, served)
    try:
        page = phone.page
        phone.tab("dice")  # the Dice tab left scrolled down (the odds pad, the tray), as a player leaves it
        page.mouse.wheel(0, 3000)
        page.wait_for_timeout(300)
        shot(phone, "door-dice-tab-left-scrolled")
        phone.tab("game")
        page.click("#unlock-pick")
        page.locator("#map-choices button").first.click()
        expect(page.locator("#sheet")).to_be_visible()
        shot(phone, "door-picked-sheet")
        assert in_sight(phone, "#sheet-ok"), "the sheet's Start the roll is off the screen"
        if page.locator("#step-key-plus").count():  # a door not filled in yet: the keys printed at it
            page.click("#step-key-plus")
        page.click("#sheet-ok")
        expect(page.locator("#v-dice")).to_be_visible()
        expect(page.locator("#attempt-host #roll-now")).to_be_visible()
        page.wait_for_timeout(600)  # any smooth scroll has ended
        shot(phone, "door-roll")
        expect(page.locator("#sim-throw-btn")).to_be_enabled()
        page.wait_for_timeout(300)
        shot(phone, "door-roll-sim")
        for button in ("#attempt-host #roll-now", "#attempt-host #roll-tap", "#sim-throw-btn"):
            assert comes_in_sight(phone, button), f"{button} is off the screen"
        phone.tab("game")  # back to the turn panel: its roll buttons, not the map where the door was picked
        expect(page.locator("#turn-roll #roll-me")).to_be_visible()
        page.wait_for_timeout(300)
        shot(phone, "door-roll-game-tab")
        assert comes_in_sight(phone, "#turn-roll #roll-me") and in_sight(phone, "#turn-roll #roll-tap2")
        phone.check_clean()
    finally:
        phone.context.close()


def answer_questions(table: Table) -> None:
    """A stand-in environment card lasts until met as the rulebook says when the card does not ("If it is not stated
    on the card, then the card lasts until the conditions are met", skeptics-rulebook.txt:280); the real ghost card
    shows one icon set; its Ghost Hour ability did something the table plays (skeptics-rulebook.txt:209)."""
    while question := table.service.state().get("question"):
        if question["kind"] == "environment":
            table.service.do("tell-card", {"effect": "nothing"})
        elif question["ask"] == "sets":
            table.service.do("tell-ghost", {"sets": "1"})
        elif question["ask"] == "ability":
            table.service.do("tell-ghost", {"ability": "nothing"})
        else:
            table.service.do("tell-ghost", {question["ask"]: "no"})


def test_the_end_card_lists_no_card_to_fill_in(browser: Any, table: Table) -> None:
    """Game End: Winning (skeptics-rulebook.txt:313): the game is over, no card is played any more; the cards in
    force not filled in yet are one short line, not a "Fill it in from the card" button each."""
    physical_game(table)
    stand_ins = ["common3", "common4", "common5"]
    for room, card in enumerate(stand_ins, start=8):
        to_ghost_hour(table, card, room)
        answer_questions(table)
    table.service.do("prove", {"set": "1"})
    assert table.service.state()["outcome"] == "won"
    phone = open_phone(browser, table)
    try:
        page = phone.page
        phone.tab("host")  # the host signs in (open_phone's host waits for a turn panel, which an ended game has not)
        page.fill("#pin-form input[name=pin]", HOST_PIN)
        page.click("#pin-btn")
        page.wait_for_selector("#logout", state="visible")
        phone.tab("game")
        expect(page.locator("#end-card")).to_be_visible()
        expect(page.locator("#end-new")).to_be_visible()  # the host's end card
        expect(page.locator("#env [id^='fill-env-']")).to_have_count(0)
        expect(page.locator("#env button")).to_have_count(0)
        expect(page.locator("#hands button")).to_have_count(0)  # nobody gets an item after the end either
        line = page.locator("#env-unfilled-end")
        expect(line).to_have_text(
            f"{len(stand_ins)} cards in force at the end were not filled in yet (Host, Your box)."
        )
        line.scroll_into_view_if_needed()
        shot(phone, "end-env")
        page.evaluate("window.scrollTo(0, 0)")
        shot(phone, "end-card")
        phone.check_clean()
    finally:
        phone.context.close()


def test_sending_no_dice_on_the_summon_sheet_says_so_by_the_button(browser: Any, table: Table) -> None:
    """A summon with the real dice: 'The player attempting the summon would roll the appropriate number of dice'
    (skeptics-rulebook.txt:243); "Send the dice" with no face tapped says, next to the button, what to do."""
    table.service.do("end-round")  # III: no summon at the Ghost Hour
    table.service.do("reveal-clue")
    table.service.do("solve")
    answer_questions(table)
    phone = open_phone(browser, table, host=True)
    try:
        page = phone.page
        page.locator("#turn-main button", has_text="Summon the ghost").click()
        page.click("#sheet #dice-tap")
        page.click("#sheet-ok")
        expect(page.locator("#sheet-body .warn")).to_have_text("0 of 1 die: tap the faces the dice show first.")
        expect(page.locator("#sheet")).to_be_visible()
        assert in_sight(phone, "#sheet-body .warn")
        shot(phone, "summon-send-no-dice")
        phone.check_clean()
    finally:
        phone.context.close()


def test_the_win_said_under_the_header_reads_as_a_sentence(browser: Any, table: Table) -> None:
    """A fresh player's finding: the line of what was last said read "You won!: ..." (the title's own "!" and a
    colon). A title that ends a sentence is followed by the text; any other keeps its colon."""
    physical_game(table)
    for room, card in enumerate(["common3", "common4", "common5"], start=8):
        to_ghost_hour(table, card, room)
        answer_questions(table)
    phone = open_phone(browser, table, host=True)
    try:
        page = phone.page
        table.service.do("prove", {"set": "1"})  # seen live: the phone tells the win as it comes
        assert table.service.state()["outcome"] == "won"
        said = page.locator("#last-said")
        expect(said).to_contain_text("You won!", timeout=5000)
        text = said.inner_text()
        assert "!:" not in text and ": :" not in text and "You won! " in text, text
        if page.locator("#banner-ok").is_visible():
            page.click("#banner-ok")
        shot(phone, "win-said")
    finally:
        phone.context.close()
