"""Read models: the lobby, each player's games, the finished-games index.

They are disposable: every entry is a pure function of one game's stream at one version
(``entries_for``), so the projector can write them again and again, and ``rebuild`` can
throw them away and compute them from the streams. Nothing here decides anything.

Keys, per partition N (the game's own partition, see ``events.redis_store``):

    rm:{pN}:lobby            hash  game id -> lobby entry (JSON), while seats are open
    rm:{pN}:player:<player>  hash  game id -> that player's entry (JSON)
    rm:{pN}:finished         zset  game id, scored by finish time (epoch milliseconds)
    rm:{pN}:finished:info    hash  game id -> finished entry (JSON)
    rm:{pN}:pos              hash  game id -> the stream version the entries were made at
    rm:{pN}:ai_owed          zset  game id, scored by when an AI seat began to owe a move
    rm:{pN}:deadlines        zset  game id, scored by its earliest clock deadline (epoch ms)

Every key of a game's update carries the game's hash tag ``{pN}``, so the entries and the
position are written in ONE MULTI/EXEC on one slot (Redis Cluster safe), and a reader
never sees entries without their position or the other way round. A player's games are
spread over the partitions of the games; the readers ask all P partitions and merge.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import redis as redis_lib

import games
from events import clocks, matches
from events.envelope import Envelope, canonical
from events.projector import LoadedGame, apply, load
from events.redis_store import DEFAULT_PARTITIONS, partition_of
from events.store import EventStore

PREFIX = "rm:"
WAITING, YOUR_TURN, FINISHED = "waiting", "your turn", "finished"
_STATUS_ORDER = {YOUR_TURN: 0, WAITING: 1, FINISHED: 2}


# -- pure: a game's entries ------------------------------------------------------------
@dataclass(frozen=True)
class GameEntries:
    """Everything the read models hold about one game at ``version``."""

    game_id: str
    version: int
    lobby: dict[str, Any] | None = None  # None: no open seat, not in the lobby
    players: dict[str, dict[str, Any]] = field(default_factory=dict)  # player -> entry
    finished: dict[str, Any] | None = None  # None: still running
    ai_owed_since: int | None = None  # epoch ms since an AI seat owes a move (None: none)
    deadline_ms: int | None = None  # the earliest clock deadline (None: no clock running)


def lobby_order(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Longest waiting first."""
    return sorted(entries, key=lambda e: (e["created_at"], e["game"]))


