"""Read models (lobby, each player's games, finished index) and the projector process.

Pure tests of the entries first; then real games played through ``events.writepath`` on
fakeredis, the bundled redis-server and a real Redis Cluster: the projector's incremental
models are right, re-deliveries change nothing, a rebuild gives the same models, entries
of a dead consumer are claimed, and a projector process killed with SIGKILL and restarted
catches up.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from events.projector import load
from events.projector_process import GROUP, Projector, ensure_groups, run
from events.readmodels import (
    FINISHED,
    WAITING,
    YOUR_TURN,
    Keys,
    ReadModels,
    entries_for,
    entries_from_envelopes,
    epoch_ms,
)
from events.redis_store import RedisEventStore, feed_key
from events.store import InMemoryEventStore
from events.writepath import WritePath
from service import cli

ROOT = Path(__file__).resolve().parents[2]
PARTITIONS = 8
HUMANS = {"blue": "human", "red": "human"}


# -- helpers ---------------------------------------------------------------------------
def advance(bingfa: WritePath, game_id: str, rng: random.Random, moves: int | None = None) -> None:
    """Play ``moves`` random commands (None: to the end), always for a seat that owes one."""
    done = 0
    while moves is None or done < moves:
        game = load(bingfa.store, game_id)
        if game.outcome is not None or not game.pending:
            return
        seat = sorted(game.pending)[0]
        bingfa.submit(game_id, seat, game.rules.random_command(game.state, seat, rng))
        done += 1


def populate(bingfa: WritePath, rng: random.Random, step=lambda: None) -> dict[str, str]:
    """A mix of games in every stage; ``step`` runs between writes (to project as we go)."""
    g = {}
    g["open"] = bingfa.create_game("sun-tzu", {"variant": "beginner"}, HUMANS)
    step()
    bingfa.join(g["open"], "blue", player="ann")
    step()
    g["open_ai"] = bingfa.create_game("sun-tzu", {}, {"blue": "human", "red": "ai:1"})
    step()
    g["mid"] = bingfa.create_game("sun-tzu", {}, HUMANS)
    bingfa.join(g["mid"], "blue", player="ann")
    step()
    bingfa.join(g["mid"], "red", player="bo")
    step()
    for _ in range(3):
        advance(bingfa, g["mid"], rng, 2)
        step()
    g["mid_ai"] = bingfa.create_game("sun-tzu", {}, {"blue": "human", "red": "ai:2"})
    bingfa.join(g["mid_ai"], "blue", player="cy")
    advance(bingfa, g["mid_ai"], rng, 3)
    step()
    g["both"] = bingfa.create_game("sun-tzu", {}, HUMANS)  # one player on both seats
    bingfa.join(g["both"], "blue", player="di")
    bingfa.join(g["both"], "red", player="di")
    advance(bingfa, g["both"], rng, 1)
    step()
    g["done"] = bingfa.create_game("sun-tzu", {}, HUMANS)
    bingfa.join(g["done"], "blue", player="ann")
    bingfa.join(g["done"], "red", player="cy")
    while load(bingfa.store, g["done"]).outcome is None:
        advance(bingfa, g["done"], rng, 15)
        step()
    g["done_ai"] = bingfa.create_game("sun-tzu", {}, {"blue": "ai:1", "red": "human"})
    bingfa.join(g["done_ai"], "red", player="bo")
    advance(bingfa, g["done_ai"], rng)
    step()
    g["anon"] = bingfa.create_game("sun-tzu", {}, HUMANS)  # humans without player ids
    bingfa.join(g["anon"], "blue")
    bingfa.join(g["anon"], "red")
    advance(bingfa, g["anon"], rng, 2)
    step()
    return g


def expected_status(store, game_id: str, seats: list[str]) -> str:
    game = load(store, game_id, use_snapshot=False)
    if game.outcome is not None:
        return FINISHED
    return YOUR_TURN if set(seats) & set(game.pending) else WAITING


def caught_up(client, store: RedisEventStore, models: ReadModels) -> bool:
    for game_id in store.game_ids():
        if models.position(game_id) != store.version(game_id):
            return False
    pending = (client.xpending(feed_key(p), GROUP)["pending"] for p in range(store.partitions))
    return not any(pending)


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


@pytest.fixture(params=["fakeredis", "redis", "cluster"])
def client(request):
    """fakeredis, the bundled redis-server, and a real 3-master Redis Cluster (every
    command of the read models and the projector must name keys of one slot)."""
    if request.param == "cluster":
        cluster = request.getfixturevalue("redis_cluster")
        cluster.flushall()  # RedisCluster sends FLUSHALL to every primary
        request.addfinalizer(cluster.flushall)
        return cluster
    return request.getfixturevalue("fake_redis" if request.param == "fakeredis" else "redis_client")


@pytest.fixture
def world(client):
    store = RedisEventStore(client, partitions=PARTITIONS)
    return store, WritePath(store), ReadModels(client, PARTITIONS)


# -- pure: entries of one game -----------------------------------------------------------
def test_entries_follow_a_game_from_lobby_to_finished():
    store = InMemoryEventStore()
    bingfa = WritePath(store)
    game_id = bingfa.create_game("sun-tzu", {"variant": "beginner"}, HUMANS)

    fresh = entries_from_envelopes(game_id, store.read(game_id))
    created_at = store.read(game_id)[0].at
    assert fresh.version == 1
    assert fresh.lobby == {
        "game": game_id,
        "key": "sun-tzu",
        "options": {"variant": "beginner"},
        "seats": HUMANS,
        "open_seats": ["blue", "red"],
        "created_at": created_at,
    }
    assert fresh.players == {} and fresh.finished is None

    bingfa.join(game_id, "red", player="ann")
    half = entries_from_envelopes(game_id, store.read(game_id))
    assert half.lobby["open_seats"] == ["blue"]
    assert half.players["ann"]["status"] == WAITING
    assert half.players["ann"]["seats"] == ["red"] and half.players["ann"]["turn"] == []

    bingfa.join(game_id, "blue", player="bo")
    full = entries_from_envelopes(game_id, store.read(game_id))
    assert full.lobby is None and full.finished is None
    pending = sorted(load(store, game_id).pending)
    assert pending, "a dealt game owes a decision"
    for player, seat in (("ann", "red"), ("bo", "blue")):
        entry = full.players[player]
        assert entry["turn"] == pending
        assert entry["status"] == (YOUR_TURN if seat in pending else WAITING)
        assert entry["open_seats"] == []

    advance(bingfa, game_id, random.Random(5))
    envelopes = store.read(game_id)
    done = entries_from_envelopes(game_id, envelopes)
    outcome = load(store, game_id).outcome
    assert done.version == len(envelopes) and done.lobby is None
    assert done.finished == {
        "game": game_id,
        "key": "sun-tzu",
        "winner": outcome["winner"],
        "reason": outcome["reason"],
        "finished_at": envelopes[-1].at,
        "players": {"blue": "bo", "red": "ann"},
    }
    for entry in done.players.values():
        assert entry["status"] == FINISHED and entry["turn"] == []
        assert (entry["winner"], entry["reason"]) == (outcome["winner"], outcome["reason"])


def test_entries_after_every_append_have_its_version_and_a_consistent_status():
    store = InMemoryEventStore()
    bingfa = WritePath(store)
    game_id = bingfa.create_game("sun-tzu", {}, HUMANS)
    bingfa.join(game_id, "blue", player="ann")
    bingfa.join(game_id, "red", player="bo")
    advance(bingfa, game_id, random.Random(11))
    envelopes = store.read(game_id)
    versions = [seq for g, seq in store.feed if g == game_id]  # the end of every append
    assert versions[-1] == len(envelopes)
    for n in versions:
        entries = entries_from_envelopes(game_id, envelopes[:n])
        assert entries.version == n
        statuses = {e["status"] for e in entries.players.values()}
        if entries.finished is not None:
            assert n == len(envelopes) and statuses == {FINISHED}
        else:
            assert FINISHED not in statuses
            if entries.lobby is None and n > 1:  # dealt: someone is always to play
                assert YOUR_TURN in statuses


def test_ai_seats_get_no_inbox_and_one_player_on_both_seats_gets_one_entry():
    store = InMemoryEventStore()
    bingfa = WritePath(store)
    vs_ai = bingfa.create_game("sun-tzu", {}, {"blue": "ai:1", "red": "human"})
    entries = entries_from_envelopes(vs_ai, store.read(vs_ai))
    assert entries.players == {} and entries.lobby["open_seats"] == ["red"]

    both = bingfa.create_game("sun-tzu", {}, HUMANS)
    bingfa.join(both, "blue", player="di")
    bingfa.join(both, "red", player="di")
    entries = entries_from_envelopes(both, store.read(both))
    assert list(entries.players) == ["di"]
    assert entries.players["di"]["seats"] == ["blue", "red"]
    assert entries.players["di"]["status"] == YOUR_TURN


def test_entries_of_a_game_loaded_from_a_snapshot_equal_those_folded_from_scratch():
    store = InMemoryEventStore()
    bingfa = WritePath(store)
    game_id = bingfa.create_game("sun-tzu", {}, HUMANS)
    bingfa.join(game_id, "blue", player="ann")
    bingfa.join(game_id, "red", player="bo")
    advance(bingfa, game_id, random.Random(2), moves=30)  # past a snapshot (every 64 events)
    game = load(store, game_id)
    assert game.from_snapshot > 0
    envelopes = store.read(game_id)
    assert entries_for(game, "", envelopes[-1].at) == entries_from_envelopes(game_id, envelopes)


def test_epoch_ms_reads_the_envelope_timestamp():
    assert epoch_ms("1970-01-01T00:00:01.250Z") == 1250
    assert epoch_ms("2026-01-01T00:00:00.000Z") < epoch_ms("2026-01-01T00:00:00.001Z")


# -- the projector on Redis (fakeredis and the real redis-server) -------------------------
def test_projector_builds_the_lobby_the_inboxes_and_the_finished_index(world, client):
    store, bingfa, models = world
    projector = Projector(store, client, consumer="one")
    projector.start()
    g = populate(bingfa, random.Random(1), step=projector.drain)
    projector.drain()

    lobby = {e["game"]: e for e in models.lobby()}
    assert list(lobby) == sorted(lobby, key=lambda i: (lobby[i]["created_at"], i))  # oldest first
    assert set(lobby) == {g["open"], g["open_ai"]}
    assert lobby[g["open"]]["open_seats"] == ["red"]
    assert lobby[g["open"]]["options"] == {"variant": "beginner"}
    assert lobby[g["open_ai"]]["open_seats"] == ["blue"]
    assert lobby[g["open_ai"]]["seats"]["red"] == "ai:1"
    for game_id, entry in lobby.items():
        assert entry["created_at"] == store.read(game_id)[0].at

    mine = {
        "ann": {g["open"]: ["blue"], g["mid"]: ["blue"], g["done"]: ["blue"]},
        "bo": {g["mid"]: ["red"], g["done_ai"]: ["red"]},
        "cy": {g["mid_ai"]: ["blue"], g["done"]: ["red"]},
        "di": {g["both"]: ["blue", "red"]},
    }
    for player, games_ in mine.items():
        entries = models.games_of(player)
        assert {e["game"]: e["seats"] for e in entries} == games_, player
        for e in entries:
            assert e["status"] == expected_status(store, e["game"], e["seats"]), (player, e)
            assert e["turn"] == sorted(load(store, e["game"]).pending)
        ranks = [{YOUR_TURN: 0, WAITING: 1, FINISHED: 2}[e["status"]] for e in entries]
        assert ranks == sorted(ranks)
    assert {e["status"] for e in models.games_of("ann")} >= {WAITING, FINISHED}
    assert models.games_of("ai:1") == models.games_of("ai:2") == models.games_of("nobody") == []

    finished = models.finished()
    assert [e["game"] for e in finished] == [g["done_ai"], g["done"]]  # newest first
    assert finished[1]["players"] == {"blue": "ann", "red": "cy"}
    assert finished[0]["players"] == {"blue": "ai:1", "red": "bo"}
    assert epoch_ms(finished[0]["finished_at"]) > epoch_ms(finished[1]["finished_at"])
    for entry in finished:
        outcome = load(store, entry["game"]).outcome
        assert (entry["winner"], entry["reason"]) == (outcome["winner"], outcome["reason"])
        assert entry["finished_at"] == store.read(entry["game"])[-1].at
    assert models.finished(limit=1) == finished[:1]
    assert caught_up(client, store, models)


def test_redelivered_entries_are_skipped_and_change_nothing(world, client):
    store, bingfa, models = world
    projector = Projector(store, client, consumer="one")
    projector.start()
    populate(bingfa, random.Random(2))
    delivered = projector.drain()
    before = models.dump()
    assert projector.stats["written"] == 8 and before

    again = Projector(store, client, consumer="two")
    for p in range(PARTITIONS):  # deliver every feed entry a second time
        for entry_id, fields in client.xrange(feed_key(p)):
            assert again.handle(p, entry_id, fields)
    assert again.stats["skipped"] == delivered
    assert again.stats["written"] == 0
    assert models.dump() == before


def test_an_older_version_never_overwrites_a_newer_one(world):
    store, bingfa, models = world
    game_id = bingfa.create_game("sun-tzu", {}, HUMANS)
    bingfa.join(game_id, "blue", player="ann")
    bingfa.join(game_id, "red", player="bo")
    advance(bingfa, game_id, random.Random(3))
    envelopes = store.read(game_id)
    newest = entries_from_envelopes(game_id, envelopes)
    older = entries_from_envelopes(game_id, envelopes[:5])
    assert models.write(newest)
    snapshot = models.dump()
    assert not models.write(older)  # a slow consumer that loaded the game earlier
    assert not models.write(newest)
    assert models.dump() == snapshot
    assert models.position(game_id) == len(envelopes)
    assert [e["status"] for e in models.games_of("ann")] == [FINISHED]


def test_rebuild_gives_the_models_the_projector_built_incrementally(world, client):
    store, bingfa, models = world
    projector = Projector(store, client, consumer="one")
    projector.start()
    populate(bingfa, random.Random(4), step=projector.drain)
    incremental = models.dump()
    client.hset(models.keys("stray").lobby, "stray", b"{}")  # a stale entry: must go
    counts = models.rebuild(store)
    assert models.dump() == incremental
    assert counts["games"] == 8 and counts["lobby"] == 2 and counts["finished"] == 2
    assert counts["players"] == 4  # ann bo cy di; no inbox for an AI or an anonymous seat
    assert counts["deleted"] > 0


def test_bingfa_rebuild_on_the_command_line(redis_client, redis_url, monkeypatch, capsys):
    store = RedisEventStore(redis_client, partitions=PARTITIONS)
    bingfa = WritePath(store)
    models = ReadModels(redis_client, PARTITIONS)
    projector = Projector(store, redis_client, consumer="one")
    projector.start()
    populate(bingfa, random.Random(5))
    projector.drain()
    incremental = models.dump()
    monkeypatch.setenv("REDIS_URL", redis_url)
    assert cli.main(["rebuild", "--partitions", str(PARTITIONS)]) == 0
    out = capsys.readouterr().out
    assert "rebuilt from 8 games: 2 in the lobby, 2 finished, 4 players" in out
    assert models.dump() == incremental


def test_bingfa_rebuild_without_redis_url_says_so(monkeypatch, capsys):
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert cli.main(["rebuild"]) == 2
    assert "needs REDIS_URL" in capsys.readouterr().out


def test_entries_a_dead_consumer_never_acknowledged_are_claimed_once(world, client):
    store, bingfa, models = world
    ensure_groups(client, PARTITIONS)
    populate(bingfa, random.Random(6))
    taken = 0
    for p in range(PARTITIONS):  # one feed per call: a Redis Cluster refuses CROSSSLOT reads
        for _, entries in client.xreadgroup(GROUP, "dead", {feed_key(p): ">"}, count=10_000):
            taken += len(entries)
    assert taken == sum(client.xlen(feed_key(p)) for p in range(PARTITIONS))

    live = Projector(store, client, consumer="live", claim_idle_ms=50)
    live.start()
    assert live.drain() == 0  # the dead consumer holds every entry: nothing to read
    assert models.lobby() == [] and models.finished() == []
    assert live.claim(min_idle_ms=60_000) == 0  # not idle long enough yet
    time.sleep(0.1)
    assert live.claim() == taken
    assert caught_up(client, store, models)
    assert live.stats["written"] == 8 and live.stats["skipped"] == taken - 8
    assert live.claim(min_idle_ms=0) == 0  # all acknowledged: nothing left to claim

    incremental = models.dump()
    models.rebuild(store)
    assert models.dump() == incremental
    for player in ("ann", "bo", "cy", "di"):
        ids = [e["game"] for e in models.games_of(player)]
        assert len(ids) == len(set(ids))
    assert len(models.finished()) == 2 and len(models.lobby()) == 2


def test_projector_in_a_thread_follows_live_writes_and_stops(redis_client):
    store = RedisEventStore(redis_client, partitions=PARTITIONS)
    bingfa = WritePath(store)
    models = ReadModels(redis_client, PARTITIONS)
    stop = threading.Event()
    result = {}
    thread = threading.Thread(
        target=lambda: result.setdefault(
            "projector", run(store, redis_client, stop, consumer="t", poll_interval=0.01)
        )
    )
    thread.start()
    try:
        populate(bingfa, random.Random(7))
        wait_for(lambda: caught_up(redis_client, store, models), 20, "the projector")
    finally:
        stop.set()
        thread.join(10)
    assert not thread.is_alive()
    assert result["projector"].stats["failed"] == 0
    incremental = models.dump()
    models.rebuild(store)
    assert models.dump() == incremental


def held(client) -> int:
    """Feed entries delivered to some consumer and not yet acknowledged."""
    return sum(client.xpending(feed_key(p), GROUP)["pending"] for p in range(PARTITIONS))


def start_process(redis_url: str, log: Path) -> subprocess.Popen:
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "BINGFA_PARTITIONS": str(PARTITIONS),
        "BINGFA_PROJECTOR_CLAIM_IDLE_MS": "300",
    }
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "events.projector_process"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def test_projector_process_killed_mid_stream_and_restarted_completes_the_models(
    redis_client, redis_url, tmp_path
):
    store = RedisEventStore(redis_client, partitions=PARTITIONS)
    bingfa = WritePath(store)
    models = ReadModels(redis_client, PARTITIONS)
    ensure_groups(redis_client, PARTITIONS)
    log = tmp_path / "projector.log"
    errors = []

    killed = threading.Event()
    rounds: list[int] = []

    def write():
        # Games go on being written until the first projector has been killed and the
        # second started (at least 3 rounds, at most 300: however fast the write path is).
        try:
            rng = random.Random(8)
            for n in range(300):
                if n >= 3 and killed.is_set():
                    break
                populate(bingfa, rng)
                rounds.append(n)
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    first = start_process(redis_url, log)
    writer = threading.Thread(target=write)
    try:
        writer.start()
        projected = lambda: any(redis_client.hlen(Keys(p).pos) for p in range(PARTITIONS))  # noqa: E731
        wait_for(projected, 20, "the first projector to write")
        # Kill it while it holds entries it has read but not acknowledged.
        wait_for(lambda: held(redis_client) > 0, 20, "the first projector to hold entries")
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        assert first.returncode == -signal.SIGKILL
        assert writer.is_alive(), "the kill must come while games are still being written"
        orphaned = held(redis_client)
        assert orphaned > 0
        time.sleep(0.3)  # writes go on with no projector
        second = start_process(redis_url, log)
        killed.set()
        try:
            writer.join(60)
            assert not writer.is_alive() and errors == []
            wait_for(lambda: caught_up(redis_client, store, models), 30, "the restarted projector")
        finally:
            second.send_signal(signal.SIGTERM)
            second.wait(10)
        assert second.returncode == 0, log.read_text()
    finally:
        for process in (first, locals().get("second")):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
        writer.join(60)
    text = log.read_text()
    assert "Traceback" not in text, text
    assert "stopping (SIGTERM)" in text
    claimed = int(re.search(r"'claimed': (\d+)", text).group(1))
    assert claimed >= orphaned  # what the killed one held was taken over, not lost
    incremental = models.dump()
    counts = models.rebuild(store)
    n = len(rounds)  # each round of populate: 8 games, 2 finished, 2 in the lobby
    assert counts["games"] == 8 * n and counts["finished"] == 2 * n and counts["lobby"] == 2 * n
    assert counts["players"] == 4
    assert models.dump() == incremental
    for player in ("ann", "bo", "cy", "di"):
        ids = [e["game"] for e in models.games_of(player)]
        assert len(ids) == len(set(ids))


def test_the_projector_process_needs_redis_url():
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "events.projector_process"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert "needs REDIS_URL" in done.stderr
