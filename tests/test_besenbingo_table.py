"""The Besenbingo table without a box: towers on Weiter, sheets in seat order, the end."""

from __future__ import annotations

import pytest
from spielleiter.games.base import CHANCE, IllegalActionError, Seat
from spielleiter.games.besenbingo import bots
from spielleiter.games.besenbingo.rules import MINUS, REVEALS
from spielleiter.games.besenbingo.table import (
    GAME,
    PAPIER,
    SOLO_KEY,
    STAND_IN,
    BesenbingoTable,
    digital_durchgang,
    paper_durchgang,
)
from spielleiter.games.besenbingo.templates import default_templates, retired_templates
from spielleiter.games.table import Award, HeadlessHost
from spielleiter.session import Session
from spielleiter.store import Store

ANNA = Seat("Anna")
BERT = Seat("Bert")
STARK = Seat("Stark 1", "computer", "stark")
NORMAL = Seat("Normal 2", "computer", "normal")


def new_table(
    store: Store, seats: list[Seat], seed: int = 7, deferred: bool = False, **kw: object
) -> BesenbingoTable:
    """A started digital Durchgang (or paper play with no seats) on a headless host."""
    params, seats, meta = digital_durchgang(store, seats, **kw) if seats else paper_durchgang()
    host = HeadlessHost(store)
    host.deferred = deferred
    table = BesenbingoTable(host, Session.start(store, GAME, params, seats, meta, seed=seed))
    table.advance()
    return table


def play_to_the_end(table: BesenbingoTable) -> None:
    """Weiter before each tower; each human crosses the first allowed choice."""
    for _ in range(100):
        if table.over:
            return
        seat = table.human_waiting()
        if seat is not None:
            table.command(seat, table.state.choices(seat)[0]["action"])
        else:
            table.proceed()
    raise AssertionError("the Durchgang did not end")


def expected_awards(table: BesenbingoTable) -> list[Award]:
    """The ENTRY's text: the sheet's points (never below 0), +30/+15/+5 for places 1/2/3
    when two or more sheets play."""
    scores, places = table.state.scores(), table.state.places()
    bonus = {1: 30, 2: 15, 3: 5} if len(scores) > 1 else {}
    return [
        Award(seat.name, max(0, scores[s]) + bonus.get(places[s], 0),
              wins=int(len(scores) > 1 and places[s] == 1))
        for s, seat in enumerate(table.seats)
        if seat.is_human
    ]  # fmt: skip


def test_the_silent_tower_lies_apart_and_weiter_turns_each_tower(store: Store) -> None:
    table = new_table(store, [ANNA])
    assert table.session.committed == 1 and table.state.revealed == []
    assert table.to_move() == CHANCE and table.holding() and table.phase == "first"
    table.advance()  # nothing moves without Weiter
    assert table.session.committed == 1
    table.proceed()
    assert len(table.state.revealed) == 1 and table.human_waiting() == 0
    table.command(0, table.state.choices(0)[0]["action"])
    assert table.phase == "tower" and len(table.state.revealed) == 1


def test_the_towers_come_from_the_records_own_stream(store: Store) -> None:
    one = new_table(store, [ANNA, STARK], seed=11)
    other = new_table(store, [ANNA, Seat("Leicht 1", "computer", "leicht")], seed=11)
    play_to_the_end(one)
    play_to_the_end(other)
    assert one.state.revealed == other.state.revealed
    assert one.session.record.actions[0] == other.session.record.actions[0]


def test_a_match_with_computers_ends_with_the_awards_the_rules_give(store: Store) -> None:
    table = new_table(store, [ANNA, STARK, NORMAL])
    play_to_the_end(table)
    state = table.state
    assert state.is_terminal() and all(len(s.moves) == REVEALS for s in state.sheets)
    assert table.awards(state) == expected_awards(table)
    record_id = table.session.record_id
    assert store.awards(record_id) == expected_awards(table)  # written with the last action
    assert store.record(record_id).meta["finished"]
    assert store.record(record_id).replay().scores() == state.scores()


