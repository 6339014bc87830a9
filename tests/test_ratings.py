"""The Bestenliste's ratings: a fold over the finished records in the order they finished.

What a match gives (each seat's place, leavers last, several computers of one level as
one player, a cooperative table against the game), the order of the fold, the cutoff
of a reset, a deleted record, a restored backup, the cache by record, and the worked
example of docs/ratings.md.
"""

from __future__ import annotations

import doctest
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, finished_record
from hypothesis import given, settings
from hypothesis import strategies as st
from spielleiter import ratings
from spielleiter.games import catalog
from spielleiter.games.base import Seat
from spielleiter.games.table import HeadlessHost, Table
from spielleiter.ratings import COMPUTER, GAME, HUMAN, TABLE, Match, Player
from spielleiter.session import Session
from spielleiter.store import Store

STARK = Seat("Stark 1", "computer", "stark")
NORMAL = [Seat(f"Normal {i}", "computer", "normal") for i in range(1, 4)]
ANNA, BEN, CARLA = Player(HUMAN, "Anna"), Player(HUMAN, "Ben"), Player(HUMAN, "Carla")


@pytest.fixture
def store(tmp_path: Path) -> Any:
    found = Store(tmp_path / "box.sqlite3")
    yield found
    found.close()


def table_of(store: Store, game: str) -> list[tuple[int, str, str, int, int]]:
    """The ratings as the Bestenliste lists them: place, name, kind, matches, wins."""
    return [
        (line.place, line.label, line.rating.player.kind, line.rating.matches, line.rating.wins)
        for line in ratings.lines(store, game)
    ]


def numbers(store: Store, game: str) -> dict[Player, tuple[float, float]]:
    return {p: (r.mu, r.sigma) for p, r in ratings.folded(store, game).ratings.items()}


# --- the worked example -------------------------------------------------------------


def test_the_worked_example_of_the_docs_runs_as_written() -> None:
    result = doctest.testfile(
        str(ROOT / "docs" / "ratings.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted >= 5 and result.failed == 0


# --- one match ------------------------------------------------------------------------


def test_a_win_raises_mu_a_loss_lowers_it_and_every_match_shrinks_sigma() -> None:
    done = ratings.fold([Match(1, 10.0, ((ANNA, 1), (BEN, 2)))])
    anna, ben = done.ratings[ANNA], done.ratings[BEN]
    assert anna.mu > ratings.MU > ben.mu
    assert anna.sigma < ratings.SIGMA and ben.sigma < ratings.SIGMA
    assert anna.mu + ben.mu == pytest.approx(2 * ratings.MU)  # what one wins the other loses
    assert (anna.matches, anna.wins, ben.matches, ben.wins) == (1, 1, 1, 0)


def test_a_tie_moves_equal_players_nowhere_and_counts_a_win_for_each() -> None:
    done = ratings.fold([Match(1, 10.0, ((ANNA, 1), (BEN, 1), (CARLA, 3)))])
    assert done.ratings[ANNA].mu == pytest.approx(done.ratings[BEN].mu)
    assert done.ratings[ANNA].mu > ratings.MU > done.ratings[CARLA].mu
    assert [done.ratings[p].wins for p in (ANNA, BEN, CARLA)] == [1, 1, 0]


def test_eight_seats_are_rated_in_one_match() -> None:
    players = [Player(HUMAN, f"P{i}") for i in range(8)]
    done = ratings.fold([Match(1, 1.0, tuple((p, i + 1) for i, p in enumerate(players)))])
    mus = [done.ratings[p].mu for p in players]
    assert mus == sorted(mus, reverse=True) and len(set(mus)) == 8


def test_several_computers_of_one_level_are_one_player_rated_once_by_their_mean() -> None:
    normal = Player(COMPUTER, "normal", 1)
    match = Match(1, 1.0, ((normal, 1), (ANNA, 2), (normal, 3), (normal, 4)))
    done = ratings.fold([match])
    seats = ratings._model().rate(
        [[ratings._model().rating()] for _ in range(4)], ranks=[1.0, 2.0, 3.0, 4.0]
    )
    mean = sum(seats[i][0].mu for i in (0, 2, 3)) / 3
    assert done.ratings[normal].mu == pytest.approx(mean)
    assert done.ratings[ANNA].mu == pytest.approx(seats[1][0].mu)
    assert (done.ratings[normal].matches, done.ratings[normal].wins) == (1, 1)


# --- the order of the fold ------------------------------------------------------------

PLAYERS = [ANNA, BEN, CARLA, Player(COMPUTER, "stark", 1), Player(COMPUTER, "normal", 1)]


@st.composite
def matches(draw: Any) -> list[Match]:
    found = []
    count = draw(st.integers(1, 12))
    for record in range(1, count + 1):
        seated = draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=5, unique=True))
        places = draw(st.lists(st.integers(1, len(seated)), min_size=len(seated),
                               max_size=len(seated)))  # fmt: skip
        finished = draw(st.sampled_from([100.0, 200.0, 300.0]))  # equal times: the id decides
        found.append(Match(record, finished, tuple(zip(seated, places, strict=True))))
    return found


