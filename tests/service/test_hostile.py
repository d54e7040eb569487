"""What an attacker sends: each bad input gets its status and a sentence, and changes
nothing (the game's version, its events and its state as before), and the game still
plays for its players afterwards.

Oversized bodies, deep nesting, numbers and texts the store could not read back, unknown
fields, values of the wrong shape, ids that are no ids, forged hosts, origins, tokens and
forwarding headers.
"""

from __future__ import annotations

import json

import fakeredis
import pytest

import games
from events.store import InMemoryEventStore
from service import create_app

RULES = games.get("sun-tzu")


def make_app(**config):
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True,
                       "RATELIMIT_WRITES": "1000 per second", **config})  # fmt: skip


@pytest.fixture
def app():
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def started(client):
    created = client.post("/api/games", json={"options": {"events": True}}).json
    tokens = {seat: link["token"] for seat, link in created["seats"].items()}
    for token in tokens.values():
        client.post(f"/api/games/{created['game_id']}/join", json={}, headers=auth(token))
    return created["game_id"], tokens


@pytest.fixture
def game(client):
    return started(client)


def problem(response, status, *words):
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/problem+json"
    body = response.json
    assert body["status"] == status and body["type"].startswith("/problems/")
    assert 10 < len(body["detail"]) < 600 and "Traceback" not in body["detail"]
    for word in words:
        assert word in body["detail"], body
    return body


class Unchanged:
    """The game as it stands: its version, its events and each seat's view."""

    def __init__(self, app, client, game_id, tokens):
        self.app, self.client, self.game_id, self.tokens = app, client, game_id, tokens
        self.before = self.snapshot()

    def snapshot(self):
        store = self.app.extensions["bingfa"].store
        views = {seat: self.client.get(f"/api/games/{self.game_id}", headers=auth(t)).json
                 for seat, t in self.tokens.items()}  # fmt: skip
        return store.version(self.game_id), [e.hash for e in store.read(self.game_id)], views

    def check(self):
        assert self.snapshot() == self.before
        # …and the game still plays: a legal command of a seat that owes one goes through
        game = self.app.extensions["bingfa"].load(self.game_id)
        seat = next(iter(game.pending))
        command = RULES.legal(game.state, seat)[0]
        sent = self.client.post(f"/api/games/{self.game_id}/commands", json={"command": command},
                                headers=auth(self.tokens[seat]))  # fmt: skip
        assert sent.status_code == 201, sent.json


@pytest.fixture
def unchanged(app, client, game):
    return Unchanged(app, client, *game)


def owing(app, game_id):
    game = app.extensions["bingfa"].load(game_id)
    return next(iter(game.pending))


def send(client, game, raw, content_type="application/json", seat=None):
    game_id, tokens = game
    headers = {"Content-Type": content_type, **auth(tokens[seat or "blue"])}
    return client.post(f"/api/games/{game_id}/commands", data=raw, headers=headers)


# -- bodies: size, nesting, numbers and texts the store could not keep ----------------------
def test_a_command_body_over_4_kib_is_refused_unread(client, game, unchanged):
    raw = json.dumps({"command": {"type": "resign", "x": "y" * 5000}})
    problem(send(client, game, raw), 413, "at most 4,096 bytes")
    unchanged.check()


def test_an_idempotency_key_longer_than_any_client_needs_is_a_400(client, game, unchanged):
    game_id, tokens = game
    command = RULES.legal(unchanged.app.extensions["bingfa"].load(game_id).state, "blue")[0]
    headers = {**auth(tokens["blue"]), "Idempotency-Key": "k" * 201}
    sent = client.post(f"/api/games/{game_id}/commands", json={"command": command},
                       headers=headers)  # fmt: skip
    body = problem(sent, 400, "Idempotency-Key", "at most 200 characters")
    assert "k" * 20 not in body["detail"]
    unchanged.check()


