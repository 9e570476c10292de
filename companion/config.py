"""Configuration file handling.

The loader with every section (issue 7) builds on this. `save_section` writes one
table of the TOML file back, keeping the rest of the file and its comments, so that
`companion hw calibrate` and `companion dice calibrate` can store what they measured.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import tomlkit

from companion.errors import ConfigError


def save_section(path: str | os.PathLike[str], section: str, values: Mapping[str, Any]) -> None:
    """Replace (or add) table `section` (dotted names allowed: "hardware.servo") in the TOML file.

    The file is written to a temporary file and renamed over the old one, so a power cut
    leaves either the old or the new file, never half of one.
    """
    target = Path(path)
    try:
        text = target.read_text(encoding="utf-8") if target.exists() else ""
        doc = tomlkit.parse(text)
    except (OSError, tomlkit.exceptions.TOMLKitError) as exc:
        raise ConfigError(f"cannot read the configuration file {target}: {exc}. Fix or remove it.") from exc
    table: Any = doc
    parts = section.split(".")
    for part in parts[:-1]:
        if part not in table:
            table[part] = tomlkit.table(is_super_table=True)
        table = table[part]
    new = tomlkit.table()
    for key, value in values.items():
        new[key] = value
    table[parts[-1]] = new
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".config-", suffix=".toml", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(tomlkit.dumps(doc))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
