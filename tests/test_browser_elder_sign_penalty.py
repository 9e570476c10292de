"""What a fresh player on two 390x844 phones found on Elder Sign's page, in real headless Chromium against the real app
on waitress, the real GameService, engine and SQLite file:
- the die set aside and the die held by focus read as one chip ("lore (set aside)", then "lore (held)"), where focus
  holds "a different die" (elder-sign-rules.txt:211, :213, :365): now two dice, each named for what it is;
- the penalty question asked as a turn ends with its attempt failed (:219) named no one, under the next player's turn:
  now it names whose sanity or stamina it costs, and "Go to an adventure" is not offered until it is told (:219, :323);
- the card question's amount buttons were all "Tell" to a screen reader: each now says what it tells.
Screenshots go to tests/artifacts/elder_sign/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_browser_elder_sign import shot, tap, wait_for
from test_browser_elder_sign_tasks import elder_sign_table, host_phone
from web_fixtures import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["elder_sign_table"]

# one lore, first of the roll; no peril, so the card's peril:3 is not met
MISSED = "green:lore,green:inv1,green:inv1,green:inv1,green:inv1,green:inv1"


def _missed(service: object, tasks: str = "peril:3") -> None:
    service.do("move", {"to": "1"})  # type: ignore[attr-defined]
    service.do("set-tasks", {"adventure": "1", "tasks": tasks, "ordered": "false"})  # type: ignore[attr-defined]
    service.do("roll", {"faces": MISSED})  # type: ignore[attr-defined]


def test_the_die_set_aside_and_the_die_held_are_two_dice_each_named(browser: object, elder_sign_table: Table) -> None:
    service = elder_sign_table.service
    _missed(service)
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        expect(page.locator("#es-last .chip.red")).to_have_text("lore (set aside)")  # the first green die, before
        page.locator("#es-hold button", has_text="lore").click()
        expect(page.locator("#es-hold .chip.ok")).to_have_text("lore (held by focus)", timeout=5000)
        assert service.state()["attempt"]["hold"] == "lore"
        # the roll's one lore is held: the die set aside is another (one of the five investigation dice)
        expect(page.locator("#es-last .chip.red")).to_have_text("1 investigation (set aside)")
        # focus may hold any die of the roll: another green die is set aside in its place
        expect(page.locator("#es-hold > *")).to_have_count(6)
        expect(page.locator("#es-hold-note")).to_contain_text("another than the one set aside")
        shot(host, "penalty-1-aside-and-held")
        length = service.state()["history_length"]
        tap(host, "#es-roll-me")
        wait_for(lambda: service.state()["history_length"] > length)
        assert "focuses: a lore die is held" in service.history()[length]["text"]
        assert host.errors == []
    finally:
        host.context.close()


def test_the_penalty_question_names_whose_it_is_and_no_move_is_offered(
    browser: object, elder_sign_table: Table
) -> None:
    service = elder_sign_table.service
    _missed(service)
    service.do("end-turn")  # the attempt fails as Ada's turn ends: the stand-in's penalty is asked under Bo's turn
    state = service.state()
    assert state["current_player"] == 1 and state["question"]["part"] == "penalty"
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        expect(page.locator("#es-turn-title")).to_have_text("Bo's turn")
        question = page.locator("#es-card-question")
        expect(question).to_contain_text("as its penalty?")
        expect(question).to_contain_text("Whatever sanity or stamina it costs is Ada's, who failed the card.")
        expect(page.locator("#es-move")).to_have_count(0)
        shot(host, "penalty-2-question-names-ada")
        tap(host, "#es-main button[data-legal=card-did]:has-text('that was all')")
        expect(page.locator("#es-card-question")).to_have_count(0, timeout=5000)
        expect(page.locator("#es-move")).to_be_visible()  # told: Bo's turn goes on with the move (:93)
        assert host.errors == []
    finally:
        host.context.close()


def test_each_tell_button_says_what_it_tells(browser: object, elder_sign_table: Table) -> None:
    service = elder_sign_table.service
    _missed(service, "lore:1")  # the roll's lore completes the stand-in: its reward is asked
    assert service.state()["question"]["part"] == "reward"
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        tells = page.locator("#es-main button[data-legal=card-did][data-effect]", has_text="Tell")
        expect(tells.first).to_be_visible()
        count = tells.count()
        assert count > 1
        expect(page.get_by_role("button", name="Tell", exact=True)).to_have_count(0)
        names = [str(tells.nth(i).get_attribute("aria-label")) for i in range(count)]
        assert len(set(names)) == count, names  # each its own
        doom = page.locator("#es-main .row", has=page.locator("button[data-effect=doom]"))
        label = doom.locator("span").inner_text().rstrip(":")
        expect(page.get_by_role("button", name=f"Tell: {label} +1", exact=True)).to_have_count(1)
        doom.locator("button", has_text="+").click()  # the name follows the amount shown
        expect(doom.locator("b.amount")).to_have_text("+2")
        expect(page.get_by_role("button", name=f"Tell: {label} +2", exact=True)).to_have_count(1)
        shot(host, "penalty-3-reward-tells")
        assert host.errors == []
    finally:
        host.context.close()


def test_the_die_set_aside_is_shown_as_the_engine_sets_it_aside_with_a_die_held_and_one_on_the_spell(
    browser: object, elder_sign_table: Table
) -> None:
    """Focus holds the roll's one lore and a Spell takes a 1 investigation: every green die shows a face chosen, so the
    engine sets aside one of the dice left after those two (an investigation die, :211, :213 "one other die", :345);
    the page marked the lore set aside and showed no die held."""
    service = elder_sign_table.service
    _missed(service)
    service.do("focus", {"die": "lore"})  # type: ignore[attr-defined]
    service.do("spell", {"die": "inv1"})  # type: ignore[attr-defined]
    attempt = service.state()["attempt"]
    assert (attempt["hold"], attempt["spell"], attempt["aside"]) == ("lore", "inv1", "green")
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        expect(page.locator("#es-last .chip.red")).to_have_text("1 investigation (set aside)")
        expect(page.locator("#es-hold .chip.ok")).to_have_text("lore (held by focus)")
        expect(page.locator("#es-spell .chip.ok")).to_have_text("1 investigation (on the spell)")
        shot(host, "penalty-4-aside-held-and-spell")
        length = service.state()["history_length"]
        tap(host, "#es-roll-me")
        wait_for(lambda: service.state()["history_length"] > length)
        rolled = service.history()[length]["command"]["args"]["faces"].split(",")
        assert len(rolled) == 3, rolled  # six less the one set aside, the one held and the one on the spell
        assert host.errors == []
    finally:
        host.context.close()
