"""Engel & Bengel computers and their numpy simulator.

The simulator must agree exactly with the rule engine when both play the rollout policy on
the same dice; the computers see only their seat's view and play legal moves.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from spielleiter.games.base import sample_chance
from spielleiter.games.engel_bengel import arena, bots, opponents
from spielleiter.games.engel_bengel.faces import Row, validate_face
from spielleiter.games.engel_bengel.policy import STYLE, Style, policy_move
from spielleiter.games.engel_bengel.rules import (
    MAX_ROLLS,
    EngelBengelGame,
    EngelBengelState,
    Move,
    roll_code,
)
from spielleiter.games.engel_bengel.sim import Batch, simulate


def random_position(seed: int) -> EngelBengelState | None:
    """A position a few random moves into a random game (None when it is not a turn)."""
    rng = random.Random(seed)
    game = EngelBengelGame({"players": rng.randint(2, 8)})
    state = game.new_initial_state()
    for _ in range(rng.randint(17, 90)):
        if state.is_terminal():
            return None
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return None if state.is_terminal() or state.turn < 0 else state


def engine_playout(
    state: EngelBengelState,
    dice: np.ndarray,
    keep: np.ndarray,
    horizon: int,
    styles: tuple[Style, ...] = (STYLE,),
    style: np.ndarray | None = None,
) -> EngelBengelState:
    """The rule engine on the rollout policy, rolling dice[t, :cup] for its t-th roll, until
    the Durchgang ends or `horizon` further turns have begun (as the simulator stops)."""
    t, turns, durchgang = 0, 0, state.durchgang
    while not state.is_terminal() and state.durchgang == durchgang:
        seat = state.turn
        if state.is_chance_node():
            state.apply_action(roll_code(dice[t, : state.cup]))
            t += 1
        else:
            state.apply_action(
                policy_move(state.face, state.board, state.roll, state.placed_now, state.rolls,
                            int(keep[seat]), styles[0 if style is None else int(style[seat])])
            )  # fmt: skip
        if state.turn != seat and state.durchgang == durchgang:
            turns += 1
            if turns > horizon:
                state.dice[state.turn] += state.cup  # the simulator stops before the cup
                break
    return state


@pytest.mark.parametrize("horizon", [1, 3, 1_000])
def test_the_simulator_agrees_exactly_with_the_rules_on_the_same_dice(horizon: int) -> None:
    checked = 0
    for seed in range(40):
        start = random_position(seed)
        if start is None:
            continue
        gen = np.random.default_rng(seed)
        dice = gen.integers(1, 7, size=(1, 300, 5))
        keep = gen.integers(1, 6, size=(1, start.players))
        batch = simulate(start.face, Batch.of([start]), dice, keep, horizon=horizon)
        end = engine_playout(start.clone(), dice[0], keep[0], horizon)
        assert list(batch.chips[0]) == end.chips, seed
        if end.durchgang == start.durchgang:
            assert list(batch.filled[0]) == [len(b) for b in end.board], seed
            assert list(batch.dice[0]) == end.dice, seed
        checked += 1
    assert checked >= 20


STYLES = (STYLE, Style(setup=10, progress=0, trap=3), Style(setup=2, progress=2, die=5))


def test_the_simulator_agrees_with_the_rules_when_each_seat_plays_its_own_style() -> None:
    checked = 0
    for seed in range(40):
        start = random_position(seed)
        if start is None:
            continue
        gen = np.random.default_rng(seed + 100)
        dice = gen.integers(1, 7, size=(1, 300, 5))
        keep = gen.integers(1, 6, size=(1, start.players))
        style = gen.integers(0, len(STYLES), size=(1, start.players))
        batch = simulate(start.face, Batch.of([start]), dice, keep, 1_000, STYLES, style)
        end = engine_playout(start.clone(), dice[0], keep[0], 1_000, STYLES, style[0])
        assert list(batch.chips[0]) == end.chips, seed
        checked += 1
    assert checked >= 20


def test_a_style_changes_the_play() -> None:
    """The careful style leaves no white row one box short where the careless one does."""
    differ = 0
    for seed in range(40):
        start = random_position(seed)
        if start is None or start.is_chance_node():
            continue
        args = (start.face, start.board, start.roll, start.placed_now, start.rolls)
        differ += policy_move(*args, 3, STYLES[1]) != policy_move(*args, 3, STYLES[2])
    assert differ >= 2


def test_the_simulator_plays_many_rows_at_once_like_one_at_a_time() -> None:
    starts = [s for s in (random_position(seed) for seed in range(12)) if s is not None]
    starts = [s for s in starts if s.players == starts[0].players and s.face == starts[0].face]
    gen = np.random.default_rng(1)
    dice = gen.integers(1, 7, size=(len(starts) * 3, 300, 5))
    keep = gen.integers(1, 6, size=(len(starts) * 3, starts[0].players))
    together = simulate(starts[0].face, Batch.of(starts, repeat=3), dice, keep)
    for row in range(len(starts) * 3):
        alone = simulate(
            starts[0].face, Batch.of([starts[row // 3]]), dice[row : row + 1], keep[row : row + 1]
        )
        assert list(alone.chips[0]) == list(together.chips[row])


@pytest.mark.parametrize("level", bots.LEVELS)
def test_every_level_plays_a_legal_move_from_the_view_alone(level: str) -> None:
    rng = random.Random(3)
    for seed in range(15):
        state = random_position(seed)
        if state is None or state.is_chance_node():
            continue
        view = state.view(state.current_player())
        assert "order" not in view
        assert bots.choose(view, level=level, rng=rng) in state.legal_actions()


def test_normal_never_stops_before_placing_and_takes_a_white_row_it_can_finish() -> None:
    game = EngelBengelGame({"players": 3, "shuffle": False, "start": "erster"})
    state = game.new_initial_state()
    state.apply_action(roll_code([6, 6, 6, 6, 6]))
    view = state.view(state.turn)
    move = bots.choose(view, level="normal", rng=random.Random(1))
    assert move in state.legal_actions() and move >= 2


def normal_view(face: dict, roll: list[int]) -> dict:
    game = EngelBengelGame({"players": 3, "faces": [face], "shuffle": False, "start": "erster"})
    state = game.new_initial_state()
    state.apply_action(roll_code(roll))
    return state.view(0)


PROBE = {"name": "Probe", "rows": [
    {"kind": "pips", "colour": "white", "value": 8, "pips": [5, 2]},
    {"kind": "pips", "colour": "black", "value": 3, "pips": [1]},
    {"kind": "pips", "colour": "white", "value": 1, "pips": [3, 3, 3, 3, 3, 3]},
    {"kind": "pips", "colour": "white", "value": 1, "pips": [4, 4, 4, 4, 4, 4]},
    {"kind": "pips", "colour": "white", "value": 6, "pips": [6, 6]},
    {"kind": "star", "colour": "black", "value": 2, "boxes": 2},
]}  # fmt: skip


def test_normal_plans_a_roll_finishing_a_white_row_with_two_of_its_dice() -> None:
    view = normal_view(PROBE, [2, 3, 4, 5, 1])
    assert bots.normal_move(view) == 2 + 6 * 0 + 5 - 1  # the 5 first, for the 2 after it


def test_normal_leaves_no_white_row_one_box_short_when_it_may_stop() -> None:
    game = EngelBengelGame({"players": 3, "faces": [PROBE], "shuffle": False, "start": "erster"})
    state = game.new_initial_state()
    state.apply_action(roll_code([3, 6, 1, 1, 1]))
    state.apply_action(2 + 6 * 2 + 3 - 1)  # a 3 in row 3: now it may stop
    view = state.view(0)
    assert 2 + 6 * 4 + 6 - 1 in view["legal"]  # the 6 would leave row 5 (white, 6) one short
    assert bots.normal_move(view) in (0, 1)


def test_a_row_left_short_is_valued_by_how_often_the_next_player_finishes_it() -> None:
    """The plans' chances (bots.FINISH, measured by benchmarks/engel_bengel_finish.py):
    fewer boxes short and a bigger cup finish a white row more often; a black row two
    short is never finished by the next player; a row's value left short is the chance
    times its chips against the others' mean."""
    assert all(0.0 <= c <= 1.0 for c in bots.BLACK_FINISH)
    for (state, left), chances in bots.FINISH.items():
        assert all(0.0 <= c <= 1.0 for c in chances)
        assert list(chances) == sorted(chances), (state, left)
        shorter = bots.FINISH.get((state, left - 1))
        assert shorter is None or all(a >= b for a, b in zip(shorter, chances, strict=True))
    face = validate_face(PROBE)
    white_66, black_star = face.rows[4], face.rows[5]
    assert bots.finish_chance(black_star, 0, 5) == 0.0  # two short
    assert bots.finish_chance(black_star, 1, 5) == bots.BLACK_FINISH[4]
    plan = bots._plan(bots.PlanKey(face, 3, 5))
    assert plan.rows[4][1] / plan.chip == pytest.approx(-bots.FINISH[("fixed", 1)][4] * 6 / 2)
    assert plan.rows[4][0] / plan.chip == pytest.approx(-bots.FINISH[("fixed", 2)][4] * 6 / 2)
    assert plan.rows[5][1] / plan.chip == pytest.approx(bots.BLACK_FINISH[4] * 2 / 2)
    assert bots.finish_chance(white_66, 1, 2) < bots.finish_chance(white_66, 1, 5)
    star = Row("star", "white", 4, 2, ())
    assert bots.finish_chance(star, 0, 5) > bots.finish_chance(white_66, 0, 5)  # any die first


