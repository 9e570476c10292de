"""The copy of the game on the table ("Your box"): its cards as the host fills them in, and the whole box as a
file to keep, share and bring back."""

from __future__ import annotations

import json
from collections.abc import Mapping

from flask import Blueprint, Response, jsonify, request

from web.api.body import body, only_keys
from web.context import context
from web.errors import Refused
from web.security import host_required

bp = Blueprint("box", __name__, url_prefix="/api")


@bp.get("/box")
@host_required
def box() -> Response:
    """The cards of the copy on the table, as the "Your box" page fills them in."""
    return jsonify(context().service.box_view())


@bp.post("/box")
@host_required
def edit_box() -> Response:
    """Fill in one entry: {"part": "ghost", "key": "shadow", "fields": {...}} (companion.box.BoxEdit)."""
    data = body()
    only_keys(data, ("part", "key", "fields"))
    part, key, fields = data.get("part"), data.get("key"), data.get("fields", {})
    if not isinstance(part, str) or not isinstance(key, (str, int)) or isinstance(key, bool):
        raise Refused(400, 'say which entry to fill in: "part" and "key".')
    if not isinstance(fields, Mapping):
        raise Refused(400, '"fields" must be an object.')
    return jsonify(context().service.edit_box(part, str(key), fields))


@bp.get("/box/file")
@host_required
def export_box() -> Response:
    """The whole box as one file to keep or share; "Bring back a box" reads it."""
    text = json.dumps(context().service.export_box(), ensure_ascii=False, indent=1)
    response = Response(text, mimetype="application/json")
    response.headers["Content-Disposition"] = 'attachment; filename="skeptics-box.json"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.put("/box/file")
@host_required
def import_box() -> Response:
    """Replace the whole box with a box file (checked first: nothing is written if any part is wrong)."""
    data = request.get_json(silent=True)
    if data is None:
        raise Refused(400, 'send the box file as JSON (the file "Save my box" made).')
    return jsonify(context().service.import_box(data))
