"""systemd/install.sh installs what CI tested: uv.lock's versions by hash, RPi.GPIO never on a Pi 5, 64-bit only.

The quick tests run the installer for real against a fake prefix, with stand-ins for the system's user and
service commands and for the venv's pip (which records what it was asked to install). The slow test runs it
in a Debian Bookworm root made with debootstrap, real apt and real pip included; it needs root, debootstrap
and the network, and runs only when COMPANION_TEST_DEBOOTSTRAP=1 (it takes several minutes):

    COMPANION_TEST_DEBOOTSTRAP=1 uv run pytest tests/test_install.py -m slow -s
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
INSTALL = REPO / "systemd" / "install.sh"
REQUIREMENTS = REPO / "systemd" / "requirements.txt"
EXPORT = ["uv", "export", "--frozen", "--no-dev", "--extra", "pi", "--no-emit-project",
          "-o", "systemd/requirements.txt"]


def requirement_names(text: str) -> list[str]:
    return [line.split("==")[0] for line in text.splitlines() if line[:1].isalnum()]


@pytest.mark.skipif(shutil.which("uv") is None, reason="uv is not installed")
def test_requirements_are_the_lock_exported(tmp_path: Path) -> None:
    """systemd/requirements.txt is exactly `uv export` of uv.lock: regenerate it with the command in its header."""
    out = tmp_path / "requirements.txt"
    command = [*EXPORT[:-1], str(out)]
    subprocess.run(command, cwd=REPO, check=True, capture_output=True, timeout=120)
    shipped = REQUIREMENTS.read_text(encoding="utf-8")
    exported = out.read_text(encoding="utf-8").replace(str(out), "systemd/requirements.txt")
    assert shipped == exported, "systemd/requirements.txt is stale; run: " + " ".join(EXPORT)
    names = requirement_names(shipped)
    assert {"lgpio", "rpi-gpio", "simplejpeg", "smbus2", "numpy", "pillow", "gpiozero", "waitress"} <= set(names)


def test_every_requirement_is_pinned_with_a_hash() -> None:
    blocks: list[list[str]] = []
    for line in REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        if line[:1].isalnum():
            blocks.append([line])
        elif blocks and line.startswith("    --hash="):
            blocks[-1].append(line)
    assert len(blocks) > 20
    for block in blocks:
        assert "==" in block[0], block[0]
        assert len(block) > 1, f"{block[0]} has no hash"


def executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


@dataclass
class Run:
    result: subprocess.CompletedProcess[str]
    prefix: Path
    etc: Path
    units: Path
    log: Path

    def calls(self, name: str) -> list[str]:
        return [line.split(" ", 1)[1] for line in self.log.read_text().splitlines() if line.split(" ", 1)[0] == name]


def run_installer(tmp_path: Path, *, model: str, arch: str = "arm64", extra: tuple[str, ...] = ()) -> Run:
    """install.sh for real (not --dry-run) into tmp_path, with the system commands and the venv faked."""
    fake = tmp_path / "bin"
    log = tmp_path / "calls.log"
    prefix, etc, units = tmp_path / "opt", tmp_path / "etc", tmp_path / "units"
    for name in ("groupadd", "useradd", "usermod", "systemctl", "getent"):
        executable(fake / name, f'echo "{name} $*" >> "{log}"\n')
    executable(fake / "id", 'if [ "$1" = -u ]; then echo 0; else exit 0; fi\n')  # root, and the user exists
    executable(fake / "dpkg", f'echo "{arch}"\n')
    venv = prefix / "venv" / "bin"
    # The venv exists already (an upgrade); its pip keeps a copy of each requirements file it is handed.
    executable(venv / "python", f'echo "python $*" >> "{log}"\ncase "$*" in *picamera2*) '
               'echo "ModuleNotFoundError: No module named \'picamera2\'" >&2; exit 1;; esac\n')
    executable(venv / "pip", f'echo "pip $*" >> "{log}"\nn=$(grep -c "^pip " "{log}")\n'
               'while [ $# -gt 0 ]; do [ "$1" = --requirement ] && cp "$2" '
               f'"{tmp_path}/requirements-$n.txt"; shift; done\n')
    executable(venv / "companion", f'echo "companion $*" >> "{log}"\n')
    model_file = tmp_path / "model"
    model_file.write_bytes(model.encode() + b"\0")
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}", "COMPANION_MODEL_FILE": str(model_file)}
    result = subprocess.run(
        ["bash", str(INSTALL), "--no-apt", "--prefix", str(prefix), "--config-dir", str(etc),
         "--unit-dir", str(units), *extra],
        capture_output=True, text=True, timeout=120, env=env,
    )
    return Run(result, prefix, etc, units, log)


def test_install_into_a_fake_prefix_on_a_pi4(tmp_path: Path) -> None:
    run = run_installer(tmp_path, model="Raspberry Pi 4 Model B Rev 1.5")
    assert run.result.returncode == 0, run.result.stderr
    pips = run.calls("pip")
    assert pips[0].startswith("install --disable-pip-version-check --require-hashes --no-deps --requirement ")
    assert (tmp_path / "requirements-1.txt").read_text() == REQUIREMENTS.read_text()  # RPi.GPIO included
    assert pips[1] == f"install --disable-pip-version-check --no-deps --force-reinstall {run.prefix}/src"
    assert len(pips) == 2  # no `pip install --upgrade pip`: the venv's pip is not replaced by whatever PyPI has
    # the program copied without the checkout's caches, the configuration once, the unit pointing at the prefix
    assert (run.prefix / "src" / "pyproject.toml").is_file()
    assert (run.prefix / "src" / "systemd" / "requirements.txt").is_file()
    assert not (run.prefix / "src" / ".venv").exists() and not (run.prefix / "src" / ".git").exists()
    assert (run.etc / "config.toml").read_text() == (REPO / "systemd" / "config.example.toml").read_text()
    assert (run.etc / "config.toml").stat().st_mode & 0o777 == 0o640  # it may hold the host PIN
    unit = (run.units / "companion.service").read_text()
    assert f"ExecStart={run.prefix}/venv/bin/companion serve" in unit
    assert run.calls("companion") == [f"serve --check --config {run.etc}/config.toml"]
    assert "enable companion.service" in run.calls("systemctl")
    assert "picamera2 does not import" in run.result.stderr
    assert "No module named 'picamera2'" in run.result.stderr  # the reason, not only that it failed


def test_a_pi5_gets_no_rpi_gpio(tmp_path: Path) -> None:
    run = run_installer(tmp_path, model="Raspberry Pi 5 Model B Rev 1.0", extra=("--no-start",))
    assert run.result.returncode == 0, run.result.stderr
    assert "lgpio drives the GPIO, RPi.GPIO is not installed" in run.result.stdout
    installed = (tmp_path / "requirements-1.txt").read_text()
    names = requirement_names(installed)
    assert "rpi-gpio" not in names and "RPi.GPIO" not in installed
    assert set(requirement_names(REQUIREMENTS.read_text())) - set(names) == {"rpi-gpio"}
    assert "lgpio" in names
    # every line of the other packages is kept, hashes included
    expected, skipping = [], False
    for line in REQUIREMENTS.read_text().splitlines(keepends=True):
        if line[:1].isalnum():
            skipping = line.startswith("rpi-gpio==")
        if not skipping:
            expected.append(line)
    assert installed == "".join(expected)
    assert "restart companion.service" not in run.calls("systemctl")


@pytest.mark.parametrize("arch", ["armhf", "armel"])
def test_a_32_bit_system_is_refused_before_anything_changes(tmp_path: Path, arch: str) -> None:
    run = run_installer(tmp_path, model="Raspberry Pi 4 Model B Rev 1.5", arch=arch)
    assert run.result.returncode == 1
    assert f"this is a 32-bit system ({arch}); the companion needs the 64-bit Raspberry Pi OS" in run.result.stderr
    assert "no 32-bit ARM wheels" in run.result.stderr
    assert not run.log.exists() and not (run.prefix / "src").exists() and not run.etc.exists()


# -- in a Debian Bookworm root ------------------------------------------------------------------------------------

ROOT_CACHE = Path(os.environ.get("COMPANION_DEBOOTSTRAP_ROOT", "/var/tmp/skeptics-companion-bookworm.tar"))


def bookworm_root(into: Path) -> None:
    """A minimal Debian Bookworm root in `into`, unpacked from a cached tarball made once with debootstrap."""
    if not ROOT_CACHE.exists():
        build = into.parent / "debootstrap"
        subprocess.run(["debootstrap", "--variant=minbase", "bookworm", str(build), "http://deb.debian.org/debian"],
                       check=True, capture_output=True, timeout=1800)
        subprocess.run(["tar", "-C", str(build), "-cf", str(ROOT_CACHE), "."], check=True, timeout=600)
        shutil.rmtree(build)
    into.mkdir()
    subprocess.run(["tar", "-C", str(into), "-xf", str(ROOT_CACHE)], check=True, timeout=600)


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("COMPANION_TEST_DEBOOTSTRAP") != "1", reason="set COMPANION_TEST_DEBOOTSTRAP=1")
@pytest.mark.skipif(shutil.which("debootstrap") is None, reason="debootstrap is not installed")
@pytest.mark.skipif(os.geteuid() != 0, reason="chroot needs root")
def test_install_in_a_bookworm_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    bookworm_root(root)
    shutil.copy("/etc/resolv.conf", root / "etc" / "resolv.conf")
    # A TLS-inspecting proxy's certificate authority, when this machine has one, is trusted inside too.
    local_cas = Path("/usr/local/share/ca-certificates")
    if local_cas.is_dir():
        shutil.copytree(local_cas, root / "usr" / "local" / "share" / "ca-certificates", dirs_exist_ok=True)
    checkout = root / "home" / "pi" / "skeptics-companion"
    subprocess.run(["tar", "-C", str(REPO), "--exclude=./.git", "--exclude=./.venv", "--exclude=__pycache__",
                    "--exclude=./.mypy_cache", "--exclude=./.pytest_cache", "-cf", str(tmp_path / "src.tar"), "."],
                   check=True, timeout=120)
    checkout.mkdir(parents=True)
    subprocess.run(["tar", "-C", str(checkout), "-xf", str(tmp_path / "src.tar")], check=True, timeout=120)
    mounts = [("proc", root / "proc", ["-t", "proc", "proc"]), ("dev", root / "dev", ["--bind", "/dev"])]
    mounted: list[Path] = []
    try:
        for _, target, how in mounts:
            subprocess.run(["mount", *how, str(target)], check=True, timeout=30)
            mounted.append(target)
        script = (
            "set -e; cd /home/pi/skeptics-companion; "
            # Raspberry Pi OS has systemd; the minimal root does not. Not running, so the unit is only enabled.
            "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "
            "systemd > /dev/null; "
            "systemd/install.sh --no-start; "
            "/opt/skeptics-companion/venv/bin/pip freeze --local --disable-pip-version-check > /tmp/freeze.txt; "
            "/opt/skeptics-companion/venv/bin/companion hw status --sim > /tmp/status.json; "
            "/opt/skeptics-companion/venv/bin/companion serve --check --config /etc/skeptics-companion/config.toml"
        )
        result = subprocess.run(["chroot", str(root), "/bin/bash", "-c", script], capture_output=True, text=True,
                                timeout=1800, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
                                         "PIP_CERT": "/etc/ssl/certs/ca-certificates.crt"})
        print(result.stdout[-6000:], result.stderr[-4000:], sep="\n--- stderr ---\n")
        assert result.returncode == 0, result.stderr[-4000:]
    finally:
        for target in reversed(mounted):
            subprocess.run(["umount", "-l", str(target)], check=False, timeout=30)
    freeze = {re.sub(r"[-_.]+", "-", line.split("==")[0]).lower(): line.split("==")[1]
              for line in (root / "tmp" / "freeze.txt").read_text().splitlines() if "==" in line}
    locked = {}
    for line in REQUIREMENTS.read_text().splitlines():
        if line[:1].isalnum():
            name, _, rest = line.partition("==")
            locked.setdefault(name, set()).add(rest.split()[0])
    # every package in the venv is the lock's version (RPi.GPIO, lgpio, simplejpeg: aarch64 only, so not here)
    freeze.pop("skeptics-companion", None)
    for name, version in freeze.items():
        assert name in locked and version in locked[name], f"{name}=={version} is not the lock's {locked.get(name)}"
    assert {"numpy", "pillow", "opencv-python-headless", "gpiozero", "waitress", "smbus2"} <= set(freeze)
    assert '"pin_factory": "mock"' in (root / "tmp" / "status.json").read_text()
    unit = (root / "etc" / "systemd" / "system" / "companion.service").read_text()
    assert "ExecStart=/opt/skeptics-companion/venv/bin/companion serve" in unit
    assert (root / "etc" / "systemd" / "system" / "multi-user.target.wants" / "companion.service").is_symlink()
    assert "systemd is not running here: enabling companion.service for the next boot" in result.stdout
