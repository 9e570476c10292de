"""The OLED's screens as pure functions: data in, a 128x64 one-bit PIL image out.

Nothing here touches a device, a clock or a thread, so every screen can be checked
against a golden PNG. Text uses Pillow's bundled scalable font
(`ImageFont.load_default(size=...)`, Pillow >= 10.1), which is present on every
machine that has Pillow. Everything is drawn at least 2 pixels from the edges so the
burn-in shift never pushes text off the panel.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from companion.words import plain
from hardware.config import HOUR_ANGLE, MARK_ANGLE

WIDTH, HEIGHT = 128, 64
WHITE, BLACK = 255, 0
MARGIN = 2

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@lru_cache(maxsize=32)
def font(size: int) -> Font:
    return ImageFont.load_default(size=size)


def blank(color: int = BLACK) -> Image.Image:
    return Image.new("1", (WIDTH, HEIGHT), color)


_MEASURE = ImageDraw.Draw(Image.new("1", (1, 1)))


def text_width(text: str, size: int) -> float:
    """Width as drawn on a one-bit image (hinted glyphs are wider than the anti-aliased ones)."""
    return _MEASURE.textlength(text, font=font(size))


def fit(text: str, max_width: float, sizes: tuple[int, ...]) -> tuple[str, int]:
    """The largest size from `sizes` at which `text` fits; at the smallest, cut it with an ellipsis."""
    for size in sizes:
        if text_width(text, size) <= max_width:
            return text, size
    size = sizes[-1]
    while text and text_width(text + "…", size) > max_width:
        text = text[:-1]
    return text.rstrip() + "…", size


def wrap(text: str, max_width: float, size: int, max_lines: int) -> list[str]:
    """Greedy word wrap; the last line is cut with an ellipsis when there is more."""
    words = text.split()
    lines: list[str] = []
    line = ""
    for word in words:
        trial = f"{line} {word}".strip()
        if text_width(trial, size) <= max_width:
            line = trial
            continue
        if line:
            lines.append(line)
        line = word
        while text_width(line, size) > max_width and len(line) > 1:  # one very long word
            cut = len(line)
            while cut > 1 and text_width(line[:cut], size) > max_width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
    if line:
        lines.append(line)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        while last and text_width(last + "…", size) > max_width:
            last = last[:-1]
        lines[-1] = last + "…"
    return lines


def _centered(draw: ImageDraw.ImageDraw, y: int, text: str, size: int, fill: int = WHITE) -> None:
    x = (WIDTH - text_width(text, size)) / 2
    draw.text((round(x), y), text, font=font(size), fill=fill)


def dial(draw: ImageDraw.ImageDraw, cx: int, cy: int, r: int, angle: float | None, fill: int = WHITE) -> None:
    """A small clock face: ring, four ticks (XII bold, it is the Ghost Hour) and the hand."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=fill)
    for mark, a in MARK_ANGLE.items():
        rad = math.radians(a)
        inner = r - (5 if mark == "XII" else 3)
        x0, y0 = cx + inner * math.sin(rad), cy - inner * math.cos(rad)
        x1, y1 = cx + r * math.sin(rad), cy - r * math.cos(rad)
        draw.line((round(x0), round(y0), round(x1), round(y1)), fill=fill, width=3 if mark == "XII" else 1)
    if angle is not None:
        rad = math.radians(angle)
        length = r - 6
        x1, y1 = cx + length * math.sin(rad), cy - length * math.cos(rad)
        draw.line((cx, cy, round(x1), round(y1)), fill=fill, width=2)
    draw.ellipse((cx - 2, cy - 2, cx + 2, cy + 2), fill=fill)


