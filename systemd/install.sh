#!/usr/bin/env bash
# Install the Skeptics table companion on a fresh Raspberry Pi OS (Bookworm or later) and start it at boot.
#
#   git clone ... skeptics-companion && cd skeptics-companion
#   sudo systemd/install.sh            # install or upgrade, enable and (re)start the service
#   sudo systemd/install.sh --dry-run  # print every step, change nothing
#
# Options:
#   --prefix DIR     where the program goes (default /opt/skeptics-companion: src/ and venv/)
#   --user NAME      the service's user (default companion)
#   --enable-i2c     switch the I2C bus on with raspi-config when it is off (a reboot makes it take effect)
#   --no-apt         skip the apt packages (offline re-install)
#   --no-start       install and enable, but do not start now
#   --dry-run        only print what would be done
#
# What it does, step by step (docs/install.md explains each):
#   1. apt packages: python3-venv, python3-picamera2, python3-lgpio, espeak-ng, i2c-tools, alsa-utils ...
#   2. the system user "companion" in the gpio, i2c, video and audio groups, without a login
#   3. a copy of this checkout in PREFIX/src and a virtual environment PREFIX/venv made with
#      --system-site-packages (picamera2 and libcamera come from apt), then pip install 'PREFIX/src[pi]'
#   4. /etc/skeptics-companion/config.toml from systemd/config.example.toml, once (never overwritten)
#   5. the unit /etc/systemd/system/companion.service, enabled, and started
set -euo pipefail

PREFIX=/opt/skeptics-companion
SERVICE_USER=companion
ENABLE_I2C=0
APT=1
START=1
DRY_RUN=0
UNIT_NAME=companion.service
CONFIG_DIR=/etc/skeptics-companion
UNIT_DIR=/etc/systemd/system

APT_PACKAGES=(
  python3 python3-venv python3-pip python3-dev
  python3-picamera2 python3-libcamera rpicam-apps-lite
  python3-lgpio
  build-essential
  i2c-tools python3-smbus2
  espeak-ng alsa-utils
  libopenblas0 libjpeg62-turbo
  rsync
)

usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX=${2:?--prefix needs a directory}; shift 2 ;;
    --user) SERVICE_USER=${2:?--user needs a name}; shift 2 ;;
    --enable-i2c) ENABLE_I2C=1; shift ;;
    --no-apt) APT=0; shift ;;
    --no-start) START=0; shift ;;
    --dry-run) DRY_RUN=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)
VENV="$PREFIX/venv"

say() { printf '==> %s\n' "$*"; }
warn() { printf 'install.sh: %s\n' "$*" >&2; }
run() {
  if [ "$DRY_RUN" = 1 ]; then
    printf '+ %s\n' "$*"
  else
    "$@"
  fi
}

if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" -ne 0 ]; then
  warn "run me as root: sudo $0 $*"
  exit 1
fi
if [ ! -f "$SRC_DIR/pyproject.toml" ] || [ ! -f "$SRC_DIR/systemd/$UNIT_NAME" ]; then
  warn "$SRC_DIR is not a checkout of the companion (no pyproject.toml or systemd/$UNIT_NAME)."
  exit 1
fi
if ! grep -qi 'raspberry pi' /proc/device-tree/model 2>/dev/null; then
  warn "this does not look like a Raspberry Pi; installing anyway (the service simulates missing hardware)."
fi

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
run mkdir -p "$PREFIX"
run rsync -a --delete --exclude .git --exclude .venv --exclude __pycache__ --exclude '*.pyc' \
  --exclude .pytest_cache --exclude .mypy_cache "$SRC_DIR/" "$PREFIX/src/"
say "making the virtual environment $VENV (with the system's site packages, for picamera2)"
if [ ! -x "$VENV/bin/python" ]; then
  run python3 -m venv --system-site-packages "$VENV"
fi
run "$VENV/bin/pip" install --upgrade pip
run "$VENV/bin/pip" install --upgrade "$PREFIX/src[pi]"
if [ "$DRY_RUN" = 0 ]; then
  "$VENV/bin/python" -c "import companion, hardware, vision, web" \
    || { warn "the installed program does not import; see the messages above."; exit 1; }
  if ! "$VENV/bin/python" -c "import picamera2" 2>/dev/null; then
    warn "picamera2 does not import in $VENV; the camera falls back to OpenCV (a USB camera). See docs/install.md."
  fi
fi

# 4. Configuration -------------------------------------------------------------------------------------------------------
say "configuration in $CONFIG_DIR"
run install -d -m 0755 "$CONFIG_DIR"
if [ -f "$CONFIG_DIR/config.toml" ]; then
  say "keeping your $CONFIG_DIR/config.toml (the example is at $PREFIX/src/systemd/config.example.toml)"
else
  run install -m 0644 "$SRC_DIR/systemd/config.example.toml" "$CONFIG_DIR/config.toml"
fi
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
unit_tmp=$(mktemp)
trap 'rm -f "$unit_tmp"' EXIT
sed -e "s|/opt/skeptics-companion/venv/bin/companion|$VENV/bin/companion|" \
    -e "s|/opt/skeptics-companion/src/|$PREFIX/src/|" \
    -e "s|^User=companion$|User=$SERVICE_USER|" -e "s|^Group=companion$|Group=$SERVICE_USER|" \
    "$SRC_DIR/systemd/$UNIT_NAME" > "$unit_tmp"
run install -m 0644 "$unit_tmp" "$UNIT_DIR/$UNIT_NAME"
if [ "$DRY_RUN" = 0 ] && command -v systemd-analyze >/dev/null 2>&1; then
  systemd-analyze verify "$UNIT_DIR/$UNIT_NAME" || warn "systemd-analyze found problems in the unit (see above)."
fi
run systemctl daemon-reload
run systemctl enable "$UNIT_NAME"
if [ "$START" = 1 ]; then
  run systemctl restart "$UNIT_NAME"
  say "started. Follow it with: journalctl -u companion -f"
  if [ "$DRY_RUN" = 0 ]; then
    sleep 1
    systemctl --no-pager --lines=5 status "$UNIT_NAME" || true
  fi
else
  say "enabled; it starts at the next boot (or: sudo systemctl start $UNIT_NAME)"
fi
say "done. The phone page is at http://$(hostname).local:8080/ (the join code is in: journalctl -u companion | grep 'join code')"
