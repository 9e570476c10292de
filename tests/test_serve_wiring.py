"""The composition root in one process: buttons on gpiozero's mock pins, the OLED on luma's dummy device,
the hand following the clock, dice readings becoming rolls, the watchdog, logging and the start-up choices.

The main loop is turned by hand (`Companion.step`), so each test decides when jobs run; waiting for a
gpiozero callback thread or the hardware worker is polling with a deadline.
"""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from games import numbers_copied

from companion.config import Config, parse_config
from companion.daemon import JournalFormatter, Notifier, watchdog_interval
from companion.errors import ConfigError
from companion.parts import check_parts, is_raspberry_pi, listen_host, page_urls, stop_web
from companion.serve import Companion

DEADLINE = 20.0


def config_for(tmp_path: Path, **sections: Any) -> Config:
    data: dict[str, Any] = {
        "web": {"host": "127.0.0.1", "port": 0, "join_code": "TABLE7", "host_pin": "4817"},
        "camera": {"enabled": False},
        "game": {"players": 3, "seed": 7},
        "hardware": {
            "voice": {"quiet": True},
            "pins": {"debounce_s": 0.0, "long_press_s": 0.3},
            "servo": {"speed_deg_s": 2000.0},
        },
    }
    for name, table in sections.items():
        data.setdefault(name, {}).update(table)
    return parse_config(data, env={"COMPANION_DATA_DIR": str(tmp_path / "data")})


def until(companion: Companion, condition: Callable[[], bool], what: str) -> None:
    """Turn the main loop until `condition()` holds (polling with a deadline)."""
    end = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        companion.step(0.02)


@pytest.fixture
def companion(tmp_path: Path) -> Iterator[Companion]:
    config = config_for(tmp_path)
    served = Companion(config, sim=True, notifier=Notifier(env={}))
    served.start()
    try:
        yield served
    finally:
        served.shutdown()


def test_start_makes_a_first_game_and_says_ready(companion: Companion) -> None:
    state = companion.service.state()
    assert state["game_id"] == 1 and state["players"] == 3 and state["history_length"] == 0
    assert companion.notifier.sent[0] == "READY=1"
    assert companion.join_code == "TABLE7"
    assert companion.urls == [f"http://127.0.0.1:{companion.port}/"]
    assert companion.server_healthy()


def test_end_round_button_is_a_command_and_the_hand_and_oled_follow(companion: Companion) -> None:
    """Rulebook, "Advancing the Clock": the round ends, the hand moves a quarter turn (XII -> III)."""
    table = companion.table
    pin = table.pin_factory.pin(table.config.pins.end_round)
    pin.drive_low()  # pressed (pull-up: the button connects the pin to ground)
    pin.drive_high()  # released at once: a short press
    until(companion, lambda: companion.service.state()["history_length"] == 1, "the end-round command")
    state = companion.service.state()
    assert state["clock"] == "III" and state["round"] == 2
    assert companion.service.history()[-1]["source"] == "button"
    end = time.monotonic() + DEADLINE
    while table.hand_angle != pytest.approx(90.0, abs=0.5):  # the hardware worker sweeps the hand
        assert time.monotonic() < end, table.hand_angle
        time.sleep(0.02)
    assert table.oled_png() is not None


