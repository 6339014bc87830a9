"""Golden transcripts: one whole game of each kind, played by key, and what the box says.

Each game is played from its first screen to the final standings by a fixed policy of
key presses (a human against computers), under virtual time, with the box's speech
writing its transcript: every utterance with the frame it belongs to, as
`spielleiter --speech FILE` writes it. The transcripts are goldens like the pictures:
tests/golden/<game>.speech, rewritten by `make golden` (SPIELLEITER_REGOLD=1) together
with their copy in docs/speech.md. tests/test_speech_audio.py renders every line of them
through eSpeak NG.
"""

from __future__ import annotations

import io
import os
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import GOLDEN_DIR, REGOLD_ENV, ROOT
from spielleiter.app import AtOnce, Box
from spielleiter.games.base import Seat
from spielleiter.hal.clock import VirtualClock
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.speech import SpeechService
from spielleiter.store import Store
from spielleiter.ui.menus import launch, main_menu
from spielleiter.ui.widgets import Confirm, Message

DOCS = ROOT / "docs" / "speech.md"


class Kept(io.StringIO):
    """A transcript kept in memory after the box closes it."""

    def close(self) -> None:
        pass


Policy = Callable[[Box], KeyEvent | AtOnce | None]


def speedtombola(box: Box) -> KeyEvent | AtOnce | None:
    """Take when the pot makes the lot cheap, else Nein danke; once, take a move back."""
    table, top = box.table, box.top
    name = type(top).__name__
    if name == "TableScreen" and top.awaits_key():
        seat = table.to_move()
        state = table.state
        take = table.must_take(seat) or state.pot >= 4 or table.take_change(seat) <= 3
        return KeyEvent(Key.K2 if take else Key.K1)
    return KeyEvent(Key.K4)


def besenbingo(box: Box) -> KeyEvent | AtOnce | None:
    """Weiter, and cross what the sheet offers first."""
    return KeyEvent(Key.K4)


def maskenball(box: Box) -> KeyEvent | AtOnce | None:
    """Spin; visit the beetle the screen offers first."""
    top = box.top
    if type(top).__name__ == "MaskenballScreen":
        labels = [k.label if k else "" for k in top.softkeys()]
        if "Drehen" in labels:
            return KeyEvent(Key.K1)
        if "Besuch" in labels or "Wählen" in labels:
            return KeyEvent(Key.K3)
        return None
    return KeyEvent(Key.K4)


def engel_bengel(box: Box) -> KeyEvent | AtOnce | None:
    """Place as the table suggests; stop when it suggests stopping."""
    from spielleiter.games.engel_bengel.rules import Move

    table, top = box.table, box.top
    if isinstance(top, Confirm):
        return KeyEvent(Key.K1)
    if isinstance(top, Message):
        return KeyEvent(Key.K3)
    if type(top).__name__ == "BoardScreen":
        if not top.mine():
            return None
        if table.suggestion() == Move.STOPP and table.state.placed_now > 0:
            return KeyEvent(Key.K4)
        return KeyEvent(Key.K3)
    return KeyEvent(Key.K4)


def bungee(box: Box) -> KeyEvent | AtOnce | None:
    """Call Bungee when the hand allows, else discard the group the screen offers."""
    table, top = box.table, box.top
    if type(top).__name__ == "PlayScreen":
        if not (top.awaits_key() and top.deciding()):
            return None
        if table.may_call(table.to_move()):
            return KeyEvent(Key.K3)
        return KeyEvent(Key.K2)
    return KeyEvent(Key.K4)


GAMES: dict[str, tuple[dict[str, Any], list[Seat], Policy]] = {
    "speedtombola": (
        {"players": 3, "rounds": 1},
        [
            Seat("Anna"),
            Seat("Leicht 1", "computer", "leicht"),
            Seat("Normal 2", "computer", "normal"),
        ],
        speedtombola,
    ),
    "besenbingo": (
        {},
        [Seat("Anna"), Seat("Leicht 1", "computer", "leicht")],
        besenbingo,
    ),
    "maskenball": ({"players": 2}, [Seat("Tisch")], maskenball),
    "engel-bengel": (
        {"players": 2, "end": "durchgaenge", "durchgaenge": 1},
        [Seat("Anna"), Seat("Leicht 1", "computer", "leicht")],
        engel_bengel,
    ),
    "bungee": (
        {"players": 2, "rounds": 1},
        [Seat("Anna"), Seat("Leicht 1", "computer", "leicht")],
        bungee,
    ),
}


def play(game: str, tmp_path: Path, undo_after: int = 2) -> str:
    """The transcript of one whole game (the `undo_after`-th move of the human is taken
    back once, so the transcript shows the Zurück moment both ways)."""
    params, seats, policy = GAMES[game]
    store = Store.open(tmp_path / "data")
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(4), seeds=random.Random(8))
    box.reload_settings()
    out = Kept()
    box.speech = SpeechService(box.now, box.settings, None, out, virtual=True)
    box.push(main_menu(box))
    box.settle()
    if game == "besenbingo":
        from spielleiter.games.besenbingo.table import digital_durchgang

        launch(box, game, *digital_durchgang(store, seats))
    else:
        launch(box, game, params, seats)
    box.settle()
    moves = 0
    for _ in range(3000):
        if box.table is None:
            break
        event = policy(box)
        if event is None:
            box.clock.advance(0.05)
            box.step()
            box.settle()
            continue
        offered = box.table.take_back_offer
        box.dispatch(event if isinstance(event, KeyEvent) else event.event)
        box.step()
        if box.table is not None and box.table.take_back_offer is not None and offered is None:
            moves += 1
            if moves == undo_after:
                box.dispatch(KeyEvent(Key.K1))  # Zurück, at once
                box.step()
        box.settle()
        assert box.errors == 0
    assert box.table is None, f"{game} did not end"
    box.speech.close()
    return out.getvalue()


@pytest.mark.parametrize("game", list(GAMES))
def test_golden_transcript_of_a_whole_game(game: str, tmp_path: Path) -> None:
    said = play(game, tmp_path)
    golden = GOLDEN_DIR / f"{game}.speech"
    if os.environ.get(REGOLD_ENV) == "1":
        golden.write_text(said, encoding="utf-8")
        write_docs_copy(game, said)
        return
    assert golden.exists(), f"no golden {golden.name}: run `make golden` and read it"
    assert said == golden.read_text(encoding="utf-8"), (
        f"what the box says differs from {golden.relative_to(ROOT)}; if intended, run "
        "`make golden` and read the new transcript"
    )


def test_the_docs_show_the_golden_transcripts() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for game in GAMES:
        golden = (GOLDEN_DIR / f"{game}.speech").read_text(encoding="utf-8")
        assert docs_block(text, game) == golden, f"docs/speech.md's {game} is not the golden"


def docs_block(text: str, game: str) -> str:
    """The fenced block after the docs' marker for `game`."""
    found = re.search(rf"<!-- transcript {re.escape(game)} -->\n```text\n(.*?)```\n", text, re.S)
    assert found, f"docs/speech.md has no transcript of {game}"
    return found.group(1)


def write_docs_copy(game: str, said: str) -> None:
    text = DOCS.read_text(encoding="utf-8")
    block = f"<!-- transcript {game} -->\n```text\n{said}```\n"
    pattern = rf"<!-- transcript {re.escape(game)} -->\n```text\n.*?```\n"
    text, found = re.subn(pattern, lambda _: block, text, flags=re.S)
    assert found == 1, f"docs/speech.md has no place for the transcript of {game}"
    DOCS.write_text(text, encoding="utf-8")
