"""Server-Sent Events: every phone gets each committed event once, then the state it led to.

The hub is one listener on the game service. Each open stream has its own bounded queue; the
listener only puts into queues (it never blocks the service). A stream that falls behind is
marked and catches up from the history (`service.events_since`) instead of losing events.

Wire format (see docs/web.md, "The event stream"):

    id: 42
    event: game
    data: {"id": 42, "seq": 17, "type": "ghost_hour", ...}

    id: 42
    event: state
    data: {... the whole state, "last_event_id": 42 ...}

A phone that is not the host's gets the state without what only the host's page uses (`for_phone`).
Heartbeats are SSE comments (`: keep-alive`), sent when nothing else was sent for `heartbeat` s.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from companion.errors import CompanionError

_CLOSE = object()
_RESYNC = object()
_PHONES = object()  # the phones at the table changed: a page with their list reloads it


class TooManyStreams(CompanionError):
    """Every event-stream slot is taken."""


# What only the host's page uses: the legal actions (the host's buttons; about half of a Skeptics state). The other
# phones are sent the state without them, in the stream and by GET /api/state.
HOST_ONLY = ("legal",)


def for_phone(state: dict[str, Any], host: bool) -> dict[str, Any]:
    """The state as a phone is sent it: whole for the host's, without HOST_ONLY for the others."""
    if host or not any(key in state for key in HOST_ONLY):
        return state
    return {key: value for key, value in state.items() if key not in HOST_ONLY}


class _Commit:
    """One commit as every stream sends it: encoded once, by the first stream that needs it (the state twice: for
    the host's phone and for the others)."""

    __slots__ = ("events", "state", "_events", "_states", "_lock")

    def __init__(self, events: list[dict[str, Any]], state: dict[str, Any]) -> None:
        self.events = events
        self.state = state
        self._events: list[bytes] | None = None
        self._states: dict[bool, bytes] = {}
        self._lock = threading.Lock()

    def encoded(self, host: bool) -> tuple[list[bytes], bytes]:
        with self._lock:
            if self._events is None:
                self._events = [format_event(record) for record in self.events]
            if host not in self._states:
                self._states[host] = format_state(for_phone(self.state, host))
            return self._events, self._states[host]


class _Subscriber:
    def __init__(
        self,
        size: int,
        who: str | None = None,
        *,
        phone: str | None = None,
        gone: Callable[[], bool] | None = None,
        allowed: Callable[[], bool] | None = None,
    ) -> None:
        self.queue: queue.Queue[Any] = queue.Queue(maxsize=size)
        self.behind = False
        self.who = who  # the phone's address
        self.phone = phone  # its phone id (web.sessions), to end its streams when the host removes it
        self.gone = gone or (lambda: False)  # the phone hung up (waitress)
        self.allowed = allowed or (lambda: True)  # the phone may still see the game (web.sessions.stream_guard)
        self.ended = False

    def end(self) -> None:
        """Ask the stream to end (it reads this before anything else it is sent)."""
        self.ended = True
        try:
            self.queue.put_nowait(_CLOSE)
        except queue.Full:
            pass  # the stream reads `ended` when it next wakes, at most a second from now

    def offer(self, item: Any) -> None:
        try:
            self.queue.put_nowait(item)
        except queue.Full:
            # The stream is slow (a sleeping phone): drop what is queued, catch up from the history.
            self.behind = True
            try:
                while True:
                    self.queue.get_nowait()
            except queue.Empty:
                pass
            self.queue.put_nowait(_RESYNC)