@settings(max_examples=60, deadline=None)
@given(matches(), st.randoms(use_true_random=False))
def test_the_fold_of_any_order_of_the_same_matches_gives_the_same_ratings(
    found: list[Match], rng: random.Random
) -> None:
    shuffled = list(found)
    rng.shuffle(shuffled)
    assert ratings.fold(shuffled).ratings == ratings.fold(found).ratings


def test_records_stored_in_any_order_give_the_same_ratings(tmp_path: Path) -> None:
    """The same records (ids, finish times: two finished at once) copied into fresh stores
    in other orders: the store's fold reads them in the order they finished."""
    store = Store(tmp_path / "first.sqlite3")
    plays = [
        (["Anna", "Ben", STARK], [1, 3, 2], 300.0),
        (["Ben", "Carla", STARK], [2, 1, 3], 100.0),
        (["Anna", "Carla"], [2, 1], 200.0),
        (["Anna", "Ben", "Carla"], [1, 1, 3], 200.0),
    ]
    for seats, places, at in plays:
        finished_record(store, "speedtombola", seats, places, at=at)
    expected = ratings.folded(store, "speedtombola").ratings
    rows = store._query("SELECT * FROM records")
    store.close()
    for n, order in enumerate(([3, 2, 1, 0], [2, 0, 3, 1])):
        copy = Store(tmp_path / f"copy-{n}.sqlite3")
        with copy._tx() as db:
            db.executemany(
                f"INSERT INTO records VALUES ({', '.join('?' * len(rows[0]))})",
                [rows[i] for i in order],
            )
        assert ratings.folded(copy, "speedtombola").ratings == expected
        copy.close()
    assert len(expected) == 4


def test_the_fold_takes_the_records_in_the_order_they_finished(store: Store) -> None:
    finished_record(store, "speedtombola", ["Anna", "Ben", "Carla"], [1, 2, 3], at=200.0)
    finished_record(store, "speedtombola", ["Anna", "Ben", "Carla"], [3, 2, 1], at=100.0)
    expected = ratings.fold(
        [
            Match(2, 100.0, ((ANNA, 3), (BEN, 2), (CARLA, 1))),
            Match(1, 200.0, ((ANNA, 1), (BEN, 2), (CARLA, 3))),
        ]
    )
    assert ratings.folded(store, "speedtombola").ratings == expected.ratings
    assert [s[0].record for s in ratings.folded(store, "speedtombola").steps] == [2, 1]


# --- the Bestenliste: the Bungee case of the issue, "neu", points by the average ----------