def test_a_command_played_from_a_phone_while_the_table_starts_reaches_the_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page answers before the hardware starts (the host needs its address first): a command committed just as
    the table first shows the game still moves the hand (the table listens before it first shows)."""
    from hardware import Table

    shown = Table.show
    served = Companion(config_for(tmp_path), sim=True, notifier=Notifier(env={}))

    def show_then_a_phone_plays(table: Table, state: Any) -> None:
        shown(table, state)
        if served.service.state()["history_length"] == 0:
            served.service.do("end-round")  # a phone's command, committed between the first show and the next

    monkeypatch.setattr(Table, "show", show_then_a_phone_plays)
    served.start()
    try:
        assert served.service.state()["clock"] == "III"
        table = served.table
        end = time.monotonic() + DEADLINE
        while table.hand_angle != pytest.approx(90.0, abs=0.5):  # the hardware worker sweeps the hand
            assert time.monotonic() < end, table.hand_angle
            time.sleep(0.02)
    finally:
        served.shutdown()


def test_a_long_press_undoes_the_last_command(companion: Companion) -> None:
    companion.service.do("end-round")
    companion.service.do("end-round")
    assert companion.service.state()["clock"] == "VI"
    table = companion.table
    pin = table.pin_factory.pin(table.config.pins.end_round)
    pin.drive_low()  # held: gpiozero's hold timer fires after long_press_s
    until(companion, lambda: companion.service.state()["history_length"] == 1, "the undo")
    pin.drive_high()
    companion.step(0.0)
    state = companion.service.state()
    assert state["clock"] == "III"  # one command taken back, not two, and no extra end-round on release
    assert [entry["command"]["name"] for entry in companion.service.history()] == ["end-round"]


def test_a_refused_button_command_is_shown_on_the_oled(companion: Companion) -> None:
    table = companion.table
    pin = table.pin_factory.pin(table.config.pins.end_round)
    pin.drive_low()
    until(companion, lambda: table.display.name == "error", "the error screen")  # nothing to undo yet
    pin.drive_high()
    assert companion.service.state()["history_length"] == 0


def test_read_dice_without_a_camera_says_so(companion: Companion, caplog: pytest.LogCaptureFixture) -> None:
    table = companion.table
    pin = table.pin_factory.pin(table.config.pins.read_dice)
    with caplog.at_level(logging.WARNING, logger="companion.serve"):
        pin.drive_low()
        until(companion, lambda: "no camera is set up" in caplog.text, "the read-dice answer")
        assert "no camera is set up (the configuration file turns it off); enter the dice on the page." in caplog.text
    pin.drive_high()


def die(value: int | None, color: str) -> Any:
    from vision.reader import DieReading

    return DieReading(value=value, box=(10, 10, 40, 40), confidence=0.99, color=color)


def test_a_settled_roll_of_the_attempts_dice_becomes_its_roll(companion: Companion) -> None:
    """Rulebook, "Rolling Dice" (keep and reroll): the tray's reading is the roll of the attempt under way."""
    service = companion.service
    service.do("attempt", {"action": "search", "need": "eye:2,camera:1"})
    # Blue dice are clue dice; pips 1-3 are eyes, 4-5 cameras, 6 a cobweb (the default pip map).
    companion.dice_read([die(2, "blue"), die(5, "blue"), die(6, "blue")], "settled")
    last = service.history()[-1]
    assert last["source"] == "tray"
    assert last["command"] == {"name": "roll", "args": {"faces": "eye,camera,cobweb"}}


def test_elder_sign_dice_in_the_tray_are_read_by_its_pip_map(
    companion: Companion, caplog: pytest.LogCaptureFixture
) -> None:
    """Elder Sign's stand-in dice (docs/elder-sign.md): green, yellow and red pipped dice, read by the same camera."""
    from companion.games.elder_sign.dice import Colour, PipMap

    service = companion.service
    service.new_game({"rules": "elder-sign", "players": 1, "seed": 2})
    numbers_copied(service._game, service)  # the stand-in cards' numbers, before the first turn
    card = service.state()["adventures"][0]["slot"]  # a stand-in: the host enters the tasks printed on it
    service.do("set-tasks", {"adventure": card, "tasks": "inv:6;lore:1,peril:1", "ordered": "false"})
    service.do("move", {"to": card})
    colours = service.state()["next_dice"]
    played = service.state()["history_length"]
    with caplog.at_level(logging.WARNING, logger="companion.serve"):
        companion.dice_read([die(3, colour) for colour in colours[:-1]], "button")  # a die short: told, not rolled
    assert service.state()["history_length"] == played and "this roll throws" in caplog.text
    companion.dice_read([die(4, colour) for colour in colours], "settled")
    last = service.history()[-1]
    assert last["source"] == "tray" and last["command"]["name"] == "roll"
    faces = [PipMap.default().face(Colour.parse(c), 4).value for c in colours]
    assert last["command"]["args"]["faces"] == ",".join(f"{c}:{f}" for c, f in zip(colours, faces))


def test_a_reading_that_does_not_match_the_attempt_is_not_rolled(
    companion: Companion, caplog: pytest.LogCaptureFixture
) -> None:
    service = companion.service
    service.do("attempt", {"action": "search", "need": "eye:2"})
    before = service.state()
    with caplog.at_level(logging.WARNING, logger="companion.serve"):
        companion.dice_read([die(2, "blue"), die(5, "blue")], "settled")  # three dice are needed
        companion.dice_read([die(2, "blue"), die(None, "blue"), die(1, "blue")], "settled")  # one unsure
    assert service.state() == before
    assert "needs 3 clue dice, the tray shows 2" in caplog.text
    assert "could not be read for sure" in caplog.text


def test_dice_without_an_attempt_change_nothing_and_stay_quiet(
    companion: Companion, caplog: pytest.LogCaptureFixture
) -> None:
    before = companion.service.state()
    with caplog.at_level(logging.DEBUG, logger="companion.serve"):
        companion.dice_read([die(6, "red")], "settled")
        companion.dice_read([die(None, "red"), die(3, "white")], "settled")  # dice put away, not a roll
    assert companion.service.state() == before
    assert not [r for r in caplog.records if r.levelno >= logging.INFO]  # quiet: a debug line at most
    assert "no attempt is under way" in caplog.text
    with caplog.at_level(logging.INFO, logger="companion.serve"):
        companion.dice_read([die(None, "red")], "button")  # asked for: the table is told
    assert [r.levelno for r in caplog.records if "could not be read for sure" in r.getMessage()][-1] == logging.WARNING


def test_a_custom_pip_map_is_used_for_the_tray_and_for_pips_typed_on_the_page(tmp_path: Path) -> None:
    from web_fixtures import Client

    config = config_for(tmp_path, dice={"pips": {"clue": {"eye": [4, 5, 6], "camera": [2, 3], "cobweb": [1]}}})
    served = Companion(config, sim=True, notifier=Notifier(env={}))
    served.start()
    try:
        served.service.do("attempt", {"action": "search", "need": "eye:1"})
        served.dice_read([die(1, "blue"), die(6, "blue"), die(3, "blue")], "settled")
        assert served.service.history()[-1]["command"]["args"] == {"faces": "cobweb,eye,camera"}
        # the host types the pips of the next attempt's dice on the Dice tab: the same map says their faces
        served.service.do("attempt", {"action": "search", "need": "camera:1"})
        host = Client(f"http://127.0.0.1:{served.port}").join("TABLE7").sign_in("4817")
        reply = host.post("/api/dice", {"pips": [2, 1, 5], "kind": "clue"})
        assert reply.status == 200, reply.body
        assert served.service.history()[-1]["command"]["args"]["faces"] == "camera,cobweb,eye"
    finally:
        served.shutdown()


def test_the_watchdog_is_fed_only_while_the_server_answers(companion: Companion) -> None:
    clock = [1000.0]
    companion.monotonic = lambda: clock[0]
    companion.watchdog_every = 5.0
    companion.next_ping = companion.next_probe = clock[0]
    sent = companion.notifier.sent
    companion.step()
    assert sent[-1] == "WATCHDOG=1"
    stop_web(companion.server)
    count = sent.count("WATCHDOG=1")
    for _ in range(4):
        clock[0] += 5.0
        companion.step()
    # One failed probe may be a hiccup; from the second on the watchdog starves and systemd restarts us.
    assert sent.count("WATCHDOG=1") <= count + 1
    assert companion.healthy is False


