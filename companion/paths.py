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
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

APP = "skeptics-companion"
SYSTEM_CONFIG = Path("/etc") / APP / "config.toml"
HISTORY_FILE = "games.sqlite3"


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
