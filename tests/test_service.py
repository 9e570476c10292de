"""The game service: one owner of the game, every command written before it is published.

Rule references: "Advancing the Clock" (four round ends bring the clock back to XII and the
Ghost Hour draws an Environment Card, then a Room Card), "Action 8: Summon".
"""

from __future__ import annotations

import json
import logging
import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.errors import BadCommand, HistoryError, IllegalCommand
from companion.games.base import TrayDie
from companion.games.skeptics.engine import Command, Game, Setup
from companion.games.skeptics.packs import Packs, load_packs
from companion.history import GameStore, ReplayError, StaleGameError
from companion.service import GameService


@pytest.fixture(scope="module")
def packs() -> Packs:
    return load_packs()


def setup(players: int = 3, seed: int = 7, **more: Any) -> Setup:
    values: dict[str, Any] = {
        "players": players,
        "board": "asylum",
        "ghost": "child",
        "special_items": 3,
        "seed": seed,
        "physical": False,
    }
    values.update(more)
    return Setup(**values)


class Ticks:
    def __init__(self) -> None:
        self.t = 5000.0

    def __call__(self) -> float:
        self.t += 0.5
        return self.t


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def service(db: Path, packs: Packs) -> Any:
    svc = GameService(GameStore(db), packs, rng=random.Random(3), now=Ticks())
    yield svc
    svc.close()


def view_of(state: dict[str, Any]) -> dict[str, Any]:
    """The game's own view (without what the service adds)."""
    added = (
        "game_id",
        "name",
        "last_event_id",
        "odds",
        "summon_odds",
        "legal",
        "redo",
        "started",
        "rules_title",
        "card_question",
        "end_round_words",
        "actions_limit_words",
    )
    return {k: v for k, v in state.items() if k not in added}


def typed(entry: dict[str, Any]) -> str:
    """A history entry's command in the terminal's spelling."""
    return str(Command.from_dict(entry["command"]))


def to_ghost_hour(service: GameService) -> None:
    """End rounds until the clock is back at XII ("Advancing the Clock")."""
    for _ in range(4):
        service.do("end-round")
        if service.state()["clock"] == "XII":
            return
    raise AssertionError("four round ends did not bring the clock back to XII")


def test_no_game_yet_has_a_clear_shape_and_commands_say_to_start_one(service: GameService) -> None:
    state = service.state()
    assert state["game_id"] is None and state["outcome"] is None and state["odds"] is None
    assert "No game yet" in state["message"]
    assert service.resume_last() is None
    with pytest.raises(IllegalCommand, match="Start one"):
        service.do("end-round")
    with pytest.raises(IllegalCommand):
        service.undo()
    assert service.history() == [] and service.events_since(0) == []


def test_new_game_state_carries_the_service_fields(service: GameService, packs: Packs) -> None:
    state = service.new_game(setup(), name="Friday")
    assert state["game_id"] == service.game_id and state["name"] == "Friday"
    assert state["clock"] == "XII" and state["history_length"] == 0
    assert state["odds"] is None
    assert view_of(state) == Game.new(setup(), packs).view()
    started = service.events_since(0)
    assert [e["type"] for e in started] == ["game_started"]
    assert state["last_event_id"] == started[-1]["id"]


def test_do_writes_before_publishing_and_returns_numbered_event_records(service: GameService, db: Path) -> None:
    service.new_game(setup())
    seen_in_file: list[int] = []

    def listener(events: list[dict[str, Any]], state: dict[str, Any]) -> None:
        # When the listener runs, the command is already in the file (read on a separate connection).
        raw = sqlite3.connect(db)
        seen_in_file.append(raw.execute("SELECT count(*) FROM commands").fetchone()[0])
        raw.close()

    service.add_listener(listener)
    before = service.state()["last_event_id"]
    result = service.do("end-round")
    assert result.state["clock"] == "III" and service.state()["clock"] == "III"
    assert result.events and all(e["seq"] == 1 for e in result.events)
    ids = [e["id"] for e in result.events]
    assert ids == sorted(ids) and ids[0] > before
    assert result.state["last_event_id"] == ids[-1]
    assert seen_in_file == [1]
    assert service.events_since(before) == result.events
    assert typed(service.history()[0]) == "end-round" and service.history()[0]["source"] == "host"


