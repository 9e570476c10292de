"""Running as a systemd service: log lines journald understands, sd_notify, the watchdog's interval.

``companion serve`` uses these; nothing here knows the game or the parts.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import Any

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
