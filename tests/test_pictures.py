"""The night in pictures (companion.pictures): each SVG against its golden file, and what it must show.

Regenerate the golden files after a deliberate change with

    UPDATE_GOLDEN=1 uv run pytest tests/test_pictures.py

and look at them (open tests/golden/*.svg in a browser) before committing."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from companion.luck import calibration
from companion.pictures import calibration_svg, luck_svg, player_luck_svg, timeline_svg
from companion.stats import player_luck_by_game

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
SVG = "{http://www.w3.org/2000/svg}"

ATTEMPTS = [
    {"minute": 3.0, "player": "Ada", "what": "search eye:1", "chance": 511 / 512, "good": True},
    {"minute": 11.5, "player": "Bo", "what": "solve eye:2,camera:1", "chance": 0.743, "good": False},
    {"minute": 20.0, "player": "Ada", "what": "summon", "chance": 1 / 6, "good": True},
    {"minute": 26.0, "player": "Bo", "what": "prove <set 1>", "chance": 0.42, "good": False},
    {"minute": 27.0, "player": "Bo", "what": "the tray was unsure", "chance": None, "good": True},
]
SKEPTICS = {
    "game": 7,
    "title": "Skeptics",
    "minutes": 31.0,
    "dice": True,
    "attempts": ATTEMPTS,
    "timeline": {
        "clock": [[0, "XII"], [4, "III"], [9, "VI"], [14, "IX"], [18, "XII"], [24, "III"]],
        "marks": [[18, "Ghost Hour: room 14"], [20, "Ghost in room 5"], [29, "Ghost Hour & <the end>"]],
        "series": {"Room cards left": [[0, 18], [18, 17], [20, 16]], "Clues solved": [[0, 0], [12, 1], [25, 2]]},
    },
}
SPOOKS = {  # a timeline counted in hands (Spooks' moments: "step"), not in minutes
    "game": 8,
    "title": "Spooks",
    "minutes": 45.0,
    "dice": False,
    "attempts": [],
    "timeline": {
        "clock": [],
        "step": "hand",
        "marks": [[4, "Out: Cy"]],
        "goal": [200, "to 200"],  # the score the game is played to (spooks-rules.txt:3, "When one person hits 200")
        "series": {
            "Ada": [[0, 0], [1, 20], [3, 20]],
            "Bo": [[0, 0], [1, 60], [2, 120], [4, 210]],
            "Cy": [[0, 0], [1, 5], [3, 90]],
        },
    },
}
H = 3600.0
# three games of one night and two of the next: Ada sits game 2 out, Bo's dice run cold, Ada's hot at the end
BY_GAME = player_luck_by_game(
    [
        {"game": g, "title": "Skeptics", "started": start, "ended": start + 1800, "dice": True, "attempts": attempts}
        for g, start, attempts in (
            (1, 0.0, [{"player": "Ada", "chance": 0.5, "good": False}, {"player": "Bo", "chance": 0.7, "good": True}]),
            (2, H, [{"player": "Bo", "chance": 0.5, "good": True}, {"player": "Bo", "chance": 0.3, "good": False}]),
            (
                3,
                2 * H,
                [{"player": "Ada", "chance": 0.3, "good": True}, {"player": "Bo", "chance": 0.9, "good": False}],
            ),
            (
                4,
                30 * H,
                [{"player": "Ada", "chance": 0.2, "good": True}, {"player": "Bo", "chance": 0.8, "good": False}],
            ),
            (
                5,
                31 * H,
                [{"player": "Ada", "chance": 0.25, "good": True}, {"player": "<Cy>", "chance": 0.5, "good": True}],
            ),
        )
    ]
)
PICTURES: dict[str, Any] = {
    "timeline_skeptics": lambda: timeline_svg(SKEPTICS),
    "timeline_spooks": lambda: timeline_svg(SPOOKS),
    "luck": lambda: luck_svg(ATTEMPTS),
    "luck_empty": lambda: luck_svg([]),
    "player_luck": lambda: player_luck_svg(BY_GAME),
    "player_luck_empty": lambda: player_luck_svg(player_luck_by_game([])),
    "calibration": lambda: calibration_svg(
        calibration((a["chance"], a["good"]) for a in ATTEMPTS if a["chance"] is not None)
    ),
}


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_picture_matches_its_golden_svg(name: str) -> None:
    text = PICTURES[name]()
    assert text == PICTURES[name](), "the same record must draw the same picture"
    path = GOLDEN / f"{name}.svg"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
        pytest.skip(f"wrote {path}")
    assert path.exists(), f"no golden file {path}; run with UPDATE_GOLDEN=1 and look at the picture"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from {path}"


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_every_picture_is_well_formed_svg_with_a_title(name: str) -> None:
    root = ET.fromstring(PICTURES[name]())
    assert root.tag == f"{SVG}svg" and root.get("viewBox")
    assert root.find(f"{SVG}title") is not None and root.get("aria-label")


def test_the_timeline_shows_each_attempt_with_a_chance_and_every_mark_escaped() -> None:
    root = ET.fromstring(timeline_svg(SKEPTICS))
    dots = root.findall(f"{SVG}circle")
    assert len(dots) == 4  # the attempt without a chance shown is not drawn
    assert [d.get("fill") for d in dots] == ["#4fb37a", "none", "#4fb37a", "none"]  # filled when it came good
    tips = [d.find(f"{SVG}title").text for d in dots]  # type: ignore[union-attr]
    assert tips[3] == "Bo prove <set 1>: 42%, failed"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Ghost Hour & <the end>" in texts and "Ghost Hour: room 14" in texts
    assert {"XII", "III", "VI", "IX"} <= set(texts) and "Room cards left" in texts
    # the higher of two dots is the likelier attempt: 511/512 above 1/6
    assert float(dots[0].get("cy") or 0) < float(dots[2].get("cy") or 0)


def test_a_game_without_dice_has_no_attempt_lane_and_a_line_per_player() -> None:
    root = ET.fromstring(timeline_svg(SPOOKS))
    assert root.findall(f"{SVG}circle") == []
    assert len(root.findall(f"{SVG}path")) == 3
    assert {"Ada", "Bo", "Cy"} <= {t.text for t in root.iter(f"{SVG}text")}


def test_a_timeline_played_to_a_score_draws_its_line_and_no_line_starts_below_zero() -> None:
    """Spooks is played to 200 (spooks-rules.txt:3): a dashed line at 200, labelled "to 200";
    the three players' lines start together at 0, drawn apart upwards from the zero line, none below it."""
    root = ET.fromstring(timeline_svg(SPOOKS))
    lines = {ln.get("stroke-dasharray"): ln for ln in reversed(root.findall(f"{SVG}line"))}
    bottom = float(lines[None].get("y1") or 0)  # the chart's 0 (the first line undashed)
    top = float(lines["2 3"].get("y1") or 0)  # the chart's highest, Bo's 210
    goal = [ln for ln in root.iter(f"{SVG}line") if ln.get("stroke-dasharray") == "6 3"]
    assert len(goal) == 1 and goal[0].findtext(f"{SVG}title") == "to 200"
    y = float(goal[0].get("y1") or 0)
    assert abs(y - (bottom - (bottom - top) * 200 / 210)) < 0.1
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "to 200" in texts and "200" not in texts  # 200 by the axis would run into the top's 210
    starts = [float(d.split()[1]) for d in _lines(root)]
    assert max(starts) <= bottom and len(set(starts)) == 3, (starts, bottom)


