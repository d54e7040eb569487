"""``bingfa_queue_depth`` and ``bingfa_queue_unacked`` on ``/metrics``: read from the broker
at each scrape, so they count what Celery really queued (every priority's list), and
vanish rather than lie when the broker does not answer."""

from __future__ import annotations

import fakeredis
import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families

from events.metrics import MULTIPROC_ENV
from events.store import InMemoryEventStore
from service import create_app
from workers.celery_app import (
    AI_QUEUE,
    ANALYSE_REPLAY,
    ANALYSIS_QUEUE,
    NOTIFY_QUEUE,
    PLAY_AI_MOVE,
    make_celery,
)


def metrics_app(broker):
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True, "HEALTH_BROKER": broker}).test_client()  # fmt: skip


def queue_samples(client) -> dict[str, float]:
    response = client.get("/metrics")
    assert response.status_code == 200
    found = {}
    for family in text_string_to_metric_families(response.get_data(as_text=True)):
        for sample in family.samples:
            if sample.name == "bingfa_queue_depth":
                found[sample.labels["queue"]] = sample.value
            elif sample.name == "bingfa_queue_unacked":
                found["unacked"] = sample.value
    return found


@pytest.fixture
def broker(broker_url):
    client = redis.Redis.from_url(broker_url)
    yield client
    client.close()


def test_the_depths_count_every_message_sent_to_each_queue(monkeypatch, broker, broker_url):
    monkeypatch.delenv(MULTIPROC_ENV, raising=False)
    celery = make_celery({"broker_url": broker_url})
    client = metrics_app(broker)
    assert queue_samples(client) == {AI_QUEUE: 0, ANALYSIS_QUEUE: 0, NOTIFY_QUEUE: 0,
                                     "unacked": 0}  # fmt: skip
    for n in range(3):
        celery.send_task(PLAY_AI_MOVE, args=[f"game-{n}", "blue", 0])
    celery.send_task(PLAY_AI_MOVE, args=["urgent", "blue", 0], priority=9)  # another list
    celery.send_task(ANALYSE_REPLAY, args=["replay-1"])
    assert queue_samples(client) == {AI_QUEUE: 4, ANALYSIS_QUEUE: 1, NOTIFY_QUEUE: 0,
                                     "unacked": 0}  # fmt: skip
    broker.hset("unacked", "tag-1", "{}")  # a message a worker took, as kombu records it
    assert queue_samples(client)["unacked"] == 1


def test_without_a_broker_the_depths_are_left_out_and_the_rest_still_answers(monkeypatch):
    monkeypatch.delenv(MULTIPROC_ENV, raising=False)
    down = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2)
    client = metrics_app(down)
    assert queue_samples(client) == {}
    assert b"bingfa_commands" in client.get("/metrics").data
