"""`spielleiter`: start the box, on a Pi with its parts, elsewhere emulated."""

from __future__ import annotations

import argparse
import os
import random
import signal
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .app import Box, parse_script
from .hal.clock import SystemClock, VirtualClock
from .hal.display import FrameFolder, FrameSink, TerminalDisplay
from .store import Store, default_data_dir


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="spielleiter", description="The Spielleiter box.")
    p.add_argument("--emulate", action="store_true", help="emulated hardware even on a Pi")
    p.add_argument("--keys", type=Path, help="play the key presses listed in FILE, then exit")
    p.add_argument("--frames", type=Path, help="write every new frame as PNG into DIR")
    p.add_argument("--data", type=Path, help="where the data lives (default: per platform)")
    p.add_argument("--seed", type=int, help="fix the random generator")
    p.add_argument(
        "--serial", help="serial port for the laptop link, or 'pty' for a pseudo-terminal"
    )
    p.add_argument(
        "--display",
        choices=("auto", "terminal", "window", "none"),
        default="auto",
        help="emulated panel: terminal drawing, a luma.emulator window, or none",
    )
    p.add_argument(
        "--spinner",
        choices=("auto", "sensor", "electronic", "sim"),
        default="auto",
        help="spinner source: the AS5600 on a Pi (auto), electronic, or a simulated sensor",
    )
    p.add_argument("--version", action="version", version=f"spielleiter {__version__}")
    return p


def has_pi_hardware(bus: int) -> bool:
    """GPIO and I2C present (a Raspberry Pi with the bus enabled)."""
    return Path("/dev/gpiochip0").exists() and Path(f"/dev/i2c-{bus}").exists()


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from .hal.pins import load_pin_map

    pins = load_pin_map()
    try:
        script = parse_script(args.keys.read_text("utf-8")) if args.keys else None
    except (OSError, ValueError) as exc:
        print(f"spielleiter: {exc}", file=sys.stderr)
        return 2

    emulate = args.emulate or args.keys is not None
    if not emulate and not has_pi_hardware(pins.i2c_bus):
        print("spielleiter: no GPIO/I2C found, running the emulated box", flush=True)
        emulate = True

    data_dir = args.data or default_data_dir()
    try:
        store = Store.open(data_dir)
    except (OSError, sqlite3.Error) as exc:
        print(f"spielleiter: cannot open the data in {data_dir}: {exc}", file=sys.stderr)
        return 2
    settings = store.settings()
    rng = random.Random(args.seed)
    seeds = random.Random(None if args.seed is None else f"records/{args.seed}")
    clock: Any = VirtualClock() if script is not None else SystemClock()
    hardware: dict[str, Any] = {"emulated": emulate}
    box_ref: list[Box] = []
    keyboard = None
    polls: list[Any] = []
    try:
        if emulate:
            displays, keyboard = _emulated_panel(args, script is not None, box_ref)
        else:
            displays, polls = _real_panel(pins, settings, clock, hardware)
    except RuntimeError as exc:
        print(f"spielleiter: {exc}", file=sys.stderr)
        return 2
    if args.frames:
        displays.append(FrameFolder(args.frames))

    from .hal.watchdog import Watchdog

    watchdog = Watchdog.from_env()
    box = Box(
        store, FrameSink(displays), clock, rng, hardware=hardware, watchdog=watchdog, seeds=seeds
    )
    box_ref.append(box)
    box.polls.extend(polls)
    box.reload_settings()
    from .spinner_service import open_service

    box.spinner = open_service(box, args.spinner, emulate, args.seed)
    hardware["spinner"] = box.spinner.mode

    link = None
    serial_port = args.serial or (None if emulate else str(settings["serial.port"]))
    if serial_port:
        link = _start_link(box, serial_port)

    from .ui.menus import main_menu, resume_prompt

    box.push(main_menu(box))
    unfinished = store.unfinished_record()
    if unfinished is not None:
        box.push(resume_prompt(box, unfinished))

    def stop(signum: int, frame: Any) -> None:
        box.quit()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    watchdog.ready()
    try:
        if script is not None:
            box.run_script(script)
        else:
            if keyboard is not None:
                keyboard.start(box.post, box.quit)
            box.run()
    finally:
        if keyboard is not None:
            keyboard.stop()
        if link is not None:
            link.stop()
        box.close()
        store.close()
    return 0


def _emulated_panel(
    args: argparse.Namespace, scripted: bool, box_ref: list[Box]
) -> tuple[list[Any], Any]:
    """The emulated panel: the terminal (with its keyboard) or a luma.emulator window."""
    displays: list[Any] = []
    keyboard = None
    if args.display == "window":
        from .hal.display import open_window

        displays.append(open_window())
    interactive = not scripted and sys.stdin.isatty() and sys.stdout.isatty()
    if interactive and args.display in ("auto", "terminal"):
        displays.append(TerminalDisplay(sys.stdout, labels=lambda: _labels(box_ref)))
    if interactive and args.display != "none":
        from .hal.terminal import Keyboard

        keyboard = Keyboard(sys.stdin)  # with the window too: keys are typed in the terminal
    return displays, keyboard


def _real_panel(
    pins: Any, settings: dict[str, Any], clock: Any, hardware: dict[str, Any]
) -> tuple[list[Any], list[Any]]:
    """The OLED and the four buttons. A missing part is reported and the box runs on
    without it (the laptop link still works), rather than restarting forever."""
    displays: list[Any] = []
    polls: list[Any] = []
    driver = str(settings.get("display.driver") or pins.display_driver)
    try:
        from .hal.display import open_oled

        displays.append(open_oled(driver, pins.i2c_bus, pins.display_address))
        hardware["display"] = driver
    except Exception as exc:  # noqa: BLE001 - any driver failure means: no panel
        print(
            f"spielleiter: no {driver} display at I2C {pins.display_address:#04x} "
            f"on bus {pins.i2c_bus}: {exc}",
            file=sys.stderr,
            flush=True,
        )
        hardware["display"] = None
    try:
        from .hal.buttons import ButtonPanel

        panel = ButtonPanel(
            pins.buttons, clock.now, pins.debounce_ms / 1000, pins.long_press_ms / 1000
        )
        polls.append(panel.poll)
        hardware["buttons"] = True
    except Exception as exc:  # noqa: BLE001 - gpiozero raises several kinds
        print(f"spielleiter: buttons unavailable: {exc}", file=sys.stderr, flush=True)
        hardware["buttons"] = False
    return displays, polls


def _labels(box_ref: list[Box]) -> list[str]:
    if not box_ref or box_ref[0].top is None:
        return ["", "", "", ""]
    return [k.label if k else "" for k in box_ref[0].top.softkeys()]


def _start_link(box: Box, where: str) -> Any:
    """The serial link on a port, or on a new pseudo-terminal whose path is printed.

    A port that does not exist yet (the USB gadget comes up after boot) is opened as
    soon as it appears: the server retries every second.
    """
    from .link.server import LinkServer, open_pty

    if where == "pty":
        master_fd, path = open_pty()
        print(f"serial: {path}", flush=True)
        server = LinkServer.on_fd(master_fd, box)
    else:
        if not os.path.exists(where):
            print(f"spielleiter: serial port {where} not there yet; waiting for it", flush=True)
        server = LinkServer(where, box)
    server.start()
    return server


if __name__ == "__main__":
    sys.exit(main())