def test_bungee_ranks_the_player_who_won_both_matches_first_by_rating_and_by_average(
    store: Store,
) -> None:
    """Anna lost her only match to Ben; Ben won that one and another. Summed, the fewest
    points would put Anna first (40 against 45)."""
    finished_record(store, "bungee", ["Anna", "Ben"], [2, 1], at=100.0, points=[40, 10])
    finished_record(store, "bungee", ["Ben", *NORMAL], [1, 2, 3, 4], at=200.0, points=[35])
    assert [(s.name, s.points) for s in store.bestenliste("bungee", lowest_first=True)] == [
        ("Anna", 40),
        ("Ben", 45),
    ]
    assert table_of(store, "bungee")[0][:3] == (1, "Ben", HUMAN)
    assert [(s.place, s.name, s.average) for s in ratings.points_lines(store, "bungee")] == [
        (1, "Ben", 22.5),
        (2, "Anna", 40.0),
    ]


def test_most_points_first_for_other_games_by_the_average_not_the_sum(store: Store) -> None:
    finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [1, 2, 3], at=1.0,
                    points=[90, 30, None])  # fmt: skip
    finished_record(store, "speedtombola", ["Ben", "Carla", STARK], [2, 1, 3], at=2.0,
                    points=[70, 80, None])  # fmt: skip
    assert [(s.place, s.name, s.points) for s in ratings.points_lines(store, "speedtombola")] == [
        (1, "Anna", 90),
        (2, "Carla", 80),
        (3, "Ben", 100),
    ]


def test_a_first_match_shows_neu_and_the_second_a_number(store: Store) -> None:
    finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [1, 2, 3], at=1.0)
    assert all(line.rating.new for line in ratings.lines(store, "speedtombola"))
    finished_record(store, "speedtombola", ["Anna", "Carla", STARK], [1, 2, 3], at=2.0)
    new = {line.label: line.rating.new for line in ratings.lines(store, "speedtombola")}
    assert new == {"Anna": False, "Stark": False, "Ben": True, "Carla": True}


def test_the_box_ranks_by_mu_minus_three_sigma(store: Store) -> None:
    """Carla won her only match; Anna won one of four: Carla's mu is (barely) the higher,
    but the box is surer of Anna."""
    for at, places in enumerate(([1, 2, 3], [2, 3, 3], [2, 3, 3], [3, 2, 1])):
        finished_record(store, "speedtombola", ["Anna", "Ben", STARK], places, at=at + 1.0)
    finished_record(store, "speedtombola", ["Carla", "Dora", "Emil"], [1, 2, 3], at=9.0)
    found = {line.label: line for line in ratings.lines(store, "speedtombola")}
    assert found["Carla"].rating.mu > found["Anna"].rating.mu
    assert found["Anna"].place < found["Carla"].place
    conservative = [line.rating.conservative for line in ratings.lines(store, "speedtombola")]
    assert conservative == sorted(conservative, reverse=True)


# --- who is rated in a match -------------------------------------------------------------


def test_a_computer_level_is_rated_per_bot_version_and_old_records_count_as_version_1(
    store: Store,
) -> None:
    finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [2, 3, 1], at=1.0)
    rid = finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [1, 3, 2], at=2.0,
                          meta={"bot_version": 2})  # fmt: skip
    old = finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [3, 1, 2], at=3.0)
    with store._tx() as db:  # a record from before the bot versions
        meta = json.loads(db.execute("SELECT meta FROM records WHERE id=?", (old,)).fetchone()[0])
        del meta["bot_version"]
        db.execute("UPDATE records SET meta=? WHERE id=?", (json.dumps(meta), old))
    lines = {line.label: line.rating for line in ratings.lines(store, "speedtombola")}
    assert lines["Stark"].player == Player(COMPUTER, "stark", 1)
    assert lines["Stark"].matches == 2
    assert lines["Stark v2"].player == Player(COMPUTER, "stark", 2)
    assert lines["Stark v2"].matches == 1
    assert store.record(rid).meta["bot_version"] == 2


