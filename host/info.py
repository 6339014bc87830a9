"""`spielleiter-host info`: what the box says about itself."""

from __future__ import annotations

import argparse
from typing import Any

from .device import Device, add_connection_args, run_with_device
from .i18n import _, box_note
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
        rows = [[_("port"), box.name]]
        for key, value in sorted(box.hello.items()):
            if key == "hardware" and isinstance(value, dict):
                rows.extend([f"hardware.{k}", v] for k, v in sorted(value.items()))
            elif key == "notes" and isinstance(value, list):
                rows.extend(["notes", note] for note in notes(box.hello))
            elif key not in ("methods", "notes_text"):
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
