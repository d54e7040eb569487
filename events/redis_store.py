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
has the same field names, so Redis keeps them once per stream node. Fields the stream
already holds, or that can be worked out from it, are not stored again:

- ``prev`` is the hash of the entry before;
- ``at`` is left empty when it equals the entry before's (the events of one append share
  their time);
- ``hash`` (its 32 raw bytes) is stored on the last entry of each append only, the others
  leave it empty: it is sha256(prev + canonical body), worked out on read from the entry
  before. So the chain is still checked end to end: ``verify`` recomputes every hash, and
  an entry edited inside an append breaks the hash stored at its append's end (and
  ``meta``'s ``last_hash``); a read that starts inside an append first walks back to the
  last stored hash.
- the payload is its canonical JSON (the hash chain is checked against exactly these
  bytes once unpacked), deflated with the game's preset dictionary when it has one
  (``events.dictionaries``: a number byte, then the raw deflate; plain JSON starts with
  ``{``).

Entries of older releases, which stored ``prev`` (field ``q``), every ``at``, every
``hash`` and plain payloads, read the same. A finished game with a dictionary takes about half the
memory it took with every hash and plain payloads (``python -m bench.store``).
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterator
from typing import Any

import orjson

from events import dictionaries
from events.codec import Codec
from events.envelope import GENESIS, Envelope, body_bytes, canonical
from events.store import (
    ConcurrencyError,
    EventStore,
    IdempotencyConflict,
    Snapshot,
)

DEFAULT_PARTITIONS = 16
# Payloads whose stored form a store keeps, per game (``RedisEventStore._entries``): a few
# hundred kB at most; emptied when full.
_CACHED = 4096

# An entry's fields: type, schema version, at ("" = the entry before's), actor,
# visible_to, payload (packed), hash ("" = worked out from the entry before), salt.
# (Older entries also have "q", their prev.)
ENTRY_FIELDS = ("t", "v", "a", "r", "w", "p", "h", "s")
_NAMES = [name.encode() for name in ENTRY_FIELDS]  # a raw entry's names, in stored order

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


def entry_values(
    env: Envelope, at_before: str | None = None, game: str | None = None, tip: bool = True
) -> list[Any]:
    """The stream entry of an envelope, as values in ``ENTRY_FIELDS`` order; ``at`` is
    left empty when it is ``at_before`` (the time of the entry stored just before), the
    hash unless ``tip`` (the last entry of its append), and the payload packed with
    ``game``'s dictionary (plain without a game)."""
    payload_json = env.payload_json if env.payload_json is not None else canonical(env.payload)
    return [
        env.type,
        env.v,
        "" if env.at == at_before else env.at,
        env.actor,
        env.visible_to,
        dictionaries.pack(game, payload_json),
        bytes.fromhex(env.hash) if tip else b"",
        bytes.fromhex(env.salt),
    ]


def entry_fields(
    env: Envelope, at_before: str | None = None, game: str | None = None, tip: bool = True
) -> dict[str, Any]:
    return dict(zip(ENTRY_FIELDS, entry_values(env, at_before, game, tip), strict=True))


def derived_hash(seq: int, type_: str, v: int, at: str, actor: str, visible_to: str,
                 payload_json: bytes, prev: str, salt: str) -> str:  # fmt: skip
    """The hash of an entry stored without it: sha256(prev + canonical body)."""
    body = body_bytes(seq, type_, v, at, actor, visible_to, payload_json, prev, salt)
    return hashlib.sha256(prev.encode() + body).hexdigest()


def envelope_of(
    entry_id: bytes | str,
    fields: dict[bytes, bytes],
    prev: str = GENESIS,
    at: str = "",
    game: str | None = None,
) -> Envelope:
    """The envelope a stream entry of ``game`` holds (as stored: upcasting is the codec's
    job), given the hash and the time of the entry before it (an older entry carries its
    own prev); the game's dictionaries read a packed payload."""
    if isinstance(entry_id, bytes):
        entry_id = entry_id.decode()
    payload_json = dictionaries.unpack(fields[b"p"], game)
    stored_prev = fields.get(b"q")
    if stored_prev is not None:
        prev = stored_prev.hex()
    seq, type_, v = int(entry_id.partition("-")[0]), fields[b"t"].decode(), int(fields[b"v"])
    at = fields[b"a"].decode() or at
    actor, visible_to = fields[b"r"].decode(), fields[b"w"].decode()
    salt = fields.get(b"s", b"").hex()
    digest = fields[b"h"].hex() or derived_hash(
        seq, type_, v, at, actor, visible_to, payload_json, prev, salt
    )
    return Envelope(seq, type_, v, at, actor, visible_to, orjson.loads(payload_json), prev,
                    digest, salt, payload_json=payload_json)  # fmt: skip


def envelopes_of(entries: list, prev: str = GENESIS, at: str = "",
                 game: str | None = None) -> list[Envelope]:  # fmt: skip
    """Consecutive stream entries of ``game`` as envelopes, each taking prev and at from
    the one before; ``prev`` and ``at`` are those of the entry before the first."""
    out = []
    for entry_id, fields in entries:
        env = envelope_of(entry_id, fields, prev, at, game)
        prev, at = env.hash, env.at
        out.append(env)
    return out


class FoldEntry:
    """What folding needs of a stream entry, made for speed (loading a game reads every
    entry): the payload is parsed, and a hash the entry does not store worked out, only
    when asked for. No ``prev``: for checking the chain, read whole envelopes (``read``).
    ``before`` is the entry before (anything with a ``hash``)."""

    __slots__ = ("_hash", "_payload", "_raw", "actor", "at", "before", "salt", "seq", "type",
                 "v", "visible_to")  # fmt: skip

    def __init__(self, seq: int, type_: str, v: int, at: str, visible_to: str, raw: bytes,
                 digest: bytes, actor: bytes, salt: bytes, before: Any) -> None:  # fmt: skip
        self.seq, self.type, self.v, self.at, self.visible_to = seq, type_, v, at, visible_to
        self._raw, self._payload, self._hash = raw, None, digest
        self.actor, self.salt, self.before = actor, salt, before

    @property
    def payload(self) -> dict[str, Any]:
        if self._payload is None:
            self._payload = orjson.loads(self._raw)
        return self._payload

    @property
    def hash(self) -> str:
        if self._hash:
            return self._hash.hex()
        digest = derived_hash(self.seq, self.type, self.v, self.at, self.actor.decode(),
                              self.visible_to, self._raw, self.before.hash,
                              self.salt.hex())  # fmt: skip
        self._hash = bytes.fromhex(digest)
        return digest

    def event(self) -> dict[str, Any]:
        event = orjson.loads(self._raw) if self._payload is None else dict(self._payload)
        event["type"], event["visible_to"] = self.type, self.visible_to
        return event


class _Known:
    """The entry before a read's first, when only its hash is known (or looked up)."""

    __slots__ = ("_find", "_hash")

    def __init__(self, digest: str | None = None, find: Any = None) -> None:
        self._hash, self._find = digest, find

    @property
    def hash(self) -> str:
        if self._hash is None:
            self._hash = self._find()
        return self._hash


def _as_is(response: Any, **options: Any) -> Any:
    return response


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


def _raw_replies(client: Any) -> Any:
    """A client on the same connections as ``client`` whose XRANGE replies are left as
    Redis sends them (``RedisEventStore._xrange``); None for a client that cannot share
    its connections so (a cluster client: its replies are reshaped instead)."""
    import redis

    pool = getattr(client, "connection_pool", None)
    if not isinstance(client, redis.Redis) or pool is None:
        return None
    raw = redis.Redis(connection_pool=pool)
    raw.set_response_callback("XRANGE", _as_is)
    return raw


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
        self._raw = _raw_replies(client)
        self._games: dict[str, str] = {}  # game id -> game key (never changes)
        # game id -> (version, hash) of the last event this process saw; saves a round trip
        # per append. A stale tip is harmless: the script compares it and refuses.
        self._tips: dict[str, tuple[int, str]] = {}
        # game -> payload's canonical JSON -> its stored form (``_entries``)
        self._packed: dict[str, dict[bytes, bytes]] = {}

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
        if after and len(entries) < 2:
            return []
        if not entries:
            return []
        game = self.game_of(game_id)
        if after:
            context, entries = entries[0][1], entries[1:]
            if context[b"h"] and (context[b"a"] or entries[0][1][b"a"]):
                prev, at = context[b"h"].hex(), context[b"a"].decode()
            else:  # it starts inside an append: what the entries before say
                prev, at = self._context(key, after, game)
        upcast = self.codec.upcast
        envelopes = [upcast(game, env) for env in envelopes_of(entries, prev, at, game)]
        self._tips[game_id] = (envelopes[-1].seq, envelopes[-1].hash)
        return envelopes

    def _xrange(self, key: str, after: int) -> list:
        """The entries after ``after`` as Redis sends them, ``[id, [name, value, …]]``:
        redis-py's reply parsing (a tuple and a dict per entry) costs more than folding
        what it parsed. (On a client that cannot be given its own parsing, the same
        shape rebuilt from the parsed reply.)"""
        if self._raw is not None:
            return self._raw.xrange(key, min=f"{after + 1}-1")
        return [[entry_id, [x for pair in fields.items() for x in pair]]
                for entry_id, fields in self.redis.xrange(key, min=f"{after + 1}-1")]  # fmt: skip

    def read_for_fold(self, game_id: str, after: int = 0) -> list[Any]:
        """``read`` for folding: entries as ``FoldEntry`` (about three times cheaper than
        envelopes), an old schema version upcast as ``read`` does."""
        key = self.key(game_id, "events")
        game = self._games.get(game_id)
        if game is None:  # which game it is, in the same round trip as the entries
            pipe = (self._raw or self.redis).pipeline(transaction=False)
            pipe.hget(self.key(game_id, "meta"), "game")
            pipe.xrange(key, min=f"{after + 1}-1")
            raw_game, entries = pipe.execute()
            if raw_game is not None:
                game = self._games[game_id] = raw_game.decode()
            if self._raw is None:
                entries = [[i, [x for pair in f.items() for x in pair]] for i, f in entries]
        else:
            entries = self._xrange(key, after)
        if not entries:
            return []
        versions = self.codec.versions(game) if game else {}
        before: Any = _Known(GENESIS) if after == 0 else None
        at = ""
        if after:  # the entry before: looked up only if its hash or time is needed
            found: dict[str, tuple[str, str]] = {}

            def context() -> tuple[str, str]:
                if "it" not in found:
                    found["it"] = self._context(key, after, game)
                return found["it"]

            before = _Known(find=lambda: context()[0])
        names: dict[bytes, str] = {}  # type and visible_to: a few values, decoded once
        numbers: dict[bytes, int] = {}
        unpack = dictionaries.unpack
        out: list[Any] = []
        for entry_id, fields in entries:
            if fields[::2] != _NAMES:  # an older layout (or order): read by name
                fields = dict(zip(fields[::2], fields[1::2], strict=True))
                raw_type, v_, stamp, actor, raw_to, raw_p, digest, salt = (
                    fields[b"t"], fields[b"v"], fields[b"a"], fields[b"r"], fields[b"w"],
                    fields[b"p"], fields[b"h"], fields.get(b"s", b""),
                )  # fmt: skip
            else:
                _, raw_type, _, v_, _, stamp, _, actor, _, raw_to, _, raw_p, _, digest, _, salt = (
                    fields
                )
            if stamp:
                at = stamp.decode()
            elif not at and after:  # it starts inside an append: that append's time
                at = context()[1]
            type_ = names.get(raw_type) or names.setdefault(raw_type, raw_type.decode())
            to = names.get(raw_to) or names.setdefault(raw_to, raw_to.decode())
            v = numbers.get(v_) or numbers.setdefault(v_, int(v_))
            seq = int(entry_id[:-2])  # "<seq>-1"
            if v < versions.get(type_, 1):  # rare: the full envelope, upcast
                plain = fields if isinstance(fields, dict) else dict(
                    zip(fields[::2], fields[1::2], strict=True))  # fmt: skip
                env = envelope_of(entry_id, plain, prev=before.hash, at=at, game=game)
                before = env
                out.append(self.codec.upcast(game, env))
                continue
            raw = raw_p if raw_p[:1] == b"{" else unpack(raw_p, game)
            before = FoldEntry(seq, type_, v, at, to, raw, digest, actor, salt, before)
            out.append(before)
        return out

    def _context(self, key: str, seq: int, game: str | None) -> tuple[str, str]:
        """(hash, at) of the entry at ``seq`` when it stores neither: walk back to the
        last entry that names its time and the last that stores its hash (the end of an
        append), then work forward."""
        back: list = []
        last, has_hash, has_time = seq, False, False
        while last > 0 and not (has_hash and has_time):
            batch = self.redis.xrevrange(key, max=f"{last}-1", count=64)
            for entry in batch:
                back.append(entry)
                has_hash = has_hash or bool(entry[1][b"h"])
                has_time = has_time or bool(entry[1][b"a"])
                if has_hash and has_time:
                    break
            if len(batch) < 64:
                break
            last = int(batch[-1][0].partition(b"-")[0]) - 1
        forward = back[::-1]
        prev: str | None = GENESIS if forward and forward[0][0].startswith(b"1-") else None
        at = ""
        for entry_id, fields in forward:
            at = fields[b"a"].decode() or at
            if fields[b"h"]:
                prev = fields[b"h"].hex()
            elif prev is not None:
                prev = envelope_of(entry_id, fields, prev, at, game).hash
        return prev or GENESIS, at

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
            *self._entries(envelopes, game),
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

    def _entries(self, envelopes: list[Envelope], game: str) -> list[Any]:
        """The values of an append's entries (``entry_values`` of each): the first names
        its time, the rest share it; the last stores its hash. A payload packed before
        by this store is not packed again (a game's events repeat: about half of them
        are the same bytes as one already written)."""
        packed = self._packed.get(game)
        if packed is None:
            packed = self._packed[game] = {}
        pack = dictionaries.pack
        values: list[Any] = []
        before = None
        for env in envelopes:
            payload_json = env.payload_json
            if payload_json is None:
                payload_json = canonical(env.payload)
            stored = packed.get(payload_json)
            if stored is None:
                if len(packed) >= _CACHED:  # bounded, whatever is written
                    packed.clear()
                stored = packed[payload_json] = pack(game, payload_json)
            at = env.at
            values += (env.type, env.v, "" if at == before else at, env.actor, env.visible_to,
                       stored, b"", bytes.fromhex(env.salt))  # fmt: skip
            before = at
        values[-2] = bytes.fromhex(envelopes[-1].hash)
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
