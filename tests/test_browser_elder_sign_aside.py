"""After a roll that completed nothing the player chooses which die is set aside (elder-sign-rules.txt:211 "I need to
choose one of the dice I used in my previous attempt and set it aside"): the host's phone (Chromium at 390x844) shows
the dice of that roll, the suggested one marked, the others of another colour as buttons; a tap is the choice, and
"Roll for me" then throws the others. The engine's side (set-aside, the tray's dice) is checked too.
Screenshots go to tests/artifacts/elder_sign/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_browser_elder_sign import shot, tap, wait_for
from test_browser_elder_sign_tasks import elder_sign_table, host_phone
from test_elder_sign_findings import stand_in_attempt
from web_fixtures import Table

from companion.errors import IllegalCommand
from companion.games.base import TrayDie
from companion.games.elder_sign.engine import Game

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["elder_sign_table"]

FAILED = "green:inv1,green:inv1,green:inv1,green:inv1,green:lore,green:lore,yellow:inv4"  # no peril, no terror


def _failed_roll_with_the_yellow_die(service: object) -> None:
    service.do("move", {"to": "1"})  # type: ignore[attr-defined]
    service.do("set-tasks", {"adventure": "1", "tasks": "peril:3", "ordered": "false"})  # type: ignore[attr-defined]
    service.do("add-die", {"colour": "yellow"})  # type: ignore[attr-defined]
    service.do("roll", {"faces": FAILED})  # type: ignore[attr-defined]


def test_the_host_taps_the_die_to_set_aside_and_roll_for_me_throws_the_others(
    browser: object, elder_sign_table: Table
) -> None:
    service = elder_sign_table.service
    _failed_roll_with_the_yellow_die(service)
    attempt = service.state()["attempt"]
    assert attempt["failed"] and attempt["aside"] == "green" and not attempt["aside_chosen"]
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        expect(page.locator("#es-aside-note")).to_contain_text("as Ada chooses")
        expect(page.locator("#es-aside-note")).to_contain_text("suggests setting a green die aside")
        expect(page.locator("#es-last .chip.red")).to_have_text("1 investigation (set aside)")
        yellow = page.locator("#es-last button", has_text="yellow 4 investigation")
        expect(yellow).to_have_count(1)
        expect(page.locator("#es-last button")).to_have_count(1)  # the greens are one choice, the suggested one
        shot(host, "aside-1-suggested")
        tap(host, "#es-last button")
        expect(page.locator("#es-aside-note")).to_contain_text("Ada sets a yellow die aside", timeout=5000)
        expect(page.locator("#es-last .chip.red")).to_have_text("yellow 4 investigation (set aside)")
        expect(page.locator("#es-last button")).to_have_count(6)  # each green die, if Ada changes her mind
        assert service.state()["next_dice"] == ["green"] * 6
        shot(host, "aside-2-chosen")
        length = service.state()["history_length"]
        tap(host, "#es-roll-me")
        wait_for(lambda: service.state()["history_length"] > length)
        rolled = service.history()[length]["command"]
        assert rolled["name"] == "roll" and len(rolled["args"]["faces"].split(",")) == 6
        assert "yellow" not in rolled["args"]["faces"]  # the yellow die was set aside, not a green one
        assert service.history()[-1]["seq"] == length + 1  # one tap, one roll
        assert host.errors == []
    finally:
        host.context.close()


def _game() -> Game:
    game = stand_in_attempt("peril:3")
    game.push("add-die colour=yellow")
    game.push(f"roll faces={FAILED}")
    return game


def test_the_choice_is_by_colour_and_checked() -> None:
    game = _game()
    offered = sorted(a.args["colour"] for a in game.legal_actions() if a.name == "set-aside")
    assert offered == ["yellow"]  # green is the suggestion already
    with pytest.raises(IllegalCommand, match="no red die"):
        game.push("set-aside colour=red")
    game.push("set-aside colour=yellow")
    with pytest.raises(IllegalCommand, match="yellow die was chosen"):
        game.push("roll lose=green faces=green:inv1,green:inv1,green:inv1,green:inv1,green:inv1,yellow:inv1")
    game.push("set-aside colour=green")  # changed her mind
    assert game.view()["attempt"]["aside"] == "green" and game.view()["attempt"]["aside_chosen"]
    events = game.push("roll faces=green:peril,green:peril,green:peril,green:inv1,green:inv1,yellow:inv1")
    assert [e["colour"] for e in events if e["type"] == "die_lost"] == ["green"]
    assert game.view()["attempt"] is None  # the three perils completed the card
    with pytest.raises(IllegalCommand, match="after a roll that completed nothing"):
        Game.replay(game.setup, game.packs, [*game.history, "set-aside colour=green"])


def test_the_real_tray_shows_which_die_the_player_set_aside() -> None:
    """Real dice: the player takes the yellow die out and throws the rest; the roll sets the yellow one aside."""
    from companion.games.elder_sign.module import MODULE

    game = _game()
    dice = [TrayDie("green", 1) for _ in range(6)]  # pip 1 of a green die: 1 investigation (the default pip map)
    outcome = MODULE.tray_roll(game, dice, None, why="settled", auto_roll=True)  # type: ignore[arg-type]
    assert outcome.command is not None and outcome.command[1]["lose"] == "yellow"
    game.push(f"roll {' '.join(f'{k}={v}' for k, v in outcome.command[1].items())}")
    assert game.view()["attempt"]["free"]["yellow"] == 0


def test_the_host_taps_a_die_to_hold_on_the_marker_and_the_next_roll_keeps_it(
    browser: object, elder_sign_table: Table
) -> None:
    """:213 "one other die from my previous attempt to ... focus on my own Investigator marker", :365-371 it keeps
    its face: the page had no control for it, though the engine had hold=."""
    service = elder_sign_table.service
    _failed_roll_with_the_yellow_die(service)
    host = host_phone(browser, elder_sign_table)
    try:
        page = host.page
        expect(page.locator("#es-hold-note")).to_contain_text(
            "one other die than the one set aside goes on their marker (focus)"
        )
        page.locator("#es-hold button", has_text="lore").first.click()
        expect(page.locator("#es-hold .chip.ok")).to_have_text("lore (held by focus)", timeout=5000)
        assert service.state()["attempt"]["hold"] == "lore"
        assert sorted(service.state()["next_dice"]) == ["green"] * 4 + ["yellow"]  # one set aside, one held
        shot(host, "hold-chosen")
        length = service.state()["history_length"]
        tap(host, "#es-roll-me")
        wait_for(lambda: service.state()["history_length"] > length)
        rolled = service.history()[length]
        assert rolled["command"]["name"] == "roll" and len(rolled["command"]["args"]["faces"].split(",")) == 5
        assert "focuses: a lore die is held" in rolled["text"], rolled["text"]  # the roll's own words
        assert host.errors == []
    finally:
        host.context.close()
