"""The game under way: its state, its history, the live event stream, commands (the terminal's spelling),
undo and redo, and the scripts the companion reads out.

Every refusal is a 4xx with `{"error": "...", "status": N}`: 400 not well-formed, 403 not allowed
(join code, host PIN, CSRF), 404 nothing there, 409 not legal now. A refused command leaves the
game exactly as it was (the service checks before it commits).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.errors import BadCommand, CardsNeeded, IllegalCommand
from web.api.body import arg_text, body, only_keys, optional_body, result, state_answer
from web.context import context
from web.errors import Refused
from web.events import TooManyStreams, for_phone
from web.security import host_required, is_host, viewer_required

bp = Blueprint("game", __name__, url_prefix="/api")

COMMAND_NAME = re.compile(r"^[a-z][a-z-]{0,31}$")
ARG_NAME = re.compile(r"^[a-z][a-z_-]{0,31}$")


def parse_command(data: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """A command's name and its arguments in the terminal's spelling, from `{"command", "args"}`."""
    only_keys(data, ("command", "args"))
    name = data.get("command")
    if name is None:
        raise Refused(400, 'missing "command": the command\'s name, e.g. "end-round" or "summon".')
    if not isinstance(name, str) or not COMMAND_NAME.match(name):
        raise Refused(400, f'"command" must be a command name such as "end-round", not {name!r}.')
    raw = data.get("args", {})
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise Refused(400, '"args" must be an object of names to values, e.g. {"success": "true"}.')
    args: dict[str, str] = {}
    for key, value in raw.items():
        if not ARG_NAME.match(key):
            raise Refused(400, f'argument name {key!r} is not valid; names are lowercase words such as "success".')
        args[key] = arg_text(key, value)
    return name, args


@bp.get("/state")
@viewer_required
def get_state() -> Response:
    return jsonify(for_phone(context().service.state(), is_host()))


@bp.get("/history")
@viewer_required
def get_history() -> Response:
    return jsonify(context().service.history())


@bp.get("/events")
@viewer_required
def events() -> Response:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    last: int | None = None
    if raw not in (None, ""):
        try:
            last = int(str(raw))
        except ValueError:
            raise Refused(400, f"Last-Event-ID must be an event number, not {raw!r}.") from None
        if last < 0:
            raise Refused(400, "Last-Event-ID must not be negative.")
    try:
        stream = context().hub.stream(last, request.environ.get("waitress.client_disconnected"), host=is_host())
    except TooManyStreams as exc:
        raise Refused(503, str(exc)) from None
    response = Response(stream, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache, no-transform"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.post("/command")
@host_required
def command() -> Response:
    name, args = parse_command(body())
    return result(context().service.do(name, args, source="web"))


@bp.post("/command/check")
@host_required
def check_command() -> Response:
    """Whether the command would be played now: `{"ok": true}`, or the refusal /api/command would give; nothing is
    played. A page asks before a question of its own, so the game's refusal comes first."""
    name, args = parse_command(body())
    context().service.check(name, args)
    return jsonify({"ok": True})


@bp.post("/command/refusal")
@host_required
def command_refusal() -> Response:
    """The refusal /api/command would give the command now, in the page's words, or none: `{"refusal": null}`;
    nothing is played. A sheet asks it as its fields change, so the game's refusal shows before the tap (an answer,
    not a failed request, for each change)."""
    name, args = parse_command(body())
    try:
        context().service.check(name, args)
    except CardsNeeded:
        return jsonify({"refusal": None})  # taken once the cards drawn are given: the page asks them on the tap
    except (BadCommand, IllegalCommand) as exc:
        return jsonify({"refusal": context().service.say(str(exc))})
    return jsonify({"refusal": None})


@bp.post("/undo")
@host_required
def undo() -> Response:
    only_keys(optional_body(), ())
    return result(context().service.undo(source="web"))


@bp.post("/redo")
@host_required
def redo() -> Response:
    only_keys(optional_body(), ())
    return result(context().service.redo(source="web"))


@bp.post("/host/narrate")
@host_required
def narrate() -> Response:
    """Read a script out on the voice, the OLED and every phone: {"kind": "night"|"vote", "pause": seconds}."""
    data = body()
    only_keys(data, ("kind", "pause"))
    kind, pause = data.get("kind"), data.get("pause")
    if not isinstance(kind, str):
        raise Refused(400, 'say what to read out: "kind".')
    if pause is not None and (not isinstance(pause, (int, float)) or isinstance(pause, bool)):
        raise Refused(400, '"pause" is a number of seconds.')
    return state_answer(context().service.narrate(kind, pause))


@bp.post("/host/narrate/stop")
@host_required
def stop_narration() -> Response:
    only_keys(optional_body(), ())
    return state_answer(context().service.stop_narration())
