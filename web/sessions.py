"""The phones that joined, kept on the server, so that a session can be ended from the companion's side.

The session cookie alone cannot be taken back: a copy made before signing out would act for 60
days. So each phone's cookie also carries a phone id (`s`), and the `PhoneBook` in the data
directory (`web-phones.json`, 0600) says which ids are live and which of them are the host's:

- joining (the join link) gives the phone a new id; signing in with the PIN, signing out and
  changing the PIN each give it another one, so a cookie copied earlier stops working;
- the host sees the phones (by the name each phone or the host chooses, else its kind and browser, numbered
  when two are alike; the table display's link names it so) and can rename or remove one: a removed phone
  must join again (to keep it out, change the join code too);
- at most `cap` phones are kept; the one not seen for longest goes first (never the host's
  phones while another can go);
- every command sent from the page is recorded with the phone that sent it (`web-actions.jsonl`,
  the last `keep_actions`), beside the game history, which records "web" as the source.

Endpoints (JSON; POSTs need the page's X-CSRF-Token like every other POST), in `web.api.phones`:

    GET  /api/phone                   this phone: {"id", "name", "host"}            (a joined viewer)
    POST /api/phone/name {"name"}     this phone chooses its name (1-40 characters)  (a joined viewer)
    GET  /api/host/phones             {"phones": [{"id", "name", "host", "address", "since", "seen", "this"}]}
    POST /api/host/phones/rename {"id", "name"}   the host names that phone          (the host)
    POST /api/host/phones/remove {"id"}   ends that phone's session                 (the host)
    GET  /api/host/actions            {"actions": [{"at", "game", "event", "type", "text", "phone", "name"}]}
    GET  /api/host/security           wrong PINs and join codes, lockouts, problems with the files
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from web.settings import write_private

NAME_MAX = 40
GRACE = 10.0  # s an old id still reads (never acts) after it was replaced: requests already under way


# The User-Agent's words for the kind of device and the browser, the first that matches (order matters: an
# iPad's Safari names "Macintosh", Edge and Opera name "Chrome", Chrome names "Safari").
DEVICES = (
    ("iphone", "iPhone"),
    ("ipad", "iPad"),
    ("android", "Android phone"),
    ("cros", "Chromebook"),
    ("macintosh", "Mac"),
    ("windows", "Windows PC"),
    ("linux", "Linux computer"),
)
BROWSERS = (
    ("edg", "Edge"),
    ("opr/", "Opera"),
    ("samsungbrowser", "Samsung Internet"),
    ("firefox", "Firefox"),
    ("fxios", "Firefox"),
    ("crios", "Chrome"),
    ("chromium", "Chromium"),
    ("chrome", "Chrome"),
    ("safari", "Safari"),
)
TABLE_DISPLAY = "Table display"  # the name of a phone that joined by the table display's link


def kind_of_device(agent: str) -> str:
    """A short name from the User-Agent, the kind of device and its browser ("Android phone, Chrome"), until the
    phone chooses one (`PhoneBook.add` numbers it when another phone has it)."""
    text = agent.lower()
    device = next((name for word, name in DEVICES if word in text), "Phone")
    browser = next((name for word, name in BROWSERS if word in text), None)
    return f"{device}, {browser}" if browser else device


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
            self.problem = (
                f"cannot save {self.path.name} ({exc.strerror or exc}); removed phones come back at a restart."
            )

    def _make_room(self) -> None:
        now = self._now()
        for phone_id in [k for k, v in self._phones.items() if v.get("retired", now + 1) <= now]:
            del self._phones[phone_id]
        while len(self._phones) >= self._cap:
            guests = [k for k, v in self._phones.items() if not v["host"]] or list(self._phones)
            del self._phones[min(guests, key=lambda k: ("retired" not in self._phones[k], self._phones[k]["seen"]))]

    def _taken(self, name: str, but: str | None = None) -> str | None:
        """The name as another phone still at the table has it (letter case aside), else None."""
        folded = name.casefold()
        return next(
            (
                str(v["name"])
                for k, v in self._phones.items()
                if k != but and "retired" not in v and str(v["name"]).casefold() == folded
            ),
            None,
        )

    def _new_name(self, agent: str, table: bool) -> str:
        """The name a new phone gets: its kind and browser, numbered from 2 when another phone has it."""
        base = TABLE_DISPLAY if table else kind_of_device(agent)
        n = 1
        while self._taken(name := base if n == 1 else f"{base} {n}") is not None:
            n += 1
        return name

    def add(self, address: str, agent: str, *, host: bool = False, name: str | None = None, table: bool = False) -> str:
        """A new phone id; a phone without a `name` is named by its kind (`table`: the table display)."""
        now = self._now()
        phone_id = secrets.token_urlsafe(12)
        with self._lock:
            self._make_room()
            self._phones[phone_id] = {
                "name": name or self._new_name(agent, table),
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

    def replace(self, old: object, address: str, agent: str, *, host: bool, table: bool = False) -> str:
        """A new id for the phone that had `old` (its name kept).

        `old` loses the host's rights at once; it may still read for `GRACE` seconds (the page's
        requests already under way carry it), then it is gone: a copy of the old cookie stops working.
        """
        with self._lock:
            entry = self._phones.get(old) if isinstance(old, str) else None
            if entry is not None:
                entry["host"] = False
                entry["retired"] = self._now() + GRACE
        return self.add(address, agent, host=host, name=entry["name"] if entry else None, table=table)

    def rename(self, phone_id: str, name: str) -> str | None:
        """The phone's new name; when another phone at the table has it, nothing changes and that phone's name is
        returned."""
        with self._lock:
            taken = self._taken(name, but=phone_id)
            if taken is None and phone_id in self._phones:
                self._phones[phone_id]["name"] = name
                self._save()
            return taken

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


def record_actions(book: PhoneBook, records: list[dict[str, Any]], phone_id: object) -> None:
    """A commit made while a request from the page runs is noted with the phone that sent it (`phone_id`, the
    session's `s`; nothing is noted for a request without one)."""
    if records and isinstance(phone_id, str):
        book.acted(list(records), phone_id)
