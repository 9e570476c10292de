"""The night in pictures, as SVG text: a game's timeline, the luck chart and the calibration chart.

Pure functions: a record (companion.record) or figures (companion.stats) in, the same SVG text out every time
(golden files in tests/golden/ hold them). The pictures carry their own colours, chosen for the page's dark cards;
every label is escaped. Nothing here names a game: the timeline draws what the game's module put in the record
(the clock, the marks such as the Ghost Hours or the midnights, the values such as the doom track or the scores).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from companion.luck import float_distributions
from companion.stats import duration

__all__ = ["calibration_svg", "luck_svg", "player_luck_svg", "timeline_svg"]

INK, DIM, GRID, ACCENT, GOOD, BAD = "#eee8dc", "#9b93ad", "#3a3158", "#c9a24a", "#4fb37a", "#d2394a"
SERIES = ("#6fa8dc", "#4fb37a", "#e08f5a", "#b48ade", "#d2394a", "#7fd1c7", "#eee8dc")  # never the marks' gold
FONT = 'font-family="system-ui,sans-serif"'
MARK_ROWS = 3
MARK_BAND = 11  # the height of a row of the marks' labels, above the chart
BACK = "#241e38"  # the picture's background
CHAR_WIDTH = 5.8  # about the width of a letter of the 9-pixel labels, to keep them apart
# Lines that run together on a timeline of several values (two scores alike) are drawn this far apart (within the
# chart: never below its zero line), each with a marker of its own at every change and its name at its end, so that
# every line can be told from the next
DODGE = 2.5
MARKERS = ("square", "diamond", "triangle", "down", "plus")  # never the attempts' circles
END_GAP = 10  # the least height between two names at the lines' ends (9-pixel letters)
END_SHARE = 0.3  # of the picture's width, at most, for the names at the lines' ends (a longer one takes two lines)
LEGEND_CHAR = 6.4  # about the width of a letter of the 10-pixel legend
LEGEND_KEY = 16  # the legend's colour and marker before each name
TICK_ROOM = 44  # the least width between two ticks of the time axis (a label such as "10 min" fits)
STEP_ROOM = 18  # the least width between two numbered steps of an axis in steps (a label such as "12" fits)


def _n(value: float) -> str:
    """A coordinate as the SVG writes it: at most one decimal, no trailing zero."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _svg(width: int, height: int, title: str, body: Sequence[str], desc: str = "") -> str:
    """The picture: its title (and, when given, a description: the picture's numbers in words) for a screen
    reader, then its parts."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label={quoteattr(title)}>'
    )
    described = [f"<desc>{escape(desc)}</desc>"] if desc else []
    return "\n".join([head, f"<title>{escape(title)}</title>", *described, *body, "</svg>"]) + "\n"


def _text(x: float, y: float, text: str, size: int = 11, fill: str = INK, anchor: str = "start") -> str:
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}" {FONT} fill="{fill}" text-anchor="{anchor}">'
        f"{escape(text)}</text>"
    )


def _minutes(value: float) -> str:
    return f"{int(value)} min" if value < 120 else f"{value / 60:.1f} h"


def timeline_svg(record: Mapping[str, Any], width: int = 640) -> str:
    """One game's timeline: the time played along the bottom (or, for a timeline counted in steps such as hands,
    each step evenly, numbered); the clock on the top lane; the marks (the Ghost Hours, the midnights, who was
    voted out) as gold lines; each value the game keeps (the doom track, the room cards left, the scores) as a step
    line; and each attempt whose chance was shown as a dot at the height of its chance, filled when it came good
    and hollow when it failed."""
    timeline = record.get("timeline") or {}
    series: Mapping[str, Sequence[Sequence[Any]]] = timeline.get("series") or {}
    marks: Sequence[Sequence[Any]] = timeline.get("marks") or []
    clock: Sequence[Sequence[Any]] = timeline.get("clock") or []
    step = str(timeline.get("step") or "")  # the word of a step ("hand"): the points are at steps, not minutes
    # the attempts are at their minutes: a timeline in steps has no lane of them
    attempts = [] if step else [a for a in record.get("attempts") or [] if a.get("chance") is not None]
    total = max(
        [
            0.0 if step else float(record.get("minutes") or 0),
            *(float(p[0]) for s in series.values() for p in s),
            *(float(m[0]) for m in marks),
            1.0,
        ]
    )
    # the marks' labels have a band of their own above the chart, so that no value's line runs through them
    band = MARK_BAND * MARK_ROWS + 2 if marks else 0
    ends = _end_words(series, width)
    margin = 12 + max((CHAR_WIDTH * len(line) for lines in ends for line in lines), default=-12.0) + 12
    left, right, top = 44, width - margin, 44 + band
    columns = _legend_columns(list(series), right - left)
    legend_rows = (len(series) + columns - 1) // columns
    chart_h = 130
    bottom = top + chart_h
    dots_top, dots_h = bottom + 14, 40 if record.get("dice") and not step else 0
    axis_y = dots_top + dots_h + (10 if dots_h else 0)
    height = axis_y + 22 + 16 * legend_rows + 4
    goal = timeline.get("goal")  # [the score the values are played to, its label]: a line across the chart
    goals = [(float(goal[0]), str(goal[1]))] if goal else []
    highest = max([1.0, *(float(p[1]) for s in series.values() for p in s), *(g for g, _ in goals)])
    frame = _Frame(left, right, top, bottom, chart_h, total, highest, dots_top, dots_h, axis_y, step)
    title = f"{record.get('title', 'Game')} #{record.get('game', '')}: the timeline"
    body = [
        f'<rect width="{width}" height="{height}" rx="10" fill="{BACK}"/>',
        _text(
            left,
            18,
            f"{record.get('title', 'Game')} #{record.get('game', '')}, {duration(float(record.get('minutes') or 0))}",
            13,
        ),
        *_clock_lane(frame, clock),
        *_goal_lines(frame, goals),
        *_value_lines(frame, series),
        *_end_labels(frame, series, ends),
        *_mark_lines(frame, marks),
        *_attempt_dots(frame, attempts),
        *_time_axis(frame),
        *_legend(frame, list(series), columns),
    ]
    return _svg(width, height, title, body)


@dataclass(frozen=True)
class _Frame:
    """Where a timeline's parts go: the chart (``left``-``right``, ``top``-``bottom``), the dots' lane, the axis."""

    left: float
    right: float
    top: float
    bottom: float
    chart_h: float
    total: float  # the minutes along the axis
    highest: float  # the value at the top of the chart
    dots_top: float
    dots_h: float  # 0: no lane of dots (a game without dice odds)
    axis_y: float
    step: str = ""  # the word of a step ("hand") when the axis counts steps, not minutes

    def x_of(self, minute: float) -> float:
        return self.left + (self.right - self.left) * minute / self.total

    def when(self, at: float) -> str:
        """When a point is, in words: "at the start", "after 12 min", or "after hand 3"."""
        if not at:
            return "at the start"
        return f"after {self.step} {int(at)}" if self.step else f"after {_minutes(at)}"

    def y_of(self, value: float) -> float:
        return self.bottom - self.chart_h * value / self.highest


def _clock_lane(frame: _Frame, clock: Sequence[Sequence[Any]]) -> list[str]:
    """The clock lane along the top: one shaded stretch per hour, named where it is wide enough."""
    body = []
    for i, (minute, label) in enumerate(clock):
        end = float(clock[i + 1][0]) if i + 1 < len(clock) else frame.total
        x0, x1 = frame.x_of(float(minute)), frame.x_of(end)
        shade = "#2f2748" if i % 2 else "#3a3158"
        body.append(f'<rect x="{_n(x0)}" y="24" width="{_n(max(1.0, x1 - x0))}" height="14" fill="{shade}"/>')
        if x1 - x0 >= 18:
            body.append(_text((x0 + x1) / 2, 35, str(label), 9, DIM, "middle"))
    return body


def _value_lines(frame: _Frame, series: Mapping[str, Sequence[Sequence[Any]]]) -> list[str]:
    """The chart's frame and each value as a step line: each value holds until the next one. Several lines: each
    has its marker at every change, and lines that run together are drawn side by side (:func:`_heights`)."""
    left, right, top, bottom = frame.left, frame.right, frame.top, frame.bottom
    body = [
        f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="{GRID}"/>',
        f'<line x1="{left}" y1="{top}" x2="{right}" y2="{top}" stroke="{GRID}" stroke-dasharray="2 3"/>',
        _text(left - 6, top + 4, _n(frame.highest), 9, DIM, "end"),
        _text(left - 6, bottom, "0", 9, DIM, "end"),
    ]
    marked = []
    heights = _heights(frame, series)
    for index, (name, points) in enumerate(series.items()):
        colour = SERIES[index % len(SERIES)]
        drawn = heights[index]
        path = []  # a step line: each value holds until the next one
        for i, (minute, y) in enumerate(drawn):
            x = frame.x_of(minute)
            if i == 0:
                path.append(f"M{_n(x)} {_n(y)}")
            elif y != drawn[i - 1][1]:
                path.append(f"H{_n(x)} V{_n(y)}")
        path.append(f"H{_n(frame.x_of(frame.total))}")
        body.append(f'<path d="{" ".join(path)}" fill="none" stroke="{colour}" stroke-width="2"/>')
        if len(series) > 1:
            at = dict(drawn)
            for minute, value in points:
                tip = f"{name}: {_n(float(value))} {frame.when(float(minute))}"
                marked.append(_marker(index, frame.x_of(float(minute)), at[float(minute)], tip))
    return body + marked


def _goal_lines(frame: _Frame, goals: Sequence[tuple[float, str]]) -> list[str]:
    """The score the values are played to (a score such as 200) as a dashed line across the chart, its label above the line's
    start and its score beside the axis."""
    body = []
    for value, label in goals:
        y = frame.y_of(value)
        body += [
            f'<line x1="{frame.left}" y1="{_n(y)}" x2="{frame.right}" y2="{_n(y)}" stroke="{BAD}" '
            f'stroke-dasharray="6 3"><title>{escape(label)}</title></line>',
            _text(frame.left + 4, y - 4, label, 9, BAD),
        ]
        if abs(y - frame.top) >= 10:  # the top's own number is not written over
            body.append(_text(frame.left - 6, y + 4, _n(value), 9, BAD, "end"))
    return body


def _heights(frame: _Frame, series: Mapping[str, Sequence[Sequence[Any]]]) -> list[list[tuple[float, float]]]:
    """Where each value's line is drawn: (minute, height) at every minute any value changes, from its own first.
    Lines that would run together there (less than DODGE apart: the same scores) are drawn DODGE apart, in the
    order of their values (the same value: in the legend's order), around their heights but never below the zero
    line nor above the top (lines at 0 are drawn upwards from the zero line); the others where they are."""
    values = [[(float(m), float(v)) for m, v in points] for points in series.values()]
    minutes = sorted({m for points in values for m, _ in points})
    heights: list[list[tuple[float, float]]] = [[] for _ in values]
    for minute in minutes:
        now = []  # (height, index) of each value that has begun
        for index, points in enumerate(values):
            held = [v for m, v in points if m <= minute]
            if held:
                now.append((frame.y_of(held[-1]), index))
        now.sort()
        groups: list[list[tuple[float, int]]] = []
        for y, index in now:
            if groups and y - groups[-1][-1][0] < DODGE:
                groups[-1].append((y, index))
            else:
                groups.append([(y, index)])
        for group in groups:
            middle = sum(y for y, _ in group) / len(group)
            spread = (len(group) - 1) / 2 * DODGE
            # kept within the chart: lines at 0 are drawn from the zero line up, none below it (nor above the top)
            middle = min(max(middle, frame.top + spread), frame.bottom - spread)
            for k, (_, index) in enumerate(group):
                heights[index].append((minute, middle + (k - (len(group) - 1) / 2) * DODGE))
    return heights


def _marker(index: int, x: float, y: float, tip: str = "") -> str:
    """The marker of the `index`-th value (its colour and a shape of its own) at (x, y), with `tip` as its tooltip."""
    colour = SERIES[index % len(SERIES)]
    shape = MARKERS[index % len(MARKERS)]
    titled = f"<title>{escape(tip)}</title>" if tip else ""
    if shape == "square":
        return f'<rect x="{_n(x - 2.6)}" y="{_n(y - 2.6)}" width="5.2" height="5.2" fill="{colour}">{titled}</rect>'
    corners = {
        "triangle": ((0, -3.6), (3.3, 2.6), (-3.3, 2.6)),
        "diamond": ((0, -3.8), (3.8, 0), (0, 3.8), (-3.8, 0)),
        "down": ((0, 3.6), (3.3, -2.6), (-3.3, -2.6)),
        "plus": (
            (-1.2, -3.6),
            (1.2, -3.6),
            (1.2, -1.2),
            (3.6, -1.2),
            (3.6, 1.2),
            (1.2, 1.2),
            (1.2, 3.6),
            (-1.2, 3.6),
            (-1.2, 1.2),
            (-3.6, 1.2),
            (-3.6, -1.2),
            (-1.2, -1.2),
        ),
    }[shape]
    points = " ".join(f"{_n(x + dx)},{_n(y + dy)}" for dx, dy in corners)
    return f'<polygon points="{points}" fill="{colour}">{titled}</polygon>'


def _end_words(series: Mapping[str, Sequence[Sequence[Any]]], width: int) -> list[list[str]]:
    """Each value's name and last value, written at its line's end when there are several lines (none for one: the
    legend names it), in lines of words; a name too long for its share of the picture takes a second line (the value
    last), and only a name that does not fit in two is cut short."""
    if len(series) < 2:
        return []
    room = int(width * END_SHARE / CHAR_WIDTH)
    words = []
    for name, points in series.items():
        last = _n(float(points[-1][1])) if points else ""
        whole = f"{name} {last}".strip()
        if len(whole) <= room:
            words.append([whole])
            continue
        first, _, rest = name.rpartition(" ")  # the last word goes down with the value, then as many as fit
        while first and len(first) > room:
            first, _, more = first.rpartition(" ")
            rest = f"{more} {rest}"
        if not first:  # one word too long for a line: cut short, as the one line it is
            first, rest = name[: room - 1] + "\u2026", ""
        second = f"{rest} {last}".strip()
        if len(second) > room:
            keep = max(2, room - len(last) - 1)
            second = f"{rest[: keep - 1]}\u2026 {last}".strip()
        words.append([first, second] if second else [first])
    return words


def _end_labels(
    frame: _Frame, series: Mapping[str, Sequence[Sequence[Any]]], words: Sequence[Sequence[str]]
) -> list[str]:
    """Each line's name and last value right of its end, in its colour, at its height (a name of two lines takes
    two rows); names that would run into each other are moved apart (at least END_GAP a row), each joined to its
    line's end by a short stroke."""
    if not words:
        return []
    ends = sorted((drawn[-1][1], index) for index, drawn in enumerate(_heights(frame, series)) if drawn)
    count = len(ends)
    rows = [len(words[index]) for _, index in ends]
    placed = [y for y, _ in ends]
    for k in range(1, count):  # downwards: each at least END_GAP a row below the one above
        placed[k] = max(placed[k], placed[k - 1] + END_GAP * rows[k - 1])
    placed[-1] = min(placed[-1], frame.bottom + END_GAP / 2 - END_GAP * (rows[-1] - 1))
    for k in range(count - 2, -1, -1):  # then up again from the bottom, where the last went past it
        placed[k] = min(placed[k], placed[k + 1] - END_GAP * rows[k])
    body = []
    x = frame.right
    for (y, index), at in zip(ends, placed):
        colour = SERIES[index % len(SERIES)]
        body.append(
            f'<line x1="{_n(x)}" y1="{_n(y)}" x2="{_n(x + 5)}" y2="{_n(at)}" stroke="{colour}" stroke-width="1"/>'
        )
        body.extend(_text(x + 7, at + 3 + END_GAP * row, line, 9, colour) for row, line in enumerate(words[index]))
    return body


