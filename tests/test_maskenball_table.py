"""The Maskenball table without a box: magnets, spins, flights, reports, the end, Bestenliste."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from spielleiter.games.base import IllegalActionError, Seat
from spielleiter.games.maskenball.rules import (
    GROUPING,
    HOME,
    REPORT_SWAPPED,
    SECTORS,
    SPIN,
    VISIT,
    is_petal,
)
from spielleiter.games.maskenball.table import SEAT, MaskenballTable
from spielleiter.games.table import HeadlessHost
from spielleiter.session import Session
from spielleiter.store import Award, Store

GROUP = {0, 1, 2, 3}
"""The real magnets of the physical tests: Rot, Orange, Gelb, Türkis against the rest."""


def new_table(
    tmp_path: Path, mode: str = "digital", seed: int = 5, **params: Any
) -> MaskenballTable:
    """A new match at a table of two, no box, its chance seeded by `seed`."""
    store = Store(tmp_path / f"{mode}-{seed}.sqlite3")
    session = Session.start(
        store, "maskenball", {"players": 2, "mode": mode, **params}, [Seat("Tisch")], seed=seed
    )
    table = MaskenballTable(HeadlessHost(store, {"bot.playouts": 100}), session)
    table.advance()
    return table


def decide(table: MaskenballTable) -> None:
    """The players' simple policy: the first beetle the rules allow, else fly home."""
    allowed = table.allowed()
    table.command(SEAT, table.pick(allowed[0]) if allowed else HOME)


def play_digital(table: MaskenballTable) -> None:
    """Drehen and decide until the match is over."""
    for _ in range(5000):
        if table.over:
            return
        if table.state.pending() == "spin":
            table.spin()
        else:
            decide(table)
    raise AssertionError("no end")


def play_physical_petals(table: MaskenballTable) -> None:
    """The sensor brings petals only (no ants); visits go across GROUP, reported honestly."""
    petals = iter(range(10_000))
    for _ in range(5000):
        state = table.state
        if table.over:
            return
        pending, flyer = state.pending(), state.flyer()
        if pending == "spin":
            table.supply(SPIN + 2 * (next(petals) % 8))
        elif pending == "report":
            table.report((flyer in GROUP) != (state.visited() in GROUP))
        elif pending == "choose":
            table.command(SEAT, table.pick(table.allowed()[0]))
        else:
            across = [b for b in table.allowed() if (b in GROUP) != (flyer in GROUP)]
            table.command(SEAT, VISIT + across[0] if across else HOME)
    raise AssertionError("no end")


def test_the_box_draws_the_magnets_from_the_records_own_stream(tmp_path: Path) -> None:
    a, b = new_table(tmp_path / "a"), new_table(tmp_path / "b")
    first = a.session.record.actions
    assert len(first) == 1 and GROUPING <= first[0] < GROUPING + 35
    assert b.session.record.actions == first  # the same record seed, the same magnets
    assert a.state.pending() == "spin" and a.to_move() < 0  # the spin waits for Drehen


def test_physical_play_waits_for_the_first_spin(tmp_path: Path) -> None:
    table = new_table(tmp_path, mode="physical")
    assert table.session.record.actions == []
    assert not table.chance_from_box() and table.state.pending() == "spin"


def test_drehen_commits_the_spin_from_the_records_sector_probabilities(tmp_path: Path) -> None:
    probabilities = [1e-6] * SECTORS
    probabilities[6] = 1 - 1e-6 * (SECTORS - 1)
    table = new_table(tmp_path, mode="physical", sector_probabilities=probabilities)
    sector = table.spin()
    assert sector == 6 and table.session.record.actions == [SPIN + 6]
    stored = table.session.store.record(table.session.record_id)
    assert stored.actions == [SPIN + 6]  # committed before anything shows it
    assert table.state.flyer() == 3 and table.news == "Türkis fliegt los"