def test_a_record_keeps_the_bot_version_it_started_with(store: Store) -> None:
    entry = catalog.entry("speedtombola")
    played = Session.start(store, "speedtombola", {"players": 3}, [Seat("Anna"), STARK, STARK])
    alone = Session.start(store, "speedtombola", {"players": 3}, [Seat(n) for n in "ABC"])
    assert store.record(played.record_id).meta["bot_version"] == entry.info.bot_version == 1
    assert "bot_version" not in store.record(alone.record_id).meta


def test_a_human_who_left_is_rated_last_and_the_computer_that_took_over_is_not(
    store: Store,
) -> None:
    left = Seat("Anna (CPU)", "computer", "normal")
    finished_record(store, "speedtombola", [left, "Ben", "Carla"], [1, 2, 3], at=1.0,
                    meta={"left": [{"seat": 0, "name": "Anna", "at": 40}]})  # fmt: skip
    done = ratings.folded(store, "speedtombola")
    assert set(done.ratings) == {ANNA, BEN, CARLA}
    assert done.steps[0][-1].player == ANNA and done.steps[0][-1].place == 4
    assert done.ratings[ANNA].mu < done.ratings[CARLA].mu < done.ratings[BEN].mu


def test_maskenball_rates_the_table_by_its_size_against_the_game(store: Store) -> None:
    finished_record(store, "maskenball", ["Tisch"], [1], at=1.0, params={"players": 4},
                    meta={"won": True})  # fmt: skip
    finished_record(store, "maskenball", ["Tisch"], [1], at=2.0, params={"players": 4},
                    meta={"won": False})  # fmt: skip
    finished_record(store, "maskenball", ["Tisch"], [1], at=3.0, params={"players": 2},
                    meta={"won": True})  # fmt: skip
    lines = {line.label: line.rating for line in ratings.lines(store, "maskenball")}
    assert set(lines) == {"4 Spieler", "2 Spieler", "Spiel"}
    assert lines["4 Spieler"].player == Player(TABLE, "4 Spieler")
    assert lines["Spiel"].player == Player(GAME, "Spiel")
    assert (lines["4 Spieler"].matches, lines["4 Spieler"].wins) == (2, 1)
    assert (lines["Spiel"].matches, lines["Spiel"].wins) == (3, 1)
    assert lines["2 Spieler"].mu > lines["4 Spieler"].mu


def test_a_match_with_nobody_to_rate_against_is_not_rated(store: Store) -> None:
    finished_record(store, "besenbingo", ["Anna"], [1], at=1.0, points=[40])  # solo
    finished_record(store, "besenbingo", ["Tisch"], [1], at=2.0)  # paper play
    assert ratings.lines(store, "besenbingo") == []
    assert [s.name for s in ratings.points_lines(store, "besenbingo")] == ["Anna"]


def test_places_never_contradict_the_returns_in_any_game() -> None:
    """Every game's places (what the ratings rate) agree with its returns: a seat that
    got more never stands lower."""
    for entry in catalog.entries():
        game = entry.make({"players": max(2, entry.min_seats)} if entry.needs_seats else {})
        state = game.new_initial_state()
        rng = random.Random(3)
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(rng.choice(actions))
        returns, places = state.returns(), state.places()
        assert len(places) == len(returns), entry.id
        for a in range(len(returns)):
            for b in range(len(returns)):
                if returns[a] > returns[b]:
                    assert places[a] <= places[b], (entry.id, returns, places)


# --- records from before the ratings: replayed once ----------------------------------------


def play_out(store: Store, game: str, seats: list[Seat], params: dict[str, Any]) -> int:
    """A whole match on the table, headless (random human moves): its record id."""
    session = Session.start(store, game, params, seats, seed=5)
    table: Table = catalog.entry(game).table_class()(HeadlessHost(store), session)
    table.advance()
    rng = random.Random(2)
    for _ in range(20_000):
        if table.over:
            break
        if table.holding():
            table.proceed()
        elif table.to_move() == -1:
            table.supply(session.draw_chance())
        elif table.human_to_move():
            table.command(table.to_move(), rng.choice(table.state.legal_actions()))
        else:
            table.advance()
    assert table.over
    return session.record_id


