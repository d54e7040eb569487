"""The Redis event store against raw Redis, on recorded random Sun Tzu games.

    python -m bench.store [--games N] [--rounds R] [--quick]

Uses ``REDIS_URL`` if set (it writes keys named ``g:{pN}:bench-…``, ``raw:{pN}:bench-…``
and entries in ``feed:{pN}``, and removes them all at the end), else starts the bundled
``redis-server`` (AOF on, ``appendfsync everysec``) in a temporary folder and stops it at
the end. Both sides of every comparison use the same Redis, the same client and the same
connection settings, one round trip per batch on the raw side.

(a) appends/s: ``RedisEventStore.append`` (schema check, hash chain, idempotency
    fingerprint, payloads packed, Lua script) vs a pipelined ``XADD`` of the same stored
    bytes, same entry IDs, one pipeline (``transaction=False``) per batch.
(b) events/s folded: ``store.read_for_fold`` (what ``events.projector.load`` reads with) +
    ``rules.fold`` of the game events (system events skipped), as ``events.projector.apply``
    folds them, with a fresh store (cold game cache) vs ``XRANGE`` of the same streams.
(c) loading a finished game from a snapshot vs from scratch, and as the projector loads it
    from scratch (``projector_load_ms``: system events, turns and clocks included).
(d) Redis memory per finished game (``MEMORY USAGE … SAMPLES 0`` of all its keys, plus
    its share of the partition feed).

Prints, last: ``from_scratch_load_ms``, ``projector_load_ms``, ``append_ratio_vs_raw_xadd``,
``fold_ratio_vs_raw_xrange``, ``snapshot_load_ms``, ``redis_bytes_per_game``.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import redis

import games
from events.embedded import start_redis
from events.projector import load
from events.redis_store import RedisEventStore, feed_key, partition_of
from events.schemas import SYSTEM_FIELDS
from events.store import Snapshot, rules_fingerprint
from games.playout import play

GAME = "sun-tzu"
OPTIONS = {"variant": "standard", "events": True}


@dataclass
class Recorded:
    """One game as the service would append it: (actor, events, idempotency key) batches."""

    seed: int
    batches: list[tuple[str, list[dict[str, Any]], str | None]] = field(default_factory=list)

    @property
    def events(self) -> int:
        return sum(len(b) for _, b, _ in self.batches)


def record(rules: Any, seed: int) -> Recorded:
    """Re-run ``games.playout.play``'s loop, keeping each ``decide``'s output as one batch.

    Batch 1 is the creation: ``game_created``, both ``seat_joined`` and the opening events
    of ``setup``; then one batch per command: its ``command_given`` and the events it caused
    (actor = the seat, with an idempotency key, as the API sends it); last the
    ``seed_revealed`` system event.
    """
    rng = random.Random(seed)
    secret = f"bench-seed-{seed}"
    created = {
        "type": "game_created",
        "visible_to": "all",
        "game": rules.key,
        "rules_version": rules.version,
        "options": dict(OPTIONS),
        "seats": {"blue": "human", "red": "ai:random"},
        "seed_sha256": hashlib.sha256(secret.encode()).hexdigest(),
    }
    opening = rules.setup(OPTIONS, rng)
    players = (("blue", "bench-player"), ("red", "ai:random"))
    joined = {"type": "seat_joined", "visible_to": "all", "nonce_sha256": None}
    joins = [{**joined, "seat": seat, "player": player} for seat, player in players]
    game = Recorded(seed, [("system", [created, *joins, *opening], None)])
    state = rules.fold(opening)
    all_events = list(opening)
    while due := rules.pending(state):
        seat = next(iter(due))
        command = rules.random_command(state, seat, rng)
        events = rules.decide(state, seat, command, rng)
        for event in events:
            state = rules.evolve(state, event)
        given = {"type": "command_given", "visible_to": seat, "seat": seat, "command": command}
        game.batches.append((seat, [given, *events], f"cmd-{len(game.batches)}"))
        all_events.extend(events)
    reveal = {"type": "seed_revealed", "visible_to": "all", "seed": secret, "nonces": {}}
    game.batches.append(("system", [reveal], None))
    # The same game as games.playout.play plays it, or this bench measures something else.
    assert all_events == play(rules, OPTIONS, random.Random(seed)).events
    return game


def fold_game(store: RedisEventStore, rules: Any, game_id: str) -> tuple[Any, int]:
    entries = store.read_for_fold(game_id)
    state = rules.fold([e.event() for e in entries if e.type not in SYSTEM_FIELDS])
    return state, len(entries)


def load_from_snapshot(store: RedisEventStore, rules: Any, game_id: str) -> tuple[Any, int]:
    snap = store.get_snapshot(game_id)
    if snap is None or snap.rules != rules_fingerprint(GAME, rules.version):
        raise RuntimeError(f"no usable snapshot for {game_id}")
    state = rules.load_state(snap.state)
    tail = store.read(game_id, after=snap.version)
    for env in tail:
        if env.type not in SYSTEM_FIELDS:
            state = rules.evolve(state, env.event())
    return state, len(tail)


class Bench:
    def __init__(self, client: redis.Redis, rules: Any, recorded: list[Recorded]) -> None:
        self.client = client
        self.rules = rules
        self.recorded = recorded
        self.tag = uuid.uuid4().hex[:8]
        self.store_ids: list[list[str]] = []  # per round, the game ids written by the store
        self.raw_keys: list[str] = []
        self.envelopes: dict[int, list[list[bytes]]] = {}  # seed -> per batch, stored bytes
        self.feeds_before = {p for p in range(16) if client.exists(feed_key(p))}

    def game_id(self, rnd: int, game: Recorded) -> str:
        return f"bench-{self.tag}-{rnd}-{game.seed}"

    def raw_key(self, rnd: int, game: Recorded) -> str:
        gid = self.game_id(rnd, game)
        return f"raw:{{p{partition_of(gid, 16)}}}:{gid}"

    # (a) ------------------------------------------------------------------------------
    def store_game(self, store: RedisEventStore, gid: str, game: Recorded) -> None:
        version = 0
        for actor, events, key in game.batches:
            version = store.append(gid, version, events, key, actor=actor)

    def raw_game(self, key: str, game: Recorded) -> None:
        seq = 0
        for batch in self.envelopes[game.seed]:
            pipe = self.client.pipeline(transaction=False)
            for fields in batch:
                seq += 1
                pipe.xadd(key, fields, id=f"{seq}-1")
            pipe.execute()

    def prepare(self) -> list[str]:
        """Round 0, untimed: store every game, keep the stored bytes for the raw side."""
        store = RedisEventStore(self.client)
        ids = [self.game_id(0, game) for game in self.recorded]
        for gid, game in zip(ids, self.recorded, strict=True):
            self.store_game(store, gid, game)
            stored = [f for _, f in self.client.xrange(store.key(gid, "events"))]
            per_batch, at = [], 0
            for _, events, _ in game.batches:
                per_batch.append(stored[at : at + len(events)])
                at += len(events)
            self.envelopes[game.seed] = per_batch
        self.store_ids.append(ids)
        return ids

    def append_round(self, rnd: int) -> tuple[float, float]:
        """Seconds (store, raw) for every game, the two sides interleaved game by game."""
        store = RedisEventStore(self.client)
        ids, store_t, raw_t = [], 0.0, 0.0
        for game in self.recorded:
            gid, key = self.game_id(rnd, game), self.raw_key(rnd, game)
            t0 = time.perf_counter()
            self.store_game(store, gid, game)
            t1 = time.perf_counter()
            self.raw_game(key, game)
            t2 = time.perf_counter()
            store_t, raw_t = store_t + t1 - t0, raw_t + t2 - t1
            ids.append(gid)
            self.raw_keys.append(key)
        self.store_ids.append(ids)
        return store_t, raw_t

    # (b) ------------------------------------------------------------------------------
    def fold_round(self, ids: list[str]) -> tuple[float, float, int]:
        """Seconds (store read + fold, raw XRANGE) and events, interleaved game by game."""
        store = RedisEventStore(self.client)  # fresh: cold game cache, as a new reader
        keys = [store.key(gid, "events") for gid in ids]
        fold_t = xrange_t = 0.0
        events = 0
        for gid, key in zip(ids, keys, strict=True):
            t0 = time.perf_counter()
            folded = fold_game(store, self.rules, gid)[1]
            t1 = time.perf_counter()
            fetched = len(self.client.xrange(key))
            t2 = time.perf_counter()
            fold_t, xrange_t = fold_t + t1 - t0, xrange_t + t2 - t1
            assert folded == fetched
            events += folded
        return fold_t, xrange_t, events

    # (c) ------------------------------------------------------------------------------
    def put_snapshots(self, ids: list[str]) -> int:
        """Snapshot each game before its last command batch; returns the tail length."""
        store = RedisEventStore(self.client)
        tails = []
        for game, gid in zip(self.recorded, ids, strict=True):
            # The tail: the last command's batch and the seed reveal.
            tail = sum(len(b) for _, b, _ in game.batches[-2:])
            envs = store.read(gid)
            version = len(envs) - tail
            state = self.rules.initial()
            for env in envs[:version]:
                if env.type not in SYSTEM_FIELDS:
                    state = self.rules.evolve(state, env.event())
            snap = Snapshot(
                version,
                rules=rules_fingerprint(GAME, self.rules.version),
                state=self.rules.dump_state(state),
            )
            store.put_snapshot(gid, snap)
            tails.append(tail)
        return round(statistics.mean(tails))

    def load_times(self, ids: list[str]) -> tuple[float, float, float]:
        """Mean ms per game: from scratch, from the snapshot (fresh store each pass), and
        as the write path and the projector load a game from scratch (``projector.load``:
        the system events too, the turns and clocks at the end of every append)."""
        stores = [RedisEventStore(self.client) for _ in range(3)]
        scratch, snap, projected = [], [], []
        for gid in ids:
            t0 = time.perf_counter()
            full, _ = fold_game(stores[0], self.rules, gid)
            t1 = time.perf_counter()
            fast, _ = load_from_snapshot(stores[1], self.rules, gid)
            t2 = time.perf_counter()
            game = load(stores[2], gid, use_snapshot=False)
            t3 = time.perf_counter()
            if self.rules.dump_state(full) != self.rules.dump_state(fast):
                raise AssertionError(f"{gid}: the snapshot load differs from the full fold")
            if self.rules.dump_state(full) != self.rules.dump_state(game.state):
                raise AssertionError(f"{gid}: the projector's load differs from the full fold")
            scratch.append(t1 - t0)
            snap.append(t2 - t1)
            projected.append(t3 - t2)
        return tuple(statistics.mean(t) * 1e3 for t in (scratch, snap, projected))

    # (d) ------------------------------------------------------------------------------
    def memory(self, ids: list[str], feed_bytes: int) -> dict[str, float]:
        store = RedisEventStore(self.client)
        parts: dict[str, list[int]] = {}
        for gid in ids:
            for part in ("events", "meta", "idem", "snap", "secret"):
                used = self.client.memory_usage(store.key(gid, part), samples=0)
                parts.setdefault(part, []).append(used or 0)
        out = {part: statistics.mean(values) for part, values in parts.items()}
        out["feed share"] = feed_bytes / sum(len(r) for r in self.store_ids)
        return out

    def feed_bytes(self) -> int:
        return sum(self.client.memory_usage(feed_key(p), samples=0) or 0 for p in range(16))

    def cleanup(self) -> None:
        store = RedisEventStore(self.client)
        keys = list(self.raw_keys)
        for ids in self.store_ids:
            for gid in ids:
                keys += [store.key(gid, p) for p in ("events", "meta", "idem", "snap", "secret")]
        for i in range(0, len(keys), 500):
            self.client.delete(*keys[i : i + 500])
        ours = f"bench-{self.tag}-".encode()
        for p in range(16):
            stale = [eid for eid, f in self.client.xrange(feed_key(p))
                     if f[b"game"].startswith(ours)]  # fmt: skip
            for i in range(0, len(stale), 500):
                self.client.xdel(feed_key(p), *stale[i : i + 500])
            if p not in self.feeds_before and self.client.xlen(feed_key(p)) == 0:
                self.client.delete(feed_key(p))


@contextlib.contextmanager
def redis_server() -> Iterator[tuple[str, str]]:
    url = os.environ.get("REDIS_URL")
    if url:
        yield url, "REDIS_URL"
        return
    with tempfile.TemporaryDirectory(prefix="bingfa-bench-") as tmp:
        server = start_redis(tmp)
        try:
            yield server.url, "bundled redis-server (AOF, appendfsync everysec)"
        finally:
            server.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.store", description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="recorded games per round")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds (summed)")
    parser.add_argument("--quick", action="store_true", help="40 games, 1 round")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.rounds = min(args.games, 40), 1
    rules = games.get(GAME)
    recorded = [record(rules, seed) for seed in range(args.games)]
    n_batches = sum(len(g.batches) for g in recorded)
    n_events = sum(g.events for g in recorded)

    with redis_server() as (url, where):
        client = redis.Redis.from_url(url)
        info = client.info("server")
        bench = Bench(client, rules, recorded)
        feed_before = bench.feed_bytes()
        try:
            ids = bench.prepare()  # also warms the script cache, the connection, the allocator
            append_t = [bench.append_round(rnd) for rnd in range(1, args.rounds + 1)]
            fold_t = []
            for _ in range(args.rounds):
                *times, events = bench.fold_round(ids)
                assert events == n_events
                fold_t.append(times)
            feed = bench.feed_bytes() - feed_before
            tail = bench.put_snapshots(ids)
            loads = [bench.load_times(ids) for _ in range(args.rounds)]
            scratch_ms = min(s for s, _, _ in loads)
            snap_ms = min(s for _, s, _ in loads)
            projector_ms = min(p for _, _, p in loads)
            memory = bench.memory(ids, feed)
        finally:
            bench.cleanup()
            client.close()

    # Sums over all rounds: the sides are interleaved game by game, so noise hits both.
    append_rate = n_batches * len(append_t) / sum(s for s, _ in append_t)
    raw_rate = n_batches * len(append_t) / sum(r for _, r in append_t)
    fold_rate = n_events * len(fold_t) / sum(f for f, _ in fold_t)
    xrange_rate = n_events * len(fold_t) / sum(x for _, x in fold_t)
    total_bytes = sum(memory.values())
    per_append = n_events / n_batches
    print(f"redis: {where}, redis-server {info['redis_version']}, one client, one connection")
    print(
        f"games: {args.games} random Sun Tzu games {OPTIONS}, {n_events / args.games:.1f} "
        f"events in {n_batches / args.games:.1f} appends each; {args.rounds} timed round(s), "
        "the two sides interleaved game by game"
    )
    print("(a) append, one round trip per batch on both sides")
    print("    store: RedisEventStore.append (schema check, hash chain, idempotency key per")
    print("           command, payloads packed, one EVALSHA: compare version and last hash,")
    print("           XADD each event, meta, idem, feed)")
    print("    raw:   pipeline(transaction=False), one XADD per event of the same envelope")
    print("           bytes with the same entry IDs, one execute per batch")
    print(
        f"    store {append_rate:,.0f} appends/s ({append_rate * per_append:,.0f} events/s), "
        f"raw {raw_rate:,.0f} batches/s ({raw_rate * per_append:,.0f} events/s)"
    )
    print("(b) fold: store.read_for_fold (XRANGE, unpack, decode, upcast) + rules.fold of the")
    print("    game events, a fresh store per round (cold game cache) vs XRANGE of the same")
    print("    streams")
    print(f"    store {fold_rate:,.0f} events/s, raw XRANGE {xrange_rate:,.0f} events/s")
    print(
        "(d) memory per finished game: "
        + ", ".join(f"{part} {value:,.0f} B" for part, value in memory.items())
    )
    print(
        f"(c) load a finished game, snapshot before its last command (tail {tail} events):"
        " get_snapshot + load_state + read(after) + fold tail, vs read + fold from scratch"
    )
    print("    projector_load_ms: events.projector.load from scratch (system events, turns and")
    print("    clocks at the end of every append), as the write path loads an unknown game")
    print(f"from_scratch_load_ms: {scratch_ms:.2f} ms")
    print(f"projector_load_ms: {projector_ms:.2f} ms")
    print(f"append_ratio_vs_raw_xadd: {append_rate / raw_rate:.2f}")
    print(f"fold_ratio_vs_raw_xrange: {fold_rate / xrange_rate:.2f}")
    print(f"snapshot_load_ms: {snap_ms:.2f} ms")
    print(f"redis_bytes_per_game: {total_bytes:.0f} B")


if __name__ == "__main__":
    main()
