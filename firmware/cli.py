"""`spielleiter`: start the box, on a Pi with its parts, elsewhere emulated."""

from __future__ import annotations

import argparse
import logging
import os
import random
import signal
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .app import Box, parse_script
from .hal.clock import SystemClock, VirtualClock
from .hal.display import FrameFolder, FrameSink, TerminalDisplay
from .hal.keys import Key, KeyEvent
from .store import DataLock, Store, StoreFault, default_data_dir


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="spielleiter", description="The Spielleiter box.")
    p.add_argument("--emulate", action="store_true", help="emulated hardware even on a Pi")
    p.add_argument(
        "--keys", type=Path, metavar="FILE", help="play the key presses listed in FILE, then exit"
    )
    p.add_argument(
        "--frames", type=Path, metavar="DIR", help="write every new frame as PNG into DIR"
    )
    p.add_argument(
        "--scale",
        type=int,
        default=1,
        choices=range(1, 9),
        metavar="N",
        help="the --frames PNGs N times as large (nearest neighbour; 1 to 8, default 1)",
    )
    p.add_argument(
        "--data", type=Path, metavar="DIR", help="where the data lives (default: per platform)"
    )
    p.add_argument("--seed", type=int, metavar="N", help="fix the random generator")
    p.add_argument(
        "--serial",
        metavar="PORT",
        help="serial port for the laptop link, or 'pty' for a pseudo-terminal",
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
    p.add_argument(
        "--speech",
        type=Path,
        metavar="FILE",
        help="write what the box says into FILE, each line with the frame it belongs to",
    )
    p.add_argument(
        "--check-pins",
        action="store_true",
        help="check the pin map (pins.toml) the box reads, print the wiring it asks for, exit",
    )
    p.add_argument("--version", action="version", version=f"spielleiter {__version__}")
    return p


def has_pi_hardware(bus: int) -> bool:
    """GPIO and I2C present (a Raspberry Pi with the bus enabled)."""
    return Path("/dev/gpiochip0").exists() and Path(f"/dev/i2c-{bus}").exists()


EXIT_NO_DISPLAY = 78
"""The one fault the box cannot show: its display does not answer. The systemd unit does
not restart on it (RestartPreventExitStatus); every other fault keeps the box up in
safe mode."""
EXIT_SAFE_MODE = 3
"""A key script ran against the safe-mode screen (tests and the emulator)."""


def check_pins() -> int:
    """`spielleiter --check-pins`: 0 and the wiring when pins.toml is sound, else 2 and
    what is wrong in it (install-pi.sh runs it before it restarts the box)."""
    from .hal.pins import describe, load_pin_map, shipped_path

    try:
        pins = load_pin_map()
    except (OSError, ValueError) as exc:
        print(f"spielleiter: pins.toml is wrong: {exc}", file=sys.stderr)
        return 2
    print(f"{shipped_path()}: sound\n{describe(pins)}")
    return 0


def _load_pins() -> tuple[Any, StoreFault | None]:
    """The pin map, or the built-in defaults and a fault when pins.toml is missing or broken."""
    from .hal.pins import DEFAULT_PINS, load_pin_map

    try:
        return load_pin_map(), None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"spielleiter: pins.toml missing or broken: {exc}", file=sys.stderr, flush=True)
        return load_pin_map(text=DEFAULT_PINS), StoreFault("pins", str(exc)[:200])


