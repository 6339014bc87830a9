"""Skill ratings per game: a rating with uncertainty for every player and computer level.

A game's ratings are a fold over its finished records in the order they finished (the
time of the last action, then the record id), from the game's rating cutoff on (the
last `bestenliste.reset`). Nothing else is kept: a power cut at any commit point, a
restored backup, a deleted record or a reset leave the ratings exactly the fold of what
the store holds (docs/ratings.md).

The model is openskill's Plackett–Luce (Weng and Lin 2011, algorithm 4) with its
defaults: every player starts at μ = 25, σ = 25/3; a match moves each rated player's μ
by how surprising its place was and shrinks its σ; τ = 25/300 is added to σ before
each match, so a rating keeps moving for a player who is getting better. The box ranks
by μ − 3σ, a conservative rating that a player with few matches stands low on until
the box is sure.

Who is rated in a match: each human seat by name, each computer seat by its level and
the record's bot version (several seats of one level are one player, whose new rating
is the mean of theirs), a human who left placed last (the computer that took the seat
over is not rated). A game whose table plays as one (Maskenball: its entry asks for no
seats) is rated as the table, by its size ("4 Spieler", as its Bestenliste line),
against the game itself ("Spiel"). A match with fewer than two players (a solo
Durchgang, paper play) is not rated.

Folding thousands of records is slow on a Pi Zero (benchmarks/ratings.py), so each
store keeps what it folded by record: a digest of each record's part, what it gave, and
the ratings after it, in memory and in a file beside the store (`CACHE_NAME`, never in
a backup). A record whose part changed is folded again from there on; the file is
checked the same way and, unreadable, folded anew.

    >>> anna, ben = Player(HUMAN, "Anna"), Player(HUMAN, "Ben")
    >>> done = fold([Match(1, 100.0, ((ben, 1), (anna, 2)))])
    >>> [(r.player.name, round(r.mu, 2), round(r.sigma, 2)) for r in done.standings()]
    [('Ben', 27.64, 8.07), ('Anna', 22.36, 8.07)]
"""

from __future__ import annotations

import json
import logging
import math
import os
import threading
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .games import catalog
from .games.base import ranks

if TYPE_CHECKING:
    from .store import ResultRow, Store

log = logging.getLogger(__name__)

MU = 25.0
"""Where every player starts (openskill's default)."""
SIGMA = MU / 3
"""How unsure the box is of a player who has not played yet."""
Z = 3
"""The box ranks by μ − Z·σ."""
NEW_MATCHES = 1
"""A line with this many rated matches or fewer shows "neu" instead of a number."""
FOLD_VERSION = 1
"""What a record gives the fold and how: raise it when that changes (the cache goes)."""
CACHE_NAME = "spielleiter-ratings.json"
"""The folds' cache beside the store (never in a backup; deleting it costs only time)."""

HUMAN = "human"
COMPUTER = "computer"
TABLE = "table"
"""The whole table of a game the players play together, by its size."""
GAME = "game"
"""The game itself, the table's opponent in a game the players play together."""
GAME_NAME = "Spiel"


@dataclass(frozen=True, order=True)
class Player:
    """Someone the ratings rate: a human by name, a computer by level and bot version,
    the table of a cooperative game by its size, or that game itself."""

    kind: str
    name: str
    """A human's name, a computer's level ("stark"), "4 Spieler", "Spiel"."""
    version: int = 0
    """A computer's bot version (records from before versions: 1); 0 for the others."""

    def to_json(self) -> list[Any]:
        return [self.kind, self.name, self.version]

    @classmethod
    def from_json(cls, value: Any) -> Player:
        kind, name, version = value
        if not (isinstance(kind, str) and isinstance(name, str) and type(version) is int):
            raise ValueError(f"not a player: {value!r}")
        return cls(kind, name, version)


@dataclass(frozen=True)
class Match:
    """One rated match: the record, when it finished, and each seat's player and place
    (1 best, ties share; several seats may be one player)."""

    record: int
    finished: float
    places: tuple[tuple[Player, int], ...]

    @property
    def players(self) -> list[Player]:
        """The players of the match, each once, in seat order."""
        return list(dict.fromkeys(p for p, _ in self.places))


