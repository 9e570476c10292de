"""The status OLED: golden PNGs of every screen on luma's dummy device, the burn-in guard, the
Ghost Hour flashing, and a real luma ssd1306 driving a fake I2C bus.

Regenerate the golden images after a deliberate change with:
    UPDATE_GOLDEN=1 uv run pytest tests/test_hardware_display.py
and look at them (tests/golden/*.png) before committing.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hardware_fakes import FakeClock, FakeI2CBus, game_state, sim_table
from luma.core.device import dummy
from PIL import Image, ImageChops

from hardware import screens
from hardware.config import DisplayConfig, HardwareConfig
from hardware.display import SHIFTS, StatusDisplay
from hardware.factory import make_display_device

# luma.oled still calls Image.getdata(), which Pillow 13 warns about.
GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

GHOST_HOUR = {"type": "ghost_hour", "environment": "Fire", "room": 8, "room_name": "Bath"}

SCREENS: dict[str, Any] = {
    "game": lambda: screens.game_screen(
        game_state(clock="III", round=5, hour=1, ghost_room=8, room_deck_left=9, summon_dice=2), "Bath"
    ),
    "game_no_ghost_last_round": lambda: screens.game_screen(
        game_state(clock="IX", round=12, hour=2, room_deck_left=0, summon_dice=0, final_round=True)
    ),
    "game_won": lambda: screens.game_screen(game_state(outcome="won", outcome_reason="All icon sets proven.")),
    "game_lost": lambda: screens.game_screen(
        game_state(outcome="lost", outcome_reason="The last room card was drawn and time ran out.")
    ),
    # the end screen with the dice's luck on its bottom line (the end card's words, short: companion.luck)
    "game_lost_luck": lambda: screens.game_screen(
        game_state(
            outcome="lost",
            outcome_reason="The last room card was drawn and time ran out.",
            summary={"luck": {"short": "Luck 4 of 6.2, luckless"}},
        )
    ),
    "elder_sign_won_luck": lambda: screens.game_screen(
        {
            "rules": "elder-sign",
            "outcome": "won",
            "outcome_reason": "The Elder Signs seal the Ancient One away.",
            "summary": {"luck": {"short": "Luck 7 of 5.1, fair dice"}},
        }
    ),
    "ghost_hour": lambda: screens.ghost_hour_screen(GHOST_HOUR, inverted=True),
    "ghost_hour_dark": lambda: screens.ghost_hour_screen(GHOST_HOUR, inverted=False),
    "ghost_hour_long_names": lambda: screens.ghost_hour_screen(
        {"environment": "Mysterious Fog Rolls In", "room": 14, "room_name": "Grand Staircase Landing"}
    ),
    "join": lambda: screens.join_screen("http://192.168.1.23:8080/", "K7QX3M"),
    "join_long_address": lambda: screens.join_screen("http://192.168.100.123:8080/join?code=K7QX3M", "K7QX3M"),
    "error": lambda: screens.error_screen(
        "OLED", "Cannot end the round: the game is over. Start a new game on the phone."
    ),
    "paused": lambda: screens.paused_screen(game_state(clock="VI", round=7)),
    "test": lambda: screens.test_screen(0x3C, "ssd1306"),
}


def on_dummy(image: Image.Image) -> Image.Image:
    """What luma's dummy device holds after displaying `image`."""
    device = dummy(width=128, height=64, mode="1")
    device.display(image)
    assert device.image is not None
    return device.image


def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_its_golden_png(name: str) -> None:
    frame = on_dummy(SCREENS[name]())
    assert frame.size == (128, 64) and frame.mode == "1"
    path = GOLDEN / f"{name}.png"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        frame.save(path)
        pytest.skip(f"wrote {path}")
    assert path.exists(), f"no golden image {path}; run with UPDATE_GOLDEN=1 and check the picture"
    with Image.open(path) as golden:
        expected = golden.convert("1")
    diff = ImageChops.logical_xor(frame, expected)
    bbox = diff.getbbox()
    assert bbox is None, f"{name}: pixels differ from {path} in the box {bbox}"


