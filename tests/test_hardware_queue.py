"""The hardware work queue coalesces: fast play cannot make it grow, and nothing that matters is lost.

Everything runs on the injected clock (`FakeClock`), with `threaded=False`: the tests take the
scheduler's steps themselves, so "10 commands a second" is ten commands per 0.1 s of fake time.
Rulebook, "Ghost Hour Sequence": the Ghost Hour must always be announced, however fast the game goes.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hardware_fakes import FakeClock, RecordingSpawn, game_state, quiet_voice, sim_table

from hardware import Table, screens
from hardware.controls import GHOST_HOUR_PATTERN, timeline
from hardware.table import OVERLAY_MIN_S, OVERLAY_POLL_S

MARKS = ["III", "VI", "IX", "XII"]
# At most: one "show" job, one error, one join screen and one test screen waiting for the OLED,
# one hand move, plus the job running in each lane (screen, hand). Ghost Hours and beeps come on top
# (never dropped); the tests below count them separately.
QUEUE_BOUND = 4 + 1 + 2
GHOST = {"type": "ghost_hour", "environment": "Fire", "room": 8, "room_name": "Bath"}


@pytest.fixture
def rig() -> Iterator[tuple[Table, MockFactory, FakeClock, RecordingSpawn]]:
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    spawn = RecordingSpawn()
    table = sim_table(clock, pin_factory=factory, voice=quiet_voice(spawn))
    yield table, factory, clock, spawn
    table.close()


def run_until(table: Table, clock: FakeClock, until: float) -> None:
    """Let the worker do everything due up to `until` (fake time), then let the clock reach it."""
    s = table.scheduler
    while True:
        s.start_ready()
        nxt = s._next_due()
        if nxt is None or nxt[1] > until:
            break
        s.step(1)
    clock.t = max(clock.t, until)


def wait_for_the_game(table: Table) -> None:
    """Take the worker's steps until the error screen gives way."""
    for _ in range(1000):
        if table.display.name != "error":
            return
        table.scheduler.step(1)
    raise AssertionError("the error screen never gave way")


def rising_edges(states: list[int]) -> int:
    return sum(1 for a, b in zip([0, *states], states) if b and not a)


def expected_beeps() -> int:
    """How many times the Ghost Hour pattern switches the buzzer on."""
    return rising_edges([int(buzzer) for _, buzzer, _ in timeline(GHOST_HOUR_PATTERN)])


def test_a_thousand_states_with_nothing_running_keep_the_queue_bounded(
    rig: tuple[Table, MockFactory, FakeClock, RecordingSpawn],
) -> None:
    """The worst case: the worker is stalled while 1000 commands arrive."""
    table, factory, clock, spawn = rig
    peak = 0
    state = game_state()
    for i in range(1000):
        mark = MARKS[i % 4]
        state = game_state(clock=mark, round=i, actions_left=i % 3)
        table.on_events([{"type": "clock_advanced", "clock": mark, "hour": 0, "reason": "round"}], state)
        peak = max(peak, table.scheduler.pending())
    assert peak <= 2  # one "show", one hand move
    assert table.scheduler.merged >= 2 * 1000 - 2 * 2
    started = clock.now()
    table.run_pending()
    assert table.display.screen is not None
    assert table.display.screen.tobytes() == screens.game_screen(state).tobytes()
    assert table.hand_mark == state["clock"] and table.status()["pending"] == 0
    assert [name for name in table.scheduler.done if name.startswith("hand")] == [f"hand {state['clock']}"]
    assert clock.now() - started < 5  # one sweep, not a thousand


def test_a_thousand_states_at_ten_a_second_with_a_ghost_hour_and_errors(
    rig: tuple[Table, MockFactory, FakeClock, RecordingSpawn],
) -> None:
    """Ten commands a second while the worker runs: the queue stays small, the Ghost Hour is announced."""
    table, factory, clock, spawn = rig
    buzzer = factory.pin(table.config.pins.buzzer)
    buzzer.clear_states()
    peak = 0
    state = game_state()
    for i in range(1000):
        mark = MARKS[i % 4]
        state = game_state(clock=mark, round=i)
        if i == 500:
            table.on_events([{"type": "clock_advanced", "clock": mark}, GHOST], state)
        elif i % 100 == 50:
            table.show_error("Camera", f"No dice tray camera found ({i}).")
            table.show(state)
        else:
            table.on_events([{"type": "clock_advanced", "clock": mark}], state)
        peak = max(peak, table.scheduler.pending())
        run_until(table, clock, clock.now() + 0.1)
    assert peak <= QUEUE_BOUND + 1  # + the one Ghost Hour
    table.run_pending()
    assert table.alarms == 1
    assert spawn.calls and spawn.said[-1] == "Ghost Hour. Fire. The ghost appears in room 8, the Bath."
    assert rising_edges([int(s.state) for s in buzzer.states]) == expected_beeps()
    assert table.display.name == "game" and table.display.screen is not None
    assert table.display.screen.tobytes() == screens.game_screen(state, "Bath").tobytes()
    assert table.hand_mark == state["clock"]


def test_ghost_hours_are_never_dropped_only_identical_waiting_ones_merge(
    rig: tuple[Table, MockFactory, FakeClock, RecordingSpawn],
) -> None:
    """Rulebook, "Ghost Hour Sequence": every Ghost Hour is announced."""
    table, factory, clock, spawn = rig
    other = {"type": "ghost_hour", "environment": "Darkness", "room": 3, "room_name": "Kitchen"}
    for ghost in (GHOST, GHOST, other):  # the first two are identical and wait together
        for i in range(50):
            table.on_events(
                [{"type": "clock_advanced", "clock": MARKS[i % 4]}] if i else [ghost],
                game_state(clock=MARKS[i % 4], ghost_room=ghost["room"]),
            )
    assert table.scheduler.pending() <= 2 + 2  # show, hand, two distinct Ghost Hours
    table.run_pending()
    assert table.alarms == 2
    announced = list(spawn.said)
    assert any("room 8, the Bath" in text for text in announced)
    assert any("room 3, the Kitchen" in text for text in announced)


