"""Speedtombola computer players: Leicht, Normal, Stark and Rat, each from a seat's view only."""

from __future__ import annotations

import json
from random import Random

import numpy as np
import pytest
from spielleiter.games.speedtombola import belief
from spielleiter.games.speedtombola.bots import LEVELS, NORMAL, Advice, advice, choose
from spielleiter.games.speedtombola.rules import ALL_LOTS, Move, SpeedtombolaGame
from spielleiter.games.speedtombola.sim import Policy


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


def threshold_history(seats: list[int], policy: Policy = NORMAL, count: int = 40) -> list[dict]:
    """`count` decisions of each seat as `policy` makes them (a threshold player's)."""
    rng = Random(6)
    history = []
    for seat in seats:
        for _ in range(count):
            lot, pot, cost = rng.randint(5, 35), rng.randint(0, 12), rng.randint(-2, 30)
            take = policy.accepts(cost, lot, 15, 0.0, pot, 8)
            history.append({"round": 0, "seat": seat, "lot": lot, "pot": pot, "move": int(take),
                            "cost": cost, "groschen": 8, "drum": 15})  # fmt: skip
    return history


def coin_history(seats: list[int], count: int = 40) -> list[dict]:
    """Moves that do not follow the pot: Stark takes these seats for searchers."""
    rng = Random(8)
    return [{"round": 0, "seat": seat, "lot": rng.randint(5, 35), "pot": rng.randint(0, 12),
             "move": int(rng.random() < 0.2), "cost": 20, "groschen": 8, "drum": 15}
            for seat in seats for _ in range(count)]  # fmt: skip


def test_stark_lets_its_own_connecting_lot_go_round_once_more_when_nobody_wants_it():
    view = position([[20, 21], [5, 6], [9]], lot=22, pot=0)
    view["history"] = threshold_history([1, 2])
    assert choose(view, level="stark", rng=Random(3)) == Move.NEIN_DANKE
    rat = advice(view, rng=Random(3), playouts=1000)
    assert rat.recommended == Move.NEIN_DANKE
    assert rat.nein_danke is not None and rat.nein_danke.points < rat.nehmen.points


def test_stark_takes_its_connecting_lot_when_the_next_seat_would_have_to_take_it():
    view = position([[20, 21], [5, 6], [9]], lot=22, pot=0, groschen=[11, 0, 22])
    assert choose(view, level="stark", rng=Random(3)) == Move.NEHMEN


def passing(view: dict, stages: list, shares: np.ndarray) -> np.ndarray:
    """How Stark weighs the moves that may take the lot into "Nein danke"."""
    from spielleiter.games.speedtombola import bots

    return bots._passing(view, stages, shares, belief.Opponents.of(view))


def test_stark_follows_the_lot_round_the_table_by_who_would_take_it():
    """ "Nein danke" weighs who takes the lot at which pot (bots._passing): a searcher takes
    it where taking wins it more than passing on, a threshold player by its threshold, and
    Stark itself, when the lot comes round, where taking wins it more."""
    from spielleiter.games.speedtombola import bots

    view = position([[], [], []], lot=15, pot=0, drum=20)
    stages = bots._stages(view, bots.stark_moves(3))
    assert [(m, pot) for m, pot, _ in stages] == [(0, 0), (1, 1), (2, 2), (0, 3), (1, 4), (2, 5)]
    shares = np.full((7, 3), 1 / 3)
    shares[1] = [0.2, 0.6, 0.2]  # seat 1 wins most by taking the 15 at a pot of 1
    view["history"] = coin_history([1, 2])
    assert passing(view, stages, shares)[1] > 0.99, "a searcher takes what pays"
    view["history"] = threshold_history([1, 2], Policy(cost=1.0, reserve=3, slope=1))
    assert passing(view, stages, shares)[1] < 0.01, "a patient player waits for its cost"
    view["history"] = threshold_history([1, 2])  # Normal: at a pot of 0.35 × 15, give or take
    normal = belief.take_now(view, 1, [(1, 11)], belief.beliefs(view)[1])[0]
    assert passing(view, stages, shares)[1] == pytest.approx(normal, abs=1e-9)
    shares = np.array([[0.45, 0.45, 0.1]] * 7)  # the taker loses (seat 2 at 2 and 5) ...
    shares[[1, 4]] = [0.45, 0.1, 0.45]  # ... (seat 1 at 1 and 4)
    shares[3] = [0.5, 0.25, 0.25]  # but Stark wins by taking when the lot comes round
    shares[6] = [0.3, 0.35, 0.35]  # (the policies after the last pass)
    view["history"] = coin_history([1, 2])
    weights = passing(view, stages, shares)
    assert weights[3] > 0.99 and weights.sum() == pytest.approx(1.0)


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


def test_every_move_that_may_take_the_lot_in_one_simulation_gives_what_it_gives_alone() -> None:
    """Stark plays every part of the lot's circulation in one batch; each row as if played
    alone (the first part: Nehmen; the last: the rollout policies after the last pass)."""
    import random

    from spielleiter.games.base import sample_chance
    from spielleiter.games.speedtombola import bots
    from spielleiter.games.speedtombola.sim import Batch, bitmasks, simulate, stack_policies

    def alone(view: dict, rng: np.random.Generator, count: int) -> list[np.ndarray]:
        _, lot, _, _, _ = bots._mover(view)
        n, drum = int(view["players"]), int(view["drum"])
        unseen = np.array(view["unseen"], dtype=np.int64)
        draws = unseen[np.argsort(rng.random((count, len(unseen))), axis=1)[:, :drum]]
        noise = rng.uniform(-1.0, 1.0, (count, drum + 1, n))
        choices = belief.rollout_choices(view, rng, count, own=len(belief.FAMILY))
        policies = stack_policies(choices, (*belief.FAMILY, bots.STARK_SELF))
        holdings = np.broadcast_to(bitmasks(view["lots"]), (count, n)).copy()
        parts = []
        stages = bots._stages(view, bots.stark_moves(n))
        for mover, pot, groschen in stages:
            stack = np.broadcast_to(groschen, (count, n)).copy()
            took = bots._took(holdings, stack, mover, lot, pot)
            parts.append(simulate(took, draws, policies, noise[:, 1:], drum - 1) if drum else took)
        mover, pot, groschen = stages[-1]
        if groschen[mover]:
            stack = np.broadcast_to(groschen, (count, n)).copy()
            stack[:, mover] -= 1
            after = Batch(holdings, stack, np.full(count, (mover + 1) % n), np.full(count, pot + 1))
            still = np.concatenate([np.full((count, 1), lot), draws], axis=1)
            parts.append(simulate(after, still, policies, noise, drum))
        return [p.points for p in parts]

    rng = random.Random(2)
    state = SpeedtombolaGame({"players": 4}).new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        view = state.view(state.current_player())
        if view["groschen"][view["seat"]] > 0:
            one = bots._Circulation.play(view, np.random.default_rng(5), 64).points
            two = alone(view, np.random.default_rng(5), 64)
            assert len(one) == len(two) and all(
                (a == b).all() for a, b in zip(one, two, strict=True)
            )
            checked += 1
        state.apply_action(bots.choose(view, level="normal", rng=random.Random(0)))
    assert checked > 50
