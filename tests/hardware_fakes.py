"""Stand-ins for the tests of hardware/: a clock, an I2C bus, lgpio, a sysfs PWM tree, the voice's engine and aplay.

The devices themselves are real (gpiozero on its MockFactory, luma.oled's ssd1306 on
luma's real i2c interface); only what sits under them is faked here.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import numpy as np
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware import Table
from hardware.config import HardwareConfig, PinsConfig, ServoConfig, VoiceConfig
from hardware.voice import RATE, Player, Speech, Voice


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


class ToneEngine:
    """Stands in for Piper or espeak-ng: each sentence becomes a tone of `per_char` seconds a character (a real
    engine's lines take longer the longer they are); the sentences rendered are recorded."""

    name = "tone"
    description = "a test tone"

    def __init__(self, per_char: float = 0.05) -> None:
        self.per_char = per_char
        self.ident = f"tone/{per_char}"
        self.rendered: list[str] = []

    def render(self, text: str) -> Speech:
        self.rendered.append(text)
        n = round(len(text) * self.per_char * RATE)
        t = np.arange(n) / RATE
        return Speech((np.sin(2 * np.pi * 440 * t) * 12000).astype(np.int16))


class RecordingSpawn:
    """Stands in for starting aplay: records each command line and the samples written to it; a process that
    lasts as long as its samples on `clock` (a FakeClock) or is over at once (no clock)."""

    class Proc:
        def __init__(self, clock: Any) -> None:
            self.clock, self.data, self.stopped, self.started = clock, bytearray(), False, None
            self.stdin = self

        def write(self, data: bytes) -> int:
            if self.started is None and self.clock is not None:
                self.started = self.clock.now()
            self.data.extend(data)
            return len(data)

        def flush(self) -> None:
            pass

        def close(self) -> None:
            pass

        @property
        def seconds(self) -> float:
            return len(self.data) / 2 / RATE

        def poll(self) -> int | None:
            if self.stopped or self.clock is None or self.started is None:
                return 0
            return 0 if self.clock.now() >= self.started + self.seconds else None

        def wait(self, timeout: float | None = None) -> int:
            return 0

        def terminate(self) -> None:
            self.stopped = True

    def __init__(self, clock: Any = None) -> None:
        self.clock = clock
        self.calls: list[list[str]] = []
        self.procs: list[RecordingSpawn.Proc] = []
        self.voice: Voice | None = None

    def __call__(self, argv: list[str]) -> Any:
        self.calls.append(argv)
        self.procs.append(self.Proc(self.clock))
        return self.procs[-1]

    @property
    def said(self) -> list[str]:
        """The lines the voice was given to say, in order."""
        return self.voice.spoken if self.voice is not None else []


def quiet_voice(spawn: RecordingSpawn | None = None, *, engine: Any = None, now: Any = None, **cfg: Any) -> Voice:
    """A Voice with a stand-in engine (a tone) and a stand-in aplay, played in the caller's thread."""
    spawn = spawn or RecordingSpawn()
    player = Player(spawn=spawn, threaded=False, volume=cfg.get("volume", 80), **({"now": now} if now else {}))
    voice = Voice(VoiceConfig(**cfg), engine=engine or ToneEngine(), player=player)
    spawn.voice = voice
    return voice


def sim_table(
    clock: FakeClock,
    config: HardwareConfig | None = None,
    *,
    pin_factory: MockFactory | None = None,
    voice: Voice | None = None,
    **more: Any,
) -> Table:
    """The Table as the hardware tests run it: simulated parts (the OLED on luma's dummy device), gpiozero's mock pins
    (a factory of PWM pins of its own unless one is given), time and sleep from `clock`, every job in the test's
    thread, and a voice that plays nowhere (quiet_voice) unless one is given; `more`: the Table's other keywords."""
    return Table(
        config if config is not None else HardwareConfig(),
        sim=True,
        now=clock.now,
        sleep=clock.sleep,
        threaded=False,
        pin_factory=pin_factory if pin_factory is not None else MockFactory(pin_class=MockPWMPin),
        voice=voice if voice is not None else quiet_voice(),
        **more,
    )


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
