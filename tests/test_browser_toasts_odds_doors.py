"""Three findings of new players, in real headless Chromium (Debian's /usr/bin/chromium) at 390x844, against the real
app on waitress, the real GameService, engine and SQLite file: a toast never hides the top of the page and is read
to a screen reader; the Dice tab's odds calculator follows the roll under way (and says when the numbers are the
player's own); the doors the host may pick are buttons with their rooms' names, not only the small drawing.
Screenshots go to tests/artifacts/findings/ for a person to look at."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_screens import overlaps
from test_browser_web import ARTIFACTS, Phone, open_phone
from web_fixtures import Table, serve_table

from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "findings"


@pytest.fixture
def named(tmp_path: Path) -> Iterator[Table]:
    """A companion with a Skeptics game of Ada, Bo and Cy."""
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(5))
    service.new_game(
        {"players": 3, "board": "asylum", "ghost": "child", "special_items": 3, "seed": 5, "names": ["Ada", "Bo", "Cy"]}
    )
    yield from serve_table(tmp_path, service=service)


def shot(phone: Phone, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SHOTS / f"{name}.png"))


def box_of(phone: Phone, selector: str) -> dict[str, float]:
    box = phone.page.locator(selector).bounding_box()
    assert box is not None, selector
    return dict(box)


def test_one_toast_at_a_time_above_the_tabs_read_out_and_closed(browser: Any, named: Table) -> None:
    viewer = open_phone(browser, named)
    try:
        page = viewer.page
        viewer.tab("dice")
        expect(page.locator("#odds-whose")).to_contain_text("No roll under way")  # the calculator is loaded
        page.click("#odds-form button:has-text('Work out')")  # nothing tapped yet: refused
        toast = page.locator("#toast")
        expect(page.locator("#toast.bad")).to_be_visible()
        expect(page.locator("#say-now")).to_have_text("Tap the icons first.")  # a refusal is read out at once
        box, tabs = box_of(viewer, "#toast"), box_of(viewer, "#tabs")
        assert box["y"] + box["height"] <= tabs["y"] + 0.5, (box, tabs)
        assert not overlaps(box, box_of(viewer, "#top"))
        # the page can scroll its last lines clear of the toast
        padding = float(page.evaluate("parseFloat(getComputedStyle(document.body).paddingBottom)"))
        assert padding >= box["height"] + tabs["height"], (padding, box, tabs)
        shot(viewer, "toast-refusal-dice")
        viewer.tab("game")
        for _ in range(3):
            named.service.do("timer")
        # the routine toast takes the refusal's place: one message, never a pile
        expect(page.locator("#toast.routine")).to_contain_text("Third timer")
        assert page.locator("#toast:visible").count() == 1
        assert "Tap the icons" not in viewer.text("#toast")
        expect(page.locator("#say")).to_contain_text("Third timer")
        expect(page.locator("#say-now")).to_have_text("")
        shot(viewer, "toast-routine-game")
        page.click("#toast-close")
        expect(toast).to_be_hidden()
        assert float(page.evaluate("parseFloat(getComputedStyle(document.body).paddingBottom)")) < padding
        viewer.check_clean()
    finally:
        viewer.context.close()


def test_the_odds_calculator_follows_the_roll_under_way(browser: Any, named: Table) -> None:
    service = named.service
    viewer = open_phone(browser, named)
    try:
        page = viewer.page
        viewer.tab("dice")
        expect(page.locator("#odds-whose")).to_contain_text("No roll under way")
        expect(page.locator("#odds-out")).to_have_text("")
        service.do("attempt", {"action": "search", "need": "eye:2,camera:1"})
        expect(page.locator("#odds-whose")).to_contain_text("Ada\u2019s roll under way")
        # the calculator works out what the attempt card shows (the engine's odds of the roll under way)
        expect(page.locator("#odds-out")).to_have_text(re.compile(r"\d+\.\d %"))
        assert viewer.text("#odds-out") == viewer.text("#odds-now")
        first = float(viewer.text("#odds-out").removesuffix(" %"))
        assert abs(first - 100 * float(service.state()["odds"])) < 0.051
        shot(viewer, "odds-following")
        service.do("roll", {"faces": "eye,cobweb,cobweb"})  # an eye kept: the roll now needs less
        still = service.state()
        expect(page.locator("#odds-now")).not_to_have_text(f"{first:.1f} %")
        expect(page.locator("#odds-out")).to_have_text(viewer.text("#odds-now"))
        assert abs(float(viewer.text("#odds-out").removesuffix(" %")) - 100 * float(still["odds"])) < 0.051
        assert viewer.text("#odds-need-words") in viewer.text("#odds-whose")
        # the player's own numbers: said so, kept while the game moves on, given back by the button
        page.click("#odds-pad button:has-text('+ key')")
        expect(page.locator("#odds-whose")).to_contain_text("Your own numbers")
        expect(page.locator("#odds-out")).to_have_text("")
        own = viewer.text("#odds-need-words")
        assert "key" in own
        shot(viewer, "odds-own")
        service.do("roll", {"faces": "cobweb,cobweb"})
        expect(page.locator("#odds-now")).to_have_text(re.compile(r"\d+\.\d %"))
        page.wait_for_timeout(300)
        assert viewer.text("#odds-need-words") == own
        page.click("#odds-follow")
        expect(page.locator("#odds-whose")).to_contain_text("Ada\u2019s roll under way")
        expect(page.locator("#odds-out")).to_have_text(viewer.text("#odds-now"))
        assert page.locator("#odds-follow").is_hidden()
        # the attempt ends with the turn: no stale need, no stale odds
        service.do("end-turn")
        expect(page.locator("#odds-whose")).to_contain_text("No roll under way")
        expect(page.locator("#odds-out")).to_have_text("")
        expect(page.locator("#odds-need-words")).to_have_text("nothing yet")
        shot(viewer, "odds-after-the-attempt")
        viewer.check_clean()
    finally:
        viewer.context.close()


def test_the_doors_to_unlock_are_buttons_with_their_rooms_names(browser: Any, named: Table) -> None:
    host = open_phone(browser, named, host=True)
    try:
        page = host.page
        doors = [
            a for a in named.service.state()["legal"] if a["name"] == "attempt" and a["args"].get("action") == "unlock"
        ]
        assert doors, "the first turn offers doors to unlock"
        page.click("#unlock-pick")
        choices = page.locator("#map-choices button")
        expect(choices).to_have_count(len(doors))
        assert page.get_attribute("#map-choices", "aria-label") == "The doors you can pick"
        # each button says the door in the companion's words (the room names), as the legal action does
        assert sorted(choices.all_inner_texts()) == sorted(a["label"] for a in doors)
        assert all("room" in a["label"] for a in doors)
        page.locator("#map-choices").scroll_into_view_if_needed()
        shot(host, "doors-as-buttons")
        door = doors[0]["args"]["door"]
        page.click(f"#map-choices button[data-choice='{door}']")
        # the same as a tap on the drawing: the pick ends and the sheet asks what the door's roll needs
        expect(page.locator("#sheet")).to_be_visible()
        expect(page.locator("#map-choices")).to_be_hidden()
        assert page.locator("#map .door.target").count() == 0
        page.click("#sheet-cancel")
        host.check_clean()
    finally:
        host.context.close()


def declare_seance_ready(service: GameService) -> None:
    """A clue solved and the host telling the stand-in ghost card's séance symbols all matched: the séance may be
    declared, and it asks for the first player's space."""
    service.do("reveal-clue")
    service.do("attempt", {"action": "solve", "need": "eye:1"})
    service.do("roll", {"faces": "eye,cobweb,cobweb"})
    service.do("tell-ghost", {"seance": "yes"})


