"""Configuration: one TOML file, environment overrides, checked at start.

``load_config()`` finds the file (see ``companion.paths``), reads it, applies the environment overrides
and checks every value of the sections it owns (``[web]``, ``[data]``, ``[game]``, ``[log]``,
``[camera]``, ``[dice]``). The sections of the other parts (``[hardware]``, ``[tray]``, and the page's
keys of ``[web]``) are kept as plain tables and checked by the part that owns them (``companion serve``
does that at start, before anything moves).
A wrong value raises ``ConfigError`` whose message starts with the key, for example
``web.port: expected a port number 1-65535 (0: any free port), got 'abc'``.

Precedence, lowest first: built-in defaults, the file, the environment, the command line.

Environment overrides:

==========================  ==========================================================
``COMPANION_CONFIG``        the configuration file to read (instead of the usual places)
``COMPANION_HOST``          ``web.host``
``COMPANION_PORT``          ``web.port``
``COMPANION_DATA_DIR``      ``data.dir`` (two companions can run side by side)
``COMPANION_SIM``           ``sim`` (1/0, true/false, yes/no, on/off)
``COMPANION_LOG_LEVEL``     ``log.level``
``COMPANION_PACKS_DIR``     ``game.packs_dir`` (a folder of edited pack files, docs/packs.md)
==========================  ==========================================================

``save_section`` writes one table back (calibration), keeping the rest of the file and its comments.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

import tomlkit

from companion import paths
from companion.errors import CompanionError, ConfigError
from companion.validate import Section, choice, flag, unknown_keys, whole_number

# Sections read here; the others are checked by their part (hardware/, vision/, the dice tray).
OWN_SECTIONS = ("web", "data", "game", "log", "camera", "dice")
PART_SECTIONS = ("hardware", "tray")
TOP_LEVEL_KEYS = ("sim",)

LOG_LEVELS = ("debug", "info", "warning", "error")
DEFAULT_PORT = 8080


@dataclass(frozen=True)
class WebConfig:
    """``[web]``: where the phone page is served. Keys this module does not know go to the web part."""

    host: str | None = None  # None: 0.0.0.0 on a Pi, 127.0.0.1 in simulation
    port: int = DEFAULT_PORT
    threads: int = 48  # waitress worker threads; every open event stream holds one
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameConfig:
    """``[game]``: the first game, created when the data directory holds none."""

    players: int = 4
    board: str | None = None  # None: the first board of the bundled packs
    ghost: str | None = None  # None: the first ghost of the bundled packs
    special_items: int = 3
    physical: bool = False
    seed: int | None = None  # None: a fresh seed
    # A folder of edited pack files (docs/packs.md). None: the data directory's `packs` folder if any.
    packs_dir: Path | None = None


@dataclass(frozen=True)
class CameraConfig:
    """``[camera]``: the camera above the dice tray."""

    enabled: bool = True
    # "auto" (the Pi camera, else the first USB camera), "pi", "usb", "usb:N", "/dev/videoN",
    # "replay:PATH" (photos; a folder, a file or a glob). Simulation replays the bundled samples.
    source: str = "auto"
    width: int = 1280
    height: int = 960
    interval: float = 0.1  # seconds between frames while watching the tray
    settle_s: float = 0.5  # the tray must be still this long before the dice are read
    retry_s: float = 30.0  # seconds between attempts to open a missing camera
    sim_hold_s: float = 10.0  # simulation replaying photos (source = "replay:PATH"): how long each stays in the tray


@dataclass(frozen=True)
class DiceConfig:
    """``[dice]``: how a settled roll becomes a command."""

    auto_roll: bool = True  # a settled roll of the attempt's dice becomes its `roll` command
    pips: Mapping[str, Mapping[str, list[int]]] = field(default_factory=dict)  # [dice.pips]: PipMap.from_dict


@dataclass(frozen=True)
class Config:
    """Everything `companion serve` needs to start, checked."""

    source: Path | None = None  # the file it was read from, None for built-in defaults
    sim: bool | None = None  # None: simulate when the machine is not a Raspberry Pi
    data_dir: Path = field(default_factory=paths.default_data_dir)
    log_level: str = "info"
    web: WebConfig = field(default_factory=WebConfig)
    game: GameConfig = field(default_factory=GameConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    dice: DiceConfig = field(default_factory=DiceConfig)
    sections: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    packs_key: str = "game.packs_dir"  # what set game.packs_dir, named in its errors (or COMPANION_PACKS_DIR)
    fallbacks: tuple[Fallback, ...] = ()  # the file's wrong values left out at start (`settle_config`)

    @property
    def packs_dir(self) -> Path | None:
        """The folder of edited packs: ``game.packs_dir``, else ``DATA_DIR/packs`` when it exists, else None."""
        if self.game.packs_dir is not None:
            return self.game.packs_dir
        default = self.data_dir / "packs"
        return default if default.is_dir() else None

    @property
    def box_dir(self) -> Path:
        """Where the "Your box" page keeps the owner's pack files: ``game.packs_dir``, else ``DATA_DIR/packs``."""
        return self.game.packs_dir if self.game.packs_dir is not None else self.data_dir / "packs"

    def load_packs(self) -> Any:
        """The packs the box holds (the default game's, companion.games.base), with the edited files of
        ``packs_dir``; a broken pack raises ConfigError naming the key.

        The message keeps the PackError's file, entry and field, after the setting that chose the folder.
        """
        from companion.errors import PackError
        from companion.games.base import module_for

        folder = self.packs_dir
        try:
            return module_for(None).load_packs(folder)
        except PackError as exc:
            if self.game.packs_dir is None:
                key = f"game.packs_dir (unset: the packs folder of the data directory, {folder})"
            else:
                key = f"{self.packs_key} ({folder})"
            raise ConfigError(f"{key}: {exc}") from None

    def section(self, name: str) -> dict[str, Any]:
        """A part's raw table (``{}`` when the file has none); a copy, so callers may change it."""
        copied: dict[str, Any] = _deep_copy(self.sections.get(name, {}))
        return copied

    @property
    def history_path(self) -> Path:
        return paths.history_path(self.data_dir)

    def with_overrides(self, *, host: str | None = None, port: int | None = None, sim: bool | None = None) -> Config:
        """The command line's ``--host``, ``--port`` and ``--sim`` (None leaves a value as it is)."""
        web = self.web
        if host is not None:
            web = replace(web, host=_host("--host", host))
        if port is not None:
            web = replace(web, port=_port("--port", port))
        return replace(self, web=web, sim=self.sim if sim is None else sim)


