"""Hints are worked out by an AI worker, once per position, never in the web process: the
ask queues the work once, waits a moment for it, says 202 while it is not ready, and every
later ask at that position is answered from the cache."""

from __future__ import annotations

import threading

import fakeredis
import pytest

from events.hints import HintCache
from events.store import InMemoryEventStore
from service import create_app
from workers.hints import work_out


def auth(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def queued():
    return []


@pytest.fixture
def app(queued, monkeypatch):
    import service.hints

    monkeypatch.setattr(service.hints, "WAIT_S", 0.2)
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True,
                       "RATELIMIT_WRITES": "1000 per second",
                       "HINT": lambda *ask: queued.append(ask)})  # fmt: skip


def started(client):
    created = client.post("/api/games", json={}).json
    tokens = {seat: link["token"] for seat, link in created["seats"].items()}
    for token in tokens.values():
        client.post(f"/api/games/{created['game_id']}/join", json={}, headers=auth(token))
    return created["game_id"], tokens


def test_the_work_is_queued_once_per_position_and_answered_from_the_cache(app, queued):
    client = app.test_client()
    game_id, tokens = started(client)
    first = client.get(f"/api/games/{game_id}/hint", headers=auth(tokens["blue"]))
    assert first.status_code == 202 and first.headers["Retry-After"] == "1"
    assert first.json["status"] == "thinking"
    again = client.get(f"/api/games/{game_id}/hint", headers=auth(tokens["blue"]))
    assert again.status_code == 202
    version = app.extensions["bingfa"].store.version(game_id)
    assert queued == [(game_id, version, "blue")]  # asked twice, queued once
    # the worker's part, then every ask at this position is the cached answer
    bingfa, cache = app.extensions["bingfa"], app.extensions["hints"]
    assert work_out(bingfa, cache, game_id, version, "blue").startswith("hint for blue")
    answers = [client.get(f"/api/games/{game_id}/hint", headers=auth(tokens["blue"]))
               for _ in range(3)]  # fmt: skip
    assert all(a.status_code == 200 and a.json == answers[0].json for a in answers)
    assert answers[0].json["command"]["type"] == "choose_warlord"
    assert queued == [(game_id, version, "blue")]
    assert work_out(bingfa, cache, game_id, version, "blue") == "already worked out"


def test_an_ask_waits_for_the_worker_and_gets_the_hint_it_finishes(app, queued):
    client = app.test_client()
    game_id, tokens = started(client)
    bingfa, cache, hub = (app.extensions[k] for k in ("bingfa", "hints", "hub"))

    def worker():  # answers the queued ask on another thread, as a worker would
        while not queued:
            threading.Event().wait(0.01)
        work_out(bingfa, cache, *queued[0])
        hub.publish(f"h:{game_id}:blue")

    import service.hints

    service.hints.WAIT_S = 5.0
    threading.Thread(target=worker, daemon=True).start()
    answer = client.get(f"/api/games/{game_id}/hint", headers=auth(tokens["blue"]))
    assert answer.status_code == 200 and answer.json["command"]


def test_the_worker_does_nothing_for_a_position_the_game_left(app):
    client = app.test_client()
    game_id, tokens = started(client)
    bingfa = app.extensions["bingfa"]
    version = bingfa.store.version(game_id)
    client.post(f"/api/games/{game_id}/commands", headers=auth(tokens["blue"]),
                json={"command": {"type": "choose_warlord", "warlord": "reinforce"}})  # fmt: skip
    cache = HintCache()
    assert work_out(bingfa, cache, game_id, version, "blue") == "the game moved on"
    assert cache.get(game_id, version, "blue") is None


def test_no_hint_for_a_seat_the_computer_plays_or_in_a_rated_game(app, queued):
    client = app.test_client()
    game_id, tokens = started(client)
    client.post(f"/api/games/{game_id}/ai", json={"level": "easy"}, headers=auth(tokens["blue"]))
    refused = client.get(f"/api/games/{game_id}/hint", headers=auth(tokens["blue"]))
    assert refused.status_code == 422 and "take it back first" in refused.json["detail"]
    assert queued == []


def test_a_broker_that_is_down_is_a_503_and_the_next_ask_tries_again():
    calls = []

    def down(*ask):
        calls.append(ask)
        raise ConnectionError("broker down")

    app = create_app(
        {
            "STORE": InMemoryEventStore(),
            "REDIS": fakeredis.FakeRedis(),
            "TESTING": True,
            "HINT": down,
        }
    )
    client = app.test_client()
    game_id, tokens = started(client)
    answer = client.get(f"/api/games/{game_id}/hint", headers=auth(tokens["blue"]))
    assert answer.status_code == 503 and "try again later" in answer.json["detail"]
    assert len(calls) == 1
