"""Elder Sign's questions on a phone (Chromium at 390x844): at the Ancient One's attack each investigator's own choice
(elder-sign-rules.txt:459 "Each investigator ... must make a tough decision. We have to lower either our maximum Sanity
or our maximum Stamina by 1"), two taps for each on the host's phone while the other phone reads who still chooses;
and while a question is open its answer, not "Roll for me", is the highlighted button (shot 051 of a new player's
game). Screenshots go to tests/artifacts/elder_sign/."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_browser_elder_sign import LINE_NUMBER, SHOTS, shot, tap, wait_for
from test_browser_elder_sign_tasks import elder_sign_table, host_phone
from test_browser_web import PHONE, open_phone
from test_elder_sign_luck import stored
from web_fixtures import Table, start_table

from companion.games.skeptics.packs import load_packs
from companion.service import GameService

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["elder_sign_table"]  # the fixture, found by pytest here


def test_at_the_attack_the_host_taps_each_investigators_choice(browser: object, elder_sign_table: Table) -> None:
    service = elder_sign_table.service
    service.do("doom", {"n": str(service.state()["doom_max"])})  # the Ancient One wakes
    service.do("set-tasks", {"adventure": "ancient-one", "tasks": "inv:4,lore:1"})  # its combat task, from the card
    while service.state()["clock"] != "IX":
        service.do("end-turn")
    service.do("end-turn")  # midnight: the Ancient One attacks
    before = [(i["max_sanity"], i["max_stamina"]) for i in service.state()["investigators"]]
    assert service.state()["attack_choices"] == [0, 1]
    host = host_phone(browser, elder_sign_table)
    viewer = open_phone(browser, elder_sign_table, viewport=PHONE, wait_map=False, scale=1)
    try:
        page = host.page
        expect(page.locator("#es-attack-question")).to_contain_text("maximum sanity or their maximum stamina")
        # :431 "once the Ancient One wakes up, forget about the lingering effect of the most recent Mythos card"
        assert service.state()["mythos"]["active"] is False
        expect(viewer.page.locator("#es-mythos")).to_have_text(
            "None in force: the Ancient One is awake, and its waking ended the last Mythos card's lingering effect."
        )
        for p in (1, 2):
            for stat in ("sanity", "stamina"):
                expect(page.locator(f"#es-lower-{p}-{stat}")).to_have_class("primary")
        expect(page.locator("#es-roll-me")).to_have_count(0)  # nothing else is played until all have chosen
        for p in (1, 2):  # each investigator's two taps side by side under the name, inside a 390 px screen
            left = page.locator(f"#es-lower-{p}-sanity").bounding_box()
            right = page.locator(f"#es-lower-{p}-stamina").bounding_box()
            who = page.locator(f"#es-attack-who-{p}").bounding_box()
            assert left and right and who
            assert abs(left["y"] - right["y"]) < 2 and right["x"] >= left["x"] + left["width"], (left, right)
            assert who["y"] + who["height"] <= left["y"] + 1 and right["x"] + right["width"] <= 390
        expect(viewer.page.locator("#es-attack-choosing")).to_contain_text("Still to choose: Ada, Bo")
        text = page.locator("#es-turn").inner_text() + viewer.page.locator("#es-attempt").inner_text()
        assert not LINE_NUMBER.search(text) and "stat=" not in text and "lower player" not in text
        shot(host, "attack-choices-host")
        shot(viewer, "attack-choices-viewer")
        tap(host, "#es-lower-2-stamina")
        expect(page.locator("#es-lower-2-sanity")).to_have_count(0, timeout=5000)
        expect(viewer.page.locator("#es-attack-choosing")).to_contain_text(
            "Still to choose: Ada (tell the host)", timeout=5000
        )
        tap(host, "#es-lower-1-sanity")
        expect(page.locator("#es-attack-question")).to_have_count(0, timeout=5000)
        expect(page.locator("#es-roll-me")).to_be_visible()
        after = [(i["max_sanity"], i["max_stamina"]) for i in service.state()["investigators"]]
        assert after == [(before[0][0] - 1, before[0][1]), (before[1][0], before[1][1] - 1)]
        expect(viewer.page.locator("#es-attack-choosing")).to_have_count(0, timeout=5000)
        shot(host, "attack-chosen-host")
        assert host.errors == []
        viewer.check_clean()
    finally:
        host.context.close()
        viewer.context.close()


def test_while_a_card_question_is_open_its_answer_is_the_highlighted_button(
    browser: object, elder_sign_table: Table
) -> None:
    service = elder_sign_table.service
    slot = service.state()["adventures"][0]["slot"]
    service.do("set-tasks", {"adventure": slot, "tasks": "inv:1;lore:1", "ordered": "false"})  # from the card
    service.do("move", {"to": slot})
    service.do("roll", {"faces": "terror,peril,peril,peril,peril,peril"})  # a terror: what did the real card do?
    assert service.state()["question"]["part"] == "terror" and service.state()["attempt"]["dice_to_roll"]
    host = host_phone(browser, elder_sign_table)
    player = open_phone(browser, elder_sign_table, wait_map=False)
    try:
        page = host.page
        # a player's phone says who the table waits for: the host tells the terror (the question's words and its
        # answers are the host's alone), in the companion's sentence for every card question
        wait = player.page.locator("#es-table-waits")
        expect(wait).to_have_text(service.state()["table_waits"])
        expect(wait).to_contain_text("did on the terror")
        expect(player.page.locator("#es-card-question")).to_have_count(0)
        assert player.page.locator("#es-main button[data-legal=card-did]").count() == 0
        wait.scroll_into_view_if_needed()
        player.page.screenshot(path=str(SHOTS / "terror-wait-player.png"))
        expect(page.locator("#es-table-waits")).to_have_count(0)  # the host reads its own note (#es-roll)
        expect(page.locator("#es-card-question")).to_be_visible()
        # a terror is resolved before trying again (:202-211): no roll is offered until it is told
        expect(page.locator("#es-roll-after-terror")).to_be_visible()
        expect(page.locator("#es-roll-me")).to_have_count(0)
        expect(page.locator("#es-clue")).to_have_count(0)
        answer = page.locator("#es-main button[data-legal=card-did]", has_text="that was all")
        expect(answer).to_have_class("primary")
        assert page.locator("#es-turn button.primary").count() == 1  # the answer alone
        shot(host, "card-question-primary")
        while service.state()["question"]:  # the adventure's terror, then the Mythos card's (a stand-in too)
            length = service.state()["history_length"]
            tap(host, "#es-main button[data-legal=card-did]:has-text('that was all')")
            wait_for(lambda length=length: service.state()["history_length"] > length)
        expect(page.locator("#es-card-question")).to_have_count(0, timeout=5000)
        expect(page.locator("#es-roll-me")).to_have_class("primary")  # no question open: the roll again
        expect(page.locator("#es-roll-after-terror")).to_have_count(0)
        expect(wait).to_have_count(0)  # told: the player's phone no longer waits
        expect(page.locator("#es-main button[data-legal=end-turn]")).not_to_have_class("primary")
        assert page.locator("#es-turn button.primary").count() == 1  # the roll alone, not the end of the turn too
        assert host.errors == [] and player.errors == []
    finally:
        host.context.close()
        player.context.close()


def test_the_end_card_of_a_played_battle_weighs_its_blows(browser: object, tmp_path: Path) -> None:
    """A new player's game (its history in tests/data): the end card said 9 attempts came good once after a battle of
    blow after blow; it now counts each blow and the adventure completed, and its timeline's labels stand apart."""
    store, game_id = stored(tmp_path / "games.sqlite3")
    service = GameService(store, load_packs(), rng=random.Random(1))
    service.load_game(game_id)
    table = start_table(tmp_path, service=service)
    viewer = open_phone(browser, table, viewport=PHONE, wait_map=False, scale=1)
    try:
        luck = service.state()["summary"]["luck"]
        expect(viewer.page.locator("#end-luck")).to_have_text(luck["words"], timeout=5000)
        attempts = service.record(game_id)["attempts"]  # each blow and adventure counted (test_elder_sign_luck)
        assert luck["successes"] == sum(a["good"] for a in attempts) > 1 and luck["attempts"] == len(attempts)
        viewer.page.wait_for_function("() => document.querySelector('#end-timeline').complete", timeout=5000)
        viewer.page.locator("#end-timeline").scroll_into_view_if_needed()
        shot(viewer, "end-card-battle")
        viewer.check_clean()
    finally:
        viewer.context.close()
        table.server.stop()
        service.close()