@dataclass(frozen=True)
class Rating:
    """A player's rating: μ (the box's best guess of the skill), σ (how unsure it is),
    and the rated matches and wins (first places, shared ones too)."""

    player: Player
    mu: float = MU
    sigma: float = SIGMA
    matches: int = 0
    wins: int = 0

    @property
    def conservative(self) -> float:
        """μ − 3σ: what the box ranks by (the skill it is nearly sure the player has)."""
        return self.mu - Z * self.sigma

    @property
    def new(self) -> bool:
        """Too few matches for the number to mean anything yet: the box shows "neu"."""
        return self.matches <= NEW_MATCHES


class Step(NamedTuple):
    """A player's rating right after a match: a point of its history."""

    record: int
    finished: float
    player: Player
    mu: float
    sigma: float
    place: int
    """The player's place in the match (its best seat's)."""
    seats: int
    """How many places the match had."""

    @property
    def conservative(self) -> float:
        return self.mu - Z * self.sigma


@cache
def _model() -> Any:
    """openskill's Plackett–Luce model with its defaults (imported on first use: the idle
    box never loads it)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


@cache
def model_name() -> str:
    """The model and its version, as the cache file names it."""
    import openskill

    return f"openskill {openskill.__version__} PlackettLuce (defaults)"


def rate(ratings: dict[Player, Rating], match: Match) -> list[Step]:
    """Fold one match into `ratings` (changed in place); each player's new rating as a Step.

    Every seat is a team of one with its player's rating before the match; a player with
    several seats gets the mean of their new μ and of their new σ, and the match counts
    once for it (a win when any of its seats came first)."""
    model = _model()
    teams = []
    for player, _ in match.places:
        before = ratings.get(player) or Rating(player)
        teams.append([model.rating(mu=before.mu, sigma=before.sigma)])
    rated = model.rate(teams, ranks=[float(place) for _, place in match.places])
    found: dict[Player, list[tuple[float, float, int]]] = {}
    for (player, place), team in zip(match.places, rated, strict=True):
        found.setdefault(player, []).append((team[0].mu, team[0].sigma, place))
    steps = []
    for player, seats in found.items():
        mu = math.fsum(s[0] for s in seats) / len(seats)
        sigma = math.fsum(s[1] for s in seats) / len(seats)
        best = min(s[2] for s in seats)
        before = ratings.get(player) or Rating(player)
        ratings[player] = Rating(
            player, mu, sigma, before.matches + 1, before.wins + int(best == 1)
        )
        steps.append(Step(match.record, match.finished, player, mu, sigma, best, len(match.places)))
    return steps


def finish_order(matches: Iterable[Match]) -> list[Match]:
    """Matches in the order they finished: finish time, then record id."""
    return sorted(matches, key=lambda m: (m.finished, m.record))


class Fold:
    """The ratings after a list of matches, and each match's steps (its players' new
    ratings), in the order they were folded."""

    def __init__(
        self,
        ratings: dict[Player, Rating] | None = None,
        steps: list[list[Step]] | None = None,
        entries: list[_Entry] | None = None,
    ) -> None:
        self.ratings: dict[Player, Rating] = {} if ratings is None else ratings
        self._steps = steps if steps is not None or entries is not None else []
        self._entries = entries

    @property
    def steps(self) -> list[list[Step]]:
        """Per match, its players' new ratings (read from the cache when first asked)."""
        if self._steps is None:
            assert self._entries is not None
            self._steps = [e.steps for e in self._entries]
        return self._steps

    def standings(self) -> list[Rating]:
        """Best first: by μ − 3σ, then μ, then more matches, then the player."""
        return sorted(
            self.ratings.values(),
            key=lambda r: (-r.conservative, -r.mu, -r.matches, r.player),
        )

    def history(self, player: Player) -> list[Step]:
        """A player's rating after each of its matches, oldest first."""
        return [s for steps in self.steps for s in steps if s.player == player]


def fold(matches: Iterable[Match]) -> Fold:
    """The ratings of a list of matches, folded in the order they finished (whatever
    order they come in)."""
    done = Fold()
    for match in finish_order(matches):
        done.steps.append(rate(done.ratings, match))
    return done


