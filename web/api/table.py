"""The table's hardware and the dice tray, present only when `companion serve` passes them: the clock hand and
the parts' status, the OLED's picture, the tray's last reading and its annotated photo, and that reading played as
the roll when the host asks (once: the service refuses a reading already played or older than the roll under way).
With --sim's tray camera, any phone at the table throws its dice (as anyone may throw real dice)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from web.api.body import body, only_keys, optional_body, result
from web.context import context
from web.errors import Refused
from web.security import host_required, is_host, viewer_required

bp = Blueprint("table", __name__, url_prefix="/api")


def _no_store(data: bytes, mimetype: str) -> Response:
    response = Response(data, mimetype=mimetype)
    response.headers["Cache-Control"] = "no-store"
    return response


def still_starting() -> None:
    """A part asked for before `companion serve` has attached the table's parts: not there yet, not missing."""
    if context().parts_starting:
        raise Refused(503, "the table's parts are still starting: ask again in a few seconds.")


@bp.get("/hardware")
@viewer_required
def hardware() -> Response:
    hw = context().hardware
    if hw is None:
        still_starting()
        raise Refused(404, "this companion runs without table hardware.")
    status = hw.status() if hasattr(hw, "status") else {}
    return jsonify({"hand_angle": getattr(hw, "hand_angle", None), "status": status})


@bp.get("/hardware/oled.png")
@viewer_required
def oled_png() -> Response:
    hw = context().hardware
    png = hw.oled_png() if hw is not None else None
    if not png:
        still_starting()
        raise Refused(404, "no OLED picture: the companion runs without a display.")
    return _no_store(png, "image/png")


@bp.get("/tray")
@viewer_required
def tray() -> Response:
    ctx = context()
    if ctx.tray is None:
        still_starting()
        raise Refused(404, "this companion runs without a dice tray camera.")
    reading = ctx.tray_reading()
    return jsonify(reading if reading is not None else {"dice": [], "photo": False})


@bp.post("/tray/use")
@host_required
def tray_use() -> Response:
    """The tray's newest reading played as the roll under way ({"reading": N}, the number the tray card showed)."""
    data = body()
    only_keys(data, ("reading",))
    number = data.get("reading")
    if type(number) is not int or number < 1:
        raise Refused(400, '"reading" must be the number of the tray\'s reading the page showed, e.g. {"reading": 3}.')
    # a reading that is not the roll now under way (older, played, not the newest, no roll in it) is the service's
    # IllegalCommand, a 409 naming why: a reading played always gives the roll's result
    _, done = context().service.roll_from_tray([], why="button", auto_roll=True, reading=number)
    return result(done)


# A phone throws dice only into --sim's pretend tray; elsewhere the refusal says what to do with the real dice
NO_THROW_REAL_TRAY = (
    "a phone cannot throw dice here: this companion's tray reads real dice. Throw your dice into the tray; "
    "the companion reads them when they stop rolling."
)
NO_THROW_NO_TRAY = (
    "a phone cannot throw dice here: this companion has no dice tray. Roll your dice at the table; the host "
    'taps what they show (Dice tab, "Tap the real dice").'
)


def _thrower() -> Any:
    ctx = context()
    if ctx.sim_throw is None:
        raise Refused(404, NO_THROW_REAL_TRAY if ctx.tray is not None else NO_THROW_NO_TRAY)
    return ctx.sim_throw


@bp.get("/tray/throw")
@viewer_required
def tray_throw_view() -> Response:
    """--sim's tray: the dice a throw throws now ("why" says why none) and how many throws so far."""
    return jsonify(_thrower().view(host=is_host()))  # a player is told what comes next, the host what to do


@bp.post("/tray/throw")
@viewer_required
def tray_throw() -> Response:
    """--sim's tray: the dice of the roll under way thrown into it (the tray watcher reads them when they settle);
    409 with the reason when no roll can be made now."""
    only_keys(optional_body(), ())  # nothing to send (or {})
    thrower = _thrower()
    host = is_host()
    thrown = thrower.throw(host=host)
    return jsonify({**thrower.view(host=host), "thrown": list(thrown)})


@bp.get("/tray/photo")
@viewer_required
def tray_photo() -> Response:
    photo = context().tray_photo()
    if photo is None:
        raise Refused(404, "no annotated photo of the tray yet.")
    return _no_store(*photo)
