"""`companion serve`: the whole table in one process, the composition root of the companion.

It builds, in this order, and connects them through the game service's listeners: the game service (over the
SQLite history; it resumes the last game, or with ``--sim`` starts a demo game from the ``[game]`` defaults), the
table hardware (``hardware.Table``), the camera and the dice reader (``vision.tray_loop.TrayLoop``), and the phone
page (``web.create_app``) served by waitress.

Threads: gpiozero's button callbacks, the camera loop and waitress's workers never touch the hardware or turn a
reading into a command themselves: they post a small job to the main loop (companion.daemon.MainLoop), which runs
the jobs one by one and feeds systemd's watchdog while the web server answers. Commands go through the service,
whose lock makes every change one atomic step; every commit reaches the listeners in commit order. SIGTERM and
SIGINT stop the companion cleanly: the camera, the server, the hand parked, the OLED paused, the history closed.

What a game does with the button and the tray's dice is its module's (companion.games); this module only wires
the parts, whose settings companion.parts checks and which it stops (the command line is companion.serve_args).
Without a Raspberry Pi (and always with ``--sim``) the same program runs on mock pins, luma's dummy display and a
camera that draws the dice of the roll under way when a phone taps "Throw the dice (simulated tray)", on 127.0.0.1.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from companion.config import Config
from companion.daemon import EXIT_CONFIG, EXIT_OK, MainLoop, Notifier, run_until_stopped, setup_logging
from companion.errors import CardsNeeded, CompanionError, ConfigError
from companion.parts import (
    PartConfigs,
    attach_parts,
    check_parts,
    check_report,
    invite,
    join_code,
    listen,
    listen_host,
    log_hardware,
    log_settled,
    log_start,
    open_service,
    page_urls,
    prepare_parts,
    start_teacher,
    stop_parts,
)
from companion.serve_args import build_parser

if TYPE_CHECKING:
    from flask import Flask

    from companion.service import GameService
    from hardware import Table
    from vision.reader import DieReading
    from vision.tray_loop import Reader, TrayLoop
    from web.server import ServerThread

log = logging.getLogger("companion.serve")

MOCK_TRIM_EVERY = 60.0  # seconds between trims of the simulated pins' state history


class Companion(MainLoop):
    """Builds the parts, turns the main loop (companion.daemon.MainLoop), stops cleanly. ``main()`` runs it."""

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
        super().__init__(notifier, monotonic)
        self.config = config
        self.tray_reader = tray_reader
        self.sim = sim
        self.parts = parts if parts is not None else check_parts(config, sim)
        self.rng = rng if rng is not None else random.Random()
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
        # damaged files found at start, and the configuration file's wrong values left out, for the page
        self.start_problems: list[str] = [fallback.sentence() for fallback in config.fallbacks]
        self.next_trim = 0.0
        self._stopped = False
        self._last_note: str | None = None
        self._problems_told = 0  # of start_problems, those the page was given when it was made

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
        self._start_web()  # the page's address and join code first: the host needs them before anything else
        self._start_hardware()
        self._start_tray()
        self._attach_parts()
        self.notifier.notify("READY=1")
        self.notifier.notify(f"STATUS=serving {self.urls[0] if self.urls else ''}")
        log.info("ready in %.1f s", self.monotonic() - started)

    def _start_service(self) -> None:
        self.service = open_service(self.config, self.parts, self.rng, self.start_problems, demo=self.sim)

    def _start_hardware(self) -> None:
        from hardware import Table

        try:
            # the data folder keeps the voice's rendered lines, its owner's files and the host's choice
            self.table = Table(self.parts.hardware, sim=self.sim, data_dir=self.config.data_dir)
        except CompanionError as exc:
            log.error("the table hardware cannot start (%s); the phone page runs without it", exc)
            return
        log_hardware(self.table, self.sim)
        # Every commit updates the hand and the OLED; then they show the game as it stands. The page already answers
        # (_start_web comes first), so the listener goes first: a command a phone plays meanwhile is not missed.
        self.game.add_listener(self.table.on_events)
        self.table.show(self.game.state())
        # a script read out is timed by its rendered lines, which are rendered ahead, in the background
        self.game.speech_length = self.table.voice.length
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
        thrower = None
        if self.sim:  # nobody throws real dice: a phone's tap throws the simulated tray's
            from vision.sim_tray import Thrower

            thrower = Thrower(self.game.next_throw, over=self.game.over)
        self.tray = TrayLoop(
            self.config.camera,
            self.parts.tray,
            sim=self.sim,
            reader=self.tray_reader,
            throw=thrower,
            on_readings=lambda readings, why: self.post(lambda: self.dice_read(readings, why)),
        )
        self.teacher = start_teacher(self.config.data_dir, self.tray, self.start_problems)
        self.tray.start()

    def _start_web(self) -> None:
        """The page listens, and the host is told its address and join code at once (the table's parts, slower to
        start, are attached when they run: `_attach_parts`)."""
        from web import create_app

        assert self.parts.web is not None
        # The page says what went wrong at start (a damaged history kept aside).
        self.app = create_app(self.game, self.parts.web, startup_problems=self.start_problems)
        attach_parts(self.app)  # none yet: asked for, they are "still starting"
        self._problems_told = len(self.start_problems)  # the page has these; the parts' own come with them
        self.server = listen(self.app, self.host, self.port, self.config.web.threads)  # before READY=1
        self.port = self.server.port
        self.urls = page_urls(self.host, self.port, self.parts.web.public_url)
        self.join_code = join_code(self.app)
        log.info("phone page: %s%s", "  ".join(self.urls), f"  (join code {self.join_code})" if self.join_code else "")
        from web.invite import join_link

        if self.join_code and self.urls:
            invite(self.urls[-1], self.join_code, join_link(self.urls[-1], self.join_code), plain=self.sim)

    def _attach_parts(self) -> None:
        """The table's parts on the page, once they run; the OLED shows the join screen, as on the Pi."""
        assert self.app is not None
        attach_parts(
            self.app,
            self.start_problems[self._problems_told :],
            hardware=self.table,
            tray=self.tray,
            sim_throw=self.tray.thrower if self.tray is not None else None,
            teacher=self.teacher,
        )
        from web.invite import join_link

        if self.table is not None and self.config.fallbacks:
            # the configuration file's wrong values, for a few seconds before the join screen (the page says all)
            first, *more = self.config.fallbacks
            self.table.show_error("Config file", first.short() + (f" {len(more)} more: see the page." if more else ""))
        if self.table is not None and self.join_code and self.urls:
            # After every start the OLED shows the join QR code (phones join first), until the next command.
            self.table.show_join(join_link(self.urls[-1], self.join_code), self.join_code, seconds=None)

    # -- what the table does (main thread) ------------------------------------------------------

    def tell(self, title: str, message: str) -> None:
        """A problem for the people at the table: the log and the OLED (the page shows command errors itself)."""
        log.warning("%s: %s", title, message)
        if self.table is not None:
            self.table.show_error(title, message)

    def end_round_pressed(self) -> None:
        """The table's button: what the game's module says it plays now (GameService.press_button)."""
        try:
            self.game.press_button(source="button")
        except CompanionError as exc:
            self.tell("End round", self.game.say(str(exc)))

    def undo_pressed(self) -> None:
        try:
            result = self.game.undo(source="button")
        except CompanionError as exc:
            self.tell("Undo", self.game.say(str(exc)))
            return
        undone = result.events[-1].get("text") if result.events else None
        log.info("button: undid %s", undone or "the last command")

    def read_dice_pressed(self) -> None:
        if self.tray is None:
            self.tell(
                "Read dice", "no camera is set up (the configuration file turns it off); enter the dice on the page."
            )
            return
        self.tray.request_read()

    def dice_read(self, readings: list[DieReading], why: str) -> None:
        """Dice read in the tray: the game's roll when its module says they are (GameService.roll_from_tray)."""
        try:
            outcome, _ = self.game.roll_from_tray(readings, why=why, auto_roll=self.config.dice.auto_roll)
        except CardsNeeded:  # physical decks: this roll draws a card, which only the host can name
            self.tell("Dice", "this roll draws a card from the real decks: enter it on the host's phone.")
            return
        except CompanionError as exc:  # no game yet, or the roll refused: the table is told, nothing changes
            self.tell("Dice", self.game.say(str(exc)))
            return
        if outcome.tell:
            self.tell("Dice", outcome.tell)
        if outcome.note:
            # A note is logged once, then only when it changes (dice settling between rolls say the same each
            # time); dice at rest with no roll waiting (a tray left full, the sim's photos) are debug lines.
            repeated = outcome.note == self._last_note
            self._last_note = outcome.note
            log.log(logging.DEBUG if repeated or outcome.quiet else logging.INFO, "%s", outcome.note)

    # -- the main loop (companion.daemon.MainLoop) -----------------------------------------------

    def server_healthy(self) -> bool:
        """The web server's loop turns and its worker threads are there, asked inside the process (not through
        the network: phones holding every connection must not starve the watchdog and restart the table)."""
        return self.server is not None and bool(self.server.healthy())

    def on_turn(self, now: float) -> None:
        if self.sim and self.table is not None and now >= self.next_trim:
            self.table.forget_pin_history()  # mock pins record every change; the servo's add up over an evening
            self.next_trim = now + MOCK_TRIM_EVERY

    # -- stop ----------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop everything in order; safe to call twice and after a failed start."""
        if self._stopped:
            return
        self._stopped = True
        self.notifier.notify("STOPPING=1")
        log.info("stopping (%s)", self.stop_reason)
        stop_parts(self.tray, self.server, self.table, self.service)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:  # the operator's check names a wrong value and stops; an unattended start plays on and says so
        config, sim, parts, fallbacks = prepare_parts(
            args.config, host=args.host, port=args.port, sim=args.sim, strict=args.check, fresh=args.fresh
        )
        setup_logging(config.log_level)
        log_start(config, sim, args.fresh)
        report = check_report(config, sim) if args.check else None
    except ConfigError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if report is not None:
        print(report)
        return EXIT_OK
    log_settled(config, sim, fallbacks)
    config = dataclasses.replace(config, fallbacks=fallbacks)
    return run_until_stopped(Companion(config, sim=sim, parts=parts))


if __name__ == "__main__":
    raise SystemExit(main())
