"""Running as a systemd service: log lines journald understands, sd_notify, the watchdog, the main loop.

``companion serve`` uses these; nothing here knows the game or the parts.

The main loop (:class:`MainLoop`) runs small jobs one by one on the main thread: the other threads (gpiozero's
callbacks, the camera loop, the web server's workers) only post them. While it turns it feeds systemd's watchdog
(``WATCHDOG=1``), as long as the web server answers when asked inside the process. :func:`run_until_stopped`
runs a daemon until SIGTERM or SIGINT and stops it cleanly, whatever happened.
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from types import FrameType
from typing import Any, Protocol

from companion.errors import CompanionError, ConfigError

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_CONFIG = 2

log = logging.getLogger("companion.serve")

Job = Callable[[], None]

# ---------------------------------------------------------------------------------------------------
# Logging: plain lines on stderr; journald reads the "<N>" priority prefix when it is attached.


_SYSLOG_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}


class JournalFormatter(logging.Formatter):
    """``<6>companion.serve: message`` under systemd, ``12:00:01 INFO companion.serve: message`` elsewhere.

    journald stamps the time itself and turns the ``<N>`` prefix into the entry's priority, so
    ``journalctl -p warning -u companion`` shows only the problems.
    """

    def __init__(self, journal: bool) -> None:
        fmt = "%(name)s: %(message)s" if journal else "%(asctime)s %(levelname)s %(name)s: %(message)s"
        super().__init__(fmt, datefmt="%H:%M:%S")
        self.journal = journal

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        if not self.journal:
            return text
        level = max((lv for lv in _SYSLOG_PRIORITY if lv <= record.levelno), default=logging.DEBUG)
        prefix = f"<{_SYSLOG_PRIORITY[level]}>"
        # Every line of a traceback becomes its own journal entry; give each the priority.
        return "\n".join(prefix + line for line in text.splitlines())


def setup_logging(level: str, stream: Any = None, env: Mapping[str, str] | None = None) -> logging.Handler:
    env = os.environ if env is None else env
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.setFormatter(JournalFormatter(journal=bool(env.get("JOURNAL_STREAM"))))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    # waitress warns about every queued task when the streams use all threads; keep its errors.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    return handler


# ---------------------------------------------------------------------------------------------------
# systemd notification


class Notifier:
    """sd_notify through sdnotify; silent when not started by systemd (no ``NOTIFY_SOCKET``)."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        self._notifier: Any = None
        if env.get("NOTIFY_SOCKET"):
            import sdnotify

            self._notifier = sdnotify.SystemdNotifier()
        self.sent: list[str] = []

    @property
    def active(self) -> bool:
        return self._notifier is not None

    def notify(self, message: str) -> None:
        self.sent.append(message)
        if self._notifier is not None:
            self._notifier.notify(message)


def watchdog_interval(env: Mapping[str, str] | None = None, pid: int | None = None) -> float | None:
    """Seconds between ``WATCHDOG=1`` messages: half of ``WatchdogSec``, or None without a watchdog."""
    env = os.environ if env is None else env
    usec = env.get("WATCHDOG_USEC")
    if not usec:
        return None
    owner = env.get("WATCHDOG_PID")
    if owner and owner.isdigit() and int(owner) != (os.getpid() if pid is None else pid):
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 1e6 / 2 if value > 0 else None


# ---------------------------------------------------------------------------------------------------
# The main loop


class MainLoop:
    """Jobs run one by one on the main thread; the watchdog is fed while the loop turns and the server answers.

    A subclass says how the server is (:meth:`server_healthy`) and what else a turn does (:meth:`on_turn`)."""

    def __init__(self, notifier: Notifier | None = None, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.notifier = notifier if notifier is not None else Notifier()
        self.monotonic = monotonic
        self.inbox: queue.Queue[Job] = queue.Queue()
        self.stop_event = threading.Event()
        self.stop_reason = "stop requested"
        self.healthy = True
        self.watchdog_every: float | None = None
        self.next_ping = 0.0
        self.next_probe = 0.0

    def post(self, job: Job) -> None:
        """Run ``job`` on the main thread (safe from any thread; returns at once)."""
        self.inbox.put(job)

    def request_stop(self, reason: str) -> None:
        self.stop_reason = reason
        self.stop_event.set()

    def run(self, tick: float = 0.5) -> None:
        """Run jobs until ``request_stop``; feed the watchdog while the loop and the server are healthy."""
        self.watchdog_every = watchdog_interval()
        while not self.stop_event.is_set():
            wait = tick
            if self.watchdog_every:
                wait = max(0.0, min(tick, self.next_ping - self.monotonic()))
            self.step(wait)

    def step(self, wait: float = 0.0) -> None:
        """One turn of the main loop: run the next job (waiting up to ``wait`` s for one), then the watchdog."""
        try:
            job = self.inbox.get(timeout=wait) if wait > 0 else self.inbox.get_nowait()
        except queue.Empty:
            job = None
        if job is not None:
            self._run_job(job)
        now = self.monotonic()
        if now >= self.next_probe:
            self.healthy = self.server_healthy()
            self.next_probe = now + min(self.watchdog_every or 10.0, 10.0)
        self.on_turn(now)
        if self.watchdog_every and now >= self.next_ping:
            if self.healthy:
                self.notifier.notify("WATCHDOG=1")
            else:
                log.error(
                    "the web server's loop has stopped; the watchdog is not fed, so systemd will restart the companion"
                )
            self.next_ping = now + self.watchdog_every

    def _run_job(self, job: Job) -> None:
        try:
            job()
        except CompanionError as exc:
            log.warning("%s", exc)
        except Exception:
            log.exception("a job of the main loop failed; the companion carries on")

    def server_healthy(self) -> bool:
        """Whether the server answers (asked inside the process); the watchdog starves when it does not."""
        return True

    def on_turn(self, now: float) -> None:
        """What else a turn of the loop does (``now``: the monotonic clock)."""


class Daemon(Protocol):
    """What :func:`run_until_stopped` runs: a main loop that starts, turns and shuts down."""

    def start(self) -> None: ...

    def run(self) -> None: ...

    def request_stop(self, reason: str) -> None: ...

    def shutdown(self) -> None: ...


def run_until_stopped(daemon: Daemon, prog: str = "companion serve") -> int:
    """Start `daemon` and run its loop until SIGTERM or SIGINT; shut it down whatever happened. The exit code:
    EXIT_OK, EXIT_CONFIG for a wrong setting found at start, EXIT_FAILURE otherwise."""

    def on_signal(signum: int, frame: FrameType | None) -> None:
        daemon.request_stop(signal.Signals(signum).name)

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    code = EXIT_OK
    try:
        daemon.start()
        daemon.run()
    except ConfigError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        code = EXIT_CONFIG
    except CompanionError as exc:
        log.error("%s", exc)
        code = EXIT_FAILURE
    except Exception:
        log.exception("the companion failed")
        code = EXIT_FAILURE
    finally:
        daemon.shutdown()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return code