def _mark_lines(frame: _Frame, marks: Sequence[Sequence[Any]]) -> list[str]:
    """The marks: a gold line each down the chart (its label as its tooltip), and its label in the band above the
    chart on the first of three rows where it does not run into the label before it, on a patch of the background
    (a line that passes under it does not cross its letters); a mark with no room for its label keeps only the
    line."""
    lines, labels = [], []
    band_top = frame.top - MARK_BAND * MARK_ROWS - 2
    row_ends = [float("-inf")] * MARK_ROWS
    for minute, label in marks:
        x = frame.x_of(float(minute))
        wide = CHAR_WIDTH * len(str(label))
        start = x + 3 if x + 3 + wide <= frame.right else x - 3 - wide
        row = next((r for r in range(MARK_ROWS) if row_ends[r] + 6 <= start), None)
        y1 = frame.top if row is None else band_top + MARK_BAND * row + 1
        lines.append(
            f'<line x1="{_n(x)}" y1="{_n(y1)}" x2="{_n(x)}" y2="{frame.bottom}" stroke="{ACCENT}" '
            f'stroke-dasharray="3 2"><title>{escape(str(label))}</title></line>'
        )
        if row is not None:
            row_ends[row] = start + wide
            y = band_top + MARK_BAND * row
            labels.append(
                f'<rect x="{_n(start - 2)}" y="{_n(y)}" width="{_n(wide + 4)}" height="{MARK_BAND}" fill="{BACK}"/>'
            )
            labels.append(_text(start, y + 9, str(label), 9, ACCENT))
    return lines + labels


