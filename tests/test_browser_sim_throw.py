"""--sim's "Throw the dice (simulated tray)" in real headless Chromium (Debian's /usr/bin/chromium) at 390x844,
against the whole of ``companion serve --sim`` (companion.serve.Companion: the real ThrowCamera in the tray's camera
thread, the real reader, the real GameService, the real app on waitress, its main loop in a thread).

A fresh player saw the simulated tray roll by itself after every command that was not a roll; now a phone throws:
the control says why it cannot while no roll is under way, and one tap is one throw, read and played as the roll.
Screenshots go to tests/artifacts/sim-throw/ for a person to look at."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from games import numbers_copied
from playwright.sync_api import expect
from test_browser_web import ARTIFACTS, Phone, open_phone
from test_sim_tray_throws import sim_companion

from companion.serve import Companion
from vision.sim_tray import NO_DICE, NO_ROLL, NO_ROLL_PLAYER, ThrowCamera

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "sim-throw"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Companion]:
    companion = sim_companion(tmp_path, interval=0.05, settle_s=0.2)
    companion.start()
    loop = threading.Thread(target=companion.run, args=(0.05,), daemon=True)  # plays what the tray reads
    loop.start()
    try:
        yield companion
    finally:
        companion.request_stop("test over")
        loop.join(timeout=10)
        companion.shutdown()


def shot(phone: Phone, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SHOTS / f"{name}.png"))


def tray_rolls(served: Companion) -> list[dict[str, Any]]:
    return [h for h in served.game.history() if h["command"]["name"] == "roll" and h["source"] == "tray"]


def thrown(served: Companion) -> int:
    assert served.tray is not None and isinstance(served.tray.camera, ThrowCamera)
    return served.tray.camera.throws


def test_a_player_throws_the_simulated_tray_and_sees_the_reading(browser: Any, served: Companion) -> None:
    phone = open_phone(browser, SimpleNamespace(url=f"http://127.0.0.1:{served.port}"))  # type: ignore[arg-type]
    try:
        phone.tab("dice")
        button = phone.page.locator("#sim-throw-btn")
        expect(button).to_be_visible()
        expect(button).to_have_text("Throw the dice (simulated tray)")
        expect(button).to_be_disabled()  # no roll under way: it says why, and what comes next (the host's roll)
        expect(phone.page.locator("#sim-throw-note")).to_have_text(NO_ROLL_PLAYER[0].upper() + NO_ROLL_PLAYER[1:])
        expect(phone.page.locator("body")).not_to_contain_text(NO_ROLL[len(NO_DICE) :])  # the host's words, not hers
        shot(phone, "no-roll")
        served.game.do("attempt", {"action": "search", "need": "eye:1"}, source="web")  # the host's "Start the roll"
        expect(button).to_be_enabled()
        expect(phone.page.locator("#sim-throw-note")).to_contain_text("3 dice (clue, clue, clue)")
        before = thrown(served)
        assert tray_rolls(served) == []  # starting the roll threw nothing
        shot(phone, "roll-under-way")
        button.click()  # a player, not the host, throws
        expect(phone.page.locator("#tray-note")).to_have_text(
            "Played as a roll. Throw the dice again for the next roll.", timeout=20000
        )
        expect(phone.page.locator("#tray-dice .chip")).to_have_count(3)
        for chip in phone.page.locator("#tray-dice .chip").all():
            expect(chip).to_contain_text("· blue")
        assert thrown(served) == before + 1 and len(tray_rolls(served)) == 1  # one tap, one throw, one roll
        shot(phone, "thrown-and-read")
        phone.check_clean()
    finally:
        phone.context.close()


def test_elder_signs_roll_card_carries_the_throw(browser: Any, served: Companion) -> None:
    phone = open_phone(browser, SimpleNamespace(url=f"http://127.0.0.1:{served.port}"), host=True)  # type: ignore[arg-type]
    try:
        served.game.new_game({"rules": "elder-sign", "players": 2, "seed": 3, "names": ["Anna", "Ben"]})
        while served.game.state().get("question"):
            served.game.do("card-did", {"effect": "nothing"})
        numbers_copied(served.game._game, served.game)  # the stand-in cards' numbers, before the first turn
        slot = str(served.game.state()["adventures"][0]["slot"])
        served.game.do("set-tasks", {"adventure": slot, "tasks": "inv:5,lore:2", "ordered": "false"})
        served.game.do("move", {"to": slot})
        while served.game.state().get("question"):
            served.game.do("card-did", {"effect": "nothing"})
        button = phone.page.locator("#es-attempt-card #sim-throw-btn")
        expect(button).to_be_enabled()
        before = thrown(served)
        assert tray_rolls(served) == []  # the tasks and the move threw nothing
        phone.page.locator("#es-attempt-card").scroll_into_view_if_needed()
        shot(phone, "elder-sign-roll-card")
        button.click()  # the host throws too
        for _ in range(200):  # the tray settles, is read and its roll played (20 s at most)
            if tray_rolls(served):
                break
            phone.page.wait_for_timeout(100)
        expect(phone.page.locator("#es-attempt")).to_contain_text("The last roll", timeout=5000)  # the page shows it
        assert thrown(served) == before + 1 and len(tray_rolls(served)) == 1
        phone.page.locator("#es-attempt-card").scroll_into_view_if_needed()
        shot(phone, "elder-sign-thrown")
        phone.check_clean()
    finally:
        phone.context.close()


def test_no_throw_offered_once_the_last_action_failed_and_no_old_game_dice(browser: Any, served: Companion) -> None:
    """Player Turn: up to three actions (skeptics-rulebook.txt:101): after the last action's roll failed the throw
    says why it cannot and "End the turn" is the primary; a new game's tray card shows none of the last game's dice."""
    phone = open_phone(browser, SimpleNamespace(url=f"http://127.0.0.1:{served.port}"), host=True)  # type: ignore[arg-type]
    try:
        served.game.do("attempt", {"action": "search", "need": "camera:3"}, source="web")
        phone.tab("dice")
        button = phone.page.locator("#sim-throw-btn")
        expect(button).to_be_enabled()
        button.click()
        expect(phone.page.locator("#tray-dice .chip")).to_have_count(3, timeout=20000)
        while dice := served.game.next_throw():
            served.game.do("roll", {"faces": ",".join(["eye"] * len(dice))}, source="web")
        expect(button).to_be_disabled(timeout=10000)
        expect(button).not_to_have_class("primary")
        expect(phone.page.locator("#sim-throw-note")).to_have_text(NO_ROLL[0].upper() + NO_ROLL[1:])
        shot(phone, "no-action-left-dice")
        phone.tab("game")
        expect(phone.page.locator("#turn-end [data-legal='end-turn']")).to_have_class("primary")
        expect(phone.page.locator("button.primary:visible")).to_have_count(1)
        shot(phone, "no-action-left-game")
        served.game.new_game({"players": 3, "board": "asylum", "ghost": "child", "seed": 9})
        phone.tab("dice")
        expect(phone.page.locator("#tray-dice")).to_have_text("No dice read in this game yet.", timeout=10000)
        expect(phone.page.locator("#tray-dice .chip")).to_have_count(0)
        expect(phone.page.locator("#tray-at")).to_have_text("")
        phone.page.click("#tray-card summary")  # the photo folded out: none, it is the last game's throw
        expect(phone.page.locator("#tray-photo")).to_be_hidden()
        shot(phone, "new-game-tray")
        phone.check_clean()
    finally:
        phone.context.close()


def test_a_players_throw_and_the_hosts_play_alike_and_wait_for_the_task_chosen(browser: Any, served: Companion) -> None:
    """docs/web.md: any phone throws in --sim, and one throw is one roll. A player's throw and the host's are played
    the same way (two browser contexts): the tray's reading is the roll, and when its dice meet more than one task
    both phones show its dice and who chooses (elder-sign-rules.txt:177, :189); only the host's has the taps."""
    url = SimpleNamespace(url=f"http://127.0.0.1:{served.port}")
    host = open_phone(browser, url, host=True)  # type: ignore[arg-type]
    player = open_phone(browser, url)  # type: ignore[arg-type]
    try:
        served.game.new_game({"rules": "elder-sign", "players": 2, "seed": 3, "names": ["Anna", "Ben"]})
        while served.game.state().get("question"):
            served.game.do("card-did", {"effect": "nothing"})
        numbers_copied(served.game._game, served.game)
        slot = str(served.game.state()["adventures"][0]["slot"])
        # a task for every kind of face, three for investigation: whatever the tray's dice show (they are drawn at
        # random), each throw meets more than one (unless all its dice show one face other than investigation)
        tasks = "inv:1;inv:1;inv:1;lore:1;peril:1;terror:1"
        served.game.do("set-tasks", {"adventure": slot, "tasks": tasks, "ordered": "false"})
        served.game.do("move", {"to": slot})
        for who, phone in (("player", player), ("host", host)):
            rolls = len(tray_rolls(served))
            phone.page.locator("#es-attempt-card #sim-throw-btn").click()
            for _ in range(200):
                if len(tray_rolls(served)) > rolls:
                    break
                phone.page.wait_for_timeout(100)
            assert len(tray_rolls(served)) == rolls + 1, who  # the throw was played as the roll, whoever threw
            assert served.game.state()["attempt"]["choose"], who  # and waits for the task, whoever threw
            expect(player.page.locator("#es-choose-note")).to_contain_text("(the host taps it)")
            expect(player.page.locator("#es-choose")).to_have_count(0)
            expect(host.page.locator("#es-choose-note")).to_contain_text("Tap it.")
            expect(host.page.locator("#es-choose button").first).to_be_visible()
            player.page.locator("#es-attempt-card").scroll_into_view_if_needed()
            shot(player, f"two-phones-{who}-threw-player")
            host.page.locator("#es-attempt-card").scroll_into_view_if_needed()
            shot(host, f"two-phones-{who}-threw-host")
            host.page.locator("#es-choose button").first.click()
            expect(host.page.locator("#es-choose")).to_have_count(0)
            expect(player.page.locator("#es-choose-note")).to_have_count(0)
        player.check_clean()
        host.check_clean()
    finally:
        player.context.close()
        host.context.close()