def open_store(data_dir: Path, lock: DataLock, **options: Any) -> Store:
    """The data folder's lock, then its store (StoreFault for anything in the way)."""
    lock.acquire()
    return Store.open(data_dir, **options)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.check_pins:
        return check_pins()
    pins, fault = _load_pins()
    try:
        script = parse_script(args.keys.read_text("utf-8")) if args.keys else None
    except UnicodeDecodeError as exc:
        print(
            f"spielleiter: {args.keys}: not UTF-8 text (byte {exc.start}); a key script "
            "is lines of K1..K4, K1-long..K4-long and wait SECONDS",
            file=sys.stderr,
        )
        return 2
    except (OSError, ValueError) as exc:
        print(f"spielleiter: {exc}", file=sys.stderr)
        return 2

    emulate = args.emulate or args.keys is not None
    if not emulate and not has_pi_hardware(pins.i2c_bus):
        print("spielleiter: no GPIO/I2C found, running the emulated box", flush=True)
        emulate = True

    data_dir = args.data or default_data_dir()
    lock = DataLock(data_dir)
    store: Store | None = None
    try:
        store = open_store(data_dir, lock)
    except StoreFault as exc:
        fault = fault or exc
    except (OSError, sqlite3.Error) as exc:
        fault = fault or StoreFault("unopenable", str(exc))
    if fault is not None and store is not None:  # pins.toml: the store is fine, but stays shut
        store.close()
        store = None
    if fault is not None:
        print(
            f"spielleiter: safe mode, cannot use the data in {data_dir}: {fault}",
            file=sys.stderr,
            flush=True,
        )
    try:
        while True:
            if store is None:
                assert fault is not None
                outcome = _safe_mode(args, fault, data_dir, pins, emulate, script)
                if outcome != "restored":
                    return outcome if isinstance(outcome, int) else EXIT_SAFE_MODE
                try:
                    store = Store.open(data_dir)
                except StoreFault as exc:
                    fault = exc
                    continue
            return _run_box(args, store, pins, emulate, script)
    finally:
        lock.release()


def _safe_mode(
    args: argparse.Namespace,
    fault: StoreFault,
    data_dir: Path,
    pins: Any,
    emulate: bool,
    script: list[Any] | None,
) -> str | int:
    """Run the safe-mode screen and link until a restore ("restored") or the end."""
    from .hal.watchdog import Watchdog
    from .safe_mode import SafeLink, SafeMode

    hardware: dict[str, Any] = {"emulated": emulate}
    buttons: list[Any] = []
    keyboard = None
    try:
        if emulate:
            displays, keyboard = _emulated_panel(args, script is not None, [])
        else:
            # no setting can be read here: the display driver is pins.toml's
            displays, buttons = _real_panel(pins, {}, SystemClock(), hardware)
            if hardware.get("display") is None:
                _close_all(buttons)
                return EXIT_NO_DISPLAY
    except RuntimeError as exc:
        print(f"spielleiter: {exc}", file=sys.stderr)
        return 2
    if args.frames:
        displays.append(FrameFolder(args.frames, args.scale))
    watchdog = Watchdog.from_env()
    safe = SafeMode(fault, data_dir, FrameSink(displays), watchdog=watchdog)
    safe.hardware = hardware
    from .settings import defaults

    safe.speech = _speech(safe.clock, defaults, args.speech, script is not None, hardware)
    safe.polls.extend(panel.poll for panel in buttons)
    port = args.serial or (None if emulate else _serial_port(safe.store, pins))
    fallback = None if args.serial else str(pins.serial_port)
    link = _start_link(SafeLink(safe), port, fallback, _tell_safe_mode(safe)) if port else None
    signal.signal(signal.SIGTERM, lambda signum, frame: safe.quit())
    signal.signal(signal.SIGINT, lambda signum, frame: safe.quit())
    watchdog.ready()
    try:
        if script is not None:
            for entry in script:
                if isinstance(entry, KeyEvent):
                    safe.post(entry)
                safe.step()
            return EXIT_SAFE_MODE
        if keyboard is not None:
            keyboard.start(lambda ch: _post_key(safe, ch), safe.quit)
        restored = safe.run()
    finally:
        if keyboard is not None:
            keyboard.stop()
        if link is not None:
            link.stop()
        safe.close()
        safe.sink.close()
        _close_all(buttons)  # a restored store starts the box, which opens them again
    return "restored" if restored else 0


def _close_all(parts: list[Any]) -> None:
    """Release hardware parts (gpiozero holds a pin until its device is closed)."""
    for part in parts:
        part.close()


def _post_key(safe: Any, ch: str) -> None:
    event = _key_of(ch)
    if event is not None:
        safe.post(event)


def _key_of(ch: str) -> KeyEvent | None:
    if ch in "1234":
        return KeyEvent(Key(int(ch)))
    if ch in "!@#$":
        return KeyEvent(Key("!@#$".index(ch) + 1), long=True)
    return None


