"""The Speedtombola table without a box: the flow of a match, its clock, its Tafel, its end."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from spielleiter.games.base import IllegalActionError, Seat
from spielleiter.games.speedtombola import bots
from spielleiter.games.speedtombola.rules import Move, bestenliste_points
from spielleiter.games.speedtombola.table import NO_GROSCHEN, SpeedtombolaTable
from spielleiter.games.table import HeadlessHost
from spielleiter.session import Session
from spielleiter.store import Store

SOLO = [Seat("Anna"), Seat("Stark 1", "computer", "stark"), Seat("Normal 2", "computer", "normal")]
TWO = [Seat("Anna"), Seat("Ben"), Seat("Normal 1", "computer", "normal")]
CPUS = [Seat(f"Normal {i}", "computer", "normal") for i in range(1, 4)]


def make_table(
    store: Store,
    seats: list[Seat],
    rounds: int = 1,
    seed: int = 7,
    settings: Mapping[str, Any] | None = None,
) -> tuple[SpeedtombolaTable, HeadlessHost]:
    """A started table on a headless host (computers answer at once)."""
    host = HeadlessHost(store, settings)
    session = Session.start(
        store, "speedtombola", {"players": len(seats), "rounds": rounds}, seats, seed=seed
    )
    table = SpeedtombolaTable(host, session)
    table.advance()
    return table, host


def human_plays_normal(table: SpeedtombolaTable, ask_rat: bool = False) -> None:
    """Play the match to its end: humans move as Normal would, each Tafel is read."""
    for _ in range(5000):
        if table.holding():
            table.proceed()
        elif table.over:
            return
        else:
            seat = table.to_move()
            assert table.waiting_for(seat), "the table waits for nobody"
            view = table.state.view(seat)
            if ask_rat:
                work = table.advice(random.Random(seat + 1))  # Rat on its own generator
                assert work is not None
                work()
            table.command(seat, bots.choose(view, level="normal", rng=random.Random(0)))
    raise AssertionError("the match did not end")


def expected_awards(table: SpeedtombolaTable) -> list[tuple[str, int]]:
    state = table.state
    places = state.places()
    return [
        (table.name(s), bestenliste_points([r.points[s] for r in state.results], places[s]))
        for s in table.humans()
    ]


def test_a_match_of_computers_plays_itself_and_waits_only_at_each_tafel(store: Store) -> None:
    table, _ = make_table(store, CPUS, rounds=3)
    for round_index in range(3):
        assert table.holding() and table.tafel_round() == round_index
        table.proceed()
    assert table.over and not table.holding() and table.standings_due()
    assert table.session.finished
    assert store.awards(table.session.record_id) == []  # no human, no Bestenliste line


def test_a_whole_match_with_a_human_fills_the_bestenliste_as_the_rules_say(store: Store) -> None:
    table, _ = make_table(store, SOLO, rounds=3)
    human_plays_normal(table)
    expected = expected_awards(table)
    assert [(a.name, a.points) for a in store.awards(table.session.record_id)] == expected
    assert [(s.name, s.points, s.matches) for s in store.bestenliste("speedtombola")] == [
        (name, points, 1) for name, points in expected
    ]
    rows = table.standings()
    assert [r[0] for r in rows] == sorted(r[0] for r in rows)
    assert {name: bonus for _, name, _, bonus in rows if bonus is not None} == dict(expected)


def test_the_end_is_committed_with_the_last_action(store: Store) -> None:
    table, _ = make_table(store, TWO)
    while not table.over:
        if table.holding():
            table.proceed()
            continue
        seat = table.to_move()
        table.command(seat, Move.NEHMEN)
    record_id = table.session.record_id
    stored = store.record(record_id)
    assert stored.meta.get("finished") and len(stored.actions) == table.session.committed
    assert [(a.name, a.points) for a in store.awards(record_id)] == expected_awards(table)
    assert stored.meta["bestenliste"] == dict(expected_awards(table))
    assert "bestenliste_done" not in stored.meta


def test_the_taker_draws_the_next_lot_at_once_and_decides_first(store: Store) -> None:
    table, _ = make_table(store, TWO)
    seat = table.to_move()
    lot = table.state.lot
    table.command(seat, Move.NEHMEN)
    assert lot in table.state.lots[seat]
    assert table.state.lot is not None and table.to_move() == seat
    assert table.news == f"{table.name(seat)} nimmt {lot}"


def test_the_news_says_nein_danke_and_the_groschen_taken(store: Store) -> None:
    table, _ = make_table(store, [Seat("Anna"), Seat("Ben"), Seat("Carla")])
    first = table.to_move()
    lot = table.state.lot
    table.command(first, Move.NEIN_DANKE)
    assert table.news == f"{table.name(first)}: Nein danke"
    table.command(table.to_move(), Move.NEHMEN)
    assert table.news.endswith(f"nimmt {lot} +1G")


def test_refusals_say_why_and_change_nothing(store: Store) -> None:
    table, _ = make_table(store, TWO)
    seat = table.to_move()
    other = next(s for s in table.humans() if s != seat)
    before = table.session.committed
    with pytest.raises(IllegalActionError, match="nicht am Zug"):
        table.command(other, Move.NEHMEN)
    table.state.groschen[seat] = 0  # as if every groschen was spent
    with pytest.raises(IllegalActionError) as refused:
        table.command(seat, Move.NEIN_DANKE)
    assert str(refused.value) == NO_GROSCHEN
    assert table.session.committed == before


def test_the_clock_says_nein_danke_then_takes_when_no_groschen_is_left(store: Store) -> None:
    clock = {"clock.enabled": True, "clock.seconds": 5}
    table, host = make_table(store, [Seat("Anna"), Seat("Ben"), Seat("Carla")], settings=clock)
    seat = table.to_move()
    assert table.seconds_left() == 5
    before = table.session.committed
    host.time = 4.9
    table.tick(host.time)
    assert table.session.committed == before
    host.time = 5.0
    table.tick(host.time)
    assert table.session.record.actions[before] == Move.NEIN_DANKE
    assert table.news == f"Zeit um! {table.name(seat)}: Nein danke"
    nxt = table.to_move()
    table.state.groschen[nxt] = 0
    host.time = 10.0
    table.tick(host.time)
    assert table.session.record.actions[before + 1] == Move.NEHMEN
    assert table.news.startswith(f"Zeit um! {table.name(nxt)} nimmt")


def test_with_the_clock_the_tafel_goes_on_by_itself(store: Store) -> None:
    table, host = make_table(
        store, CPUS, rounds=3, settings={"clock.enabled": True, "clock.tafel_seconds": 4}
    )
    assert table.tafel_round() == 0 and table.tafel_seconds_left() == 4
    host.time = 3.9
    table.tick(host.time)
    assert table.tafel_seen() == 0
    host.time = 4.0
    table.tick(host.time)
    assert table.session.record.meta["tafel_seen"] == 1
    assert table.tafel_round() == 1  # the computers played the next round at once


def test_without_the_clock_the_tafel_waits_for_weiter(store: Store) -> None:
    table, host = make_table(store, CPUS, rounds=3)
    host.time = 600.0
    table.tick(host.time)
    assert table.tafel_round() == 0 and table.tafel_seconds_left() is None
    committed = table.session.committed
    table.acknowledge_round()
    assert table.tafel_seen() == 1 and table.session.committed > committed
    playing, _ = make_table(store, TWO)
    with pytest.raises(IllegalActionError, match="keine Tafel"):
        playing.acknowledge_round()  # no round is finished yet


def test_a_resumed_match_shows_the_tafel_not_yet_read(store: Store) -> None:
    table, host = make_table(store, CPUS, rounds=3)
    table.close()
    again = SpeedtombolaTable(host, Session.resume(store, table.session.record_id))
    again.advance()
    assert again.tafel_round() == 0


def test_a_late_computer_answer_after_leaving_is_dropped(store: Store) -> None:
    host = HeadlessHost(store)
    host.deferred = True
    seats = [Seat("Normal 1", "computer", "normal"), Seat("Anna"), Seat("Normal 2", "computer")]
    session = Session.start(store, "speedtombola", {"players": 3}, seats, seed=3)
    table = SpeedtombolaTable(host, session)
    table.advance()
    assert table.thinking == 0
    committed = session.committed
    table.leave()  # the only human leaves: the match ends unscored
    host.run_pending()
    assert session.committed == committed and table.closed
    assert not store.record(session.record_id).meta.get("finished")
    assert store.unfinished_record() is None
    assert store.bestenliste("speedtombola") == []


def test_a_human_who_leaves_other_humans_gets_minus_ten_and_a_computer_plays_on(
    store: Store,
) -> None:
    table, host = make_table(store, TWO, settings={"speedtombola.takeover": "stark"})
    table.leave(0)
    assert not table.seats[0].is_human and table.seats[0].level == "stark"
    assert [(s.name, s.points) for s in store.bestenliste("speedtombola")] == [("Anna", -10)]
    human_plays_normal(table)
    names = {a.name for a in store.awards(table.session.record_id)}
    assert "Ben" in names and "Anna (CPU)" not in names


def test_asking_rat_changes_no_lot_and_no_computers_move(store: Store) -> None:
    quiet, _ = make_table(store, SOLO, seed=11)
    human_plays_normal(quiet)
    asking, _ = make_table(store, SOLO, seed=11)
    human_plays_normal(asking, ask_rat=True)
    assert asking.session.record.actions == quiet.session.record.actions


def test_rat_is_offered_only_to_one_human_against_computers(store: Store) -> None:
    solo, _ = make_table(store, SOLO)
    two, _ = make_table(store, TWO)
    assert solo.solo and solo.rat_available()
    assert not two.solo and not two.rat_available()


def test_rat_info_and_the_pause_menu_stop_the_clock_and_back_it_starts_anew(
    store: Store,
) -> None:
    clock = {"clock.enabled": True, "clock.seconds": 5}
    table, host = make_table(store, [Seat("Anna"), Seat("Ben"), Seat("Carla")], settings=clock)
    before = table.session.committed
    host.time = 4.0
    table.stop_clock()
    host.time = 60.0
    table.tick(host.time)
    assert table.session.committed == before and table.seconds_left() is None
    table.restart_clock()
    assert table.seconds_left() == 5
    host.time = 65.0
    table.tick(host.time)
    assert table.session.committed == before + 1


def test_the_table_asks_for_tunes_at_its_moments(store: Store) -> None:
    """Your turn, a computer's take, the end of a round, and a win or the end."""
    table, _ = make_table(store, SOLO, settings={"speedtombola.removed": 9})
    assert table.sounds[:1] == ["turn"]
    human_plays_normal(table)
    assert {"turn", "take", "round"} <= set(table.sounds)
    assert table.sounds[-1] in ("win", "end")
    won = table.state.places()[0] == 1
    assert table.sounds[-1] == ("win" if won else "end")


def test_the_clock_sounds_its_last_three_seconds(store: Store) -> None:
    table, host = make_table(store, SOLO, settings={"clock.enabled": True, "clock.seconds": 10})
    table.sounds.clear()
    for tenth in range(1, 95):
        host.time = tenth / 10
        table.tick(host.time)
    assert table.sounds == ["clock", "clock", "clock"]