def _deep_copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value


# ---------------------------------------------------------------------------------------------------
# Finding and reading the file


def find_config_file(
    explicit: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None
) -> Path | None:
    """The configuration file to use, or None when there is none (built-in defaults)."""
    env = os.environ if env is None else env
    for label, given in (("--config", explicit), ("COMPANION_CONFIG", env.get("COMPANION_CONFIG") or None)):
        if given is not None:
            path = Path(given).expanduser()
            if not path.is_file():
                raise ConfigError(
                    f"{label}: the configuration file {path} does not exist. "
                    "Give the path of an existing TOML file (systemd/config.example.toml shows every key)."
                )
            return path
    for path in paths.config_candidates(env):
        if path.is_file():
            return path
    return None


def read_toml(path: Path) -> dict[str, Any]:
    """The configuration file's TOML. A UTF-8 byte-order mark (some Windows editors write one) is accepted."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror}). Check its permissions.") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError(
            f"{path}: line {line} is not UTF-8 text (byte {exc.start + 1}); save the file as UTF-8 and start again."
        ) from None
    from companion.toml_text import read_toml as read_text

    return read_text(str(path), text, error=ConfigError, docs="docs/install.md")


def load_config(
    explicit: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> Config:
    """Find, read and check the configuration, then apply the environment overrides."""
    env = os.environ if env is None else env
    path = find_config_file(explicit, env)
    data = read_toml(path) if path is not None else {}
    return parse_config(data, env=env, source=path)


def parse_config(data: Mapping[str, Any], env: Mapping[str, str] | None = None, source: Path | None = None) -> Config:
    """Check a parsed TOML document (plus the environment overrides) and build a ``Config``."""
    env = os.environ if env is None else env
    known = (*TOP_LEVEL_KEYS, *OWN_SECTIONS, *PART_SECTIONS)
    for key, value in data.items():
        if key not in known:
            raise ConfigError(f"{key}: unknown key or section. Known: {', '.join(known)}.")
        if key in OWN_SECTIONS + PART_SECTIONS and not isinstance(value, Mapping):
            raise ConfigError(f"{key}: expected a table ([{key}]), got {value!r}")

    sim = flag("sim", data["sim"], words=True) if "sim" in data else None
    web = _web(_table(data, "web"))
    data_dir = _data(_table(data, "data"), env)
    game = _game(_table(data, "game"))
    camera = _camera(_table(data, "camera"))
    dice = _dice(_table(data, "dice"))
    log = Section(_table(data, "log"), "log", known=("level",))
    log_level = log.choice("level", "info", LOG_LEVELS, fold=True)

    # Environment overrides: they name the variable in their errors.
    if env.get("COMPANION_HOST"):
        web = replace(web, host=_host("COMPANION_HOST", env["COMPANION_HOST"]))
    if env.get("COMPANION_PORT"):
        web = replace(web, port=_port("COMPANION_PORT", env["COMPANION_PORT"]))
    if env.get("COMPANION_DATA_DIR"):
        data_dir = _dir("COMPANION_DATA_DIR", env["COMPANION_DATA_DIR"])
    if env.get("COMPANION_SIM"):
        sim = flag("COMPANION_SIM", env["COMPANION_SIM"], words=True)
    if env.get("COMPANION_LOG_LEVEL"):
        log_level = choice("COMPANION_LOG_LEVEL", env["COMPANION_LOG_LEVEL"], LOG_LEVELS, fold=True)
    packs_key = "game.packs_dir"
    if env.get("COMPANION_PACKS_DIR"):
        packs_key = "COMPANION_PACKS_DIR"
        game = replace(game, packs_dir=_packs_dir(packs_key, env["COMPANION_PACKS_DIR"]))

    sections = {name: _deep_copy(data[name]) for name in PART_SECTIONS if name in data}
    return Config(
        source=source,
        sim=sim,
        data_dir=data_dir,
        log_level=log_level,
        web=web,
        game=game,
        camera=camera,
        dice=dice,
        sections=sections,
        packs_key=packs_key,
    )


# ---------------------------------------------------------------------------------------------------
# A wrong value in the file at an unattended start: its default, and the table is told


T = TypeVar("T")

_KEY = re.compile(r"[A-Za-z_][\w-]*(?:\.[\w-]+)*")
_EXPECTED = re.compile(r"expected (?P<what>.+?), got .+?(?:; (?P<more>.*))?$", re.S)


@dataclass(frozen=True)
class Fallback:
    """A value of the configuration file that was left out at start: its key, the file's value, the check's
    complaint (after the key), what is used instead (in words) and the file."""

    key: str
    value: Any
    why: str
    default: str
    path: Path

    @property
    def unknown(self) -> bool:
        return self.why.startswith("unknown key")

    def sentence(self) -> str:
        """What happened and what to do, in one sentence (the log, the host's page)."""
        if self.unknown:
            known = self.why.partition(". ")[2].rstrip(".")
            return (
                f"the config file's {self.key} is not a key the companion knows"
                f"{f' ({known[0].lower()}{known[1:]})' if known else ''}: it is ignored; fix it in {self.path}."
            )
        expected = _EXPECTED.search(self.why)
        if expected is not None:
            refused = f"which is not {expected['what']}"
        else:
            why = re.sub(r"^\((.*?)\)\s*", r"\1 ", self.why.rstrip("."))  # "(GPIO2) is also used by ..."
            refused = f"which the companion refuses ({why})"
        return (
            f"the config file's {self.key} is {_words(self.value)}, {refused}: using {self.default}; "
            f"fix it in {self.path}."
        )

    def short(self) -> str:
        """For the OLED's four short lines."""
        return f"{self.key}: {'ignored' if self.unknown else 'using ' + self.default}. Fix the config file."


def _words(value: Any) -> str:
    """A value as the file spells it (TOML)."""
    if value is None:
        return "its default"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, Path)):
        return json.dumps(str(value), ensure_ascii=False)
    if isinstance(value, Mapping):
        return "a table" if value else "its default"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_words(v) for v in value) + "]"
    return str(value)


