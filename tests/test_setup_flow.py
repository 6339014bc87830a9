"""Setting up a game from the menu: seats, names, computers, house rules, going back."""

from __future__ import annotations

import random
from pathlib import Path

from spielleiter.app import Box, VirtualClock
from spielleiter.games.speedtombola.screens import TableScreen
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.store import Store
from spielleiter.ui.menus import SeatMenu, main_menu
from spielleiter.ui.widgets import ListMenu

K1, K2, K3, K4 = (KeyEvent(k) for k in Key)


def menu_box(tmp_path: Path) -> Box:
    store = Store.open(tmp_path / "data")
    store.remember_name("Anna")
    store.remember_name("Ben")
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(1))
    box.push(main_menu(box))
    return box


def press(box: Box, *keys: KeyEvent) -> None:
    for key in keys:
        box.dispatch(key)
        box.settle()


def labels(box: Box) -> list[str]:
    assert isinstance(box.top, ListMenu)
    return [item.text() for item in box.top.items]


def test_a_name_already_at_the_table_is_not_offered_again(tmp_path: Path) -> None:
    box = menu_box(tmp_path)
    press(box, K3, K3)  # Speedtombola, 3 Plätze
    assert labels(box)[:3] == ["Anna", "Ben (zuletzt)", "Neuer Name ..."]  # alphabetical
    press(box, K3)  # Anna
    assert labels(box)[:2] == ["Ben", "Neuer Name ..."]


def test_going_back_forgets_the_seats_chosen_from_there(tmp_path: Path) -> None:
    box = menu_box(tmp_path)
    press(box, K3, K3)  # Speedtombola, 3 Plätze
    press(box, K3)  # seat 1: Anna
    press(box, K3)  # seat 2: Ben
    assert isinstance(box.top, SeatMenu) and box.top.seat_index == 2
    press(box, K4, K4)  # back to seat 1
    assert isinstance(box.top, SeatMenu) and box.top.seat_index == 0
    assert box.top.flow.seats == []
    press(box, K2, K3)  # seat 1: Ben
    press(box, K3)  # seat 2: Anna
    press(box, K2, K2, K2, K3)  # seat 3: Computer Stark
    assert labels(box) == ["Lose raus: 9", "Runden: 1", "Start"]
    press(box, K2, K2, K3)  # Start
    table = box.top
    assert isinstance(table, TableScreen)
    assert [s.name for s in table.session.seats] == ["Ben", "Anna", "Stark 1"]


def test_house_rules_cycle_and_are_remembered(tmp_path: Path) -> None:
    box = menu_box(tmp_path)
    press(box, K3, K3, K3, K3)  # Speedtombola, 3 Plätze, Anna, Ben
    press(box, K2, K3)  # Computer Leicht
    press(box, K3, K3, K2, K3)  # Lose raus 9 -> 6 -> 12; Runden 1 -> 3
    assert labels(box)[:2] == ["Lose raus: 12", "Runden: 3"]
    press(box, K2, K3)  # Start
    assert box.top.session.record.params == {"players": 3, "removed": 12, "rounds": 3}
    assert box.store.settings()["speedtombola.removed"] == 12
    assert box.store.settings()["speedtombola.rounds"] == 3
    box.reset(box.stack[0])
    press(box, K3, K3, K3, K3, K2, K3)  # the next setup shows the choices made last
    assert labels(box)[:2] == ["Lose raus: 12", "Runden: 3"]


def test_a_game_without_house_rules_starts_after_the_last_seat(tmp_path: Path) -> None:
    box = menu_box(tmp_path)
    press(box, K2, K3, K3, K3)  # Besenbingo, Digital, 1 Platz
    press(box, K3)  # Anna
    # straight to Besenbingo's own options: no empty house-rules list in between
    assert labels(box) == ["Durchgänge: 1", "Anna: Hexentanz", "Start"]
    assert box.store.records() == []
