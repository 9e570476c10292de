"""Automatic backups of the game history, and putting one back, from the host's page.

A backup is a copy of the whole history file made with SQLite's backup API (consistent while a
game goes on), in `DATA_DIR/backups/games-<date>-<time>-<reason>.sqlite3`, readable by the
companion's user only (the history holds each game's seed, which tells the removed room cards):

- at the end of each game (won or lost), in the background;
- once a day while games are played (at the first commit 24 h after the last backup);
- on request (`POST /api/host/backups`), and before a restore (so a restore can be undone);
- the newest `keep` are kept, older ones are deleted.

Restoring replaces the whole history with the backup's, then the last game in it becomes the
current one (the clock hand, the OLED and every phone follow) and the event streams are ended,
so that every phone reconnects and reads the restored game afresh.

Endpoints (host only; POSTs need the page's X-CSRF-Token), in `web.api.backups`:

    GET  /api/host/backups                      {"backups": [{"name", "at", "size", "reason"}], "keep", "folder"}
    POST /api/host/backups {}                   make one now: {"backup": {...}}
    POST /api/host/backups/restore {"name", "confirm": true}
                                                {"restored", "safety_backup", "state"}
"""

from __future__ import annotations

import builtins
import logging
import os
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from web.errors import Refused

log = logging.getLogger("web.backups")

NAME = re.compile(r"^games-(\d{8}-\d{6})(?:-(\d+))?-([a-z-]+)\.sqlite3$")
DAY = 24 * 3600.0


def protect_history(path: str) -> None:
    """The history and its -wal/-shm files: readable by the owner only (they hold the seeds)."""
    if path == ":memory:":
        return
    for name in (path, path + "-wal", path + "-shm"):
        try:
            os.chmod(name, 0o600)
        except OSError:
            pass


class Backups:
    """Makes, lists, prunes and restores backups of one `GameStore`."""

    def __init__(self, store: Any, folder: Path, now: Callable[[], float], keep: int = 7, every: float = DAY) -> None:
        self.store = store
        self.folder = folder
        self._now = now
        self.keep = keep
        self.every = every
        self._lock = threading.Lock()
        self._ended: set[tuple[Any, Any]] = set()  # (game, outcome) already backed up
        self.problem: str | None = None
        self._last = max((item["at"] for item in self.list()), default=None)

    def list(self) -> list[dict[str, Any]]:
        try:
            names = os.listdir(self.folder)
        except OSError:
            return []
        out = []
        for name in names:
            match = NAME.match(name)
            if not match:
                continue
            try:
                info = (self.folder / name).stat()
            except OSError:
                continue
            at = time.mktime(time.strptime(match.group(1), "%Y%m%d-%H%M%S"))
            out.append({"name": name, "at": at, "size": info.st_size, "reason": match.group(3)})
        return sorted(out, key=lambda item: (item["at"], item["name"]), reverse=True)

    def make(self, reason: str) -> dict[str, Any]:
        """A backup now; the oldest beyond `keep` are deleted. Raises HistoryError when it cannot be made."""
        with self._lock:
            self.folder.mkdir(parents=True, exist_ok=True)
            os.chmod(self.folder, 0o700)
            stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self._now()))
            name = f"games-{stamp}-{reason}.sqlite3"
            n = 1
            while (self.folder / name).exists():
                n += 1
                name = f"games-{stamp}-{n}-{reason}.sqlite3"
            partial = self.folder / f".{name}.partial"
            try:
                fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                os.close(fd)
                self.store.backup_to(partial)
                os.chmod(partial, 0o600)
                os.replace(partial, self.folder / name)
            except BaseException:
                partial.unlink(missing_ok=True)
                raise
            self._last = self._now()
            self.problem = None
            for old in self.list()[self.keep :]:
                (self.folder / old["name"]).unlink(missing_ok=True)
            info = next(item for item in self.list() if item["name"] == name)
            log.info("history backup %s (%s)", name, reason)
            return info

    def _in_background(self, reason: str) -> None:
        def run() -> None:
            try:
                self.make(reason)
            except (CompanionError, OSError) as exc:
                self.problem = f"the automatic backup of the history failed ({exc}); the history itself is intact."
                log.error("%s", self.problem)

        threading.Thread(target=run, name=f"backup-{reason}", daemon=True).start()

    def on_commit(self, records: builtins.list[dict[str, Any]], state: dict[str, Any]) -> None:
        """A service listener: a backup when a game ends, and once a day while games are played."""
        outcome = state.get("outcome")
        if outcome is not None:
            key = (state.get("game_id"), outcome)
            if key not in self._ended:
                self._ended.add(key)
                if records:  # a game that ends now, not one that is loaded already ended
                    self._in_background("game-end")
                    return
        if records and (self._last is None or self._now() - self._last >= self.every):
            self._last = self._now()  # one at a time
            self._in_background("daily")

    def restore(self, name: str, service: Any, hub: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """Put back the backup `name`: a safety backup first, then the restore, then the last game resumed."""
        known = {item["name"] for item in self.list()}
        if name not in known:
            raise Refused(404, f"no backup called {name!r}; the list is at GET /api/host/backups.")
        safety = self.make("before-restore")
        self.store.restore_from(self.folder / name)
        state = service.resume_last() or {}
        hub.drop_streams()
        return safety, state