def test_the_luck_chart_ends_at_the_successes_and_the_sum_of_the_chances() -> None:
    texts = [t.text for t in ET.fromstring(luck_svg(ATTEMPTS)).iter(f"{SVG}text")]
    assert "came good: 2" in texts
    assert f"odds said: {511 / 512 + 0.743 + 1 / 6 + 0.42:.1f}" in texts and "4 attempts" in texts


def test_crowded_marks_keep_their_lines_and_only_the_labels_that_fit() -> None:
    crowded = {
        **SKEPTICS,
        "minutes": 60.0,
        "attempts": [],
        "timeline": {"clock": [], "series": {}, "marks": [[3 * i, f"Ghost Hour: room {i}"] for i in range(18)]},
    }
    root = ET.fromstring(timeline_svg(crowded))
    assert len(root.findall(f"{SVG}line[@stroke-dasharray='3 2']")) == 18  # every mark has its line
    labels = [t for t in root.iter(f"{SVG}text") if (t.text or "").startswith("Ghost Hour")]
    assert 3 <= len(labels) < 18
    rows: dict[str, list[tuple[float, float]]] = {}
    for t in labels:
        x = float(t.get("x") or 0)
        rows.setdefault(t.get("y") or "", []).append((x, x + 5.2 * len(t.text or "")))
    assert len(rows) <= 3
    for spans in rows.values():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), "two labels on one row run into each other"


