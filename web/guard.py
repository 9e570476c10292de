"""Checks every request passes before an endpoint sees it, and the proxy's forwarded address.

- `ForwardedFor`: behind a reverse proxy listed in `trusted_proxies`, the phone's address is the
  last address of X-Forwarded-For that is not a trusted proxy (and X-Forwarded-Proto tells
  http from https). From anyone else the forwarded headers are removed unread, so no phone can
  choose the address its wrong guesses are counted against.
- `check_input`: what no endpoint can take is refused with 400 before it runs, so a malformed
  request never becomes a 500 and never reaches the game: a JSON body nested deeper than
  `MAX_DEPTH`, numbers longer than `MAX_DIGITS` digits (in the body or the address), text that is
  not valid Unicode (a body that is not UTF-8, a lone surrogate such as "\\ud800"), and a
  `Last-Event-ID` that is not an event number.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
from collections.abc import Callable, Iterable
from typing import Any

from flask import request

from companion.validate import control_character
from web.errors import Refused

log = logging.getLogger("web.guard")
MAX_DEPTH = 32  # JSON nesting (the API's bodies are 3 deep at most)
MAX_DIGITS = 19  # a number: 2**63 - 1 (the largest seed) has 19 digits
MAX_QUERY = 2048  # characters of the query string
EVENT_ID_MAX = 2**63 - 1  # SQLite's largest integer

FORWARDED = (
    "HTTP_FORWARDED",
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "HTTP_X_FORWARDED_BY",
    "HTTP_X_REAL_IP",
)

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


class ForwardedFor:
    """WSGI middleware: REMOTE_ADDR from X-Forwarded-For, only when the peer is a trusted proxy."""

    def __init__(self, app: Callable[..., Any], trusted: Iterable[str]) -> None:
        self.app = app
        self.trusted = frozenset(trusted)
        self.warned = False

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if self.trusted and environ.get("REMOTE_ADDR") in self.trusted:
            chain = [part.strip() for part in str(environ.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
            for address in reversed([part for part in chain if part]):
                if address in self.trusted:
                    continue
                try:
                    environ["REMOTE_ADDR"] = str(ipaddress.ip_address(address))
                except ValueError:
                    pass  # a proxy passes on whatever the phone sent before its own entry: stop here
                break
            proto = str(environ.get("HTTP_X_FORWARDED_PROTO", "")).split(",")[-1].strip().lower()
            if proto in ("http", "https"):
                environ["wsgi.url_scheme"] = proto
        elif not self.warned and "HTTP_X_FORWARDED_FOR" in environ:
            self.warned = True
            log.warning(
                "a request from %s names another address in X-Forwarded-For, which is ignored. If the companion "
                "is behind a reverse proxy, list the proxy's address under [web] trusted_proxies; otherwise every "
                "phone counts as that one address (one connection limit, one limit of wrong PINs for all).",
                environ.get("REMOTE_ADDR"),
            )
        for key in FORWARDED:
            environ.pop(key, None)
        return self.app(environ, start_response)


def _refuse_number(text: str) -> Any:
    digits = text.lstrip("-")
    if len(digits) > MAX_DIGITS:
        raise Refused(400, f"a number in the body has {len(digits)} digits; numbers have at most {MAX_DIGITS}.")
    return int(text)


def _refuse_float(text: str) -> float:
    if len(text) > 32:
        raise Refused(400, f"a number in the body is {len(text)} characters long; send numbers of at most 32.")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise Refused(400, f"the number {text} is too large.")
    return value


def _refuse_constant(text: str) -> Any:
    raise Refused(400, f"{text} is not a number JSON allows; send a plain number.")


def _valid_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_strings(value: Any) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not _valid_text(item):
                raise Refused(400, "the body holds text that is not valid Unicode (a lone surrogate such as \\ud800).")
            found = control_character(item, lines=True)
            if found is not None:
                raise Refused(400, f"the body holds a control character ({found}); send plain text.")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def json_depth(text: str) -> int:
    """How deeply `text` nests arrays and objects (strings, and the brackets in them, skipped)."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def check_body(raw: bytes) -> None:
    """Refuse (400) a JSON body that no endpoint can take; a body that is not JSON at all is the endpoint's to refuse."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused(400, f"the body is not UTF-8 text (byte {exc.start}); send JSON in UTF-8.") from None
    depth = json_depth(text)
    if depth > MAX_DEPTH:
        raise Refused(400, f"the body nests {depth} deep; the API's bodies nest {MAX_DEPTH} deep at most.")
    try:
        data = json.loads(text, parse_int=_refuse_number, parse_float=_refuse_float, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        return  # not JSON: the endpoint says what it expects
    _check_strings(data)


def check_event_id(raw: str | None) -> None:
    if raw is None or raw == "":
        return
    if raw.startswith("-") and raw[1:].isascii() and raw[1:].isdigit():
        raise Refused(400, "Last-Event-ID must not be negative: it is the number of the last event the page saw.")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > MAX_DIGITS or int(raw) > EVENT_ID_MAX:
        shown = raw if len(raw) <= 24 else raw[:20] + "..."
        raise Refused(400, f"Last-Event-ID must be an event number (0 to {EVENT_ID_MAX}), not {shown!r}.")


def check_input() -> None:
    """Flask before_request: refuse what no endpoint can take (400), before any endpoint runs."""
    check_event_id(request.headers.get("Last-Event-ID"))
    check_event_id(request.args.get("last_event_id"))
    query = request.query_string
    if len(query) > MAX_QUERY:
        raise Refused(400, f"the address is too long ({len(query)} characters after the ?; {MAX_QUERY} at most).")
    for key, value in request.args.items(multi=True):
        if _LONG_NUMBER.search(value) or _LONG_NUMBER.search(key):
            raise Refused(400, f"{key}: numbers in the address have at most {MAX_DIGITS} digits.")
    if request.method in ("POST", "PUT", "PATCH", "DELETE") and request.is_json:
        check_body(request.get_data(cache=True))
