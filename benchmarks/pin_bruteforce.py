"""A scripted brute force of the admin PIN over the link: how long, and the lockout.

1. Over a real pty, 100 wrong PINs as fast as the laptop can send them (the real
   LinkServer, the fake device, a real Store with a 4-digit PIN): the wall time, how
   many the box actually checked, how many it refused at once (back-off), and the
   longest answer (nothing sleeps on the link's thread).
2. The same guard on a simulated clock, for an attacker who waits out every back-off:
   the time until the lockout, and the expected time to find a 4-digit PIN.

    .venv/bin/python benchmarks/pin_bruteforce.py
"""

from __future__ import annotations

import tempfile
import time

from spielleiter import admin
from spielleiter.games import catalog
from spielleiter.link import protocol
from spielleiter.link.fake import FakeDevice
from spielleiter.link.server import LinkServer
from spielleiter.store import Store
from spielleiter_host.device import Device, RemoteError

ATTEMPTS = 100
PIN = "8532"


def over_the_link() -> None:
    with tempfile.TemporaryDirectory() as data:
        store = Store.open(data)
        store.set_settings({"admin.pin": PIN})
        game = catalog.names()[0]
        with LinkServer.on_pty(FakeDevice(store)) as server:
            with Device.open(server.port_name, timeout=5.0) as box:
                codes: dict[int, int] = {}
                slowest = 0.0
                started = time.perf_counter()
                for guess in range(ATTEMPTS):
                    t0 = time.perf_counter()
                    try:
                        box.call("bestenliste.reset", game=game, pin=f"{guess:04d}")
                        codes[0] = codes.get(0, 0) + 1
                    except RemoteError as exc:
                        codes[exc.code] = codes.get(exc.code, 0) + 1
                    slowest = max(slowest, time.perf_counter() - t0)
                took = time.perf_counter() - started
                try:
                    box.call("bestenliste.reset", game=game, pin=PIN)
                    right = "accepted"
                except RemoteError as exc:
                    right = f"refused ({exc.message})"
        store.close()
    print(f"{ATTEMPTS} wrong PINs over a pty: {took:.2f} s, slowest answer {slowest * 1000:.0f} ms")
    print(f"  checked and wrong (error {protocol.WRONG_PIN}): {codes.get(protocol.WRONG_PIN, 0)}")
    print(f"  refused at once, backing off (error {protocol.PIN_LOCKED}): "
          f"{codes.get(protocol.PIN_LOCKED, 0)}")
    print(f"  the right PIN right after: {right}")


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Values:
    def __init__(self, stored: str) -> None:
        self.stored = stored
        self.values: dict[str, object] = {}

    def get_value(self, key: str, default: object = None) -> object:
        return self.values.get(key, default)

    def set_value(self, key: str, value: object) -> None:
        self.values[key] = value

    def setting(self, key: str) -> object:
        return self.stored


def patient_attacker() -> None:
    """Every back-off waited out exactly; the guard's own arithmetic, no scrypt."""
    clock = Clock()
    values = Values("x")
    guard = admin.PinGuard(values, clock)  # type: ignore[arg-type]
    admin_verify = admin.verify_pin
    admin.verify_pin = lambda given, stored: False  # every guess wrong: the worst case
    try:
        lock_at = None
        for attempt in range(1, 10_001):
            clock.t += guard.wait_s()
            try:
                guard.check("0000")
            except admin.PinRefused:
                pass
            if lock_at is None and guard.state()[0] >= admin.LOCK_AFTER:
                lock_at = clock.t
            if attempt == 10_000:
                all_of_them = clock.t
    finally:
        admin.verify_pin = admin_verify
    print(f"waiting out every back-off: locked after {admin.LOCK_AFTER} wrong PINs at "
          f"{lock_at:.0f} s, then {admin.LOCK_S / 60:.0f} min per further wrong PIN")
    print(f"  all 10,000 four-digit PINs: {all_of_them / 86400:.0f} days "
          f"(half of them on average: {all_of_them / 2 / 86400:.0f} days)")


def hash_cost() -> None:
    stored = admin.hash_pin(PIN)
    t0 = time.perf_counter()
    for _ in range(5):
        admin.verify_pin("0000", stored)
    print(f"one scrypt check (n=2^14, r=8): {(time.perf_counter() - t0) / 5 * 1000:.0f} ms here")


if __name__ == "__main__":
    over_the_link()
    patient_attacker()
    hash_cost()
