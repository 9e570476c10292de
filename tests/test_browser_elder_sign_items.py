"""The items held on the phones (elder-sign-rules.txt:329-351): a player holding no Common Item is not offered the
yellow die (:173, :335), one holding one is (the host counts it on the phone, "Card effects and corrections"), and
spending it takes it off. Both phones show the items held; a stand-in investigator's are "not counted yet" until the
host counts them (never made up). Real Chromium at 390x844; screenshots go to tests/artifacts/elder_sign/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_browser_elder_sign import shot, tap, wait_for
from test_browser_elder_sign_tasks import elder_sign_table, host_phone
from test_browser_web import open_phone
from web_fixtures import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["elder_sign_table"]

YELLOW = "Spend a Common Item: add the yellow die"


def test_no_item_held_no_die_offered_and_one_counted_offers_it(browser: object, elder_sign_table: Table) -> None:
    service = elder_sign_table.service
    service.do("move", {"to": "1"})  # type: ignore[attr-defined]
    service.do("set-tasks", {"adventure": "1", "tasks": "peril:3", "ordered": "false"})  # type: ignore[attr-defined]
    host = host_phone(browser, elder_sign_table)
    player = open_phone(browser, elder_sign_table, wait_map=False)
    try:
        page = host.page
        # a stand-in investigator's items are printed on its card: not counted yet, the dice offered whenever added
        expect(page.locator("#es-items-1")).to_contain_text("Items not counted yet")
        expect(page.locator("#es-items-1")).to_contain_text(
            "the Common Items, Unique Items and Spells drawn or spent are in the log only; until then the companion "
            "offers the yellow and red dice whenever the host adds them, and a die on a Spell card whenever the host "
            "puts one there, and takes no item off"
        )
        shot(host, "items-0-not-counted")
        expect(player.page.locator("#es-items-1")).to_contain_text("the host counts them")
        expect(page.locator("#es-main button", has_text=YELLOW)).to_have_count(1)
        service.do("items", {"player": "1", "common": "0", "unique": "0", "spells": "0"})  # type: ignore[attr-defined]
        for phone in (host, player):
            expect(phone.page.locator("#es-items-1")).to_have_text(
                "Items: 0 Common Items · 0 Unique Items · 0 Spells", timeout=5000
            )
        expect(page.locator("#es-main button", has_text=YELLOW)).to_have_count(0)  # none held: not offered
        expect(page.locator("#es-main button", has_text="Spend a Unique Item")).to_have_count(0)
        shot(host, "items-1-none-held")
        page.click("#es-fix summary")
        page.locator("#es-fix-list button", has_text="Count the items an investigator holds").click()
        # a refused count names the field as the sheet labels it and keeps the sheet open with what was typed
        page.fill("#sheet-body [name=common]", "-3")
        page.fill("#sheet-body [name=spells]", "2")
        page.click("#sheet-ok")
        refused = page.locator("#es-items-refused")
        expect(refused).to_be_visible()
        expect(refused).to_have_text("Common Items held: -3 is out of range; give a whole number 0 to 20.")
        expect(page.locator("#sheet")).to_be_visible()
        expect(page.locator("#sheet-body label", has_text="Common Items held")).to_have_count(1)
        assert page.input_value("#sheet-body [name=common]") == "-3"
        assert page.input_value("#sheet-body [name=spells]") == "2"
        shot(host, "items-refused")
        page.fill("#sheet-body [name=common]", "1")
        page.fill("#sheet-body [name=spells]", "0")
        page.click("#sheet-ok")
        expect(page.locator("#sheet")).to_be_hidden()
        for phone in (host, player):
            expect(phone.page.locator("#es-items-1")).to_have_text(
                "Items: 1 Common Item · 0 Unique Items · 0 Spells", timeout=5000
            )
        expect(page.locator("#es-main button", has_text=YELLOW)).to_have_count(1)  # one held: offered
        shot(host, "items-2-one-held")
        shot(player, "items-3-player")
        length = service.state()["history_length"]  # type: ignore[attr-defined]
        tap(host, f"#es-main button:has-text('{YELLOW}')")
        wait_for(lambda: service.state()["history_length"] > length)  # type: ignore[attr-defined]
        expect(page.locator("#es-items-1")).to_have_text("Items: 0 Common Items · 0 Unique Items · 0 Spells")
        # the one refusal's answer (400) is all the host's console shows
        assert all("400" in e for e in host.errors) and len(host.errors) == 1 and player.errors == [], host.errors
    finally:
        host.context.close()
        player.context.close()


def test_the_spell_die_is_offered_only_with_a_spell_held_and_the_roll_takes_the_spell_off(
    browser: object, elder_sign_table: Table
) -> None:
    """:345-347 after a roll one die goes on a Spell card the investigator plays: the page offers it when the engine
    does (the legal actions), so not with no Spell counted; with one counted the host taps the die, the next roll
    puts it on the card and the Spell leaves the hand (:329, :351)."""
    service = elder_sign_table.service
    service.do("move", {"to": "1"})  # type: ignore[attr-defined]
    service.do("set-tasks", {"adventure": "1", "tasks": "peril:3", "ordered": "false"})  # type: ignore[attr-defined]
    service.do("roll", {"faces": "inv1,inv1,inv1,inv1,lore,lore"})  # type: ignore[attr-defined]  # completes nothing
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        # not counted (a stand-in's items): offered as the host says
        # not known to be held: the words ask it (:345 a Spell is played from the hand)
        expect(page.locator("#es-spell-note")).to_contain_text(
            "If Ada holds a Spell and plays it, one other die goes on its card"
        )
        expect(page.locator("#es-spell button")).to_have_count(6)
        service.do("items", {"player": "1", "common": "0", "unique": "0", "spells": "0"})  # type: ignore[attr-defined]
        expect(page.locator("#es-items-1")).to_have_text("Items: 0 Common Items · 0 Unique Items · 0 Spells")
        expect(page.locator("#es-spell-note")).to_have_count(0)  # no Spell held: not offered
        expect(page.locator("#es-hold-note")).to_have_count(1)  # the focus still is
        service.do("items", {"player": "1", "spells": "1"})  # type: ignore[attr-defined]
        expect(page.locator("#es-items-1")).to_have_text("Items: 0 Common Items · 0 Unique Items · 1 Spell")
        expect(page.locator("#es-spell-note")).to_contain_text("Ada holds 1 Spell: if Ada plays it, one other die")
        page.locator("#es-spell button", has_text="lore").first.click()
        expect(page.locator("#es-spell .chip.ok")).to_have_text("lore (on the spell)", timeout=5000)
        expect(page.locator("#es-spell-note")).to_contain_text("Ada puts a die on a Spell card with the next roll")
        assert service.state()["attempt"]["spell"] == "lore"  # type: ignore[attr-defined]
        assert service.state()["next_dice"] == ["green"] * 4  # type: ignore[attr-defined]  # one aside, one on it
        shot(host, "items-spell-chosen")
        length = service.state()["history_length"]  # type: ignore[attr-defined]
        tap(host, "#es-roll-me")
        wait_for(lambda: service.state()["history_length"] > length)  # type: ignore[attr-defined]
        rolled = service.history()[length]  # type: ignore[attr-defined]
        assert "A lore die goes on the spell. Ada holds 0 Common Items, 0 Unique Items, 0 Spells." in rolled["text"]
        expect(page.locator("#es-items-1")).to_have_text("Items: 0 Common Items · 0 Unique Items · 0 Spells")
        assert host.errors == [], host.errors
    finally:
        host.context.close()


def test_after_a_roll_that_completed_a_task_the_host_taps_a_die_it_left_for_the_spell(
    browser: object, elder_sign_table: Table
) -> None:
    """:345 "After you roll, you get to choose one of the dice ... place it on the Spell card": after a roll that
    completed a task too, one of the dice it left (:185: a die placed on the task is spent for it). The page offers
    those, not the placed one; the host taps one and the next roll puts it on the card."""
    service = elder_sign_table.service
    service.do("move", {"to": "1"})  # type: ignore[attr-defined]
    service.do("set-tasks", {"adventure": "1", "tasks": "inv:3;lore:2", "ordered": "false"})  # type: ignore[attr-defined]
    service.do("roll", {"faces": "inv3,inv1,lore,peril,peril,inv2"})  # type: ignore[attr-defined]  # task 1 alone
    attempt = service.state()["attempt"]  # type: ignore[attr-defined]
    assert not attempt["failed"] and attempt["placed"] == ["inv3"]
    left = list(attempt["last"])
    left.remove("inv3")
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        expect(page.locator("#es-spell-note")).to_contain_text(
            "If Ada holds a Spell and plays it, one die the task left goes on"
        )
        buttons = page.locator("#es-spell button")
        expect(buttons).to_have_count(len(left))
        assert "3 investigation" not in " ".join(buttons.all_inner_texts())  # the placed die is not offered
        shot(host, "items-spell-after-task")
        dice = service.state()["attempt"]["dice_to_roll"]  # type: ignore[attr-defined]
        page.locator("#es-spell button", has_text="lore").first.click()
        expect(page.locator("#es-spell .chip.ok")).to_have_text("lore (on the spell)", timeout=5000)
        expect(page.locator("#es-spell-note")).to_contain_text("Ada puts a die on a Spell card with the next roll")
        assert service.state()["attempt"]["dice_to_roll"] == dice - 1  # type: ignore[attr-defined]
        shot(host, "items-spell-after-task-chosen")
        length = service.state()["history_length"]  # type: ignore[attr-defined]
        tap(host, "#es-roll-me")
        wait_for(lambda: service.state()["history_length"] > length)  # type: ignore[attr-defined]
        assert "A lore die goes on the spell" in service.history()[length]["text"]  # type: ignore[attr-defined]
        assert host.errors == [], host.errors
    finally:
        host.context.close()


def test_a_spell_told_as_a_reward_shows_on_the_line_and_one_holding_none_is_not_offered_it(
    browser: object, elder_sign_table: Table
) -> None:
    """The fresh player's table: the host counts both investigators' items (none held); Ada completes a stand-in
    adventure whose reward is told as a Spell (:239): Ada's line shows it. On Bo's turn, holding none, a failed roll
    offers the focus but no die on a Spell card (:345 a Spell is played from the hand); uncounted, the words ask."""
    service = elder_sign_table.service
    for player in ("1", "2"):
        service.do("items", {"player": player, "common": "0", "unique": "0", "spells": "0"})  # type: ignore[attr-defined]
    service.do("move", {"to": "1"})  # type: ignore[attr-defined]
    service.do("set-tasks", {"adventure": "1", "tasks": "inv:1", "ordered": "false"})  # type: ignore[attr-defined]
    service.do("roll", {"faces": "inv1,inv1,inv1,inv1,inv1,inv1"})  # type: ignore[attr-defined]
    assert service.state()["question"]["part"] == "reward"  # type: ignore[attr-defined]
    service.do("card-did", {"effect": "spells", "n": "1"})  # type: ignore[attr-defined]
    host = host_phone(browser, elder_sign_table)
    player = open_phone(browser, elder_sign_table, wait_map=False)
    try:
        page = host.page
        for phone in (host, player):
            expect(phone.page.locator("#es-items-1")).to_have_text("Items: 0 Common Items · 0 Unique Items · 1 Spell")
        shot(host, "items-spell-rewarded")
        while service.state()["question"]:  # type: ignore[attr-defined]
            service.do("card-did", {"effect": "nothing"})  # type: ignore[attr-defined]
        service.do("end-turn", {})  # type: ignore[attr-defined]
        while service.state()["question"]:  # type: ignore[attr-defined]
            service.do("card-did", {"effect": "nothing"})  # type: ignore[attr-defined]
        service.do("move", {"to": "2"})  # type: ignore[attr-defined]
        service.do("set-tasks", {"adventure": "2", "tasks": "peril:3", "ordered": "false"})  # type: ignore[attr-defined]
        service.do("roll", {"faces": "inv1,inv1,inv1,inv1,lore,lore"})  # type: ignore[attr-defined]
        expect(page.locator("#es-turn-title")).to_have_text("Bo's turn")
        expect(page.locator("#es-hold-note")).to_have_count(1)  # the focus is offered
        expect(page.locator("#es-spell-note")).to_have_count(0)  # no Spell held: not offered
        expect(page.locator("#es-items-2")).to_have_text("Items: 0 Common Items · 0 Unique Items · 0 Spells")
        shot(host, "items-spell-none-held")
        assert host.errors == [] and player.errors == [], (host.errors, player.errors)
    finally:
        host.context.close()
        player.context.close()
