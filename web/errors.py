"""`Refused`: an HTTP refusal with a status and a message for the person at the table; `without_paths`: no
machine path in what a phone reads.

The parts (the phone book, the backups, the input guard) raise it as well as the blueprints, so it lives below
both; the app turns it into `{"error": "...", "status": N}`.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["Refused", "without_paths"]


class Refused(Exception):
    """An HTTP refusal with a status and a message for the person at the table."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


_PATH = re.compile(r"(?<![\w:/.~-])/(?:[^\s/'\"()<>,;]+/)+[^\s/'\"()<>,;:]*")
_URL_ROOTS = ("/api/", "/static/")  # the companion's own addresses, which messages may name


def without_paths(text: str) -> str:
    """`text` with the machine's absolute paths cut to their last two parts ("packs/ghosts.toml").

    Messages go to phones: where the companion keeps its files on the machine is the log's business.
    """

    def cut(match: re.Match[str]) -> str:
        path = match.group()
        if path.startswith(_URL_ROOTS):
            return path
        parts = [p for p in path.split("/") if p]
        return "/".join(parts[-2:])

    return _PATH.sub(cut, text)
