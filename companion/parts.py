"""The parts of ``companion serve`` before they start and after they stop: the configuration with the command
line's overrides (:func:`prepare_parts`), each part checks its own settings (:func:`check_parts`), where the page
listens and is found (:func:`listen_host`, :func:`page_urls`), and how each part is stopped so that the table is
left tidy (:func:`stop_parts`).

This module and :mod:`companion.serve` are the composition root: the only modules of ``companion`` that import
``hardware``, ``vision`` and ``web`` (pyproject.toml's import contracts).
"""

from __future__ import annotations

import dataclasses
import logging
import random
import socket
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.config import (
    CameraConfig,
    Config,
    Fallback,
    first_game_setup,
    load_config,
    port_value,
    prefix_error,
    settle_config,
)
from companion.errors import CompanionError, ConfigError
from companion.games.base import TableDice
from companion.paths import data_dir_note, fresh_data_dir, run_data_dir

if TYPE_CHECKING:
    from flask import Flask

    from companion.service import GameService
    from hardware import Table
    from hardware.config import HardwareConfig
    from vision.tray_loop import TrayLoop, TraySettings
    from web.server import ServerThread
    from web.settings import WebSettings

log = logging.getLogger("companion.serve")

PI_MODEL_FILE = Path("/proc/device-tree/model")
DEMO_GAME_NAME = "Demo game (started by --sim)"


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

    @property
    def table_dice(self) -> TableDice:
        """The tray's colours (their kinds of die, after the simulation's) and the pip map, for the games."""
        if self.tray is None:
            return TableDice()
        pips = self.extra.get("pips") or {}
        return TableDice(kinds=dict(self.tray.kinds), pips=pips)


def check_parts(config: Config, sim: bool) -> PartConfigs:
    """Let every part check its table; any wrong value raises ConfigError naming the key."""
    parts = PartConfigs()
    parts.hardware = _check_hardware(config)
    parts.camera, parts.tray = _check_vision(config, sim)
    parts.web = _check_web(config)
    parts.extra["pips"] = config.dice.pips
    # game.packs_dir / the data folder's packs: a damaged box file is left out (the bundled one plays) and the
    # host's page says which and how to mend it; `serve --check` refuses it (Config.load_packs)
    from companion.box import Box

    parts.extra["box"] = box = Box(config.box_dir)
    try:
        parts.extra["packs"] = box.open_packs()
    except CompanionError as exc:
        raise ConfigError(f"the bundled packs: {exc}") from None
    parts.extra["first_game"] = first_game_setup(config, parts.extra["packs"])
    return parts


def prepare_parts(
    config_path: str | None,
    *,
    host: str | None,
    port: str | None,
    sim: bool | None,
    strict: bool,
    fresh: bool = False,
) -> tuple[Config, bool, PartConfigs, tuple[Fallback, ...]]:
    """The configuration with the command line's overrides, whether to simulate, each part's checked settings,
    and the file's wrong values left out. `strict` (``serve --check``) names a wrong value and stops; an
    unattended start plays on with the default of a wrong value of the file, and says so (settle_config).
    `fresh` (``--fresh``): a new empty data folder for this run (companion.paths.run_data_dir)."""
    clean = fresh_data_dir() if fresh else None

    def prepare(config: Config) -> tuple[Config, bool, PartConfigs]:
        config = config.with_overrides(host=host, port=None if port is None else port_value("--port", port), sim=sim)
        simulate = bool(config.sim) if config.sim is not None else not is_raspberry_pi()
        config = dataclasses.replace(config, data_dir=run_data_dir(config.data_dir, simulate, clean))
        return config, simulate, check_parts(config, simulate)

    if strict:
        return (*prepare(load_config(config_path)), ())
    (config, simulate, parts), fallbacks = settle_config(config_path, prepare, _settings_roots)
    return config, simulate, parts, fallbacks


def log_start(config: Config, sim: bool, fresh: bool = False) -> None:
    """What the data folder is and where (on stderr, before the log's first line), and why it simulates."""
    note = data_dir_note(config.data_dir, sim, fresh)
    if note:
        print(note, file=sys.stderr)
    if config.sim is None and sim:
        log.info("this machine is not a Raspberry Pi: simulating the hardware (see --sim)")


def log_settled(config: Config, sim: bool, fallbacks: tuple[Fallback, ...]) -> None:
    """The file's wrong values left out (a warning each), then what the companion starts with."""
    for fallback in fallbacks:
        log.warning("%s", fallback.sentence())
    where = f"config: {config.source or 'built-in defaults'}, data: {config.data_dir}"
    log.info("starting (%s, %s hardware)", where, "simulated" if sim else "real")


