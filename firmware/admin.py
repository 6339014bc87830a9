"""The admin PIN: a salted slow hash, and the back-off that makes guessing it hopeless.

The PIN is stored only as ``scrypt$n$r$p$salt$hash`` (hashlib.scrypt; base64 salt and
hash). A PIN stored in plain text by an older version is hashed when the store opens.

Wrong PINs back off: after the k-th wrong PIN in a row, every PIN call is refused for
``min(BACKOFF_CAP_S, BACKOFF_FIRST_S * 2**(k-1))`` seconds; after LOCK_AFTER wrong PINs
in a row the PIN calls are locked for LOCK_S. A refusal is answered at once ("wait N
s"); nothing ever sleeps. The count lives in the store, so pulling the plug does not
clear it (in safe mode, where the store cannot be written, in a file beside it:
spielleiter.safe_mode). A count that cannot be stored is kept in memory, and the
guard can be held shut for a while (`hold`) where no count survives a restart. At the
box, Einstellungen → Admin-PIN → "PIN löschen" clears both the PIN and the count (the
physical box is trusted).

Example::

    >>> stored = hash_pin("1234", n=2**4)
    >>> verify_pin("1234", stored), verify_pin("1235", stored)
    (True, False)
"""

from __future__ import annotations

import base64
import logging
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from .texts import T

log = logging.getLogger(__name__)

PIN_SETTING = "admin.pin"
GUARD_KEY = "admin.pin_guard"
"""The store value that counts wrong PINs: {"failures": n, "last": wall time}."""

SCRYPT_N = 2**14
"""scrypt's cost: 16 MiB and about 50 ms on a laptop, several times that on a Pi Zero."""
SCRYPT_R = 8
SCRYPT_P = 1
BACKOFF_FIRST_S = 1.0
BACKOFF_CAP_S = 60.0
LOCK_AFTER = 10
LOCK_S = 15 * 60.0


class _Values(Protocol):
    def get_value(self, key: str, default: Any = None) -> Any: ...
    def set_value(self, key: str, value: Any) -> None: ...
    def setting(self, key: str) -> Any: ...


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hash_pin(pin: str, *, n: int = SCRYPT_N, salt: bytes | None = None) -> str:
    """The stored form of a PIN ("" stays "": no PIN)."""
    if pin == "":
        return ""
    import hashlib  # here, not at the start: OpenSSL loads only when a PIN is hashed

    salt = salt if salt is not None else os.urandom(16)
    digest = hashlib.scrypt(
        pin.encode("utf-8"), salt=salt, n=n, r=SCRYPT_R, p=SCRYPT_P, maxmem=64 * 1024 * 1024
    )
    return f"scrypt${n}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def is_hashed(stored: str) -> bool:
    """True for a stored value in the hash format (not a plain PIN of old)."""
    return stored.startswith("scrypt$") and stored.count("$") == 5


def verify_pin(given: str, stored: str) -> bool:
    """Whether `given` is the PIN whose stored form is `stored` (constant-time compare)."""
    if not stored:
        return True
    import hashlib  # here, not at the start: OpenSSL loads only when a PIN is checked
    import hmac

    if not is_hashed(stored):  # a plain PIN not yet migrated
        return hmac.compare_digest(given.encode("utf-8"), stored.encode("utf-8"))
    try:
        _, n, r, p, salt, digest = stored.split("$")
        want = base64.b64decode(digest)
        got = hashlib.scrypt(
            given.encode("utf-8"),
            salt=base64.b64decode(salt),
            n=int(n),
            r=int(r),
            p=int(p),
            maxmem=64 * 1024 * 1024,
            dklen=len(want),
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, want)


@dataclass(frozen=True)
class PinRefused(Exception):
    """A PIN call refused: `kind` is "required", "wrong" or "wait"; `wait_s` for "wait"."""

    kind: str
    message: str
    wait_s: int = 0

    def __str__(self) -> str:
        return self.message


def backoff_s(failures: int) -> float:
    """How long PIN calls are refused after `failures` wrong PINs in a row."""
    if failures <= 0:
        return 0.0
    if failures >= LOCK_AFTER:
        return LOCK_S
    return min(BACKOFF_CAP_S, BACKOFF_FIRST_S * 2 ** (failures - 1))


