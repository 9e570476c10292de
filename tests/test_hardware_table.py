"""`hardware.Table` as the game service uses it: events in, hand, OLED, alarm and voice out.

Rulebook, "Ghost Hour Sequence": when the clock comes back to XII an environment card is
drawn, then a room card, and the ghost appears there. The table must make that moment
impossible to miss: the hand on XII, the OLED flashing, the buzzer and LED, the voice.
"""

from __future__ import annotations

import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hardware_fakes import FakeClock, RecordingSpawn, game_state, quiet_voice, sim_table

from hardware import Table, screens
from hardware.config import FRAME_US, HardwareConfig

# luma.oled still calls Image.getdata(), which Pillow 13 warns about.
# What the engine reports when the last round of an hour ends (docs/DESIGN.md, "Events").
GHOST_HOUR_EVENTS = [
    {"type": "round_ended", "round": 4},
    {"type": "clock_advanced", "clock": "XII", "hour": 1, "reason": "round"},
    {"type": "environment_drawn", "card": "fire", "name": "Fire", "effect": "..."},
    {"type": "room_drawn", "room": 8, "name": "Bath", "reason": "ghost_hour"},
    {"type": "ghost_hour", "environment": "Fire", "room": 8, "room_name": "Bath"},
    {"type": "ghost_appeared", "room": 8, "reason": "ghost_hour"},
]
AFTER = game_state(clock="XII", round=5, hour=1, ghost_room=8, ghost_reason="ghost_hour", room_deck_left=10)


@pytest.fixture
def table() -> tuple[Table, MockFactory, FakeClock, RecordingSpawn]:
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    spawn = RecordingSpawn()
    t = sim_table(clock, pin_factory=factory, voice=quiet_voice(spawn))
    yield t, factory, clock, spawn
    t.close()


def test_the_ghost_hour_on_every_part(table: tuple[Table, MockFactory, FakeClock, RecordingSpawn]) -> None:
    t, factory, clock, spawn = table
    t.show(game_state(clock="IX", round=4))
    t.run_pending()
    buzzer, led, servo = factory.pin(22), factory.pin(23), factory.pin(18)
    for pin in (buzzer, led, servo):
        pin.clear_states()

    t.on_events(GHOST_HOUR_EVENTS, AFTER)
    assert t.scheduler.pending() > 0  # on_events only queued the work
    t.run_pending()

    assert spawn.calls and spawn.said[-1] == "Ghost Hour. Fire. The ghost appears in room 8, the Bath."
    assert sum(1 for s in buzzer.states if s.state) == 9
    assert t.hand_mark == "XII" and t.hand_angle == 0
    assert servo.states[-2].state * FRAME_US == pytest.approx(t.config.servo.pulse_us["XII"])
    assert servo.frequency is None
    assert led.state == 1  # the ghost is on the board
    assert t.display.screen is not None
    assert t.display.screen.tobytes() == screens.game_screen(AFTER, "Bath").tobytes()
    assert t.status()["alarms"] == 1


def test_the_hand_sweeps_while_the_oled_flashes(table: tuple[Table, MockFactory, FakeClock, RecordingSpawn]) -> None:
    """One worker, two lanes: the announcement does not wait for the 270-degree sweep from IX to XII."""
    t, factory, clock, spawn = table
    t.show(game_state(clock="IX"))
    t.run_pending()
    start = clock.now()
    t.on_events(GHOST_HOUR_EVENTS, AFTER)
    t.scheduler.step(3)
    assert spawn.calls  # the voice started at once
    assert t.display.name == "ghost_hour"
    assert t.hand_angle is not None and 0 < t.hand_angle < 270  # still sweeping
    assert clock.now() - start < 0.1


def test_hand_angle_is_readable_during_a_sweep(table: tuple[Table, MockFactory, FakeClock, RecordingSpawn]) -> None:
    t, factory, clock, spawn = table
    t.show(game_state(clock="VI"))
    angles = []
    while t.scheduler.step(1):
        angles.append(t.hand_angle)
    assert angles[0] is not None and angles[-1] == 180
    numeric = [a for a in angles if a is not None]
    assert all(a <= b for a, b in zip(numeric, numeric[1:]))
    assert len(set(numeric)) > 20  # many intermediate positions for the phone page