def player_order(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Theirs to play first, then waiting, then finished; most recently moved first."""
    found = sorted(entries, key=lambda e: e["game"])
    found.sort(key=lambda e: e["updated_at"], reverse=True)
    found.sort(key=lambda e: _STATUS_ORDER[e["status"]])
    return found


def finished_order(entries: list[dict[str, Any]], limit: int) -> list[dict[str, Any]]:
    """Newest first."""
    found = sorted(entries, key=lambda e: e["game"])
    found.sort(key=lambda e: epoch_ms(e["finished_at"]), reverse=True)
    return found[: max(limit, 0)]


def players_of(game: LoadedGame) -> dict[str, list[str]]:
    """Human player id -> the seats they hold (a player may hold both seats of a game).

    Seats created for an AI (``ai:<level>``) have no inbox: nobody reads "ai:1's games",
    and such a key would hold every game with that AI in it.
    """
    out: dict[str, list[str]] = {}
    created = game.created_seats  # a seat handed to the AI stays its player's game
    for seat in created:
        joined = game.joined.get(seat)
        if joined is None or created[seat] != "human":
            continue
        player = joined.get("player")
        if isinstance(player, str) and player:
            out.setdefault(player, []).append(seat)
    return out


def entries_for(game: LoadedGame, created_at: str, last_at: str) -> GameEntries:
    """The read-model entries of ``game`` as loaded at ``game.version``.

    ``created_at`` is the ``at`` of the first event (only shown while in the lobby),
    ``last_at`` the ``at`` of the event at ``game.version`` (the finish time once over).
    """
    outcome = game.outcome
    pending = sorted(game.pending)
    open_seats = game.open_seats
    key = game.created.get("game", game.rules.key)
    lobby = None
    if open_seats and outcome is None:
        lobby = {
            "game": game.game_id,
            "key": key,
            "options": dict(game.created.get("options", {})),
            "seats": game.seats,
            "open_seats": open_seats,
            "created_at": created_at,
        }
    control = game.control
    exempt = game.off_the_clock
    found = matches.info(game)
    match = None
    if found is not None:
        match = {"id": found.get("first", game.game_id), "game": found.get("game", 1),
                 "of": found.get("of", 1)}  # fmt: skip
    players = {}
    for player, seats in players_of(game).items():
        if outcome is not None:
            status = FINISHED
        elif set(seats) & set(pending):
            status = YOUR_TURN
        else:
            status = WAITING
        entry = {
            "game": game.game_id,
            "key": key,
            "seats": seats,
            "turn": pending,
            "open_seats": open_seats,
            "status": status,
            "updated_at": last_at,
            "version": game.version,
        }
        if outcome is not None:
            entry["winner"] = outcome.get("winner")
            entry["reason"] = outcome.get("reason")
        if match is not None:  # a game of a match (events.matches): which one
            entry["match"] = match
        if control is not None:
            own = [game.table.deadline_ms(s) for s in seats if s not in exempt]
            own = [d for d in own if d is not None]
            entry["deadline"] = clocks.iso(min(own)) if own and outcome is None else None
            entry["timeouts"] = sum(game.table.clocks[s].timeouts for s in seats)
        players[player] = entry
    finished = None
    if outcome is not None:
        finished = {
            "game": game.game_id,
            "key": key,
            "winner": outcome.get("winner"),
            "reason": outcome.get("reason"),
            "finished_at": last_at,
            "players": {s: (game.joined.get(s) or {}).get("player") for s in game.seats},
        }
    owed = outcome is None and any(game.seats.get(s, "").startswith("ai:") for s in pending)
    ai_owed_since = epoch_ms(last_at) if owed and last_at else None
    deadline = None
    if outcome is None:
        deadline = game.table.next_deadline()
    return GameEntries(game.game_id, game.version, lobby, players, finished, ai_owed_since,
                       deadline)  # fmt: skip


def entries_from_envelopes(
    game_id: str, envelopes: Sequence[Envelope], registry: Mapping[str, Any] | None = None
) -> GameEntries:
    """The entries after ``envelopes`` (the first ones of a stream), folded from scratch."""
    created = envelopes[0]
    rules = (registry or games.REGISTRY)[created.payload["game"]]
    game = apply(LoadedGame(game_id, rules, state=rules.initial()), envelopes)
    return entries_for(game, created.at, envelopes[-1].at)


def epoch_ms(at: str) -> int:
    """An envelope's ``at`` (ISO 8601, UTC) as milliseconds since the epoch."""
    return round(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)


# -- Redis: keys, the guarded write, readers -------------------------------------------
@dataclass(frozen=True)
class Keys:
    partition: int

    @property
    def tag(self) -> str:
        return f"{PREFIX}{{p{self.partition}}}"

    @property
    def lobby(self) -> str:
        return f"{self.tag}:lobby"

    @property
    def finished(self) -> str:
        return f"{self.tag}:finished"

    @property
    def finished_info(self) -> str:
        return f"{self.tag}:finished:info"

    @property
    def pos(self) -> str:
        return f"{self.tag}:pos"

    @property
    def ai_owed(self) -> str:
        return f"{self.tag}:ai_owed"

    @property
    def deadlines(self) -> str:
        return f"{self.tag}:deadlines"

    def player(self, player: str) -> str:
        return f"{self.tag}:player:{player}"


def _json(entry: Mapping[str, Any]) -> bytes:
    return canonical(entry)


def _decode(raw: bytes | str) -> dict[str, Any]:
    return json.loads(raw)


@dataclass
class ReadModels:
    """The read models in one Redis; ``partitions`` must be the event store's.

    ``followers`` are further read models fed by the same projection (ratings,
    notifications): each has ``follow(game, entries)``, called after a game's entries are
    written (at least once per change, so it must be idempotent), and ``delete_all()``,
    called when the read models are thrown away for a rebuild."""

    redis: Any
    partitions: int = DEFAULT_PARTITIONS
    followers: Sequence[Any] = ()

    def keys(self, game_id: str) -> Keys:
        return Keys(partition_of(game_id, self.partitions))

    # -- writing ------------------------------------------------------------------------
    def position(self, game_id: str) -> int:
        """The stream version this game's entries were made at (0: never projected)."""
        return int(self.redis.hget(self.keys(game_id).pos, game_id) or 0)

    def write(self, entries: GameEntries) -> bool:
        """Write a game's entries and its position in one transaction, unless the stored
        position is already at or past ``entries.version``. True if written.

        Why WATCH and not a bare MULTI: a consumer group hands the entries of one
        partition feed to *any* of its consumers, so two projectors may be working on the
        same game at once (one was given (g, 5), the other (g, 7)); the slower one must
        not overwrite newer entries with older ones. ``rebuild`` may also run beside a
        projector. WATCH on the partition's position hash makes the compare-and-write
        atomic; a conflict (any game of the partition written meanwhile) just retries.
        """
        k = self.keys(entries.game_id)
        game_id = entries.game_id
        with self.redis.pipeline(transaction=True) as pipe:  # RedisCluster: WATCH needs it
            while True:
                try:
                    pipe.watch(k.pos)
                    stored = int(pipe.hget(k.pos, game_id) or 0)
                    if stored >= entries.version:
                        pipe.unwatch()
                        return False
                    pipe.multi()
                    if entries.lobby is None:
                        pipe.hdel(k.lobby, game_id)
                    else:
                        pipe.hset(k.lobby, game_id, _json(entries.lobby))
                    for player, entry in entries.players.items():
                        pipe.hset(k.player(player), game_id, _json(entry))
                    if entries.finished is None:
                        pipe.zrem(k.finished, game_id)
                        pipe.hdel(k.finished_info, game_id)
                    else:
                        score = epoch_ms(entries.finished["finished_at"])
                        pipe.zadd(k.finished, {game_id: score})
                        pipe.hset(k.finished_info, game_id, _json(entries.finished))
                    if entries.ai_owed_since is None:
                        pipe.zrem(k.ai_owed, game_id)
                    else:
                        pipe.zadd(k.ai_owed, {game_id: entries.ai_owed_since})
                    if entries.deadline_ms is None:
                        pipe.zrem(k.deadlines, game_id)
                    else:
                        pipe.zadd(k.deadlines, {game_id: entries.deadline_ms})
                    pipe.hset(k.pos, game_id, entries.version)
                    pipe.execute()
                    return True
                except redis_lib.WatchError:
                    continue

    def project(self, store: EventStore, game_id: str, seq: int = 0) -> str:
        """Bring one game's entries up to date for a feed entry ``(game_id, seq)``.

        ``"skipped"``: the stored position is already at or past ``seq`` (a re-delivery,
        or a later entry of the same game was projected first); ``"written"``; or
        ``"stale"``: someone wrote a newer version while we were loading.
        """
        if seq and seq <= self.position(game_id):
            return "skipped"
        game = load(store, game_id)  # the whole game now: may be past ``seq``, all the better
        created_at = game.table.created_at if game.open_seats else ""
        entries = entries_for(game, created_at, game.table.last_at)
        # The followers go first: the position written after them is what makes a
        # redelivery a no-op, so a follower that failed (or a process that died) is
        # followed again on the retry. Following twice does no harm (they are idempotent).
        for follower in self.followers:
            follower.follow(game, entries)
        return "written" if self.write(entries) else "stale"

    # -- reading ------------------------------------------------------------------------
    def _all(self, make_key, command: str, *args: Any) -> list[Any]:
        pipe = self.redis.pipeline(transaction=False)
        for p in range(self.partitions):
            getattr(pipe, command)(make_key(Keys(p)), *args)
        return pipe.execute()

    def lobby(self) -> list[dict[str, Any]]:
        """Games with an open seat, longest waiting first."""
        found = [
            _decode(raw) for h in self._all(lambda k: k.lobby, "hgetall") for raw in h.values()
        ]
        return lobby_order(found)

    def games_of(self, player: str) -> list[dict[str, Any]]:
        """A player's games: theirs to play first, then waiting, then finished; the most
        recently moved first within each."""
        found = [
            _decode(raw)
            for h in self._all(lambda k: k.player(player), "hgetall")
            for raw in h.values()
        ]
        return player_order(found)

    def finished(self, limit: int = 50) -> list[dict[str, Any]]:
        """The most recently finished games, newest first."""
        if limit <= 0:
            return []
        tops = self._all(lambda k: k.finished, "zrevrange", 0, limit - 1, True)
        ranked = sorted(
            ((-score, member.decode(), p) for p, top in enumerate(tops) for member, score in top),
        )[:limit]
        pipe = self.redis.pipeline(transaction=False)
        for _, game_id, p in ranked:
            pipe.hget(Keys(p).finished_info, game_id)
        return [_decode(raw) for raw in pipe.execute() if raw is not None]

    def finished_between(self, low_ms: int, high_ms: int, limit: int = 1000) -> list[str]:
        """Games that finished between ``low_ms`` and ``high_ms`` (epoch ms), oldest first."""
        found = self._all(lambda k: k.finished, "zrangebyscore", low_ms, high_ms, 0, limit,
                          True)  # fmt: skip
        ranked = sorted((score, member.decode()) for rows in found for member, score in rows)
        return [game_id for _, game_id in ranked[:limit]]

    def ai_owed_before(self, cutoff_ms: int, limit: int = 1000) -> list[str]:
        """Games in which an AI seat has owed a move since before ``cutoff_ms`` (epoch
        ms), longest waiting first: the moves whose task was lost, for the sweep."""
        found = self._all(lambda k: k.ai_owed, "zrangebyscore", "-inf", cutoff_ms, 0, limit,
                          True)  # fmt: skip
        ranked = sorted((score, member.decode()) for rows in found for member, score in rows)
        return [game_id for _, game_id in ranked[:limit]]

    def deadlines_before(self, now_ms: int, limit: int = 1000) -> list[str]:
        """Games in which a seat's clock ran out by ``now_ms`` (epoch ms), earliest first:
        the deadline index beat sweeps (no long-delayed task per move)."""
        found = self._all(lambda k: k.deadlines, "zrangebyscore", "-inf", now_ms, 0, limit,
                          True)  # fmt: skip
        ranked = sorted((score, member.decode()) for rows in found for member, score in rows)
        return [game_id for _, game_id in ranked[:limit]]

    # -- throwing away and rebuilding ---------------------------------------------------
    def delete_all(self) -> int:
        """Delete every read-model key (of every partition); the number deleted."""
        pattern = f"{PREFIX}{{p*}}:*"
        names = list(self.redis.scan_iter(match=pattern, count=1000))
        pipe = self.redis.pipeline(transaction=False)
        for name in names:  # one key per DEL: keys of different slots (Redis Cluster)
            pipe.delete(name)
        deleted = sum(pipe.execute()) if names else 0
        return deleted + sum(follower.delete_all() for follower in self.followers)

    def rebuild(self, store: EventStore, game_ids: Iterable[str] | None = None) -> dict[str, int]:
        """Throw the read models away and make them again from the streams."""
        deleted = self.delete_all()
        count = 0
        for game_id in store.game_ids() if game_ids is None else game_ids:
            self.project(store, game_id)
            count += 1
        return {"deleted": deleted, "games": count, **self.counts()}

    def counts(self) -> dict[str, int]:
        """Games in the lobby, finished games, players with an inbox."""
        lobby = sum(self._all(lambda k: k.lobby, "hlen"))
        finished = sum(self._all(lambda k: k.finished, "zcard"))
        players = {
            name.decode().partition(":player:")[2]
            for name in self.redis.scan_iter(match=f"{PREFIX}{{p*}}:player:*", count=1000)
        }
        return {"lobby": lobby, "finished": finished, "players": len(players)}

    def dump(self) -> dict[str, Any]:
        """Every read-model key and its content, decoded (to compare two builds)."""
        out: dict[str, Any] = {}
        for name in self.redis.scan_iter(match=f"{PREFIX}{{p*}}:*", count=1000):
            kind = self.redis.type(name).decode()
            if kind == "hash":
                value: Any = {f.decode(): v.decode() for f, v in self.redis.hgetall(name).items()}
            elif kind == "zset":
                value = dict(
                    (m.decode(), s) for m, s in self.redis.zrange(name, 0, -1, withscores=True)
                )
            else:
                value = kind
            out[name.decode()] = value
        return out
