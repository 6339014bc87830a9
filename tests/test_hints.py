"""Hints in every game: "Tipp" in Besenbingo, Bungee and Engel & Bengel as Rat is in
Speedtombola, Maskenball's Tipps offered at the setup, and sensible preselections.

A Tipp is what Stark would do and why, in plain German, for one human against
computers (never where another human could be helped against). It comes through the
catalog's advice hook (`Table.advice`), runs off the loop on the seat's view, and
never changes the deal (tests/test_advice.py plays every game with and without
asking). "Machen" plays the move. Preselections start on a legal move that costs
nothing where one exists: Engel & Bengel never on a black row that costs while a free
placement is open, Besenbingo on the most points now (tests/test_besenbingo_device.py),
Maskenball never on a beetle known to turn away while another may swap.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fits import texts
from spielleiter.app import Box
from spielleiter.games import catalog
from spielleiter.games.base import CHANCE, Seat, Tip
from spielleiter.games.table import HeadlessHost
from spielleiter.hal.clock import VirtualClock
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.session import Session
from spielleiter.store import Store
from spielleiter.ui.menus import launch, main_menu
from spielleiter.ui.tip import TipScreen

K1, K2, K3, K4 = (KeyEvent(k) for k in Key)
ANNA = Seat("Anna")


def computers(n: int, level: str = "normal") -> list[Seat]:
    return [Seat(f"{level.title()} {i + 1}", "computer", level) for i in range(n)]


def new_box(tmp_path: Path, game: str, params: dict[str, Any], seats: list[Seat],
            meta: dict[str, Any] | None = None) -> Box:  # fmt: skip
    store = Store.open(tmp_path / "data")
    store.set_settings({"bot.show_ms": 0, "undo.ms": 0})
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(5))
    box.reload_settings()
    box.push(main_menu(box))
    launch(box, game, {"players": len(seats), **params}, seats, meta)
    box.settle()
    return box


def press(box: Box, *keys: KeyEvent) -> None:
    for key in keys:
        box.dispatch(key)
        box.settle()


def labels(box: Box) -> list[str]:
    return [k.label if k else "" for k in box.top.softkeys()]


# --- the Tipp on the box ------------------------------------------------------------------


def test_bungee_tipp_on_k3_says_what_and_why_and_machen_plays_it(tmp_path: Path) -> None:
    box = new_box(tmp_path, "bungee", {"rounds": 1}, [ANNA, *computers(2)])
    for _ in range(40):  # to a decision of Anna's where no call is allowed
        if labels(box)[2] == "Tipp":
            break
        press(box, K2)  # Ablegen
    screen = box.top
    assert labels(box)[2] == "Tipp"
    committed = box.table.session.committed
    press(box, K3)
    tip_screen = box.top
    assert isinstance(tip_screen, TipScreen) and isinstance(tip_screen.tip, Tip)
    tip = tip_screen.tip
    shown = " ".join(texts(box.frame()))
    assert "im Schnitt" in tip.why and tip.what.split()[0] in shown
    assert box.table.session.committed == committed  # asking played nothing
    assert tip.action in box.table.state.legal_actions()
    press(box, K1)  # Machen
    assert box.top is screen
    assert box.table.session.record.actions[committed] == tip.action


def test_bungee_tipp_is_what_stark_plays() -> None:
    from spielleiter.games.bungee import bots, tips
    from spielleiter.games.bungee.rules import BungeeGame

    state = BungeeGame({"players": 3}).new_initial_state()
    chance = random.Random(3)
    checked = 0
    while checked < 8 and not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(chance.choices(*zip(*outcomes, strict=True))[0])
            continue
        view = state.view(state.current_player())
        tip = tips.tip(view, random.Random(11))
        assert tip.action == bots.stark(view, random.Random(11))
        state.apply_action(tip.action)
        checked += 1
    assert checked == 8


def test_engel_und_bengel_tipp_on_k4_before_the_first_die(tmp_path: Path) -> None:
    box = new_box(tmp_path, "engel-bengel", {"start": "erster"}, [ANNA, *computers(2)],
                  {"wuerfel": "box"})  # fmt: skip
    box.run_script([])
    assert labels(box)[3] == "Tipp"  # no die of this roll placed: Stopp is not allowed
    committed = box.table.session.committed
    press(box, K4)
    tip = box.top.tip
    assert isinstance(tip, Tip) and tip.action in box.table.state.legal_actions()
    assert "im Schnitt" in tip.why or "nur dieser Zug" in tip.why
    press(box, K1)  # Machen (a black row would ask first)
    if labels(box)[0] == "Legen":
        press(box, K1)
    assert box.table.session.record.actions[committed] == tip.action
    if box.table.to_move() == 0 and box.table.state.placed_now:
        assert labels(box)[3] == "Stopp"  # a die lies: K4 is Stopp again


def test_engel_und_bengel_tipp_is_what_stark_plays() -> None:
    from spielleiter.games.engel_bengel import bots, tips
    from spielleiter.games.engel_bengel.rules import EngelBengelGame

    state = EngelBengelGame({"players": 3}).new_initial_state()
    chance = random.Random(4)
    checked = 0
    while checked < 6 and not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(chance.choices(*zip(*outcomes, strict=True))[0])
            continue
        view = state.view(state.current_player())
        tip = tips.tip(view, random.Random(12))
        assert tip.action == bots.stark_move(view, random.Random(12))
        state.apply_action(tip.action)
        checked += 1
    assert checked == 6


@pytest.mark.parametrize("game", ["bungee", "engel-bengel"])
def test_no_tipp_where_two_humans_share_the_table(game: str, tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    seats = [ANNA, Seat("Ben"), *computers(1)]
    session = Session.start(store, game, {"players": 3}, seats, seed=2)
    table = catalog.entry(game).table_class()(HeadlessHost(store), session)
    table.advance()
    for _ in range(200):
        if table.human_to_move() and table.waiting_for(table.to_move()):
            break
        if table.holding():
            table.proceed()
        elif table.to_move() == CHANCE:
            table.supply(session.draw_chance())
        else:
            table.advance()
    assert table.human_to_move()
    assert table.advice(random.Random(1)) is None


def test_no_tipp_at_bungees_real_card_table(tmp_path: Path) -> None:
    box = new_box(tmp_path, "bungee", {"rounds": 1, "mode": "tisch"}, [ANNA, Seat("Ben")])
    assert box.table.advice(random.Random(1)) is None
    assert "Tipp" not in labels(box)


@pytest.mark.parametrize("game", ["besenbingo", "bungee", "engel-bengel"])
def test_every_game_declares_its_tipp_for_the_catalog(game: str) -> None:
    entry = catalog.entry(game)
    assert entry.advice.startswith("Tipp")
    keys = next(page for page in entry.help if page.startswith("Tasten"))
    assert "Tipp" in keys


# --- Maskenball: the Tipps at the setup, the preselection ----------------------------------


def test_maskenballs_tipps_are_offered_at_the_setup(tmp_path: Path) -> None:
    from spielleiter.ui.menus import open_setup

    store = Store.open(tmp_path / "data")
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(5))
    box.reload_settings()
    box.push(main_menu(box))
    open_setup(box, catalog.entry("maskenball"))
    menu = box.top
    items = [item.text() for item in menu.items]
    assert "Tipps: aus" in items  # off unless chosen, but there at the setup
    menu.index = items.index("Tipps: aus")
    press(box, K3)
    assert "Tipps: an" in [item.text() for item in menu.items]
    menu.index = [item.text() for item in menu.items].index("Start")
    press(box, K3)
    assert box.settings()["maskenball.tips"] is True
    assert "tips" not in box.session.record.params  # a setting, never a rule of the record


def test_maskenball_never_starts_on_a_beetle_known_to_turn_away(tmp_path: Path) -> None:
    from spielleiter.games.maskenball.rules import PENDING_REPORT

    box = new_box(tmp_path, "maskenball", {"players": 1, "mode": "physical"}, [Seat("Tisch")])
    screen = box.top
    table = box.table
    turned_away: set[tuple[int, int]] = set()
    checked = 0
    for _ in range(400):
        if table.over:
            break
        state = table.state
        pending = state.pending()
        if pending == "spin":
            screen.take_spin(random.Random(len(state.history())).randrange(16))
        elif pending == PENDING_REPORT:
            a, b = state.flyer(), state.visited()
            swap = (a < 4) != (b < 4)  # two magnet groups: 0-3 and 4-7
            if not swap:
                turned_away.add((a, b))
            screen.report(swap)
        else:
            flyer = state.flyer()
            if flyer is not None and pending != "choose":
                cursor = screen.cursor
                mates = [b for b in table.allowed() if (b < 4) == (flyer < 4)]
                if len(turned_away) < 3 and mates and not any(f == flyer for f, _ in turned_away):
                    screen.cursor, screen.cursor_moved = mates[0], True  # a visit that fails
                    press(box, K3)
                    continue
                hopeful = [b for b in table.allowed() if table.swap_chance(flyer, b) > 0]
                if hopeful:
                    assert (flyer, cursor) not in turned_away
                    assert table.swap_chance(flyer, cursor) == max(
                        table.swap_chance(flyer, b) for b in table.allowed()
                    )
                    checked += 1
            press(box, K3)
        box.settle()
    assert checked >= 10 and turned_away


# --- Engel & Bengel: the preselection ------------------------------------------------------


def test_engel_und_bengel_never_preselects_a_costly_black_row_beside_a_free_one(
    tmp_path: Path,
) -> None:
    """Six Durchgänge of Legen on whatever the board preselects: never a black row that
    costs while a placement costing nothing is open; the warning comes only where every
    fitting die costs."""
    from spielleiter.games.engel_bengel.rules import Move, place_action
    from spielleiter.games.engel_bengel.screens import BoardScreen

    box = new_box(tmp_path, "engel-bengel", {"start": "erster"}, [ANNA, *computers(2)],
                  {"wuerfel": "box"})  # fmt: skip
    table = box.table
    checked = warned = 0
    for _ in range(3000):
        if table.over or len(table.state.results) >= 6:
            break
        top = box.top
        if not isinstance(top, BoardScreen) or not top.mine():
            press(box, K4) if labels(box)[3] == "Weiter" else box.settle()
            continue
        die, row = top.choice()
        legal = [a for a in table.state.legal_actions() if a >= 2]
        free = [a for a in legal if not table.black_cost(a)]
        if die:
            assert not (table.black_cost(place_action(row, die)) and free)
            checked += 1
        press(box, K3)  # Legen (or Nochmal)
        if labels(box)[0] == "Legen":  # the black row's warning: there was no free one
            assert die and not free
            warned += 1
            press(box, K1)
        elif Move.STOPP in table.state.legal_actions() and table.state.placed_now >= 2:
            press(box, K4)  # Stopp now and then
    assert checked >= 30