def _serial_port(store: Store | None, pins: Any) -> str:
    """The link's port: the setting when it names a serial port, else the pin map's.

    Only the name is checked here: a port that is not there yet (the gadget comes up
    after boot, an adapter is plugged in late) is waited for by the link, PORT_WAIT_S
    at most, and then the pin map's port takes over (_start_link).
    """
    from .serial_ports import name_problem

    wanted = str(pins.serial_port)
    if store is not None:
        try:
            wanted = str(store.setting("serial.port"))
        except Exception:  # noqa: BLE001 - an unreadable setting: the pin map's port
            wanted = str(pins.serial_port)
    problem = name_problem(wanted)
    if problem is not None:
        print(f"spielleiter: serial.port {problem}; using {pins.serial_port}", flush=True)
        return str(pins.serial_port)
    return wanted


def _run_box(
    args: argparse.Namespace,
    store: Store,
    pins: Any,
    emulate: bool,
    script: list[Any] | None,
) -> int:
    """The box on a sound store, until it quits."""
    settings = store.settings()
    rng = random.Random(args.seed)
    # A record's chance secret: the system's entropy on a real box (never a Mersenne
    # Twister, whose state revealed secrets would give away); fixed with --seed.
    seeds = random.SystemRandom() if args.seed is None else random.Random(f"records/{args.seed}")
    clock: Any = VirtualClock() if script is not None else SystemClock()
    hardware: dict[str, Any] = {"emulated": emulate}
    box_ref: list[Box] = []
    keyboard = None
    buttons: list[Any] = []
    try:
        if emulate:
            displays, keyboard = _emulated_panel(args, script is not None, box_ref)
        else:
            # the display driver: the setting where someone set it, else pins.toml's
            displays = _real_display(pins, store.stored_settings(), hardware)
    except RuntimeError as exc:
        print(f"spielleiter: {exc}", file=sys.stderr)
        store.close()
        return 2
    if not emulate and hardware.get("display") is None:
        store.close()
        return EXIT_NO_DISPLAY
    if args.frames:
        displays.append(FrameFolder(args.frames, args.scale))

    from .hal.watchdog import Watchdog

    watchdog = Watchdog.from_env()
    box = Box(
        store, FrameSink(displays), clock, rng, hardware=hardware, watchdog=watchdog, seeds=seeds
    )
    box_ref.append(box)
    box.reload_settings()

    box.show_start()  # the main menu, the open game and what could not be read
    box.refresh()  # the first frame: the buttons, the spinner, the buzzer and the link follow

    if not emulate:
        buttons = _real_buttons(pins, clock, hardware)
    box.polls.extend(panel.poll for panel in buttons)
    from .spinner_service import open_service

    box.spinner = open_service(box, args.spinner, emulate, args.seed)
    box.buzzer = _buzzer(pins, emulate, script is not None, args, hardware)
    box.speech = _speech(box.now, box.settings, args.speech, script is not None, hardware)
    hardware["spinner"] = box.spinner.mode

    link = None
    serial_port = args.serial or (None if emulate else _serial_port(store, pins))
    if serial_port:
        fallback = None if args.serial else str(pins.serial_port)
        link = _start_link(box, serial_port, fallback, _tell_box(box))

    def stop(signum: int, frame: Any) -> None:
        box.quit()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    watchdog.ready()
    if script is None and settings["bot.preload"]:  # a key script runs as it always did
        from . import preload

        preload.start()
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
        _close_all(buttons)
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
    """The OLED and the four buttons' panel. A missing part is reported and the box runs on
    without it (the laptop link still works), rather than restarting forever."""
    return _real_display(pins, settings, hardware), _real_buttons(pins, clock, hardware)


def _real_display(pins: Any, settings: dict[str, Any], hardware: dict[str, Any]) -> list[Any]:
    """The OLED ([] and a line on stderr when it does not answer); its driver is the
    setting display.driver when `settings` has it, else pins.toml's."""
    displays: list[Any] = []
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
    return displays


def _real_buttons(pins: Any, clock: Any, hardware: dict[str, Any]) -> list[Any]:
    """The four buttons' panel in a list ([] and a line on stderr when gpiozero cannot
    open them); whoever opens it closes it, which gives the pins back."""
    panels: list[Any] = []
    try:
        from .hal.buttons import ButtonPanel

        panels.append(
            ButtonPanel(pins.buttons, clock.now, pins.debounce_ms / 1000, pins.long_press_ms / 1000)
        )
        hardware["buttons"] = True
    except Exception as exc:  # noqa: BLE001 - gpiozero raises several kinds
        print(f"spielleiter: buttons unavailable: {exc}", file=sys.stderr, flush=True)
        hardware["buttons"] = False
    return panels


