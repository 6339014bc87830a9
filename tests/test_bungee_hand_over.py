"""Bungee with several humans at one box: a hand shows only after its hand-over.

Gegen Computer with two humans (and a computer): before a human's cards show, the panel
names who takes the box ("Anna ist dran - Box nehmen, OK zeigt die Karten"); at the end
of that player's move the cards are hidden again (during the Zurück moment too) and
the public table shows: the seats with their card counts and calls, the lucky number,
the discard, the pile, the news. What the link's `screen` serves is every frame the
panel showed with its summary: none of them shows a hand before its hand-over.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from helpers import assert_golden
from PIL import Image
from spielleiter.app import Box, VirtualClock
from spielleiter.games.base import Seat
from spielleiter.games.bungee import bots
from spielleiter.games.bungee.rules import Move, Phase, decode_discard
from spielleiter.games.bungee.screens import PlayScreen, SheetScreen, StandingsScreen
from spielleiter.games.bungee.table import BungeeTable
from spielleiter.games.table import HeadlessHost
from spielleiter.hal.display import FrameSink
from spielleiter.hal.keys import Key, KeyEvent
from spielleiter.session import Session
from spielleiter.store import Store
from spielleiter.ui.canvas import Canvas, ShownFrame
from spielleiter.ui.hand_over import HandOverScreen
from spielleiter.ui.menus import launch, main_menu, resume_prompt
from spielleiter.ui.screen import render
from spielleiter.ui.take_back import TakeBackScreen
from test_bungee_device import play_by_keys, press, solo_box

ANNA, BEN, NORMAL = 0, 1, 2


class Recorder(ShownFrame):
    """The box's shown frame, as the link serves it, kept for every frame sent."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[tuple[Image.Image, dict[str, Any]]] = []

    def shown(self, canvas: Canvas, summary: dict[str, Any]) -> None:
        super().shown(canvas, summary)
        self.frames.append((canvas.image.copy(), summary))


def two_humans_box(tmp_path: Path, rounds: int = 1) -> tuple[Box, Recorder]:
    """A box on a digital match: Anna and Ben share it against a Normal computer."""
    store = Store.open(tmp_path / "data")
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(5))
    recorder = Recorder()
    box._shown = recorder
    box.push(main_menu(box))
    seats = [Seat("Anna"), Seat("Ben"), Seat("Normal 3", "computer", "normal")]
    launch(box, "bungee", {"players": 3, "rounds": rounds}, seats)
    box.settle()
    return box, recorder


def cards_drawn(image: Image.Image) -> bool:
    """A card face is on the panel where the hand is drawn (an 18 x 19 outline)."""
    pixels = image.convert("L").load()
    for x in range(1, 120, 20):
        edges = [(x + dx, 23) for dx in range(18)] + [(x + dx, 41) for dx in range(18)]
        edges += [(x, 23 + dy) for dy in range(19)] + [(x + 17, 23 + dy) for dy in range(19)]
        if all(pixels[p] for p in edges):
            return True
    return False


def check_frames(frames: list[tuple[Image.Image, dict[str, Any]]]) -> dict[str, int]:
    """Every frame shows a hand only after that player's hand-over and during that
    player's turn; counts what was seen."""
    seen = {"hand_overs": 0, "hands": 0, "public": 0, "moments": 0}
    cleared: int | None = None
    for image, summary in frames:
        if summary.get("screen") == "hand_over":
            assert summary["under"]["hand"] == [] and not cards_drawn(image)
            cleared = summary["player"]
            seen["hand_overs"] += 1
            continue
        if summary.get("screen") != "bungee.table":
            continue  # a round's sheet (all hands are shown then), the menus
        if summary["to_move"] != cleared:
            cleared = None  # the move ended: a hand needs its hand-over again
        if summary["hand"]:
            assert summary["shown_to"] == cleared == summary["to_move"], summary
            assert cards_drawn(image)
            seen["hands"] += 1
        else:
            assert summary["shown_to"] is None and not cards_drawn(image), summary
            seen["public"] += 1
            seen["moments"] += bool(summary.get("take_back"))
    return seen


