"""Stark's belief about how each opponent plays, rebuilt from the match's history."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from spielleiter.games.speedtombola import arena, opponents
from spielleiter.games.speedtombola.belief import (
    FAMILY,
    SEARCHER_PRIOR,
    posterior,
    searcher_chance,
    summary,
    take_chance,
    take_now,
)
from spielleiter.games.speedtombola.bots import NORMAL, choose
from spielleiter.games.speedtombola.rules import Move, SpeedtombolaGame
from spielleiter.games.speedtombola.sim import Policy
from spielleiter_host import cli


def decision(seat: int, lot: int, pot: int, move: Move, cost: int | None = None) -> dict:
    cost = lot if cost is None else cost
    return {"round": 0, "seat": seat, "lot": lot, "pot": pot, "move": int(move),
            "cost": cost, "groschen": 8, "drum": 15}  # fmt: skip


def test_the_view_carries_every_decision_of_the_match() -> None:
    state = SpeedtombolaGame({"players": 3}).new_initial_state()
    for lot in (3, 4, 5, 6, 7, 8, 9, 10, 11, 20):
        state.apply_action(lot)
    state.apply_action(Move.NEIN_DANKE)
    state.apply_action(Move.NEHMEN)
    history = state.view(2)["history"]
    assert [(d["seat"], d["lot"], d["pot"], d["move"]) for d in history] == [
        (0, 20, 0, Move.NEIN_DANKE),
        (1, 20, 1, Move.NEHMEN),
    ]
    assert history[1]["groschen"] == 11 and history[1]["cost"] == 20


def test_with_no_evidence_the_belief_is_broad() -> None:
    belief = posterior([], seat=1)
    assert np.allclose(belief, 1 / len(FAMILY))


def test_the_worked_example_leaves_the_patient_policies() -> None:
    """docs/speedtombola.md: passed a 30 at pot 5, then took a 12 (costing 12) at pot 4."""
    history = [decision(1, 30, 5, Move.NEIN_DANKE), decision(1, 12, 4, Move.NEHMEN)]
    belief = posterior(history, seat=1)
    patient = sum(w for p, w in zip(FAMILY, belief, strict=True) if p.cost == 1.0)
    assert patient == pytest.approx(0.034, abs=0.002)  # from 12/36 = 0.333 before
    for policy, weight in summary(belief, top=4):
        assert policy.threshold(12, 12, 15, 0.0) <= 4 + 2, "the likely ones take a 12 at 4"
        assert weight == pytest.approx(0.148, abs=0.03)


@pytest.mark.parametrize("name", ["patient", "hoarder"])
def test_a_seat_that_plays_one_way_is_recognised(name: str) -> None:
    """Decisions made by a policy make the belief favour policies that decide alike."""
    true = opponents.OPPONENTS[name]
    rng = random.Random(4)
    history = []
    for _ in range(60):
        lot, pot = rng.randint(5, 35), rng.randint(0, 20)
        cost = rng.choice([lot, lot, 1])
        take = true.accepts(cost, lot, 15, 0.0, pot, 8)
        history.append(decision(2, lot, pot, Move.NEHMEN if take else Move.NEIN_DANKE, cost))
    belief = posterior(history, seat=2)
    agree = [
        np.mean([p.accepts(d["cost"], d["lot"], 15, 0.0, d["pot"], 8) == (d["move"] == 1)
                 for d in history])
        for p in FAMILY
    ]  # fmt: skip
    assert float(np.dot(belief, agree)) > 0.9, "the belief rests on policies that agree"


def one_round(seats: tuple[str, ...], seed: int) -> list[dict]:
    """Every decision of one round of these seats (levels or test opponents)."""
    rng = random.Random(seed)
    state = SpeedtombolaGame({"players": len(seats)}).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        seat = state.current_player()
        view, level = state.view(seat), seats[seat]
        play = opponents.choose if level in opponents.OPPONENTS else choose
        state.apply_action(play(view, level=level, rng=rng))
    return state.view(0)["history"]


def test_a_player_whose_takes_do_not_follow_the_pot_is_taken_for_a_searcher() -> None:
    """A threshold player's moves fit the family far better than a constant chance of
    taking; moves that do not follow the pot and the cost (as a searcher's often do not)
    fit the constant better. Before any move, and from forced takes: the prior."""
    assert searcher_chance([], seat=1) == SEARCHER_PRIOR
    history = [d for seed in (5, 6, 7) for d in one_round(("normal", "patient", "greedy"), seed)]
    assert all(searcher_chance(history, seat) < 0.01 for seat in range(3)), "three rounds"
    rng = random.Random(8)
    coin = [decision(1, rng.randint(5, 35), rng.randint(0, 15), Move(rng.random() < 0.2))
            for _ in range(40)]  # fmt: skip
    assert searcher_chance(coin, seat=1) > 0.99
    forced = [dict(decision(1, 30, 0, Move.NEHMEN), groschen=0)] * 20
    assert searcher_chance(forced, seat=1) == SEARCHER_PRIOR


def test_a_threshold_player_takes_the_open_lot_by_its_belief() -> None:
    """take_now: the belief's chance that the seat takes the open lot at a pot."""
    view = {"lot": 20, "drum": 15, "lots": [[], [19], []]}
    normal = np.array([1.0 if p == Policy(0.2, 0.15, noise=1.5, reserve=3, slope=1) else 0.0
                       for p in FAMILY])  # fmt: skip
    chances = take_now(view, 2, [(0, 8), (7, 8), (9, 8), (0, 0)], belief=normal)
    assert chances[0] == 0.0  # Normal wants 0.2 × 20 + 0.15 × 20 = 7, give or take 1.5
    assert chances[1] == pytest.approx(0.5, abs=0.2)
    assert chances[2] == 1.0
    assert chances[3] == 1.0, "no groschen: it must"
    assert take_now(view, 1, [(5, 8)], belief=normal)[0] == 1.0, "it joins seat 1's 19"


def test_each_policy_alone_gets_the_chances_it_gets_among_all() -> None:
    rng = random.Random(4)
    decisions = [
        {k: rng.randint(0, 30) for k in ("cost", "lot", "drum", "pot", "groschen")}
        for _ in range(25)
    ]
    sharp = Policy(cost=1, lot=0.1, drum=0.2, bias=1, noise=0, milk=2, reserve=2, slope=1)
    family = (*FAMILY, sharp)
    together = take_chance(family, decisions)
    assert together.shape == (len(family), len(decisions))
    for k, policy in enumerate(family):
        assert np.array_equal(take_chance([policy], decisions)[0], together[k])
    assert set(np.unique(together[-1])) <= {0.0, 1.0}
    forced = [i for i, d in enumerate(decisions) if d["groschen"] == 0]
    assert forced and (together[:, forced] == 1.0).all()


def test_a_forced_take_says_nothing() -> None:
    forced = dict(decision(1, 30, 0, Move.NEHMEN), groschen=0)
    assert np.allclose(posterior([forced], seat=1), posterior([], seat=1))


def test_normal_is_in_the_family() -> None:
    assert any(p.cost == NORMAL.cost and p.lot == NORMAL.lot and p.bias == 0 for p in FAMILY)
    assert all(isinstance(p, Policy) for p in FAMILY)


# --- seats in tournaments: levels, test opponents, your own bot --------------------------


def test_levels_are_case_insensitive_and_an_unknown_seat_is_named() -> None:
    assert arena.seat("Stark") == "stark" and arena.seat("PATIENT") == "patient"
    with pytest.raises(arena.SeatError, match="unknown seat 'Profi'"):
        arena.seat("Profi")
    with pytest.raises(arena.SeatError, match="did you mean stark"):
        arena.seat("Strak")


def test_your_own_bot_plays_a_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "speedtombola.md").read_text("utf-8")
    example = docs.split("# mybot.py\n", 1)[1].split("```", 1)[0]
    bot = tmp_path / "mybot.py"
    bot.write_text(example, encoding="utf-8")  # the example of the docs, as written
    argv = ["tournament", "speedtombola", "--seats", f"{bot}:decide,Normal,patient",
            "--games", "3", "--json"]  # fmt: skip
    assert cli.main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert [r["seat"] for r in result["results"]] == [f"{bot}:decide", "normal", "patient"]


@pytest.mark.usefixtures("english")  # the English messages
def test_a_bot_that_answers_wrong_ends_with_its_seat_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = tmp_path / "bad.py"
    bot.write_text("def decide(view):\n    return 'ja'\n", encoding="utf-8")
    argv = ["tournament", "speedtombola", "--seats", f"normal,{bot}:decide,normal", "--games", "3"]
    assert cli.main([*argv, "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "bad.py:decide answered 'ja'" in err and "seat" in err


@pytest.mark.usefixtures("english")  # the English messages
def test_a_missing_bot_file_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "speedtombola", "--seats", "normal,nix.py:decide,normal", "--games", "3"]
    assert cli.main(argv) == 2
    assert "no file nix.py" in capsys.readouterr().err


@pytest.mark.usefixtures("english")  # the English messages
def test_a_bot_that_passes_without_a_groschen_ends_with_its_seat_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = tmp_path / "stingy.py"
    bot.write_text("def decide(view):\n    return 0\n", encoding="utf-8")  # never takes
    argv = ["tournament", "speedtombola", "--seats", f"normal,{bot}:decide,normal", "--games", "3"]
    assert cli.main([*argv, "--no-progress"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "stingy.py:decide" in err and "seat" in err