def test_screens_keep_a_margin_for_the_burn_in_shift() -> None:
    for name, make in SCREENS.items():
        image = make()
        if name.startswith(("ghost_hour", "join", "error", "test")) or name == "ghost_hour":
            continue  # full-panel screens (inverted, QR field, title bar, border) wrap harmlessly
        box = image.getbbox()
        assert box is not None
        assert box[0] >= 1 and box[1] >= 1 and box[2] <= 127 and box[3] <= 63, (name, box)


def test_ghost_hour_is_inverted_and_large() -> None:
    bright = screens.ghost_hour_screen(GHOST_HOUR, inverted=True)
    dark = screens.ghost_hour_screen(GHOST_HOUR, inverted=False)
    lit = bright.convert("L").histogram()[255]
    assert lit > 0.75 * 128 * 64  # a white panel with black letters
    assert ImageChops.invert(bright.convert("L")).convert("1").tobytes() == dark.tobytes()


@pytest.mark.parametrize(
    "url",
    [
        "http://192.168.1.23:8080/",
        "http://192.168.100.123:8080/join?code=K7QX3M",
        "http://skeptics-companion.local:8080/join?code=K7QX3M",
    ],
)
def test_join_screen_qr_code_reads_back_as_the_address(url: str) -> None:
    """Decode the drawn QR code with OpenCV's detector, as a phone camera would."""
    import cv2
    import numpy as np
    from PIL import ImageOps

    image = screens.join_screen(url, "K7QX3M")
    modules = len(screens.qr_matrix(url))
    assert (64 - 4) // modules >= 2  # at least 2 pixels a module on the panel
    qr = ImageOps.expand(image.convert("L").crop((0, 0, 64, 64)), border=8, fill=255)
    qr = qr.resize((qr.width * 6, qr.height * 6), Image.Resampling.NEAREST)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(np.array(qr))
    assert text == url


def test_text_that_does_not_fit_is_shortened() -> None:
    text, size = screens.fit("A very long environment card name indeed", 100, (14, 12, 10))
    assert text.endswith("…") and size == 10 and screens.text_width(text, size) <= 100


# --- burn-in guard ----------------------------------------------------------------------------


def test_picture_shifts_a_pixel_every_few_minutes_and_dims_when_nothing_changes() -> None:
    clock = FakeClock()
    cfg = DisplayConfig(shift_every_s=180, dim_after_s=600, contrast=200, dim_contrast=16)
    display = StatusDisplay(cfg, now=clock.now)
    device = dummy(width=128, height=64, mode="1")
    display.attach(device)
    base = SCREENS["game"]()
    display.show(base, "game")
    assert device.image.tobytes() == base.tobytes()

    offsets = []
    for _ in range(len(SHIFTS)):
        clock.advance(180)
        display.tick()
        dx, dy = display.offset
        offsets.append((dx, dy))
        frame = device.image
        for x, y in [(30, 20), (60, 30), (100, 50), (50, 4)]:
            assert frame.getpixel(((x + dx) % 128, (y + dy) % 64)) == base.getpixel((x, y))
    assert set(offsets) == set(SHIFTS) and max(abs(d) for o in offsets for d in o) == 1
    assert offsets[-1] == (0, 0)  # back where it started after a round
    assert display.is_dimmed and display.contrast == 16  # 1620 s with nothing new

    display.show(SCREENS["ghost_hour"](), "ghost_hour")
    assert not display.is_dimmed and display.contrast == 200


