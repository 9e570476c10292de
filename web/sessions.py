"""The phones that joined, kept on the server, so that a session can be ended from the companion's side.

The session cookie alone cannot be taken back: a copy made before signing out would act for 60
days. So each phone's cookie also carries a phone id (`s`), and the `PhoneBook` in the data
directory (`web-phones.json`, 0600) says which ids are live and which of them are the host's:

- joining (the join link) gives the phone a new id; signing in with the PIN, signing out and
  changing the PIN each give it another one, so a cookie copied earlier stops working;
- the host sees the phones (by the name each phone chooses, else its kind and address) and can
  remove one: that phone must join again (to keep it out, change the join code too);
- at most `cap` phones are kept; the one not seen for longest goes first (never the host's
  phones while another can go);
- every command sent from the page is recorded with the phone that sent it (`web-actions.jsonl`,
  the last `keep_actions`), beside the game history, which records "web" as the source.

Endpoints (JSON; POSTs need the page's X-CSRF-Token like every other POST):

    GET  /api/phone                   this phone: {"id", "name", "host"}            (a joined viewer)
    POST /api/phone/name {"name"}     this phone chooses its name (1-40 characters)  (a joined viewer)
    GET  /api/host/phones             {"phones": [{"id", "name", "host", "address", "since", "seen", "this"}]}
    POST /api/host/phones/remove {"id"}   ends that phone's session                 (the host)
    GET  /api/host/actions            {"actions": [{"at", "game", "event", "type", "text", "phone", "name"}]}
    GET  /api/host/security           wrong PINs and join codes, lockouts, problems with the files
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import threading
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, jsonify, request, session

from companion.validate import control_character
from web.security import Refused, host_required, viewer_required
from web.settings import write_private

if TYPE_CHECKING:
    from web.app import WebContext

NAME_MAX = 40
GRACE = 10.0  # s an old id still reads (never acts) after it was replaced: requests already under way

bp = Blueprint("phones", __name__, url_prefix="/api")


def kind_of_device(agent: str) -> str:
    """A short name from the User-Agent, until the phone chooses one."""
    text = agent.lower()
    for word, name in (("iphone", "iPhone"), ("ipad", "iPad"), ("android", "Android phone"),
                       ("macintosh", "Mac"), ("windows", "Windows PC"), ("cros", "Chromebook"),
                       ("linux", "Linux computer")):
        if word in text:
            return name
    return "phone"


class PhoneBook:
    """Live phone ids and their names, kept in a file across restarts."""

    def __init__(self, path: Path, now: Callable[[], float], cap: int = 200, keep_actions: int = 1000) -> None:
        self.path = path
        self.actions_path = path.with_name("web-actions.jsonl")
        self._now = now
        self._cap = cap
        self._lock = threading.Lock()
        self._phones: dict[str, dict[str, Any]] = {}
        self._actions: deque[dict[str, Any]] = deque(maxlen=keep_actions)
        self.problem: str | None = None
        self._load()

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8-sig"))
            phones = {str(k): dict(v) for k, v in dict(data.get("phones", {})).items()}
            for entry in phones.values():
                entry["host"] = entry.get("host") is True
                entry["name"] = str(entry.get("name") or "phone")[:NAME_MAX]
                entry["seen"] = float(entry.get("seen") or 0.0)
                if "retired" in entry:
                    entry["retired"] = float(entry["retired"])
            self._phones = phones
        except FileNotFoundError:
            pass
        except (OSError, ValueError, TypeError, AttributeError, RecursionError) as exc:
            self.problem = f"{self.path.name} could not be read ({exc}); every phone joins again (hosts sign in again)."
        try:
            with self.actions_path.open(encoding="utf-8", errors="replace") as handle:
                for line in handle:
                    try:
                        item = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(item, dict):
                        self._actions.append(item)
        except OSError:
            pass

    def _save(self) -> None:
        try:
            write_private(self.path, json.dumps({"phones": self._phones}))
        except OSError as exc:
            self.problem = f"cannot save {self.path.name} ({exc.strerror or exc}); removed phones come back at a restart."

    def _make_room(self) -> None:
        now = self._now()
        for phone_id in [k for k, v in self._phones.items() if v.get("retired", now + 1) <= now]:
            del self._phones[phone_id]
        while len(self._phones) >= self._cap:
            guests = [k for k, v in self._phones.items() if not v["host"]] or list(self._phones)
            del self._phones[min(guests, key=lambda k: ("retired" not in self._phones[k], self._phones[k]["seen"]))]

    def add(self, address: str, agent: str, *, host: bool = False, name: str | None = None) -> str:
        now = self._now()
        phone_id = secrets.token_urlsafe(12)
        with self._lock:
            self._make_room()
            self._phones[phone_id] = {
                "name": name or f"{kind_of_device(agent)} ({address})",
                "host": host,
                "address": address,
                "since": now,
                "seen": now,
            }
            self._save()
        return phone_id

    def get(self, phone_id: object) -> dict[str, Any] | None:
        if not isinstance(phone_id, str):
            return None
        with self._lock:
            entry = self._phones.get(phone_id)
            if entry is not None and entry.get("retired", float("inf")) <= self._now():
                del self._phones[phone_id]
                entry = None
            return dict(entry) if entry is not None else None

    def seen(self, phone_id: str, address: str) -> None:
        with self._lock:
            entry = self._phones.get(phone_id)
            if entry is not None:
                entry["seen"] = self._now()
                entry["address"] = address

    def replace(self, old: object, address: str, agent: str, *, host: bool) -> str:
        """A new id for the phone that had `old` (its name kept).

        `old` loses the host's rights at once; it may still read for `GRACE` seconds (the page's
        requests already under way carry it), then it is gone: a copy of the old cookie stops working.
        """
        with self._lock:
            entry = self._phones.get(old) if isinstance(old, str) else None
            if entry is not None:
                entry["host"] = False
                entry["retired"] = self._now() + GRACE
        return self.add(address, agent, host=host, name=entry["name"] if entry else None)

    def rename(self, phone_id: str, name: str) -> None:
        with self._lock:
            if phone_id in self._phones:
                self._phones[phone_id]["name"] = name
                self._save()

    def remove(self, phone_id: str) -> bool:
        with self._lock:
            gone = self._phones.pop(phone_id, None) is not None
            if gone:
                self._save()
            return gone

    def demote_hosts(self, keep: str | None = None) -> None:
        """A new PIN: every other phone is a guest again."""
        with self._lock:
            for phone_id, entry in self._phones.items():
                if phone_id != keep:
                    entry["host"] = False
            self._save()

    def forget_all(self) -> None:
        """A new join code: every phone must join again."""
        with self._lock:
            self._phones.clear()
            self._save()

    def phones(self) -> list[dict[str, Any]]:
        with self._lock:
            items = [{"id": k, **v} for k, v in self._phones.items() if "retired" not in v]
        return sorted(items, key=lambda e: -float(e["seen"]))

    def acted(self, records: list[dict[str, Any]], phone_id: str) -> None:
        """Note which phone sent the command that committed `records`."""
        entry = self.get(phone_id)
        name = entry["name"] if entry else "?"
        lines = []
        for record in records:
            item = {
                "at": self._now(),
                "game": record.get("game"),
                "event": record.get("id"),
                "type": record.get("type"),
                "text": str(record.get("text") or "")[:200],
                "phone": phone_id,
                "name": name,
            }
            lines.append(json.dumps(item))
            with self._lock:
                self._actions.append(item)
        try:
            fd = os.open(self.actions_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            with os.fdopen(fd, "a", encoding="utf-8") as handle:
                handle.write("".join(line + "\n" for line in lines))
            if self.actions_path.stat().st_size > 400 * (self._actions.maxlen or 1000):
                with self._lock:
                    kept = "".join(json.dumps(item) + "\n" for item in self._actions)
                write_private(self.actions_path, kept)
        except OSError as exc:
            self.problem = f"cannot write {self.actions_path.name} ({exc.strerror or exc})."

    def actions(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._actions)


def _ctx() -> WebContext:
    from web.app import context  # at call time: web.app imports this blueprint

    return context()


def _address() -> str:
    return request.remote_addr or "?"


def _agent() -> str:
    return request.headers.get("User-Agent", "")[:200]


def follow_session(response: Response) -> Response:
    """After each request: give out, replace or refresh this phone's id (Flask after_request)."""
    ctx = _ctx()
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
    if endpoint in ("api.host_login", "api.set_first_pin", "api.change_pin") and host_now:
        session["s"] = book.replace(current, _address(), _agent(), host=True)
        session["c"] = secrets.token_urlsafe(18)  # a new CSRF token with the host's rights (GET /api/session)
        if endpoint == "api.change_pin":
            book.demote_hosts(keep=session["s"])
    elif endpoint == "pages.join" and host_now and entry is not None and entry["host"] is True:
        book.seen(str(current), _address())  # the host scanning the QR code again stays the host
    elif endpoint == "api.host_logout" or (endpoint == "pages.join" and request.args.get("code")) or current is None:
        # Signed out, joined again, or no id yet: a new guest's id (a copy of the old cookie stops working).
        session["s"] = book.replace(current, _address(), _agent(), host=False)
    elif isinstance(current, str):
        book.seen(current, _address())
    return response