def test_the_same_record_seed_spins_the_same_and_advice_changes_nothing(tmp_path: Path) -> None:
    plain, advised = new_table(tmp_path / "a", seed=9), new_table(tmp_path / "b", seed=9)
    for _ in range(12):
        for table in (plain, advised):
            if table.state.pending() == "spin":
                table.spin()
            else:
                if table is advised:
                    tips = table.advice(random.Random(len(table.session.record.actions)))()
                    assert tips.best_action in table.state.legal_actions()
                decide(table)
    assert plain.session.record.actions == advised.session.record.actions


def test_a_whole_digital_match_ends_in_one_transaction_with_its_award(tmp_path: Path) -> None:
    table = new_table(tmp_path, seed=3)
    play_digital(table)
    state, session, store = table.state, table.session, table.session.store
    stored = store.record(session.record_id)
    assert stored.meta["finished"] and stored.actions == session.record.actions
    spins = sum(1 for a in stored.actions if a < SECTORS)
    assert stored.meta["won"] == state.won() and stored.meta["spins"] == spins == table.spins()
    points = 10 + 7 - state.vine() if state.won() else 0
    assert store.awards(session.record_id) == [Award("2 Spieler", points, wins=int(state.won()))]
    assert [(s.name, s.points, s.matches) for s in store.bestenliste("maskenball")] == [
        ("2 Spieler", points, 1)
    ]


def test_a_won_match_scores_ten_and_the_free_vine_fields(tmp_path: Path) -> None:
    table = new_table(tmp_path, mode="physical", players=4, vine=5)
    table.supply(SPIN + 1)  # a leaf: an ant on the stump
    table.supply(SPIN + 3)  # another: onto the vine
    play_physical_petals(table)
    assert table.state.won() and table.state.vine() == 1
    assert table.points() == 10 + 5 - 1
    assert table.session.store.awards(table.session.record_id) == [Award("4 Spieler", 14, wins=1)]


def test_a_lost_match_scores_nothing_but_counts(tmp_path: Path) -> None:
    table = new_table(tmp_path, mode="physical", vine=1)
    table.supply(SPIN + 1)
    assert table.news == "Ameise auf den Baumstumpf"
    table.supply(SPIN + 3)
    assert table.over and table.state.lost() and table.news == "Ameise auf die Ranke"
    store = table.session.store
    assert store.awards(table.session.record_id) == [Award("2 Spieler", 0)]
    assert store.record(table.session.record_id).meta["won"] is False
    with pytest.raises(IllegalActionError):
        table.spin()


