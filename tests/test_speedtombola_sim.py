"""The numpy simulator plays exactly the rounds the rule engine plays, fed the same drums."""

from __future__ import annotations

import numpy as np
import pytest
from spielleiter.games.speedtombola.rules import SpeedtombolaGame, groschen_per_player, lot_cost
from spielleiter.games.speedtombola.sim import (
    Batch,
    Policy,
    bitmasks,
    deal,
    fresh_batch,
    lot_points,
    scalar_round,
    simulate,
    stack_policies,
)

POLICIES = [
    Policy(cost=0.6, bias=-2, noise=4, reserve=3, slope=2, milk=2),
    Policy(cost=0.0, lot=0.3, noise=3),
    Policy(cost=0.8, lot=0.1, drum=0.1, bias=-3, noise=2, reserve=2, slope=1),
    Policy(cost=0.5, noise=6),
    Policy(cost=0.4, bias=1),
    Policy(cost=1.0, bias=-5, noise=3, reserve=4, slope=3),
    Policy(cost=0.3, noise=1, milk=4),
]
PLAYOUTS = 1000
"""Playouts per player count and removed count."""


@pytest.mark.parametrize("removed", [6, 9, 12])
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_simulator_agrees_with_the_engine(players, removed):
    rng = np.random.default_rng(players * 100 + removed)
    game_groschen = groschen_per_player(players)
    first_seat = int(rng.integers(players))
    policies = [POLICIES[(seat + removed) % len(POLICIES)] for seat in range(players)]
    gone, draws = deal(rng, PLAYOUTS, removed)
    noise = rng.uniform(-1.0, 1.0, (PLAYOUTS, draws.shape[1], players))
    start = fresh_batch(PLAYOUTS, players, game_groschen, first_seat)
    batch = simulate(start, draws, policies, noise, draws.shape[1] - 1, chunk=128)
    game = SpeedtombolaGame({"players": players, "removed": removed, "first_seat": first_seat})
    for row in range(PLAYOUTS):
        lots, groschen = scalar_round(game, gone[row], draws[row], policies, noise[row])
        assert bitmasks(lots).tolist() == batch.holdings[row].tolist()
        assert groschen == batch.groschen[row].tolist()


NOISELESS = [
    Policy(cost=0.2, lot=0.15, reserve=3, slope=1),
    Policy(cost=1.0),
    Policy(cost=0.3, bias=-2.0),
    Policy(cost=1.0, bias=4.0, reserve=2, slope=2),
    Policy(cost=0.7, lot=0.1, drum=0.2, milk=2.5, reserve=4, slope=3),
]


@pytest.mark.parametrize("players", [3, 5, 7])
def test_without_noise_the_simulator_agrees_with_the_engine(players):
    rng = np.random.default_rng(players)
    policies = [NOISELESS[seat % len(NOISELESS)] for seat in range(players)]
    gone, draws = deal(rng, 300, 9)
    noise = rng.uniform(-1.0, 1.0, (300, draws.shape[1], players))
    start = fresh_batch(300, players, groschen_per_player(players), 1)
    batch = simulate(start, draws, policies, noise, draws.shape[1] - 1)
    game = SpeedtombolaGame({"players": players, "removed": 9, "first_seat": 1})
    for row in range(300):
        lots, groschen = scalar_round(game, gone[row], draws[row], policies, noise[row])
        assert bitmasks(lots).tolist() == batch.holdings[row].tolist()
        assert groschen == batch.groschen[row].tolist()


@pytest.mark.parametrize("players", [3, 4, 6])
def test_each_row_plays_its_own_policies_as_the_engine_would(players):
    """Policies per row and seat (Stark's rollouts) from a family with several reserves."""
    family = (*POLICIES, *NOISELESS)
    rng = np.random.default_rng(10 + players)
    gone, draws = deal(rng, 400, 6)
    noise = rng.uniform(-1.0, 1.0, (400, draws.shape[1], players))
    choices = rng.integers(len(family), size=(400, players))
    start = fresh_batch(400, players, groschen_per_player(players), 2)
    policies = stack_policies(choices, family)
    batch = simulate(start, draws, policies, noise, draws.shape[1] - 1, chunk=96)
    game = SpeedtombolaGame({"players": players, "removed": 6, "first_seat": 2})
    for row in range(400):
        mine = [family[i] for i in choices[row]]
        lots, groschen = scalar_round(game, gone[row], draws[row], mine, noise[row])
        assert bitmasks(lots).tolist() == batch.holdings[row].tolist()
        assert groschen == batch.groschen[row].tolist()


