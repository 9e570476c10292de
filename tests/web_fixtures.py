"""Fixtures for the web tests: the real game service on a real SQLite file, served by a real waitress.

The fixtures `table` and `shared_table` reach every test module through tests/conftest.py; import the
helpers (Client, SseStream, start_table, serve_table ...) from here.
"""

from __future__ import annotations

import http.client
import json
import random
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest

from web import create_app
from web.server import ServerThread

JOIN_CODE = "TABLE7"
HOST_PIN = "4321"


def make_service(db_path: Path, seed: int = 7, players: int = 3) -> Any:
    """The real GameService on an SQLite file, with a game started (seeded, so runs repeat)."""
    from companion.games.skeptics.packs import load_packs
    from companion.history import GameStore
    from companion.service import GameService

    service = GameService(GameStore(db_path), load_packs(), rng=random.Random(seed))
    service.new_game({"players": players, "board": "asylum", "ghost": "child", "special_items": 3, "seed": seed})
    return service


def settled_tray(frame: Any, readings: list[Any]) -> Any:
    """A real TrayWatcher that has watched `frame` lie still and read it once, its reader answering `readings`
    (the clock steps 0.2 s a frame, so no test waits)."""
    from vision.tray import TrayWatcher

    clock = [0.0]

    def now() -> float:
        clock[0] += 0.2
        return clock[0]

    watcher = TrayWatcher(now=now, reader=lambda image, settings: list(readings))
    for _ in range(8):
        watcher.feed(frame)
    return watcher


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Client:
    """A small HTTP client with a cookie jar and the page's CSRF token, talking to the real server."""

    def __init__(self, base: str, source: str | None = None) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.host, self.port = host, int(port)
        self.source = source  # the address this phone sends from (127.0.0.x: the whole 127/8 is the loopback)
        self.cookies: dict[str, str] = {}
        self.csrf: str | None = None

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None, raw: bytes | None = None
    ) -> Reply:
        conn = http.client.HTTPConnection(
            self.host, self.port, timeout=10, source_address=(self.source, 0) if self.source else None
        )
        hdrs = {"Accept-Encoding": "identity"}
        if self.cookies:
            hdrs["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data: bytes | None = raw
        if body is not None:
            data = json.dumps(body).encode()
            hdrs["Content-Type"] = "application/json"
        if method != "GET":
            hdrs["Origin"] = f"http://{self.host}:{self.port}"
            if self.csrf:
                hdrs["X-CSRF-Token"] = self.csrf
        hdrs.update(headers or {})
        hdrs = {k: v for k, v in hdrs.items() if v is not None}
        conn.request(method, path, body=data, headers=hdrs)
        resp = conn.getresponse()
        payload = resp.read()
        for value in resp.headers.get_all("Set-Cookie") or []:
            cookie: SimpleCookie = SimpleCookie()
            cookie.load(value)
            for key, morsel in cookie.items():
                self.cookies[key] = morsel.value
        conn.close()
        return Reply(resp.status, {k.lower(): v for k, v in resp.headers.items()}, payload)

    def get(self, path: str, **kw: Any) -> Reply:
        return self.request("GET", path, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> Reply:
        return self.request("POST", path, body=body, **kw)

    def join(self, code: str = JOIN_CODE) -> Client:
        reply = self.get(f"/join?code={code}")
        assert reply.status == 200, reply.body
        self.refresh()
        return self

    def refresh(self) -> dict[str, Any]:
        session = self.get("/api/session").json()
        self.csrf = session["csrf"]
        return dict(session)

    def sign_in(self, pin: str = HOST_PIN) -> Client:
        reply = self.post("/api/host/login", {"pin": pin})
        assert reply.status == 200, reply.body
        self.refresh()  # signing in gives the session a new CSRF token, as the page reads it again
        return self


@dataclass
class Table:
    """A running companion: the service, the app and the waitress server around it."""

    service: Any
    app: Any
    server: ServerThread
    data_dir: Path

    @property
    def url(self) -> str:
        return self.server.url

    def client(self) -> Client:
        return Client(self.url)

    def viewer(self) -> Client:
        return Client(self.url).join()

    def host(self) -> Client:
        return Client(self.url).join().sign_in()


def start_table(
    tmp_path: Path,
    hardware: Any = None,
    tray: Any = None,
    service: Any = None,
    teacher: Any = None,
    threads: int = 48,
    sim_throw: Any = None,
    **settings: Any,
) -> Table:
    """A companion served from `tmp_path / "data"`: `service` (default: make_service's) behind the real app."""
    data_dir = tmp_path / "data"
    data_dir.mkdir(exist_ok=True)
    service = service if service is not None else make_service(data_dir / "games.sqlite")
    conf = {"data_dir": data_dir, "join_code": JOIN_CODE, "host_pin": HOST_PIN, "heartbeat": 15.0}
    conf.update(settings)
    app = create_app(service, conf, hardware=hardware, tray=tray, teacher=teacher, sim_throw=sim_throw)
    server = ServerThread(app, threads=threads)
    return Table(service, app, server, data_dir)


@pytest.fixture(scope="module")
def shared_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    """One companion for a whole test module (for tests that must leave the game unchanged)."""
    yield from serve_table(tmp_path_factory.mktemp("web"))


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    yield from serve_table(tmp_path)


def serve_table(path: Path, **parts: Any) -> Iterator[Table]:
    """A companion on `path` for a fixture to yield; stopped (server, then service) when the fixture ends."""
    t = start_table(path, **parts)
    try:
        yield t
    finally:
        t.server.stop()
        t.service.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class SseMessage:
    event: str | None
    id: str | None
    data: str | None
    comment: str | None = None

    def json(self) -> Any:
        return json.loads(self.data or "null")


class SseStream:
    """Reads a real `text/event-stream` response message by message (comments included)."""

    def __init__(self, client: Client, last_event_id: int | None = None, timeout: float = 5.0, query: str = "") -> None:
        self.conn = http.client.HTTPConnection(
            client.host, client.port, timeout=timeout, source_address=(client.source, 0) if client.source else None
        )
        headers = {"Accept": "text/event-stream", "Cookie": "; ".join(f"{k}={v}" for k, v in client.cookies.items())}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.conn.request("GET", "/api/events" + query, headers=headers)
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.headers = {k.lower(): v for k, v in self.response.headers.items()}

    def next(self) -> SseMessage:
        """The next message or comment; raises TimeoutError (socket timeout) if none comes."""
        fields: dict[str, str] = {}
        while True:
            raw = self.response.readline()
            if not raw:
                raise EOFError("the event stream ended")
            line = raw.decode().rstrip("\r\n")
            if line == "":
                if fields:
                    return SseMessage(fields.get("event"), fields.get("id"), fields.get("data"))
                continue
            if line.startswith(":"):
                if not fields:
                    return SseMessage(None, None, None, comment=line[1:].strip())
                continue
            key, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            fields[key] = fields[key] + "\n" + value if key == "data" and key in fields else value

    def next_data(self) -> SseMessage:
        """The next message that is not a comment or the retry hint."""
        while True:
            msg = self.next()
            if msg.comment is None and (msg.event or msg.data):
                return msg

    def until(self, predicate: Any, limit: int = 200) -> list[SseMessage]:
        """Messages up to and including the first for which predicate(msg) is true."""
        out = []
        for _ in range(limit):
            msg = self.next_data()
            out.append(msg)
            if predicate(msg):
                return out
        raise AssertionError(f"no matching message in {limit}: {out[-3:]}")

    def close(self) -> None:
        self.response.close()  # the response holds the socket open until it is closed too
        self.conn.close()

    def __enter__(self) -> SseStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