def replayed(steps: Iterable[list[Step]]) -> dict[Player, Rating]:
    """The ratings after matches whose steps are known, without rating them again."""
    last: dict[Player, Step] = {}
    counts: dict[Player, list[int]] = {}
    for match in steps:
        for s in match:
            last[s.player] = s
            count = counts.get(s.player)
            if count is None:
                count = counts[s.player] = [0, 0]
            count[0] += 1
            count[1] += s.place == 1
    return {p: Rating(p, s.mu, s.sigma, *counts[p]) for p, s in last.items()}


# --- what a finished record gives ---------------------------------------------


def _json(text: Any) -> Any:
    return None if not isinstance(text, str) else json.loads(text)


def match_of(
    game: str, row: ResultRow, places_of: Callable[[int], list[int] | None]
) -> Match | None:
    """The rated match of a finished record (None: nobody to rate against, or the record
    cannot be read: logged). `places_of(record id)` replays a record that stored no
    places (finished before the ratings; the only slow path)."""
    try:
        cooperative = not catalog.entry(game).needs_seats
        seats = _json(row.seats)
        meta = _json(row.meta)
        if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
            raise ValueError("seats are not a list of objects")
        if not isinstance(meta, dict):
            raise ValueError("meta is not an object")
        if cooperative:
            return _cooperative(game, row, meta, places_of)
        places = meta.get("ranks")
        if not _valid_places(places, len(seats)):
            places = places_of(row.id)
            if not _valid_places(places, len(seats)):
                raise ValueError("no places: the record does not replay to its end")
        assert places is not None
        version = meta.get("bot_version")
        version = version if type(version) is int and version > 0 else 1
        left = _left(meta.get("left"), len(seats))
        rated: list[tuple[Player, int]] = []
        for i, seat in enumerate(seats):
            if i in left:
                continue
            name = seat.get("name")
            if not isinstance(name, str):
                raise ValueError(f"seat {i} has no name")
            if seat.get("kind", HUMAN) == HUMAN:
                rated.append((Player(HUMAN, name), places[i]))
            else:
                level = seat.get("level") or COMPUTER
                rated.append((Player(COMPUTER, str(level), version), places[i]))
        last = 1 + max((p for _, p in rated), default=0)
        rated += [(Player(HUMAN, name), last) for name in left.values()]
    except (ValueError, TypeError, catalog.UnknownGame) as exc:
        log.warning("record %s is not rated: %s", row.id, exc)
        return None
    match = Match(row.id, float(row.finished), tuple(rated))
    return match if len(match.players) >= 2 else None


def _valid_places(places: Any, seats: int) -> bool:
    return (
        isinstance(places, list)
        and len(places) == seats
        and all(type(p) is int and 1 <= p <= seats for p in places)
    )


def _left(value: Any, seats: int) -> dict[int, str]:
    """Seat -> the name of the human who left it (the meta's `left`)."""
    if value is None:
        return {}
    if not isinstance(value, list):
        raise ValueError("left is not a list")
    found = {}
    for entry in value:
        seat = entry.get("seat") if isinstance(entry, dict) else None
        name = entry.get("name") if isinstance(entry, dict) else None
        if type(seat) is not int or not 0 <= seat < seats or not isinstance(name, str):
            raise ValueError(f"not a seat that was left: {entry!r}")
        found[seat] = name
    return found


def _cooperative(
    game: str,
    row: ResultRow,
    meta: dict[str, Any],
    places_of: Callable[[int], list[int] | None],
) -> Match:
    """The table, by its size (its parameter, else the game's default), against the game:
    won is first place."""
    won = meta.get("won")
    if not isinstance(won, bool):
        found = places_of(row.id)
        if found is None:
            raise ValueError("not known whether the table won")
        won = found[0] == 1
    params = _json(row.params)
    players = params.get("players") if isinstance(params, dict) else None
    if type(players) is not int or players < 1:
        players = catalog.entry(game).game_class().default_params()["players"]
    table, itself = Player(TABLE, f"{players} Spieler"), Player(GAME, GAME_NAME)
    return Match(row.id, float(row.finished), ((table, 2 - won), (itself, 1 + won)))


def replay_places(store: Store, game: str) -> Callable[[int], list[int] | None]:
    """`places_of` for records without stored places: replays the record (the table
    plays as one: the first place is the table's when it won, else the game's)."""
    cooperative = not catalog.entry(game).needs_seats

    def places_of(record_id: int) -> list[int] | None:
        try:
            state = store.record(record_id).replay()
        except Exception as exc:  # noqa: BLE001 - a record that does not replay is not rated
            log.warning("record %s does not replay: %s", record_id, exc)
            return None
        if not state.is_terminal():
            return None
        if cooperative:
            return [1] if state.returns()[0] > 0 else [2]
        return list(state.places())

    return places_of


