"""`companion serve --sim` as a real process: a Ghost Hour over HTTP, SIGKILL and resume, SIGTERM and a clean stop.

Each test starts `python -m companion serve --sim` with its own data directory (COMPANION_DATA_DIR)
and a free port chosen by the system (`--port 0`; the port is read from the log line that prints
the page's address). Waiting is polling with a deadline, never a fixed sleep.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest

from companion.paths import HOST_CHOOSES_PIN

REPO = Path(__file__).resolve().parents[1]
JOIN_CODE = "TABLE7"
HOST_PIN = "4817"
START_DEADLINE = 90.0  # OpenCV and the packs load in a few seconds; a busy 2-core CI machine is slower

pytestmark = pytest.mark.slow


class Served:
    """One `companion serve` process and its log file."""

    def __init__(self, tmp: Path, data_dir: Path, *extra: str, env: dict[str, str] | None = None) -> None:
        self.log_path = tmp / f"serve-{time.monotonic_ns()}.log"
        config = tmp / "config.toml"
        if not config.exists():
            config.write_text(
                f'[web]\njoin_code = "{JOIN_CODE}"\nhost_pin = "{HOST_PIN}"\n\n[hardware.voice]\nquiet = true\n'
                "[hardware.servo]\nspeed_deg_s = 2000.0\n",
                encoding="utf-8",
            )
        full_env = {
            k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "NOTIFY_SOCKET", "WATCHDOG_"))
        }
        full_env.update({"COMPANION_DATA_DIR": str(data_dir), "PYTHONUNBUFFERED": "1"})
        full_env.update(env or {})
        self.log_file = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--sim", "--port", "0", "--config", str(config), *extra],
            cwd=REPO,
            env=full_env,
            stdout=self.log_file,
            stderr=subprocess.STDOUT,
        )
        self.started = time.monotonic()
        self.base = ""

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def wait_ready(self, deadline: float = START_DEADLINE) -> str:
        """Poll the log for the address, then the address for an answer."""
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise AssertionError(f"companion serve exited with {self.proc.returncode}:\n{self.log()}")
            match = re.search(r"phone page: (http://127\.0\.0\.1:\d+)/", self.log())
            if match:
                self.base = match.group(1)
                try:
                    with urllib.request.urlopen(self.base + "/healthz", timeout=5) as response:
                        if response.status == 200:
                            return self.base
                except (TimeoutError, urllib.error.URLError, ConnectionError):
                    pass
            time.sleep(0.05)  # polling for readiness, bounded by the deadline
        raise AssertionError(f"companion serve did not answer within {deadline} s:\n{self.log()}")

    def stop(self, sig: int, timeout: float = 60.0) -> int:
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            self.log_file.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        self.log_file.close()


class Client:
    """A phone: a cookie jar, the join link, the CSRF token, the host PIN."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.csrf = ""

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if method == "POST":
            request.add_header("X-CSRF-Token", self.csrf)
            request.add_header("Origin", self.base)
        try:
            with self.opener.open(request, timeout=30) as response:
                raw = response.read()
                status = response.status
                kind = response.headers.get("Content-Type", "")
        except urllib.error.HTTPError as error:
            raw, status, kind = error.read(), error.code, error.headers.get("Content-Type", "")
        return status, json.loads(raw) if "json" in kind else raw

    def join_as_host(self) -> None:
        status, _ = self.request("GET", f"/join?code={JOIN_CODE}")
        assert status == 200
        status, session = self.request("GET", "/api/session")
        assert status == 200 and session["viewer"] is True
        self.csrf = session["csrf"]
        status, body = self.request("POST", "/api/host/login", {"pin": HOST_PIN})
        assert status == 200 and body == {"host": True}, body
        self.csrf = self.request("GET", "/api/session")[1]["csrf"]  # a new token with the host's rights

    def command(self, name: str, **args: str) -> dict[str, Any]:
        status, body = self.request("POST", "/api/command", {"command": name, "args": args})
        assert status == 200, body
        return dict(body)

    def state(self) -> dict[str, Any]:
        status, body = self.request("GET", "/api/state")
        assert status == 200, body
        return dict(body)

    def history(self) -> list[dict[str, Any]]:
        status, body = self.request("GET", "/api/history")
        assert status == 200, body
        return list(body)


