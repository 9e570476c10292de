"""The page itself: the app shell, the join link, the web app manifest, the service worker, assets."""

from __future__ import annotations

import json

from flask import Blueprint, Response, make_response, render_template, request, session

from web.assets import Asset, make_asset
from web.context import context as _ctx
from web.errors import Refused

bp = Blueprint("pages", __name__)


def send_asset(asset: Asset, cache: str) -> Response:
    if request.if_none_match and asset.etag in request.if_none_match:
        response = Response(status=304)
    elif asset.gzipped is not None and "gzip" in request.headers.get("Accept-Encoding", ""):
        response = Response(asset.gzipped, content_type=asset.mimetype)
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = Response(asset.body, content_type=asset.mimetype)
    response.set_etag(asset.etag)
    response.headers["Cache-Control"] = cache
    response.vary.add("Accept-Encoding")
    response.direct_passthrough = False
    response.headers["X-Precompressed"] = "1"
    return response


@bp.get("/")
def index() -> Response:
    """The app shell, with an ETag: the service worker keeps it at install with a 304, not a second copy."""
    response = make_response(render_template("index.html", version=_ctx().assets.version))
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    response.make_conditional(request)
    return response


@bp.get("/join")
def join() -> tuple[str, int] | str:
    """The join link (`/join?code=ABC234`): sets the viewer cookie once, then leaves the code out of the URL.

    A meta refresh (not a redirect) moves on to `/`: a SameSite=Strict cookie set during a navigation
    that came from another app (a QR scanner) is only sent on the next, same-site navigation.
    """
    ctx = _ctx()
    code = request.args.get("code", "")
    if not code:
        return render_template("join.html", error=None), 200
    who = request.remote_addr or "?"
    wait = ctx.join_throttle.wait_left(who)
    if wait > 0:
        return render_template("join.html", error=f"Too many wrong codes; wait {int(wait) + 1} s and try again."), 429
    if not ctx.store.join_code_matches(code):
        ctx.join_throttle.failed(who)
        return render_template(
            "join.html", error="That join code is not right. Ask the host for the code shown on the companion."
        ), 403
    ctx.join_throttle.succeeded(who)
    session["j"] = ctx.store.join_tag()
    session.permanent = True
    # the table display's own link (`&table=1`) opens the page as the table display
    return render_template("joined.html", table=request.args.get("table") == "1")


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    ctx = _ctx()
    data = {
        "name": "Skeptics companion",
        "short_name": "Skeptics",
        "description": "The clock, the Ghost Hour and the board of the game at your table.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#181426",
        "theme_color": "#181426",
        "icons": [
            {"src": f"/static/icon-192.png?v={ctx.assets.version}", "sizes": "192x192", "type": "image/png"},
            {"src": f"/static/icon-512.png?v={ctx.assets.version}", "sizes": "512x512", "type": "image/png"},
            {"src": f"/static/icon.svg?v={ctx.assets.version}", "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    asset = make_asset(json.dumps(data).encode(), "application/manifest+json")
    return send_asset(asset, "no-cache")


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker lives at the root so its scope is the whole page; its cache is named by version."""
    source = _ctx().assets.get("sw.js")  # its version written in (web.assets)
    assert source is not None
    response = send_asset(source, "no-cache")
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/static/<name>")
def static_file(name: str) -> Response:
    """A file of the page. Under another version's URL (`?v=`: a page opened before the companion was updated) it
    is 404, not this version's file: a module of this version would load a second copy of the old page's modules;
    the page reloads instead (core.js)."""
    assets = _ctx().assets
    asset = assets.get(name)
    if asset is None or name == "sw.js":
        raise Refused(404, f"no such file: /static/{name}")
    version = request.args.get("v")
    if version is not None and version != assets.version:
        raise Refused(404, f"/static/{name} of another version of the page; reload the page.")
    return send_asset(asset, "public, max-age=31536000, immutable" if version else "no-cache")


@bp.get("/favicon.ico")
def favicon() -> Response:
    asset = _ctx().assets.get("icon.svg")
    assert asset is not None
    return send_asset(asset, "public, max-age=86400")


@bp.get("/healthz")
def healthz() -> Response:
    return Response("ok\n", mimetype="text/plain")
