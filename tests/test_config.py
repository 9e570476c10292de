"""The configuration file: where it is found, what overrides it, and that every wrong value names its key."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion import paths
from companion.config import (
    CameraConfig,
    Config,
    GameConfig,
    WebConfig,
    find_config_file,
    load_config,
    parse_config,
    prefix_error,
    save_section,
    settle_config,
)
from companion.errors import ConfigError

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "systemd" / "config.example.toml"


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A clean environment with a private home, and no /etc file."""
    monkeypatch.setattr(paths, "SYSTEM_CONFIG", tmp_path / "etc" / "config.toml")
    return {"HOME": str(tmp_path / "home")}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# -- finding the file -------------------------------------------------------------------------------


def test_no_file_gives_the_defaults(env: dict[str, str], tmp_path: Path) -> None:
    config = load_config(env=env)
    assert config.source is None
    assert config.web.port == 8080 and config.web.host is None
    assert config.data_dir == tmp_path / "home" / ".local" / "share" / "skeptics-companion"
    assert config.history_path == config.data_dir / "games.sqlite3"
    assert config.sim is None and config.log_level == "info"


def test_search_order_explicit_then_env_then_user_then_system(env: dict[str, str], tmp_path: Path) -> None:
    system = write(paths.SYSTEM_CONFIG, "[web]\nport = 1001\n")
    assert find_config_file(env=env) == system
    user = write(tmp_path / "home" / ".config" / "skeptics-companion" / "config.toml", "[web]\nport = 1002\n")
    assert find_config_file(env=env) == user
    from_env = write(tmp_path / "env.toml", "[web]\nport = 1003\n")
    env["COMPANION_CONFIG"] = str(from_env)
    assert find_config_file(env=env) == from_env
    explicit = write(tmp_path / "explicit.toml", "[web]\nport = 1004\n")
    config = load_config(explicit, env=env)
    assert config.source == explicit and config.web.port == 1004


def test_xdg_config_home_is_respected(env: dict[str, str], tmp_path: Path) -> None:
    env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")
    user = write(tmp_path / "xdg" / "skeptics-companion" / "config.toml", "[web]\nport = 1005\n")
    assert load_config(env=env).source == user


@pytest.mark.parametrize("label", ["--config", "COMPANION_CONFIG"])
def test_a_named_file_that_does_not_exist_is_refused(env: dict[str, str], tmp_path: Path, label: str) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError, match=f"^{label}: the configuration file .*nope.toml does not exist"):
        if label == "--config":
            load_config(missing, env=env)
        else:
            load_config(env={**env, "COMPANION_CONFIG": str(missing)})


def test_broken_toml_names_the_file_and_line(env: dict[str, str], tmp_path: Path) -> None:
    bad = write(tmp_path / "bad.toml", "[web]\nport = \n")
    with pytest.raises(ConfigError, match=r"bad.toml: is not valid TOML \(.*line 2"):
        load_config(bad, env=env)


# -- overrides ----------------------------------------------------------------------------------------


def test_environment_overrides_the_file_and_the_command_line_overrides_both(
    env: dict[str, str], tmp_path: Path
) -> None:
    file = write(tmp_path / "c.toml", '[web]\nhost = "127.0.0.1"\nport = 9000\n[data]\ndir = "/srv/one"\n')
    env.update(
        COMPANION_PORT="9001",
        COMPANION_HOST="0.0.0.0",
        COMPANION_DATA_DIR=str(tmp_path / "two"),
        COMPANION_SIM="yes",
        COMPANION_LOG_LEVEL="DEBUG",
    )
    config = load_config(file, env=env)
    assert (config.web.host, config.web.port) == ("0.0.0.0", 9001)
    assert config.data_dir == tmp_path / "two"
    assert config.sim is True and config.log_level == "debug"
    final = config.with_overrides(host="::1", port=9002, sim=False)
    assert (final.web.host, final.web.port, final.sim) == ("::1", 9002, False)
    assert config.with_overrides().web == config.web  # None leaves everything alone


def test_data_dir_falls_back_to_systemd_state_directory(env: dict[str, str]) -> None:
    env["STATE_DIRECTORY"] = "/var/lib/skeptics-companion:/var/lib/other"
    assert load_config(env=env).data_dir == Path("/var/lib/skeptics-companion")
    assert parse_config({"data": {"dir": "/srv/games"}}, env=env).data_dir == Path("/srv/games")


def test_two_companions_side_by_side_get_their_own_data_dir(env: dict[str, str], tmp_path: Path) -> None:
    one = load_config(env={**env, "COMPANION_DATA_DIR": str(tmp_path / "a")})
    two = load_config(env={**env, "COMPANION_DATA_DIR": str(tmp_path / "b")})
    assert one.history_path != two.history_path