def guard_state(raw: Any) -> tuple[int, float]:
    """(wrong PINs in a row, wall time of the last one) from a stored guard value; a value
    that does not read as one counts as none."""
    try:
        failures = int(raw.get("failures", 0))
        last = float(raw.get("last", 0.0))
    except (AttributeError, TypeError, ValueError, OverflowError):
        return 0, 0.0
    return max(0, failures), last if math.isfinite(last) else 0.0


class PinGuard:
    """Checks the admin PIN for the link, with back-off and lockout kept in the store.

    `now` is the wall clock (injected in tests); the guard never sleeps. A count the
    store cannot take (a full card) is kept in memory, so the back-off holds anyway.
    """

    def __init__(self, store: _Values, now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.now = now
        self._unsaved: tuple[int, float] | None = None
        self._held_until = 0.0
        self._held_why = ""

    def state(self) -> tuple[int, float]:
        """(wrong PINs in a row, wall time of the last one)."""
        try:
            stored = guard_state(self.store.get_value(GUARD_KEY) or {})
        except Exception:  # noqa: BLE001 - a store that cannot be read: what memory has
            stored = (0, 0.0)
        if self._unsaved is not None and self._unsaved[0] > stored[0]:
            return self._unsaved
        return stored

    def hold(self, seconds: float, why: str) -> None:
        """Refuse every PIN call for `seconds` from now (`why` is told with each refusal)."""
        self._held_until = self.now() + seconds
        self._held_why = why

    def release(self) -> None:
        """No count, no hold (the box's own reset)."""
        self._held_until = 0.0
        self._unsaved = None

    def wait_s(self) -> float:
        """Seconds until a PIN may be tried again (0: now)."""
        failures, last = self.state()
        left = last + backoff_s(failures) - self.now()
        if left > backoff_s(failures):  # the clock went back: count from now
            left = backoff_s(failures)
        return max(0.0, left, self._held_left())

    def _held_left(self) -> float:
        return max(0.0, self._held_until - self.now())

    def check(self, given: Any) -> None:
        """Pass when no PIN is set or `given` is it; else raise PinRefused.

        While backing off, every call is refused at once without looking at `given`.
        """
        stored = str(self.store.setting(PIN_SETTING) or "")
        if not stored:
            return
        if given is None:
            raise PinRefused("required", T('an admin PIN is set: send it as "pin"'))
        wait = self.wait_s()
        if wait > 0:
            failures, _ = self.state()
            seconds = math.ceil(wait)
            if self._held_left() >= wait:
                why = T(
                    "PIN calls are held shut after the start ({cause}): wait {seconds} s",
                    cause=self._held_why,
                    seconds=seconds,
                )
            elif failures >= LOCK_AFTER:
                why = T(
                    "PIN calls locked after {failures} wrong PIN(s): wait {seconds} s",
                    failures=failures,
                    seconds=seconds,
                )
            else:
                why = T(
                    "PIN calls backing off after {failures} wrong PIN(s): wait {seconds} s",
                    failures=failures,
                    seconds=seconds,
                )
            raise PinRefused("wait", why, seconds)
        if isinstance(given, str) and verify_pin(given, stored):
            if self.state()[0]:
                self._record(None)
            return
        failures = self.state()[0] + 1
        self._record({"failures": failures, "last": self.now()})
        raise PinRefused("wrong", T("wrong admin PIN"), math.ceil(backoff_s(failures)))

    def _record(self, value: dict[str, Any] | None) -> None:
        """Store the count; one the store cannot take stays in memory."""
        self._unsaved = None if value is None else guard_state(value)
        try:
            self.store.set_value(GUARD_KEY, value)
        except Exception as exc:  # noqa: BLE001 - a full or read-only card: memory holds it
            log.warning("admin: the count of wrong PINs is kept in memory only: %s", exc)
            return
        self._unsaved = None


def reset(store: _Values) -> None:
    """The box's own reset: no wrong PINs counted (the caller clears the PIN itself)."""
    store.set_value(GUARD_KEY, None)
