"""Where the companion looks for its configuration file and keeps its game files.

Configuration file, the first that applies wins (files are not merged):

1. ``--config PATH`` on the command line (must exist),
2. ``$COMPANION_CONFIG`` (must exist),
3. ``$XDG_CONFIG_HOME/skeptics-companion/config.toml`` (``~/.config/...`` when unset),
4. ``/etc/skeptics-companion/config.toml``,
5. none: built-in defaults.

Data directory (the game history ``games.sqlite3`` lives there), the first that is set wins:

1. ``$COMPANION_DATA_DIR`` (so two companions can run side by side),
2. ``[data] dir`` in the configuration file,
3. ``$STATE_DIRECTORY`` (set by systemd from ``StateDirectory=``),
4. ``$XDG_DATA_HOME/skeptics-companion`` (``~/.local/share/skeptics-companion`` when unset).

A simulation (``serve --sim``) with none of them set keeps its data in the ``sim`` folder inside that last one, apart
from the real companion's, and finds it again at its next start; ``serve --fresh`` starts in a new empty folder in
the system's temporary files instead (:func:`run_data_dir`, and what the start says of it: :func:`data_dir_note`).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

APP = "skeptics-companion"
SYSTEM_CONFIG = Path("/etc") / APP / "config.toml"
HISTORY_FILE = "games.sqlite3"
SIM_FOLDER = "sim"  # a simulation's data, inside the default data folder


def _home(env: Mapping[str, str]) -> Path:
    home = env.get("HOME")
    return Path(home) if home else Path.home()


def user_config_file(env: Mapping[str, str] | None = None) -> Path:
    """The per-user configuration file (it need not exist)."""
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME") or str(_home(env) / ".config")
    return Path(base) / APP / "config.toml"


def config_candidates(env: Mapping[str, str] | None = None) -> list[Path]:
    """The implicit configuration files, in the order they are tried."""
    return [user_config_file(env), system_config_file()]


def system_config_file() -> Path:
    """``/etc/skeptics-companion/config.toml`` (read at call time, so tests can point it elsewhere)."""
    return SYSTEM_CONFIG


def default_data_dir(env: Mapping[str, str] | None = None) -> Path:
    """The data directory when neither ``COMPANION_DATA_DIR`` nor ``[data] dir`` says otherwise."""
    env = os.environ if env is None else env
    state = env.get("STATE_DIRECTORY")
    if state:
        # systemd may pass several directories separated by colons; ours is the first.
        return Path(state.split(":")[0])
    base = env.get("XDG_DATA_HOME") or str(_home(env) / ".local" / "share")
    return Path(base) / APP


def fresh_data_dir(now: float | None = None, pid: int | None = None) -> Path:
    """A new empty data folder for one run (``serve --fresh``), in the system's temporary files: named by the time
    and the process, not made (the companion makes it when it starts; ``--check`` leaves nothing behind)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    return Path(tempfile.gettempdir()) / f"{APP}-fresh-{stamp}-{os.getpid() if pid is None else pid}"


def run_data_dir(
    configured: Path, simulate: bool, fresh: Path | None = None, env: Mapping[str, str] | None = None
) -> Path:
    """The data folder a start uses: `fresh` when given (``--fresh``); a simulation's own ``sim`` folder when
    nothing set a folder (its PIN, games and photos apart from the real companion's); else the one configured."""
    if fresh is not None:
        return fresh
    if simulate and configured == default_data_dir(env):
        return configured / SIM_FOLDER
    return configured


# where the host of a data folder with no PIN yet sets one (a --fresh start, the simulation's first)
HOST_CHOOSES_PIN = "the host chooses the PIN on the phone page, in its Host tab (the first phone to open it sets it)"


def data_dir_note(data_dir: Path, simulate: bool, fresh: bool, env: Mapping[str, str] | None = None) -> str | None:
    """What a start says of its data folder, before the log's first line: what the folder is and where, and for
    the simulation's usual folder whether an earlier run left a host PIN and games there (and how to start clean).
    None for a real companion in its configured folder (the log's "starting" line names it)."""
    if fresh:
        return (
            f"a clean start: a new empty data folder for this run only, {data_dir}, with no games yet and no host "
            f"PIN: {HOST_CHOOSES_PIN}; the next start without --fresh goes back to the usual folder."
        )
    if not simulate:
        return None
    if data_dir != default_data_dir(env) / SIM_FOLDER:
        return f"simulation: the PIN, the games and the tray's photos are kept in {data_dir}."
    if data_dir.is_dir() and any(data_dir.iterdir()):
        held = (
            "it holds what earlier runs left there, the host PIN chosen then and their games; "
            "for a clean start (you choose the PIN): companion serve --sim --fresh"
        )
    else:
        held = f"nothing is there yet: {HOST_CHOOSES_PIN}"
    return (
        f"simulation: the PIN, the games and the tray's photos of every --sim run of this user are kept in "
        f"{data_dir}; {held}."
    )


def history_path(data_dir: str | os.PathLike[str]) -> Path:
    """The SQLite game history inside a data directory."""
    return Path(data_dir) / HISTORY_FILE


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` so that a power cut leaves the old file or the new one, never half of either
    (a temporary file beside it, fsync, rename). The file is readable by its owner only (0600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=path.suffix, dir=path.parent)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
