"""Issue 13: damaged files at start do not stop the table; the watchdog asks the process, not the network."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from companion.serve import Companion, Notifier
from tests.test_serve_wiring import config_for, until
from tests.web_fixtures import Client


@pytest.mark.parametrize(
    "damage",
    [b"this is not a database at all" * 40, b"SQLite format 3\x00" + b"\x00" * 84 + b"\xde\xad" * 3000],
)
def test_a_damaged_history_is_kept_and_the_table_still_works(tmp_path: Path, damage: bytes) -> None:
    config = config_for(tmp_path)
    config.data_dir.mkdir(parents=True)
    config.history_path.write_bytes(damage)
    companion = Companion(config, sim=True, notifier=Notifier(env={}))
    companion.start()
    try:
        kept = list(config.data_dir.glob(config.history_path.name + ".damaged-*"))
        assert len(kept) == 1 and kept[0].read_bytes() == damage  # untouched, under another name
        assert companion.service.state()["history_length"] == 0  # a new game to play meanwhile
        # The buttons still work.
        table = companion.table
        pin = table.pin_factory.pin(table.config.pins.end_round)
        pin.drive_low()
        pin.drive_high()
        until(companion, lambda: companion.service.state()["history_length"] == 1, "the end-round button")
        # The page says what is wrong and how to go on.
        viewer = Client(f"http://127.0.0.1:{companion.port}").join("TABLE7")
        problems = viewer.get("/api/problems").json()["problems"]
        assert any(kept[0].name in p and "backup" in p for p in problems), problems
    finally:
        companion.shutdown()


def test_the_watchdog_is_fed_while_every_connection_is_held(tmp_path: Path) -> None:
    companion = Companion(config_for(tmp_path), sim=True, notifier=Notifier(env={}))
    companion.start()
    held: list[Any] = []
    try:
        for n in range(120):  # more than the connection limit, from many addresses
            sock = socket.socket()
            sock.bind((f"127.0.1.{1 + n % 60}", 0))
            sock.connect(("127.0.0.1", companion.port))
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            held.append(sock)
        assert companion.server_healthy()
        # The buttons and the clock go on meanwhile.
        table = companion.table
        pin = table.pin_factory.pin(table.config.pins.end_round)
        pin.drive_low()
        pin.drive_high()
        until(companion, lambda: companion.service.state()["history_length"] == 1, "the end-round button")
    finally:
        for sock in held:
            sock.close()
        companion.shutdown()
    assert not companion.server_healthy()
