"""Issue 13, the server's side: idle sockets, slow headers and large bodies never keep the host out.

Every test runs the real app behind the real waitress (web.server) on 127.0.0.1; sockets from
"another phone" come from 127.0.0.2 and up (the whole 127/8 reaches the loopback on Linux).
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web_fixtures import HOST_PIN, JOIN_CODE, Client, Table, make_service
from web import create_app
from web.server import Limits, ServerThread

WAIT = 15.0  # upper bound for things that happen by themselves (a deadline passing); never a speed claim


def start(tmp_path: Path, limits: Limits, **settings: object) -> Table:
    data_dir = tmp_path / "data"
    data_dir.mkdir(exist_ok=True)
    service = make_service(data_dir / "games.sqlite")
    conf: dict[str, object] = {"data_dir": data_dir, "join_code": JOIN_CODE, "host_pin": HOST_PIN}
    conf.update(settings)
    app = create_app(service, conf)
    return Table(service, app, ServerThread(app, threads=16, limits=limits), data_dir)


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[Table]:
    table = start(
        tmp_path, Limits(connections=12, per_address=4, header_timeout=1.0, body_timeout=1.0, idle_timeout=2.0)
    )
    try:
        yield table
    finally:
        table.server.stop()
        table.service.close()


def connect(table: Table, source: str = "127.0.0.2") -> socket.socket:
    sock = socket.socket()
    sock.settimeout(WAIT)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", table.server.port))
    return sock


def half_request(table: Table, source: str = "127.0.0.2") -> socket.socket:
    """A request that never finishes its headers (the attack of issue 13, point 1)."""
    sock = connect(table, source)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    return sock


def closed_by_server(sock: socket.socket) -> bool:
    """True when the server closed the socket (EOF or reset) within WAIT seconds."""
    try:
        return sock.recv(4096) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (at most WAIT seconds)."""
    data = b""
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        data += chunk
    return data


def wait_for(check: object, what: str) -> None:
    end = time.monotonic() + WAIT
    while not check():  # type: ignore[operator]
        assert time.monotonic() < end, f"waited {WAIT} s for {what}"
        time.sleep(0.05)


def test_sockets_over_the_per_address_cap_are_closed_and_the_host_still_acts(guarded: Table) -> None:
    host = Client(guarded.url).join().sign_in()  # from 127.0.0.1
    held = [half_request(guarded) for _ in range(4)]
    wait_for(lambda: guarded.server.counters["open"] >= 4, "the four sockets to be accepted")
    extra = [half_request(guarded) for _ in range(6)]
    try:
        assert all(closed_by_server(s) for s in extra)  # the fifth and later from 127.0.0.2
        assert guarded.server.counters["refused"] >= 6
        before = guarded.service.state()["history_length"]
        reply = host.post("/api/command", {"command": "end-round", "args": {}})
        assert reply.status == 200, reply.body
        assert guarded.service.state()["history_length"] == before + 1
    finally:
        for s in held + extra:
            s.close()


def test_unfinished_headers_are_closed_after_the_header_timeout(guarded: Table) -> None:
    sock = half_request(guarded)
    try:
        assert closed_by_server(sock)
        assert guarded.server.counters["expired"] >= 1
    finally:
        sock.close()


def test_a_half_sent_body_is_closed_after_the_body_timeout(guarded: Table) -> None:
    sock = connect(guarded)
    sock.sendall(
        b"POST /api/command HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
    )
    try:
        assert closed_by_server(sock)
    finally:
        sock.close()


def test_at_the_connection_limit_the_idle_connection_makes_room(guarded: Table) -> None:
    """12 connections in all: idle keep-alive connections from three phones fill them, the host still gets in."""
    idle = []
    for n in range(12):
        sock = connect(guarded, f"127.0.0.{3 + n // 4}")
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert b" 200 " in sock.recv(4096).split(b"\r\n", 1)[0] + b" "
        idle.append(sock)
    wait_for(lambda: guarded.server.counters["open"] >= 12, "twelve open connections")
    try:
        reply = Client(guarded.url).get("/healthz")
        assert reply.status == 200
        assert guarded.server.counters["evicted"] >= 1
    finally:
        for s in idle:
            s.close()


