"""Soak: the served companion as a real process, for minutes of accelerated play with 20 phones listening.

    uv run python benchmarks/bench_soak.py [--minutes 10] [--rate 2] [--streams 20]

It starts `python -m companion serve --sim` (simulated hardware, the tray camera replaying the bundled
photos, so OpenCV and the dice reader are loaded) in a fresh data directory and measures:

- start-up time: from the process start to the first HTTP 200 (of /healthz);
- resident memory (VmRSS from /proc) right after start, after a warm-up minute with the event streams
  connected, every 30 s, and at the end; the growth after the warm-up should be noise;
- the event streams: 20 clients on /api/events, each counting the game events it receives;
- commands per second, their median and 95th-percentile latency, refusals (commands the rules refuse
  are part of play);
- the clean stop: SIGTERM, exit code and how long it took.

The play is a seeded mix of what a table does (actions, end of turn, end of round, attempts with
virtual rolls, undo), starting a new game whenever one ends. Requests go to 127.0.0.1 only.

The default of 2 commands a second is about fifty times a real table, and as fast as the clock hand
can follow: a quarter turn takes about 1.4 s and the Ghost Hour alarm up to 6 s. The hardware's queue
merges waiting screens and hand moves, but never drops a Ghost Hour, so at 10 commands a second the
Ghost Hour announcements alone fall slowly behind (the report shows the queue), which is a backlog,
not a leak. Ten minutes at 2 a second is some 1200 commands, several
whole games: more than a four-hour evening at a real table.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
JOIN_CODE = "SOAK42"
HOST_PIN = "2468"
TARGET_MB = 150.0

PLAY: list[tuple[int, str]] = [
    (30, "action kind=move"),
    (12, "end-turn"),
    (6, "end-round"),
    (10, "attempt action=search need=eye:2,camera:1"),
    (18, "ROLL"),
    (3, "UNDO"),
    (2, "reveal-clue"),
    (1, "timer"),
]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def threads_of(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return -1


def opencv_loaded(pid: int) -> bool:
    maps = Path(f"/proc/{pid}/maps").read_text()
    return "cv2" in maps or "libopencv" in maps


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Host:
    """The host's phone: cookie session, CSRF token, PIN."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.csrf = ""

    def request(self, method: str, path: str, body: Any = None, timeout: float = 30.0) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if method == "POST":
            headers["X-CSRF-Token"] = self.csrf
            headers["Origin"] = f"http://127.0.0.1:{self.port}"
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            raw = response.read()
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name.strip()] = rest.split(";", 1)[0]
            kind = response.getheader("Content-Type", "")
            return response.status, json.loads(raw) if "json" in kind else raw
        finally:
            conn.close()

    def sign_in(self) -> None:
        self.request("GET", f"/join?code={JOIN_CODE}")
        status, session = self.request("GET", "/api/session")
        assert status == 200, session
        self.csrf = session["csrf"]
        status, body = self.request("POST", "/api/host/login", {"pin": HOST_PIN})
        assert status == 200, body
        self.csrf = self.request("GET", "/api/session")[1]["csrf"]  # signing in gives a new CSRF token


