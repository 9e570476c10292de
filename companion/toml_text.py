"""Reading a TOML text someone else may have written, in bounded time and memory.

Pack files, box files and the configuration file are read by Python's ``tomllib``, which is quick on the
files the companion ships but not on every file. The cost is tomllib's own (``tomllib.loads`` alone, not the
packs' checks after it): a dotted key of N parts (``a.a.a... = 1``) costs it time and memory in N^2, as it
keeps every prefix of the key (2,000 parts 0.04 s, 4,000 0.14 s, 8,000 0.6 s here; issue 25 measured
16,000 at 10.7 s and 30,000 at 8.8 GB), and brackets 500 deep end in a RecursionError. Box files are
shared between owners, so the text is scanned first, in one pass that costs as much as reading it, and
refused with the line where it crosses a limit::

    doc = read_toml("ghosts.toml", text)          # dict, or PackError: "ghosts.toml: line 3: ..."
    check_toml("companion.toml", text, error=ConfigError)

The limits (docs/packs.md) are far above any real pack (the largest bundled file is 5 KB with 154 keys,
no dotted key of more than 2 parts, brackets 3 deep); within them the costliest file takes tomllib 0.44 s.
A parse in a child process under a memory limit would bound faults nobody knows of yet too, but it costs
a process start for every edit on the page (0.05 s here, several times that on a Pi), and the two known
faults are exactly what the scan counts. (tomlkit, which the box's edits use, stops at 100 levels of
nesting or of a key's parts by itself; the scan goes first there too.)
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from companion.errors import CompanionError, PackError

__all__ = ["MAX_BYTES", "MAX_KEYS", "MAX_KEY_PARTS", "MAX_DEPTH", "check_toml", "read_toml"]

MAX_BYTES = 256 * 1024  # one file's text
MAX_KEYS = 5000  # keys (key = value lines and the keys of inline tables) in one file
MAX_KEY_PARTS = 16  # parts of one dotted key or table header (a.b.c is 3)
MAX_DEPTH = 16  # arrays and inline tables inside each other

_CLOSERS = {"[": "]", "{": "}"}


def check_toml(source: str, text: str, *, error: type[CompanionError] = PackError, docs: str = "docs/packs.md") -> None:
    """Raise `error` ("SOURCE: line N: ...") when `text` crosses one of the limits; costs one pass over it.

    The scan follows TOML's strings and comments (what is inside them is not counted), so it counts what
    ``tomllib`` will read as keys, dots between key parts and brackets.
    """
    if len(text) > MAX_BYTES:
        raise error(
            f"{source}: is {len(text) // 1024} KB; a pack file may be at most {MAX_BYTES // 1024} KB. "
            f"Use the file that the companion saved, or see {docs}."
        )
    line = 1
    keys = 0
    dots = 0  # dots in the key being read
    depth = 0
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            dots = 0
            i += 1
        elif c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif c in "\"'":
            i, line = _skip_string(text, i, line)
        elif c == ".":
            dots += 1
            if dots >= MAX_KEY_PARTS:
                raise error(
                    f"{source}: line {line}: a key of more than {MAX_KEY_PARTS} parts (a.b.c...); "
                    f"no pack has one. Fix the file or use the one the companion saved ({docs})."
                )
            i += 1
        elif c == "=":
            keys += 1
            dots = 0
            if keys > MAX_KEYS:
                raise error(
                    f"{source}: line {line}: more than {MAX_KEYS} keys in one file; no pack has so many. "
                    f"Use the file that the companion saved, or see {docs}."
                )
            i += 1
        elif c in "[{":
            depth += 1
            dots = 0
            if depth > MAX_DEPTH:
                raise error(
                    f"{source}: line {line}: lists or tables nested more than {MAX_DEPTH} deep; no pack "
                    f"needs that. Fix the file or use the one the companion saved ({docs})."
                )
            i += 1
        elif c in "]}":
            depth = max(0, depth - 1)
            dots = 0
            i += 1
        else:
            if c == ",":
                dots = 0
            i += 1


_STOPS = {'"': re.compile(r'["\\\n]'), "'": re.compile(r"['\n]")}  # what ends or escapes in a string


def _skip_string(text: str, i: int, line: int) -> tuple[int, int]:
    """The index after the string that starts at `i` (and the line it ends on), as TOML reads strings."""
    quote = text[i]
    stops = _STOPS[quote]
    n = len(text)
    multi = text.startswith(quote * 3, i)  # a multi-line string: ends at three quotes (up to two more are its text)
    j = i + 3 if multi else i + 1
    while True:
        found = stops.search(text, j)
        if found is None:
            return n, line
        j = found.start()
        c = text[j]
        if c == "\n":
            if not multi:
                return j, line  # an unfinished string: tomllib says so; the newline is counted by the caller
            line += 1
            j += 1
        elif c == "\\":
            if j + 1 < n and text[j + 1] == "\n":
                line += 1
            j += 2
        elif not multi:
            return j + 1, line
        elif text.startswith(quote * 3, j):
            k = j + 3
            while k < n and k < j + 5 and text[k] == quote:
                k += 1
            return k, line
        else:
            j += 1


def read_toml(
    source: str, text: str, *, error: type[CompanionError] = PackError, docs: str = "docs/packs.md"
) -> dict[str, Any]:
    """The TOML document in `text`, checked against the limits first; `error` names `source` and the line."""
    check_toml(source, text, error=error, docs=docs)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{source}: is not valid TOML ({exc}). Fix the file (see {docs}).") from None
