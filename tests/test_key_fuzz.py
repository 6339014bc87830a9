"""Random presses on every game's screens, at any moment (while a move may be taken back,
while a computer's move shows): the box never fails, and the stored record is always the
match the table shows."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from spielleiter.app import Box
from spielleiter.games import catalog
from spielleiter.hal.clock import VirtualClock
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.store import Store
from spielleiter.ui.menus import launch, main_menu
from test_match_faults import seats_for


@pytest.mark.parametrize("game", catalog.names())
def test_random_presses_at_any_moment_never_fail(game: str, tmp_path: Path) -> None:
    store = Store.open(tmp_path / "data")
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(2))
    box.reload_settings()
    box.push(main_menu(box))
    params, seats = seats_for(catalog.entry(game))
    launch(box, game, params, seats)
    box.settle()
    table = box.table
    rng = random.Random(game)
    taken = 0
    for _ in range(600):
        if box.table is None or table.closed:
            break
        key = KeyEvent(Key(rng.randint(1, 4)), long=rng.random() < 0.05 and rng.random() < 0.5)
        if key.long and key.key == Key.K4:
            continue  # the pause menu could leave the match
        offered = table.take_back_offer
        box.dispatch(key)
        if offered is not None and table.session.committed < offered.committed:
            taken += 1
        if rng.random() < 0.5:
            box.step()  # at once: the next key may come during a held move
        else:
            box.settle()
        assert box.errors == 0, f"the box failed after {key}"
        stored = store.record(table.session.record_id)
        assert stored.actions == table.session.record.actions
    assert box.errors == 0
    assert taken > 0, "no move was taken back"
