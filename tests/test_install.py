"""systemd/install.sh installs what CI tested: uv.lock's versions by hash, wheels only, 64-bit Bookworm or Trixie.

The quick tests run the installer for real against a fake prefix, with stand-ins for the system's user and
service commands, for the release's Python and for the venv's pip (which records what it was asked to
install); `--plan` tests its decisions (board, release, lgpio path) for each board and release. The wheels
themselves are checked against uv.lock's file names for both releases' Pythons here, and installed and run on
an aarch64 userland under qemu by `systemd/rehearse.sh bookworm|trixie` (the release check, docs/install.md).
The slow test runs the installer in a Debian Bookworm root made with debootstrap, real apt and real pip
included; it needs root, debootstrap and the network, and runs only when COMPANION_TEST_DEBOOTSTRAP=1:

    COMPANION_TEST_DEBOOTSTRAP=1 uv run pytest tests/test_install.py -m slow -s
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.tags import Tag, compatible_tags, cpython_tags
from packaging.utils import parse_wheel_filename

REPO = Path(__file__).resolve().parents[1]
INSTALL = REPO / "systemd" / "install.sh"
REHEARSE = REPO / "systemd" / "rehearse.sh"
REQUIREMENTS = REPO / "systemd" / "requirements.txt"
# Each file uv.lock is exported to, with the extras it holds (the voice's only when pyproject.toml has the extra).
EXTRAS = {"requirements.txt": ("pi",), "requirements-voice.txt": ("pi", "voice")}
OPTIONAL = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
EXPORTED = [name for name, extras in EXTRAS.items() if set(extras) <= set(OPTIONAL)]


def export_command(name: str) -> list[str]:
    extras = [word for extra in EXTRAS[name] for word in ("--extra", extra)]
    return [
        "uv",
        "export",
        "--frozen",
        "--no-dev",
        *extras,
        "--group",
        "build",
        "--no-emit-project",
        "-o",
        f"systemd/{name}",
    ]


# The two releases: their Python (the full version Debian ships) and their glibc (the newest manylinux tag).
RELEASES = {"bookworm": ("3.11.2", 36), "trixie": ("3.13.5", 41)}


def requirement_names(text: str) -> list[str]:
    return [line.split("==")[0] for line in text.splitlines() if line[:1].isalnum()]


def requirement_blocks(text: str) -> dict[str, str]:
    """name==version [; marker] line -> the block's text, hashes included (a name may appear twice: numpy)."""
    blocks: dict[str, str] = {}
    head = ""
    for line in text.splitlines(keepends=True):
        if line[:1].isalnum():
            head = line.split(" \\")[0].strip()
            blocks[head] = line
        elif head and line.startswith(" "):
            blocks[head] += line
    return blocks


@pytest.mark.skipif(shutil.which("uv") is None, reason="uv is not installed")
@pytest.mark.parametrize("name", EXPORTED)
def test_requirements_are_the_lock_exported(tmp_path: Path, name: str) -> None:
    """systemd/requirements*.txt are exactly `uv export` of uv.lock: regenerate them with the command in the header."""
    out = tmp_path / name
    command = export_command(name)
    subprocess.run([*command[:-1], str(out)], cwd=REPO, check=True, capture_output=True, timeout=120)
    shipped = (REPO / "systemd" / name).read_text(encoding="utf-8")
    exported = out.read_text(encoding="utf-8").replace(str(out), f"systemd/{name}")
    assert shipped == exported, f"systemd/{name} is stale; run: " + " ".join(command)
    assert " ".join(command) in shipped.splitlines()[1]  # the header says how it is made (.ci/run runs it)
    names = requirement_names(shipped)
    assert {
        "lgpio",
        "adafruit-lgpio",
        "rpi-gpio",
        "simplejpeg",
        "smbus2",
        "numpy",
        "pillow",
        "gpiozero",
        "waitress",
        "hatchling",
    } <= set(names)
    if "voice" in EXTRAS[name]:
        assert "piper-tts" in names and set(requirement_names(REQUIREMENTS.read_text(encoding="utf-8"))) < set(names)
    else:
        assert "piper-tts" not in names


