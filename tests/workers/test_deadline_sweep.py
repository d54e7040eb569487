"""Beat's deadline sweep on a real Redis: the deadline index the projection keeps, the
task beat runs, and what an expired seat gets (forfeit, or the AI for one decision)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest

from events.readmodels import ReadModels
from events.redis_store import RedisEventStore
from events.writepath import WritePath
from workers import bootstrap
from workers.celery_app import AI_QUEUE, PLAY_AI_MOVE, SWEEP_DEADLINES, make_celery
from workers.dispatch import follow_up
from workers.tasks import sweep_deadlines_task, take_ai_turn


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class FakeCelery:
    def __init__(self) -> None:
        self.sent: list = []

    def send_task(self, name, args, queue):
        self.sent.append((name, tuple(args), queue))


@pytest.fixture
def world(redis_client):
    clock, celery = Clock(), FakeCelery()
    n = itertools.count(int(datetime.now(UTC).timestamp()))  # ids unique in this Redis
    store = RedisEventStore(redis_client, partitions=4)
    app = WritePath(store, token=lambda size: f"{next(n):0{size * 2}x}", clock=clock,
                 on_appended=partial(follow_up, celery=celery))  # fmt: skip
    bootstrap.use(app)
    yield app, clock, celery, ReadModels(redis_client, 4)
    bootstrap.reset()


def started(app, models, on_timeout):
    game_id = app.create_game(
        "sun-tzu",
        {},
        {"blue": "human", "red": "human"},
        clock={"per_move_seconds": 3 * 86400, "on_timeout": on_timeout},
    )
    app.join(game_id, "blue", player="alice")
    app.join(game_id, "red", player="bob")
    models.project(app.store, game_id)
    return game_id


def test_beat_schedules_the_deadline_sweep_often():
    app = make_celery({"broker_url": "memory://"})
    schedule = {e["task"]: e["schedule"] for e in app.conf.beat_schedule.values()}
    assert schedule[SWEEP_DEADLINES] <= 30


def test_an_idle_game_is_forfeited_by_the_beat_task_without_anyone_touching_it(world):
    app, clock, _, models = world
    game_id = started(app, models, "forfeit")
    due = models.deadlines_before(app.now_ms() + 3 * 86400_000)
    assert game_id in due and game_id not in models.deadlines_before(app.now_ms())
    clock.now += timedelta(days=3)
    assert sweep_deadlines_task.run() >= 1
    game = app.load(game_id)
    assert game.outcome == {"winner": None, "reason": "time"}  # both out together: a draw
    models.project(app.store, game_id)
    assert game_id not in models.deadlines_before(app.now_ms() + 10**12)
    assert models.games_of("alice")[0]["status"] == "finished"
    assert models.games_of("alice")[0]["timeouts"] == 1
    version = app.store.version(game_id)
    clock.now += timedelta(days=1)
    sweep_deadlines_task.run()
    assert app.store.version(game_id) == version  # enforced once


def test_an_expired_seat_gets_the_ai_through_the_queue_for_one_decision(world):
    app, clock, celery, models = world
    game_id = started(app, models, "ai:random")
    clock.now += timedelta(days=3, seconds=1)
    sweep_deadlines_task.run()
    queued = [m for m in celery.sent if m[0] == PLAY_AI_MOVE and m[1][0] == game_id]
    assert {m[1][2] for m in queued} == {"blue", "red"} and {m[2] for m in queued} == {AI_QUEUE}
    while celery.sent:  # a worker: each task, and the ones the moves queue after it
        name, (gid, version, seat), _ = celery.sent.pop(0)
        if name == PLAY_AI_MOVE and gid == game_id:
            take_ai_turn(app, gid, version, seat)  # an old version is "already moved"
    game = app.load(game_id)
    assert game.outcome is None and game.seats == {"blue": "human", "red": "human"}
    assert [e.type for e in app.store.read(game_id)].count("command_given") == 2
    models.project(app.store, game_id)
    assert game_id in models.deadlines_before(app.now_ms() + 3 * 86400_000)