FIELDS = ("holdings", "groschen", "seat", "pot")


@pytest.mark.parametrize("chunk", [96, 250, 8192])
@pytest.mark.parametrize("per_row", [False, True])
def test_lots_and_noise_shared_by_blocks_of_rows_play_as_their_copies(chunk, per_row):
    """Rat plays every part on the same drums: lots and noise of 100 rows for 300 rows
    (three parts, each its own start) give what the copies give, chunk for chunk."""
    players, family = 5, (*POLICIES, *NOISELESS)
    rng = np.random.default_rng(chunk + per_row)
    _, draws = deal(rng, 100, 9)
    noise = rng.uniform(-1.0, 1.0, (100, draws.shape[1], players))
    starts = [fresh_batch(100, players, groschen_per_player(players), seat) for seat in (0, 2, 4)]
    start = Batch(*(np.concatenate([getattr(b, f) for b in starts]) for f in FIELDS))
    policies = (
        stack_policies(rng.integers(len(family), size=(300, players)), family)
        if per_row
        else POLICIES[:players]
    )
    drum = draws.shape[1] - 1
    shared = simulate(start, draws, policies, noise, drum, chunk=chunk)
    copied = simulate(start, np.tile(draws, (3, 1)), policies, np.tile(noise, (3, 1, 1)), drum)
    for field in FIELDS:
        assert getattr(shared, field).tolist() == getattr(copied, field).tolist()
    assert shared.holdings[:100].tolist() != shared.holdings[100:200].tolist()  # own starts


def test_lots_shared_by_rows_they_do_not_divide_are_refused():
    _, draws = deal(np.random.default_rng(1), 100, 9)
    noise = np.zeros((100, draws.shape[1], 3))
    with pytest.raises(ValueError, match="100 and 100 rows for 250"):
        simulate(fresh_batch(250, 3, 10, 0), draws, POLICIES[:3], noise, draws.shape[1] - 1)


def test_lot_points_of_bitmasks_count_the_lowest_lot_of_each_garnitur():
    holdings = bitmasks([[4, 6, 10, 21], [13, 15, 16], [13, 14, 15, 16], [], [35, 3, 34]])
    assert lot_points(holdings).tolist() == [41, 28, 13, 0, 37]
    assert lot_points(holdings.reshape(5, 1)[::-1].T).tolist() == [[37, 0, 13, 28, 41]]


def test_lot_points_count_every_garnitur_start_a_bitmask_can_hold():
    """Its table of 16-bit words (built by doubling) against the sum, lot by lot."""
    rng = np.random.default_rng(5)
    sizes = rng.integers(0, 19, size=300)
    starts = [set(rng.choice(36, size=size, replace=False).tolist()) for size in sizes]
    starts += [set(), set(range(36)), {0}, {15}, {16}, {31}, {32}, {35}]
    # a start with no lot just below it (x - 1 not held) is a Garnitur's lowest lot
    holdings = [sorted(held) for held in starts]
    expected = [sum(x for x in held if x - 1 not in held) for held in starts]
    assert lot_points(bitmasks(holdings)).tolist() == expected


def test_the_policy_takes_without_a_groschen_and_leans_on_its_reserve():
    policy = Policy(cost=1.0, reserve=3, slope=2)
    assert policy.accepts(cost=30, lot=30, drum=5, u=0.0, pot=0, groschen=0)
    assert not policy.accepts(cost=30, lot=30, drum=5, u=0.0, pot=25, groschen=3)
    assert policy.accepts(cost=30, lot=30, drum=5, u=0.0, pot=26, groschen=1)
    assert lot_cost([29], 30) == 0 and policy.accepts(0, 30, 5, 0.0, pot=0, groschen=9)
