"""Live updates as Server-Sent Events over a real waitress server, the real service and SQLite file.

The contract (docs/web.md, "The event stream"): each committed event once, with the service's event
id, then the state it led to; a phone reconnecting with Last-Event-ID receives exactly the events it
missed and then the current state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from web_fixtures import SseStream, Table, start_table

from web.events import EventHub


def ids_of(messages: list[Any]) -> list[int]:
    return [int(m.id) for m in messages if m.event == "game"]


def guest_state(state: dict[str, Any]) -> dict[str, Any]:
    """The state as a phone that is not the host's reads it: the host's legal actions left out."""
    assert state["legal"], "the game offers the host actions"
    return {key: value for key, value in state.items() if key != "legal"}


def test_a_new_stream_starts_with_the_current_state(table: Table) -> None:
    with SseStream(table.viewer()) as stream:
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert "gzip" not in stream.headers.get("content-encoding", "")
        first = stream.next_data()
        state = table.service.state()
        assert first.event == "state"
        assert first.json() == guest_state(state)
        assert int(first.id) == state["last_event_id"]
    with SseStream(table.host()) as stream:
        assert stream.next_data().json() == table.service.state()  # the host's phone: the legal actions too
    assert table.viewer().get("/api/state").json() == guest_state(table.service.state())
    assert table.host().get("/api/state").json() == table.service.state()


def test_a_command_reaches_the_stream_as_events_then_state(table: Table) -> None:
    """Advancing the Clock: an end of round is announced with its events and the new clock."""
    host = table.host()
    with SseStream(table.viewer()) as stream, SseStream(table.host()) as hosts:
        stream.next_data()
        hosts.next_data()
        result = host.post("/api/command", {"command": "end-round"}).json()
        messages = stream.until(lambda m: m.event == "state")
        assert ids_of(messages) == [e["id"] for e in result["events"]]
        assert [m.json() for m in messages if m.event == "game"] == result["events"]
        assert messages[-1].json() == guest_state(table.service.state())
        assert messages[-1].json()["clock"] == "III"
        assert int(messages[-1].id) == result["events"][-1]["id"]
        assert hosts.until(lambda m: m.event == "state")[-1].json() == table.service.state()  # with the legal actions


def test_reconnecting_with_last_event_id_gives_exactly_what_was_missed(table: Table) -> None:
    host = table.host()
    viewer = table.viewer()
    with SseStream(viewer) as stream:
        seen = int(stream.next_data().id)
    missed: list[dict[str, Any]] = []
    for body in ({"command": "end-round"}, {"command": "end-turn"}, {"command": "timer"}):
        reply = host.post("/api/command", body)
        assert reply.status == 200, reply.body
        missed.append(reply.json()["events"])
    undone = host.post("/api/undo").json()["events"]
    # Undo takes the timer's events out of the record and appends one "undone" event that carries them.
    expected = missed[0] + missed[1] + undone
    assert undone[0]["type"] == "undone" and undone[0]["command"]["name"] == "timer"
    with SseStream(viewer, last_event_id=seen) as stream:
        messages = stream.until(lambda m: m.event == "state")
    games = [m.json() for m in messages if m.event == "game"]
    assert games == expected  # each missed event once, in order, nothing from before
    assert all(e["id"] > seen for e in games)
    assert messages[-1].json() == guest_state(table.service.state())
    assert [m.event for m in messages[-1:]] == ["state"]


def test_the_query_parameter_works_like_the_header(table: Table) -> None:
    """A page that makes a new EventSource (after a 503) passes the last id in the URL."""
    host = table.host()
    viewer = table.viewer()
    seen = table.service.state()["last_event_id"]
    events = host.post("/api/command", {"command": "end-round"}).json()["events"]
    with SseStream(viewer, query=f"?last_event_id={seen}") as stream:
        messages = stream.until(lambda m: m.event == "state")
    assert [m.json() for m in messages if m.event == "game"] == events


def test_an_up_to_date_phone_gets_no_old_events(table: Table) -> None:
    host = table.host()
    host.post("/api/command", {"command": "end-round"})
    last = table.service.state()["last_event_id"]
    with SseStream(table.viewer(), last_event_id=last) as stream:
        first = stream.next_data()
        assert first.event == "state" and first.json()["last_event_id"] == last


def test_the_ghost_hour_reaches_every_stream(table: Table) -> None:
    """Advancing the Clock / Quick Reference "XII (The Ghost Hour)": the fourth round's end strikes XII."""
    host = table.host()
    for _ in range(3):
        assert host.post("/api/command", {"command": "end-round"}).status == 200
    streams = [SseStream(table.viewer()) for _ in range(5)]
    try:
        for s in streams:
            s.next_data()
        result = host.post("/api/command", {"command": "end-round"}).json()
        struck = [e for e in result["events"] if e["type"] == "ghost_hour"]
        assert len(struck) == 1
        for s in streams:
            got = s.until(lambda m: m.event == "game" and m.json()["type"] == "ghost_hour")
            assert got[-1].json() == struck[0]
    finally:
        for s in streams:
            s.close()


