"""`build_app`: the Flask application, its per-app context, error handling, compression and headers."""

from __future__ import annotations

import gzip
import logging
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.errors import (
    AuthError,
    BadCommand,
    CardsNeeded,
    CompanionError,
    ConfigError,
    DiceError,
    HistoryError,
    IllegalCommand,
    PackError,
)
from web.assets import Assets, compressible
from web.backups import Backups, protect_history
from web.events import EventHub
from web.guard import ForwardedFor, check_input
from web.security import Refused, check_post
from web.sessions import PhoneBook, follow_session, record_actions
from web.settings import SaveError, Throttle, WebSettings, WebStore

if TYPE_CHECKING:
    from companion.games.skeptics.dice import PipMap
    from companion.games.skeptics.packs import Packs
    from companion.service import GameService

log = logging.getLogger("web")

CSP = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; manifest-src 'self'; worker-src 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'; object-src 'none'"
)


class WebContext:
    """Everything the blueprints share, kept on the app (`app.extensions["skeptics_web"]`)."""

    def __init__(
        self,
        service: GameService,
        settings: WebSettings,
        hardware: Any | None,  # hardware.Table, or a test's stand-in with status(), hand_angle and oled_png()
        tray: Any | None,  # vision's TrayLoop or TrayWatcher: the last reading and its annotated photo
        pip_map: PipMap | None = None,
        teacher: Any | None = None,  # vision's Teacher: the tray's photos kept for teaching, and the teaching
    ) -> None:
        self.service = service
        self.teacher = teacher
        self.settings = settings
        self.hardware = hardware
        self.tray = tray
        self.store = WebStore(settings)
        data_dir = settings.data_dir
        # Wrong host PINs: 5 per address, then a doubling wait; 20 in 10 minutes from all addresses together.
        self.throttle = Throttle(settings.now, cap=20, window=600.0, path=data_dir / "web-pin-limits.json")
        # Wrong join codes: 10 per address; 100 in 10 minutes from all addresses together.
        self.join_throttle = Throttle(
            settings.now, free=10, base=10.0, cap=100, window=600.0, path=data_dir / "web-join-limits.json"
        )
        self.phones = PhoneBook(data_dir / "web-phones.json", settings.now)
        self.startup_problems: list[str] = []  # what `companion serve` found wrong at start (a damaged history)
        self._record = lambda records, state: record_actions(records, state)
        service.add_listener(self._record)
        history = getattr(service, "store", None)
        self.backups: Backups | None = None
        if callable(getattr(history, "backup_to", None)) and getattr(history, "path", ":memory:") != ":memory:":
            protect_history(str(history.path))  # type: ignore[union-attr]
            self.backups = Backups(history, data_dir / "backups", settings.now)
            service.add_listener(self.backups.on_commit)
        self.assets = Assets()
        self.hub = EventHub(service, max_streams=settings.max_streams, heartbeat=settings.heartbeat)
        self._pip_map = pip_map  # the table's [dice.pips], for dice typed as pips; None: the default map

    def packs(self) -> Packs:
        packs: Packs = self.service.packs
        return packs

    @property
    def pip_map(self) -> PipMap:
        if self._pip_map is None:
            from companion.games.skeptics.dice import PipMap

            self._pip_map = PipMap.default()
        return self._pip_map

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
        tray = self.tray
        if tray is None:
            return None
        from web.api import _jsonable

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
        out: dict[str, Any] = _jsonable({**raw, "dice": dice})
        out["photo"] = self.tray_photo() is not None
        out["teach"] = self.teacher is not None  # the page offers "Teach the reader" only where it can be done
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
        found = [*self.store.problems, *self.startup_problems]
        for part in (self.throttle, self.join_throttle, self.phones, self.backups):
            if part is not None and part.problem:
                found.append(part.problem)
        return found

    def close(self) -> None:
        self.hub.close()
        for listener in (self._record, self.backups.on_commit if self.backups else None):
            try:
                if listener is not None:
                    self.service.remove_listener(listener)
            except (KeyError, ValueError):
                pass


STATUS_OF: list[tuple[type[BaseException], int]] = [
    (IllegalCommand, 409),
    (BadCommand, 400),
    (DiceError, 400),
    (PackError, 400),
    (ConfigError, 400),
    (AuthError, 403),
    (HistoryError, 503),
    (SaveError, 503),
]


