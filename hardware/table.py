"""`hardware.Table`: the clock hand, the OLED, the buttons, the alarm and the voice as one.

The game service calls `show(state)` and `on_events(events, state)` from its own
thread, gpiozero calls the button callbacks from its threads, and the web server reads
`hand_angle`, `oled_png()` and `status()` from others. Those calls only record and
queue; the slow work (sweeps, flashing, beeping) runs in one worker (`Scheduler`)
with two lanes, "hand" and "screen", so the hand can sweep while the OLED flashes.

With `threaded=False` nothing runs until `run_pending()` (and `tick()`), which is
how the tests stay deterministic with an injected clock.

The queue coalesces, so fast play cannot make it grow (docs/hardware.md, "The work queue"):
- at most one "show the game" job waits; it draws the newest state when it runs;
- at most one hand sweep waits, to the newest mark; a sweep under way finishes first;
- a Ghost Hour is never dropped (only an identical one still waiting merges with it),
  and neither is a beep (identical waiting beeps merge); when something waits for the OLED,
  a Ghost Hour stops flashing once its buzzer pattern is over;
- one error screen and one join screen wait at most (the newest of each);
- once shown, the join screen comes back by itself for `JOIN_SHOWN_S` whenever the game screen has been
  quiet for `JOIN_EVERY_S`, without waking a dimmed panel, and gives way at once to anything new (phones
  join while the game goes on: the page tells a new player the code is on the companion's screen);
- an error or join screen stays up for its `seconds` only while nothing else waits for
  the OLED: once something does, it gives way after `OVERLAY_MIN_S`, checking every
  `OVERLAY_POLL_S`.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from PIL import Image

from companion.errors import PinError
from hardware import screens
from hardware.clock_hand import ClockHand
from hardware.config import HOUR_ANGLE, MARK_ANGLE, HardwareConfig
from hardware.controls import GHOST_HOUR_PATTERN, Controls, timeline
from hardware.display import StatusDisplay
from hardware.factory import (
    describe_display_fault,
    make_display_device,
    make_pin_factory,
    make_servo_output,
    pin_factory_name,
)
from hardware.faults import Part, describe, fault_types
from hardware.scheduler import Scheduler, Steps
from hardware.voice import Voice

log = logging.getLogger("hardware")

FLASH_PERIOD_S = 0.5
OVERLAY_MIN_S = 3.0  # an error or join screen stays at least this long before the game takes the OLED back
OVERLAY_POLL_S = 0.25  # after that, how often it looks for newer work waiting for the OLED
Callback = Callable[[], Any]
JOIN_EVERY_S = 60.0  # a game screen unchanged this long gives way to the join screen (the code for late phones)
JOIN_SHOWN_S = 8.0  # for this long, or until anything new is waiting for the OLED


ANNOUNCE_S = 5.0  # how long the OLED shows an announcement before the game screen comes back


ALARM_KINDS = ("midnight", "terror", "awakening")  # announcements that also sound the buzzer
POINT_PATTERN: tuple[tuple[float, bool, bool], ...] = ((0.6, True, True), (0.05, False, False))  # "point!"
NARRATION_HOLD_S = 2.0  # the last step of a script stays on the OLED this long before the game comes back
VOICE_POLL_S = 0.05  # how often a step held back by the words before it asks whether they have ended


class Table:
    """The table hardware behind one small interface (see docs/DESIGN.md, "Hardware")."""

    def __init__(
        self,
        config: HardwareConfig | None = None,
        *,
        sim: bool = False,
        now: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        threaded: bool = True,
        pin_factory: Any = None,
        i2c_bus: Any = None,
        sysfs_root: str | Path | None = None,
        lgpio_module: Any = None,
        voice: Voice | None = None,
        data_dir: str | Path | None = None,
        tick_s: float = 1.0,
    ) -> None:
        self.config = config or HardwareConfig()
        self.sim = sim
        self._now = now
        self._sleep = sleep
        self._lock = threading.RLock()
        self._faults = fault_types()
        self._state: dict[str, Any] | None = None
        self._join: Image.Image | None = None  # the join screen, once show_join gave it: shown again when quiet
        self._join_at = 0.0  # when the join screen last came up
        self._room_names: dict[int, str] = {}
        self._hand_queued: str | None = None  # the mark the hand is (or will be) heading for
        self._last_angle: float = MARK_ANGLE[self.config.servo.park]
        self._closed = False
        self.alarms = 0
        self._narration_id: Any = None  # the script being read out (Among Cultists' night, a vote's countdown)
        self.narrated: list[str] = []  # the steps shown and spoken, in order (for status and tests)
        cfg = self.config
        retry = cfg.retry_s

        self.pin_factory = pin_factory
        self.pin_factory_error: str | None = None
        self._own_factory = pin_factory is None
        if self.pin_factory is None:
            try:
                self.pin_factory = make_pin_factory(sim)
            except self._faults as exc:
                self.pin_factory_error = (
                    f"no GPIO library works here ({exc}); on a Pi run systemd/install.sh again (it installs lgpio), "
                    "or run with --sim"
                )
                log.warning("%s", self.pin_factory_error)

        # The OLED.
        self.display = StatusDisplay(cfg.display, now=now)

        def open_display() -> Any:
            return make_display_device(cfg.display, sim, i2c_bus)

        def close_display(device: Any) -> None:
            self.display.detach_device()
            device.persist = True  # luma's exit hook must not talk to a panel that stopped answering

        self.display_part: Part[Any] = Part(
            "OLED",
            open_display if cfg.display.enabled else None,
            now=now,
            retry_s=retry,
            closer=close_display,
            on_open=self.display.attach,
            describe_fault=lambda exc: (
                describe_display_fault(exc, cfg.display)
                if isinstance(exc, OSError) or "luma" in type(exc).__module__
                else describe(exc)
            ),
            off_reason="off (the configuration file turns the display off)",
        )

        # The clock hand.
        def open_hand() -> ClockHand:
            if self.pin_factory is None and cfg.servo.backend == "gpiozero":
                raise PinError(self.pin_factory_error or "no GPIO pin factory")
            output = make_servo_output(
                cfg.servo, self.pin_factory, sysfs_root=sysfs_root, lgpio_module=lgpio_module, sim=sim
            )
            if output.name == "gpiozero" and type(self.pin_factory).__name__ == "LGPIOFactory":
                log.warning(
                    "gpiozero's lgpio pin factory keeps the servo's PWM duty as a whole percent (200 us steps at "
                    "50 Hz), so the hand can stop up to 200 us off its marks; set hardware.servo.backend = "
                    '"lgpio" or "hwpwm" (docs/hardware.md)'
                )
            # The first time, the hand stands on the park mark (where close() left it); after a
            # fault it stands where it stopped, since an unpowered servo does not move.
            angle = self._last_angle if self.servo_part.failures else None
            return ClockHand(output, cfg.servo, now=now, sleep=sleep, angle=angle)

        def hand_back(hand: ClockHand) -> None:
            with self._lock:
                self._hand_queued = None
                state = self._state
            if state is not None and state.get("clock") in HOUR_ANGLE:
                self._queue_hand(str(state["clock"]))

        self.servo_part: Part[ClockHand] = Part(
            "clock hand servo", open_hand, now=now, retry_s=retry, closer=lambda h: h.output.close(), on_open=hand_back
        )

        # Buttons, buzzer, LED.
        self.controls = Controls(
            cfg.pins, self.pin_factory, now=now, sleep=sleep, retry_s=retry, unavailable=self.pin_factory_error
        )
        self.controls.when_error = lambda what, message: self.show_error(f"Button: {what}", message)

        # the voice's cache, the owner's voice files and the host's choice live in the data folder; a real
        # Table renders the fixed phrases in the background at once
        self.voice = voice or Voice(cfg.voice, data_dir=data_dir, warm=threaded)

        self.scheduler = Scheduler(now=now, sleep=sleep, tick=self.tick, tick_s=tick_s)
        self.display_part.open()
        self.servo_part.open()
        self.controls.open()
        if threaded:
            self.scheduler.start()

    # -- callbacks for the buttons ---------------------------------------------------------------

    @property
    def when_end_round(self) -> Callback | None:
        return self.controls.when_end_round

    @when_end_round.setter
    def when_end_round(self, fn: Callback | None) -> None:
        self.controls.when_end_round = fn

    @property
    def when_read_dice(self) -> Callback | None:
        return self.controls.when_read_dice

    @when_read_dice.setter
    def when_read_dice(self, fn: Callback | None) -> None:
        self.controls.when_read_dice = fn

    @property
    def when_undo(self) -> Callback | None:
        return self.controls.when_undo

    @when_undo.setter
    def when_undo(self, fn: Callback | None) -> None:
        self.controls.when_undo = fn

    # -- what the game tells us (any thread; returns at once) ------------------------------------

    def show(self, state: Mapping[str, Any]) -> None:
        """Show the game: the OLED's glance screen and the hand on the state's clock."""
        if self._closed:
            return
        snapshot = dict(state)
        with self._lock:
            self._state = snapshot
        # One waiting "show" job at most: it draws whatever state is newest when it runs.
        self.scheduler.submit("screen", lambda: self._show_game(), "show", key="show")
        clock = snapshot.get("clock")
        if isinstance(clock, str) and clock in HOUR_ANGLE:
            self._queue_hand(clock)
        self._follow_narration(snapshot.get("narration"))

    def on_events(self, events: Sequence[Mapping[str, Any]], state: Mapping[str, Any]) -> None:
        """A game service listener: react to the events of one command, then show the new state."""
        if self._closed:
            return
        route: list[str] = []  # the marks this command moves the clock through ("Timers": maybe two)
        banners: list[tuple[str, str, bool]] = []
        for event in events:
            kind = event.get("type")
            room, name = event.get("room"), event.get("room_name") or event.get("name")
            if kind in ("room_drawn", "ghost_hour") and isinstance(room, int) and isinstance(name, str) and name:
                with self._lock:
                    self._room_names[room] = name
            if kind == "clock_advanced" and event.get("clock") in HOUR_ANGLE:
                route.append(str(event["clock"]))
            elif kind == "ghost_hour":
                ev = dict(event)
                # Never dropped: only an identical Ghost Hour still waiting merges with this one.
                key = "ghost_hour " + repr(sorted(ev.items(), key=lambda kv: str(kv[0])))
                self.scheduler.submit("screen", functools.partial(self._ghost_hour, ev), "ghost_hour", key=key)
            banner = event.get("announce")
            if isinstance(banner, Mapping) and banner.get("title"):
                alarm = banner.get("kind") in ALARM_KINDS
                banners.append((str(banner["title"]), str(banner.get("text") or ""), alarm))
                if alarm:  # Elder Sign's midnight and terror: the buzzer too, and the chime before the words
                    self.beep()
        if route:
            self._queue_hand(*route)
        self.show(state)
        for title, text, alarm in banners:  # after the state they belong to, so routine redraw does not cut them off
            self._announce(title, text, alarm)

    def _announce(self, title: str, text: str, alarm: bool = False) -> None:
        """A big moment other than the Ghost Hour (Ghost Mode, the séance, a proven set, the end): the OLED shows
        it for a few seconds and the voice says it (in English, the language of the companion's sentences)."""
        image = screens.error_screen(title, text)

        def job() -> Steps | None:
            if self.voice is not None and self.voice.cfg.language == "en":
                try:
                    self.voice.say(f"{title}. {text}", chime_first=alarm)
                except Exception:  # the voice is a nicety: a failure must never stop the clock
                    log.exception("the announcement could not be spoken")
            return self._show_for(image, "announce", ANNOUNCE_S)

        # In the OLED's queue, so a Ghost Hour in the same command is shown and spoken in its turn, not cut off.
        self.scheduler.submit("screen", job, "announce", key="announce " + title + text)

    def _follow_narration(self, narration: Any) -> None:
        """A script the service reads out: each step on the OLED, in the voice (and the buzzer where a step says
        so) at its time, the same times every phone shows it at. A newer script, or none (stopped, or a command
        was played), ends the one under way."""
        ident = narration.get("id") if isinstance(narration, Mapping) else None
        with self._lock:
            if ident == self._narration_id:
                return
            self._narration_id = ident
        if ident is None:
            if self.voice is not None:
                self.voice.stop()
            return
        assert isinstance(narration, Mapping)
        title = str(narration.get("title") or "")
        steps = [dict(step) for step in narration.get("steps") or [] if isinstance(step, Mapping)]
        self.scheduler.submit("screen", lambda: self._narrate(ident, title, steps), "narration", key="narration")

    def _narrate(self, ident: Any, title: str, steps: list[dict[str, Any]]) -> Iterator[float]:
        t0 = self._now()
        for step in steps:
            at = step.get("at")
            due = t0 + (float(at) if isinstance(at, (int, float)) and not isinstance(at, bool) else 0.0)
            # the step before is still being said: let it finish (never talk over it), then keep to the times
            while self._narration_id == ident:
                now = self._now()
                if now < due:
                    yield min(due, now + OVERLAY_POLL_S)
                elif self.voice is not None and self.voice.is_speaking:
                    yield now + VOICE_POLL_S
                else:
                    break
            if self._narration_id != ident:
                return
            text = str(step.get("text") or "")
            self._put(screens.narration_screen(title, str(step.get("screen") or text)), "narration")
            self.narrated.append(text)
            if step.get("buzz"):
                self.beep(POINT_PATTERN)
            words = step.get("say") or (text if self.voice is None or self.voice.cfg.language == "en" else "")
            if words and self.voice is not None:
                try:
                    self.voice.say(str(words))
                except Exception:  # the voice is a nicety: the script goes on on the OLED and the phones
                    log.exception("a step of the script could not be spoken")
        while self._narration_id == ident and self.voice is not None and self.voice.is_speaking:
            yield self._now() + OVERLAY_POLL_S
        yield self._now() + NARRATION_HOLD_S
        self._show_game()

    def show_join(self, url: str, code: str, seconds: float | None = None) -> None:
        """The join screen (QR code of the phone page and the join code); back to the game after `seconds`."""
        image = screens.join_screen(url, code)
        with self._lock:
            self._join, self._join_at = image, self._now()
        self.scheduler.submit("screen", lambda: self._show_for(image, "join", seconds), "join", key="join")

    def _join_again(self) -> None:
        """The join screen once more, when the game screen has been quiet for JOIN_EVERY_S (see the docstring)."""
        with self._lock:
            image, last = self._join, self._join_at
        now = self._now()
        quiet = self.display.name == "game" and now - max(last, self.display.last_new) >= JOIN_EVERY_S
        if image is None or not quiet or self.scheduler.pending():
            return
        with self._lock:
            self._join_at = now
        self.scheduler.submit("screen", lambda: self._join_while_quiet(image), "join again", key="join")

    def _join_while_quiet(self, image: Image.Image) -> Steps:
        self._put(image, "join", wake=False)  # not something new: a dimmed panel stays dimmed
        due = self._now() + JOIN_SHOWN_S
        while self._now() < due:
            yield min(due, self._now() + OVERLAY_POLL_S)
            if self.scheduler.waiting("screen"):
                return  # anything new takes the OLED at once (a "show" job draws the newest state)
        game = self._game_image()
        if game is not None:
            self._put(game, "game", wake=False)

    def show_error(self, title: str, message: str, seconds: float = 8.0) -> None:
        """An error screen for `seconds`, or for `OVERLAY_MIN_S` when the game (or anything) waits for the OLED.

        A newer error replaces one still waiting (the OLED shows the latest problem).
        """
        image = screens.error_screen(title, message)
        self.scheduler.submit("screen", lambda: self._show_for(image, "error", seconds), "error", key="error")

    def show_test_screen(self) -> None:
        image = screens.test_screen(self.config.display.address, self.config.display.driver)
        self.scheduler.submit("screen", lambda: self._put(image, "test"), "test screen", key="test")

    def move_hand(self, mark: str) -> None:
        """Queue a sweep to `mark` (for `companion hw test`; the game moves the hand through `show`)."""
        if mark not in HOUR_ANGLE:
            raise ValueError(f"unknown clock mark {mark!r}")
        self._queue_hand(mark, force=True)

    def beep(self, pattern: tuple[tuple[float, bool, bool], ...] = GHOST_HOUR_PATTERN) -> None:
        self.scheduler.submit("alarm", lambda: self.controls.pattern(pattern), "beep", key=f"beep {pattern!r}")

    # -- what others read (any thread) -----------------------------------------------------------

    @property
    def hand_angle(self) -> float | None:
        """Where the hand points, in clock-face degrees (XII = 0, clockwise); None when the servo is missing."""
        hand = self.servo_part.device
        return None if hand is None else hand.angle

    @property
    def hand_mark(self) -> str | None:
        hand = self.servo_part.device
        return None if hand is None else hand.mark

    def oled_png(self) -> bytes | None:
        """The OLED's current frame as PNG bytes (also when the panel is unplugged), or None."""
        if not self.config.display.enabled:
            return None
        return self.display.png()

    def forget_pin_history(self, keep: int = 1) -> int:
        """Simulation: drop the state history gpiozero's mock pins record (for tests); returns the entries dropped.

        A mock pin appends every change to its ``states`` list; the servo's PWM pin changes many times per
        sweep, so over an evening the list would grow without end (about 1 MB per 1000 commands). Real pin
        factories keep no such history, so on a Pi this drops nothing.
        """
        dropped = 0
        for pin in list(getattr(self.pin_factory, "pins", {}).values()):
            states = getattr(pin, "states", None)
            if isinstance(states, list) and len(states) > keep:
                dropped += len(states) - keep
                del states[:-keep]
        return dropped

    def status(self) -> dict[str, Any]:
        parts = {"servo": self.servo_part.status(), "display": self.display_part.status()}
        parts.update(self.controls.status())
        parts["voice"] = self.voice.status()
        hand = self.servo_part.device
        return {
            "sim": self.sim,
            "parts": parts,
            "pin_factory": pin_factory_name(self.pin_factory),
            "servo_backend": None if hand is None else hand.output.name,
            "hand_angle": self.hand_angle,
            "hand_mark": self.hand_mark,
            "screen": self.display.name,
            "contrast": self.display.contrast,
            "dimmed": self.display.is_dimmed,
            "shift": list(self.display.offset),
            "alarms": self.alarms,
            "pending": self.scheduler.pending(),
        }

    # -- running ---------------------------------------------------------------------------------

    def run_pending(self) -> int:
        """Run the queued work now in this thread (threaded=False; tests and `hw test`)."""
        return self.scheduler.run_pending()

    def tick(self) -> None:
        """Housekeeping: the OLED's burn-in guard, and retrying parts that are missing."""
        self._display_call(lambda: self.display.tick())
        self._join_again()
        self.display_part.ensure()
        self.servo_part.ensure()
        self.controls.tick()

    def park(self) -> None:
        """Sweep the hand to its park mark (queued)."""
        self._queue_hand(self.config.servo.park, force=True)

    def close(self) -> None:
        """Stop the worker, show "game paused" (dimmed), park the hand, release every pin."""
        if self._closed:
            return
        self._closed = True
        self.scheduler.stop()
        with self._lock:
            state = self._state
        self._display_call(lambda: self.display.show(screens.paused_screen(state), "paused"))
        hand = self.servo_part.device
        if hand is not None:
            try:
                hand.park()
            except self._faults as exc:
                log.warning("the clock hand could not park: %s", describe(exc))
        try:
            self.controls.close()
        finally:
            self.servo_part.close()
            device = self.display_part.device
            if device is not None:
                # Keep the paused screen on the panel, dimmed, after the program ends.
                self._display_call(self.display.dim)
                device.persist = True
            self.display_part.close()
            self.voice.close()
            if self.sim and self._own_factory and self.pin_factory is not None:
                self.pin_factory.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- the work (worker thread) ----------------------------------------------------------------

    def _queue_hand(self, *marks: str, force: bool = False) -> None:
        """Queue the hand's move through `marks` (one command's clock advances), replacing a move still waiting.

        One waiting move at most: a newer command's move takes its place, so under fast play the
        hand goes straight to the newest mark; a sweep under way finishes first. Within one
        command every mark is visited (rulebook, "Timers": the clock can advance twice at once).
        """
        with self._lock:
            route: list[str] = []
            last = None if force else self._hand_queued
            for mark in marks:
                if mark != last:
                    route.append(mark)
                    last = mark
            if not route:
                return
            self._hand_queued = route[-1]
        self.scheduler.submit("hand", lambda: self._route(route), f"hand {' '.join(route)}", key="hand")

    def _route(self, marks: list[str]) -> Steps | None:
        if len(marks) == 1:
            return self._sweep(marks[0])
        return self._sweeps(marks)

    def _sweeps(self, marks: list[str]) -> Iterator[float]:
        for mark in marks:
            steps = self._sweep(mark)
            if steps is not None:
                yield from steps

    def _sweep(self, mark: str) -> Steps | None:
        if not self.servo_part.ensure():
            return None
        hand = self.servo_part.device
        assert hand is not None
        if hand.is_resting_on(mark):
            return None
        return self._guarded_sweep(hand, mark)

    def _guarded_sweep(self, hand: ClockHand, mark: str) -> Iterator[float]:
        try:
            yield from hand.sweep(mark)
        except self._faults as exc:
            self.servo_part.fail(exc)
        finally:
            self._last_angle = hand.angle

    def _display_call(self, fn: Callable[[], Any]) -> None:
        try:
            fn()
        except self._faults as exc:
            self.display_part.fail(exc)

    def _put(self, image: Image.Image, name: str, wake: bool = True) -> None:
        self._display_call(lambda: self.display.show(image, name, wake=wake))

    def _game_image(self) -> Image.Image | None:
        with self._lock:
            state = self._state
            names = dict(self._room_names)
        if state is None:
            return None
        room = state.get("ghost_room")
        return screens.game_screen(state, names.get(room) if isinstance(room, int) else None)

    def _show_game(self) -> None:
        image = self._game_image()
        if image is not None:
            self._put(
                image, "game", wake=image.tobytes() != (self.display.screen.tobytes() if self.display.screen else b"")
            )
        with self._lock:
            state = self._state
        if state is not None:
            self.controls.set_outputs(led=state.get("ghost_room") is not None)

    def _show_for(self, image: Image.Image, name: str, seconds: float | None) -> Steps | None:
        self._put(image, name)
        if seconds is None:
            return None
        return self._then_game(self._now(), seconds)

    def _then_game(self, shown: float, seconds: float) -> Iterator[float]:
        """Hold the screen for `seconds`, or give way after `OVERLAY_MIN_S` to other work waiting for the OLED."""
        due = shown + seconds
        at = min(due, shown + OVERLAY_MIN_S)
        while True:
            yield at
            if self.scheduler.waiting("screen"):
                return  # the waiting job takes the OLED (a "show" job draws the newest state)
            if at >= due:
                break
            at = min(due, max(self._now(), at) + OVERLAY_POLL_S)
        self._show_game()

    def _ghost_hour(self, event: dict[str, Any]) -> Iterator[float]:
        """Voice (background), then the OLED flashing and the buzzer/LED pattern on one timeline."""
        self.alarms += 1
        try:
            self.voice.announce_ghost_hour(event)
        except Exception:
            log.exception("the Ghost Hour announcement failed")
        steps: list[tuple[float, int, Callable[[], None]]] = []
        flashes = max(1, round(self.config.display.flash_s / FLASH_PERIOD_S))
        bright = screens.ghost_hour_screen(event, inverted=True)
        dark = screens.ghost_hour_screen(event, inverted=False)
        for k in range(flashes):
            image = bright if k % 2 == 0 else dark
            steps.append((k * FLASH_PERIOD_S, 0, lambda image=image: self._put(image, "ghost_hour")))  # type: ignore[misc]
        for start, buzzer, led in timeline(GHOST_HOUR_PATTERN):
            steps.append((start, 1, lambda b=buzzer, lit=led: self.controls.set_outputs(b, lit)))  # type: ignore[misc]
        end = max(flashes * FLASH_PERIOD_S, steps[-1][0])
        steps.append((end, 2, self._show_game))
        steps.sort(key=lambda s: (s[0], s[1]))
        alarm_end = timeline(GHOST_HOUR_PATTERN)[-1][0]
        t0 = self._now()
        for start, _, action in steps:
            if start > 0:
                yield t0 + start
            if start > alarm_end and self.scheduler.waiting("screen"):
                # Announced, beeped and flashed: the rest of the flashing gives way to what waits
                # (the next Ghost Hour, or the game), so Ghost Hours in quick succession do not pile up.
                return
            action()
