"""Engel & Bengel computer players (Leicht, Normal, Stark), on a seat's view only.

- Leicht places a random fitting die when it must, adds a finished white row now and
  then, and rolls again or stops by a coin toss.
- Normal plays the rollout policy (:func:`policy.policy_move`): each die is worth what it
  does to a row (chips for the last box, a penalty for leaving a white row one box short
  for the next player, a little for progress on a white row) minus what a die in hand is
  worth; it places when it must or when that pays, and rolls again while three or more
  dice are left.
- Stark plays every legal move out many times with the numpy simulator (its own turn and
  the next players' turns, all seats on the Normal policy, the same dice for every move),
  and takes the move with the best mean of its chips minus the others' mean chips.

The view is everything a player at the table sees: the top face, its boxes, the roll,
every player's dice and chips. No bot ever sees the stack below the top face.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from spielleiter.games.engel_bengel.faces import Face, validate_face
from spielleiter.games.engel_bengel.policy import KEEP, policy_move
from spielleiter.games.engel_bengel.rules import (
    EngelBengelGame,
    EngelBengelState,
    Move,
    decode_place,
    row_delta,
)

LEVELS = ("leicht", "normal", "stark")
NORMAL_KEEP = KEEP
"""Normal rolls again while at least this many dice of its turn are left."""
STARK_PLAYOUTS = 48
"""Playouts per legal move for Stark (the same dice for every move)."""
STARK_HORIZON = 0
"""Turns Stark looks ahead past its own (0: one round of the table)."""


def face_of(view: Mapping[str, Any]) -> Face:
    return validate_face(view["face"])


def normal_move(view: Mapping[str, Any], keep: int = NORMAL_KEEP) -> int:
    """Normal's move: the rollout policy on the view."""
    return policy_move(
        face_of(view), view["board"], view["roll"], view["placed_now"], view["rolls"], keep
    )


def leicht_move(view: Mapping[str, Any], rng: random.Random) -> int:
    """Leicht's move: a random fitting die, a white row's last box half the time, a coin toss."""
    legal = list(view["legal"])
    places = [a for a in legal if a >= 2]
    if view["placed_now"] == 0:
        return rng.choice(places)
    face = face_of(view)
    finishing = [
        a for a in places
        if len(view["board"][decode_place(a)[0]]) + 1 == face.rows[decode_place(a)[0]].boxes
        and row_delta(face.rows[decode_place(a)[0]]) > 0
    ]  # fmt: skip
    if finishing and rng.random() < 0.5:
        return rng.choice(finishing)
    if Move.NOCHMAL in legal and rng.random() < 0.5:
        return Move.NOCHMAL
    return Move.STOPP


def position(view: Mapping[str, Any]) -> EngelBengelState:
    """A state that matches the view (the stack below the top face left out)."""
    game = EngelBengelGame(
        {"players": view["players"], "faces": [view["face"]], "shuffle": False,
         "start": "erster", "target": 10_000}
    )  # fmt: skip
    state = game.new_initial_state()
    state.board = [list(b) for b in view["board"]]
    state.dice = list(view["dice"])
    state.chips = list(view["chips"])
    state.turn = view["turn"]
    state.roll = sorted(view["roll"])
    state.cup = view["cup"]
    state.rolls = view["rolls"]
    state.placed_now = view["placed_now"]
    state.awaiting_roll = False
    return state


def stark_values(
    view: Mapping[str, Any], rng: random.Random, playouts: int = STARK_PLAYOUTS
) -> dict[int, float]:
    """Each legal move's mean of (own chips - the others' mean chips) after the playouts."""
    import numpy as np
    from spielleiter.games.engel_bengel.sim import Batch, simulate

    seat = int(view["seat"])
    legal = [int(a) for a in view["legal"]]
    base = position(view)
    states = []
    for action in legal:
        s = base.clone()
        s.apply_action(action)
        if s.durchgang != base.durchgang:
            s.over = True
        states.append(s)
    n = int(view["players"])
    batch = Batch.of(states, repeat=playouts)
    gen = np.random.default_rng(rng.getrandbits(64))
    dice = np.tile(gen.integers(1, 7, size=(playouts, 64, 5)), (len(legal), 1, 1))
    keep = np.full((len(legal) * playouts, n), NORMAL_KEEP)
    simulate(face_of(view), batch, dice, keep, horizon=n + STARK_HORIZON)
    chips = batch.chips.astype(float)
    mine = chips[:, seat]
    others = (chips.sum(axis=1) - mine) / (n - 1)
    score = (mine - others).reshape(len(legal), playouts).mean(axis=1)
    return {a: float(v) for a, v in zip(legal, score, strict=True)}


def stark_move(view: Mapping[str, Any], rng: random.Random, playouts: int = STARK_PLAYOUTS) -> int:
    """Stark's move: the best mean over the playouts (Normal's move on a tie)."""
    legal = list(view["legal"])
    if len(legal) == 1:
        return int(legal[0])
    values = stark_values(view, rng, playouts)
    best = max(values.values())
    normal = normal_move(view)
    if values.get(normal, -1e9) >= best - 1e-9:
        return normal
    return max(values, key=lambda a: values[a])


def choose(view: Mapping[str, Any], *, level: str, rng: random.Random) -> int:
    """A computer's move on its view, at level leicht, normal or stark."""
    if level == "leicht":
        return leicht_move(view, rng)
    if level == "stark":
        return stark_move(view, rng)
    return normal_move(view)
