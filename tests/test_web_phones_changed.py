"""A phone renamed (by itself or by the host), joined or removed: every open event stream is told at once with a
"phones" message that carries no name (a player's page reads nothing of the other phones; the host's page reloads
its list from /api/host/phones). Real app on waitress, real streams."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web_fixtures import Client, SseStream, Table, serve_table


@pytest.fixture
def table(tmp_path: Path) -> Any:
    yield from serve_table(tmp_path)


def _phones_message(stream: SseStream) -> Any:
    return stream.until(lambda m: m.event == "phones")[-1]


def test_a_rename_a_join_and_a_removal_reach_every_open_stream_without_names(table: Table) -> None:
    host = table.host()
    guest = Client(table.url).join()
    with SseStream(host) as host_stream, SseStream(guest) as guest_stream:
        host_stream.until(lambda m: m.event == "state")
        guest_stream.until(lambda m: m.event == "state")
        assert guest.post("/api/phone/name", {"name": "Anna's phone"}).status == 200  # the player's own rename
        for stream in (host_stream, guest_stream):
            message = _phones_message(stream)
            assert message.json() == {} and "Anna" not in (message.data or "")
        anna = next(p for p in host.get("/api/host/phones").json()["phones"] if p["name"] == "Anna's phone")
        assert host.post("/api/host/phones/rename", {"id": anna["id"], "name": "Window"}).status == 200
        assert _phones_message(guest_stream).json() == {}
        assert _phones_message(host_stream).json() == {}
        Client(table.url).join()  # another phone joins
        assert _phones_message(host_stream).json() == {}
        assert host.post("/api/host/phones/remove", {"id": anna["id"]}).status == 200
        assert _phones_message(host_stream).json() == {}
    # a refused rename (a name already taken) changes nothing and tells nobody
    other = Client(table.url).join()
    assert other.post("/api/phone/name", {"name": "Bo"}).status == 200
    with SseStream(host, timeout=1.5) as host_stream:
        host_stream.until(lambda m: m.event == "state")
        third = Client(table.url).join()
        _phones_message(host_stream)  # its joining
        assert third.post("/api/phone/name", {"name": "Bo"}).status == 409
        with pytest.raises(TimeoutError):
            for _ in range(50):  # keep-alive comments at most, until the stream is quiet for 1.5 s
                message = host_stream.next()
                assert message.event != "phones", message
