"""Faults against the real bundled ``redis-server``: racing writers, retried commands,
a Redis killed or stopped mid-game and restarted from its AOF, and refused batches.

Each check reads Redis back directly (XRANGE, HGETALL, KEYS) rather than trusting the
store's own answers, and ends by verifying the hash chain of what is stored.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections import Counter

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from events.codec import EventRejected
from events.embedded import start_redis
from events.envelope import Envelope, verify_chain
from events.redis_store import RedisEventStore, envelopes_of, feed_key, partition_of
from events.store import ConcurrencyError, IdempotencyConflict

CREATED = {
    "type": "game_created",
    "visible_to": "all",
    "game": "sun-tzu",
    "rules_version": "1",
    "options": {"events": True},
    "seats": {"blue": "human", "red": "ai:random"},
    "seed_sha256": "cd" * 32,
}


def tagged(tag: str) -> dict:
    """A valid event that carries ``tag``, so each write can be found again."""
    return {"type": "seat_joined", "visible_to": "all", "seat": "blue", "player": tag,
            "nonce_sha256": None}  # fmt: skip


def stored(client: redis.Redis, store: RedisEventStore, game_id: str) -> list[Envelope]:
    """The game's events as Redis holds them, entry IDs checked against ``seq``."""
    entries = client.xrange(store.key(game_id, "events"))
    out = envelopes_of(entries, game=store.game_of(game_id))
    for (entry_id, _), env in zip(entries, out, strict=True):
        assert entry_id == f"{env.seq}-1".encode(), "entry ID and seq disagree"
    return out


def feed_entries(client: redis.Redis, store: RedisEventStore, game_id: str) -> list[int]:
    key = feed_key(partition_of(game_id, store.partitions))
    return [int(f[b"seq"]) for _, f in client.xrange(key) if f[b"game"] == game_id.encode()]


def assert_consistent(client: redis.Redis, store: RedisEventStore, game_id: str) -> list:
    """Stream = seq 1..N with no gap or duplicate, chain verifies, meta and feed agree."""
    envs = stored(client, store, game_id)
    assert [e.seq for e in envs] == list(range(1, len(envs) + 1))
    verify_chain(envs)
    meta = client.hgetall(store.key(game_id, "meta"))
    assert int(meta[b"version"]) == len(envs)
    assert meta[b"last_hash"].decode() == envs[-1].hash
    feed = feed_entries(client, store, game_id)
    assert feed == sorted(feed) and len(set(feed)) == len(feed)
    assert feed[-1] == len(envs)
    return envs


# -- (i) racing writers -----------------------------------------------------------------


