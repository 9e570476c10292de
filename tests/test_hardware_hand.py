"""The clock hand on real gpiozero devices (MockFactory, MockPWMPin) and the precise back ends.

Rulebook, "Advancing the Clock": the hand moves clockwise XII -> III -> VI -> IX and
back to XII; the companion's hand must land on each mark and rest there.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hardware_fakes import FakeClock, FakeLgpio, game_state, make_sysfs_pwm, sim_table

from companion.errors import ServoError
from hardware.clock_hand import ClockHand, ease
from hardware.config import FRAME_US, MARK_ANGLE, MARKS, HardwareConfig, ServoConfig
from hardware.factory import lgpio_duty_model_pin, make_servo_output
from hardware.pulse import GpiozeroPulse, LgpioServoPulse, SysfsPWMPulse

# luma.oled still calls Image.getdata(), which Pillow 13 warns about.
# Calibrated like a real build: not evenly spaced, not on 200 us steps.
CALIBRATED = {"XII": 560, "III": 1210, "VI": 1890, "IX": 2430}


def pulses_on(pin: MockPWMPin) -> list[float]:
    """Every pulse width (us) the pin was set to, from the duty it recorded; 0 when the pulse stopped."""
    return [state.state * FRAME_US for state in pin.states[1:]]


def make_hand(clock: FakeClock, factory: MockFactory | None = None, **servo: object) -> tuple[ClockHand, MockPWMPin]:
    factory = factory or MockFactory(pin_class=MockPWMPin)
    cfg = ServoConfig.from_dict({"pulse_us": CALIBRATED, **servo})
    hand = ClockHand(GpiozeroPulse(cfg.pin, factory), cfg, now=clock.now, sleep=clock.sleep)
    return hand, factory.pin(cfg.pin)


@pytest.mark.parametrize("mark", MARKS)
def test_each_mark_ends_on_its_calibrated_pulse_then_detaches(mark: str) -> None:
    clock = FakeClock()
    hand, pin = make_hand(clock, park="IX" if mark == "XII" else "XII")
    pin.clear_states()
    hand.move_to(mark)
    recorded = pulses_on(pin)
    assert recorded[-2] == pytest.approx(CALIBRATED[mark], abs=1e-6)
    assert recorded[-1] == 0.0  # the pulse stopped ...
    assert pin.frequency is None  # ... because the servo was detached (value None)
    assert hand.output.pulse_us is None and not hand.is_attached
    assert hand.output.servo.value is None  # type: ignore[attr-defined]
    assert hand.mark == mark and hand.angle == MARK_ANGLE[mark]


def test_sweep_is_eased_monotone_and_takes_the_configured_time() -> None:
    """XII -> VI at 90 deg/s: 2 s of 20 ms frames, slow at both ends, never turning back."""
    clock = FakeClock()
    hand, pin = make_hand(clock, speed_deg_s=90.0, easing="sine", settle_s=0.5)
    pin.clear_states()
    start = clock.now()
    hand.move_to("VI")
    moving = pulses_on(pin)[:-1]
    assert len(moving) == round(180 / 90 / 0.02)
    assert all(a < b for a, b in zip(moving, moving[1:]))
    assert CALIBRATED["XII"] < moving[0] and moving[-1] == pytest.approx(CALIBRATED["VI"])
    steps = [b - a for a, b in zip(moving, moving[1:])]
    middle = len(steps) // 2
    assert steps[0] < steps[middle] / 5 and steps[-1] < steps[middle] / 5  # eased in and out
    assert clock.now() - start == pytest.approx(2.0 + 0.5)  # the sweep, then the settle before detaching
    # The hand passes III on the way, at III's calibrated pulse (halfway in angle).
    assert min(abs(p - CALIBRATED["III"]) for p in moving) < 40


def test_speed_sets_the_duration() -> None:
    clock = FakeClock()
    hand, _ = make_hand(clock, speed_deg_s=180.0, settle_s=0.0)
    start = clock.now()
    hand.move_to("IX")
    assert clock.now() - start == pytest.approx(270 / 180)


@pytest.mark.parametrize("kind", ["linear", "sine", "cubic"])
def test_easings_start_at_0_end_at_1_and_never_go_back(kind: str) -> None:
    values = [ease(kind, i / 100) for i in range(101)]
    assert values[0] == 0 and values[-1] == pytest.approx(1)
    assert all(a <= b for a, b in zip(values, values[1:]))


def test_ccw_servo_and_180_degree_servo() -> None:
    """Either direction: pulses falling from XII to IX turn the hand the same way on the face."""
    clock = FakeClock()
    falling = {"XII": 2400, "III": 1800, "VI": 1150, "IX": 600}
    hand, pin = make_hand(clock, kind=180, direction="ccw", pulse_us=falling)
    pin.clear_states()
    hand.move_to("III")
    moving = pulses_on(pin)[:-1]
    assert all(a > b for a, b in zip(moving, moving[1:]))
    assert moving[-1] == pytest.approx(1800)
    assert hand.angle_for_pulse(1800) == 90
    assert hand.cfg.servo_degrees(1800) == pytest.approx((1800 - 500) / 2000 * 180)


def test_angle_and_pulse_are_inverse() -> None:
    hand, _ = make_hand(FakeClock())
    for angle in (0, 10, 45, 90, 135, 200, 269, 270):
        assert hand.angle_for_pulse(hand.pulse_for_angle(angle)) == pytest.approx(angle)


def test_close_parks_the_hand_and_frees_the_pin() -> None:
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    hand, pin = make_hand(clock, factory, park="IX")
    hand.move_to("III")
    pin.clear_states()
    hand.close()
    assert pulses_on(pin)[-2] == pytest.approx(CALIBRATED["IX"])
    # The pin is free again: a new servo can claim it.
    GpiozeroPulse(18, factory).close()


# --- restart in the middle of a game ----------------------------------------------------------


def test_a_new_table_brings_the_hand_from_the_park_mark_to_the_games_hour() -> None:
    """After a restart (state says VI) the hand sweeps from XII, where close() parked it, to VI's pulse."""
    clock = FakeClock()
    config = HardwareConfig.from_dict({"servo": {"pulse_us": CALIBRATED}})
    factory = MockFactory(pin_class=MockPWMPin)
    with sim_table(clock, config, pin_factory=factory) as first:
        first.show(game_state(clock="IX"))
        first.run_pending()
        assert first.hand_mark == "IX"
    pin = factory.pin(18)
    assert pulses_on(pin)[-2] == pytest.approx(CALIBRATED["XII"])  # parked on close

    pin.clear_states()
    with sim_table(clock, config, pin_factory=factory) as second:
        assert second.hand_angle == 0  # assumed on the park mark until told otherwise
        second.show(game_state(clock="VI", round=7, hour=1))
        second.run_pending()
        moving = pulses_on(pin)[:-1]
        assert moving[0] > CALIBRATED["XII"] and moving[0] < CALIBRATED["III"]  # it started near XII
        assert moving[-1] == pytest.approx(CALIBRATED["VI"])
        assert all(a < b for a, b in zip(moving, moving[1:]))
        assert pin.frequency is None
        assert second.hand_angle == 180 and second.hand_mark == "VI"


