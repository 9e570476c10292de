"""Fixtures that every test module gets without importing them (pytest finds them here).

`table` (one per test) and `shared_table` (one per module): the real game service on a real SQLite file,
the real app served by a real waitress on 127.0.0.1. They and their helpers (Client, SseStream,
start_table, serve_table ...) are written in tests/web_fixtures.py, which stays importable for the helpers.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_fixtures import Table, serve_table, shared_table, table

__all__ = ["browser", "live", "shared_table", "table"]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium through Playwright (one per module); skipped where it is not installed."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Table]:
    """A companion for one browser test."""
    yield from serve_table(tmp_path)
