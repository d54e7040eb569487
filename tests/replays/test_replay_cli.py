"""bingfa verify / export / archive, and the archive task queued when a game ends."""

from __future__ import annotations

import dataclasses
from functools import partial

import fakeredis
import pytest
from replay_helpers import counter_tokens, play_game

from events.redis_store import RedisEventStore
from events.store import InMemoryEventStore
from events.writepath import WritePath
from replays.record import dumps, loads, record_of
from replays.store import ReplayStore
from service.cli import main
from workers import bootstrap
from workers.celery_app import ANALYSIS_QUEUE, ARCHIVE_GAME
from workers.dispatch import follow_up
from workers.tasks import archive_game


class FakeCelery:
    def __init__(self):
        self.sent = []

    def send_task(self, name, args, queue):
        self.sent.append((name, tuple(args), queue))


def test_verify_a_file(record, tmp_path, capsys):
    good = tmp_path / "good.jsonl"
    good.write_text(dumps(record))
    assert main(["verify", str(good)]) == 0
    assert "The record holds" in capsys.readouterr().out
    events = list(record.events)
    events[12] = dataclasses.replace(events[12], actor="mallory")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(dumps(dataclasses.replace(record, events=tuple(events))))
    assert main(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "Event 13" in out and "hash" in out
    broken = tmp_path / "broken.jsonl"
    broken.write_text(dumps(record)[:5000])
    assert main(["verify", str(broken)]) == 1
    assert "line" in capsys.readouterr().out


@pytest.fixture
def on_redis(redis_client, redis_url, monkeypatch):
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("BINGFA_PARTITIONS", "16")
    app = WritePath(RedisEventStore(redis_client, partitions=16), token=counter_tokens(500))
    return app, redis_client


def test_archive_export_and_verify_by_id(on_redis, tmp_path, capsys):
    app, client = on_redis
    game_id = play_game(app, {"events": True}, seed=4)
    running = app.create_game("sun-tzu", {}, {"blue": "human", "red": "human"})
    assert main(["archive", "--all"]) == 0
    assert "archived 1 finished games" in capsys.readouterr().out
    assert ReplayStore(client).exists(game_id)
    assert main(["archive", running]) == 1
    assert "still being played" in capsys.readouterr().out
    out = tmp_path / "game.jsonl"
    assert main(["export", game_id, "-o", str(out)]) == 0
    assert loads(out.read_text()) == record_of(app.store, game_id)
    assert main(["verify", game_id]) == 0
    assert main(["verify", "no-such-game"]) == 2
    capsys.readouterr()


def test_without_redis_url_the_commands_say_so(monkeypatch, capsys):
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main(["export", "x"]) == 2
    assert main(["archive", "--all"]) == 2
    assert "REDIS_URL" in capsys.readouterr().out


def test_the_archive_task_is_queued_when_a_game_ends_and_archives_it():
    celery = FakeCelery()
    app = WritePath(
        InMemoryEventStore(), token=counter_tokens(), on_appended=partial(follow_up, celery=celery)
    )
    game_id = play_game(app, {}, seed=2)
    archives = [m for m in celery.sent if m[0] == ARCHIVE_GAME]
    assert archives == [(ARCHIVE_GAME, (game_id,), ANALYSIS_QUEUE)]
    parts = bootstrap.use(app, fakeredis.FakeRedis())
    try:
        assert archive_game.run(game_id) == f"archived {game_id}"
        assert archive_game.run(game_id) == f"archived {game_id}"  # redelivered: once
        assert "no game" in archive_game.run("nope")
    finally:
        bootstrap.reset()
    assert parts.replays.get(game_id).header["events"] > 100