def play_on(box: Box, limit: int = 3000, zurueck: bool = False) -> bool:
    """Both humans play as Normal would, by the keys, until the Endstand; with `zurueck`
    the first discard of a human is taken back once. Returns whether one was."""
    taken_back = False
    for _ in range(limit):
        top = box.top
        if isinstance(top, StandingsScreen):
            return taken_back
        if isinstance(top, SheetScreen | HandOverScreen):
            press(box, Key.K4)
            continue
        assert isinstance(top, PlayScreen), top
        state = top.table.state
        seat = state.current_player()
        action = bots.normal(state.view(seat))
        if zurueck and not taken_back and decode_discard(action) and state.phase == Phase.TURN:
            taken_back = True
            take_back_after_discard(box, top, action)
            continue
        play_by_keys(top, box, action)
    raise AssertionError("the match did not end")


def take_back_after_discard(box: Box, screen: PlayScreen, action: int) -> None:
    """Discard by the keys, then Zurück within the moment: the player gets the box again
    through the hand-over, and the cards are as before."""
    seat = screen.table.to_move()
    hand = screen.hand()
    while screen.chosen() != decode_discard(action):
        press(box, Key.K1)
    box.dispatch(KeyEvent(Key.K2))
    box.step()
    moment = box.top
    assert isinstance(moment, TakeBackScreen)
    assert moment.summary()["hand"] == [] and not cards_drawn(render(moment).image)
    box.dispatch(KeyEvent(Key.K1))  # Zurück
    box.settle()
    over = box.top
    assert isinstance(over, HandOverScreen) and over.player == seat
    press(box, Key.K4)
    assert box.top is screen and screen.hand() == hand


def test_two_humans_never_see_each_others_hand_in_any_frame(tmp_path: Path) -> None:
    box, recorder = two_humans_box(tmp_path)
    assert play_on(box, zurueck=True)
    seen = check_frames(recorder.frames)
    assert seen["hand_overs"] > 4 and seen["hands"] > 4
    assert seen["public"] > 4 and seen["moments"] > 0
    shown_to = {s["shown_to"] for _, s in recorder.frames if s.get("screen") == "bungee.table"}
    assert {ANNA, BEN} <= shown_to and NORMAL not in shown_to
    png, summary = box.screen()  # the link serves the last frame sent
    assert png and summary == recorder.frames[-1][1]


def test_the_hand_over_names_the_player_and_ok_shows_the_cards(tmp_path: Path) -> None:
    box, _ = two_humans_box(tmp_path)
    over = box.top
    assert isinstance(over, HandOverScreen)
    screen = over.below()
    assert isinstance(screen, PlayScreen)
    seat = screen.table.to_move()
    assert over.player == seat and over.name == screen.table.name(seat)
    assert [k.label if k else "" for k in over.softkeys()] == ["", "", "", "OK"]
    assert_golden(box.frame().image, "bungee_hand_over")
    committed = screen.table.session.committed
    press(box, Key.K1, Key.K2, Key.K3)  # no move is made blind
    assert box.top is over and screen.table.session.committed == committed
    assert box.resolve_char("\n") is None and box.resolve_char(" ") is None
    assert box.resolve_char("o") == KeyEvent(Key.K4)
    press(box, Key.K4)
    assert box.top is screen and screen.shown_seat() == seat
    assert screen.hand() == sorted(screen.table.state.view(seat)["hand"])
    assert cards_drawn(box.frame().image)


def test_the_moment_after_a_move_shows_the_public_table(tmp_path: Path) -> None:
    box, _ = two_humans_box(tmp_path)
    press(box, Key.K4)  # OK: the first player's cards
    screen = box.top
    assert isinstance(screen, PlayScreen)
    seat = screen.table.to_move()
    press(box, Key.K1)
    box.dispatch(KeyEvent(Key.K2))  # Ablegen
    box.step()
    moment = box.top
    assert isinstance(moment, TakeBackScreen)
    assert screen.shown_seat() is None and screen.hand() == []
    summary = moment.summary()
    assert summary["hand"] == [] and summary["top"] is not None
    assert_golden(box.frame().image, "bungee_hidden")
    box.settle()  # the moment passes, the draw and the computer (its move shown)
    over = box.top
    assert isinstance(over, HandOverScreen) and over.player != seat


