"""The app's JSON: Flask's `DefaultJSONProvider`, keeping the keys in the order the game wrote them, compact,
and writing what the game's state and the tray's readings hold besides plain JSON (enums, sets, read-only
mappings, dataclasses)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

from flask.json.provider import DefaultJSONProvider

__all__ = ["CompanionJSON"]


class CompanionJSON(DefaultJSONProvider):
    """Set on the app (`app.json_provider_class`): `jsonify` and every JSON answer go through it."""

    sort_keys = False
    compact = True

    @staticmethod
    def default(o: Any) -> Any:
        if isinstance(o, enum.Enum):
            return o.value
        if isinstance(o, (set, frozenset)):
            return list(o)
        if isinstance(o, Mapping):
            return {str(k): v for k, v in o.items()}
        return DefaultJSONProvider.default(o)  # dates, UUIDs, decimals, dataclasses
