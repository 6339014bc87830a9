"""The referee's chance (spielleiter.draws): committed at the start, sealed by the box's
key while the match runs, revealed at the end, and verifiable by anyone afterwards;
nothing the laptop can fetch during a match predicts a draw."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from spielleiter import admin, draws
from spielleiter.draws import ChanceSealed, commitment, derived_seed
from spielleiter.games import catalog
from spielleiter.games.base import CHANCE, Seat
from spielleiter.games.table import HeadlessHost, Table
from spielleiter.link.fake import FakeDevice
from spielleiter.link.methods import Methods
from spielleiter.records import Record, RecordError
from spielleiter.session import Session
from spielleiter.store import Store
from test_match_faults import seats_for

PIN = "4711"
GAMES = [e.id for e in catalog.entries()]


def test_a_sealed_secret_opens_only_with_the_key_that_sealed_it() -> None:
    key, other = os.urandom(32), os.urandom(32)
    chance = draws.seal(key, "secret 42")
    assert chance["commitment"] == commitment("secret 42")
    assert b"secret 42".hex() != chance["sealed"]
    assert draws.unseal(key, chance) == "secret 42"
    with pytest.raises(ChanceSealed):
        draws.unseal(other, chance)
    with pytest.raises(ChanceSealed):
        draws.unseal(key, {**chance, "sealed": "zz"})


def test_the_box_key_is_made_once_beside_the_store_readable_only_by_the_box(
    tmp_path: Path,
) -> None:
    key = draws.box_key(tmp_path)
    path = tmp_path / draws.KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(key) == 32 and bytes.fromhex(path.read_text().strip()) == key
    draws._keys.clear()  # a restart reads it again
    assert draws.box_key(tmp_path) == key
    assert sorted(p.name for p in tmp_path.iterdir()) == [draws.KEY_FILE]  # no part left


def test_a_damaged_key_is_an_error_not_a_new_key(tmp_path: Path) -> None:
    (tmp_path / draws.KEY_FILE).write_text("not hex\n")
    with pytest.raises(OSError, match="not a key"):
        draws.box_key(tmp_path)


def test_nothing_in_the_database_holds_the_secret_or_a_seed(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    secret = "31415926535897932384626433832795"
    session = Session.start(store, "speedtombola", {"players": 3}, SEATS, seed=secret)
    session.play_chance()
    store.close()
    raw = (tmp_path / "s.sqlite3").read_bytes()
    assert secret.encode() not in raw and b'"seed"' not in raw
    assert commitment(secret).encode() in raw


SEATS = [Seat("Anna"), Seat("C1", "computer", "normal"), Seat("C2", "computer", "normal")]


def test_a_resumed_match_unseals_its_secret_and_draws_on_as_before(tmp_path: Path) -> None:
    store = Store(tmp_path / "a.sqlite3")
    straight = Session.start(store, "speedtombola", {"players": 3}, SEATS, seed=9)
    expected = [straight.draw_chance()]
    store.close()
    draws._keys.clear()
    store = Store(tmp_path / "a.sqlite3")
    resumed = Session.resume(store, straight.record_id)
    assert [resumed.draw_chance()] == expected
    assert resumed.bot_seed(1) == derived_seed("9", "bot", 1, 0)


def test_an_open_match_resumes_only_on_the_box_that_sealed_it(tmp_path: Path) -> None:
    here = Store(tmp_path / "here" / "s.sqlite3")
    session = Session.start(here, "speedtombola", {"players": 3}, SEATS)
    data = here.snapshot()
    there = Store(tmp_path / "there" / "s.sqlite3")
    there.restore(data)
    with pytest.raises(RecordError, match="von einer anderen Box versiegelt"):
        Session.resume(there, session.record_id)
    assert Session.resume(here, session.record_id).secret  # at home it goes on


def test_records_from_before_the_commitment_keep_their_seed(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    record = Record("speedtombola", {"players": 3}, SEATS, meta={"seed": 77})
    rid = store.start_record(record)
    old = Session.resume(store, rid)
    assert old.secret == "77"
    assert old.draw_chance() == draws.draw(old.state, "77", 0)


# --- whole matches, every game ------------------------------------------------------------


def play(table: Table, rng: random.Random, before_draw: Any = None, limit: int = 4000) -> None:
    """The match to its end: every chance outcome drawn by the box, humans at random."""
    session = table.session
    plain = session.draw_chance

    def watched() -> int:
        if before_draw is not None:
            before_draw(session)
        return plain()

    session.draw_chance = watched  # type: ignore[method-assign]
    for _ in range(limit):
        if table.over:
            return
        if table.holding():
            table.proceed()
        elif table.to_move() == CHANCE:
            if table.chance_from_box():
                table.advance()
            elif hasattr(table, "spin"):
                table.spin()
            else:
                table.supply(session.draw_chance(), drawn=True)
        elif table.human_to_move():
            table.command(table.to_move(), rng.choice(table.state.legal_actions()))
        else:
            table.advance()
    raise AssertionError(f"{session.record.game}: no end after {limit} steps")


def new_match(store: Store, game: str, seed: int | None = None) -> Table:
    entry = catalog.entry(game)
    params, seats = seats_for(entry, humans=1)
    session = Session.start(store, game, params, seats, seed=seed)
    table: Table = entry.table_class()(HeadlessHost(store), session)
    table.advance()
    return table


@pytest.mark.parametrize("game", GAMES)
def test_every_game_reveals_at_the_end_and_its_record_verifies(tmp_path: Path, game: str) -> None:
    store = Store(tmp_path / "s.sqlite3")
    table = new_match(store, game)
    play(table, random.Random(3))
    record = store.record(table.session.record_id)
    chance = record.meta["chance"]
    assert "sealed" not in chance and commitment(chance["secret"]) == chance["commitment"]
    verdict = draws.verify(record)
    assert verdict.ok and verdict.drawn > 0 and verdict.entered == 0, verdict


@pytest.mark.parametrize("game", GAMES)
def test_one_changed_outcome_is_refused_and_named(tmp_path: Path, game: str) -> None:
    store = Store(tmp_path / "s.sqlite3")
    table = new_match(store, game)
    play(table, random.Random(4))
    record = store.record(table.session.record_id)
    state = catalog.make(game, record.params).new_initial_state()
    for i, action in enumerate(record.actions):  # the last chance outcome with another choice
        if state.is_chance_node() and len(state.chance_outcomes()) > 1:
            other = next(o for o, _ in state.chance_outcomes() if o != action)
            changed = (i, other)
        state.apply_action(action)
    i, other = changed
    record.actions[i] = other
    verdict = draws.verify(record)
    assert not verdict.ok and verdict.index is not None and verdict.index <= i
    assert f"action {verdict.index}" in verdict.reason


def test_a_wrong_secret_or_none_is_refused(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    table = new_match(store, "speedtombola")
    assert "still sealed" in draws.verify(store.record(table.session.record_id)).reason
    play(table, random.Random(1))
    record = store.record(table.session.record_id)
    record.meta["chance"]["secret"] = "1"
    assert "does not match the commitment" in draws.verify(record).reason
    record.meta.pop("chance")
    assert "no chance commitment" in draws.verify(record).reason


def test_a_left_match_reveals_its_secret(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    table = new_match(store, "speedtombola", seed=5)
    table.leave()
    record = store.record(table.session.record_id)
    assert record.meta["chance"]["secret"] == "5" and draws.verify(record).ok


def test_outcomes_entered_at_the_table_are_counted_apart_and_taken_back_with_the_move(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "s.sqlite3")
    session = Session.start(
        store, "engel-bengel", {"players": 2}, [Seat("A"), Seat("B")], {"wuerfel": "echt"}, seed=2
    )
    table: Table = catalog.entry("engel-bengel").table_class()(HeadlessHost(store), session)
    table.advance()  # the box lays out the faces
    assert table.to_move() == CHANCE and not table.chance_from_box()
    table.enter_roll([3, 3, 4, 5, 6][: table.roll_wanted()])  # type: ignore[attr-defined]
    entered = store.record(session.record_id).meta["entered"]
    assert entered == [session.committed - 1]
    verdict = draws.verify(
        Record(**{**store.record(session.record_id).__dict__,
                  "meta": {**session.revealed_meta(), "entered": entered}})  # fmt: skip
    )
    assert verdict.ok and verdict.entered == 1 and verdict.drawn == entered[0]
    session.take_back(1)
    assert store.record(session.record_id).meta["entered"] == []


# --- nothing the laptop fetches predicts a draw ---------------------------------------------


def scalars(value: Any) -> Iterator[Any]:
    """Every string and number in a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from scalars(v)
    elif isinstance(value, list):
        for v in value:
            yield from scalars(v)
    elif value is not None:
        yield value


