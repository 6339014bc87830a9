"""`spielleiter-host info`: what the box says about itself.

A box in safe mode (its store, or its pin map, is faulty: firmware/safe_mode.py) says
so first, in sentences: what is wrong, what its panel shows, and what to do on the
laptop, with the command to type. Then a table of what `hello` says, each field under its
label in the laptop's language (`fields`; a field a newer box adds under its own key), the
values that are our words (yes and no, the hardware's states, the uptime's units) in the
laptop's language too, the data (versions, names, numbers) as they came. `--json` gives
`hello` as the box sent it.
"""

from __future__ import annotations

import argparse
from typing import Any

from .device import Device, add_connection_args, run_with_device
from .i18n import N_, _, box_note, pgettext
from .output import labelled, plain, print_json, table


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("info", help=_("firmware, hardware, uptime and current game"))
    add_connection_args(parser)
    parser.set_defaults(func=info)


def info(args: argparse.Namespace) -> int:
    def body(box: Device) -> int:
        if args.json:
            print_json(box.hello)
            return 0
        fault = box.hello.get("fault")
        if isinstance(fault, dict):
            print("\n".join(fault_lines(fault, bool(box.hello.get("pin_set")))) + "\n")
        rows = info_rows(box.hello, box.name)
        print(table([_("field"), _("value")], rows))
        return 0

    return run_with_device(args, body)


HIDDEN = ("methods", "notes_text")
"""What `hello` says for the laptop, not for people: the link's method names, and the
notes' texts (said in the notes' rows)."""


def info_rows(hello: dict[str, Any], port: str) -> list[list[str]]:
    """`hello` as rows of (label, value) in the laptop's language, in the order of
    `fields()`: the port first, each hardware part on its own row, a field a newer box adds
    under its key, the notes last, one a row; a fault is said in sentences before
    (`fault_lines`), not here.

    >>> from spielleiter_host import i18n
    >>> i18n.use("de")
    >>> info_rows({"firmware": "0.1.0", "uptime_s": 3725.3, "pin_set": False,
    ...            "hardware": {"buttons": "keyboard", "bell": 1}, "flux": "on"}, "/dev/x")
    ... # doctest: +NORMALIZE_WHITESPACE
    [['Port', '/dev/x'], ['Firmware', '0.1.0'], ['Laufzeit', '1 Std. 2 Min.'],
     ['PIN gesetzt', 'nein'], ['Hardware: Tasten', 'Tastatur'], ['flux', 'on'],
     ['hardware.bell', '1']]
    >>> i18n.use(None)
    """
    shown: dict[str, Any] = {"port": port}
    for key, value in hello.items():
        if key == "hardware" and isinstance(value, dict):
            shown.update({f"hardware.{part}": state for part, state in value.items()})
        elif key == "uptime_s":
            shown[key] = uptime(value)
        elif key == "notes" and isinstance(value, list):
            continue  # last, a row each
        elif key not in HIDDEN and not (key == "fault" and value):
            shown[key] = value
    rows = labelled(shown, fields(), hardware_words())
    if isinstance(hello.get("notes"), list):
        rows.extend([fields()["notes"], note] for note in notes(hello))
    return rows


def fields() -> dict[str, str]:
    """The label of each field of `hello` in the laptop's language, in the order the table
    shows them (every field the box sends: tests/test_host_one_language.py)."""
    return {
        "port": pgettext("info", "port"),
        "firmware": pgettext("info", "firmware"),
        "protocol": pgettext("info", "protocol"),
        "uptime_s": pgettext("info", "uptime"),
        "game": pgettext("info", "game"),
        "pin_set": pgettext("info", "PIN set"),
        "fault": pgettext("info", "fault"),
        "hardware": pgettext("info", "hardware"),
        "hardware.emulated": pgettext("info", "hardware: emulated"),
        "hardware.display": pgettext("info", "hardware: display"),
        "hardware.buttons": pgettext("info", "hardware: buttons"),
        "hardware.spinner": pgettext("info", "hardware: spinner"),
        "hardware.buzzer": pgettext("info", "hardware: buzzer"),
        "hardware.speaker": pgettext("info", "hardware: speaker"),
        "notes": pgettext("info", "note"),
    }


def hardware_words() -> dict[str, str]:
    """The states the box gives its hardware (not a driver's name or a pin, which are
    data), in the laptop's language."""
    return {
        "emulated": pgettext("hardware", "emulated"),
        "keyboard": pgettext("hardware", "keyboard"),
        "sensor": pgettext("hardware", "sensor"),
        "electronic": pgettext("hardware", "electronic"),
    }