def stream_guard() -> Callable[[], bool]:
    """For an event stream opened by this request: whether the phone may still see the game.

    Checked by the stream at least once a second (web.events): a removed phone, a new join code, or a phone
    id replaced at sign-in or sign-out ends it; the host's "Remove" also ends it at once (EventHub.drop_phone).
    """
    ctx = _ctx()
    book: PhoneBook = ctx.phones
    store = ctx.store
    phone = session.get("s")
    tag = store.join_tag()
    if not isinstance(phone, str):  # a script with X-Join-Code: as long as the join code stays the same
        return lambda: hmac.compare_digest(store.join_tag(), tag)
    return lambda: hmac.compare_digest(store.join_tag(), tag) and book.get(phone) is not None


def record_actions(records: list[dict[str, Any]], state: dict[str, Any]) -> None:
    """A service listener: a commit made while a request from the page runs is noted with its phone."""
    from flask import has_request_context

    if not has_request_context() or not records:
        return
    try:
        ctx = _ctx()
    except (KeyError, RuntimeError):
        return
    phone_id = session.get("s")
    if isinstance(phone_id, str):
        ctx.phones.acted(list(records), phone_id)


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True) if request.is_json else None
    if not isinstance(data, dict):
        raise Refused(400, "send a JSON object with the header Content-Type: application/json.")
    return data