def test_a_sweep_under_way_finishes_then_the_hand_goes_to_the_newest_mark(
    rig: tuple[Table, MockFactory, FakeClock, RecordingSpawn],
) -> None:
    table, factory, clock, spawn = rig
    table.show(game_state(clock="IX"))
    table.scheduler.step(5)
    assert table.hand_angle is not None and 0 < table.hand_angle < 270  # under way
    for mark in ("III", "VI", "XII", "III", "VI"):
        table.show(game_state(clock=mark))
    table.run_pending()
    assert [n for n in table.scheduler.done if n.startswith("hand")] == ["hand IX", "hand VI"]
    assert table.hand_mark == "VI" and table.hand_angle == 180


def test_an_error_gives_way_to_a_waiting_state_after_the_minimum(
    rig: tuple[Table, MockFactory, FakeClock, RecordingSpawn],
) -> None:
    """A state that arrives while an 8 s error screen is up is on the OLED OVERLAY_MIN_S after the error."""
    table, factory, clock, spawn = rig
    table.show(game_state(clock="III"))
    table.run_pending()
    table.show_error("Camera", "No dice tray camera found.", seconds=8.0)
    table.scheduler.start_ready()
    assert table.display.name == "error"
    shown = clock.now()
    newest = game_state(clock="III", round=3, actions_left=1)
    table.show(newest)
    wait_for_the_game(table)
    assert table.display.screen is not None
    assert table.display.screen.tobytes() == screens.game_screen(newest).tobytes()
    assert clock.now() - shown == pytest.approx(OVERLAY_MIN_S)
    assert OVERLAY_MIN_S < 8.0


def test_a_state_arriving_late_in_an_error_waits_at_most_one_poll(
    rig: tuple[Table, MockFactory, FakeClock, RecordingSpawn],
) -> None:
    table, factory, clock, spawn = rig
    table.show(game_state())
    table.run_pending()
    table.show_error("Button", "The end-round button is stuck.", seconds=8.0)
    table.scheduler.start_ready()
    assert table.display.name == "error"
    shown = clock.now()
    run_until(table, clock, shown + 5.1)
    assert table.display.name == "error"  # nothing waited: the error stays up
    arrived = clock.now()
    newest = game_state(round=9)
    table.show(newest)
    wait_for_the_game(table)
    assert 0 <= clock.now() - arrived <= OVERLAY_POLL_S
    assert table.display.screen is not None
    assert table.display.screen.tobytes() == screens.game_screen(newest).tobytes()


def test_an_error_with_nothing_waiting_stays_its_full_time(
    rig: tuple[Table, MockFactory, FakeClock, RecordingSpawn],
) -> None:
    table, factory, clock, spawn = rig
    state = game_state()
    table.show(state)
    table.run_pending()
    table.show_error("Camera", "No dice tray camera found.", seconds=8.0)
    table.scheduler.start_ready()
    assert table.display.name == "error"
    shown = clock.now()
    wait_for_the_game(table)
    assert clock.now() - shown == pytest.approx(8.0)
    assert table.display.screen is not None
    assert table.display.screen.tobytes() == screens.game_screen(state).tobytes()


def test_a_storm_of_errors_keeps_one_waiting_and_the_game_still_shows(
    rig: tuple[Table, MockFactory, FakeClock, RecordingSpawn],
) -> None:
    table, factory, clock, spawn = rig
    state = game_state()
    for i in range(200):
        table.show_error("Button", f"glitch {i}")
        state = game_state(round=i)
        table.show(state)
        assert table.scheduler.pending() <= 3  # the error up, one waiting error, one "show"
    table.run_pending()
    assert table.display.screen is not None
    assert table.display.screen.tobytes() == screens.game_screen(state).tobytes()
    assert clock.now() - 1000.0 == pytest.approx(OVERLAY_MIN_S)  # the newest error, briefly; not 200 x 8 s


def test_identical_beeps_merge_while_waiting(rig: tuple[Table, MockFactory, FakeClock, RecordingSpawn]) -> None:
    table, factory, clock, spawn = rig
    buzzer = factory.pin(table.config.pins.buzzer)
    buzzer.clear_states()
    for _ in range(20):
        table.beep()
    assert table.scheduler.pending() == 1
    table.run_pending()
    assert rising_edges([int(s.state) for s in buzzer.states]) == expected_beeps()


def test_a_waiting_ghost_hour_cuts_the_flashing_short_not_the_alarm(
    rig: tuple[Table, MockFactory, FakeClock, RecordingSpawn],
) -> None:
    """Two Ghost Hours in quick succession: both beep their whole pattern; the first flashes less long."""
    table, factory, clock, spawn = rig
    buzzer = factory.pin(table.config.pins.buzzer)
    buzzer.clear_states()
    other = {"type": "ghost_hour", "environment": "Darkness", "room": 3, "room_name": "Kitchen"}
    table.on_events([GHOST], game_state(ghost_room=8))
    table.on_events([other], game_state(ghost_room=3))
    table.scheduler.start_ready()
    first = clock.now()
    while table.alarms < 2:
        assert table.scheduler.step(1)
    alarm_s = timeline(GHOST_HOUR_PATTERN)[-1][0]
    assert alarm_s < clock.now() - first < table.config.display.flash_s
    table.run_pending()
    assert rising_edges([int(s.state) for s in buzzer.states]) == 2 * expected_beeps()
    assert len(spawn.calls) == 2
