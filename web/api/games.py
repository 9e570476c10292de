"""The Games view's API: the record of every game, the figures across them, the night in pictures, the exports.

A thin layer: the records come from the service (companion.record), the figures from companion.stats, the SVG
from companion.pictures and the night's PNG from companion.night_card; here they only become responses. Every
endpoint is for the phones that joined the table (viewer_required).

    GET /api/games                       {"games": [records, the newest first], "figures": {...}}
    GET /api/games/<id>/timeline.svg     one game's timeline (?w= its width in pixels, as for every picture)
    GET /api/stats/luck.svg              the luck chart (every attempt with its odds shown, oldest first)
    GET /api/stats/players.svg           each player's luck, game by game
    GET /api/stats/calibration.svg       were the odds right?
    GET /api/stats.csv, /api/stats.json  the exports (downloads)
    GET /api/night.png                   the last night's summary, to save and share
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.errors import HistoryError
from web.context import context
from web.errors import Refused
from web.security import viewer_required

bp = Blueprint("games", __name__, url_prefix="/api")
DEFAULT_WIDTH, MIN_WIDTH, MAX_WIDTH = 640, 300, 1400


def _records() -> list[dict[str, Any]]:
    return context().service.records()


def _width() -> int:
    """The picture's width in the page's pixels (?w=, the width of the place it is shown in), so that its words
    are the same size on a phone and on the table display."""
    try:
        wanted = int(request.args.get("w", ""))
    except ValueError:
        return DEFAULT_WIDTH
    return max(MIN_WIDTH, min(MAX_WIDTH, wanted))


def _picture(text: str) -> Response:
    response = Response(text, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


def _download(body: str | bytes, mimetype: str, name: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games")
@viewer_required
def games() -> Response:
    from companion.stats import duration, figures, game_luck, result_words

    records = _records()
    listed = [
        {
            **{k: v for k, v in r.items() if k != "timeline"},
            "luck": game_luck(r),
            "duration": duration(float(r.get("minutes") or 0)),  # the one rounding rule (the chart's title too)
            "result_words": result_words(r),
        }
        for r in records
    ]
    return jsonify({"games": listed, "figures": figures(records)})


@bp.get("/games/<int:game_id>/timeline.svg")
@viewer_required
def timeline(game_id: int) -> Response:
    from companion.pictures import timeline_svg

    try:
        record = context().service.record(game_id)
    except HistoryError as exc:
        raise Refused(404, str(exc)) from None
    return _picture(timeline_svg(record, width=_width()))


@bp.get("/stats/luck.svg")
@viewer_required
def luck_chart() -> Response:
    from companion.pictures import luck_svg

    attempts = [a for r in reversed(_records()) for a in r.get("attempts") or []]
    return _picture(luck_svg(attempts, "The dice's luck, every game", width=_width()))


@bp.get("/stats/players.svg")
@viewer_required
def players_chart() -> Response:
    from companion.pictures import player_luck_svg
    from companion.stats import player_luck_by_game

    return _picture(player_luck_svg(player_luck_by_game(_records()), width=_width()))


@bp.get("/stats/calibration.svg")
@viewer_required
def calibration_chart() -> Response:
    from companion.pictures import calibration_svg
    from companion.stats import figures

    return _picture(calibration_svg(figures(_records())["calibration"], width=_width()))


@bp.get("/stats.csv")
@viewer_required
def export_csv() -> Response:
    from companion.stats import to_csv

    return _download(to_csv(_records()), "text/csv; charset=utf-8", "games.csv")


@bp.get("/stats.json")
@viewer_required
def export_json() -> Response:
    from companion.stats import figures

    records = _records()
    body = json.dumps({**figures(records), "records": records}, ensure_ascii=False, indent=1)
    return _download(body, "application/json", "games.json")


@bp.get("/night.png")
@viewer_required
def night_picture() -> Response:
    from companion.night_card import night_png
    from companion.stats import nights

    groups = nights(_records())
    return _download(night_png(groups[-1] if groups else []), "image/png", "night.png")
