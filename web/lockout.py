"""Locks an attacker cannot turn against the table: the host at the table signs in while guesses are held off.

Wrong host PINs are limited per address (5, then a wait of 30 s doubling to an hour) and for all addresses
together (20 in 10 minutes). The second limit is what bounds an attacker with many addresses, and it
would also keep the host out, so while it holds, a sign-in passes it with a **sign-in code shown at the
table**: six digits on the companion's screen (and in its log), made when a right-looking sign-in meets the
lock. Only someone who can see the companion can type it; the per-address limit still holds for them, a
wrong code counts as a wrong guess of that address, and each code signs in once. docs/web.md, "Wrong
guesses", gives the numbers and why the join code needs no such lock.

    gate = SignInGate(throttle, now, show=table.show_error)
    gate.check(who, table_code)      # Refused(429/403) with the way in, or the attempt is booked
    ...                              # then throttle.failed(who) / throttle.succeeded(who) as before
"""

from __future__ import annotations

import hmac
import logging
import secrets
import threading
from collections.abc import Callable
from typing import Any

from web.errors import Refused

log = logging.getLogger("web.lockout")

CODE_DIGITS = 6
CODE_LIFE = 600.0  # s a sign-in code stays good
SHOW_FOR = 45.0  # s the companion's screen shows it
SHOW_EVERY = 120.0  # s at least between two showings (a script asking again cannot keep the game off the screen)


class SignInGate:
    """The host PIN's limits, with the sign-in code that lets the table past the limit for everyone."""

    def __init__(self, throttle: Any, now: Callable[[], float], show: Callable[[str, str], None] | None = None) -> None:
        self.throttle = throttle
        self._now = now
        self._show = show
        self._lock = threading.Lock()
        self._code: str | None = None
        self._made = 0.0
        self._shown = float("-inf")

    def check(self, who: str, table_code: str | None) -> None:
        """Book one PIN attempt of `who`, or refuse it saying how to get in (429 wait, 403 a wrong code)."""
        if self.throttle.wait_left(who) <= 0:  # within both limits: booked, the code (if any) is not needed
            return
        own = self.throttle.wait_left(who, past_cap=True, book=False)
        if own > 0:
            raise Refused(429, f"too many wrong PINs from this phone; wait {int(own) + 1} s and try again.")
        # only the limit for all addresses together holds: the table's code lets one attempt past it
        if table_code is None:
            self.offer()
            raise Refused(
                429,
                "too many wrong PINs were tried on this network, so signing in needs the code on "
                "the companion's screen as well: type its six digits in the new field and sign in again.",
                table_code=True,
            )
        right = self._take(table_code)
        self.throttle.wait_left(who, past_cap=True)  # booked under the address's own limit
        if not right:
            self.throttle.failed(who)  # counted like a wrong PIN: the code cannot be guessed quicker than the PIN
            self.offer()
            raise Refused(
                403,
                "that sign-in code is not the one on the companion's screen; type the six digits "
                "it shows now (a new code comes every ten minutes).",
                table_code=True,
            )

    def offer(self) -> None:
        """Make a sign-in code if none is good now, and show it at the table (not more than once in SHOW_EVERY)."""
        with self._lock:
            now = self._now()
            if self._code is None or now - self._made >= CODE_LIFE:
                self._code = f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"
                self._made = now
                self._shown = float("-inf")
            if now - self._shown < SHOW_EVERY:
                return
            self._shown = now
            code = self._code
        log.warning("host sign-in code (wrong PINs hold sign-in for everyone): %s", code)
        if self._show is not None:
            try:
                self._show("Host sign-in", f"Code {code}")
            except Exception:  # the log has it; the display is a nicety here
                log.exception("the sign-in code could not be shown")

    def _take(self, given: str) -> bool:
        with self._lock:
            code = self._code
            if code is None or self._now() - self._made >= CODE_LIFE:
                return False
            if not hmac.compare_digest(code.encode(), given.strip().encode()):
                return False
            self._code = None  # one sign-in per code
            return True