def test_a_dice_code_tells_which_dice_a_roll_holds_and_what_is_left() -> None:
    """The plan tests and takes dice by one subtraction (bots.GUARDS): every roll of up
    to five dice against every part of up to three."""
    from collections import Counter
    from itertools import combinations_with_replacement

    def rolls(most: int) -> list[tuple[int, ...]]:
        return [r for n in range(most + 1) for r in combinations_with_replacement(range(1, 7), n)]

    for dice in rolls(5):
        code = bots.dice_code(dice)
        for part in rolls(3):
            holds = not Counter(part) - Counter(dice)
            used = bots.dice_code(part)
            assert (((code | bots.GUARDS) - used) & bots.GUARDS == bots.GUARDS) == holds
            if holds:
                left = Counter(dice) - Counter(part)
                assert code - used == bots.dice_code(tuple(sorted(left.elements())))


def every_placement(plan: bots._Plan, board: tuple, roll: tuple) -> int:
    """A roll that must place and then stops, by brute force: every order of placing one
    die after another, the best value (the rows as they are when nothing fits)."""
    found = None
    for r, cells in enumerate(board):
        for v in set(roll):
            if v in plan.fits(r, cells):
                cells_after = (*cells, v)
                new = board[:r] + (cells_after,) + board[r + 1 :]
                gain = plan.paid[r] if len(cells_after) == plan.boxes[r] else -plan.die
                rest = list(roll)
                rest.remove(v)
                then = every_placement(plan, new, tuple(rest))
                value = gain + max(then, plan.leave(new))
                found = value if found is None else max(found, value)
    return plan.leave(board) if found is None else found


