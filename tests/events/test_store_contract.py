"""The event-store contract, run against every backend.

One suite, one ``store`` fixture over: the in-memory reference store; the Redis Streams
store on fakeredis; on the bundled real ``redis-server``; and on a real 3-master Redis
Cluster (keys of a game and its partition feed share a hash tag, so the append script
runs on one shard). Every game here is a real Sun Tzu game played by ``games.playout``.
"""

from __future__ import annotations

import functools
import random
import threading
import time
from collections import Counter

import pytest
from event_data import CREATED

import games
from events.codec import EventRejected
from events.envelope import GENESIS, SYSTEM, ChainError, verify_chain
from events.redis_store import RedisEventStore, feed_key, partition_of
from events.schemas import SYSTEM_FIELDS
from events.store import (
    ConcurrencyError,
    IdempotencyConflict,
    InMemoryEventStore,
    Snapshot,
    UnknownGame,
    fingerprint_of,
    rules_fingerprint,
)
from games.playout import play

RULES = games.get("sun-tzu")
BACKENDS = ["memory", "fakeredis", "redis", "cluster"]
REDIS_BACKENDS = ["fakeredis", "redis", "cluster"]


@functools.cache
def played(seed: int, options: tuple = (("events", True),)):
    """A finished Sun Tzu game (cached: treat it as read-only)."""
    return play(RULES, dict(options), random.Random(seed))


def game_events(seed: int = 1) -> list[dict]:
    return list(played(seed).events)


def make_store(request, backend: str):
    if backend == "memory":
        return InMemoryEventStore()
    if backend == "fakeredis":
        return RedisEventStore(request.getfixturevalue("fake_redis"))
    if backend == "redis":
        return RedisEventStore(request.getfixturevalue("redis_client"))
    if backend == "cluster":
        client = request.getfixturevalue("redis_cluster")
        client.flushall()  # RedisCluster sends FLUSHALL to every primary
        request.addfinalizer(client.flushall)
        return RedisEventStore(client)
    raise AssertionError(backend)


@pytest.fixture(params=BACKENDS)
def store(request):
    return make_store(request, request.param)


@pytest.fixture(params=REDIS_BACKENDS)
def redis_store(request):
    return make_store(request, request.param)


def seqs(store, game_id: str, after: int = 0) -> list[int]:
    return [env.seq for env in store.read(game_id, after=after)]


def snapshot_of(store, game_id: str):
    """Everything observable about one game, to show that a refused call wrote nothing."""
    return (
        store.version(game_id),
        [env.to_dict() for env in store.read(game_id)],
        store.game_of(game_id),
        sorted(store.game_ids()),
        feed_of(store, game_id),
    )


def feed_of(store, game_id: str) -> list[int]:
    """The versions the partition feed recorded for ``game_id``, in order."""
    if isinstance(store, InMemoryEventStore):
        return [seq for gid, seq in store.feed if gid == game_id]
    entries = store.redis.xrange(store.feed(game_id))
    return [int(f[b"seq"]) for _, f in entries if f[b"game"].decode() == game_id]


def create(store, game_id: str, more: list[dict] | None = None, **kw) -> int:
    return store.append(game_id, 0, [CREATED, *(more or [])], **kw)


# -- the first event ----------------------------------------------------------------------


def test_first_append_must_start_with_game_created(store):
    events = game_events()
    with pytest.raises(EventRejected, match="first event is game_created"):
        store.append("g1", 0, events[:3])
    with pytest.raises(EventRejected, match="first event is game_created"):
        store.append("g1", 0, [events[0], CREATED])
    with pytest.raises(EventRejected, match="no game called 'chess'"):
        store.append("g1", 0, [{**CREATED, "game": "chess"}])
    assert store.version("g1") == 0
    assert store.read("g1") == []
    assert store.game_of("g1") is None
    assert list(store.game_ids()) == []
    assert create(store, "g1") == 1
    assert store.game_of("g1") == "sun-tzu"


def test_append_to_a_game_that_does_not_exist(store):
    with pytest.raises(UnknownGame) as info:
        store.append("nope", 3, game_events()[:1])
    assert "nope" in str(info.value)
    assert store.version("nope") == 0
    assert store.read("nope") == []


# -- versions, sequence numbers, reads -------------------------------------------------


