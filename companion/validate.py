"""Checking configuration values: types, ranges and choices, with the dotted key at the start of every error.

Each part reads its own tables of the configuration file through a `Section` (``companion.config`` for
``[web]``, ``[game]``, ``[camera]`` ...; ``hardware.config`` for ``[hardware]``)::

    servo = Section(data, "hardware.servo", known=("pin", "kind", ...))
    pin = servo.whole_number("pin", 18, 0, 27)   # hardware.servo.pin: expected a whole number 0-27, got 40

A wrong value raises ``ConfigError`` whose message starts with the key, says what was expected and what was
found, so that the host can find the line in the file. The value checkers below (`whole_number`, `number`,
`flag`, `choice`, `text`) check one value given its key, for values that come from elsewhere (an environment
variable, the command line); `Section`'s methods are the same checks for the keys of one table.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from companion.errors import BadCommand, CompanionError, ConfigError

T = TypeVar("T")

TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")


def whole_number(key: str, value: Any, low: int, high: int) -> int:
    """A whole number ``low``-``high``. Text is read too ("8080", "0x3C"), as environment variables give it."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ConfigError(f"{key}: expected a whole number {low}-{high}, got {value!r}")
    if isinstance(value, str):
        text = value.strip()
        try:
            result = int(text, 0) if text[:2].lower() in ("0x", "0o", "0b") else int(text)
        except ValueError:
            raise ConfigError(f"{key}: expected a whole number {low}-{high}, got {value!r}") from None
    else:
        result = value
    if not low <= result <= high:
        raise ConfigError(f"{key}: expected a whole number {low}-{high}, got {result}")
    return result


def number(key: str, value: Any, low: float, high: float) -> float:
    """A number (whole or not) ``low``-``high``; not NaN, not a boolean."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise ConfigError(f"{key}: expected a number {low:g}-{high:g}, got {value!r}")
    if not low <= value <= high:
        raise ConfigError(f"{key}: expected a number {low:g}-{high:g}, got {value!r}")
    return float(value)


def flag(key: str, value: Any, *, words: bool = False) -> bool:
    """true or false; with ``words``, also the text 1/0, true/false, yes/no, on/off (environment variables)."""
    if isinstance(value, bool):
        return value
    if words and isinstance(value, str):
        text = value.strip().lower()
        if text in TRUE_WORDS:
            return True
        if text in FALSE_WORDS:
            return False
    raise ConfigError(f"{key}: expected true or false, got {value!r}")


def choice(key: str, value: Any, choices: Iterable[T], *, fold: bool = False, what: str | None = None) -> T:
    """One of ``choices``; with ``fold``, text is compared without case and surrounding spaces.

    ``what`` replaces "one of A, B, C" in the message when the choices need explaining.
    """
    options = tuple(choices)
    candidate = value.strip().lower() if fold and isinstance(value, str) else value
    for option in options:
        if type(candidate) is type(option) and candidate == option:
            return option
    expected = what or "one of " + ", ".join(str(option) for option in options)
    raise ConfigError(f"{key}: expected {expected}, got {value!r}")


def text(key: str, value: Any) -> str:
    """Any text, the empty text included."""
    if not isinstance(value, str):
        raise ConfigError(f"{key}: expected text, got {value!r}")
    return value


def unknown_keys(prefix: str, data: Mapping[str, Any], known: Iterable[str]) -> None:
    """Refuse a key of the table ``prefix`` that is not in ``known`` (a misspelt key is an error, not ignored)."""
    names = sorted(known)
    for name in data:
        if name not in names:
            raise ConfigError(f"{prefix}.{name}: unknown key. Known keys of [{prefix}]: {', '.join(names)}.")


class Section:
    """One table of the configuration file, read key by key; every error names the dotted key.

    ``known`` lists the table's keys; any other key is refused at once. A method's ``default`` is used
    when the key is absent (and checked like a value from the file).
    """

    def __init__(self, data: Any, prefix: str, *, known: Iterable[str] | None = None) -> None:
        if not isinstance(data, Mapping):
            raise ConfigError(f"{prefix}: expected a table ([{prefix}]), got {data!r}")
        self.data: Mapping[str, Any] = data
        self.prefix = prefix
        if known is not None:
            unknown_keys(prefix, data, known)

    def key(self, name: str) -> str:
        """The dotted key of ``name`` in this table ("hardware.servo.pin")."""
        return f"{self.prefix}.{name}"

    def __contains__(self, name: object) -> bool:
        return name in self.data

    def value(self, name: str, check: Callable[[str, Any], T], default: T) -> T:
        """``check(key, value)`` of the key's value, or ``default`` (not checked) when the key is absent."""
        if name not in self.data:
            return default
        return check(self.key(name), self.data[name])

    def whole_number(self, name: str, default: int, low: int, high: int) -> int:
        return whole_number(self.key(name), self.data.get(name, default), low, high)

    def number(self, name: str, default: float, low: float, high: float) -> float:
        return number(self.key(name), self.data.get(name, default), low, high)

    def flag(self, name: str, default: bool, *, words: bool = False) -> bool:
        return flag(self.key(name), self.data.get(name, default), words=words)

    def choice(self, name: str, default: T, choices: Iterable[T], *, fold: bool = False, what: str | None = None) -> T:
        return choice(self.key(name), self.data.get(name, default), choices, fold=fold, what=what)

    def text(self, name: str, default: str) -> str:
        return text(self.key(name), self.data.get(name, default))

    def table(self, name: str, *, known: Iterable[str] | None = None) -> Section:
        """The sub-table ``name`` (empty when absent)."""
        return Section(self.data.get(name, {}), self.key(name), known=known)


# -- text that people read ------------------------------------------------------------------------------------

# the control characters (Unicode category Cc: U+0000-001F, U+007F-009F) and the bidirectional embeddings,
# overrides and isolates (they reorder what a phone shows: a name could read as another)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_CONTROL_BUT_LINES = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def control_character(value: str, *, lines: bool = False) -> str | None:
    """The first control character in `value` (as ``U+0007``), or None when it is plain text.

    ``lines``: tabs and line breaks are allowed (a file's text); one line of text (a name) takes neither.
    The one check for every text field: names, the box's cards, the page's bodies (docs/web.md).
    """
    found = (_CONTROL_BUT_LINES if lines else _CONTROL).search(value)
    return None if found is None else f"U+{ord(found.group()):04X}"


def plain_text(key: str, value: str, error: type[CompanionError] = ConfigError) -> str:
    """`value` when it holds no control character; else `error` naming `key` and the character."""
    found = control_character(value)
    if found is not None:
        raise error(f"{key}: must be plain text, with no control characters (it holds {found}).")
    return value


# -- seeds ---------------------------------------------------------------------------------------------------

SEED_MAX = 2**63 - 1  # a seed is kept in SQLite's whole numbers (and the JSON of the page)
SEED_TEXT_MAX = 64  # a seed may be a short text too ("tuesday"): it is hashed by random.Random


def seed(value: Any) -> int | str:
    """A game's seed, checked alike for every game: a whole number 0 to 2^63-1, or a short plain text.

    BadCommand otherwise (the rules engines' setups call this; the page and the command line reach them).
    """
    if isinstance(value, str):
        if 1 <= len(value) <= SEED_TEXT_MAX and control_character(value) is None:
            return value
    elif isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= SEED_MAX:
        return value
    raise BadCommand(
        f"the seed must be a whole number 0 to {SEED_MAX} (or a text of 1 to {SEED_TEXT_MAX} "
        f"letters), not {str(value)[:40]!r}."
    )