# --- the folds of a store, cached by record -------------------------------------


def _digest(row: tuple[Any, ...]) -> str:
    """What a record gives the fold, in 24 hex digits (any change: another digest)."""
    import hashlib  # here: the first frame needs no OpenSSL

    return hashlib.blake2b(repr(row).encode(), digest_size=12).hexdigest()


SAVE_EVERY = 32
"""The cache file is written when this many records were folded since it last was (or
records were folded again from an earlier one, or there is none): a box started again
folds at most this many records more than the file has."""


class _Entry:
    """A record as folded: its digest, its match (None: not rated) and its steps (as the
    cache file has them until they are needed)."""

    __slots__ = ("record", "digest", "_match", "_steps", "_raw", "_players")

    def __init__(
        self,
        record: int,
        digest: str,
        match: Match | None,
        steps: list[Step] | None,
        raw: list[Any] | None = None,
        players: list[Player] | None = None,
    ) -> None:
        self.record, self.digest = record, digest
        self._match, self._steps, self._raw, self._players = match, steps, raw, players

    @property
    def match(self) -> Match | None:
        if self._raw is not None and self._match is None and self._raw[3] is not None:
            assert self._players is not None
            record, finished, _, places, _ = self._raw
            players = self._players
            self._match = Match(
                int(record), float(finished), tuple((players[p], int(n)) for p, n in places)
            )
        return self._match

    @property
    def steps(self) -> list[Step]:
        if self._steps is None:
            assert self._raw is not None and self._players is not None
            record, finished, _, places, steps = self._raw
            seats = len(places or ())
            self._steps = [
                Step(int(record), float(finished), self._players[p], float(mu), float(sigma),
                     int(n), seats)
                for p, mu, sigma, n in steps
            ]  # fmt: skip
        return self._steps

    def saved(self, index: Callable[[Player], int]) -> list[Any]:
        """The entry as the cache file writes it (as it was read, when it was)."""
        if self._raw is not None:
            return self._raw
        match = self.match
        return [
            self.record,
            match.finished if match else 0.0,
            self.digest,
            None if match is None else [[index(p), n] for p, n in match.places],
            [[index(s.player), s.mu, s.sigma, s.place] for s in self.steps],
        ]


@dataclass
class _Folded:
    """One game's fold of a store: its records in fold order and the ratings after them."""

    key: Any = None
    records: list[_Entry] = field(default_factory=list)
    ratings: dict[Player, Rating] = field(default_factory=dict)
    upto: tuple[float, int] | None = None
    """(finish time, id) of the last record folded, in fold order."""
    prefix: list[Any] | None = None
    """The store's fingerprint of the records up to `upto` (Store.results_upto) when they
    were folded: the same now, and only the records after it need reading."""


class _StoreCache:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.games: dict[str, _Folded] | None = None
        self.players: list[Player] = []
        """The cache file's players, in its order (what its entries' numbers name)."""
        self.unsaved = 0
        """Records folded since the cache file was written (-1: it must be written)."""


_CACHES: weakref.WeakKeyDictionary[Store, _StoreCache] = weakref.WeakKeyDictionary()
_CACHES_LOCK = threading.Lock()


def _cache_of(store: Store) -> _StoreCache:
    with _CACHES_LOCK:
        found = _CACHES.get(store)
        if found is None:
            found = _CACHES[store] = _StoreCache()
        return found


def warm(store: Store) -> None:
    """Read the cache file beside the store now (the box does it off the loop after its
    first frame), so the first Bestenliste of a boot folds only what is new."""
    cache = _cache_of(store)
    with cache.lock:
        if cache.games is None:
            cache.games, cache.players = _load(cache_path(store))


def cache_path(store: Store) -> Path:
    return store.path.with_name(CACHE_NAME)