def test_append_returns_the_new_version_and_reads_follow(store):
    events = game_events()
    assert create(store, "g1", events[:10]) == 11
    assert store.version("g1") == 11
    assert store.append("g1", 11, events[10:15]) == 16
    assert store.append("g1", 16, events[15:16]) == 17
    assert store.version("g1") == 17
    assert seqs(store, "g1") == list(range(1, 18))
    assert seqs(store, "g1", after=11) == list(range(12, 18))
    assert seqs(store, "g1", after=16) == [17]
    assert store.read("g1", after=17) == []
    assert store.read("g1", after=100) == []
    assert [env.event() for env in store.read("g1", after=1)] == events[:16]
    assert [env.event() for env in store.read("g1", after=11)] == events[10:16]


def test_envelopes_carry_what_was_appended(store):
    events = game_events()
    create(store, "g1", actor=SYSTEM, at="2024-01-02T03:04:05.678Z")
    store.append("g1", 1, events[:4], actor="blue", at="2024-01-02T03:04:06.000Z")
    envs = store.read("g1")
    assert envs[0].event() == CREATED
    assert envs[0].actor == SYSTEM and envs[0].prev == GENESIS
    assert envs[0].at == "2024-01-02T03:04:05.678Z"
    for env, event in zip(envs[1:], events[:4], strict=True):
        assert env.event() == event
        assert env.type == event["type"] and env.visible_to == event["visible_to"]
        assert env.actor == "blue" and env.at == "2024-01-02T03:04:06.000Z"
        assert env.v == store.codec.version("sun-tzu", env.type)
    verify_chain(envs)


def test_at_defaults_to_utc_now(store):
    create(store, "g1")
    at = store.read("g1")[0].at
    assert at.endswith("Z") and "T" in at and len(at) == len("2024-01-02T03:04:05.678Z")


def test_non_ascii_text_round_trips_and_verifies(store):
    joined = {"type": "seat_joined", "visible_to": "all", "seat": "blue", "player": "孫武 «α»",
              "nonce_sha256": None}  # fmt: skip
    create(store, "g1", [joined])
    envs = store.read("g1")
    assert envs[1].event() == joined
    verify_chain(envs)


# -- all or nothing ------------------------------------------------------------------------


def _bad_events():
    events = game_events()
    good = events[5]
    return {
        "unknown type": {"type": "nuclear_strike", "visible_to": "all"},
        "missing field": {k: v for k, v in good.items() if k != list(good)[-1]},
        "wrong type": {"type": "round_started", "visible_to": "all", "round": "3"},
        "extra field": {**good, "cheat": True},
        "no type": {"visible_to": "all", "round": 1},
        "visible_to not a string": {**good, "visible_to": ["blue"]},
    }


@pytest.mark.parametrize("kind", list(_bad_events()))
@pytest.mark.parametrize("position", ["first", "middle", "last"])
def test_a_batch_with_one_bad_event_writes_nothing(store, kind, position):
    bad = _bad_events()[kind]
    events = game_events()
    create(store, "g1", events[:5])
    before = snapshot_of(store, "g1")
    batch = list(events[5:10])
    batch.insert({"first": 0, "middle": 2, "last": len(batch)}[position], bad)
    with pytest.raises(EventRejected):
        store.append("g1", 6, batch, "key-1")
    assert snapshot_of(store, "g1") == before
    assert store.idempotent("g1", "key-1") is None
    # and the same version is still free for a good batch
    assert store.append("g1", 6, events[5:10], "key-1") == 11
    verify_chain(store.read("g1"))


@pytest.mark.parametrize("kind", list(_bad_events()))
def test_a_first_batch_with_one_bad_event_creates_no_game(store, kind):
    bad = _bad_events()[kind]
    with pytest.raises(EventRejected):
        store.append("g1", 0, [CREATED, *game_events()[:3], bad])
    assert snapshot_of(store, "g1") == (0, [], None, [], [])


def test_an_empty_batch_is_refused(store):
    create(store, "g1")
    with pytest.raises(ValueError):
        store.append("g1", 1, [])
    with pytest.raises(ValueError):
        store.append("g1", True, game_events()[:1])
    assert store.version("g1") == 1


# -- optimistic concurrency -----------------------------------------------------------------


