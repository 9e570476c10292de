"""What a fresh player on two 390x844 phones found at Elder Sign's card questions, in Debian's headless Chromium against
the real app on waitress, the real GameService, engine and SQLite file (Ada, Ben and Cleo, every card a stand-in):
- at midnight's Mythos question the host told "Sanity, Ben -1" and every other sanity row (everyone, Ada, Cleo)
  vanished: a card that costs sanity to two named investigators, or to one and to everyone, is now told in full;
- the terror question after a failed roll (elder-sign-rules.txt:202) showed bare "Sanity:" and "Stamina:" rows: it
  now says whose they are, as the penalty question does (:219);
- the player's phone at midnight's question and at a penalty said only "no dice to throw yet: the host starts the next
  roll", at a terror "the host tells the companion what the real cards did": each now says what the table waits for,
  in one sentence of the companion's (table_waits), and the simulated tray's note under it no longer says the host
  starts the next roll.
Screenshots go to tests/artifacts/elder_sign/."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from games import numbers_copied
from playwright.sync_api import expect
from test_browser_elder_sign import SHOTS, shot, wait_for
from test_browser_elder_sign_tasks import host_phone
from test_browser_web import Phone, open_phone
from web_fixtures import Table, serve_table

from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService
from vision.sim_tray import Thrower

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def three_table(tmp_path: Path) -> Iterator[Table]:
    """Elder Sign for Ada, Ben and Cleo (the bundled stand-ins, their numbers copied), with --sim's thrower."""
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_packs(), rng=random.Random(4))
    service.new_game({"rules": "elder-sign", "players": 3, "seed": 11, "names": ["Ada", "Ben", "Cleo"]})
    service.do("card-did", {"effect": "nothing"})
    numbers_copied(service._game, service)
    yield from serve_table(tmp_path, service=service, threads=32, sim_throw=Thrower(service.next_throw, service.over))


def _row(phone: Phone, label: str) -> object:
    """The card question's amount row whose label is `label` ("Sanity, Ben")."""
    return phone.page.locator("#es-main .row", has=phone.page.locator("span", has_text=label + ":"))


def _sanity(service: GameService) -> dict[int, int]:
    return {i["player"]: i["sanity"] for i in service.state()["investigators"]}


def _player_waits(player: Phone, service: GameService, *words: str) -> None:
    """The player's phone says what the table waits for, the companion's sentence, on the roll card and the tray's."""
    said = service.state()["table_waits"]
    for word in words:
        assert word in said, said
    expect(player.page.locator("#es-table-waits")).to_have_text(said, timeout=5000)
    # the simulated tray's note under it says it once, not twice: what it means for the throw
    expect(player.page.locator("#sim-throw-note")).to_have_text("No dice to throw until then.", timeout=5000)
    expect(player.page.locator("#es-attempt-card")).not_to_contain_text("the host starts the next roll")


def test_midnights_mythos_card_is_told_for_two_investigators_and_everyone(browser: object, three_table: Table) -> None:
    service = three_table.service
    service.do("clock", {"hours": "9"})  # the clock at IX: Ada's turn ends at midnight
    service.do("end-turn")
    state = service.state()
    assert state["question"]["part"] == "at_midnight" and state["current_player"] == 1
    host = host_phone(browser, three_table)
    player = open_phone(browser, three_table, wait_map=False)
    try:
        page = host.page
        before = _sanity(service)
        ben = _row(host, "Sanity, Ben")
        expect(ben).to_have_count(1)
        ben.locator("button", has_text="Tell").click()
        wait_for(lambda: _sanity(service)[1] == before[1] - 1)
        expect(_row(host, "Sanity, Ben")).to_have_count(0, timeout=5000)  # told
        for label in ("Sanity, everyone", "Sanity, Ada", "Sanity, Cleo", "Stamina, everyone"):
            expect(_row(host, label)).to_have_count(1)
        shot(host, "card-told-1-midnight-after-ben")
        _row(host, "Sanity, Cleo").locator("button", has_text="Tell").click()
        wait_for(lambda: _sanity(service)[2] == before[2] - 1)
        _row(host, "Sanity, everyone").locator("button", has_text="Tell").click()
        wait_for(lambda: _sanity(service)[0] == before[0] - 1)
        assert _sanity(service) == {0: before[0] - 1, 1: before[1] - 2, 2: before[2] - 2}
        expect(_row(host, "Sanity, Ada")).to_have_count(1)
        expect(page.locator("#es-card-question")).to_be_visible()  # open until "that was all"
        _player_waits(player, service, "the Mythos card did at midnight", "Ben's turn goes on after it")
        player.page.locator("#es-table-waits").scroll_into_view_if_needed()
        player.page.screenshot(path=str(SHOTS / "card-told-2-midnight-player.png"))
        assert host.errors == [] and player.errors == []
    finally:
        host.context.close()
        player.context.close()


def test_the_terror_question_names_whose_it_is_and_the_player_reads_what_the_table_waits_for(
    browser: object, three_table: Table
) -> None:
    service = three_table.service
    slot = service.state()["adventures"][0]["slot"]
    service.do("set-tasks", {"adventure": slot, "tasks": "inv:1;lore:1", "ordered": "false"})
    service.do("move", {"to": slot})
    service.do("roll", {"faces": "terror,peril,peril,peril,peril,peril"})  # a terror: what did the real card do?
    assert service.state()["question"]["part"] == "terror"
    host = host_phone(browser, three_table)
    player = open_phone(browser, three_table, wait_map=False)
    try:
        question = host.page.locator("#es-card-question")
        expect(question).to_contain_text("on the terror?")
        expect(question).to_contain_text("Whatever sanity or stamina it costs is Ada's, whose roll showed the terror.")
        expect(_row(host, "Sanity")).to_have_count(1)
        shot(host, "card-told-3-terror-host")
        _player_waits(player, service, "did on the terror", "Ada's, whose roll showed the terror", "rolls go on")
        player.page.locator("#es-table-waits").scroll_into_view_if_needed()
        player.page.screenshot(path=str(SHOTS / "card-told-4-terror-player.png"))
        assert host.errors == [] and player.errors == []
    finally:
        host.context.close()
        player.context.close()


def test_the_player_reads_what_the_table_waits_for_at_a_penalty(browser: object, three_table: Table) -> None:
    service = three_table.service
    service.do("move", {"to": "1"})
    service.do("set-tasks", {"adventure": "1", "tasks": "peril:3", "ordered": "false"})
    service.do("roll", {"faces": "green:lore,green:inv1,green:inv1,green:inv1,green:inv1,green:inv1"})
    service.do("end-turn")  # the attempt fails as Ada's turn ends: the stand-in's penalty is asked under Ben's turn
    state = service.state()
    assert state["question"]["part"] == "penalty" and state["current_player"] == 1
    player = open_phone(browser, three_table, wait_map=False)
    try:
        _player_waits(player, service, "as its penalty", "Ada's, who failed the card", "Ben's turn goes on after it")
        player.page.locator("#sim-throw-note").scroll_into_view_if_needed()
        player.page.screenshot(path=str(SHOTS / "card-told-5-penalty-player.png"))
        length = service.state()["history_length"]
        service.do("card-did", {"effect": "nothing"})
        wait_for(lambda: service.state()["history_length"] > length)
        expect(player.page.locator("#es-table-waits")).to_have_count(0, timeout=5000)  # told: nothing waits
        assert player.errors == []
    finally:
        player.context.close()