@pytest.fixture
def served(tmp_path: Path):  # type: ignore[no-untyped-def]
    started: list[Served] = []

    def start(*extra: str, env: dict[str, str] | None = None) -> Served:
        companion = Served(tmp_path, tmp_path / "data", *extra, env=env)
        started.append(companion)
        return companion

    yield start
    for companion in started:
        companion.close()


def play_to_the_ghost_hour(client: Client) -> list[dict[str, Any]]:
    """Rulebook, "Advancing the Clock" and "The Ghost Hour": end rounds until the hand reaches XII again."""
    events: list[dict[str, Any]] = []
    for _ in range(8):
        events += client.command("end-round")["events"]
        if any(event["type"] == "ghost_hour" for event in events):
            return events
    raise AssertionError(f"no Ghost Hour after 8 rounds: {[e['type'] for e in events]}")


def test_a_ghost_hour_survives_sigkill(served, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    first = served()
    client = Client(first.wait_ready())
    assert "simulat" in first.log().lower()
    assert f"join code {JOIN_CODE}" in first.log()
    assert f"join the table: {first.base}/join?code={JOIN_CODE}" in first.log()  # the link carries the code
    client.join_as_host()
    start_state = client.state()
    assert start_state["game_id"] is not None  # a first game was made so the page shows something
    events = play_to_the_ghost_hour(client)
    ghost_hour = next(event for event in events if event["type"] == "ghost_hour")
    after_hour = client.state()
    assert after_hour["hour"] == 1 and after_hour["clock"] == "XII"
    assert after_hour["ghost_room"] == ghost_hour["room"]
    client.command("end-round")  # the hand leaves XII (the park mark), so its return can be seen
    before = client.state()
    assert before["clock"] == "III"
    history = client.history()
    assert [entry["command"]["name"] for entry in history] == ["end-round"] * len(history)

    first.proc.kill()  # no goodbye: a power cut
    assert first.proc.wait(timeout=30) == -signal.SIGKILL
    first.log_file.close()

    second = served()
    again = Client(second.wait_ready())
    again.join_as_host()
    assert "resumed game" in second.log()
    assert again.state() == before
    assert again.history() == history
    # The hand returns to the game's hour (III, a quarter turn from the park mark XII).
    end = time.monotonic() + START_DEADLINE
    while True:
        status, hardware = again.request("GET", "/api/hardware")
        assert status in (200, 503), hardware  # 503: the page listens before the table's parts have started
        if status == 200 and hardware["hand_angle"] is not None and abs(hardware["hand_angle"] - 90.0) < 0.5:
            break
        assert time.monotonic() < end, hardware
        time.sleep(0.05)  # polling the hand, bounded by the deadline


def test_sigterm_parks_pauses_and_closes_the_history(served, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    companion = served()
    client = Client(companion.wait_ready())
    client.join_as_host()
    client.command("end-round")
    commands = client.state()["history_length"]
    assert commands == 1

    assert companion.stop(signal.SIGTERM) == 0
    log = companion.log()
    assert "stopping (SIGTERM)" in log
    assert re.search(r"hand parked", log)
    assert re.search(r"game paused", log, re.IGNORECASE)
    assert "game history closed" in log
    assert log.rstrip().endswith("stopped")
    assert "Traceback" not in log

    db = tmp_path / "data" / "games.sqlite3"
    wal = db.with_name(db.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert check.execute("SELECT COUNT(*) FROM commands").fetchone() == (commands,)


def test_systemd_hears_ready_watchdog_and_stopping(served, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """sd_notify: READY=1 once the page answers, WATCHDOG=1 while healthy, STOPPING=1 on SIGTERM."""
    notify_path = tmp_path / "notify.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify_path))
    listener.settimeout(START_DEADLINE)
    try:
        companion = served(env={"NOTIFY_SOCKET": str(notify_path), "WATCHDOG_USEC": "400000"})
        messages: list[str] = []

        def receive_until(wanted: str, count: int = 1) -> None:
            end = time.monotonic() + START_DEADLINE
            while sum(m == wanted for m in messages) < count:
                assert time.monotonic() < end, messages
                messages.append(listener.recv(4096).decode())

        receive_until("READY=1")
        assert not any(m == "WATCHDOG=1" for m in messages[: messages.index("READY=1")])
        companion.wait_ready()
        receive_until("WATCHDOG=1", count=3)
        companion.proc.send_signal(signal.SIGTERM)
        receive_until("STOPPING=1")
        assert companion.proc.wait(timeout=60) == 0
    finally:
        listener.close()


def test_a_wrong_value_in_the_file_starts_with_its_default_and_the_page_says_so(tmp_path: Path) -> None:
    """A Pi boots unattended: a wrong value of the configuration file (which the page does not write) is left out,
    its default used; the log and the host's page say what, and where to fix it. `serve --check` still refuses it
    with exit 2, naming the key."""
    config = tmp_path / "config.toml"
    config.write_text(
        f'[web]\njoin_code = "{JOIN_CODE}"\nhost_pin = "{HOST_PIN}"\n\n[hardware.voice]\nquiet = true\n'
        '[hardware.display]\naddress = "abc"\n',
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    env["COMPANION_DATA_DIR"] = str(tmp_path / "data")
    checked = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--sim", "--check", "--config", str(config)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 2 and checked.stderr.startswith("companion serve: hardware.display.address")
    assert "Traceback" not in checked.stderr
    assert not (tmp_path / "data").exists()  # the check made nothing
    companion = Served(tmp_path, tmp_path / "data")
    try:
        base = companion.wait_ready()
        said = 'the config file\'s hardware.display.address is "abc", which is not '
        line = next(line for line in companion.log().splitlines() if said in line)
        assert "WARNING" in line and line.endswith(f"using 60; fix it in {config}.")  # 0x3C, the OLED's address
        phone = Client(base)
        phone.join_as_host()
        status, body = phone.request("GET", "/api/problems")
        shown = [p for p in body["problems"] if said in p]
        assert status == 200 and len(shown) == 1, body
        assert shown[0].endswith(f"fix it in {config.parent.name}/config.toml.")  # no machine path on a phone
        assert companion.stop(signal.SIGTERM) == 0
    finally:
        companion.close()


def test_a_wrong_port_on_the_command_line_is_refused(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    env["COMPANION_DATA_DIR"] = str(tmp_path / "data")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--sim", "--port", "eighty"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        == "companion serve: --port: expected a port number 1-65535 (0: any free port), got 'eighty'"
    )


def test_check_reads_the_example_configuration_and_starts_nothing(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    env.update(COMPANION_DATA_DIR=str(tmp_path / "data"), COMPANION_PORT="8099")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "serve",
            "--check",
            "--sim",
            "--config",
            str(REPO / "systemd" / "config.example.toml"),
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert f"data directory: {tmp_path / 'data'}" in result.stdout
    assert "listen on: 127.0.0.1:8099" in result.stdout
    assert result.stdout.rstrip().endswith("configuration OK")
    assert not (tmp_path / "data").exists()


def test_a_port_in_use_is_a_clear_message(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
        env["COMPANION_DATA_DIR"] = str(tmp_path / "data")
        result = subprocess.run(
            [sys.executable, "-m", "companion", "serve", "--sim", "--port", str(port)],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert result.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr
    assert "stopped" in result.stderr  # what had started was stopped again


def check_sim(tmp_path: Path, *extra: str) -> tuple[Path, str]:
    """`serve --check --sim` of a user whose home is in `tmp_path`: the data directory it names, and what it said."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_") and k != "XDG_STATE_HOME"}
    env.update(HOME=str(tmp_path / "home"), XDG_CONFIG_HOME=str(tmp_path / "config"), TMPDIR=str(tmp_path / "tmp"))
    env.pop("XDG_DATA_HOME", None)
    env.pop("STATE_DIRECTORY", None)
    (tmp_path / "tmp").mkdir(exist_ok=True)
    result = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--check", "--sim", *extra],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if x.startswith("data directory: "))
    return Path(line.removeprefix("data directory: ")), result.stderr


def test_the_simulation_keeps_its_data_apart_and_says_where(tmp_path: Path) -> None:
    """`--sim` on a laptop never writes the PIN and the games into the user's real data folder."""
    folder, said = check_sim(tmp_path)
    assert folder.name == "sim" and str(folder).startswith(str(tmp_path / "home"))
    assert f"kept in {folder}" in said and f"nothing is there yet: {HOST_CHOOSES_PIN}" in said
    # a fresh player met an earlier run's PIN and game: the start says the folder holds them, and how to start clean
    folder.mkdir(parents=True)
    (folder / "web.json").write_text("{}", encoding="utf-8")
    again, said = check_sim(tmp_path)
    assert again == folder and f"kept in {folder}" in said
    assert "earlier runs left there, the host PIN chosen then and their games" in said
    assert "companion serve --sim --fresh" in said


def test_fresh_names_a_new_empty_folder_of_its_own_and_check_makes_nothing(tmp_path: Path) -> None:
    folder, said = check_sim(tmp_path, "--fresh")
    assert folder.parent == tmp_path / "tmp" and folder.name.startswith("skeptics-companion-fresh-")
    assert f"a clean start: a new empty data folder for this run only, {folder}" in said
    # a fresh player found no word of the host PIN: where the host sets it, in the words of a first --sim start
    assert HOST_CHOOSES_PIN in said and "Host tab" in HOST_CHOOSES_PIN
    assert not folder.exists() and not (tmp_path / "home").exists()  # --check starts nothing, makes nothing


def test_a_fresh_simulation_starts_clean_beside_an_earlier_one(served, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """`--sim --fresh` with an earlier game in the data folder: the new run plays in its own empty folder (the
    demo game, game 1), and the earlier game is left as it was."""
    from companion.games.skeptics.packs import load_packs
    from companion.history import GameStore
    from companion.service import GameService

    earlier = tmp_path / "data" / "games.sqlite3"
    earlier.parent.mkdir()
    service = GameService(GameStore(earlier), load_packs())
    service.new_game({"rules": "spooks", "names": ["Ada", "Bo", "Cy"]})
    service.close()
    before = earlier.read_bytes()
    (tmp_path / "tmp").mkdir()
    companion = served("--fresh", env={"TMPDIR": str(tmp_path / "tmp")})
    client = Client(companion.wait_ready())
    client.join_as_host()
    state = client.state()
    assert state["rules"] != "spooks" and state["game_id"] == 1
    (fresh,) = (tmp_path / "tmp").iterdir()
    assert (fresh / "games.sqlite3").exists() and f"for this run only, {fresh}" in companion.log()
    assert companion.stop(signal.SIGTERM) == 0
    assert earlier.read_bytes() == before


def test_the_page_and_the_join_code_come_first_and_plainly_and_the_simulated_oled_shows_them(served) -> None:  # type: ignore[no-untyped-def]
    """A fresh host of `serve --sim` reads the page's address and the join code before anything of the table's
    parts (the page asks for the code "shown on the companion's screen"), said plainly on standard output; and the
    simulated OLED shows the join screen the Pi's OLED shows after a start (its QR code beside the code)."""
    import io

    from PIL import Image

    from hardware import screens
    from web.invite import join_link

    companion = served()
    base = companion.wait_ready()
    client = Client(base)
    client.join_as_host()
    end = time.monotonic() + START_DEADLINE
    while time.monotonic() < end and "ready in" not in companion.log():
        time.sleep(0.05)  # the table's parts start after the page listens: polling, bounded by the deadline
    said = companion.log()
    plainly = f"On a phone, open {base}/ and enter the join code {JOIN_CODE}"
    assert plainly in said
    first = said.index(plainly)
    for later in ("hardware (simulated)", "camera:", "ready in"):
        assert later in said and said.index(later) > first, later
    wanted = screens.join_screen(join_link(base + "/", JOIN_CODE), JOIN_CODE).convert("1").tobytes()
    end = time.monotonic() + START_DEADLINE
    shown = b""
    while time.monotonic() < end and shown != wanted:
        status, png = client.request("GET", f"/api/hardware/oled.png?t={time.monotonic_ns()}")
        if status == 200 and isinstance(png, bytes):
            shown = Image.open(io.BytesIO(png)).convert("1").tobytes()
        time.sleep(0.05)  # the screen thread draws it: polling, bounded by the deadline
    assert shown == wanted
    assert companion.stop(signal.SIGTERM) == 0
