"""Issue 13: sessions the server can end, the phones the host sees, which phone acted, the host's security report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web_fixtures import HOST_PIN, JOIN_CODE, Client, Table, serve_table, start_table
from web.sessions import PhoneBook


@pytest.fixture
def table(tmp_path: Path) -> Any:
    yield from serve_table(tmp_path)


def copy_of(client: Client) -> Client:
    twin = Client(f"http://{client.host}:{client.port}")
    twin.cookies = dict(client.cookies)
    twin.csrf = client.csrf
    return twin


def end_round(client: Client) -> int:
    return client.post("/api/command", {"command": "end-round", "args": {}}).status


def test_signing_out_ends_the_session_on_the_server(table: Table) -> None:
    host = table.host()
    stolen = copy_of(host)  # a cookie copied before signing out
    assert host.post("/api/host/logout", {}).status == 200
    assert end_round(stolen) == 403
    assert stolen.get("/api/session").json()["host"] is False
    assert end_round(host) == 403  # signed out
    assert host.get("/api/state").status == 200  # still a viewer
    assert host.sign_in() and end_round(host) == 200
    assert end_round(stolen) == 403  # signing in again gives a new id: the copy stays dead


def test_a_copy_made_before_signing_in_never_becomes_host(table: Table) -> None:
    viewer = table.viewer()
    copy = copy_of(viewer)
    viewer.sign_in()
    assert end_round(viewer) == 200
    assert end_round(copy) == 403
    assert copy.get("/api/session").json()["host"] is False


def test_the_host_sees_the_phones_by_their_names_and_removes_one(table: Table) -> None:
    host = table.host()
    guest = Client(table.url).join()
    reply = guest.post("/api/phone/name", {"name": "  Anna's   phone "})
    assert reply.status == 200 and reply.json()["name"] == "Anna's phone"
    phones = host.get("/api/host/phones").json()["phones"]
    assert [p["name"] for p in phones if not p["host"]] == ["Anna's phone"]
    assert sum(1 for p in phones if p["this"]) == 1 and next(p for p in phones if p["this"])["host"] is True
    anna = next(p for p in phones if p["name"] == "Anna's phone")
    assert host.post("/api/host/phones/remove", {"id": anna["id"]}).status == 200
    assert guest.get("/api/state").status == 403
    assert guest.get("/").status == 200 and guest.get("/api/state").status == 403  # the page does not revive it
    assert host.post("/api/host/phones/remove", {"id": anna["id"]}).status == 404
    guest.join(JOIN_CODE)  # with the code it may join again (change the code to keep it out)
    assert guest.get("/api/state").status == 200


def test_removing_a_host_phone_ends_its_host_session(table: Table) -> None:
    first, second = table.host(), table.host()
    phones = first.get("/api/host/phones").json()["phones"]
    other = next(p for p in phones if p["host"] and not p["this"])
    assert first.post("/api/host/phones/remove", {"id": other["id"]}).status == 200
    assert end_round(second) == 403 and end_round(first) == 200


def test_only_the_host_lists_or_removes_phones(table: Table) -> None:
    guest = table.viewer()
    assert guest.get("/api/host/phones").status == 403
    assert guest.post("/api/host/phones/remove", {"id": "x"}).status == 403
    assert guest.get("/api/host/security").status == 403
    nobody = Client(table.url)
    assert nobody.get("/api/phone").status == 403
    host = table.host()
    no_token = copy_of(host)
    no_token.csrf = None
    assert no_token.post("/api/host/phones/remove", {"id": "x"}).status == 403  # CSRF, as every POST


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, "a\u0007b", 7])
def test_a_phone_name_is_plain_short_text(table: Table, name: Any) -> None:
    assert table.viewer().post("/api/phone/name", {"name": name}).status == 400


def test_a_new_pin_leaves_one_host_phone(table: Table) -> None:
    first, second = table.host(), table.host()
    assert first.post("/api/host/change-pin", {"pin": "86420"}).status == 200
    phones = first.get("/api/host/phones").json()["phones"]
    assert [p["this"] for p in phones if p["host"]] == [True]
    assert end_round(second) == 403


def test_the_host_sees_which_phone_sent_each_command(table: Table) -> None:
    host = table.host()
    host.post("/api/phone/name", {"name": "Host tablet"})
    assert end_round(host) == 200
    table.service.do("end-round", source="button")  # not from a phone: not in the list
    actions = host.get("/api/host/actions").json()["actions"]
    assert actions and {a["name"] for a in actions} == {"Host tablet"}
    assert all(a["phone"] for a in actions) and any(a["event"] is not None for a in actions)


def test_phones_and_sessions_survive_a_restart(tmp_path: Path) -> None:
    first = start_table(tmp_path)
    host = Client(first.url).join().sign_in()
    host.post("/api/phone/name", {"name": "Kitchen"})
    first.server.stop()
    first.service.close()
    second = start_table(tmp_path)
    try:
        again = copy_of(host)
        again.host, again.port = "127.0.0.1", second.server.port
        assert end_round(again) == 200
        names = [p["name"] for p in again.get("/api/host/phones").json()["phones"]]
        assert names == ["Kitchen"]
    finally:
        second.server.stop()
        second.service.close()


def test_the_host_sees_failed_sign_ins_and_lockouts(table: Table) -> None:
    host, guest = table.host(), table.viewer()  # the host signed in first: same address on the loopback
    for _ in range(6):
        guest.post("/api/host/login", {"pin": "0000"})
    report = host.get("/api/host/security").json()
    assert len(report["pin"]["recent"]) == 5 and report["pin"]["recent"][-1]["locked_for"] > 0
    assert report["pin"]["locked"][0]["address"] == "127.0.0.1"
    assert report["problems"] == []


def test_the_page_hears_of_a_damaged_web_json(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "web.json").write_bytes(b'{"secret_key": "' + b"ab" * 32 + b'", "join_code": 5}')
    table = start_table(tmp_path)
    try:
        problems = Client(table.url).join().get("/api/problems").json()["problems"]
        assert any("join_code" in p for p in problems) and any("damaged" in p for p in problems)
    finally:
        table.server.stop()
        table.service.close()


def test_the_phone_book_is_bounded_and_keeps_the_hosts(tmp_path: Path) -> None:
    clock = [0.0]
    book = PhoneBook(tmp_path / "phones.json", lambda: clock[0], cap=10)
    host = book.add("10.0.0.1", "Android", host=True)
    for n in range(100):
        clock[0] += 1
        book.add(f"10.0.1.{n}", "iPhone")
    assert len(book.phones()) <= 10 and book.get(host) is not None
    assert HOST_PIN  # the fixtures' PIN signs in above


def test_an_old_id_reads_a_few_seconds_then_is_gone(tmp_path: Path) -> None:
    """Requests already under way when the phone signs in or out still read; a copy kept longer does not."""
    clock = [5000.0]
    table = start_table(tmp_path, now=lambda: clock[0])
    try:
        host = table.host()
        stolen = copy_of(host)
        assert host.post("/api/host/logout", {}).status == 200
        assert stolen.get("/api/state").status == 200  # within the grace: reads
        assert end_round(stolen) == 403  # but never acts
        clock[0] += 11
        assert stolen.get("/api/state").status == 403
        assert host.get("/api/state").status == 200
        assert len(host.sign_in().get("/api/host/phones").json()["phones"]) == 1  # old ids are not listed
    finally:
        table.server.stop()
        table.service.close()


ANDROID_CHROME = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
)


@pytest.mark.parametrize(
    ("agent", "name"),
    [
        (ANDROID_CHROME, "Android phone, Chrome"),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
            "Version/17.5 Mobile/15E148 Safari/604.1",
            "iPhone, Safari",
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
            "CriOS/126.0 Mobile/15E148 Safari/604.1",
            "iPhone, Chrome",
        ),
        ("Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0", "Android phone, Firefox"),
        (
            "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 "
            "Chrome/121.0 Mobile Safari/537.36",
            "Android phone, Samsung Internet",
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 "
            "Safari/537.36 Edg/126.0",
            "Windows PC, Edge",
        ),
        ("curl/8.5.0", "Phone"),
        ("", "Phone"),
    ],
)
def test_a_phone_is_named_by_its_kind_and_browser(agent: str, name: str) -> None:
    from web.sessions import kind_of_device

    assert kind_of_device(agent) == name


def _join(table: Table, agent: str, link: str = "") -> Client:
    phone = Client(table.url)
    assert phone.get(f"/join?code={JOIN_CODE}{link}", headers={"User-Agent": agent}).status == 200
    phone.refresh()
    return phone


def test_phones_alike_get_names_the_host_tells_apart_and_the_host_renames_one(table: Table) -> None:
    """Two Android phones with the same browser on one address, and the table display: three names, none alike; the
    host renames one, and a name another phone has is refused (a phone naming itself too)."""
    host = table.host()
    first, second = _join(table, ANDROID_CHROME), _join(table, ANDROID_CHROME)
    _join(table, ANDROID_CHROME, "&table=1")
    phones = {p["id"]: p for p in host.get("/api/host/phones").json()["phones"]}
    names = sorted(p["name"] for p in phones.values() if not p["host"])
    assert names == ["Android phone, Chrome", "Android phone, Chrome 2", "Table display"]
    assert all("127.0.0.1" not in p["name"] for p in phones.values())
    ids = {p["name"]: p["id"] for p in phones.values()}
    renamed = host.post("/api/host/phones/rename", {"id": ids["Android phone, Chrome 2"], "name": " Ben's  phone "})
    assert renamed.status == 200 and renamed.json()["name"] == "Ben's phone"
    assert second.get("/api/phone").json()["name"] == "Ben's phone"  # the phone sees its new name
    taken = host.post("/api/host/phones/rename", {"id": ids["Table display"], "name": "BEN'S PHONE"})
    assert taken.status == 409 and "called Ben's phone already" in taken.json()["error"]
    assert first.post("/api/phone/name", {"name": "table display"}).status == 409
    listed = sorted(p["name"] for p in host.get("/api/host/phones").json()["phones"] if not p["host"])
    assert listed == ["Android phone, Chrome", "Ben's phone", "Table display"]  # nothing changed by the refusals
    third = _join(table, ANDROID_CHROME)  # a new phone takes the first free number again
    assert third.get("/api/phone").json()["name"] == "Android phone, Chrome 2"
    assert host.post("/api/host/phones/rename", {"id": "nobody", "name": "X"}).status == 404
    assert host.post("/api/host/phones/rename", {"id": ids["Table display"], "name": "a\u0007"}).status == 400
    assert host.post("/api/host/phones/rename", {"id": ids["Table display"], "name": "x", "more": 1}).status == 400
    assert first.post("/api/host/phones/rename", {"id": ids["Table display"], "name": "Mine"}).status == 403
