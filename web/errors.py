"""`Refused`: an HTTP refusal with a status and a message for the person at the table.

The parts (the phone book, the backups, the input guard) raise it as well as the blueprints, so it lives below
both; the app turns it into `{"error": "...", "status": N}`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Refused"]


class Refused(Exception):
    """An HTTP refusal with a status and a message for the person at the table."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra
