"""The clock hand: a servo that sweeps to XII, III, VI or IX and then lets go.

Positions are handled as clock-face angles (XII = 0, III = 90, VI = 180, IX = 270,
clockwise). The calibrated pulse width of each mark fixes where the servo must be;
between marks the pulse is interpolated, so a sweep is smooth even when the marks are
not evenly spaced in pulse width. After the sweep the hand holds for `settle_s`, then
the pulse stops (detach): a detached hobby servo stays where it is, silent.

Time is injected (`now`, `sleep`), so tests sweep in no real time.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator

from hardware.config import HOUR_ANGLE, HOUR_MARKS, MARK_ANGLE, MARKS, ServoConfig
from hardware.pulse import PulseOutput

STEP_S = 0.02  # one servo frame


def ease(kind: str, t: float) -> float:
    """Progress 0..1 of an eased move at time fraction t (0..1); monotone, 0 at 0 and 1 at 1."""
    t = min(1.0, max(0.0, t))
    if kind == "linear":
        return t
    if kind == "sine":
        return (1 - math.cos(math.pi * t)) / 2
    if kind == "cubic":
        return 4 * t**3 if t < 0.5 else 1 - (-2 * t + 2) ** 3 / 2
    raise ValueError(f"unknown easing {kind!r}")


class ClockHand:
    """The servo hand over a `PulseOutput` back end."""

    def __init__(
        self,
        output: PulseOutput,
        cfg: ServoConfig,
        *,
        now: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        step_s: float = STEP_S,
        angle: float | None = None,
    ) -> None:
        self.output = output
        self.cfg = cfg
        self._now = now
        self._sleep = sleep
        self.step_s = step_s
        self._moving = False
        # A fresh hand is assumed to stand where close() left it: on the park mark
        # (or where the caller knows it is, after the back end was reopened).
        self._angle: float = MARK_ANGLE[cfg.park] if angle is None else angle
        self.mark: str | None = cfg.park if angle is None else None
        self.moves = 0

    # -- geometry -------------------------------------------------------------------------------

    def pulse_for_angle(self, angle: float) -> float:
        """The calibrated pulse for a clock-face angle 0..270 (piecewise linear between marks)."""
        angle = min(270.0, max(0.0, angle))
        pulses = [self.cfg.pulse_us[m] for m in MARKS]
        i = min(int(angle // 90), 2)
        frac = (angle - 90 * i) / 90
        return pulses[i] + (pulses[i + 1] - pulses[i]) * frac

    def angle_for_pulse(self, pulse: float) -> float:
        """The clock-face angle a pulse puts the hand at (inverse of `pulse_for_angle`)."""
        pulses = [float(self.cfg.pulse_us[m]) for m in MARKS]
        if pulses[0] > pulses[-1]:
            pulses = [-p for p in pulses]
            pulse = -pulse
        if pulse <= pulses[0]:
            return 0.0
        for i in range(3):
            if pulse <= pulses[i + 1]:
                return 90 * i + 90 * (pulse - pulses[i]) / (pulses[i + 1] - pulses[i])
        return 270.0

    # -- state ----------------------------------------------------------------------------------

    @property
    def angle(self) -> float:
        """Where the hand is (clock-face degrees), also while it sweeps."""
        return self._angle

    @property
    def is_attached(self) -> bool:
        return self.output.pulse_us is not None

    @property
    def is_moving(self) -> bool:
        return self._moving

    def is_resting_on(self, mark: str) -> bool:
        """True when the hand stands on `mark` with the pulse stopped: a move there has nothing to do."""
        return self.mark == mark and not self.is_attached

    # -- motion ---------------------------------------------------------------------------------

    def move_to(self, mark: str) -> None:
        """Sweep (eased, at `speed_deg_s`) to `mark`, hold for `settle_s`, then stop the pulse; blocks.

        A hand already resting on `mark` is left alone.
        """
        if self.is_resting_on(mark):
            return
        for deadline in self.sweep(mark):
            self._wait_until(deadline)

    def sweep(self, mark: str) -> Iterator[float]:
        """The move to `mark` as steps: sets each pulse, then yields the (injected-clock) time of the next.

        The Table's scheduler runs this beside the OLED's flashing in one thread; `move_to`
        runs it alone.
        """
        if mark not in HOUR_ANGLE:
            raise ValueError(f"unknown clock mark {mark!r}; use one of {', '.join(HOUR_MARKS)}")
        target = HOUR_ANGLE[mark]
        start = self._angle
        duration = abs(target - start) / self.cfg.speed_deg_s
        steps = max(1, math.ceil(duration / self.step_s))
        t0 = self._now()
        self.mark = None
        self._moving = True
        try:
            for i in range(1, steps + 1):
                angle = start + (target - start) * ease(self.cfg.easing, i / steps)
                self.output.set_pulse_us(self.pulse_for_angle(angle))
                self._angle = angle
                yield t0 + i * self.step_s
            self._angle = target
            self.mark = mark
            if self.cfg.settle_s:
                yield self._now() + self.cfg.settle_s
            self.output.detach()
            self.moves += 1
        finally:
            self._moving = False

    def _wait_until(self, deadline: float) -> None:
        delay = deadline - self._now()
        if delay > 0:
            self._sleep(delay)

    def hold(self, pulse_us: float) -> None:
        """Send `pulse_us` and keep sending it (calibration): no sweep, no detach."""
        self.output.set_pulse_us(pulse_us)
        self._angle = self.angle_for_pulse(pulse_us)
        self.mark = None

    def start(self, mark: str) -> None:
        """After a restart: the hand stands on the park mark; bring it to the game's hour."""
        self._angle = MARK_ANGLE[self.cfg.park]
        self.move_to(mark)

    def park(self) -> None:
        self.move_to(self.cfg.park)

    def detach(self) -> None:
        self.output.detach()

    def close(self) -> None:
        """Park, then release the back end."""
        try:
            self.park()
        finally:
            self.output.close()