def _settings_roots(prepared: tuple[Config, bool, PartConfigs]) -> dict[str, object]:
    """Where the defaults of the file's keys are read: the Config, and each part's checked settings."""
    config, _, parts = prepared
    return {"": config, "hardware": parts.hardware, "tray": parts.tray, "web": parts.web}


def _check_hardware(config: Config) -> HardwareConfig:
    from hardware.config import HardwareConfig

    try:
        return HardwareConfig.from_dict(config.section("hardware"))
    except ConfigError as exc:
        raise prefix_error("hardware", exc) from None


def _check_vision(config: Config, sim: bool) -> tuple[CameraConfig, TraySettings]:
    """``[tray]``, checked by the vision part (``[dice.pips]`` is checked by companion.config)."""
    from vision.tray_loop import tray_settings

    tray = dict(config.section("tray"))
    if sim and "kinds" not in tray:
        # The replayed photos are of ordinary dice in every colour: in the simulation they all read as clue dice
        # (green key dice and red summon dice stay as on a real table), so the photos and the rules agree.
        from vision.tray_loop import sim_color_kinds

        tray["kinds"] = sim_color_kinds()
    return config.camera, tray_settings(tray)


def _check_web(config: Config) -> WebSettings:
    """The ``[web]`` keys that belong to the phone page, checked by the web part."""
    from web.settings import settings_from_config

    return settings_from_config(config.web.extra, data_dir=config.data_dir, threads=config.web.threads)


def check_report(config: Config, sim: bool) -> str:
    """What ``companion serve --check`` prints: where everything would go. Strict about the box: a damaged box
    file raises ConfigError naming it, where serving would leave it out."""
    config.load_packs()
    return "\n".join(
        [
            f"configuration: {config.source or 'built-in defaults'}",
            f"data directory: {config.data_dir}",
            f"packs: bundled{f' + edited files in {config.packs_dir}' if config.packs_dir else ''}",
            f"listen on: {listen_host(config, sim)}:{config.web.port}   simulated hardware: {'yes' if sim else 'no'}",
            "configuration OK",
        ]
    )


# ---------------------------------------------------------------------------------------------------
# Starting and stopping


def open_service(
    config: Config, parts: PartConfigs, rng: random.Random, problems: list[str], *, demo: bool = False
) -> GameService:
    """The game service over the history file, with the last game resumed when it can be. A damaged history
    is kept aside (its message goes into `problems`, for the page); a game the packs no longer fit stays in
    the file while a new one is played. With `demo` (``--sim``) and no game yet, a demo game is started."""
    from companion.box import Box
    from companion.history import ReplayError, open_history
    from companion.service import GameService

    store, problem = open_history(config.history_path, stamp=time.strftime("%Y%m%d-%H%M%S"))
    if problem is not None:
        log.error("%s", problem)
        if problem != store.problem:  # a history kept in memory says so itself on the page until written back
            problems.append(problem)
    box = parts.extra.get("box") or Box(config.box_dir)
    packs = parts.extra.get("packs")
    if packs is None:
        packs = box.open_packs()
    if config.packs_dir is not None:
        log.info("packs: the bundled files, with the edited ones of %s", config.packs_dir)
    for damaged in box.problems.values():
        log.error("%s (in %s)", damaged, config.box_dir)
    # a script read out (Among Cultists' night) is spoken in the voice's language
    language = parts.hardware.voice.language if parts.hardware is not None else "en"
    service = GameService(store, packs, rng=rng, box=box, speech_language=language, table_dice=parts.table_dice)
    try:
        state = service.resume_last()
    except ReplayError as exc:
        log.error(
            "the last game cannot be resumed: %s. Starting a new game; the old one stays in %s.",
            exc,
            config.history_path,
        )
        state = None
    if state is not None:
        log.info(
            "resumed game %s (%s commands) from %s",
            state.get("game_id"),
            state.get("history_length"),
            config.history_path,
        )
    elif demo:
        # Something to look at on a laptop: a demo game, named so, which the page says it is.
        seed = config.game.seed if config.game.seed is not None else rng.randrange(2**31)
        first = {**(parts.extra.get("first_game") or {}), "seed": seed}  # the [game] defaults
        state = service.new_game(first, name=DEMO_GAME_NAME)
        log.info(
            "no saved game in %s; started a demo game (%s) for the simulation",
            config.history_path,
            state.get("game_id"),
        )
    else:
        log.info("no saved game in %s; the host starts one on the phone page", config.history_path)
    return service