class Stream(threading.Thread):
    """One phone's event stream: counts game events and remembers the last id."""

    def __init__(self, port: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.stop = stop
        self.events = 0
        self.states = 0
        self.last_id = 0
        self.reconnects = 0
        self.error: str | None = None
        self.connected = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                headers = {"X-Join-Code": JOIN_CODE, "Accept": "text/event-stream"}
                if self.last_id:
                    headers["Last-Event-ID"] = str(self.last_id)
                conn.request("GET", "/api/events", headers=headers)
                response = conn.getresponse()
                if response.status != 200:
                    self.error = f"HTTP {response.status}"
                    response.read()
                    conn.close()
                    self.stop.wait(1.0)
                    continue
                self.connected.set()
                kind = ""
                while not self.stop.is_set():
                    raw = response.readline()
                    if not raw:
                        break
                    line = raw.decode("utf-8", "replace").rstrip("\n")
                    if line.startswith("event:"):
                        kind = line[6:].strip()
                    elif line.startswith("id:"):
                        try:
                            self.last_id = max(self.last_id, int(line[3:].strip()))
                        except ValueError:
                            pass
                    elif line.startswith("data:"):
                        if kind == "game":
                            self.events += 1
                        elif kind == "state":
                            self.states += 1
                    elif line == "":
                        kind = ""
                conn.close()
            except (OSError, http.client.HTTPException):
                self.stop.wait(0.5)  # a timeout or the server stopping: connect again, not in a tight loop
            if not self.stop.is_set():
                self.reconnects += 1


def start_server(data_dir: Path, port: int, log_path: Path) -> tuple[subprocess.Popen[bytes], float, Any]:
    config = data_dir.parent / "soak.toml"
    config.write_text(
        f'[web]\njoin_code = "{JOIN_CODE}"\nhost_pin = "{HOST_PIN}"\nheartbeat = 2.0\n\n'
        "[hardware.voice]\nquiet = true\n\n[camera]\nsim_hold_s = 5.0\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "NOTIFY_SOCKET", "WATCHDOG_"))}
    env["COMPANION_DATA_DIR"] = str(data_dir)
    log = log_path.open("wb")
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--sim", "--port", str(port), "--config", str(config)],
        cwd=REPO,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 120
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"companion serve exited with {proc.returncode}:\n{log_path.read_text()}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                startup = time.perf_counter() - t0
                conn.close()
                return proc, startup, log
            conn.close()
        except OSError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise SystemExit(f"companion serve did not answer within 120 s:\n{log_path.read_text()}")
        time.sleep(0.02)


def hardware_pending(host: Host) -> int:
    status, body = host.request("GET", "/api/hardware")
    return int(body["status"].get("pending", -1)) if status == 200 else -1


def play(
    host: Host,
    rng: random.Random,
    seconds: float,
    rate: float,
    samples: list[tuple[float, float]],
    pid: int,
    t_start: float,
    pending: list[int],
) -> dict[str, Any]:
    choices = [text for weight, text in PLAY for _ in range(weight)]
    latencies: list[float] = []
    accepted = refused = games = errors = 0
    end = time.monotonic() + seconds
    next_at = time.monotonic()
    next_sample = time.monotonic() + 30
    while time.monotonic() < end:
        pick = rng.choice(choices)
        t0 = time.perf_counter()
        if pick == "ROLL":
            status, body = host.request("POST", "/api/roll")
        elif pick == "UNDO":
            status, body = host.request("POST", "/api/undo")
        else:
            name, *args = pick.split()
            status, body = host.request(
                "POST", "/api/command", {"command": name, "args": dict(a.split("=", 1) for a in args)}
            )
        latencies.append(time.perf_counter() - t0)
        if status == 200:
            accepted += 1
            if body["state"].get("outcome"):
                status, _ = host.request(
                    "POST", "/api/new-game", {"players": rng.randint(1, 4), "seed": rng.randrange(2**31)}
                )
                games += status == 200
        elif status in (400, 409):
            refused += 1
        else:
            errors += 1
        if time.monotonic() >= next_sample:
            samples.append((time.monotonic() - t_start, rss_mb(pid)))
            pending.append(hardware_pending(host))
            next_sample += 30
        next_at += 1 / rate
        pause = next_at - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        else:
            next_at = time.monotonic()
    return {"accepted": accepted, "refused": refused, "errors": errors, "games": games, "latencies": latencies}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="length of the play after the warm-up (default 10)")
    parser.add_argument("--warmup", type=float, default=60.0, help="seconds of play before the baseline (default 60)")
    parser.add_argument("--rate", type=float, default=2.0, help="commands per second (default 2)")
    parser.add_argument("--streams", type=int, default=20, help="event streams connected (default 20)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        data_dir = Path(tmp) / "data"
        log_path = Path(tmp) / "serve.log"
        port = free_port()
        proc, startup, log = start_server(data_dir, port, log_path)
        pid = proc.pid
        t_start = time.monotonic()
        time.sleep(2.0)  # let the tray thread open the replay camera and read the first photo
        rss_start = rss_mb(pid)
        cv = opencv_loaded(pid)
        threads_start = threads_of(pid)

        host = Host(port)
        host.sign_in()
        stop = threading.Event()
        streams = [Stream(port, stop) for _ in range(args.streams)]
        for stream in streams:
            stream.start()
        for stream in streams:
            stream.connected.wait(30)
        connected = sum(stream.connected.is_set() for stream in streams)

        rng = random.Random(args.seed)
        samples: list[tuple[float, float]] = [(time.monotonic() - t_start, rss_start)]
        pending: list[int] = [hardware_pending(host)]
        warm = play(host, rng, args.warmup, args.rate, samples, pid, t_start, pending)
        rss_warm = rss_mb(pid)
        threads_warm = threads_of(pid)
        samples.append((time.monotonic() - t_start, rss_warm))
        result = play(host, rng, args.minutes * 60, args.rate, samples, pid, t_start, pending)
        rss_end = rss_mb(pid)
        threads_end = threads_of(pid)
        samples.append((time.monotonic() - t_start, rss_end))
        status, state = host.request("GET", "/api/state")
        last_event_id = state.get("last_event_id") if status == 200 else None
        tray_status, tray = host.request("GET", "/api/tray")

        reconnects = sum(stream.reconnects for stream in streams)
        stop.set()
        t_stop = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=60)
        stop_s = time.perf_counter() - t_stop
        log.close()
        log_text = log_path.read_text(encoding="utf-8", errors="replace")

    lat = sorted(result["latencies"])
    total_cmds = len(lat)
    growth = rss_end - rss_warm
    events = sorted(stream.events for stream in streams)
    caught_up = sum(stream.last_id == last_event_id for stream in streams)
    print(
        f"soak: {args.minutes:g} min after a {args.warmup:g} s warm-up, {args.rate:g} commands/s, "
        f"{connected}/{args.streams} event streams connected"
    )
    print(f"start-up, process start to first HTTP 200: {startup:.2f} s")
    print(
        f"RSS after start: {rss_start:.1f} MB (OpenCV loaded: {'yes' if cv else 'NO'}; target < {TARGET_MB:.0f} MB: "
        f"{'met' if rss_start < TARGET_MB else 'MISSED'})"
    )
    print(
        f"RSS after warm-up: {rss_warm:.1f} MB   RSS at end: {rss_end:.1f} MB   "
        f"growth: {growth:+.1f} MB ({growth / rss_warm * 100:+.1f} %)   peak sampled: {max(r for _, r in samples):.1f} MB"
    )
    print("RSS every 30 s (MB): " + " ".join(f"{r:.0f}" for _, r in samples))
    half = [r for t, r in samples if t >= samples[-1][0] / 2 + args.warmup / 2]
    if len(half) >= 2:
        print(
            f"growth over the second half of the play: {half[-1] - half[0]:+.1f} MB "
            f"({(half[-1] - half[0]) / half[0] * 100:+.1f} %)"
        )
    print("hardware jobs queued (hand sweeps, OLED screens, alarms) every 30 s: " + " ".join(map(str, pending)))
    print(f"threads: {threads_start} after start, {threads_warm} after warm-up, {threads_end} at end")
    print(
        f"commands: {total_cmds} sent, {result['accepted']} accepted, {result['refused']} refused by the rules, "
        f"{result['errors']} errors; {result['games']} new games (plus {warm['games']} in the warm-up)"
    )
    if lat:
        print(
            f"command latency: median {statistics.median(lat) * 1000:.1f} ms, "
            f"p95 {lat[int(0.95 * (len(lat) - 1))] * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms"
        )
    print(
        f"game events per stream: min {events[0]}, median {statistics.median(events):.0f}, max {events[-1]}; "
        f"streams at the last event id ({last_event_id}): {caught_up}/{len(streams)}; "
        f"reconnects during play: {reconnects}"
    )
    print(
        f"tray: {'reading shown' if tray_status == 200 and tray.get('dice') else 'no reading'} "
        f"({tray.get('camera') if isinstance(tray, dict) else tray_status})"
    )
    print(
        f"SIGTERM: exit code {code} after {stop_s:.2f} s; log says parked: {'hand parked' in log_text}, "
        f"paused: {'game paused' in log_text}, history closed: {'game history closed' in log_text}"
    )
    tracebacks = len(re.findall(r"Traceback", log_text))
    print(f"tracebacks in the log: {tracebacks}")
    return 0 if code == 0 and result["errors"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