def game_screen(state: Mapping[str, Any], ghost_room_name: str | None = None) -> Image.Image:
    """The game at a glance: clock, round, hour, where the ghost is, room cards left, summon dice."""
    if state.get("rules") == "elder-sign":
        return elder_sign_screen(state)
    if state.get("rules") == "among-cultists":
        return among_cultists_screen(state)
    if state.get("rules") == "spooks":
        return spooks_screen(state)
    img = blank()
    draw = ImageDraw.Draw(img)
    outcome = state.get("outcome")
    if outcome in ("won", "lost"):
        return _outcome_screen(img, draw, state)
    clock = str(state.get("clock") or "XII")
    dial(draw, 22, 21, 19, MARK_ANGLE.get(clock))
    label, size = fit(clock, 40, (16, 14, 12))
    draw.text((round(22 - text_width(label, size) / 2), 44), label, font=font(size), fill=WHITE)

    x, right = 48, WIDTH - MARGIN
    rnd = state.get("round")
    hour = state.get("hour")
    line1 = f"Round {rnd}" if rnd is not None else "Round -"
    if state.get("final_round"):
        line1 += " last"
    text, size = fit(line1, right - x, (13, 12, 11))
    draw.text((x, 1), text, font=font(size), fill=WHITE)
    draw.text((x, 16), f"Hour {hour if hour is not None else '-'}", font=font(11), fill=WHITE)

    room = state.get("ghost_room")
    if room is None:
        ghost = "Ghost: away"
    else:
        named = ghost_room_name and ghost_room_name.strip().lower() != f"room {room}"  # a stand-in name says nothing
        ghost = f"Ghost: {room}" + (f" {ghost_room_name}" if named else "")
    text, size = fit(ghost, right - x, (11, 10, 9))
    draw.text((x, 31), text, font=font(size), fill=WHITE)

    left = state.get("room_deck_left")
    dice = state.get("summon_dice")
    bottom = f"Rooms {left if left is not None else '-'}  Dice {dice if dice is not None else '-'}"
    text, size = fit(bottom, right - x, (11, 10, 9))
    draw.text((x, 47), text, font=font(size), fill=WHITE)
    return img


def _limited(state: Mapping[str, Any], count: str, limit: str) -> str:
    """ "2/12": a count and the limit the view tells; the count alone where it tells none (the Ancient One's card is
    not filled in and its numbers are not entered: companion.games.elder_sign.engine.Game.doom_max)."""
    told = state.get(limit)
    return f"{state.get(count, '-')}" + ("" if told is None else f"/{told}")


def elder_sign_screen(state: Mapping[str, Any]) -> Image.Image:
    """Elder Sign at a glance: the clock, turns to midnight, the active investigator, doom, Elder Signs and the
    lingering Mythos effect."""
    img = blank()
    draw = ImageDraw.Draw(img)
    x, right = 48, WIDTH - MARGIN
    outcome = state.get("outcome")
    if outcome in ("won", "lost"):
        _centered(draw, 2, "SEALED!" if outcome == "won" else "DEVOURED", 18)
        _end_lines(draw, state, plain(state.get("outcome_reason")) or "")
        return img
    clock = str(state.get("clock") or "XII")
    dial(draw, 22, 21, 19, MARK_ANGLE.get(clock))
    label, size = fit(clock, 40, (16, 14, 12))
    draw.text((round(22 - text_width(label, size) / 2), 44), label, font=font(size), fill=WHITE)
    turns = state.get("turns_to_midnight")
    lines = [
        (f"Midnight in {turns}" if turns not in (None, 0) else "Midnight", (11, 10, 9)),
        (_active_player(state), (11, 10, 9)),
        (
            f"Doom {_limited(state, 'doom', 'doom_max')}" + ("  AWAKE" if state.get("ancient_one_awake") else ""),
            (11, 10, 9),
        ),
        (f"Signs {_limited(state, 'elder_signs', 'elder_signs_needed')}", (11, 10, 9)),
    ]
    for i, (line, sizes) in enumerate(lines):
        text, size = fit(line, right - x, sizes)
        draw.text((x, 1 + 13 * i), text, font=font(size), fill=WHITE)
    mythos = state.get("mythos") or {}
    lingering = mythos.get("lingering") if mythos.get("active", True) else None
    if lingering and not str(lingering).lower().startswith("placeholder"):
        text, size = fit(str(lingering), WIDTH - 2 * MARGIN, (9, 8))
        draw.text((MARGIN, 54), text, font=font(size), fill=WHITE)
    return img


PHASE_WORDS = {
    "night": "Night",
    "movement": "Movement",
    "event": "Event",
    "action": "Action",
    "cleanup": "Clean-up",
    "over": "Over",
}