def test_the_players_chart_has_a_line_a_player_a_dot_a_game_rolled_in_and_its_numbers_in_words() -> None:
    root = ET.fromstring(player_luck_svg(BY_GAME))
    paths = root.findall(f"{SVG}path")
    assert len(paths) == 3  # Ada, Bo, <Cy>
    assert len(root.findall(f"{SVG}circle")) == sum(len(p) for p in BY_GAME["players"].values()) == 9
    # every line starts at 0 before its player's first game: Ada's and Bo's at the start, <Cy>'s after game 4
    starts = [p.get("d", "").split()[:2] for p in paths]
    assert starts[0] == starts[1] and starts[2] != starts[0]
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "night 2" in texts and "#5" in texts and "<Cy> +0.5" in texts  # escaped in the text, read back whole
    ahead = BY_GAME["players"]["Ada"][-1]["ahead"]
    assert f"Ada {ahead:+.1f}" in texts
    desc = root.find(f"{SVG}desc")
    assert desc is not None and desc.text and BY_GAME["words"][0] in desc.text
    assert "Bo, ahead of the odds after each game: #1 " in desc.text
    # the higher of two dots is the player further ahead of the odds
    dots = {c.find(f"{SVG}title").text: float(c.get("cy") or 0) for c in root.iter(f"{SVG}circle")}  # type: ignore[union-attr]
    ada_last = next(y for tip, y in dots.items() if tip.startswith("Ada, game #5"))
    bo_last = next(y for tip, y in dots.items() if tip.startswith("Bo, game #4"))
    assert ada_last < bo_last and ahead > BY_GAME["players"]["Bo"][-1]["ahead"]


# Four scores, two the same hand after hand and two a point or two apart: a fresh player could not tell the lines
# of a Spooks end card apart at 390 px (the phone's picture is about 330 wide)
CLOSE = {
    "game": 9,
    "title": "Spooks",
    "minutes": 40.0,
    "timeline": {
        "clock": [],
        "marks": [[38, "Out: Di"]],
        "series": {
            "Ada": [[0, 0], [8, 10], [16, 20], [32, 40]],
            "Bo": [[0, 0], [8, 10], [16, 20], [32, 41]],
            "Cy": [[0, 0], [8, 12], [16, 21], [32, 42]],
            "Di": [[0, 0], [8, 60], [16, 120], [38, 231]],
        },
    },
}


def _shape(marker: ET.Element) -> Any:
    """A marker's shape, wherever it stands: its kind and its corners around their middle."""
    if marker.tag == f"{SVG}rect":
        return ("rect", marker.get("width"), marker.get("height"))
    corners = [tuple(map(float, c.split(","))) for c in (marker.get("points") or "").split()]
    mx, my = sum(x for x, _ in corners) / len(corners), sum(y for _, y in corners) / len(corners)
    return ("polygon", tuple((round(x - mx), round(y - my)) for x, y in corners))