def test_a_roll_planned_row_by_row_is_the_best_of_every_order_of_placing_it() -> None:
    """The plan finds a roll's best placements row by row, sharing the rows below; exact
    whole numbers, so equal placements are equal (the first legal move of equals)."""
    checked = 0
    for state in filter(None, map(random_position, range(40))):
        if state.is_chance_node():
            continue
        view = state.view(state.current_player())
        plan = bots._plan(bots.PlanKey(bots.face_of(view), int(view["players"]), 5))
        board = tuple(tuple(b) for b in view["board"])
        for roll in ((1, 2, 3), (2, 2, 5, 6), (1, 1, 4, 4, 6), (3, 3, 3, 3, 3), (6,)):
            assert plan.stopped(board, roll) == every_placement(plan, board, roll)
            checked += 1
    assert checked >= 100
    assert all(isinstance(v, int) for v in plan.rows[0])


def stark_views(count: int) -> list[dict]:
    return [
        s.view(s.current_player())
        for s in map(random_position, range(60))
        if s and not s.is_chance_node() and len(s.legal_actions()) > 2
    ][:count]


def test_the_tipps_playouts_meet_a_family_of_opponents_not_its_own_rollout_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a family of one (every opponent Normal's rollout player) the playouts' values
    are not those found against the family, on the same dice."""
    differ = 0
    for view in stark_views(6):
        family = bots.playout_means(view, random.Random(5), playouts=16)
        with monkeypatch.context() as m:
            m.setattr(bots, "OPPONENT_FAMILY", ((opponents.SEARCH_KEEP, STYLE),))
            alone = bots.playout_means(view, random.Random(5), playouts=16)
        differ += family != pytest.approx(alone)
    assert differ >= 3


def test_stark_plays_the_best_move_of_its_plan_whatever_its_generator() -> None:
    for view in stark_views(8):
        values = bots.stark_values(view)
        move = bots.stark_move(view, random.Random(1))
        assert move == bots.stark_move(view, random.Random(2)) == bots.stark_move(view)
        assert values[move] == max(values.values())


def test_stark_weighs_nochmal_by_more_rolls_than_normal_and_its_first_are_normals() -> None:
    for dice in range(2, 6):
        assert bots._drawn(dice, bots.STARK_DRAWN)[: bots.NORMAL_DRAWN] == bots._drawn(dice)
        assert len(bots._drawn(dice, bots.STARK_DRAWN)) == bots.STARK_DRAWN
    views = [v for v in stark_views(40) if Move.NOCHMAL in v["legal"]]
    assert views
    differ = sum(
        bots.stark_values(v)[Move.NOCHMAL] != pytest.approx(bots.normal_values(v)[Move.NOCHMAL])
        for v in views
    )
    assert differ >= len(views) // 2
    for v in views:  # everything but Nochmal with more dice is valued alike
        stark, normal = bots.stark_values(v), bots.normal_values(v)
        if len(v["roll"]) <= bots.NORMAL_LOOKAHEAD:
            assert stark == pytest.approx(normal)


def test_stark_weighs_every_nochmal_by_its_drawn_rolls_the_first_die_of_a_big_roll_too() -> None:
    views = [v for v in stark_views(60) if v["placed_now"] == 0]
    big = [v for v in views if len(v["roll"]) >= 4]
    assert big and len(big) < len(views)
    die = bots.stark_die
    assert all(
        bots.stark_values(v) == bots.plan_values(v, bots.STARK_DRAWN, die(v), option=True)
        for v in views
    )


def test_stark_adds_the_worth_of_rolling_on_only_where_another_nochmal_may_follow() -> None:
    """STARK_OPTION: a Nochmal of 2 to 4 dice that another may follow is worth its roll
    planned and stopped plus STARK_OPTION_WEIGHT × max(0, a + b × that roll's gain); with
    the last roll left, or with one die, the plan's value alone. No move is worth less."""
    views = [
        s.view(s.current_player())
        for s in filter(None, map(random_position, range(200)))
        if not s.is_chance_node() and Move.NOCHMAL in s.legal_actions()
    ]
    raised = 0
    for view in views:
        last = {**view, "rolls": MAX_ROLLS - 1}  # the same, with one roll left
        for v in (view, last):
            option = bots.stark_values(v)
            plain = bots.plan_values(v, bots.STARK_DRAWN, bots.stark_die(v))
            assert all(option[a] >= plain[a] for a in plain)
            dice = len(v["roll"])
            extra = option[Move.NOCHMAL] - plain[Move.NOCHMAL]
            if v["rolls"] + 1 >= MAX_ROLLS or dice not in bots.STARK_OPTION:
                assert extra == 0
            else:
                a, b = bots.STARK_OPTION[dice]
                gain = plain[Move.NOCHMAL] - plain[Move.STOPP]
                worth = bots.STARK_OPTION_WEIGHT * max(0.0, a + b * gain)
                assert extra == pytest.approx(worth, abs=1e-3)
                raised += extra > 0
    assert raised >= 10


def test_near_a_durchgangs_end_stark_values_a_die_it_keeps_less() -> None:
    """At the Durchgang's end every die is shared out anew: with fewer than
    STARK_DIE_HORIZON boxes left a die kept is worth less, nothing with the last box."""
    views = [s.view(s.current_player()) for s in filter(None, map(random_position, range(60)))]
    worths = {}
    for view in views:
        left = bots.face_of(view).boxes - sum(map(len, view["board"]))
        worths[left] = bots.stark_die(view)
    assert worths[1] == 0.0 and max(worths) >= bots.STARK_DIE_HORIZON
    assert all(w == bots.NORMAL_DIE for left, w in worths.items() if left >= bots.STARK_DIE_HORIZON)
    ordered = [worths[left] for left in sorted(worths)]
    assert ordered == sorted(ordered) and len(set(ordered)) >= 3
    end = next(v for v in views if 1 < bots.face_of(v).boxes - sum(map(len, v["board"])) < 6)
    face, players = bots.face_of(end), int(end["players"])
    late = bots._plan(bots.PlanKey(face, players, 5, bots.STARK_DRAWN, bots.stark_die(end)))
    usual = bots._plan(bots.PlanKey(face, players, 5, bots.STARK_DRAWN))
    assert 0 < late.die / late.chip < usual.die / usual.chip == bots.NORMAL_DIE


def test_the_tipp_plays_out_starks_best_moves_by_its_plan() -> None:
    for view in stark_views(6):
        values = bots.playout_means(view, random.Random(2), playouts=8)
        plan = bots.stark_values(view)
        assert set(values) <= set(view["legal"]) and bots.stark_move(view) in values
        assert len(values) == min(bots.STARK_CANDIDATES, len(view["legal"]))
        left_out = [plan[a] for a in plan if a not in values]
        assert min(plan[a] for a in values) >= max(left_out, default=-1e9)
        move, means = bots.stark_choice(view, random.Random(2), playouts=8)
        assert move == bots.stark_move(view) and means == pytest.approx(values)


def test_an_arena_game_is_the_same_for_the_same_deal_and_seed() -> None:
    first = arena.play(["normal", "leicht", "leicht"], (1, 2), 7, {})
    again = arena.play(["normal", "leicht", "leicht"], (1, 2), 7, {})
    assert first == again
    places, chips = first
    assert sorted(places)[0] == 1 and len(chips) == 3


def test_an_arena_match_is_the_game_that_play_scores() -> None:
    """`arena.match` plays the game `play` scores and keeps every Durchgang's result."""
    state = arena.match(["normal", "leicht", "leicht"], (1, 2), 7, {"start": "erster"})
    assert state.is_terminal()
    assert arena.play(["normal", "leicht", "leicht"], (1, 2), 7, {"start": "erster"}) == (
        state.places(),
        [float(c) for c in state.chips],
    )
    assert [r.number for r in state.results] == list(range(1, len(state.results) + 1))
    assert list(state.results[-1].chips) == state.chips
    assert arena.match(["leicht"] * 3, (1, 2), 7, {}).results != state.results
