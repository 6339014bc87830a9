"""Speedtombola computer players: Leicht, Normal, Stark and Rat, each from a seat's view only."""

from __future__ import annotations

import json
from random import Random

import pytest
from spielleiter.games.speedtombola.bots import LEVELS, Advice, advice, choose
from spielleiter.games.speedtombola.rules import ALL_LOTS, Move, SpeedtombolaGame


def position(
    lots: list[list[int]],
    lot: int,
    pot: int = 0,
    groschen: list[int] | None = None,
    drum: int = 12,
    seat: int = 0,
    match_points: list[int] | None = None,
) -> dict:
    """A view of `seat` to move at an open lot (as SpeedtombolaState.view makes it)."""
    n = len(lots)
    seen = {x for held in lots for x in held} | {lot}
    return {
        "seat": seat,
        "players": n,
        "rounds": 1,
        "removed_count": 9,
        "round": 0,
        "start_seat": 0,
        "to_move": seat,
        "lot": lot,
        "pot": pot,
        "groschen": groschen or [11] * n,
        "lots": lots,
        "drum": drum,
        "unseen": [x for x in ALL_LOTS if x not in seen],
        "match_points": match_points or [0] * n,
        "results": [],
    }


def real_view() -> dict:
    state = SpeedtombolaGame({"players": 4}).new_initial_state()
    for lot in [3, 5, 7, 9, 11, 13, 15, 17, 19, 30]:
        state.apply_action(lot)
    return state.view(0)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_decides_from_the_plain_view_and_the_same_seed_gives_the_same_move(level):
    view = real_view()
    json.dumps(view)
    assert choose(view, level=level, rng=Random(5)) == choose(view, level=level, rng=Random(5))
    assert choose(view, level=level, rng=Random(5)) in (Move.NEHMEN, Move.NEIN_DANKE)


@pytest.mark.parametrize("level", LEVELS)
def test_without_a_groschen_every_level_takes(level):
    view = position([[], [], []], lot=35, groschen=[0, 11, 11])
    assert choose(view, level=level, rng=Random(1)) == Move.NEHMEN


def test_a_view_of_a_seat_not_to_move_is_refused():
    view = real_view() | {"seat": 1}
    with pytest.raises(ValueError, match="seat to move"):
        choose(view, level="normal", rng=Random(0))


def test_leicht_takes_by_feel_once_enough_groschen_lie_on_the_lot():
    empty = position([[], [], []], lot=33, pot=0)
    full = position([[], [], []], lot=33, pot=20)
    seeds = range(20)
    assert all(choose(empty, level="leicht", rng=Random(s)) == Move.NEIN_DANKE for s in seeds)
    assert all(choose(full, level="leicht", rng=Random(s)) == Move.NEHMEN for s in seeds)
    middle = position([[], [], []], lot=33, pot=12)
    assert len({choose(middle, level="leicht", rng=Random(seed)) for seed in range(40)}) == 2


def test_normal_weighs_the_lots_cost_against_the_groschen():
    lone = position([[], [], []], lot=30, pot=10)
    joins = position([[29], [], []], lot=30, pot=10)
    assert choose(lone, level="normal", rng=Random(0)) == Move.NEIN_DANKE
    assert choose(joins, level="normal", rng=Random(0)) == Move.NEHMEN
    eleven = position([[], [], []], lot=30, pot=11)
    assert choose(eleven, level="normal", rng=Random(0)) == Move.NEHMEN


def test_normal_keeps_a_small_reserve_of_groschen():
    rich = position([[], [], []], lot=30, pot=9, groschen=[5, 11, 11])
    poor = position([[], [], []], lot=30, pot=9, groschen=[1, 11, 11])
    assert choose(rich, level="normal", rng=Random(0)) == Move.NEIN_DANKE
    assert choose(poor, level="normal", rng=Random(0)) == Move.NEHMEN


