"""Buttons, buzzer and LED on gpiozero devices.

- "end round" button: a short press ends the round (so a table can play with no
  phone at all); holding it for `long_press_s` undoes the last command instead.
- "read dice" button: reads the dice in the tray.
- buzzer and LED: the Ghost Hour alarm pattern.

Buttons wire between the GPIO and ground (internal pull-up). Debouncing is done
twice: gpiozero's `bounce_time` on the pin, and a check on the injected clock
(which is what the tests exercise; gpiozero's mock pins do not bounce-filter).
Long presses are caught by gpiozero's `when_held` as soon as the hold time passes,
and, for presses timed by the injected clock, when the button is let go.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from companion.errors import CompanionError, PinError
from hardware.config import PinsConfig
from hardware.faults import Part

log = logging.getLogger("hardware.controls")

Callback = Callable[[], Any]

# The Ghost Hour alarm: three bursts of three beeps, the LED flashing with them.
# Each step: (seconds, buzzer on, LED on).
GHOST_HOUR_PATTERN: tuple[tuple[float, bool, bool], ...] = (
    ((0.15, True, True), (0.1, False, False)) * 3 + ((0.5, False, True),)
) * 3


def timeline(pattern: tuple[tuple[float, bool, bool], ...]) -> list[tuple[float, bool, bool]]:
    """The pattern as (start time, buzzer, LED) steps, plus a final all-off step."""
    t = 0.0
    steps: list[tuple[float, bool, bool]] = []
    for seconds, buzzer, led in pattern:
        steps.append((t, buzzer, led))
        t += seconds
    steps.append((t, False, False))
    return steps


def _open_pin_device(kind: str, pin: int, label: str, **kwargs: Any) -> Any:
    import gpiozero
    from gpiozero.exc import GPIOPinInUse

    try:
        return getattr(gpiozero, kind)(pin, **kwargs)
    except GPIOPinInUse as exc:
        raise PinError(
            f"GPIO{pin} for the {label} is already in use ({exc}); stop the other program or part, "
            "or choose another pin under [hardware.pins]"
        ) from exc


class EndRoundButton:
    """A gpiozero Button where a short press and a long press mean different things."""

    def __init__(self, button: Any, cfg: PinsConfig, now: Callable[[], float], short: Callback, long: Callback) -> None:
        self.button = button
        self.cfg = cfg
        self._now = now
        self._short = short
        self._long = long
        self._lock = threading.Lock()
        self._down = False
        self._held = False
        self._t_down = 0.0
        self._t_up = float("-inf")
        button.when_pressed = self._pressed
        button.when_released = self._released
        button.when_held = self._hold_passed

    def _pressed(self) -> None:
        t = self._now()
        with self._lock:
            if not self._down and t - self._t_up < self.cfg.debounce_s:
                return  # the contacts bouncing after a release
            self._down, self._held, self._t_down = True, False, t

    def _released(self) -> None:
        t = self._now()
        with self._lock:
            if not self._down or t - self._t_down < self.cfg.debounce_s:
                return  # not a press we accepted, or the contacts bouncing while pressed
            self._down, self._t_up = False, t
            if self._held:
                return  # the long press already fired while the button was held
            fire = self._long if t - self._t_down >= self.cfg.long_press_s else self._short
        fire()

    def _hold_passed(self) -> None:
        with self._lock:
            if not self._down or self._held:
                return
            self._held = True
        self._long()

    def close(self) -> None:
        self.button.close()


class PressButton:
    """A gpiozero Button that fires once per press, debounced on the injected clock."""

    def __init__(self, button: Any, cfg: PinsConfig, now: Callable[[], float], fire: Callback) -> None:
        self.button = button
        self.cfg = cfg
        self._now = now
        self._fire = fire
        self._last = float("-inf")
        self._lock = threading.Lock()
        button.when_pressed = self._pressed

    def _pressed(self) -> None:
        t = self._now()
        with self._lock:
            if t - self._last < self.cfg.debounce_s:
                return
            self._last = t
        self._fire()

    def close(self) -> None:
        self.button.close()


class Controls:
    """The buttons, the buzzer and the LED, each its own `Part` (one failing leaves the others)."""

    def __init__(
        self,
        cfg: PinsConfig,
        pin_factory: Any,
        *,
        now: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        retry_s: float = 30.0,
        unavailable: str | None = None,
    ) -> None:
        """`unavailable`: why there is no pin factory (every pin part is then missing with that message)."""
        self.cfg = cfg
        self.pin_factory = pin_factory
        self._now = now
        self._sleep = sleep
        self._retry_s = retry_s
        self.when_end_round: Callback | None = None
        self.when_read_dice: Callback | None = None
        self.when_undo: Callback | None = None
        self.when_error: Callable[[str, str], None] | None = None  # (what, message)
        bounce = cfg.debounce_s or None

        def button(pin: int, label: str, **kwargs: Any) -> Any:
            return _open_pin_device(
                "Button", pin, label, pull_up=True, bounce_time=bounce, pin_factory=pin_factory, **kwargs
            )

        def opener(pin: int | None, make: Callable[[int], Any]) -> Callable[[], Any] | None:
            if pin is None:
                return None

            def open_() -> Any:
                if pin_factory is None and unavailable:
                    raise PinError(unavailable)
                return make(pin)

            return open_

        part = self._part
        self.end_round = part(
            "end round button",
            opener(
                cfg.end_round,
                lambda pin: EndRoundButton(
                    button(pin, "end round button", hold_time=cfg.long_press_s),
                    cfg,
                    now,
                    lambda: self._fire("end round", self.when_end_round),
                    lambda: self._fire("undo", self.when_undo),
                ),
            ),
        )
        self.read_dice = part(
            "read dice button",
            opener(
                cfg.read_dice,
                lambda pin: PressButton(
                    button(pin, "read dice button"), cfg, now, lambda: self._fire("read dice", self.when_read_dice)
                ),
            ),
        )
        self.buzzer = part(
            "buzzer", opener(cfg.buzzer, lambda pin: _open_pin_device("Buzzer", pin, "buzzer", pin_factory=pin_factory))
        )
        self.led = part(
            "LED", opener(cfg.led, lambda pin: _open_pin_device("LED", pin, "LED", pin_factory=pin_factory))
        )
        self.parts: dict[str, Part[Any]] = {
            "end_round_button": self.end_round,
            "read_dice_button": self.read_dice,
            "buzzer": self.buzzer,
            "led": self.led,
        }

    def _part(self, name: str, opener: Callable[[], Any] | None) -> Part[Any]:
        return Part(name, opener, now=self._now, retry_s=self._retry_s, closer=lambda d: d.close())

    def _fire(self, what: str, callback: Callback | None) -> None:
        if callback is None:
            log.info("%s pressed, but nothing is listening", what)
            return
        try:
            callback()
        except CompanionError as exc:
            log.warning("%s from the button was refused: %s", what, exc)
            if self.when_error is not None:
                self.when_error(what, str(exc))
        except Exception:
            log.exception("%s from the button failed", what)
            if self.when_error is not None:
                self.when_error(what, "unexpected error; see the log")

    def open(self) -> None:
        for part in self.parts.values():
            part.open()

    def tick(self) -> None:
        """Retry the parts that are missing, when their retry is due."""
        for part in self.parts.values():
            part.ensure()

    def set_outputs(self, buzzer: bool | None = None, led: bool | None = None) -> None:
        """Switch the buzzer and/or the LED (None leaves it); a failing one is marked missing."""
        if buzzer is not None:
            self.buzzer.run(lambda d: d.on() if buzzer else d.off())
        if led is not None:
            self.led.run(lambda d: d.on() if led else d.off())

    def pattern(self, pattern: tuple[tuple[float, bool, bool], ...] = GHOST_HOUR_PATTERN) -> Iterator[float]:
        """A pattern on the buzzer and LED as steps: yields the (injected-clock) time of each switch, then switches.

        The Table's scheduler runs these beside its other work; `alarm` runs them alone.
        """
        t0 = self._now()
        for start, buzzer, led in timeline(pattern):
            yield t0 + start
            self.set_outputs(buzzer, led)

    def alarm(self, pattern: tuple[tuple[float, bool, bool], ...] = GHOST_HOUR_PATTERN) -> None:
        """Play a pattern on the buzzer and LED, timed by the injected clock (blocks for its length)."""
        for due in self.pattern(pattern):
            delay = due - self._now()
            if delay > 0:
                self._sleep(delay)

    def status(self) -> dict[str, dict[str, Any]]:
        return {name: part.status() for name, part in self.parts.items()}

    def close(self) -> None:
        self.set_outputs(False, False)
        for part in self.parts.values():
            part.close()
