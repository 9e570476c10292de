"""The join code where the page says it is: a phone that comes late reads it on the companion's screen.

A fresh player's first page says "Enter the join code shown on the companion", but the OLED showed only the game's
facts once the first command had replaced the join screen of the start. Now the join screen comes back by itself
whenever the game screen has been quiet for JOIN_EVERY_S, for JOIN_SHOWN_S, and gives way at once to anything new;
it never wakes a dimmed panel. The picture is the golden join screen (tests/golden/join.png) on luma's dummy device.
"""

from __future__ import annotations

from pathlib import Path

from hardware_fakes import FakeClock, game_state, sim_table
from PIL import Image, ImageChops

from hardware import Table, screens
from hardware.table import JOIN_EVERY_S, JOIN_SHOWN_S

GOLDEN = Path(__file__).parent / "golden"
URL, CODE = "http://192.168.1.23:8080/", "K7QX3M"  # the golden join screen's


def same_as_golden(image: Image.Image | None, name: str) -> bool:
    assert image is not None
    with Image.open(GOLDEN / f"{name}.png") as golden:
        return ImageChops.logical_xor(image.convert("1"), golden.convert("1")).getbbox() is None


def settle(table: Table, clock: FakeClock, seconds: float) -> None:
    """Let `seconds` pass as on the table: its worker ticks every second and takes each step of its jobs when due."""
    end, tick = clock.now() + seconds, clock.now()
    while clock.now() < end:
        if clock.now() >= tick:
            table.tick()
            tick += 1.0
        if table.scheduler.pending():
            table.scheduler.step(1)  # sleeps the fake clock until the step is due (at most OVERLAY_POLL_S here)
        else:
            clock.advance(0.25)


def test_a_quiet_game_screen_gives_way_to_the_join_screen_now_and_then() -> None:
    clock = FakeClock()
    with sim_table(clock) as table:
        state = game_state(clock="III", round=2)
        table.show_join(URL, CODE)  # at start, until the first state
        table.run_pending()
        assert same_as_golden(table.display.screen, "join")
        table.show(state)
        table.run_pending()
        assert table.display.name == "game"
        settle(table, clock, JOIN_EVERY_S - 2)
        assert table.display.name == "game"  # not yet
        settle(table, clock, 3)
        assert table.display.name == "join" and same_as_golden(table.display.screen, "join")
        settle(table, clock, JOIN_SHOWN_S + 1)
        assert table.display.name == "game"
        assert table.display.screen is not None
        assert table.display.screen.tobytes() == screens.game_screen(state).tobytes()
        settle(table, clock, JOIN_EVERY_S + 1)
        assert table.display.name in ("join", "game") and table.scheduler.done.count("join again") == 2


def test_anything_new_takes_the_screen_back_at_once_and_play_keeps_it_away() -> None:
    clock = FakeClock()
    with sim_table(clock) as table:
        table.show_join(URL, CODE)
        table.show(game_state(round=1))
        table.run_pending()
        settle(table, clock, JOIN_EVERY_S + 1)
        assert table.display.name == "join"
        newer = game_state(round=2)
        table.show(newer)  # a command while the join screen is up
        clock.advance(0.3)
        table.run_pending()
        assert table.display.name == "game" and table.display.screen is not None
        assert table.display.screen.tobytes() == screens.game_screen(newer).tobytes()
        for round_ in range(3, 3 + 4):  # a command every 20 s: the game is never quiet for a minute
            settle(table, clock, 20)
            table.show(game_state(round=round_))
            table.run_pending()
            assert table.display.name == "game"


def test_the_join_screen_coming_back_does_not_wake_a_dimmed_panel() -> None:
    clock = FakeClock()
    with sim_table(clock) as table:
        table.show_join(URL, CODE)
        table.show(game_state())
        table.run_pending()
        settle(table, clock, table.config.display.dim_after_s + 1)
        assert table.display.is_dimmed
        joins = table.scheduler.done.count("join again")
        assert joins >= 5  # every minute of the ten
        settle(table, clock, JOIN_EVERY_S + JOIN_SHOWN_S + 2)
        assert table.display.is_dimmed and table.scheduler.done.count("join again") > joins


def test_without_a_join_code_the_game_screen_stays() -> None:
    clock = FakeClock()
    with sim_table(clock) as table:
        table.show(game_state())
        table.run_pending()
        settle(table, clock, 2 * JOIN_EVERY_S)
        assert table.display.name == "game" and "join again" not in table.scheduler.done