@pytest.mark.parametrize("expected", [0, 3, 5, 7, 10, 1000])
def test_a_wrong_expected_version_is_a_conflict_and_writes_nothing(store, expected):
    events = game_events()
    create(store, "g1", events[:5])
    before = snapshot_of(store, "g1")
    batch = [CREATED] if expected == 0 else events[5:8]
    with pytest.raises(ConcurrencyError) as info:
        store.append("g1", expected, batch, "k")
    assert (info.value.expected, info.value.actual, info.value.game_id) == (expected, 6, "g1")
    assert "version 6" in str(info.value)
    assert snapshot_of(store, "g1") == before
    assert store.idempotent("g1", "k") is None


# -- idempotency ----------------------------------------------------------------------------


def test_a_retry_with_the_same_key_returns_the_original_version(store):
    events = game_events()
    assert create(store, "g1", idempotency_key="create") == 1
    assert create(store, "g1", idempotency_key="create") == 1
    assert store.append("g1", 1, events[:3], "cmd-1", actor="blue") == 4
    before = snapshot_of(store, "g1")
    assert store.append("g1", 1, events[:3], "cmd-1", actor="blue") == 4
    assert snapshot_of(store, "g1") == before
    # the stream moves on; a late retry still answers the original version, writes nothing
    assert store.append("g1", 4, events[3:6], "cmd-2", actor="red") == 7
    assert store.append("g1", 7, events[6:7]) == 8
    before = snapshot_of(store, "g1")
    assert store.append("g1", 1, events[:3], "cmd-1", actor="blue") == 4
    assert store.append("g1", 4, events[3:6], "cmd-2", actor="red") == 7
    assert store.append("g1", 99, events[3:6], "cmd-2", actor="red") == 7
    assert create(store, "g1", idempotency_key="create") == 1
    assert snapshot_of(store, "g1") == before
    assert feed_of(store, "g1") == [1, 4, 7, 8]
    verify_chain(store.read("g1"))


def test_the_same_key_with_other_events_is_an_idempotency_conflict(store):
    events = game_events()
    create(store, "g1")
    store.append("g1", 1, events[:3], "cmd-1", actor="blue")
    before = snapshot_of(store, "g1")
    for other, actor in [(events[:2], "blue"), (events[3:6], "blue"), (events[:3], "red")]:
        with pytest.raises(IdempotencyConflict) as info:
            store.append("g1", 4, other, "cmd-1", actor=actor)
        assert info.value.key == "cmd-1" and "cmd-1" in str(info.value)
        assert snapshot_of(store, "g1") == before
    assert store.idempotent("g1", "cmd-1") == (fingerprint_of(events[:3], "blue"), 4)


def test_idempotent_lookup(store):
    events = game_events()
    assert store.idempotent("g1", "k") is None
    create(store, "g1", idempotency_key="k0")
    store.append("g1", 1, events[:2], "k1", actor="red")
    store.append("g1", 3, events[2:4], "k2", fingerprint="command-digest")
    store.append("g1", 5, events[4:5])
    assert store.idempotent("g1", "k0") == (fingerprint_of([CREATED], SYSTEM), 1)
    assert store.idempotent("g1", "k1") == (fingerprint_of(events[:2], "red"), 3)
    assert store.idempotent("g1", "k2") == ("command-digest", 5)
    assert store.idempotent("g1", "k3") is None
    assert store.idempotent("g2", "k1") is None
    # an explicit fingerprint decides what counts as the same command
    assert store.append("g1", 5, events[7:9], "k2", fingerprint="command-digest") == 5
    with pytest.raises(IdempotencyConflict):
        store.append("g1", 6, events[2:4], "k2", fingerprint="another")
    assert store.version("g1") == 6


def test_idempotency_keys_belong_to_one_game(store):
    events = game_events()
    create(store, "g1", idempotency_key="k")
    assert create(store, "g2", events[:2], idempotency_key="k") == 3
    assert store.append("g1", 1, events[:1], "k2") == 2
    assert store.append("g2", 3, events[2:5], "k2") == 6
    assert store.idempotent("g1", "k2") == (fingerprint_of(events[:1], SYSTEM), 2)
    assert store.idempotent("g2", "k2") == (fingerprint_of(events[2:5], SYSTEM), 6)


