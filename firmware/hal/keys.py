"""The one key-event type: buttons, the keyboard and scripts all produce these."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Key(Enum):
    """The four soft keys under the display, left to right."""

    K1 = 1
    K2 = 2
    K3 = 3
    K4 = 4


@dataclass(frozen=True)
class KeyEvent:
    """A press of a soft key, short or long."""

    key: Key
    long: bool = False

    def __str__(self) -> str:
        return f"{self.key.name}{'-long' if self.long else ''}"

    @classmethod
    def parse(cls, text: str) -> KeyEvent:
        """Read "K1".."K4" or "K1-long".."K4-long" (ValueError otherwise)."""
        name, _, suffix = text.strip().upper().partition("-")
        if name not in Key.__members__ or suffix not in ("", "LONG"):
            raise ValueError(f"not a key: {text!r} (want K1..K4 or K1-long..K4-long)")
        return cls(Key[name], long=suffix == "LONG")


MENU = KeyEvent(Key.K4, long=True)
"""Long press of K4 opens the menu."""
REPEAT = KeyEvent(Key.K3, long=True)
"""Long press of K3: the box says the whole screen again (no screen's move uses it)."""