def test_a_finished_record_stores_each_seats_place_for_the_fold(store: Store) -> None:
    rid = play_out(store, "bungee", [Seat("Anna"), *NORMAL[:2]],
                   {"players": 3, "rounds": 1, "mode": "digital"})  # fmt: skip
    record = store.record(rid)
    assert record.meta["ranks"] == record.replay().places()
    assert record.meta["bot_version"] == 1


def test_a_record_without_places_is_replayed_and_rated_the_same(store: Store) -> None:
    rid = play_out(store, "bungee", [Seat("Anna"), *NORMAL[:2]],
                   {"players": 3, "rounds": 1, "mode": "digital"})  # fmt: skip
    before = numbers(store, "bungee")
    with store._tx() as db:
        meta = json.loads(db.execute("SELECT meta FROM records WHERE id=?", (rid,)).fetchone()[0])
        del meta["ranks"], meta["bot_version"]
        db.execute("UPDATE records SET meta=? WHERE id=?", (json.dumps(meta), rid))
    again = Store(store.path)
    try:
        assert numbers(again, "bungee") == before
    finally:
        again.close()


# --- a reset, a deleted record, a restored backup, a rename ----------------------------------


def test_a_reset_folds_only_the_matches_that_finish_after_it(store: Store) -> None:
    finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [1, 2, 3], at=1.0,
                    points=[90, 40, None])  # fmt: skip
    running = Session.start(store, "speedtombola", {"players": 3}, [Seat("Ben"), Seat("Carla"),
                            STARK], seed=1)  # fmt: skip
    store.add_to_bestenliste("bungee", "Dora", 12)
    assert store.reset_bestenliste("speedtombola") == 2
    assert ratings.lines(store, "speedtombola") == [] and store.bestenliste("speedtombola") == []
    assert [s.name for s in store.bestenliste("bungee")] == ["Dora"]  # another game stays
    with store._tx() as db:  # the running match ends after the reset
        db.execute("UPDATE records SET finished=1, meta=? WHERE id=?",
                   (json.dumps({"ranks": [1, 2, 3]}), running.record_id))  # fmt: skip
    finished_record(store, "speedtombola", ["Anna", "Carla", STARK], [2, 1, 3], at=1e12)
    assert {line.label for line in ratings.lines(store, "speedtombola")} == {
        "Anna", "Ben", "Carla", "Stark",
    }  # fmt: skip
    assert ratings.folded(store, "speedtombola").ratings[ANNA].matches == 1


def test_a_reset_of_every_game_cuts_each(store: Store) -> None:
    finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [1, 2, 3], at=1.0)
    finished_record(store, "bungee", ["Anna", "Ben"], [1, 2], at=1.0)
    store.reset_bestenliste()
    assert ratings.lines(store, "speedtombola") == ratings.lines(store, "bungee") == []


def test_deleting_a_finished_record_folds_the_others_again(store: Store) -> None:
    first = finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [1, 2, 3], at=1.0)
    finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [3, 2, 1], at=2.0)
    finished_record(store, "speedtombola", ["Ben", "Carla", STARK], [1, 2, 3], at=3.0)
    ratings.folded(store, "speedtombola")
    store.delete_record(first)
    expected = ratings.fold(
        [
            Match(2, 2.0, ((ANNA, 3), (BEN, 2), (Player(COMPUTER, "stark", 1), 1))),
            Match(3, 3.0, ((BEN, 1), (CARLA, 2), (Player(COMPUTER, "stark", 1), 3))),
        ]
    )
    assert ratings.folded(store, "speedtombola").ratings == expected.ratings


def test_a_restored_backup_brings_its_ratings_back(store: Store) -> None:
    finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [1, 2, 3], at=1.0)
    saved = store.snapshot()
    before = numbers(store, "speedtombola")
    finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [3, 2, 1], at=2.0)
    store.reset_bestenliste("speedtombola")
    assert numbers(store, "speedtombola") == {}
    store.restore(saved)
    assert numbers(store, "speedtombola") == before