def uptime(seconds: Any) -> str:
    """How long the box has been running, in the laptop's words and units ("1 h 2 min",
    "5 min 3 s", "12 s"); anything but a number as it came."""
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
        return plain(seconds)
    whole = int(seconds)
    hours, minutes, rest = whole // 3600, whole // 60 % 60, whole % 60
    if hours:
        return _("{hours} h {minutes} min").format(hours=hours, minutes=minutes)
    if minutes:
        return _("{minutes} min {seconds} s").format(minutes=minutes, seconds=rest)
    return _("{seconds} s").format(seconds=rest)


def notes(hello: dict[str, Any]) -> list[str]:
    """What the box noted since its start (`hello`'s notes), one line each, in the tool's
    language where the box sent a text beside the German line (`notes_text`)."""
    lines = hello.get("notes") or []
    texts = hello.get("notes_text")
    if not isinstance(texts, list) or len(texts) != len(lines):
        texts = [None] * len(lines)
    return [box_note(str(line), text) for line, text in zip(lines, texts, strict=True)]


FAULTS: dict[str, tuple[str, str]] = {
    "corrupt": (N_("The box's data are damaged."), N_("Restore a backup: {restore}")),
    "unopenable": (
        N_("The box cannot open its data (the SD card may be faulty)."),
        N_("Check the SD card, or restore a backup: {restore}"),
    ),
    "readonly": (
        N_("The box's SD card is write-protected: its data can be read but not changed."),
        N_("Save the data ({save}), then put in another card and restore them there."),
    ),
    "full": (
        N_("The box's SD card is full."),
        N_("Make room on the card, then start the box again."),
    ),
    "emptied": (
        N_("The box's data are gone: its store is empty, but it held data before."),
        N_(
            "Restore a backup: {restore} (without a saved file, the box's own newest backup"
            " first: {kept})"
        ),
    ),
    "locked": (
        N_("Another program on the box uses its data ({detail})."),
        N_("End that program, then start the box again."),
    ),
    "pins": (
        N_("The box's pin map (pins.toml) is missing or broken."),
        N_(
            "Fix hardware/pins.toml (spielleiter --check-pins names the key that is wrong),"
            " then install again (install-pi.sh)."
        ),
    ),
}
"""What each kind of fault means and what to do (firmware/safe_mode.py's kinds), in
English for the catalog."""

UNKNOWN_FAULT = (
    N_("The box's store is faulty ({kind})."),
    N_("Restore a backup: {restore}"),
)
"""A kind this laptop does not know (a newer box)."""


def fault_lines(fault: dict[str, Any], pin_set: bool) -> list[str]:
    """A box's safe mode as sentences: what is wrong, what its panel shows (the box's
    German words), what to do, whether its records can be read, and the system's own
    message (as it came).

    >>> from spielleiter_host import i18n
    >>> i18n.use("en")
    >>> print("\\n".join(fault_lines({"kind": "full", "detail": "database or disk is full",
    ...     "panel": "Speicher voll: Kein Platz.", "records_readable": True}, False)))
    Safe mode: The box's SD card is full.
      The panel shows: Speicher voll: Kein Platz.
      What to do: Make room on the card, then start the box again.
      The recorded matches can still be read: spielleiter-host records list
      The system's message: database or disk is full
    >>> i18n.use(None)
    """
    kind = str(fault.get("kind"))
    detail = str(fault.get("detail") or "")
    what, todo = FAULTS.get(kind, UNKNOWN_FAULT)
    pin = " --pin PIN" if pin_set else ""
    commands = {
        "restore": f"spielleiter-host backup restore {_('FILE')}{pin}",
        "save": f"spielleiter-host backup get -o {_('FILE')}{pin}",
        "kept": f"spielleiter-host backup get --kept 0 -o {_('FILE')}{pin}",
        "detail": detail.split(":")[0],  # "pid N": the rest is its command line
        "kind": kind,
    }
    lines = [_("Safe mode: {what}").format(what=_(what).format(**commands))]
    if fault.get("panel"):
        lines.append("  " + _("The panel shows: {panel}").format(panel=fault["panel"]))
    lines.append("  " + _("What to do: {todo}").format(todo=_(todo).format(**commands)))
    if fault.get("records_readable"):
        lines.append(
            "  "
            + _("The recorded matches can still be read: {command}").format(
                command="spielleiter-host records list"
            )
        )
    else:
        lines.append("  " + _("The recorded matches cannot be read while the fault lasts."))
    if detail:
        lines.append("  " + _("The system's message: {detail}").format(detail=detail))
    return lines
