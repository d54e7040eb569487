"""The analysis endpoints over the in-memory app: no Celery, the analysis is queued through
the app's ``ANALYSE`` callable (here: run at once, at the quick strength, or recorded)."""

from __future__ import annotations

import fakeredis
import pytest
from replay_helpers import HUMANS, play_game

from events.store import InMemoryEventStore
from service.app import create_app
from workers.analysis import job


@pytest.fixture(scope="module")
def store():
    return InMemoryEventStore()


@pytest.fixture(scope="module")
def app(store):
    redis = fakeredis.FakeRedis()
    flask_app = create_app(
        {"STORE": store, "REDIS": redis, "TESTING": True, "ANALYSE": job.inline(store, redis)}
    )
    bingfa = flask_app.extensions["bingfa"]
    flask_app.config["game_ids"] = [play_game(bingfa, {"events": True}, seed=s) for s in (1, 2)]
    flask_app.config["running"] = bingfa.create_game("sun-tzu", {}, HUMANS)
    return flask_app


@pytest.fixture
def client(app):
    return app.test_client()


def test_unknown_or_unfinished_games_have_no_analysis(app, client):
    for replay_id in ("nope", app.config["running"]):
        for method in (client.get, client.post):
            response = method(f"/api/replays/{replay_id}/analysis")
            assert response.status_code == 404
            assert response.mimetype == "application/problem+json"


def test_none_then_202_then_200_with_the_result(app, client):
    game_id = app.config["game_ids"][0]
    assert client.get(f"/api/replays/{game_id}/analysis").get_json()["status"] == "none"
    first = client.post(f"/api/replays/{game_id}/analysis")
    assert first.status_code == 202, first.get_data(as_text=True)
    assert first.get_json()["status"] == "done"  # run inline, in the request
    again = client.post(f"/api/replays/{game_id}/analysis")
    assert again.status_code == 200
    body = client.get(f"/api/replays/{game_id}/analysis").get_json()
    assert body["status"] == "done" and body["done"] == body["total"] > 0
    result = body["result"]
    assert len(result["decisions"]) == body["total"]
    assert set(result["players"]) == {"blue", "red"} and set(result["luck"]) == {"blue", "red"}
    assert again.get_json()["result"] == result


def test_a_request_while_queued_queues_nothing_more(store):
    sent = []
    app = create_app(
        {"STORE": store, "REDIS": fakeredis.FakeRedis(), "TESTING": True, "ANALYSE": sent.append}
    )
    game_id = play_game(app.extensions["bingfa"], {}, seed=5)
    client = app.test_client()
    for _ in range(3):
        response = client.post(f"/api/replays/{game_id}/analysis")
        assert response.status_code == 202 and response.get_json()["status"] == "queued"
    assert sent == [game_id]
    status = client.get(f"/api/replays/{game_id}/analysis").get_json()
    assert status["status"] == "queued" and status["result"] is None


def test_a_failed_analysis_is_retried(store):
    calls = []

    def broken(replay_id):
        calls.append(replay_id)
        if len(calls) == 1:
            raise ConnectionError("broker down")

    app = create_app(
        {"STORE": store, "REDIS": fakeredis.FakeRedis(), "TESTING": True, "ANALYSE": broken}
    )
    game_id = play_game(app.extensions["bingfa"], {}, seed=6)
    client = app.test_client()
    down = client.post(f"/api/replays/{game_id}/analysis")
    assert down.status_code == 503 and "could not be queued" in down.get_json()["detail"]
    assert client.get(f"/api/replays/{game_id}/analysis").get_json()["status"] == "failed"
    assert client.post(f"/api/replays/{game_id}/analysis").status_code == 202
    assert calls == [game_id, game_id]


def test_without_workers_an_in_memory_app_says_so(store):
    app = create_app({"STORE": store, "REDIS": fakeredis.FakeRedis(), "TESTING": True})
    game_id = play_game(app.extensions["bingfa"], {}, seed=8)
    response = app.test_client().post(f"/api/replays/{game_id}/analysis")
    assert response.status_code == 503 and "no workers" in response.get_json()["detail"]


def test_the_endpoints_are_documented(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    operations = paths["/api/replays/{replay_id}/analysis"]
    assert {"get", "post"} <= set(operations)
    assert {"200", "202"} <= set(operations["post"]["responses"])
