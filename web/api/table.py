"""The table's hardware and the dice tray, present only when `companion serve` passes them: the clock hand and
the parts' status, the OLED's picture, the tray's last reading and its annotated photo."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from web.context import context
from web.errors import Refused
from web.security import viewer_required

bp = Blueprint("table", __name__, url_prefix="/api")


def _no_store(data: bytes, mimetype: str) -> Response:
    response = Response(data, mimetype=mimetype)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/hardware")
@viewer_required
def hardware() -> Response:
    hw = context().hardware
    if hw is None:
        raise Refused(404, "this companion runs without table hardware.")
    status = hw.status() if hasattr(hw, "status") else {}
    return jsonify({"hand_angle": getattr(hw, "hand_angle", None), "status": status})


@bp.get("/hardware/oled.png")
@viewer_required
def oled_png() -> Response:
    hw = context().hardware
    png = hw.oled_png() if hw is not None else None
    if not png:
        raise Refused(404, "no OLED picture: the companion runs without a display.")
    return _no_store(png, "image/png")


@bp.get("/tray")
@viewer_required
def tray() -> Response:
    ctx = context()
    if ctx.tray is None:
        raise Refused(404, "this companion runs without a dice tray camera.")
    reading = ctx.tray_reading()
    return jsonify(reading if reading is not None else {"dice": [], "photo": False})


@bp.get("/tray/photo")
@viewer_required
def tray_photo() -> Response:
    photo = context().tray_photo()
    if photo is None:
        raise Refused(404, "no annotated photo of the tray yet.")
    return _no_store(*photo)
