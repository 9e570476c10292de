"""Stand-ins for the tests of hardware/: a clock, an I2C bus, lgpio, a sysfs PWM tree, espeak-ng.

The devices themselves are real (gpiozero on its MockFactory, luma.oled's ssd1306 on
luma's real i2c interface); only what sits under them is faked here.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

from hardware.config import HardwareConfig, PinsConfig, ServoConfig, VoiceConfig
from hardware.voice import Voice


class FakeClock:
    """Time passes only by sleeping; every sleep is recorded."""

    def __init__(self, start: float = 1000.0) -> None:
        self.t = start
        self.sleeps: list[float] = []

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        assert seconds >= 0
        self.sleeps.append(seconds)
        self.t += seconds

    def advance(self, seconds: float) -> None:
        self.t += seconds


class FakeI2CBus:
    """An smbus2-like bus: records what luma writes, and can stop answering like an unplugged OLED."""

    def __init__(self) -> None:
        self.commands: list[list[int]] = []
        self.data_blocks = 0
        self.fail_errno: int | None = None

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        if self.fail_errno is not None:
            raise OSError(self.fail_errno, os.strerror(self.fail_errno))
        if register == 0x00:
            self.commands.append(list(data))
        else:
            self.data_blocks += 1

    def contrast_levels(self) -> list[int]:
        """Values sent with the SSD1306/SH1106 "set contrast" command (0x81)."""
        return [cmd[1] for cmd in self.commands if len(cmd) == 2 and cmd[0] == 0x81]

    def unplug(self) -> None:
        self.fail_errno = errno.EREMOTEIO  # 121: no device answered at the address

    def plug_in(self) -> None:
        self.fail_errno = None


class FakeLgpio:
    """The part of the lgpio module the servo back end uses; `tx_servo` takes whole microseconds, as lgpio does."""

    error = RuntimeError

    def __init__(self) -> None:
        self.pulses: list[int] = []
        self.claimed: set[int] = set()
        self.closed = False

    def gpiochip_open(self, chip: int) -> int:
        return 7

    def gpio_claim_output(self, handle: int, gpio: int, level: int = 0) -> int:
        if gpio in self.claimed:
            raise self.error("GPIO busy")
        self.claimed.add(gpio)
        return 0

    def tx_servo(self, handle: int, gpio: int, pulse_width: int, servo_frequency: int = 50) -> int:
        assert isinstance(pulse_width, int)
        assert pulse_width == 0 or servo_frequency == 50
        self.pulses.append(pulse_width)
        return 0

    def gpio_free(self, handle: int, gpio: int) -> int:
        self.claimed.discard(gpio)
        return 0

    def gpiochip_close(self, handle: int) -> int:
        self.closed = True
        return 0


def make_sysfs_pwm(root: Path, chip: int = 0, channel: int = 0, exported: bool = True) -> Path:
    """A directory shaped like /sys/class/pwm/pwmchipN (with pwmM when `exported`)."""
    chip_dir = root / f"pwmchip{chip}"
    chip_dir.mkdir(parents=True, exist_ok=True)
    (chip_dir / "export").write_text("")
    (chip_dir / "unexport").write_text("")
    if exported:
        pwm = chip_dir / f"pwm{channel}"
        pwm.mkdir(exist_ok=True)
        for name in ("period", "duty_cycle", "enable"):
            (pwm / name).write_text("0\n")
    return chip_dir


class RecordingSpawn:
    """Stands in for starting espeak-ng: records the command line, returns a finished process."""

    class Proc:
        def poll(self) -> int:
            return 0

        def wait(self, timeout: float | None = None) -> int:
            return 0

        def terminate(self) -> None:
            pass

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, argv: list[str]) -> Any:
        self.calls.append(argv)
        return self.Proc()


def quiet_voice(spawn: RecordingSpawn | None = None, **cfg: Any) -> Voice:
    voice = Voice(VoiceConfig(**cfg), spawn=spawn or RecordingSpawn())
    if voice.path is None:  # the tests of the Table do not need espeak-ng itself
        voice.path = "espeak-ng"
    return voice


def fast_config(**servo: Any) -> HardwareConfig:
    """The default configuration with a few servo settings changed."""
    return HardwareConfig(servo=ServoConfig.from_dict(servo), pins=PinsConfig())


def game_state(**changes: Any) -> dict[str, Any]:
    """A `game.view()`-shaped state with the fields the hardware reads (docs/DESIGN.md)."""
    state: dict[str, Any] = {
        "board": "asylum",
        "clock": "III",
        "round": 2,
        "hour": 0,
        "ghost_room": None,
        "ghost_reason": None,
        "room_deck_left": 11,
        "summon_dice": 1,
        "final_round": False,
        "outcome": None,
        "outcome_reason": None,
    }
    state.update(changes)
    return state
