"""Benchmark of the phone view: first-load size, the state endpoint, and the Ghost Hour fan-out.

    uv run python benchmarks/bench_web.py [--rounds 7] [--streams 20] [--requests 300]

Everything runs for real: the GameService on an SQLite file, the Flask app on waitress on
127.0.0.1, Debian's Chromium (headless, via Playwright) for the first load.

1. First load: a fresh browser opens the join link and waits until the page is live (event stream
   open, map drawn). Two measures: what Chromium says it received (CDP Network, encodedDataLength:
   headers + compressed bodies, for the page's own requests), and what the companion sent for every
   request of that visit, the service worker's included (counted by a WSGI wrapper: headers + body).
   Target: under 60 KB.
2. GET /api/state over one keep-alive connection: median and 90th percentile.
3. The Ghost Hour: 20 event streams are open, one per phone, each from its own loopback address (127.0.7.N); the host POSTs the end of round that strikes XII; the
   time until each stream has read the ghost_hour event. Median over rounds of the time until the
   last (20th) stream has it; then undo and repeat.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.skeptics.packs import load_packs  # noqa: E402
from companion.history import GameStore  # noqa: E402
from companion.service import GameService  # noqa: E402
from web import create_app  # noqa: E402
from web.server import ServerThread  # noqa: E402

JOIN = "BENCH7"
PIN = "2468"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class ByteCounter:
    """WSGI wrapper: bytes the companion sends per path (status line, headers, body)."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app
        self.sent: list[tuple[str, int]] = []
        self.on = False
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        box = [0]

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            box[0] += len(f"HTTP/1.1 {status}\r\n") + sum(len(k) + len(v) + 4 for k, v in headers) + 2
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        body = self.app(environ, start)
        counter = self

        def chunks() -> Iterable[bytes]:
            try:
                for chunk in body:
                    if counter.on:
                        with counter._lock:
                            counter.sent.append((path, len(chunk) + box[0]))
                        box[0] = 0
                    yield chunk
                if counter.on and box[0]:
                    with counter._lock:
                        counter.sent.append((path, box[0]))
            finally:
                close = getattr(body, "close", None)
                if close:
                    close()

        return chunks()


def start(tmp: Path, streams: int) -> tuple[GameService, Any, ServerThread, ByteCounter]:
    service = GameService(GameStore(tmp / "games.sqlite"), load_packs(), rng=random.Random(1))
    service.new_game({"players": 3, "board": "asylum", "ghost": "child", "special_items": 3, "seed": 1})
    app = create_app(service, {"data_dir": tmp, "join_code": JOIN, "host_pin": PIN, "max_streams": streams + 10})
    counter = ByteCounter(app.wsgi_app)
    app.wsgi_app = counter  # type: ignore[method-assign]
    # The streams are 20 phones, each from its own loopback address (ghost_hour_fanout): the server's default caps
    # per address (16 connections, 6 event streams: one phone's tabs) hold, as on a table.
    server = ServerThread(app, threads=streams + 16)
    return service, app, server, counter


def host_session(server: ServerThread) -> tuple[http.client.HTTPConnection, dict[str, str]]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", f"/join?code={JOIN}")
    resp = conn.getresponse()
    resp.read()
    cookie = resp.getheader("Set-Cookie", "").split(";")[0]
    headers = {"Cookie": cookie}
    conn.request("GET", "/api/session", headers=headers)
    resp1 = conn.getresponse()
    csrf = json.loads(resp1.read())["csrf"]
    cookie = (resp1.getheader("Set-Cookie") or cookie).split(";")[0]
    headers = {"Cookie": cookie}
    conn.request(
        "POST",
        "/api/host/login",
        body=json.dumps({"pin": PIN}),
        headers={
            **headers,
            "Content-Type": "application/json",
            "X-CSRF-Token": csrf,
            "Origin": f"http://127.0.0.1:{server.port}",
        },
    )
    resp2 = conn.getresponse()
    resp2.read()
    cookie = (resp2.getheader("Set-Cookie") or cookie).split(";")[0]
    conn.request("GET", "/api/session", headers={"Cookie": cookie})  # signing in gives a new CSRF token
    resp3 = conn.getresponse()
    csrf = json.loads(resp3.read())["csrf"]
    cookie = (resp3.getheader("Set-Cookie") or cookie).split(";")[0]
    return conn, {
        "Cookie": cookie,
        "X-CSRF-Token": csrf,
        "Content-Type": "application/json",
        "Origin": f"http://127.0.0.1:{server.port}",
    }


def first_load(server: ServerThread, counter: ByteCounter) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
        urls: dict[str, str] = {}
        got: dict[str, int] = {}
        cdp.on("Network.requestWillBeSent", lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]))
        cdp.on(
            "Network.dataReceived",
            lambda e: got.__setitem__(e["requestId"], got.get(e["requestId"], 0) + int(e.get("encodedDataLength", 0))),
        )
        finished: dict[str, int] = {}
        cdp.on("Network.loadingFinished", lambda e: finished.__setitem__(e["requestId"], int(e["encodedDataLength"])))
        counter.on = True
        page.goto(f"{server.url}/join?code={JOIN}")
        page.wait_for_url(f"{server.url}/")
        page.wait_for_selector("#conn.on")
        page.wait_for_selector("#map g.room")
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        page.wait_for_timeout(1500)  # let the service worker finish filling its cache
        counter.on = False
        per_url: dict[str, int] = {}
        for rid, url in urls.items():
            size = finished.get(rid, got.get(rid, 0))
            per_url[url.replace(server.url, "")] = per_url.get(url.replace(server.url, ""), 0) + size
        outside = [u for u in urls.values() if not u.startswith(server.url)]
        context.close()
        browser.close()
    served: dict[str, int] = {}
    for path, n in counter.sent:
        served[path] = served.get(path, 0) + n
    return {"chromium": per_url, "served": served, "outside": outside}