def _seat_name(state: Mapping[str, Any], seat: Any) -> str:
    """A seat (from 1) said by the player's name, or "Seat N" without one."""
    names = state.get("player_names") or state.get("names") or []
    if isinstance(seat, int) and 1 <= seat <= len(names) and names[seat - 1]:
        return str(names[seat - 1])
    return f"Seat {seat}" if isinstance(seat, int) else "-"


def among_cultists_screen(state: Mapping[str, Any]) -> Image.Image:
    """Among Cultists at a glance: the round clock (one hour a round), the round and phase, who holds the
    knife, the round's event and whether the vote is still to come. Never a role: the companion knows none."""
    img = blank()
    draw = ImageDraw.Draw(img)
    outcome = state.get("outcome")
    if outcome in ("won", "lost"):
        _centered(draw, 2, "INVESTIGATORS" if outcome == "won" else "CULTISTS WIN", 15)
        for i, line in enumerate(wrap(plain(state.get("outcome_reason")) or "", WIDTH - 2 * MARGIN, 10, 3)):
            _centered(draw, 26 + 11 * i, line, 10)
        return img
    clock = str(state.get("clock") or "XII")
    dial(draw, 22, 21, 19, HOUR_ANGLE.get(clock))
    x, right = 48, WIDTH - MARGIN
    rnd, rounds = state.get("round"), state.get("rounds") or 10
    phase = str(state.get("phase") or "")
    lines = [
        (f"Round {rnd}/{rounds}" if phase != "night" else "The night", (13, 12, 11)),
        (
            PHASE_WORDS.get(phase, phase.capitalize()) + (" phase" if phase in ("movement", "event", "action") else ""),
            (11, 10, 9),
        ),
        ("Knife: " + _seat_name(state, state.get("start_player")), (11, 10, 9)),
        ("Vote: done" if state.get("vote_used") else "Vote: still open", (11, 10, 9)),
    ]
    for i, (line, sizes) in enumerate(lines):
        text, size = fit(line, right - x, sizes)
        draw.text((x, 1 + 12 * i), text, font=font(size), fill=WHITE)
    event = state.get("event")
    if isinstance(event, Mapping):
        name = "not filled in yet" if event.get("stand_in") else str(event.get("name") or "")
        text, size = fit("Event: " + name, WIDTH - 2 * MARGIN, (10, 9, 8))
        draw.text((MARGIN, 52), text, font=font(size), fill=WHITE)
    return img


def spooks_screen(state: Mapping[str, Any]) -> Image.Image:
    """Spooks at a glance: who deals, the direction of play (and backward runs), every score against the limit."""
    img = blank()
    draw = ImageDraw.Draw(img)
    scores = list(state.get("scores") or [])
    out = set(state.get("out") or [])
    winner = state.get("winner")
    if state.get("outcome") and isinstance(winner, int):
        head = f"{_seat_name(state, winner)} wins"
    else:
        head = f"Hand {len(state.get('hands') or []) + 1} · deals {_seat_name(state, state.get('dealer'))}"
    text, size = fit(head, WIDTH - 2 * MARGIN, (11, 10, 9))
    draw.text((MARGIN, 0), text, font=font(size), fill=WHITE)
    direction = state.get("direction")
    rule = "Play left" if direction in ("left", "clockwise") else "Play right" if direction else ""
    if state.get("backward_runs"):
        rule += (" · " if rule else "") + "runs go down"
    if rule:
        text, size = fit(rule, WIDTH - 2 * MARGIN, (10, 9))
        draw.text((MARGIN, 12), text, font=font(size), fill=WHITE)
    rows = [f"{'x ' if seat in out else ''}{_seat_name(state, seat)} {score}" for seat, score in enumerate(scores, 1)]
    per_column = 4
    columns = [rows[:per_column], rows[per_column : 2 * per_column]]
    if len(rows) > 2 * per_column:  # many players: the scores only, in seat order
        columns = [[f"{seat}:{score}" for seat, score in enumerate(scores, 1)][i::2] for i in (0, 1)]
    width = (WIDTH - 2 * MARGIN) // 2
    for c, column in enumerate(columns):
        for r, row in enumerate(column[: per_column + 1]):
            text, size = fit(row, width - 2, (10, 9, 8))
            draw.text((MARGIN + c * width, 23 + 10 * r), text, font=font(size), fill=WHITE)
    return img


