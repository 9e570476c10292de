"""Serving the app with waitress, in the foreground (`serve`) or in a thread that can be stopped (`ServerThread`).

Every open event stream holds one waitress worker thread, so `threads` must be larger than the
number of phones (the app refuses streams beyond `max_streams` so the API always has threads
left). waitress 3 sends every write at once (`send_bytes` defaults to 1), so events are not held
back in a buffer.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask


def _make_server(app: Flask, host: str, port: int, threads: int) -> Any:
    from waitress.server import create_server

    return create_server(
        app,
        host=host,
        port=port,
        threads=threads,
        channel_timeout=120,
        # Keep reading while a request runs, so a phone that hangs up on its event stream is noticed
        # at once (waitress then offers environ["waitress.client_disconnected"]).
        channel_request_lookahead=4,
        connection_limit=200,
        ident="skeptics-companion",
        clear_untrusted_proxy_headers=True,
    )


def _stop_hub(app: Flask) -> None:
    ctx = app.extensions.get("skeptics_web")
    if ctx is not None:
        ctx.close()


def serve(app: Flask, host: str = "127.0.0.1", port: int = 8080, threads: int = 48) -> None:
    """Serve until interrupted (Ctrl-C / SIGTERM raise out of `run`)."""
    server = _make_server(app, host, port, threads)
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

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = 48) -> None:
        self.app = app
        self._server = _make_server(app, host, port, threads)
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
        for channel in list(server._map.values()):
            try:
                channel.close()
            except OSError:
                pass

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
