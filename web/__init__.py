"""The phone view: live game state for every player, controls for the host (issue 6).

    from web import create_app
    app = create_app(service, {"data_dir": "/var/lib/skeptics"}, hardware=table, tray=watcher)
    web.server.serve(app, host="0.0.0.0", port=8080, threads=48)

Flask and waitress are imported here and in `web.server`, never by `companion`'s core.
See docs/web.md for joining, the host PIN, the API and the event stream.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from flask import Flask

    from companion.service import GameService
    from web.settings import WebSettings

__all__ = ["create_app"]


def create_app(
    service: GameService,
    settings: WebSettings | Mapping[str, Any],
    hardware: Any | None = None,
    tray: Any | None = None,
    startup_problems: Sequence[str] = (),
    teacher: Any | None = None,
    sim_throw: Any | None = None,
) -> Flask:
    """Build the Flask application around one game service. No module-global state: two apps can run side by side.

    ``startup_problems``: what the composition root found wrong at start (a damaged history), shown on the page.
    ``teacher``: vision's Teacher (keep the tray's photo with corrected values, teach the reader), or None.
    ``sim_throw``: --sim's thrower (vision.sim_tray.Thrower: ``throw()``, ``view()``) when the tray camera is the
    simulated one, whose dice a phone throws (``/api/tray/throw``); None at a real table.
    """
    from web.app import build_app

    return build_app(
        service,
        settings,
        hardware=hardware,
        tray=tray,
        startup_problems=startup_problems,
        teacher=teacher,
        sim_throw=sim_throw,
    )