def test_an_idempotency_key_of_200_characters_makes_a_retry_count_once(client, game):
    game_id, tokens = game
    command = RULES.legal(client.application.extensions["bingfa"].load(game_id).state,
                          "blue")[0]  # fmt: skip
    headers = {**auth(tokens["blue"]), "Idempotency-Key": "k" * 200}
    first = client.post(f"/api/games/{game_id}/commands", json={"command": command},
                        headers=headers)  # fmt: skip
    again = client.post(f"/api/games/{game_id}/commands", json={"command": command},
                        headers=headers)  # fmt: skip
    assert first.status_code == 201 and again.status_code == 201, (first.json, again.json)
    assert again.json["duplicate"] and again.json["version"] == first.json["version"]


def test_a_20_mb_command_is_refused_before_it_is_read(client, game, unchanged):
    raw = b'{"command": {"type": "resign", "pad": "' + b"x" * 20_000_000 + b'"}}'
    problem(send(client, game, raw), 413, "at most 4,096 bytes")
    unchanged.check()


def test_any_other_body_is_limited_too(client):
    problem(client.post("/api/games", data=b" " * 20_000, content_type="application/json"),
            413, "at most 16,384 bytes")  # fmt: skip
    assert client.get("/api/lobby").json["games"] == []


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ('{"command": ' + "[" * 1000 + "]" * 1000 + "}", "more than 32 deep"),
        ('{"command": {"type": "resign", "reinforce": ["\\ud800"]}}', "not JSON this server"),
        ('{"command": {"type": "sources", "take": {"Qin": NaN}}}', "not JSON this server"),
        ('{"command": {"type": "sources", "take": {"Qin": Infinity}}}', "not JSON this server"),
        ('{"command": {"type": "sources", "take": {"Qin": 1' + "0" * 400 + "}}}",
         "not JSON this server"),
        ('{"command": {"type": "resign", "x": 1' + "0" * 400 + "}}", "not JSON this server"),
        ('{"command": {"type": "resign"', "not JSON this server"),
        (b'{"command": {"type": "\xff"}}', "not JSON this server"),
    ],
    ids=["deep", "surrogate", "NaN", "Infinity", "1e400", "1e400 beside", "cut", "not UTF-8"],
)  # fmt: skip
def test_json_the_store_could_not_read_back_is_a_400(client, game, unchanged, raw, words):
    problem(send(client, game, raw), 400, words)
    unchanged.check()


@pytest.mark.parametrize(
    ("command", "status", "words"),
    [
        ({"type": "resign", "x": 2**64}, 422, "no field 'x'"),
        ({"type": "resign", "note": "hi", "why": [1]}, 422, "no field 'note', 'why'"),
        ({"type": "sources", "take": {"Qin": 2**64}}, 422, "take.Qin"),
        ({"type": "sources", "take": {"Qin": 2**53}}, 422, "take.Qin"),
        ({"type": "place", "cards": {"Qin": ["7"], "Chu": "1"}}, 422, "cards.Qin"),
        ({"type": "place", "cards": {"Qin": {"a": 1}}}, 422, "cards.Qin"),
        ({"type": "keep", "cards": [["7"]]}, 422, "cards"),
        ({"type": "choose_warlord", "warlord": "x" * 201}, 422, "warlord"),
        ({"type": "next_province", "provinces": ["Qin"] * 65}, 422, "provinces"),
        ({"type": ["resign"]}, 422, 'object with a "type"'),
        ({"type": "launch_missiles"}, 422, "there is no command 'launch_missiles'"),
        ("resign", 422, "command"),
        ([{"type": "resign"}], 422, "command"),
    ],
)  # fmt: skip
def test_a_command_of_another_shape_is_a_422_naming_the_field(
    client, game, unchanged, command, status, words
):
    body = problem(send(client, game, json.dumps({"command": command})), status, words)
    assert "x" * 50 not in body["detail"]  # what was sent is not echoed at length
    unchanged.check()