def test_a_fingerprint_may_contain_any_character(store):
    """A caller-chosen fingerprint (say "place|blue|3") is opaque to the store.

    BUG (RedisEventStore): the Lua script splits the stored "<fingerprint>|<version>" at
    the *first* "|" (``string.find``) while ``idempotent`` splits at the last one
    (``rpartition``). A fingerprint with a "|" never matches itself in the script, so a
    genuine retry is answered ``{'idem', 'blue|{Qin: 3}|4'}`` and ``_write`` dies in
    ``int(b'blue|{Qin: 3}|4')`` with a ValueError instead of returning the original version
    (and a different command with such a key would crash the same way, not conflict).
    """
    events = game_events()
    create(store, "g1")
    fp = "place|blue|{Qin: 3}"
    assert store.append("g1", 1, events[:3], "cmd", fingerprint=fp) == 4
    assert store.idempotent("g1", "cmd") == (fp, 4)
    assert store.append("g1", 1, events[:3], "cmd", fingerprint=fp) == 4
    with pytest.raises(IdempotencyConflict):
        store.append("g1", 4, events[:3], "cmd", fingerprint="place|blue|{Qin: 4}")
    assert store.version("g1") == 4


def test_an_empty_idempotency_key_is_never_silently_ignored(store):
    """``""`` is either refused up front or honoured like any other key.

    BUG (RedisEventStore): the script uses ``''`` as "no key", so an append with key ``""``
    records nothing and its retry is a ConcurrencyError, while the reference store
    (InMemoryEventStore) records ``""`` and answers the retry with the original version.
    """
    try:
        v = create(store, "g1", idempotency_key="")
    except ValueError:
        assert store.version("g1") == 0
        return
    assert v == 1
    assert store.idempotent("g1", "") == (fingerprint_of([CREATED], SYSTEM), 1)
    assert create(store, "g1", idempotency_key="") == 1


# -- the hash chain and the fold --------------------------------------------------------------


def append_in_batches(store, game_id: str, events: list[dict], rng: random.Random) -> int:
    version = create(store, game_id)
    i = 0
    while i < len(events):
        n = rng.choice([1, 1, 2, 3, 5, 8, 13])
        actor = rng.choice(["blue", "red", SYSTEM])
        version = store.append(game_id, version, events[i : i + n], f"cmd-{i}", actor=actor)
        i += n
    return version


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_hash_chain_verifies_over_a_whole_game_in_batches(store, seed):
    events = game_events(seed)
    version = append_in_batches(store, "g1", events, random.Random(seed))
    assert version == len(events) + 1
    envs = store.read("g1")
    assert [e.seq for e in envs] == list(range(1, version + 1))
    verify_chain(envs)
    for k in (1, 7, version - 1):  # a tail verifies from the hash before it
        verify_chain(store.read("g1", after=k), prev=envs[k - 1].hash, first_seq=k + 1)
    with pytest.raises(ChainError):
        verify_chain(store.read("g1", after=5))  # a tail is not a whole history


@pytest.mark.parametrize(
    "seed,options",
    [(1, {"events": True}), (2, {"events": False}), (3, {"variant": "beginner"}),
     (4, {"variant": "standard", "events": True})],
)  # fmt: skip
def test_folding_what_was_read_reproduces_the_game(store, seed, options):
    game = play(RULES, options, random.Random(seed))
    append_in_batches(store, "g1", game.events, random.Random(seed))
    game_events_read = [env.event() for env in store.read("g1") if env.type not in SYSTEM_FIELDS]
    assert game_events_read == game.events
    state = RULES.fold(game_events_read)
    assert RULES.dump_state(state) == RULES.dump_state(game.state)
    assert RULES.outcome(state) == game.outcome is not None


# -- snapshots, secrets, listing --------------------------------------------------------------


def test_snapshots_and_secrets_round_trip(store):
    game = played(1)
    create(store, "g1", game.events[:20])
    create(store, "g2")
    assert store.get_snapshot("g1") is None and store.get_secret("g1") is None
    rules = rules_fingerprint("sun-tzu", RULES.version)
    early = Snapshot(21, rules, RULES.dump_state(RULES.fold(game.events[:20])))
    store.put_snapshot("g1", early)
    store.put_secret("g1", "seed-⚔-" + "f" * 64)
    assert store.get_snapshot("g1") == early
    assert store.get_secret("g1") == "seed-⚔-" + "f" * 64
    assert RULES.dump_state(RULES.load_state(store.get_snapshot("g1").state)) == early.state
    late = Snapshot(len(game.events) + 1, rules, RULES.dump_state(game.state))
    store.put_snapshot("g1", late)
    store.put_secret("g1", "another")
    assert store.get_snapshot("g1") == late
    assert store.get_secret("g1") == "another"
    assert store.get_snapshot("g2") is None and store.get_secret("g2") is None
    assert store.version("g1") == 21  # snapshots and secrets are not events


