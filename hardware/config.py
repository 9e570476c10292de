"""Settings of the table hardware: the `[hardware]` table of the configuration file.

Every value is checked when it is read; a wrong one raises `ConfigError` naming the
key in its dotted form (``hardware.servo.pulse_us.XII must be 500-2500 (got 3000)``)
so the host can find it in the file.

```toml
[hardware]
retry_s = 30

[hardware.servo]
pin = 18
kind = 270
backend = "gpiozero"        # "lgpio" or "hwpwm" for exact pulses on a Raspberry Pi 5
park = "XII"
speed_deg_s = 90
easing = "sine"
pulse_us = { XII = 500, III = 1167, VI = 1833, IX = 2500 }

[hardware.display]
driver = "ssd1306"
address = 0x3C

[hardware.pins]
end_round = 17
read_dice = 27
buzzer = 22
led = 23

[hardware.voice]
enabled = true
```
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from companion.errors import ConfigError

MARKS: tuple[str, ...] = ("XII", "III", "VI", "IX")
"""The four marks of the clock, in the order the hand passes them."""

MARK_ANGLE: dict[str, float] = {"XII": 0.0, "III": 90.0, "VI": 180.0, "IX": 270.0}
"""Where each mark sits on the clock face, in degrees clockwise from XII."""

PULSE_MIN_US = 500
PULSE_MAX_US = 2500
FRAME_US = 20_000  # 50 Hz, what hobby servos expect
EASINGS = ("linear", "sine", "cubic")
BACKENDS = ("gpiozero", "lgpio", "hwpwm")
DRIVERS = ("ssd1306", "sh1106")
I2C_PINS = (2, 3)  # SDA, SCL of I2C bus 1


def default_pulses(kind: int = 270, direction: str = "cw") -> dict[str, int]:
    """Pulse widths that spread the four marks evenly over the servo's travel.

    A 270-degree servo turns the hand straight (90 degrees of servo per mark); a
    180-degree servo is expected to drive the hand through a 3:2 gear or a 180-degree
    dial, so the four marks also span its whole travel. Calibrate the real build with
    `companion hw calibrate`.
    """
    del kind  # both kinds spread the marks over the full 500-2500 us travel by default
    step = (PULSE_MAX_US - PULSE_MIN_US) / (len(MARKS) - 1)
    pulses = [round(PULSE_MIN_US + i * step) for i in range(len(MARKS))]
    if direction == "ccw":
        pulses.reverse()
    return dict(zip(MARKS, pulses))


# --- small checked readers --------------------------------------------------------------------


def _key(prefix: str, name: str) -> str:
    return f"{prefix}.{name}"


def _int(data: Mapping[str, Any], prefix: str, name: str, default: int, lo: int, hi: int) -> int:
    value = data.get(name, default)
    if isinstance(value, str):
        try:
            value = int(value, 0)
        except ValueError:
            raise ConfigError(f"{_key(prefix, name)} must be a whole number {lo}-{hi} (got {value!r})") from None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{_key(prefix, name)} must be a whole number {lo}-{hi} (got {value!r})")
    if not lo <= value <= hi:
        raise ConfigError(f"{_key(prefix, name)} must be {lo}-{hi} (got {value})")
    return value


def _float(data: Mapping[str, Any], prefix: str, name: str, default: float, lo: float, hi: float) -> float:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise ConfigError(f"{_key(prefix, name)} must be a number {lo:g}-{hi:g} (got {value!r})")
    if not lo <= value <= hi:
        raise ConfigError(f"{_key(prefix, name)} must be {lo:g}-{hi:g} (got {value:g})")
    return float(value)


def _bool(data: Mapping[str, Any], prefix: str, name: str, default: bool) -> bool:
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise ConfigError(f"{_key(prefix, name)} must be true or false (got {value!r})")
    return value


def _choice(data: Mapping[str, Any], prefix: str, name: str, default: str, choices: tuple[str, ...]) -> str:
    value = data.get(name, default)
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"{_key(prefix, name)} must be one of {', '.join(choices)} (got {value!r})")
    return value


def _text(data: Mapping[str, Any], prefix: str, name: str, default: str) -> str:
    value = data.get(name, default)
    if not isinstance(value, str):
        raise ConfigError(f"{_key(prefix, name)} must be text (got {value!r})")
    return value


def _pin(data: Mapping[str, Any], prefix: str, name: str, default: int | None) -> int | None:
    """A BCM GPIO number 0-27, or None when the part is not fitted (false, "none", "" or -1)."""
    value = data.get(name, default)
    if value is None or value is False or value == -1 or (isinstance(value, str) and value.lower() in ("", "none")):
        return None
    if isinstance(value, str) and value.upper().startswith("GPIO"):
        value = value[4:]
    return _int({name: value}, prefix, name, 0, 0, 27)


def _table(data: Mapping[str, Any], prefix: str, name: str) -> Mapping[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, Mapping):
        raise ConfigError(f"{_key(prefix, name)} must be a table (got {value!r})")
    return value


def _unknown(data: Mapping[str, Any], prefix: str, known: set[str]) -> None:
    extra = sorted(set(data) - known)
    if extra:
        raise ConfigError(
            f"{prefix}.{extra[0]} is not a setting; known settings of [{prefix}] are {', '.join(sorted(known))}"
        )


# --- the sections ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ServoConfig:
    """The clock hand's servo."""

    pin: int = 18
    kind: int = 270
    direction: str = "cw"
    pulse_us: dict[str, int] = field(default_factory=default_pulses)
    park: str = "XII"
    speed_deg_s: float = 90.0
    easing: str = "sine"
    settle_s: float = 0.4
    backend: str = "gpiozero"
    gpiochip: int = 0
    pwm_chip: int = 0
    pwm_channel: int = 0

    def pulse_for(self, mark: str) -> int:
        return self.pulse_us[mark]

    def servo_degrees(self, pulse: float) -> float:
        """The servo shaft's angle for a pulse (0 at 500 us, `kind` degrees at 2500 us)."""
        return (pulse - PULSE_MIN_US) / (PULSE_MAX_US - PULSE_MIN_US) * self.kind

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(data: Mapping[str, Any], prefix: str = "hardware.servo") -> ServoConfig:
        _unknown(data, prefix, {f for f in ServoConfig.__dataclass_fields__})
        kind = data.get("kind", 270)
        if kind not in (180, 270) or isinstance(kind, bool):
            raise ConfigError(f"{prefix}.kind must be 180 or 270 (degrees of servo travel; got {kind!r})")
        direction = _choice(data, prefix, "direction", "cw", ("cw", "ccw"))
        defaults = default_pulses(kind, direction)
        raw = _table(data, prefix, "pulse_us")
        _unknown(raw, f"{prefix}.pulse_us", set(MARKS))
        pulses = {
            mark: _int(raw, f"{prefix}.pulse_us", mark, defaults[mark], PULSE_MIN_US, PULSE_MAX_US) for mark in MARKS
        }
        seq = [pulses[m] for m in MARKS]
        rising = all(a < b for a, b in zip(seq, seq[1:]))
        falling = all(a > b for a, b in zip(seq, seq[1:]))
        if not (rising or falling):
            raise ConfigError(
                f"{prefix}.pulse_us must rise (or fall) from XII to III to VI to IX so the hand turns one way "
                f"(got {', '.join(f'{m}={pulses[m]}' for m in MARKS)}); run `companion hw calibrate`"
            )
        return ServoConfig(
            pin=_int(data, prefix, "pin", 18, 0, 27),
            kind=kind,
            direction=direction,
            pulse_us=pulses,
            park=_choice(data, prefix, "park", "XII", MARKS),
            speed_deg_s=_float(data, prefix, "speed_deg_s", 90.0, 5.0, 2000.0),
            easing=_choice(data, prefix, "easing", "sine", EASINGS),
            settle_s=_float(data, prefix, "settle_s", 0.4, 0.0, 5.0),
            backend=_choice(data, prefix, "backend", "gpiozero", BACKENDS),
            gpiochip=_int(data, prefix, "gpiochip", 0, 0, 15),
            pwm_chip=_int(data, prefix, "pwm_chip", 0, 0, 15),
            pwm_channel=_int(data, prefix, "pwm_channel", 0, 0, 15),
        )