@bp.get("/phone")
@viewer_required
def this_phone() -> Response:
    entry = _ctx().phones.get(session.get("s")) or {}
    return jsonify({"id": session.get("s"), "name": entry.get("name"), "host": bool(entry.get("host"))})


@bp.post("/phone/name")
@viewer_required
def name_phone() -> Response:
    data = _body()
    name = data.get("name")
    if set(data) - {"name"} or not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_MAX:
        raise Refused(400, f"send this phone's name as {{\"name\": \"Anna's phone\"}}: 1 to {NAME_MAX} characters.")
    name = " ".join(name.split())
    if control_character(name) is not None:
        raise Refused(400, "the name must be plain text (no control characters).")
    phone_id = session.get("s")
    if not isinstance(phone_id, str) or _ctx().phones.get(phone_id) is None:
        raise Refused(409, "this phone has no session yet; reload the page and try again.")
    _ctx().phones.rename(phone_id, name)
    return jsonify({"id": phone_id, "name": name})


@bp.get("/host/phones")
@host_required
def list_phones() -> Response:
    mine = session.get("s")
    phones = [{**entry, "this": entry["id"] == mine} for entry in _ctx().phones.phones()]
    return jsonify({"phones": phones})


@bp.post("/host/phones/remove")
@host_required
def remove_phone() -> Response:
    data = _body()
    phone_id = data.get("id")
    if set(data) - {"id"} or not isinstance(phone_id, str) or not phone_id:
        raise Refused(400, "send the phone's id from /api/host/phones: {\"id\": \"...\"}.")
    if not _ctx().phones.remove(phone_id):
        raise Refused(404, "no such phone (it may have been removed already); reload the list.")
    _ctx().hub.drop_phone(phone_id)  # its open pages stop receiving the game now
    return jsonify({"removed": phone_id, "this": phone_id == session.get("s")})


@bp.get("/host/actions")
@host_required
def list_actions() -> Response:
    return jsonify({"actions": _ctx().phones.actions()})


@bp.get("/host/security")
@host_required
def security_report() -> Response:
    ctx = _ctx()
    return jsonify({
        "pin": ctx.throttle.report(),
        "join": ctx.join_throttle.report(),
        "problems": ctx.problems(),
    })


@bp.get("/problems")
@viewer_required
def problems() -> Response:
    """What is wrong with the companion's files (a damaged web.json or history), for a banner on the page."""
    return jsonify({"problems": _ctx().problems()})
