"""Issue 13: automatic history backups (SQLite's backup API) and restoring one from the host's page."""

from __future__ import annotations

import stat
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from companion.history import GameStore
from tests.web_fixtures import Client, SseStream, Table, serve_table
from web.backups import Backups

WAIT = 15.0


@pytest.fixture
def table(tmp_path: Path) -> Any:
    yield from serve_table(tmp_path)


def wait_for(check: Any, what: str) -> None:
    end = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < end, f"waited {WAIT} s for {what}"
        time.sleep(0.02)


def end_round(client: Client) -> None:
    reply = client.post("/api/command", {"command": "end-round", "args": {}})
    assert reply.status == 200, reply.body


def test_a_backup_is_a_whole_private_history(table: Table) -> None:
    host = table.host()
    end_round(host)
    end_round(host)
    reply = host.post("/api/host/backups", {})
    assert reply.status == 200, reply.body
    name = reply.json()["backup"]["name"]
    path = table.data_dir / "backups" / name
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    copy = GameStore(path)
    try:
        game = table.service.game_id
        assert copy.command_count(game) == 2 == table.service.store.command_count(game)
        assert copy.events(game) == table.service.store.events(game)
    finally:
        copy.close()
    listed = host.get("/api/host/backups").json()
    assert [b["name"] for b in listed["backups"] if b["reason"] == "manual"] == [name]
    assert [b["reason"] for b in listed["backups"]][-1] == "daily"  # the first command of the day made one


def test_the_history_file_is_private(table: Table) -> None:
    assert stat.S_IMODE(Path(table.service.store.path).stat().st_mode) == 0o600


def test_restoring_puts_the_game_back_and_phones_reconnect(table: Table) -> None:
    host = table.host()
    end_round(host)
    saved = host.post("/api/host/backups", {}).json()["backup"]["name"]
    end_round(host)
    end_round(host)
    assert table.service.state()["clock"] == "IX"
    viewer = table.viewer()
    with SseStream(viewer) as stream:
        stream.until(lambda m: m.event == "state")
        refused = host.post("/api/host/backups/restore", {"name": saved})
        assert refused.status == 409 and "confirm" in refused.json()["error"]
        reply = host.post("/api/host/backups/restore", {"name": saved, "confirm": True})
        assert reply.status == 200, reply.body
        body = reply.json()
        assert body["state"]["clock"] == "III" and body["state"]["history_length"] == 1
        with pytest.raises(EOFError):
            stream.until(lambda m: False, limit=50)  # the stream ends; the page reconnects
    assert table.service.state()["clock"] == "III"
    names = [b["name"] for b in host.get("/api/host/backups").json()["backups"]]
    assert any(n.endswith("before-restore.sqlite3") for n in names)  # the restore can be undone
    end_round(host)  # the game goes on from the restored point
    assert table.service.state()["clock"] == "VI"


def test_a_damaged_backup_changes_nothing(table: Table) -> None:
    host = table.host()
    end_round(host)
    saved = host.post("/api/host/backups", {}).json()["backup"]["name"]
    path = table.data_dir / "backups" / saved
    path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84 + b"garbage" * 100)
    before = table.service.state(), table.service.history()
    reply = host.post("/api/host/backups/restore", {"name": saved, "confirm": True})
    assert 400 <= reply.status < 600 and reply.status != 500, reply.body
    assert (table.service.state(), table.service.history()) == before


def test_only_the_host_sees_makes_or_restores_backups(table: Table) -> None:
    guest = table.viewer()
    assert guest.get("/api/host/backups").status == 403
    assert guest.post("/api/host/backups", {}).status == 403
    assert guest.post("/api/host/backups/restore", {"name": "x", "confirm": True}).status == 403
    host = table.host()
    assert host.post("/api/host/backups/restore", {"name": "../web.json", "confirm": True}).status == 404
    host.csrf = None
    assert host.post("/api/host/backups", {}).status == 403


def test_backups_at_game_end_and_daily_and_only_a_few_kept(tmp_path: Path) -> None:
    clock = [1_800_000_000.0]
    store = GameStore(tmp_path / "games.sqlite")
    try:
        game = store.create_game({"players": 1}, name="t")
        backups = Backups(store, tmp_path / "backups", lambda: clock[0], keep=3)
        record = [{"id": 1, "type": "round_ended", "game": game}]
        backups.on_commit(record, {"game_id": game, "outcome": None})  # the first commit: a daily backup
        wait_for(lambda: len(backups.list()) == 1, "the first daily backup")
        clock[0] += 3600
        backups.on_commit(record, {"game_id": game, "outcome": None})
        time.sleep(0.1)
        assert len(backups.list()) == 1  # not another within the day
        clock[0] += 60
        backups.on_commit(record, {"game_id": game, "outcome": "lost"})
        wait_for(lambda: len(backups.list()) == 2, "the game-end backup")
        assert backups.list()[0]["reason"] == "game-end"
        clock[0] += 60
        backups.on_commit([], {"game_id": game, "outcome": "lost"})  # the same ended game shown again
        clock[0] += 25 * 3600
        backups.on_commit(record, {"game_id": game, "outcome": None})
        wait_for(lambda: len(backups.list()) == 3, "the next day's backup")
        for _ in range(4):
            clock[0] += 1
            backups.make("manual")
        assert len(backups.list()) == 3 and all(b["reason"] == "manual" for b in backups.list())
        assert threading.active_count() < 100
    finally:
        store.close()
