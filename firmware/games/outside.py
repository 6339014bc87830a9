"""Seats of a tournament that are not the box's own computers: a game's test opponents,
and your own bot, named as "PATH.py:FUNCTION" (a function that gets the seat's view and
answers a move). Shared by every game's arena; the host's tournaments use it offline.

    >>> canonical("Stark", ["leicht", "normal", "stark"])
    'stark'
    >>> is_outside("bots/mine.py:decide"), is_outside("stark")
    (True, False)
"""

from __future__ import annotations

import difflib
import importlib.util
import operator
from collections.abc import Callable, Sequence
from functools import cache, partial
from pathlib import Path
from typing import Any

from spielleiter.games.base import IllegalActionError
from spielleiter.texts import T, text_of


class SeatError(ValueError):
    """A seat that is not known, or an outside bot that cannot be loaded or answers wrong;
    its message is a text (spielleiter.texts.T) the laptop says in its language."""


def seat_failed(seat: int, level: str, exc: Exception) -> SeatError:
    """A seat's error with the seat named: "seat 2 (bots/mine.py:decide): ...". A move the
    rules refuse says the rules' reason as they give it, in the players' German (DESIGN.md:
    the box speaks German to its players), in a frame of the laptop's language.

    >>> str(seat_failed(1, "normal", SeatError("no answer")))
    'seat 2 (normal): no answer'
    >>> str(seat_failed(0, "mine.py:f", IllegalActionError("Wer nichts hat, muss nehmen.")))
    'seat 1 (mine.py:f): the rules refuse its move: Wer nichts hat, muss nehmen.'
    """
    if isinstance(exc, IllegalActionError) and text_of(exc) is None:
        exc = SeatError(T("the rules refuse its move: {why}", why=str(exc)))
    return SeatError(T("seat {seat} ({level}): {why}", seat=seat + 1, level=level, why=exc))


def is_outside(name: str) -> bool:
    """Whether a seat names an outside bot ("PATH.py:FUNCTION")."""
    path, _, function = name.strip().rpartition(":")
    return path.endswith(".py") and bool(function)


def canonical(name: str, known: Sequence[str]) -> str:
    """The seat's canonical name: one of `known` (case-insensitive) or an outside bot
    that loads; SeatError names an unknown seat, with the closest known name."""
    key = name.strip().lower()
    if key in known:
        return key
    if is_outside(name):
        load(name.strip())
        return name.strip()
    close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.6)
    hint = T(" (did you mean {name}?)", name=close[0]) if close else ""
    raise SeatError(
        T(
            "unknown seat {seat!r}{hint}: one of {known}, or PATH.py:FUNCTION",
            seat=name,
            hint=hint,
            known=", ".join(known),
        )
    )


@cache
def load(spec: str) -> Callable[[dict[str, Any]], Any]:
    """The function FUNCTION of the file PATH.py (loaded once per process), asked so that
    whatever it raises is a SeatError naming it and the exception (the arenas name the
    seat)."""
    path, _, name = spec.rpartition(":")
    file = Path(path)
    if not file.is_file():
        raise SeatError(T("{spec}: no file {path}", spec=spec, path=path))
    module_spec = importlib.util.spec_from_file_location(f"outside_bot_{abs(hash(spec))}", file)
    if module_spec is None or module_spec.loader is None:
        raise SeatError(T("{spec}: cannot load {path}", spec=spec, path=path))
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:  # the outside file is someone else's code
        raise SeatError(
            T("{spec}: loading {path} failed: {why}", spec=spec, path=path, why=repr(exc))
        ) from exc
    function = getattr(module, name, None)
    if not callable(function):
        raise SeatError(
            T("{spec}: {path} has no function {function}", spec=spec, path=path, function=name)
        )

    def asked(view: dict[str, Any]) -> Any:
        try:
            return function(view)
        except Exception as exc:  # the outside bot is someone else's code
            raise SeatError(T("{spec} failed: {why}", spec=spec, why=repr(exc))) from None

    return asked


def legal_answer(spec: str, view: dict[str, Any], legal: Sequence[int]) -> int:
    """Ask the outside bot `spec` on a copy of `view` for one of `legal`; SeatError when it
    answers anything else (a bool is not a move)."""
    answer = load(spec)(dict(view))
    try:
        move = None if isinstance(answer, bool) else operator.index(answer)
    except TypeError:
        move = None
    if move is None or move not in legal:
        shown = ", ".join(map(str, legal[:12])) + (", ..." if len(legal) > 12 else "")
        raise SeatError(
            T(
                "{spec} answered {answer}: a bot answers one of view['legal'] ({legal})",
                spec=spec,
                answer=repr(answer),
                legal=shown,
            )
        )
    return move


def seat_of(name: str, bots: Any, opponents: Any) -> str:
    """A game's seat, canonical: a level of its `bots` module, one of its test
    `opponents` (OPPONENTS), or an outside bot; SeatError names an unknown one."""
    return canonical(name, (*bots.LEVELS, *opponents.OPPONENTS))


def player_of(name: str, bots: Any, opponents: Any) -> Callable[..., int]:
    """A game's seat as a move function (view, rng) -> move: its bots' or test opponents'
    `choose` at that level, or an outside bot asked for one of the view's `legal`."""
    key = seat_of(name, bots, opponents)
    if key in bots.LEVELS:
        return partial(bots.choose, level=key)
    if key in opponents.OPPONENTS:
        return partial(opponents.choose, level=key)
    return lambda view, rng: legal_answer(key, view, view["legal"])
