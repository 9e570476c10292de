"""Settings of the phone view, and the small secrets it keeps in the data directory.

`WebSettings` is what `create_app` needs to know; `WebStore` owns `web.json` in the data
directory: the session signing key, the join code (made at first start unless the
configuration sets one) and the host PIN, stored as a salted scrypt hash, never in clear.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from companion.errors import AuthError, CompanionError, ConfigError
from companion.paths import write_atomic

# No 0/O, 1/I/L: the code is read aloud and typed on phones.
JOIN_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
PIN_MIN, PIN_MAX = 4, 12
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1


@dataclass(frozen=True)
class WebSettings:
    """What the phone view needs; built from the `[web]` configuration by `companion serve`."""

    data_dir: Path
    join_code: str | None = None  # None: made at first start and kept in data_dir/web.json
    host_pin: str | None = None  # a PIN from the configuration; otherwise chosen on the page
    public_url: str | None = None  # e.g. "http://skeptics.local:8080": join links and the Origin check
    heartbeat: float = 15.0  # seconds between SSE comment heartbeats
    max_streams: int = 40  # event streams at once; keep below the server's threads
    secure_cookies: bool = False  # True when the page is served over https (a reverse proxy)
    poll_fallback: float = 20.0  # the page polls the state when the stream was silent this long
    # Addresses of reverse proxies (e.g. ["127.0.0.1"] for a Caddy on the Pi) whose X-Forwarded-For names
    # the phone; set only in the configuration. Without it every forwarded header is ignored and removed.
    trusted_proxies: tuple[str, ...] = ()
    now: Callable[[], float] = field(default=time.time)

    def __post_init__(self) -> None:
        proxies = self.trusted_proxies
        if isinstance(proxies, str) or not isinstance(proxies, (list, tuple)):
            raise ConfigError(f'web.trusted_proxies: expected a list of addresses like ["127.0.0.1"], got {proxies!r}')
        checked = []
        for item in proxies:
            try:
                checked.append(str(ipaddress.ip_address(str(item).strip())))
            except ValueError:
                raise ConfigError(
                    f"web.trusted_proxies: {item!r} is not an IP address; list the proxies' addresses, "
                    'like ["127.0.0.1", "::1"]'
                ) from None
        object.__setattr__(self, "trusted_proxies", tuple(checked))
        if self.join_code is not None:
            why = join_code_problem(self.join_code)
            if why:
                raise ConfigError(f"web.join_code: {why}; or leave it out to have one made at the first start.")
        if self.host_pin is not None and not pin_format_ok(self.host_pin):
            raise ConfigError(
                f'web.host_pin: expected {PIN_MIN} to {PIN_MAX} digits 0-9 in quotes, like "4817"; '
                "or leave it out and choose the PIN on the page."
            )

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


_hasher: ThreadPoolExecutor | None = None
_hasher_lock = threading.Lock()


def _scrypt(pin: str, salt: bytes) -> bytes:
    return hashlib.scrypt(pin.encode("ascii"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32)


def _hash_pin(pin: str, salt: bytes) -> bytes:
    """scrypt on one thread of its own, one PIN at a time.

    Each hash takes 16 MiB; hashed on many worker threads, the C allocator keeps a 16 MiB arena per
    thread after the hash is done (113 -> 556 MB seen). One hashing thread reuses the same memory.
    """
    global _hasher
    with _hasher_lock:
        if _hasher is None:
            _hasher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pin-hash")
        hasher = _hasher
    return hasher.submit(_scrypt, pin, salt).result()


def pin_format_ok(pin: object) -> bool:
    """4 to 12 ASCII digits (what the page's keypad types; "１２３４" is not a PIN)."""
    return isinstance(pin, str) and pin.isascii() and pin.isdigit() and PIN_MIN <= len(pin) <= PIN_MAX


def check_pin_format(pin: object) -> str:
    if not pin_format_ok(pin):
        raise AuthError(f"the host PIN must be {PIN_MIN} to {PIN_MAX} digits 0-9; choose another one.")
    assert isinstance(pin, str)
    return pin


def normalise_join_code(code: str) -> str:
    return "".join(code.split()).upper()


JOIN_MIN, JOIN_MAX = 6, 12


def join_code_problem(code: object) -> str | None:
    """Why `code` cannot be a join code (None when it can): 6 to 12 ASCII letters and digits."""
    if not isinstance(code, str):
        return f"expected {JOIN_MIN} to {JOIN_MAX} letters and digits, got {code!r}"
    plain = normalise_join_code(code)
    if not (plain.isascii() and plain.isalnum() and JOIN_MIN <= len(plain) <= JOIN_MAX):
        return f"expected {JOIN_MIN} to {JOIN_MAX} letters and digits (A-Z, 0-9), got {code!r}"
    return None


class SaveError(CompanionError):
    """A change could not be written to the data directory, so it was not made."""


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path` atomically, readable by the owner only (0600)."""
    write_atomic(path, text)


def _hex(value: object, length: int | None = None) -> bool:
    if not isinstance(value, str) or not value or (length is not None and len(value) != length):
        return False
    try:
        bytes.fromhex(value)
    except ValueError:
        return False
    return True


def check_web_json(data: dict[str, Any]) -> list[str]:
    """Problems of a parsed web.json, each naming its key (an empty list: all well)."""
    problems = []
    key = data.get("secret_key")
    if "secret_key" in data and not (_hex(key) and len(str(key)) >= 32):
        problems.append(f"secret_key must be at least 32 hexadecimal digits, not {key!r}")
    if "join_code" in data:
        why = join_code_problem(data["join_code"])
        if why:
            problems.append(f"join_code: {why}")
    if "pin" in data:
        pin = data["pin"]
        if not (
            isinstance(pin, dict)
            and _hex(pin.get("salt"))
            and _hex(pin.get("hash"), 64)
            and pin.get("kdf", "scrypt") == "scrypt"
        ):
            problems.append(f'pin must be {{"salt": hex, "hash": 64 hex digits, "kdf": "scrypt"}}, not {pin!r:.80}')
    if "pin_epoch" in data:
        epoch = data["pin_epoch"]
        if type(epoch) is not int or epoch < 0:
            problems.append(f"pin_epoch must be a whole number 0 or more, not {epoch!r}")
    return problems


class WebStore:
    """`web.json` in the data directory; every write is atomic (temp file + rename) and 0600.

    Save first, then switch: a change (PIN, join code) is written to the file before it takes
    effect, so a full card refuses the change and leaves the old one in force.

    A damaged web.json (not UTF-8, not JSON, a key of the wrong type) does not stop the companion:
    it is copied aside byte for byte (`web.json.damaged-<time>`), the damaged keys are made anew
    (a lost PIN or epoch also makes a new join code, so only someone who reads the companion's
    screen can choose the new PIN), and `problems` says what happened, naming each key.
    """

    def __init__(self, settings: WebSettings) -> None:
        self.path = Path(settings.data_dir) / "web.json"
        self._now = settings.now
        self._lock = threading.Lock()
        self.problems: list[str] = []
        data = self._load()
        changed = False
        if "secret_key" not in data:
            data["secret_key"] = secrets.token_hex(32)
            changed = True
        if settings.join_code:
            code = normalise_join_code(settings.join_code)
            if data.get("join_code") != code:
                data["join_code"] = code
                changed = True
        elif "join_code" not in data:
            data["join_code"] = new_join_code()
            changed = True
        if settings.host_pin is not None:
            pin = check_pin_format(settings.host_pin)
            self._data = data
            if not self._pin_matches(pin):
                data = self._with_pin(data, pin)
                changed = True
        if changed:
            try:
                self._save(data)
            except OSError as exc:
                self.problems.append(
                    f"cannot write {self.path} ({exc.strerror or exc}); the join code and PIN "
                    "last until the companion stops. Free space on the card or fix the permissions."
                )
        self._data = data

    def _load(self) -> dict[str, Any]:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            self.problems.append(
                f"cannot read {self.path} ({exc.strerror or exc}); a new join code is in use. "
                "Fix the file's permissions (it belongs to the companion's user) and restart."
            )
            return {}
        try:
            data = json.loads(raw.decode("utf-8-sig"))
        except UnicodeDecodeError as exc:
            return self._damaged(raw, {}, [f"the file is not UTF-8 text (byte {exc.start})"])
        except (ValueError, RecursionError) as exc:
            return self._damaged(raw, {}, [f"the file is not JSON ({exc})"])
        if not isinstance(data, dict):
            return self._damaged(raw, {}, [f"the file must hold a JSON object, not {type(data).__name__}"])
        problems = check_web_json(data)
        if problems:
            return self._damaged(raw, data, problems)
        return data

    def _damaged(self, raw: bytes, data: dict[str, Any], problems: list[str]) -> dict[str, Any]:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self._now()))
        kept = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        try:
            if not kept.exists():
                write_private_bytes(kept, raw)
            where = f"the damaged file is kept as {kept.name}"
        except OSError as exc:
            where = f"the damaged file could not be copied aside ({exc.strerror or exc})"
        bad = {problem.split()[0].rstrip(":") for problem in problems}
        good = {k: v for k, v in data.items() if k not in bad}
        lost_pin = "pin" in bad or not data
        if "pin" in bad:
            good.pop("pin_epoch", None)
            good.pop("join_code", None)  # a new code: only someone who reads the screen chooses the new PIN
        elif "pin_epoch" in bad:
            good["pin_epoch"] = 1  # hosts sign in again (the sessions they had are gone with the epoch)
        for problem in problems:
            self.problems.append(f"{self.path.name}: {problem}")
        self.problems.append(
            f"{self.path.name} was damaged: {where}; the damaged keys were made anew"
            + (
                " (a new join code is on the companion's screen; the first to join chooses the host PIN)."
                if lost_pin
                else "."
            )
        )
        return good

    def _save(self, data: dict[str, Any]) -> None:
        write_private(self.path, json.dumps(data, indent=1, sort_keys=True))

    def _commit(self, data: dict[str, Any]) -> None:
        """Save `data`, then make it the store's (called with the lock held)."""
        try:
            self._save(data)
        except OSError as exc:
            raise SaveError(
                f"could not save the change to {self.path} ({exc.strerror or exc}); nothing changed. "
                "Free space on the companion's card (or fix the data directory's permissions) and try again."
            ) from None
        self._data = data

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
        if not isinstance(code, str) or len(code) > 64:
            return False
        given = normalise_join_code(code).encode("utf-8", "surrogatepass")
        return hmac.compare_digest(given, self.join_code.encode())

    def set_join_code(self, code: str | None = None) -> str:
        """A new join code (a random one when `code` is None), saved before it is used; every viewer must join again."""
        new = normalise_join_code(code) if code is not None else new_join_code()
        why = join_code_problem(new)
        if why:
            raise ConfigError(f"join code: {why}")
        with self._lock:
            self._commit({**self._data, "join_code": new})
        return new

    @property
    def pin_set(self) -> bool:
        return "pin" in self._data

    @property
    def pin_epoch(self) -> int:
        return int(self._data.get("pin_epoch", 0))

    def _pin_matches(self, pin: str) -> bool:
        stored = self._data.get("pin")
        if not stored or not pin_format_ok(pin):
            return False
        digest = _hash_pin(pin, bytes.fromhex(stored["salt"]))
        return hmac.compare_digest(digest.hex(), stored["hash"])

    def _with_pin(self, data: dict[str, Any], pin: str) -> dict[str, Any]:
        salt = secrets.token_bytes(16)
        epoch = int(data.get("pin_epoch", 0)) + 1
        return {
            **data,
            "pin": {"salt": salt.hex(), "hash": _hash_pin(pin, salt).hex(), "kdf": "scrypt"},
            "pin_epoch": epoch,
        }

    def check_pin(self, pin: str) -> bool:
        """Whether `pin` is the host PIN. Not the PIN's shape (ASCII digits): False without hashing."""
        if not pin_format_ok(pin):
            return False
        with self._lock:
            return self._pin_matches(pin)

    def set_first_pin(self, pin: str) -> None:
        """Choose the host PIN at first start; refused once a PIN exists."""
        check_pin_format(pin)
        with self._lock:
            if self.pin_set:
                raise AuthError("a host PIN is already set; sign in with it (or delete web.json to start over).")
            self._commit(self._with_pin(self._data, pin))

    def change_pin(self, pin: str) -> None:
        """A new PIN signs every host out (their cookies carry the old epoch); saved before it is used."""
        check_pin_format(pin)
        with self._lock:
            self._commit(self._with_pin(self._data, pin))


def new_join_code() -> str:
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(6))


def write_private_bytes(path: Path, raw: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(raw)
        handle.flush()
        os.fsync(handle.fileno())


class Throttle:
    """Slows the guessing of a secret (the host PIN, the join code): per address and across all addresses.

    `wait_left(who)` says how long `who` must wait first. When it says 0, the attempt is booked as a
    failure at once, before the secret is checked, so guesses sent at the same moment cannot all get
    through; `succeeded(who)` gives the booking back (and forgets `who`'s failures), `failed(who)`
    keeps it and notes the failure for the host.

    - one address: `free` attempts, then a wait of `base` s, doubling with each further failure
      (at most `longest`);
    - all addresses: at most `cap` failures within `window` s; beyond that every address waits until
      the oldest failure is `window` s old (behind a proxy without `trusted_proxies`, and for a
      phone that changes its address, this is what holds);
    - at most `remember` addresses are kept (the ones idle longest are forgotten first), and the
      record of failures and lockouts for the host holds the last `keep_log` entries: memory does not
      grow with guesses;
    - with a `path`, the counters and the record survive a restart (a JSON file, 0600).
    """

    def __init__(
        self,
        now: Callable[[], float],
        free: int = 5,
        base: float = 30.0,
        *,
        cap: int | None = None,
        window: float = 600.0,
        longest: float = 3600.0,
        path: Path | None = None,
        remember: int = 256,
        keep_log: int = 50,
    ) -> None:
        self._now = now
        self._free = free
        self._base = base
        self._cap = cap
        self._window = window
        self._longest = longest
        self._path = path
        self._remember = remember
        self._entries: dict[str, list[float]] = {}  # who -> [failures, locked until, last failure]
        self._recent: deque[tuple[float, str]] = deque()  # failures within the window, oldest first
        self._log: deque[dict[str, Any]] = deque(maxlen=keep_log)
        self._lock = threading.Lock()
        self.problem: str | None = None
        self._load()

    # -- persistence -------------------------------------------------------------------------------

    def _load(self) -> None:
        if self._path is None:
            return
        try:
            data = json.loads(self._path.read_text(encoding="utf-8-sig"))
            entries = {
                str(who): [float(e[0]), float(e[1]), float(e[2])] for who, e in dict(data.get("entries", {})).items()
            }
            recent = deque((float(t), str(who)) for t, who in list(data.get("recent", [])))
            log = [dict(item) for item in list(data.get("log", []))]
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError, IndexError, KeyError, AttributeError, RecursionError) as exc:
            # Start with clean counters, but never with none at all: the overall cap is full until the window passes.
            self.problem = f"{self._path.name} could not be read ({exc}); counting wrong guesses afresh."
            now = self._now()
            if self._cap:
                self._recent = deque((now, "?") for _ in range(self._cap))
            return
        self._entries = dict(list(entries.items())[-self._remember :])
        self._recent = deque(sorted(recent)[-max(self._cap or 0, RECENT_KEPT) :])
        self._log.extend(log[-(self._log.maxlen or 0) :])

    def _save(self) -> None:
        if self._path is None:
            return
        data = {
            "entries": self._entries,
            "recent": list(self._recent),
            "log": list(self._log),
        }
        try:
            write_private(self._path, json.dumps(data))
        except OSError as exc:
            self.problem = f"cannot save {self._path.name} ({exc.strerror or exc}); the counters last until a restart."

    # -- the checks ----------------------------------------------------------------------------------

    def _expire(self, now: float) -> None:
        while self._recent and self._recent[0][0] <= now - self._window:
            self._recent.popleft()

    def _overall_wait(self, now: float) -> float:
        if self._cap is None or len(self._recent) < self._cap:
            return 0.0
        return max(0.0, self._recent[-self._cap][0] + self._window - now)

    def wait_left(self, who: str, *, past_cap: bool = False, book: bool = True) -> float:
        """Seconds `who` must wait; 0 means go ahead, and the attempt is booked as a failure already.

        ``past_cap``: the limit for all addresses together is not applied (the table's sign-in code,
        web.lockout), only `who`'s own. ``book=False`` only asks.
        """
        who = address_key(who)
        with self._lock:
            now = self._now()
            self._expire(now)
            entry = self._entries.get(who)
            wait = max(0.0, entry[1] - now) if entry else 0.0
            if not past_cap:
                wait = max(wait, self._overall_wait(now))
            if wait > 0 or not book:
                return wait
            self._book(who, now)
            return 0.0

    def _book(self, who: str, now: float) -> None:
        entry = self._entries.pop(who, None) or [0.0, 0.0, now]
        if len(self._entries) >= self._remember:
            for old in sorted(self._entries, key=lambda k: self._entries[k][2])[
                : len(self._entries) - self._remember + 1
            ]:
                del self._entries[old]
        entry[0] += 1
        entry[2] = now
        count = int(entry[0])
        if count >= self._free:
            entry[1] = now + min(self._longest, self._base * 2 ** (count - self._free))
        self._entries[who] = entry  # last in the dict: the most recent
        self._recent.append((now, who))  # counted for the host's report even where no overall cap applies
        while len(self._recent) > max(self._cap or 0, RECENT_KEPT):  # the window's failures, never fewer than the cap
            self._recent.popleft()
        # Counted in memory at once (that is what stops simultaneous guesses); written to the file by
        # failed(), so that a right code sent with every request of a script costs no write.

    def failed(self, who: str) -> None:
        """The booked attempt was wrong: noted for the host (with the lockout it caused, if any)."""
        who = address_key(who)
        with self._lock:
            now = self._now()
            entry = self._entries.get(who)
            record: dict[str, Any] = {"at": now, "address": who, "failures": int(entry[0]) if entry else 1}
            if entry and entry[1] > now:
                record["locked_for"] = round(entry[1] - now, 1)
            if self._cap is not None and len(self._recent) >= self._cap:
                record["everyone_waits"] = round(self._overall_wait(now), 1)
            self._log.append(record)
            self._save()

    def succeeded(self, who: str) -> None:
        """The booked attempt was right: it is given back, and `who`'s failures are forgotten."""
        who = address_key(who)
        with self._lock:
            entry = self._entries.pop(who, None)
            for index in range(len(self._recent) - 1, -1, -1):
                if self._recent[index][1] == who:
                    del self._recent[index]
                    break
            if entry is not None and entry[0] > 1:  # earlier failures of `who` were written: forget them there too
                self._save()

    def report(self) -> dict[str, Any]:
        """For the host: the addresses locked out now, the overall wait, and the last failures."""
        with self._lock:
            now = self._now()
            self._expire(now)
            locked = [
                {"address": who, "failures": int(e[0]), "wait": round(e[1] - now, 1)}
                for who, e in self._entries.items()
                if e[1] > now
            ]
            return {
                "locked": locked,
                "everyone_waits": round(self._overall_wait(now), 1),
                "failures_in_window": len(self._recent),
                "recent": list(self._log),
                "problem": self.problem,
            }


RECENT_KEPT = 4096  # failures within the window kept (for the overall cap and the host's report)


def address_key(who: str) -> str:
    """Whose guesses these are: the IPv4 address, or an IPv6 address's /64 (one phone can take a whole /64)."""
    try:
        address = ipaddress.ip_address(who)
    except ValueError:
        return who
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address.ipv4_mapped or address) if isinstance(address, ipaddress.IPv6Address) else str(address)


# -- the [web] table of the configuration file ------------------------------------------------------------

SERVER_KEYS = ("host", "port", "threads")  # the keys of [web] that companion.config reads for the server


def _as_given(key: str, value: Any) -> Any:
    return value


def settings_from_config(table: Mapping[str, Any], *, data_dir: Path, threads: int) -> WebSettings:
    """The page's keys of ``[web]`` checked into `WebSettings`, for ``companion serve``.

    Every error names the key ("web.max_streams: ..."); the join code, the host PIN and the proxies are
    checked by `WebSettings` itself. ``threads`` is the server's ``web.threads``: every event stream
    holds one thread, so ``max_streams`` must leave a few for the pages.
    """
    from companion.validate import flag, number, text, unknown_keys, whole_number

    known = tuple(f.name for f in fields(WebSettings) if f.name not in ("data_dir", "now"))
    unknown_keys("web", table, (*SERVER_KEYS, *known))

    def url(key: str, value: Any) -> str:
        if not isinstance(value, str) or not value.startswith(("http://", "https://")):
            raise ConfigError(f'{key}: expected an address like "http://skeptics.local:8080", got {value!r}')
        return value

    checks: dict[str, Callable[[str, Any], Any]] = {
        "join_code": text,  # what a join code, a host PIN and a proxy address are, WebSettings says
        "public_url": url,
        "heartbeat": lambda key, value: number(key, value, 1, 600),
        "poll_fallback": lambda key, value: number(key, value, 1, 600),
        "max_streams": lambda key, value: whole_number(key, value, 1, 1000),
        "secure_cookies": flag,
    }
    values: dict[str, Any] = {"data_dir": data_dir}
    for name, value in table.items():
        if name not in SERVER_KEYS:
            values[name] = checks.get(name, _as_given)(f"web.{name}", value)
    settings = WebSettings.coerce(values)
    if settings.max_streams > threads - 4:
        raise ConfigError(
            f"web.max_streams: {settings.max_streams} event streams need more than web.threads = "
            f"{threads} server threads (each stream holds one, and pages need a few more); "
            f"raise web.threads to at least {settings.max_streams + 4} or lower web.max_streams."
        )
    return settings
