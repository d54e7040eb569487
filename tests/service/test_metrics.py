"""``GET /metrics``: the counters and the histogram move with the write path's commands,
labelled by game; the endpoint answers in one process and sums several in multiprocess
mode."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import fakeredis
import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from events import metrics
from events.metrics import MULTIPROC_ENV
from events.notifications import Notification, NotificationStore
from events.projector_process import entry_age
from events.store import InMemoryEventStore
from service import create_app
from workers.notify import Sent, Webhooks, backoff_ms

ROOT = Path(__file__).resolve().parents[2]
GAME = "sun-tzu"
NOW = 1_740_819_600_000  # 2025-03-01 09:00 UTC


@pytest.fixture
def client(monkeypatch):
    monkeypatch.delenv(MULTIPROC_ENV, raising=False)
    app = create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                      "TESTING": True, "RATELIMIT_WRITES": "1000 per second"})  # fmt: skip
    return app.test_client()


def samples(client) -> dict[tuple[str, frozenset], float]:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    found = {}
    for family in text_string_to_metric_families(response.get_data(as_text=True)):
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return found


def value(found, name, **labels) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


def started(client) -> tuple[str, dict[str, str]]:
    body = {"options": {}, "seats": {"blue": "human", "red": "human"}}
    created = client.post("/api/games", json=body).json
    tokens = {seat: link["token"] for seat, link in created["seats"].items()}
    for token in tokens.values():
        client.post(f"/api/games/{created['game_id']}/join", json={},
                    headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    return created["game_id"], tokens


def send(client, game_id, token, command, **extra):
    return client.post(f"/api/games/{game_id}/commands", json={"command": command, **extra},
                       headers={"Authorization": f"Bearer {token}"})  # fmt: skip


def test_commands_move_the_counters_and_the_histogram_by_game(client):
    game_id, tokens = started(client)
    before = samples(client)
    accepted = send(
        client, game_id, tokens["blue"], {"type": "choose_warlord", "warlord": "reinforce"}
    )
    refused = send(client, game_id, tokens["red"], {"type": "fly"})
    conflict = send(client, game_id, tokens["red"], {"type": "resign"}, expected_version=1)
    assert (accepted.status_code, refused.status_code, conflict.status_code) == (201, 422, 409)
    after = samples(client)

    def moved(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("bingfa_commands_total", game=GAME, result="accepted") == 1
    assert moved("bingfa_commands_total", game=GAME, result="refused") == 1
    assert moved("bingfa_commands_total", game=GAME, result="conflict") == 1
    assert moved("bingfa_version_conflicts_total", game=GAME) == 1
    assert moved("bingfa_command_seconds_count", game=GAME) == 3
    assert moved("bingfa_command_seconds_bucket", game=GAME, le="+Inf") == 3
    assert value(after, "bingfa_command_seconds_sum", game=GAME) > 0


def test_an_idempotent_retry_is_counted_as_a_retry(client):
    game_id, tokens = started(client)
    before = samples(client)
    headers = {"Authorization": f"Bearer {tokens['blue']}", "Idempotency-Key": "k1"}
    body = {"command": {"type": "choose_warlord", "warlord": "reinforce"}}
    for _ in range(2):
        assert client.post(f"/api/games/{game_id}/commands", json=body,
                           headers=headers).status_code == 201  # fmt: skip
    after = samples(client)
    name = "bingfa_command_retries_total"
    assert (
        value(after, name, game=GAME, reason="duplicate")
        - value(before, name, game=GAME, reason="duplicate")
        == 1
    )


def test_metrics_answers_without_a_multiprocess_dir(client):
    assert MULTIPROC_ENV not in os.environ
    found = samples(client)
    # a fresh process still shows every family it defines (the gauge at its value)
    assert ("bingfa_open_streams", frozenset()) in found


MOVE = """
import os
import sys
from events import metrics
metrics.COMMANDS.labels("sun-tzu", "accepted").inc()
metrics.OPEN_STREAMS.inc()
if len(sys.argv) > 1:  # this one ended as gunicorn's child_exit tells: its streams go
    metrics.process_gone(os.getpid())
"""
EXPOSE = """
import sys
from events import metrics
sys.stdout.write(metrics.exposition()[0].decode())
"""


def test_multiprocess_mode_sums_the_processes(tmp_path):
    env = {**os.environ, MULTIPROC_ENV: str(tmp_path), "PYTHONPATH": str(ROOT)}
    for gone in (["gone"], []):
        subprocess.run([sys.executable, "-c", MOVE, *gone], env=env, check=True, timeout=60)
    shown = subprocess.run([sys.executable, "-c", EXPOSE], env=env, check=True, timeout=60,
                           capture_output=True, text=True).stdout  # fmt: skip
    found = {}
    for family in text_string_to_metric_families(shown):
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = sample.value
    assert value(found, "bingfa_commands_total", game=GAME, result="accepted") == 2
    # livesum: the process marked gone no longer counts its stream; the other still does
    assert value(found, "bingfa_open_streams") == 1


def test_projector_lag_is_the_age_of_the_entry():
    assert entry_age(b"1000-0", now=3.5) == 2.5
    assert entry_age("5000-1", now=1.0) == 0.0


def test_a_task_body_is_timed_with_its_outcome():
    before = REGISTRY.get_sample_value("bingfa_task_seconds_count",
                                       {"task": "analysis", "outcome": "done"}) or 0  # fmt: skip
    with metrics.timed(metrics.TASK_SECONDS, task="analysis") as out:
        out["outcome"] = "done"
    with pytest.raises(RuntimeError), metrics.timed(metrics.TASK_SECONDS, task="analysis"):
        raise RuntimeError("the task failed")
    done = REGISTRY.get_sample_value("bingfa_task_seconds_count",
                                     {"task": "analysis", "outcome": "done"})  # fmt: skip
    failed = REGISTRY.get_sample_value("bingfa_task_seconds_count",
                                       {"task": "analysis", "outcome": "error"})  # fmt: skip
    assert done == before + 1 and failed >= 1


def test_webhook_deliveries_are_counted_by_outcome(redis_client):
    store = NotificationStore(redis_client)
    store.set_webhook("P1", {"url": "http://127.0.0.1:9/hook", "base": "https://b.example",
                             "digest": "off", "digest_hour": 0, "nonce": "n"}, NOW)  # fmt: skip
    note = Notification("turn:g1:blue:9", "turn", "g1", "blue", "P1", "Your turn in game g1.",
                        "/g/g1/blue", "2025-03-01T09:00:00.000Z")  # fmt: skip
    store.add(note, NOW)
    answers = [Sent(False, 500, "HTTP 500"), Sent(True, 204, "HTTP 204")]
    hooks = Webhooks(store, "server-key", allow_local=True)
    hooks.send = lambda url, body, headers: answers.pop(0)

    def count(outcome):
        return REGISTRY.get_sample_value("bingfa_webhook_deliveries_total",
                                         {"outcome": outcome}) or 0  # fmt: skip

    retry, sent = count("retry"), count("sent")
    assert hooks.sweep_outbox(NOW)["retry"] == 1
    assert hooks.sweep_outbox(NOW + backoff_ms(1))["sent"] == 1
    assert (count("retry"), count("sent")) == (retry + 1, sent + 1)
