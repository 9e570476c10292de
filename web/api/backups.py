"""The history's backups from the host's page (see `web.backups`): the list, one made now, one put back."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from web.backups import Backups
from web.context import context
from web.errors import Refused
from web.security import host_required

bp = Blueprint("backups", __name__, url_prefix="/api")


def _backups() -> Backups:
    backups = context().backups
    if backups is None:
        raise Refused(404, "this companion's history cannot be backed up (it is not a file).")
    return backups


@bp.get("/host/backups")
@host_required
def list_backups() -> Response:
    backups = _backups()
    return jsonify(
        {"backups": backups.list(), "keep": backups.keep, "folder": str(backups.folder), "problem": backups.problem}
    )


@bp.post("/host/backups")
@host_required
def make_backup() -> Response:
    data = request.get_json(silent=True) if request.content_length else {}
    if not isinstance(data, dict) or data:
        raise Refused(400, "send an empty JSON object {} to make a backup now.")
    return jsonify({"backup": _backups().make("manual")})


@bp.post("/host/backups/restore")
@host_required
def restore_backup() -> Response:
    data = request.get_json(silent=True) if request.is_json else None
    if not isinstance(data, dict) or set(data) - {"name", "confirm"} or not isinstance(data.get("name"), str):
        raise Refused(400, 'send {"name": "games-....sqlite3", "confirm": true} with a name from the list.')
    if data.get("confirm") is not True:
        raise Refused(
            409,
            'restoring replaces the whole history with the backup\'s; send "confirm": true to go ahead '
            "(a backup of the history as it is now is made first).",
        )
    ctx = context()
    safety, state = _backups().restore(data["name"], ctx.service, ctx.hub)
    return jsonify({"restored": data["name"], "safety_backup": safety["name"], "state": state})
