"""The camera above the dice tray, watched in a thread of its own, and the tray's checked settings.

`tray_settings` checks the ``[tray]`` table (the reader's settings and which colour is which kind of die, in
the words of the table's game: its module's ``check_tray_kind``); `TrayLoop` opens the camera (retrying a missing
one), feeds every frame to a `vision.tray.TrayWatcher` and hands each settled reading to a callback. ``companion
serve`` builds both and wires the callback into its main loop; nothing here turns a reading into a game command:
the readings are the dice seen (``companion.games.base.SeenDie``), which the game's module makes a roll of
(``GameModule.tray_roll``, through ``GameService.roll_from_tray``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.config import CameraConfig, prefix_error
from companion.errors import CompanionError, ConfigError
from companion.games.base import module_for
from vision.reader import DieReading, ReaderSettings, read_dice
from vision.tray import TrayWatcher

log = logging.getLogger("companion.serve")

Reader = Callable[[np.ndarray, ReaderSettings], list[DieReading]]


@dataclass(frozen=True)
class TraySettings:
    """The dice tray, checked: the reader's settings, which colour is which kind of die (``[tray.kinds]``, in the
    game's words) and the game's usual colours of its dice (``GameModule.tray_kinds``)."""

    reader: ReaderSettings
    kinds: Mapping[str, str]
    usual: Mapping[str, str] = field(default_factory=dict)


def sim_color_kinds() -> dict[str, str]:
    """For the simulation's replayed photos of ordinary dice: every colour the reader names is the game's common
    die (Skeptics' clue die), except the colours its other dice usually have (green key, red summon), as on a
    real table. The table's dice are the default game's, as ``[dice.pips]`` (companion.config)."""
    from vision.reader import HUE_NAMES

    usual = dict(module_for(None).tray_kinds)
    if not usual:
        return {}
    names = sorted({name for _, name in HUE_NAMES} | {"black", "white", "grey", "brown", "gold"})
    return {**dict.fromkeys(names, next(iter(usual.values()))), **usual}


def tray_settings(table: Mapping[str, Any]) -> TraySettings:
    """``[tray]`` checked into `TraySettings`; ConfigError names the key. Its kinds of die are the default game's
    (``[dice.pips]`` is checked so too, by companion.config)."""
    try:
        reader = ReaderSettings.from_config(table)
    except ConfigError as exc:
        raise prefix_error("tray", exc) from None
    module = module_for(None)
    kinds_table = table.get("kinds", module.tray_kinds)
    if not isinstance(kinds_table, Mapping):
        raise ConfigError(f'tray.kinds: expected a table of colour = kind (blue = "clue"), got {kinds_table!r}')
    kinds = {}
    for colour, kind in kinds_table.items():
        try:
            kinds[str(colour).strip().lower()] = module.check_tray_kind(str(kind))
        except CompanionError as exc:
            raise ConfigError(f"tray.kinds.{colour}: {exc}") from None
    return TraySettings(reader=reader, kinds=kinds, usual=dict(module.tray_kinds))


class TrayLoop:
    """The camera above the dice tray, watched in its own thread.

    Frames go into the ``TrayWatcher``; when the dice settle it reads them once and hands the
    readings to ``on_readings(readings, why)`` (``why`` is "settled", or "button" after
    ``request_read()``). A missing or unplugged camera is retried every ``retry_s`` seconds; in the
    meantime the dice are entered on the page. The web page reads ``last_reading()`` and
    ``annotated_jpeg()``.
    """

    def __init__(
        self,
        camera: CameraConfig,
        tray: TraySettings,
        *,
        sim: bool,
        on_readings: Callable[[list[DieReading], str], None],
        monotonic: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        reader: Reader | None = None,
        throw: Callable[[], tuple[Any, tuple[str, ...]]] | None = None,
    ) -> None:
        self.reader: Reader = reader if reader is not None else read_dice
        # --sim: the throws a person taps (vision.sim_tray.Thrower), which ThrowCamera draws; None when this tray's
        # camera is not that one (a real table, or replayed photos): the page then offers no simulated throw
        self.thrower = throw if sim and not camera.source.startswith("replay:") else None
        self.config = camera
        self.tray = tray
        self.sim = sim
        self.on_readings = on_readings
        self.wall = wall
        self.watcher = TrayWatcher(
            tray.reader,
            when_settled=lambda readings: self._readings(readings, "settled"),
            now=monotonic,
            settle_seconds=camera.settle_s,
            reader=self.reader,
        )
        self.camera: Any = None
        self.camera_name: str | None = None
        self.error: str | None = None
        self.last_at: float | None = None
        self.frames = 0
        self._stop = threading.Event()
        self._read_now = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tray camera", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def open_camera(self) -> Any:
        from vision.camera import ReplayCamera, open_camera, sample_paths

        size = (self.config.width, self.config.height)
        hold = max(1, round(self.config.sim_hold_s / max(self.config.interval, 0.01)))
        if self.thrower is not None:
            from vision.sim_tray import ThrowCamera

            return ThrowCamera(self.thrower, kinds=self.kind_colours())
        if self.sim and not self.config.source.startswith("replay:"):
            return ReplayCamera(sample_paths(), repeat=hold)
        return open_camera(self.config.source, size, repeat=hold)

    def kind_colours(self) -> dict[str, str]:
        """Each kind of die -> the colour of its dice in this tray (the usual colour first: blue clue dice)."""
        out = {kind: colour for colour, kind in self.tray.usual.items() if self.tray.kinds.get(colour) == kind}
        for colour, kind in self.tray.kinds.items():
            out.setdefault(kind, colour)
        return out

    def request_read(self) -> None:
        """Read the dice in the next frame, settled or not (the read-dice button)."""
        self._read_now.set()

    def _readings(self, readings: list[DieReading], why: str) -> None:
        self.last_at = self.wall()
        self.on_readings(readings, why)

    def _run(self) -> None:
        while not self._stop.is_set():
            if self.camera is None:
                try:
                    self.camera = self.open_camera()
                    self.camera_name = str(getattr(self.camera, "name", type(self.camera).__name__))
                    self.error = None
                    log.info("camera: %s", self.camera_name)
                except Exception as exc:  # CameraError, or a camera library's own
                    self.error = str(exc) if isinstance(exc, CompanionError) else f"{type(exc).__name__}: {exc}"
                    log.warning("no camera (%s); trying again in %.0f s", self.error, self.config.retry_s)
                    self._stop.wait(self.config.retry_s)
                    continue
            try:
                frame = self.camera.read()
                self.frames += 1
            except Exception as exc:
                self.error = str(exc) if isinstance(exc, CompanionError) else f"{type(exc).__name__}: {exc}"
                log.warning(
                    "the camera stopped giving frames (%s); trying again in %.0f s", self.error, self.config.retry_s
                )
                self._close_camera()
                self._stop.wait(self.config.retry_s)
                continue
            try:
                if self._read_now.is_set():
                    self._read_now.clear()
                    readings = self.reader(frame, self.tray.reader)
                    self.watcher.last_readings, self.watcher.last_frame = readings, frame
                    self.error = None
                    self._readings(readings, "button")
                elif self.watcher.feed(frame) is not None:
                    self.error = None
            except CompanionError as exc:
                if str(exc) != self.error:  # once per new problem, not once per roll
                    log.warning("the dice reader failed: %s", exc)
                self.error = str(exc)
            except Exception:
                log.exception("the dice reader failed")
            self._stop.wait(self.config.interval)

    def _close_camera(self) -> None:
        camera, self.camera = self.camera, None
        if camera is not None:
            try:
                camera.close()
            except Exception:
                log.exception("the camera did not close cleanly")

    # -- for the web page (any thread)

    def last_reading(self) -> dict[str, Any] | None:
        readings = self.watcher.last_readings
        if readings is None and self.error is None:
            return None
        return {
            "dice": [reading.to_dict() for reading in readings or []],
            "at": self.last_at,
            "camera": self.camera_name,
            "error": self.error,
            "settled": self.watcher.is_settled,
        }

    def annotated_jpeg(self) -> bytes | None:
        data: bytes | None = self.watcher.annotated_jpeg()
        return data

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        self._close_camera()
