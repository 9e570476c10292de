"""The status OLED: what it shows now, the burn-in guard, and the PNG for the web view.

`StatusDisplay` keeps the current picture whether or not a panel is attached (so the
phone page can show it even when the OLED is unplugged) and pushes frames to the luma
device it is given. Burn-in guard: every `shift_every_s` the picture moves by a pixel
along a small square path, and after `dim_after_s` with nothing new the contrast drops
to `dim_contrast` until something new is shown. Time is injected.
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageChops

from hardware.config import DisplayConfig

# The burn-in path: one pixel at a time round a 3x3 square, back to the middle.
SHIFTS: tuple[tuple[int, int], ...] = ((0, 0), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def shifted(image: Image.Image, offset: tuple[int, int]) -> Image.Image:
    """The picture moved by `offset` pixels (wrapping; screens keep a 2 px empty margin)."""
    dx, dy = offset
    if (dx, dy) == (0, 0):
        return image.copy()
    return ImageChops.offset(image, dx, dy)


class StatusDisplay:
    """Screens onto a luma device (or none), with the burn-in guard."""

    def __init__(self, cfg: DisplayConfig, *, now: Callable[[], float] = time.monotonic) -> None:
        self.cfg = cfg
        self._now = now
        self._lock = threading.RLock()
        self.device: Any = None
        self.screen: Image.Image | None = None  # as drawn, before the shift
        self.frame: Image.Image | None = None  # as sent to the panel
        self.name = "blank"
        self.shift_index = 0
        self.contrast = cfg.contrast
        self.is_dimmed = False
        self.frames_sent = 0
        t = now()
        self._last_new = t
        self._last_shift = t

    @property
    def last_new(self) -> float:
        """When something new was last shown (by the injected clock): what the dimming counts from."""
        return self._last_new

    @property
    def offset(self) -> tuple[int, int]:
        return SHIFTS[self.shift_index]

    def attach(self, device: Any) -> None:
        """Use this luma device from now on and bring it up to date (contrast, current frame)."""
        with self._lock:
            self.device = device
            device.contrast(self.contrast)
            if self.frame is not None:
                device.display(self.frame)
                self.frames_sent += 1

    def detach_device(self) -> None:
        with self._lock:
            self.device = None

    def show(self, image: Image.Image, name: str = "screen", *, wake: bool = True) -> None:
        """Show a new picture. `wake` brings the contrast back up (something new happened)."""
        with self._lock:
            self.screen = image
            self.name = name
            if wake:
                self._last_new = self._now()
                if self.is_dimmed:
                    self._set_contrast(self.cfg.contrast, dimmed=False)
            self._push()

    def tick(self) -> None:
        """Advance the burn-in guard; call now and then (the Table's worker does, every second)."""
        with self._lock:
            t = self._now()
            if self.screen is not None and t - self._last_shift >= self.cfg.shift_every_s:
                self._last_shift = t
                self.shift_index = (self.shift_index + 1) % len(SHIFTS)
                self._push()
            if not self.is_dimmed and t - self._last_new >= self.cfg.dim_after_s:
                self._set_contrast(self.cfg.dim_contrast, dimmed=True)

    def dim(self) -> None:
        """Drop to the dimmed contrast now (at shutdown, under the "game paused" screen)."""
        with self._lock:
            self._set_contrast(self.cfg.dim_contrast, dimmed=True)

    def _set_contrast(self, level: int, dimmed: bool) -> None:
        self.contrast = level
        self.is_dimmed = dimmed
        if self.device is not None:
            self.device.contrast(level)

    def _push(self) -> None:
        if self.screen is None:
            return
        self.frame = shifted(self.screen, self.offset)
        if self.device is not None:
            self.device.display(self.frame)
            self.frames_sent += 1

    def png(self) -> bytes | None:
        """The current frame as PNG bytes (what the panel shows, or would show), or None before the first."""
        with self._lock:
            frame = self.frame
        if frame is None:
            return None
        buffer = io.BytesIO()
        frame.save(buffer, format="PNG")
        return buffer.getvalue()

    def clear(self) -> None:
        with self._lock:
            if self.device is not None:
                self.device.clear()