def test_a_voice_export_exactly_when_there_is_a_voice_extra() -> None:
    assert (REPO / "systemd" / "requirements-voice.txt").exists() == ("voice" in OPTIONAL)


def test_every_requirement_is_pinned_with_a_hash() -> None:
    blocks = requirement_blocks(REQUIREMENTS.read_text(encoding="utf-8"))
    assert len(blocks) > 20
    for head, block in blocks.items():
        assert "==" in head, head
        assert "--hash=sha256:" in block, f"{head} has no hash"


def the_build_backend() -> str:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    (backend,) = pyproject["build-system"]["requires"]
    assert pyproject["dependency-groups"]["build"] == [backend]  # the same pin, locked with its hashes
    return str(backend)


def test_the_build_backend_is_pinned_and_locked() -> None:
    backend = the_build_backend()
    assert re.fullmatch(r"hatchling==[\d.]+", backend), backend
    assert any(head.startswith(backend) for head in requirement_blocks(REQUIREMENTS.read_text(encoding="utf-8")))


def shell_list(name: str) -> set[str]:
    """The words of the bash array NAME=(...) in install.sh."""
    match = re.search(rf"^{name}=\(([^)]*)\)", INSTALL.read_text(encoding="utf-8"), re.M)
    assert match, name
    return set(match.group(1).split())


def target_tags(python: str, glibc: int) -> set[Tag]:
    """The tags pip accepts on an aarch64 Raspberry Pi OS with this CPython and glibc 2.<glibc>."""
    major, minor = (int(part) for part in python.split(".")[:2])
    platforms = [f"manylinux_2_{n}_aarch64" for n in range(glibc, 16, -1)] + ["manylinux2014_aarch64", "linux_aarch64"]
    return {*cpython_tags((major, minor), platforms=platforms), *compatible_tags((major, minor), platforms=platforms)}


@pytest.mark.parametrize("name", EXPORTED)
@pytest.mark.parametrize("release", RELEASES)
def test_every_requirement_has_a_wheel_for_the_release(release: str, name: str) -> None:
    """Each line pip installs on the release is a wheel of uv.lock for its Python on aarch64; the others are the
    source-only pure-Python packages install.sh names (built there without a compiler) and RPi.GPIO (apt)."""
    python, glibc = RELEASES[release]
    environment = {
        "python_version": python.rsplit(".", 1)[0],
        "python_full_version": python,
        "platform_machine": "aarch64",
        "sys_platform": "linux",
        "platform_system": "Linux",
        "implementation_name": "cpython",
        "os_name": "posix",
        "platform_python_implementation": "CPython",
    }
    tags = target_tags(python, glibc)
    lock = tomllib.loads((REPO / "uv.lock").read_text(encoding="utf-8"))
    wheels: dict[tuple[str, str], list[str]] = {}
    for package in lock["package"]:
        wheels[(package["name"], package["version"])] = [w["url"].rsplit("/", 1)[1] for w in package.get("wheels", [])]
    source_only = shell_list("SOURCE_ONLY")
    installed, built = [], []
    for head in requirement_blocks((REPO / "systemd" / name).read_text(encoding="utf-8")):
        spec, _, marker = head.partition(";")
        if marker.strip() and not Marker(marker.strip()).evaluate(environment):
            continue
        name, version = spec.strip().split("==")
        fits = [f for f in wheels[(name, version)] if parse_wheel_filename(f)[3] & tags]
        if name in source_only or name == "rpi-gpio":
            assert not fits, f"{name} {version} has a wheel now: take it out of install.sh's SOURCE_ONLY"
            built.append(name)
            continue
        assert fits, f"{name} {version} has no wheel for CPython {python} on aarch64 (glibc 2.{glibc})"
        installed.append(name)
    assert sorted(built) == sorted({*source_only, "rpi-gpio"})
    lgpio = "adafruit-lgpio" if python >= "3.13" else "lgpio"
    assert lgpio in installed and {"numpy", "opencv-python-headless", "pillow", "simplejpeg"} <= set(installed)
    assert {"lgpio", "adafruit-lgpio"} - {lgpio} & set(installed) == set()  # one lgpio module, never two


def executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def release_files(tmp_path: Path, codename: str, python: str) -> dict[str, str]:
    """COMPANION_OS_RELEASE and COMPANION_PYTHON stand-ins: that release, with a python3 of that version."""
    os_release = tmp_path / f"os-release-{codename}"
    os_release.write_text(
        f'PRETTY_NAME="Debian GNU/Linux ({codename})"\nVERSION_CODENAME={codename}\n', encoding="utf-8"
    )
    fake_python = tmp_path / f"python{python}"
    executable(fake_python, f'case "$1" in -c) echo {python};; *) echo "python3 $*" >> "{tmp_path}/calls.log";; esac\n')
    return {"COMPANION_OS_RELEASE": str(os_release), "COMPANION_PYTHON": str(fake_python)}


def plan(
    tmp_path: Path,
    *,
    model: str,
    codename: str = "bookworm",
    python: str = "3.11",
    arch: str = "arm64",
    extra: tuple[str, ...] = (),
) -> subprocess.CompletedProcess[str]:
    """install.sh --plan DIR on that board and release; its decisions as key=value lines."""
    fake = tmp_path / "bin"
    executable(fake / "dpkg", f'echo "{arch}"\n')
    model_file = tmp_path / "model"
    model_file.write_bytes(model.encode() + b"\0")
    env = {
        **os.environ,
        "PATH": f"{fake}:{os.environ['PATH']}",
        "COMPANION_MODEL_FILE": str(model_file),
        **release_files(tmp_path, codename, python),
    }
    return subprocess.run(
        ["bash", str(INSTALL), "--plan", str(tmp_path / "plan"), *extra],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def decisions(result: subprocess.CompletedProcess[str]) -> dict[str, str]:
    assert result.returncode == 0, result.stderr
    return dict(line.split("=", 1) for line in result.stdout.splitlines())


@pytest.mark.parametrize(
    ("codename", "python", "lgpio"), [("bookworm", "3.11", "lgpio"), ("trixie", "3.13", "adafruit-lgpio")]
)
@pytest.mark.parametrize(
    ("model", "rpi_gpio"),
    [
        ("Raspberry Pi 4 Model B Rev 1.5", "apt"),
        ("Raspberry Pi Zero 2 W Rev 1.0", "apt"),
        ("Raspberry Pi 5 Model B Rev 1.0", "none"),
        ("Raspberry Pi 500 Rev 1.0", "none"),
        ("Raspberry Pi Compute Module 5 Rev 1.0", "none"),
    ],
)
def test_the_plan_for_each_board_and_release(
    tmp_path: Path, codename: str, python: str, lgpio: str, model: str, rpi_gpio: str
) -> None:
    said = decisions(plan(tmp_path, model=model, codename=codename, python=python))
    assert said["architecture"] == "arm64"
    assert said["release"].startswith(f"{codename} (Debian {12 if codename == 'bookworm' else 13}), Python {python}")
    locked = {
        head.split("==")[0]: head.split("==")[1].split()[0]
        for head in requirement_blocks(REQUIREMENTS.read_text(encoding="utf-8"))
    }
    assert said["lgpio"].startswith(f"{lgpio}=={locked[lgpio]} (wheel from the lock")
    apt = said["apt"].split()
    assert "build-essential" not in apt and "python3-dev" not in apt  # no compiler by default
    assert "python3-lgpio" not in apt  # one lgpio: the venv's
    if rpi_gpio == "apt":
        assert said["board"] == f"pi1-4 ({model})" and said["rpi.gpio"].startswith("python3-rpi.gpio from apt")
        assert "python3-rpi.gpio" in apt
    else:
        assert said["board"] == f"pi5 ({model})" and said["rpi.gpio"] == f"none (a {model}'s GPIO is lgpio's alone)"
        assert "python3-rpi.gpio" not in apt
    wheels = (tmp_path / "plan" / "wheels.txt").read_text(encoding="utf-8")
    source = (tmp_path / "plan" / "source.txt").read_text(encoding="utf-8")
    shipped = requirement_blocks(REQUIREMENTS.read_text(encoding="utf-8"))
    # pip gets every block of the lock's export but RPi.GPIO, each whole (hashes included), wheels and sources apart
    assert requirement_blocks(wheels) | requirement_blocks(source) == {
        head: block for head, block in shipped.items() if not head.startswith("rpi-gpio==")
    }
    assert set(requirement_names(source)) == shell_list("SOURCE_ONLY")
    assert said["wheels"] == f"{len(requirement_blocks(wheels))} packages, --only-binary :all:"
    assert not (tmp_path / "plan" / "rpi-gpio.txt").exists()


def test_rpi_gpio_is_built_only_when_asked_and_never_on_a_pi5(tmp_path: Path) -> None:
    said = decisions(plan(tmp_path, model="Raspberry Pi 4 Model B Rev 1.5", extra=("--build-rpi-gpio",)))
    assert said["rpi.gpio"].startswith("rpi-gpio==0.7") and "as asked" in said["rpi.gpio"]
    assert {"build-essential", "python3-dev"} <= set(said["apt"].split()) and "python3-rpi.gpio" not in said["apt"]
    assert requirement_names((tmp_path / "plan" / "rpi-gpio.txt").read_text(encoding="utf-8")) == ["rpi-gpio"]
    pi5 = tmp_path / "pi5"
    pi5.mkdir()
    result = plan(pi5, model="Raspberry Pi 5 Model B Rev 1.0", extra=("--build-rpi-gpio",))
    assert decisions(result)["rpi.gpio"].startswith("none")
    assert "--build-rpi-gpio is ignored on a Raspberry Pi 5 Model B Rev 1.0" in result.stderr
    assert not (pi5 / "plan" / "rpi-gpio.txt").exists()


def test_the_voice_only_when_asked(tmp_path: Path) -> None:
    assert decisions(plan(tmp_path, model="Raspberry Pi 4 Model B Rev 1.5"))["voice"].startswith("espeak-ng (from apt")
    assert "piper-tts" not in requirement_names((tmp_path / "plan" / "wheels.txt").read_text(encoding="utf-8"))
    asked = tmp_path / "asked"
    asked.mkdir()
    result = plan(asked, model="Raspberry Pi 4 Model B Rev 1.5", extra=("--voice",))
    if "voice" not in OPTIONAL:
        assert result.returncode == 1 and "this checkout has no voice extra to install" in result.stderr
        return
    assert decisions(result)["voice"].startswith("piper (the voice extra, from requirements-voice.txt")
    wheels = requirement_blocks((asked / "plan" / "wheels.txt").read_text(encoding="utf-8"))
    voice = requirement_blocks((REPO / "systemd" / "requirements-voice.txt").read_text(encoding="utf-8"))
    assert any(head.startswith("piper-tts==") for head in wheels)
    assert set(wheels) | set(requirement_blocks((asked / "plan" / "source.txt").read_text(encoding="utf-8"))) == {
        head for head in voice if not head.startswith("rpi-gpio==")
    }


@pytest.mark.parametrize(("codename", "python"), [("bullseye", "3.9"), ("noble", "3.12"), ("", "3.11")])
def test_an_unsupported_release_is_refused(tmp_path: Path, codename: str, python: str) -> None:
    result = plan(tmp_path, model="Raspberry Pi 4 Model B Rev 1.5", codename=codename, python=python)
    assert result.returncode == 1 and result.stdout == ""
    assert f"(release '{codename or 'unknown'}') is not supported" in result.stderr
    assert "Raspberry Pi OS Bookworm (Debian 12) or Trixie (Debian 13), 64-bit" in result.stderr


def test_a_python_that_is_not_the_releases_is_refused(tmp_path: Path) -> None:
    result = plan(tmp_path, model="Raspberry Pi 5 Model B Rev 1.0", codename="bookworm", python="3.13")
    assert result.returncode == 1
    assert "is Python 3.13, but bookworm's is 3.11" in result.stderr


@dataclass
class Run:
    result: subprocess.CompletedProcess[str]
    prefix: Path
    etc: Path
    units: Path
    log: Path

    def calls(self, name: str) -> list[str]:
        return [line.split(" ", 1)[1] for line in self.log.read_text().splitlines() if line.split(" ", 1)[0] == name]


def run_installer(
    tmp_path: Path,
    *,
    model: str,
    arch: str = "arm64",
    codename: str = "trixie",
    python: str = "3.13",
    venv_exists: bool = True,
    extra: tuple[str, ...] = (),
) -> Run:
    """install.sh for real (not --dry-run) into tmp_path, with the system commands and the venv faked."""
    fake = tmp_path / "bin"
    log = tmp_path / "calls.log"
    prefix, etc, units = tmp_path / "opt", tmp_path / "etc", tmp_path / "units"
    for name in ("groupadd", "useradd", "usermod", "systemctl", "getent"):
        executable(fake / name, f'echo "{name} $*" >> "{log}"\n')
    executable(fake / "id", 'if [ "$1" = -u ]; then echo 0; else exit 0; fi\n')  # root, and the user exists
    executable(fake / "dpkg", f'echo "{arch}"\n')
    # The venv's stand-ins; its pip keeps a copy of each requirements file it is handed.
    template = tmp_path / "venv-template" / "bin"
    executable(
        template / "python",
        f'echo "python $*" >> "{log}"\ncase "$*" in *picamera2*) '
        "echo \"ModuleNotFoundError: No module named 'picamera2'\" >&2; exit 1;; esac\n",
    )
    executable(
        template / "pip",
        f'echo "pip $*" >> "{log}"\nn=$(grep -c "^pip " "{log}")\n'
        'while [ $# -gt 0 ]; do [ "$1" = --requirement ] && cp "$2" '
        f'"{tmp_path}/requirements-$n.txt"; shift; done\n',
    )
    executable(template / "companion", f'echo "companion $*" >> "{log}"\n')
    if venv_exists:  # an upgrade
        shutil.copytree(template.parent, prefix / "venv")
    files = release_files(tmp_path, codename, python)
    # the release's python3: `-m venv DIR` makes the venv's stand-ins in DIR
    executable(
        Path(files["COMPANION_PYTHON"]),
        f'case "$1" in -c) echo {python};; *) echo "python3 $*" >> "{log}"; '
        f'for last; do :; done; cp -r "{template.parent}" "$last";; esac\n',
    )
    model_file = tmp_path / "model"
    model_file.write_bytes(model.encode() + b"\0")
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}", "COMPANION_MODEL_FILE": str(model_file), **files}
    result = subprocess.run(
        [
            "bash",
            str(INSTALL),
            "--no-apt",
            "--prefix",
            str(prefix),
            "--config-dir",
            str(etc),
            "--unit-dir",
            str(units),
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    return Run(result, prefix, etc, units, log)


def test_install_into_a_fake_prefix_on_a_pi4(tmp_path: Path) -> None:
    run = run_installer(tmp_path, model="Raspberry Pi 4 Model B Rev 1.5")
    assert run.result.returncode == 0, run.result.stderr
    pips = run.calls("pip")
    base = "install --disable-pip-version-check --no-deps"
    assert pips[0].startswith(f"{base} --require-hashes --only-binary :all: --requirement ")
    assert pips[1].startswith(f"{base} --require-hashes --no-build-isolation --use-pep517 --requirement ")
    shipped = requirement_blocks(REQUIREMENTS.read_text())
    first = requirement_blocks((tmp_path / "requirements-1.txt").read_text())
    second = requirement_blocks((tmp_path / "requirements-2.txt").read_text())
    assert first | second == {head: block for head, block in shipped.items() if not head.startswith("rpi-gpio==")}
    assert requirement_names((tmp_path / "requirements-2.txt").read_text()) == sorted(shell_list("SOURCE_ONLY"))
    assert pips[2] == f"{base} --no-build-isolation --force-reinstall {run.prefix}/src"
    assert len(pips) == 3  # no `pip install --upgrade pip`: the venv's pip is not replaced by whatever PyPI has
    assert "adafruit-lgpio==0.2.2.0 (wheel from the lock; lgpio has no wheel for Python 3.13)" in run.result.stdout
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


def test_a_new_venv_is_made_with_the_releases_python_and_its_packages(tmp_path: Path) -> None:
    run = run_installer(
        tmp_path,
        model="Raspberry Pi 5 Model B Rev 1.0",
        codename="bookworm",
        python="3.11",
        venv_exists=False,
        extra=("--no-start",),
    )
    assert run.result.returncode == 0, run.result.stderr
    assert run.calls("python3") == [f"-m venv --system-site-packages {run.prefix}/venv"]
    assert len(run.calls("pip")) == 3
    assert "lgpio==0.2.2.0 (wheel from the lock)" in run.result.stdout


def test_a_pi5_gets_no_rpi_gpio(tmp_path: Path) -> None:
    run = run_installer(tmp_path, model="Raspberry Pi 5 Model B Rev 1.0", extra=("--no-start",))
    assert run.result.returncode == 0, run.result.stderr
    assert "RPi.GPIO: none (a Raspberry Pi 5 Model B Rev 1.0's GPIO is lgpio's alone)" in run.result.stdout
    installed = (tmp_path / "requirements-1.txt").read_text() + (tmp_path / "requirements-2.txt").read_text()
    assert "rpi-gpio" not in requirement_names(installed) and "RPi.GPIO" not in installed
    assert "restart companion.service" not in run.calls("systemctl")


@pytest.mark.parametrize("arch", ["armhf", "armel"])
def test_a_32_bit_system_is_refused_before_anything_changes(tmp_path: Path, arch: str) -> None:
    run = run_installer(tmp_path, model="Raspberry Pi 4 Model B Rev 1.5", arch=arch)
    assert run.result.returncode == 1
    assert f"this is a 32-bit system ({arch}); the companion needs the 64-bit Raspberry Pi OS" in run.result.stderr
    assert "no 32-bit ARM wheels" in run.result.stderr
    assert not run.log.exists() and not (run.prefix / "src").exists() and not run.etc.exists()


def test_the_rehearsal_is_valid_bash_and_refuses_an_unknown_release() -> None:
    assert subprocess.run(["bash", "-n", str(REHEARSE)], capture_output=True, timeout=30).returncode == 0
    result = subprocess.run(["bash", str(REHEARSE), "bullseye"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "give bookworm or trixie" in result.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_the_rehearsal_passes_shellcheck() -> None:
    result = subprocess.run(["shellcheck", "-S", "warning", str(REHEARSE)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout


def test_companion_says_its_version() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion", "--version"], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    version = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert result.returncode == 0 and result.stdout == f"companion {version}\n", result.stderr


# -- in a Debian Bookworm root ------------------------------------------------------------------------------------

ROOT_CACHE = Path(os.environ.get("COMPANION_DEBOOTSTRAP_ROOT", "/var/tmp/skeptics-companion-bookworm.tar"))


def bookworm_root(into: Path) -> None:
    """A minimal Debian Bookworm root in `into`, unpacked from a cached tarball made once with debootstrap."""
    if not ROOT_CACHE.exists():
        build = into.parent / "debootstrap"
        subprocess.run(
            ["debootstrap", "--variant=minbase", "bookworm", str(build), "http://deb.debian.org/debian"],
            check=True,
            capture_output=True,
            timeout=1800,
        )
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
    subprocess.run(
        [
            "tar",
            "-C",
            str(REPO),
            "--exclude=./.git",
            "--exclude=./.venv",
            "--exclude=__pycache__",
            "--exclude=./.mypy_cache",
            "--exclude=./.pytest_cache",
            "-cf",
            str(tmp_path / "src.tar"),
            ".",
        ],
        check=True,
        timeout=120,
    )
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
        result = subprocess.run(
            ["chroot", str(root), "/bin/bash", "-c", script],
            capture_output=True,
            text=True,
            timeout=1800,
            env={
                "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
                "LANG": "C.UTF-8",
                "PIP_CERT": "/etc/ssl/certs/ca-certificates.crt",
            },
        )
        print(result.stdout[-6000:], result.stderr[-4000:], sep="\n--- stderr ---\n")
        assert result.returncode == 0, result.stderr[-4000:]
    finally:
        for target in reversed(mounted):
            subprocess.run(["umount", "-l", str(target)], check=False, timeout=30)
    freeze = {
        re.sub(r"[-_.]+", "-", line.split("==")[0]).lower(): line.split("==")[1]
        for line in (root / "tmp" / "freeze.txt").read_text().splitlines()
        if "==" in line
    }
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
