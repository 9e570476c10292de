"""The one place that chooses the hardware: pin factory, servo back end, display device.

Simulation (`sim=True`) uses gpiozero's mock pin factory with PWM-capable mock pins
and luma's dummy device, so the whole table runs on a laptop or in CI.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.errors import DisplayError, PinError
from hardware.config import DisplayConfig, ServoConfig
from hardware.pulse import GpiozeroPulse, LgpioServoPulse, PulseOutput, SysfsPWMPulse

log = logging.getLogger("hardware")


# Boards whose GPIO sits behind the RP1 chip: only lgpio (through /dev/gpiochip*) drives them;
# RPi.GPIO fails there with "Cannot determine SOC peripheral base address".
_RP1_BOARD = re.compile(r"Raspberry Pi (5|500|Compute Module 5)")

# gpiozero's pin factory classes by the name GPIOZERO_PIN_FACTORY gives them.
_FACTORY_NAMES = {
    "MockFactory": "mock",
    "LGPIOFactory": "lgpio",
    "RPiGPIOFactory": "rpigpio",
    "PiGPIOFactory": "pigpio",
    "NativeFactory": "native",
}


def board_model(path: str | Path = "/proc/device-tree/model") -> str:
    """The board's name as the device tree gives it ("Raspberry Pi 5 Model B Rev 1.0"), "" elsewhere."""
    try:
        return Path(path).read_bytes().rstrip(b"\0").decode("utf-8", "replace").strip()
    except OSError:
        return ""


def is_rp1_board(model: str) -> bool:
    """True on a Raspberry Pi 5 (and the 500 and Compute Module 5), where only lgpio works."""
    return _RP1_BOARD.search(model) is not None


def pin_factory_name(factory: Any) -> str | None:
    """ "lgpio", "rpigpio", "mock" ... for a gpiozero pin factory (None when there is none)."""
    if factory is None:
        return None
    cls = type(factory).__name__
    return _FACTORY_NAMES.get(cls, cls)


def make_pin_factory(sim: bool, *, model: str | None = None, environ: Mapping[str, str] | None = None) -> Any:
    """gpiozero's MockFactory (with MockPWMPin) in simulation; lgpio on a Pi 5; else gpiozero's default.

    On a Raspberry Pi 5 the factory is lgpio and nothing else: gpiozero's own fallback
    would try RPi.GPIO next, which cannot work there, and hide why lgpio failed. On a
    Pi 1-4 the default is what gpiozero picks (lgpio, then RPi.GPIO, pigpio, native).
    `GPIOZERO_PIN_FACTORY` overrides it, except on a Pi 5 where only "lgpio" is accepted.
    `model` and `environ` stand in for /proc/device-tree/model and os.environ in tests.
    """
    if sim:
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        return MockFactory(pin_class=MockPWMPin)
    environ = os.environ if environ is None else environ
    model = board_model() if model is None else model
    if is_rp1_board(model):
        chosen = environ.get("GPIOZERO_PIN_FACTORY", "lgpio")
        if chosen.lower() != "lgpio":
            raise PinError(
                f"GPIOZERO_PIN_FACTORY={chosen} cannot drive the GPIO of a {model}: only lgpio can. "
                "Remove the variable (or set it to lgpio)."
            )
        try:
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        except Exception as exc:  # ImportError, or lgpio.error when /dev/gpiochip* cannot be opened
            raise PinError(
                f"the GPIO of a {model} needs the lgpio library, and it failed ({type(exc).__name__}: {exc}). "
                "Run systemd/install.sh again (it installs lgpio into the program's venv); "
                "check that the user is in the gpio group."
            ) from exc
    import warnings

    from gpiozero import Device

    with warnings.catch_warnings(record=True) as fallbacks:
        warnings.simplefilter("always")
        try:
            return Device._default_pin_factory()
        finally:
            for item in fallbacks:  # "Falling back from lgpio: ..." - kept for the debug log only
                log.debug("gpiozero: %s", item.message)


