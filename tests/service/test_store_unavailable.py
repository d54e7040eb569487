"""When the event store's Redis cannot be reached, every request answers 503 with
``Retry-After`` and a sentence (not a 500), and a command is appended whole or not at all:
sent again once the store is back, it counts once."""

from __future__ import annotations

import fakeredis
import pytest
import redis
from kombu.exceptions import OperationalError

from events.embedded import start_redis
from events.store import InMemoryEventStore
from service import create_app

CHOOSE = {"command": {"type": "choose_warlord", "warlord": "reinforce"}}


def auth(token, key=None):
    headers = {"Authorization": f"Bearer {token}"}
    return {**headers, "Idempotency-Key": key} if key else headers


def started(client):
    created = client.post(
        "/api/games", json={"options": {}, "seats": {"blue": "human", "red": "human"}}
    )
    assert created.status_code == 201, created.json
    tokens = {seat: link["token"] for seat, link in created.json["seats"].items()}
    for token in tokens.values():
        joined = client.post(f"/api/games/{created.json['game_id']}/join", json={},
                             headers=auth(token))  # fmt: skip
        assert joined.status_code == 200, joined.json
    return created.json["game_id"], tokens


def assert_unavailable(response):
    assert response.status_code == 503, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert int(response.headers["Retry-After"]) > 0
    body = response.json
    assert body["type"] == "/problems/unavailable" and body["status"] == 503
    assert "cannot be reached" in body["detail"] and "try again" in body["detail"]
    assert "Error" not in body["detail"] and "redis" not in body["detail"].lower()


@pytest.fixture
def server(tmp_path):
    process = start_redis(tmp_path / "redis")
    yield process
    process.stop()


def test_a_command_and_a_read_while_redis_is_down_answer_503_then_work_once(server, tmp_path):
    app = create_app({"REDIS_URL": server.url, "TESTING": True,
                      "RATELIMIT_WRITES": "1000 per second",
                      "ON_APPENDED": lambda *args: None})  # fmt: skip
    client = app.test_client()
    game_id, tokens = started(client)
    before = client.get(f"/api/games/{game_id}").json["version"]

    server.stop()  # the store goes away; AOF keeps what it had
    sent = client.post(f"/api/games/{game_id}/commands", json=CHOOSE,
                       headers=auth(tokens["blue"], "k1"))  # fmt: skip
    assert_unavailable(sent)
    assert_unavailable(client.get(f"/api/games/{game_id}"))

    back = start_redis(server.data_dir, port=server.port)  # back, with the same data
    try:
        assert client.get(f"/api/games/{game_id}").json["version"] == before  # not half-done
        first = client.post(f"/api/games/{game_id}/commands", json=CHOOSE,
                            headers=auth(tokens["blue"], "k1"))  # fmt: skip
        again = client.post(f"/api/games/{game_id}/commands", json=CHOOSE,
                            headers=auth(tokens["blue"], "k1"))  # fmt: skip
        assert first.status_code == again.status_code == 201, first.json
        assert not first.json.get("duplicate") and again.json["duplicate"]
        game = client.get(f"/api/games/{game_id}").json
        assert game["version"] == first.json["version"] == before + len(first.json["events"])
        events = client.get(f"/api/games/{game_id}/events").json
        given = [e for e in events["events"] if e["type"] == "command_given"]
        assert len(given) == 1  # appended once
    finally:
        back.stop()


class Unreachable(fakeredis.FakeRedis):
    """A client whose server went away: every command raises ``error``."""

    error: Exception | None = None

    def execute_command(self, *args, **options):
        if self.error is not None:
            raise self.error
        return super().execute_command(*args, **options)


@pytest.mark.parametrize(
    "error",
    [
        redis.exceptions.ConnectionError("Error 111 connecting"),
        redis.exceptions.TimeoutError("Timeout reading from socket"),
    ],
)
def test_a_client_that_cannot_reach_redis_answers_503(error):
    swapped = Unreachable()
    app = create_app({"STORE": InMemoryEventStore(), "REDIS": swapped, "TESTING": True,
                      "RATELIMIT_WRITES": "1000 per second"})  # fmt: skip
    client = app.test_client()
    assert client.get("/api/replays/nope").status_code == 404  # reachable: an answer
    swapped.error = error
    assert_unavailable(client.get("/api/replays/nope"))


def test_a_broker_that_cannot_be_reached_answers_503_with_retry_after():
    def down(*ask):
        raise OperationalError("[Errno 111] Connection refused")

    app = create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                      "TESTING": True, "HINT": down})  # fmt: skip
    client = app.test_client()
    game_id, tokens = started(client)
    answer = client.get(f"/api/games/{game_id}/hint", headers=auth(tokens["blue"]))
    assert answer.status_code == 503 and int(answer.headers["Retry-After"]) > 0
    assert answer.json["type"] == "/problems/unavailable"


def test_the_openapi_documents_the_503_and_its_retry_after():
    app = create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                      "TESTING": True})  # fmt: skip
    spec = app.test_client().get("/api/openapi.json").json
    operations = [op for path in spec["paths"].values() for op in path.values()
                  if isinstance(op, dict) and "responses" in op]  # fmt: skip
    assert operations
    for op in operations:
        documented = op["responses"]["503"]
        assert "cannot be reached" in documented["description"]
        assert "Retry-After" in documented["headers"]


@pytest.mark.parametrize("lang, words", [("ko", "몇 초"), ("ja", "数秒"), ("zh", "几秒")])
def test_the_503_is_said_in_the_readers_language(lang, words):
    swapped = Unreachable()
    app = create_app({"STORE": InMemoryEventStore(), "REDIS": swapped, "TESTING": True})
    swapped.error = redis.exceptions.ConnectionError("Error 111 connecting")
    answer = app.test_client().get("/api/replays/nope", headers={"Accept-Language": lang})
    assert answer.status_code == 503 and answer.json["type"] == "/problems/unavailable"
    assert words in answer.json["detail"] and "Not available" not in answer.json["title"]
