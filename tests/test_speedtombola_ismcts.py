"""The IS-MCTS searcher among Speedtombola's test opponents."""

from __future__ import annotations

import random

from spielleiter.games.base import sample_chance
from spielleiter.games.speedtombola import arena, opponents
from spielleiter.games.speedtombola.rules import ALL_LOTS, Move, SpeedtombolaGame


def opening(lot: int, pot: int, groschen: list[int], seat: int = 2) -> dict:
    """The view of `seat` at the first lot of a 3-player round (9 lots removed)."""
    unseen = [x for x in ALL_LOTS if x != lot]
    return {"seat": seat, "players": 3, "to_move": seat, "lot": lot, "pot": pot,
            "groschen": groschen, "lots": [[], [], []], "drum": len(unseen) - 9,
            "unseen": unseen, "match_points": [0, 0, 0], "history": []}  # fmt: skip


def test_the_searcher_takes_a_lot_that_pays_and_passes_one_that_costs() -> None:
    rng = random.Random(1)
    assert opponents.choose(opening(3, 9, [10, 10, 3]), level="ismcts", rng=rng) == Move.NEHMEN
    assert opponents.choose(opening(35, 0, [11, 11, 11]), level="ismcts", rng=rng) == (
        Move.NEIN_DANKE
    )


def test_every_iteration_visits_the_root_once() -> None:
    tree: dict = {}
    view = opening(20, 4, [10, 10, 11])
    rng = random.Random(2)
    for _ in range(50):
        opponents._iteration(view, rng, tree)
    root = tree[()]
    assert root[0] + root[2] == 50 and 0 <= root[1] <= root[0] and 0 <= root[3] <= root[2]
    assert len(tree) == 50  # one node added per iteration


def test_a_forced_first_move_is_played_and_searched_below_on_its_own() -> None:
    """The reference search of benchmarks/speedtombola_regret.py: the mover's move forced,
    each forced move's tree apart from the other's and from the free search's."""
    tree: dict = {}
    view = opening(20, 4, [10, 10, 11])
    rng = random.Random(2)
    for first in (True, False):
        for _ in range(30):
            opponents._iteration(view, rng, tree, first=first)
    assert () not in tree and len(tree) == 60, "one node a descent, none at the root"
    took = [key for key in tree if key[0] == 3]
    passed = [key for key in tree if key[0] == 2]
    assert len(took) == len(passed) == 30
    assert all(key[1] == 1 for key in took), "the mover took: the next lot is drawn"
    assert all(key[1] == 0 for key in passed), "the mover passed: the next seat decides"
    broke: dict = {}
    opponents._iteration(opening(20, 4, [10, 10, 0]), rng, broke, first=False)
    assert list(broke) and all(key[:2] == (2, 1) for key in broke), "no groschen: it takes"


def test_the_searcher_plays_a_whole_round_legally_and_the_same_for_the_same_seed() -> None:
    def game(seed: int) -> list[int]:
        state = SpeedtombolaGame({"players": 3}).new_initial_state()
        chance, moves = random.Random(5), []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, chance))
                continue
            view = state.view(state.current_player())
            move = opponents.choose(view, level="ismcts", rng=random.Random(seed + len(moves)))
            assert move in state.legal_actions()
            state.apply_action(move)
            moves.append(int(move))
        return moves

    assert game(1) == game(1)


def test_the_searcher_is_a_tournament_seat() -> None:
    assert arena.seat("ISMCTS") == "ismcts"


def test_a_match_shows_every_decision_to_a_watcher_and_plays_as_the_tournament() -> None:
    """arena.match (the benchmarks collect positions by its watcher) is play's match."""
    seen: list[tuple[int, int, int]] = []
    state = arena.match(
        ["normal", "greedy", "patient"],
        (3, 1),
        4,
        {},
        lambda seat, view: seen.append((seat, view["lot"], view["pot"])),
    )
    history = state.view(0)["history"]
    assert seen == [(d["seat"], d["lot"], d["pot"]) for d in history] and len(seen) > 20
    assert arena.play(["normal", "greedy", "patient"], (3, 1), 4, {}) == (
        state.places(),
        [float(p) for p in state.match_points],
    )