def test_quiet_streams_get_comment_heartbeats(tmp_path: Path) -> None:
    t = start_table(tmp_path, heartbeat=0.05)
    try:
        with SseStream(t.viewer()) as stream:
            stream.next_data()
            assert stream.next().comment == "keep-alive"
            assert stream.next().comment == "keep-alive"
    finally:
        t.server.stop()
        t.service.close()


def test_streams_beyond_the_limit_are_refused_with_503(tmp_path: Path) -> None:
    t = start_table(tmp_path, max_streams=2)
    try:
        viewer = t.viewer()
        with SseStream(viewer) as a, SseStream(viewer) as b:
            a.next_data()
            b.next_data()
            with SseStream(viewer) as c:
                assert c.status == 503
                assert b"polling" in c.response.read()
            # The API still answers while the streams hold their threads.
            assert viewer.get("/api/state").status == 200
        # A closed page frees its slot: the server notices the hang-up (within about a second).
        assert t.app.extensions["skeptics_web"].hub.wait_streams(0, timeout=5, at_least=False)
        with SseStream(viewer) as d:
            assert d.status == 200
    finally:
        t.server.stop()
        t.service.close()


def test_stopping_the_server_ends_open_streams(tmp_path: Path) -> None:
    t = start_table(tmp_path)
    stream = SseStream(t.viewer())
    stream.next_data()
    t.server.stop()
    t.service.close()
    try:
        while True:
            msg = stream.next()
            assert msg.event != "game"
    except (EOFError, ConnectionError):
        pass
    finally:
        stream.close()


def test_a_stream_that_fell_behind_catches_up_from_the_history(table: Table) -> None:
    """A sleeping phone's queue overflows: it still gets every event once, in order, then the state."""
    service = table.service
    hub = EventHub(service, max_streams=4, heartbeat=5.0, queue_size=4)
    try:
        body = hub.stream(None)
        assert next(body).startswith(b"retry:")
        start = next(body).decode()
        assert start.startswith(f"id: {service.state()['last_event_id']}\nevent: state")
        expected: list[int] = []
        for _ in range(12):  # more commits than the queue holds
            expected += [e["id"] for e in service.do("end-turn", source="test").events]
        got: list[int] = []
        last_state = None
        while not got or got[-1] < expected[-1] or last_state is None or last_state < expected[-1]:
            chunk = next(body).decode()
            head = dict(line.split(": ", 1) for line in chunk.strip().split("\n") if not line.startswith("data"))
            if head.get("event") == "game":
                got.append(int(head["id"]))
            elif head.get("event") == "state":
                last_state = int(head["id"])
        assert got == expected
        body.close()
        assert hub.stream_count == 0
    finally:
        hub.close()


def test_a_host_stream_ends_once_another_phone_chose_a_new_pin(table: Table) -> None:
    """A new PIN makes every other host's phone a guest (PhoneBook.demote_hosts): its stream, which carried the
    host's legal actions, ends, and the stream it opens again carries the state as every other phone's does."""
    first, second = table.host(), table.host()
    with SseStream(second) as stream:
        assert "legal" in stream.next_data().json()
        assert first.post("/api/host/change-pin", {"pin": "86420"}).status == 200
        ended = False
        try:
            for _ in range(20):
                stream.next()
        except (EOFError, ConnectionError):
            ended = True
        assert ended, "the demoted host's stream went on"
    with SseStream(second) as again:
        assert again.next_data().json() == guest_state(table.service.state())