def test_the_dice_tab_says_the_game_is_over_once_it_is(browser: Any, served: Companion) -> None:
    """A fresh player saw the Dice tab still say "no roll can be made now ... with no action left, end the turn"
    after the game was won: once it has ended the throw says the game is over, and nothing of ending a turn."""
    from vision.sim_tray import GAME_OVER

    host = open_phone(browser, SimpleNamespace(url=f"http://127.0.0.1:{served.port}"), host=True)  # type: ignore[arg-type]
    player = open_phone(browser, SimpleNamespace(url=f"http://127.0.0.1:{served.port}"))  # type: ignore[arg-type]
    try:
        served.game.new_game({"rules": "elder-sign", "players": 2, "seed": 3, "names": ["Anna", "Ben"]})
        while served.game.state().get("question"):
            served.game.do("card-did", {"effect": "nothing"})
        numbers_copied(served.game._game, served.game)  # the stand-in cards' numbers (the Elder Signs it needs)
        for phone in (host, player):  # Elder Sign's roll card carries the throw (no Dice tab)
            expect(phone.page.locator("#sim-throw-note")).to_contain_text("No roll can be made now", timeout=10000)
        served.game.do("elder-signs", {"n": str(served.game.state()["elder_signs_needed"])})  # sealed away: won
        assert served.game.state()["outcome"] == "won"
        for phone, name in ((host, "over-host"), (player, "over-player")):
            note = phone.page.locator("#sim-throw-note")
            expect(note).to_have_text(GAME_OVER[0].upper() + GAME_OVER[1:], timeout=10000)
            expect(phone.page.locator("body")).not_to_contain_text("end the turn")
            expect(phone.page.locator("#sim-throw-btn")).to_be_disabled()
            phone.page.click("#banner-ok")  # the end's banner taken in: the roll card below the end card
            note.scroll_into_view_if_needed()
            shot(phone, name)
    finally:
        host.context.close()
        player.context.close()