def test_the_seance_space_is_picked_from_a_list_of_every_room(browser: Any, named: Table) -> None:
    declare_seance_ready(named.service)
    seance = [a for a in named.service.state()["legal"] if a["name"] == "seance"]
    assert seance and seance[0]["asks"] == ["room"]
    host = open_phone(browser, named, host=True)
    try:
        page = host.page
        page.click("#turn-main button[data-legal='seance']")
        choices = page.locator("#map-choices button")
        board = page.evaluate("fetch('/api/board').then((r) => r.json())")
        spaces = sorted(int(r["number"]) for r in board["spaces"])
        expect(choices).to_have_count(len(spaces))
        page.locator("#map-choices").scroll_into_view_if_needed()
        shot(host, "seance-spaces-as-buttons")
        assert page.get_attribute("#map-choices", "aria-label") == "The spaces of the board"
        assert [int(c) for c in choices.evaluate_all("(bs) => bs.map((b) => b.dataset.choice)")] == spaces
        # each button says the room by its number and, where the board names it, its name
        names = {int(r["number"]): r["name"] for r in board["spaces"]}
        for text, n in zip(choices.all_inner_texts(), spaces, strict=True):
            if n == 0:
                assert "Entrance" in text, text
                continue
            assert re.match(rf"Room {n}\b", text), text
            if not re.fullmatch(r"(Room\s*)?\d+", names[n]):
                assert names[n] in text, (text, names[n])
        room = next(n for n in spaces if n and not re.fullmatch(r"(Room\s*)?\d+", names[n]))
        page.click(f"#map-choices button[data-choice='{room}']")
        # the same as a tap on the drawing: the séance is declared there and the list goes
        expect(page.locator("#map-choices")).to_be_hidden()
        for _ in range(50):  # the pick ends at the tap; the command is answered a moment later
            if named.service.state()["seance_declared"]:
                break
            page.wait_for_timeout(100)
        last = named.service.history()[-1]["command"]
        assert (last["name"], last["args"]) == ("seance", {"room": str(room)})
        assert named.service.state()["seance_declared"]
        host.check_clean()
    finally:
        host.context.close()


