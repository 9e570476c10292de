"""Servo pulse outputs: one small interface, three back ends.

A `PulseOutput` sends a servo pulse of a given width in microseconds, 50 times a
second, or stops sending (`detach`), which leaves the servo unpowered in place so it
neither jitters nor hums.

- `GpiozeroPulse`: gpiozero's `Servo`, so every pin factory works (lgpio, RPi.GPIO,
  pigpio, mock). Its precision is the pin factory's: gpiozero's lgpio pin keeps PWM
  duty as a whole percent (200 us steps at 50 Hz), which is why a Raspberry Pi 5 needs
  one of the two below.
- `LgpioServoPulse`: lgpio's servo pulses (`tx_servo`), set in whole microseconds.
- `SysfsPWMPulse`: the kernel's hardware PWM through /sys/class/pwm (nanoseconds).
"""

from __future__ import annotations

import errno
import importlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from companion.errors import PinError, ServoError
from hardware.config import FRAME_US, PULSE_MAX_US, PULSE_MIN_US


class PulseOutput(Protocol):
    """What the clock hand needs from a servo back end."""

    name: str

    def set_pulse_us(self, pulse_us: float) -> None: ...

    def detach(self) -> None: ...

    @property
    def pulse_us(self) -> float | None:
        """The pulse being sent now (as the back end will really send it), or None when detached."""
        ...

    def close(self) -> None: ...


def _check_range(pulse_us: float) -> None:
    if not PULSE_MIN_US <= pulse_us <= PULSE_MAX_US:
        raise ServoError(
            f"servo pulse {pulse_us:.0f} us is outside {PULSE_MIN_US}-{PULSE_MAX_US} us; recalibrate the hand"
        )


class GpiozeroPulse:
    """A gpiozero `Servo` spanning 500-2500 us; `pulse_us` reads back what the pin holds."""

    name = "gpiozero"

    def __init__(self, pin: int, pin_factory: Any) -> None:
        from gpiozero import Servo
        from gpiozero.exc import GPIOPinInUse

        try:
            self.servo = Servo(
                pin,
                initial_value=None,
                min_pulse_width=PULSE_MIN_US / 1e6,
                max_pulse_width=PULSE_MAX_US / 1e6,
                frame_width=FRAME_US / 1e6,
                pin_factory=pin_factory,
            )
        except GPIOPinInUse as exc:
            raise PinError(
                f"GPIO{pin} for the clock hand is already in use (by another part or program): {exc}. "
                "Free it or set another hardware.servo.pin."
            ) from exc

    def set_pulse_us(self, pulse_us: float) -> None:
        _check_range(pulse_us)
        self.servo.value = (pulse_us - PULSE_MIN_US) / (PULSE_MAX_US - PULSE_MIN_US) * 2 - 1

    def detach(self) -> None:
        self.servo.detach()

    @property
    def pulse_us(self) -> float | None:
        width = self.servo.pulse_width
        return None if width is None else float(width) * 1e6

    def close(self) -> None:
        self.servo.close()