def test_state_survives_closing_and_resuming(db: Path, packs: Packs) -> None:
    with GameService(GameStore(db), packs, rng=random.Random(1)) as first:
        first.new_game(setup())
        for text in ["end-turn", "end-round", "timer", "end-round", "end-round", "end-round", "end-turn"]:
            first.do_text(text)
        expected = first.state()
    with GameService(GameStore(db), packs) as second:
        resumed = second.resume_last()
        assert resumed == expected
        assert [typed(h) for h in second.history()][:2] == ["end-turn", "end-round"]


def test_undo_puts_back_exactly_the_card_drawn_also_after_a_restart(db: Path, packs: Packs) -> None:
    """Undoing the Ghost Hour's draw puts the same Room Card back on the deck ("Advancing the Clock")."""
    with GameService(GameStore(db), packs) as svc:
        svc.new_game(setup())
        to_ghost_hour(svc)
        drawn = svc.state()["rooms_revealed"]
        assert len(drawn) == 1
        before_undo = svc.state()
        result = svc.undo()
        undone = result.events[0]
        assert (
            undone["type"] == "undone"
            and undone["command"]["name"] == "end-round"
            and undone["text"].startswith("Undone: ")
        )
        assert undone["events"] and undone["id"] > before_undo["last_event_id"]
        assert svc.state()["rooms_revealed"] == [] and svc.state()["clock"] == "IX"
    with GameService(GameStore(db), packs) as svc:
        svc.resume_last()
        again = svc.do("end-round").state
        assert again["rooms_revealed"] == drawn
        assert view_of(again) == view_of(before_undo)


def test_undo_with_nothing_to_undo_is_refused(service: GameService) -> None:
    service.new_game(setup())
    with pytest.raises(IllegalCommand, match="nothing to undo"):
        service.undo()


def test_refused_commands_change_nothing(service: GameService) -> None:
    service.new_game(setup())
    before = service.state()
    with pytest.raises(BadCommand):
        service.do("fly-away")
    with pytest.raises(IllegalCommand):
        service.do("summon", {"success": True})  # "Action 8: Summon": needs a summon die, none yet
    assert service.state() == before
    assert service.history() == []