def test_dim_after_the_configured_quiet_time_on_a_real_ssd1306() -> None:
    """luma's ssd1306 over luma's i2c interface; the fake bus records the contrast commands."""
    clock = FakeClock()
    bus = FakeI2CBus()
    cfg = DisplayConfig(contrast=180, dim_contrast=10, dim_after_s=300, shift_every_s=10_000)
    device = make_display_device(cfg, sim=False, bus=bus)
    display = StatusDisplay(cfg, now=clock.now)
    display.attach(device)
    display.show(SCREENS["game"](), "game")
    sent = bus.data_blocks
    assert sent >= 1024 // 32  # a whole 128x64 frame went over the bus
    clock.advance(299)
    display.tick()
    assert bus.contrast_levels()[-1] == 180
    clock.advance(1)
    display.tick()
    assert bus.contrast_levels()[-1] == 10
    display.show(SCREENS["join"](), "join")
    assert bus.contrast_levels()[-1] == 180


def test_oled_png_is_the_current_frame() -> None:
    clock = FakeClock()
    with sim_table(clock) as table:
        assert table.oled_png() is None  # nothing shown yet
        state = game_state(clock="VI", round=3)
        table.show(state)
        table.run_pending()
        png = table.oled_png()
        assert png is not None and png.startswith(b"\x89PNG")
        with Image.open(io.BytesIO(png)) as image:
            assert image.convert("1").tobytes() == screens.game_screen(state).tobytes()


def test_ghost_hour_flashes_for_a_few_seconds_then_shows_the_game() -> None:
    """Rulebook, "Ghost Hour Sequence": environment first, then the room; the OLED announces both."""
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    config = HardwareConfig.from_dict({"display": {"flash_s": 3.0}})
    with sim_table(clock, config, pin_factory=factory) as table:
        table.show(game_state(clock="XII"))
        table.run_pending()
        frames: list[tuple[float, bytes]] = []
        device = table.display.device
        real_display = device.display

        def record(image: Image.Image) -> None:
            frames.append((clock.now(), image.tobytes()))
            real_display(image)

        device.display = record
        start = clock.now()
        state = game_state(clock="XII", hour=1, ghost_room=8, ghost_reason="ghost_hour")
        table.on_events([GHOST_HOUR], state)
        table.run_pending()
    bright = screens.ghost_hour_screen(GHOST_HOUR, True).tobytes()
    dark = screens.ghost_hour_screen(GHOST_HOUR, False).tobytes()
    flashing = [(t - start, f) for t, f in frames if f in (bright, dark)]
    assert len(flashing) == 6  # 3 s at two frames a second
    assert [f for _, f in flashing] == [bright, dark] * 3
    assert [t for t, _ in flashing] == pytest.approx([0.0, 0.5, 1.0, 1.5, 2.0, 2.5])
    game = screens.game_screen(state, "Bath").tobytes()
    after = [f for t, f in frames if t - start >= 3.0]
    assert after and after[0] == game  # then the game at a glance, with the ghost's room and its name


def test_join_and_error_screens_return_to_the_game() -> None:
    clock = FakeClock()
    with sim_table(clock) as table:
        state = game_state()
        table.show(state)
        table.show_join("http://skeptics.local:8080/", "K7QX3M", seconds=30)
        table.run_pending()
        assert table.status()["screen"] == "game"
        assert clock.now() >= 1030
        table.show_error("Camera", "No dice tray camera found.", seconds=5)
        table.run_pending()
        assert table.display.screen is not None
        assert table.display.screen.tobytes() == screens.game_screen(state).tobytes()


def test_paused_screen_is_left_on_the_panel_dimmed_at_shutdown() -> None:
    clock = FakeClock()
    bus = FakeI2CBus()
    table = sim_table(clock, i2c_bus=bus)
    state = game_state(clock="VI", round=7)
    table.show(state)
    table.run_pending()
    table.close()
    assert table.display.screen is not None
    assert table.display.screen.tobytes() == screens.paused_screen(state).tobytes()
    assert bus.contrast_levels()[-1] == HardwareConfig().display.dim_contrast
    assert bus.commands[-1] != [0xAE]  # the panel was not switched off (luma's cleanup honours persist)
