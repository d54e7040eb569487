"""The REST API through Flask's test client, over an in-memory store."""

from __future__ import annotations

import json
import random

import fakeredis
import pytest

import games
from events.store import InMemoryEventStore
from service import create_app
from workers.ai import LEVELS

RULES = games.get("sun-tzu")


@pytest.fixture
def app():
    return create_app(
        {
            "STORE": InMemoryEventStore(),
            "REDIS": fakeredis.FakeRedis(),
            "TESTING": True,
            "SSE_SECONDS": 0.2,
            "SSE_HEARTBEAT": 0.05,
            "RATELIMIT_WRITES": "1000 per second",
        }
    )


@pytest.fixture
def client(app):
    return app.test_client()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def new_game(client, options=None, seats=None):
    body = {"options": options or {}, "seats": seats or {"blue": "human", "red": "human"}}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.json
    return response.json


def started(client, options=None):
    created = new_game(client, options)
    tokens = {seat: link["token"] for seat, link in created["seats"].items()}
    for token in tokens.values():
        joined = client.post(f"/api/games/{created['game_id']}/join", json={}, headers=auth(token))
        assert joined.status_code == 200
    return created["game_id"], tokens


def assert_problem(response, status, words):
    assert response.status_code == status, response.json
    assert response.mimetype == "application/problem+json"
    body = response.json
    assert body["status"] == status and body["title"] and body["type"].startswith("/problems/")
    assert words in body["detail"], body


def test_creating_gives_each_human_seat_a_token_and_an_invite(client, app):
    created = new_game(client, seats={"blue": "human", "red": "ai:random"})
    blue = created["seats"]["blue"]
    assert blue["invite"] == f"/g/{created['game_id']}/blue#token={blue['token']}"
    assert "token" not in created["seats"]["red"]
    stored = app.extensions["bingfa"].access(created["game_id"])
    assert blue["token"] not in json.dumps(stored)  # only its hash is kept


def test_the_spectator_and_the_seats_see_different_things(client):
    game_id, tokens = started(client)
    spectator = client.get(f"/api/games/{game_id}")
    blue = client.get(f"/api/games/{game_id}", headers=auth(tokens["blue"]))
    assert spectator.json["seat"] is None and blue.json["seat"] == "blue"
    assert spectator.json["view"]["players"]["blue"]["hand"] is None
    assert len(blue.json["view"]["players"]["blue"]["hand"]) == 10
    assert blue.json["view"]["players"]["red"]["hand"] is None
    assert blue.headers["ETag"] == f'"{blue.json["version"]}"'
    assert blue.json["pending"] == {"blue": "choose_warlord", "red": "choose_warlord"}


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess"}, 404, "no game called 'chess'"),
        ({"options": {"variant": "x"}}, 422, "standard or beginner"),
        ({"seats": {"blue": "human"}}, 422, "blue and red"),
        ({"seats": "both"}, 422, "seats"),
        ({"colour": "red"}, 422, "colour"),
    ],
)
def test_a_bad_new_game_is_refused_with_a_problem(client, body, status, words):
    assert_problem(client.post("/api/games", json=body), status, words)


def test_joining_needs_the_seat_token_and_happens_once(client):
    created = new_game(client)
    game_id = created["game_id"]
    assert_problem(client.post(f"/api/games/{game_id}/join", json={}), 401, "needs its token")
    bad = client.post(f"/api/games/{game_id}/join", json={}, headers=auth("forged"))
    assert_problem(bad, 401, "not a seat of this game")
    token = created["seats"]["red"]["token"]
    ok = client.post(f"/api/games/{game_id}/join", json={"nonce": "mine"}, headers=auth(token))
    assert ok.status_code == 200 and ok.json == {"version": 2}
    again = client.post(f"/api/games/{game_id}/join", json={}, headers=auth(token))
    assert_problem(again, 403, "already taken")
    long = client.post(f"/api/games/{game_id}/join", json={"nonce": "n" * 201},
                       headers=auth(created["seats"]["blue"]["token"]))  # fmt: skip
    assert_problem(long, 422, "nonce")


