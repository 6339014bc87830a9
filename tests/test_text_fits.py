"""Every screen fits: no text leaves its box, is cut, or overlaps another.

Whole matches of every game of the catalog are played on the box with random presses
(the seats with the longest names the box takes, 8 seats where a game allows them, the
table modes too), and every frame is checked with the fonts' own glyphs
(tests/fits.py); so are the pause menu's Hilfe and Info pages on the way, the setup
menus, the settings and the Bestenliste with the biggest numbers.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fits import problems, report
from spielleiter.app import Box
from spielleiter.games import catalog
from spielleiter.games.base import Seat
from spielleiter.hal.clock import VirtualClock
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.store import Store
from spielleiter.ui.menus import PauseMenu, launch, main_menu
from spielleiter.ui.screen import Screen, render
from spielleiter.ui.widgets import Pages

LONGEST = "Maximilianus"
"""A name as long as the speller takes (12 letters)."""
SECOND = "Wilhelmine-K"


def humans(n: int) -> list[Seat]:
    names = [LONGEST, SECOND, "Bartholomaeu", "Friederike-S", "Konstantinos"]
    return [Seat(names[i]) for i in range(n)]


def computers(n: int, level: str, first: int = 1) -> list[Seat]:
    label = level.title()
    return [Seat(f"{label} {first + i}", "computer", level) for i in range(n)]


Start = Callable[[Box], None]


def besenbingo(seats: list[Seat], rounds: int = 1, paper: bool = False) -> Start:
    def begin(box: Box) -> None:
        from spielleiter.games.besenbingo.table import digital_durchgang, paper_durchgang

        if paper:
            launch(box, "besenbingo", *paper_durchgang())
        else:
            launch(box, "besenbingo", *digital_durchgang(box.store, seats, rounds=rounds))

    return begin


def plain(game: str, params: dict[str, Any], seats: list[Seat], **meta: Any) -> Start:
    def begin(box: Box) -> None:
        launch(box, game, {"players": len(seats), **params}, seats, meta or None)

    return begin


def bungee(mode: str, seats: list[Seat]) -> Start:
    return plain("bungee", {"mode": mode, "rounds": 6}, seats)


MATCHES: dict[str, Start] = {
    "speedtombola-7": plain("speedtombola", {"rounds": 3}, [*humans(1), *computers(6, "leicht")]),
    "speedtombola-2-humans": plain(
        "speedtombola", {"rounds": 3}, [*humans(2), *computers(1, "normal")]
    ),
    "besenbingo-9": besenbingo([*humans(1), *computers(8, "leicht")]),
    "besenbingo-humans": besenbingo([*humans(2), *computers(1, "stark")]),
    "besenbingo-solo": besenbingo(humans(1), rounds=3),
    "besenbingo-paper": besenbingo([], paper=True),
    "maskenball-8": plain("maskenball", {"players": 8, "mode": "digital"}, [Seat("Tisch")]),
    "maskenball-physical": plain("maskenball", {"players": 2, "mode": "physical"}, [Seat("Tisch")]),
    "bungee-digital": bungee("digital", [*humans(1), *computers(4, "leicht")]),
    "bungee-tisch": bungee("tisch", humans(5)),
    "engel-bengel-8": plain("engel-bengel", {}, [*humans(1), *computers(7, "leicht")]),
    "engel-bengel-real": plain(
        "engel-bengel", {}, [*humans(2), *computers(1, "normal")], wuerfel="echt"
    ),
}


def check(box: Box, screen: Screen, where: str, found: list[tuple[str, str]]) -> None:
    canvas = render(screen)
    found.extend((f"{where} {type(screen).__name__}", p) for p in problems(canvas))


def check_pages(box: Box, pages: Pages, where: str, found: list[tuple[str, str]]) -> None:
    for page in range(len(pages.pages)):
        pages.page = page
        check(box, pages, f"{where} {pages.title!r} page {page + 1}", found)


def visit_pause_menu(box: Box, where: str, found: list[tuple[str, str]]) -> None:
    """The pause menu, and every page of what it shows (not its ways out, not toggles)."""
    if box.game_screen() is None or isinstance(box.top, PauseMenu):
        return
    depth = len(box.stack)
    box.open_menu()
    menu = box.top
    if not isinstance(menu, PauseMenu):
        return
    check(box, menu, where, found)
    for item in list(menu.items):
        if item.text() not in ("Hilfe", "Info"):
            continue
        item.action()
        if isinstance(box.top, Pages):
            check_pages(box, box.top, where, found)
        box.pop()
    del box.stack[depth:]


def play(box: Box, name: str, steps: int, found: list[tuple[str, str]]) -> None:
    rng = random.Random(name)
    for step in range(steps):
        if box.table is None:
            break
        if step % 60 == 30:
            visit_pause_menu(box, name, found)
        key = KeyEvent(Key(rng.randint(1, 4)))
        box.dispatch(key)
        box.step()
        check(box, box.top, name, found)
        box.settle()
        check(box, box.top, name, found)
        assert box.errors == 0


@pytest.mark.parametrize("name", list(MATCHES))
def test_every_screen_of_every_game_fits(name: str, tmp_path: Path) -> None:
    store = Store.open(tmp_path / "data")
    store.set_settings({"maskenball.tips": True, "bot.playouts": 200})
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(7))
    box.reload_settings()
    box.push(main_menu(box))
    MATCHES[name](box)
    box.settle()
    found: list[tuple[str, str]] = []
    check(box, box.top, name, found)
    play(box, name, 1500, found)
    assert not found, "texts that do not fit:\n" + report(found)


def test_every_game_of_the_catalog_is_played() -> None:
    played = {name.split("-")[0] for name in MATCHES}
    assert {e.id.split("-")[0] for e in catalog.entries()} == played


# --- the menus: setup of every game, the settings, the Bestenliste ------------------------


def walk_menus(
    box: Box, found: list[tuple[str, str]], visited: set[str], depth: int = 0, path: str = ""
) -> int:
    """Every screen reached by OK from the top screen: each is checked (a menu of the same
    title is entered once); a game that starts is checked on its first screen, left again."""
    top = box.top
    assert top is not None
    check(box, top, path or "main", found)
    title = f"{type(top).__name__} {getattr(top, 'title', '')}"
    if depth >= 12 or not hasattr(top, "items") or title in visited:
        return 1
    visited.add(title)
    seen = 1
    saved = list(box.stack)
    for index in range(len(top.items)):
        label = top.items[index].text()
        if label in ("PIN löschen", "Neue PIN") or label.startswith("Link-Port"):
            continue
        top.index = index
        box.dispatch(KeyEvent(Key.K3))
        box.settle()
        if box.table is not None:
            check(box, box.top, f"{path}/{label}", found)
            box.table.leave()
            box.show_table(None)
        elif box.top is not top and box.top is not None:
            seen += walk_menus(box, found, visited, depth + 1, f"{path}/{label}")
        box.stack[:] = saved
        box.stack[-1].enter()
    return seen


def test_every_menu_fits_with_the_longest_names_and_the_biggest_numbers(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "data")
    for seat in humans(5):
        store.remember_name(seat.name)
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(7))
    box.reload_settings()
    box.push(main_menu(box))
    found: list[tuple[str, str]] = []
    assert walk_menus(box, found, set()) > 100
    assert not found, "texts that do not fit:\n" + report(found)


def test_a_durchgang_line_with_many_rows_says_how_many_and_their_sum(tmp_path: Path) -> None:
    """Five rows paid in one Durchgang do not fit the line: never one of them lost."""
    from spielleiter.games.engel_bengel.rules import DurchgangResult, Payment
    from spielleiter.games.engel_bengel.screens import SettlementScreen

    store = Store.open(tmp_path / "data")
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(7))
    box.push(main_menu(box))
    MATCHES["engel-bengel-real"](box)
    box.settle()
    moved = (5, 6, -4, -8, 7)
    result = DurchgangResult(
        1, "x", tuple(Payment(0, r, m, m) for r, m in enumerate(moved)), (86, 80, 80), 0, 1
    )
    box.table.settlement = lambda: result
    screen = SettlementScreen(box.game_screen())
    screen.attach(box)
    canvas = render(screen)
    assert not problems(canvas)
    assert any("5 Reihen +6" in run.text for run in canvas.runs)


# --- the Hilfe: a keys page, the surprises, the signs in words ---------------------------


@pytest.mark.parametrize("game", catalog.names())
def test_every_games_hilfe_has_a_keys_page(game: str) -> None:
    pages = [page for page in catalog.entry(game).help if page.startswith("Tasten")]
    assert len(pages) == 1, "one page tells what each key does"
    assert all(key in pages[0] for key in "1234")


def test_speedtombolas_hilfe_tells_of_the_lots_removed_unseen() -> None:
    assert any("9 Lose ungesehen" in page for page in catalog.entry("speedtombola").help)


def hilfe(tmp_path: Path, name: str) -> list[str]:
    """The Hilfe's pages as the pause menu shows them in a match."""
    store = Store.open(tmp_path / "data")
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(7))
    box.reload_settings()
    box.push(main_menu(box))
    MATCHES[name](box)
    box.settle()
    box.open_menu()
    item = next(i for i in box.top.items if i.text() == "Hilfe")
    item.action()
    assert isinstance(box.top, Pages)
    return box.top.pages


