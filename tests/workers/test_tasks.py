"""The AI task, called as a function over an in-memory store: no broker, no worker.

The write path is injected with `workers.bootstrap.use`; its `on_appended` is the real
`enqueue_ai_moves`, sending through a fake Celery app that only records the messages.
"""

from __future__ import annotations

import itertools
from functools import partial

import fakeredis
import pytest

from events.projector import load
from events.store import InMemoryEventStore
from events.writepath import WritePath
from workers import bootstrap
from workers.celery_app import AI_QUEUE, PLAY_AI_MOVE
from workers.dispatch import enqueue_ai_moves
from workers.tasks import ALREADY_MOVED
from workers.tasks import play_ai_move as play_ai_move_task

AI_VS_HUMAN = {"blue": "ai:random", "red": "human"}
AI_VS_AI = {"blue": "ai:random", "red": "ai:random"}


class FakeCelery:
    """Records `send_task` calls; `drain` delivers them to the task, like a worker."""

    def __init__(self):
        self.sent = []

    def send_task(self, name, args, queue):
        self.sent.append((name, tuple(args), queue))

    def take(self):
        sent, self.sent = self.sent, []
        return sent


def counter_tokens():
    n = itertools.count()
    return lambda size: f"{next(n):0{size * 2}x}"


def make_bingfa(celery, store=None):
    return WritePath(
        store or InMemoryEventStore(),
        token=counter_tokens(),
        on_appended=partial(enqueue_ai_moves, celery=celery),
    )


@pytest.fixture
def celery():
    return FakeCelery()


@pytest.fixture
def app(celery):
    instance = make_bingfa(celery)
    bootstrap.use(instance, fakeredis.FakeRedis())
    yield instance
    bootstrap.reset()


def started(app, seats=AI_VS_HUMAN):
    game_id = app.create_game("sun-tzu", None, seats)
    for seat, kind in seats.items():
        if kind == "human":
            app.join(game_id, seat)
    return game_id


def actors_after(app, game_id, version):
    return [env.actor for env in app.store.read(game_id, after=version)]


def test_a_deal_queues_the_ai_seat_only(app, celery):
    game_id = started(app)
    version = app.store.version(game_id)
    assert load(app.store, game_id).pending.keys() == {"blue", "red"}
    assert celery.take() == [(PLAY_AI_MOVE, (game_id, version, "blue"), AI_QUEUE)]


def test_the_task_plays_exactly_one_move_for_its_seat(app, celery):
    game_id = started(app)
    version = app.store.version(game_id)
    celery.take()

    status = play_ai_move_task.run(game_id, version, "blue")

    assert status.startswith("blue played choose_warlord")
    game = load(app.store, game_id)
    assert game.version > version and set(actors_after(app, game_id, version)) == {"blue"}
    assert list(game.pending) == ["red"]  # blue answered; the human still owes
    assert app.store.idempotent(game_id, f"ai:{game_id}:{version}:blue") is not None
    assert celery.take() == []  # nothing more for an AI to do until red moves


def test_a_task_for_an_old_version_does_nothing(app, celery):
    game_id = started(app)
    version = app.store.version(game_id)
    app.submit(game_id, "red", {"type": "choose_warlord", "warlord": "remove"})
    moved = app.store.version(game_id)
    # the human's move queued a fresh task for the new version
    assert celery.take()[-1] == (PLAY_AI_MOVE, (game_id, moved, "blue"), AI_QUEUE)

    assert play_ai_move_task.run(game_id, version, "blue") == ALREADY_MOVED
    assert app.store.version(game_id) == moved
    assert play_ai_move_task.run(game_id, moved, "blue").startswith("blue played")


def test_a_redelivered_task_moves_once(app, celery):
    game_id = started(app)
    version = app.store.version(game_id)

    first = play_ai_move_task.run(game_id, version, "blue")
    after_first = app.store.version(game_id)
    again = play_ai_move_task.run(game_id, version, "blue")

    assert first.startswith("blue played") and again == ALREADY_MOVED
    assert app.store.version(game_id) == after_first
    assert app.store.verify(game_id)[-1].seq == after_first


def test_a_redelivered_task_would_choose_the_same_move():
    """The same game, version and seat give the same command: a task that ran but was not
    acknowledged cannot choose differently when it runs again."""
    outcomes = []
    for _ in range(2):
        app = make_bingfa(FakeCelery())  # the same tokens: the same game id and seed
        bootstrap.use(app, fakeredis.FakeRedis())
        try:
            game_id = started(app)
            version = app.store.version(game_id)
            play_ai_move_task.run(game_id, version, "blue")
            outcomes.append([e.payload for e in app.store.read(game_id, after=version)])
        finally:
            bootstrap.reset()
    assert outcomes[0] == outcomes[1] and outcomes[0]


def test_human_seats_are_never_played(app, celery):
    game_id = started(app)
    version = app.store.version(game_id)

    assert play_ai_move_task.run(game_id, version, "red") == "red is not an AI seat"
    assert play_ai_move_task.run(game_id, version, "green") == "green is not an AI seat"
    assert app.store.version(game_id) == version
    assert play_ai_move_task.run("nope", 3, "blue") == "no such game"


