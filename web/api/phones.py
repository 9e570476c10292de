"""The phones that joined (see `web.sessions`): this phone and its name; the host's list, removing one, who did
what; the security report and the problems with the companion's files. After every request this phone's id is
given out, replaced or refreshed (`follow_session`)."""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from flask import Blueprint, Response, jsonify, request, session

from companion.validate import control_character
from web.api.host import SIGNED_IN, SIGNED_OUT
from web.context import context
from web.errors import Refused
from web.security import host_required, viewer_required
from web.sessions import NAME_MAX, PhoneBook

bp = Blueprint("phones", __name__, url_prefix="/api")

JOINED = "pages.join"  # the endpoint of the join link: a new guest's id


def _address() -> str:
    return request.remote_addr or "?"


def _agent() -> str:
    return request.headers.get("User-Agent", "")[:200]


@bp.after_app_request
def follow_session(response: Response) -> Response:
    """After each request: give out, replace or refresh this phone's id."""
    ctx = context()
    book: PhoneBook = ctx.phones
    if response.status_code >= 400 or request.endpoint is None:
        return response
    store = ctx.store
    tag = session.get("j")
    joined = isinstance(tag, str) and hmac.compare_digest(tag, store.join_tag())
    if not joined:
        return response
    current = session.get("s")
    endpoint = request.endpoint
    host_now = store.pin_set and session.get("h") == store.pin_epoch
    entry = book.get(current)
    if endpoint in SIGNED_IN and host_now:
        session["s"] = book.replace(current, _address(), _agent(), host=True)
        session["c"] = secrets.token_urlsafe(18)  # a new CSRF token with the host's rights (GET /api/session)
        if endpoint == "host.change_pin":
            book.demote_hosts(keep=session["s"])
        ctx.hub.phones_changed()
    elif endpoint == JOINED and host_now and entry is not None and entry["host"] is True:
        book.seen(str(current), _address())  # the host scanning the QR code again stays the host
    elif endpoint in SIGNED_OUT or (endpoint == JOINED and request.args.get("code")) or current is None:
        # Signed out, joined again, or no id yet: a new guest's id (a copy of the old cookie stops working).
        table = endpoint == JOINED and request.args.get("table") == "1"  # the table display's own link
        session["s"] = book.replace(current, _address(), _agent(), host=False, table=table)
        ctx.hub.phones_changed()  # a phone joined: the host's list shows it at once
    elif isinstance(current, str):
        book.seen(current, _address())
    return response


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True) if request.is_json else None
    if not isinstance(data, dict):
        raise Refused(400, "send a JSON object with the header Content-Type: application/json.")
    return data


@bp.get("/phone")
@viewer_required
def this_phone() -> Response:
    entry = context().phones.get(session.get("s")) or {}
    return jsonify({"id": session.get("s"), "name": entry.get("name"), "host": bool(entry.get("host"))})


def _name(data: dict[str, Any], *others: str) -> str:
    """A phone's name from a request (a body of "name" and `others`): plain text of 1 to NAME_MAX characters, its
    spaces tidied."""
    name = data.get("name")
    if set(data) - {"name", *others} or not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_MAX:
        raise Refused(400, f'send the phone\'s name as {{"name": "Anna\'s phone"}}: 1 to {NAME_MAX} characters.')
    name = " ".join(name.split())
    if control_character(name) is not None:
        raise Refused(400, "the name must be plain text (no control characters).")
    return name


def _rename(phone_id: str, name: str) -> Response:
    taken = context().phones.rename(phone_id, name)
    if taken is not None:
        raise Refused(409, f"another phone at the table is called {taken} already; choose another name.")
    context().hub.phones_changed()  # the host's list shows the new name at once
    return jsonify({"id": phone_id, "name": name})


@bp.post("/phone/name")
@viewer_required
def name_phone() -> Response:
    name = _name(_body())
    phone_id = session.get("s")
    if not isinstance(phone_id, str) or context().phones.get(phone_id) is None:
        raise Refused(409, "this phone has no session yet; reload the page and try again.")
    return _rename(phone_id, name)


@bp.post("/host/phones/rename")
@host_required
def rename_phone() -> Response:
    """The host names a phone of the table (the one they hold, a player's, the table display)."""
    data = _body()
    phone_id = data.get("id")
    if not isinstance(phone_id, str) or not phone_id:
        raise Refused(400, 'send the phone\'s id from /api/host/phones and its name: {"id": "...", "name": "..."}.')
    name = _name(data, "id")
    if context().phones.get(phone_id) is None:
        raise Refused(404, "no such phone (it may have been removed); reload the list.")
    return _rename(phone_id, name)


@bp.get("/host/phones")
@host_required
def list_phones() -> Response:
    mine = session.get("s")
    phones = [{**entry, "this": entry["id"] == mine} for entry in context().phones.phones()]
    return jsonify({"phones": phones})


@bp.post("/host/phones/remove")
@host_required
def remove_phone() -> Response:
    data = _body()
    phone_id = data.get("id")
    if set(data) - {"id"} or not isinstance(phone_id, str) or not phone_id:
        raise Refused(400, 'send the phone\'s id from /api/host/phones: {"id": "..."}.')
    if not context().phones.remove(phone_id):
        raise Refused(404, "no such phone (it may have been removed already); reload the list.")
    context().hub.drop_phone(phone_id)  # its open pages stop receiving the game now
    context().hub.phones_changed()
    return jsonify({"removed": phone_id, "this": phone_id == session.get("s")})


@bp.get("/host/actions")
@host_required
def list_actions() -> Response:
    return jsonify({"actions": context().phones.actions()})


@bp.get("/host/security")
@host_required
def security_report() -> Response:
    ctx = context()
    return jsonify(
        {
            "pin": ctx.throttle.report(),
            "join": ctx.join_throttle.report(),
            "problems": ctx.problems(),
        }
    )


@bp.get("/problems")
@viewer_required
def problems() -> Response:
    """What is wrong with the companion's files (a damaged web.json or history), for a banner on the page."""
    return jsonify({"problems": context().problems()})
