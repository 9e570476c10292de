"""Keeping the table going when a part is unplugged.

Each part (servo, OLED, each button, buzzer, LED) is opened and used through a `Part`.
When it fails — an OLED that stops answering (errno 121), a pin already in use, a
servo back end that is missing — the part logs one clear warning, closes what it
had, and tries again every `retry_s` seconds (by the injected clock). The rest of the
companion never sees the exception.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from companion.errors import HardwareError

log = logging.getLogger("hardware")

T = TypeVar("T")
R = TypeVar("R")


def fault_types() -> tuple[type[BaseException], ...]:
    """The exceptions that mean "this part is not working" (as opposed to a bug)."""
    types: list[type[BaseException]] = [OSError, HardwareError]
    try:
        from gpiozero.exc import GPIOZeroError

        types.append(GPIOZeroError)
    except ImportError:  # pragma: no cover - gpiozero is a dependency
        pass
    try:
        import luma.core.error

        types.append(luma.core.error.Error)
    except ImportError:  # pragma: no cover
        pass
    return tuple(types)


def describe(exc: BaseException) -> str:
    """A readable message for a fault, with what to do for the usual ones."""
    name = type(exc).__name__
    text = str(exc) or name
    if isinstance(exc, HardwareError):
        return text
    if name in ("GPIOPinInUse", "PinInvalidState"):
        return f"the pin is already in use ({text}); stop the other program or part using it, or choose another pin"
    if getattr(exc, "errno", None) == 121:
        return f"the device does not answer (errno 121, remote I/O error): check its wiring ({text})"
    return f"{name}: {text}"


class Part(Generic[T]):
    """One piece of hardware, opened lazily, failed softly and retried."""

    def __init__(
        self,
        name: str,
        opener: Callable[[], T] | None,
        *,
        now: Callable[[], float],
        retry_s: float,
        closer: Callable[[T], None] | None = None,
        on_open: Callable[[T], None] | None = None,
        describe_fault: Callable[[BaseException], str] = describe,
        off_reason: str = "not configured",
    ) -> None:
        self.name = name
        self._opener = opener
        self._closer = closer
        self._on_open = on_open
        self._describe = describe_fault
        self._now = now
        self.retry_s = retry_s
        self.device: T | None = None
        self.message = off_reason if opener is None else "not opened yet"
        self.failures = 0
        self.next_retry = float("-inf")
        self._lock = threading.RLock()
        self._faults = fault_types()

    @property
    def is_configured(self) -> bool:
        return self._opener is not None

    @property
    def is_found(self) -> bool:
        return self.device is not None

    def open(self) -> bool:
        """Open now (whatever the retry timer says); True when the part works."""
        with self._lock:
            if self.device is not None or self._opener is None:
                return self.device is not None
            try:
                device = self._opener()
            except self._faults as exc:
                self._failed(exc, opening=True)
                return False
            self.device = device
            was_failing = self.failures > 0
            self.message = "ok"
            if self._on_open is not None:
                try:
                    self._on_open(device)
                except self._faults as exc:
                    self._failed(exc, opening=True)
                    return False
            if was_failing:
                log.warning("%s is back; carrying on with it", self.name)
            self.failures = 0
            return True

    def ensure(self) -> bool:
        """True when the part is usable; reopens it when a retry is due."""
        with self._lock:
            if self.device is not None:
                return True
            if self._opener is None or self._now() < self.next_retry:
                return False
            return self.open()

    def run(self, fn: Callable[[T], R]) -> R | None:
        """Call `fn(device)`; a fault marks the part missing and returns None."""
        with self._lock:
            if not self.ensure():
                return None
            assert self.device is not None
            try:
                return fn(self.device)
            except self._faults as exc:
                self._failed(exc, opening=False)
                return None

    def fail(self, exc: BaseException) -> None:
        """Report a fault noticed elsewhere (for example in a background pattern)."""
        with self._lock:
            self._failed(exc, opening=False)

    def _failed(self, exc: BaseException, opening: bool) -> None:
        device, self.device = self.device, None
        if device is not None and self._closer is not None:
            try:
                self._closer(device)
            except Exception:  # closing a broken part may fail too; it is gone either way
                log.debug("closing %s after a fault failed", self.name, exc_info=True)
        self.message = self._describe(exc)
        self.next_retry = self._now() + self.retry_s
        self.failures += 1
        if self.failures == 1:
            verb = "cannot be opened" if opening else "stopped working"
            log.warning(
                "%s %s: %s. Retrying every %g s; the game carries on without it.",
                self.name,
                verb,
                self.message,
                self.retry_s,
            )
        else:
            log.debug("%s still missing (%d tries): %s", self.name, self.failures, self.message)

    def status(self) -> dict[str, Any]:
        return {"found": self.device is not None, "configured": self.is_configured, "message": self.message}

    def close(self) -> None:
        with self._lock:
            device, self.device = self.device, None
            if device is not None and self._closer is not None:
                try:
                    self._closer(device)
                except self._faults as exc:
                    log.warning("%s did not close cleanly: %s", self.name, self._describe(exc))
            self._opener = None
            self.message = "closed"