def test_unknown_fields_beside_the_command_are_refused_by_name(client, game, unchanged):
    raw = json.dumps({"command": {"type": "resign"}, "admin": True})
    body = problem(send(client, game, raw), 422, "admin")
    assert "admin" in body["errors"]
    unchanged.check()


def test_a_missing_or_non_json_body_is_a_422(client, game, unchanged):
    problem(send(client, game, b""), 422, "command")
    problem(send(client, game, b"resign", content_type="text/plain"), 422, "command")
    unchanged.check()


@pytest.mark.parametrize(
    "query",
    ["after=99999999999999999999", "after=-1", "after=1.5", "after=x", "after=9007199254740992"],
)
def test_a_position_out_of_range_is_a_422(client, game, query):
    game_id, tokens = game
    problem(client.get(f"/api/games/{game_id}/events?{query}", headers=auth(tokens["blue"])),
            422, "after")  # fmt: skip


def test_an_expected_version_out_of_range_is_a_422(client, game, unchanged):
    for version in (2**64, -1, 1.5, "3", True):
        raw = json.dumps({"command": {"type": "resign"}, "expected_version": version})
        problem(send(client, game, raw), 422, "expected_version")
    unchanged.check()


def test_a_stream_resumed_from_nonsense_starts_from_the_beginning(app, client, game):
    app.config.update(SSE_SECONDS=0.1, SSE_HEARTBEAT=0.02)
    game_id, tokens = game
    for last in ("99999999999999999999", "-5", "x", "1" * 5000):
        response = client.get(f"/api/games/{game_id}/stream", headers={
            "Last-Event-ID": last, **auth(tokens["blue"])})  # fmt: skip
        assert response.status_code == 200
        assert b"id: 1\n" in response.get_data()


# -- ids that are no ids ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "path",
    [
        "/api/games/" + "a" * 10_000,
        "/api/games/..%2F..%2Fetc%2Fpasswd",
        "/api/games/a%20b/events",
        "/api/replays/" + "a" * 65,
        "/api/replays/x%00y/verify",
        "/api/players/%E2%80%AE",
    ],
)
def test_an_id_that_is_no_id_is_a_404_before_anything_is_looked_up(client, path):
    problem(client.get(path), 404)


# -- hosts, origins, tokens and forwarding headers nobody may forge ---------------------------
def test_a_host_this_server_does_not_serve_is_refused(client):
    # DNS rebinding: evil.example resolves to 127.0.0.1; the browser sends its own Host.
    problem(client.get("/api/lobby", headers={"Host": "evil.example"}), 400,
            "does not answer for 'evil.example'")  # fmt: skip
    problem(client.post("/api/games", json={}, headers={"Host": "evil.example",
                                                        "Origin": "http://evil.example"}),
            400)  # fmt: skip
    assert client.get("/api/lobby", headers={"Host": "127.0.0.1:8000"}).status_code == 200
    assert client.get("/api/lobby", headers={"Host": "[::1]:8000"}).status_code == 200


def test_only_the_public_origins_are_served_when_set():
    app = make_app(PUBLIC_ORIGINS="https://bingfa.example")
    client = app.test_client()
    problem(client.get("/api/lobby", headers={"Host": "localhost"}), 400,
            "https://bingfa.example")  # fmt: skip
    ok = client.get("/api/lobby", base_url="https://bingfa.example")
    assert ok.status_code == 200
    # over https: the session cookie is Secure, and HSTS says so for a year
    assert ok.headers["Strict-Transport-Security"].startswith("max-age=31536000")
    here = {"Origin": "https://bingfa.example"}
    made = client.post("/api/games", json={}, base_url="https://bingfa.example", headers=here)
    assert made.status_code == 201
    token = made.json["seats"]["blue"]["token"]
    joined = client.post(
        f"/api/games/{made.json['game_id']}/join",
        json={},
        base_url="https://bingfa.example",
        headers={**here, **auth(token)},
    )
    cookie = joined.headers["Set-Cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    for origin in ("http://bingfa.example", "https://bingfa.example:444",
                   "https://evil.example", "null"):  # fmt: skip
        problem(client.post("/api/games", json={}, base_url="https://bingfa.example",
                            headers={"Origin": origin}), 403, "may not change")  # fmt: skip


