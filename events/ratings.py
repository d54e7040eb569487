"""Ratings: Glicko-2 per game (by its key), a read model rebuilt from the streams.

Only finished *rated* games count (``game_created.rated``; the write path refuses a rated
game with an AI seat, so games against the AI are never rated). A rated *match* of linked
games (``events.matches``) counts as ONE rated result, the match's, given by the game that
decided it (its last): its single games count for nothing on their own, as a player who
agreed to "the winner of the two games wins" expects (winning one game of a lost match is
not a win). As on lichess, each game
is one rating period for its two players (``events.glicko2``), and between a player's
games their RD grows by step 6 for the time that passed (``PERIOD_DAYS``). Ratings depend
on order, so games are applied in (finish time ms, game id) order; ``table_of`` is the one
algorithm, a pure function of the list of rated results, used on the spot for the
in-memory store and by the Redis follower below. Timeouts (how often a player's time ran
out, from each game's clocks) are kept beside them, for "often runs out of time".

Redis keys, all under ONE hash tag so every write is one MULTI/EXEC on one slot (Redis
Cluster safe):

    rt:{ratings}:order:<key>            zset  game id -> finish ms: the rated results, in order
    rt:{ratings}:results                hash  game id -> the rated result (JSON)
    rt:{ratings}:standings:<key>        hash  player -> their standing (JSON)
    rt:{ratings}:history:<key>:<player> list  their rated games, oldest first (JSON)
    rt:{ratings}:dirty                  set   game keys whose standings lag their results
    rt:{ratings}:timeouts:<player>      hash  game id -> times their time ran out in it

A result that finishes after the last applied one is applied at once. One that arrives out
of order (projectors run in parallel; a rebuild projects games in any order) is stored and
its game key marked dirty; the next reader (``settle``) recomputes that key's standings
and histories from the stored results with ``table_of``, in one transaction. So the
model always equals a rebuild from zero, and a rebuild costs one recomputation, not one
per game that arrives early.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import redis as redis_lib

from events import glicko2, matches
from events.clocks import ms as epoch_ms
from events.glicko2 import DEFAULT_RD, Rating, Result

PROVISIONAL_GAMES = 10  # fewer rated games than this: provisional ...
PROVISIONAL_RD = 110.0  # ... or an RD above this (lichess's threshold; see Standing)
PERIOD_DAYS = 7  # a rating period's length for the RD's growth between games
PERIOD_MS = PERIOD_DAYS * 24 * 3_600_000
OFTEN_TIMED_OUT = 3  # games in which a player's time ran out: "often runs out of time"
PREFIX = "rt:{ratings}:"
WIN, LOSS, DRAW = "win", "loss", "draw"


# -- pure: what a game contributes --------------------------------------------------------
@dataclass(frozen=True)
class RatedResult:
    game_id: str
    key: str  # the game's key: each game has its own ratings
    finished_ms: int
    players: dict[str, str]  # seat -> player id (two different players)
    winner: str | None  # the winning seat; None: a draw

    @property
    def order(self) -> tuple[int, str]:
        return (self.finished_ms, self.game_id)

    def to_json(self) -> str:
        return _dumps(asdict(self))

    @classmethod
    def from_json(cls, raw: bytes | str) -> RatedResult:
        return cls(**json.loads(raw))


def result_of(game: Any, finished_at: str) -> RatedResult | None:
    """The rated result of a loaded game (``events.projector.LoadedGame``), or None: not
    rated, not over, or not between two different people (one player on both seats of
    a rated game would rate themselves)."""
    outcome = game.outcome
    if not game.rated or outcome is None:
        return None
    players = {}
    for seat, kind in game.created_seats.items():
        player = (game.joined.get(seat) or {}).get("player")
        if kind != "human" or not isinstance(player, str) or not player:
            return None
        players[seat] = player
    if len(players) != 2 or len(set(players.values())) != 2:
        return None
    winner = outcome.get("winner")
    if matches.info(game) is not None:  # a match counts once, when it is decided
        decided = matches.result(game)
        if decided is None:
            return None
        winner = matches.seats_of(game)[-1].get(decided.get("winner"))
    key = game.created.get("game", game.rules.key)
    return RatedResult(game.game_id, key, epoch_ms(finished_at), players,
                       winner if winner in players else None)  # fmt: skip


def timeouts_of(game: Any) -> dict[str, int]:
    """Player -> how many times their time ran out in this game (``clock_expired``, as
    the seat's clock counts them), for the players whose time ran out at least once."""
    clocks = game.table.clocks
    out: dict[str, int] = {}
    for seat, kind in game.created_seats.items():
        player = (game.joined.get(seat) or {}).get("player")
        times = clocks[seat].timeouts if seat in clocks else 0
        if kind == "human" and isinstance(player, str) and player and times:
            out[player] = out.get(player, 0) + times
    return out


# -- pure: standings --------------------------------------------------------------------
@dataclass
class Standing:
    """A player's rating in one game.

    Provisional while they have played fewer than ``PROVISIONAL_GAMES`` rated games or
    their RD is above ``PROVISIONAL_RD``: the RD alone (lichess's rule) says a new player
    who beat two strong opponents is already well placed, but a leaderboard topped by
    someone with five lucky games is not one people trust; and a player who has been away
    long enough for the RD to grow past 110 is provisional again until they play."""

    rating: float = glicko2.DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = glicko2.DEFAULT_VOLATILITY
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    last_ms: int = 0  # when their last rated game finished (0: never played)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES or self.rd > PROVISIONAL_RD

    def glicko(self, at_ms: int) -> Rating:
        """Their rating at ``at_ms``: the RD grown for the periods since their last game
        (step 6), never past a new player's."""
        now = Rating(self.rating, self.rd, self.volatility)
        if not self.last_ms:
            return now
        return glicko2.idle(now, max(0, at_ms - self.last_ms) / PERIOD_MS, ceiling=DEFAULT_RD)

    def public(self) -> dict[str, Any]:
        """As the API shows it (rounded; the stored floats stay exact)."""
        return {"rating": round(self.rating), "rd": round(self.rd), "volatility":
                round(self.volatility, 5), "games": self.games, "wins": self.wins,
                "losses": self.losses, "draws": self.draws,
                "provisional": self.provisional}  # fmt: skip

    def to_json(self) -> str:
        return _dumps(asdict(self))

    @classmethod
    def from_json(cls, raw: bytes | str) -> Standing:
        return cls(**json.loads(raw))


@dataclass
class Table:
    """Standings and histories per game key, and each player's timeouts; the pure model
    that ``table_of`` builds and that answers the same questions as ``RedisRatings``."""

    standings: dict[str, dict[str, Standing]] = field(default_factory=dict)
    histories: dict[str, dict[str, list[dict[str, Any]]]] = field(default_factory=dict)
    timeout_games: dict[str, dict[str, int]] = field(default_factory=dict)  # player -> game

    def apply(self, result: RatedResult) -> dict[str, dict[str, Any]]:
        """Rate one game (the next in order) for its two players; the history entry it
        adds for each."""
        standings = self.standings.setdefault(result.key, {})
        (seat_a, a), (seat_b, b) = sorted(result.players.items())
        before = {a: standings.get(a) or Standing(), b: standings.get(b) or Standing()}
        rated = {p: s.glicko(result.finished_ms) for p, s in before.items()}
        score = {a: _score(result.winner, seat_a), b: _score(result.winner, seat_b)}
        added = {}
        for player, opponent, seat in ((a, b, seat_a), (b, a, seat_b)):
            after = glicko2.rate(rated[player], [Result(rated[opponent], score[player])])
            old = before[player]
            outcome = {1.0: WIN, 0.0: LOSS}.get(score[player], DRAW)
            standings[player] = Standing(
                after.rating, after.rd, after.volatility, old.games + 1,
                old.wins + (outcome == WIN), old.losses + (outcome == LOSS),
                old.draws + (outcome == DRAW), result.finished_ms,
            )  # fmt: skip
            entry = {
                "game": result.game_id,
                "key": result.key,
                "finished_ms": result.finished_ms,
                "seat": seat,
                "opponent": opponent,
                "result": outcome,
                "rating_before": rated[player].rating,
                "rd_before": rated[player].rd,
                "rating_after": after.rating,
                "rd_after": after.rd,
                "opponent_rating": rated[opponent].rating,
            }
            self.histories.setdefault(result.key, {}).setdefault(player, []).append(entry)
            added[player] = entry
        return added

    # -- the readers (the same as RedisRatings') ------------------------------------------
    def standings_of(self, key: str) -> dict[str, Standing]:
        return dict(self.standings.get(key, {}))

    def standing(self, key: str, player: str) -> Standing | None:
        return self.standings.get(key, {}).get(player)

    def history(self, key: str, player: str, offset: int, limit: int) -> tuple[list, int]:
        """A page of a player's rated games, newest first, and how many there are."""
        found = self.histories.get(key, {}).get(player, [])
        newest = found[::-1]
        return newest[offset : offset + limit], len(found)

    def timeouts(self, players: Iterable[str]) -> dict[str, dict[str, Any]]:
        return {p: timeout_record(self.timeout_games.get(p, {})) for p in players}


def table_of(results: Iterable[RatedResult],
             timeouts: Mapping[str, Mapping[str, int]] | None = None) -> Table:  # fmt: skip
    """The ratings from a list of rated results (any order: sorted here) and the
    timeouts per player and game."""
    table = Table(timeout_games={p: dict(g) for p, g in (timeouts or {}).items()})
    for result in sorted(results, key=lambda r: r.order):
        table.apply(result)
    return table


def table_from_games(games: Iterable[Any]) -> Table:
    """The ratings of loaded games (the in-memory store's way: computed on the spot)."""
    results = []
    timeouts: dict[str, dict[str, int]] = {}
    for game in games:
        found = result_of(game, game.table.last_at)
        if found is not None:
            results.append(found)
        for player, times in timeouts_of(game).items():
            timeouts.setdefault(player, {})[game.game_id] = times
    return table_of(results, timeouts)


def timeout_record(games: Mapping[str, int]) -> dict[str, Any]:
    """How often a player's time ran out: in all, in how many games, and the mark."""
    count = sum(1 for times in games.values() if times > 0)
    return {"times": sum(games.values()), "games": count, "often": count >= OFTEN_TIMED_OUT}


def leaderboard(standings: Mapping[str, Standing], limit: int) -> list[dict[str, Any]]:
    """Established players first by rating, then provisional ones by rating; ties by
    fewer RD, more games, then the id (a stable order). Ranks count established ones."""
    rows = sorted(
        standings.items(),
        key=lambda item: (item[1].provisional, -item[1].rating, item[1].rd,
                          -item[1].games, item[0]),
    )  # fmt: skip
    out = []
    rank = 0
    for player, standing in rows[: max(limit, 0)]:
        rank += not standing.provisional
        out.append({"player": player, **standing.public(),
                    "rank": rank if not standing.provisional else None})  # fmt: skip
    return out


def _score(winner: str | None, seat: str) -> float:
    if winner is None:
        return glicko2.DRAW
    return glicko2.WIN if winner == seat else glicko2.LOSS


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# -- Redis: the follower and its readers ---------------------------------------------------
class RedisRatings:
    """The ratings read model in Redis: a follower of the projection (``follow``,
    ``delete_all``; see ``events.readmodels.ReadModels``) and the readers of ``Table``."""

    SETTLE_TRIES = 5

    def __init__(self, redis: Any) -> None:
        self.redis = redis

    # keys
    results_key = PREFIX + "results"
    dirty_key = PREFIX + "dirty"

    @staticmethod
    def order_key(key: str) -> str:
        return f"{PREFIX}order:{key}"

    @staticmethod
    def standings_key(key: str) -> str:
        return f"{PREFIX}standings:{key}"

    @staticmethod
    def history_key(key: str, player: str) -> str:
        return f"{PREFIX}history:{key}:{player}"

    @staticmethod
    def timeouts_key(player: str) -> str:
        return f"{PREFIX}timeouts:{player}"

    # -- following the projection --------------------------------------------------------
    def follow(self, game: Any, entries: Any) -> None:
        """Called after each projection of ``game`` (at least once per change)."""
        timeouts = timeouts_of(game)
        if timeouts:  # idempotent: the count of that game, set again
            pipe = self.redis.pipeline(transaction=True)
            for player, times in timeouts.items():
                pipe.hset(self.timeouts_key(player), game.game_id, times)
            pipe.execute()
        finished = getattr(entries, "finished", None)
        if finished is None or not game.rated:
            return
        result = result_of(game, finished["finished_at"])
        if result is not None:
            self.add(result)

    def add(self, result: RatedResult) -> str:
        """Store a rated result: ``"known"`` (seen before), ``"applied"`` (it came in
        order: rated at once), or ``"deferred"`` (out of order: the next reader settles)."""
        order = self.order_key(result.key)
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(order, self.dirty_key)
                    if pipe.hexists(self.results_key, result.game_id):
                        pipe.unwatch()
                        return "known"
                    last = pipe.zrange(order, -1, -1, withscores=True)
                    dirty = pipe.sismember(self.dirty_key, result.key)
                    in_order = not last or (int(last[0][1]), last[0][0].decode()) < result.order
                    added: dict[str, dict[str, Any]] = {}
                    table = Table()
                    if in_order and not dirty:
                        table.standings[result.key] = self._standings(pipe, result)
                        added = table.apply(result)
                    pipe.multi()
                    pipe.zadd(order, {result.game_id: result.finished_ms})
                    pipe.hset(self.results_key, result.game_id, result.to_json())
                    if added:
                        for player, entry in added.items():
                            standing = table.standings[result.key][player]
                            pipe.hset(self.standings_key(result.key), player, standing.to_json())
                            pipe.rpush(self.history_key(result.key, player), _dumps(entry))
                    else:
                        pipe.sadd(self.dirty_key, result.key)
                    pipe.execute()
                    return "applied" if added else "deferred"
                except redis_lib.WatchError:
                    continue

    def _standings(self, pipe: Any, result: RatedResult) -> dict[str, Standing]:
        players = sorted(result.players.values())
        raws = pipe.hmget(self.standings_key(result.key), players)
        return {p: Standing.from_json(raw) for p, raw in zip(players, raws, strict=True) if raw}

    def settle(self) -> int:
        """Recompute every dirty game key from its stored results (``table_of``), in one
        transaction each; the number recomputed. Readers call it first."""
        done = 0
        for raw in self.redis.smembers(self.dirty_key):
            done += self._recompute(raw.decode())
        return done

    def _recompute(self, key: str) -> int:
        order = self.order_key(key)
        with self.redis.pipeline(transaction=True) as pipe:
            for _ in range(self.SETTLE_TRIES):  # else a busy writer: read what is there
                try:
                    pipe.watch(order, self.dirty_key)
                    if not pipe.sismember(self.dirty_key, key):
                        pipe.unwatch()
                        return 0
                    ids = [m.decode() for m in pipe.zrange(order, 0, -1)]
                    raws = pipe.hmget(self.results_key, ids) if ids else []
                    table = table_of(RatedResult.from_json(r) for r in raws if r)
                    stale = [p.decode() for p in pipe.hkeys(self.standings_key(key))]
                    pipe.multi()
                    pipe.delete(self.standings_key(key))
                    for player in set(stale) | set(table.standings.get(key, {})):
                        pipe.delete(self.history_key(key, player))
                    standings = table.standings.get(key, {})
                    if standings:
                        rows = {p: s.to_json() for p, s in standings.items()}
                        pipe.hset(self.standings_key(key), mapping=rows)
                    for player, entries in table.histories.get(key, {}).items():
                        pipe.rpush(self.history_key(key, player), *map(_dumps, entries))
                    pipe.srem(self.dirty_key, key)
                    pipe.execute()
                    return 1
                except redis_lib.WatchError:
                    continue
        return 0

    def delete_all(self) -> int:
        """Delete every ratings key (for a rebuild); the number deleted."""
        names = list(self.redis.scan_iter(match=PREFIX + "*", count=1000))
        pipe = self.redis.pipeline(transaction=False)
        for name in names:
            pipe.delete(name)
        return sum(pipe.execute()) if names else 0

    # -- the readers (the same as Table's) -------------------------------------------------
    def reader(self) -> RedisRatings:
        """The readers, with any result that arrived out of order rated first."""
        self.settle()
        return self

    def standings_of(self, key: str) -> dict[str, Standing]:
        raw = self.redis.hgetall(self.standings_key(key))
        return {p.decode(): Standing.from_json(s) for p, s in raw.items()}

    def standing(self, key: str, player: str) -> Standing | None:
        raw = self.redis.hget(self.standings_key(key), player)
        return Standing.from_json(raw) if raw else None

    def history(self, key: str, player: str, offset: int, limit: int) -> tuple[list, int]:
        name = self.history_key(key, player)
        if limit <= 0:
            return [], int(self.redis.llen(name))
        pipe = self.redis.pipeline(transaction=False)
        pipe.llen(name)
        pipe.lrange(name, -(offset + limit), -(offset + 1))
        total, raws = pipe.execute()
        return [json.loads(r) for r in raws][::-1], int(total)

    def timeouts(self, players: Iterable[str]) -> dict[str, dict[str, Any]]:
        players = list(players)
        pipe = self.redis.pipeline(transaction=False)
        for player in players:
            pipe.hgetall(self.timeouts_key(player))
        found = pipe.execute()
        return {p: timeout_record({g.decode(): int(t) for g, t in raw.items()})
                for p, raw in zip(players, found, strict=True)}  # fmt: skip
