"""Serving the app with waitress, in the foreground (`serve`) or in a thread that can be stopped (`ServerThread`).

Every open event stream holds one waitress worker thread, so `threads` must be larger than the
number of phones (the app refuses streams beyond `max_streams` so the API always has threads
left). waitress 3 sends every write at once (`send_bytes` defaults to 1), so events are not held
back in a buffer.

A phone on the table's Wi-Fi must not be able to take the page away from the others
(`Limits`, see docs/web.md, "Security"):

- at most `per_address` connections from one address (a browser opens about 6; the trusted
  proxies of `trusted_proxies` are exempt), the others are closed as soon as they are accepted;
- at most `connections` in all, sized for a Raspberry Pi Zero 2 W; a new connection beyond that
  closes the connection that has been idle longest, so a flood of idle sockets cannot lock out
  the host;
- a request has `header_timeout` seconds to send its headers and `body_timeout` to send its body;
  an idle keep-alive connection is closed after `idle_timeout` (event streams are never idle:
  they have a request under way);
- a body larger than `max_body` is refused with 413 as soon as its headers announce it, before
  any of it is read or stored; a chunked body is cut off at the same size. Bodies never spill to
  a temporary file (`max_body` is below waitress's in-memory buffer).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from flask import Flask

from web.context import context_of

log = logging.getLogger("web.server")


@dataclass(frozen=True)
class Limits:
    """What one connection, one address and one request may take from the server."""

    connections: int = 100  # open connections in all (waitress's connection_limit)
    per_address: int = 16  # open connections from one address
    header_timeout: float = 10.0  # s from a request's first byte to the end of its headers
    body_timeout: float = 30.0  # s from the end of the headers to the end of the body
    idle_timeout: float = 30.0  # s an idle keep-alive connection stays open
    max_body: int = 64 * 1024  # bytes of a request body (the app's MAX_CONTENT_LENGTH is the same)
    max_header: int = 16 * 1024  # bytes of a request line and headers (cookies included)
    check_every: float = 1.0  # s between sweeps for connections past their deadline


ERRORS = {
    400: "the request is not well-formed HTTP; use the companion's own page or a standard HTTP client.",
    413: "the request is too large ({max_body} KB at most); nothing of it was kept.",
    431: "the request's headers are too large ({max_header} KB at most); clear the site's cookies and reload.",
}


def _server_classes() -> tuple[type, type]:
    import json

    from waitress.channel import HTTPChannel
    from waitress.server import TcpWSGIServer
    from waitress.task import ErrorTask

    class JsonErrorTask(ErrorTask):  # type: ignore[misc]
        """waitress's own refusals (too large, malformed) in the app's JSON shape: {"error", "status"}."""

        def execute(self) -> None:
            error = self.request.error
            code = int(error.code)
            limits = self.channel.server.limits
            template = ERRORS.get(code, f"{error.reason}: {error.body}")
            message = template.format(max_body=limits.max_body // 1024, max_header=limits.max_header // 1024)
            body = json.dumps({"error": message, "status": code}).encode()
            self.status = f"{code} {error.reason}"
            self.response_headers.extend(
                [
                    ("Content-Type", "application/json"),
                    ("Cache-Control", "no-store"),
                    ("X-Content-Type-Options", "nosniff"),
                ]
            )
            self.set_close_on_finish()
            self.content_length = len(body)
            self.write(body)

    class GuardedChannel(HTTPChannel):  # type: ignore[misc]
        """A channel that remembers when its unfinished request began."""

        error_task_class = JsonErrorTask
        request_began: float | None = None

        def received(self, data: bytes) -> bool:
            self.server.bytes_in += len(data)
            if self.request is None and data:
                self.request_began = time.monotonic()
            done = super().received(data)
            pending = self.request
            if pending is None:
                self.request_began = None
            return bool(done)

    class GuardedServer(TcpWSGIServer):  # type: ignore[misc]
        """waitress's TCP server with a per-address cap, eviction of idle connections and request deadlines."""

        channel_class = GuardedChannel

        def __init__(self, app: Any, limits: Limits, exempt: Iterable[str], **kw: Any) -> None:
            self.limits = limits
            self.exempt = frozenset(exempt)
            self.refused = 0  # connections closed at once: over the per-address cap or no room
            self.evicted = 0  # idle connections closed to make room
            self.expired = 0  # requests closed for sending their headers or body too slowly
            self.bytes_in = 0  # bytes read from all connections
            self.turns = 0  # turns of the event loop (the watchdog's sign of life)
            self.last_turn = time.monotonic()
            super().__init__(app, **kw)

        def readable(self) -> bool:
            # waitress stops accepting at connection_limit; here accepting goes on, and handle_accept
            # makes room by closing the connection idle longest (or refuses when none is idle).
            now = time.time()
            if now >= self.next_channel_cleanup:  # type: ignore[has-type]  # set by waitress, which is untyped
                self.next_channel_cleanup = now + self.adj.cleanup_interval
                self.maintenance(now)
            return bool(self.accepting)

        def handle_accept(self) -> None:
            try:
                accepted = self.accept()
                if accepted is None:
                    return
                conn, addr = accepted
                self.set_socket_options(conn)
            except OSError:
                return
            addr = self.fix_addr(addr)
            ip = str(addr[0]) if isinstance(addr, tuple) else str(addr)
            channels = list(self.active_channels.values())
            if ip not in self.exempt:
                mine = sum(1 for channel in channels if _ip_of(channel) == ip)
                if mine >= self.limits.per_address:
                    self._refuse(conn)
                    return
            if len(channels) >= self.limits.connections and not self._make_room(channels):
                self._refuse(conn)
                return
            self.channel_class(self, conn, addr, self.adj, map=self._map)

        def _refuse(self, conn: Any) -> None:
            self.refused += 1
            try:
                conn.close()
            except OSError:
                pass

        def _make_room(self, channels: list[Any]) -> bool:
            # Idle: no request being answered and nothing left to send (a response in flight is never cut).
            idle = [c for c in channels if not c.requests and not c.will_close and not c.total_outbufs_len]
            if not idle:
                return False
            oldest = min(idle, key=lambda c: c.last_activity)
            self.evicted += 1
            oldest.handle_close()
            return True

        def maintenance(self, now: float) -> None:
            limits = self.limits
            idle_cutoff = now - limits.idle_timeout
            mono = time.monotonic()
            for channel in list(self.active_channels.values()):
                pending = channel.request
                began = channel.request_began
                if pending is not None and began is not None and not pending.completed:
                    allowed = limits.body_timeout if pending.headers_finished else limits.header_timeout
                    if mono - began > allowed and not channel.requests:
                        self.expired += 1
                        channel.will_close = True
                        continue
                if not channel.requests and pending is None and channel.last_activity < idle_cutoff:
                    channel.will_close = True

        def turned(self) -> None:
            self.turns += 1
            self.last_turn = time.monotonic()

    return GuardedServer, GuardedChannel


