"""The event store on Redis Streams, partitioned so that Redis Cluster works unchanged.

A game belongs to partition ``crc32(game_id) % partitions``; every key of the game and its
partition's feed carry the hash tag ``{pN}``, so the append script touches one slot:

    g:{pN}:ID:events   stream, one entry per event, entry ID "<seq>-1", the envelope's
                       fields (see ``ENTRY_FIELDS``)
    g:{pN}:ID:meta     hash: version, last_hash, game
    g:{pN}:ID:idem     hash: idempotency key -> "<fingerprint>|<version>"
    g:{pN}:ID:snap     latest snapshot
    g:{pN}:ID:secret   the seed and nonces (revealed in the last event)
    g:{pN}:ID:access   the hashes of the seat tokens (never revealed)
    feed:{pN}          stream of (game, seq) appends, read by the projector

Streams are never trimmed. Durability is Redis's: run it with AOF (see the README). Each
append is also said on the pub/sub channel ``live:g:<game id>`` (the web's live streams
wait on it: ``service.live``).

An entry stores the envelope as stream fields rather than one JSON document: every entry
has the same field names, so Redis keeps them once per stream node, and the hash is
stored as its 32 raw bytes. The payload is its canonical JSON, so the hash chain is
checked against exactly the bytes stored. Two fields are not stored again where the
stream already holds them: ``prev`` is the hash of the entry before, and ``at`` is left
empty when it equals the entry before's (the events of one append share their time);
a read takes them from the entry before the ones it returns. Entries of older releases,
which stored ``prev`` (field ``q``) and every ``at``, read the same. This halves the
memory a game takes, then saves a fifth of the rest.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import Any

import orjson

from events.codec import Codec
from events.envelope import GENESIS, Envelope, canonical
from events.store import (
    ConcurrencyError,
    EventStore,
    IdempotencyConflict,
    Snapshot,
)

DEFAULT_PARTITIONS = 16

# An entry's fields: type, schema version, at ("" = the entry before's), actor,
# visible_to, payload, hash, salt. (Older entries also have "q", their prev.)
ENTRY_FIELDS = ("t", "v", "a", "r", "w", "p", "h", "s")

# KEYS: events, meta, idem, feed
# ARGV: expected version, prev hash, idempotency key ("" for none), fingerprint, game id,
#       game key, last hash, then the ENTRY_FIELDS values of each event in turn.
# Every check comes before the first write: a script does not roll back.
# a claim given back only by its claimant (a later claim, or the value kept, stays)
DROP_IF_SAME = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

APPEND_LUA = """
local key = ARGV[3]
if key ~= '' then
  local rec = redis.call('HGET', KEYS[3], key)
  if rec then
    local fp, ver = string.match(rec, '^(.*)|(%d+)$')
    if fp == ARGV[4] then return {'dup', ver} end
    return {'idem', ver}
  end