def test_a_failed_write_takes_the_command_back(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    service.new_game(setup())
    before = service.state()

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise HistoryError("disk full (test)")

    monkeypatch.setattr(service.store, "append", broken)
    with pytest.raises(HistoryError, match="disk full"):
        service.do("end-round")
    assert service.state() == before
    monkeypatch.undo()
    assert service.do("end-round").state["clock"] == "III"


def test_listeners_in_order_and_a_failing_one_is_logged(service: GameService, caplog: pytest.LogCaptureFixture) -> None:
    service.new_game(setup())
    calls: list[tuple[str, list[int]]] = []

    def bad(events: list[dict[str, Any]], state: dict[str, Any]) -> None:
        calls.append(("bad", [e["id"] for e in events]))
        raise RuntimeError("listener bug")

    def good(events: list[dict[str, Any]], state: dict[str, Any]) -> None:
        calls.append(("good", [e["id"] for e in events]))
        events.clear()  # a listener cannot spoil what others receive

    service.add_listener(bad)
    service.add_listener(good)
    with caplog.at_level(logging.ERROR, logger="companion.service"):
        result = service.do("end-round")
    assert result.state["clock"] == "III"
    ids = [e["id"] for e in result.events]
    assert calls == [("bad", ids), ("good", ids)]
    assert "listener" in caplog.text and "listener bug" in caplog.text
    service.remove_listener(bad)
    service.do("end-round")
    assert [name for name, _ in calls[2:]] == ["good"]


def test_many_threads_the_history_holds_exactly_the_accepted_commands_in_order(
    service: GameService, db: Path, packs: Packs
) -> None:
    service.new_game(setup(players=1))
    heard: list[dict[str, Any]] = []
    service.add_listener(lambda events, state: heard.extend(events))
    accepted: list[list[tuple[int, str]]] = [[] for _ in range(8)]
    refused = [0] * 8
    texts = ["end-turn", "timer", "reveal-clue", "action kind=move", "end-round", "summon success=false"]
    barrier = threading.Barrier(8)

    def worker(index: int) -> None:
        rng = random.Random(index)
        barrier.wait()
        for _ in range(25):
            text = rng.choice(texts)
            try:
                result = service.do_text(text, source=f"thread{index}")
            except (IllegalCommand, BadCommand):
                refused[index] += 1
                continue
            accepted[index].append((result.events[0]["seq"] if result.events else -1, text))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    history = service.history()
    total = sum(len(a) for a in accepted)
    assert total + sum(refused) == 200
    assert [h["seq"] for h in history] == list(range(1, total + 1))
    for index, mine in enumerate(accepted):
        # Each thread's commands are in the file, at the seq it was told, from that thread.
        for seq, text in mine:
            if seq != -1:
                assert typed(history[seq - 1]) == text and history[seq - 1]["source"] == f"thread{index}"
        assert [typed(h) for h in history if h["source"] == f"thread{index}"] == [t for _, t in mine]
    # Listeners heard every commit once, in commit order.
    heard_seqs = [e["seq"] for e in heard]
    assert heard_seqs == sorted(heard_seqs) and [e["id"] for e in heard] == sorted(e["id"] for e in heard)
    # The published state is the replay of the file.
    with GameService(GameStore(db), packs) as other:
        assert other.resume_last() == service.state()


def test_state_readers_never_see_a_half_applied_command(service: GameService) -> None:
    service.new_game(setup(players=1))
    stop = threading.Event()
    bad: list[str] = []

    def reader() -> None:
        while not stop.is_set():
            state = service.state()
            in_file = len(service.history())
            # Published only after the commit: the state is never ahead of the file.
            if state["history_length"] > in_file:
                bad.append(f"state at {state['history_length']} commands, file at {in_file}")

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for thread in threads:
        thread.start()
    try:
        for _ in range(40):
            service.do("action", {"kind": "move"}) if service.state()["actions_left"] else service.do("end-turn")
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert bad == []


def test_several_games_load_and_resume_the_last_one(db: Path, packs: Packs) -> None:
    with GameService(GameStore(db), packs) as svc:
        first = svc.new_game(setup(seed=1), name="one")["game_id"]
        svc.do("end-round")
        second = svc.new_game(setup(seed=2), name="two")["game_id"]
        svc.do("end-turn")
        games = svc.list_games()
        assert [g["id"] for g in games] == [second, first]
        assert [g["current"] for g in games] == [True, False]
        state = svc.load_game(first)
        assert state["game_id"] == first and state["clock"] == "III"
        assert [typed(h) for h in svc.history()] == ["end-round"]
    with GameService(GameStore(db), packs) as svc:
        assert svc.resume_last()["game_id"] == first  # loading made it the last one
        svc.load_game(second, make_current=False)
    with GameService(GameStore(db), packs) as svc:
        assert svc.resume_last()["game_id"] == first


def test_a_command_that_no_longer_replays_is_reported_not_crashed_on(db: Path, packs: Packs) -> None:
    with GameService(GameStore(db), packs) as svc:
        gid = svc.new_game(setup())["game_id"]
        svc.do("end-round")
        svc.do("end-turn")
    raw = sqlite3.connect(db)
    raw.execute(
        "UPDATE commands SET command = ? WHERE seq = 2", (json.dumps({"name": "summon", "args": {"success": "true"}}),)
    )
    raw.commit()
    raw.close()
    with GameService(GameStore(db), packs) as svc:
        with pytest.raises(ReplayError) as info:
            svc.resume_last()
        message = str(info.value)
        assert f"game {gid}" in message and "command 2" in message and "summon success=true" in message
        assert "packs" in message
        assert info.value.seq == 2
        assert svc.state()["game_id"] is None  # nothing half-loaded


def test_two_services_on_one_file_notice_each_other(db: Path, packs: Packs) -> None:
    with GameService(GameStore(db), packs) as a, GameService(GameStore(db), packs) as b:
        a.new_game(setup())
        b.resume_last()
        a.do("end-round")
        with pytest.raises(StaleGameError, match="another program"):
            b.do("end-round")
        assert b.state() == a.state()  # b reloaded the game from the file
        b.do("end-round")
        assert b.state()["clock"] == "VI"


def test_virtual_dice_come_from_the_injected_random(db: Path, packs: Packs, tmp_path: Path) -> None:
    results = []
    for name in ("a", "b"):
        with GameService(GameStore(tmp_path / f"{name}.sqlite3"), packs, rng=random.Random(42)) as svc:
            svc.new_game(setup())
            started = svc.do("attempt", {"action": "search", "need": "eye:2,camera:1"})
            odds = started.state["odds"]
            assert odds is not None and 0.0 < odds < 1.0
            result = svc.roll_virtual()
            rolled = [e for e in result.events if e["type"] == "rolled"]
            assert len(rolled) == 1 and len(rolled[0]["faces"]) == 3
            assert svc.history()[-1]["command"]["name"] == "roll"
            results.append(rolled[0]["faces"])
    assert results[0] == results[1]


def test_odds_follow_the_dice_module(service: GameService) -> None:
    from companion.games.skeptics.dice import Attempt

    service.new_game(setup())
    state = service.do("attempt", {"action": "search", "need": "eye:2,camera:1"}).state
    expected = float(Attempt.from_dict(state["attempt"]).odds(state["actions_left"]))
    assert state["odds"] == pytest.approx(expected)


def test_dice_read_in_the_tray_are_a_roll(service: GameService) -> None:
    """Blue dice are clue dice; pips 1-3 are eyes, 4-5 cameras, 6 a cobweb (the default pip map)."""
    service.new_game(setup())
    service.do("attempt", {"action": "search", "need": "eye:1"})
    _, result = service.roll_from_tray([TrayDie("blue", 2), TrayDie("blue", 6), TrayDie("blue", 4)])
    assert service.history()[-1]["command"] == {"name": "roll", "args": {"faces": "eye,cobweb,camera"}}
    assert result is not None and any(e["type"] == "rolled" for e in result.events)
    assert service.history()[-1]["source"] == "tray"


def test_a_setup_that_no_longer_fits_the_packs_is_reported(db: Path, packs: Packs) -> None:
    with GameService(GameStore(db), packs) as svc:
        gid = svc.new_game(setup())["game_id"]
    raw = sqlite3.connect(db)
    stored = json.loads(raw.execute("SELECT setup FROM games WHERE id = ?", (gid,)).fetchone()[0])
    raw.execute("UPDATE games SET setup = ? WHERE id = ?", (json.dumps({**stored, "ghost": "banshee"}), gid))
    raw.commit()
    raw.close()
    with (
        GameService(GameStore(db), packs) as svc,
        pytest.raises(HistoryError, match=f"game {gid}.*cannot be set up again.*banshee"),
    ):
        svc.resume_last()


def test_setup_as_plain_json_starts_the_same_game(service: GameService, packs: Packs) -> None:
    state = service.new_game({"players": 3, "board": "asylum", "ghost": "child", "seed": 7})
    assert view_of(state) == Game.new(setup(), packs).view()
    with pytest.raises(BadCommand):
        service.new_game({"players": 3, "board": "asylum"})
    assert service.state()["game_id"] == state["game_id"]


def test_a_tray_reading_is_settled_and_rolled_in_one_call(service: GameService) -> None:
    """The look at the attempt under way and its roll are one operation: exactly its dice are rolled, others told."""
    eye, camera = TrayDie("blue", 1), TrayDie("blue", 4)
    service.new_game(setup())
    outcome, result = service.roll_from_tray([eye], why="settled", auto_roll=True)
    assert result is None and outcome.command is None and outcome.note  # no attempt: nothing rolled, only logged
    service.do("attempt", {"action": "search", "need": "eye:2"})
    outcome, result = service.roll_from_tray([eye, eye], why="settled", auto_roll=True)
    assert result is None and outcome.tell and "needs 3 clue dice" in outcome.tell
    outcome, result = service.roll_from_tray([eye, camera, eye], why="settled", auto_roll=True)
    assert result is not None and service.history()[-1]["source"] == "tray"
    assert service.history()[-1]["command"] == {"name": "roll", "args": {"faces": "eye,camera,eye"}}
    assert service.state()["attempt"] is None  # two eyes: the search succeeded