def test_a_claimed_secret_is_kept_once_and_given_back_only_by_its_claimant(store):
    create(store, "g1")
    assert store.claim_secret("g1", "making:a", "next", 60_000)
    assert not store.claim_secret("g1", "making:b", "next", 60_000)  # one claim wins
    assert store.get_secret("g1", "next") == "making:a"
    assert not store.drop_secret("g1", "next", "making:b")  # not theirs to give back
    assert store.drop_secret("g1", "next", "making:a")
    assert store.get_secret("g1", "next") is None
    assert store.claim_secret("g1", "making:b", "next", 60_000)
    store.put_secret("g1", "the-game", "next")  # kept for good: the claim's lease is over
    assert not store.drop_secret("g1", "next", "making:b")
    assert not store.claim_secret("g1", "making:c", "next", 60_000)
    assert store.get_secret("g1", "next") == "the-game"
    # a claim whose lease ran out (its claimant died) is free again
    assert store.claim_secret("g1", "making:d", "later", 1)
    time.sleep(0.05)
    assert store.get_secret("g1", "later") is None
    assert store.claim_secret("g1", "making:e", "later", 60_000)


def test_game_ids_and_game_of(store):
    assert list(store.game_ids()) == []
    ids = [f"game-{i}" for i in range(12)] + ["草", "a:b", "x{p1}y"]
    events = game_events()
    for i, game_id in enumerate(ids):
        create(store, game_id, events[: i % 4])
        if i % 3 == 0:
            store.append(game_id, store.version(game_id), events[4:6])
    listed = list(store.game_ids())
    assert sorted(listed) == sorted(ids) and len(listed) == len(ids)
    assert all(store.game_of(game_id) == "sun-tzu" for game_id in ids)
    assert store.game_of("missing") is None
    with pytest.raises(EventRejected):
        store.append("rejected", 0, events[:1])
    assert sorted(store.game_ids()) == sorted(ids)


def test_two_games_do_not_interfere(store):
    a, b = game_events(1), game_events(2)
    create(store, "A", idempotency_key="same")
    create(store, "B", idempotency_key="same")
    va = vb = 1
    for i in range(0, 30, 3):
        va = store.append("A", va, a[i : i + 3], f"k{i}")
        vb = store.append("B", vb, b[i : i + 3], f"k{i}")
    with pytest.raises(ConcurrencyError):
        store.append("A", vb - 3, a[30:31])
    assert store.version("A") == store.version("B") == 31
    assert [e.event() for e in store.read("A")][1:] == a[:30]
    assert [e.event() for e in store.read("B")][1:] == b[:30]
    verify_chain(store.read("A"))
    verify_chain(store.read("B"))
    assert store.read("A")[5].hash != store.read("B")[5].hash
    store.put_secret("A", "sa")
    store.put_snapshot("B", Snapshot(31, "r", "s"))
    assert store.get_secret("B") is None and store.get_snapshot("A") is None
    assert feed_of(store, "A") == feed_of(store, "B") == [1, *range(4, 32, 3)]


def test_the_feed_has_one_entry_per_successful_append(store):
    events = game_events()
    create(store, "g1", events[:2], idempotency_key="c")
    create(store, "g1", events[:2], idempotency_key="c")  # a retry: no new entry
    with pytest.raises(ConcurrencyError):
        store.append("g1", 1, events[2:3])
    with pytest.raises(EventRejected):
        store.append("g1", 3, [{"type": "nope"}])
    store.append("g1", 3, events[2:5])
    assert feed_of(store, "g1") == [3, 6]


# -- concurrent writers ------------------------------------------------------------------------


def run_threads(n: int, target) -> None:
    errors: list[BaseException] = []

    def guarded(i):
        try:
            target(i)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "a writer thread hung"
    assert not errors, errors


