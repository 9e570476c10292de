"""Settings of the phone view, and the small secrets it keeps in the data directory.

`WebSettings` is what `create_app` needs to know; `WebStore` owns `web.json` in the data
directory: the session signing key, the join code (made at first start unless the
configuration sets one) and the host PIN, stored as a salted scrypt hash, never in clear.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from companion.errors import AuthError, ConfigError

# No 0/O, 1/I/L: the code is read aloud and typed on phones.
JOIN_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
PIN_MIN, PIN_MAX = 4, 12
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1


@dataclass(frozen=True)
class WebSettings:
    """What the phone view needs; built from the `[web]` configuration by `companion serve`."""

    data_dir: Path
    join_code: str | None = None      # None: made at first start and kept in data_dir/web.json
    host_pin: str | None = None       # a PIN from the configuration; otherwise chosen on the page
    public_url: str | None = None     # e.g. "http://skeptics.local:8080": join links and the Origin check
    heartbeat: float = 15.0           # seconds between SSE comment heartbeats
    max_streams: int = 40             # event streams at once; keep below the server's threads
    secure_cookies: bool = False      # True when the page is served over https (a reverse proxy)
    poll_fallback: float = 20.0       # the page polls the state when the stream was silent this long
    now: Callable[[], float] = field(default=time.time)

    @classmethod
    def coerce(cls, value: WebSettings | Mapping[str, Any]) -> WebSettings:
        """Accept a `WebSettings` or a mapping with the same keys (unknown keys are an error)."""
        if isinstance(value, WebSettings):
            return value
        if not isinstance(value, Mapping):
            raise ConfigError("web settings must be a WebSettings or a mapping with data_dir, join_code ...")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(value) - known)
        if unknown:
            raise ConfigError(f"unknown web setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        if "data_dir" not in value:
            raise ConfigError("web settings need data_dir (the directory for web.json)")
        kwargs = dict(value)
        kwargs["data_dir"] = Path(kwargs["data_dir"])
        return cls(**kwargs)


def _hash_pin(pin: str, salt: bytes) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32)


def check_pin_format(pin: object) -> str:
    if not isinstance(pin, str) or not pin.isdigit() or not PIN_MIN <= len(pin) <= PIN_MAX:
        raise AuthError(f"the host PIN must be {PIN_MIN} to {PIN_MAX} digits; choose another one.")
    return pin


def normalise_join_code(code: str) -> str:
    return "".join(code.split()).upper()


class WebStore:
    """`web.json` in the data directory; every write is atomic (temp file + rename)."""

    def __init__(self, settings: WebSettings) -> None:
        self.path = Path(settings.data_dir) / "web.json"
        self._lock = threading.Lock()
        self._data: dict[str, Any] = self._load()
        changed = False
        if "secret_key" not in self._data:
            self._data["secret_key"] = secrets.token_hex(32)
            changed = True
        if settings.join_code:
            code = normalise_join_code(settings.join_code)
            if self._data.get("join_code") != code:
                self._data["join_code"] = code
                changed = True
        elif "join_code" not in self._data:
            self._data["join_code"] = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(6))
            changed = True
        if settings.host_pin is not None:
            pin = check_pin_format(settings.host_pin)
            if not self._pin_matches(pin):
                self._set_pin_locked(pin)
                changed = True
        if changed:
            self._save()

    def _load(self) -> dict[str, Any]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise ConfigError(f"cannot read {self.path}: {exc}. Check the data directory's permissions.") from exc
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ValueError("not an object")
        except ValueError as exc:
            raise ConfigError(f"{self.path} is damaged ({exc}); delete it to make a new join code and PIN.") from exc
        return data

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".web-", suffix=".json", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(self._data, handle, indent=1, sort_keys=True)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @property
    def secret_key(self) -> str:
        return str(self._data["secret_key"])

    @property
    def join_code(self) -> str:
        return str(self._data["join_code"])

    def join_tag(self) -> str:
        """A tag of the current join code kept in viewers' cookies: a new code logs everyone out."""
        return hmac.new(self.secret_key.encode(), self.join_code.encode(), "sha256").hexdigest()[:16]

    def join_code_matches(self, code: str) -> bool:
        return hmac.compare_digest(normalise_join_code(code).encode(), self.join_code.encode())

    @property
    def pin_set(self) -> bool:
        return "pin" in self._data

    @property
    def pin_epoch(self) -> int:
        return int(self._data.get("pin_epoch", 0))

    def _pin_matches(self, pin: str) -> bool:
        stored = self._data.get("pin")
        if not stored:
            return False
        digest = _hash_pin(pin, bytes.fromhex(stored["salt"]))
        return hmac.compare_digest(digest.hex(), stored["hash"])

    def _set_pin_locked(self, pin: str) -> None:
        salt = secrets.token_bytes(16)
        self._data["pin"] = {"salt": salt.hex(), "hash": _hash_pin(pin, salt).hex(), "kdf": "scrypt"}
        self._data["pin_epoch"] = self.pin_epoch + 1

    def check_pin(self, pin: str) -> bool:
        with self._lock:
            return self._pin_matches(pin)

    def set_first_pin(self, pin: str) -> None:
        """Choose the host PIN at first start; refused once a PIN exists."""
        check_pin_format(pin)
        with self._lock:
            if self.pin_set:
                raise AuthError("a host PIN is already set; sign in with it (or delete web.json to start over).")
            self._set_pin_locked(pin)
            self._save()

    def change_pin(self, pin: str) -> None:
        """A new PIN signs every host out (their cookies carry the old epoch)."""
        check_pin_format(pin)
        with self._lock:
            self._set_pin_locked(pin)
            self._save()


class Throttle:
    """Slows PIN guessing: after `free` wrong PINs from one address, it must wait, doubling each time."""

    def __init__(self, now: Callable[[], float], free: int = 5, base: float = 30.0) -> None:
        self._now = now
        self._free = free
        self._base = base
        self._failures: dict[str, int] = {}
        self._until: dict[str, float] = {}
        self._lock = threading.Lock()

    def wait_left(self, who: str) -> float:
        with self._lock:
            return max(0.0, self._until.get(who, 0.0) - self._now())

    def failed(self, who: str) -> None:
        with self._lock:
            count = self._failures.get(who, 0) + 1
            self._failures[who] = count
            if count >= self._free:
                self._until[who] = self._now() + self._base * 2 ** (count - self._free)

    def succeeded(self, who: str) -> None:
        with self._lock:
            self._failures.pop(who, None)
            self._until.pop(who, None)