def test_a_command_appends_and_answers_with_the_callers_events(client):
    game_id, tokens = started(client)
    response = client.post(
        f"/api/games/{game_id}/commands",
        json={"command": {"type": "choose_warlord", "warlord": "reinforce"}},
        headers=auth(tokens["blue"]),
    )
    assert response.status_code == 201
    given, event = response.json["events"]
    assert given["type"] == "command_given" and given["actor"] == "blue"
    assert given["payload"]["command"] == {"type": "choose_warlord", "warlord": "reinforce"}
    assert event["type"] == "warlord_chosen" and event["payload"]["warlord"] == "reinforce"
    red_sees = client.get(f"/api/games/{game_id}/events?after={given['seq'] - 1}",
                          headers=auth(tokens["red"])).json["events"]  # fmt: skip
    assert [e["redacted"] for e in red_sees] == [True, True]
    assert red_sees[0]["payload"] == {"seat": "blue"}  # who acted, not what they chose
    assert "warlord" not in red_sees[1]["payload"]
    assert "salt" not in red_sees[1] and event["salt"]


@pytest.mark.parametrize(
    ("body", "headers", "status", "words"),
    [
        ({"command": {"type": "choose_warlord", "warlord": "remove"}}, {}, 422, "not one of"),
        ({"command": {"type": "fly"}}, {}, 422, "no command 'fly'"),
        ({"commandx": {}}, {}, 422, "command"),
        ({"command": {"type": "resign"}, "expected_version": 1}, {}, 409, "moved first"),
        ({"command": {"type": "resign"}}, {"If-Match": '"3"'}, 409, "moved first"),
        ({"command": {"type": "resign"}}, {"If-Match": "soon"}, 400, "If-Match"),
    ],
)
def test_a_bad_command_is_refused_and_appends_nothing(client, app, body, headers, status, words):
    game_id, tokens = started(client)
    store = app.extensions["bingfa"].store
    before = store.version(game_id)
    response = client.post(f"/api/games/{game_id}/commands", json=body,
                           headers={**auth(tokens["blue"]), **headers})  # fmt: skip
    assert_problem(response, status, words)
    assert store.version(game_id) == before


def test_a_command_without_a_token_is_unauthorised(client, app):
    game_id, _ = started(client)
    response = client.post(f"/api/games/{game_id}/commands", json={"command": {"type": "resign"}})
    assert_problem(response, 401, "needs your seat's token")


def test_an_unknown_game_is_a_404_problem(client):
    assert_problem(client.get("/api/games/nope"), 404, "no game 'nope'")
    assert_problem(client.get("/api/games/nope/events"), 404, "no game 'nope'")


def test_idempotency_key_retries_return_the_original_result(client, app):
    game_id, tokens = started(client)
    send = {"command": {"type": "choose_warlord", "warlord": "reinforce"}}
    headers = {**auth(tokens["blue"]), "Idempotency-Key": "abc"}
    first = client.post(f"/api/games/{game_id}/commands", json=send, headers=headers)
    second = client.post(f"/api/games/{game_id}/commands", json=send, headers=headers)
    assert first.status_code == second.status_code == 201
    assert second.json["duplicate"] and second.json["version"] == first.json["version"]
    assert second.json["events"] == first.json["events"]  # what the lost answer said
    assert [e["type"] for e in first.json["events"]] == ["command_given", "warlord_chosen"]
    other = client.post(f"/api/games/{game_id}/commands", json={"command": {"type": "resign"}},
                        headers=headers)  # fmt: skip
    assert_problem(other, 409, "already used")


def test_the_stream_sends_server_sent_events_from_last_event_id(client):
    game_id, tokens = started(client)
    response = client.get(f"/api/games/{game_id}/stream",
                          headers={**auth(tokens["blue"]), "Last-Event-ID": "3"})  # fmt: skip
    assert response.mimetype == "text/event-stream"
    text = response.get_data(as_text=True)
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids and ids[0] == 4 and ids == list(range(4, 4 + len(ids)))


def test_the_openapi_document_lists_every_endpoint(client):
    spec = client.get("/api/openapi.json").json
    paths = set(spec["paths"])
    assert {"/api/games", "/api/games/{game_id}", "/api/games/{game_id}/commands",
            "/api/games/{game_id}/events", "/api/games/{game_id}/join",
            "/api/games/{game_id}/stream"} <= paths  # fmt: skip


def secrets_of(state, seat):
    """Card lists the seat may not see: the other hand, drawn cards, both decks."""
    other = 1 - ("blue", "red").index(seat)
    return {
        "hand": list(state.hands[other]),
        "drawn": list(state.drawn[other]),
        "deck_mine": list(state.decks[1 - other]),
        "deck_theirs": list(state.decks[other]),
    }


