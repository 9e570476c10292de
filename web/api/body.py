"""What the API's endpoints share: reading a JSON body, its fields and flags, and the answer to a command."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Response, jsonify, request

from web.context import context
from web.errors import Refused

__all__ = ["arg_text", "body", "flag", "game_state", "only_keys", "optional_body", "result", "state_answer"]


def body() -> dict[str, Any]:
    """The request's JSON object; 400 when it is not one."""
    if not request.is_json:
        raise Refused(400, "send a JSON object with the header Content-Type: application/json.")
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise Refused(400, 'the body is not a JSON object; send for example {"command": "end-round", "args": {}}.')
    return data


def optional_body() -> dict[str, Any]:
    """The request's JSON object, or an empty one when the request has no body."""
    return body() if request.content_length else {}


def only_keys(data: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise Refused(
            400, f"unknown field(s) {', '.join(unknown)}; this endpoint takes: {', '.join(allowed) or 'nothing'}."
        )


def flag(data: Mapping[str, Any], key: str) -> bool:
    """A true/false field of the body (false when left out)."""
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise Refused(400, f'"{key}" must be true or false.')
    return value


def arg_text(key: str, value: Any) -> str:
    """A command's argument in the terminal's spelling (lists as comma-separated names)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
        return ",".join(str(v) for v in value)
    raise Refused(400, f"argument {key!r} must be a string, a number, true/false or a list of names, not {value!r}.")


def result(done: Any) -> Response:
    """The answer to a command: the events it made and the state after it."""
    return jsonify({"events": list(done.events), "state": done.state})


def state_answer(state: Any) -> Response:
    """The answer to what changes the game without events of its own (a new game, a script read out)."""
    return jsonify({"events": [], "state": state})


def game_state() -> dict[str, Any]:
    """The state of the game under way; 409 when there is none yet."""
    state = context().current_state()
    if state is None:
        raise Refused(409, "no game yet; the host starts one on the Host tab.")
    return state
