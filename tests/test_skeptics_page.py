"""A fresh player's Skeptics findings, on the phone page (real Flask app, real waitress, Debian's headless Chromium at
390x844): the search sheet counts the icons on the board's object, the Ghost tab shows nothing of a stand-in ghost
card, an evidence token not filled in is turned over at the table, the icons the table gave for a set are asked once,
a prove asks whether the prover is on the ghost's space, a roll with no roll left leaves no strip, and the tray lists
the game's faces. Screenshots go to tests/artifacts/skeptics/ for a person to look at.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_web import ARTIFACTS, Phone, open_phone
from web_fixtures import Table, settled_tray, start_table

from companion.games.skeptics.dice import DieKind, PipMap

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "skeptics"


def shot(p: Phone, name: str, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def dismiss(p: Phone) -> None:
    if p.page.locator("#banner").is_visible():
        p.page.locator("#banner-ok").click()


def to_game(p: Phone) -> None:
    dismiss(p)
    p.tab("game")
    dismiss(p)


def test_the_search_sheet_counts_the_icons_on_the_boards_object(browser: Any, live: Table) -> None:
    """Setup, Search Tokens: "place a Token face-down on each set of Blue icons on the game board ... Try not to
    completely cover the icons" (rulebook :70); Action 3: Search: "matching the icon set on the respective object"
    (:141). The icons are the object's, not the token's."""
    host = open_phone(browser, live, host=True)
    try:
        host.page.locator("#turn-main button[data-legal='attempt:search']").click()
        note = host.page.locator("#card-icons-note")
        expect(note).to_contain_text("board's object under the search token")
        expect(note).not_to_contain_text("printed on the search token")
        expect(host.page.locator("#sheet-title")).not_to_contain_text("search token")
        # before any icon is counted the line is guidance in the note's plain style, not the bold of a need
        hint = host.page.locator("#need-words")
        expect(hint).to_have_text("Count each icon with its \u2212 and +.")
        expect(hint).to_have_class("note")
        host.page.locator("#step-eye-plus").click()
        expect(hint).to_have_class("big-ish")
        shot(host, "1-search-sheet", full=False)
        host.check_clean()
    finally:
        host.context.close()


def test_a_stand_in_ghost_card_shows_no_made_up_sets_and_its_sets_icons_are_asked_once(
    browser: Any, live: Table
) -> None:
    """Ghost Card: "Icon Sets to Resolve" (rulebook :223) and the Child Ghost's top row (:219) are on the card on the
    table; Action 6: Prove: "if they are on the same space as the Ghost, the player may make a Prove Action" (:225)
    and "Players must match the icons in a chosen set": what the table told of a set is the set on the next attempt.
    Action 4: Solve: the acting player "flips over one of the seven face-down Evidence Tokens" (:174)."""
    svc = live.service
    host = open_phone(browser, live, host=True)
    try:
        # before the ghost first appears: no stand-in count of sets, no top row "1 to 2", no difficulty
        host.tab("ghost")
        expect(host.page.locator("#icon-sets li.set")).to_have_count(0)
        expect(host.page.locator("#sets-untold")).to_contain_text("the companion asks when the ghost first appears")
        expect(host.page.locator("#sets-note")).not_to_contain_text("sets 1 to")
        expect(host.page.locator("#ghost-diff")).to_have_text("")
        expect(host.page.locator("#ghost-ability")).to_contain_text("top row")  # the rulebook's words, for the table
        shot(host, "2-ghost-tab-untold")

        # a clue solved: the evidence token is the table's own, named nowhere by a stand-in name
        svc.do("reveal-clue")
        svc.do("solve")
        expect(host.page.locator("#evidence .chip")).to_have_text(["a token turned over at the table"])
        expect(host.page.locator("#evidence")).not_to_contain_text("Evidence")
        shot(host, "3-ghost-tab-evidence")

        # the ghost appears; the host says its card shows four sets
        svc.do("ghost-at", {"room": "3"})
        svc.do("tell-ghost", {"sets": "4"})
        to_game(host)
        host.page.locator("#prove-pick").click()
        host.page.locator("#sheet button", has_text="icon set 2").first.click()
        expect(host.page.locator("#card-icons-note")).to_contain_text("set 2")
        host.page.locator("#step-eye-plus").click()
        host.page.locator("#step-camera-plus").click()
        here = host.page.locator("#on-ghost-space")
        expect(host.page.locator("#sheet-body label", has=here)).to_contain_text("on the ghost's space (room 3")
        host.page.locator("#sheet-ok").click()  # not ticked: no roll, the sheet stays and says why
        expect(host.page.locator("#toast")).to_contain_text("on the ghost's space only")
        expect(host.page.locator("#sheet")).to_be_visible()
        assert svc.state()["attempt"] is None
        shot(host, "4-prove-sheet-asks-the-space", full=False)
        here.check()
        host.page.locator("#sheet-ok").click()
        expect(host.page.locator("#sheet")).to_be_hidden()
        assert svc.state()["attempt"]["need"] == "eye:1,camera:1"

        # the next player tries set 2: its icons are not asked again, the sheet says them
        svc.do("end-turn")
        to_game(host)
        host.page.locator("#prove-pick").click()
        host.page.locator("#sheet button", has_text="icon set 2").first.click()
        expect(host.page.locator("#set-needs")).to_have_text("Set 2 needs an eye and a camera.")
        expect(host.page.locator("#step-eye-plus")).to_have_count(0)
        host.page.locator("#on-ghost-space").check()
        shot(host, "5-prove-sheet-set-told", full=False)
        host.page.locator("#sheet-ok").click()
        expect(host.page.locator("#sheet")).to_be_hidden()
        assert svc.state()["attempt"]["need"] == "eye:1,camera:1" and svc.state()["attempt"]["set"] == 2
        host.tab("ghost")
        expect(host.page.locator("#icon-sets li.set")).to_have_count(4)
        expect(host.page.locator("#icon-sets li.set").nth(1)).to_contain_text("eye")
        expect(host.page.locator("#icon-sets li.set").first).to_contain_text("as on your card")
        shot(host, "6-ghost-tab-told")

        # the strip of the roll under way goes when no roll is left for it this turn
        to_game(host)
        strip = host.page.locator("#g-attempt")
        expect(strip).to_be_visible()
        for _ in range(3):  # three rolls that miss: the turn's three actions are spent, the attempt stays
            svc.do("roll", {"faces": "cobweb,cobweb,cobweb"})
        state = svc.state()
        assert state["actions_left"] == 0 and state["attempt"] is not None and state["attempt_rolls_left"] == 0
        to_game(host)
        expect(strip).to_be_hidden()
        shot(host, "7-no-roll-left", full=False)
        host.check_clean()
    finally:
        host.context.close()


def test_the_tray_lists_the_games_faces(browser: Any, tmp_path: Path) -> None:
    """Action 3: Search: "Each Clue Die has half of their sides as Eye icons, two as Cameras, and one as a Cobweb": the
    tray's dice are listed by those faces (by the table's pip map), not by their pips."""
    import numpy as np

    from vision.reader import DieReading

    readings = [DieReading(1, (40, 60, 50, 50), 0.95, "blue"), DieReading(6, (160, 60, 50, 50), 0.95, "blue")]
    tray = settled_tray(np.full((240, 320, 3), 60, dtype=np.uint8), readings)
    t = start_table(tmp_path, tray=tray)
    t.service.roll_from_tray(readings, auto_roll=False)  # as the tray loop hands it on: read in this game
    pips = PipMap.default()
    faces = [pips.face(DieKind.CLUE, 1).value, pips.face(DieKind.CLUE, 6).value]
    host = open_phone(browser, t, host=True)
    try:
        host.tab("dice")
        expect(host.page.locator("#tray-dice .chip")).to_have_text([f"{face} · blue" for face in faces])
        assert all(re.search(r"\d", text) is None for text in host.page.locator("#tray-dice .chip").all_inner_texts())
        shot(host, "8-tray-faces", full=False)
        host.check_clean()
    finally:
        host.context.close()
        t.server.stop()
        t.service.close()


def test_an_environment_card_not_filled_in_is_the_real_decks_card(browser: Any, live: Table) -> None:
    """Ghost Hour Sequence: "An Environment Card is drawn and played immediately" (rulebook :204): the table draws the
    real deck's card; the companion's own stand-in entry ("Common card 6") is no card the table can find, so the page
    calls it the card drawn from the real deck and names the entry only as the one in Your box."""
    svc = live.service
    viewer = open_phone(browser, live)
    try:
        for _ in range(4):
            svc.do("end-round")
        card = svc.state()["environment"][-1]
        assert card["stand_in"] and not svc.state()["physical"]
        # the banner tells the order of the Ghost Hour Sequence: "An Environment Card is always drawn first" (:207)
        expect(viewer.page.locator("#banner-room")).to_contain_text("The environment card, drawn before the room card")
        # the real deck's top card is the card drawn: the banner names no stand-in entry as if it were that card
        expect(viewer.page.locator("#banner-room")).to_contain_text("draw the top card of the real environment deck")
        expect(viewer.page.locator("#banner")).not_to_contain_text(card["name"])
        # then the room card (:205-207), then the ghost's ability (:209), which a stand-in ghost does not play itself
        room = svc.state()["ghost_room"]
        expect(viewer.page.locator("#banner-env")).to_contain_text(f"The ghost appears in room {room}")
        expect(viewer.page.locator("#banner-env")).to_contain_text("Ghost Hour ability: read it on your ghost card")
        drawn, appears = (viewer.page.locator(sel).bounding_box() for sel in ("#banner-room", "#banner-env"))
        assert drawn and appears and drawn["y"] + drawn["height"] <= appears["y"]
        shot(viewer, "10-ghost-hour-banner", full=False)
        dismiss(viewer)
        expect(viewer.page.locator("#g-env")).to_have_text(
            "In force: the card drawn from your deck (the host tells what it does)"
        )
        expect(viewer.page.locator("#g-env")).not_to_contain_text(card["name"])
        expect(viewer.page.locator("#env li b").last).to_have_text(
            f"The card drawn from the real deck (\u201c{card['name']}\u201d in Your box)"
        )
        viewer.page.locator("#env").scroll_into_view_if_needed()
        shot(viewer, "9-environment-stand-in", full=False)
        viewer.check_clean()
    finally:
        viewer.context.close()
