"""The SQLite game history on its own (plain JSON commands, no rules engine).

What it must guarantee: one transaction per command with its events, event ids that only
grow (also across undo and reopening), several games, resuming the last one, and clear
errors for files that are damaged, foreign, truncated or from a newer version.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from companion.errors import CompanionError, HistoryError
from companion.history import APPLICATION_ID, SCHEMA_VERSION, GameStore, StaleGameError


class Clock:
    """An injected clock: each call is one second later."""

    def __init__(self, start: float = 1000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        self.t += 1.0
        return self.t


def cmd(name: str, **args: str) -> dict[str, object]:
    return {"name": name, "args": dict(args)}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


def test_new_file_is_marked_as_ours_with_wal_and_full_sync(db: Path) -> None:
    with GameStore(db) as store:
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        # 2 = FULL: the WAL is synced on every commit.
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    raw.close()


def test_round_trip_commands_and_events_survive_reopening(db: Path) -> None:
    clock = Clock()
    with GameStore(db, now=clock) as store:
        gid = store.create_game({"players": 3, "board": "asylum"}, name="Friday", events=[{"type": "game_started"}])
        first = store.append(gid, 1, cmd("end-round"), [{"type": "round_ended", "round": 1}], source="host")
        second = store.append(gid, 2, cmd("summon", success="true"), [{"type": "a"}, {"type": "b"}], source="phone")
    with GameStore(db) as store:
        records = store.commands(gid)
        assert [r.seq for r in records] == [1, 2]
        assert records[1].command == cmd("summon", success="true")
        assert records[1].source == "phone"
        assert records[0].at < records[1].at
        events = store.events(gid)
        assert [e["type"] for e in events] == ["game_started", "round_ended", "a", "b"]
        assert [e["id"] for e in events[1:]] == [first[0]["id"], second[0]["id"], second[1]["id"]]
        assert [e["seq"] for e in events] == [0, 1, 2, 2]
        info = store.game(gid)
        assert (info.name, info.setup, info.commands, info.status) == (
            "Friday",
            {"players": 3, "board": "asylum"},
            2,
            "playing",
        )
        assert store.command_events(gid) == {
            1: [{"type": "round_ended", "round": 1}],
            2: [{"type": "a"}, {"type": "b"}],
        }


def test_undo_deletes_the_command_keeps_its_record_and_ids_keep_growing(db: Path) -> None:
    with GameStore(db) as store:
        gid = store.create_game({"players": 1})
        store.append(gid, 1, cmd("end-round"), [{"type": "x"}])
        before = store.last_event_id(gid)
        undone = store.undo(gid, 1, source="button")
        assert undone["type"] == "undone"
        assert undone["command"] == cmd("end-round")
        assert undone["events"] == [{"type": "x"}]
        assert undone["id"] > before
        assert store.commands(gid) == []
        assert store.command_events(gid) == {}
        again = store.append(gid, 1, cmd("end-turn"), [{"type": "y"}])
        assert again[0]["id"] > undone["id"]
    with GameStore(db) as store:
        # Reopening never hands out an id again (AUTOINCREMENT).
        later = store.append(gid, 2, cmd("end-turn"), [{"type": "z"}])
        assert later[0]["id"] > again[0]["id"]
        assert [e["type"] for e in store.events(gid, after=before)] == ["undone", "y", "z"]


def test_the_stored_events_of_each_command_in_order(db: Path) -> None:
    """One list per command, seq 1 first, an empty one for a command that caused nothing; undone commands and
    other games are left out (what replay_game and a box change hand to the game module)."""
    with GameStore(db) as store:
        gid = store.create_game({"players": 2})
        other = store.create_game({"players": 3})
        store.append(gid, 1, cmd("a"), [{"type": "x"}, {"type": "y"}])
        store.append(gid, 2, cmd("b"), [])
        store.append(other, 1, cmd("c"), [{"type": "elsewhere"}])
        store.append(gid, 3, cmd("d"), [{"type": "z"}])
        store.append(gid, 4, cmd("e"), [{"type": "gone"}])
        store.undo(gid, 4, source="button")
        assert store.events_per_command(gid, 3) == [[{"type": "x"}, {"type": "y"}], [], [{"type": "z"}]]
        assert store.events_per_command(gid, 2) == [[{"type": "x"}, {"type": "y"}], []]
        assert store.events_per_command(gid, 0) == []
        assert store.events_per_command(other, 1) == [[{"type": "elsewhere"}]]


def test_append_and_undo_refuse_a_game_changed_by_someone_else(db: Path) -> None:
    with GameStore(db) as one, GameStore(db) as other:
        gid = one.create_game({"players": 2})
        one.append(gid, 1, cmd("end-round"), [])
        other.append(gid, 2, cmd("end-turn"), [])
        with pytest.raises(StaleGameError, match="changed by another program"):
            one.append(gid, 2, cmd("end-round"), [])
        with pytest.raises(StaleGameError):
            one.undo(gid, 1)
        assert [r.command["name"] for r in one.commands(gid)] == ["end-round", "end-turn"]


def test_several_games_and_the_last_one_played(db: Path) -> None:
    clock = Clock()
    with GameStore(db, now=clock) as store:
        assert store.last_game_id() is None
        a = store.create_game({"players": 1}, name="a")
        b = store.create_game({"players": 2}, name="b")
        assert store.last_game_id() == b
        store.append(a, 1, cmd("end-round"), [])
        assert store.last_game_id() == a
        assert [g.name for g in store.list_games()] == ["a", "b"]
        store.touch(b)
        assert store.last_game_id() == b
        store.append(b, 1, cmd("end-turn"), [], status="lost")
        assert store.game(b).status == "lost"
        assert [r.command["name"] for r in store.commands(a)] == ["end-round"]
        assert [r.command["name"] for r in store.commands(b)] == ["end-turn"]


def test_the_last_game_is_found_even_if_the_clock_ran_backwards(db: Path) -> None:
    times = iter([100.0, 200.0, 50.0])
    with GameStore(db, now=lambda: next(times)) as store:
        a = store.create_game({})
        b = store.create_game({})
        store.append(a, 1, cmd("end-round"), [])  # at 50: earlier than b's creation
        assert store.last_game_id() == a
        assert b != a


def test_unknown_game_is_a_clear_error(db: Path) -> None:
    with GameStore(db) as store:
        with pytest.raises(HistoryError, match="no game 42.*companion game list"):
            store.game(42)
        with pytest.raises(HistoryError, match="no game 42"):
            store.append(42, 1, cmd("end-round"), [])


def test_a_failed_write_leaves_nothing_behind(db: Path) -> None:
    with GameStore(db) as store:
        gid = store.create_game({})
        with pytest.raises(TypeError):
            store.append(gid, 1, cmd("end-round"), [{"type": "ok"}, {"type": "bad", "value": object()}])
        assert store.commands(gid) == []
        assert store.events(gid) == []
        store.append(gid, 1, cmd("end-round"), [{"type": "ok"}])
        assert len(store.commands(gid)) == 1


def _write_garbage(path: Path, data: bytes) -> None:
    path.write_bytes(data)


def test_a_file_that_is_not_sqlite_is_refused_with_what_to_do(db: Path) -> None:
    _write_garbage(db, b"These are my holiday notes, not a database.\n" * 50)
    with pytest.raises(HistoryError) as info:
        GameStore(db)
    message = str(info.value)
    assert str(db) in message and "not a companion history" in message and "Move it aside" in message
    assert isinstance(info.value, CompanionError)


def test_a_foreign_sqlite_database_is_refused(db: Path) -> None:
    raw = sqlite3.connect(db)
    raw.execute("CREATE TABLE contacts (name TEXT)")
    raw.commit()
    raw.close()
    with pytest.raises(HistoryError, match="another program"):
        GameStore(db)
    raw = sqlite3.connect(db)
    assert raw.execute("SELECT name FROM sqlite_master").fetchall() == [("contacts",)]  # left untouched
    raw.close()


def test_a_newer_history_version_is_refused(db: Path) -> None:
    GameStore(db).close()
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.commit()
    raw.close()
    with pytest.raises(HistoryError, match=f"newer companion.*version {SCHEMA_VERSION + 1}.*Update"):
        GameStore(db)


def _filled(db: Path, commands: int = 120) -> None:
    with GameStore(db) as store:
        gid = store.create_game({"players": 4})
        for seq in range(1, commands + 1):
            store.append(gid, seq, cmd("end-turn", note="x" * 600), [{"type": "turn_ended", "player": seq % 4}])
    # Fold the WAL into the main file so the damage below hits real pages.
    raw = sqlite3.connect(db)
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()


def test_a_truncated_file_is_refused(db: Path) -> None:
    _filled(db)
    size = db.stat().st_size
    with db.open("r+b") as handle:
        handle.truncate(size // 3)
    with pytest.raises(HistoryError, match="damaged|truncated") as info:
        GameStore(db)
    assert str(db) in str(info.value)


def test_open_history_keeps_a_damaged_file_aside_and_starts_a_new_one(db: Path) -> None:
    from companion.history import open_history

    _filled(db, 5)
    damaged = db.read_bytes()[:60]
    db.write_bytes(damaged)
    store, problem = open_history(db, stamp="20261201-2000")
    try:
        kept = db.with_name(f"{db.name}.damaged-20261201-2000")
        assert kept.read_bytes() == damaged  # byte for byte
        assert problem is not None and kept.name in problem and "restore a backup" in problem
        assert store.path == str(db) and store.list_games() == []
    finally:
        store.close()
    store, problem = open_history(db, stamp="later")  # the new file opens: nothing to say
    store.close()
    assert problem is None


def test_a_file_cut_inside_its_header_is_refused(db: Path) -> None:
    _filled(db, 5)
    data = db.read_bytes()
    db.write_bytes(data[:60])
    with pytest.raises(HistoryError, match="truncated"):
        GameStore(db)


def test_a_file_with_overwritten_pages_is_refused(db: Path) -> None:
    _filled(db)
    data = bytearray(db.read_bytes())
    page = 4096
    for start in range(page, len(data) - page, 3 * page):  # scribble over every third page after the first
        data[start : start + 512] = bytes(range(256)) * 2
    db.write_bytes(bytes(data))
    with pytest.raises(HistoryError, match="damaged") as info:
        GameStore(db)
    assert "Move it aside" in str(info.value)


def test_an_empty_file_becomes_a_new_history(db: Path) -> None:
    db.write_bytes(b"")
    with GameStore(db) as store:
        assert store.list_games() == []
        store.create_game({})
    with GameStore(db) as store:
        assert len(store.list_games()) == 1


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(HistoryError, match="is a directory"):
        GameStore(tmp_path)


def test_a_closed_store_says_so(db: Path) -> None:
    store = GameStore(db)
    store.close()
    with pytest.raises(HistoryError, match="closed"):
        store.list_games()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write to read-only files")
def test_a_read_only_file_says_to_check_permissions(db: Path) -> None:
    GameStore(db).close()
    db.chmod(0o444)
    db.parent.chmod(0o555)
    try:
        with pytest.raises(HistoryError, match="writable"):
            store = GameStore(db)
            store.create_game({})
    finally:
        db.parent.chmod(0o755)
        db.chmod(0o644)
