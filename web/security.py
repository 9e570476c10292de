"""Who may see and who may act: the join code (viewers), the host PIN (host), and CSRF defences.

- A viewer is anyone whose session cookie carries the tag of the current join code (set by
  opening the join link once) and a phone id the server still knows (`web.sessions`: the host
  can remove a phone), or a script sending the code in the `X-Join-Code` header.
- The host is a viewer whose session carries the current PIN epoch (set by signing in with the
  PIN; a new PIN signs every host out) and whose phone id the server marks as the host's (signing
  out, or the host removing the phone, ends it on the server: a copied cookie stops working).
- Every POST must come from the page itself: the `X-CSRF-Token` header must equal the token in
  the session, the `Origin` (when sent) must be the companion's own, and `Sec-Fetch-Site` (when
  sent) must be same-origin. The session cookie is SameSite=Strict and HttpOnly.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import request, session

from web.context import context as _ctx
from web.errors import Refused

__all__ = ["Refused", "check_post", "csrf_token", "host_required", "is_host", "is_viewer", "viewer_required"]

F = TypeVar("F", bound=Callable[..., Any])


def is_viewer() -> bool:
    store = _ctx().store
    tag = session.get("j")
    if isinstance(tag, str) and hmac.compare_digest(tag, store.join_tag()):
        phone = session.get("s")
        # No phone id yet: the request that joined (the id is given out as it ends), or a cookie from before ids.
        if phone is None or _ctx().phones.get(phone) is not None:
            return True
    code = request.headers.get("X-Join-Code")
    if not code:
        return False
    throttle, who = _ctx().join_throttle, request.remote_addr or "?"
    if throttle.wait_left(who) > 0:
        return False
    if store.join_code_matches(code):
        throttle.succeeded(who)  # the attempt was booked by wait_left: give it back
        return True
    throttle.failed(who)
    return False


def is_host() -> bool:
    return is_viewer() and _signed_in_as_host()


def _signed_in_as_host() -> bool:
    """The session carries the current PIN epoch (and a joined viewer's tag); `is_viewer` is checked apart."""
    ctx = _ctx()
    store = ctx.store
    if not (store.pin_set and session.get("h") == store.pin_epoch and session.get("j")):
        return False
    phone = ctx.phones.get(session.get("s"))
    return phone is not None and phone["host"] is True


def csrf_token() -> str:
    token = session.get("c")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(18)
        session["c"] = token
    return token


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def own_names() -> frozenset[str]:
    """The names this machine answers to by itself: localhost, its host name, and that name on mDNS (.local)."""
    name = socket.gethostname().lower()
    return frozenset({"localhost", name, f"{name}.local"})


def is_own_origin(origin: str, host_url: str, public_url: str | None) -> bool:
    """Whether a request's Origin is the companion's own page.

    Its own addresses: the configured public address, and the address the phone reached the companion at
    when that is an IP address (a phone can only reach this server at one of its own) or one of this
    machine's own names. A name someone else's DNS points here (DNS rebinding: Host and Origin both say
    "evil.example") is not one of them, so it is refused.
    """
    given = origin.lower()
    if public_url and given == _origin(public_url):
        return True
    if given != _origin(host_url):
        return False
    host = (urlsplit(given).hostname or "").strip("[]")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return host in own_names()
    return True


def check_post() -> None:
    """Refuse (403) a state-changing request that did not come from the companion's own page."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        raise Refused(403, f"refused a request sent from another site ({site}); use the companion's own page.")
    origin = request.headers.get("Origin")
    if origin is not None and not is_own_origin(origin, request.host_url, _ctx().settings.public_url):
        raise Refused(
            403,
            f"refused a request from the page at {origin[:80]}; only the companion's own page may act "
            "(open it at the address the companion shows, or set web.public_url).",
        )
    expected = session.get("c")
    given = request.headers.get("X-CSRF-Token", "")
    if not isinstance(expected, str) or not given or not hmac.compare_digest(expected, given):
        raise Refused(
            403,
            "the request lacks this page's security token (X-CSRF-Token); reload the page and try again.",
        )


def viewer_required(fn: F) -> F:
    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not is_viewer():
            raise Refused(403, "open the join link (or enter the join code shown on the companion) to see the game.")
        return fn(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def host_required(fn: F) -> F:
    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not is_viewer():
            raise Refused(403, "open the join link (or enter the join code shown on the companion) first.")
        if not _signed_in_as_host():
            raise Refused(403, "only the host may do this; sign in with the host PIN on the Host tab.")
        return fn(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
