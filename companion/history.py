"""The game history: every accepted command, with the events it caused, in an SQLite file.

The file is the truth about every game played at the table. It is written so that a power
cut never loses an accepted command and never leaves half of one:

- the journal is SQLite's write-ahead log with ``synchronous=FULL``, so when a commit
  returns the command is on disk;
- a command and the events it caused are written in ONE transaction;
- the state of a game is never stored as the truth: it is rebuilt by replaying the
  commands through the rules engine (:func:`replay_game`);
- event ids come from ``INTEGER PRIMARY KEY AUTOINCREMENT`` and only ever grow, also
  across undo and restarts, so a phone that remembers the last event it saw can ask for
  the ones after it.

Undo deletes the last command (and the events it caused) and appends an ``undone`` event
that carries the command and its events, so nothing is lost from the record.

The store speaks plain JSON dicts (setup, command, events); the rules engine is only
needed by :func:`replay_game`.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from companion.errors import CompanionError, HistoryError

if TYPE_CHECKING:
    from companion.games.base import Engine, GameModule

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "CommandRecord",
    "GameInfo",
    "GameStore",
    "HistoryError",
    "ReplayError",
    "StaleGameError",
    "replay_game",
]

#: Marks an SQLite file as a companion history ("SKHI"); any other non-empty file is refused.
APPLICATION_ID = 0x534B4849
#: Version of the tables below, kept in ``PRAGMA user_version``. An older file is brought up to it when it is
#: opened (or restored), by the steps in ``_MIGRATIONS``, in one transaction: its games stay as they were.
SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE games (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    name     TEXT,
    setup    TEXT NOT NULL,
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    status   TEXT NOT NULL DEFAULT 'playing',
    used     INTEGER NOT NULL DEFAULT 0  -- grows each time a game is played or loaded: the last one is on top
);
CREATE TABLE commands (
    game     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    command  TEXT NOT NULL,
    source   TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE TABLE events (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    game     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    kind     TEXT NOT NULL DEFAULT 'command',
    event    TEXT NOT NULL
);
CREATE INDEX events_by_game ON events (game, id);
CREATE INDEX events_by_seq ON events (game, seq, kind);
"""

# version -> the statements that bring a file of the version before up to it (a new file: _SCHEMA, then all of them)
_MIGRATIONS: Mapping[int, str] = {
    # 2: the games record and the dice's luck (companion.record): one record per game, worked out by replaying it
    2: """
CREATE TABLE records (
    game     INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    record   TEXT NOT NULL  -- JSON, made again when the game's commands change
);
""",
}

T = TypeVar("T")
WRITE_BACK_EVERY = 5.0  # seconds between tries to write a history kept in memory back to its file
# SQLite's primary result codes for "the file cannot be read or written now", not "the file is damaged"
_NOT_NOW = (
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_PERM,
)


def cannot_write_now(exc: BaseException) -> bool:
    """True when `exc` says the disk is full or the file or its folder cannot be written (not damage)."""
    if isinstance(exc, OSError):
        return True
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.OperationalError) and isinstance(code, int) and (code & 0xFF) in _NOT_NOW


def _reason(exc: BaseException) -> str:
    return exc.strerror or str(exc) if isinstance(exc, OSError) else str(exc)


class HistoryUnavailable(HistoryError):
    """The history file cannot be read or written now (a full disk, a read-only folder); it is not damaged."""


_MOVE_ASIDE = "Move it aside (rename it); the companion will then start a new history file"


@dataclass(frozen=True)
class GameInfo:
    """One saved game as listed by :meth:`GameStore.list_games`."""

    id: int
    name: str | None
    setup: dict[str, Any]
    created: float
    updated: float
    status: str
    commands: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "setup": self.setup,
            "created": self.created,
            "updated": self.updated,
            "status": self.status,
            "commands": self.commands,
        }


@dataclass(frozen=True)
class CommandRecord:
    """One accepted command of a game's history (``command`` is the engine's ``Command.to_dict()``)."""

    seq: int
    command: dict[str, Any]
    source: str
    at: float