def test_without_https_there_is_no_hsts_and_no_secure_cookie(client):
    made = client.post("/api/games", json={})
    assert "Strict-Transport-Security" not in made.headers
    token = made.json["seats"]["blue"]["token"]
    joined = client.post(f"/api/games/{made.json['game_id']}/join", json={}, headers=auth(token))
    assert "Secure" not in joined.headers["Set-Cookie"]


def test_an_origin_of_another_scheme_or_port_is_another_origin(client, game, unchanged):
    game_id, tokens = game
    for origin in ("https://localhost", "http://localhost:8201", "http://127.0.0.1"):
        problem(client.post(f"/api/games/{game_id}/commands", json={"command": {
            "type": "resign"}}, headers={"Origin": origin, **auth(tokens["blue"])}),
            403, "may not change")  # fmt: skip
    unchanged.check()
    same = client.post("/api/games", json={}, headers={"Origin": "http://localhost"})
    assert same.status_code == 201


def test_made_up_tokens_buy_no_budget_of_their_own():
    app = make_app(RATELIMIT_WRITES="5 per minute")
    client = app.test_client()
    for n in range(5):
        assert client.post("/api/games", json={}, headers=auth(f"made-up-{n}")).status_code == 201
    for n in range(5, 10):  # a fresh random token each time: the same address, refused
        problem(client.post("/api/games", json={}, headers=auth(f"made-up-{n}")), 429)
    forged = {"X-Forwarded-For": "10.9.8.7", "X-Real-IP": "10.9.8.7", **auth("another")}
    problem(client.post("/api/games", json={}, headers=forged), 429)


def test_a_seat_with_a_valid_token_has_its_own_budget():
    app = make_app(RATELIMIT_WRITES="6 per minute")
    client = app.test_client()
    game_id, tokens = started(client)  # 1 write from this address, a join by each seat
    for _ in range(5):
        assert client.post("/api/games", json={}).status_code == 201
    problem(client.post("/api/games", json={}), 429)  # the address has spent its budget
    for seat, token in tokens.items():  # …the seats still play
        game = app.extensions["bingfa"].load(game_id)
        if seat in game.pending:
            command = RULES.legal(game.state, seat)[0]
            sent = client.post(f"/api/games/{game_id}/commands", json={"command": command},
                               headers=auth(token))  # fmt: skip
            assert sent.status_code == 201, sent.json
    # a wrong token for this game counts against the address, which has none left
    problem(client.post(f"/api/games/{game_id}/commands", json={"command": {"type": "resign"}},
                        headers=auth("not-a-seat")), 429)  # fmt: skip


def test_the_proxies_word_counts_only_when_they_are_trusted():
    app = make_app(RATELIMIT_WRITES="2 per minute", PROXIES=1)
    client = app.test_client()
    for addr in ("10.0.0.1", "10.0.0.2"):
        for _ in range(2):
            made = client.post("/api/games", json={}, headers={"X-Forwarded-For": addr})
            assert made.status_code == 201
        problem(client.post("/api/games", json={}, headers={"X-Forwarded-For": addr}), 429)


# -- responses with hands or tokens are not kept by any cache ---------------------------------
def test_answers_with_a_hand_or_a_token_are_never_cached(client, game):
    game_id, tokens = game
    made = client.post("/api/games", json={})
    assert made.headers["Cache-Control"] == "no-store"
    view = client.get(f"/api/games/{game_id}", headers=auth(tokens["blue"]))
    assert view.json["view"]["players"]["blue"]["hand"] and view.headers["Cache-Control"] == (
        "no-store"
    )
    events = client.get(f"/api/games/{game_id}/events", headers=auth(tokens["blue"]))
    assert events.headers["Cache-Control"] == "no-store"
