"""Synthetic photos of d6 dice, drawn from nothing but numbers: for training and for measuring the reader
on tables it has never seen.

Every scene is drawn with OpenCV and numpy from a seeded generator: a table (dark, wood, felt, cloth, a white
or light tray), dice as cubes seen from above or under an oblique view (the top face and the side faces the
camera sees, each shaded by a light from a random side), any body and pip colour, marbled bodies, rounded
corners, symbol faces (a star, a ring, a letter, wings, a crest instead of the pips of one value), shadows,
clusters of touching dice, then the camera's faults (a perspective tilt, light gradients, glare, motion
blur, noise, JPEG artefacts).

    from vision.training.synth import Style, render_scene
    image, dice = render_scene(np.random.default_rng(7), Style())
    # dice: [SynthDie(cx, cy, size, value, symbol, box)] for the top faces, in pixels of the image

``python -m vision.training.synth OUT_DIR --count 40 --seed 1234 --style other`` writes a labelled set in the
datasets' YOLO format (``images/NAME.jpg`` and ``labels/NAME.txt``; CLASS 0..5 for 1..6, the value of a symbol
face included, and ``symbols.txt`` naming the symbol faces), which ``benchmarks/bench_vision.py`` reads.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

TEXTURE = 96  # face textures are drawn at this size, then warped onto the scene

# Pip centres on a unit face (0..1), the standard layouts
PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}
# faces around the top face, in order (opposite faces sum to 7): for a top value, four side values
AROUND = {1: (2, 3, 5, 4), 2: (1, 3, 6, 4), 3: (1, 5, 6, 2), 4: (1, 2, 6, 5), 5: (1, 4, 6, 3), 6: (2, 4, 5, 3)}


@dataclass(frozen=True)
class SynthDie:
    """A die's top face in the image: centre, size (mean of its box's sides), value, whether a symbol
    replaces its pips, and its axis-aligned box (x, y, w, h)."""

    cx: float
    cy: float
    size: float
    value: int
    symbol: bool
    box: tuple[float, float, float, float]
    sides: tuple[tuple[float, float], ...] = ()  # centres of the side faces the camera sees
    cocked: bool = False  # leaning on another die or the tray's wall: no face is up (a player rerolls it)
    icon: str | None = None  # the game's icon on the top face (render_scene's dice_icons)
    index: int = -1  # which of render_scene's dice_colours this is (they are drawn far ones first)
    leaning: float = 0.0  # degrees its top face is tipped from the table's plane (0 for a flat die)
    outline: tuple[tuple[float, float], ...] = ()  # the whole die's silhouette in the image (its hull)


@dataclass(frozen=True)
class Style:
    """What a scene may look like; every range is sampled uniformly per scene (or per die)."""

    width: tuple[int, int] = (480, 960)
    aspect: tuple[float, float] = (0.75, 1.0)  # height / width
    face: tuple[float, float] = (18.0, 80.0)  # top face size in pixels
    dice: tuple[int, int] = (1, 14)
    backgrounds: tuple[str, ...] = ("dark", "wood", "dark_wood", "felt", "cloth", "white", "light")
    body_colors: tuple[tuple[int, int, int], ...] = ()  # BGR; empty: any colour
    pip_colors: tuple[tuple[int, int, int], ...] = ()  # BGR; empty: contrasting, any
    marble: float = 0.3  # share of marbled dice
    symbol_share: float = 0.12  # share of dice whose top face carries a symbol
    symbol_value: int | None = None  # the value whose face carries the symbol (None: any)
    tilt: tuple[float, float] = (0.0, 32.0)  # camera view angle from straight down, degrees
    cluster: float = 0.35  # chance that a die is put touching the one before
    spacing: float = 1.02  # dice not put touching lie at least this many sides apart (centre to centre)
    lean: float = 0.06  # share of dice leaning (tilted a little)
    cocked: float = 0.0  # share of dice cocked: leaning ``cocked_angle`` degrees on a neighbour or a wall
    cocked_angle: tuple[float, float] = (24.0, 40.0)
    glare: float = 0.2
    motion_blur: float = 0.1
    jpeg: tuple[int, int] = (35, 95)
    perspective: float = 0.06  # corner shift of a final perspective warp, share of the size
    # a pinhole camera this many die sides above the table (its image plane parallel to it when ``tilt`` is 0: a flat
    # die's top face is a square anywhere in the frame, its side faces show towards the frame's edges); 0: the
    # orthographic view of the scenes made before
    camera_height: float = 0.0
    # a cocked die rests as a real one does: one bottom edge on the table, the opposite one against a flat
    # neighbour's side face (the camera sees its most-up face foreshortened and the side face beside it); False:
    # tipped about its centre where it lies (the scenes made before)
    lean_on: bool = False


OTHER_TABLE = Style(  # like the other table: blue dice with white pips, a white tray and a dark bowl
    width=(1600, 2000),
    aspect=(0.75, 0.75),
    face=(55.0, 130.0),
    dice=(3, 12),
    backgrounds=("white", "dark_wood"),
    body_colors=((170, 90, 30), (140, 60, 20), (200, 120, 50), (120, 50, 10)),
    pip_colors=((245, 245, 245), (230, 235, 240)),
    marble=0.5,
    symbol_share=0.17,
    symbol_value=6,
    tilt=(15.0, 35.0),
    cluster=0.4,
    glare=0.3,
    jpeg=(70, 92),
)


BGR = tuple[int, int, int]
# body and pips of each colour, as a tray's dice are painted (each is named so by vision.reader.generic_color)
DIE_PAINT: dict[str, tuple[BGR, BGR]] = {
    "blue": ((200, 110, 20), (245, 245, 245)),
    "green": ((50, 150, 30), (245, 245, 245)),
    "red": ((40, 30, 190), (245, 245, 245)),
    "yellow": ((30, 210, 235), (20, 20, 20)),
    "white": ((235, 235, 235), (20, 20, 20)),
    "black": ((25, 25, 25), (240, 240, 240)),
}
# Skeptics' dice by kind: their colour on a table and the icon labels of their faces (a blank names its die)
SKEPTICS_ICON_DICE = {"clue": ("blue", ("eye", "camera", "cobweb")), "key": ("green", ("key", "key:blank")),
                      "summon": ("red", ("summon", "summon:blank"))}

# a top-down tray of plain dice, well apart (--sim's tray, the icon dice)
TRAY = Style(width=(960, 960), aspect=(0.75, 0.75), face=(66.0, 76.0), backgrounds=("white", "light"), tilt=(0.0, 6.0),
             cluster=0.0, spacing=1.6, lean=0.0, glare=0.0, motion_blur=0.0, jpeg=(85, 95), perspective=0.0, marble=0.0)
# the other table's dice on a patterned cloth (rows of owls' ringed eyes and dots, like pips), at 1.2 MP; no final
# warp, which would mirror the cloth at the frame's edge into rows of four eyes
PATTERNED_CLOTH = replace(OTHER_TABLE, width=(1100, 1200), face=(50.0, 80.0), backgrounds=("pattern",),
                          symbol_share=0.0, perspective=0.0)
# a tray where some dice are cocked (leaning 45-55 degrees on a neighbour or a wall), seen from above
COCKED_TRAY = Style(width=(900, 900), aspect=(0.75, 0.75), face=(70.0, 80.0), dice=(4, 6), tilt=(0.0, 0.0),
                    backgrounds=("white",), symbol_share=0.0, lean=0.0, cluster=0.0, spacing=1.8, glare=0.0,
                    motion_blur=0.0, perspective=0.0, marble=0.0, jpeg=(90, 95), cocked=0.5, cocked_angle=(45.0, 55.0))
# the Raspberry Pi camera looking straight down on a dark tray of white dice (a 1640x1232 frame, the camera's binned
# mode; about 22 die sides above the table, the camera's 62 degrees across): some dice cocked, leaning 20-55 degrees
# on a neighbour as real dice rest, with the perspective of the lens and the dice's shadows
PI_TRAY = Style(width=(1640, 1640), aspect=(0.75, 0.75), face=(60.0, 90.0), dice=(5, 10), backgrounds=("dark",),
                body_colors=((235, 235, 235), (225, 232, 238), (240, 240, 236)), pip_colors=((25, 25, 25), (40, 30, 30)),
                marble=0.0, symbol_share=0.0, tilt=(0.0, 2.0), cluster=0.2, spacing=1.25, lean=0.0, glare=0.1,
                motion_blur=0.0, jpeg=(85, 95), perspective=0.0, camera_height=22.0, lean_on=True, cocked=0.4,
                cocked_angle=(20.0, 55.0))
# the same camera over any table and any dice
OVERHEAD = replace(PI_TRAY, backgrounds=Style.backgrounds, body_colors=(), pip_colors=(), marble=0.2, face=(50.0, 90.0))


# ---------------------------------------------------------------- pieces


def _noise(rng: np.random.Generator, h: int, w: int, cell: float) -> np.ndarray:
    """Smooth noise in 0..1 (random values on a grid of ``cell`` pixels, interpolated)."""
    gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
    grid = rng.random((gh, gw)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def background(rng: np.random.Generator, kind: str, h: int, w: int) -> np.ndarray:
    """A table or tray floor of the given kind, float32 BGR 0..255."""
    fine = _noise(rng, h, w, 3)[:, :, None]
    if kind == "dark":
        base = rng.uniform(8, 45, 3)
        out = base + 18 * (_noise(rng, h, w, 60)[:, :, None] - 0.5) + 8 * (fine - 0.5)
    elif kind in ("wood", "dark_wood"):
        dark = kind == "dark_wood"
        base = np.array([rng.uniform(20, 60), rng.uniform(50, 100), rng.uniform(90, 160)]) * (0.35 if dark else 1)
        angle = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        along = xx * math.cos(angle) + yy * math.sin(angle)
        across = -xx * math.sin(angle) + yy * math.cos(angle)
        warp = 25 * _noise(rng, h, w, 80)
        grain = np.sin((across + warp) / rng.uniform(3, 9)) * 0.5 + 0.5
        rings = np.sin((across + 3 * warp + 0.02 * along) / rng.uniform(15, 40)) * 0.5 + 0.5
        out = base * (0.75 + 0.2 * grain[:, :, None] + 0.15 * rings[:, :, None]) + 6 * (fine - 0.5)
    elif kind == "felt":
        hue = rng.uniform(0, 180)
        hsv = np.uint8([[[hue, rng.uniform(90, 220), rng.uniform(50, 150)]]])
        base = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
        out = base * (0.9 + 0.2 * fine) + 10 * (_noise(rng, h, w, 40)[:, :, None] - 0.5)
    elif kind == "cloth":
        hsv = np.uint8([[[rng.uniform(0, 180), rng.uniform(30, 200), rng.uniform(60, 220)]]])
        base = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(3, 8)
        weave = (np.sin(xx / period * math.pi) * np.sin(yy / period * math.pi))[:, :, None]
        out = base * (0.85 + 0.12 * weave + 0.1 * fine)
    elif kind == "pattern":  # a printed cloth: rows of owls (two ringed eyes each) and dots, like pips on a face
        hsv = np.uint8([[[rng.uniform(0, 180), rng.uniform(60, 200), rng.uniform(120, 230)]]])
        base = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
        out = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
        ink = np.array([rng.uniform(0, 60)] * 3, np.float32)
        light = np.array([rng.uniform(200, 255)] * 3, np.float32)
        step = rng.uniform(0.04, 0.08) * w
        eye = step * rng.uniform(0.09, 0.14)
        for row, y in enumerate(np.arange(step / 2, h + step, step)):
            for x in np.arange(step / 2 + (row % 2) * step / 2, w + step, step):
                for side in (-1, 1):
                    c = (int(x + side * eye * 1.4), int(y))
                    cv2.circle(out, c, int(eye), light.tolist(), -1, cv2.LINE_AA)
                    cv2.circle(out, c, max(1, int(eye * 0.5)), ink.tolist(), -1, cv2.LINE_AA)
                cv2.circle(out, (int(x + step / 2), int(y + step / 2)), max(1, int(eye * 0.45)), ink.tolist(), -1,
                           cv2.LINE_AA)
        out = out * (0.9 + 0.2 * fine)
    elif kind == "white":
        base = rng.uniform(200, 250) + rng.uniform(-8, 8, 3)
        out = base + 6 * (_noise(rng, h, w, 80)[:, :, None] - 0.5) + 4 * (fine - 0.5)
    else:  # light: any pale colour
        hsv = np.uint8([[[rng.uniform(0, 180), rng.uniform(0, 70), rng.uniform(150, 240)]]])
        base = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
        out = base + 10 * (_noise(rng, h, w, 50)[:, :, None] - 0.5) + 5 * (fine - 0.5)
    return np.asarray(out, np.float32).clip(0, 255)


def _colour(rng: np.random.Generator) -> np.ndarray:
    hsv = np.uint8([[[rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(20, 250)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _luma(bgr: np.ndarray) -> float:
    return float(0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2])


def die_colours(rng: np.random.Generator, style: Style) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(body, pips, second marble colour or None)."""
    if style.body_colors:
        body = np.array(style.body_colors[rng.integers(len(style.body_colors))], np.float32)
        body = (body + rng.uniform(-15, 15, 3)).clip(0, 255)
    else:
        body = _colour(rng)
    if style.pip_colors:
        pips = np.array(style.pip_colors[rng.integers(len(style.pip_colors))], np.float32)
    else:
        for _ in range(20):
            roll = rng.random()
            pips = (np.full(3, rng.uniform(225, 255), np.float32) if roll < 0.4 else
                    np.full(3, rng.uniform(0, 35), np.float32) if roll < 0.75 else _colour(rng))
            if abs(_luma(pips) - _luma(body)) >= 70:
                break
        else:
            pips = np.full(3, 255.0 if _luma(body) < 128 else 0.0, np.float32)
    marble = None
    if rng.random() < style.marble:
        marble = (body * rng.uniform(0.4, 1.5) + rng.uniform(-40, 40, 3)).clip(0, 255).astype(np.float32)
    return body, pips, marble