def test_shutdown_parks_pauses_and_closes(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    served = Companion(config_for(tmp_path), sim=True, notifier=Notifier(env={}))
    served.start()
    served.service.do("end-round")
    with caplog.at_level(logging.INFO):
        served.request_stop("SIGTERM")
        served.run()  # returns at once: a stop was asked for
        served.shutdown()
    assert served.notifier.sent[-1] == "STOPPING=1"
    assert "clock hand parked at XII" in caplog.text
    assert "OLED: game paused" in caplog.text
    assert "game history closed (game 1, 1 commands)" in caplog.text
    assert served.table.display.name == "paused"
    assert not (tmp_path / "data" / "games.sqlite3-wal").exists()
    served.shutdown()  # twice is harmless


def test_restart_resumes_and_the_hand_returns_to_the_games_hour(tmp_path: Path) -> None:
    first = Companion(config_for(tmp_path), sim=True, notifier=Notifier(env={}))
    first.start()
    first.service.do("end-round")
    first.service.do("end-round")
    saved = first.service.state()
    first.shutdown()
    second = Companion(config_for(tmp_path), sim=True, notifier=Notifier(env={}))
    second.start()
    try:
        assert second.service.state() == saved
        end = time.monotonic() + DEADLINE
        while second.table.hand_angle != pytest.approx(180.0, abs=0.5):  # VI
            assert time.monotonic() < end, second.table.hand_angle
            time.sleep(0.02)
    finally:
        second.shutdown()


# -- configuration of the parts ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sections", "message"),
    [
        ({"hardware": {"display": {"address": "abc"}}}, "hardware.display.address"),
        ({"hardware": {"servo": {"pin": 40}}}, "hardware.servo.pin"),
        ({"hardware": {"pins": {"end_round": 18}}}, "hardware.pins.end_round"),
        ({"hardware": {"servo": {"pulse_us": {"XII": 2500, "III": 500}}}}, "hardware.servo.pulse_us"),
        ({"tray": {"region": [0, 0, 2]}}, "tray.region"),
        ({"tray": {"kinds": {"blue": "clu"}}}, "tray.kinds.blue"),
        ({"tray": {"colours": {}}}, "tray.colours"),
        ({"web": {"host_pin": 4817}}, "web.host_pin"),
        ({"web": {"join_code": "a b!"}}, "web.join_code"),
        ({"web": {"public_url": "skeptics.local"}}, "web.public_url"),
        ({"web": {"max_streams": 60}}, "web.max_streams"),
        ({"web": {"heartbeat": 0}}, "web.heartbeat"),
        ({"web": {"pin": "1234"}}, "web.pin: unknown key"),
    ],
)
def test_every_wrong_part_value_names_its_key(tmp_path: Path, sections: dict[str, Any], message: str) -> None:
    config = config_for(tmp_path, **sections)
    with pytest.raises(ConfigError) as info:
        check_parts(config, sim=True)
    assert str(info.value).startswith(message)


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ({"board": "lighthouse"}, "game.board: unknown board 'lighthouse'; the boards are: asylum, "),
        ({"ghost": "no-such-ghost"}, "game.ghost: unknown ghost 'no-such-ghost'"),
    ],
)
def test_an_unknown_first_game_names_the_key(tmp_path: Path, game: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        check_parts(config_for(tmp_path, game=game), sim=True)
    assert str(info.value).startswith(message)


# -- small pieces -------------------------------------------------------------------------------------------


def test_journald_lines_carry_the_priority() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JournalFormatter(journal=True))
    logger = logging.getLogger("companion.test.journal")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    try:
        logger.warning("servo missing")
        logger.info("ready")
        try:
            raise ValueError("boom")
        except ValueError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
    lines = stream.getvalue().splitlines()
    assert lines[0] == "<4>companion.test.journal: servo missing"
    assert lines[1] == "<6>companion.test.journal: ready"
    assert all(line.startswith("<3>") for line in lines[2:]) and any("ValueError: boom" in line for line in lines)


