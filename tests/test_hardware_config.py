"""`[hardware]` settings: defaults, checks, and errors that name the key."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion.errors import ConfigError
from hardware.config import MARKS, HardwareConfig, ServoConfig, default_pulses

EXAMPLE = Path(__file__).parent.parent / "systemd" / "config.example.toml"


def test_defaults_are_valid_and_spread_over_the_servo_travel() -> None:
    config = HardwareConfig.from_dict({})
    assert config == HardwareConfig()
    pulses = [config.servo.pulse_us[m] for m in MARKS]
    assert pulses[0] == 500 and pulses[-1] == 2500 and pulses == sorted(pulses)
    assert config.display.address == 0x3C
    assert default_pulses(270, "ccw") == dict(zip(MARKS, reversed(pulses)))


@pytest.mark.parametrize(
    "data, message",
    [
        (
            {"servo": {"pulse_us": {"XII": 3000}}},
            "hardware.servo.pulse_us.XII: expected a whole number 500-2500, got 3000",
        ),
        ({"servo": {"pulse_us": {"III": 400}}}, "hardware.servo.pulse_us.III: expected a whole number 500-2500"),
        ({"servo": {"pulse_us": {"XII": 900, "III": 800, "VI": 1800, "IX": 2400}}}, "must rise (or fall)"),
        ({"servo": {"pulse_us": {"XI": 900}}}, "hardware.servo.pulse_us.XI: unknown key"),
        ({"servo": {"kind": 360}}, "hardware.servo.kind: expected 180 or 270"),
        ({"servo": {"backend": "pigpio"}}, "hardware.servo.backend: expected one of gpiozero, lgpio, hwpwm"),
        ({"servo": {"easing": "bounce"}}, "hardware.servo.easing: expected one of"),
        ({"servo": {"park": "X"}}, "hardware.servo.park: expected one of XII, III, VI, IX"),
        ({"servo": {"speed_deg_s": 0}}, "hardware.servo.speed_deg_s: expected a number 5-2000"),
        ({"servo": {"pin": 40}}, "hardware.servo.pin: expected a whole number 0-27, got 40"),
        ({"display": {"driver": "ssd1309"}}, "hardware.display.driver: expected one of ssd1306, sh1106"),
        ({"display": {"address": "0x99"}}, "hardware.display.address: expected a whole number 3-119, got 153"),
        ({"display": {"rotate": 1}}, "hardware.display.rotate: expected 0 or 2"),
        ({"display": {"contrast": 10, "dim_contrast": 50}}, "hardware.display.dim_contrast (50)"),
        ({"pins": {"led": 18}}, "hardware.pins.led (GPIO18) is also used by hardware.servo.pin"),
        ({"pins": {"buzzer": 2}}, "hardware.pins.buzzer (GPIO2) is also used by hardware.display (I2C SDA)"),
        ({"pins": {"long_press_s": 0.1}}, "hardware.pins.long_press_s: expected a number 0.3-10"),
        ({"voice": {"volume": 150}}, "hardware.voice.volume: expected a whole number 0-100"),
        ({"voice": {"language": "tlh"}}, "hardware.voice.language: expected one of"),
        ({"voice": {"quiet": "yes"}}, "hardware.voice.quiet: expected true or false"),
        ({"retry_s": 0}, "hardware.retry_s: expected a number 1-3600"),
        ({"sevro": {}}, "hardware.sevro: unknown key"),
    ],
)
def test_bad_values_name_the_key(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        HardwareConfig.from_dict(data)
    assert message in str(info.value)


def test_pins_can_be_left_out_and_spelled_gpio() -> None:
    config = HardwareConfig.from_dict({"pins": {"buzzer": "none", "led": -1, "end_round": "GPIO5", "read_dice": False}})
    assert config.pins.buzzer is None and config.pins.led is None and config.pins.read_dice is None
    assert config.pins.end_round == 5


def test_address_may_be_written_in_hex_text() -> None:
    assert HardwareConfig.from_dict({"display": {"address": "0x3D"}}).display.address == 0x3D


def test_new_pulses_are_checked() -> None:
    config = HardwareConfig()
    calibrated = config.with_pulses({"XII": 610, "III": 1190, "VI": 1880, "IX": 2410})
    assert calibrated.servo.pulse_us["III"] == 1190 and calibrated.display == config.display
    with pytest.raises(ConfigError, match="must rise"):
        config.with_pulses({"XII": 610, "III": 2000, "VI": 1880, "IX": 2410})


def test_servo_round_trips_through_a_dict() -> None:
    servo = ServoConfig.from_dict({"kind": 180, "direction": "ccw", "backend": "lgpio", "speed_deg_s": 45})
    assert ServoConfig.from_dict(servo.to_dict()) == servo
    assert servo.pulse_us["XII"] > servo.pulse_us["IX"]


@pytest.mark.skipif(not EXAMPLE.exists(), reason="no example configuration")
def test_the_example_configuration_is_accepted() -> None:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    config = HardwareConfig.from_dict(data.get("hardware", {}))
    assert config.servo.pin == data["hardware"]["servo"]["pin"]