def test_a_take_keeps_the_hand_shown_until_the_discard_ends_the_move(tmp_path: Path) -> None:
    box, _ = two_humans_box(tmp_path)
    for _ in range(40):
        top = box.top
        if isinstance(top, HandOverScreen):
            press(box, Key.K4)
            continue
        assert isinstance(top, PlayScreen)
        if top.table.state.discards and top.table.to_move() in (ANNA, BEN):
            break
        state = top.table.state
        play_by_keys(top, box, bots.normal(state.view(state.current_player())))
    screen = box.top
    assert isinstance(screen, PlayScreen)
    seat = screen.table.to_move()
    box.dispatch(KeyEvent(Key.K4))  # Nehmen: the move goes on
    box.step()
    assert isinstance(box.top, TakeBackScreen)
    assert screen.shown_seat() == seat and cards_drawn(box.frame().image)
    box.settle()
    assert box.top is screen and screen.table.state.phase == Phase.TAKEN
    press(box, Key.K2)  # the discard ends it
    assert screen.shown_seat() is None or screen.table.to_move() == seat


def test_a_resumed_match_of_two_humans_starts_with_the_hand_over(tmp_path: Path) -> None:
    box, _ = two_humans_box(tmp_path, rounds=3)
    for _ in range(6):
        top = box.top
        if isinstance(top, HandOverScreen):
            press(box, Key.K4)
        top = box.top
        assert isinstance(top, PlayScreen)
        state = top.table.state
        play_by_keys(top, box, bots.normal(state.view(state.current_player())))
    record_id = box.store.unfinished_record()
    assert record_id is not None
    box.close()
    box.store.close()
    store = Store.open(tmp_path / "data")
    again = Box(store, FrameSink([]), VirtualClock(), random.Random(6))
    recorder = Recorder()
    again._shown = recorder
    again.push(main_menu(again))
    again.push(resume_prompt(again, record_id))
    press(again, Key.K1)  # Ja
    assert isinstance(again.top, HandOverScreen)
    check_frames(recorder.frames)
    assert not any(s.get("hand") for _, s in recorder.frames)


def test_with_one_human_the_hand_shows_without_a_hand_over(tmp_path: Path) -> None:
    box = solo_box(tmp_path, rounds=1)
    turns = 0
    while not isinstance(box.top, SheetScreen):
        top = box.top
        assert isinstance(top, PlayScreen), "one human needs no hand-over"
        assert top.shown_seat() == 0 and top.hand()
        state = top.table.state
        play_by_keys(top, box, bots.normal(state.view(state.current_player())))
        turns += 1
    assert turns > 2


def test_the_table_wants_a_hand_over_only_for_humans_who_share_the_box(store: Store) -> None:
    def table(seats: list[Seat], **params: object) -> BungeeTable:
        session = Session.start(store, "bungee", {"players": len(seats), **params}, seats, seed=2)
        made = BungeeTable(HeadlessHost(store), session)
        made.advance()
        return made

    cpu = Seat("Normal 3", "computer", "normal")
    two = table([Seat("Anna"), Seat("Ben"), cpu])
    assert two.hand_over(ANNA) and two.hand_over(BEN) and not two.hand_over(NORMAL)
    one = table([Seat("Anna"), cpu, cpu])
    assert not one.hand_over(ANNA)
    tisch = table([Seat("Anna"), Seat("Ben")], mode="tisch")
    assert not tisch.hand_over(ANNA) and not tisch.hand_over(BEN)
    rng = random.Random(1)
    while Move.TAKE not in two.state.legal_actions():
        legal = [a for a in two.state.legal_actions() if decode_discard(a)]
        two.command(two.to_move(), rng.choice(legal))
    seat, turn = two.to_move(), two.turn()
    two.command(seat, Move.TAKE)
    assert two.turn() == turn and two.to_move() == seat, "a take and its discard are one move"
    two.command(seat, two.state.legal_actions()[-1])
    assert two.turn() != turn