def test_losing_a_race_to_another_writer_is_already_moved(celery):
    """The human moves between the task's load and its append: the append is refused and
    the task reports it, and the human's move has queued the retry at the new version."""

    class RacingStore(InMemoryEventStore):
        before_ai_append = None

        def append_events(self, game_id, expected_version, events, idempotency_key=None, **kw):
            hook, self.before_ai_append = self.before_ai_append, None
            if hook is not None and kw.get("actor") == "blue":
                hook()
            return super().append_events(game_id, expected_version, events, idempotency_key,
                                         **kw)  # fmt: skip

    store = RacingStore()
    app = make_bingfa(celery, store)
    bootstrap.use(app, fakeredis.FakeRedis())
    try:
        game_id = started(app)
        version = store.version(game_id)
        celery.take()
        human = partial(app.submit, game_id, "red", {"type": "choose_warlord", "warlord": "remove"})
        store.before_ai_append = human

        assert play_ai_move_task.run(game_id, version, "blue") == ALREADY_MOVED
        assert set(actors_after(app, game_id, version)) == {"red"}
        moved = store.version(game_id)
        assert celery.take() == [(PLAY_AI_MOVE, (game_id, moved, "blue"), AI_QUEUE)]
        assert play_ai_move_task.run(game_id, moved, "blue").startswith("blue played")
    finally:
        bootstrap.reset()


def test_two_ai_seats_play_a_whole_game_through_the_queue(app, celery):
    """Deliver every queued message, in order, until the queue is empty. Stale tasks do
    nothing, and the game reaches its end."""
    game_id = started(app, AI_VS_AI)
    statuses = []
    for _ in range(10_000):
        sent = celery.take()
        if not sent:
            break
        for name, args, queue in sent:
            assert (name, queue) == (PLAY_AI_MOVE, AI_QUEUE)
            statuses.append(play_ai_move_task.run(*args))
    game = load(app.store, game_id)
    assert game.outcome is not None and not game.pending
    assert app.store.verify(game_id)[-1].type == "seed_revealed"
    played = [s for s in statuses if s != ALREADY_MOVED]
    assert all(s.startswith(("blue played", "red played")) for s in played)
    commands = [e for e in app.store.read(game_id) if e.actor in ("blue", "red")]
    assert len(played) > 10 and commands


def test_beat_sweeps_up_an_ai_move_whose_task_was_lost(redis_client, celery):
    from events.readmodels import ReadModels, epoch_ms
    from events.redis_store import RedisEventStore
    from workers.dispatch import STALE_MS, sweep_owed_ai_moves
    from workers.tasks import take_ai_turn

    store = RedisEventStore(redis_client, partitions=4)
    models = ReadModels(redis_client, 4)
    lost = WritePath(store)  # no on_appended: the AI's task is lost
    game_id = started(lost)
    models.project(store, game_id)
    game = lost.load(game_id)
    assert game.pending["blue"] == "choose_warlord"
    since = epoch_ms(game.table.last_at)

    def sweep(now):  # only this test's game (the Redis may hold other tests' games)
        queued = sweep_owed_ai_moves(lost, models, now, celery=celery)
        sent = [m for m in celery.take() if m[1][0] == game_id]
        return [q for q in queued if q[0] == game_id], sent

    assert sweep(since + STALE_MS - 1000) == ([], [])
    assert sweep(since + STALE_MS + 1) == (
        [(game_id, "blue")],
        [(PLAY_AI_MOVE, (game_id, game.version, "blue"), AI_QUEUE)],
    )
    # Once the AI has moved and only the human owes, the game leaves the sweep's index.
    assert take_ai_turn(lost, game_id, game.version, "blue").startswith("blue played")
    models.project(store, game_id)
    assert game_id not in models.ai_owed_before(since + 10 * STALE_MS)
    assert sweep(since + 10 * STALE_MS) == ([], [])


def test_beat_runs_the_sweeps():
    from workers.celery_app import ANALYSIS_QUEUE, SWEEP_AI_MOVES, SWEEP_UNARCHIVED, make_celery

    app = make_celery({"broker_url": "memory://"})
    schedule = {e["task"]: e["schedule"] for e in app.conf.beat_schedule.values()}
    assert schedule[SWEEP_AI_MOVES] <= 60 and schedule[SWEEP_UNARCHIVED] <= 600
    assert app.conf.task_routes[SWEEP_AI_MOVES] == {"queue": AI_QUEUE}
    assert app.conf.task_routes[SWEEP_UNARCHIVED] == {"queue": ANALYSIS_QUEUE}


def test_beat_archives_a_finished_game_whose_archive_task_was_lost(redis_client, celery):
    import random

    from events.readmodels import ReadModels, epoch_ms
    from events.redis_store import RedisEventStore
    from replays.archive import archive
    from replays.store import ReplayStore
    from workers.celery_app import ANALYSIS_QUEUE, ARCHIVE_GAME
    from workers.dispatch import ARCHIVE_GRACE_MS, sweep_unarchived

    store = RedisEventStore(redis_client, partitions=4)
    models, replays = ReadModels(redis_client, 4), ReplayStore(redis_client)
    app = WritePath(store)  # no follow-up: the archive task is lost
    game_id = started(app, {"blue": "human", "red": "human"})
    rng = random.Random(3)
    while (game := app.load(game_id)).outcome is None:
        seat = next(iter(game.pending))
        app.submit(game_id, seat, game.rules.random_command(game.state, seat, rng))
    models.project(store, game_id)
    ended = epoch_ms(app.load(game_id).table.last_at)

    def sweep(now):  # only this test's game (the Redis may hold other tests' games)
        missing = [g for g in sweep_unarchived(models, replays, now, celery) if g == game_id]
        return missing, [m for m in celery.take() if m[1] == (game_id,)]

    assert sweep(ended + 1000) == ([], [])  # its own task may still be on its way
    later = ended + ARCHIVE_GRACE_MS + 1
    assert sweep(later) == ([game_id], [(ARCHIVE_GAME, (game_id,), ANALYSIS_QUEUE)])
    archive(store, replays, game_id)
    assert sweep(later) == ([], [])