def test_two_humans_and_a_computer_share_the_place_bonus_by_the_rules(store: Store) -> None:
    table = new_table(store, [ANNA, BERT, STARK], seed=3)
    play_to_the_end(table)
    awards = {a.name: a.points for a in store.awards(table.session.record_id)}
    assert awards == {a.name: a.points for a in expected_awards(table)}
    assert set(awards) == {"Anna", "Bert"}  # computers are not listed


def test_paper_play_fills_the_stand_in_sheet_and_scores_nothing(store: Store) -> None:
    table = new_table(store, [])
    for n in range(1, REVEALS + 1):
        table.proceed()
        assert len(table.state.revealed) == n
    assert table.over and table.phase == "end" and not table.silent_revealed
    table.proceed()  # Weiter: the silent tower
    assert table.silent_revealed
    assert table.state.silent_tower == table.session.record.actions[0]
    assert store.awards(table.session.record_id) == []
    assert store.record(table.session.record_id).meta["finished"]


def test_paper_records_name_an_offered_template_and_old_ones_still_resume(store: Store) -> None:
    params, _, _ = paper_durchgang()
    assert params["templates"] == [default_templates()[0].name]
    # A paper record from before the templates were retired names none: its stand-in
    # sheet was played on the first retired template, and it resumes there.
    old = {"players": 1}
    session = Session.start(store, GAME, old, [STAND_IN], {"mode": PAPIER}, seed=3)
    table = BesenbingoTable(HeadlessHost(store), session)
    table.advance()
    for _ in range(3):
        table.proceed()
    resumed = BesenbingoTable(HeadlessHost(store), Session.resume(store, session.record_id))
    assert resumed.state.sheets[0].template == retired_templates()[0]
    assert resumed.state.history() == table.state.history()
    for _ in range(REVEALS - 3):
        resumed.proceed()
    assert resumed.over


def test_a_record_naming_a_retired_template_resumes(store: Store) -> None:
    params = {"players": 1, "templates": [retired_templates()[4].name]}
    session = Session.start(store, GAME, params, [ANNA], {"mode": "digital"}, seed=5)
    table = BesenbingoTable(HeadlessHost(store), session)
    table.advance()
    table.proceed()
    table.command(0, table.state.choices(0)[0]["action"])
    resumed = BesenbingoTable(HeadlessHost(store), Session.resume(store, session.record_id))
    assert resumed.state.sheets[0].template.name == retired_templates()[4].name
    assert resumed.state.history() == table.state.history()
    play_to_the_end(resumed)
    assert resumed.over


def test_the_end_is_one_transaction_with_the_last_cross(store: Store) -> None:
    table = new_table(store, [ANNA], seed=5)
    while not (table.human_waiting() == 0 and len(table.state.revealed) == REVEALS):
        if table.human_waiting() == 0:
            table.command(0, table.state.choices(0)[0]["action"])
        else:
            table.proceed()
    record_id = table.session.record_id
    assert not store.record(record_id).meta.get("finished")
    assert store.awards(record_id) == []
    table.command(0, table.state.choices(0)[0]["action"])  # the last cross
    assert store.record(record_id).meta["finished"]
    assert store.awards(record_id) == [Award("Anna", max(0, table.state.scores()[0]))]
    assert store.get_value(SOLO_KEY) == {"Anna": table.state.scores()[0]}


def test_solo_rounds_beat_the_previous_score_on_the_next_template(store: Store) -> None:
    store.set_value(SOLO_KEY, {"Bert": 9})
    first = new_table(store, [ANNA], rounds=3)
    assert first.solo == {"round": 1, "rounds": 3, "boards": first.solo["boards"], "to_beat": None}
    assert first.next_round() is None  # not before the end
    play_to_the_end(first)
    score = first.state.scores()[0]
    assert store.get_value(SOLO_KEY) == {"Bert": 9, "Anna": score}
    params, seats, meta = first.next_round()
    assert meta["solo"]["round"] == 2 and meta["solo"]["to_beat"] == score
    assert params["templates"] != first.session.record.params["templates"]
    second = BesenbingoTable(HeadlessHost(store), Session.start(store, GAME, params, seats, meta))
    second.advance()
    play_to_the_end(second)
    assert second.solo_beaten == (second.state.scores()[0] > score)
    params, seats, meta = second.next_round()
    third = BesenbingoTable(HeadlessHost(store), Session.start(store, GAME, params, seats, meta))
    third.advance()
    play_to_the_end(third)
    assert third.next_round() is None  # the last of three Durchgänge