def _rotate(data: Mapping[str, Any], prefix: str) -> int:
    value = data.get("rotate", 0)
    if value not in (0, 2) or isinstance(value, bool):
        raise ConfigError(f"{prefix}.rotate must be 0 or 2 (upside down); the screens are landscape (got {value!r})")
    return int(value)


@dataclass(frozen=True)
class DisplayConfig:
    """The 128x64 status OLED on I2C."""

    enabled: bool = True
    driver: str = "ssd1306"
    i2c_port: int = 1
    address: int = 0x3C
    rotate: int = 0
    contrast: int = 207
    dim_contrast: int = 16
    dim_after_s: float = 600.0
    shift_every_s: float = 180.0
    flash_s: float = 6.0

    @staticmethod
    def from_dict(data: Mapping[str, Any], prefix: str = "hardware.display") -> DisplayConfig:
        _unknown(data, prefix, set(DisplayConfig.__dataclass_fields__))
        contrast = _int(data, prefix, "contrast", 207, 1, 255)
        dim = _int(data, prefix, "dim_contrast", 16, 0, 255)
        if dim > contrast:
            raise ConfigError(f"{prefix}.dim_contrast ({dim}) must not be brighter than {prefix}.contrast ({contrast})")
        return DisplayConfig(
            enabled=_bool(data, prefix, "enabled", True),
            driver=_choice(data, prefix, "driver", "ssd1306", DRIVERS),
            i2c_port=_int(data, prefix, "i2c_port", 1, 0, 22),
            address=_int(data, prefix, "address", 0x3C, 0x03, 0x77),
            rotate=_rotate(data, prefix),
            contrast=contrast,
            dim_contrast=dim,
            dim_after_s=_float(data, prefix, "dim_after_s", 600.0, 5.0, 86400.0),
            shift_every_s=_float(data, prefix, "shift_every_s", 180.0, 5.0, 86400.0),
            flash_s=_float(data, prefix, "flash_s", 6.0, 0.0, 60.0),
        )


