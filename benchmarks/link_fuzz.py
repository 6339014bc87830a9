"""Fuzz the link of a real box during a match, with an admin PIN set.

The box (firmware's Box with a Speedtombola match on the table, the real LinkServer on
a pty) runs in a child process. The fuzzer sends ≥ 100,000 lines: random bytes,
over-long lines, bad UTF-8, wrong types, NaN and huge numbers, deep nesting, big
batches, notifications, and every method without a PIN, with a wrong PIN and with
random parameters. Then it checks, and prints: the box is alive (crashes), a `hello`
answers within 1 s (hangs), nothing changed (settings, records, Bestenliste, names,
boards), how many answers were internal errors (-32603), and the box's RSS growth.

    .venv/bin/python benchmarks/link_fuzz.py [LINES]
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

PIN = "7391"
OVERLONG = 70 * 1024
WARM_UP = 3000
"""Lines sent before the RSS is first measured (not counted in LINES)."""


def serve(data: str) -> None:
    """The child: a box with a match on the table and its link on a pty."""
    from spielleiter.app import Box
    from spielleiter.games.base import Seat
    from spielleiter.hal.clock import SystemClock
    from spielleiter.hal.display import FrameSink
    from spielleiter.link.server import LinkServer
    from spielleiter.store import Store
    from spielleiter.ui.menus import launch, main_menu

    store = Store.open(data)
    store.set_settings({"admin.pin": PIN})
    store.remember_names(["Anna", "Bert"])
    box = Box(store, FrameSink([]), SystemClock(), random.Random(1))
    box.push(main_menu(box))
    seats = [Seat("Anna"), Seat("C1", "computer", "leicht"), Seat("C2", "computer", "leicht")]
    launch(box, "speedtombola", {"players": 3}, seats)
    server = LinkServer.on_pty(box)
    server.start()
    print(f"serial: {server.port_name}", flush=True)
    box.run()


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def junk_value(rng: random.Random, depth: int = 0) -> Any:
    kinds = ["int", "big", "float", "str", "bool", "null", "list", "dict"]
    kind = rng.choice(kinds if depth < 3 else kinds[:6])
    if kind == "int":
        return rng.randint(-(2**70), 2**70)
    if kind == "big":
        return rng.choice([2**63, -(2**63) - 1, 10**30, 2**53 + 1])
    if kind == "float":
        return rng.choice([0.5, -1e308, 1e-300, 3.14])
    if kind == "str":
        return "".join(chr(rng.randint(0, 0x2FFF)) for _ in range(rng.randint(0, 20)))
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list":
        return [junk_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    return {rng.choice(["id", "pin", "game", "name", "changes", "names", "boards", "data",
                        "offset", "size", "sha256", "limit", "action", "calibration",
                        "readings", "x"]): junk_value(rng, depth + 1)
            for _ in range(rng.randint(0, 4))}  # fmt: skip


def lines(rng: random.Random, count: int, methods: list[str]) -> Any:
    """The fuzz lines, without their line ends."""
    for i in range(count):
        kind = i % 12
        if kind == 0:
            yield bytes(rng.randrange(256) for _ in range(rng.randint(1, 200))).replace(
                b"\n", b" "
            ).replace(b"\r", b" ")
        elif kind == 1 and i % 600 == 1:
            yield b"x" * OVERLONG
        elif kind == 2:
            yield b'{"jsonrpc":"2.0","method":"hello","id":"\xff\xfe\xc3"}'
        elif kind == 3:
            params = {"pin": "0000", **{k: junk_value(rng) for k in ("id", "game")}}
            yield json.dumps({"jsonrpc": "2.0", "method": rng.choice(methods), "id": i,
                              "params": params}).encode()  # fmt: skip
        elif kind == 4:
            yield rng.choice([
                b'{"jsonrpc":"2.0","method":"records.get","params":{"id":NaN},"id":1}',
                b'{"jsonrpc":"2.0","method":"settings.set","params":{"changes":'
                b'{"display.contrast":1e999}},"id":2}',
                b'{"jsonrpc":"2.0","method":"records.get","params":{"id":'
                + b"9" * 5000
                + b'},"id":3}',
                b'{"jsonrpc":"2.0","method":"records.get","params":{"id":-Infinity},"id":4}',
            ])  # fmt: skip
        elif kind == 5:
            depth = rng.choice([50, 1000, 30000])
            yield b"[" * depth + b"]" * depth
        elif kind == 6:
            one = b'{"jsonrpc":"2.0","method":"hello","id":1}'
            yield b"[" + b",".join([one] * rng.randint(2, 1400)) + b"]"
        elif kind == 7:
            request = {"jsonrpc": "2.0", "method": rng.choice(methods),
                       "params": junk_value(rng)}  # fmt: skip
            if rng.random() < 0.7:
                request["id"] = junk_value(rng)
            yield json.dumps(request, ensure_ascii=rng.random() < 0.5).encode("utf-8", "replace")
        elif kind == 8:
            yield json.dumps({"jsonrpc": "2.0", "method": rng.choice(methods), "id": i}).encode()
        elif kind == 9:
            name = rng.choice(methods)
            params = {"pin": rng.choice(["0000", "1234", "", "x" * 50, "7390"])}
            if name == "settings.set":
                params["changes"] = {"serial.port": "spy://loop://", "admin.pin": ""}
            elif name == "records.delete":
                params["id"] = 1
            elif name == "names.add":
                params["names"] = ["Mallory"]
            elif name == "backup.restore":
                params.update(data="AAAA", offset=0, size=3, sha256="0" * 64)
            yield json.dumps({"jsonrpc": "2.0", "method": name, "params": params,
                              "id": i}).encode()  # fmt: skip
        elif kind == 10:
            yield json.dumps({"jsonrpc": "2.0", "method": rng.choice(methods),
                              "params": {"x": junk_value(rng)}}).encode()  # a notification
        else:
            yield json.dumps(junk_value(rng)).encode()


def snapshot(call: Any) -> Any:
    return (
        call("settings.get"),
        call("records.list"),
        call("bestenliste.get"),
        call("names.list"),
        call("boards.list"),
    )


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    import serial
    from spielleiter.link import protocol

    rng = random.Random(4242)
    with tempfile.TemporaryDirectory() as data:
        child = subprocess.Popen(
            [sys.executable, __file__, "--serve", data],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        try:
            assert child.stdout is not None
            port_name = child.stdout.readline().split("serial: ")[1].strip()
            port = serial.Serial(port_name, timeout=5)
            counter = [0]

            def call(method: str) -> Any:
                counter[0] += 1
                rid = f"check-{counter[0]}"
                port.write(protocol.request_line(method, None, rid))
                while True:
                    line = port.readline()
                    if not line:
                        raise RuntimeError(f"no answer to {method}")
                    answer = json.loads(line)
                    if answer.get("id") == rid:
                        return answer.get("result", answer.get("error"))

            port.write(b"\n")
            time.sleep(0.5)
            port.reset_input_buffer()
            hello = call("hello")
            methods = [*hello["methods"], "nope", "", "hello.x"]
            before = snapshot(call)
            rss_before = rss_kb(child.pid)

            answers = {"lines": 0, "internal": 0}
            stop = threading.Event()

            def drain() -> None:
                reader = serial.Serial(port_name, timeout=0.2)
                buf = b""
                while not stop.is_set():
                    buf += reader.read(65536)
                    *done, buf = buf.split(b"\n")
                    answers["lines"] += len(done)
                    answers["internal"] += sum(b'"code":-32603' in d for d in done)
                reader.close()

            port.close()
            drainer = threading.Thread(target=drain, daemon=True)
            drainer.start()
            writer = serial.Serial(port_name, timeout=5, write_timeout=30)
            started = time.monotonic()
            sent = 0
            chunk = bytearray()
            for line in lines(rng, count + WARM_UP, methods):
                chunk += line + b"\n"
                sent += 1
                if len(chunk) > 16384 or sent == WARM_UP:
                    writer.write(bytes(chunk))
                    chunk.clear()
                if sent == WARM_UP:  # the box's caches and the computers' numpy are in
                    time.sleep(2.0)
                    rss_before = rss_kb(child.pid)
            writer.write(bytes(chunk) + b"\n")
            writer.close()
            time.sleep(2.0)
            stop.set()
            drainer.join()
            took = time.monotonic() - started
            port = serial.Serial(port_name, timeout=5)
            port.write(b"\n")
            time.sleep(0.3)
            port.reset_input_buffer()
            t0 = time.monotonic()
            call("hello")
            hello_s = time.monotonic() - t0
            after = snapshot(call)
            rss_after = rss_kb(child.pid)
            alive = child.poll() is None
            port.close()
        finally:
            child.terminate()
            child.wait(10)
    print(f"lines sent: {sent - WARM_UP} (+{WARM_UP} warm-up) in {took:.1f} s;"
          f" answer lines read: {answers['lines']}")
    print(f"box alive afterwards (0 crashes): {alive}")
    print(f"hello after the fuzz answered in {hello_s * 1000:.0f} ms (a hang: > 1000 ms)")
    print(f"internal errors (-32603) among the answers: {answers['internal']}")
    same = [a == b for a, b in zip(before, after, strict=True)]
    print(f"unchanged settings/records/Bestenliste/names/boards: {same}")
    print(f"box RSS: {rss_before} kB before, {rss_after} kB after, growth "
          f"{(rss_after - rss_before) / 1024:.1f} MB")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--serve":
        serve(sys.argv[2])
    else:
        main()
