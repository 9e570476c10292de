"""Teaching the dice reader the table's own dice (host only): keep the tray's photo with the host's values,
teach from every photo kept, in the background, or go back to the shipped reader."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify

from web.api.body import body, only_keys
from web.context import context
from web.errors import Refused
from web.security import host_required

bp = Blueprint("teach", __name__, url_prefix="/api")

MAX_DICE = 40  # the most dice one kept photo may label


def _teacher() -> Any:
    teacher = context().teacher
    if teacher is None:
        raise Refused(404, "this companion runs without a dice tray camera, so there is no reader to teach.")
    return teacher


@bp.get("/host/teach")
@host_required
def teach_status() -> Response:
    """Teaching the reader: photos kept, whether teaching is under way, the last result, whether it is in use."""
    return jsonify(_teacher().status())


def _labelled_die(die: Any) -> tuple[int | None, tuple[float, ...]]:
    """One die of the photo as the host labelled it: its value (None: not a die) and its box in pixels."""
    value, box = (die.get("value"), die.get("box")) if isinstance(die, Mapping) else (None, None)
    if value is not None and (type(value) is not int or not 1 <= value <= 6):
        raise Refused(400, "a die's value is a whole number 1 to 6, or null for something that is not a die.")
    if not isinstance(box, list) or len(box) != 4 or not all(type(v) in (int, float) and v >= 0 for v in box):
        raise Refused(400, "a die's box is [x, y, w, h] in pixels of the photo.")
    return value, tuple(float(v) for v in box)


@bp.post("/host/teach/keep")
@host_required
def teach_keep() -> Response:
    """Keep the tray's last photo with the host's values: {"dice": [{"value": 1-6 or null, "box": [x, y, w, h]}]}."""
    data = body()
    only_keys(data, ("dice",))
    dice = data.get("dice")
    if not isinstance(dice, list) or not dice or len(dice) > MAX_DICE:
        raise Refused(
            400, '"dice" must be a list of the photo\'s dice, each {"value": 1-6 or null, "box": [x, y, w, h]}.'
        )
    labelled = [_labelled_die(die) for die in dice]
    teacher = _teacher()
    teacher.keep(labelled)
    return jsonify(teacher.status())


@bp.post("/host/teach/run")
@host_required
def teach_run() -> Response:
    """Teach the reader from every photo kept, in the background; the status says when it is done."""
    teacher = _teacher()
    started = teacher.start()
    response = jsonify({**teacher.status(), "started": started})
    response.status_code = 202 if started else 200
    return response


@bp.post("/host/teach/reset")
@host_required
def teach_reset() -> Response:
    teacher = _teacher()
    teacher.reset()
    return jsonify(teacher.status())