def test_stark_lets_its_own_connecting_lot_go_round_once_more_when_nobody_wants_it():
    view = position([[20, 21], [5, 6], [9]], lot=22, pot=0)
    assert choose(view, level="stark", rng=Random(3)) == Move.NEIN_DANKE
    rat = advice(view, rng=Random(3), playouts=1000)
    assert rat.recommended == Move.NEIN_DANKE
    assert rat.nein_danke is not None and rat.nein_danke.points < rat.nehmen.points


def test_stark_takes_its_connecting_lot_when_the_next_seat_would_have_to_take_it():
    view = position([[20, 21], [5, 6], [9]], lot=22, pot=0, groschen=[11, 0, 22])
    assert choose(view, level="stark", rng=Random(3)) == Move.NEHMEN


def test_rat_gives_both_options_with_standard_errors_win_chances_and_drums_played():
    view = position([[20, 21], [5, 6], [9]], lot=30, pot=4, match_points=[10, 40, 40])
    rat = advice(view, rng=Random(9), playouts=400)
    assert isinstance(rat, Advice) and rat.playouts == 400
    assert set(rat.options) == {Move.NEHMEN, Move.NEIN_DANKE}
    for option in rat.options.values():
        assert option.points_se > 0
        assert 0.0 <= option.round_win <= 1.0 and 0.0 <= option.match_win <= 1.0
        assert option.match_win >= option.round_win
    assert advice(view, rng=Random(9), playouts=400) == rat


def test_rat_without_a_groschen_has_only_nehmen():
    rat = advice(position([[], [], []], lot=30, groschen=[0, 11, 11]), rng=Random(1), playouts=200)
    assert rat.recommended == Move.NEHMEN and rat.nein_danke is None


def test_rat_on_the_last_lot_counts_what_is_certain():
    view = position([[10], [20], [30]], lot=11, pot=2, drum=0)
    rat = advice(view, rng=Random(1), playouts=50)
    assert rat.nehmen.points == 10 - 13 and rat.nehmen.points_se == 0.0


def test_both_options_in_one_simulation_give_what_two_simulations_give() -> None:
    """Stark plays Nehmen and "Nein danke" in one batch; each row as if played alone."""
    import random

    import numpy as np
    from spielleiter.games.base import sample_chance
    from spielleiter.games.speedtombola import belief, bots
    from spielleiter.games.speedtombola.sim import Batch, bitmasks, simulate, stack_policies

    def two_simulations(view: dict, rng: np.random.Generator, count: int) -> tuple:
        seat, lot, pot, groschen, _ = bots._mover(view)
        n, drum = int(view["players"]), int(view["drum"])
        unseen = np.array(view["unseen"], dtype=np.int64)
        draws = unseen[np.argsort(rng.random((count, len(unseen))), axis=1)[:, :drum]]
        noise = rng.uniform(-1.0, 1.0, (count, drum + 1, n))
        choices = belief.rollout_choices(view, rng, count, own=len(belief.FAMILY))
        policies = stack_policies(choices, (*belief.FAMILY, bots.STARK_SELF))
        holdings = np.broadcast_to(bitmasks(view["lots"]), (count, n)).copy()
        stack = np.broadcast_to(np.array(view["groschen"], dtype=np.int64), (count, n)).copy()
        took = bots._took(holdings, stack, seat, lot, pot)
        took = simulate(took, draws, policies, noise[:, 1:], drum - 1) if drum else took
        stack[:, seat] -= 1
        passed = Batch(holdings, stack, np.full(count, (seat + 1) % n), np.full(count, pot + 1))
        still = np.concatenate([np.full((count, 1), lot), draws], axis=1)
        return took.points, simulate(passed, still, policies, noise, drum).points

    rng = random.Random(2)
    state = SpeedtombolaGame({"players": 4}).new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        view = state.view(state.current_player())
        if view["groschen"][view["seat"]] > 0:
            one = bots._outcomes(view, np.random.default_rng(5), 64)
            two = two_simulations(view, np.random.default_rng(5), 64)
            assert all((a == b).all() for a, b in zip(one, two, strict=True))
            checked += 1
        state.apply_action(bots.choose(view, level="normal", rng=random.Random(0)))
    assert checked > 50