def context() -> WebContext:
    """The WebContext of the app that serves this request (what every blueprint works with)."""
    ctx = current_app.extensions["skeptics_web"]
    assert isinstance(ctx, WebContext)
    return ctx


def _error(status: int, message: str, **extra: Any) -> Response:
    response = jsonify({"error": message, "status": status, **extra})
    response.status_code = status
    return response


def build_app(
    service: GameService,
    settings: WebSettings | Mapping[str, Any],
    hardware: Any | None = None,
    tray: Any | None = None,
    pip_map: PipMap | None = None,
    startup_problems: Sequence[str] = (),
    teacher: Any | None = None,
) -> Flask:
    web_settings = WebSettings.coerce(settings)
    app = Flask(__name__, static_folder=None, template_folder="templates")
    ctx = WebContext(service, web_settings, hardware, tray, pip_map, teacher)
    ctx.startup_problems.extend(startup_problems)  # what `companion serve` found wrong at start
    app.extensions["skeptics_web"] = ctx
    app.config.update(
        SECRET_KEY=ctx.store.secret_key,
        SESSION_COOKIE_NAME="skeptics",
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SECURE=web_settings.secure_cookies,
        PERMANENT_SESSION_LIFETIME=timedelta(days=60),
        SESSION_REFRESH_EACH_REQUEST=False,
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.compact = True  # type: ignore[attr-defined]

    from web import api, backups, pages, sessions

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(sessions.bp)
    app.register_blueprint(backups.bp)
    app.after_request(follow_session)
    app.wsgi_app = ForwardedFor(app.wsgi_app, web_settings.trusted_proxies)  # type: ignore[method-assign]

    @app.before_request
    def guard_posts() -> None:
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            check_post()
        check_input()

    @app.errorhandler(Refused)
    def refused(exc: Refused) -> Response:
        return _error(exc.status, exc.message, **exc.extra)

    @app.errorhandler(CompanionError)
    def companion_error(exc: CompanionError) -> Response:
        from companion.errors import PackError
        from companion.games.skeptics.sentences import for_players

        # The same refusal in the page's words (no command spelling), by the sentences of the game in play; the
        # box's pack errors are Skeptics' packs whatever is played.
        say = for_players(str(exc)) if isinstance(exc, PackError) else context().service.say(str(exc))
        extra: dict[str, Any] = {"say": say}
        if isinstance(exc, CardsNeeded):  # physical decks: the page asks which cards came up, then sends again
            extra["needs"] = [arg for arg, _ in exc.needs]
            extra["needs_why"] = [why for _, why in exc.needs]  # "the room card for the Ghost Hour", ...
            if getattr(exc, "faces", None):
                extra["faces"] = list(exc.faces)  # type: ignore[attr-defined]
        for kind, status in STATUS_OF:
            if isinstance(exc, kind):
                return _error(status, str(exc), **extra)
        return _error(400, str(exc), **extra)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        status = exc.code or 400
        messages = {
            404: f"nothing at {request.path}" + ("; see docs/web.md for the API's endpoints." if request.path.startswith("/api/") else "."),
            405: f"{request.method} is not allowed on {request.path}.",
            413: "the request is too large (64 KB at most).",
        }
        return _error(status, messages.get(status, exc.description or exc.name))

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Response:
        log.exception("unexpected error in %s %s", request.method, request.path)
        return _error(500, "the companion hit an unexpected error; the game is unchanged. See the companion's log.")

    @app.after_request
    def finish(response: Response) -> Response:
        headers = response.headers
        headers.setdefault("Content-Security-Policy", CSP)
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("Referrer-Policy", "no-referrer")
        headers.setdefault("X-Frame-Options", "DENY")
        headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        if request.path.startswith("/api/") and "Cache-Control" not in headers:
            headers["Cache-Control"] = "no-store"
        if headers.pop("X-Precompressed", None):
            return response
        _maybe_gzip(response)
        return response

    return app


def _maybe_gzip(response: Response) -> None:
    """Compress text answers (JSON state, HTML) for phones on a weak table Wi-Fi; never an event stream."""
    if response.is_streamed or response.direct_passthrough or response.status_code < 200 or response.status_code == 304:
        return
    if response.mimetype == "text/event-stream" or "Content-Encoding" in response.headers:
        return
    if not compressible(response.mimetype or "") or "gzip" not in request.headers.get("Accept-Encoding", ""):
        return
    body = response.get_data()
    if len(body) < 512:
        return
    response.set_data(gzip.compress(body, compresslevel=6))
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
