"""Link speed over a pty: the round trip of one request, and downloading 100 records.

Runs the real LinkServer with the fake device and a real Store in a temporary
directory; the laptop end is spielleiter-host's Device client.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time

from spielleiter.games.base import Seat
from spielleiter.link.fake import FakeDevice
from spielleiter.link.server import LinkServer
from spielleiter.records import Record
from spielleiter.store import Store
from spielleiter_host.device import Device

ROUND_TRIPS = 500
RECORDS = 100
ACTIONS = 300
"""About a three-round Speedtombola match with five players."""


def main() -> None:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as data:
        store = Store.open(data)
        seats = [Seat("Anna"), Seat("Bert"), Seat("Carla"), Seat("Rechner", "computer", "stark")]
        ids = [
            store.start_record(
                Record(
                    "speedtombola",
                    {"players": 4},
                    seats,
                    [rng.randrange(36) for _ in range(ACTIONS)],
                )
            )
            for _ in range(RECORDS)
        ]
        with LinkServer.on_pty(FakeDevice(store)) as server, Device.open(server.port_name) as box:
            times = []
            for _ in range(ROUND_TRIPS):
                start = time.perf_counter()
                box.call("hello")
                times.append(time.perf_counter() - start)
            start = time.perf_counter()
            box.call("records.list", limit=RECORDS)
            for rid in ids:
                box.call("records.get", id=rid)
            download = time.perf_counter() - start
            start = time.perf_counter()
            box.call("screen")
            screen = time.perf_counter() - start
        store.close()
    print(
        f"hello round trip over a pty: median {statistics.median(times) * 1e3:.3f} ms,"
        f" p90 {statistics.quantiles(times, n=10)[-1] * 1e3:.3f} ms ({ROUND_TRIPS} requests)"
    )
    print(
        f"records list + get of {RECORDS} records ({ACTIONS} actions each):"
        f" {download * 1e3:.1f} ms total, {download / RECORDS * 1e3:.2f} ms per record"
    )
    print(f"screen (128x64 PNG, base64): {screen * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
