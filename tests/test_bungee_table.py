"""The Bungee table headless: computers, the round sheet, real cards, the Bestenliste."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from spielleiter.games.base import CHANCE, IllegalActionError, Seat
from spielleiter.games.bungee.rules import Move, Phase, hand_action, lucky_action, zug_action
from spielleiter.games.bungee.table import BungeeTable
from spielleiter.games.table import HeadlessHost
from spielleiter.session import Session
from spielleiter.store import Store


def table_for(store: Store, seats: list[Seat], **params: object) -> BungeeTable:
    session = Session.start(store, "bungee", {"players": len(seats), **params}, seats, seed=3)
    table = BungeeTable(HeadlessHost(store), session)
    table.advance()
    return table


def test_computers_play_a_whole_match_and_each_sheet_waits_for_weiter(store: Store) -> None:
    seats = [Seat(f"Normal {i}", "computer", "normal") for i in range(1, 4)]
    table = table_for(store, seats, rounds=3)
    sheets = 0
    while not table.over or table.holding():
        assert table.holding(), "only a sheet stops a match of computers"
        assert table.sheet_round() == sheets
        table.proceed()
        sheets += 1
    assert sheets == 3 and len(table.state.results) == 3
    assert table.session.record.meta["finished"]


def test_a_human_plays_by_commands_and_is_refused_with_a_reason(store: Store) -> None:
    table = table_for(store, [Seat("Anna"), Seat("Normal 1", "computer", "normal")])
    rng = random.Random(1)
    for _ in range(200):
        if table.over:
            break
        if table.holding():
            table.proceed()
            continue
        assert table.human_to_move()
        legal = table.state.legal_actions()
        if Move.CALL not in legal and table.state.phase == Phase.TURN:
            with pytest.raises(IllegalActionError, match="Bungee nur mit 5"):
                table.command(0, Move.CALL)
        table.command(0, rng.choice(legal))
    assert table.news


def test_the_bestenliste_adds_up_the_totals_lowest_first_with_the_wins(store: Store) -> None:
    seats = [Seat("Anna"), Seat("Ben"), Seat("Leicht 1", "computer", "leicht")]
    table = table_for(store, seats, rounds=1)
    rng = random.Random(2)
    while not table.over or table.holding():
        if table.holding():
            table.proceed()
        elif table.to_move() == CHANCE:
            table.advance()
        else:
            table.command(table.to_move(), rng.choice(table.state.legal_actions()))
    totals = table.state.totals
    lines = store.bestenliste("bungee", lowest_first=True)
    assert {s.name: s.points for s in lines} == {"Anna": totals[0], "Ben": totals[1]}
    assert lines[0].points <= lines[1].points
    places = table.state.places()
    wins = {s.name: s.wins for s in lines}
    assert wins == {"Anna": int(places[0] == 1), "Ben": int(places[1] == 1)}
    meta = store.record(table.session.record_id).meta
    assert meta["totals"]["Anna"] == totals[0]


def test_real_cards_keep_turns_calls_and_the_sheet(store: Store) -> None:
    table = table_for(store, [Seat("Anna"), Seat("Ben"), Seat("Cleo")], mode="tisch", rounds=1)
    assert table.tisch and table.to_move() == 0
    table.command(0, lucky_action(3))
    table.command(1, zug_action(2))  # two 6s: Cleo and Anna sit out
    assert table.to_move() == 1 and "Cleo, Anna setzen aus" in table.news
    table.command(1, Move.CALL)
    assert table.news == "Ben: Erstes Bungee!"
    table.command(2, Move.CALL)
    assert table.news == "Cleo: Zweites Bungee!"
    table.command(0, zug_action(0))
    assert table.state.phase == Phase.ENTER
    assert table.hand_problem([None, (7, 0), None]) is not None
    assert table.hand_problem([None, (4, 0), (4, 1)]) is None
    for seat, entry in ((1, (4, 0)), (2, (4, 1)), (0, (20, 0))):
        table.command(seat, hand_action(*entry))
    assert table.holding()
    result = table.state.results[0]
    assert result.winners == (2,) and result.scores == (20, 4, -10)


def test_replay_prints_each_rounds_sheet_and_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from spielleiter.games.base import sample_chance
    from spielleiter.games.bungee import bots
    from spielleiter.games.bungee.rules import BungeeGame
    from spielleiter.records import Record
    from spielleiter_host import cli

    state = BungeeGame({"players": 3, "rounds": 2}).new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(bots.normal(state.view(state.current_player())))
    seats = [Seat("Anna"), Seat("Normal 1", "computer", "normal"), Seat("Carl")]
    path = tmp_path / "partie.json"
    path.write_text(Record("bungee", dict(state.game.params), seats, state.history()).dumps())
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Runde 1: Glückszahl" in out and "Runde 2: Glückszahl" in out
    assert "Endstand" in out and "gewinnt" in out