def _lines(root: ET.Element) -> list[str]:
    return [p.get("d") or "" for p in root.iter(f"{SVG}path")]


@pytest.mark.parametrize("width", [330, 640])
def test_every_line_of_a_timeline_can_be_told_apart(width: int) -> None:
    root = ET.fromstring(timeline_svg(CLOSE, width=width))
    series = CLOSE["timeline"]["series"]
    lines = _lines(root)
    assert len(lines) == len(series) == len(set(lines))  # Ada's and Bo's same scores: not one line over the other
    # drawn apart where they run together, in the order of their values: Cy's 42 above Bo's 41 above Ada's 40
    last_y = [float(d.split("V")[-1].split()[0]) for d in lines]
    assert last_y[2] < last_y[1] < last_y[0]
    assert min(abs(a - b) for i, a in enumerate(last_y[:3]) for b in last_y[i + 1 : 3]) >= 2
    # each line's name and last score at its end, in its colour, none over another
    texts = {t.text: t for t in root.iter(f"{SVG}text")}
    ends = [texts[f"{name} {points[-1][1]}"] for name, points in series.items()]
    assert [t.get("fill") for t in ends] == [p.get("stroke") for p in root.iter(f"{SVG}path")]
    heights = sorted(float(t.get("y") or 0) for t in ends)
    assert all(b - a >= 9 for a, b in zip(heights, heights[1:])), heights  # 9-pixel letters
    assert all(float(t.get("x") or 0) + 5.8 * len(t.text or "") <= width for t in ends)
    # a marker at every score, of a shape of its own per player, with the score as its tooltip; the legend shows it
    markers = [m for m in root if m.tag in (f"{SVG}rect", f"{SVG}polygon") and m.find(f"{SVG}title") is not None]
    told = [m.find(f"{SVG}title").text for m in markers]  # type: ignore[union-attr]
    assert "Bo: 41 after 32 min" in told and "Di: 0 at the start" in told
    assert len(markers) == sum(len(points) for points in series.values())
    shape_of: dict[str, set[Any]] = {}
    for m, tip in zip(markers, told):
        shape_of.setdefault((tip or "").split(":")[0], set()).add(_shape(m))
    assert all(len(shapes) == 1 for shapes in shape_of.values()), shape_of
    assert len({next(iter(s)) for s in shape_of.values()}) == len(series)  # a shape of its own per player
    assert root.findall(f"{SVG}circle") == []  # never the attempts' dots
    # the time axis's labels do not run into each other on the phone's picture
    ticks = [t for t in root.iter(f"{SVG}text") if (t.text or "").endswith("min") and t.get("text-anchor") == "middle"]
    xs = [float(t.get("x") or 0) for t in ticks]
    assert all(b - a >= 5.8 * 6 for a, b in zip(xs, xs[1:])), xs


def test_a_single_line_keeps_its_name_in_the_legend_only() -> None:
    one = {**CLOSE, "timeline": {"clock": [], "marks": [], "series": {"Doom": [[0, 0], [5, 3]]}}}
    root = ET.fromstring(timeline_svg(one))
    assert "Doom 3" not in [t.text for t in root.iter(f"{SVG}text")] and "Doom" in [
        t.text for t in root.iter(f"{SVG}text")
    ]
    assert not [m for m in root if m.tag == f"{SVG}polygon"]
    bottom, top = (line.get("y1") for line in root.findall(f"{SVG}line")[:2])  # the chart's 0 and its highest
    (d,) = _lines(root)  # where its values are: a line alone is not moved
    assert d.startswith(f"M44 {bottom} H") and f" V{top} H" in d