def test_no_response_of_a_whole_game_shows_a_seat_what_it_may_not_see(client, app):
    """Every response to a seat or a spectator, checked against the server's own state."""
    game_id, tokens = started(client, {"events": True})
    bingfa = app.extensions["bingfa"]
    rng = random.Random(5)
    for step in range(600):
        game = bingfa.load(game_id)
        if not game.pending:
            break
        for who in ("blue", "red", None):
            headers = auth(tokens[who]) if who else {}
            view = client.get(f"/api/games/{game_id}", headers=headers).json["view"]
            for seat in ("blue", "red"):
                if seat != who:
                    assert view["players"][seat]["hand"] is None
                    assert view["players"][seat]["warlords"] is None
            shown = client.get(f"/api/games/{game_id}/events", headers=headers).json["events"]
            if step % 8 == 0:  # and what the live stream sends, now and then (it is slower)
                sse = client.get(f"/api/games/{game_id}/stream", headers=headers)
                streamed = [json.loads(line[6:]) for line in sse.get_data(as_text=True).splitlines()
                            if line.startswith("data: ")]  # fmt: skip
                assert [e["seq"] for e in streamed] == [e["seq"] for e in shown]
                assert streamed == shown
            for env in shown:
                if env["visible_to"] not in ("all", who):
                    assert env.get("redacted") and "salt" not in env
                    payload = env["payload"]
                    if env["type"] == "card_recycled":  # public but for the burned card
                        assert payload["burned"] in (None, "hidden"), env
                        continue
                    for secret in ("cards", "deck", "order", "plan", "keep", "bottom",
                                   "warlord", "plays", "provinces"):  # fmt: skip
                        assert secret not in payload, env
        seat = next(iter(game.pending))
        command = RULES.random_command(game.state, seat, rng)
        response = client.post(f"/api/games/{game_id}/commands", json={"command": command},
                               headers=auth(tokens[seat]))  # fmt: skip
        assert response.status_code == 201, response.json
        for env in response.json["events"]:
            assert env["visible_to"] in ("all", seat) or env.get("redacted")
    final = bingfa.load(game_id)
    assert final.outcome is not None
    everything = client.get(f"/api/games/{game_id}/events").json["events"]
    assert not any(e.get("redacted") for e in everything)  # all public once over
    assert everything[-1]["type"] == "seed_revealed"


def test_every_response_carries_the_security_headers(client):
    response = client.get("/api/openapi.json")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]


def test_a_write_from_another_origin_is_refused(client):
    response = client.post("/api/games", json={}, headers={"Origin": "https://evil.example"})
    assert_problem(response, 403, "may not change anything here")


def test_writes_are_rate_limited():
    app = create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                      "TESTING": True,
                      "RATELIMIT_WRITES": "3 per minute"})  # fmt: skip
    client = app.test_client()
    statuses = [client.post("/api/games", json={}).status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 429]
    refused = client.post("/api/games", json={})
    assert_problem(refused, 429, "slow down: at most 3 per minute for writes")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert client.get("/api/lobby").status_code == 200  # reads are not limited


def test_every_web_worker_counts_writes_against_the_same_budget(redis_url):
    import uuid

    # Two apps, as two gunicorn workers, share the counts kept in Redis; each test run
    # gets its own seat token so counts from an earlier run do not spill over.
    config = {"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
              "RATELIMIT_WRITES": "2 per minute",
              "RATELIMIT_STORAGE_URI": redis_url}  # fmt: skip
    workers = [create_app(config).test_client() for _ in range(2)]
    token = {"Authorization": f"Bearer {uuid.uuid4().hex}"}
    statuses = [w.post("/api/games/x/join", json={}, headers=token).status_code
                for w in (*workers, workers[0])]  # fmt: skip
    assert statuses[2] == 429 and 429 not in statuses[:2], statuses


def test_lists_show_the_lobby_my_games_and_finished_games(client):
    waiting = new_game(client)
    game_id, tokens = started(client)  # this browser holds both seats
    lobby = client.get("/api/lobby").json["games"]
    assert [g["game"] for g in lobby] == [waiting["game_id"]]
    mine = client.get("/api/me/games").json["games"]
    assert [(g["game"], g["seats"], g["status"]) for g in mine] == [
        (game_id, ["blue", "red"], "your turn")
    ]
    client.post(f"/api/games/{game_id}/commands", json={"command": {"type": "resign"}},
                headers=auth(tokens["red"]))  # fmt: skip
    (done,) = client.get("/api/finished").json["games"]
    assert (done["game"], done["winner"], done["reason"]) == (game_id, "blue", "forfeit")
    other_browser = client.application.test_client()
    assert other_browser.get("/api/me/games").json["games"] == []
    assert_problem(client.get("/api/finished?limit=0"), 422, "limit")