def _file_key(message: str, data: Mapping[str, Any]) -> tuple[str, Any] | None:
    """The key of the file a complaint starts with, and its value, when leaving it out can mend the complaint: a
    value (not a table), a table where a value or no key belongs, or an unknown key. None otherwise (a complaint
    about the command line, the environment, or several keys at once)."""
    match = _KEY.match(message)
    if match is None:
        return None
    key = match.group()
    node: Any = data
    for part in key.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    rest = message[match.end() :]
    if isinstance(node, Mapping) and "." not in key and not rest.startswith((": unknown key", ": expected")):
        return None  # a whole section's complaint (the first game's setup): not one value to leave out
    return key, node


def _leave_out(data: dict[str, Any], key: str) -> None:
    *tables, last = key.split(".")
    node: Any = data
    for part in tables:
        node = node[part]
    del node[last]


# What a default of None means, where a key has one (the dataclasses' comments, in words).
NONE_MEANS = {
    "sim": "simulating only on a machine that is not a Raspberry Pi",
    "web.host": "0.0.0.0 on a Raspberry Pi, 127.0.0.1 in simulation",
    "web.join_code": "the join code made at the first start",
    "web.host_pin": "the PIN the host chooses on the page",
    "web.public_url": "the address a phone reached the companion at",
    "game.board": "the first board of the packs",
    "game.ghost": "the first ghost of the packs",
    "game.seed": "a fresh seed",
    "game.packs_dir": "the bundled packs (with the data folder's packs folder, if there is one)",
}