def lgpio_duty_model_pin(mode: str = "truncate") -> type:
    """A mock PWM pin that keeps duty as a whole percent, like gpiozero's lgpio pin.

    gpiozero 2.0's `LGPIOPin` stores the duty it hands to `lgpio.tx_pwm` as
    `int(value * 100)`, so at 50 Hz every pulse is a multiple of 200 us
    (`mode="truncate"`, what gpiozero does). `mode="nearest"` models rounding to the
    nearest percent instead (at best 100 us off). Used by the tests and by
    `companion hw test --sim --model-pi5` to show why the precise back ends exist.
    """
    from gpiozero.pins.mock import MockPWMPin

    if mode not in ("truncate", "nearest"):
        raise ValueError("mode must be 'truncate' or 'nearest'")

    class LgpioDutyModelPin(MockPWMPin):  # type: ignore[misc]
        def _set_state(self, value: float) -> None:
            percent = int(value * 100) if mode == "truncate" else round(value * 100)
            super()._set_state(percent / 100)

    return LgpioDutyModelPin


def make_servo_output(
    cfg: ServoConfig,
    pin_factory: Any,
    *,
    sysfs_root: str | Path | None = None,
    lgpio_module: Any = None,
    sim: bool = False,
) -> PulseOutput:
    """The servo back end named by `hardware.servo.backend`.

    In simulation the precise back ends run on gpiozero's mock PWM pin (exact) unless a
    sysfs root or an lgpio stand-in is given.
    """
    if cfg.backend == "hwpwm" and (not sim or sysfs_root is not None):
        return SysfsPWMPulse(sysfs_root or "/sys/class/pwm", cfg.pwm_chip, cfg.pwm_channel)
    if cfg.backend == "lgpio" and (not sim or lgpio_module is not None):
        return LgpioServoPulse(cfg.pin, cfg.gpiochip, lgpio_module)
    return GpiozeroPulse(cfg.pin, pin_factory)


def make_display_device(cfg: DisplayConfig, sim: bool, bus: Any = None) -> Any:
    """A luma.oled SSD1306/SH1106 on I2C, or luma's dummy device (mode "1") in simulation.

    `bus` is an smbus2-like object (tests hand in a fake one); without it luma opens
    /dev/i2c-<port> itself. Raises DisplayError when the OLED does not answer.
    """
    if sim and bus is None:
        from luma.core.device import dummy

        return dummy(width=128, height=64, rotate=cfg.rotate, mode="1")
    import luma.core.error
    from luma.core.interface.serial import i2c
    from luma.oled.device import sh1106, ssd1306

    driver = {"ssd1306": ssd1306, "sh1106": sh1106}[cfg.driver]
    try:
        serial = i2c(bus=bus, port=cfg.i2c_port, address=cfg.address)
        return driver(serial, width=128, height=64, rotate=cfg.rotate)
    except (OSError, luma.core.error.Error) as exc:
        raise DisplayError(describe_display_fault(exc, cfg)) from exc


def describe_display_fault(exc: BaseException, cfg: DisplayConfig) -> str:
    where = f"I2C bus {cfg.i2c_port} address 0x{cfg.address:02X}"
    text = str(exc)
    errno_ = getattr(exc, "errno", None)
    if errno_ == 121 or "not found on address" in text:
        return (
            f"the OLED ({cfg.driver}) at {where} does not answer (errno 121, remote I/O error): check its 4 wires "
            f"(SDA GPIO2 pin 3, SCL GPIO3 pin 5, 3V3, GND) and the address with `i2cdetect -y {cfg.i2c_port}`"
        )
    if errno_ == 2 or "I2C device not found:" in text:
        return (
            f"there is no I2C bus {cfg.i2c_port} ({text}): enable I2C with `sudo raspi-config nonint do_i2c 0` "
            "or dtparam=i2c_arm=on in /boot/firmware/config.txt"
        )
    if errno_ in (1, 13) or "permission denied" in text.lower():
        return f"no permission to use I2C bus {cfg.i2c_port} ({text}): add the user to the i2c group"
    return f"the OLED at {where} failed: {text or type(exc).__name__}"