def narration_screen(title: str, text: str) -> Image.Image:
    """One step of a script read out (the night, the vote's countdown): a small title, then the words, large."""
    img = blank()
    draw = ImageDraw.Draw(img)
    head, size = fit(title, WIDTH - 2 * MARGIN, (10, 9))
    _centered(draw, 0, head, size)
    words = plain(text) or ""
    for size in (40, 30, 22, 16, 13, 11, 10):
        lines = wrap(words, WIDTH - 2 * MARGIN, size, 4)
        tall = len(lines) * (size + 2)
        if tall <= HEIGHT - 14 and not lines[-1].endswith("…"):
            break
    top = 13 + max(0, (HEIGHT - 13 - len(lines) * (size + 2)) // 2)
    for i, line in enumerate(lines):
        _centered(draw, top + i * (size + 2), line, size)
    return img


def _active_player(state: Mapping[str, Any]) -> str:
    """Whose turn it is: the player's name, and the investigator's when the owner has filled its card in."""
    names = state.get("player_names") or []
    current = state.get("current_player")
    player = names[current] if isinstance(current, int) and 0 <= current < len(names) else "-"
    stand_ins = (state.get("stand_ins") or {}).get("investigators") or []
    investigator = state.get("active_investigator")
    return f"{player}: {investigator}" if investigator and current not in stand_ins else str(player)


def _outcome_screen(img: Image.Image, draw: ImageDraw.ImageDraw, state: Mapping[str, Any]) -> Image.Image:
    won = state.get("outcome") == "won"
    _centered(draw, 2, "PROVEN!" if won else "TIME IS UP", 20 if won else 17)
    _end_lines(
        draw, state, plain(state.get("outcome_reason")) or ("The ghost is proven." if won else "The ghost wins.")
    )
    return img


def _end_lines(draw: ImageDraw.ImageDraw, state: Mapping[str, Any], reason: str) -> None:
    """Under the end screen's title: why the game ended, and the dice's luck this game when it had dice odds
    (the end card's words, short: "Luck 4 of 6.2, luckless"), on the bottom line."""
    luck = ((state.get("summary") or {}).get("luck") or {}).get("short")
    for i, line in enumerate(wrap(reason, WIDTH - 2 * MARGIN, 10, 2 if luck else 3)):
        _centered(draw, 28 + 11 * i, line, 10)
    if luck:
        text, size = fit(str(luck), WIDTH - 2 * MARGIN, (10, 9))
        _centered(draw, 51, text, size)


def ghost_hour_screen(event: Mapping[str, Any], inverted: bool = True) -> Image.Image:
    """The Ghost Hour announcement: large, inverted (white panel, black letters) when `inverted`."""
    bg, fg = (WHITE, BLACK) if inverted else (BLACK, WHITE)
    img = blank(bg)
    draw = ImageDraw.Draw(img)
    title, size = fit("GHOST HOUR", WIDTH - 2 * MARGIN, (20, 18, 16))
    _centered(draw, 1, title, size, fg)
    env = event.get("environment")
    env_text, env_size = fit(str(env) if env else "No environment", WIDTH - 2 * MARGIN, (15, 13, 11))
    _centered(draw, 25, env_text, env_size, fg)
    room = event.get("room")
    name = event.get("room_name")
    where = f"Room {room}" + (f" {name}" if name else "") if room is not None else "No room card"
    where_text, where_size = fit(where, WIDTH - 2 * MARGIN, (15, 13, 11, 10))
    _centered(draw, 44, where_text, where_size, fg)
    return img


def qr_matrix(data: str) -> list[list[bool]]:
    """The QR code's modules (no quiet zone), smallest version that holds `data`.

    Low error correction keeps a typical join address (about 45 characters) in version 3, 29
    modules, which the 64-pixel-high panel draws at 2 pixels a module; a phone reads a lit panel
    without the extra redundancy.
    """
    import qrcode
    from qrcode.constants import ERROR_CORRECT_L

    code = qrcode.QRCode(error_correction=ERROR_CORRECT_L, box_size=1, border=0)
    code.add_data(data)
    code.make(fit=True)
    return [list(row) for row in code.get_matrix()]


def join_screen(url: str, code: str) -> Image.Image:
    """A QR code of the phone page's address beside the join code, for phones to join the table."""
    img = blank()
    draw = ImageDraw.Draw(img)
    matrix = qr_matrix(url)
    n = len(matrix)
    scale = max(1, (HEIGHT - 4) // n)  # keep a dark-on-light quiet zone of at least 2 px
    side = n * scale
    quiet = (HEIGHT - side) // 2
    # A QR code reads dark modules on a light field: paint the field white, modules black.
    draw.rectangle((0, 0, side + 2 * quiet - 1, HEIGHT - 1), fill=WHITE)
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                x, y = quiet + c * scale, quiet + r * scale
                draw.rectangle((x, y, x + scale - 1, y + scale - 1), fill=BLACK)
    x = side + 2 * quiet + 3
    width = WIDTH - MARGIN - x
    draw.text((x, 1), "Join", font=font(12), fill=WHITE)
    code_text, code_size = fit(code, width, (20, 18, 16, 14, 12, 10))
    draw.text((x, 15), code_text, font=font(code_size), fill=WHITE)
    lines = _address_lines(url, width)
    size = next((z for z in (10, 9, 8) if all(text_width(line, z) <= width for line in lines)), 8)
    for i, line in enumerate(lines):
        line, size = fit(line, width, (size,))
        draw.text((x, 40 + 11 * i), line, font=font(size), fill=WHITE)
    return img


def _address_lines(url: str, width: float) -> list[str]:
    """The address to type (no scheme, no path) on two lines: host, then port; a long host breaks at a dot."""
    host = url.split("://", 1)[-1].split("/", 1)[0]
    name, colon, port = host.partition(":")
    port = colon + port
    if text_width(name, 8) <= width:
        return [name, port] if port else [name]
    for k in range(len(name) - 1, 0, -1):
        if name[k] == "." and text_width(name[: k + 1], 8) <= width:
            return [name[: k + 1], name[k + 1 :] + port]
    return [name, port] if port else [name]


def error_screen(title: str, message: str) -> Image.Image:
    """An inverted title bar and the message, wrapped."""
    img = blank()
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH - 1, 14), fill=WHITE)
    head, size = fit(title, WIDTH - 2 * MARGIN - 2, (12, 11, 10))
    draw.text((MARGIN + 1, 1), head, font=font(size), fill=BLACK)
    for i, line in enumerate(wrap(message, WIDTH - 2 * MARGIN, 10, 4)):
        draw.text((MARGIN, 17 + 11 * i), line, font=font(10), fill=WHITE)
    return img