def test_an_unknown_ai_level_is_refused(client):
    response = client.post("/api/games", json={"seats": {"blue": "human", "red": "ai:genius"}})
    levels = ", ".join(sorted(LEVELS))
    assert_problem(response, 422, f"no AI level 'genius'; the levels are: {levels}")


def test_the_api_docs_page_lists_every_operation(client):
    page = client.get("/api/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    for operation in ("POST /api/games", "GET /api/games/{game_id}",
                      "POST /api/games/{game_id}/commands", "GET /api/me/games"):  # fmt: skip
        assert operation in text
    assert "Authorization: Bearer" in text


def test_a_player_hands_their_seat_to_the_ai(app, client):
    queued = []
    app.extensions["bingfa"].on_appended = lambda game, events: queued.append(
        [s for s in game.pending if game.seats[s].startswith("ai:")]
    )
    game_id, tokens = started(client)
    before = app.extensions["bingfa"].store.version(game_id)
    for body, status, words in [
        ({"level": "genius"}, 422, "no AI level 'genius'"),
        ({}, 422, "level"),
    ]:
        response = client.post(f"/api/games/{game_id}/ai", json=body, headers=auth(tokens["red"]))
        assert_problem(response, status, words)
    assert_problem(client.post(f"/api/games/{game_id}/ai", json={"level": "easy"}), 401, "token")
    assert app.extensions["bingfa"].store.version(game_id) == before  # refusals wrote nothing

    handed = client.post(f"/api/games/{game_id}/ai", json={"level": "easy"},
                         headers=auth(tokens["red"]))  # fmt: skip
    assert handed.status_code == 200 and handed.json["version"] == before + 1
    assert queued[-1] == ["red"]  # the AI owes red's Warlord choice: queued at once
    view = client.get(f"/api/games/{game_id}", headers=auth(tokens["red"])).json
    assert view["seats"]["red"]["kind"] == "ai:easy"
    again = client.post(f"/api/games/{game_id}/ai", json={"level": "hard"},
                        headers=auth(tokens["red"]))  # fmt: skip
    assert_problem(again, 422, "already played by the computer")
    # The player still finds the game among theirs.
    mine = client.get("/api/me/games").json["games"]
    assert [g["game"] for g in mine] == [game_id]


def test_a_hint_comes_from_the_seats_own_view_and_only_when_it_has_a_decision(app, client):
    game_id, tokens = started(client)
    bingfa = app.extensions["bingfa"]
    response = client.get(f"/api/games/{game_id}/hint", headers=auth(tokens["blue"]))
    assert response.status_code == 200, response.json
    hint = response.json
    assert hint["version"] == bingfa.store.version(game_id) and hint["level"]
    assert hint["command"]["type"] == "choose_warlord"
    game = bingfa.load(game_id)
    game.rules.decide(game.state, "blue", hint["command"], random.Random(0))  # legal
    # The same position gives the same hint; nothing was written.
    again = client.get(f"/api/games/{game_id}/hint", headers=auth(tokens["blue"])).json
    assert again == hint and bingfa.store.version(game_id) == hint["version"]
    assert_problem(client.get(f"/api/games/{game_id}/hint"), 401, "seat")
    client.post(f"/api/games/{game_id}/commands", json={"command": hint["command"]},
                headers=auth(tokens["blue"]))  # fmt: skip
    owes_nothing = client.get(f"/api/games/{game_id}/hint", headers=auth(tokens["blue"]))
    assert_problem(owes_nothing, 422, "no decision to make now")


def test_rated_games_give_no_hints_cannot_be_handed_over_and_have_no_ai_seats(client):
    created = client.post("/api/games", json={"rated": True}).json
    game_id = created["game_id"]
    tokens = {seat: link["token"] for seat, link in created["seats"].items()}
    for token in tokens.values():
        client.post(f"/api/games/{game_id}/join", json={}, headers=auth(token))
    assert client.get(f"/api/games/{game_id}").json["rated"] is True
    hint = client.get(f"/api/games/{game_id}/hint", headers=auth(tokens["blue"]))
    assert_problem(hint, 403, "hints are for unrated games only")
    handed = client.post(f"/api/games/{game_id}/ai", json={"level": "easy"},
                         headers=auth(tokens["blue"]))  # fmt: skip
    assert_problem(handed, 422, "rated game cannot be handed")
    seats = {"blue": "human", "red": "ai:easy"}
    vs_ai = client.post("/api/games", json={"rated": True, "seats": seats})
    assert_problem(vs_ai, 422, "games against the AI are not rated")
