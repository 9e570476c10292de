"""`companion serve`: the whole table in one process, the composition root of the companion.

It builds, in this order, and connects them through the game service's listeners:

1. the game service (``GameService`` over the SQLite history in the data directory): the one owner
   of the game; it resumes the last game, or starts a first one with the ``[game]`` defaults so
   that the phone page always has something to show;
2. the table hardware (``hardware.Table``: clock hand, OLED, buttons, buzzer, voice);
3. the camera, the dice reader and the ``TrayWatcher`` that reads a settled roll once;
4. the phone page (``web.create_app``) served by waitress.

Threads: gpiozero calls the button callbacks on its own threads, the tray watcher runs a camera
loop, waitress runs worker threads. None of them touches the hardware or turns a reading into a
command itself: they put a small job into the main loop's inbox, and the main thread runs the
jobs one by one. Commands go through the service, whose lock makes every change one atomic step,
and every commit reaches the listeners (the hardware through the inbox, the web's event streams
through their own queues) in commit order.

The main thread also feeds systemd's watchdog (``WATCHDOG=1``) while the loop turns and the web
server answers, tells systemd ``READY=1`` once the server listens and ``STOPPING=1`` when it
stops. SIGTERM and SIGINT stop the companion cleanly: the camera stops, the server stops, the
hand parks, the OLED says the game is paused, the history file is closed, exit code 0.

Without a Raspberry Pi (and always with ``--sim``) the same program runs on gpiozero's mock pins,
luma's dummy display and a camera that replays the bundled photos of dice, on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import queue
import random
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from companion.config import CameraConfig, Config, first_game_setup, load_config, port_value, prefix_error
from companion.daemon import Notifier, setup_logging, watchdog_interval
from companion.errors import CardsNeeded, CompanionError, ConfigError
from companion.games.skeptics.sentences import for_players
from companion.paths import default_data_dir

if TYPE_CHECKING:
    from flask import Flask

    from companion.games.skeptics.engine import Setup
    from companion.service import GameService
    from hardware import Table
    from hardware.config import HardwareConfig
    from vision.reader import DieReading
    from vision.tray_loop import Reader, TrayLoop, TraySettings
    from web.server import ServerThread
    from web.settings import WebSettings

log = logging.getLogger("companion.serve")

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_CONFIG = 2

PI_MODEL_FILE = Path("/proc/device-tree/model")
DEMO_GAME_NAME = "Demo game (started by --sim)"
MOCK_TRIM_EVERY = 60.0  # seconds between trims of the simulated pins' state history

Job = Callable[[], None]


# ---------------------------------------------------------------------------------------------------
# Command line


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion serve",
        description=(
            "Run the table companion: the clock hand, the OLED, the dice tray and the phone page. "
            "Without a Raspberry Pi (or with --sim) the hardware is simulated."
        ),
    )
    parser.add_argument("--sim", action="store_true", default=None,
                        help="simulate the hardware: mock pins, dummy OLED, replayed dice photos; serve on 127.0.0.1")
    parser.add_argument("--config", metavar="PATH",
                        help="the configuration file (default: $COMPANION_CONFIG, "
                             "~/.config/skeptics-companion/config.toml, /etc/skeptics-companion/config.toml)")
    parser.add_argument("--host", metavar="H", help="address to listen on (default 0.0.0.0; 127.0.0.1 with --sim)")
    parser.add_argument("--port", metavar="P", help="port to listen on (default 8080; 0 picks a free one)")
    parser.add_argument("--check", action="store_true",
                        help="check the configuration, print where everything would go, and exit")
    return parser


# ---------------------------------------------------------------------------------------------------
# Where we run


def is_raspberry_pi(model_file: Path = PI_MODEL_FILE) -> bool:
    from hardware.factory import board_model

    return "raspberry pi" in board_model(model_file).lower()


def listen_host(config: Config, sim: bool) -> str:
    if config.web.host is not None:
        return config.web.host
    return "127.0.0.1" if sim else "0.0.0.0"


def page_urls(host: str, port: int, public_url: str | None = None) -> list[str]:
    """Where phones find the page: the configured public address, else this machine's names."""
    if public_url:
        return [public_url.rstrip("/") + "/"]
    if host not in ("0.0.0.0", "::"):
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}/"]
    urls = [f"http://{socket.gethostname()}.local:{port}/"]
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        for address in sorted({str(info[4][0]) for info in infos}):
            if not address.startswith("127."):
                urls.append(f"http://{address}:{port}/")
    except OSError:
        pass
    return urls