def test_a_timeline_in_hands_spreads_them_evenly_and_numbers_them() -> None:
    """A quick Spooks game's hands (the timeline counted in steps) are spread evenly across the chart, each
    numbered on the axis, whatever the minutes: not crowded to the left of a long stretch of time."""
    quick = {**CLOSE, "minutes": 90.0, "timeline": {**CLOSE["timeline"], "step": "hand"}}
    quick["timeline"]["series"] = {
        name: [[k, v] for k, (_, v) in enumerate(points)] for name, points in CLOSE["timeline"]["series"].items()
    }
    quick["timeline"]["marks"] = [[3, "Out: Di"]]
    root = ET.fromstring(timeline_svg(quick, width=330))
    texts = list(root.iter(f"{SVG}text"))
    numbers = [t for t in texts if t.get("text-anchor") == "middle" and (t.text or "").isdigit()]
    assert [t.text for t in numbers] == ["0", "1", "2", "3"]
    xs = [float(t.get("x") or 0) for t in numbers]
    gaps = [b - a for a, b in zip(xs, xs[1:])]
    assert max(gaps) - min(gaps) < 0.2 and gaps[0] > 40  # evenly, across the chart
    assert "hands" in [t.text for t in texts] and not [
        t for t in texts if (t.text or "").endswith("min") and t.get("text-anchor") == "middle"
    ]
    told = [
        m.find(f"{SVG}title").text
        for m in root
        if m.tag in (f"{SVG}rect", f"{SVG}polygon") and m.find(f"{SVG}title") is not None
    ]  # type: ignore[union-attr]
    assert "Bo: 41 after hand 3" in told and "Di: 0 at the start" in told


@pytest.mark.parametrize("width", [330, 640])
def test_every_line_of_a_timeline_in_hands_can_be_told_apart(width: int) -> None:
    in_hands = {**CLOSE, "timeline": {**CLOSE["timeline"], "step": "hand", "marks": [[3, "Out: Di"]]}}
    in_hands["timeline"]["series"] = {
        name: [[k, v] for k, (_, v) in enumerate(points)] for name, points in CLOSE["timeline"]["series"].items()
    }
    lines = _lines(ET.fromstring(timeline_svg(in_hands, width=width)))
    assert len(lines) == 4 == len(set(lines))
    last_y = [float(d.split("V")[-1].split()[0]) for d in lines]
    assert last_y[2] < last_y[1] < last_y[0]


LEGEND_CHAR = 6.4  # about the width of a letter of the 10-pixel legend


@pytest.mark.parametrize("width", [334, 640])
def test_the_end_labels_and_the_legend_read_whole_on_a_phone(width: int) -> None:
    """A fresh player's finding: on a 390-wide phone (the end card's picture, 334 wide) the Skeptics timeline's end
    label read "Room cards le… 16" and its legend's names ran into each other. Each name reads whole (on two lines
    where it must), inside the picture; the legend's names stand apart."""
    root = ET.fromstring(timeline_svg(SKEPTICS, width=width))
    series = SKEPTICS["timeline"]["series"]
    texts = list(root.iter(f"{SVG}text"))
    ends = [t for t in texts if t.get("font-size") == "9" and t.get("fill") not in ("#c9a24a", "#9b93ad")]
    words = " ".join(t.text or "" for t in ends)
    assert "\u2026" not in words, words
    for name, points in series.items():
        assert f"{name} {points[-1][1]}" in words, (name, words)  # whole, the value after the name
    assert all(float(t.get("x") or 0) + 5.8 * len(t.text or "") <= width for t in ends), [t.text for t in ends]
    heights = sorted(float(t.get("y") or 0) for t in ends)
    assert all(b - a >= 9 for a, b in zip(heights, heights[1:])), heights  # no line over another
    legend = [t for t in texts if t.get("font-size") == "10" and t.text in series]
    assert [t.text for t in legend] == list(series)
    for a, b in zip(legend, legend[1:]):
        if a.get("y") == b.get("y"):  # on one row: the first ends before the second begins
            assert float(a.get("x") or 0) + LEGEND_CHAR * len(a.text or "") <= float(b.get("x") or 0) - 16, (
                a.text,
                b.text,
            )
    assert all(float(t.get("x") or 0) + LEGEND_CHAR * len(t.text or "") <= width for t in legend)