def folded(store: Store, game: str) -> Fold:
    """A game's ratings in the store, folded from its finished records: what the box's
    Bestenliste and the link's bestenliste.get show. Only records that are new or changed
    since the last call (or since the cache file was written) are folded."""
    cache = _cache_of(store)
    with cache.lock:
        if cache.games is None:
            cache.games, cache.players = _load(cache_path(store))
        found = cache.games.setdefault(game, _Folded())
        key = store.results_key(game)
        if found.key != key:
            folded_now, again = _refold(store, game, found)
            cache.unsaved += folded_now
            due = cache.unsaved >= SAVE_EVERY or not cache_path(store).exists()
            if again or folded_now and due:
                _save(store, cache)
                cache.unsaved = 0
            found.key = key
        return Fold(dict(found.ratings), entries=list(found.records))


def _refold(store: Store, game: str, found: _Folded) -> tuple[int, bool]:
    """Bring a game's fold up to the store's records: how many records it folded, and
    whether it folded from an earlier record again (one changed or went)."""
    if found.upto is not None and found.prefix is not None:
        if store.results_upto(game, found.upto) == found.prefix:
            return _fold_on(store, game, found), False
    rows = store.results(game)
    digests = [_digest(tuple(row)) for row in rows]
    same = 0
    for entry, row, digest in zip(found.records, rows, digests, strict=False):
        if entry.record != row.id or entry.digest != digest:
            break
        same += 1
    again = same < len(found.records)
    if not again and same == len(rows):
        _mark(store, game, found, rows[-1] if rows else None)
        return 0, False
    kept = found.records[:same]
    ratings = replayed(e.steps for e in kept) if again else dict(found.ratings)
    _fold_rows(store, game, kept, ratings, rows[same:], digests[same:])
    found.records, found.ratings = kept, ratings
    _mark(store, game, found, rows[-1] if rows else None)
    return len(rows) - same, again


def _fold_on(store: Store, game: str, found: _Folded) -> int:
    """Fold the records that finished after the last one folded (the ones before it are
    what they were): only those reach Python."""
    assert found.upto is not None
    rows = store.results(game, after=found.upto)
    if rows:
        _fold_rows(store, game, found.records, found.ratings, rows,
                   [_digest(tuple(row)) for row in rows])  # fmt: skip
        _mark(store, game, found, rows[-1])
    return len(rows)


def _fold_rows(
    store: Store,
    game: str,
    kept: list[_Entry],
    ratings: dict[Player, Rating],
    rows: list[Any],
    digests: list[str],
) -> None:
    places_of = replay_places(store, game)
    for row, digest in zip(rows, digests, strict=True):
        match = match_of(game, row, places_of)
        steps = rate(ratings, match) if match else []
        kept.append(_Entry(row.id, digest, match, steps))


def _mark(store: Store, game: str, found: _Folded, last: Any) -> None:
    """Note where the fold stands and the store's fingerprint up to there."""
    if last is None:
        found.upto = found.prefix = None
        return
    found.upto = (float(last.finished), int(last.id))
    found.prefix = store.results_upto(game, found.upto)


def _load(path: Path) -> tuple[dict[str, _Folded], list[Player]]:
    """The cache file's folds and players (none when it is missing, of another model or
    unreadable)."""
    try:
        check, _, text = path.read_text("utf-8").partition("\n")
        if check != _check(text):
            raise ValueError("its check does not fit its content (damaged or edited)")
        data = json.loads(text)
    except FileNotFoundError:
        return {}, []
    except (OSError, ValueError) as exc:
        log.info("ratings cache %s not used: %s", path, exc)
        return {}, []
    try:
        if data.get("format") != FOLD_VERSION or data.get("model") != model_name():
            return {}, []
        players = [Player.from_json(p) for p in data["players"]]
        games = {}
        for game, saved in data["games"].items():
            kept = []
            for raw in saved["records"]:
                record, _, digest, places, steps = raw
                for p, _ in places or ():
                    players[p]  # noqa: B018 - a number the players do not have: IndexError
                if type(record) is not int or not isinstance(digest, str):
                    raise ValueError(f"record {record!r} is not as the cache writes it")
                if not isinstance(steps, list):
                    raise ValueError(f"record {record}: no steps")
                kept.append(_Entry(record, digest, None, None, raw, players))
            ratings = {
                players[p]: Rating(players[p], float(mu), float(sigma), int(m), int(w))
                for p, mu, sigma, m, w in saved["ratings"]
            }
            upto, prefix = saved.get("upto"), saved.get("prefix")
            if upto is not None:
                upto = (float(upto[0]), int(upto[1]))
            if not isinstance(prefix, list):
                upto = prefix = None
            games[str(game)] = _Folded(None, kept, ratings, upto, prefix)
        return games, players
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
        log.info("ratings cache %s not used: %s", path, exc)
        return {}, []


