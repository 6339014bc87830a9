"""Asking for advice never changes what chance brings or what a computer does.

For every game of the catalog, the same seed and the same decisions are played twice,
headless: once without advice, once asking the table's advice (Rat, tips) before every
human decision, with generators of its own. The records must be identical: the same
params, seats and actions. The box-level tests of the games' advice screens (Rat,
Info, tips) compare the last frames too.
"""

from __future__ import annotations

import random

import pytest
from spielleiter.games import catalog
from spielleiter.games.base import CHANCE
from spielleiter.games.table import HeadlessHost, Table
from spielleiter.session import Session
from spielleiter.store import Store
from test_match_faults import seats_for


def play(store: Store, game: str, ask: bool) -> tuple[Session, int]:
    entry = catalog.entry(game)
    params, seats = seats_for(entry, humans=1)  # Rat is for one human against computers
    session = Session.start(store, game, params, seats, seed=23)
    table: Table = entry.table_class()(HeadlessHost(store, {"bot.playouts": 100}), session)
    decisions = random.Random(4)
    advice = random.Random(99)
    asked = 0
    table.advance()
    for _ in range(20_000):
        if table.over:
            break
        if table.holding():
            table.proceed()
        elif table.to_move() == CHANCE:
            table.supply(session.draw_chance())
        elif table.human_to_move():
            work = table.advice(random.Random(advice.getrandbits(32))) if ask else None
            if work is not None:
                work()
                asked += 1
            table.command(table.to_move(), decisions.choice(table.state.legal_actions()))
        else:
            table.advance()
    assert table.over
    return session, asked


@pytest.mark.parametrize("game", catalog.names())
def test_asking_for_advice_changes_no_action_of_the_record(game: str, store: Store) -> None:
    quiet, _ = play(store, game, ask=False)
    advised, asked = play(store, game, ask=True)
    a, b = store.record(quiet.record_id), store.record(advised.record_id)
    assert (a.params, a.seats, a.actions) == (b.params, b.seats, b.actions)
    assert (asked > 0) == bool(catalog.entry(game).advice), "a game's declared advice is given"
