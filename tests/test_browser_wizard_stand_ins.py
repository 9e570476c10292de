"""The new-game wizard on the host's phone (Debian's Chromium, 390x844): a stand-in card named by the companion
("Ghost 1", "Ancient One 1") is listed as a stand-in, short enough to read whole in the closed list, and the wizard
says under the list what it is (a stand-in in your box, not one of your cards of that kind), beside the cards the
rulebook names that are not filled in yet (the Child Ghost, skeptics-rulebook.txt:74; Nyarlathotep,
elder-sign-rules.txt:82), in the words one place gives every game (companion.words.card_choice, card_note). A ghost
is chosen from the box's cards (skeptics-rulebook.txt:73 "Select one of the Ghost Cards"). Screenshots:
tests/artifacts/wizard_stand_ins/ (gitignored)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_web import ARTIFACTS, PHONE, open_phone
from web_fixtures import Table

from companion.words import stand_in_no_card

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "wizard_stand_ins"

# the chosen option's words against the closed list's room for them (its width less its padding and its arrow)
FITS = """(select) => {
  const style = getComputedStyle(select);
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = style.font;
  const words = pen.measureText(select.options[select.selectedIndex].text).width;
  return words <= select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
}"""


def test_the_wizard_lists_a_stand_in_ghost_and_ancient_one_plainly_as_stand_ins(browser: Any, table: Table) -> None:
    host = open_phone(browser, table, host=True)
    page = host.page
    try:
        host.open_wizard("skeptics")
        ghost = page.locator("#new-form select[name=ghost]")
        expect(ghost).to_be_visible()
        ghosts = ghost.locator("option").all_text_contents()
        assert ghosts[:3] == [
            "Child Ghost (not filled in yet)",
            "Poltergeist (not filled in yet)",
            "Shadow Ghost (not filled in yet)",
        ], ghosts
        assert ghosts[3:] == [f"Ghost {n} (a stand-in)" for n in (1, 2, 3)], ghosts
        note = page.locator("#ghost-note")
        expect(note).to_be_hidden()  # the Child Ghost: its label says it all
        ghost.select_option("ghost4")
        assert ghost.evaluate(FITS), ghost.evaluate("(s) => s.options[s.selectedIndex].text")  # read whole, closed
        expect(note).to_have_text(f"Ghost 1 is {stand_in_no_card('Ghost')}: play any Ghost card of your own.")
        expect(note).not_to_contain_text("deck")  # the ghost cards are no deck
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "skeptics-ghost-1.png"))
        page.select_option("#new-form select[name=rules]", "elder-sign")
        ancient = page.locator("#new-form select[name=ancient_one]")
        expect(ancient).to_be_visible()
        assert ancient.locator("option").all_text_contents() == [
            "drawn at random",
            "Nyarlathotep (not filled in yet)",
            "Ancient One 1 (a stand-in)",
        ]
        ancient.select_option("ancient_two")
        assert ancient.evaluate(FITS), ancient.evaluate("(s) => s.options[s.selectedIndex].text")
        expect(page.locator("#ancient-one-note")).to_have_text(
            f"Ancient One 1 is {stand_in_no_card('Ancient One')}: play any Ancient One card of your own."
        )
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(SHOTS / "elder-sign-ancient-one-1.png"))
        host.check_clean()
    finally:
        host.context.close()
