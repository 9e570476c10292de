"""What every blueprint works with: the game service, the settings and the web's own parts, one per app.

The factory (`web.app`) builds one `WebContext` and keeps it on the app; a blueprint asks for it with
`context()` while it serves a request, as Flask's tutorial asks for its database with `get_db()`. So the
blueprints never import the factory, and this module imports only the parts below it (settings, phones,
backups, events, assets): the web package has no import cycle.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app, has_request_context, session

from companion.errors import CompanionError, DiceError
from web.assets import Assets
from web.backups import Backups, protect_history
from web.errors import without_paths
from web.events import EventHub
from web.lockout import SHOW_FOR as SIGN_IN_SHOWN
from web.lockout import SignInGate
from web.sessions import PhoneBook, record_actions
from web.settings import Throttle, WebSettings, WebStore

if TYPE_CHECKING:
    from companion.service import GameService

__all__ = ["EXTENSION", "WebContext", "context", "context_of"]

EXTENSION = "skeptics_web"  # the key of the WebContext in `app.extensions`


class WebContext:
    """Everything the blueprints share, kept on the app (`app.extensions[EXTENSION]`)."""

    def __init__(
        self,
        service: GameService,
        settings: WebSettings,
        hardware: Any | None,  # hardware.Table, or a test's stand-in with status(), hand_angle and oled_png()
        tray: Any | None,  # vision's TrayLoop or TrayWatcher: the last reading and its annotated photo
        teacher: Any | None = None,  # vision's Teacher: the tray's photos kept for teaching, and the teaching
        sim_throw: Any | None = None,  # --sim's vision.sim_tray.Thrower: a phone throws the simulated tray's dice
    ) -> None:
        self.service = service
        self.teacher = teacher
        self.sim_throw = sim_throw
        self.settings = settings
        self.hardware = hardware
        self.tray = tray
        self.store = WebStore(settings)
        data_dir = settings.data_dir
        # Wrong host PINs: 5 per address, then a doubling wait; 20 in 10 minutes from all addresses together,
        # which the table passes with the sign-in code on the companion's screen (web.lockout, docs/web.md).
        self.throttle = Throttle(settings.now, cap=20, window=600.0, path=data_dir / "web-pin-limits.json")
        # the table's screen as it is when a code is made (the hardware is attached after the page listens)
        self.sign_in = SignInGate(self.throttle, settings.now, show=self._show_at_table)
        # Wrong join codes: 10 per address, then a doubling wait; no limit for all addresses together (it would
        # keep the table's new phones out, and 36^6 codes need none: docs/web.md, "Wrong guesses").
        self.join_throttle = Throttle(
            settings.now, free=10, base=10.0, cap=None, window=600.0, path=data_dir / "web-join-limits.json"
        )
        self.phones = PhoneBook(data_dir / "web-phones.json", settings.now)
        self.startup_problems: list[str] = []  # what `companion serve` found wrong at start (a damaged history)
        # `companion serve` listens before the table's parts run (the host reads the page's address first); they
        # are attached when they do (companion.parts.attach_parts), and asked for meanwhile they are "starting"
        self.parts_starting = False
        service.add_listener(self._record)
        history = getattr(service, "store", None)
        self.backups: Backups | None = None
        if callable(getattr(history, "backup_to", None)) and getattr(history, "path", ":memory:") != ":memory:":
            protect_history(str(history.path))  # type: ignore[union-attr]
            self.backups = Backups(history, data_dir / "backups", settings.now)
            service.add_listener(self.backups.on_commit)
        self.assets = Assets()
        self.hub = EventHub(service, max_streams=settings.max_streams, heartbeat=settings.heartbeat)
        self.hub.guard = self.stream_guard  # a removed phone's streams end

    def _show_at_table(self, title: str, text: str) -> None:
        """A message on the companion's screen, where there is one (the sign-in code: web.lockout)."""
        show = getattr(self.hardware, "show_error", None)
        if show is not None:
            show(title, text, seconds=SIGN_IN_SHOWN)

    def stream_guard(self, host: bool = False) -> Callable[[], bool]:
        """For an event stream opened by this request: whether its phone may still see the game (`host`: the
        host's stream, with the legal actions: whether the phone is still the host's).

        Checked by the stream at least once a second (web.events): a removed phone, a new join code, or a phone
        id replaced at sign-in or sign-out ends it, and a host's stream also ends once another phone chose a new PIN
        (PhoneBook.demote_hosts); the host's "Remove" also ends it at once (EventHub.drop_phone). The page opens a
        new stream, as the phone now is.
        """
        book, store = self.phones, self.store
        phone = session.get("s")
        tag = store.join_tag()
        if not isinstance(phone, str):  # a script with X-Join-Code: as long as the join code stays the same
            return lambda: hmac.compare_digest(store.join_tag(), tag)

        def allowed() -> bool:
            entry = book.get(phone)
            return (
                hmac.compare_digest(store.join_tag(), tag)
                and entry is not None
                and (not host or entry.get("host") is True)
            )

        return allowed

    def _record(self, records: list[dict[str, Any]], state: dict[str, Any]) -> None:
        """A service listener: a commit made while a request of this app runs is noted with its phone."""
        if has_request_context() and current_app.extensions.get(EXTENSION) is self:
            record_actions(self.phones, records, session.get("s"))

    def packs(self) -> Any:
        """The packs of the game the box edits (its boards, ghosts ... as its module loads them)."""
        return self.service.packs

    def current_state(self) -> dict[str, Any] | None:
        """The state, or None when there is no game yet."""
        try:
            state: dict[str, Any] = self.service.state()
        except CompanionError:
            return None
        return state if state.get("game_id") is not None else None

    def join_url(self, host_url: str) -> str:
        base = (self.settings.public_url or host_url).rstrip("/")
        return f"{base}/join?code={self.store.join_code}"

    def tray_reading(self) -> dict[str, Any] | None:
        """The tray's last reading as the page shows it (the app's JSON provider writes its dataclasses)."""
        tray = self.tray
        if tray is None:
            return None
        if callable(getattr(tray, "last_reading", None)):
            reading = tray.last_reading()
        else:  # vision.tray.TrayWatcher: the readings of the last rest and how many reads so far
            readings = getattr(tray, "last_readings", None)
            reading = None if readings is None else {"dice": list(readings), "reads": getattr(tray, "reads", None)}
        if reading is None:
            return None
        raw = reading.to_dict() if hasattr(reading, "to_dict") else reading
        if not isinstance(raw, Mapping):
            raw = {"dice": raw}
        dice = [d.to_dict() if hasattr(d, "to_dict") else d for d in raw.get("dice") or []]
        out: dict[str, Any] = {**raw, "dice": self._faced(dice)}
        # the reading as the service took it (numbered, played at most once): what "Use these dice" plays
        taken = getattr(self.service, "tray_reading", None)
        out["roll"] = taken() if callable(taken) else None
        # a service that numbers readings took none in this game: the tray's dice are another game's (or no game's)
        out["this_game"] = out["roll"] is not None or not callable(taken)
        if isinstance(out["roll"], Mapping):
            out["roll"] = {**out["roll"], "dice": self._faced(list(out["roll"].get("dice") or []))}
        out["photo"] = self.tray_photo() is not None
        out["teach"] = self.teacher is not None  # the page offers "Teach the reader" only where it can be done
        return out

    def _faced(self, dice: list[Any]) -> list[Any]:
        """Each die read with the game's face too ("eye" for a blue 1), by its colour and the table's pip map
        (GameModule.pip_faces); a die not read, or a game whose dice are not read by pips, has none."""
        module = getattr(self.service, "module", None)
        table = getattr(self.service, "table_dice", None)
        out = []
        for d in dice:
            face = None
            if (
                module is not None
                and table is not None
                and isinstance(d, Mapping)
                and d.get("value")
                and d.get("color")
            ):
                try:
                    face = module.pip_faces(str(d["color"]), [int(d["value"])], table)[0]
                except (DiceError, ValueError):
                    face = None
            out.append({**d, "face": face} if face and isinstance(d, Mapping) else d)
        return out

    def tray_photo(self) -> tuple[bytes, str] | None:
        tray = self.tray
        if tray is None:
            return None
        for method, mimetype in (("annotated_jpeg", "image/jpeg"), ("annotated_png", "image/png")):
            fn = getattr(tray, method, None)
            if callable(fn):
                data = fn()
                if data:
                    return bytes(data), mimetype
        return None

    def problems(self) -> list[str]:
        """What is wrong with the companion's files, in words for the host (empty when all is well)."""
        found = [*self.store.problems, *self.startup_problems, *self.service.problems()]
        for part in (self.throttle, self.join_throttle, self.phones, self.backups):
            if part is not None and part.problem:
                found.append(part.problem)
        return [without_paths(problem) for problem in found]

    def close(self) -> None:
        self.hub.close()
        for listener in (self._record, self.backups.on_commit if self.backups else None):
            try:
                if listener is not None:
                    self.service.remove_listener(listener)
            except (KeyError, ValueError):
                pass


def context_of(app: Flask) -> WebContext | None:
    """The WebContext an app was built with (None for an app the factory did not build)."""
    ctx = app.extensions.get(EXTENSION)
    return ctx if isinstance(ctx, WebContext) else None


def context() -> WebContext:
    """The WebContext of the app that serves this request (what every blueprint works with)."""
    ctx = context_of(current_app)
    if ctx is None:
        raise RuntimeError("this app was not built by web.create_app: it has no WebContext.")
    return ctx