@dataclass(frozen=True)
class PinsConfig:
    """Buttons, buzzer and LED (BCM numbers; None when not fitted)."""

    end_round: int | None = 17
    read_dice: int | None = 27
    buzzer: int | None = 22
    led: int | None = 23
    long_press_s: float = 1.5
    debounce_s: float = 0.05

    @staticmethod
    def from_dict(data: Mapping[str, Any], prefix: str = "hardware.pins") -> PinsConfig:
        _unknown(data, prefix, set(PinsConfig.__dataclass_fields__))
        debounce = _float(data, prefix, "debounce_s", 0.05, 0.0, 1.0)
        long_press = _float(data, prefix, "long_press_s", 1.5, 0.3, 10.0)
        if long_press <= debounce:
            raise ConfigError(f"{prefix}.long_press_s must be longer than {prefix}.debounce_s")
        return PinsConfig(
            end_round=_pin(data, prefix, "end_round", 17),
            read_dice=_pin(data, prefix, "read_dice", 27),
            buzzer=_pin(data, prefix, "buzzer", 22),
            led=_pin(data, prefix, "led", 23),
            long_press_s=long_press,
            debounce_s=debounce,
        )


@dataclass(frozen=True)
class VoiceConfig:
    """The spoken Ghost Hour announcement (espeak-ng)."""

    enabled: bool = True
    voice: str = ""
    volume: int = 80
    language: str = "en"
    speed: int = 150
    quiet: bool = False

    @staticmethod
    def from_dict(data: Mapping[str, Any], prefix: str = "hardware.voice") -> VoiceConfig:
        _unknown(data, prefix, set(VoiceConfig.__dataclass_fields__))
        from hardware.voice import LANGUAGES

        return VoiceConfig(
            enabled=_bool(data, prefix, "enabled", True),
            voice=_text(data, prefix, "voice", ""),
            volume=_int(data, prefix, "volume", 80, 0, 100),
            language=_choice(data, prefix, "language", "en", tuple(LANGUAGES)),
            speed=_int(data, prefix, "speed", 150, 80, 450),
            quiet=_bool(data, prefix, "quiet", False),
        )


@dataclass(frozen=True)
class HardwareConfig:
    """Everything under `[hardware]`."""

    servo: ServoConfig = field(default_factory=ServoConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    pins: PinsConfig = field(default_factory=PinsConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    retry_s: float = 30.0

    @staticmethod
    def from_dict(data: Mapping[str, Any] | None = None, prefix: str = "hardware") -> HardwareConfig:
        """Build from the `[hardware]` table (a plain dict as read from TOML); check every value."""
        data = data or {}
        if not isinstance(data, Mapping):
            raise ConfigError(f"{prefix} must be a table (got {data!r})")
        _unknown(data, prefix, {"servo", "display", "pins", "voice", "retry_s"})
        config = HardwareConfig(
            servo=ServoConfig.from_dict(_table(data, prefix, "servo"), f"{prefix}.servo"),
            display=DisplayConfig.from_dict(_table(data, prefix, "display"), f"{prefix}.display"),
            pins=PinsConfig.from_dict(_table(data, prefix, "pins"), f"{prefix}.pins"),
            voice=VoiceConfig.from_dict(_table(data, prefix, "voice"), f"{prefix}.voice"),
            retry_s=_float(data, prefix, "retry_s", 30.0, 1.0, 3600.0),
        )
        config.check_pins(prefix)
        return config

    def check_pins(self, prefix: str = "hardware") -> None:
        """No GPIO may serve two parts, and the OLED's I2C pins stay free."""
        used: dict[int, str] = {}
        if self.display.enabled and self.display.i2c_port == 1:
            used.update({2: f"{prefix}.display (I2C SDA)", 3: f"{prefix}.display (I2C SCL)"})
        claims = [(f"{prefix}.servo.pin", self.servo.pin)] + [
            (f"{prefix}.pins.{name}", getattr(self.pins, name)) for name in ("end_round", "read_dice", "buzzer", "led")
        ]
        for key, pin in claims:
            if pin is None:
                continue
            if pin in used:
                raise ConfigError(f"{key} (GPIO{pin}) is also used by {used[pin]}; give each part its own pin")
            used[pin] = key

    def with_pulses(self, pulses: Mapping[str, int]) -> HardwareConfig:
        """A copy with new calibrated pulse widths (checked)."""
        servo = ServoConfig.from_dict({**self.servo.to_dict(), "pulse_us": dict(pulses)})
        return replace(self, servo=servo)
