"""The phone view's JSON API over a real waitress server, the real GameService and a real SQLite file.

Every refusal must be a 4xx with a JSON message that says why, and must leave the game exactly as it
was (the state and the history are compared before and after).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from web_fixtures import HOST_PIN, JOIN_CODE, Client, Table, start_table


def snapshot(table: Table) -> tuple[Any, Any]:
    return table.service.state(), table.service.history()


def assert_refused(reply: Any, status: int, *words: str) -> dict[str, Any]:
    assert reply.status == status, (reply.status, reply.body)
    assert reply.headers["content-type"].startswith("application/json")
    body = reply.json()
    assert body["status"] == status
    assert isinstance(body["error"], str) and len(body["error"]) > 10
    for word in words:
        assert word.lower() in body["error"].lower(), body["error"]
    return dict(body)


# -- who may see -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/api/state",
        "/api/history",
        "/api/events",
        "/api/board",
        "/api/odds?need=eye:1",
        "/api/setup-options",
        "/api/boards/asylum",
    ],
)
def test_without_the_join_code_nothing_is_shown(shared_table: Table, path: str) -> None:
    reply = shared_table.client().get(path)
    assert_refused(reply, 403, "join")
    assert b"clock" not in reply.body


def test_a_wrong_join_code_is_refused_and_gives_no_cookie(shared_table: Table) -> None:
    client = shared_table.client()
    reply = client.get("/join?code=WRONG1")
    assert reply.status == 403
    assert b"not right" in reply.body
    assert client.get("/api/state").status == 403
    client.refresh()
    assert client.get("/api/session").json()["viewer"] is False


def test_the_join_link_sets_a_strict_httponly_cookie_and_leaves_the_code_out_of_the_url(shared_table: Table) -> None:
    client = shared_table.client()
    reply = client.get(f"/join?code={JOIN_CODE.lower()}")  # codes are read aloud: case does not matter
    assert reply.status == 200
    cookie = reply.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert 'http-equiv="refresh" content="0;url=/"' in reply.body.decode()
    state = client.get("/api/state").json()
    assert state["game_id"] == shared_table.service.state()["game_id"]
    assert client.get("/api/session").json() | {"csrf": None} == client.get("/api/session").json() | {"csrf": None}


def test_scripts_may_read_with_the_join_code_header(tmp_path: Path) -> None:
    table = start_table(tmp_path)
    try:
        client = table.client()
        assert client.get("/api/state", headers={"X-Join-Code": JOIN_CODE}).status == 200
        assert client.get("/api/state", headers={"X-Join-Code": "NOPE99"}).status == 403
    finally:
        table.server.stop()
        table.service.close()


def test_guessing_join_codes_is_slowed(tmp_path: Path) -> None:
    clock = [50.0]
    table = start_table(tmp_path, now=lambda: clock[0])
    try:
        client = table.client()
        for n in range(10):
            assert client.get(f"/join?code=GUESS{n}").status == 403
        # The eleventh try waits, even with the right code, and the header is refused too.
        reply = client.get(f"/join?code={JOIN_CODE}")
        assert reply.status == 429 and b"wait" in reply.body
        assert client.get("/api/state", headers={"X-Join-Code": JOIN_CODE}).status == 403
        clock[0] += 11
        assert client.get(f"/join?code={JOIN_CODE}").status == 200
        assert client.get("/api/state").status == 200
    finally:
        table.server.stop()
        table.service.close()


def test_a_wrong_join_code_on_the_session_counts_as_one_guess(tmp_path: Path) -> None:
    """Each request with a wrong X-Join-Code is one guess, however many checks the endpoint makes."""
    clock = [50.0]
    table = start_table(tmp_path, now=lambda: clock[0])
    try:
        client = table.client()
        for n in range(9):
            reply = client.get("/api/session", headers={"X-Join-Code": f"GUESS{n}"})
            assert reply.status == 200 and reply.json()["viewer"] is False
        # Nine wrong guesses stay under the ten free ones: the right code still works at once.
        assert client.get(f"/join?code={JOIN_CODE}").status == 200
    finally:
        table.server.stop()
        table.service.close()


def test_the_viewer_session_does_not_reveal_the_join_code_but_the_hosts_does(shared_table: Table) -> None:
    viewer = shared_table.viewer().get("/api/session").json()
    assert viewer["viewer"] is True and viewer["host"] is False
    assert "join_code" not in viewer
    host = shared_table.host().get("/api/session").json()
    assert host["host"] is True and host["join_code"] == JOIN_CODE
    assert host["join_url"].endswith(f"/join?code={JOIN_CODE}")


# -- who may act -----------------------------------------------------------------------------

POSTS: list[tuple[str, Any]] = [
    ("/api/command", {"command": "end-round", "args": {}}),
    ("/api/command/check", {"command": "end-round", "args": {}}),  # a refusal may tell what the host alone sees
    ("/api/command/refusal", {"command": "end-round", "args": {}}),
    ("/api/undo", {}),
    ("/api/roll", {}),
    ("/api/dice", {"faces": ["eye", "blank", "blank"]}),
    ("/api/new-game", {"players": 2, "confirm": True}),
    ("/api/host/change-pin", {"pin": "9999"}),
]


@pytest.mark.parametrize(("path", "body"), POSTS)
def test_a_viewer_cannot_act(shared_table: Table, path: str, body: Any) -> None:
    before = snapshot(shared_table)
    assert_refused(shared_table.viewer().post(path, body), 403, "host")
    assert snapshot(shared_table) == before


@pytest.mark.parametrize(("path", "body"), POSTS)
def test_without_the_join_code_nobody_can_act(shared_table: Table, path: str, body: Any) -> None:
    before = snapshot(shared_table)
    client = shared_table.client()
    client.refresh()  # has a CSRF token, but no join cookie
    assert_refused(client.post(path, body), 403)
    assert snapshot(shared_table) == before


@pytest.mark.parametrize(("path", "body"), POSTS)
@pytest.mark.parametrize(
    ("headers", "why"),
    [
        ({"X-CSRF-Token": None}, "token"),
        ({"X-CSRF-Token": "forged-token"}, "token"),
        ({"Origin": "http://evil.example"}, "evil.example"),
        ({"Origin": "null"}, "null"),
        ({"Sec-Fetch-Site": "cross-site"}, "another site"),
        ({"Sec-Fetch-Site": "same-site"}, "another site"),
    ],
)
def test_cross_site_requests_are_refused(
    shared_table: Table, path: str, body: Any, headers: dict[str, Any], why: str
) -> None:
    host = shared_table.host()
    before = snapshot(shared_table)
    assert_refused(host.post(path, body, headers=headers), 403, why)
    assert snapshot(shared_table) == before


def test_a_token_from_another_session_is_refused(shared_table: Table) -> None:
    host, other = shared_table.host(), shared_table.host()
    before = snapshot(shared_table)
    host.csrf = other.csrf
    assert_refused(host.post("/api/command", {"command": "end-round"}), 403, "token")
    assert snapshot(shared_table) == before


def test_a_wrong_pin_is_refused_and_guessing_is_slowed(tmp_path: Path) -> None:
    clock = [1000.0]
    table = start_table(tmp_path, now=lambda: clock[0])
    try:
        client = table.viewer()
        for _ in range(5):
            assert_refused(client.post("/api/host/login", {"pin": "0000"}), 403, "wrong host pin")
        # Sixth try, even with the right PIN: wait first ("too many wrong PINs").
        assert_refused(client.post("/api/host/login", {"pin": HOST_PIN}), 429, "wait")
        clock[0] += 31
        assert client.post("/api/host/login", {"pin": HOST_PIN}).status == 200
        assert client.get("/api/session").json()["host"] is True
    finally:
        table.server.stop()
        table.service.close()


def test_first_start_the_pin_is_chosen_on_the_page_and_stored_hashed(tmp_path: Path) -> None:
    table = start_table(tmp_path, host_pin=None)
    try:
        client = table.viewer()
        assert client.get("/api/session").json()["pin_set"] is False
        assert_refused(
            client.post("/api/host/pin", {"pin": "12"}), 400, "4 to 12 digits"
        )  # the rule, not a wrong guess
        assert_refused(client.post("/api/host/pin", {"pin": 123456}), 400, "string")
        # typed twice on the page: two different PINs are refused, and none is set
        assert_refused(client.post("/api/host/pin", {"pin": "246810", "again": "246801"}), 400, "not the same")
        assert client.get("/api/session").json()["pin_set"] is False
        old_token = client.csrf
        assert client.post("/api/host/pin", {"pin": "246810"}).status == 200
        assert client.refresh()["host"] is True
        assert client.csrf != old_token  # signing in gives a new CSRF token
        assert client.post("/api/command", {"command": "end-round"}, headers={"X-CSRF-Token": old_token}).status == 403
        stored = (table.data_dir / "web.json").read_text()
        assert "246810" not in stored and "scrypt" in stored
        # Nobody can choose it a second time; they must sign in with it.
        other = table.viewer()
        assert_refused(other.post("/api/host/pin", {"pin": "1111"}), 409, "already set")
        assert other.post("/api/host/login", {"pin": "246810"}).status == 200
        # Changing it signs every other host out.
        assert client.post("/api/host/change-pin", {"pin": "135790"}).status == 200
        assert other.get("/api/session").json()["host"] is False
        assert client.get("/api/session").json()["host"] is True
    finally:
        table.server.stop()
        table.service.close()


def test_a_new_join_code_logs_every_viewer_out(tmp_path: Path) -> None:
    table = start_table(tmp_path)
    viewer = table.viewer()
    assert viewer.get("/api/state").status == 200
    table.server.stop()
    table.service.close()
    again = start_table(tmp_path, join_code="OTHER9")
    try:
        moved = Client(again.url)
        moved.cookies = dict(viewer.cookies)  # the same browser, after the host changed the code
        assert_refused(moved.get("/api/state"), 403, "join")
    finally:
        again.server.stop()
        again.service.close()


# -- malformed requests -------------------------------------------------------------------------

MALFORMED: list[tuple[str, dict[str, Any], int, str]] = [
    # (path, request kwargs, status, a word of the message)
    ("/api/command", {"raw": b"end-round", "headers": {"Content-Type": "text/plain"}}, 400, "json"),
    ("/api/command", {"raw": b"{not json", "headers": {"Content-Type": "application/json"}}, 400, "json object"),
    ("/api/command", {"body": ["end-round"]}, 400, "json object"),
    ("/api/command", {"body": {}}, 400, "missing"),
    ("/api/command", {"body": {"command": 7}}, 400, "command name"),
    ("/api/command", {"body": {"command": "END ROUND"}}, 400, "command name"),
    ("/api/command", {"body": {"command": "fly-away"}}, 400, "fly-away"),
    ("/api/command", {"body": {"command": "end-round", "args": ["room", 3]}}, 400, "args"),
    ("/api/command", {"body": {"command": "end-round", "args": {"room": {"n": 3}}}}, 400, "room"),
    ("/api/command", {"body": {"command": "end-round", "args": {"Bad Name": "x"}}}, 400, "argument name"),
    ("/api/command", {"body": {"command": "end-round", "extra": 1}}, 400, "extra"),
    ("/api/command", {"body": {"command": "move-ghost", "args": {}}}, 400, "to"),
    ("/api/dice", {"body": {}}, 400, "faces"),
    ("/api/dice", {"body": {"faces": "eye"}}, 400, "list"),
    ("/api/dice", {"body": {"faces": ["eye", "unicorn"]}}, 400, "unicorn"),
    ("/api/dice", {"body": {"pips": [1, 7], "kind": "clue"}}, 400, "1 to 6"),
    ("/api/dice", {"body": {"pips": [1, "2"], "kind": "clue"}}, 400, "whole numbers"),
    ("/api/dice", {"body": {"pips": [1, 2]}}, 400, "kind"),
    ("/api/dice", {"body": {"pips": [1, 2], "kind": "purple"}}, 400, "purple"),
    ("/api/dice", {"body": {"faces": ["eye"], "pips": [1], "kind": "clue"}}, 400, "either"),
    ("/api/dice", {"body": {"faces": ["eye"], "command": "search"}}, 400, "roll"),
    ("/api/dice", {"body": {"faces": ["eye"], "replace": "yes"}}, 400, "replace"),
    ("/api/dice", {"body": {"faces": ["summon"], "command": "summon", "keep": ["summon"]}}, 400, "keep"),
    ("/api/dice", {"body": {"faces": ["eye"], "keep": 2}}, 400, "keep"),
    ("/api/dice", {"body": {"faces": ["eye"], "keep": [1]}}, 400, "keep"),
    ("/api/roll", {"body": {"command": "dance"}}, 400, "roll"),
    ("/api/roll", {"body": {"dice": 3}}, 400, "dice"),
    ("/api/undo", {"body": {"steps": 2}}, 400, "steps"),
    ("/api/new-game", {"body": {"players": 9, "confirm": True}}, 400, "players"),
    ("/api/new-game", {"body": {"players": "3", "confirm": True}}, 400, "players"),
    ("/api/new-game", {"body": {"players": 3, "ghost": "casper", "confirm": True}}, 400, "casper"),
    ("/api/new-game", {"body": {"players": 3, "board": 1, "confirm": True}}, 400, "board"),
    ("/api/new-game", {"body": {"players": 3, "physical": "no", "confirm": True}}, 400, "physical"),
    ("/api/new-game", {"body": {"confirm": True}}, 400, "players"),
    ("/api/new-game", {"body": {"players": 3, "confirm": "yes"}}, 400, "confirm"),
    ("/api/new-game", {"body": {"players": 3, "colour": "red"}}, 400, "colour"),
    ("/api/host/login", {"body": {"pin": 4321}}, 400, "string"),
    ("/api/host/login", {"body": {}}, 400, "pin"),
    ("/api/host/login", {"body": {"pin": "4321", "user": "me"}}, 400, "user"),
]


@pytest.mark.parametrize(("path", "kwargs", "status", "word"), MALFORMED)
def test_malformed_requests_get_400_and_change_nothing(
    shared_table: Table, path: str, kwargs: dict[str, Any], status: int, word: str
) -> None:
    host = shared_table.host()
    before = snapshot(shared_table)
    assert_refused(host.post(path, **kwargs), status, word)
    assert snapshot(shared_table) == before


def test_a_body_too_large_is_refused(shared_table: Table) -> None:
    host = shared_table.host()
    before = snapshot(shared_table)
    big = {"command": "end-round", "args": {"note": "x" * 70_000}}
    assert_refused(host.post("/api/command", big), 413, "too large")
    assert snapshot(shared_table) == before


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?need=eye:2&dice=9",
        "?need=eye:2&rolls=0",
        "?need=eye:2&rolls=x",
        "?need=unicorn:2",
        "?need=eye:2&keep=maybe",
        "?summon=-1",
        "?summon=99",
        "?need=eye:2&colour=red",
    ],
)
def test_the_odds_calculator_refuses_bad_questions(shared_table: Table, query: str) -> None:
    assert_refused(shared_table.viewer().get("/api/odds" + query), 400)


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/api/nothing-here", 404),
        ("POST", "/api/nothing-here", 404),
        ("GET", "/api/command", 405),
        ("GET", "/api/boards/moonbase", 404),
        ("PUT", "/api/state", 405),
        ("GET", "/static/secret.txt", 404),
    ],
)
def test_unknown_paths_and_methods_answer_json(shared_table: Table, method: str, path: str, status: int) -> None:
    host = shared_table.host()
    before = snapshot(shared_table)
    assert_refused(host.request(method, path, body={} if method != "GET" else None), status)
    assert snapshot(shared_table) == before


def test_last_event_id_must_be_a_number(shared_table: Table) -> None:
    viewer = shared_table.viewer()
    assert_refused(viewer.get("/api/events", headers={"Last-Event-ID": "yesterday"}), 400, "event number")
    assert_refused(viewer.get("/api/events?last_event_id=-4"), 400, "negative")


# -- commands that are well-formed but not legal now ----------------------------------------------

ILLEGAL: list[tuple[str, Any, str]] = [
    # Action 8: Summon needs a summon die; a new game has none.
    ("/api/command", {"command": "summon", "args": {"success": "true"}}, "summon"),
    # Action 7: Pull Ghost needs a ghost on the board.
    ("/api/command", {"command": "move-ghost", "args": {"to": "5"}}, "ghost"),
    ("/api/roll", {}, "attempt"),
    ("/api/roll", {"command": "summon"}, "summon die"),
    ("/api/dice", {"faces": ["eye", "eye", "blank"], "replace": True}, "correct"),
]


@pytest.mark.parametrize(("path", "body", "word"), ILLEGAL)
def test_illegal_commands_get_409_and_change_nothing(tmp_path: Path, path: str, body: Any, word: str) -> None:
    table = start_table(tmp_path)
    try:
        host = table.host()
        before = snapshot(table)
        assert_refused(host.post(path, body), 409, word)
        assert snapshot(table) == before
    finally:
        table.server.stop()
        table.service.close()


def test_the_hosts_check_gives_the_commands_refusal_and_plays_nothing(table: Table) -> None:
    """POST /api/command/check: {"ok": true} for a command /api/command would play, else the same refusal; nothing
    is played, written or told either way."""
    host = table.host()
    before = snapshot(table)
    summon = {"command": "summon", "args": {"success": "true"}}
    refused = assert_refused(host.post("/api/command/check", summon), 409, "summon")
    reply = host.post("/api/command/check", {"command": "end-round"})
    assert reply.status == 200 and reply.json() == {"ok": True}
    assert snapshot(table) == before
    assert assert_refused(host.post("/api/command", summon), 409)["error"] == refused["error"]


def test_the_hosts_refusal_question_answers_the_commands_refusal_in_words_and_plays_nothing(table: Table) -> None:
    """POST /api/command/refusal: {"refusal": null} for a command /api/command would play, else the page's words
    of its refusal (as /api/command's "say"), answered 200 (a sheet asks it as its fields change); nothing played."""
    host = table.host()
    before = snapshot(table)
    summon = {"command": "summon", "args": {"success": "true"}}
    reply = host.post("/api/command/refusal", summon)
    assert reply.status == 200
    said = assert_refused(host.post("/api/command", summon), 409)["say"]
    assert said and reply.json() == {"refusal": said}
    fine = host.post("/api/command/refusal", {"command": "end-round"})
    assert fine.status == 200 and fine.json() == {"refusal": None}
    assert snapshot(table) == before


@pytest.mark.parametrize("path", ["/api/command/check", "/api/command"])
def test_a_fault_in_the_rules_engine_is_logged_and_answered_in_words(
    table: Table, path: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rules engine that fails (a bug, not a refusal) in the host's check or in a command: the fault and the
    command go to the log, the game is rebuilt from its file, and the phone gets one sentence, no traceback."""
    host = table.host()
    assert host.post("/api/command", {"command": "end-round"}).status == 200
    before = snapshot(table)
    game = table.service._game

    def broken(command: Any) -> Any:
        raise ZeroDivisionError("an engine bug")

    step = "check" if path.endswith("check") else "push"
    monkeypatch.setattr(game, step, broken)  # this engine only: the one rebuilt from the file works
    with caplog.at_level(logging.ERROR):
        reply = host.post(path, {"command": "end-round"})
    body = assert_refused(reply, 500, "nothing was played", "the game is as it was", "log")
    assert not any(word in reply.body.decode() for word in ("Traceback", "ZeroDivisionError", "an engine bug"))
    faults = [r for r in caplog.records if r.name == "companion.service" and "rules engine failed" in r.message]
    assert len(faults) == 1 and "end-round" in faults[0].message
    assert faults[0].exc_info is not None and "an engine bug" in caplog.text
    assert not [r for r in caplog.records if r.name.startswith("web")], "logged once, by the service"
    assert snapshot(table) == before and table.service._game is not game
    assert body["say"].startswith("The companion could not work that out (a fault in its rules)")  # the page's words
    again = host.post(path, {"command": "end-round"})
    assert again.status == 200


def test_a_fault_while_a_read_is_corrected_keeps_the_read(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host corrects the tray's read and the engine fails on checking the new one: the read roll stays in the
    game (it is taken back before the check), the game matches its file and the next correction plays."""
    host = table.host()
    attempt = {"command": "attempt", "args": {"action": "search", "need": "eye:3"}}
    assert host.post("/api/command", attempt).status == 200
    assert host.post("/api/dice", {"faces": ["camera", "cobweb", "camera"]}).status == 200
    before = snapshot(table)
    game = table.service._game

    def broken(command: Any) -> Any:
        raise ZeroDivisionError("an engine bug")

    monkeypatch.setattr(game, "check", broken)
    assert_refused(host.post("/api/dice", {"faces": ["eye", "eye", "camera"], "replace": True}), 500)
    assert snapshot(table) == before
    kept = table.service._game
    assert kept.played == len(before[1]) and kept.history[-1].to_dict() == before[1][-1]["command"]
    assert host.post("/api/dice", {"faces": ["eye", "eye", "camera"], "replace": True}).status == 200
    history = table.service.history()
    assert len(history) == len(before[1]) and history[-1]["command"]["args"] == {"faces": "eye,eye,camera"}


def test_undo_with_nothing_to_undo_is_409(table: Table) -> None:
    before = snapshot(table)
    assert_refused(table.host().post("/api/undo"), 409, "nothing to undo")
    assert snapshot(table) == before


def test_a_new_game_over_a_running_one_needs_confirm(table: Table) -> None:
    host = table.host()
    assert host.post("/api/command", {"command": "end-round"}).status == 200
    before = snapshot(table)
    assert_refused(host.post("/api/new-game", {"players": 2}), 409, "confirm")
    assert snapshot(table) == before
    reply = host.post("/api/new-game", {"players": 2, "board": "museum", "ghost": "child", "confirm": True, "seed": 11})
    assert reply.status == 200
    state = reply.json()["state"]
    assert state["game_id"] != before[0]["game_id"]
    assert state["board"] == "museum" and state["round"] == 1 and state["history_length"] == 0


# -- what the host does -------------------------------------------------------------------------


def test_a_host_command_is_applied_and_recorded(table: Table) -> None:
    """Advancing the Clock: the end of a round moves the hand a quarter."""
    host = table.host()
    before = table.service.state()
    reply = host.post("/api/command", {"command": "end-round", "args": {}})
    assert reply.status == 200
    body = reply.json()
    assert "round_ended" in [e["type"] for e in body["events"]]
    assert all(e["id"] > before["last_event_id"] for e in body["events"])
    assert body["state"]["round"] == before["round"] + 1
    assert body["state"] == table.service.state()
    history = host.get("/api/history").json()
    assert [h["command"]["name"] for h in history] == ["end-round"]
    assert history[0]["source"] == "web"


def test_undo_takes_back_the_last_command(table: Table) -> None:
    host = table.host()
    before = table.service.state()
    assert host.post("/api/command", {"command": "end-round"}).status == 200
    reply = host.post("/api/undo")
    assert reply.status == 200
    after = reply.json()["state"]
    assert after["clock"] == before["clock"] and after["round"] == before["round"]
    assert reply.json()["events"][0]["type"] == "undone"
    assert after["last_event_id"] > before["last_event_id"]  # ids only grow, also across undo


def test_arguments_of_any_plain_json_type_are_passed_as_text(table: Table) -> None:
    host = table.host()
    reply = host.post("/api/command", {"command": "end-round", "args": {}})
    assert reply.status == 200
    # A number and a boolean arrive as the terminal's text ("5", "true"): refused by the rules, not by the API.
    reply = host.post("/api/command", {"command": "move-ghost", "args": {"to": 5}})
    assert reply.status == 409


def test_odds_come_from_the_dice_module(shared_table: Table) -> None:
    from companion.games.skeptics.dice import Requirement, success_probability, summon_probability

    viewer = shared_table.viewer()
    got = viewer.get("/api/odds?need=eye:2,camera:1&dice=3&rolls=2").json()
    assert got["probability"] == pytest.approx(
        success_probability(Requirement.parse("eye:2,camera:1"), dice=3, rolls=2)
    )
    no_keep = viewer.get("/api/odds?need=eye:2,camera:1&dice=3&rolls=2&keep=false").json()
    assert no_keep["probability"] < got["probability"]
    assert viewer.get("/api/odds?summon=4").json()["probability"] == pytest.approx(summon_probability(4))


def test_the_board_pack_is_served_for_the_map(shared_table: Table) -> None:
    viewer = shared_table.viewer()
    board = viewer.get("/api/board").json()
    assert board["id"] == shared_table.service.state()["board"]
    numbers = {space["number"] for space in board["spaces"]}
    assert set(range(1, 21)) <= numbers
    assert all(len(space["pos"]) == 2 for space in board["spaces"])
    ends = {n for c in board["connections"] for n in c["between"]}
    assert ends <= numbers
    # a door not filled in yet shows no keys of its own (the players count those printed on the board); a door
    # filled in keeps its number
    packs_board = shared_table.service.packs.boards[board["id"]]
    doors = {c.key: c for c in packs_board.connections if c.door}
    assert doors
    for c in board["connections"]:
        if c["door"]:
            door = doors[c["key"]]
            assert c["stand_in"] is door.placeholder
            assert c["keys"] == (None if door.placeholder else door.keys)
    options = viewer.get("/api/setup-options").json()
    assert {"asylum", "museum"} <= {b["id"] for b in options["boards"]}
    assert "child" in {g["id"] for g in options["ghosts"]}


def test_state_and_assets_are_gzipped_for_phones(shared_table: Table) -> None:
    import gzip

    viewer = shared_table.viewer()
    plain = viewer.get("/api/state")
    packed = viewer.get("/api/state", headers={"Accept-Encoding": "gzip"})
    assert packed.headers.get("content-encoding") == "gzip"
    assert json.loads(gzip.decompress(packed.body)) == plain.json()
    js = viewer.get("/static/app.js", headers={"Accept-Encoding": "gzip"})
    assert js.headers["content-encoding"] == "gzip" and len(js.body) < len(viewer.get("/static/app.js").body)
    etag = js.headers["etag"]
    assert viewer.get("/static/app.js", headers={"If-None-Match": etag}).status == 304


def test_pages_carry_a_strict_content_security_policy(shared_table: Table) -> None:
    reply = shared_table.client().get("/")
    assert reply.status == 200
    csp = reply.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert reply.headers["x-content-type-options"] == "nosniff"
    html = reply.body.decode()
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in html


def test_the_player_chooses_which_dice_to_keep(table: Table) -> None:
    """Keep-and-reroll ("Action 6: Prove" examples): the player may set aside fewer dice than count."""
    host = table.host()
    assert (
        host.post("/api/command", {"command": "attempt", "args": {"action": "search", "need": "eye:2,camera:1"}}).status
        == 200
    )
    reply = host.post("/api/dice", {"faces": ["eye", "camera", "cobweb"], "keep": ["camera"]})
    assert reply.status == 200, reply.body
    assert reply.json()["state"]["attempt"]["kept"] == ["camera"]
    assert table.service.history()[-1]["command"]["args"] == {"faces": "eye,camera,cobweb", "keep": "camera"}
    # "none" rerolls them all; a face the roll did not show is refused by the rules and changes nothing.
    reply = host.post("/api/dice", {"faces": ["eye", "cobweb"], "keep": "none"})
    assert reply.status == 200 and reply.json()["state"]["attempt"]["kept"] == ["camera"]
    before = snapshot(table)
    refused = host.post("/api/dice", {"faces": ["eye", "cobweb"], "keep": ["key"]})
    assert 400 <= refused.status < 500 and "key" in refused.json()["error"]
    assert snapshot(table) == before


@pytest.mark.parametrize(
    "setup",
    [
        {"players": 3, "board": "asylum", "ghost": "child", "seed": 7},
        {"players": 3, "board": "museum", "ghost": "child", "seed": 7, "physical": True},
        {"rules": "elder-sign", "players": 2, "seed": 7},
        {"rules": "among-cultists", "players": 5, "cultists": 1, "points_needed": 5, "seed": 3},
        {"rules": "spooks", "players": 3, "names": ["Ada", "Bo", "Cy"]},
    ],
)
def test_no_published_view_says_placeholder(tmp_path: Path, setup: dict[str, Any]) -> None:
    """A card not filled in yet is published as `stand_in`: the word "placeholder" is in no key and no text of
    what a phone reads (the state, its events, the setup options, the board), from the start and after a few
    steps of the game (the first legal action each time)."""
    t = start_table(tmp_path)
    try:
        t.service.new_game(setup)
        host = Client(t.url).join().sign_in()
        for _ in range(6):
            state = host.get("/api/state").json()
            legal = [a for a in state.get("legal") or [] if not a.get("asks")]
            if not legal or state.get("outcome"):
                break
            reply = host.post("/api/command", {"command": legal[0]["name"], "args": legal[0]["args"]})
            assert reply.status in (200, 409), reply.json()  # a card the table must name is asked (409)
        seen = [host.get(path).body.decode() for path in ("/api/state", "/api/setup-options", "/api/history")]
        if "rules" not in setup:
            seen.append(host.get("/api/board").body.decode())
            assert '"stand_in"' in seen[0]  # the bundled ghost card is a stand-in, told so
        seen += [json.dumps(r) for r in t.service.events_since(0)]
        for text in seen:
            assert "placeholder" not in text.lower(), text[:300]
    finally:
        t.server.stop()
        t.service.close()
