"""Issue 25, on the real server on loopback: locks an attacker cannot turn against the table, a removed
phone's streams, a host re-scanning the QR code, the Origin, and what phones read.

"Other phones" send from 127.0.0.2 and up (the whole 127/8 reaches the loopback on Linux), so every
address is a real source address the server sees.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web_fixtures import HOST_PIN, JOIN_CODE, Client, SseStream, Table, start_table

WAIT = 15.0  # an upper bound for what happens by itself; never a speed claim


class Screen:
    """The companion's display as the web part sees it (hardware.Table.show_error): what it was asked to show."""

    hand_angle = None

    def __init__(self) -> None:
        self.shown: list[tuple[str, str]] = []

    def show_error(self, title: str, message: str, seconds: float = 8.0) -> None:
        self.shown.append((title, message))

    def status(self) -> dict[str, Any]:
        return {}

    def oled_png(self) -> bytes:
        return b""


@pytest.fixture
def screen_table(tmp_path: Path) -> Iterator[tuple[Table, Screen]]:
    screen = Screen()
    table = start_table(tmp_path, hardware=screen)
    try:
        yield table, screen
    finally:
        table.server.stop()
        table.service.close()


def phone(table: Table, number: int) -> Client:
    return Client(table.url, source=f"127.0.0.{number}")


def test_after_100_wrong_join_codes_from_20_addresses_a_new_phone_joins(table: Table) -> None:
    for number in range(2, 22):  # 20 addresses, 5 wrong codes each
        for attempt in range(5):
            assert phone(table, number).get(f"/join?code=WRONG{attempt}").status == 403
    newcomer = phone(table, 40).join()
    assert newcomer.get("/api/state").status == 200
    report = table.app.extensions["skeptics_web"].join_throttle.report()
    assert report["failures_in_window"] == 100 and report["everyone_waits"] == 0
    # one address is still held to its own limit: 10 wrong codes, then it waits
    guesser = phone(table, 50)
    statuses = [guesser.get(f"/join?code=BAD{n:03d}").status for n in range(11)]
    assert statuses == [403] * 10 + [429]
    assert guesser.get(f"/join?code={JOIN_CODE}").status == 429  # even the right code waits, from that address only


def test_after_20_wrong_pins_from_four_addresses_the_host_at_the_table_signs_in(
    screen_table: tuple[Table, Screen],
) -> None:
    table, screen = screen_table
    for number in range(2, 6):  # four addresses, 5 wrong PINs each
        guesser = phone(table, number).join()
        for attempt in range(5):
            assert guesser.post("/api/host/login", {"pin": f"00{attempt:02d}"}).status == 403
    host = phone(table, 60).join()
    refused = host.post("/api/host/login", {"pin": HOST_PIN})
    assert refused.status == 429 and refused.json()["table_code"] is True
    assert "code on the companion's screen" in refused.json()["error"]
    title, text = screen.shown[-1]
    code = text.removeprefix("Code ")
    assert title == "Host sign-in" and len(code) == 6 and code.isdigit()
    # a wrong code is refused and counted; the right one signs the host in, once
    assert (
        host.post("/api/host/login", {"pin": HOST_PIN, "table_code": "000000" if code != "000000" else "111111"}).status
        == 403
    )
    assert host.post("/api/host/login", {"pin": HOST_PIN, "table_code": code}).status == 200
    assert host.refresh()["host"] is True
    # the guesses stay held: a further address without the code waits, and the code was spent
    other = phone(table, 7).join()
    assert other.post("/api/host/login", {"pin": HOST_PIN}).status == 429
    assert other.post("/api/host/login", {"pin": HOST_PIN, "table_code": code}).status == 403


def test_a_removed_phones_open_stream_is_closed_within_a_second(table: Table) -> None:
    host = table.host()
    guest = phone(table, 9).join()
    guest_id = guest.get("/api/phone").json()["id"]
    with SseStream(guest, timeout=WAIT) as stream:
        stream.next_data()  # the state: the stream is open
        assert host.post("/api/host/phones/remove", {"id": guest_id}).status == 200
        removed = time.monotonic()
        with pytest.raises(EOFError):
            while True:
                stream.next()
        assert time.monotonic() - removed < 1.0
    assert guest.get("/api/state").status == 403


def test_a_closed_stream_frees_its_slot_for_the_next_one(table: Table) -> None:
    viewer = phone(table, 11).join()
    hub = table.app.extensions["skeptics_web"].hub
    streams = [SseStream(viewer, timeout=WAIT) for _ in range(hub.per_address)]
    for stream in streams:
        stream.next_data()
    assert SseStream(viewer, timeout=WAIT).status == 503  # this address's slots are all taken
    streams.pop().close()  # one page is closed
    end = time.monotonic() + WAIT
    status = 503
    while status == 503 and time.monotonic() < end:
        again = SseStream(viewer, timeout=WAIT)
        status = again.status
        if status == 200:
            streams.append(again)
        else:
            again.close()
    assert status == 200
    for stream in streams:
        stream.close()


def test_get_join_leaves_a_host_a_host(table: Table) -> None:
    host = table.host()
    before = host.get("/api/phone").json()["id"]
    assert host.get("/join").status == 200  # the page without a code
    assert host.get(f"/join?code={JOIN_CODE}").status == 200  # the host scans the QR code again
    assert host.refresh()["host"] is True
    assert host.get("/api/phone").json() == {"id": before, "name": host.get("/api/phone").json()["name"], "host": True}
    assert host.post("/api/command", {"command": "end-round"}).status == 200


def test_the_origin_must_be_one_of_the_companions_own_addresses(table: Table) -> None:
    host = table.host()
    rebound = f"evil.example:{table.server.port}"  # DNS rebinding: the attacker's name points here
    reply = host.post(
        "/api/command", {"command": "end-round"}, headers={"Host": rebound, "Origin": f"http://{rebound}"}
    )
    assert reply.status == 403 and "only the companion's own page" in reply.json()["error"]
    own = f"{socket.gethostname()}.local:{table.server.port}"
    reply = host.post("/api/command", {"command": "end-round"}, headers={"Host": own, "Origin": f"http://{own}"})
    assert reply.status == 200, reply.body
    other_ip = f"127.0.0.9:{table.server.port}"  # a page served from another address of the network
    reply = host.post("/api/command", {"command": "end-round"}, headers={"Origin": f"http://{other_ip}"})
    assert reply.status == 403


def test_no_message_to_a_phone_names_a_path_on_the_machine(table: Table, tmp_path: Path) -> None:
    host = table.host()
    table.service.store.close()  # the history cannot be written: its error names the file
    reply = host.post("/api/command", {"command": "end-round"})
    assert reply.status >= 400
    assert str(tmp_path) not in reply.body.decode() and "games.sqlite" in reply.body.decode()