def fetched(link: Methods, record_id: int) -> list[Any]:
    """What a laptop at the table can fetch during the match, PIN or not."""
    got: list[Any] = [link.call("records.get", {"id": record_id})]
    got.append(link.call("records.list", {}))
    backup = link.call("backup.get", {"pin": PIN})
    got.append(backup["left_out"])
    import base64
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".sqlite3") as f:
        f.write(base64.b64decode(backup["data"]))
        f.flush()
        db = sqlite3.connect(f.name)
        for table in ("records", "settings", "scores"):
            got.append([list(r) for r in db.execute(f"SELECT * FROM {table}")])  # noqa: S608
        db.close()
    return got


@pytest.mark.parametrize("game", GAMES)
def test_a_laptop_on_the_link_cannot_compute_the_next_draw(tmp_path: Path, game: str) -> None:
    """Before every draw the laptop fetches everything and tries each value it got as the
    chance seed (the attack that read meta.seed); its best candidate so far predicts."""
    store = Store(tmp_path / "s.sqlite3")
    store.set_settings({"admin.pin": PIN})
    device = FakeDevice(store)
    device.pin_guard = admin.PinGuard(store, lambda: 0.0)
    link = Methods(device)
    table = new_match(store, game, seed=random.Random(game).getrandbits(62))
    record_id = table.session.record_id
    tally = {"draws": 0, "hits": 0, "chance": 0.0}
    track: dict[str, int] = {}

    def attack(session: Session) -> None:
        candidates = {str(v) for v in scalars(fetched(link, record_id))}
        assert session.secret not in candidates
        index = session.committed
        outcomes = session.state.chance_outcomes()
        guesses = {c: draws.draw(session.state, c, index) for c in candidates}
        best = max(sorted(candidates), key=lambda c: track.get(c, 0))
        truth = draws.draw(session.state, session.secret, index)
        tally["draws"] += 1
        tally["hits"] += guesses[best] == truth
        tally["chance"] += sum(p * p for _, p in outcomes)  # a guess drawn blind hits so often
        for c, g in guesses.items():
            track[c] = track.get(c, 0) + (g == truth)

    play(table, random.Random(5), before_draw=attack)
    n, hits, expected = tally["draws"], tally["hits"], tally["chance"]
    assert n >= 5, tally
    assert hits <= expected + 4 * expected**0.5 + 3, tally  # no better than a blind guess
    # ...and afterwards the revealed secret explains every draw
    assert draws.verify(store.record(record_id)).ok
    assert json.dumps(link.call("records.get", {"id": record_id})).count("secret") == 1


def test_a_box_without_seed_draws_its_secrets_from_the_systems_entropy(tmp_path: Path) -> None:
    """256 bits (a 62-bit number would be no secret: its commitment can be searched)."""
    import signal

    from spielleiter import cli
    from test_speedtombola_device import SOLO_SETUP

    script = tmp_path / "keys.txt"
    script.write_text(SOLO_SETUP, encoding="utf-8")
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        assert cli.main(["--keys", str(script), "--data", str(tmp_path / "data")]) == 0
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
    store = Store.open(tmp_path / "data")
    record = store.record(store.records()[0].id)
    secret = draws.unseal(draws.box_key(tmp_path / "data"), record.meta["chance"])
    assert int(secret) >= 2**64  # all but never smaller, from 256 random bits
    store.close()