def test_stark_computers_on_the_shipped_templates_are_ready_at_once(store: Store) -> None:
    bots.Solver._cached.cache_clear()  # nothing built earlier in this process
    table = new_table(store, [ANNA, STARK, STARK], deferred=True)
    assert table.prepared and table.phase == "first" and not table.busy
    assert table.session.committed == 1 and table.host.pending == []


def test_stark_computers_prepare_an_uploaded_template_before_the_first_tower(
    store: Store,
) -> None:
    bots.Solver._cached.cache_clear()
    own = dict(default_templates()[0].to_json(), name="Eigene")
    own["bar"] = dict(own["bar"], minus=[*own["bar"]["minus"][:-1], own["bar"]["minus"][-1] - 1])
    store.put_boards(GAME, {"Eigene": own})
    seats, boards = [ANNA, STARK], [default_templates()[1].name, "Eigene"]
    table = new_table(store, seats, deferred=True, templates=boards)
    assert table.phase == "preparing" and table.busy and table.session.committed == 0
    with pytest.raises(IllegalActionError, match="Computer"):
        table.proceed()
    table.host.run_pending()
    assert table.prepared and table.session.committed == 1  # then the silent tower
    again = new_table(store, seats, deferred=True, templates=boards)
    assert again.prepared  # built once a run: the next Durchgang on it starts at once


def test_a_computers_late_answer_after_leaving_is_dropped(store: Store) -> None:
    table = new_table(store, [ANNA, STARK], deferred=True)
    table.host.run_pending()  # the tables are built
    table.proceed()
    table.command(0, table.state.choices(0)[0]["action"])
    assert table.thinking == 1 and table.phase == "thinking"
    committed = table.session.committed
    table.leave()
    table.host.run_pending()
    stored = store.record(table.session.record_id).actions
    assert table.session.committed == committed == len(stored)
    (info,) = store.records()
    assert info.abandoned and not info.finished
    assert store.awards(table.session.record_id) == []


def test_the_computers_results_wait_to_be_shown_after_each_tower(store: Store) -> None:
    table = new_table(store, [ANNA, STARK])
    table.proceed()
    assert not table.results_pending  # Anna has not crossed yet
    table.command(0, table.state.choices(0)[0]["action"])
    assert table.results_pending and len(table.state.sheets[1].moves) == 1
    table.results_seen()
    assert not table.results_pending


def test_refusals_say_why(store: Store) -> None:
    table = new_table(store, [ANNA, BERT])
    table.proceed()
    with pytest.raises(IllegalActionError, match="Bert ist nicht am Zug"):
        table.command(1, table.state.choices(0)[0]["action"])
    committed = table.session.committed
    if table.state.choices(0)[0]["action"] != MINUS:
        with pytest.raises(IllegalActionError) as refused:
            table.command(0, MINUS)
        assert str(refused.value) == table.state.explain_illegal(MINUS)
    wrong = next(a for a in range(MINUS) if a not in table.state.legal_actions())
    with pytest.raises(IllegalActionError) as refused:
        table.command(0, wrong)
    assert str(refused.value) == table.state.explain_illegal(wrong)
    assert table.session.committed == committed


def test_leaving_ends_the_durchgang_unscored(store: Store) -> None:
    table = new_table(store, [ANNA, BERT])
    table.proceed()
    assert not table.can_leave_seat(0)  # leaving costs nothing and ends it for all
    table.leave(0)
    assert table.closed
    (info,) = store.records()
    assert info.abandoned and not info.finished
    assert store.bestenliste(GAME) == []
