"""Who is looking: the session (viewer, host, the page's token), the host's PIN, the join link's QR code."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request, session

from companion.errors import AuthError
from web.api.body import body, only_keys
from web.context import WebContext, context
from web.errors import Refused
from web.security import csrf_token, host_required, is_host, is_viewer, viewer_required

bp = Blueprint("host", __name__, url_prefix="/api")

# The endpoints after which this phone's id changes (web.api.phones.follow_session): it signed in, or out.
SIGNED_IN = ("host.host_login", "host.set_first_pin", "host.change_pin")
SIGNED_OUT = ("host.host_logout",)


@bp.get("/session")
def get_session() -> Response:
    ctx = context()
    viewer = is_viewer()
    host = viewer and is_host()  # a wrong join code is checked (and counted by the throttle) once
    answer: dict[str, Any] = {
        "viewer": viewer,
        "host": host,
        "pin_set": ctx.store.pin_set,
        "csrf": csrf_token(),
        "hardware": ctx.hardware is not None,
        "voice": hasattr(ctx.hardware, "voice"),  # the table speaks: the host's page offers the voice's settings
        "tray": ctx.tray is not None,
        "sim_throw": ctx.sim_throw is not None,  # --sim's tray: the page offers "Throw the dice (simulated tray)"
        "poll_after": ctx.settings.poll_fallback,
    }
    if host:
        answer["join_code"] = ctx.store.join_code
        answer["join_url"] = ctx.join_url(request.host_url)
    return jsonify(answer)


def _pin_from_body(again: bool = False) -> str:
    """The PIN sent; with `again`, also the PIN typed a second time (optional), which must be the same."""
    data = body()
    keys = ("pin", "table_code") if request.endpoint == "host.host_login" else ("pin",)
    only_keys(data, (*keys, "again") if again else keys)
    pin = data.get("pin")
    if not isinstance(pin, str) or not pin:
        raise Refused(400, 'send the PIN as a string of digits: {"pin": "1234"}.')
    if again and "again" in data and data.get("again") != pin:
        raise Refused(400, "the two PINs are not the same: type the PIN you chose twice, the same both times.")
    return pin


def _signed_in(ctx: WebContext) -> Response:
    """This session is the host's from now on (until the PIN changes), and stays after the browser closes."""
    session["h"] = ctx.store.pin_epoch
    session.permanent = True
    return jsonify({"host": True})


@bp.post("/host/pin")
@viewer_required
def set_first_pin() -> Response:
    """First start: whoever holds the join code and opens the page first chooses the host PIN."""
    ctx = context()
    pin = _pin_from_body(again=True)
    if ctx.store.pin_set:
        raise Refused(409, "a host PIN is already set; sign in with it on the Host tab.")
    try:
        ctx.store.set_first_pin(pin)
    except AuthError as exc:  # not a PIN the rule allows: say the rule, nothing was guessed
        raise Refused(400, str(exc)) from None
    return _signed_in(ctx)


@bp.post("/host/login")
@viewer_required
def host_login() -> Response:
    ctx = context()
    pin = _pin_from_body()
    if not ctx.store.pin_set:
        raise Refused(409, "no host PIN is set yet; choose one on the Host tab.")
    who = request.remote_addr or "?"
    code = (request.get_json(silent=True) or {}).get("table_code")
    ctx.sign_in.check(who, str(code) if code is not None else None)  # web.lockout: the limits, the table's code
    if not ctx.store.check_pin(pin):
        ctx.throttle.failed(who)
        raise Refused(403, "wrong host PIN; try again (the PIN was chosen when the companion was first set up).")
    ctx.throttle.succeeded(who)
    return _signed_in(ctx)


@bp.post("/host/logout")
@viewer_required
def host_logout() -> Response:
    session.pop("h", None)
    return jsonify({"host": False})


@bp.post("/host/change-pin")
@host_required
def change_pin() -> Response:
    ctx = context()
    pin = _pin_from_body()
    try:
        ctx.store.change_pin(pin)
    except AuthError as exc:
        raise Refused(400, str(exc)) from None
    session["h"] = ctx.store.pin_epoch
    return jsonify({"host": True})


@bp.get("/join-qr.svg")
@host_required
def join_qr() -> Response:
    """The join link as a QR code, for the host to show to the others."""
    import qrcode  # loaded when a host first asks (it slows the companion's start on a Pi)
    import qrcode.image.svg

    image = qrcode.make(context().join_url(request.host_url), image_factory=qrcode.image.svg.SvgPathImage, box_size=12)
    response = Response(image.to_string(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response