def _attempt_dots(frame: _Frame, attempts: Sequence[Mapping[str, Any]]) -> list[str]:
    """The attempts: a dot each at the height of its chance, filled when it came good, hollow when it failed."""
    if not frame.dots_h:
        return []
    left, right, dots_top, dots_h = frame.left, frame.right, frame.dots_top, frame.dots_h
    body = [
        _text(left - 6, dots_top + 8, "100%", 8, DIM, "end"),
        _text(left - 6, dots_top + dots_h, "0%", 8, DIM, "end"),
        f'<rect x="{left}" y="{dots_top}" width="{right - left}" height="{dots_h}" fill="none" stroke="{GRID}"/>',
    ]
    for a in attempts:
        x = frame.x_of(float(a.get("minute") or 0))
        y = dots_top + dots_h - 4 - (dots_h - 8) * float(a["chance"])
        fill = GOOD if a.get("good") else "none"
        stroke = GOOD if a.get("good") else BAD
        tip = f"{a.get('player') or ''} {a.get('what') or ''}: {float(a['chance']) * 100:.0f}%, " + (
            "came good" if a.get("good") else "failed"
        )
        body.append(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="4" fill="{fill}" stroke="{stroke}" stroke-width="1.5">'
            f"<title>{escape(tip.strip())}</title></circle>"
        )
    return body


