"""The systemd unit and the Raspberry Pi installer.

`systemd-analyze verify` checks that the ExecStart binary exists and is executable. The installed
path (/opt/skeptics-companion/venv/bin/companion) does not exist on a developer's machine or in CI,
so the test verifies a copy of the unit whose ExecStart points at a small executable in a temporary
directory; every other line is verified as shipped.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
UNIT = REPO / "systemd" / "companion.service"
INSTALL = REPO / "systemd" / "install.sh"
SHIPPED_EXEC = "/opt/skeptics-companion/venv/bin/companion"


def unit_entries(text: str) -> dict[str, dict[str, list[str]]]:
    """Sections of a unit file; a key may appear several times (DeviceAllow=)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


@pytest.fixture(scope="module")
def unit() -> dict[str, dict[str, list[str]]]:
    return unit_entries(UNIT.read_text(encoding="utf-8"))


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed (.ci/run installs systemd)")
def test_systemd_analyze_verify_passes(tmp_path: Path) -> None:
    text = UNIT.read_text(encoding="utf-8")
    assert f"ExecStart={SHIPPED_EXEC} serve" in text
    binary = tmp_path / "companion"
    binary.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    binary.chmod(0o755)
    copy = tmp_path / "companion.service"
    copy.write_text(text.replace(SHIPPED_EXEC, str(binary)), encoding="utf-8")
    result = subprocess.run(
        ["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60,
    )
    about_us = [line for line in (result.stdout + result.stderr).splitlines() if "companion.service" in line]
    assert result.returncode == 0, result.stderr
    # Unknown or misspelt keys are only warnings (exit code 0), so any complaint about our unit fails too.
    assert about_us == []


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_verify_would_catch_a_misspelt_key(tmp_path: Path) -> None:
    """The check above can fail: a misspelt directive is reported."""
    binary = tmp_path / "companion"
    binary.write_text("#!/bin/sh\n", encoding="utf-8")
    binary.chmod(0o755)
    copy = tmp_path / "companion.service"
    copy.write_text(
        UNIT.read_text(encoding="utf-8").replace(SHIPPED_EXEC, str(binary)).replace("ProtectHome=", "ProtecHome="),
        encoding="utf-8",
    )
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    assert "ProtecHome" in result.stdout + result.stderr


def test_the_service_notifies_and_is_watched(unit: dict[str, dict[str, list[str]]]) -> None:
    service = unit["Service"]
    assert service["Type"] == ["notify"]
    assert service["NotifyAccess"] == ["main"]
    assert int(service["WatchdogSec"][0]) >= 10
    assert service["Restart"] == ["on-failure"]
    assert service["RestartPreventExitStatus"] == ["2"]  # a configuration error does not restart forever
    assert int(unit["Unit"]["StartLimitBurst"][0]) >= 3
    assert int(unit["Unit"]["StartLimitIntervalSec"][0]) >= 60
    assert service["ExecStart"] == [f"{SHIPPED_EXEC} serve"]


def test_a_dedicated_user_with_the_hardware_groups(unit: dict[str, dict[str, list[str]]]) -> None:
    service = unit["Service"]
    assert service["User"] == ["companion"]
    assert set(service["SupplementaryGroups"][0].split()) >= {"gpio", "i2c", "video", "audio"}
    assert service["StateDirectory"] == ["skeptics-companion"]
    assert "COMPANION_DATA_DIR=%S/skeptics-companion" in service["Environment"]


def test_sandboxed_but_the_hardware_is_reachable(unit: dict[str, dict[str, list[str]]]) -> None:
    service = unit["Service"]
    for key, value in [("ProtectSystem", "strict"), ("ProtectHome", "true"), ("PrivateTmp", "true"),
                       ("NoNewPrivileges", "true"), ("DevicePolicy", "closed")]:
        assert service[key] == [value], key
    allowed = {entry.split()[0] for entry in service["DeviceAllow"]}
    # gpiochip (gpiozero/lgpio), I2C (OLED), camera (V4L2, media controller, DMA heaps), sound (voice)
    assert {"char-gpiochip", "char-i2c", "char-video4linux", "char-media", "char-dma_heap", "char-alsa"} <= allowed
    assert all(entry.split()[1] == "rw" for entry in service["DeviceAllow"])
    # PrivateDevices would hide /dev/gpiochip* and /dev/i2c-* altogether.
    assert "PrivateDevices" not in service


def test_the_unit_and_the_config_agree_on_the_config_location(unit: dict[str, dict[str, list[str]]]) -> None:
    from companion import paths

    assert unit["Service"]["ConfigurationDirectory"] == [paths.SYSTEM_CONFIG.parent.name]
    assert Path("/etc/skeptics-companion/config.toml") == paths.SYSTEM_CONFIG
    tomllib.loads((REPO / "systemd" / "config.example.toml").read_text(encoding="utf-8"))


# -- the installer --------------------------------------------------------------------------------------------------


def test_install_script_is_valid_bash() -> None:
    result = subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_install_script_passes_shellcheck() -> None:
    result = subprocess.run(["shellcheck", "-S", "warning", str(INSTALL)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout


def test_install_dry_run_shows_every_step(tmp_path: Path) -> None:
    prefix = tmp_path / "opt"
    result = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--prefix", str(prefix)],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    steps = [line[2:] for line in result.stdout.splitlines() if line.startswith("+ ")]
    apt = next(step for step in steps if " apt-get install " in f" {step} ")
    for package in ("python3-venv", "python3-picamera2", "espeak-ng", "i2c-tools"):
        assert package in apt.split()
    # one source each for lgpio and smbus2: the venv (uv.lock), never apt as well
    assert "python3-lgpio" not in apt.split() and "python3-smbus2" not in apt.split()
    assert f"python3 -m venv --system-site-packages {prefix}/venv" in steps or (prefix / "venv/bin/python").exists()
    requirements = f"{REPO}/systemd/requirements.txt"
    assert (f"{prefix}/venv/bin/pip install --disable-pip-version-check --require-hashes --no-deps "
            f"--requirement {requirements}") in steps
    assert any(re.fullmatch(r"install -m 0644 \S+ /etc/systemd/system/companion.service", step) for step in steps)
    assert steps[-2:] == ["systemctl enable companion.service", "systemctl restart companion.service"]
    assert not prefix.exists()  # a dry run changes nothing


def test_install_refuses_an_unknown_option() -> None:
    result = subprocess.run(["bash", str(INSTALL), "--frobnicate"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert "unknown option --frobnicate" in result.stderr