def paused_screen(state: Mapping[str, Any] | None = None) -> Image.Image:
    """Shown when the companion shuts down: the game is saved and waits."""
    img = blank()
    draw = ImageDraw.Draw(img)
    _centered(draw, 4, "Game paused", 16)
    if state and state.get("clock") is not None:
        _centered(draw, 26, f"Clock {state.get('clock')}  Round {state.get('round', '-')}", 11)
    _centered(draw, 44, "Saved - restart to resume", 10)
    return img


def test_screen(address: int = 0x3C, driver: str = "ssd1306") -> Image.Image:
    """A pattern that shows dead pixels and the panel's corners, with what is being tested."""
    img = blank()
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=WHITE)
    for i in range(0, 16, 2):
        for j in range(0, 16, 2):
            if (i + j) % 4 == 0:
                draw.rectangle((WIDTH - 18 + i, 2 + j, WIDTH - 17 + i, 3 + j), fill=WHITE)
    draw.text((4, 3), "HW TEST", font=font(16), fill=WHITE)
    draw.text((4, 24), f"{driver} 0x{address:02X}", font=font(11), fill=WHITE)
    draw.text((4, 40), "128x64 ok if every", font=font(9), fill=WHITE)
    draw.text((4, 50), "edge line is lit", font=font(9), fill=WHITE)
    return img