def _time_axis(frame: _Frame) -> list[str]:
    """The time axis, with a tick every step of minutes that gives at most eight, and no more than leave their
    labels apart (a phone's narrow picture); or, counted in steps, a tick at every step, numbered (every second or
    fifth ... where they would run together), its word ("hands") left of the axis."""
    left, right, axis_y = frame.left, frame.right, frame.axis_y
    body = [f'<line x1="{left}" y1="{axis_y}" x2="{right}" y2="{axis_y}" stroke="{DIM}"/>']
    if frame.step:
        steps = int(frame.total)
        every = next(n for n in (1, 2, 5, 10, 20, 50, 100, 10**9) if (right - left) * n / steps >= STEP_ROOM)
        body.append(_text(left - 6, axis_y + 15, f"{frame.step}s", 9, DIM, "end"))
        for k in range(steps + 1):
            x = frame.x_of(k)
            body.append(f'<line x1="{_n(x)}" y1="{axis_y}" x2="{_n(x)}" y2="{axis_y + 4}" stroke="{DIM}"/>')
            if k % every == 0:
                body.append(_text(x, axis_y + 15, str(k), 9, DIM, "middle"))
        return body
    step = _step(frame.total, max(1, min(8, int((right - left) // TICK_ROOM))))
    tick = 0.0
    while tick <= frame.total + 1e-9:
        x = frame.x_of(tick)
        body.append(f'<line x1="{_n(x)}" y1="{axis_y}" x2="{_n(x)}" y2="{axis_y + 4}" stroke="{DIM}"/>')
        body.append(_text(x, axis_y + 15, _minutes(tick) if tick else "0", 9, DIM, "middle"))
        tick += step
    return body


def _legend_columns(legend: Sequence[str], room: float) -> int:
    """How many of the legend's names stand in a row: three, or fewer where the longest name would run into the
    next (a phone's narrow picture)."""
    longest = max((LEGEND_KEY + LEGEND_CHAR * len(str(name)) + LEGEND_KEY for name in legend), default=0.0)
    return max(1, min(3, int(room // longest) if longest else 3))


def _legend(frame: _Frame, legend: list[str], columns: int = 3) -> list[str]:
    """The legend: each value's colour and name, ``columns`` to a row; or what the dots are, when there is no
    value."""
    body = []
    left, right, legend_y = frame.left, frame.right, frame.axis_y + 30
    for index, name in enumerate(legend):
        row, col = divmod(index, columns)
        x, y = left + col * (right - left) / columns, legend_y + 16 * row
        colour = SERIES[index % len(SERIES)]
        body.append(f'<rect x="{_n(x)}" y="{_n(y - 8)}" width="12" height="4" fill="{colour}"/>')
        if len(legend) > 1:  # the marker its line has
            body.append(_marker(index, x + 6, y - 6))
        body.append(_text(x + 16, y - 3, str(name), 10))
    if frame.dots_h and not legend:
        body.append(_text(left, legend_y - 3, "dots: attempts at the height of their chance", 10, DIM))
    return body


def _step(total: float, ticks: int = 8) -> float:
    for step in (1, 2, 5, 10, 15, 30, 60, 120, 240):
        if total / step <= ticks:
            return float(step)
    return 480.0


def luck_svg(attempts: Sequence[Mapping[str, Any]], title: str = "The dice's luck", width: int = 640) -> str:
    """The luck chart: along the attempts (oldest first), how many came good (the solid line) against how many the
    odds said (the dashed line, the sum of the chances shown), in the band where the odds put 80% of tables (the
    10th to the 90th percentile of the exact distribution after each attempt)."""
    shown = [a for a in attempts if a.get("chance") is not None]
    n = len(shown)
    left, right, top, height = 44, width - 12, 28, 220
    bottom = height - 40
    body = [f'<rect width="{width}" height="{height}" rx="10" fill="#241e38"/>', _text(left, 18, title, 13)]
    if not n:
        body.append(_text(width / 2, height / 2, "No attempt with its odds shown yet.", 12, DIM, "middle"))
        return _svg(width, height, title, body)
    good, expected, low, high = [0], [0.0], [0.0], [0.0]
    for a, dist in zip(shown, float_distributions(float(a["chance"]) for a in shown)):
        good.append(good[-1] + (1 if a.get("good") else 0))
        expected.append(expected[-1] + float(a["chance"]))
        low.append(float(_quantile(dist, 0.10)))
        high.append(float(_quantile(dist, 0.90)))
    top_value = math.ceil(max(1.0, good[-1], high[-1], expected[-1]))

    def x_of(i: int) -> float:
        return left + (right - left) * i / n

    def y_of(v: float) -> float:
        return bottom - (bottom - top) * v / top_value

    band = [f"{_n(x_of(i))},{_n(y_of(v))}" for i, v in enumerate(high)]
    band += [f"{_n(x_of(i))},{_n(y_of(v))}" for i, v in reversed(list(enumerate(low)))]
    body.append(f'<polygon points="{" ".join(band)}" fill="#3a3158" opacity="0.8"/>')
    body.append(f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="{DIM}"/>')
    odds = " ".join(f"{'M' if i == 0 else 'L'}{_n(x_of(i))} {_n(y_of(v))}" for i, v in enumerate(expected))
    body.append(f'<path d="{odds}" fill="none" stroke="{ACCENT}" stroke-width="2" stroke-dasharray="5 3"/>')
    came = " ".join(f"{'M' if i == 0 else 'L'}{_n(x_of(i))} {_n(y_of(v))}" for i, v in enumerate(good))
    body.append(f'<path d="{came}" fill="none" stroke="{GOOD}" stroke-width="2.5"/>')
    body.append(_text(left - 6, top + 4, str(top_value), 9, DIM, "end"))
    body.append(_text(left - 6, bottom, "0", 9, DIM, "end"))
    body.append(_text(right, bottom + 14, f"{n} attempt{'s' if n != 1 else ''}", 9, DIM, "end"))
    legend_y = height - 12
    third = (right - left) / 3  # the three keys share the width, so a phone's narrow picture keeps them all
    for i, (colour, tall, words) in enumerate(
        (
            (GOOD, 4, f"came good: {good[-1]}"),
            (ACCENT, 4, f"odds said: {expected[-1]:.1f}"),
            ("#3a3158", 8, "8 in 10 land here"),
        )
    ):
        x = left + third * i
        body.append(f'<rect x="{_n(x)}" y="{legend_y - 4 - tall}" width="14" height="{tall}" fill="{colour}"/>')
        body.append(_text(x + 18, legend_y - 3, words, 10))
    return _svg(width, height, title, body)


def _quantile(dist: Any, q: float) -> int:
    """The smallest k with P(S <= k) >= q (``dist`` a numpy vector of P(S = k))."""
    import numpy as np

    return min(len(dist) - 1, int(np.searchsorted(np.cumsum(dist), q - 1e-12)))


def calibration_svg(rows: Sequence[Mapping[str, Any]], width: int = 640) -> str:
    """Were the odds right? For each group of the chance shown (0-20% ...), a bar of how often its attempts came
    good, a gold tick at the chance the page showed on average, and the count of attempts under it."""
    title = "Were the odds right?"
    left, right, top, height = 44, width - 12, 28, 220
    bottom = height - 44
    body = [f'<rect width="{width}" height="{height}" rx="10" fill="#241e38"/>', _text(left, 18, title, 13)]
    for pct in (0, 50, 100):
        y = bottom - (bottom - top) * pct / 100
        body.append(f'<line x1="{left}" y1="{_n(y)}" x2="{right}" y2="{_n(y)}" stroke="{GRID}"/>')
        body.append(_text(left - 6, y + 3, f"{pct}%", 9, DIM, "end"))
    slot = (right - left) / max(1, len(rows))
    for i, row in enumerate(rows):
        x = left + slot * i
        if row.get("rate") is not None:
            h = (bottom - top) * float(row["rate"])
            body.append(
                f'<rect x="{_n(x + slot * 0.2)}" y="{_n(bottom - h)}" width="{_n(slot * 0.6)}" '
                f'height="{_n(h)}" fill="{GOOD}" opacity="0.85"/>'
            )
        if row.get("shown") is not None:
            y = bottom - (bottom - top) * float(row["shown"])
            body.append(
                f'<line x1="{_n(x + slot * 0.12)}" y1="{_n(y)}" x2="{_n(x + slot * 0.88)}" y2="{_n(y)}" '
                f'stroke="{ACCENT}" stroke-width="3"/>'
            )
        body.append(_text(x + slot / 2, bottom + 14, str(row.get("label")), 10, INK, "middle"))
        body.append(
            _text(x + slot / 2, bottom + 27, f"{row.get('good', 0)} of {row.get('attempts', 0)}", 9, DIM, "middle")
        )
    legend_y = height - 4
    body.append(f'<rect x="{left}" y="{legend_y - 8}" width="14" height="6" fill="{GOOD}"/>')
    body.append(_text(left + 18, legend_y - 2, "came good", 10))
    body.append(f'<rect x="{left + 110}" y="{legend_y - 7}" width="14" height="3" fill="{ACCENT}"/>')
    body.append(_text(left + 128, legend_y - 2, "the chance shown", 10))
    return _svg(width, height, title, body)


def _signed(value: float) -> str:
    """How far ahead of the odds, as the chart writes it: "+1.4", "\u22120.6" (a minus sign), "0"; "+2" for a whole
    number."""
    text = f"{value:+d}" if isinstance(value, int) else f"{value:+.1f}"
    return "0" if text in ("+0", "-0", "+0.0", "-0.0") else text.replace("-", "\u2212")


def player_luck_svg(by_game: Mapping[str, Any], width: int = 640) -> str:
    """Each player's luck game by game (companion.stats.player_luck_by_game): one line a player, from 0 at the
    start through each game with attempts weighed, at the height of how many more of the player's attempts came
    good than the odds said so far (below the middle line: fewer). A dot where the player rolled in that game; a
    game they sat out holds their line level. Dashed lines part the nights. The description says every number."""
    games: Sequence[Mapping[str, Any]] = by_game.get("games") or []
    players: Mapping[str, Sequence[Mapping[str, Any]]] = by_game.get("players") or {}
    title = "Each player's luck, game by game"
    legend_rows = (len(players) + 2) // 3
    left, right, top = 44, width - 12, 44
    bottom = top + 140
    height = bottom + 34 + 16 * legend_rows
    body = [f'<rect width="{width}" height="{height}" rx="10" fill="#241e38"/>', _text(left, 18, title, 13)]
    if not games:
        body.append(_text(width / 2, height / 2, "No attempt with its odds shown yet.", 12, DIM, "middle"))
        return _svg(width, height, title, body)
    n = len(games)
    reach = math.ceil(max([1.0, *(abs(float(p["ahead"])) for points in players.values() for p in points)]))
    middle = (top + bottom) / 2

    def x_of(column: int) -> float:  # column 0: the start; column i: after the i-th game
        return left + (right - left) * column / n

    def y_of(ahead: float) -> float:
        return middle - (middle - top) * ahead / reach

    key = "above 0: more attempts came good than the odds said; below 0: fewer"
    if CHAR_WIDTH * len(key) > right - left:  # a phone's narrow picture: the short words
        key = "above 0: luckier than the odds said"
    body.append(_text(left, 34, key, 9, DIM))
    for value, dash in ((reach, ' stroke-dasharray="2 3"'), (0, ""), (-reach, ' stroke-dasharray="2 3"')):
        y = y_of(value)
        body.append(
            f'<line x1="{left}" y1="{_n(y)}" x2="{right}" y2="{_n(y)}" stroke="{GRID if value else DIM}"{dash}/>'
        )
        body.append(_text(left - 6, y + 3, _signed(value), 9, DIM, "end"))
    for i in range(1, n):
        if games[i].get("night") != games[i - 1].get("night"):
            x = (x_of(i) + x_of(i + 1)) / 2
            body.append(
                f'<line x1="{_n(x)}" y1="{top}" x2="{_n(x)}" y2="{bottom}" stroke="{ACCENT}" stroke-dasharray="3 3" '
                f'opacity="0.6"/>'
            )
            body.append(_text(x + 3, bottom - 3, f"night {games[i].get('night')}", 8, ACCENT))
    label_every = max(1, math.ceil(n * 30 / max(1.0, right - left)))  # a label at least 30 px from the next
    for i, game in enumerate(games, start=1):
        if (n - i) % label_every == 0:
            body.append(_text(x_of(i), bottom + 14, f"#{game.get('game')}", 9, DIM, "middle"))
    body.append(_text(left, bottom + 14, "start", 9, DIM, "middle"))
    legend_y = bottom + 34
    for index, (name, points) in enumerate(players.items()):
        colour = SERIES[index % len(SERIES)]
        at = {int(p["index"]) + 1: p for p in points}
        first = min(at)
        ahead, path, dots = 0.0, [f"M{_n(x_of(first - 1))} {_n(y_of(0))}"], []
        for column in range(first, n + 1):
            point = at.get(column)
            if point is not None:
                ahead = float(point["ahead"])
                tip = (
                    f"{name}, game #{point.get('game')}: {point['successes']} of {point['attempts']} came good, "
                    f"the odds said {float(point['expected']):.1f}; {_signed(ahead)} so far"
                )
                dots.append(
                    f'<circle cx="{_n(x_of(column))}" cy="{_n(y_of(ahead))}" r="3.5" fill="{colour}">'
                    f"<title>{escape(tip)}</title></circle>"
                )
            path.append(f"L{_n(x_of(column))} {_n(y_of(ahead))}")
        body.append(f'<path d="{" ".join(path)}" fill="none" stroke="{colour}" stroke-width="2.5"/>')
        body.extend(dots)
        row, col = divmod(index, 3)
        x, y = left + col * (right - left) / 3, legend_y + 16 * row
        body.append(f'<rect x="{_n(x)}" y="{_n(y - 8)}" width="12" height="4" fill="{colour}"/>')
        body.append(_text(x + 16, y - 3, f"{name} {_signed(ahead)}", 10))
    return _svg(width, height, title, body, " ".join(by_game.get("words") or []) + " " + _numbers(games, players))


def _numbers(games: Sequence[Mapping[str, Any]], players: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    """The chart's numbers in words, for a screen reader: each player's running count after each game."""
    said = []
    for name, points in players.items():
        steps = ", ".join(f"#{games[int(p['index'])].get('game')} {_signed(float(p['ahead']))}" for p in points)
        said.append(f"{name}, ahead of the odds after each game: {steps}.")
    return " ".join(said)
