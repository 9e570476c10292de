"""Unplugged parts: the OLED stops answering (errno 121), a pin is already in use, the servo's
back end is missing. Each logs a clear message, is retried every `retry_s` (injected clock),
the other parts carry on, and the part comes back when the fault clears.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hardware_fakes import FakeClock, FakeI2CBus, game_state, make_sysfs_pwm, quiet_voice

from hardware import Table, screens
from hardware.config import FRAME_US, HardwareConfig

# luma.oled still calls Image.getdata(), which Pillow 13 warns about.
CONFIG = HardwareConfig.from_dict({"retry_s": 30})


def make_table(clock: FakeClock, factory: MockFactory, **kwargs: object) -> Table:
    config = kwargs.pop("config", CONFIG)
    return Table(
        config,
        sim=True,
        now=clock.now,
        sleep=clock.sleep,
        threaded=False,  # type: ignore[arg-type]
        pin_factory=factory,
        voice=quiet_voice(),
        **kwargs,
    )  # type: ignore[arg-type]


def test_oled_unplugged_during_the_game_and_plugged_back(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    bus = FakeI2CBus()
    with make_table(clock, factory, i2c_bus=bus) as table:
        table.show(game_state(clock="III"))
        table.run_pending()
        assert table.status()["parts"]["display"]["found"]

        bus.unplug()
        caplog.set_level(logging.WARNING, logger="hardware")
        state = game_state(clock="VI", round=3)
        table.show(state)
        table.run_pending()
        display = table.status()["parts"]["display"]
        assert not display["found"]
        assert "errno 121" in display["message"] and "0x3C" in display["message"]
        assert any("OLED stopped working" in r.message and "Retrying every 30 s" in r.message for r in caplog.records)
        # The rest carried on: the hand went to VI, and the picture is still there for the phone page.
        assert table.hand_mark == "VI"
        assert table.oled_png() is not None

        # Retries wait for retry_s, and a failed retry does not log the warning again.
        warnings = len(caplog.records)
        clock.advance(10)
        table.tick()
        assert not table.status()["parts"]["display"]["found"]
        clock.advance(25)
        table.tick()  # retried (35 s after the fault), still unplugged
        assert len(caplog.records) == warnings

        bus.plug_in()
        before = bus.data_blocks
        clock.advance(31)
        table.tick()
        assert table.status()["parts"]["display"]["found"]
        assert bus.data_blocks - before >= 32  # the current frame was sent again on reconnection
        assert any("OLED is back" in r.message for r in caplog.records)
        assert table.display.screen is not None
        assert table.display.screen.tobytes() == screens.game_screen(state).tobytes()


def test_no_oled_at_start(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    bus = FakeI2CBus()
    bus.unplug()
    caplog.set_level(logging.WARNING, logger="hardware")
    with make_table(clock, MockFactory(pin_class=MockPWMPin), i2c_bus=bus) as table:
        status = table.status()["parts"]
        assert not status["display"]["found"] and "does not answer" in status["display"]["message"]
        assert "i2cdetect" in status["display"]["message"]
        assert status["servo"]["found"] and status["buzzer"]["found"]
        table.show(game_state(clock="IX"))
        table.run_pending()
        assert table.hand_mark == "IX"
        bus.plug_in()
        clock.advance(30)
        table.tick()
        assert table.status()["parts"]["display"]["found"]
        assert bus.data_blocks >= 32


def test_an_oled_turned_off_says_so_in_words() -> None:
    """The host's page shows why the OLED is dark: turned off in the configuration file, in words, no key."""
    config = HardwareConfig.from_dict({"retry_s": 30, "display": {"enabled": False}})
    with make_table(FakeClock(), MockFactory(pin_class=MockPWMPin), config=config) as table:
        display = table.status()["parts"]["display"]
        assert not display["found"] and display["message"] == "off (the configuration file turns the display off)"


def test_buzzer_pin_in_use(caplog: pytest.LogCaptureFixture) -> None:
    """Another device holds GPIO22: the buzzer is missing, everything else works; it returns when freed."""
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    squatter = LED(22, pin_factory=factory)
    caplog.set_level(logging.WARNING, logger="hardware")
    with make_table(clock, factory) as table:
        parts = table.status()["parts"]
        assert not parts["buzzer"]["found"]
        assert "GPIO22" in parts["buzzer"]["message"] and "already in use" in parts["buzzer"]["message"]
        assert any("buzzer cannot be opened" in r.message for r in caplog.records)
        assert parts["led"]["found"] and parts["end_round_button"]["found"] and parts["servo"]["found"]

        table.on_events(
            [{"type": "ghost_hour", "environment": "Fire", "room": 8, "room_name": "Bath"}],
            game_state(clock="XII", ghost_room=8),
        )
        table.run_pending()  # the alarm runs with the LED only
        assert table.alarms == 1
        assert any(s.state for s in factory.pin(23).states)

        squatter.close()
        clock.advance(30)
        table.tick()
        assert table.status()["parts"]["buzzer"]["found"]
        table.beep(((0.1, True, False), (0.1, False, False)))
        table.run_pending()
        assert [bool(s.state) for s in factory.pin(22).states[1:]] == [True, False]