def test_watchdog_interval_is_half_of_watchdog_sec() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, pid=2) is None
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "2"}, pid=2) == 15.0


def test_raspberry_pi_detection(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_text("Raspberry Pi Zero 2 W Rev 1.0\x00", encoding="utf-8")
    assert is_raspberry_pi(model)
    model.write_text("QEMU Virtual Machine", encoding="utf-8")
    assert not is_raspberry_pi(model)
    assert not is_raspberry_pi(tmp_path / "missing")


def test_simulation_listens_on_loopback_and_a_pi_on_every_network(tmp_path: Path) -> None:
    config = parse_config({}, env={})
    assert config.web.host is None
    assert listen_host(config, sim=True) == "127.0.0.1"
    assert listen_host(config, sim=False) == "0.0.0.0"
    assert listen_host(config.with_overrides(host="192.168.1.5"), sim=True) == "192.168.1.5"
    assert page_urls("0.0.0.0", 8080, "http://skeptics.local:8080") == ["http://skeptics.local:8080/"]
    assert page_urls("0.0.0.0", 8080)[0].endswith(".local:8080/")


# -- the camera thread ------------------------------------------------------------------------------------------


SAMPLES = Path(__file__).resolve().parents[1] / "vision" / "samples"


def sample_photos() -> list[Path]:
    photos = sorted(p for p in SAMPLES.glob("*.jpg"))
    if len(photos) < 2:
        pytest.skip("the bundled sample photos (vision/samples) are missing")
    return photos


def test_a_roll_settling_in_the_tray_becomes_the_attempts_roll(tmp_path: Path) -> None:
    """The real camera thread and motion detection on replayed photos; only the dice networks are replaced
    by a reader that reports three clue dice, so the test does not depend on the trained models."""
    photos = sample_photos()
    folder = tmp_path / "tray"
    folder.mkdir()
    for photo in photos[:2]:
        (folder / photo.name).write_bytes(photo.read_bytes())
    frames: list[Any] = []

    def reader(frame: Any, settings: Any) -> list[Any]:
        frames.append(frame.shape)
        return [die(1, "blue"), die(4, "blue"), die(2, "blue")]

    config = config_for(
        tmp_path,
        camera={"enabled": True, "source": f"replay:{folder}", "interval": 0.0, "settle_s": 0.0, "sim_hold_s": 0.5},
    )
    served = Companion(config, sim=False, notifier=Notifier(env={}), tray_reader=reader)
    served._start_hardware = lambda: None  # type: ignore[method-assign]
    served.start()
    try:
        assert served.service.state()["game_id"] is None  # off --sim, no game starts by itself: the host starts one
        served.service.new_game({"players": 3, "board": "asylum", "ghost": "child", "seed": 1})
        served.service.do("attempt", {"action": "search", "need": "eye:2,camera:1"})
        until(served, lambda: served.service.state()["history_length"] == 2, "a roll from the tray")
        last = served.service.history()[-1]
        assert last["source"] == "tray"
        assert last["command"]["args"] == {"faces": "eye,camera,eye"}
        assert frames and len(frames[0]) == 3  # real colour frames from the photos
        reading = served.tray.last_reading()
        assert reading is not None and [d["value"] for d in reading["dice"]] == [1, 4, 2]
        assert reading["camera"] == "replay camera"
        jpeg = served.tray.annotated_jpeg()
        assert jpeg is not None and jpeg[:2] == b"\xff\xd8"
    finally:
        served.shutdown()
    assert served.tray._thread.is_alive() is False


def test_a_missing_camera_is_reported_and_the_game_goes_on(tmp_path: Path) -> None:
    config = config_for(tmp_path, camera={"enabled": True, "source": "/dev/video-not-here", "retry_s": 60.0})
    served = Companion(config, sim=False, notifier=Notifier(env={}))
    served._start_hardware = lambda: None  # type: ignore[method-assign]
    served.start()
    try:
        end = time.monotonic() + DEADLINE
        while served.tray.error is None:
            assert time.monotonic() < end
            time.sleep(0.02)
        assert "no camera at /dev/video-not-here" in served.tray.error
        assert served.tray.last_reading()["error"] == served.tray.error
        served.service.new_game({"players": 3, "board": "asylum", "ghost": "child", "seed": 1})
        served.service.do("end-round")  # the game does not need the camera
        assert served.service.state()["clock"] == "III"
    finally:
        served.shutdown()  # does not wait out the 60 s retry


def test_a_game_that_no_longer_replays_is_kept_and_a_new_one_started(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from companion.history import GameStore

    first = Companion(config_for(tmp_path), sim=True, notifier=Notifier(env={}))
    first.start()
    first.shutdown()
    with GameStore(tmp_path / "data" / "games.sqlite3") as store:  # as if the packs had changed since
        store.append(1, 1, {"name": "summon-the-dead", "args": {}}, [{"type": "mystery"}])
    second = Companion(config_for(tmp_path), sim=True, notifier=Notifier(env={}))
    with caplog.at_level(logging.ERROR, logger="companion.serve"):
        second.start()
    try:
        assert "the last game cannot be resumed" in caplog.text
        assert second.service.state()["game_id"] == 2
        assert sorted(game["id"] for game in second.service.list_games()) == [1, 2]  # nothing deleted
    finally:
        second.shutdown()


def test_the_simulated_pins_do_not_keep_their_history_forever(companion: Companion) -> None:
    """gpiozero's mock pins record every change; the main loop forgets it now and then (sim only)."""
    clock = [500.0]
    companion.monotonic = lambda: clock[0]
    companion.next_trim = clock[0] + 60.0
    servo = companion.table.pin_factory.pin(companion.table.config.servo.pin)
    before = len(servo.states)
    for _ in range(3):
        companion.service.do("end-round")
    end = time.monotonic() + DEADLINE
    while companion.table.hand_angle != pytest.approx(270.0, abs=0.5):
        assert time.monotonic() < end
        time.sleep(0.02)
    grown = len(servo.states)
    # The sweeps were recorded (the hardware queue may merge the three moves into fewer sweeps).
    assert grown >= before + 5
    companion.step()
    assert len(servo.states) == grown  # not yet
    clock[0] += 60.0
    companion.step()
    assert len(servo.states) == 1


def test_only_the_simulation_starts_a_demo_game_and_says_it_is_one(tmp_path: Path) -> None:
    """First start: a real table gets no silent default game (the host's wizard starts it); --sim shows a demo."""
    from companion.parts import DEMO_GAME_NAME

    real = Companion(config_for(tmp_path / "real"), sim=False, notifier=Notifier(env={}))
    real._start_hardware = lambda: None  # type: ignore[method-assign]
    real._start_tray = lambda: None  # type: ignore[method-assign]
    real.start()
    try:
        assert real.service.state()["game_id"] is None
    finally:
        real.shutdown()
    demo = Companion(config_for(tmp_path / "sim"), sim=True, notifier=Notifier(env={}))
    demo.start()
    try:
        state = demo.service.state()
        assert state["game_id"] is not None and state["name"] == DEMO_GAME_NAME
    finally:
        demo.shutdown()


def test_dice_settling_the_same_way_again_are_logged_once(
    companion: Companion, caplog: pytest.LogCaptureFixture
) -> None:
    """The simulation replays a photo every few seconds: dice at rest with no roll waiting stay out of the log
    (debug lines only), and a note that repeats is logged once."""
    with caplog.at_level(logging.DEBUG, logger="companion.serve"):
        for _ in range(5):
            companion.dice_read([die(6, "red")], "settled")
        companion.dice_read([die(2, "red")], "settled")
    notes = [r for r in caplog.records if r.getMessage().startswith("dice settled")]
    assert len(notes) == 6 and all(r.levelno == logging.DEBUG for r in notes)
    companion.service.do("attempt", {"action": "search", "need": "eye:1"})
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion.serve"):
        companion.dice_read([die(1, "blue"), die(6, "blue"), die(3, "blue")], "settled")  # the roll: worth a line
    assert [r.levelno for r in caplog.records if r.getMessage().startswith("tray: rolled")] == [logging.INFO]


def test_the_simulation_reads_its_photos_dice_as_clue_dice(tmp_path: Path) -> None:
    """--sim replays photos of ordinary dice in many colours: they read as the table's dice, not as unknown colours."""
    from companion.serve import check_parts

    parts = check_parts(config_for(tmp_path), sim=True)
    assert parts.tray is not None
    kinds = dict(parts.tray.kinds)
    assert kinds["white"] == kinds["black"] == kinds["purple"] == kinds["blue"] == "clue"
    assert (kinds["green"], kinds["red"]) == ("key", "summon")
    real = check_parts(config_for(tmp_path), sim=False)
    assert real.tray is not None and "white" not in real.tray.kinds  # a real table keeps its own colours


def test_a_reader_taught_on_the_page_is_used_again_at_the_next_start(tmp_path: Path) -> None:
    """Issue 12, "Teach it your dice": the reader taught from the phone is kept in the data folder and `companion
    serve` reads the tray with it after a restart; the page's teacher is wired to the tray's watcher."""
    from vision.teach import load_examples, save_taught, taught_path, teach

    photos = sample_photos()
    labelled = [p for p in photos if p.with_suffix(".txt").is_file()][:1]
    taught = teach(load_examples(labelled))
    save_taught(taught, taught_path(tmp_path / "data"))
    folder = tmp_path / "tray"
    folder.mkdir()
    (folder / photos[0].name).write_bytes(photos[0].read_bytes())
    config = config_for(
        tmp_path,
        camera={"enabled": True, "source": f"replay:{folder}", "interval": 0.0, "settle_s": 0.0, "sim_hold_s": 0.5},
    )
    served = Companion(config, sim=False, notifier=Notifier(env={}), tray_reader=lambda frame, settings: [])
    served._start_hardware = lambda: None  # type: ignore[method-assign]
    served.start()
    try:
        assert served.tray is not None and served.teacher is not None
        assert served.tray.watcher.settings.taught is not None
        assert served.teacher.status()["in_use"] and served.teacher.watcher is served.tray.watcher
    finally:
        served.shutdown()


def test_a_damaged_taught_reader_is_named_on_the_page_and_the_shipped_one_reads(tmp_path: Path) -> None:
    """Issue 25: a file the page wrote (the taught reader) that cannot be read never stops the companion."""
    from vision.teach import taught_path

    saved = taught_path(tmp_path / "data")
    saved.parent.mkdir(parents=True, exist_ok=True)
    saved.write_bytes(b"not a taught reader")
    folder = tmp_path / "tray"
    folder.mkdir()
    photo = sample_photos()[0]
    (folder / photo.name).write_bytes(photo.read_bytes())
    config = config_for(
        tmp_path,
        camera={"enabled": True, "source": f"replay:{folder}", "interval": 0.0, "settle_s": 0.0, "sim_hold_s": 0.5},
    )
    served = Companion(config, sim=False, notifier=Notifier(env={}), tray_reader=lambda frame, settings: [])
    served._start_hardware = lambda: None  # type: ignore[method-assign]
    served.start()
    try:
        assert served.tray is not None and served.tray.watcher.settings.taught is None  # the shipped reader
        assert served.app is not None
        problems = served.app.extensions["skeptics_web"].problems()
        assert any(saved.name in p and "cannot be used" in p for p in problems), problems
    finally:
        served.shutdown()


def test_among_cultists_started_on_the_page_moves_the_hand_and_is_spoken_in_the_voices_language(tmp_path: Path) -> None:
    """Issue 16: the host chooses the game in `companion serve`; its night is spoken in hardware.voice.language and
    the hand follows the round clock."""
    config = config_for(tmp_path, hardware={"voice": {"quiet": True, "language": "de"}})
    served = Companion(config, sim=True, notifier=Notifier(env={}))
    served.start()
    try:
        assert served.service is not None and served.service.speech_language == "de"
        served.service.new_game({"rules": "among-cultists", "players": 4, "cultists": 1, "points_needed": 5, "seed": 2})
        night = served.service.narrate("night")["narration"]
        assert night["steps"][0]["say"] and night["steps"][0]["say"] != night["steps"][0]["text"]
        for command in ("night-done", "next-phase", "draw-event", "next-phase", "end-round"):
            served.service.do(command)
        assert served.table is not None
        until(served, lambda: served.table is not None and served.table.hand_mark == "I", "the hand on I")
    finally:
        served.shutdown()


def test_the_button_plays_each_games_next_step(companion: Companion) -> None:
    """The one button: Among Cultists' night ends, then its phases follow; Spooks is played on the phones, and the
    OLED says so (nothing is played)."""
    assert companion.service is not None and companion.table is not None
    companion.service.new_game({"rules": "among-cultists", "players": 4, "cultists": 1, "points_needed": 5, "seed": 2})
    table = companion.table
    pin = table.pin_factory.pin(table.config.pins.end_round)
    for phase in ("movement", "event"):
        pin.drive_low()
        pin.drive_high()
        until(companion, lambda phase=phase: companion.service.state()["phase"] == phase, f"the {phase} phase")
    assert companion.service.history()[-1]["source"] == "button"
    companion.service.new_game({"rules": "spooks", "players": 3})
    pin.drive_low()
    pin.drive_high()
    until(companion, lambda: table.display.name == "error", "the OLED's message")
    assert companion.service.state()["history_length"] == 0


def test_a_wrong_value_of_the_file_is_on_the_oled_then_the_join_screen(tmp_path: Path) -> None:
    """The configuration file's wrong value, left out at start: the OLED shows it for a few seconds before the join
    code, and the host's page names it."""
    import dataclasses

    from companion.config import settle_config

    config_file = tmp_path / "config.toml"
    config_file.write_text(
        '[web]\nhost = "127.0.0.1"\nport = 0\njoin_code = "TABLE7"\nhost_pin = "4817"\n[camera]\nenabled = false\n'
        '[hardware.voice]\nquiet = true\nvolume = "loud"\n',
        encoding="utf-8",
    )

    def build(config: Config) -> tuple[Config, Any]:
        return config, check_parts(config, sim=True)

    (config, parts), fallbacks = settle_config(
        config_file, build, lambda b: {"": b[0], "hardware": b[1].hardware}, env={"COMPANION_DATA_DIR": str(tmp_path)}
    )
    assert [f.key for f in fallbacks] == ["hardware.voice.volume"] and parts.hardware.voice.volume == 80
    served = Companion(
        dataclasses.replace(config, fallbacks=fallbacks), sim=True, parts=parts, notifier=Notifier(env={})
    )
    served.start()
    try:
        table = served.table
        assert table is not None and served.app is not None
        until(served, lambda: table.display.name == "error", "the config file's value on the OLED")
        until(served, lambda: table.display.name == "join", "the join screen after it")
        problems = served.app.extensions["skeptics_web"].problems()
        assert [p for p in problems if p.startswith('the config file\'s hardware.voice.volume is "loud"')], problems
    finally:
        served.shutdown()