class LgpioServoPulse:
    """lgpio's `tx_servo`: servo pulses timed by lgpio in whole microseconds."""

    name = "lgpio"

    def __init__(self, pin: int, gpiochip: int = 0, lgpio_module: Any = None) -> None:
        if lgpio_module is None:
            try:
                lgpio_module = importlib.import_module("lgpio")
            except ImportError as exc:
                raise ServoError(
                    "the lgpio servo back end needs the lgpio module: run systemd/install.sh again (it installs "
                    'lgpio into the program\'s venv), or set hardware.servo.backend = "gpiozero"'
                ) from exc
        self.lgpio = lgpio_module
        self.pin = pin
        self._pulse: float | None = None
        try:
            self.handle = lgpio_module.gpiochip_open(gpiochip)
        except Exception as exc:  # lgpio.error
            raise ServoError(
                f"cannot open /dev/gpiochip{gpiochip} for the clock hand: {exc}; check hardware.servo.gpiochip"
            ) from exc
        try:
            lgpio_module.gpio_claim_output(self.handle, pin, 0)
        except Exception as exc:
            lgpio_module.gpiochip_close(self.handle)
            raise PinError(
                f"GPIO{pin} for the clock hand cannot be claimed ({exc}); is it in use by another program?"
            ) from exc

    def set_pulse_us(self, pulse_us: float) -> None:
        _check_range(pulse_us)
        width = round(pulse_us)
        try:
            self.lgpio.tx_servo(self.handle, self.pin, width, 1_000_000 // FRAME_US)
        except Exception as exc:
            raise ServoError(f"lgpio refused the servo pulse on GPIO{self.pin}: {exc}") from exc
        self._pulse = float(width)

    def detach(self) -> None:
        try:
            self.lgpio.tx_servo(self.handle, self.pin, 0)
        except Exception as exc:
            raise ServoError(f"lgpio cannot stop the servo pulse on GPIO{self.pin}: {exc}") from exc
        self._pulse = None

    @property
    def pulse_us(self) -> float | None:
        return self._pulse

    def close(self) -> None:
        try:
            self.lgpio.gpio_free(self.handle, self.pin)
        finally:
            self.lgpio.gpiochip_close(self.handle)


class SysfsPWMPulse:
    """The kernel's hardware PWM (`/sys/class/pwm/pwmchipN/pwmM`), exact to the nanosecond.

    Needs a PWM overlay in /boot/firmware/config.txt (see docs/hardware.md). `root` is
    injectable so tests run against a directory tree shaped like sysfs.
    """

    name = "hwpwm"

    def __init__(
        self,
        root: str | Path = "/sys/class/pwm",
        chip: int = 0,
        channel: int = 0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.chip_dir = Path(root) / f"pwmchip{chip}"
        self.dir = self.chip_dir / f"pwm{channel}"
        self.channel = channel
        self._pulse: float | None = None
        if not self.chip_dir.is_dir():
            raise ServoError(
                f"no hardware PWM at {self.chip_dir}: enable it with a PWM overlay in /boot/firmware/config.txt "
                '(see docs/hardware.md) or set hardware.servo.backend = "lgpio"'
            )
        try:
            if not self.dir.is_dir():
                (self.chip_dir / "export").write_text(f"{channel}\n")
                for _ in range(20):  # udev may take a moment to create pwmM and set its permissions
                    if (self.dir / "enable").exists():
                        break
                    sleep(0.05)
            self._write("enable", 0)
            self._write("period", FRAME_US * 1000)
        except OSError as exc:
            if exc.errno == errno.EBUSY:
                raise PinError(f"PWM channel {self.dir} is in use by another program: {exc}") from exc
            raise ServoError(f"cannot set up hardware PWM at {self.dir}: {exc}") from exc

    def _write(self, name: str, value: int) -> None:
        (self.dir / name).write_text(f"{value}\n")

    def set_pulse_us(self, pulse_us: float) -> None:
        _check_range(pulse_us)
        ns = round(pulse_us * 1000)
        try:
            self._write("duty_cycle", ns)
            self._write("enable", 1)
        except OSError as exc:
            raise ServoError(f"hardware PWM at {self.dir} refused a {pulse_us:.0f} us pulse: {exc}") from exc
        self._pulse = ns / 1000

    def detach(self) -> None:
        try:
            self._write("enable", 0)
        except OSError as exc:
            raise ServoError(f"cannot stop hardware PWM at {self.dir}: {exc}") from exc
        self._pulse = None

    @property
    def pulse_us(self) -> float | None:
        return self._pulse

    def close(self) -> None:
        try:
            self._write("enable", 0)
            (self.chip_dir / "unexport").write_text(f"{self.channel}\n")
        except OSError:
            pass
