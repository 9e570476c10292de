"""Cocked dice (issue 26): a die leaning on another or on the tray's wall is reported as cocked, never as a value."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.errors import VisionError
from companion.games.skeptics.roll import to_roll
from vision.reader import COCKED, DieReading, ReaderSettings, _call_cocked, pip_roundness
from vision.training.synth import Style, render_scene

FLAT = Style(
    width=(900, 900),
    aspect=(0.75, 0.75),
    face=(70.0, 80.0),
    dice=(4, 6),
    tilt=(0.0, 0.0),
    backgrounds=("white",),
    symbol_share=0.0,
    lean=0.0,
    cluster=0.0,
    spacing=1.8,
    glare=0.0,
    motion_blur=0.0,
    perspective=0.0,
    marble=0.0,
    jpeg=(90, 95),
)


def scene(cocked: float, seed: int, angle: tuple[float, float] = (45.0, 55.0)) -> tuple[np.ndarray, list]:
    style = Style(**{**FLAT.__dict__, "cocked": cocked, "cocked_angle": angle})
    return render_scene(np.random.default_rng(seed), style)


def test_the_pips_of_a_rendered_cocked_die_are_flattened_and_a_flat_ones_are_round() -> None:
    flat, cocked = [], []
    for seed in range(6):
        image, dice = scene(0.5, seed)
        for d in dice:
            if d.value == 1 and not d.cocked:
                continue  # one pip: its roundness is its own
            ratio = pip_roundness(image, d.cx, d.cy, d.size)
            if ratio is not None:
                (cocked if d.cocked else flat).append(ratio)
    assert len(flat) >= 5 and len(cocked) >= 3
    assert float(np.median(flat)) > 0.9 and float(np.median(cocked)) < 0.82 * float(np.median(flat))
    assert float(np.median(cocked)) < math.cos(math.radians(35))  # about cos(lean), leant 45-55 degrees


def test_an_unsure_die_with_flattened_pips_is_cocked_and_a_sure_one_keeps_its_value() -> None:
    caught = cocked = flat_called = 0
    for seed in range(6):
        image, dice = scene(0.5, seed)
        readings = []
        for d in dice:
            box = (round(d.cx - d.size / 2), round(d.cy - d.size / 2), round(d.size), round(d.size))
            # every cocked die and every 2 are unsure here; the others are read with their value
            readings.append(DieReading(None if d.cocked or d.value == 2 else d.value, box, 0.4, "white"))
        flat = float(np.median([r for d in dice if not d.cocked and (r := pip_roundness(image, d.cx, d.cy, d.size))]))
        assert _call_cocked(image, readings, (0, 0), ReaderSettings()) == readings  # not calibrated: none
        out = _call_cocked(image, readings, (0, 0), ReaderSettings(flat_ratio=flat))
        for d, before, after in zip(dice, readings, out):
            assert after.value == before.value  # a value is never taken away, none is made up
            cocked += d.cocked
            caught += d.cocked and after.cocked
            flat_called += after.cocked and not d.cocked
    assert cocked >= 5 and caught >= 0.7 * cocked and flat_called == 0


def test_a_cocked_die_is_told_as_such_and_stops_the_roll() -> None:
    die = DieReading(None, (10, 20, 40, 40), 0.9, "blue", cocked=True)
    assert die.text == f"blue {COCKED}" and die.to_dict()["cocked"] is True
    assert "cocked" not in DieReading(3, (0, 0, 4, 4), 0.9, "blue").to_dict()
    with pytest.raises(VisionError, match="cocked: reroll it"):
        to_roll([die, DieReading(4, (90, 20, 40, 40), 0.9, "blue")])
