"""The systemd unit and the Raspberry Pi installer.

`systemd-analyze verify` checks that the ExecStart binary exists and is executable. The installed
path (/opt/skeptics-companion/venv/bin/companion) does not exist on a developer's machine or in CI,
so the test verifies a copy of the unit whose ExecStart points at a small executable in a temporary
directory; every other line is verified as shipped.
"""

from __future__ import annotations

import os
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


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed (.ci/run installs systemd)"
)
def test_systemd_analyze_verify_passes(tmp_path: Path) -> None:
    text = UNIT.read_text(encoding="utf-8")
    assert f"ExecStart={SHIPPED_EXEC} serve" in text
    binary = tmp_path / "companion"
    binary.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    binary.chmod(0o755)
    copy = tmp_path / "companion.service"
    copy.write_text(text.replace(SHIPPED_EXEC, str(binary)), encoding="utf-8")
    result = subprocess.run(
        ["systemd-analyze", "verify", str(copy)],
        capture_output=True,
        text=True,
        timeout=60,
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
    for key, value in [
        ("ProtectSystem", "strict"),
        ("ProtectHome", "true"),
        ("PrivateTmp", "true"),
        ("NoNewPrivileges", "true"),
        ("DevicePolicy", "closed"),
    ]:
        assert service[key] == [value], key
    allowed = {entry.split()[0] for entry in service["DeviceAllow"]}
    # gpiochip (gpiozero/lgpio), I2C (OLED), camera (V4L2, media controller, DMA heaps), sound (voice)
    assert {"char-gpiochip", "char-i2c", "char-video4linux", "char-media", "char-dma_heap", "char-alsa"} <= allowed
    assert all(entry.split()[1] == "rw" for entry in service["DeviceAllow"])
    # PrivateDevices would hide /dev/gpiochip* and /dev/i2c-* altogether.
    assert "PrivateDevices" not in service


def test_only_the_local_network_and_no_other_process(unit: dict[str, dict[str, list[str]]]) -> None:
    service = unit["Service"]
    assert service["IPAddressDeny"] == ["any"]
    allowed = set(service["IPAddressAllow"][0].split())
    assert {"localhost", "link-local", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"} <= allowed
    assert "any" not in allowed and "0.0.0.0/0" not in allowed
    assert service["ProtectProc"] == ["invisible"]
    # gpiozero reads /proc/device-tree and /proc/cpuinfo to know the board: ProcSubset=pid would hide them
    assert "ProcSubset" not in service
    # servo.backend = "hwpwm" exports a PWM channel through /sys/class/pwm, which ProtectKernelTunables makes read-only
    assert "ProtectKernelTunables" not in service


def exposure(unit_file: Path) -> float:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit_file)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    match = re.search(r"Overall exposure level for \S+: ([\d.]+)", result.stdout)
    assert match, result.stdout[-2000:] + result.stderr
    return float(match.group(1))


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_security_rates_the_unit_better_than_before(tmp_path: Path) -> None:
    """2.3 ("OK") before issue 23's IPAddressDeny/IPAddressAllow, ProtectProc, RemoveIPC, PrivateMounts and
    ~@privileged; 1.7 after. Without those lines the same unit rates 2.3 again, so the check can fail."""
    binary = tmp_path / "companion"
    binary.write_text("#!/bin/sh\n", encoding="utf-8")
    binary.chmod(0o755)
    text = UNIT.read_text(encoding="utf-8").replace(SHIPPED_EXEC, str(binary))
    shipped = tmp_path / "companion.service"
    shipped.write_text(text, encoding="utf-8")
    loose = tmp_path / "loose.service"
    added = ("IPAddressDeny=", "IPAddressAllow=", "ProtectProc=", "RemoveIPC=", "PrivateMounts=", "SystemCallFilter=~")
    loose.write_text(
        "".join(line for line in text.splitlines(keepends=True) if not line.startswith(added)), encoding="utf-8"
    )
    assert exposure(loose) == 2.3
    assert exposure(shipped) <= 1.7


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
    # Bookworm with its Python 3.11, whatever this machine runs
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "python3").write_text('#!/bin/sh\n[ "$1" = -c ] && echo 3.11\n', encoding="utf-8")
    (fake / "python3").chmod(0o755)
    os_release = tmp_path / "os-release"
    os_release.write_text("VERSION_CODENAME=bookworm\n", encoding="utf-8")
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}", "COMPANION_OS_RELEASE": str(os_release)}
    result = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--prefix", str(prefix)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    steps = [line[2:] for line in result.stdout.splitlines() if line.startswith("+ ")]
    apt = next(step for step in steps if " apt-get install " in f" {step} ")
    for package in ("python3-venv", "python3-picamera2", "espeak-ng", "i2c-tools"):
        assert package in apt.split()
    # one source each for lgpio and smbus2: the venv (uv.lock), never apt as well; and no compiler
    for package in ("python3-lgpio", "python3-smbus2", "build-essential", "python3-dev", "gcc"):
        assert package not in apt.split()
    assert f"python3 -m venv --system-site-packages {prefix}/venv" in steps or (prefix / "venv/bin/python").exists()
    pips = [step for step in steps if step.startswith(f"{prefix}/venv/bin/pip install ")]
    assert [re.sub(r"--requirement \S+", "--requirement FILE", pip) for pip in pips] == [
        f"{prefix}/venv/bin/pip install --disable-pip-version-check --no-deps {rest}"
        for rest in (
            "--require-hashes --only-binary :all: --requirement FILE",
            "--require-hashes --no-build-isolation --use-pep517 --requirement FILE",
            f"--no-build-isolation --force-reinstall {prefix}/src",
        )
    ]
    assert any(re.fullmatch(r"install -m 0644 \S+ /etc/systemd/system/companion.service", step) for step in steps)
    assert steps[-2:] == ["systemctl enable companion.service", "systemctl restart companion.service"]
    assert not prefix.exists()  # a dry run changes nothing


def test_install_refuses_an_unknown_option() -> None:
    result = subprocess.run(["bash", str(INSTALL), "--frobnicate"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert "unknown option --frobnicate" in result.stderr