class StaleGameError(HistoryError):
    """The game was changed in the file by another program since this one last read it."""


class ReplayError(HistoryError):
    """A stored command that the rules engine no longer accepts when the game is replayed."""

    def __init__(self, message: str, *, game_id: int, seq: int, command: Mapping[str, Any]) -> None:
        super().__init__(message)
        self.game_id = game_id
        self.seq = seq
        self.command = dict(command)


# One encoder for every record (json.dumps with these options makes a new one each call; a command writes a few).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _dumps(value: Any) -> str:
    """A mapping as the JSON text the history keeps (keys sorted, so the same record is the same text)."""
    return _ENCODER.encode(value if type(value) is dict else dict(value))


class GameStore:
    """Saved games in one SQLite file. Safe to share between threads (one connection, one lock).

    >>> store = GameStore(":memory:")
    >>> gid = store.create_game({"players": 1}, name="test")
    >>> store.append(gid, 1, {"name": "end-round", "args": {}}, [{"type": "round_ended"}])[0]["seq"]
    1
    """

    def __init__(self, path: str | os.PathLike[str], *, now: Callable[[], float] = time.time) -> None:
        self.path = str(path)
        self._now = now
        self._lock = threading.RLock()
        self._closed = False
        self._pending: str | None = None  # why the history is kept in memory instead of in its file
        self._copied = False  # the memory holds everything the file held (so it may be written back over it)
        self._tried = 0.0
        self._stopped = threading.Event()  # set at close: the write-back thread ends
        self._db = self._open()

    # -- opening -------------------------------------------------------------------------

    def _where(self) -> str:
        if self._pending is not None:
            return f"the copy in memory of the history file {self.path}"
        return "the in-memory history" if self.path == ":memory:" else f"the history file {self.path}"

    def _open(self) -> sqlite3.Connection:
        path = self.path
        if path != ":memory:":
            target = Path(path)
            if target.is_dir():
                raise HistoryError(f"{path} is a directory, not a history file. Give the path of a file (--db PATH).")
            if target.exists():
                self._check_header(target)
            else:
                try:
                    target.parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise HistoryUnavailable(
                        f"cannot create the folder for the history file {path}: {exc.strerror}. "
                        "Choose a writable place with --db PATH or COMPANION_DATA_DIR."
                    ) from exc
        try:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10.0)
        except sqlite3.Error as exc:
            raise HistoryUnavailable(
                f"cannot open {self._where()}: {exc}. Check that the folder exists and is writable."
            ) from exc
        try:
            self._prepare(db)
        except HistoryError:
            db.close()
            raise
        except sqlite3.OperationalError as exc:
            db.close()
            raise (HistoryUnavailable if cannot_write_now(exc) else HistoryError)(
                f"cannot use {self._where()} ({exc}). Check that the file and its folder are writable by this "
                "user and that no other program holds it locked."
            ) from exc
        except sqlite3.DatabaseError as exc:
            db.close()
            raise HistoryError(
                f"{self._where()} is damaged or is not a companion history ({exc}). {_MOVE_ASIDE}."
            ) from exc
        return db

    def _check_header(self, target: Path) -> None:
        try:
            with target.open("rb") as handle:
                head = handle.read(100)
        except OSError as exc:
            raise HistoryUnavailable(
                f"cannot read the history file {target}: {exc.strerror}. Check its permissions."
            ) from exc
        if not head:
            return  # an empty file: a new history is made in it
        if not head.startswith(b"SQLite format 3\x00"):
            raise HistoryError(f"{target} is not a companion history (not an SQLite database). {_MOVE_ASIDE}.")
        if len(head) < 100:
            raise HistoryError(f"the history file {target} is truncated ({len(head)} bytes). {_MOVE_ASIDE}.")

    def _prepare(self, db: sqlite3.Connection) -> None:
        db.execute("PRAGMA busy_timeout = 10000")
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id != APPLICATION_ID and (tables or version):
            raise HistoryError(
                f"{self._where()} is an SQLite database of another program, not a companion history. {_MOVE_ASIDE}."
            )
        if version > SCHEMA_VERSION:
            raise HistoryError(
                f"{self._where()} was written by a newer companion (history version {version}; this one reads "
                f"up to {SCHEMA_VERSION}). Update the companion, or move the file aside to start a new history."
            )
        if self.path != ":memory:":
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise HistoryError(
                    f"cannot switch {self._where()} to write-ahead logging (got {mode!r}). "
                    "Put the file on a local disk (not a network share)."
                )
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        if version == 0 and app_id != APPLICATION_ID:
            self._create_schema(db)
        else:
            self._migrate(db)
        problems = [row[0] for row in db.execute("PRAGMA quick_check").fetchall()]
        if problems != ["ok"]:
            raise HistoryError(f"{self._where()} is damaged ({'; '.join(problems[:3])}). {_MOVE_ASIDE}.")
        missing = {"games", "commands", "events"} - {
            row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if missing:
            raise HistoryError(f"{self._where()} lacks the tables {', '.join(sorted(missing))}. {_MOVE_ASIDE}.")

    def _create_schema(self, db: sqlite3.Connection) -> None:
        with self._transaction(db):
            self._run(db, [_SCHEMA, *(_MIGRATIONS[step] for step in range(2, SCHEMA_VERSION + 1))])
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @staticmethod
    def _run(db: sqlite3.Connection, scripts: Sequence[str]) -> None:
        for script in scripts:
            for statement in script.split(";"):
                if statement.strip():
                    db.execute(statement)

    def _migrate(self, db: sqlite3.Connection) -> None:
        """Bring a file written by an older companion up to SCHEMA_VERSION, one version at a time, all in one
        transaction (a power cut leaves it as it was)."""
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version >= SCHEMA_VERSION:
            return
        with self._transaction(db):
            self._run(db, [_MIGRATIONS[step] for step in range(version + 1, SCHEMA_VERSION + 1)])
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @staticmethod
    @contextmanager
    def _transaction(db: sqlite3.Connection) -> Iterator[None]:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite rolled back by itself (a full disk); the first error is the one to tell
            raise
        db.execute("COMMIT")

    def _write(self, what: str, body: Callable[[sqlite3.Connection], T]) -> T:
        """``body(db)`` in one write transaction; any SQLite failure becomes a HistoryError, nothing written.

        When the file cannot be written now (a full disk, a read-only folder), the history as it stands is
        copied into memory and ``body`` runs there: the table plays on, :attr:`problem` says so, and the copy
        is written back to the file (:meth:`write_back`) as soon as the file takes it.
        """
        with self._lock:
            db = self._connection()
            try:
                with self._transaction(db):
                    result = body(db)
            except CompanionError:
                raise
            except sqlite3.Error as exc:
                if not (self._pending is None and self.path != ":memory:" and cannot_write_now(exc)):
                    raise HistoryError(
                        f"could not {what} in {self._where()}: {exc}. Nothing was written; "
                        "check the disk (space, permissions) and try again."
                    ) from exc
                self._to_memory(exc)
                return self._write(what, body)
            if self._pending is not None:
                self._try_write_back()
            return result

    # -- when the file cannot be written now ------------------------------------------------

    @property
    def problem(self) -> str | None:
        """What the host must know while the history is kept in memory (None when it is in its file)."""
        if self._pending is None:
            return None
        name = Path(self.path).name
        if not self._copied:
            return (
                f"the game history {name} could not be read ({self._pending}); it is kept as it is, and "
                "tonight's games are kept in memory only. Free space on the data disk or make its folder "
                "writable, then restart the companion between games; tonight's games are lost at that restart."
            )
        return (
            f"the game history {name} cannot be written now ({self._pending}): the data disk is full or its "
            "folder is read-only. It is kept as it is; the games go on in memory and are written back to it "
            f"by themselves within {WRITE_BACK_EVERY:g} s of space being free. Free space on the data disk, "
            "and do not stop the companion until this message has gone."
        )

    def _to_memory(self, reason: BaseException) -> None:
        """Go on in memory with a copy of everything the file holds (the file stays as it is)."""
        memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self._db.backup(memory)
        self._db.close()
        self._db = memory
        self._pending = _reason(reason)
        self._copied = True
        self._tried = time.monotonic()
        self._keep_trying()

    def _keep_trying(self) -> None:
        """Try to write the copy back every WRITE_BACK_EVERY s until it is written (or the store closes)."""

        def retry() -> None:
            while not self._stopped.wait(WRITE_BACK_EVERY):
                if self._closed or self._pending is None or self.write_back():
                    return

        threading.Thread(target=retry, name="history-write-back", daemon=True).start()

    def _try_write_back(self) -> None:
        if time.monotonic() - self._tried >= WRITE_BACK_EVERY:
            self.write_back()

    def write_back(self) -> bool:
        """Write the history kept in memory back to its file; True when the file holds it all again.

        The copy in memory is the file's content plus what was played since, so it replaces the file's
        content in one SQLite backup (a transaction: on a still full disk the file stays as it was).
        """
        with self._lock:
            if self._pending is None or not self._copied or self._closed:
                return False
            self._tried = time.monotonic()
            try:
                target = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
            except sqlite3.Error:
                return False
            try:
                self._db.backup(target)
                self._prepare(target)
            except (sqlite3.Error, HistoryError) as exc:
                target.close()
                self._pending = _reason(exc)
                return False
            self._db.close()
            self._db = target
            self._pending = None
            return True

    @classmethod
    def kept_in_memory(
        cls, path: str | os.PathLike[str], reason: BaseException, *, now: Callable[[], float] = time.time
    ) -> GameStore:
        """The history at `path` copied into memory when its file cannot be opened for writing now.

        The file is only read (never changed); when even reading fails, the games start afresh in memory
        and are not written back over the file (its games would be lost).
        """
        store = cls(":memory:", now=now)
        store.path = str(path)
        store._pending = _reason(reason)
        store._tried = time.monotonic()
        target = Path(path)
        if not target.exists() or target.stat().st_size == 0:
            store._copied = True  # nothing to keep: what is played is written to the new file when it can be
            store._keep_trying()
            return store
        wal = Path(f"{target}-wal")
        # immutable=1 reads the file without the -shm (which a full disk or a read-only folder cannot give);
        # it is right only when no -wal holds commands not yet in the file
        query = "mode=ro" if wal.exists() and wal.stat().st_size > 0 else "immutable=1"
        try:
            source = sqlite3.connect(f"{target.resolve().as_uri()}?{query}", uri=True)
            try:
                ok = [row[0] for row in source.execute("PRAGMA quick_check").fetchall()] == ["ok"]
                if ok:
                    memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
                    source.backup(memory)
                    store._migrate(memory)  # a file of an older companion: its copy is brought up to date
                    store._db.close()
                    store._db = memory
                    store._copied = True
                    store._keep_trying()
            finally:
                source.close()
        except sqlite3.Error as exc:
            store._pending = f"{store._pending}; {_reason(exc)}"
        return store

    @contextmanager
    def _read(self, what: str) -> Iterator[sqlite3.Connection]:
        with self._lock:
            db = self._connection()
            try:
                yield db
            except sqlite3.Error as exc:
                raise HistoryError(
                    f"could not {what} from {self._where()}: {exc}. {_MOVE_ASIDE} if this persists."
                ) from exc

    def _connection(self) -> sqlite3.Connection:
        if self._closed:
            raise HistoryError(f"{self._where()} is closed. Open a new GameStore.")
        return self._db

    # -- games -----------------------------------------------------------------------------

    def create_game(
        self,
        setup: Mapping[str, Any],
        *,
        name: str | None = None,
        events: Sequence[Mapping[str, Any]] = (),
        at: float | None = None,
    ) -> int:
        """Save a new game (its setup as JSON) and return its id; ``events`` are stored with seq 0."""
        when = self._now() if at is None else at

        def write(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "INSERT INTO games (name, setup, created, updated, status, used)"
                " VALUES (?, ?, ?, ?, 'playing', (SELECT coalesce(max(used), 0) + 1 FROM games))",
                (name, _dumps(setup), when, when),
            )
            game_id = int(cursor.lastrowid or 0)
            for event in events:
                db.execute(
                    "INSERT INTO events (game, seq, kind, event) VALUES (?, 0, 'command', ?)",
                    (game_id, _dumps(event)),
                )
            return game_id

        return self._write("save the new game", write)

    def _info(self, row: Sequence[Any]) -> GameInfo:
        return GameInfo(
            id=int(row[0]),
            name=row[1],
            setup=json.loads(row[2]),
            created=float(row[3]),
            updated=float(row[4]),
            status=str(row[5]),
            commands=int(row[6]),
        )

    _INFO_SQL = (
        "SELECT g.id, g.name, g.setup, g.created, g.updated, g.status,"
        " (SELECT count(*) FROM commands c WHERE c.game = g.id) FROM games g"
    )

    def list_games(self) -> list[GameInfo]:
        """Every saved game, the most recently played first."""
        with self._read("list the games") as db:
            rows = db.execute(self._INFO_SQL + " ORDER BY g.used DESC, g.id DESC").fetchall()
        return [self._info(row) for row in rows]

    def game(self, game_id: int) -> GameInfo:
        """One saved game; HistoryError if there is none with that id."""
        with self._read("read the game") as db:
            row = db.execute(self._INFO_SQL + " WHERE g.id = ?", (game_id,)).fetchone()
        if row is None:
            raise HistoryError(
                f"there is no game {game_id} in {self._where()}. `companion game list` shows the saved games."
            )
        return self._info(row)

    def last_game_id(self) -> int | None:
        """The game played (or started, or loaded) most recently, or None in an empty history."""
        with self._read("find the last game") as db:
            row = db.execute("SELECT id FROM games ORDER BY used DESC, id DESC LIMIT 1").fetchone()
        return None if row is None else int(row[0])

    def touch(self, game_id: int, *, at: float | None = None) -> None:
        """Mark a game as the most recently used one (what :meth:`last_game_id` returns)."""
        when = self._now() if at is None else at

        def write(db: sqlite3.Connection) -> None:
            if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise HistoryError(f"there is no game {game_id} in {self._where()}.")
            self._update_game(db, game_id, when, None)

        self._write("mark the game as current", write)

    # -- commands and events --------------------------------------------------------------

    def commands(self, game_id: int) -> list[CommandRecord]:
        """The accepted commands of a game in order (seq 1, 2, ...)."""
        with self._read("read the commands") as db:
            rows = db.execute(
                "SELECT seq, command, source, at FROM commands WHERE game = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [CommandRecord(int(seq), json.loads(text), str(source), float(at)) for seq, text, source, at in rows]

    def last_command(self, game_id: int) -> tuple[int, float | None]:
        """How many commands a game has and when the last one was played (None without any): what changes when
        the game does (an undo and another command give a new time)."""
        with self._read("read the commands") as db:
            row = db.execute(
                "SELECT count(*), (SELECT at FROM commands WHERE game = ? ORDER BY seq DESC LIMIT 1) FROM commands"
                " WHERE game = ?",
                (game_id, game_id),
            ).fetchone()
        return int(row[0]), None if row[1] is None else float(row[1])

    def command_count(self, game_id: int) -> int:
        with self._read("count the commands") as db:
            return int(db.execute("SELECT count(*) FROM commands WHERE game = ?", (game_id,)).fetchone()[0])

    def _check_seq(self, db: sqlite3.Connection, game_id: int, expected_last: int) -> None:
        row = db.execute(  # one statement: it runs in every command's transaction
            "SELECT (SELECT coalesce(max(seq), 0) FROM commands WHERE game = ?), (SELECT 1 FROM games WHERE id = ?)",
            (game_id, game_id),
        ).fetchone()
        if row[1] is None:
            raise HistoryError(f"there is no game {game_id} in {self._where()}.")
        if int(row[0]) != expected_last:
            raise StaleGameError(
                f"game {game_id} in {self._where()} was changed by another program "
                f"(it has {row[0]} commands, this one expected {expected_last}). Reload the game and try again."
            )

    def append(
        self,
        game_id: int,
        seq: int,
        command: Mapping[str, Any],
        events: Sequence[Mapping[str, Any]],
        *,
        source: str = "host",
        at: float | None = None,
        status: str | None = None,
    ) -> list[dict[str, Any]]:
        """Append command number ``seq`` (1-based) with its events in one transaction.

        Returns the event records: each event plus ``"id"`` and ``"seq"``. Raises
        :class:`StaleGameError` if the game does not have exactly ``seq - 1`` commands.
        """
        when = self._now() if at is None else at

        def write(db: sqlite3.Connection) -> list[dict[str, Any]]:
            records: list[dict[str, Any]] = []
            self._check_seq(db, game_id, seq - 1)
            db.execute(
                "INSERT INTO commands (game, seq, command, source, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, _dumps(command), source, when),
            )
            for event in events:
                cursor = db.execute(
                    "INSERT INTO events (game, seq, kind, event) VALUES (?, ?, 'command', ?)",
                    (game_id, seq, _dumps(event)),
                )
                records.append({**event, "id": int(cursor.lastrowid or 0), "seq": seq})
            self._update_game(db, game_id, when, status)
            return records

        return self._write("save the command", write)

    def undo(
        self,
        game_id: int,
        seq: int,
        *,
        source: str = "host",
        at: float | None = None,
        status: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Take back command ``seq`` (it must be the last one); returns the ``undone`` event record.

        The command and its events are deleted and one ``undone`` event is appended that
        carries them (``command``, ``events``), so the record of what happened is kept.
        """
        when = self._now() if at is None else at

        def write(db: sqlite3.Connection) -> dict[str, Any]:
            self._check_seq(db, game_id, seq)
            row = db.execute("SELECT command FROM commands WHERE game = ? AND seq = ?", (game_id, seq)).fetchone()
            if row is None:
                raise HistoryError(f"game {game_id} has no command to undo.")
            old_events = [
                json.loads(text)
                for (text,) in db.execute(
                    "SELECT event FROM events WHERE game = ? AND seq = ? AND kind = 'command' ORDER BY id",
                    (game_id, seq),
                )
            ]
            db.execute("DELETE FROM events WHERE game = ? AND seq = ? AND kind = 'command'", (game_id, seq))
            db.execute("DELETE FROM commands WHERE game = ? AND seq = ?", (game_id, seq))
            event: dict[str, Any] = {
                "type": "undone",
                "command": json.loads(row[0]),
                "events": old_events,
                "source": source,
                **(extra or {}),
            }
            cursor = db.execute(
                "INSERT INTO events (game, seq, kind, event) VALUES (?, ?, 'undo', ?)",
                (game_id, seq, _dumps(event)),
            )
            self._update_game(db, game_id, when, status)
            return {**event, "id": int(cursor.lastrowid or 0), "seq": seq}

        return self._write("undo the last command", write)

    def _update_game(self, db: sqlite3.Connection, game_id: int, when: float, status: str | None) -> None:
        used = "(SELECT max(used) + 1 FROM games)"
        if status is None:
            db.execute(f"UPDATE games SET updated = ?, used = {used} WHERE id = ?", (when, game_id))
        else:
            db.execute(f"UPDATE games SET updated = ?, status = ?, used = {used} WHERE id = ?", (when, status, game_id))

    def events(self, game_id: int, *, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """Event records of a game with an id greater than ``after``, oldest first."""
        sql = "SELECT id, seq, event FROM events WHERE game = ? AND id > ? ORDER BY id"
        params: tuple[Any, ...] = (game_id, after)
        if limit is not None:
            sql += " LIMIT ?"
            params += (limit,)
        with self._read("read the events") as db:
            rows = db.execute(sql, params).fetchall()
        return [{**json.loads(text), "id": int(eid), "seq": int(seq)} for eid, seq, text in rows]

    def command_events(self, game_id: int) -> dict[int, list[dict[str, Any]]]:
        """The events each current command caused, by seq (undo records left out)."""
        with self._read("read the events") as db:
            rows = db.execute(
                "SELECT seq, event FROM events WHERE game = ? AND kind = 'command' AND seq >= 1 ORDER BY id",
                (game_id,),
            ).fetchall()
        result: dict[int, list[dict[str, Any]]] = {}
        for seq, text in rows:
            result.setdefault(int(seq), []).append(json.loads(text))
        return result

    def events_per_command(self, game_id: int, count: int) -> list[list[dict[str, Any]]]:
        """The stored events of each of a game's first `count` commands, in order (seq 1 to `count`; an empty list
        for one that caused none): what the game module's read_stored and replay are handed."""
        told = self.command_events(game_id)
        return [told.get(seq, []) for seq in range(1, count + 1)]

    def last_event_id(self, game_id: int | None = None) -> int:
        """The greatest event id (of one game, or of the whole file); 0 if there is none."""
        with self._read("read the events") as db:
            if game_id is None:
                row = db.execute("SELECT coalesce(max(id), 0) FROM events").fetchone()
            else:
                row = db.execute("SELECT coalesce(max(id), 0) FROM events WHERE game = ?", (game_id,)).fetchone()
        return int(row[0])

    # -- records (companion.record) -------------------------------------------------------------

    def record(self, game_id: int) -> dict[str, Any] | None:
        """The stored record of a game (companion.record), or None when none was made yet."""
        with self._read("read the game's record") as db:
            row = db.execute("SELECT record FROM records WHERE game = ?", (game_id,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def save_record(self, game_id: int, record: Mapping[str, Any]) -> None:
        """Keep a game's record (replacing the one before); the game itself is not touched."""
        text = _dumps(record)

        def write(db: sqlite3.Connection) -> None:
            db.execute("INSERT OR REPLACE INTO records (game, record) VALUES (?, ?)", (game_id, text))

        self._write("save the game's record", write)

    # -- backups ---------------------------------------------------------------------------

    def backup_to(self, target: str | os.PathLike[str]) -> None:
        """Copy the whole history into the file `target` with SQLite's backup API (consistent while games go on)."""
        with self._read("make a backup"):
            try:
                dest = sqlite3.connect(os.fspath(target))
            except sqlite3.Error as exc:
                raise HistoryError(
                    f"cannot create the backup {target}: {exc}. Check the folder and free space."
                ) from exc
            try:
                self._db.backup(dest)
                dest.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
            finally:
                dest.close()

    def restore_from(self, source: str | os.PathLike[str]) -> None:
        """Replace the whole history with the backup `source` (checked first: a damaged backup changes nothing)."""
        self._check_header(Path(source))
        try:
            src = sqlite3.connect(Path(source).resolve().as_uri() + "?mode=ro", uri=True)
        except sqlite3.Error as exc:
            raise HistoryError(f"cannot open the backup {source}: {exc}.") from exc
        try:
            app_id = src.execute("PRAGMA application_id").fetchone()[0]
            problems = [row[0] for row in src.execute("PRAGMA quick_check").fetchall()]
            if app_id != APPLICATION_ID or problems != ["ok"]:
                raise HistoryError(f"the backup {source} is damaged or not a companion history; nothing was restored.")
            with self._lock:
                src.backup(self._connection())
                self._migrate(self._connection())  # a backup made by an older companion
        except sqlite3.Error as exc:
            raise HistoryError(
                f"could not restore {source}: {exc}. The history is as it was; try another backup."
            ) from exc
        finally:
            src.close()

    # -- closing ---------------------------------------------------------------------------

    def close(self) -> None:
        self._stopped.set()
        with self._lock:
            if self._pending is not None:
                self.write_back()  # the last chance for the games kept in memory
            if not self._closed:
                self._closed = True
                self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"GameStore({self.path!r})"


def open_history(path: str | os.PathLike[str], *, stamp: str) -> tuple[GameStore, str | None]:
    """The history at ``path``, or, when it cannot be opened, a new one beside the damaged file kept as it was.

    The damaged file (with its -wal and -shm) is renamed ``NAME.damaged-STAMP``, byte for byte, so that a
    backup can be restored or the file examined; the table goes on with a new history. If even that fails,
    the games are kept in memory until the next start. Returns the store and, when something was wrong, the
    message for the log and the page (None when the file opened).
    """
    try:
        return GameStore(path), None
    except HistoryUnavailable as exc:
        # a full disk or a read-only folder: the file is not damaged, so it stays where it is
        store = GameStore.kept_in_memory(path, exc.__cause__ or exc)
        return store, store.problem
    except HistoryError as exc:
        problem = exc
    target = Path(path)
    kept = target.with_name(f"{target.name}.damaged-{stamp}")
    try:
        for suffix in ("", "-wal", "-shm"):
            if Path(f"{target}{suffix}").exists():
                os.replace(f"{target}{suffix}", f"{kept}{suffix}")
        store = GameStore(target)
        where = f"it is kept, untouched, as {kept.name}, and a new history was started"
    except (OSError, HistoryError) as again:
        store = GameStore(":memory:")
        where = (
            f"it could not be moved aside ({again}); this evening's games are kept in memory only "
            "until the companion restarts"
        )
    return store, (
        f"the game history could not be opened: {problem} So that the table still works, {where}. "
        "Start a new game, or restore a backup (Host tab, backups)."
    )


def replay_game(store: GameStore, game_id: int, packs: object, module: GameModule | None = None) -> Engine:
    """Rebuild a game from its setup and commands through its rules engine (its game module's, found from the
    setup's rules when no module is given).

    A stored command the engine refuses (the packs were edited since, or the file was
    changed by hand) raises :class:`ReplayError` naming the game, the command and why.
    """
    from companion.games.base import module_for, rules_of

    info = store.game(game_id)
    if module is None:
        module = module_for(rules_of(info.setup))
    try:
        game = module.new(module.setup_from_dict(info.setup), packs)
    except CompanionError as exc:
        raise HistoryError(
            f"game {game_id} in {store.path} cannot be set up again: {exc}. The packs may have been edited "
            "since it was started; put them back, or start a new game."
        ) from exc
    records = list(store.commands(game_id))
    commands = []
    for record in records:
        try:
            commands.append(module.command_from_dict(record.command))
        except CompanionError as exc:
            raise _replay_error(store, game_id, record, exc) from exc
    stored = store.events_per_command(game_id, len(records))  # what each caused when played: some readings tell
    commands = list(module.read_stored(game, commands, stored))  # a module may push some itself (an asking reading)
    for record, command in zip(records[game.played :], commands, strict=True):
        try:
            game.push(command)
        except CompanionError as exc:
            raise _replay_error(store, game_id, record, exc) from exc
    return game


def _replay_error(store: GameStore, game_id: int, record: Any, exc: Exception) -> ReplayError:
    text = _command_text(record.command)
    return ReplayError(
        f"game {game_id} in {store.path} cannot be replayed: command {record.seq} `{text}` is no longer "
        f"accepted ({exc}). The packs were probably edited since the game was played: put them back as "
        "they were, or start a new game (the old one stays in the file).",
        game_id=game_id,
        seq=record.seq,
        command=record.command,
    )


def _command_text(command: Mapping[str, Any]) -> str:
    args = command.get("args") or {}
    parts = [str(command.get("name", "?"))] + [f"{key}={value}" for key, value in dict(args).items()]
    return " ".join(parts)
