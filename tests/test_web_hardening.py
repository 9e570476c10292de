"""Issue 13: PIN and join-code guessing, malformed input, damaged files, save first then switch, secret files.

The real app behind the real waitress on 127.0.0.1 (tests.web_fixtures), real files in tmp_path.
"""

from __future__ import annotations

import http.client
import json
import os
import stat
import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from companion.errors import ConfigError
from tests.web_fixtures import HOST_PIN, JOIN_CODE, Client, Table, serve_table, start_table
from web.settings import Throttle, WebSettings, WebStore


def snapshot(table: Table) -> tuple[Any, Any]:
    return table.service.state(), table.service.history()


def refused(reply: Any, status: int, *words: str) -> dict[str, Any]:
    assert reply.status == status, (reply.status, reply.body)
    body = reply.json()
    assert body["status"] == status
    for word in words:
        assert word.lower() in body["error"].lower(), body["error"]
    return dict(body)


@pytest.fixture
def table(tmp_path: Path) -> Any:
    yield from serve_table(tmp_path)


class Clock:
    def __init__(self, start: float = 10_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


# -- the throttle ----------------------------------------------------------------------------------


def test_fifty_guesses_at_once_from_one_address_get_five_checks() -> None:
    throttle = Throttle(Clock(), free=5, base=30.0, cap=20)
    allowed: list[float] = []
    barrier = threading.Barrier(50)

    def guess() -> None:
        barrier.wait()
        allowed.append(throttle.wait_left("10.0.0.9"))

    threads = [threading.Thread(target=guess) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(1 for wait in allowed if wait == 0) == 5
    assert all(wait > 0 for wait in allowed if wait != 0)


def test_many_addresses_share_one_cap_until_the_window_passes() -> None:
    clock = Clock()
    throttle = Throttle(clock, free=5, cap=20, window=600.0)
    checked = sum(1 for n in range(20) for _ in range(5) if throttle.wait_left(f"10.0.1.{n}") == 0)
    assert checked == 20
    assert throttle.wait_left("10.0.2.1") > 0  # a new address waits too
    clock.now += 601
    assert throttle.wait_left("10.0.2.1") == 0


def test_a_right_guess_gives_its_booking_back() -> None:
    throttle = Throttle(Clock(), free=5, cap=20)
    for _ in range(4):
        assert throttle.wait_left("a") == 0
        throttle.failed("a")
    assert throttle.wait_left("a") == 0
    throttle.succeeded("a")
    assert throttle.report()["failures_in_window"] == 4  # the four wrong ones still count overall
    for _ in range(4):
        assert throttle.wait_left("a") == 0  # the address starts afresh


def test_counters_survive_a_restart_and_the_file_is_private(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "limits.json"
    first = Throttle(clock, free=5, cap=20, path=path)
    for _ in range(5):
        assert first.wait_left("10.0.0.9") == 0
        first.failed("10.0.0.9")
    second = Throttle(clock, free=5, cap=20, path=path)
    assert second.wait_left("10.0.0.9") > 0
    report = second.report()
    assert report["locked"][0]["address"] == "10.0.0.9" and len(report["recent"]) == 5
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_damaged_counter_file_starts_with_the_overall_cap_full(tmp_path: Path) -> None:
    path = tmp_path / "limits.json"
    path.write_bytes(b"\xff\xfe not json")
    clock = Clock()
    throttle = Throttle(clock, free=5, cap=20, window=600.0, path=path)
    assert throttle.problem and "limits.json" in throttle.problem
    assert throttle.wait_left("10.0.0.1") > 0  # deleting the file must not hand out a fresh budget
    clock.now += 601
    assert throttle.wait_left("10.0.0.1") == 0


def test_memory_does_not_grow_with_addresses() -> None:
    throttle = Throttle(Clock(), free=5, cap=20, remember=64, keep_log=10)
    for n in range(5000):
        if throttle.wait_left(f"10.{n // 250}.{n % 250}.1") == 0:
            throttle.failed(f"10.{n // 250}.{n % 250}.1")
    assert len(throttle._entries) <= 64 and len(throttle._recent) <= 20 and len(throttle.report()["recent"]) <= 10


# -- PINs through the server ------------------------------------------------------------------------


def test_simultaneous_wrong_pins_are_checked_at_most_five_times(table: Table) -> None:
    clients = [table.viewer() for _ in range(14)]  # one address: below its cap of 16 connections
    statuses: list[int] = []
    barrier = threading.Barrier(14)

    def guess(client: Client) -> None:
        barrier.wait()
        statuses.append(client.post("/api/host/login", {"pin": "0000"}).status)

    threads = [threading.Thread(target=guess, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses.count(403) <= 5 and statuses.count(429) >= 9
    assert set(statuses) <= {403, 429}


def test_a_pin_that_is_not_valid_unicode_is_a_400_and_nothing_is_hashed(table: Table) -> None:
    viewer = table.viewer()
    raw = b'{"pin": "\\ud800"}'
    refused(viewer.post("/api/host/login", raw=raw, headers={"Content-Type": "application/json"}), 400, "unicode")


def test_wide_digits_are_not_a_pin(table: Table) -> None:
    viewer = table.viewer()
    refused(viewer.post("/api/host/login", {"pin": "\uff14\uff13\uff12\uff11"}), 403, "wrong")  # "４３２１"
    assert table.app.extensions["skeptics_web"].throttle.report()["failures_in_window"] == 1
    refused(viewer.post("/api/host/change-pin", {"pin": "\uff11\uff12\uff13\uff14"}), 403)  # not a host
    host = table.host()
    assert host.post("/api/host/change-pin", {"pin": "\uff11\uff12\uff13\uff14"}).status in (400, 403)
    assert host.post("/api/host/login", {"pin": HOST_PIN}).status == 200  # the PIN did not change


def test_a_pin_change_that_cannot_be_saved_changes_nothing(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    host = table.host()
    other = table.host()
    before = (table.data_dir / "web.json").read_bytes()

    def full_disk(path: Path, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("web.settings.write_private", full_disk)
    body = refused(host.post("/api/host/change-pin", {"pin": "97531"}), 503, "no space left", "nothing changed")
    assert "card" in body["error"]
    monkeypatch.undo()
    assert (table.data_dir / "web.json").read_bytes() == before
    assert other.get("/api/session").json()["host"] is True  # nobody was signed out
    assert Client(table.url).join().post("/api/host/login", {"pin": HOST_PIN}).status == 200


def test_a_new_join_code_is_saved_before_it_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = WebStore(WebSettings(data_dir=tmp_path, join_code=JOIN_CODE))
    monkeypatch.setattr("web.settings.write_private", lambda path, text: (_ for _ in ()).throw(OSError(28, "full")))
    with pytest.raises(Exception, match="nothing changed"):
        store.set_join_code()
    assert store.join_code == JOIN_CODE
    monkeypatch.undo()
    code = store.set_join_code()
    assert len(code) >= 6 and WebStore(WebSettings(data_dir=tmp_path)).join_code == code


# -- trusted proxies ---------------------------------------------------------------------------------


def request_from(table: Table, source: str, method: str, path: str, body: Any, headers: dict[str, str]) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", table.server.port, timeout=10, source_address=(source, 0))
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={"Content-Type": "application/json", **headers})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_a_trusted_proxy_names_the_phone_and_nobody_else_can(tmp_path: Path) -> None:
    table = start_table(tmp_path, trusted_proxies=["127.0.0.1"])
    try:
        throttle = table.app.extensions["skeptics_web"].join_throttle
        # Through the proxy (127.0.0.1): the wrong code counts against the phone it names.
        status = request_from(table, "127.0.0.1", "GET", "/join?code=WRONG1", None, {"X-Forwarded-For": "192.0.2.7"})
        assert status == 403
        # From a phone that is not a proxy, the header is ignored: counted against its own address.
        status = request_from(table, "127.0.0.3", "GET", "/join?code=WRONG2", None, {"X-Forwarded-For": "192.0.2.8"})
        assert status == 403
        addresses = [entry["address"] for entry in throttle.report()["recent"]]
        assert addresses == ["192.0.2.7", "127.0.0.3"]
    finally:
        table.server.stop()
        table.service.close()


def test_trusted_proxies_must_be_addresses(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="web.trusted_proxies"):
        WebSettings(data_dir=tmp_path, trusted_proxies=("my-proxy",))
    with pytest.raises(ConfigError, match="web.trusted_proxies"):
        WebSettings(data_dir=tmp_path, trusted_proxies="127.0.0.1")  # type: ignore[arg-type]
    assert WebSettings(data_dir=tmp_path, trusted_proxies=["::1"]).trusted_proxies == ("::1",)  # type: ignore[arg-type]


# -- malformed input: always a 4xx, the game unchanged ------------------------------------------------


@pytest.mark.parametrize(
    "raw, words",
    [
        (b'{"command": "end-round", "args": ' + b"[" * 10_000 + b"]" * 10_000 + b"}", ("deep",)),
        (b'{"command": "end-round", "args": {"n": ' + b"9" * 5000 + b"}}", ("digits",)),
        (b'{"command": "end-round", "args": {"n": ' + b"9" * 25 + b"}}", ("digits",)),
        (b'{"command": "end-round", "args": {"n": 1e999}}', ("too large",)),
        (b'{"command": "end-round", "args": {"n": NaN}}', ("number",)),
        (b'{"command": "end-round", "args": {"\\udc00": "x"}}', ("unicode",)),
        (b'{"command": "end-\xff-round"}', ("utf-8",)),
    ],
)
def test_malformed_bodies_are_400_and_change_nothing(table: Table, raw: bytes, words: tuple[str, ...]) -> None:
    host = table.host()
    before = snapshot(table)
    refused(host.post("/api/command", raw=raw, headers={"Content-Type": "application/json"}), 400, *words)
    assert snapshot(table) == before


def test_a_viewer_cannot_reach_a_500_with_deep_json(table: Table) -> None:
    viewer = table.viewer()
    raw = b"[" * 10_000 + b"]" * 10_000
    for path in ("/api/command", "/api/host/login", "/api/host/pin", "/api/undo"):
        reply = viewer.post(path, raw=raw, headers={"Content-Type": "application/json"})
        assert 400 <= reply.status < 500, (path, reply.status)


@pytest.mark.parametrize(
    "query",
    ["?need=eye:" + "9" * 4300, "?need=eye:" + "9" * 30, "?dice=" + "1" * 25, "?need=eye:2&x=" + "a" * 3000],
)
def test_huge_numbers_in_the_address_are_400(table: Table, query: str) -> None:
    reply = table.viewer().get("/api/odds" + query)
    assert reply.status == 400, reply.body


@pytest.mark.parametrize("value", ["9" * 20, "9" * 4300, "9223372036854775808", "\u0661\u0662"])
def test_a_last_event_id_that_is_no_event_number_is_400(table: Table, value: str) -> None:
    viewer = table.viewer()
    reply = viewer.get("/api/events?last_event_id=" + quote(value))
    refused(reply, 400, "event number")
    if value.isascii():
        refused(viewer.get("/api/events", headers={"Last-Event-ID": value}), 400, "event number")


# -- damaged web.json ----------------------------------------------------------------------------------


DAMAGED = [
    (b"\xff\xfe{not utf-8", "not utf-8"),
    (b'{"secret_key": "' + b"ab" * 32 + b'", "join_code": "ABCDEF", "pin_epoch": "one"}', "pin_epoch"),
    (b'{"secret_key": "' + b"ab" * 32 + b'", "join_code": ""}', "join_code"),
    (b'{"secret_key": "' + b"ab" * 32 + b'", "join_code": 5}', "join_code"),
    (b'{"secret_key": 7, "join_code": "ABCDEF"}', "secret_key"),
    (b'{"pin": "1234", "join_code": "ABCDEF"}', "pin"),
    (b"[1, 2]", "json object"),
    (b"{" * 5000, "not json"),
]


@pytest.mark.parametrize("raw, key", DAMAGED)
def test_a_damaged_web_json_is_kept_aside_named_and_the_page_still_works(tmp_path: Path, raw: bytes, key: str) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "web.json").write_bytes(raw)
    table = start_table(tmp_path, join_code=None, host_pin=None)
    try:
        store = table.app.extensions["skeptics_web"].store
        assert any(key.lower() in problem.lower() for problem in store.problems), store.problems
        kept = list(data_dir.glob("web.json.damaged-*"))
        assert len(kept) == 1 and kept[0].read_bytes() == raw
        assert stat.S_IMODE(kept[0].stat().st_mode) == 0o600
        viewer = Client(table.url).join(store.join_code)
        assert viewer.get("/api/state").status == 200
        assert len(store.join_code) >= 6
    finally:
        table.server.stop()
        table.service.close()


def test_a_bom_in_web_json_is_accepted(tmp_path: Path) -> None:
    good = json.dumps({"secret_key": "cd" * 32, "join_code": "QWERTY"}).encode()
    (tmp_path / "web.json").write_bytes(b"\xef\xbb\xbf" + good)
    store = WebStore(WebSettings(data_dir=tmp_path))
    assert store.problems == [] and store.join_code == "QWERTY"


def test_a_lost_pin_makes_a_new_join_code(tmp_path: Path) -> None:
    (tmp_path / "web.json").write_text(json.dumps({"secret_key": "cd" * 32, "join_code": "QWERTY", "pin": {"salt": 3}}))
    store = WebStore(WebSettings(data_dir=tmp_path))
    assert not store.pin_set and store.join_code != "QWERTY"
    assert any("first to join chooses" in problem for problem in store.problems)


# -- secrets on disk, join codes ---------------------------------------------------------------------


def test_secret_files_are_readable_by_the_owner_only(table: Table) -> None:
    host, viewer = table.host(), table.viewer()
    assert host.post("/api/command", {"command": "end-round", "args": {}}).status == 200
    viewer.post("/api/host/login", {"pin": "0000"})
    table.client().get("/join?code=WRONG7")
    for name in (
        "web.json",
        "web-pin-limits.json",
        "web-join-limits.json",
        "web-phones.json",
        "web-actions.jsonl",
        "games.sqlite",
    ):
        mode = stat.S_IMODE((table.data_dir / name).stat().st_mode)
        assert mode == 0o600, (name, oct(mode))
    assert not any(name.startswith(".web") for name in os.listdir(table.data_dir))  # no temp file left


@pytest.mark.parametrize("code", ["ABC12", "  ab 1  ", "ÄBCDEFG", "ABC-123"])
def test_join_codes_are_six_or_more_letters_and_digits(tmp_path: Path, code: str) -> None:
    with pytest.raises(ConfigError, match="web.join_code"):
        WebSettings(data_dir=tmp_path, join_code=code)


def test_a_right_code_sent_with_every_request_writes_nothing(table: Table) -> None:
    limits = table.data_dir / "web-join-limits.json"
    for _ in range(20):
        assert table.client().get("/api/state", headers={"X-Join-Code": JOIN_CODE}).status == 200
    assert not limits.exists()
    assert table.client().get("/api/state", headers={"X-Join-Code": "WRONG9"}).status == 403
    assert limits.exists()
    assert table.app.extensions["skeptics_web"].join_throttle.report()["failures_in_window"] == 1