# ---------------------------------------------------------------------------------------------------
# Checking the configuration of every part before anything moves


@dataclass
class PartConfigs:
    """Each part's checked settings (its own types), built from the raw tables of ``Config``."""

    hardware: HardwareConfig | None = None
    camera: CameraConfig | None = None
    tray: TraySettings | None = None
    web: WebSettings | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def check_parts(config: Config, sim: bool) -> PartConfigs:
    """Let every part check its table; any wrong value raises ConfigError naming the key."""
    parts = PartConfigs()
    parts.hardware = _check_hardware(config)
    parts.camera, parts.tray = _check_vision(config, sim)
    parts.web = _check_web(config)
    # game.packs_dir / COMPANION_PACKS_DIR: a broken pack file names the key, the file and the entry.
    parts.extra["packs"] = config.load_packs()
    parts.extra["first_game"] = first_game_setup(config, parts.extra["packs"])
    return parts


def _check_hardware(config: Config) -> HardwareConfig:
    from hardware.config import HardwareConfig

    try:
        return HardwareConfig.from_dict(config.section("hardware"))
    except ConfigError as exc:
        raise prefix_error("hardware", exc) from None


def _check_vision(config: Config, sim: bool) -> tuple[CameraConfig, TraySettings]:
    """``[tray]`` and ``[dice.pips]``, checked by the vision part."""
    from vision.tray_loop import tray_settings

    tray = dict(config.section("tray"))
    if sim and "kinds" not in tray:
        # The replayed photos are of ordinary dice in every colour: in the simulation they all read as clue dice
        # (green key dice and red summon dice stay as on a real table), so the photos and the rules agree.
        from vision.tray_loop import sim_color_kinds

        tray["kinds"] = sim_color_kinds()
    return config.camera, tray_settings(tray, config.dice.pips)


def _check_web(config: Config) -> WebSettings:
    """The ``[web]`` keys that belong to the phone page, checked by the web part."""
    from web.settings import settings_from_config

    return settings_from_config(config.web.extra, data_dir=config.data_dir, threads=config.web.threads)


# ---------------------------------------------------------------------------------------------------
# The companion


