"""Buttons, buzzer and LED on gpiozero's mock pins, timed by an injected clock.

Rulebook, "Advancing the Clock" (Note): players may end a round at any time — the
"end round" button does that without a phone.
"""

from __future__ import annotations

from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hardware_fakes import FakeClock, game_state, sim_table

from companion.errors import IllegalCommand
from hardware.config import HardwareConfig, PinsConfig
from hardware.controls import GHOST_HOUR_PATTERN, Controls, timeline

# luma.oled still calls Image.getdata(), which Pillow 13 warns about.
PINS = PinsConfig(end_round=17, read_dice=27, buzzer=22, led=23, long_press_s=1.5, debounce_s=0.05)


@pytest.fixture
def rig() -> tuple[Controls, MockFactory, FakeClock, list[str]]:
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    controls = Controls(PINS, factory, now=clock.now, sleep=clock.sleep)
    calls: list[str] = []
    controls.when_end_round = lambda: calls.append("end_round")
    controls.when_read_dice = lambda: calls.append("read_dice")
    controls.when_undo = lambda: calls.append("undo")
    controls.open()
    return controls, factory, clock, calls


def press(factory: MockFactory, clock: FakeClock, pin: int, seconds: float) -> None:
    """Push a button (pulled up: pressed = low) for `seconds` of injected time."""
    factory.pin(pin).drive_low()
    clock.advance(seconds)
    factory.pin(pin).drive_high()


def test_short_press_ends_the_round(rig: Any) -> None:
    controls, factory, clock, calls = rig
    press(factory, clock, 17, 0.2)
    assert calls == ["end_round"]


def test_long_press_undoes_instead(rig: Any) -> None:
    controls, factory, clock, calls = rig
    press(factory, clock, 17, 1.6)
    assert calls == ["undo"]


def test_gpiozero_hold_fires_undo_once_while_still_held(rig: Any) -> None:
    """On a Pi gpiozero's hold thread calls when_held at hold_time; the release must not fire again."""
    controls, factory, clock, calls = rig
    button = controls.end_round.device.button
    assert button.hold_time == pytest.approx(1.5)
    factory.pin(17).drive_low()
    clock.advance(1.5)
    button.when_held()  # what gpiozero's hold thread does after hold_time
    assert calls == ["undo"]
    factory.pin(17).drive_high()
    assert calls == ["undo"]


def drive(pin: Any, level: int) -> None:
    pin.drive_high() if level else pin.drive_low()


def test_bouncing_contacts_count_once(rig: Any) -> None:
    controls, factory, clock, calls = rig
    pin17, pin27 = factory.pin(17), factory.pin(27)
    # Press with bounce: low, high after 5 ms, low again, then a clean release.
    for level, wait in ((0, 0.005), (1, 0.005), (0, 0.2), (1, 0.01), (0, 0.01)):
        drive(pin17, level)
        clock.advance(wait)
    drive(pin17, 1)
    assert calls == ["end_round"]
    clock.advance(1)
    for _ in range(3):
        for level in (0, 1):
            drive(pin27, level)
            clock.advance(0.01)
    assert calls == ["end_round", "read_dice"]
    clock.advance(1)
    press(factory, clock, 27, 0.1)
    assert calls == ["end_round", "read_dice", "read_dice"]
    assert controls.end_round.device.button.pin.bounce == pytest.approx(0.05)  # gpiozero's own debounce too


def test_buttons_are_pulled_up(rig: Any) -> None:
    controls, factory, clock, calls = rig
    assert factory.pin(17).pull == "up" and factory.pin(27).pull == "up"


def test_ghost_hour_pattern_on_the_buzzer_and_led_pins(rig: Any) -> None:
    controls, factory, clock, calls = rig
    buzzer, led = factory.pin(22), factory.pin(23)
    buzzer.clear_states()
    led.clear_states()
    start = clock.now()
    controls.alarm()
    steps = timeline(GHOST_HOUR_PATTERN)
    assert clock.now() - start == pytest.approx(steps[-1][0])
    beeps = [bool(s.state) for s in buzzer.states[1:]]
    assert beeps == [True, False] * 9  # three bursts of three beeps
    assert not led.states[-1].state and not buzzer.states[-1].state
    assert sum(1 for s in led.states[1:] if s.state) >= 3
    assert all(sleep > 0 for sleep in clock.sleeps)


def test_a_refused_button_command_is_reported_not_raised(rig: Any) -> None:
    controls, factory, clock, calls = rig
    errors: list[tuple[str, str]] = []
    controls.when_error = lambda what, message: errors.append((what, message))

    def refuse() -> None:
        raise IllegalCommand("the game is over; start a new game")

    controls.when_end_round = refuse
    press(factory, clock, 17, 0.2)
    assert errors == [("end round", "the game is over; start a new game")]


def test_table_wires_the_buttons_and_shows_refusals_on_the_oled() -> None:
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    with sim_table(clock, pin_factory=factory) as table:
        table.show(game_state())
        table.run_pending()
        done: list[str] = []
        table.when_end_round = lambda: done.append("end")
        table.when_read_dice = lambda: done.append("read")
        table.when_undo = lambda: done.append("undo")
        press(factory, clock, 17, 0.1)
        clock.advance(1)
        press(factory, clock, 27, 0.1)
        clock.advance(1)
        press(factory, clock, 17, 2.0)
        assert done == ["end", "read", "undo"]

        def refuse() -> None:
            raise IllegalCommand("nothing to undo")

        table.when_undo = refuse
        clock.advance(1)
        press(factory, clock, 17, 2.0)
        table.run_pending()
        assert table.status()["screen"] == "game"  # the error was shown, then the game came back
        assert clock.now() >= 1008


def test_led_shows_the_ghost_on_the_board() -> None:
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    with sim_table(clock, pin_factory=factory) as table:
        table.show(game_state(ghost_room=5))
        table.run_pending()
        assert factory.pin(23).state == 1
        table.show(game_state(ghost_room=None))
        table.run_pending()
        assert factory.pin(23).state == 0


def test_parts_not_fitted_are_off_not_missing() -> None:
    clock = FakeClock()
    cfg = HardwareConfig.from_dict({"pins": {"buzzer": "none", "led": False}})
    with sim_table(clock, cfg) as table:
        parts = table.status()["parts"]
        assert parts["buzzer"] == {"found": False, "configured": False, "message": "not configured"}
        assert parts["led"]["configured"] is False
        table.beep()
        table.run_pending()  # nothing to beep on, nothing breaks
        assert parts["end_round_button"]["found"] is True
