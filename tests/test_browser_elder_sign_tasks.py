"""Elder Sign's task-entry sheet on a phone (Chromium at 390x844): at an adventure not filled in yet there is nothing
to roll against; the host enters the tasks printed on the card (each task's symbols and costs by steppers, the
arrow), and then rolls; the other phone reads "tasks not entered yet" before and the entered tasks after, never a
stand-in's made-up ones. Screenshots go to tests/artifacts/elder_sign/ (docs/elder-sign.md, "Cards not filled in
yet")."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from games import numbers_copied
from playwright.sync_api import expect
from test_browser_elder_sign import LINE_NUMBER, SHOTS, shot, tap, wait_for
from test_browser_web import Phone, open_phone
from web_fixtures import HOST_PIN, Table, serve_table

from companion.games.elder_sign.engine import COMMANDS
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def elder_sign_table(tmp_path: Path) -> Iterator[Table]:
    """An Elder Sign game with the bundled packs (every adventure a stand-in), its first Mythos card told."""
    service = stand_in_service(tmp_path)
    numbers_copied(service._game, service)  # the numbers printed on the stand-in cards, before the first turn
    yield from serve_table(tmp_path, service=service, threads=32)


def stand_in_service(tmp_path: Path) -> GameService:
    """An Elder Sign game with the bundled packs (every card a stand-in), its first Mythos card told."""
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(4))
    service.new_game({"rules": "elder-sign", "players": 2, "seed": 11, "names": ["Ada", "Bo"]})
    service.do("card-did", {"effect": "nothing"})
    return service


def host_phone(browser: object, table: Table) -> Phone:
    """A phone signed in as the host, on the Elder Sign game (open_phone's host waits for Skeptics' turn panel)."""
    phone = open_phone(browser, table, wait_map=False)
    phone.tab("host")
    phone.page.fill("#pin-form input[name=pin]", HOST_PIN)
    phone.page.click("#pin-btn")
    phone.page.wait_for_selector("#logout", state="visible")
    phone.tab("game")
    phone.page.wait_for_selector("#es-turn-title", state="visible")
    return phone


def test_the_host_enters_a_stand_in_adventures_tasks_on_a_phone_and_then_rolls(
    browser: object, elder_sign_table: Table
) -> None:
    service = elder_sign_table.service
    host = host_phone(browser, elder_sign_table)
    player = open_phone(browser, elder_sign_table, wait_map=False)
    try:
        page = host.page
        for phone in (host, player):  # the stand-in's made-up symbols are on no phone
            expect(phone.page.locator("#es-tasks-4")).to_have_text("Tasks not entered yet")
        tap(host, "#es-move")
        tap(host, "#sheet-body button:has-text('place 4')")
        expect(page.locator("#es-enter-tasks")).to_be_visible()
        assert page.locator("#es-roll-me").count() == 0  # nothing to roll against yet
        expect(page.locator("#es-no-tasks")).to_contain_text("not entered yet")
        expect(player.page.locator("#es-no-tasks")).to_contain_text("The host enters them")
        assert service.state().get("card_odds") is None and service.state()["odds"] is None
        shot(host, "tasks-missing-host")
        shot(player, "tasks-missing-player")

        tap(host, "#es-enter-tasks")
        expect(page.locator("#sheet")).to_be_visible()
        # the card on the table: 2 investigation; 1 peril costing 1 sanity; 4 investigation and 1 lore; the arrow
        for _ in range(2):
            page.click("#task-1-inv-more")
        page.click("#task-add")
        page.click("#task-2-peril-more")
        expect(page.locator("#task-2-sanity-more")).to_be_hidden()  # the costs fold away until the card shows one
        # the fold's heading says what may be tapped there, never that the task costs something; the task's own
        # words stand under it as the task's
        expect(page.locator("#task-2-costs summary")).to_have_text(
            "Only if the card prints a cost beside this task: sanity, stamina or the clock"
        )
        expect(page.locator("#task-2")).to_contain_text("Task 2 as tapped: 1 peril")
        page.click("#task-2-costs summary")
        # each − and + is named for its row (a fresh player's finding: they had only their sign)
        task_2 = page.locator("#task-2")
        task_2.get_by_role("button", name="Sanity lost: one more", exact=True).click()
        expect(page.locator("#task-2-sanity")).to_have_text("1")
        expect(task_2.get_by_role("button", name="Clock forward: 3 more", exact=True)).to_be_visible()
        expect(task_2.get_by_role("button", name="Peril: one less", exact=True)).to_be_visible()
        page.click("#task-add")
        for _ in range(4):
            page.click("#task-3-inv-more")
        page.click("#task-3-lore-more")
        page.click("#task-3-lore-more")
        page.click("#task-3-lore-less")
        page.check("#es-ordered")
        page.select_option("#es-lock", "red")  # the card shows the red die locked on it
        expect(page.locator("#task-2-words")).to_have_text("1 peril (sanity -1)")
        expect(page.locator("#task-3-words")).to_have_text("4 investigation and 1 lore")
        shot(host, "tasks-sheet")
        page.screenshot(path=str(SHOTS / "tasks-sheet-phone.png"))  # as the phone's screen shows it
        page.locator("#task-1").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "tasks-sheet-phone-top.png"))
        page.click("#sheet-ok")
        expect(page.locator("#sheet")).to_be_hidden()

        card = next(c for c in service.state()["adventures"] if c["slot"] == "4")
        assert not card["tasks_missing"] and card["ordered"] is True and card["lock"] == "red"
        assert service.state()["locked"] == {"red": 1}
        assert [(t["need"], t.get("sanity", 0)) for t in card["tasks"]] == [
            ("inv:2", 0),
            ("peril:1", -1),
            ("inv:4,lore:1", 0),
        ]
        assert service.history()[-1]["command"] == {
            "name": "set-tasks",
            "args": {
                "adventure": "4",
                "tasks": "inv:2; peril:1,sanity:-1; inv:4,lore:1",
                "ordered": "true",
                "lock": "red",
            },
        }
        for phone in (host, player):
            expect(phone.page.locator("#es-tasks-4")).to_contain_text("In order: 2 investigation · 1 peril (sanity -1)")
            expect(phone.page.locator("#es-adv-4")).not_to_contain_text("not entered")
        expect(page.locator("#es-odds")).to_be_visible()  # the odds, now that the tasks are known
        assert service.state()["card_odds"]["slot"] == "4"
        shot(host, "tasks-entered-host")
        # a correction later starts from the tasks entered, their costs too
        page.click("#es-fix summary")
        page.locator("#es-fix-list button", has_text="Enter the tasks of the adventure in place 4").click()
        expect(page.locator("#task-2-sanity")).to_have_text("1")
        expect(page.locator("#task-3-words")).to_have_text("4 investigation and 1 lore")
        assert page.locator("#es-ordered").is_checked() and page.locator("#es-lock").count() == 0
        page.click("#sheet-cancel")
        page.click("#es-fix summary")

        tap(host, "#es-roll-me")
        expect(page.locator("#es-last")).to_be_visible()
        rolled = next(e for e in reversed(service.history()) if e["command"]["name"] == "roll")
        assert rolled["command"]["name"] == "roll"
        shot(host, "tasks-rolled-host")
        shot(player, "tasks-entered-player")
        for phone in (host, player):
            text = phone.page.inner_text("body")
            assert not [name for name in COMMANDS if "-" in name and name in text]  # no command's spelling
            assert not re.search(r"\b[a-z_]+=\S", text) and not LINE_NUMBER.search(text)
            assert phone.errors == []
    finally:
        host.context.close()
        player.context.close()


def test_the_host_enters_the_ancient_ones_combat_task_before_the_battles_first_roll(
    browser: object, elder_sign_table: Table
) -> None:
    """elder-sign-rules.txt:439: the combat task printed on the Ancient One's card; a stand-in's is not played."""
    service = elder_sign_table.service
    service.do("doom", {"n": str(service.state()["doom_max"])})  # the Ancient One wakes
    service.do("end-turn")
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        expect(page.locator("#es-no-tasks")).to_contain_text("combat task is not entered yet")
        assert page.locator("#es-roll-me").count() == 0 and service.state()["odds"] is None
        tap(host, "#es-enter-combat")
        page.click("#task-1-lore-more")
        page.click("#task-1-lore-more")
        page.click("#task-1-inv-more")
        shot(host, "combat-sheet")
        page.click("#sheet-ok")
        expect(page.locator("#es-roll-me")).to_be_visible()
        assert service.state()["ancient_one"]["combat"] == "inv:1,lore:2"
        expect(page.locator("#es-odds")).to_contain_text("a blow against")
        shot(host, "combat-entered")
        assert host.errors == []
    finally:
        host.context.close()


def test_the_host_picks_which_open_task_the_tapped_dice_complete(browser: object, elder_sign_table: Table) -> None:
    """elder-sign-rules.txt:189 "Even if the results let me finish multiple tasks, I can only pick one": with two
    tasks met, the roll card asks which one this roll completes (a task, or none, :179), as after "Roll for me"."""
    service = elder_sign_table.service
    service.do("move", {"to": "4"})
    service.do("set-tasks", {"adventure": "4", "tasks": "inv:1; lore:1", "ordered": "false"})
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        tap(host, "#es-roll-tap")
        dice = len(service.state()["next_dice"])
        page.click("#es-die-1-lore")
        for i in range(2, dice + 1):
            page.click(f"#es-die-{i}-inv1")  # the roll meets both tasks
        page.click("#sheet-ok")  # the sheet asks no task before the dice: the roll card asks, as for every roll
        expect(page.locator("#sheet")).to_be_hidden()
        buttons = page.locator("#es-choose button")
        expect(buttons).to_have_text(["Task 1: 1 investigation", "Task 2: 1 lore", "None: the roll completes no task"])
        expect(page.locator("#es-choose-note")).to_contain_text("Its dice meet 2 tasks, and one roll completes one")
        page.locator("#es-choose").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "tasks-which-task-phone.png"))  # as the phone's screen shows it
        shot(host, "tasks-which-task")
        page.click("#es-choose-2")
        expect(page.locator("#es-choose")).to_have_count(0)
        card = next(c for c in service.state()["adventures"] if c["slot"] == "4")
        assert [t["done"] for t in card["tasks"]] == [False, True]  # the one picked, not the first met
        assert service.history()[-1]["command"] == {"name": "complete", "args": {"task": "2"}}
        assert host.errors == []
    finally:
        host.context.close()


def test_the_change_form_names_no_stand_in_investigator(browser: object, elder_sign_table: Table) -> None:
    """The host's "Change sanity, stamina or clues" form lists each player with their card as the page says it
    elsewhere: a card not filled in yet is "investigator card not filled in yet", never the stand-in's made-up name."""
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        page.click("#es-fix summary")
        page.locator("#es-fix-list button", has_text="Change sanity, stamina or clues").click()
        expect(page.locator("#sheet")).to_be_visible()
        options = page.locator("#sheet-body select[name=player] option").all_text_contents()
        assert options == ["Ada (investigator card not filled in yet)", "Bo (investigator card not filled in yet)"]
        stand_ins = [
            elder_sign_table.service._game.packs.investigators[i["id"]].name
            for i in elder_sign_table.service._game.view()["investigators"]
        ]
        assert stand_ins and not any(name in " ".join(options) for name in stand_ins)
        shot(host, "change-form-stand-ins")
        page.click("#sheet-cancel")
    finally:
        host.context.close()