def _buzzer(
    pins: Any, emulate: bool, scripted: bool, args: argparse.Namespace, hardware: dict[str, Any]
) -> Any:
    """The piezo on the Pi (pins.toml [buzzer]); the terminal's bell on the emulated box;
    a line in the log under a key script. None where there is nothing to sound."""
    from .hal.buzzer import LogBuzzer, PiezoBuzzer, TerminalBell

    if emulate or pins is None or pins.buzzer_pin is None:
        hardware["buzzer"] = "emulated" if emulate else None
        if scripted:
            return LogBuzzer()
        terminal = args.display in ("auto", "terminal") and sys.stdout.isatty()
        return TerminalBell(sys.stdout) if emulate and terminal else None
    try:
        buzzer = PiezoBuzzer(pins.buzzer_pin)
    except Exception as exc:  # noqa: BLE001 - gpiozero raises several kinds
        print(f"spielleiter: buzzer unavailable: {exc}", file=sys.stderr, flush=True)
        hardware["buzzer"] = None
        return None
    hardware["buzzer"] = pins.buzzer_pin
    return buzzer


def _speech(
    clock: Callable[[], float],
    settings: Callable[[], dict[str, Any]],
    transcript: Path | None,
    scripted: bool,
    hardware: dict[str, Any],
) -> Any:
    """The box's speech: eSpeak NG through the machine's player, or silent (said once in
    the log); under a key script nothing is played, and with --speech FILE the transcript
    of what is said goes there. None: nothing speaks and nothing is written."""
    from .speech import SpeechService, open_speaker

    speaker = None
    if not scripted:
        speaker, why = open_speaker()
        if speaker is None:
            logging.getLogger("spielleiter.speech").warning("speech: %s: the box runs silent", why)
    hardware["speaker"] = speaker is not None
    if speaker is None and transcript is None:
        return None
    out = transcript.open("w", encoding="utf-8") if transcript is not None else None
    return SpeechService(clock, settings, speaker, out, virtual=scripted)


def _labels(box_ref: list[Box]) -> list[str]:
    if not box_ref or box_ref[0].top is None:
        return ["", "", "", ""]
    return [k.label if k else "" for k in box_ref[0].top.softkeys()]


def _start_link(
    device: Any,
    where: str,
    fallback: str | None = None,
    tell: Callable[[str, str], None] | None = None,
) -> Any:
    """The serial link on a port, or on a new pseudo-terminal whose path is printed.

    A port that does not exist yet (the USB gadget comes up after boot) is opened as
    soon as it appears: the server retries every second. With a `fallback` (the pin
    map's port, for the port of the setting), a port that has not opened within
    PORT_WAIT_S gives way to it, and `tell(wanted, used)` puts it on the panel.
    """
    from .link.server import PORT_WAIT_S, LinkServer, open_pty

    if where == "pty":
        master_fd, path = open_pty()
        print(f"serial: {path}", flush=True)
        server = LinkServer.on_fd(master_fd, device)
    else:
        if fallback == where:
            fallback = None
        if not os.path.exists(where):
            wait = f"waiting {PORT_WAIT_S:g} s for it, then using {fallback}"
            print(
                f"spielleiter: serial port {where} not there yet; "
                + (wait if fallback else "waiting for it"),
                flush=True,
            )
        server = LinkServer(where, device, fallback=fallback, on_fallback=tell)
    server.start()
    return server


def _tell_box(box: Box) -> Callable[[str, str], None]:
    """The panel's message when the link took the fallback port (on the box's loop)."""

    def tell(wanted: str, used: str) -> None:
        def show() -> None:
            from .ui.menus import port_fallback_notice
            from .ui.widgets import Message

            box.push(Message(*port_fallback_notice(wanted, used)))

        box.call_soon(show)

    return tell


def _tell_safe_mode(safe: Any) -> Callable[[str, str], None]:
    """The safe-mode panel's note when the link took the fallback port."""

    def tell(wanted: str, used: str) -> None:
        from .ui.menus import port_fallback_notice

        safe.notice = port_fallback_notice(wanted, used)

    return tell


if __name__ == "__main__":
    sys.exit(main())
