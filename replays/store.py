"""The replay store: records of finished games on Redis, with indexes for listing them.

    store = ReplayStore(redis_client)
    store.put(record) -> id           write once (the same record again: nothing changes;
                                      another record under a taken id: ``ReplayClash``)
    store.get(id) -> Record           ``UnknownReplay`` if there is none
    store.text(id) -> str             the JSONL as stored (the export)
    store.exists(id) -> bool
    store.summary(id) -> dict | None  the header without seed and nonces
    store.by_head(head) -> id | None  the replay whose chain ends in that hash (the same
                                      game's record, whatever id it came under)
    store.list(limit=20, cursor=None, player=None, result=None, imported=None) -> Page
                                      newest finish first; ``Page.next`` is the cursor of
                                      the next page (None at the end), ``Page.total`` counts
                                      every match

Keys (Redis Cluster safe: no command touches two slots):

    replay:{ID}                       the record: zlib of its JSONL (one key, its own slot)
    replays:{index}:time              zset id -> end time (ms since the epoch)
    replays:{index}:player:<player>   zset, per player id (``ai:<level>`` for AI seats)
    replays:{index}:result:<r>        zset, r = a winning seat or ``draw``
    replays:{index}:imported:<0|1>    zset
    replays:{index}:info              hash id -> summary JSON
    replays:{index}:head              hash head -> id (the first record of that history)

Every index key carries the one hash tag ``{index}``, so an index update is one Lua script
(atomic, one slot) and a filtered list reads keys of one slot. The record is written
first (SET NX), then indexed; a put that stopped in between is completed by the next put
of the same record (indexing is idempotent). Records of played games can be made again
from the streams (``bingfa archive --all``); imported ones exist only here.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from events.envelope import canonical
from events.readmodels import epoch_ms
from games.i18n import said
from replays.record import Record, dumps, loads

RECORD_PREFIX = "replay:"
INDEX = "replays:{index}:"

# KEYS: info, heads, then every zset to add the id to; ARGV: id, score, summary JSON, head
INDEX_LUA = """
for i = 3, #KEYS do redis.call('ZADD', KEYS[i], ARGV[2], ARGV[1]) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSETNX', KEYS[2], ARGV[4], ARGV[1])
return #KEYS - 2
"""


Rows = list[tuple[str, float]]  # (id, score)
Cursor = tuple[int, str]  # (score, id) of the last row of the page before


class UnknownReplay(KeyError):
    def __init__(self, replay_id: str) -> None:
        super().__init__(replay_id)
        self.replay_id = replay_id

    def __str__(self) -> str:
        return said("there is no replay {replay_id!r}", replay_id=self.replay_id)


class ReplayClash(Exception):
    """The id is taken by a different record."""

    def __init__(self, replay_id: str) -> None:
        super().__init__(said("the replay id {replay_id!r} is taken by another record",
                              replay_id=replay_id))  # fmt: skip
        self.replay_id = replay_id


class BadCursor(ValueError):
    """A cursor this store did not hand out."""


@dataclass(frozen=True)
class Page:
    items: list[dict[str, Any]] = field(default_factory=list)  # summaries, newest first
    total: int = 0
    next: str | None = None  # the cursor for the next page; None on the last page


def _cursor(score: float, replay_id: str) -> str:
    return f"{int(score)}:{replay_id}"


def _parse_cursor(cursor: str) -> tuple[int, str]:
    score, sep, replay_id = cursor.partition(":")
    if not sep or not replay_id or not score.lstrip("-").isdigit():
        raise BadCursor(f"{cursor!r} is not a cursor this list handed out")
    return int(score), replay_id


def _str(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


class ReplayStore:
    """Records of finished games on one Redis (or Redis Cluster) client."""

    def __init__(self, client: Any) -> None:
        self.redis = client
        self._index = client.register_script(INDEX_LUA)

    # -- keys ---------------------------------------------------------------------------
    @staticmethod
    def record_key(replay_id: str) -> str:
        return f"{RECORD_PREFIX}{{{replay_id}}}"

    @staticmethod
    def index_key(name: str) -> str:
        return INDEX + name

    def filter_keys(self, player: str | None, result: str | None,
                    imported: bool | None) -> list[str]:  # fmt: skip
        keys = []
        if player is not None:
            keys.append(self.index_key(f"player:{player}"))
        if result is not None:
            keys.append(self.index_key(f"result:{result}"))
        if imported is not None:
            keys.append(self.index_key(f"imported:{int(bool(imported))}"))
        return keys

    # -- writing --------------------------------------------------------------------------
    def put(self, record: Record) -> str:
        """Store ``record`` under ``record.id`` (once) and index it; the id."""
        replay_id = record.id
        blob = zlib.compress(dumps(record).encode(), 6)
        if not self.redis.set(self.record_key(replay_id), blob, nx=True):
            stored = self.get(replay_id)
            if stored.head != record.head or stored.events != record.events:
                raise ReplayClash(replay_id)
            record = stored  # the same game: make sure it is indexed, change nothing else
        self._put_index(record)
        return replay_id

    def _put_index(self, record: Record) -> None:
        h = record.header
        zsets = [self.index_key("time"), self.index_key(f"result:{h['result']}"),
                 self.index_key(f"imported:{int(bool(h['imported']))}")]  # fmt: skip
        for player in sorted({p for p in h["players"].values() if isinstance(p, str) and p}):
            zsets.append(self.index_key(f"player:{player}"))
        summary = canonical(record.summary())
        self._index(keys=[self.index_key("info"), self.index_key("head"), *zsets],
                    args=[record.id, epoch_ms(h["ended_at"]), summary, record.head])  # fmt: skip

    # -- reading --------------------------------------------------------------------------
    def exists(self, replay_id: str) -> bool:
        return bool(self.redis.exists(self.record_key(replay_id)))

    def text(self, replay_id: str) -> str:
        raw = self.redis.get(self.record_key(replay_id))
        if raw is None:
            raise UnknownReplay(replay_id)
        return zlib.decompress(raw).decode()

    def get(self, replay_id: str) -> Record:
        return loads(self.text(replay_id))

    def summary(self, replay_id: str) -> dict[str, Any] | None:
        raw = self.redis.hget(self.index_key("info"), replay_id)
        return None if raw is None else json.loads(raw)

    def by_head(self, head: str) -> str | None:
        """The id of the replay whose hash chain ends in ``head`` (one history is one
        replay, whatever id a copy of it was sent under), or None."""
        raw = self.redis.hget(self.index_key("head"), head)
        return None if raw is None else _str(raw)

    def ids(self) -> Iterator[str]:
        """Every indexed replay id, newest first."""
        for member in self.redis.zrevrange(self.index_key("time"), 0, -1):
            yield _str(member)

    def list(
        self,
        limit: int = 20,
        cursor: str | None = None,
        player: str | None = None,
        result: str | None = None,
        imported: bool | None = None,
    ) -> Page:
        """A page of summaries, newest finish first (ties: by id, descending)."""
        limit = max(1, int(limit))
        after = _parse_cursor(cursor) if cursor else None
        keys = self.filter_keys(player, result, imported)
        if len(keys) <= 1:
            key = keys[0] if keys else self.index_key("time")
            rows, total = self._page_of_one(key, limit + 1, after)
        else:
            rows, total = self._page_of_many(keys, limit + 1, after)
        more = len(rows) > limit
        rows = rows[:limit]
        items = []
        if rows:
            raws = self.redis.hmget(self.index_key("info"), [m for m, _ in rows])
            items = [json.loads(raw) for raw in raws if raw is not None]
        next_cursor = _cursor(rows[-1][1], rows[-1][0]) if more and rows else None
        return Page(items, total, next_cursor)

    def _page_of_one(self, key: str, n: int, after: Cursor | None) -> tuple[Rows, int]:
        """Up to ``n`` (id, score) of one zset after the cursor, and the zset's size."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zcard(key)
        if after is None:
            pipe.zrevrange(key, 0, n - 1, withscores=True)
        else:
            score = after[0]
            pipe.zrevrangebyscore(key, score, score, withscores=True)  # ties of the cursor
            pipe.zrevrangebyscore(key, f"({score}", "-inf", start=0, num=n, withscores=True)
        total, *found = pipe.execute()
        rows = []
        if after is not None:
            rows = [(_str(m), s) for m, s in found[0] if _str(m).encode() < after[1].encode()]
            found = found[1:]
        rows += [(_str(m), s) for m, s in found[0]]
        return rows[:n], int(total)

    def _page_of_many(self, keys: list[str], n: int, after: Cursor | None) -> tuple[Rows, int]:
        """The intersection of several zsets (one slot: read in one pipeline), sorted here."""
        pipe = self.redis.pipeline(transaction=False)
        for key in keys:
            pipe.zrange(key, 0, -1, withscores=True)
        sets = [{_str(m): s for m, s in rows} for rows in pipe.execute()]
        common = set.intersection(*(set(s) for s in sets))
        rows = sorted(((m, sets[0][m]) for m in common),
                      key=lambda r: (r[1], r[0].encode()), reverse=True)  # fmt: skip
        if after is not None:
            score, last = after
            rows = [r for r in rows if (r[1], r[0].encode()) < (score, last.encode())]
        return rows[:n], len(common)