def test_a_failed_last_commit_writes_neither_the_end_nor_the_award(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = new_table(tmp_path, mode="physical", vine=1)
    table.supply(SPIN + 1)
    store = table.session.store
    plain = store.append_actions

    def power_cut(*args: Any, **kwargs: Any) -> None:
        if kwargs.get("finish"):
            raise OSError("power cut")
        plain(*args, **kwargs)

    monkeypatch.setattr(store, "append_actions", power_cut)
    with pytest.raises(OSError):
        table.supply(SPIN + 3)
    assert store.awards(table.session.record_id) == []
    assert not store.record(table.session.record_id).meta.get("finished")
    assert table.state.pending() == "spin"  # rebuilt from what is stored
    monkeypatch.undo()
    resumed = MaskenballTable(HeadlessHost(store), Session.resume(store, table.session.record_id))
    resumed.supply(SPIN + 3)
    assert store.awards(table.session.record_id) == [Award("2 Spieler", 0)]


def test_refusals_say_why_and_change_nothing(tmp_path: Path) -> None:
    table = new_table(tmp_path, mode="physical")
    with pytest.raises(IllegalActionError, match="nicht am Zug"):
        table.command(SEAT, VISIT + 1)  # nobody flies yet
    table.supply(SPIN + 0)  # Rot flies
    before = list(table.session.record.actions)
    assert table.refusal(VISIT + 0) == "Ein Käfer kann sich nicht selbst besuchen"
    with pytest.raises(IllegalActionError, match="nicht selbst besuchen"):
        table.command(SEAT, VISIT + 0)
    with pytest.raises(IllegalActionError, match="erst einen anderen besuchen"):
        table.command(SEAT, HOME)
    with pytest.raises(IllegalActionError):
        table.spin()  # a flight is pending, not a spin
    with pytest.raises(IllegalActionError):
        table.report(True)  # no visit waits for the magnets
    assert table.session.record.actions == before
    table.command(SEAT, VISIT + 4)
    table.report(True)  # Rot and Blau swap
    assert table.refusal(VISIT + 4) == "Mit Blau wurde schon getauscht"
    assert table.news == "Tausch Rot-Blau!"


def test_a_contradicting_report_needs_confirmation(tmp_path: Path) -> None:
    table = new_table(tmp_path, mode="physical")
    for spin, visit in ((0, 1), (2, 2)):  # Rot-Orange, then Orange-Gelb: both turned away
        table.supply(SPIN + spin)
        table.command(SEAT, VISIT + visit)
        table.report(False)
    table.supply(SPIN + 0)
    table.command(SEAT, VISIT + 2)  # Rot visits Gelb: they must share a group
    question = "Bisher gelernt: Rot und Gelb müssten wegdrehen. Wirklich getauscht?"
    assert table.contradiction(True) == question and table.contradiction(False) is None
    before = table.session.committed
    with pytest.raises(IllegalActionError, match="Wirklich getauscht"):
        table.report(True)
    assert table.session.committed == before
    table.report(True, confirmed=True)
    assert table.session.record.actions[-1] == REPORT_SWAPPED
    assert table.state.reports()[-1] == (0, 2, True)


def test_after_a_confirmed_contradiction_only_what_contradicts_the_likely_splits_is_asked(
    tmp_path: Path,
) -> None:
    table = new_table(tmp_path, mode="physical")
    for visit in (1, 2, 3):  # Rot turns away from Orange, Gelb, Türkis: one group
        table.supply(SPIN + 0)
        table.command(SEAT, VISIT + visit)
        table.report(False)
    table.supply(SPIN + 0)
    table.command(SEAT, VISIT + 1)
    table.report(True, confirmed=True)  # Rot and Orange swap after all
    table.command(SEAT, HOME)
    table.supply(SPIN + 8)
    table.command(SEAT, VISIT + 5)  # Blau visits Lila: either report fits the likely splits
    assert table.contradiction(True) is None and table.contradiction(False) is None
    table.report(False)
    table.supply(SPIN + 4)
    table.command(SEAT, VISIT + 3)  # Gelb visits Türkis: every likely split groups them
    assert table.contradiction(False) is None
    assert table.contradiction(True) == (
        "Bisher gelernt: Gelb und Türkis müssten wegdrehen. Wirklich getauscht?"
    )


def test_a_leaf_names_the_player_who_spun_and_passes_the_turn(tmp_path: Path) -> None:
    table = new_table(tmp_path, mode="physical")
    table.supply(SPIN + 1)
    assert table.spinner_seat == 0 and table.state.seat() == 1
    table.supply(SPIN + 3)
    assert table.spinner_seat == 1 and table.state.seat() == 0


def test_leaving_ends_the_match_unscored(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    table.host.deferred = True  # type: ignore[attr-defined]
    table.spin()
    table.leave(SEAT)  # the one seat: the whole table leaves
    store = table.session.store
    assert table.closed and not table.can_leave_seat(SEAT)
    assert store.unfinished_record() is None and store.awards(table.session.record_id) == []
    assert table.host.pending == []  # type: ignore[attr-defined]  # no computer to answer late
    with pytest.raises(IllegalActionError):
        table.spin()
    if table.state.pending() in ("visit", "choose"):
        with pytest.raises(IllegalActionError):
            decide(table)


def test_every_spin_is_a_petal_or_a_leaf_in_the_news(tmp_path: Path) -> None:
    table = new_table(tmp_path, seed=11)
    for _ in range(30):
        if table.over:
            break
        if table.state.pending() == "spin":
            sector = table.spin()
            assert table.state.last_spin() == sector
            assert ("fliegt los" in table.news or "wähle" in table.news) == is_petal(sector)
        else:
            decide(table)
