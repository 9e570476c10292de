"""Fixtures that every test module gets without importing them (pytest finds them here).

`table` (one per test) and `shared_table` (one per module): the real game service on a real SQLite file,
the real app served by a real waitress on 127.0.0.1. They and their helpers (Client, SseStream,
start_table, serve_table ...) are written in tests/web_fixtures.py, which stays importable for the helpers.
"""

from __future__ import annotations

from web_fixtures import shared_table, table

__all__ = ["shared_table", "table"]
