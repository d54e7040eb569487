"""The notifications API and the webhook registration, through Flask's test client over
the in-memory store (the follower runs in the write path there: no projector)."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime, timedelta

import fakeredis
import pytest

from events.store import InMemoryEventStore
from service import create_app


class Clock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now


def make_app(**config):
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True, "SSE_SECONDS": 0.3,
                       "SSE_HEARTBEAT": 0.05, "RATELIMIT_WRITES": "1000 per second",
                       "SECRET_KEY": "k", **config})  # fmt: skip


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def app(clock):
    return make_app(CLOCK=clock, BINGFA_WEBHOOK_ALLOW_LOCAL=False)


def assert_problem(response, status, words):
    assert response.status_code == status, response.json
    assert response.mimetype == "application/problem+json"
    assert words in response.json["detail"], response.json


def friend_game(blue, red):
    """Blue creates a game and takes its seat; Red joins through the invite token."""
    created = blue.post("/api/games", json={"seats": {"blue": "human", "red": "human"}})
    game_id = created.json["game_id"]
    tokens = {s: link["token"] for s, link in created.json["seats"].items()}
    for client, seat in ((blue, "blue"), (red, "red")):
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        assert client.post(f"/api/games/{game_id}/join", json={}, headers=auth).status_code == 200
    return game_id


def test_the_waiting_player_finds_their_notifications(app):
    blue, red = app.test_client(), app.test_client()
    assert blue.get("/api/me/notifications").json == {"notifications": [], "unread": 0,
                                                      "last_seq": 0}  # fmt: skip
    game_id = friend_game(blue, red)
    listed = blue.get("/api/me/notifications").json
    assert [n["kind"] for n in listed["notifications"]] == ["turn", "joined"]
    assert listed["unread"] == 2 and listed["last_seq"] == 2
    first = listed["notifications"][1]
    assert first["url"] == f"/g/{game_id}/blue" and first["read"] is False
    assert "player" not in first
    assert red.get("/api/me/notifications").json["notifications"] == []
    assert blue.post("/api/me/notifications/read", json={"upto": 1}).json == {"unread": 1}
    assert blue.post("/api/me/notifications/read", json={}).json == {"unread": 0}
    older = blue.get("/api/me/notifications?before=2").json["notifications"]
    assert [n["seq"] for n in older] == [1]
    newer = blue.get("/api/me/notifications?after=1").json["notifications"]
    assert [n["seq"] for n in newer] == [2]
    red.post(f"/api/games/{game_id}/commands", json={"command": {"type": "resign"}},
             headers={"X-Bingfa-Seat": "red"})  # fmt: skip
    assert [n["kind"] for n in red.get("/api/me/notifications").json["notifications"]] == ["over"]
    assert blue.get("/api/me/notifications").json["unread"] == 1


def test_bad_listing_queries_are_refused(app):
    client = app.test_client()
    assert client.get("/api/me/notifications?limit=0").status_code == 422
    assert client.get("/api/me/notifications?before=x").status_code == 422
    assert client.post("/api/me/notifications/read", json={"upto": -1}).status_code == 422


def test_the_stream_sends_each_new_notification_once(app):
    blue, red = app.test_client(), app.test_client()
    friend_game(blue, red)
    results = [blue.get("/api/me/notifications/stream?after=0").get_data(as_text=True)]
    events = [block for block in results[0].split("\n\n") if "event: notification" in block]
    data = [json.loads(b.split("data: ", 1)[1]) for b in events]
    assert [d["kind"] for d in data] == ["joined", "turn"]
    assert [b.split("\n")[0] for b in events] == ["id: 1", "id: 2"]
    # Reconnecting with the last id it saw sends only what came after.
    again = blue.get("/api/me/notifications/stream", headers={"Last-Event-ID": "1"})
    assert again.get_data(as_text=True).count("event: notification") == 1
    # A new stream without one starts from now.
    fresh = blue.get("/api/me/notifications/stream").get_data(as_text=True)
    assert "event: notification" not in fresh


def test_registering_a_webhook_shows_its_secret_once(app):
    client = app.test_client()
    assert_problem(client.get("/api/me/webhook"), 404, "no webhook")
    put = client.put("/api/me/webhook", json={"url": "https://example.com/hook",
                                               "digest": "daily", "digest_hour": 18})  # fmt: skip
    assert put.status_code == 200, put.json
    secret = put.json["secret"]
    assert secret.startswith("whsec_") and len(secret) > 40
    assert put.json["url"] == "https://example.com/hook" and put.json["digest"] == "daily"
    got = client.get("/api/me/webhook")
    assert got.json["url"] == "https://example.com/hook" and got.json["digest_hour"] == 18
    assert "secret" not in got.json and secret not in got.get_data(as_text=True)
    # Nothing kept anywhere holds the secret (it is derived when a delivery is signed).
    redis = app.extensions["notifications"].redis
    for key in redis.keys("*"):
        if redis.type(key) == b"hash":
            assert secret.encode() not in b"".join(redis.hgetall(key).values())
    again = client.put("/api/me/webhook", json={"url": "https://example.com/hook"})
    assert again.json["secret"] != secret  # registering again makes a new one
    assert client.delete("/api/me/webhook").status_code == 204
    assert_problem(client.delete("/api/me/webhook"), 404, "no webhook")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"url": "ftp://example.com/x"}, "http:// or https://"),
        ({"url": "javascript:alert(1)"}, "http:// or https://"),
        ({"url": "http://127.0.0.1:8000/hook"}, "private or local"),
        ({"url": "http://192.168.1.10/hook"}, "private or local"),
        ({"url": "http://localhost/hook"}, "local name"),
    ],
)
def test_a_bad_webhook_url_is_refused_with_a_sentence(app, body, words):
    client = app.test_client()
    assert_problem(client.put("/api/me/webhook", json=body), 422, words)
    assert client.get("/api/me/webhook").status_code == 404


def test_bad_webhook_settings_are_refused(app):
    client = app.test_client()
    for body in ({}, {"url": "https://example.com", "digest": "weekly"},
                 {"url": "https://example.com", "digest_hour": 24}):  # fmt: skip
        response = client.put("/api/me/webhook", json=body)
        assert response.status_code == 422 and response.json["errors"]


def test_the_test_ping_reaches_a_local_receiver_when_allowed(clock):
    import http.server

    got: list[dict] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            got.append({"headers": dict(self.headers),
                        "body": self.rfile.read(int(self.headers["Content-Length"]))})  # fmt: skip
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        app = make_app(CLOCK=clock, BINGFA_WEBHOOK_ALLOW_LOCAL=True)
        client = app.test_client()
        assert_problem(client.post("/api/me/webhook/test"), 404, "no webhook")
        url = f"http://127.0.0.1:{server.server_port}/hook"
        secret = client.put("/api/me/webhook", json={"url": url}).json["secret"]
        answer = client.post("/api/me/webhook/test")
        assert answer.json == {"delivered": True, "sentence": "The test was delivered."}
    finally:
        server.shutdown()
        server.server_close()
    from workers.notify import verify

    [ping] = got
    assert json.loads(ping["body"])["kind"] == "test"
    assert verify(secret, ping["body"], ping["headers"]["X-Bingfa-Signature"],
                  round(clock.now.timestamp()))  # fmt: skip
    deliveries = client.get("/api/me/webhook").json["deliveries"]
    assert deliveries[0]["result"] == "sent"


def test_the_test_ping_is_no_port_scanner_it_says_delivered_or_not_and_nothing_more(clock):
    import http.server

    class NotFound(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.send_response(404)
            self.send_header("Content-Length", "9")
            self.end_headers()
            self.wfile.write(b"nginx 1.2")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), NotFound)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    answers = []
    try:
        app = make_app(CLOCK=clock, BINGFA_WEBHOOK_ALLOW_LOCAL=True)
        client = app.test_client()
        for url in (f"http://127.0.0.1:{server.server_port}/x", "http://127.0.0.1:9/closed"):
            client.put("/api/me/webhook", json={"url": url})
            answers.append(client.post("/api/me/webhook/test").json)
            log = client.get("/api/me/webhook").json["deliveries"]
            assert all(set(d) <= {"id", "attempts", "at_ms", "result"} for d in log), log
    finally:
        server.shutdown()
        server.server_close()
    # something answering 404 and nothing listening read the same
    assert answers[0] == answers[1] and answers[0]["delivered"] is False
    assert "404" not in str(answers) and "nginx" not in str(answers)


def test_a_move_queues_the_webhook_but_never_waits_for_it(clock):
    app = make_app(CLOCK=clock, BINGFA_WEBHOOK_ALLOW_LOCAL=True)
    blue, red = app.test_client(), app.test_client()
    # Nothing listens at this address: a move must not care.
    blue.put("/api/me/webhook", json={"url": "http://127.0.0.1:9/never"})
    game_id = friend_game(blue, red)
    store = app.extensions["notifications"]
    assert store.outbox_size() == 2  # joined + your turn, for the worker to send
    clock.now += timedelta(minutes=1)
    assert red.post(f"/api/games/{game_id}/commands", json={"command": {"type": "resign"}},
                    headers={"X-Bingfa-Seat": "red"}).status_code == 201  # fmt: skip
    assert store.outbox_size() == 3