class Companion:
    """Builds the parts, runs the main loop, stops cleanly. ``main()`` is the command around it."""

    def __init__(
        self,
        config: Config,
        *,
        sim: bool,
        parts: PartConfigs | None = None,
        notifier: Notifier | None = None,
        rng: random.Random | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        tray_reader: Reader | None = None,
    ) -> None:
        self.config = config
        self.tray_reader = tray_reader
        self.sim = sim
        self.parts = parts if parts is not None else check_parts(config, sim)
        self.notifier = notifier if notifier is not None else Notifier()
        self.rng = rng if rng is not None else random.Random()
        self.monotonic = monotonic
        self.inbox: queue.Queue[Job] = queue.Queue()
        self.stop_event = threading.Event()
        self.stop_reason = "stop requested"
        self.service: GameService | None = None
        self.table: Table | None = None
        self.tray: TrayLoop | None = None
        self.teacher: Any = None  # vision.teach.Teacher while a tray camera runs
        self.app: Flask | None = None
        self.server: ServerThread | None = None
        self.host = listen_host(config, sim)
        self.port = config.web.port
        self.urls: list[str] = []
        self.join_code: str | None = None
        self.healthy = True
        self.start_problems: list[str] = []  # damaged files found at start, for the page
        self.watchdog_every: float | None = None
        self.next_ping = 0.0
        self.next_probe = 0.0
        self.next_trim = 0.0
        self._stopped = False

    @property
    def game(self) -> GameService:
        """The game service, which ``start()`` builds first; every other part is wired to it."""
        if self.service is None:
            raise CompanionError("the game service has not started yet")
        return self.service

    # -- start ---------------------------------------------------------------------------------

    def start(self) -> None:
        """Build and connect everything; the server listens when this returns."""
        started = self.monotonic()
        self.config.data_dir.mkdir(parents=True, exist_ok=True)
        self._start_service()
        self._start_hardware()
        self._start_tray()
        self._start_web()
        self.notifier.notify("READY=1")
        self.notifier.notify(f"STATUS=serving {self.urls[0] if self.urls else ''}")
        log.info("ready in %.1f s", self.monotonic() - started)

    def _start_service(self) -> None:
        from companion.history import ReplayError, open_history
        from companion.service import GameService

        store, problem = open_history(self.config.history_path, stamp=time.strftime("%Y%m%d-%H%M%S"))
        if problem is not None:
            log.error("%s", problem)
            self.start_problems.append(problem)
        packs = self.parts.extra.get("packs")
        if packs is None:
            packs = self.config.load_packs()
        if self.config.packs_dir is not None:
            log.info("packs: the bundled files, with the edited ones of %s", self.config.packs_dir)
        from companion.box import Box

        # a script read out (Among Cultists' night) is spoken in the voice's language
        language = self.parts.hardware.voice.language if self.parts.hardware is not None else "en"
        self.service = GameService(store, packs, rng=self.rng, box=Box(self.config.box_dir), speech_language=language)
        try:
            state = self.service.resume_last()
        except ReplayError as exc:
            # The packs changed under a saved game: keep it in the file, play a new one meanwhile.
            log.error("the last game cannot be resumed: %s. Starting a new game; the old one stays in %s.",
                      exc, self.config.history_path)
            state = None
        if state is not None:
            log.info("resumed game %s (%s commands) from %s", state.get("game_id"),
                     state.get("history_length"), self.config.history_path)
        elif self.sim:
            # Something to look at on a laptop: a demo game, named so, which the page says it is.
            state = self.service.new_game(self._first_setup(), name=DEMO_GAME_NAME)
            log.info("no saved game in %s; started a demo game (%s) for the simulation",
                     self.config.history_path, state.get("game_id"))
        else:
            log.info("no saved game in %s; the host starts one on the phone page", self.config.history_path)

    def _first_setup(self) -> Setup:
        from companion.games.skeptics.engine import Setup

        setup = dict(self.parts.extra.get("first_game") or first_game_setup(self.config))
        seed = self.config.game.seed if self.config.game.seed is not None else self.rng.randrange(2**31)
        return Setup(seed=seed, **setup)

    def _start_hardware(self) -> None:
        from hardware import Table

        try:
            # the data folder keeps the voice's rendered lines, the owner's voice files and the host's choice
            self.table = Table(self.parts.hardware, sim=self.sim, data_dir=self.config.data_dir)
        except CompanionError as exc:
            log.error("the table hardware cannot start (%s); the phone page runs without it", exc)
            return
        found: list[str] = []
        missing: list[str] = []
        for name, part in self.table.status().get("parts", {}).items():
            message = str(part.get("message", part)) if isinstance(part, Mapping) else str(part)
            ok = part.get("found", True) if isinstance(part, Mapping) else True
            (found if ok else missing).append(f"{name} ({message})" if message != "ok" else name)
        log.info("hardware%s: %s", " (simulated)" if self.sim else "", ", ".join(found) or "none found")
        for item in missing:
            log.warning("hardware missing: %s", item)
        # The hand goes back to the game's hour, the OLED shows the game; then every commit updates both.
        self.table.show(self.game.state())
        self.game.add_listener(self.table.on_events)
        # a script read out is timed by its rendered lines: each pause starts when the voice has said its step
        self.game.speech_length = self.table.voice.length
        # and rendered ahead, in the background: this game's lines now, each next game's when it starts
        self.game.speech_prepare = self.table.voice.prepare
        self.table.voice.prepare(self.game.script_lines())
        self.table.when_end_round = lambda: self.post(self.end_round_pressed)
        self.table.when_read_dice = lambda: self.post(self.read_dice_pressed)
        self.table.when_undo = lambda: self.post(self.undo_pressed)

    def _start_tray(self) -> None:
        from vision.tray_loop import TrayLoop

        if not self.config.camera.enabled:
            log.info("camera: off (camera.enabled = false); dice are entered on the page")
            return
        assert self.parts.tray is not None
        self.tray = TrayLoop(self.config.camera, self.parts.tray, sim=self.sim, reader=self.tray_reader,
                             on_readings=lambda readings, why: self.post(lambda: self.dice_read(readings, why)))
        self._start_teacher()
        self.tray.start()

    def _start_teacher(self) -> None:
        """The page's "Teach the reader": photos kept in the data folder; a reader taught there is used again."""
        from dataclasses import replace

        from vision.teach import Teacher, load_taught, taught_path

        assert self.tray is not None
        watcher = self.tray.watcher
        saved = taught_path(self.config.data_dir)
        if watcher.settings.taught is None and saved.is_file():
            try:
                watcher.settings = replace(watcher.settings, taught=load_taught(saved))
                log.info("tray: the reader taught on the page (%s)", saved)
            except CompanionError as exc:
                log.warning("tray: the reader taught on the page cannot be used (%s); the shipped one reads", exc)
        self.teacher = Teacher(self.config.data_dir, watcher)

    def _start_web(self) -> None:
        from web import create_app
        from web.server import ServerThread

        assert self.parts.web is not None
        # Dice typed as pips on the page use the table's pip map.
        pip_map = self.parts.tray.pip_map if self.parts.tray is not None else None
        # The page says what went wrong at start (a damaged history kept aside).
        self.app = create_app(self.game, self.parts.web, hardware=self.table, tray=self.tray, pip_map=pip_map,
                              teacher=self.teacher,
                              startup_problems=self.start_problems)
        # Binds and listens here: a port in use fails now, before READY=1.
        try:
            self.server = ServerThread(self.app, host=self.host, port=self.port, threads=self.config.web.threads)
        except OSError as exc:
            raise CompanionError(
                f"cannot listen on {self.host}:{self.port} ({exc.strerror or exc}); another program (another "
                "companion?) may be using the port: stop it, or choose another port with --port or web.port."
            ) from None
        self.port = self.server.port
        self.urls = page_urls(self.host, self.port, self.parts.web.public_url)
        self.join_code = self._read_join_code()
        log.info("phone page: %s%s", "  ".join(self.urls),
                 f"  (join code {self.join_code})" if self.join_code else "")
        if self.table is not None and self.join_code and self.urls:
            # After every start the OLED shows the join QR code (phones join first), until the next command.
            self.table.show_join(f"{self.urls[-1]}join?code={self.join_code}", self.join_code, seconds=None)

    def _read_join_code(self) -> str | None:
        context = self.app.extensions.get("skeptics_web") if self.app is not None else None
        code = getattr(getattr(context, "store", None), "join_code", None)
        return str(code) if code else None

    # -- what the table does (main thread) ------------------------------------------------------

    def tell(self, title: str, message: str) -> None:
        """A problem for the people at the table: the log and the OLED (the page shows command errors itself)."""
        log.warning("%s: %s", title, message)
        if self.table is not None:
            self.table.show_error(title, message)

    def end_round_pressed(self) -> None:
        """The table's button: Skeptics' end of the round, Elder Sign's end of the turn, Among Cultists' next phase
        (GameModule.button_commands: the first legal now)."""
        from companion.games.base import module_for

        module = module_for(self.game.rules)
        if not module.button_commands:
            self.tell("End round", f"{module.title} is played on the phones; the button does nothing in it.")
            return
        legal = {action.get("name") for action in self.game.state().get("legal") or []}
        name = next((n for n in module.button_commands if n in legal), module.button_commands[0])
        try:
            self.game.do(name, source="button")
        except CompanionError as exc:
            self.tell("End round", self.game.say(str(exc)))

    def undo_pressed(self) -> None:
        try:
            result = self.game.undo(source="button")
        except CompanionError as exc:
            self.tell("Undo", str(exc))
            return
        undone = result.events[-1].get("text") if result.events else None
        log.info("button: undid %s", undone or "the last command")

    _last_note: str | None = None

    def read_dice_pressed(self) -> None:
        if self.tray is None:
            self.tell("Read dice", "no camera is set up (camera.enabled = false); enter the dice on the page.")
            return
        self.tray.request_read()

    def dice_read(self, readings: list[DieReading], why: str) -> None:
        """Dice read in the tray: the roll of the attempt under way, when they are exactly its dice."""
        from companion.games.skeptics.roll import to_roll

        assert self.parts.tray is not None
        if self.game is not None and self.game.rules != "skeptics":
            # another game's stand-in dice: its module reads colours and pips (Elder Sign's pip map)
            if not self.config.dice.auto_roll:
                return
            try:
                self.game.roll_from_dice_seen([(r.color, r.value) for r in readings])
            except CompanionError as exc:
                if why == "button":
                    self.tell("Dice", for_players(str(exc)))
                else:
                    log.debug("dice settled, not a roll: %s", exc)
            return
        try:
            roll, problem = to_roll(readings, self.parts.tray.kinds, self.parts.tray.pip_map), None
        except CompanionError as exc:
            roll, problem = None, str(exc)
        try:
            outcome, _ = self.game.roll_from_tray(roll, why=why, auto_roll=self.config.dice.auto_roll, problem=problem)
        except CardsNeeded:  # physical decks: this roll draws a card, which only the host can name
            self.tell("Dice", "this roll draws a card from the real decks: enter it on the host's phone.")
            return
        except CompanionError as exc:  # no game yet, or the roll refused: the table is told, nothing changes
            self.tell("Dice", for_players(str(exc)))
            return
        if outcome.tell:
            self.tell("Dice", outcome.tell)
        if outcome.note:
            # Dice settling between rolls say the same thing each time (the simulation's photos every few
            # seconds): a note is logged once, then only when it changes.
            # Dice at rest with no roll waiting (a tray left full, the simulation's photos) are only debug lines.
            repeated = outcome.note == self._last_note
            self._last_note = outcome.note
            log.log(logging.DEBUG if repeated or outcome.quiet else logging.INFO, "%s", outcome.note)

    # -- the main loop -------------------------------------------------------------------------

    def post(self, job: Job) -> None:
        """Run ``job`` on the main thread (safe from any thread; returns at once)."""
        self.inbox.put(job)

    def request_stop(self, reason: str) -> None:
        self.stop_reason = reason
        self.stop_event.set()

    def run(self, tick: float = 0.5) -> None:
        """Run jobs until ``request_stop``; feed the watchdog while the loop and the server are healthy."""
        self.watchdog_every = watchdog_interval()
        while not self.stop_event.is_set():
            wait = tick
            if self.watchdog_every:
                wait = max(0.0, min(tick, self.next_ping - self.monotonic()))
            self.step(wait)

    def step(self, wait: float = 0.0) -> None:
        """One turn of the main loop: run the next job (waiting up to ``wait`` s for one), then the watchdog."""
        try:
            job = self.inbox.get(timeout=wait) if wait > 0 else self.inbox.get_nowait()
        except queue.Empty:
            job = None
        if job is not None:
            self._run_job(job)
        now = self.monotonic()
        if now >= self.next_probe:
            self.healthy = self.server_healthy()
            self.next_probe = now + min(self.watchdog_every or 10.0, 10.0)
        if self.sim and self.table is not None and now >= self.next_trim:
            self.table.forget_pin_history()  # mock pins record every change; the servo's add up over an evening
            self.next_trim = now + MOCK_TRIM_EVERY
        if self.watchdog_every and now >= self.next_ping:
            if self.healthy:
                self.notifier.notify("WATCHDOG=1")
            else:
                log.error("the web server's loop has stopped; the watchdog is not fed, so systemd will restart the companion")
            self.next_ping = now + self.watchdog_every

    def _run_job(self, job: Job) -> None:
        try:
            job()
        except CompanionError as exc:
            log.warning("%s", exc)
        except Exception:
            log.exception("a job of the main loop failed; the companion carries on")

    def server_healthy(self) -> bool:
        """The web server's loop turns and its worker threads are there, asked inside the process.

        Not a request through the network: phones holding every connection (or one slow socket) must
        not stop the watchdog, or systemd would restart the clock and the buttons with the page.
        """
        if self.server is None:
            return False
        return bool(self.server.healthy())

    # -- stop ----------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop everything in order; safe to call twice and after a failed start."""
        if self._stopped:
            return
        self._stopped = True
        self.notifier.notify("STOPPING=1")
        log.info("stopping (%s)", self.stop_reason)
        self._stop_tray()
        self._stop_web()
        self._pause_hardware()
        self._close_service()
        log.info("stopped")

    def _stop_tray(self) -> None:
        if self.tray is not None:
            try:
                self.tray.close()
                log.info("camera stopped")
            except Exception:
                log.exception("the camera did not stop cleanly")

    def _stop_web(self) -> None:
        if self.server is None:
            return
        try:
            self.server.stop()  # ends the event streams, the loop, the connections, the worker threads
            log.info("web server stopped")
        except Exception:
            log.exception("the web server did not stop cleanly")

    def _pause_hardware(self) -> None:
        """The hand parks, the OLED says the game is paused, the pins are released."""
        table = self.table
        if table is None:
            return
        if self.service is not None:
            self.service.remove_listener(table.on_events)
        try:
            had_hand = table.hand_angle is not None
            table.close()
        except Exception:
            log.exception("the table hardware did not stop cleanly")
            return
        if had_hand:
            log.info("clock hand parked at %s", table.config.servo.park)
        else:
            log.warning("no clock hand to park (the servo is missing)")
        if table.display.name == "paused":
            log.info("OLED: game paused")
        else:
            log.warning("the OLED could not show that the game is paused (%s)", table.display_part.status())

    def _close_service(self) -> None:
        if self.service is None:
            return
        state = self.service.state()
        try:
            self.service.close()
            log.info("game history closed (game %s, %s commands)", state.get("game_id"), state.get("history_length"))
        except Exception:
            log.exception("the game history did not close cleanly")