ICONS = ("eye", "camera", "cobweb", "key", "summon", "blank", "inv1", "inv2", "inv3", "inv4", "lore", "peril", "terror",
         "wild")


def icon_mask(name: str, size: int) -> np.ndarray:
    """A game's icon face, white on black: Skeptics' eye, camera, cobweb, key, summon and blank, Elder Sign's
    investigation 1-4 (a magnifying glass and its number), lore (a scroll), peril (a skull), terror (a tentacle)
    and wild (a star in a ring). Drawn from simple shapes: a stand-in for a real die's print."""
    mask = np.zeros((size, size), np.uint8)
    c, r = size / 2, size * 0.34
    t = max(2, size // 14)
    p = lambda x, y: (int(c + x * r), int(c + y * r))  # noqa: E731 - a point in units of r around the centre
    if name == "eye":
        cv2.ellipse(mask, p(0, 0), (int(r), int(r * 0.55)), 0, 0, 360, 255, t, cv2.LINE_AA)
        cv2.circle(mask, p(0, 0), int(r * 0.3), 255, -1, cv2.LINE_AA)
    elif name == "camera":
        cv2.rectangle(mask, p(-1, -0.55), p(1, 0.75), 255, t, cv2.LINE_AA)
        cv2.rectangle(mask, p(-0.35, -0.85), p(0.35, -0.55), 255, -1, cv2.LINE_AA)
        cv2.circle(mask, p(0, 0.1), int(r * 0.38), 255, -1, cv2.LINE_AA)
    elif name == "cobweb":
        for k in range(8):
            a = k * math.pi / 4
            cv2.line(mask, p(0, 0), p(math.cos(a), math.sin(a)), 255, max(1, t // 2), cv2.LINE_AA)
        for f in (0.35, 0.7):
            pts = [p(f * math.cos(k * math.pi / 4), f * math.sin(k * math.pi / 4)) for k in range(8)]
            cv2.polylines(mask, [np.array(pts, np.int32)], True, 255, max(1, t // 2), cv2.LINE_AA)
    elif name == "key":
        cv2.circle(mask, p(-0.6, 0), int(r * 0.38), 255, t, cv2.LINE_AA)
        cv2.line(mask, p(-0.22, 0), p(1, 0), 255, t, cv2.LINE_AA)
        for x in (0.55, 0.85):
            cv2.line(mask, p(x, 0), p(x, 0.4), 255, t, cv2.LINE_AA)
    elif name in ("summon", "wild"):
        pts = [p((1 if i % 2 == 0 else 0.42) * math.cos(math.pi * i / 5 - math.pi / 2),
                 (1 if i % 2 == 0 else 0.42) * math.sin(math.pi * i / 5 - math.pi / 2)) for i in range(10)]
        cv2.fillPoly(mask, [np.array(pts, np.int32)], 255, cv2.LINE_AA)
        if name == "wild":
            cv2.circle(mask, p(0, 0), int(r * 1.25), 255, max(1, t // 2), cv2.LINE_AA)
    elif name.startswith("inv"):
        cv2.circle(mask, p(-0.35, -0.35), int(r * 0.45), 255, t, cv2.LINE_AA)
        cv2.line(mask, p(-0.05, -0.05), p(0.3, 0.3), 255, t, cv2.LINE_AA)
        cv2.putText(mask, name[3:], p(0.3, 0.95), cv2.FONT_HERSHEY_SIMPLEX, size / 60, 255, t, cv2.LINE_AA)
    elif name == "lore":
        cv2.rectangle(mask, p(-0.8, -0.9), p(0.8, 0.9), 255, t, cv2.LINE_AA)
        for y in (-0.45, 0.0, 0.45):
            cv2.line(mask, p(-0.5, y), p(0.5, y), 255, max(1, t // 2), cv2.LINE_AA)
    elif name == "peril":
        cv2.circle(mask, p(0, -0.15), int(r * 0.8), 255, -1, cv2.LINE_AA)
        for x in (-0.33, 0.33):
            cv2.circle(mask, p(x, -0.2), int(r * 0.22), 0, -1, cv2.LINE_AA)
        cv2.rectangle(mask, p(-0.4, 0.55), p(0.4, 0.95), 255, -1, cv2.LINE_AA)
    elif name == "terror":
        pts = [p(-0.9 + 1.8 * k / 20, 0.45 * math.sin(k / 20 * 3 * math.pi) - 0.3 + 0.03 * k) for k in range(21)]
        cv2.polylines(mask, [np.array(pts, np.int32)], False, 255, t + 1, cv2.LINE_AA)
    elif name != "blank":
        raise ValueError(f"no icon {name!r}; the icons are {', '.join(ICONS)}")
    return mask


def _symbol_mask(rng: np.random.Generator, size: int) -> np.ndarray:
    """A symbol instead of pips, white on black: a star, a ring with a gap, a letter, wings, a crest."""
    mask = np.zeros((size, size), np.uint8)
    c = size / 2
    r = size * rng.uniform(0.26, 0.38)
    t = max(2, int(size * rng.uniform(0.05, 0.09)))
    kind = rng.choice(["star", "ring", "letter", "wings", "crest", "moon"])
    if kind == "star":
        n = int(rng.choice([5, 6, 8]))
        pts = [(c + (r if i % 2 == 0 else r * 0.45) * math.cos(math.pi * i / n - math.pi / 2),
                c + (r if i % 2 == 0 else r * 0.45) * math.sin(math.pi * i / n - math.pi / 2)) for i in range(2 * n)]
        cv2.fillPoly(mask, [np.array(pts, np.int32)], 255, cv2.LINE_AA)
    elif kind == "ring":
        start = rng.uniform(0, 360)
        cv2.ellipse(mask, (int(c), int(c)), (int(r), int(r)), 0, start, start + rng.uniform(230, 320), 255, t,
                    cv2.LINE_AA)
    elif kind == "letter":
        text = str(rng.choice(list("ABDEFGHKMNPRSTWXZ")))
        font = int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX]))
        (tw, th), _ = cv2.getTextSize(text, font, 1.0, t)
        scale = 2 * r / max(tw, th)
        (tw, th), _ = cv2.getTextSize(text, font, scale, t)
        cv2.putText(mask, text, (int(c - tw / 2), int(c + th / 2)), font, scale, 255, t, cv2.LINE_AA)
    elif kind == "wings":  # a winged emblem: a body and two swept wings
        cv2.ellipse(mask, (int(c), int(c)), (int(r * 0.25), int(r * 0.55)), 0, 0, 360, 255, -1, cv2.LINE_AA)
        for side in (-1, 1):
            pts = [(c + side * r * 0.2, c - r * 0.1), (c + side * r * 1.05, c - r * 0.6),
                   (c + side * r * 0.9, c - r * 0.1), (c + side * r * 1.0, c + r * 0.1),
                   (c + side * r * 0.2, c + r * 0.25)]
            cv2.fillPoly(mask, [np.array(pts, np.int32)], 255, cv2.LINE_AA)
    elif kind == "crest":
        pts = [(c - r, c - r * 0.8), (c + r, c - r * 0.8), (c + r, c), (c, c + r), (c - r, c)]
        cv2.polylines(mask, [np.array(pts, np.int32)], True, 255, t, cv2.LINE_AA)
        cv2.circle(mask, (int(c), int(c - r * 0.1)), int(r * 0.3), 255, -1, cv2.LINE_AA)
    else:
        cv2.circle(mask, (int(c), int(c)), int(r), 255, -1, cv2.LINE_AA)
        cv2.circle(mask, (int(c + r * 0.45), int(c - r * 0.1)), int(r * 0.85), 0, -1, cv2.LINE_AA)
    rot = cv2.getRotationMatrix2D((c, c), rng.uniform(-30, 30), 1.0)
    return cv2.warpAffine(mask, rot, (size, size))


def face_texture(rng: np.random.Generator, value: int, body: np.ndarray, pips: np.ndarray,
                 marble: np.ndarray | None, corner: float, pip_radius: float, symbol: bool,
                 icon: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(texture float32 BGR, alpha 0..1) of one face: rounded square, pips (or a symbol) in their colour."""
    n = TEXTURE
    if marble is not None:
        swirl = _noise(rng, n, n, rng.uniform(10, 30))
        swirl = (np.sin(swirl * rng.uniform(8, 20)) * 0.5 + 0.5)[:, :, None]
        tex = body * (1 - swirl) + marble * swirl
    else:
        tex = np.broadcast_to(body, (n, n, 3)).astype(np.float32).copy()
    ink = np.zeros((n, n), np.uint8)
    if icon is not None:
        rot = cv2.getRotationMatrix2D((n / 2, n / 2), rng.uniform(-12, 12), 1.0)
        ink = cv2.warpAffine(icon_mask(icon, n), rot, (n, n))
    elif symbol:
        ink = _symbol_mask(rng, n)
    else:
        jitter = rng.uniform(-0.02, 0.02, (6, 2))
        for i, (px, py) in enumerate(PIPS[value]):
            cv2.circle(ink, (int((px + jitter[i, 0]) * n), int((py + jitter[i, 1]) * n)),
                       max(2, int(pip_radius * n)), 255, -1, cv2.LINE_AA)
    a = ink.astype(np.float32)[:, :, None] / 255.0
    # pips are dents: a darker rim on their upper side
    rim = cv2.GaussianBlur(ink, (0, 0), 1.5).astype(np.float32)[:, :, None] / 255.0
    tex = tex * (1 - a) + pips * a
    tex = tex * (1 - 0.25 * np.clip(rim - a, 0, 1))
    alpha = np.zeros((n, n), np.uint8)
    r = max(1, int(corner * n))
    cv2.rectangle(alpha, (r, 0), (n - 1 - r, n - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (n - 1, n - 1 - r), 255, -1)
    for x, y in ((r, r), (n - 1 - r, r), (r, n - 1 - r), (n - 1 - r, n - 1 - r)):
        cv2.circle(alpha, (x, y), r, 255, -1, cv2.LINE_AA)
    return tex.astype(np.float32), alpha.astype(np.float32) / 255.0


def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    x, y, z = axis
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c + x * x * (1 - c), x * y * (1 - c) - z * s, x * z * (1 - c) + y * s],
                     [y * x * (1 - c) + z * s, c + y * y * (1 - c), y * z * (1 - c) - x * s],
                     [z * x * (1 - c) - y * s, z * y * (1 - c) + x * s, c + z * z * (1 - c)]])


# the six faces of a unit cube centred on 0: (normal, corner order u/v axes) ; top is +z
_FACES = {
    "top": (np.array([0, 0, 1.0]), np.array([1.0, 0, 0]), np.array([0, 1.0, 0])),
    "s0": (np.array([0, -1.0, 0]), np.array([1.0, 0, 0]), np.array([0, 0, -1.0])),
    "s1": (np.array([1.0, 0, 0]), np.array([0, 1.0, 0]), np.array([0, 0, -1.0])),
    "s2": (np.array([0, 1.0, 0]), np.array([-1.0, 0, 0]), np.array([0, 0, -1.0])),
    "s3": (np.array([-1.0, 0, 0]), np.array([0, -1.0, 0]), np.array([0, 0, -1.0])),
}


@dataclass
class _Die:
    value: int
    symbol: bool
    x: float
    y: float
    side: float
    yaw: float
    lean: np.ndarray  # 3x3 rotation of the die itself (leaning), identity when flat
    colours: tuple[np.ndarray, np.ndarray] | None = None  # (body, pips) BGR given by the caller, else drawn
    cocked: bool = False
    icon: str | None = None  # a game's icon on the top face instead of pips (icon_mask)
    index: int = -1
    lift: float = 0.5  # its centre's height above the table, in sides


def _project(die: _Die, view: np.ndarray, p: np.ndarray, distance: float = 0.0) -> np.ndarray:
    """3D points of a die (unit cube coordinates) to image points; ``distance``: a pinhole camera's height above the
    table in pixels (0: orthographic), the table's plane keeping the scale of the orthographic view."""
    yaw = _rotation(np.array([0, 0, 1.0]), die.yaw)
    world = (p @ (yaw @ die.lean).T) * die.side
    world[:, 2] += die.side * die.lift
    world[:, 0] += die.x
    world[:, 1] += die.y
    cam = world @ view.T
    if distance > 0:
        out: np.ndarray = cam[:, :2] * (distance / (distance - cam[:, 2]))[:, None]
        return out
    return cam[:, :2]


def _lean_against(rng: np.random.Generator, prop: _Die, side: float, angle: float) -> tuple[float, float, float, np.ndarray]:
    """Where a die of ``side`` rests cocked against the flat die ``prop``, leaning ``angle`` radians: one bottom edge
    on the table, the opposite one against one of ``prop``'s side faces (so its top face tips away from it): its
    centre (x, y), yaw and lean."""
    k = int(rng.integers(4))
    out = prop.yaw + k * math.pi / 2  # the prop's side face it leans on faces this way
    e = np.array([math.cos(out), math.sin(out)])
    c, s = math.cos(angle), math.sin(angle)
    along = rng.uniform(-0.2, 0.2) * side
    x = prop.x + e[0] * (prop.side / 2 + side * (c + s) / 2 + 0.01 * side) - e[1] * along
    y = prop.y + e[1] * (prop.side / 2 + side * (c + s) / 2 + 0.01 * side) + e[0] * along
    yaw = out  # its faces square with the prop's: the tipping edge lies flat on the table
    # tipped about the horizontal axis along the prop's face: the top face's normal goes to cos z + sin e
    axis = np.array([-e[1], e[0], 0.0])
    own = _rotation(np.array([0, 0, 1.0]), yaw).T @ axis  # the axis in the die's own (unturned) frame
    return float(x), float(y), yaw, _rotation(own, angle)


def render_scene(rng: np.random.Generator, style: Style = Style(),
                 dice_colours: list[tuple[tuple[int, int, int], tuple[int, int, int]]] | None = None,
                 dice_icons: list[str] | None = None) -> tuple[np.ndarray, list[SynthDie]]:
    """One photo of dice (uint8 BGR) and its dice's top faces. With ``dice_colours`` ((body, pips) BGR for each
    die), exactly those dice are drawn (as many as fit), in that order, with no symbol face; with ``dice_icons``
    too, each one's top face shows that icon (``icon_mask``) instead of pips."""
    w = int(rng.integers(style.width[0], style.width[1] + 1))
    h = int(w * rng.uniform(*style.aspect))
    kind = str(rng.choice(list(style.backgrounds)))
    img = background(rng, kind, h, w)
    tilt = math.radians(rng.uniform(*style.tilt))
    azimuth = rng.uniform(0, 2 * math.pi)
    # the camera looks down, tilted by ``tilt`` towards ``azimuth``: world -> camera rotation
    view = _rotation(np.array([math.cos(azimuth + math.pi / 2), math.sin(azimuth + math.pi / 2), 0.0]), tilt)
    light = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.6, 2.0)])
    light /= np.linalg.norm(light)
    face = rng.uniform(*style.face)
    side = face / math.cos(tilt) ** 0.5  # the top face's image size is about ``face``
    distance = style.camera_height * side  # a pinhole camera's height above the table, pixels (0: orthographic)
    count = int(rng.integers(style.dice[0], style.dice[1] + 1)) if dice_colours is None else len(dice_colours)
    symbol_value = style.symbol_value
    dice: list[_Die] = []
    margin = side * 1.2
    for _ in range(count * (6 if dice_colours is None else 12)):  # (the draws of the scenes made before kept)
        if len(dice) >= count:
            break
        this_side = side * rng.uniform(0.92, 1.08)
        if dice and rng.random() < style.cluster:
            prev = dice[-1]
            a = rng.uniform(0, 2 * math.pi)
            d = rng.uniform(1.02, 1.25) * (this_side + prev.side) / 2 * (1.0 + 0.3 * abs(math.sin(2 * a)))
            x, y = prev.x + d * math.cos(a), prev.y + d * math.sin(a)
            yaw = prev.yaw + rng.uniform(-0.3, 0.3)
        else:
            x, y = rng.uniform(-w / 2 + margin, w / 2 - margin), rng.uniform(-h / 2 + margin, h / 2 - margin)
            yaw = rng.uniform(0, 2 * math.pi)
        if any(math.hypot(x - o.x, y - o.y) < (this_side + o.side) / 2 * style.spacing for o in dice):
            continue
        value = int(rng.integers(1, 7))
        symbol = bool(rng.random() < style.symbol_share) and dice_colours is None
        if symbol and symbol_value is not None:
            value = symbol_value
        lean = np.eye(3)
        cocked = style.cocked > 0 and bool(rng.random() < style.cocked)  # no draw when none is: old scenes stay
        lift = 0.5
        props = [o for o in dice if not o.cocked]
        if cocked and style.lean_on:  # against a flat neighbour, as a real die rests
            if not props:
                continue
            angle = math.radians(rng.uniform(*style.cocked_angle))
            prop = props[int(rng.integers(len(props)))]
            x, y, yaw, lean = _lean_against(rng, prop, this_side, angle)
            lift = (math.cos(angle) + math.sin(angle)) / 2
            if not (-w / 2 + margin < x < w / 2 - margin and -h / 2 + margin < y < h / 2 - margin) or any(
                    math.hypot(x - o.x, y - o.y) < (this_side + o.side) / 2 * style.spacing for o in dice
                    if o is not prop):
                continue
        elif cocked:  # on a neighbour or a wall: tipped about a horizontal axis
            lean = _rotation(np.array([rng.uniform(-1, 1), rng.uniform(-1, 1), 0.0]),
                             math.radians(rng.uniform(*style.cocked_angle)))
        elif rng.random() < style.lean:
            lean = _rotation(np.array([rng.uniform(-1, 1), rng.uniform(-1, 1), 0.0]), math.radians(rng.uniform(5, 18)))
        given = None
        if dice_colours is not None:
            body_c, pip_c = dice_colours[len(dice)]
            given = (np.array(body_c, np.float32), np.array(pip_c, np.float32))
        icon = dice_icons[len(dice)] if dice_icons is not None else None
        dice.append(_Die(value, symbol, x, y, this_side, yaw, lean, given, cocked, icon, len(dice), lift))
    # draw far dice first (the camera is tilted towards +y of the view)
    centre = np.array([w / 2, h / 2])
    drawn: list[SynthDie] = []
    shadow = np.zeros((h, w), np.float32)
    cube = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])
    for die in dice:
        hull = _project(die, view, cube, distance) + centre
        offset = -light[:2] / max(light[2], 0.3) * die.side * 0.35
        cv2.fillConvexPoly(shadow, np.round(hull + offset).astype(np.int32), 1.0, cv2.LINE_AA)
    if shadow.any():
        blur = max(1.0, side * 0.12)
        shadow = cv2.GaussianBlur(shadow, (0, 0), blur)
        img *= (1 - rng.uniform(0.3, 0.6) * shadow)[:, :, None]
    order = sorted(dice, key=lambda d: (np.array([d.x, d.y, 0]) @ view.T)[2])
    if distance > 0:  # seen from above: the raised (cocked) dice over their neighbours
        order = sorted(dice, key=lambda d: d.lift)
    for die in order:
        body, pips, marble = die_colours(rng, style) if die.colours is None else (*die.colours, None)
        corner = rng.uniform(0.08, 0.22)
        pip_radius = rng.uniform(0.075, 0.105)
        yawm = _rotation(np.array([0, 0, 1.0]), die.yaw) @ die.lean
        hull = _project(die, view, cube, distance) + centre
        # draw in the die's own patch of the image: warps of the whole frame would be slow
        rx0, ry0 = max(0, int(hull[:, 0].min()) - 2), max(0, int(hull[:, 1].min()) - 2)
        rx1, ry1 = min(w, int(hull[:, 0].max()) + 3), min(h, int(hull[:, 1].max()) + 3)
        if rx1 - rx0 < 4 or ry1 - ry0 < 4:
            continue
        pw, ph = rx1 - rx0, ry1 - ry0
        origin = np.array([rx0, ry0], np.float64)
        patch = img[ry0:ry1, rx0:rx1]
        hull_i = cv2.convexHull(np.round((hull - origin) * 4).astype(np.int32))
        # the body under the faces: the bevelled edges between them
        edge = np.zeros((ph, pw), np.uint8)
        cv2.fillConvexPoly(edge, hull_i, 255, cv2.LINE_AA, shift=2)
        e = edge.astype(np.float32)[:, :, None] / 255.0
        patch = patch * (1 - e) + body * 0.55 * e
        around = AROUND[die.value]
        start = int(rng.integers(4))
        sides = []
        top_seen = False
        for name, (normal, u, v) in _FACES.items():
            n_cam = view @ (yawm @ normal)
            if n_cam[2] <= 0.05:
                continue
            icon = None
            if name == "top":
                value, symbol, icon = die.value, die.symbol, die.icon
            else:
                value, symbol = around[(int(name[1]) + start) % 4], False
                if n_cam[2] > 0.25:  # a side face seen well enough to show its pips
                    c = _project(die, view, normal[None, :] * 0.5, distance)[0] + centre
                    sides.append((float(c[0]), float(c[1])))
            tex, alpha = face_texture(rng, value, body, pips, marble, corner, pip_radius, symbol, icon)
            inset = 0.47  # a little inside the cube's edge: the bevel shows around every face
            corners3 = np.array([normal * 0.5 - u * inset - v * inset, normal * 0.5 + u * inset - v * inset,
                                 normal * 0.5 + u * inset + v * inset, normal * 0.5 - u * inset + v * inset])
            lit = 0.35 + 0.65 * max(0.0, float((yawm @ normal) @ light))
            if distance > 0:  # the face's own perspective (a side face seen towards the frame's edge)
                quad = _project(die, view, corners3, distance) + centre - origin
                src = np.float32([[0, 0], [TEXTURE - 1, 0], [TEXTURE - 1, TEXTURE - 1], [0, TEXTURE - 1]])
                m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
                warped = cv2.warpPerspective(tex * lit, m, (pw, ph), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0))
                a = cv2.warpPerspective(alpha, m, (pw, ph), flags=cv2.INTER_LINEAR, borderValue=0)[:, :, None]
            else:
                quad = _project(die, view, corners3[:3], distance) + centre - origin
                src = np.float32([[0, 0], [TEXTURE - 1, 0], [TEXTURE - 1, TEXTURE - 1]])
                m = cv2.getAffineTransform(src, quad.astype(np.float32))
                warped = cv2.warpAffine(tex * lit, m, (pw, ph), flags=cv2.INTER_AREA, borderValue=(0, 0, 0))
                a = cv2.warpAffine(alpha, m, (pw, ph), flags=cv2.INTER_LINEAR, borderValue=0)[:, :, None]
            patch = patch * (1 - a) + warped * a
            if name == "top":
                top_seen = True
                full = np.array([normal * 0.5 + su * u * 0.5 + sv * v * 0.5 for su in (-1, 1) for sv in (-1, 1)])
                pts = _project(die, view, full, distance) + centre
                x0, y0 = pts.min(axis=0)
                x1, y1 = pts.max(axis=0)
                top_centre = _project(die, view, normal[None, :] * 0.5, distance)[0] + centre
                drawn.append(SynthDie(float(top_centre[0]), float(top_centre[1]), float((x1 - x0 + y1 - y0) / 2),
                                      die.value, die.symbol, (float(x0), float(y0), float(x1 - x0), float(y1 - y0)),
                                      cocked=die.cocked, icon=die.icon, index=die.index,
                                      leaning=math.degrees(math.acos(min(1.0, float((yawm @ normal)[2])))),
                                      outline=tuple((float(a), float(b)) for a, b in
                                                    cv2.convexHull(hull.astype(np.float32))[:, 0])))
        if top_seen and sides:
            drawn[-1] = replace(drawn[-1], sides=tuple(sides))
        img[ry0:ry1, rx0:rx1] = patch
    img = _camera(rng, img, style)
    out, drawn = _perspective(rng, img, drawn, style)
    inside = [d for d in drawn if 0 <= d.cx < out.shape[1] and 0 <= d.cy < out.shape[0]]
    return out, inside


def _camera(rng: np.random.Generator, img: np.ndarray, style: Style) -> np.ndarray:
    h, w = img.shape[:2]
    # light: a gradient across the frame, a colour cast, exposure
    gx = np.linspace(-1, 1, w, dtype=np.float32)[None, :, None] * rng.uniform(-40, 40)
    gy = np.linspace(-1, 1, h, dtype=np.float32)[:, None, None] * rng.uniform(-40, 40)
    img = img * rng.uniform(0.75, 1.2) * rng.uniform(0.9, 1.1, 3).astype(np.float32) + gx + gy
    if rng.random() < style.glare:
        glare = np.zeros((h, w), np.float32)
        cx, cy = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        cv2.ellipse(glare, (cx, cy), (int(rng.uniform(0.05, 0.2) * w), int(rng.uniform(0.03, 0.12) * h)),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        glare = cv2.GaussianBlur(glare, (0, 0), 0.04 * w)
        img = img + rng.uniform(60, 160) * glare[:, :, None]
    if rng.random() < style.motion_blur:
        k = int(rng.integers(3, 8))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1.0 / k
        kernel = cv2.warpAffine(kernel, cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0),
                                (k, k))
        kernel /= max(kernel.sum(), 1e-6)
        img = cv2.filter2D(img, -1, kernel)
    img = img + rng.normal(0, rng.uniform(1, 6), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    q = int(rng.integers(style.jpeg[0], style.jpeg[1] + 1))
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else out


def _perspective(rng: np.random.Generator, img: np.ndarray, dice: list[SynthDie],
                 style: Style) -> tuple[np.ndarray, list[SynthDie]]:
    h, w = img.shape[:2]
    s = style.perspective
    if s <= 0:
        return img, dice
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src + rng.uniform(-s, s, (4, 2)).astype(np.float32) * np.float32([w, h])
    m = cv2.getPerspectiveTransform(src, dst)
    out = cv2.warpPerspective(img, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    moved = []
    for d in dice:
        x, y, bw, bh = d.box
        pts = np.float32([[[x, y]], [[x + bw, y]], [[x + bw, y + bh]], [[x, y + bh]], [[d.cx, d.cy]]]
                         + [[[sx, sy]] for sx, sy in d.sides])
        p = cv2.perspectiveTransform(pts, m)[:, 0]
        outline = cv2.perspectiveTransform(np.float32(d.outline).reshape(-1, 1, 2), m)[:, 0] if d.outline else []
        x0, y0 = p[:4].min(axis=0)
        x1, y1 = p[:4].max(axis=0)
        scale = math.sqrt(abs(np.linalg.det(m[:2, :2]))) or 1.0
        size = d.size * scale
        moved.append(replace(d, cx=float(p[4, 0]), cy=float(p[4, 1]), size=float(size),
                             box=(float(x0), float(y0), float(x1 - x0), float(y1 - y0)),
                             sides=tuple((float(q[0]), float(q[1])) for q in p[5:]),
                             outline=tuple((float(q[0]), float(q[1])) for q in outline)))
    return out, moved


def die_at(x: float, y: float, dice: Sequence[SynthDie]) -> SynthDie | None:
    """The rendered die seen at (x, y): the last drawn (``render_scene`` lists them in the order it paints them, a
    cocked die after the neighbour it leans on, over its top face) whose silhouette holds the point; None on the
    table. A flat die's axis-aligned box is not the rule here: turned, it reaches over the side face of a die
    leaning on it."""
    for d in reversed(dice):
        if len(d.outline) >= 3 and cv2.pointPolygonTest(np.float32(d.outline), (float(x), float(y)), False) >= 0:
            return d
    return None


def icon_scene(seed: int, dice: dict[str, tuple[str, tuple[str, ...]]] = SKEPTICS_ICON_DICE
               ) -> tuple[np.ndarray, list[tuple[str, str, tuple[float, float, float, float]]]]:
    """A top-down tray (``TRAY``) of 3-6 of a game's icon dice: the photo and each die's (kind, icon label, box of
    its top face). ``dice``: kind -> (colour in ``DIE_PAINT``, the icon labels its faces carry)."""
    rng = np.random.default_rng(seed)
    kinds = [str(k) for k in rng.choice(list(dice), size=int(rng.integers(3, 7)))]
    faces = [str(rng.choice(dice[k][1])) for k in kinds]
    image, drawn = render_scene(rng, TRAY, [DIE_PAINT[dice[k][0]] for k in kinds], [f.split(":")[-1] for f in faces])
    return image, [(kinds[d.index], faces[d.index], d.box) for d in drawn]


# ---------------------------------------------------------------- writing a labelled set


def write_set(out: Path, count: int, seed: int, style: Style) -> None:
    """``count`` photos in the datasets' YOLO format under ``out`` (images/, labels/, symbols.txt)."""
    rng = np.random.default_rng(seed)
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    symbols = []
    for i in range(count):
        image, dice = render_scene(rng, style)
        name = f"synth_{seed}_{i:03d}"
        cv2.imwrite(str(out / "images" / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        h, w = image.shape[:2]
        lines = []
        for k, d in enumerate(dice):
            x, y, bw, bh = d.box
            lines.append(f"{d.value - 1} {(x + bw / 2) / w:.6f} {(y + bh / 2) / h:.6f} {bw / w:.6f} {bh / h:.6f}")
            if d.symbol:
                symbols.append(f"{name} {k}")
        (out / "labels" / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / "symbols.txt").write_text("".join(f"{s}\n" for s in symbols), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--style", choices=["any", "other"], default="other")
    args = parser.parse_args()
    write_set(Path(args.out), args.count, args.seed, OTHER_TABLE if args.style == "other" else Style())


if __name__ == "__main__":
    main()
