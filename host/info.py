"""`spielleiter-host info`: what the box says about itself.

A box in safe mode (its store, or its pin map, is faulty: firmware/safe_mode.py) says
so first, in sentences: what is wrong, what its panel shows, and what to do on the
laptop, with the command to type; `--json` gives `hello` as the box sent it.
"""

from __future__ import annotations

import argparse
from typing import Any

from .device import Device, add_connection_args, run_with_device
from .i18n import N_, _, box_note
from .output import print_json, table


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
        rows = [[_("port"), box.name]]
        for key, value in sorted(box.hello.items()):
            if key == "hardware" and isinstance(value, dict):
                rows.extend([f"hardware.{k}", v] for k, v in sorted(value.items()))
            elif key == "notes" and isinstance(value, list):
                rows.extend(["notes", note] for note in notes(box.hello))
            elif key not in ("methods", "notes_text") and not (key == "fault" and value):
                rows.append([key, value])
        print(table([_("field"), _("value")], rows))
        return 0

    return run_with_device(args, body)


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
        N_("Install the box's program again (install-pi.sh)."),
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
