"""Names: delete and rename on the box and from the laptop, only what the panel can draw,
and a stable alphabetical seat list with the last player marked.

A rename renames the player everywhere in one transaction: the names the box offers,
the Bestenliste's awards, and the name in the seats and meta of every finished record,
so the ratings (folded from the records, firmware/ratings.py) fold the renamed player
as one; renaming onto a name that is there merges the two. Deleting a name takes it off
the names offered; what it played stays.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from spielleiter import ratings
from spielleiter.app import Box
from spielleiter.games import catalog
from spielleiter.games.base import Seat
from spielleiter.games.table import HeadlessHost
from spielleiter.hal.clock import VirtualClock
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.link.fake import FakeDevice
from spielleiter.link.methods import GUARDED, Methods
from spielleiter.link.protocol import RpcError
from spielleiter.session import Session
from spielleiter.store import NameChange, Store, text_problem
from spielleiter.ui.menus import SetupFlow, main_menu, settings_menu
from spielleiter.ui.widgets import Confirm, ListMenu, Message, Speller

K1, K2, K3, K4 = (KeyEvent(k) for k in Key)
GAME = "speedtombola"


def finished_match(store: Store, humans: list[str], seed: int = 1) -> int:
    """A whole Speedtombola match of these humans and a computer, played to its end."""
    seats = [Seat(n) for n in humans]
    seats += [Seat(f"Normal {i}", "computer", "normal") for i in range(3 - len(seats))]
    session = Session.start(store, GAME, {"players": len(seats)}, seats, seed=seed)
    from spielleiter.games.speedtombola.table import SpeedtombolaTable

    table = SpeedtombolaTable(HeadlessHost(store), session)
    table.advance()
    rng = random.Random(seed)
    while not table.over:
        if table.holding():
            table.proceed()
        elif table.human_to_move():
            table.command(table.to_move(), rng.choice(table.state.legal_actions()))
        else:
            table.advance()
    store.remember_names(humans)
    return session.record_id


def names_in_records(store: Store) -> set[str]:
    return {s.name for r in store.records() for s in store.record(r.id).seats if s.is_human}


# --- the store -------------------------------------------------------------------------


def test_a_rename_renames_the_player_everywhere_and_the_ratings_follow(store: Store) -> None:
    finished_match(store, ["Anna", "Ben"], seed=1)
    finished_match(store, ["Anna", "Cleo"], seed=2)
    before = {line.label: line.rating for line in ratings.lines(store, GAME)}
    points = {s.name: s.points for s in store.bestenliste(GAME)}
    assert store.rename_name("Anna", "Annika") is False
    assert "Anna" not in store.names() and "Annika" in store.names()
    assert names_in_records(store) == {"Annika", "Ben", "Cleo"}
    for r in store.records():
        meta = store.record(r.id).meta
        assert "Anna" not in meta.get("bestenliste", {})
        assert "Annika" in meta.get("bestenliste", {})
    after = {s.name: s.points for s in store.bestenliste(GAME)}
    assert after["Annika"] == points["Anna"] and "Anna" not in after
    rated = {line.label: line.rating for line in ratings.lines(store, GAME)}
    assert "Anna" not in rated
    assert (rated["Annika"].mu, rated["Annika"].matches) == (before["Anna"].mu, 2)


def test_renaming_onto_a_name_that_is_there_merges_the_two(store: Store) -> None:
    finished_match(store, ["Jorg", "Ben"], seed=1)
    finished_match(store, ["Jörg", "Cleo"], seed=2)
    points = {s.name: s.points for s in store.bestenliste(GAME)}
    assert store.rename_name("Jorg", "Jörg") is True
    assert store.names().count("Jörg") == 1 and "Jorg" not in store.names()
    merged = {s.name: s for s in store.bestenliste(GAME)}
    assert merged["Jörg"].points == points["Jorg"] + points["Jörg"]
    assert merged["Jörg"].matches == 2
    rated = {line.label: line.rating for line in ratings.lines(store, GAME)}
    assert rated["Jörg"].matches == 2 and "Jorg" not in rated


def test_two_who_played_together_are_never_merged(store: Store) -> None:
    finished_match(store, ["Anna", "Ben"])
    with pytest.raises(NameChange) as refused:
        store.rename_name("Anna", "Ben")
    assert refused.value.why == "together"
    assert names_in_records(store) == {"Anna", "Ben"}  # nothing changed


def test_a_name_in_a_match_that_is_not_over_is_not_renamed(store: Store) -> None:
    store.remember_names(["Anna"])
    seats = [Seat("Anna"), Seat("Normal 1", "computer", "normal"), Seat("Normal 2", "computer")]
    Session.start(store, GAME, {"players": 3}, seats, seed=1)
    with pytest.raises(NameChange) as refused:
        store.rename_name("Anna", "Annika")
    assert refused.value.why == "running" and "Anna" in store.names()


def test_the_same_name_or_none_is_refused(store: Store) -> None:
    store.remember_names(["Anna"])
    with pytest.raises(NameChange, match="old one"):
        store.rename_name("Anna", "Anna")
    with pytest.raises(NameChange) as refused:
        store.rename_name("Nobody", "Anna")
    assert refused.value.why == "unknown"


def test_deleting_a_name_keeps_what_it_played(store: Store) -> None:
    finished_match(store, ["Anna", "Ben"])
    store.delete_name("Anna")
    assert "Anna" not in store.names() and "Ben" in store.names()
    assert "Anna" in names_in_records(store)
    assert "Anna" in {s.name for s in store.bestenliste(GAME)}
    with pytest.raises(NameChange):
        store.delete_name("Anna")


@pytest.mark.parametrize(
    "name", ["Ben\u202e", "Anna\u0007", "Emoji\U0001f600", "Soft\u00adhyphen", "Tab\tbed"]
)
def test_only_what_the_panel_can_draw_is_a_name_or_a_board_name(name: str, store: Store) -> None:
    assert text_problem(name) is not None
    methods = Methods(FakeDevice(store))
    with pytest.raises(RpcError):
        methods.call("names.add", {"names": [name]})
    board = store.boards("besenbingo")["Blocksberg"] if "Blocksberg" in store.boards(
        "besenbingo"
    ) else next(iter(store.boards("besenbingo").values()))
    with pytest.raises(RpcError):
        methods.call("boards.put", {"game": "besenbingo", "boards": {name: board}})
    with pytest.raises(RpcError):
        renamed = {"Neu": {**board, "name": name}}
        methods.call("boards.put", {"game": "besenbingo", "boards": renamed})
    assert "Neu" not in store.boards("besenbingo")


def test_a_board_name_with_a_control_character_is_refused_as_a_boards_name(
    store: Store,
) -> None:
    assert text_problem("Tab\tbed") == "a name has no control characters"
    assert text_problem("Tab\tbed", board=True) == "a board's name has no control characters"
    board = next(iter(store.boards("besenbingo").values()))
    with pytest.raises(RpcError) as refused:
        Methods(FakeDevice(store)).call("boards.put", {"game": "besenbingo",
                                                       "boards": {"Tab\tbed": board}})
    assert "a board's name has no control characters" in refused.value.message


def test_umlauts_and_accents_are_names() -> None:
    assert text_problem("Jörg") is None and text_problem("Renée") is None


# --- the link ---------------------------------------------------------------------------


def test_the_link_renames_and_deletes_with_the_pin(store: Store) -> None:
    from spielleiter import admin

    finished_match(store, ["Anna", "Ben"])
    store.set_settings({"admin.pin": "2468"})
    admin.reset(store)
    methods = Methods(FakeDevice(store))
    assert {"names.delete", "names.rename"} <= GUARDED
    with pytest.raises(RpcError):
        methods.call("names.rename", {"old": "Anna", "new": "Annika"})
    answer = methods.call("names.rename", {"old": "Anna", "new": "Annika", "pin": "2468"})
    assert answer["merged"] is False and "Annika" in answer["names"]
    with pytest.raises(RpcError) as refused:
        methods.call("names.rename", {"old": "Annika", "new": "Ben", "pin": "2468"})
    assert refused.value.data["path"] == "new"  # played together
    with pytest.raises(RpcError) as refused:
        methods.call("names.rename", {"old": "Annika", "new": "B\u202e", "pin": "2468"})
    answer = methods.call("names.delete", {"name": "Ben", "pin": "2468"})
    assert answer["deleted"] == "Ben" and answer["names"] == ["Annika"]


@pytest.mark.usefixtures("english")
def test_the_laptop_renames_and_deletes(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    from spielleiter.link.server import LinkServer
    from spielleiter_host.cli import main

    finished_match(store, ["Jorg", "Ben"], seed=1)
    finished_match(store, ["Jörg"], seed=2)
    with LinkServer.on_pty(FakeDevice(store)) as server:
        port = ["--port", server.port_name, "--timeout", "3"]
        assert main(["names", "rename", "Jorg", "Jörg", *port]) == 0
        assert "Jorg and Jörg are one player now" in capsys.readouterr().out
        assert main(["names", "delete", "Ben", *port]) == 0
        assert main(["names", "delete", "Ben", *port]) == 1  # no such name any more
    assert store.names() == ["Jörg"]
    assert {s.name for s in store.bestenliste(GAME)} == {"Jörg", "Ben"}


# --- the box ------------------------------------------------------------------------------


def box_with(tmp_path: Path, names: list[str]) -> Box:
    store = Store.open(tmp_path / "data")
    store.remember_names(names)
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(1))
    box.reload_settings()
    box.push(main_menu(box))
    return box


def press(box: Box, *keys: KeyEvent) -> None:
    for key in keys:
        box.dispatch(key)
        box.settle()


def choose(box: Box, label: str) -> None:
    """OK on the item of the top list with this label (menus are walked by label)."""
    menu = box.top
    assert isinstance(menu, ListMenu)
    menu.index = [item.text() for item in menu.items].index(label)
    press(box, K3)


def test_the_seat_list_is_alphabetical_with_the_last_player_marked(tmp_path: Path) -> None:
    box = box_with(tmp_path, ["Zora", "Anna", "Ölaf", "ben"])
    box.store.remember_name("Max")  # the last to play
    flow = SetupFlow(catalog.entry(GAME))
    flow.first_screen(box)
    labels = [item.text() for item in flow.seat_menu().items]
    assert labels[:5] == ["Anna", "ben", "Max (zuletzt)", "Ölaf", "Zora"]
    box.store.remember_name("Anna")  # playing again reorders nothing but the mark
    labels = [item.text() for item in flow.seat_menu().items]
    assert labels[:5] == ["Anna (zuletzt)", "ben", "Max", "Ölaf", "Zora"]


def test_einstellungen_namen_renames_on_the_box(tmp_path: Path) -> None:
    box = box_with(tmp_path, ["Anna", "Ben"])
    box.push(settings_menu(box))
    choose(box, "Namen")
    assert [i.text() for i in box.top.items] == ["Anna", "Ben (zuletzt)"]
    choose(box, "Anna")
    choose(box, "Umbenennen")
    speller = box.top
    assert isinstance(speller, Speller) and speller.word == "Anna"
    for ch in "\x08\x08ike\n":  # "Anna" -> "Anike"
        box.post(ch)
        box.step()
    assert box.top.title == "Namen"
    assert [i.text() for i in box.top.items] == ["Anike", "Ben (zuletzt)"]


def test_einstellungen_namen_merges_after_asking(tmp_path: Path) -> None:
    box = box_with(tmp_path, ["Jorg", "Jörg"])
    box.push(settings_menu(box))
    choose(box, "Namen")
    choose(box, "Jorg")
    choose(box, "Umbenennen")
    box.top.word = "Jörg"
    box.post("\n")
    box.step()
    assert isinstance(box.top, Confirm) and "zusammenlegen" in box.top.question
    press(box, K1)  # Ja
    assert isinstance(box.top, Message) and "ein Spieler" in box.top.text
    press(box, K3)
    assert [i.text() for i in box.top.items] == ["Jörg (zuletzt)"]


def test_einstellungen_namen_deletes_after_asking(tmp_path: Path) -> None:
    box = box_with(tmp_path, ["Anna", "Ben"])
    box.push(settings_menu(box))
    choose(box, "Namen")
    choose(box, "Ben (zuletzt)")
    choose(box, "Löschen")
    assert isinstance(box.top, Confirm)
    press(box, K1)
    assert [i.text() for i in box.top.items] == ["Anna (zuletzt)"]
    assert box.store.names() == ["Anna"]


def test_a_refused_rename_says_why_on_the_box(tmp_path: Path) -> None:
    box = box_with(tmp_path, [])
    finished_match(box.store, ["Anna", "Ben"])
    box.push(settings_menu(box))
    choose(box, "Namen")
    choose(box, "Anna")
    choose(box, "Umbenennen")
    box.top.word = "Ben"
    box.post("\n")
    box.step()
    press(box, K1)  # Ja, zusammenlegen
    assert isinstance(box.top, Message) and "zwei Spieler" in box.top.text
    assert set(box.store.names()) == {"Anna", "Ben"}