def _check(text: str) -> str:
    """The cache file's own digest (its first line, of the JSON below it): a file damaged
    or edited since the box wrote it is not used (what it says of the records before the
    last one folded is taken only as the box wrote it)."""
    import hashlib

    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _save(store: Store, cache: _StoreCache) -> None:
    """Write the folds beside the store (whole, then renamed in); a store that cannot be
    written keeps them in memory only."""
    if store.readonly or cache.games is None:
        return
    players = {p: i for i, p in enumerate(cache.players)}

    def index(player: Player) -> int:
        found = players.get(player)
        if found is None:
            found = players[player] = len(players)
            cache.players.append(player)
        return found

    saved = {
        game: {
            "records": [e.saved(index) for e in found.records],
            "ratings": [
                [index(p), r.mu, r.sigma, r.matches, r.wins] for p, r in found.ratings.items()
            ],
            "upto": found.upto,
            "prefix": found.prefix,
        }
        for game, found in cache.games.items()
    }
    data = {
        "format": FOLD_VERSION,
        "model": model_name(),
        "players": [p.to_json() for p in cache.players],
        "games": saved,
    }
    path = cache_path(store)
    partial = path.with_name(path.name + ".part")
    try:
        text = json.dumps(data, separators=(",", ":"))
        partial.write_text(f"{_check(text)}\n{text}", "utf-8")
        os.replace(partial, path)
    except OSError as exc:
        log.info("ratings cache not written: %s", exc)


# --- what the Bestenliste shows ---------------------------------------------------


def label(player: Player, game: str) -> str:
    """A player's name on the Bestenliste: a human's name, a computer's level ("Stark";
    "Stark v1" for a bot version that is not the game's now), the table, "Spiel"."""
    if player.kind != COMPUTER:
        return player.name
    word = player.name.title()
    try:
        now = catalog.entry(game).info.bot_version
    except catalog.UnknownGame:
        now = player.version
    return word if player.version == now else f"{word} v{player.version}"


@dataclass(frozen=True)
class Line:
    """A line of a game's ratings on the Bestenliste."""

    place: int
    label: str
    rating: Rating


@dataclass(frozen=True)
class PointsLine:
    """A line of the game's own points (the Bestenliste's second page)."""

    place: int
    name: str
    points: int
    matches: int
    wins: int

    @property
    def average(self) -> float:
        """Points per match (the points themselves for a line of no match)."""
        return self.points / self.matches if self.matches else float(self.points)


def lines(store: Store, game: str) -> list[Line]:
    """The ratings, best first by μ − 3σ, with shared places on equal ratings."""
    standings = folded(store, game).standings()
    places = ranks([r.conservative for r in standings])
    return [Line(p, label(r.player, game), r) for p, r in zip(places, standings, strict=True)]


def points_lines(store: Store, game: str) -> list[PointsLine]:
    """The game's own points per human (the awards), ranked by the average per match
    (fewest first for a game whose points count against you), never by the sum."""
    try:
        lowest = catalog.entry(game).bestenliste_lowest_first
    except catalog.UnknownGame:
        lowest = False
    found = [PointsLine(0, s.name, s.points, s.matches, s.wins) for s in store.bestenliste(game)]
    sign = 1 if lowest else -1
    found.sort(key=lambda s: (sign * s.average, -s.wins, -s.matches, s.name))
    places = ranks([s.average for s in found], lower_is_better=lowest)
    return [
        PointsLine(p, s.name, s.points, s.matches, s.wins)
        for p, s in zip(places, found, strict=True)
    ]


def history(store: Store, game: str, name: str) -> list[tuple[Player, list[Step]]]:
    """Each player of a game whose Bestenliste name is `name` (any case), with its rating
    after each of its matches."""
    done = folded(store, game)
    wanted = name.casefold()
    players = [p for p in done.ratings if label(p, game).casefold() == wanted]
    return [(p, done.history(p)) for p in sorted(players)]