def test_servo_pin_in_use_then_freed_moves_the_hand_to_the_games_hour() -> None:
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    squatter = LED(18, pin_factory=factory)
    with make_table(clock, factory) as table:
        servo = table.status()["parts"]["servo"]
        assert not servo["found"] and "GPIO18" in servo["message"]
        assert table.hand_angle is None  # unknown while the servo is missing
        table.show(game_state(clock="VI"))
        table.run_pending()  # no hand: the screen still shows the game
        assert table.status()["screen"] == "game"

        squatter.close()
        clock.advance(30)
        table.tick()  # reopened; brings the hand to the state's hour
        table.run_pending()
        assert table.status()["parts"]["servo"]["found"]
        assert table.hand_mark == "VI"
        pin = factory.pin(18)
        assert pin.states[-2].state * FRAME_US == pytest.approx(CONFIG.servo.pulse_us["VI"])


def test_missing_hardware_pwm_then_enabled(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """backend = "hwpwm" without the overlay: a clear message; once the PWM chip appears the hand comes back."""
    clock = FakeClock()
    config = HardwareConfig.from_dict({"servo": {"backend": "hwpwm"}, "retry_s": 20})
    caplog.set_level(logging.WARNING, logger="hardware")
    with make_table(clock, MockFactory(pin_class=MockPWMPin), config=config, sysfs_root=tmp_path) as table:
        servo = table.status()["parts"]["servo"]
        assert not servo["found"] and "no hardware PWM" in servo["message"] and "overlay" in servo["message"]
        table.show(game_state(clock="III"))
        table.run_pending()
        make_sysfs_pwm(tmp_path)
        clock.advance(20)
        table.tick()
        table.run_pending()
        assert table.status()["servo_backend"] == "hwpwm"
        duty = int((tmp_path / "pwmchip0" / "pwm0" / "duty_cycle").read_text())
        assert duty == config.servo.pulse_us["III"] * 1000
        assert (tmp_path / "pwmchip0" / "pwm0" / "enable").read_text().strip() == "0"  # detached after the sweep


def test_servo_failing_mid_sweep_is_survived(tmp_path: Path) -> None:
    """The PWM channel vanishes during a move (a loose connector on a HAT): the sweep stops, the game goes on."""
    clock = FakeClock()
    make_sysfs_pwm(tmp_path)
    config = HardwareConfig.from_dict({"servo": {"backend": "hwpwm"}})
    with make_table(clock, MockFactory(pin_class=MockPWMPin), config=config, sysfs_root=tmp_path) as table:
        table.show(game_state(clock="IX"))
        hand = table.servo_part.device
        assert hand is not None
        pwm = tmp_path / "pwmchip0" / "pwm0"
        assert table.scheduler.step(5) == 5  # the hand is on its way
        assert table.hand_angle is not None and 0 < table.hand_angle < 270
        for name in ("duty_cycle", "enable", "period"):
            (pwm / name).unlink()
        pwm.rmdir()
        table.run_pending()
        assert not table.status()["parts"]["servo"]["found"]
        assert table.status()["screen"] == "game"
        assert table.scheduler.pending() == 0


def test_no_gpio_library_at_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a Pi and not simulated: gpiozero finds no pin factory. The OLED still works."""
    from gpiozero.exc import BadPinFactory

    import hardware.table as table_module

    def no_factory(sim: bool) -> object:
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(table_module, "make_pin_factory", no_factory)
    clock = FakeClock()
    bus = FakeI2CBus()
    with Table(
        HardwareConfig(), sim=False, now=clock.now, sleep=clock.sleep, threaded=False, i2c_bus=bus, voice=quiet_voice()
    ) as table:
        parts = table.status()["parts"]
        assert parts["display"]["found"]
        for name in ("servo", "end_round_button", "read_dice_button", "buzzer", "led"):
            assert not parts[name]["found"] and "--sim" in parts[name]["message"], name
        table.show(game_state())
        table.run_pending()
        assert bus.data_blocks > 0
        clock.advance(60)
        table.tick()  # retrying does not crash either
        assert not table.status()["parts"]["servo"]["found"]