# ---------------------------------------------------------------------------------------------------
# The command


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        config = load_config(args.config)
        port = None
        if args.port is not None:
            port = _port_arg(args.port)
        config = config.with_overrides(host=args.host, port=port, sim=args.sim)
    except ConfigError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    setup_logging(config.log_level)
    sim = bool(config.sim) if config.sim is not None else not is_raspberry_pi()
    if sim and config.data_dir == default_data_dir():
        # A simulation keeps its PIN, games and photos apart from the real companion's data folder.
        config = dataclasses.replace(config, data_dir=config.data_dir / "sim")
        print(f"simulation: the PIN, the games and the tray's photos are kept in {config.data_dir}", file=sys.stderr)
    if config.sim is None and sim:
        log.info("this machine is not a Raspberry Pi: simulating the hardware (see --sim)")
    try:
        parts = check_parts(config, sim)
    except ConfigError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if args.check:
        print(f"configuration: {config.source or 'built-in defaults'}")
        print(f"data directory: {config.data_dir}")
        print(f"packs: bundled{f' + edited files in {config.packs_dir}' if config.packs_dir else ''}")
        print(f"listen on: {listen_host(config, sim)}:{config.web.port}   simulated hardware: {'yes' if sim else 'no'}")
        print("configuration OK")
        return EXIT_OK
    return run_companion(config, sim=sim, parts=parts)


def _port_arg(text: str) -> int:
    return port_value("--port", text)


def run_companion(config: Config, *, sim: bool, parts: PartConfigs) -> int:
    companion = Companion(config, sim=sim, parts=parts)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        companion.request_stop(signal.Signals(signum).name)

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    log.info("starting (config: %s, data: %s, %s hardware)", config.source or "built-in defaults",
             config.data_dir, "simulated" if sim else "real")
    code = EXIT_OK
    try:
        companion.start()
        companion.run()
    except ConfigError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        code = EXIT_CONFIG
    except CompanionError as exc:
        log.error("%s", exc)
        code = EXIT_FAILURE
    except Exception:
        log.exception("the companion failed")
        code = EXIT_FAILURE
    finally:
        companion.shutdown()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