def test_renaming_a_player_onto_another_name_merges_them_and_folds_again(store: Store) -> None:
    """What a rename does to the records (rewrite the seat's name): the ratings follow."""
    finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [1, 2, 3], at=1.0)
    finished_record(store, "speedtombola", ["ANNA", "Ben", STARK], [1, 2, 3], at=2.0)
    assert len(ratings.lines(store, "speedtombola")) == 4
    with store._tx() as db:
        db.execute("UPDATE records SET seats=replace(seats, '\"ANNA\"', '\"Anna\"')")
        store.changed_results(db)  # what every change in place of finished records does
    merged = ratings.folded(store, "speedtombola").ratings
    assert set(merged) == {ANNA, BEN, Player(COMPUTER, "stark", 1)}
    assert (merged[ANNA].matches, merged[ANNA].wins) == (2, 2)


# --- the cache by record ------------------------------------------------------------------


def count_rates(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = ratings.rate

    def counted(found: Any, match: Match) -> Any:
        calls.append(match.record)
        return real(found, match)

    monkeypatch.setattr(ratings, "rate", counted)
    return calls


def test_only_new_records_are_folded_and_a_new_box_reads_the_cache_file(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = count_rates(monkeypatch)
    for at in (1.0, 2.0, 3.0):
        finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [1, 2, 3], at=at)
    before = numbers(store, "speedtombola")
    assert calls == [1, 2, 3]
    ratings.lines(store, "speedtombola")
    assert calls == [1, 2, 3]  # nothing changed: nothing folded
    finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [3, 2, 1], at=4.0)
    ratings.lines(store, "speedtombola")
    assert calls == [1, 2, 3, 4]
    assert ratings.cache_path(store).exists()  # written with the first fold: three records
    restarted = Store(store.path)
    try:
        assert numbers(restarted, "speedtombola") != before
        assert calls == [1, 2, 3, 4, 4]  # the new box folded only what the file lacked
        assert numbers(restarted, "speedtombola") == numbers(store, "speedtombola")
    finally:
        restarted.close()


def test_a_damaged_cache_file_is_not_used(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    for at in (1.0, 2.0):
        finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [1, 2, 3], at=at)
    expected = numbers(store, "speedtombola")
    path = ratings.cache_path(store)
    data = json.loads(path.read_text().partition("\n")[2])  # below its check line
    for record in data["games"]["speedtombola"]["records"]:
        for step in record[4]:
            step[1] += 5.0  # a wrong mu
        record[2] = "0" * 24  # ... for a record that is not the one stored
    for rating in data["games"]["speedtombola"]["ratings"]:
        rating[1] += 5.0
    edited = json.dumps(data, separators=(",", ":"))  # its check line no longer fits
    for broken in (f"{'0' * 32}\n{edited}", "{not json", json.dumps({"format": 99})):
        path.write_text(broken)
        again = Store(store.path)
        try:
            assert numbers(again, "speedtombola") == expected
        finally:
            again.close()