def test_a_huge_body_is_refused_with_413_before_it_is_read(guarded: Table) -> None:
    sock = connect(guarded)
    head = (
        "POST /api/command HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {200 * 1024 * 1024}\r\n\r\n"
    )
    try:
        sock.sendall(head.encode())  # the headers alone: a refusal needs none of the body
        answer = read_all(sock)
        status, _, rest = answer.partition(b"\r\n")
        assert b"413" in status
        body = json.loads(rest.split(b"\r\n\r\n", 1)[1])
        assert body["status"] == 413 and "too large" in body["error"]
    finally:
        sock.close()
    assert guarded.service.state()["history_length"] == 0


def test_a_chunked_body_is_cut_off_at_the_limit(guarded: Table) -> None:
    before = guarded.server.counters["bytes_in"]
    sock = connect(guarded)
    offered = 0
    try:
        sock.sendall(b"POST /api/command HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"%x\r\n%s\r\n" % (16 * 1024, b"x" * 16 * 1024)
        for _ in range(64):  # 1 MB offered, 64 KB allowed
            try:
                sock.sendall(chunk)
                offered += len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
        answer = read_all(sock)
    finally:
        sock.close()
    # The answer is a 413, unless the reset of the connection (the rest was left unread) overtook it.
    assert answer == b"" or b"413" in answer.split(b"\r\n", 1)[0]
    assert guarded.server.counters["bytes_in"] - before < 512 * 1024  # of the 1 MB offered
    assert guarded.service.state()["history_length"] == 0


def test_oversized_headers_get_a_json_431(guarded: Table) -> None:
    sock = connect(guarded)
    try:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nCookie: " + b"a" * 20_000 + b"\r\n\r\n")
        answer = read_all(sock)
        assert b"431" in answer.split(b"\r\n", 1)[0]
        assert b"application/json" in answer
    finally:
        sock.close()


def test_the_server_is_healthy_while_flooded_and_not_after_it_stopped(tmp_path: Path) -> None:
    table = start(tmp_path, Limits(connections=12, per_address=4))
    held = [half_request(table, f"127.0.0.{2 + n % 5}") for n in range(30)]
    try:
        assert table.server.healthy()
    finally:
        for s in held:
            s.close()
        table.server.stop()
        table.service.close()
    assert not table.server.healthy()


def test_the_default_limits_fit_a_pi_and_a_browser() -> None:
    limits = Limits()
    assert limits.per_address >= 8  # a browser opens up to 6 connections and an event stream
    assert limits.connections <= 200 and limits.max_body <= 64 * 1024 and limits.header_timeout <= 15


def test_the_unit_never_runs_out_of_restarts() -> None:
    """A restart storm must not end in systemd giving up: the restart delay fits fewer starts than the burst."""
    unit = Path(__file__).resolve().parents[1] / "systemd" / "companion.service"
    values: dict[str, str] = {}
    for line in unit.read_text(encoding="utf-8").splitlines():
        key, sep, value = line.partition("=")
        if sep and not line.startswith("#"):
            values[key.strip()] = value.strip()
    interval, burst = float(values["StartLimitIntervalSec"]), int(values["StartLimitBurst"])
    restart_sec = float(values["RestartSec"])
    assert interval / restart_sec < burst
    assert values["Restart"] in ("on-failure", "always")  # a watchdog timeout counts as a failure


def test_one_phone_opens_at_most_six_event_streams(tmp_path: Path) -> None:
    from tests.web_fixtures import SseStream

    table = start(tmp_path, Limits())
    viewer = Client(table.url).join()
    hub = table.app.extensions["skeptics_web"].hub
    streams = [SseStream(viewer) for _ in range(hub.per_address)]
    try:
        assert all(s.status == 200 for s in streams)
        extra = viewer.get("/api/events")
        assert extra.status == 503 and "other tabs" in extra.json()["error"]
    finally:
        for s in streams:
            s.close()
        table.server.stop()
        table.service.close()


def test_a_trusted_proxy_is_not_held_to_the_per_address_cap(tmp_path: Path) -> None:
    table = start(tmp_path, Limits(connections=12, per_address=4, header_timeout=5.0), trusted_proxies=["127.0.0.1"])
    held = [half_request(table, "127.0.0.1") for _ in range(8)]  # the proxy's pooled connections
    try:
        wait_for(lambda: table.server.counters["open"] >= 8, "eight connections from the proxy")
        assert table.server.counters["refused"] == 0
        assert Client(table.url).get("/healthz").status == 200
    finally:
        for s in held:
            s.close()
        table.server.stop()
        table.service.close()