def test_a_monster_told_by_a_stand_in_card_is_asked_and_placed_on_the_adventure_the_host_taps(
    browser: object, elder_sign_table: Table
) -> None:
    """A monster that appeared and is not placed yet is asked on the host's phone (elder-sign-rules.txt:377 "the active
    player ... place[s] it on top of a monster task", :391 with none left under the bottom task of any adventure): a
    stand-in card told "Monsters +1" leaves it pending, the turn card asks which adventure it went on, the host taps it
    and the monster's icons, and that adventure's tasks (and so its odds) hold the monster."""
    service = elder_sign_table.service
    service.do("move", {"to": "1"})  # type: ignore[attr-defined]
    service.do("set-tasks", {"adventure": "1", "tasks": "inv:1", "ordered": "false"})  # type: ignore[attr-defined]
    service.do("roll", {"faces": "inv1,inv1,inv1,inv1,inv1,inv1"})  # type: ignore[attr-defined]
    assert service.state()["question"]["part"] == "reward"  # type: ignore[attr-defined]
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        expect(page.locator("#es-monster-question")).to_have_count(0)  # none appeared yet
        service.do("card-did", {"effect": "monster"})  # type: ignore[attr-defined]  # the real card's reward
        while service.state()["question"]:  # type: ignore[attr-defined]
            service.do("card-did", {"effect": "nothing"})  # type: ignore[attr-defined]
        assert service.state()["monsters_pending"] == 1  # type: ignore[attr-defined]
        question = page.locator("#es-monster-question")
        expect(question).to_contain_text(
            "A monster appeared and is not placed yet: which adventure did Ada place it on?"
        )
        places = page.locator("#es-monster-places button")
        adventures = [c["slot"] for c in service.state()["adventures"]]  # type: ignore[attr-defined]
        expect(places).to_have_count(len(adventures))  # every adventure in play may take it (:391)
        shot(host, "monster-asked")
        before = next(c for c in service.state()["adventures"] if c["slot"] == "2")  # type: ignore[attr-defined]
        tap(host, "#es-monster-2")
        expect(page.locator("#sheet")).to_be_visible()
        page.click("#task-1-peril-more")
        page.click("#task-1-terror-more")
        shot(host, "monster-sheet")
        length = service.state()["history_length"]  # type: ignore[attr-defined]
        page.click("#sheet-ok")
        wait_for(lambda: service.state()["history_length"] > length)  # type: ignore[attr-defined]
        state = service.state()  # type: ignore[attr-defined]
        after = next(c for c in state["adventures"] if c["slot"] == "2")
        assert state["monsters_pending"] == 0
        assert [t for t in after["tasks"] if t["monster"]] != [] and len(after["tasks"]) == len(before["tasks"]) + 1
        expect(question).to_have_count(0)  # placed: asked no more
        expect(page.locator("#es-tasks-2")).to_contain_text("(monster)")
        shot(host, "monster-placed")
        assert host.errors == [], host.errors
    finally:
        host.context.close()