def _default_of(key: str, roots: Mapping[str, object]) -> str:
    """What the companion uses for `key` without it, in the file's spelling: found in the checked settings
    (`roots`: "" the Config, else a section's checked part, e.g. "hardware")."""
    head, _, rest = key.partition(".")
    for root, path in (("", key), (head, rest)):
        node: object = roots.get(root)
        if node is None or not path:
            continue
        for part in path.split("."):
            if isinstance(node, Mapping):
                node = node.get(part)
            else:
                node = getattr(node, part, None)
            if node is None:
                break
        if node is None and root == "":
            node = getattr(roots[""], key.replace(".", "_"), None)  # log.level is Config.log_level
        if node is not None:
            return _words(node)
    return NONE_MEANS.get(key, "its default")


def settle_config(
    explicit: str | os.PathLike[str] | None,
    build: Callable[[Config], T],
    roots: Callable[[T], Mapping[str, object]],
    env: Mapping[str, str] | None = None,
) -> tuple[T, tuple[Fallback, ...]]:
    """The configuration, read and checked by `build` (the command line's overrides, the parts' checks), where a
    wrong value of the file does not stop the companion: the key is left out, its default used, and a
    `Fallback` says so (for the log, the host's page and the OLED). A Pi boots unattended; the table plays.

    A wrong value from the command line or the environment, and a file that cannot be read at all, still raise
    ConfigError (``companion serve`` exits 2); `roots` gives the checked settings where each default is read."""
    env = os.environ if env is None else env
    path = find_config_file(explicit, env)
    data: dict[str, Any] = _deep_copy(read_toml(path)) if path is not None else {}
    left_out: list[tuple[str, Any, str]] = []
    while True:
        try:
            built = build(parse_config(data, env=env, source=path))
        except ConfigError as exc:
            message = str(exc)
            found = _file_key(message, data) if path is not None else None
            if found is None:
                raise
            key, value = found
            _leave_out(data, key)  # each round leaves a key out: the loop ends
            left_out.append((key, value, message[len(key) :].lstrip(": ").strip()))
            continue
        if path is None or not left_out:
            return built, ()
        found_in = roots(built)
        return built, tuple(Fallback(key, value, why, _default_of(key, found_in), path) for key, value, why in left_out)