def test_the_roll_card_says_the_last_roll_and_how_its_attempt_ended(browser: Any, named: Table) -> None:
    """The roll card between rolls: "Last:" is the last roll itself (the dice it kept, not those kept before) and,
    once the attempt is over, how it ended; a new attempt forgets it."""
    service = named.service
    viewer = open_phone(browser, named)
    try:
        page = viewer.page
        viewer.tab("dice")
        card = page.locator("#attempt")
        service.do("attempt", {"action": "search", "need": "eye:2,camera:1"})
        service.do("roll", {"faces": "eye,cobweb,cobweb"})
        service.do("roll", {"faces": "cobweb,cobweb"})  # nothing new: the eye is the first roll's
        expect(card).to_contain_text("Kept: \u25c9 eye \u00b7 blue")  # the kept die, its colour in words
        service.do("end-turn")
        log = [r["text"] for r in service.events_since(0) if r.get("type") in ("rolled", "attempt_ended")]
        expect(card).to_have_text(f"No roll under way. Last: {log[-2]} {log[-1]}")
        assert "cobweb, cobweb" in log[-2] and "keeping" not in log[-2] and "eye kept before" in log[-2]
        assert "over" in log[-1] and "turn ended" in log[-1]
        page.locator("#attempt").scroll_into_view_if_needed()
        shot(viewer, "roll-card-last")
        service.do("attempt", {"action": "search", "need": "eye:1"})
        expect(card).not_to_contain_text("Last:")
        viewer.check_clean()
    finally:
        viewer.context.close()


def test_a_refusal_on_the_page_names_the_buttons_not_the_commands(browser: Any, named: Table) -> None:
    """A command the page sent that the rules refuse (a fourth plain move): the toast names the buttons that end
    the turn and run, by their labels, and the player by name; no command spelling."""
    for _ in range(3):
        named.service.do("action", {"kind": "move"})
    host = open_phone(browser, named, host=True)
    try:
        page = host.page
        expect(page.locator("#turn-card")).to_be_visible()
        page.evaluate(
            """() => {
              const url = performance.getEntriesByType("resource").map((e) => e.name).find((n) => n.includes("/core.js"));
              return import(url).then((core) => core.command("action", { kind: "move" }));
            }"""
        )
        toast = page.locator("#toast")
        expect(toast).to_contain_text("Ada has used all 3 actions")
        shot(host, "refusal-names-buttons")
        said = host.text("#toast-text")
        # the buttons as the host's panel labels them
        assert "\u201cEnd Ada's turn\u201d button" in said and "\u201cRun a fourth space\u201d button" in said, said
        expect(page.locator("#turn-end button", has_text="End Ada's turn")).to_be_visible()
        assert not re.search(r"=|\brun true\b|end-turn|End the turn with End", said), said
    finally:
        host.context.close()


def buttons_under_the_toast(phone: Phone) -> list[str]:
    """The words of every button, field or fold of the page the toast now sits over (the tabs are not the page's)."""
    toast = box_of(phone, "#toast")
    under: list[str] = []
    for el in phone.page.locator("main :is(button, input, select, textarea, summary, a[href]):visible").all():
        box = el.bounding_box()
        if box and box["width"] and box["height"] and overlaps(dict(box), toast):
            under.append(el.inner_text() or el.get_attribute("name") or "?")
    return under


def clear_of_the_toast(phone: Phone, seconds: float = 3.0) -> bool:
    """Whether the page has moved every button clear of the toast within a few seconds (a loaded machine takes
    several frames to lay out a page); the toast stays up longer than that."""
    for _ in range(int(seconds * 10)):
        if not buttons_under_the_toast(phone):
            return True
        phone.page.wait_for_timeout(100)
    return False


def test_a_toast_never_sits_over_the_buttons_just_tapped_nor_the_last_ones(browser: Any, named: Table) -> None:
    """A newcomer taps "End Ada's turn" low on the screen: the message that answers comes up at the bottom, and the
    page moves the turn's buttons up clear of it (the next "End Bo's turn" is never under it). At the page's end a
    message from the table (a timer) leaves the last button clear too."""
    host = open_phone(browser, named, host=True)
    try:
        page = host.page
        end = page.locator("#turn-end button", has_text="End Ada's turn")
        box = box_of(host, '#turn-end button:has-text("End Ada\'s turn")')
        # the button just above the tabs, where a thumb finds it
        page.evaluate(f"window.scrollBy(0, {box['y'] + box['height'] - (844 - 70)})")
        end.click()
        expect(page.locator("#toast")).to_contain_text("Ada's turn ends")
        expect(page.locator("#turn-end button", has_text="End Bo's turn")).to_be_visible()
        assert clear_of_the_toast(host), buttons_under_the_toast(host)
        shot(host, "toast-clear-of-end-turn")
        page.click("#toast-close")
        # the page's very end: its last button
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        named.service.do("timer")
        expect(page.locator("#toast")).to_contain_text("timer")
        # the page takes in the same news after the toast (its undo button, its panels): clear of those too
        expect(page.locator("#undo-btn")).to_contain_text("timer token")
        assert clear_of_the_toast(host), buttons_under_the_toast(host)
        shot(host, "toast-clear-of-the-last-button")
        host.check_clean()
    finally:
        host.context.close()
