"""`companion hw test` and `companion hw calibrate`, simulated."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from hardware import cli
from hardware.config import MARKS, HardwareConfig, ServoConfig, default_pulses

# luma.oled still calls Image.getdata(), which Pillow 13 warns about.
ROOT = Path(__file__).parent.parent


def test_hw_test_in_simulation_reports_every_part(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["test", "--sim", "--no-voice"]) == 0
    out = capsys.readouterr().out
    for part in ("servo", "display", "end_round_button", "read_dice_button", "buzzer", "led"):
        assert f"found   {part}" in out
    for mark, pulse in default_pulses().items():
        assert f"{mark:>3}: asked {pulse} us, sent {pulse:.1f} us (+0.0 us" in out
    assert "swept to IX: hand at 270 deg" in out
    assert "buzzer: beeped" in out and "all parts found" in out


def test_hw_test_shows_the_pi5_rounding(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["test", "--sim", "--no-voice", "--model-pi5"]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.strip().startswith("III:"))
    asked = default_pulses()["III"]
    truncated = int(asked / 20_000 * 100) / 100 * 20_000  # gpiozero's lgpio pin: a whole percent of duty
    assert f"sent {truncated:.1f} us" in line


def test_hw_test_with_a_bad_setting_names_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[hardware.pins]\nled = 18\n", encoding="utf-8")
    assert cli.main(["test", "--sim", "--no-voice", "--config", str(config)]) == 2
    assert "hardware.pins.led (GPIO18) is also used by hardware.servo.pin" in capsys.readouterr().err


def feed(keys: str) -> tuple[object, list[str]]:
    chars = iter(keys)
    return (lambda: next(chars, "")), []


def test_calibrate_loop_nudges_and_returns_the_pulses() -> None:
    servo = ServoConfig()
    held: list[int] = []
    read_key, _ = feed("+++]] n -- [ p ? s")
    out: list[str] = []
    pulses = cli.calibrate_loop(held.append, servo, read_key, out.append)  # type: ignore[arg-type]
    assert pulses is not None
    assert pulses["XII"] == servo.pulse_us["XII"] + 32
    assert pulses["III"] == servo.pulse_us["III"] - 21
    assert pulses["VI"] == servo.pulse_us["VI"] and pulses["IX"] == servo.pulse_us["IX"]
    assert held[:4] == [servo.pulse_us["XII"] + d for d in (0, 10, 20, 30)]  # the hand followed every key
    assert held[-1] == pulses["XII"]  # "p" went back to XII
    assert any("keys:" in line for line in out)


def test_calibrate_loop_quits_without_saving_and_refuses_a_crossed_order() -> None:
    read_key, _ = feed("q")
    assert cli.calibrate_loop(lambda us: None, ServoConfig(), read_key, lambda s: None) is None  # type: ignore[arg-type]
    read_key, _ = feed("")
    assert cli.calibrate_loop(lambda us: None, ServoConfig(), read_key, lambda s: None) is None  # type: ignore[arg-type]
    servo = ServoConfig.from_dict({"pulse_us": {"XII": 1000, "III": 1010, "VI": 1500, "IX": 2000}})
    out: list[str] = []
    read_key, _ = feed("++ s q")
    assert cli.calibrate_loop(lambda us: None, servo, read_key, out.append) is None  # type: ignore[arg-type]
    assert any("not saved" in line and "must rise" in line for line in out)


def run_companion(args: list[str], stdin: str, env_home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(env_home), "XDG_CONFIG_HOME": str(env_home / ".config")}
    env.pop("COMPANION_CONFIG", None)
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        input=stdin,
        text=True,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def test_calibrate_from_the_terminal_saves_into_the_config_file(tmp_path: Path) -> None:
    """Keys on stdin, the pulses in [hardware.servo.pulse_us], the rest of the file and its comments kept."""
    example = ROOT / "systemd" / "config.example.toml"
    config = tmp_path / "config.toml"
    if example.exists():
        shutil.copy(example, config)
    else:  # pragma: no cover
        config.write_text("# my table\n[web]\nport = 8080\n", encoding="utf-8")
    before = config.read_text(encoding="utf-8")
    result = run_companion(["hw", "calibrate", "--sim", "--config", str(config)], "+++n---n]s", tmp_path)
    assert result.returncode == 0, result.stderr
    assert "saved [hardware.servo]" in result.stdout
    data = tomllib.loads(config.read_text(encoding="utf-8"))
    old = tomllib.loads(before)
    old_pulses = HardwareConfig.from_dict(old.get("hardware", {})).servo.pulse_us
    pulses = HardwareConfig.from_dict(data["hardware"]).servo.pulse_us
    assert pulses == {
        "XII": old_pulses["XII"] + 30,
        "III": old_pulses["III"] - 30,
        "VI": old_pulses["VI"] + 1,
        "IX": old_pulses["IX"],
    }
    assert data.get("web") == old.get("web")  # other sections untouched
    first_comment = next(line for line in before.splitlines() if line.startswith("#"))
    assert first_comment in config.read_text(encoding="utf-8")


def test_calibrate_creates_a_new_config_file(tmp_path: Path) -> None:
    config = tmp_path / "new" / "config.toml"
    result = run_companion(["hw", "calibrate", "--sim", "--config", str(config)], "]]s", tmp_path)
    assert result.returncode == 0, result.stderr
    pulses = HardwareConfig.from_dict(tomllib.loads(config.read_text())["hardware"]).servo.pulse_us
    assert pulses["XII"] == default_pulses()["XII"] + 2 and set(pulses) == set(MARKS)


def test_calibrate_quit_leaves_the_file_alone(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[hardware.servo]\npin = 18\n", encoding="utf-8")
    result = run_companion(["hw", "calibrate", "--sim", "--config", str(config)], "+++q", tmp_path)
    assert result.returncode == 1
    assert config.read_text() == "[hardware.servo]\npin = 18\n"


def test_status_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert cli.main(["status", "--sim"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["parts"]["servo"]["found"] is True and status["sim"] is True
    assert status["pin_factory"] == "mock"


def test_run_test_counts_missing_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A part that does not answer makes `hw test` exit 1 and say which."""
    from gpiozero import LED
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    factory = MockFactory(pin_class=MockPWMPin)
    squatter = LED(22, pin_factory=factory)  # holds the buzzer's pin
    original = cli._make_table
    monkeypatch.setattr(cli, "_make_table", lambda config, sim, pin_factory=None: original(config, sim, factory))
    out = io.StringIO()
    assert cli.run_test(HardwareConfig(), sim=True, voice=False, out=out) == 1
    text = out.getvalue()
    assert "MISSING buzzer" in text and "GPIO22" in text and "1 part(s) missing" in text
    squatter.close()


def test_calibrate_without_gpio_says_to_use_sim(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gpiozero.exc import BadPinFactory

    import hardware.factory

    def no_factory(sim: bool) -> object:
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(hardware.factory, "make_pin_factory", no_factory)
    assert cli.main(["calibrate", "--config", str(tmp_path / "c.toml")]) == 2
    assert "cannot drive the clock hand" in capsys.readouterr().err and not (tmp_path / "c.toml").exists()