def _ip_of(channel: Any) -> str:
    addr = getattr(channel, "addr", None)
    return str(addr[0]) if isinstance(addr, tuple) and addr else str(addr)


def _make_server(app: Flask, host: str, port: int, threads: int, limits: Limits | None = None) -> Any:
    from waitress.adjustments import Adjustments

    limits = limits or Limits()
    ctx = context_of(app)
    exempt = tuple(ctx.settings.trusted_proxies or ()) if ctx is not None else ()
    adj = Adjustments(
        host=host,
        port=port,
        threads=threads,
        channel_timeout=int(max(limits.idle_timeout, limits.header_timeout, limits.body_timeout)),
        cleanup_interval=max(1, int(limits.check_every)),
        # Keep reading while a request runs, so a phone that hangs up on its event stream is noticed
        # at once (waitress then offers environ["waitress.client_disconnected"]).
        channel_request_lookahead=4,
        connection_limit=limits.connections,
        max_request_body_size=limits.max_body,
        max_request_header_size=limits.max_header,
        ident="skeptics-companion",
        # The app reads X-Forwarded-For itself, only from `trusted_proxies` (web.app.ForwardedFor),
        # and removes every forwarded header otherwise.
        clear_untrusted_proxy_headers=False,
    )
    server_class, _ = _server_classes()
    return server_class(app, limits, exempt, adj=adj)


def _stop_hub(app: Flask) -> None:
    ctx = context_of(app)
    if ctx is not None:
        ctx.close()


def serve(
    app: Flask, host: str = "127.0.0.1", port: int = 8080, threads: int = 48, limits: Limits | None = None
) -> None:
    """Serve until interrupted (Ctrl-C / SIGTERM raise out of `run`)."""
    server = _make_server(app, host, port, threads, limits)
    try:
        server.run()
    finally:
        _stop_hub(app)
        server.close()
        server.task_dispatcher.shutdown(timeout=5)


class ServerThread:
    """A waitress server in a background thread: `with ServerThread(app) as srv: srv.url ...`.

    `stop()` ends the event streams first (so their worker threads return), then the loop,
    then closes every connection and the worker threads.
    """

    def __init__(
        self, app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = 48, limits: Limits | None = None
    ) -> None:
        self.app = app
        self._server = _make_server(app, host, port, threads, limits)
        self.host = host
        self.port = int(self._server.effective_port)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"waitress:{self.port}", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def _run(self) -> None:
        from waitress import wasyncore

        server = self._server
        while not self._stopping.is_set():
            wasyncore.loop(timeout=0.05, map=server._map, use_poll=True, count=1)
            server.turned()
        for channel in list(server._map.values()):
            try:
                channel.close()
            except OSError:
                pass

    @property
    def counters(self) -> dict[str, int]:
        """Open connections; refused (per-address cap, no room), evicted (idle, to make room), expired (too slow); bytes read."""
        server = self._server
        return {
            "open": len(server.active_channels),
            "refused": server.refused,
            "evicted": server.evicted,
            "expired": server.expired,
            "bytes_in": server.bytes_in,
        }

    def healthy(self, stalled_after: float = 10.0) -> bool:
        """The server's loop turns (it turns at least 20 times a second) and its worker threads are there.

        This is what the companion's watchdog asks: the process itself, never a request through
        the network, so that phones holding every connection cannot make systemd restart it.
        """
        if self._stopping.is_set() or not self._thread.is_alive():
            return False
        server = self._server
        if time.monotonic() - server.last_turn > stalled_after:
            return False
        return bool(server.task_dispatcher.threads)  # thread numbers; a worker that dies leaves the set

    def stop(self) -> None:
        if self._stopping.is_set():
            return
        _stop_hub(self.app)  # event streams return, freeing their worker threads
        self._server.task_dispatcher.shutdown(timeout=5)  # the loop still runs, so answers are flushed
        self._stopping.set()
        self._thread.join(timeout=5)

    def __enter__(self) -> ServerThread:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
