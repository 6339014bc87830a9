"""What Bungee's Stark believes about how each other player plays, from the match's public
moves (view["moves"]) and the hands shown at the end of each finished round.

The family: the simulator's threshold players, who call once their hand is worth
`call` or less and take a top discard that counts `take` or less (the lucky number and
Bungee cards 0), with call in {1, 3, 5} and take in {0, 1, 3, 5, 9}: 15 styles, from the
patient low-caller who takes only free cards to the fast caller who takes anything.
Normal is (5, 3).

The prior is uniform. The evidence, each mixed with a tremble of 10 % so that no move
rules a style out for good:

* a take of a top discard that counts v: the styles with take >= v would take it;
* a discard while a top discard that counts v lay there (the seat did not call): the
  styles with take < v would not have taken it;
* a call in a finished round, with the caller's hand shown worth w: a style calls at
  the first turn its hand is worth `call` or less, so w is spread over 0..call
  (1 / (call + 1) each) and is never above it.

The posterior is prior x the product of these chances, normalised. Stark's playouts draw
each opponent's style from its posterior, sample by sample.

    >>> view = {"seat": 0, "players": 2, "lucky": 4, "results": [], "moves": [
    ...     [0, 1, 1, 9], [0, 1, 1, 8], [0, 1, 1, 10]]}   # seat 1 took a 9, an 8, a 10
    >>> belief = beliefs(view)[1]
    >>> round(float(belief[[i for i, s in enumerate(FAMILY) if s[1] == 9]].sum()), 2)
    0.99
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from typing import Any

import numpy as np
from spielleiter.games.bungee.rules import Move, card_value, decode_discard

CALLS = (1, 3, 5)
TAKES = (0, 1, 3, 5, 9)
FAMILY: tuple[tuple[int, int], ...] = tuple(product(CALLS, TAKES))
"""(call, take) of each style."""
TREMBLE = 0.1


def _lucky(view: Mapping[str, Any], round_index: int) -> int | None:
    results = view.get("results") or []
    if round_index < len(results):
        return int(results[round_index]["lucky"])
    return view.get("lucky")


def posterior(view: Mapping[str, Any], seat: int) -> np.ndarray:
    """(len(FAMILY),) the belief about one seat's style."""
    call = np.array([c for c, _ in FAMILY], dtype=np.float64)
    take = np.array([t for _, t in FAMILY], dtype=np.float64)
    log = np.zeros(len(FAMILY))

    def evidence(chance: np.ndarray) -> None:
        nonlocal log
        log = log + np.log(chance * (1.0 - TREMBLE) + TREMBLE / 2.0)

    moves = view.get("moves") or []
    for i, (round_index, who, action, top) in enumerate(moves):
        if who != seat or not top:
            continue
        value = card_value(int(top), _lucky(view, int(round_index)))
        after_take = i > 0 and list(moves[i - 1][:3]) == [round_index, seat, Move.TAKE]
        if action == Move.TAKE:
            evidence((take >= value).astype(np.float64))
        elif decode_discard(int(action)) is not None and not after_take:
            evidence((take < value).astype(np.float64))
    for result in view.get("results") or []:
        if seat in result["calls"]:
            worth = int(result["points"][seat])
            spread = np.where(worth <= call, 1.0 / (call + 1.0), 0.0)
            evidence(spread / max(spread.max(), 1e-12))
    log -= log.max()
    belief = np.exp(log)
    return belief / belief.sum()


def beliefs(view: Mapping[str, Any]) -> dict[int, np.ndarray]:
    """Each other seat's posterior."""
    me = int(view["seat"])
    return {s: posterior(view, s) for s in range(int(view["players"])) if s != me}


def rollout_styles(
    view: Mapping[str, Any], rng: np.random.Generator, rows: int, own: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """(rows, n) call and take thresholds: each other seat's drawn from its belief, the
    seat to move's `own`."""
    n = int(view["players"])
    call = np.full((rows, n), own[0], dtype=np.int64)
    take = np.full((rows, n), own[1], dtype=np.int64)
    styles = np.array(FAMILY, dtype=np.int64)
    for seat, belief in beliefs(view).items():
        drawn = styles[rng.choice(len(FAMILY), size=rows, p=belief)]
        call[:, seat], take[:, seat] = drawn[:, 0], drawn[:, 1]
    return call, take