def test_showing_the_same_hour_again_does_not_move_the_hand(
    table: tuple[Table, MockFactory, FakeClock, RecordingSpawn],
) -> None:
    t, factory, clock, spawn = table
    t.show(game_state(clock="III"))
    t.run_pending()
    servo = factory.pin(18)
    servo.clear_states()
    for _ in range(3):
        t.show(game_state(clock="III", actions_left=2))
    t.run_pending()
    assert len(servo.states) == 1  # no pulse at all: the servo stays quiet


def test_undo_across_an_hour_brings_the_hand_back(table: tuple[Table, MockFactory, FakeClock, RecordingSpawn]) -> None:
    t, factory, clock, spawn = table
    t.on_events([{"type": "clock_advanced", "clock": "VI", "hour": 0, "reason": "round"}], game_state(clock="VI"))
    t.run_pending()
    assert t.hand_mark == "VI"
    t.on_events([{"type": "undone"}], game_state(clock="III"))
    t.run_pending()
    assert t.hand_mark == "III"


def test_calls_from_many_threads_are_queued_safely(
    table: tuple[Table, MockFactory, FakeClock, RecordingSpawn],
) -> None:
    t, factory, clock, spawn = table
    marks = ["III", "VI", "IX", "XII"]
    barrier = threading.Barrier(8)
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        try:
            barrier.wait()
            for j in range(25):
                mark = marks[(i + j) % 4]
                t.on_events([{"type": "clock_advanced", "clock": mark}], game_state(clock=mark))
                t.status()
                t.oled_png()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    t.show(game_state(clock="VI"))
    t.run_pending()
    assert t.hand_mark == "VI" and t.scheduler.pending() == 0


def test_a_real_worker_thread_does_the_work() -> None:
    """threaded=True: the service's thread only queues; the worker moves the hand and draws."""
    config = HardwareConfig.from_dict({"servo": {"speed_deg_s": 2000, "settle_s": 0}})
    factory = MockFactory(pin_class=MockPWMPin)
    with Table(config, sim=True, pin_factory=factory, voice=quiet_voice(), tick_s=0.05) as t:
        caller = threading.get_ident()
        release = threading.Event()

        def hold() -> None:
            release.wait(30)

        t.scheduler.submit("test", hold, "hold the worker")
        t.show(game_state(clock="IX"))  # only queues: it returns while the worker is still held
        assert t.hand_mark == "XII" and t.scheduler.pending() >= 2
        release.set()
        assert t.scheduler.wait_idle(timeout=10)
        assert t.hand_mark == "IX" and t.display.name == "game"
        assert t.scheduler._thread is not None and t.scheduler._thread.ident != caller
    assert factory.pin(18).states[-2].state * FRAME_US == pytest.approx(config.servo.pulse_us["XII"])  # parked


def test_status_reports_every_part(table: tuple[Table, MockFactory, FakeClock, RecordingSpawn]) -> None:
    t, factory, clock, spawn = table
    status = t.status()
    assert set(status["parts"]) == {
        "servo",
        "display",
        "end_round_button",
        "read_dice_button",
        "buzzer",
        "led",
        "voice",
    }
    assert all(part["found"] for name, part in status["parts"].items())
    assert status["sim"] is True and status["servo_backend"] == "gpiozero"


def test_events_after_close_are_ignored() -> None:
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    t = sim_table(clock, pin_factory=factory)
    t.close()
    t.on_events(GHOST_HOUR_EVENTS, AFTER)  # a late listener call during shutdown
    t.show(AFTER)
    assert t.scheduler.pending() == 0 and t.status()["alarms"] == 0
    assert t.status()["screen"] == "paused"
    t.close()  # twice is harmless


def test_the_mock_pins_history_can_be_forgotten(table: tuple[Table, MockFactory, FakeClock, RecordingSpawn]) -> None:
    """Simulation: gpiozero's mock pins record every change; a long evening must not keep them all."""
    t, factory, clock, spawn = table
    t.show(game_state(clock="VI"))
    t.run_pending()
    servo = factory.pin(t.config.servo.pin)
    recorded = len(servo.states)
    assert recorded > 5
    assert t.forget_pin_history() >= recorded - 1
    assert len(servo.states) == 1 and t.hand_mark == "VI"
    assert t.forget_pin_history() == 0
    assert t.status()["pin_factory"] == "mock"
