"""companion.validate: one checker for configuration values, the dotted key first in every error."""

from __future__ import annotations

import math

import pytest

from companion.errors import ConfigError
from companion.validate import Section, choice, flag, number, text, unknown_keys, whole_number


@pytest.mark.parametrize(("value", "expected"), [(8, 8), ("8", 8), (" 12 ", 12), ("0x3C", 0x3C), ("010", 10), (0, 0)])
def test_whole_numbers(value: object, expected: int) -> None:
    assert whole_number("web.port", value, 0, 65535) == expected


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (True, "a.b: expected a whole number 0-27, got True"),
        (2.5, "a.b: expected a whole number 0-27, got 2.5"),
        ("GPIO", "a.b: expected a whole number 0-27, got 'GPIO'"),
        (28, "a.b: expected a whole number 0-27, got 28"),
        ("0x99", "a.b: expected a whole number 0-27, got 153"),
        (None, "a.b: expected a whole number 0-27, got None"),
    ],
)
def test_bad_whole_numbers_name_the_key(value: object, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        whole_number("a.b", value, 0, 27)
    assert str(caught.value) == message


def test_numbers() -> None:
    assert number("x", 2, 0, 5) == 2.0 and isinstance(number("x", 2, 0, 5), float)
    for bad in (math.nan, True, "1.5", 6):
        with pytest.raises(ConfigError, match=r"^x: expected a number 0-5, got "):
            number("x", bad, 0, 5)


def test_flags_take_words_only_when_asked() -> None:
    assert flag("sim", True) is True
    assert flag("COMPANION_SIM", " Yes ", words=True) is True and flag("COMPANION_SIM", "off", words=True) is False
    with pytest.raises(ConfigError, match="^hardware.voice.quiet: expected true or false, got 'yes'$"):
        flag("hardware.voice.quiet", "yes")
    with pytest.raises(ConfigError, match="expected true or false, got 'maybe'"):
        flag("COMPANION_SIM", "maybe", words=True)


def test_choices() -> None:
    assert choice("log.level", " INFO ", ("debug", "info"), fold=True) == "info"
    assert choice("hardware.servo.kind", 270, (180, 270)) == 270
    with pytest.raises(ConfigError, match="^log.level: expected one of debug, info, got 'INFO'$"):
        choice("log.level", "INFO", ("debug", "info"))
    with pytest.raises(ConfigError, match=r"^k: expected 180 or 270 \(degrees\), got True$"):
        choice("k", True, (180, 270), what="180 or 270 (degrees)")  # True == 1 but is not a number of degrees
    with pytest.raises(ConfigError, match="got '270'"):
        choice("k", "270", (180, 270))
    assert text("v", "") == ""
    with pytest.raises(ConfigError, match="^v: expected text, got 3$"):
        text("v", 3)


def test_a_section_names_every_key_and_refuses_unknown_ones() -> None:
    section = Section({"pin": 40, "servo": {"kind": 90}}, "hardware", known=("pin", "servo", "retry_s"))
    assert section.number("retry_s", 30.0, 1, 3600) == 30.0  # absent: the default
    with pytest.raises(ConfigError, match="^hardware.pin: expected a whole number 0-27, got 40$"):
        section.whole_number("pin", 18, 0, 27)
    servo = section.table("servo")
    assert servo.key("kind") == "hardware.servo.kind" and "kind" in servo and "pin" not in servo
    with pytest.raises(ConfigError, match="^hardware.servo.kind: expected one of 180, 270, got 90$"):
        servo.choice("kind", 270, (180, 270))
    assert servo.value("kind", lambda key, value: f"{key}={value}", "unset") == "hardware.servo.kind=90"
    assert servo.value("pin", lambda key, value: 0, 18) == 18
    with pytest.raises(ConfigError, match=r"^hardware.sevro: unknown key. Known keys of \[hardware\]: pin, servo\.$"):
        Section({"sevro": {}}, "hardware", known=("servo", "pin"))
    with pytest.raises(ConfigError, match=r"^hardware.display: expected a table \(\[hardware.display\]\), got 3$"):
        Section({"display": 3}, "hardware").table("display")
    unknown_keys("log", {"level": "info"}, ("level",))  # nothing unknown: no error