def test_localhost_means_the_loopback_address() -> None:
    assert parse_config({"web": {"host": "localhost"}}, env={}).web.host == "127.0.0.1"


def test_part_sections_are_kept_for_their_parts_and_handed_out_as_copies() -> None:
    config = parse_config({"hardware": {"servo": {"pin": 12}}, "tray": {"region": [0, 0, 640, 480]}}, env={})
    table = config.section("hardware")
    assert table == {"servo": {"pin": 12}}
    table["servo"]["pin"] = 13
    assert config.section("hardware") == {"servo": {"pin": 12}}
    assert config.section("tray") == {"region": [0, 0, 640, 480]}
    assert config.section("camera") == {}  # [camera] is checked here, into config.camera


# -- every wrong value names its key --------------------------------------------------------------------


BAD_VALUES = [
    ({"web": {"port": "abc"}}, "web.port: expected a port number"),
    ({"web": {"port": 70000}}, "web.port: expected a port number"),
    ({"web": {"port": True}}, "web.port: expected a port number"),
    ({"web": {"host": "my pi"}}, "web.host: expected an IP address"),
    ({"web": {"host": 8080}}, "web.host: expected an IP address"),
    ({"web": {"threads": 1}}, "web.threads: expected a whole number 4-256"),
    ({"data": {"dir": 5}}, "data.dir: expected a directory path"),
    ({"data": {"folder": "/x"}}, "data.folder: unknown key"),
    ({"game": {"players": 9}}, "game.players: expected a whole number 1-4"),
    ({"game": {"players": "four"}}, "game.players: expected a whole number"),
    ({"game": {"board": ""}}, "game.board: expected a name"),
    ({"game": {"physical": "sometimes"}}, "game.physical: expected true or false"),
    ({"game": {"seed": -1}}, "game.seed: expected a whole number"),
    ({"game": {"speed": 1}}, "game.speed: unknown key"),
    ({"log": {"level": "loud"}}, "log.level: expected one of debug, info, warning, error"),
    ({"log": {"file": "x"}}, "log.file: unknown key"),
    ({"sim": "maybe"}, "sim: expected true or false"),
    ({"webb": {}}, "webb: unknown key or section"),
    ({"web": 5}, "web: expected a table"),
    ({"camera": {"source": "webcam"}}, "camera.source: expected auto, pi, usb"),
    ({"camera": {"source": "usb:left"}}, "camera.source: expected usb:N"),
    ({"camera": {"interval": "fast"}}, "camera.interval: expected a number 0-5"),
    ({"camera": {"width": 10}}, "camera.width: expected a whole number 160-4608"),
    ({"camera": {"enabled": "no thanks"}}, "camera.enabled: expected true or false"),
    ({"camera": {"fps": 30}}, "camera.fps: unknown key"),
    ({"dice": {"auto_roll": 1}}, "dice.auto_roll: expected true or false"),
    (
        {"dice": {"pips": {"clue": {"eye": [1, 2, 3], "camera": [3, 4], "cobweb": [6]}}}},
        "dice.pips: pip 3 of the clue die is mapped twice",
    ),
    ({"dice": {"pips": {"cloo": {"eye": [1]}}}}, "dice.pips: unknown kind of die 'cloo'"),
    ({"dice": {"pips": 5}}, "dice.pips: expected a table"),
]


