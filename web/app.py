"""`build_app`: the Flask application factory: the per-app context, the blueprints, error handling, compression
and headers. Nothing in the web package imports this module; `web.create_app` is its public face."""

from __future__ import annotations

import gzip
import logging
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.errors import (
    AuthError,
    BadCommand,
    CardsNeeded,
    CompanionError,
    ConfigError,
    DiceError,
    EngineFault,
    HistoryError,
    IllegalCommand,
    PackError,
)
from companion.words import pack_words
from web import pages
from web.api import BLUEPRINTS
from web.assets import compressible
from web.context import EXTENSION, WebContext, context
from web.errors import Refused, without_paths
from web.guard import ForwardedFor, check_input
from web.json_provider import CompanionJSON
from web.security import check_post
from web.settings import SaveError, WebSettings

if TYPE_CHECKING:
    from companion.service import GameService

log = logging.getLogger("web")

CSP = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; manifest-src 'self'; worker-src 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'; object-src 'none'"
)

STATUS_OF: list[tuple[type[BaseException], int]] = [
    (IllegalCommand, 409),
    (BadCommand, 400),
    (DiceError, 400),
    (PackError, 400),
    (ConfigError, 400),
    (AuthError, 403),
    (EngineFault, 500),
    (HistoryError, 503),
    (SaveError, 503),
]


class CompanionApp(Flask):
    """The companion's Flask app: its JSON answers go through `CompanionJSON` (Flask's provider, set the way
    Flask's documentation sets one)."""

    json_provider_class = CompanionJSON


def _error(status: int, message: str, **extra: Any) -> Response:
    # no machine paths in what phones read (web.errors.without_paths)
    extra = {k: without_paths(v) if isinstance(v, str) else v for k, v in extra.items()}
    response = jsonify({"error": without_paths(message), "status": status, **extra})
    response.status_code = status
    return response


def build_app(
    service: GameService,
    settings: WebSettings | Mapping[str, Any],
    hardware: Any | None = None,
    tray: Any | None = None,
    startup_problems: Sequence[str] = (),
    teacher: Any | None = None,
    sim_throw: Any | None = None,
) -> Flask:
    web_settings = WebSettings.coerce(settings)
    app = CompanionApp(__name__, static_folder=None, template_folder="templates")
    ctx = WebContext(service, web_settings, hardware, tray, teacher, sim_throw)
    ctx.startup_problems.extend(startup_problems)  # what `companion serve` found wrong at start
    app.extensions[EXTENSION] = ctx
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
    app.register_blueprint(pages.bp)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
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
        # The same refusal in the page's words (no command spelling), by the sentences of the game in play; a pack
        # file's error names the field as the box editor's form does.
        say = context().service.say(pack_words(str(exc)) if isinstance(exc, PackError) else str(exc))
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
            404: f"nothing at {request.path}"
            + ("; see docs/web.md for the API's endpoints." if request.path.startswith("/api/") else "."),
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
