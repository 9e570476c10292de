"""What the hardware worker spends per frame: drawing each OLED screen, pushing a frame through
luma's ssd1306 driver (to a bus that only counts), the PNG for the phone page, and one 20 ms
step of a hand sweep on gpiozero's mock PWM pin.

    uv run python benchmarks/bench_hardware.py [--repeat 200]

The budgets: a sweep step must fit well inside its 20 ms servo frame, and a flash frame of the
Ghost Hour inside its 500 ms. The ratio column is the median as a share of that budget.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from gpiozero.pins.mock import MockFactory, MockPWMPin
from hardware_fakes import FakeClock, FakeI2CBus, game_state

from hardware import screens
from hardware.clock_hand import ClockHand
from hardware.config import DisplayConfig, ServoConfig
from hardware.display import StatusDisplay
from hardware.factory import make_display_device
from hardware.pulse import GpiozeroPulse

EVENT = {"environment": "Fire", "room": 8, "room_name": "Bath"}


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm caches (fonts)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    n = args.repeat
    state = game_state(clock="VI", round=7, hour=1, ghost_room=8)

    rows: list[tuple[str, float, float]] = []
    rows.append(("draw game screen", median_ms(lambda: screens.game_screen(state, "Bath"), n), 500))
    rows.append(("draw Ghost Hour screen", median_ms(lambda: screens.ghost_hour_screen(EVENT), n), 500))
    rows.append(
        ("draw join screen (QR)", median_ms(lambda: screens.join_screen("http://192.168.1.23:8080/", "K7QX3M"), n), 500)
    )

    bus = FakeI2CBus()
    display = StatusDisplay(DisplayConfig())
    display.attach(make_display_device(DisplayConfig(), sim=False, bus=bus))
    image = screens.ghost_hour_screen(EVENT)
    rows.append(("frame to ssd1306 over I2C (luma)", median_ms(lambda: display.show(image, "g"), n), 500))
    rows.append(("oled_png() for the phone page", median_ms(display.png, n), 500))

    clock = FakeClock()
    cfg = ServoConfig()
    hand = ClockHand(GpiozeroPulse(cfg.pin, MockFactory(pin_class=MockPWMPin)), cfg, now=clock.now, sleep=clock.sleep)
    steps = round(270 / cfg.speed_deg_s / 0.02)

    def sweep() -> None:
        hand.move_to("IX" if hand.mark != "IX" else "XII")

    per_step = median_ms(sweep, max(5, n // 20)) / (steps + 1)
    rows.append(("hand sweep, per 20 ms servo step", per_step, 20))

    print(f"{'what':<36} {'median ms':>10} {'budget ms':>10} {'ratio':>8}")
    for name, ms, budget in rows:
        print(f"{name:<36} {ms:>10.3f} {budget:>10.0f} {ms / budget:>8.4f}")


if __name__ == "__main__":
    main()