def state_timing(server: ServerThread, n: int) -> tuple[list[float], int]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    headers = {"X-Join-Code": JOIN, "Accept-Encoding": "gzip"}
    times = []
    size = 0
    for _ in range(n):
        t0 = time.perf_counter()
        conn.request("GET", "/api/state", headers=headers)
        resp = conn.getresponse()
        body = resp.read()
        times.append(time.perf_counter() - t0)
        size = len(body)
        assert resp.status == 200
    conn.close()
    return times, size


class StreamReader(threading.Thread):
    """One phone's event stream on a raw socket; notes when each ghost_hour event arrives."""

    def __init__(self, port: int, cookie: str, source: str = "127.0.0.1") -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
        self.sock.sendall(
            f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        self.arrivals: dict[int, float] = {}
        self.ready = threading.Event()
        self.changed = threading.Condition()

    def run(self) -> None:
        buf = b""
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    return
                now = time.perf_counter()
                buf += data
                if b"event: state" in buf:
                    self.ready.set()
                while b"\n\n" in buf:
                    msg, buf = buf.split(b"\n\n", 1)
                    if b'"type":"ghost_hour"' in msg and b"event: game" in msg:
                        ident = int(msg.split(b"id: ", 1)[1].split(b"\n", 1)[0])
                        with self.changed:
                            self.arrivals[ident] = now
                            self.changed.notify_all()
        except OSError:
            return

    def wait_for(self, ident: int, timeout: float) -> float | None:
        with self.changed:
            self.changed.wait_for(lambda: ident in self.arrivals, timeout)
            return self.arrivals.get(ident)


def ghost_hour_fanout(
    service: GameService, server: ServerThread, streams: int, rounds: int
) -> list[tuple[float, float]]:
    conn, headers = host_session(server)
    cookie = headers["Cookie"]
    # one phone each, from its own loopback address (127.0.7.N): the server allows 6 streams from one address
    readers = [StreamReader(server.port, cookie, f"127.0.7.{1 + n}") for n in range(streams)]
    for r in readers:
        r.start()
    for r in readers:
        assert r.ready.wait(10), "a stream did not start"
    for _ in range(3):
        service.do("end-round", source="bench")
    out = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        conn.request("POST", "/api/command", body=json.dumps({"command": "end-round"}), headers=headers)
        resp = conn.getresponse()
        body = json.loads(resp.read())
        assert resp.status == 200, body
        ident = next(e for e in body["events"] if e["type"] == "ghost_hour")["id"]
        arrivals = [r.wait_for(ident, 10) for r in readers]
        assert all(a is not None for a in arrivals), "a stream missed the Ghost Hour"
        times = sorted(float(a) - t0 for a in arrivals if a is not None)
        out.append((times[-1], statistics.median(times)))
        conn.request("POST", "/api/undo", body="{}", headers=headers)
        conn.getresponse().read()
    for r in readers:
        r.sock.close()
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--streams", type=int, default=20)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--no-browser", action="store_true", help="skip the first-load measure")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        service, _app, server, counter = start(Path(tmp), args.streams)
        try:
            if not args.no_browser and Path(CHROMIUM).exists():
                load = first_load(server, counter)
                print("first load (fresh browser, join link -> live page):")
                for url, n in sorted(load["chromium"].items(), key=lambda kv: -kv[1]):
                    print(f"  chromium received {n:7d} B  {url}")
                for path, n in sorted(load["served"].items(), key=lambda kv: -kv[1]):
                    print(f"  companion sent     {n:7d} B  {path}")
                total_chromium = sum(load["chromium"].values())
                total_served = sum(load["served"].values())
                print(
                    f"  total received by Chromium (page requests, compressed, with headers): {total_chromium} B"
                    f" = {total_chromium / 1024:.1f} KB"
                )
                print(
                    f"  total sent by the companion (every request of the visit, service worker included): "
                    f"{total_served} B = {total_served / 1024:.1f} KB   target < 60 KB: "
                    f"{'met' if max(total_served, total_chromium) < 60 * 1024 else 'MISSED'}"
                )
                print(f"  requests outside the companion: {len(load['outside'])}")
            times, size = state_timing(server, args.requests)
            q = statistics.quantiles(times, n=10)
            t0 = time.perf_counter()
            for _ in range(args.requests):
                service.state()
            direct = (time.perf_counter() - t0) / args.requests
            print(
                f"GET /api/state x{args.requests} (keep-alive, gzip, {size} B): median {ms(statistics.median(times))}, "
                f"p90 {ms(q[8])}; service.state() alone {ms(direct)} (HTTP overhead x{statistics.median(times) / direct:.0f})"
            )
            fan = ghost_hour_fanout(service, server, args.streams, args.rounds)
            lasts = [a for a, _ in fan]
            medians = [b for _, b in fan]
            print(
                f"Ghost Hour to {args.streams} event streams over {args.rounds} rounds (POST end-round -> event read):"
            )
            print(f"  all {args.streams} reached: median {ms(statistics.median(lasts))}, worst {ms(max(lasts))}")
            print(f"  median stream: median {ms(statistics.median(medians))}")
        finally:
            server.stop()
            service.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
