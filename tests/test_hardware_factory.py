"""Which GPIO pin factory runs: lgpio and nothing else on a Raspberry Pi 5, gpiozero's choice on a Pi 1-4."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from companion.errors import PinError
from hardware.factory import board_model, is_rp1_board, make_pin_factory, pin_factory_name

PI5 = "Raspberry Pi 5 Model B Rev 1.0"
PI4 = "Raspberry Pi 4 Model B Rev 1.5"


def test_board_model_reads_the_device_tree(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(PI5.encode() + b"\0")  # the kernel ends the string with a NUL
    assert board_model(model) == PI5
    assert board_model(tmp_path / "missing") == ""


@pytest.mark.parametrize(
    ("model", "rp1"),
    [
        (PI5, True),
        ("Raspberry Pi 500 Rev 1.0", True),
        ("Raspberry Pi Compute Module 5 Rev 1.0", True),
        (PI4, False),
        ("Raspberry Pi Zero 2 W Rev 1.0", False),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", False),
        ("", False),
    ],
)
def test_rp1_boards(model: str, rp1: bool) -> None:
    assert is_rp1_board(model) is rp1


def test_a_pi5_without_lgpio_is_an_error_naming_lgpio_not_a_fallback_to_rpi_gpio(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "lgpio", None)  # import lgpio fails, as when it is not installed
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    with pytest.raises(PinError) as caught:
        make_pin_factory(False, model=PI5, environ={})
    message = str(caught.value)
    assert "needs the lgpio library" in message and "systemd/install.sh" in message
    assert PI5 in message
    assert "SOC peripheral" not in message  # RPi.GPIO was not tried


def test_a_pi5_refuses_another_factory_named_in_the_environment() -> None:
    with pytest.raises(PinError, match="GPIOZERO_PIN_FACTORY=rpigpio cannot drive the GPIO of a Raspberry Pi 5"):
        make_pin_factory(False, model=PI5, environ={"GPIOZERO_PIN_FACTORY": "rpigpio"})


def test_a_pi5_gets_the_lgpio_factory(monkeypatch: pytest.MonkeyPatch) -> None:
    class LGPIOFactory:  # stands in for gpiozero.pins.lgpio.LGPIOFactory, which needs /dev/gpiochip*
        pass

    fake = types.ModuleType("gpiozero.pins.lgpio")
    fake.LGPIOFactory = LGPIOFactory  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", fake)
    factory = make_pin_factory(False, model=PI5, environ={"GPIOZERO_PIN_FACTORY": "LGPIO"})
    assert isinstance(factory, LGPIOFactory)
    assert pin_factory_name(factory) == "lgpio"


def test_a_pi4_keeps_gpiozeros_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")  # gpiozero reads it itself on a Pi 1-4
    factory = make_pin_factory(False, model=PI4, environ={})
    try:
        assert pin_factory_name(factory) == "mock"
    finally:
        factory.close()


def test_pin_factory_names() -> None:
    from gpiozero.pins.mock import MockFactory

    assert pin_factory_name(None) is None
    factory = MockFactory()
    try:
        assert pin_factory_name(factory) == "mock"
    finally:
        factory.close()