def test_timer_on_the_last_turn_moves_the_hand_twice() -> None:
    """ "Timers": the clock can advance twice at once; the hand visits both marks."""
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    with sim_table(clock, HardwareConfig.from_dict({"servo": {"pulse_us": CALIBRATED}}), pin_factory=factory) as table:
        table.show(game_state(clock="III"))
        table.run_pending()
        pin = factory.pin(18)
        pin.clear_states()
        events = [
            {"type": "clock_advanced", "clock": "VI", "hour": 0, "reason": "timer"},
            {"type": "clock_advanced", "clock": "IX", "hour": 0, "reason": "round"},
        ]
        table.on_events(events, game_state(clock="IX"))
        table.run_pending()
        recorded = pulses_on(pin)
        stops = [recorded[i - 1] for i, p in enumerate(recorded) if p == 0.0]
        assert stops == [pytest.approx(CALIBRATED["VI"]), pytest.approx(CALIBRATED["IX"])]


# --- gpiozero's lgpio pin on a Pi 5 versus the precise back ends --------------------------------


def sent_for_each_mark(output: object, read: object) -> dict[str, float]:
    sent = {}
    for mark in MARKS:
        output.set_pulse_us(CALIBRATED[mark])  # type: ignore[attr-defined]
        sent[mark] = read()  # type: ignore[operator]
    return sent


@pytest.mark.parametrize("mode, worst", [("nearest", 100), ("truncate", 200)])
def test_gpiozero_lgpio_whole_percent_duty_misses_the_marks(mode: str, worst: float) -> None:
    """Modelled on gpiozero's LGPIOPin: duty kept as a whole percent = 200 us steps at 50 Hz."""
    factory = MockFactory(pin_class=lgpio_duty_model_pin(mode))
    output = GpiozeroPulse(18, factory)
    pin = factory.pin(18)
    sent = sent_for_each_mark(output, lambda: pin.state * FRAME_US)
    errors = {m: abs(sent[m] - CALIBRATED[m]) for m in MARKS}
    assert all(round(sent[m]) % 200 == 0 for m in MARKS)  # only 200 us steps exist
    assert max(errors.values()) > 50  # visibly off: 50 us is ~7 degrees on a 270-degree servo
    assert max(errors.values()) <= worst
    output.close()