def test_racing_writers_at_the_same_version_exactly_one_wins(store):
    writers, rounds = 6, 15
    events = game_events()
    create(store, "g1")
    start = threading.Barrier(writers)
    go = threading.Barrier(writers)
    wins: list[tuple[int, int, int]] = []  # (expected, writer, new version)
    losses: list[tuple[int, int]] = []
    lock = threading.Lock()

    def writer(i):
        for r in range(rounds):
            start.wait(30)
            expected = store.version("g1")
            go.wait(30)
            batch = events[2 * r : 2 * r + 2]
            try:
                new = store.append("g1", expected, batch, f"w{i}-r{r}", actor=f"w{i}")
            except ConcurrencyError as exc:
                with lock:
                    losses.append((expected, exc.actual))
            else:
                with lock:
                    wins.append((expected, i, new))

    run_threads(writers, writer)
    per_version = Counter(expected for expected, _, _ in wins)
    assert sorted(per_version) == list(range(1, 2 * rounds, 2))
    assert set(per_version.values()) == {1}, per_version
    assert len(losses) == (writers - 1) * rounds
    assert all(actual > expected for expected, actual in losses)
    envs = store.read("g1")
    assert [e.seq for e in envs] == list(range(1, 2 * rounds + 2))
    verify_chain(envs)
    for expected, i, new in wins:
        assert new == expected + 2
        assert {envs[k].actor for k in (expected, expected + 1)} == {f"w{i}"}
    assert [e.event() for e in envs[1:]] == events[: 2 * rounds]


def test_writers_that_retry_on_conflict_lose_nothing_and_duplicate_nothing(store):
    writers, each = 5, 12
    create(store, "g1")
    go = threading.Barrier(writers)

    def joined(i, j):
        return {"type": "seat_joined", "visible_to": "all", "seat": "blue",
                "player": f"w{i}-{j}", "nonce_sha256": None}  # fmt: skip

    def writer(i):
        go.wait(30)
        for j in range(each):
            while True:
                version = store.version("g1")
                try:
                    store.append("g1", version, [joined(i, j)], f"w{i}-{j}", actor=f"w{i}")
                    break
                except ConcurrencyError:
                    continue

    run_threads(writers, writer)
    envs = store.read("g1")
    assert store.version("g1") == 1 + writers * each
    assert [e.seq for e in envs] == list(range(1, 2 + writers * each))
    verify_chain(envs)
    players = [e.payload["player"] for e in envs[1:]]
    assert sorted(players) == sorted(f"w{i}-{j}" for i in range(writers) for j in range(each))
    for i in range(writers):  # each writer's events in its own order
        mine = [p for p in players if p.startswith(f"w{i}-")]
        assert mine == [f"w{i}-{j}" for j in range(each)]
    assert len(feed_of(store, "g1")) == 1 + writers * each


# -- Redis specifics: one slot per game, the script cache ----------------------------------------


def test_every_key_of_a_game_and_its_feed_share_one_slot(redis_store):
    from redis.cluster import key_slot

    for game_id in ["g1", "g2", "草", "x{p1}y", "a" * 200]:
        p = partition_of(game_id, redis_store.partitions)
        keys = [redis_store.key(game_id, part)
                for part in ("events", "meta", "idem", "snap", "secret")]  # fmt: skip
        keys.append(redis_store.feed(game_id))
        assert redis_store.feed(game_id) == feed_key(p) == f"feed:{{p{p}}}"
        assert all(f"{{p{p}}}" in key for key in keys)
        assert len({key_slot(key.encode()) for key in keys}) == 1, keys


def test_the_append_script_survives_a_script_cache_flush(redis_store):
    events = game_events()
    create(redis_store, "g1")
    redis_store.redis.script_flush()  # a restart or failover empties the script cache
    assert redis_store.append("g1", 1, events[:3], "k") == 4
    redis_store.redis.script_flush()
    assert redis_store.append("g1", 1, events[:3], "k") == 4
    verify_chain(redis_store.read("g1"))


def test_games_spread_over_every_cluster_node(request):
    """The cluster really is three shards, and games on each of them work."""
    store = make_store(request, "cluster")
    client = store.redis
    ids = [f"game-{i}" for i in range(40)]
    events = game_events()
    for game_id in ids:
        create(store, game_id, events[:3])
    nodes = {client.get_node_from_key(store.key(game_id, "events")).name for game_id in ids}
    assert len(nodes) == 3
    assert len(client.get_primaries()) == 3
    assert sorted(store.game_ids()) == sorted(ids)
    for game_id in ids:
        verify_chain(store.read(game_id))


def test_connect_gives_a_cluster_client_for_a_cluster_url(redis_cluster):
    from redis.cluster import RedisCluster

    from events.redis_store import connect

    node = redis_cluster.get_default_node()
    client = connect(f"redis+cluster://{node.host}:{node.port}/0")
    try:
        assert isinstance(client, RedisCluster)
        store = RedisEventStore(client)
        store.append("via-url", 0, [CREATED])
        assert store.version("via-url") == 1
    finally:
        client.close()