@pytest.mark.parametrize(
    ("data", "message"), BAD_VALUES, ids=[m.split(":")[0] + "-" + str(i) for i, (_, m) in enumerate(BAD_VALUES)]
)
def test_every_wrong_value_names_its_key(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(data, env={})
    assert str(info.value).startswith(message)


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("COMPANION_PORT", "http", "COMPANION_PORT: expected a port number"),
        ("COMPANION_HOST", "pi.local", "COMPANION_HOST: expected an IP address"),
        ("COMPANION_SIM", "2", "COMPANION_SIM: expected true or false"),
        ("COMPANION_LOG_LEVEL", "chatty", "COMPANION_LOG_LEVEL: expected one of"),
    ],
)
def test_a_wrong_environment_value_names_the_variable(variable: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config({}, env={variable: value})
    assert str(info.value).startswith(message)


def test_data_dir_that_is_a_file_is_refused(tmp_path: Path) -> None:
    file = write(tmp_path / "games", "not a directory")
    with pytest.raises(ConfigError, match="^COMPANION_DATA_DIR: .* is not a directory"):
        parse_config({}, env={"COMPANION_DATA_DIR": str(file)})


def test_prefix_error_puts_the_section_in_front_of_a_part_key() -> None:
    assert str(prefix_error("camera", ConfigError("fps: expected 1-60"))) == "camera.fps: expected 1-60"
    assert (
        str(prefix_error("hardware", ConfigError("hardware.servo.pin must be 0-27")))
        == "hardware.servo.pin must be 0-27"
    )
    assert str(prefix_error("tray", ConfigError("no region given"))) == "tray: no region given"


# -- the example file --------------------------------------------------------------------------------------


def test_the_example_file_is_valid_and_equals_the_defaults() -> None:
    """Every value in systemd/config.example.toml is the built-in default, so copying it changes nothing."""
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    config = parse_config(data, env={})
    assert (config.web.host, config.web.port, config.web.threads) == (None, WebConfig().port, WebConfig().threads)
    assert config.game == GameConfig()
    from web.settings import WebSettings

    defaults = WebSettings(data_dir=Path("."))
    assert config.web.extra and all(getattr(defaults, key) == value for key, value in config.web.extra.items())
    assert config.camera == CameraConfig()
    assert config.dice.auto_roll is True
    from companion.games.skeptics.dice import PipMap

    assert PipMap.from_dict(config.dice.pips) == PipMap.default()
    from hardware.config import HardwareConfig

    assert HardwareConfig.from_dict(config.section("hardware")) == HardwareConfig()
    from companion.games.skeptics.roll import DEFAULT_COLOR_KINDS
    from vision.reader import ReaderSettings

    assert ReaderSettings.from_config(config.section("tray")) == ReaderSettings()
    assert config.section("tray")["kinds"] == DEFAULT_COLOR_KINDS


def _commented_or_set(text: str, key: str) -> bool:
    for line in text.splitlines():
        stripped = line.lstrip("# ").strip()
        if stripped.startswith((f"{key} =", f"{key}=")):
            return True
        if stripped.startswith("[") and (f".{key}]" in stripped or f".{key}." in stripped):
            return True  # a table such as [tray.kinds]
    return False


def test_the_example_file_shows_every_key() -> None:
    from dataclasses import fields

    from hardware.config import DisplayConfig, HardwareConfig, PinsConfig, ServoConfig, VoiceConfig
    from web.settings import WebSettings

    text = EXAMPLE.read_text(encoding="utf-8")
    keys = ["sim", "host", "port", "threads", "dir", "level", "retry_s"]
    keys += [f.name for f in fields(GameConfig)]
    keys += [f.name for f in fields(CameraConfig)] + ["auto_roll", "pips", "kinds", "colors"]
    keys += ["region", "find_threshold", "unsure_below", "color_distance"]
    keys += [f.name for f in fields(WebSettings) if f.name not in ("data_dir", "now")]
    for cls in (ServoConfig, DisplayConfig, PinsConfig, VoiceConfig):
        keys += [f.name for f in fields(cls) if f.name != "pulse_us"]
    keys += ["XII", "III", "VI", "IX"]
    assert [f.name for f in fields(HardwareConfig)] == ["servo", "display", "pins", "voice", "retry_s"]
    missing = [key for key in keys if not _commented_or_set(text, key)]
    assert missing == []


# -- writing back ---------------------------------------------------------------------------------------------


def test_save_section_keeps_comments_and_other_tables(tmp_path: Path) -> None:
    file = write(
        tmp_path / "config.toml", "# my table\n[web]\nport = 8081 # the kitchen Pi\n\n[hardware.servo]\npin = 18\n"
    )
    save_section(file, "hardware.servo.pulse_us", {"XII": 600, "III": 1200, "VI": 1800, "IX": 2400})
    text = file.read_text(encoding="utf-8")
    assert "# my table" in text and "# the kitchen Pi" in text
    config = load_config(file, env={"HOME": str(tmp_path)})
    assert config.web.port == 8081
    assert config.section("hardware") == {
        "servo": {"pin": 18, "pulse_us": {"XII": 600, "III": 1200, "VI": 1800, "IX": 2400}}
    }
    assert not list(tmp_path.glob(".config-*"))


def test_config_is_frozen() -> None:
    config = Config()
    with pytest.raises(AttributeError):
        config.log_level = "debug"  # type: ignore[misc]


def test_a_byte_order_mark_is_accepted_and_bad_bytes_are_a_clear_error(tmp_path: Path) -> None:
    """A config saved by an editor that writes a BOM still loads; bytes that are not UTF-8 name the line."""
    from companion.config import read_toml

    with_bom = tmp_path / "bom.toml"
    with_bom.write_bytes(b"\xef\xbb\xbf[web]\nport = 8081\n")
    assert read_toml(with_bom) == {"web": {"port": 8081}}
    broken = tmp_path / "broken.toml"
    broken.write_bytes(b"[web]\nport = 8081\n# caf\xe9\n")
    with pytest.raises(ConfigError, match=r"line 3 is not UTF-8 text"):
        read_toml(broken)


# -- a wrong value in the file at an unattended start --------------------------------------------------------


def test_a_wrong_value_in_the_file_starts_with_its_default_and_says_so(env: dict[str, str], tmp_path: Path) -> None:
    """The Pi boots unattended: each wrong value of the file is left out, its default used, and one sentence says
    what the file has, why it is refused, what is used and where to fix it. The values that are right stay."""
    config_file = write(
        tmp_path / "config.toml",
        'colour = "red"\n[web]\nport = "abc"\nthreads = 8\n\n[log]\nlevel = "loud"\n\n[game]\nplayers = 9\nseed = 7\n',
    )
    config, fallbacks = settle_config(config_file, lambda checked: checked, lambda checked: {"": checked}, env=env)
    assert (config.web.port, config.log_level, config.game.players) == (8080, "info", 4)  # the defaults
    assert (config.web.threads, config.game.seed, config.source) == (8, 7, config_file)  # the right values stay
    said = [f.sentence() for f in fallbacks]
    assert said[0] == (
        "the config file's colour is not a key the companion knows (known: sim, web, data, game, log, camera, dice, "
        f"hardware, tray): it is ignored; fix it in {config_file}."
    )
    assert said[1] == (
        f'the config file\'s web.port is "abc", which is not a port number 1-65535 (0: any free port): using 8080; '
        f"fix it in {config_file}."
    )
    assert said[2] == (
        f"the config file's game.players is 9, which is not a whole number 1-4: using 4; fix it in {config_file}."
    )
    assert said[3] == (
        f'the config file\'s log.level is "loud", which is not one of debug, info, warning, error: using "info"; '
        f"fix it in {config_file}."
    )
    assert [f.short() for f in fallbacks][:2] == [
        "colour: ignored. Fix the config file.",
        "web.port: using 8080. Fix the config file.",
    ]


def test_a_value_refused_by_a_part_uses_the_parts_default(env: dict[str, str], tmp_path: Path) -> None:
    """The part's own check (a pin two parts claim) and its default (the servo's pin) name the key alike."""
    from hardware.config import HardwareConfig

    config_file = write(tmp_path / "config.toml", "[hardware.servo]\npin = 2\n")

    def build(checked: Config) -> tuple[Config, HardwareConfig]:
        return checked, HardwareConfig.from_dict(checked.section("hardware"))

    (config, hardware), fallbacks = settle_config(config_file, build, lambda b: {"": b[0], "hardware": b[1]}, env=env)
    assert hardware.servo.pin == HardwareConfig().servo.pin != 2
    assert [f.sentence() for f in fallbacks] == [
        f"the config file's hardware.servo.pin is 2, which the companion refuses (GPIO2 is also used by "
        f"hardware.display (I2C SDA); give each part its own pin): using {hardware.servo.pin}; fix it in {config_file}."
    ]


@pytest.mark.parametrize(
    ("text", "extra_env", "message"),
    [
        ("[web]\nport = 8081\n", {"COMPANION_PORT": "eighty"}, "COMPANION_PORT: expected a port number"),
        ("[web\nport = 8081\n", {}, "line 1"),  # a file that cannot be read at all: no value to leave out
        ('[game]\nboard = "asylum"\nplayers = 1\nghost = "nobody"\n', {}, None),  # the part's complaint, below
    ],
)
def test_what_is_not_one_value_of_the_file_still_stops_the_start(
    env: dict[str, str], tmp_path: Path, text: str, extra_env: dict[str, str], message: str | None
) -> None:
    config_file = write(tmp_path / "config.toml", text)

    def build(checked: Config) -> Config:
        if message is None:
            raise ConfigError("game: the first game cannot be set up; fix [game]")  # a whole section's complaint
        return checked

    with pytest.raises(ConfigError) as info:
        settle_config(config_file, build, lambda c: {"": c}, env={**env, **extra_env})
    assert message is None or message in str(info.value)


def test_a_default_of_none_is_said_in_words(env: dict[str, str], tmp_path: Path) -> None:
    config_file = write(tmp_path / "config.toml", '[game]\nboard = ""\nseed = -1\n')
    config, fallbacks = settle_config(config_file, lambda checked: checked, lambda checked: {"": checked}, env=env)
    assert config.game.board is None and config.game.seed is None
    assert [f.default for f in fallbacks] == ["the first board of the packs", "a fresh seed"]
