"""A power cut at every commit point of whole matches, for every game in the catalog.

The match is played headless (its table, no frames). Every write the match makes to
the store fails once before its COMMIT (nothing of it is stored) and once just after
it (all of it is stored, but the box never hears back); each time the box "restarts":
a fresh store on the same file, the unfinished record resumed, a fresh table. At the
end: the Bestenliste equals the sum of the finished records' awards, each finished
record's awards are what its final state earns (never counted twice), every record
whose game is over is marked finished, what was committed before a cut is still there,
and sqlite's integrity check is ok. The ratings are the fold of the finished records:
none while the match runs (whatever cut came), and after its end exactly what its
final state's places give, on every fresh store (its cache file included).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from spielleiter import ratings
from spielleiter.games import catalog
from spielleiter.games.base import CHANCE, Seat
from spielleiter.games.table import HeadlessHost, Table
from spielleiter.session import Session
from spielleiter.store import Store


class PowerCut(Exception):
    """The plug was pulled."""


def seats_for(entry: catalog.GameEntry, humans: int = 2) -> tuple[dict[str, Any], list[Seat]]:
    """`humans` humans and the rest computers where the game has computers, else the table."""
    if not entry.needs_seats:
        return {}, [Seat("Tisch")]
    players = max(entry.min_seats, 3 if entry.levels else 1)
    players = min(players, entry.max_seats)
    humans = humans if entry.levels else players
    seats = [Seat(f"Mensch {i + 1}") for i in range(min(humans, players))]
    seats += [
        Seat(f"Computer {i + 1}", "computer", entry.levels[0])
        for i in range(players - len(seats))
    ]
    return {"players": players}, seats


def new_table(store: Store, record_id: int) -> Table:
    session = Session.resume(store, record_id)
    table: Table = catalog.entry(session.record.game).table_class()(HeadlessHost(store), session)
    return table


def step(table: Table, rng: random.Random) -> None:
    """One move of the match: Weiter, a chance outcome from outside, or a human's move."""
    if table.holding():
        table.proceed()
        return
    seat = table.to_move()
    if seat == CHANCE:
        table.supply(table.session.draw_chance())
    elif table.human_to_move():
        table.command(seat, rng.choice(table.state.legal_actions()))
    else:
        table.advance()


def rated(store: Store, record_id: int) -> dict[ratings.Player, ratings.Rating]:
    """The ratings a finished record gives, from its replayed final state: each seat's
    place (humans by name, computers by level), a cooperative table against the game."""
    record = store.record(record_id)
    state = record.replay()
    finished = store._query("SELECT updated FROM records WHERE id=?", (record_id,))[0][0]
    entry = catalog.entry(record.game)
    if not entry.needs_seats:
        won = state.returns()[0] > 0
        players = record.make_game().num_players
        table = ratings.Player(ratings.TABLE, f"{players} Spieler")
        game = ratings.Player(ratings.GAME, ratings.GAME_NAME)
        places = ((table, 1 if won else 2), (game, 2 if won else 1))
    else:
        places = tuple(
            (
                ratings.Player(ratings.HUMAN, seat.name)
                if seat.is_human
                else ratings.Player(ratings.COMPUTER, seat.level, entry.info.bot_version),
                place,
            )
            for seat, place in zip(record.seats, state.places(), strict=True)
        )
    return ratings.fold([ratings.Match(record_id, finished, places)]).ratings


@contextmanager
def faulty(store: Store, plan: dict[str, int]) -> Iterator[None]:
    """Fail the store's next transaction before or after its COMMIT (plan["when"])."""
    original = store._tx

    @contextmanager
    def tx() -> Iterator[Any]:
        with original() as db:
            if plan["when"] == 0:
                plan["when"] = -1
                raise PowerCut("before commit")
            yield db
        if plan["when"] == 1:
            plan["when"] = -1
            raise PowerCut("after commit")

    store._tx = tx  # type: ignore[method-assign]
    try:
        yield
    finally:
        store._tx = original  # type: ignore[method-assign]


@pytest.mark.parametrize("game", catalog.names())
def test_a_power_cut_at_every_commit_point_loses_nothing_and_counts_nothing_twice(
    game: str, tmp_path: Path
) -> None:
    entry = catalog.entry(game)
    path = tmp_path / "box.sqlite3"
    rng = random.Random(5)
    params, seats = seats_for(entry)
    store = Store(path)
    session = Session.start(store, game, params, seats, seed=11)
    record_id = session.record_id
    table = new_table(store, record_id)
    table.advance()
    cuts = 0
    phase = 0
    shown: list[int] = []
    for _ in range(20_000):
        if table.over:
            break
        plan = {"when": phase}
        try:
            with faulty(store, plan):
                shown = list(table.session.record.actions)
                step(table, rng)
        except PowerCut:
            cuts += 1
            phase = 1 - phase
            store.close()
            store = Store(path)
            assert store.integrity_check() == "ok"
            stored = store.record(record_id).actions
            assert stored[: len(shown)] == shown, "an action that was shown was lost"
            if store.record(record_id).meta["finished"]:
                assert ratings.folded(store, game).ratings == rated(store, record_id)
                table = new_table(store, record_id)
                break
            assert ratings.folded(store, game).ratings == {}, "an unfinished match was rated"
            table = new_table(store, record_id)
            table.advance()
    assert table.over, "the match did not end"
    assert cuts > 10
    record = store.record(record_id)
    assert record.meta["finished"], "a game that is over must be marked finished"
    expected = table.awards(record.replay())
    got = store.awards(record_id)
    assert [(a.name, a.points) for a in got] == [(a.name, a.points) for a in expected]
    totals: dict[str, int] = {}
    for award in got:
        totals[award.name] = totals.get(award.name, 0) + award.points
    assert {s.name: s.points for s in store.bestenliste(game)} == totals
    assert all(s.matches == 1 for s in store.bestenliste(game))
    assert store.unfinished_record() is None
    assert store.integrity_check() == "ok"
    expected = rated(store, record_id)
    assert len(expected) >= 2
    assert ratings.folded(store, game).ratings == expected
    store.close()
    again = Store(path)  # a box started again: from the cache file, or folded anew
    assert ratings.folded(again, game).ratings == expected
    again.close()