class EventHub:
    """Fans the service's commits out to every open event stream."""

    def __init__(self, service: Any, max_streams: int, heartbeat: float, queue_size: int = 64) -> None:
        self._service = service
        self._max = max_streams
        self._heartbeat = heartbeat
        self._queue_size = queue_size
        self.per_address = 6  # streams from one address (trusted proxies are one address: see web.app)
        # called in the request that opens a stream: a check that the phone may still see the game (web.sessions)
        self.guard: Callable[[bool], Callable[[], bool]] | None = None  # (host stream?) -> may it go on
        self._subs: set[_Subscriber] = set()
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._closed = False
        service.add_listener(self._on_commit)

    @property
    def stream_count(self) -> int:
        with self._lock:
            return len(self._subs)

    def _on_commit(self, events: list[dict[str, Any]], state: dict[str, Any]) -> None:
        with self._lock:
            subs = list(self._subs)
        commit = _Commit(list(events), state)
        for sub in subs:
            sub.offer(commit)

    def subscribe(
        self,
        who: str | None = None,
        *,
        phone: str | None = None,
        gone: Callable[[], bool] | None = None,
        allowed: Callable[[], bool] | None = None,
    ) -> _Subscriber:
        """A stream's queue; at most `per_address` streams from one address `who` (a phone with a few tabs).

        The slots of streams whose phone has hung up (`gone`) are freed first, so a page closed a moment
        ago never keeps a new one out.
        """
        with self._lock:
            for old in [s for s in self._subs if s.gone()]:
                self._subs.discard(old)
                old.end()
            if self._closed:
                raise TooManyStreams("the companion is shutting down; the page reconnects by itself.")
            if len(self._subs) >= self._max:
                raise TooManyStreams(
                    f"all {self._max} live-update slots are in use; the page falls back to polling. "
                    "Close the companion page on phones that are not in use."
                )
            if who is not None and sum(1 for s in self._subs if s.who == who) >= self.per_address:
                raise TooManyStreams(
                    f"this phone already has {self.per_address} live pages open; close the companion page in "
                    "the other tabs (this one falls back to polling)."
                )
            sub = _Subscriber(self._queue_size, who, phone=phone, gone=gone, allowed=allowed)
            self._subs.add(sub)
            self._changed.notify_all()
            return sub

    def unsubscribe(self, sub: _Subscriber) -> None:
        with self._lock:
            self._subs.discard(sub)
            self._changed.notify_all()

    def wait_streams(self, count: int, timeout: float, at_least: bool = True) -> bool:
        """Block until at least (or, with at_least=False, at most) `count` streams are open."""
        with self._changed:
            return self._changed.wait_for(
                lambda: len(self._subs) >= count if at_least else len(self._subs) <= count, timeout
            )

    def phones_changed(self) -> None:
        """The phones at the table changed (one was renamed, joined or was removed): every open page is told at once,
        without a name (the host's page reloads its list from /api/host/phones, which only the host may read)."""
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            sub.offer(_PHONES)

    def drop_phone(self, phone: str) -> int:
        """End the streams of one phone now (the host removed it); returns how many."""
        with self._lock:
            subs = [s for s in self._subs if s.phone == phone]
            for sub in subs:
                self._subs.discard(sub)  # its slot is free at once
        for sub in subs:
            sub.end()
        return len(subs)

    def drop_streams(self) -> int:
        """End every open stream but stay open (the history was restored): phones reconnect and read afresh."""
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            sub.end()
        return len(subs)

    def close(self) -> None:
        """End every stream now (server shutdown); phones reconnect to the next server."""
        with self._lock:
            self._closed = True
            subs = list(self._subs)
        for sub in subs:
            sub.end()
        try:
            self._service.remove_listener(self._on_commit)
        except (KeyError, ValueError):
            pass

    def stream(
        self, last_event_id: int | None, gone: Callable[[], bool] | None = None, *, host: bool = False
    ) -> Iterator[bytes]:
        """The body of one SSE response. Subscribes before reading history, so nothing falls between.

        `gone()` tells whether the phone has hung up (waitress's `waitress.client_disconnected`);
        it is checked at least once a second, so a closed page frees its slot quickly. `host`: the stream is the
        host's phone's (whole states; by default a player's, without HOST_ONLY); signing in or out gives the phone
        a new id, which ends the stream (the guard), and the page opens a new one.
        """
        phone = _phone()
        allowed = self.guard(host) if self.guard is not None else None
        sub = self.subscribe(_address(), phone=phone, gone=gone, allowed=allowed)
        return self._generate(sub, last_event_id, host)

    def _generate(self, sub: _Subscriber, last_event_id: int | None, host: bool) -> Iterator[bytes]:
        service = self._service
        wait = min(1.0, self._heartbeat)
        try:
            yield b"retry: 2000\n\n"
            sent = -1
            if last_event_id is not None:
                sent = last_event_id
                for record in service.events_since(last_event_id):
                    yield format_event(record)
                    sent = max(sent, int(record["id"]))
            try:
                state = service.state()
            except CompanionError:
                yield b"event: nogame\ndata: {}\n\n"
            else:
                yield format_state(for_phone(state, host))
                sent = max(sent, _state_id(state))
            quiet_since = time.monotonic()
            while True:
                try:
                    item = sub.queue.get(timeout=wait)
                except queue.Empty:
                    item = None
                if sub.ended or sub.gone():
                    return  # removed or hung up: checked on every wake, at least once a second
                if not sub.allowed():  # no longer a viewer, or no longer the host: the page asks again who it is
                    yield b"event: phones\ndata: {}\n\n"
                    return
                if item is None:
                    if time.monotonic() - quiet_since >= self._heartbeat:
                        yield b": keep-alive\n\n"
                        quiet_since = time.monotonic()
                    continue
                quiet_since = time.monotonic()
                if item is _CLOSE:
                    return
                if item is _PHONES:
                    yield b"event: phones\ndata: {}\n\n"
                    continue
                if item is _RESYNC:
                    sub.behind = False
                    for record in service.events_since(max(sent, 0)):
                        yield format_event(record)
                        sent = max(sent, int(record["id"]))
                    state = service.state()
                    yield format_state(for_phone(state, host))
                    sent = max(sent, _state_id(state))
                    continue
                events, state = item.events, item.state
                fresh = [n for n, record in enumerate(events) if int(record["id"]) > sent]
                if events and not fresh:
                    continue  # already sent from the history when this stream started
                encoded_events, encoded_state = item.encoded(host)
                for n in fresh:
                    yield encoded_events[n]
                    sent = int(events[n]["id"])
                if _state_id(state) >= sent or not events:
                    yield encoded_state
                    sent = max(sent, _state_id(state))
        finally:
            self.unsubscribe(sub)


def _address() -> str | None:
    """The address of the phone whose request opens the stream (None outside a request)."""
    try:
        from flask import has_request_context, request
    except ImportError:  # pragma: no cover - Flask is installed with the web part
        return None
    if not has_request_context():
        return None
    return request.remote_addr


def _phone() -> str | None:
    """The phone id of the request that opens the stream (web.sessions), None without one."""
    try:
        from flask import has_request_context, session
    except ImportError:  # pragma: no cover - Flask is installed with the web part
        return None
    if not has_request_context():
        return None
    phone = session.get("s")
    return phone if isinstance(phone, str) else None


def _state_id(state: dict[str, Any]) -> int:
    value = state.get("last_event_id")
    return int(value) if value is not None else -1


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def format_event(record: dict[str, Any]) -> bytes:
    return f"id: {int(record['id'])}\nevent: game\ndata: {_dumps(record)}\n\n".encode()


def format_state(state: dict[str, Any]) -> bytes:
    ident = _state_id(state)
    head = f"id: {ident}\n" if ident >= 0 else ""
    return f"{head}event: state\ndata: {_dumps(state)}\n\n".encode()