# ---------------------------------------------------------------------------------------------------
# Sections


def _table(data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = data.get(name, {})
    assert isinstance(value, Mapping)
    return value


def _web(table: Mapping[str, Any]) -> WebConfig:
    host = _host("web.host", table["host"]) if "host" in table else None
    port = _port("web.port", table["port"]) if "port" in table else DEFAULT_PORT
    threads = Section(table, "web").whole_number("threads", WebConfig.threads, 4, 256)
    extra = {k: _deep_copy(v) for k, v in table.items() if k not in ("host", "port", "threads")}
    return WebConfig(host=host, port=port, threads=threads, extra=extra)


def _data(table: Mapping[str, Any], env: Mapping[str, str]) -> Path:
    unknown_keys("data", table, ("dir",))
    if "dir" in table:
        return _dir("data.dir", table["dir"])
    return paths.default_data_dir(env)


def _game(table: Mapping[str, Any]) -> GameConfig:
    d = GameConfig()
    game = Section(table, "game", known=GameConfig.__dataclass_fields__)
    return GameConfig(
        players=game.whole_number("players", d.players, 1, 4),
        board=game.value("board", _name, d.board),
        ghost=game.value("ghost", _name, d.ghost),
        special_items=game.whole_number("special_items", d.special_items, 0, 20),
        physical=game.flag("physical", d.physical, words=True),
        seed=game.value("seed", lambda key, value: whole_number(key, value, 0, 2**63 - 1), d.seed),
        packs_dir=game.value("packs_dir", _packs_dir, d.packs_dir),
    )


def _camera(table: Mapping[str, Any]) -> CameraConfig:
    d = CameraConfig()
    camera = Section(table, "camera", known=CameraConfig.__dataclass_fields__)
    source = table.get("source", d.source)
    if not isinstance(source, str) or not source.strip():
        raise ConfigError(f"camera.source: expected auto, pi, usb, usb:N, /dev/videoN or replay:PATH, got {source!r}")
    source = source.strip()
    if not (source in ("auto", "pi", "usb", "sim") or source.startswith(("usb:", "/dev/", "replay:"))):
        raise ConfigError(f"camera.source: expected auto, pi, usb, usb:N, /dev/videoN or replay:PATH, got {source!r}")
    if source.startswith("usb:") and not source[4:].isdigit():
        raise ConfigError(f"camera.source: expected usb:N with a number N (usb:0), got {source!r}")
    return CameraConfig(
        enabled=camera.flag("enabled", d.enabled, words=True),
        source=source,
        width=camera.whole_number("width", d.width, 160, 4608),
        height=camera.whole_number("height", d.height, 120, 3496),
        interval=camera.number("interval", d.interval, 0.0, 5.0),
        settle_s=camera.number("settle_s", d.settle_s, 0.0, 10.0),
        retry_s=camera.number("retry_s", d.retry_s, 1.0, 3600.0),
        sim_hold_s=camera.number("sim_hold_s", d.sim_hold_s, 0.5, 600.0),
    )


def _dice(table: Mapping[str, Any]) -> DiceConfig:
    dice = Section(table, "dice", known=DiceConfig.__dataclass_fields__)
    pips = table.get("pips", {})
    if not isinstance(pips, Mapping):
        raise ConfigError(f"dice.pips: expected a table per kind of die, like [dice.pips.clue], got {pips!r}")
    if pips:
        from companion.games.base import module_for

        try:
            module_for(None).check_pips(pips)  # the table's dice are the default game's
        except CompanionError as exc:
            raise ConfigError(f"dice.pips: {exc}") from None
    return DiceConfig(
        auto_roll=dice.flag("auto_roll", DiceConfig.auto_roll, words=True),
        pips=_deep_copy(pips),
    )


# ---------------------------------------------------------------------------------------------------
# Values that need more than companion.validate's checks. Each names its key; TOML gives typed values,
# the environment gives strings.


def _port(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ConfigError(f"{key}: expected a port number 1-65535 (0: any free port), got {value!r}")
    try:
        number = int(value)
    except ValueError:
        raise ConfigError(f"{key}: expected a port number 1-65535 (0: any free port), got {value!r}") from None
    # 0 asks the system for a free port (tests, two companions side by side).
    if not 0 <= number <= 65535:
        raise ConfigError(f"{key}: expected a port number 1-65535 (0: any free port), got {number}")
    return number


def _host(key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{key}: expected an IP address to listen on like 0.0.0.0 or 127.0.0.1, got {value!r}")
    text = value.strip()
    if text == "localhost":
        return "127.0.0.1"
    try:
        ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        raise ConfigError(
            f"{key}: expected an IP address to listen on like 0.0.0.0 or 127.0.0.1, got {value!r}"
        ) from None
    return text.strip("[]")


def _name(key: str, value: Any) -> str:
    if isinstance(value, str) and value.strip():
        return value.strip()
    raise ConfigError(f"{key}: expected a name from the packs (see `companion game new --help`), got {value!r}")


def _dir(key: str, value: Any) -> Path:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{key}: expected a directory path, got {value!r}")
    path = Path(value).expanduser()
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{key}: {path} exists and is not a directory. Give a directory for the game files.")
    return path


def _packs_dir(key: str, value: Any) -> Path:
    """An existing folder of edited pack files (its files are checked when the packs are loaded)."""
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{key}: expected the path of a folder of pack files, got {value!r}")
    path = Path(value.strip()).expanduser()
    if not path.is_dir():
        what = "is not a directory" if path.exists() else "does not exist"
        raise ConfigError(
            f"{key}: the packs folder {path} {what}. Make one with `companion packs export {path}`, "
            "or leave the setting out to play with the bundled packs."
        )
    return path


def first_game_setup(config: Config, packs: Any = None) -> dict[str, Any]:
    """``[game]``: the setup of a first game of the default game (without its seed), checked against the packs by
    its module. A choice the packs do not have, or a setup the rules refuse, raises ConfigError naming the key."""
    from companion.games.base import module_for

    game = config.game
    if packs is None:
        packs = config.load_packs()
    choices = {
        "players": game.players,
        "board": game.board,
        "ghost": game.ghost,
        "special_items": game.special_items,
        "physical": game.physical,
    }
    try:
        return dict(module_for(None).first_game(choices, packs))
    except ConfigError:
        raise
    except CompanionError as exc:
        raise ConfigError(f"game: {exc}") from None


def port_value(key: str, value: Any) -> int:
    """A port number from the command line or a file (0: any free port); ConfigError names ``key``."""
    return _port(key, value)


def prefix_error(key: str, exc: Exception) -> ConfigError:
    """A part's complaint about its section as a ConfigError naming the full key.

    Parts name keys inside their own table ("servo.min_pulse: ..."); the file names them from the top
    ("hardware.servo.min_pulse"). A message that already starts with the section is left alone.
    """
    message = str(exc)
    if message.startswith((f"{key}.", f"{key}:")):
        return ConfigError(message)
    head, sep, rest = message.partition(":")
    if sep and head and " " not in head.strip():
        return ConfigError(f"{key}.{head.strip()}:{rest}")
    return ConfigError(f"{key}: {message}")


# ---------------------------------------------------------------------------------------------------
# Writing back


def save_section(path: str | os.PathLike[str], section: str, values: Mapping[str, Any]) -> None:
    """Replace (or add) table `section` (dotted names allowed: "hardware.servo") in the TOML file.

    The file is written to a temporary file and renamed over the old one, so a power cut
    leaves either the old or the new file, never half of one.
    """
    target = Path(path)
    try:
        text = target.read_text(encoding="utf-8") if target.exists() else ""
        doc = tomlkit.parse(text)
    except (OSError, tomlkit.exceptions.TOMLKitError) as exc:
        raise ConfigError(f"cannot read the configuration file {target}: {exc}. Fix or remove it.") from exc
    table: Any = doc
    parts = section.split(".")
    for part in parts[:-1]:
        if part not in table:
            table[part] = tomlkit.table(is_super_table=True)
        table = table[part]
    new = tomlkit.table()
    for key, value in values.items():
        new[key] = value
    table[parts[-1]] = new
    paths.write_atomic(target, tomlkit.dumps(doc))