end
local meta = redis.call('HMGET', KEYS[2], 'version', 'last_hash')
local version = tonumber(meta[1] or '0')
local expected = tonumber(ARGV[1])
if version ~= expected then return {'conflict', tostring(version)} end
if (meta[2] or '') ~= ARGV[2] then return {'chain', tostring(version)} end
local n = (#ARGV - 7) / 8
for i = 1, n do
  local b = 7 + (i - 1) * 8
  redis.call('XADD', KEYS[1], tostring(version + i) .. '-1',
    't', ARGV[b + 1], 'v', ARGV[b + 2], 'a', ARGV[b + 3], 'r', ARGV[b + 4],
    'w', ARGV[b + 5], 'p', ARGV[b + 6], 'h', ARGV[b + 7], 's', ARGV[b + 8])
end
local new = version + n
redis.call('HSET', KEYS[2], 'version', new, 'last_hash', ARGV[7], 'game', ARGV[6])
if key ~= '' then redis.call('HSET', KEYS[3], key, ARGV[4] .. '|' .. new) end
redis.call('XADD', KEYS[4], '*', 'game', ARGV[5], 'seq', new)
redis.call('PUBLISH', 'live:g:' .. ARGV[5], new)
return {'ok', tostring(new)}
"""


def entry_values(env: Envelope, at_before: str | None = None) -> list[Any]:
    """The stream entry of an envelope, as values in ``ENTRY_FIELDS`` order; ``at`` is
    left empty when it is ``at_before`` (the time of the entry stored just before)."""
    return [
        env.type,
        env.v,
        "" if env.at == at_before else env.at,
        env.actor,
        env.visible_to,
        env.payload_json if env.payload_json is not None else canonical(env.payload),
        bytes.fromhex(env.hash),
        bytes.fromhex(env.salt),
    ]


def entry_fields(env: Envelope, at_before: str | None = None) -> dict[str, Any]:
    return dict(zip(ENTRY_FIELDS, entry_values(env, at_before), strict=True))


def envelope_of(
    entry_id: bytes | str, fields: dict[bytes, bytes], prev: str = GENESIS, at: str = ""
) -> Envelope:
    """The envelope a stream entry holds (as stored: upcasting is the codec's job), given
    the hash and the time of the entry before it (an older entry carries its own prev)."""
    if isinstance(entry_id, bytes):
        entry_id = entry_id.decode()
    payload_json = fields[b"p"]
    stored_prev = fields.get(b"q")
    return Envelope(
        int(entry_id.partition("-")[0]),
        fields[b"t"].decode(),
        int(fields[b"v"]),
        fields[b"a"].decode() or at,
        fields[b"r"].decode(),
        fields[b"w"].decode(),
        orjson.loads(payload_json),
        prev if stored_prev is None else stored_prev.hex(),
        fields[b"h"].hex(),
        fields.get(b"s", b"").hex(),
        payload_json=payload_json,
    )


def envelopes_of(entries: list, prev: str = GENESIS, at: str = "") -> list[Envelope]:
    """Consecutive stream entries as envelopes, each taking prev and at from the one
    before; ``prev`` and ``at`` are those of the entry before the first."""
    out = []
    for entry_id, fields in entries:
        env = envelope_of(entry_id, fields, prev, at)
        prev, at = env.hash, env.at
        out.append(env)
    return out


class FoldEntry:
    """What folding needs of a stream entry, made for speed (loading a game reads every
    entry): the payload is parsed and the hash turned to hex only when asked for. No
    ``prev`` and no salt: for checking the chain, read whole envelopes (``read``)."""

    __slots__ = ("_hash", "_payload", "_raw", "at", "seq", "type", "v", "visible_to")

    def __init__(self, seq: int, type_: str, v: int, at: str, visible_to: str, raw: bytes,
                 digest: bytes) -> None:  # fmt: skip
        self.seq, self.type, self.v, self.at, self.visible_to = seq, type_, v, at, visible_to
        self._raw, self._payload, self._hash = raw, None, digest

    @property
    def payload(self) -> dict[str, Any]:
        if self._payload is None:
            self._payload = orjson.loads(self._raw)
        return self._payload

    @property
    def hash(self) -> str:
        return self._hash.hex()

    def event(self) -> dict[str, Any]:
        event = orjson.loads(self._raw) if self._payload is None else dict(self._payload)
        event["type"], event["visible_to"] = self.type, self.visible_to
        return event


def connect(url: str, max_connections: int | None = None) -> Any:
    """A client for ``REDIS_URL``: ``redis://…`` for one server, ``redis+cluster://…``
    (any one node) for a Redis Cluster; ``rediss`` for TLS in both. ``max_connections``:
    at most that many connections (per node), a caller waiting for a free one rather
    than failing (the web's many greenlets share a few)."""
    import redis

    for scheme in ("redis+cluster://", "rediss+cluster://"):
        if url.startswith(scheme):
            plain = scheme.replace("+cluster", "") + url[len(scheme) :]
            if max_connections:
                return redis.RedisCluster.from_url(plain, max_connections=max_connections)
            return redis.RedisCluster.from_url(plain)
    if max_connections:
        pool = redis.BlockingConnectionPool.from_url(url, max_connections=max_connections,
                                                     timeout=20)  # fmt: skip
        return redis.Redis(connection_pool=pool)
    return redis.Redis.from_url(url)


def partition_of(game_id: str, partitions: int) -> int:
    return zlib.crc32(game_id.encode()) % partitions


def feed_key(partition: int) -> str:
    return f"feed:{{p{partition}}}"


class RedisEventStore(EventStore):
    def __init__(
        self, client: Any, codec: Codec | None = None, partitions: int = DEFAULT_PARTITIONS
    ):
        self.redis = client
        self.codec = codec or Codec()
        self.partitions = partitions
        self._append = client.register_script(APPEND_LUA)
        self._games: dict[str, str] = {}  # game id -> game key (never changes)
        # game id -> (version, hash) of the last event this process saw; saves a round trip
        # per append. A stale tip is harmless: the script compares it and refuses.
        self._tips: dict[str, tuple[int, str]] = {}

    def key(self, game_id: str, part: str) -> str:
        return f"g:{{p{partition_of(game_id, self.partitions)}}}:{game_id}:{part}"

    def feed(self, game_id: str) -> str:
        return feed_key(partition_of(game_id, self.partitions))

    # -- reads ------------------------------------------------------------------------
    def read(self, game_id: str, after: int = 0) -> list[Envelope]:
        key = self.key(game_id, "events")
        # From the entry at ``after`` on: it gives the first one's prev (and maybe its at).
        entries = self.redis.xrange(key, min=f"{after}-1" if after else "-")
        prev, at = GENESIS, ""
        if after:
            if len(entries) < 2:
                return []
            context, entries = entries[0][1], entries[1:]
            prev = context[b"h"].hex()
            if not entries[0][1][b"a"]:  # it starts inside an append: that append's time
                at = context[b"a"].decode() or self._at_until(key, after)
        if not entries:
            return []
        game = self.game_of(game_id)
        upcast = self.codec.upcast
        envelopes = [upcast(game, env) for env in envelopes_of(entries, prev, at)]
        self._tips[game_id] = (envelopes[-1].seq, envelopes[-1].hash)
        return envelopes

    def read_for_fold(self, game_id: str, after: int = 0) -> list[Any]:
        """``read`` for folding: entries as ``FoldEntry`` (about three times cheaper than
        envelopes), an old schema version upcast as ``read`` does."""
        key = self.key(game_id, "events")
        game = self._games.get(game_id)
        if game is None:  # which game it is, in the same round trip as the entries
            pipe = self.redis.pipeline(transaction=False)
            pipe.hget(self.key(game_id, "meta"), "game")
            pipe.xrange(key, min=f"{after + 1}-1")
            raw_game, entries = pipe.execute()
            if raw_game is not None:
                game = self._games[game_id] = raw_game.decode()
        else:
            entries = self.redis.xrange(key, min=f"{after + 1}-1")
        if not entries:
            return []
        versions = self.codec.versions(game) if game else {}
        at = ""
        if not entries[0][1][b"a"]:  # it starts inside an append: that append's time
            at = self._at_until(key, after)
        names: dict[bytes, str] = {}  # type and visible_to: a few values, decoded once
        numbers: dict[bytes, int] = {}
        out: list[Any] = []
        for entry_id, fields in entries:
            stamp = fields[b"a"]
            if stamp:
                at = stamp.decode()
            raw_type, raw_to = fields[b"t"], fields[b"w"]
            type_ = names.get(raw_type) or names.setdefault(raw_type, raw_type.decode())
            to = names.get(raw_to) or names.setdefault(raw_to, raw_to.decode())
            raw_v = fields[b"v"]
            v = numbers.get(raw_v) or numbers.setdefault(raw_v, int(raw_v))
            if v < versions.get(type_, 1):  # rare: the full envelope, upcast
                out.append(self.codec.upcast(game, envelope_of(entry_id, fields, at=at)))
                continue
            seq = int(entry_id[:-2])  # "<seq>-1"
            out.append(FoldEntry(seq, type_, v, at, to, fields[b"p"], fields[b"h"]))
        return out

    def _at_until(self, key: str, seq: int) -> str:
        """The time of the entry at ``seq`` when it is stored as "the one before's": the
        last entry at or before it that names its time (the first of its append)."""
        last = seq
        while last > 0:
            batch = self.redis.xrevrange(key, max=f"{last}-1", count=64)
            for _, fields in batch:
                if fields[b"a"]:
                    return fields[b"a"].decode()
            if len(batch) < 64:
                break
            last = int(batch[-1][0].partition(b"-")[0]) - 1
        return ""

    def version(self, game_id: str) -> int:
        return int(self.redis.hget(self.key(game_id, "meta"), "version") or 0)

    def head(self, game_id: str) -> tuple[int, str]:
        version, last = self.redis.hmget(self.key(game_id, "meta"), "version", "last_hash")
        return int(version or 0), (last.decode() if last else GENESIS)

    def game_of(self, game_id: str) -> str | None:
        game = self._games.get(game_id)
        if game is None:
            raw = self.redis.hget(self.key(game_id, "meta"), "game")
            if raw is None:
                return None
            game = self._games[game_id] = raw.decode()
        return game

    def idempotent(self, game_id: str, key: str) -> tuple[str, int] | None:
        raw = self.redis.hget(self.key(game_id, "idem"), key)
        if raw is None:
            return None
        fingerprint, _, version = raw.decode().rpartition("|")
        return fingerprint, int(version)

    def game_ids(self) -> Iterator[str]:
        seen: set[str] = set()
        for p in range(self.partitions):
            for _, fields in self.redis.xrange(feed_key(p)):
                game_id = fields[b"game"].decode()
                if game_id not in seen:
                    seen.add(game_id)
                    yield game_id

    # -- writes -----------------------------------------------------------------------
    def _prev_hash(self, game_id: str, expected: int) -> str:
        if expected == 0:
            return GENESIS
        tip = self._tips.get(game_id)
        if tip is not None and tip[0] == expected:
            return tip[1]
        raw = self.redis.hget(self.key(game_id, "meta"), "last_hash")
        return raw.decode() if raw else GENESIS

    def _write(self, game_id, game, expected, envelopes, key, fingerprint) -> tuple[int, bool]:
        keys = [self.key(game_id, p) for p in ("events", "meta", "idem")] + [self.feed(game_id)]
        args = [
            expected,
            envelopes[0].prev,
            key or "",
            fingerprint or "",
            game_id,
            game,
            envelopes[-1].hash,
            *self._entries(envelopes),
        ]
        status, value = self._append(keys=keys, args=args)
        status = status.decode() if isinstance(status, bytes) else status
        value = int(value)
        if status == "ok":
            self._games.setdefault(game_id, game)
            self._tips[game_id] = (value, envelopes[-1].hash)
            return value, False
        if status == "dup":
            return value, True
        if status == "idem":
            raise IdempotencyConflict(game_id, key or "")
        self._tips.pop(game_id, None)  # what this process remembered is out of date
        if status == "chain":
            raise ConcurrencyError(game_id, expected, value, moved=True)
        raise ConcurrencyError(game_id, expected, value)

    @staticmethod
    def _entries(envelopes: list[Envelope]) -> list[Any]:
        """The values of an append's entries: the first names its time, the rest share it."""
        values: list[Any] = []
        before = None
        for env in envelopes:
            values += entry_values(env, before)
            before = env.at
        return values

    def put_snapshot(self, game_id: str, snapshot: Snapshot) -> None:
        self.redis.set(self.key(game_id, "snap"), snapshot.to_bytes())

    def get_snapshot(self, game_id: str) -> Snapshot | None:
        raw = self.redis.get(self.key(game_id, "snap"))
        return None if raw is None else Snapshot.from_bytes(raw)

    def put_secret(self, game_id: str, secret: str, name: str = "secret") -> None:
        self.redis.set(self.key(game_id, name), secret)

    def get_secret(self, game_id: str, name: str = "secret") -> str | None:
        raw = self.redis.get(self.key(game_id, name))
        return None if raw is None else raw.decode()

    def tell(self, game_id: str) -> None:
        self.redis.publish(f"live:g:{game_id}", "told")  # the channel the append says on

    def claim_secret(self, game_id: str, secret: str, name: str, lease_ms: int) -> bool:
        return bool(self.redis.set(self.key(game_id, name), secret, nx=True, px=lease_ms))

    def drop_secret(self, game_id: str, name: str, secret: str) -> bool:
        return bool(self.redis.eval(DROP_IF_SAME, 1, self.key(game_id, name), secret))
