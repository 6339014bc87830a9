"""A session: every action committed first, chance from the record's own stream."""

from __future__ import annotations

import random
from pathlib import Path

from spielleiter.draws import commitment
from spielleiter.games.base import Seat
from spielleiter.session import Session, derived_seed
from spielleiter.store import Store

SEATS = [Seat("Anna"), Seat("Ben"), Seat("Normal 1", "computer", "normal")]


def draws(session: Session, count: int, noise: random.Random | None = None) -> list[int]:
    """Play `count` actions: chance from the record's stream, seats their first legal move."""
    played = []
    for _ in range(count):
        if noise is not None:
            noise.random()  # advice, tips, animations: other streams in use meanwhile
            random.random()
        if session.state.is_chance_node():
            session.apply(session.draw_chance())
        else:
            session.apply(session.state.legal_actions()[0])
        played.append(session.record.actions[-1])
    return played


def test_nothing_else_that_draws_random_numbers_changes_what_chance_brings(
    store: Store,
) -> None:
    quiet = Session.start(store, "speedtombola", {"players": 3}, SEATS, seed=42)
    noisy = Session.start(store, "speedtombola", {"players": 3}, SEATS, seed=42)
    assert draws(quiet, 60) == draws(noisy, 60, random.Random(1))


def test_another_seed_brings_another_drum(store: Store) -> None:
    one = Session.start(store, "speedtombola", {"players": 3}, SEATS, seed=1)
    two = Session.start(store, "speedtombola", {"players": 3}, SEATS, seed=2)
    assert draws(one, 12) != draws(two, 12)


def test_a_resumed_game_draws_what_it_would_have_drawn(tmp_path: Path) -> None:
    store = Store(tmp_path / "a.sqlite3")
    straight = Session.start(store, "speedtombola", {"players": 3}, SEATS, seed=9)
    expected = draws(straight, 80)
    cut = Session.start(store, "speedtombola", {"players": 3}, SEATS, seed=9)
    first = draws(cut, 30)
    store.close()
    store = Store(tmp_path / "a.sqlite3")
    resumed = Session.resume(store, cut.record_id)
    assert first + draws(resumed, 50) == expected
    store.close()


def test_the_seed_is_committed_and_stored_only_sealed(store: Store) -> None:
    session = Session.start(store, "speedtombola", {"players": 3}, SEATS, seed=77)
    chance = store.record(session.record_id).meta["chance"]
    assert "seed" not in store.record(session.record_id).meta
    assert chance["commitment"] == commitment("77") and "secret" not in chance
    assert chance["sealed"] != b"77".hex()


def test_computers_get_a_seed_per_seat_and_decision(store: Store) -> None:
    session = Session.start(store, "speedtombola", {"players": 3}, SEATS, seed=5)
    assert session.bot_seed(0) != session.bot_seed(1)
    first = session.bot_seed(2)
    session.apply(session.draw_chance())
    assert session.bot_seed(2) != first
    assert derived_seed(5, "x") == derived_seed(5, "x") < 2**63