def test_besenbingos_hilfe_says_its_signs_in_words(tmp_path: Path) -> None:
    text = " ".join(hilfe(tmp_path, "besenbingo-9"))
    for words in ("W Walpurga", "Ka Katze", "Rb Rabe", "Min. Minus", "Schraffiert"):
        assert words in text.replace("\n", " ")


def test_engel_und_bengels_hilfe_says_its_signs_in_words(tmp_path: Path) -> None:
    text = " ".join(hilfe(tmp_path, "engel-bengel-8")).replace("\n", " ")
    for words in ("schwarz (Bengel)", "weiß (Engel)", "gelegter Würfel", "* eine beliebige",
                  "= dieselbe", "rot"):  # fmt: skip
        assert words in text


def test_the_biggest_numbers_fit(tmp_path: Path) -> None:
    """The tables' numbers at their widest (three-digit points and chips, negative ones, a
    big pot) on the game screens with the longest names and the most seats."""
    found: list[tuple[str, str]] = []
    store = Store.open(tmp_path / "data")
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(7))
    box.reload_settings()
    box.push(main_menu(box))

    MATCHES["speedtombola-7"](box)
    box.settle()
    state = box.table.state
    state.lots[0] = list(range(3, 36, 2))  # no run: every lot counts, about 300 points
    state.groschen[1], state.groschen[2] = 55, 0
    state.pot = 77
    check(box, box.stack[1], "speedtombola big", found)

    MATCHES["engel-bengel-8"](box)
    box.settle()
    state = box.table.state
    state.chips[:] = [999, 0, 250, 99, 100, 1, 888, 777]
    check(box, box.stack[1], "engel-bengel big", found)

    MATCHES["bungee-digital"](box)
    box.settle()
    box.table.state.totals[:] = [250, -60, 199, -10, 105]
    check(box, box.stack[1], "bungee big", found)
    assert not found, "texts that do not fit:\n" + report(found)
