"""The round's end shows the round's end.

A computer's move is shown for a moment (setting bot.show_ms) before the match goes on.
When that move ends a round (Speedtombola's last lot, Bungee's last turn, Engel &
Bengel's last box), the engine has already set up the next round; the panel still shows
the round that just ended, with that move, until its Tafel, sheet or settlement: the
next round's table appears only after it was read.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from fits import texts
from spielleiter.app import TICK_S, Box
from spielleiter.games.base import Seat
from spielleiter.hal.clock import VirtualClock
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.store import Store
from spielleiter.ui.menus import launch, main_menu

K1, K2, K3, K4 = (KeyEvent(k) for k in Key)
SHOW_MS = 1200


def new_box(tmp_path: Path, game: str, params: dict[str, Any], seats: list[Seat],
            meta: dict[str, Any] | None = None, seed: int = 5) -> Box:  # fmt: skip
    store = Store.open(tmp_path / "data")
    store.set_settings({"bot.show_ms": SHOW_MS, "undo.ms": 0})
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(seed))
    box.reload_settings()
    box.push(main_menu(box))
    launch(box, game, {"players": len(seats), **params}, seats, meta)
    return box


def until_a_computer_ends_a_round(box: Box, human_key: Any, limit: int = 40000) -> None:
    """Play (the human by `human_key(box)`, a round's Tafel or sheet read with Weiter)
    until a computer's move that ended a round is shown."""
    table = box.table
    game_screen = box.stack[1]
    for _ in range(limit):
        if table.hold_until is not None and table.holding():
            return
        if table.holding() and box.top is not game_screen:  # a round a human ended: read
            box.dispatch(K4)
            box.step()
            continue
        if table.human_to_move() and table.waiting_for(table.to_move()) and not box.top.busy:
            key = human_key(box)
            if key is not None:
                box.dispatch(key)
                box.step()
                continue
        box.finish_jobs(block=True)
        box.clock.advance(TICK_S)
        box.step()
    raise AssertionError("no computer ended a round")


def speedtombola_key(box: Box) -> KeyEvent | None:
    table = box.table
    return K2 if table.must_take(table.to_move()) else K1  # Nein danke while it can


def test_speedtombola_shows_the_last_take_with_its_own_round_until_the_tafel(
    tmp_path: Path,
) -> None:
    seats = [Seat("Anna"), Seat("Stark 1", "computer", "stark"),
             Seat("Normal 2", "computer", "normal")]  # fmt: skip
    box = new_box(tmp_path, "speedtombola", {"rounds": 3}, seats)
    table = box.table
    until_a_computer_ends_a_round(box, speedtombola_key)
    number = table.tafel_seen() + 1
    result = table.tafel(number - 1)
    summary = box.top.summary()
    assert summary["round"] == number and summary["ended"] and summary["lot"] is None
    assert [s["points"] for s in summary["seats"]] == result.points
    shown = texts(box.frame())
    assert table.news in shown and f"R{number}/3" in shown  # the last take, with its round
    assert table.state.round_index == number  # the engine is in the next round already
    while table.hold_until is not None:
        box.clock.advance(TICK_S)
        box.step()
    assert box.top.summary()["screen"] == "speedtombola.tafel"
    box.dispatch(K4)  # Weiter
    box.settle()
    assert box.top.summary()["round"] == number + 1 and "ended" not in box.top.summary()


def engel_key(box: Box) -> KeyEvent | None:
    labels = [k.label if k else "" for k in box.top.softkeys()]
    if labels[0] == "Legen":  # a black row's warning
        return K1
    if labels[3] == "Stopp" and box.table.state.placed_now:
        return K4  # Stopp after one die: the computers fill the last boxes more often
    return K3


def test_engel_und_bengel_keeps_the_finished_face_until_its_settlement(tmp_path: Path) -> None:
    seats = [Seat("Anna"), Seat("Normal 1", "computer", "normal"),
             Seat("Normal 2", "computer", "normal")]  # fmt: skip
    params = {"start": "erster", "end": "durchgaenge", "durchgaenge": 12}
    box = new_box(tmp_path, "engel-bengel", params, seats, {"wuerfel": "box"})
    table = box.table
    until_a_computer_ends_a_round(box, engel_key)
    ended = table.state.results[table.seen()]
    assert table.state.face.name != ended.face  # the engine turned up the next face
    summary = box.top.summary()
    assert summary["face"] == ended.face  # the board still shows the Durchgang just over
    closing = table.shown_position()
    assert all(len(b) == row.boxes for b, row in zip(closing.board, closing.face.rows,
                                                      strict=True))  # fmt: skip
    assert table.news in " ".join(texts(box.frame()))
    while table.hold_until is not None:
        box.clock.advance(TICK_S)
        box.step()
    assert box.top.summary()["screen"] == "engel-bengel.settlement"
    box.dispatch(K4)  # Weiter
    box.settle()
    assert box.stack[1].summary()["face"] == table.state.face.name != ended.face


def bungee_key(box: Box) -> KeyEvent | None:
    labels = [k.label if k else "" for k in box.top.softkeys()]
    return K2 if labels[1] == "Ablegen" else None


def test_bungee_shows_the_round_over_until_its_sheet(tmp_path: Path) -> None:
    seats = [Seat("Anna"), Seat("Normal 1", "computer", "normal"),
             Seat("Leicht 2", "computer", "leicht")]  # fmt: skip
    # a round ends on a computer's move where a 6 makes the last player lose the last turn
    # or the last player calls (after a discard the draw ends it: the discard is shown in
    # its round anyway); this seed has one
    box = new_box(tmp_path, "bungee", {"rounds": 6}, seats, seed=2)
    table = box.table
    until_a_computer_ends_a_round(box, bungee_key)
    number = table.sheet_seen() + 1
    summary = box.top.summary()
    assert summary["ended"] and summary["round"] == number
    shown = " ".join(texts(box.frame()))
    assert f"Runde {number} vorbei" in shown and table.news in shown
    while table.hold_until is not None:
        box.clock.advance(TICK_S)
        box.step()
    assert box.top.summary()["screen"] == "bungee.sheet"
    box.dispatch(K4)  # Weiter
    box.settle()
    assert box.stack[1].summary()["round"] == number + 1