@pytest.mark.parametrize("shared_store", [False, True], ids=["store-per-thread", "one-store"])
def test_racing_writers_leave_a_gapless_chain_with_every_acknowledged_append_once(
    redis_client, shared_store
):
    threads, attempts = 8, 50
    game_id = "race"
    shared = RedisEventStore(redis_client)
    shared.append(game_id, 0, [CREATED])
    acknowledged: list[tuple[str, int, int]] = []  # (thread:attempt, new version, size)
    conflicts = Counter()
    errors: list[BaseException] = []
    lock = threading.Lock()
    start = threading.Barrier(threads)

    def writer(t: int) -> None:
        try:
            store = shared if shared_store else RedisEventStore(redis_client)
            rng = random.Random(t)
            start.wait()
            for i in range(attempts):
                size = rng.randint(1, 3)
                batch = [tagged(f"{t}:{i}:{j}") for j in range(size)]
                while True:
                    version = store.version(game_id)  # what the writer last read
                    try:
                        new = store.append(game_id, version, batch, actor="blue")
                    except ConcurrencyError as error:
                        assert error.expected == version < error.actual
                        with lock:
                            conflicts[t] += 1
                        continue
                    assert new == version + size
                    with lock:
                        acknowledged.append((f"{t}:{i}", new, size))
                    break
        except BaseException as error:  # surfaced below: a thread must not fail quietly
            errors.append(error)

    workers = [threading.Thread(target=writer, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
    assert not errors, errors
    assert len(acknowledged) == threads * attempts
    assert sum(conflicts.values()) > 0, "the writers never raced: the test proves nothing"

    envs = assert_consistent(redis_client, shared, game_id)
    total = 1 + sum(size for _, _, size in acknowledged)
    assert len(envs) == total
    tags = Counter(e.payload["player"] for e in envs[1:])
    assert set(tags.values()) == {1}, "an event was written twice"
    by_seq = {e.seq: e for e in envs}
    for attempt, version, size in acknowledged:
        # the whole batch sits exactly where the acknowledgement said, in order
        batch = [by_seq[version - size + 1 + j].payload["player"] for j in range(size)]
        assert batch == [f"{attempt}:{j}" for j in range(size)]
    assert len(feed_entries(redis_client, shared, game_id)) == 1 + len(acknowledged)


def test_writers_racing_for_the_same_version_exactly_one_wins_each_round(redis_client):
    threads, rounds = 8, 20
    game_id = "duel"
    store = RedisEventStore(redis_client)
    store.append(game_id, 0, [CREATED])
    barrier = threading.Barrier(threads)
    results: list[list[str]] = [[] for _ in range(rounds)]
    errors: list[BaseException] = []

    def writer(t: int) -> None:
        own = RedisEventStore(redis_client)
        try:
            for r in range(rounds):
                barrier.wait()  # everyone has read version r + 1 ...
                try:
                    own.append(game_id, r + 1, [tagged(f"{r}:{t}")], actor="red")
                    results[r].append("won")
                except ConcurrencyError as error:
                    assert (error.expected, error.actual) == (r + 1, r + 2)
                    results[r].append("conflict")
                barrier.wait()  # ... and nobody starts the next round early
        except BaseException as error:
            errors.append(error)
            barrier.abort()

    workers = [threading.Thread(target=writer, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
    assert not errors, errors
    for r in range(rounds):
        assert Counter(results[r]) == {"won": 1, "conflict": threads - 1}, f"round {r}"
    envs = assert_consistent(redis_client, store, game_id)
    assert len(envs) == 1 + rounds


# -- (ii) one command retried from several places at once ---------------------------------


def test_the_same_idempotency_key_from_many_threads_writes_one_batch(redis_client):
    threads = 8
    game_id = "retry"
    store = RedisEventStore(redis_client)
    store.append(game_id, 0, [CREATED])
    batch = [tagged("once:0"), tagged("once:1"), tagged("once:2")]
    barrier = threading.Barrier(threads)
    returned: list[int] = []
    errors: list[BaseException] = []

    def client_retrying(t: int) -> None:
        own = RedisEventStore(redis_client)
        try:
            barrier.wait()
            # Half of them retry with what they read before (version 1), half re-read first:
            # a retry must come back with the original version whatever it expects.
            expected = 1 if t % 2 == 0 else own.version(game_id)
            for _ in range(3):
                returned.append(own.append(game_id, expected, batch, "cmd-42", actor="blue"))
        except BaseException as error:
            errors.append(error)

    workers = [threading.Thread(target=client_retrying, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(30)
    assert not errors, errors
    assert returned == [4] * (threads * 3)
    envs = assert_consistent(redis_client, store, game_id)
    assert [e.payload["player"] for e in envs[1:]] == ["once:0", "once:1", "once:2"]
    assert len(feed_entries(redis_client, store, game_id)) == 2
    assert redis_client.hlen(store.key(game_id, "idem")) == 1

    # Much later, after other moves, the same retry still writes nothing.
    store.append(game_id, 4, [tagged("later")])
    assert store.append(game_id, 1, batch, "cmd-42", actor="blue") == 4
    assert len(stored(redis_client, store, game_id)) == 5


def test_one_key_for_two_different_commands_at_once_keeps_only_the_first(redis_client):
    threads = 8
    game_id = "clash"
    store = RedisEventStore(redis_client)
    store.append(game_id, 0, [CREATED])
    commands = {0: [tagged("left")], 1: [tagged("right")]}
    barrier = threading.Barrier(threads)
    outcome: dict[int, list] = {0: [], 1: []}
    errors: list[BaseException] = []

    def sender(t: int) -> None:
        own = RedisEventStore(redis_client)
        try:
            barrier.wait()
            try:
                outcome[t % 2].append(own.append(game_id, 1, commands[t % 2], "k", actor="red"))
            except IdempotencyConflict:
                outcome[t % 2].append("refused")
        except BaseException as error:
            errors.append(error)

    workers = [threading.Thread(target=sender, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(30)
    assert not errors, errors
    envs = assert_consistent(redis_client, store, game_id)
    assert len(envs) == 2
    winner = 0 if envs[1].payload["player"] == "left" else 1
    assert outcome[winner] == [2] * (threads // 2)
    assert outcome[1 - winner] == ["refused"] * (threads // 2)


# -- (iii) Redis dies or stops mid-game; AOF brings back every acknowledged event -----------


def _write_until_stopped(url: str, game_id: str, log: dict, stop: threading.Event) -> None:
    """Append 3-event batches with idempotency keys until Redis goes away."""
    # No client-side retry: the point is what the writer was told before Redis went away.
    client = redis.Redis.from_url(url, socket_timeout=5, retry=Retry(NoBackoff(), 0))
    store = RedisEventStore(client)
    version = store.append(game_id, 0, [CREATED], "create")
    log["acked"].append(("create", version, 1))
    i = 0
    try:
        while not stop.is_set():
            batch = [tagged(f"{i}:{j}") for j in range(3)]
            log["in_flight"] = (f"cmd-{i}", batch)
            version = store.append(game_id, version, batch, f"cmd-{i}", actor="blue")
            log["acked"].append((f"cmd-{i}", version, 3))
            log["in_flight"] = None
            i += 1
    except (redis.ConnectionError, redis.TimeoutError, ConnectionError) as error:
        log["lost_with"] = error  # the reply to the in-flight batch never came
    finally:
        client.close()


@pytest.mark.parametrize(
    ("appendfsync", "how"),
    [("always", "kill -9"), ("everysec", "SIGTERM"), ("everysec", "SHUTDOWN")],
)
def test_every_acknowledged_event_survives_a_redis_restart(tmp_path, appendfsync, how):
    data = tmp_path / "redis"
    server = start_redis(data, appendfsync=appendfsync)
    game_id = "durable"
    log: dict = {"acked": [], "in_flight": None, "lost_with": None}
    stop = threading.Event()
    writer = threading.Thread(target=_write_until_stopped, args=(server.url, game_id, log, stop))
    try:
        writer.start()
        deadline = time.monotonic() + 20
        while len(log["acked"]) < 40 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(log["acked"]) >= 40, "the writer did not get going"
        # Redis goes away while the writer is still appending.
        if how == "kill -9":
            server.kill()
        elif how == "SIGTERM":
            server.stop()
        else:
            admin = redis.Redis.from_url(server.url)
            with contextlib.suppress(redis.ConnectionError):
                admin.shutdown()  # SHUTDOWN: Redis fsyncs the AOF, then exits
            admin.close()
            server.process.wait(10)
        writer.join(10)
        assert not writer.is_alive()
        assert log["lost_with"] is not None
        port = server.port
        server = start_redis(data, port=port, appendfsync=appendfsync)
        client = redis.Redis.from_url(server.url)
        store = RedisEventStore(client)
        envs = assert_consistent(client, store, game_id)

        acked_events = sum(size for _, _, size in log["acked"])
        in_flight = log["in_flight"]
        # Every acknowledged batch is there; the one whose reply was lost is there whole
        # or not at all (the script's writes reach the AOF as one MULTI/EXEC).
        assert len(envs) in (acked_events, acked_events + (3 if in_flight else 0))
        for key, version, size in log["acked"]:
            assert store.idempotent(game_id, key)[1] == version
            if size == 3:
                i = key.removeprefix("cmd-")
                assert [e.payload["player"] for e in envs[version - 3 : version]] == [
                    f"{i}:{j}" for j in range(3)
                ]
        # The writer retries the lost command with its key: written once, never twice.
        if in_flight is not None:
            key, batch = in_flight
            version = store.append(game_id, acked_events, batch, key, actor="blue")
            assert version == acked_events + 3
        # And the game goes on from where Redis says it is, chain intact.
        new = store.append(game_id, store.version(game_id), [tagged("after")], actor="red")
        envs = assert_consistent(client, store, game_id)
        assert new == len(envs) == acked_events + (4 if in_flight else 1)
        client.close()
    finally:
        stop.set()
        writer.join(10)
        server.stop()


def test_a_writer_whose_last_append_redis_lost_is_refused_then_recovers(redis_client):
    """With ``appendfsync everysec`` a machine crash may lose the last second of writes.
    A writer that still remembers its own lost append must not chain onto it (the script
    compares the last hash, not only the version), and reloading must get it going again."""
    a, b = RedisEventStore(redis_client), RedisEventStore(redis_client)
    game_id = "lost"
    a.append(game_id, 0, [CREATED])
    keys = [a.key(game_id, "events"), a.key(game_id, "meta"), a.feed(game_id)]
    saved = {key: redis_client.dump(key) for key in keys}  # what reached the disk
    a.append(game_id, 1, [tagged("a1"), tagged("a2")], actor="blue")
    for key, value in saved.items():  # Redis restarts from the older AOF ...
        redis_client.restore(key, 0, value, replace=True)
    b.append(game_id, 1, [tagged("b1"), tagged("b2")], actor="red")  # ... others move on

    assert a.version(game_id) == 3
    with pytest.raises(ConcurrencyError):
        a.append(game_id, 3, [tagged("a3")], actor="blue")  # a stale tip at the same version
    envs = assert_consistent(redis_client, b, game_id)
    assert [e.payload["player"] for e in envs[1:]] == ["b1", "b2"]

    # Reload (the version, as any writer does) and try again: it must go through.
    version = a.version(game_id)
    assert a.append(game_id, version, [tagged("a3")], actor="blue") == 4
    envs = assert_consistent(redis_client, b, game_id)
    assert [e.payload["player"] for e in envs[1:]] == ["b1", "b2", "a3"]


# -- (iv) a refused batch writes nothing ------------------------------------------------------


def test_a_new_game_whose_batch_holds_an_invalid_event_creates_no_key(redis_client):
    store = RedisEventStore(redis_client)
    bad_batches = [
        [CREATED, {"type": "round_started", "visible_to": "all", "round": "two"}],
        [CREATED, tagged("ok"), {"type": "no_such_event", "visible_to": "all"}],
        [CREATED, {"type": "seat_joined", "visible_to": "all", "seat": "blue", "x": 1}],
        [{**CREATED, "seeds": 3}],
        [tagged("not first")],
    ]
    for i, batch in enumerate(bad_batches):
        with pytest.raises(EventRejected):
            store.append(f"new-{i}", 0, batch, f"key-{i}")
    assert redis_client.keys("*") == []
    assert redis_client.dbsize() == 0


def test_an_invalid_event_or_a_stale_version_changes_nothing_in_an_existing_game(redis_client):
    store = RedisEventStore(redis_client)
    game_id = "existing"
    store.append(game_id, 0, [CREATED])
    store.append(game_id, 1, [tagged("a"), tagged("b")], "k1", actor="blue")

    def dump() -> dict:
        return {key: redis_client.dump(key) for key in sorted(redis_client.keys("*"))}

    before = dump()
    with pytest.raises(EventRejected):
        store.append(game_id, 3, [tagged("c"), {"type": "round_started", "round": None}], "k2")
    with pytest.raises(ConcurrencyError):
        store.append(game_id, 1, [tagged("stale")], "k3")
    with pytest.raises(IdempotencyConflict):
        store.append(game_id, 3, [tagged("other")], "k1", actor="blue")
    assert dump() == before
    envs = assert_consistent(redis_client, store, game_id)
    assert len(envs) == 3