def test_the_idle_box_never_loads_openskill_and_the_bestenliste_does(tmp_path: Path) -> None:
    code = f"""
import sys
from spielleiter.store import Store
from spielleiter import ratings
from spielleiter.link import methods
store = Store({str(tmp_path / "s.sqlite3")!r})
assert "openskill" not in sys.modules
ratings.lines(store, "speedtombola")
print("openskill" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"  # no match: nothing to rate, nothing loaded
    with sqlite3.connect(tmp_path / "s.sqlite3") as db:
        db.execute(
            "INSERT INTO records(game, params, seats, meta, started, updated, finished)"
            " VALUES ('speedtombola', '{}', ?, ?, 1, 2, 1)",
            (json.dumps([{"name": "A"}, {"name": "B"}]), json.dumps({"ranks": [1, 2]})),
        )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_a_new_match_reads_only_the_records_after_the_last_one_folded(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The records folded before are vouched for by sqlite's fingerprint of them (count,
    ids, finish times, lengths, cutoff, generation): only the new ones reach Python."""
    for i in range(5):
        finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [1, 2, 3], at=1.0 + i)
    ratings.folded(store, "speedtombola")
    asked: list[Any] = []
    real = store.results

    def results(game: str, after: Any = None) -> Any:
        asked.append(after)
        return real(game, after)

    monkeypatch.setattr(store, "results", results)
    finished_record(store, "speedtombola", ["Ben", "Anna", STARK], [1, 2, 3], at=9.0)
    fold = ratings.folded(store, "speedtombola")
    assert asked and all(a is not None for a in asked)  # never the whole list again
    assert fold.ratings[BEN].wins == 1 and fold.ratings[ANNA].matches == 6
    again = ratings.fold(ratings.match_of("speedtombola", r, lambda _: None)
                         for r in real("speedtombola"))  # fmt: skip
    assert again.ratings == fold.ratings  # the same as folding everything


def test_a_deleted_or_changed_older_record_is_seen_and_folded_again(store: Store) -> None:
    first = finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [1, 2, 3], at=1.0)
    finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [2, 1, 3], at=2.0)
    assert ratings.folded(store, "speedtombola").ratings[ANNA].wins == 1
    with store._tx() as db:  # a change in place of the same length: it says so
        db.execute("UPDATE records SET meta=replace(meta, '[1, 2, 3]', '[3, 2, 1]') WHERE id=?",
                   (first,))  # fmt: skip
        store.changed_results(db)
    assert ratings.folded(store, "speedtombola").ratings[ANNA].wins == 0
    with store._tx() as db:  # one of another length is seen without
        db.execute("UPDATE records SET meta=replace(meta, '[3, 2, 1]', '[1,2,3]') WHERE id=?",
                   (first,))  # fmt: skip
    assert ratings.folded(store, "speedtombola").ratings[ANNA].wins == 1
    store.delete_record(first)
    assert ratings.folded(store, "speedtombola").ratings[ANNA].matches == 1


def test_a_cache_file_of_other_records_is_folded_anew(store: Store, tmp_path: Path) -> None:
    """A restored backup brings other records under the same cache file: the store's
    fingerprint of them differs, so every record is compared by digest again."""
    for at in (1.0, 2.0):
        finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [1, 2, 3], at=at)
    ratings.folded(store, "speedtombola")
    other = Store(tmp_path / "other" / "s.sqlite3")
    for at in (1.0, 2.0):
        finished_record(other, "speedtombola", ["Anna", "Ben", STARK], [3, 2, 1], at=at)
    expected = numbers(other, "speedtombola")
    data = other.snapshot()
    other.close()
    store.restore(data)
    assert numbers(store, "speedtombola") == expected
    again = Store(store.path)  # and a box started again on the old cache file
    try:
        assert numbers(again, "speedtombola") == expected
    finally:
        again.close()


def test_the_box_reads_the_cache_file_off_the_loop_at_start(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Box.show_start hands ratings.warm to its worker: the first Bestenliste of a boot
    finds the cache file read, and openskill is not loaded by it."""
    import random

    from spielleiter.app import Box, VirtualClock
    from spielleiter.hal.display import FrameSink

    finished_record(store, "speedtombola", ["Anna", "Ben", STARK], [1, 2, 3], at=1.0)
    ratings.folded(store, "speedtombola")
    ratings._CACHES.clear()  # a box started again
    loads: list[Path] = []
    real = ratings._load
    monkeypatch.setattr(ratings, "_load", lambda path: loads.append(path) or real(path))
    box = Box(store, FrameSink([]), VirtualClock(), random.Random(1))
    try:
        box.show_start()
        box.settle()
        assert loads == [ratings.cache_path(store)]
        ratings.folded(store, "speedtombola")
        assert len(loads) == 1
    finally:
        box.close()
