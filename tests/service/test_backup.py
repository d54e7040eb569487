"""bingfa backup / restore: a copy of the store's Redis restored into a fresh one serves
every game and replay as before; a Redis that holds keys is refused, unchanged."""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path

import pytest
import redis

from events.embedded import start_redis
from events.projector import load
from events.redis_store import RedisEventStore
from events.writepath import WritePath
from replays.archive import archive
from replays.backup import BackupError, backup, restore
from replays.record import dumps, loads, record_of
from replays.store import ReplayStore
from replays.verify import verify
from service import create_app
from service.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "replays"))
from replay_helpers import RULES, counter_tokens, play_game


@pytest.fixture
def fresh_redis(tmp_path):
    server = start_redis(tmp_path / "fresh")
    client = redis.Redis.from_url(server.url)
    try:
        yield server.url, client
    finally:
        client.close()
        server.stop()


def play_on(app, game_id, seed, moves=None):
    """Random legal commands: ``moves`` of them, or to the end."""
    rng = random.Random(seed)
    for turn in itertools.count():
        game = load(app.store, game_id)
        if not game.pending or turn == moves:
            return
        seat = sorted(game.pending)[rng.randrange(len(game.pending))]
        app.submit(game_id, seat, RULES.random_command(game.state, seat, rng))


@pytest.fixture
def played(redis_client, redis_url, monkeypatch):
    """Two finished games (one archived, one not) and one being played, on redis_client."""
    monkeypatch.setenv("REDIS_URL", redis_url)
    app = WritePath(RedisEventStore(redis_client, partitions=16), token=counter_tokens(900))
    archived = play_game(app, {"events": True}, nonces=("a nonce", None), seed=4)
    archive(app.store, ReplayStore(redis_client), archived)
    unarchived = play_game(app, {}, seed=5)
    running = app.create_game("sun-tzu", {}, {"blue": "human", "red": "human"})
    app.join(running, "blue", player="player-blue-1")
    app.join(running, "red", player="player-red-1")
    play_on(app, running, seed=6, moves=15)
    return app, {"archived": archived, "unarchived": unarchived, "running": running}


def stream_of(client, game_id):
    return RedisEventStore(client, partitions=16).read(game_id)


def test_backup_then_restore_into_a_fresh_server(played, redis_client, fresh_redis, tmp_path):
    app, ids = played
    redis_client.set("expiring", "soon", px=600_000)  # a key with a time to live keeps it
    folder = tmp_path / "backup"
    assert main(["backup", str(folder)]) == 0
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["keys"] == redis_client.dbsize()
    assert sorted(manifest["exports"]) == sorted(f"{ids[k]}.jsonl"
                                                 for k in ("archived", "unarchived"))  # fmt: skip
    for kind in ("archived", "unarchived"):  # the exports stand alone and verify
        text = (folder / "exports" / f"{ids[kind]}.jsonl").read_text()
        assert text == dumps(record_of(app.store, ids[kind]))
        assert verify(loads(text)).ok
    assert main(["backup", str(folder)]) == 1  # never over an earlier backup

    url, client = fresh_redis
    assert restore(client, folder) == {"keys": manifest["keys"]}
    assert sorted(client.keys()) == sorted(redis_client.keys())
    assert 0 < client.pttl("expiring") <= 600_000
    game_keys = client.keys(f"*{ids['running']}*")
    assert game_keys and all(client.pttl(k) == -1 for k in game_keys)  # no TTL made up
    for game_id in ids.values():  # the streams, secrets included, as they were
        assert stream_of(client, game_id) == stream_of(redis_client, game_id)

    server = create_app({"REDIS_URL": url, "BINGFA_PARTITIONS": 16, "TESTING": True})
    web = server.test_client()
    for kind in ("archived", "unarchived"):
        body = web.get(f"/api/replays/{ids[kind]}/verify").get_json()
        assert body["ok"], body
    listed = web.get("/api/replays").get_json()
    assert sorted(r["id"] for r in listed["replays"]) == sorted(
        ids[k] for k in ("archived", "unarchived")
    )
    # the game being played goes on on the restored store, and its record holds at the end
    again = WritePath(RedisEventStore(client, partitions=16), token=counter_tokens(5000))
    play_on(again, ids["running"], seed=7)
    assert verify(record_of(again.store, ids["running"])).ok


def test_restore_refuses_a_redis_with_keys_and_changes_nothing(played, fresh_redis, tmp_path,
                                                               monkeypatch, capsys):  # fmt: skip
    folder = tmp_path / "backup"
    assert main(["backup", str(folder)]) == 0
    url, client = fresh_redis
    client.set("someone's", "key")
    monkeypatch.setenv("REDIS_URL", url)
    capsys.readouterr()
    assert main(["restore", str(folder)]) == 1
    assert "holds 1 keys already" in capsys.readouterr().out
    assert client.keys() == [b"someone's"] and client.get("someone's") == b"key"


def test_a_damaged_backup_is_refused(played, fresh_redis, tmp_path):
    folder = tmp_path / "backup"
    assert main(["backup", str(folder)]) == 0
    keys = folder / "keys.jsonl"
    keys.write_text(keys.read_text()[:-200])
    _, client = fresh_redis
    with pytest.raises(BackupError, match="damaged"):
        restore(client, folder)
    with pytest.raises(BackupError, match="no readable backup"):
        restore(client, tmp_path / "nowhere")
    assert client.dbsize() == 0


def test_backup_and_restore_on_a_redis_cluster(redis_cluster, fresh_redis, tmp_path):
    """Keys read on their own nodes; restored into one Redis, and into the emptied cluster."""
    redis_cluster.flushall()  # the session's cluster: FLUSHALL goes to every primary
    try:
        app = WritePath(RedisEventStore(redis_cluster, partitions=4), token=counter_tokens(70))
        game_id = play_game(app, {}, seed=8)
        record = record_of(app.store, game_id)
        before = {k: redis_cluster.dump(k) for k in redis_cluster.scan_iter()}
        assert len(before) > 3
        folder = tmp_path / "backup"
        assert backup(redis_cluster, folder, app.store, ReplayStore(redis_cluster)) == {
            "keys": len(before),
            "exports": 1,
        }
        _, client = fresh_redis
        restore(client, folder)
        assert record_of(RedisEventStore(client, partitions=4), game_id) == record
        with pytest.raises(BackupError, match=f"holds {len(before)} keys"):
            restore(redis_cluster, folder)
        redis_cluster.flushall()
        assert restore(redis_cluster, folder) == {"keys": len(before)}
        assert {k: redis_cluster.dump(k) for k in redis_cluster.scan_iter()}.keys() == before.keys()
        assert record_of(RedisEventStore(redis_cluster, partitions=4), game_id) == record
    finally:
        redis_cluster.flushall()
