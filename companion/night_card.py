"""One picture of the night for the host to save and share: the games played, how each ended, the dice's luck in
words and as a chart (Pillow; pure: records in, PNG bytes out, the same bytes for the same records)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from companion.stats import duration, luck_in, result_words, weighed

__all__ = ["night_png"]

WIDTH = 1080
BG, CARD, INK, DIM, ACCENT, GOOD, BAD = "#181426", "#241e38", "#eee8dc", "#9b93ad", "#c9a24a", "#4fb37a", "#d2394a"


def _font(size: int) -> Any:
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


def _wrap(draw: Any, text: str, size: int, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and draw.textlength(lines[-1] + " " + word, font=_font(size)) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def night_png(records: Sequence[Mapping[str, Any]]) -> bytes:
    """The night's summary (its records, any order) as a PNG."""
    from PIL import Image, ImageDraw

    games = sorted(records, key=lambda r: (float(r.get("started") or 0), int(r.get("game") or 0)))
    attempts = weighed(games)
    luck = luck_in(attempts)
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    words = _wrap(measure, luck.words("night"), 30, WIDTH - 120) if attempts else []
    game_rows = [_game_lines(measure, r) for r in games]
    chart_h = 300 if attempts else 0
    height = 200 + sum(24 + 40 * len(rows) for rows in game_rows) + (60 + 42 * len(words) + chart_h if words else 0)
    img = Image.new("RGB", (WIDTH, max(height, 360)), BG)
    draw = ImageDraw.Draw(img)
    day = datetime.fromtimestamp(float(games[0]["started"]), UTC).strftime("%d %B %Y") if games else ""
    draw.text((60, 50), "The night at the table", font=_font(56), fill=INK)
    draw.text(
        (60, 120),
        f"{day} · {len(games)} game{'s' if len(games) != 1 else ''}" if games else "No game was played.",
        font=_font(30),
        fill=DIM,
    )
    y = 190
    for rows in game_rows:
        box = 16 + 40 * len(rows)
        draw.rounded_rectangle((40, y, WIDTH - 40, y + box), radius=18, fill=CARD)
        for i, (text, colour) in enumerate(rows):
            draw.text((64, y + 12 + 40 * i), text, font=_font(32 if i == 0 else 28), fill=colour)
        y += box + 24
    if words:
        y += 20
        for line in words:
            draw.text((60, y), line, font=_font(30), fill=INK)
            y += 42
        _luck_chart(draw, attempts, (60, y + 40, WIDTH - 60, y + chart_h - 40))
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def _game_lines(draw: Any, record: Mapping[str, Any]) -> list[tuple[str, str]]:
    result = str(record.get("result"))
    colour = {"won": GOOD, "lost": BAD}.get(result, DIM)
    head = f"{record.get('title')} · {duration(float(record.get('minutes') or 0))} · " + result_words(record)
    rows = [(head, colour)]
    who = ", ".join(record.get("players") or [])
    setup = ", ".join(f"{label}: {value}" for label, value in record.get("setup") or [])
    rows += [(line, INK) for line in _wrap(draw, "; ".join(t for t in (who, setup) if t), 28, WIDTH - 140)]
    if record.get("why"):
        rows += [(line, DIM) for line in _wrap(draw, str(record["why"]), 28, WIDTH - 140)[:2]]
    if record.get("dice"):
        rows += [(line, ACCENT) for line in _wrap(draw, luck_in(weighed([record])).words("game"), 28, WIDTH - 140)]
    return rows


def _luck_chart(draw: Any, attempts: Sequence[Mapping[str, Any]], box: tuple[int, int, int, int]) -> None:
    """How many came good (green) against what the odds said (gold), attempt by attempt."""
    x0, y0, x1, y1 = box
    good, expected = [0.0], [0.0]
    for a in attempts:
        good.append(good[-1] + (1 if a.get("good") else 0))
        expected.append(expected[-1] + float(a["chance"]))
    top = max(1.0, good[-1], expected[-1])
    n = len(attempts)

    def point(i: int, v: float) -> tuple[float, float]:
        return x0 + (x1 - x0) * i / n, y1 - (y1 - y0) * v / top

    draw.line((x0, y1, x1, y1), fill=DIM, width=2)
    draw.line([point(i, v) for i, v in enumerate(expected)], fill=ACCENT, width=4)
    draw.line([point(i, v) for i, v in enumerate(good)], fill=GOOD, width=6)
    draw.text((x0, y0 - 36), "came good", font=_font(24), fill=GOOD)
    draw.text((x0 + 180, y0 - 36), "the odds said", font=_font(24), fill=ACCENT)