def test_lgpio_tx_servo_lands_within_5_us_of_every_mark() -> None:
    lg = FakeLgpio()
    output = LgpioServoPulse(18, 0, lg)
    sent = sent_for_each_mark(output, lambda: lg.pulses[-1])
    assert all(abs(sent[m] - CALIBRATED[m]) <= 5 for m in MARKS)
    output.set_pulse_us(1234.6)
    assert lg.pulses[-1] == 1235  # whole microseconds, rounded
    output.detach()
    assert lg.pulses[-1] == 0 and output.pulse_us is None  # tx_servo with width 0 stops the pulses
    output.close()
    assert lg.closed and not lg.claimed


def test_hardware_pwm_lands_within_5_us_of_every_mark(tmp_path: Path) -> None:
    make_sysfs_pwm(tmp_path, chip=2, channel=1)
    cfg = ServoConfig.from_dict({"pulse_us": CALIBRATED, "backend": "hwpwm", "pwm_chip": 2, "pwm_channel": 1})
    output = make_servo_output(cfg, None, sysfs_root=tmp_path)
    assert isinstance(output, SysfsPWMPulse)
    pwm = tmp_path / "pwmchip2" / "pwm1"
    assert int((pwm / "period").read_text()) == 20_000_000  # ns: 50 Hz
    sent = sent_for_each_mark(output, lambda: int((pwm / "duty_cycle").read_text()) / 1000)
    assert all(abs(sent[m] - CALIBRATED[m]) <= 5 for m in MARKS)
    assert (pwm / "enable").read_text().strip() == "1"
    output.detach()
    assert (pwm / "enable").read_text().strip() == "0"


def test_hardware_pwm_exports_the_channel(tmp_path: Path) -> None:
    chip = make_sysfs_pwm(tmp_path, exported=False)
    clock = FakeClock()
    with pytest.raises(ServoError, match="cannot set up hardware PWM"):
        SysfsPWMPulse(tmp_path, 0, 0, sleep=clock.sleep)  # nothing created pwm0 after the export
    assert (chip / "export").read_text().strip() == "0"
    assert clock.now() - 1000.0 == pytest.approx(1.0)  # waited a second for udev, by the injected clock


def test_hardware_pwm_missing_says_how_to_enable_it(tmp_path: Path) -> None:
    with pytest.raises(ServoError, match="dtoverlay|overlay"):
        SysfsPWMPulse(tmp_path / "nothing")


def test_a_sweep_on_the_precise_back_end_ends_exactly_on_the_mark(tmp_path: Path) -> None:
    lg = FakeLgpio()
    clock = FakeClock()
    cfg = ServoConfig.from_dict({"pulse_us": CALIBRATED, "backend": "lgpio"})
    hand = ClockHand(make_servo_output(cfg, None, lgpio_module=lg), cfg, now=clock.now, sleep=clock.sleep)
    hand.move_to("VI")
    assert lg.pulses[-2] == CALIBRATED["VI"] and lg.pulses[-1] == 0
    assert all(a <= b for a, b in zip(lg.pulses[:-1], lg.pulses[1:-1]))


def test_pulses_outside_the_servo_range_are_refused() -> None:
    output = GpiozeroPulse(18, MockFactory(pin_class=MockPWMPin))
    with pytest.raises(ServoError, match="outside 500-2500"):
        output.set_pulse_us(2600)


def test_gpiozero_on_the_lgpio_pin_factory_warns_about_the_rounding(caplog: pytest.LogCaptureFixture) -> None:
    class LGPIOFactory(MockFactory):  # stands in for gpiozero.pins.lgpio.LGPIOFactory (same name)
        pass

    factory = LGPIOFactory(pin_class=lgpio_duty_model_pin())
    clock = FakeClock()
    with sim_table(clock, pin_factory=factory):
        pass
    assert any("whole percent" in r.message and 'backend = "lgpio"' in r.message for r in caplog.records)


def test_a_hand_resting_on_the_mark_is_left_alone() -> None:
    clock = FakeClock()
    hand, pin = make_hand(clock)
    hand.move_to("III")
    pin.clear_states()
    before = clock.now()
    hand.move_to("III")
    hand.park()
    hand.move_to("XII")
    assert pulses_on(pin)[-1] == 0.0 and pulses_on(pin)[-2] == pytest.approx(CALIBRATED["XII"])
    moved = len(pin.states)
    hand.park()  # already parked: no pulse, no time
    assert len(pin.states) == moved and clock.now() - before == pytest.approx(1.0 + 0.4)