def start_teacher(data_dir: Path, tray: TrayLoop, problems: list[str]) -> Any:
    """The page's "Teach the reader" (vision.teach.Teacher): photos kept in the data folder; a reader taught
    there is used again (one that cannot be read goes into `problems`, for the page)."""
    from dataclasses import replace

    from vision.teach import Teacher, load_taught, taught_path

    watcher = tray.watcher
    saved = taught_path(data_dir)
    if watcher.settings.taught is None and saved.is_file():
        try:
            watcher.settings = replace(watcher.settings, taught=load_taught(saved))
            log.info("tray: the reader taught on the page (%s)", saved)
        except CompanionError as exc:
            log.warning("tray: the reader taught on the page cannot be used (%s); the shipped one reads", exc)
            problems.append(  # a file the page wrote: the page says so too
                f"the reader taught on the page ({saved.name}) cannot be used ({exc}); the shipped reader reads "
                "the dice meanwhile. Teach it again on the Dice tab, or delete the file."
            )
    return Teacher(data_dir, watcher)


def log_hardware(table: Table, sim: bool) -> None:
    """Which parts of the table were found, and which are missing (a warning each)."""
    found: list[str] = []
    missing: list[str] = []
    for name, part in table.status().get("parts", {}).items():
        message = str(part.get("message", part)) if isinstance(part, Mapping) else str(part)
        ok = part.get("found", True) if isinstance(part, Mapping) else True
        (found if ok else missing).append(f"{name} ({message})" if message != "ok" else name)
    log.info("hardware%s: %s", " (simulated)" if sim else "", ", ".join(found) or "none found")
    for item in missing:
        log.warning("hardware missing: %s", item)


def invite(url: str, code: str, link: str, plain: bool = False) -> None:
    """The join link with its code in the log; for a person at a terminal (or a --sim run, `plain`) the page's
    address and the join code said plainly on standard output, and on a terminal the link's QR code too."""
    from web.invite import terminal_qr

    log.info("join the table: %s", link)
    tty = sys.stdout.isatty()
    if plain or tty:
        qr = f"Or scan this with a phone's camera:\n{terminal_qr(link)}" if tty else ""
        print(
            f"\nOn a phone, open {url} and enter the join code {code}\n(or open {link}, which carries the code)\n{qr}",
            flush=True,
        )


def attach_parts(app: Flask, problems: Sequence[str] = (), **parts: Any) -> None:
    """The table's parts (hardware, tray, sim_throw, teacher), started after the page listens, on the page, with
    what their start found wrong (`problems`, a damaged taught reader); with none given, the page says they are
    still starting until they come."""
    context = app.extensions["skeptics_web"]
    for name, part in parts.items():
        setattr(context, name, part)
    context.startup_problems.extend(problems)
    context.parts_starting = not parts


def listen(app: Flask, host: str, port: int, threads: int) -> ServerThread:
    """The page's server, bound and listening: a port in use fails now, with what to do."""
    from web.server import ServerThread

    try:
        return ServerThread(app, host=host, port=port, threads=threads)
    except OSError as exc:
        raise CompanionError(
            f"cannot listen on {host}:{port} ({exc.strerror or exc}); another program (another "
            "companion?) may be using the port: stop it, or choose another port with --port or web.port."
        ) from None


def join_code(app: Flask) -> str | None:
    """The code phones join with (the web part keeps it)."""
    context = app.extensions.get("skeptics_web")
    code = getattr(getattr(context, "store", None), "join_code", None)
    return str(code) if code else None


def stop_parts(
    tray: TrayLoop | None, server: ServerThread | None, table: Table | None, service: GameService | None
) -> None:
    """Stop every part in order: the camera, the server, the hardware (paused), the history."""
    stop_tray(tray)
    stop_web(server)
    pause_hardware(table, service)
    close_service(service)
    log.info("stopped")


def stop_tray(tray: TrayLoop | None) -> None:
    if tray is not None:
        try:
            tray.close()
            log.info("camera stopped")
        except Exception:
            log.exception("the camera did not stop cleanly")


def stop_web(server: ServerThread | None) -> None:
    if server is None:
        return
    try:
        server.stop()  # ends the event streams, the loop, the connections, the worker threads
        log.info("web server stopped")
    except Exception:
        log.exception("the web server did not stop cleanly")


def pause_hardware(table: Table | None, service: GameService | None) -> None:
    """The hand parks, the OLED says the game is paused, the pins are released."""
    if table is None:
        return
    if service is not None:
        service.remove_listener(table.on_events)
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


def close_service(service: GameService | None) -> None:
    if service is None:
        return
    state = service.state()
    try:
        service.close()
        log.info("game history closed (game %s, %s commands)", state.get("game_id"), state.get("history_length"))
    except Exception:
        log.exception("the game history did not close cleanly")
