"""Clocks, draws, vacation and acting by player identity, through the REST API with an
injected clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import fakeredis
import pytest

from events.store import InMemoryEventStore
from service import create_app
from workers.dispatch import sweep_deadlines

CLOCK = {"per_move_seconds": 86400, "bank_seconds": 3600, "vacation_days": 2}


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def app(clock):
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True, "CLOCK": clock,
                       "RATELIMIT_WRITES": "1000 per second"})  # fmt: skip


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def problem(response, status, words):
    assert response.status_code == status, response.json
    assert response.mimetype == "application/problem+json"
    assert words in response.json["detail"], response.json


def started(app, clock=CLOCK):
    blue, red = app.test_client(), app.test_client()  # two browsers, two cookies
    created = blue.post("/api/games", json={"clock": clock}).json
    game_id = created["game_id"]
    tokens = {s: link["token"] for s, link in created["seats"].items()}
    assert (
        blue.post(f"/api/games/{game_id}/join", json={}, headers=auth(tokens["blue"])).status_code
        == 200
    )
    assert (
        red.post(f"/api/games/{game_id}/join", json={}, headers=auth(tokens["red"])).status_code
        == 200
    )
    return game_id, blue, red, tokens


def test_the_view_shows_both_clocks_counting_down_to_a_deadline(app, clock):
    game_id, blue, _, _ = started(app)
    view = app.test_client().get(f"/api/games/{game_id}").json  # a spectator sees clocks too
    assert view["clock"]["control"] == {**CLOCK, "on_timeout": "forfeit"}
    assert view["clock"]["now"] == "2026-12-01T12:00:00.000Z"
    for seat in ("blue", "red"):
        shown = view["clock"]["seats"][seat]
        assert shown["running"] and shown["bank_ms"] == 3_600_000
        assert shown["deadline"] == "2026-12-02T13:00:00.000Z"  # a day and the bank
        assert shown["vacation_days_left"] == 2
    untimed = blue.post("/api/games", json={}).json["game_id"]
    assert blue.get(f"/api/games/{untimed}").json["clock"] is None


@pytest.mark.parametrize(
    ("clock_body", "words"),
    [
        ({"per_move_seconds": 5}, "from 60 seconds"),
        ({"per_move_seconds": 3600, "on_timeout": "ai:nobody"}, "no AI level"),
        ({"per_move_seconds": "a day"}, "whole number"),
    ],
)
def test_a_bad_time_control_is_refused_and_creates_nothing(app, clock_body, words):
    client = app.test_client()
    problem(client.post("/api/games", json={"clock": clock_body}), 422, words)
    assert list(app.extensions["bingfa"].store.game_ids()) == []


def test_a_seat_acts_by_the_player_id_of_its_browser_without_a_token(app):
    game_id, blue, red, _ = started(app)
    assert blue.get(f"/api/games/{game_id}").json["seat"] == "blue"
    assert red.get(f"/api/games/{game_id}").json["seat"] == "red"
    assert app.test_client().get(f"/api/games/{game_id}").json["seat"] is None
    assert red.post(f"/api/games/{game_id}/draw", json={"action": "offer"}).status_code == 200
    assert blue.get(f"/api/games/{game_id}").json["draw_offer"] == "red"
    problem(app.test_client().post(f"/api/games/{game_id}/draw", json={"action": "accept"}),
            401, "draw")  # fmt: skip
    assert blue.post(f"/api/games/{game_id}/draw", json={"action": "accept"}).status_code == 200
    view = blue.get(f"/api/games/{game_id}").json
    assert view["outcome"] == {"winner": None, "reason": "agreement"} and view["pending"] == {}


def test_draw_and_vacation_refusals_say_why_and_append_nothing(app):
    game_id, blue, red, tokens = started(app)
    store = app.extensions["bingfa"].store
    before = store.version(game_id)
    problem(blue.post(f"/api/games/{game_id}/draw", json={"action": "accept"}), 422,
            "no draw offered")  # fmt: skip
    problem(blue.post(f"/api/games/{game_id}/draw", json={"action": "shrug"}), 422, "action")
    problem(blue.post(f"/api/games/{game_id}/vacation", json={"days": 3}), 422, "2 vacation")
    problem(blue.post(f"/api/games/{game_id}/vacation", json={"days": 0}), 422, "days")
    assert store.version(game_id) == before
    assert red.post(f"/api/games/{game_id}/vacation", json={"days": 2},
                    headers=auth(tokens["red"])).status_code == 200  # fmt: skip
    shown = blue.get(f"/api/games/{game_id}").json["clock"]["seats"]["red"]
    assert shown["away_until"] == "2026-12-03T12:00:00.000Z" and shown["vacation_days_left"] == 0
    assert shown["deadline"] == "2026-12-04T13:00:00.000Z"


def test_a_game_past_its_deadline_ends_and_says_so(app, clock):
    game_id, blue, red, _ = started(app)
    bingfa = app.extensions["bingfa"]
    game = bingfa.load(game_id)
    warlord = game.rules.legal(game.state, "red")[0]  # red chooses; blue never does
    assert red.post(f"/api/games/{game_id}/commands", json={"command": warlord}).status_code == 201
    clock.now += timedelta(days=1, hours=1)
    assert sweep_deadlines(bingfa, app.extensions["queries"], bingfa.now_ms()) == [
        (game_id, "blue")
    ]
    view = blue.get(f"/api/games/{game_id}").json
    assert view["outcome"] == {"winner": "red", "reason": "time"}
    assert view["clock"]["seats"]["blue"]["timeouts"] == 1
    events = blue.get(f"/api/games/{game_id}/events").json["events"]
    assert [e["type"] for e in events][-3:] == ["clock_expired", "game_decided", "seed_revealed"]
    games = blue.get("/api/me/games").json["games"]
    assert games[0]["status"] == "finished" and games[0]["reason"] == "time"


def test_the_view_names_the_players_in_their_seats(app):
    game_id, blue, red, _ = started(app)
    assert red.put("/api/me/name", json={"name": "Bob"}).status_code == 200
    seats = app.test_client().get(f"/api/games/{game_id}").json["seats"]
    assert seats["red"]["name"] == "Bob"
    assert seats["blue"]["name"].startswith("Player ")  # no name chosen: a label
    ai_game = blue.post("/api/games", json={"seats": {"blue": "human", "red": "ai:random"}})
    ai_seats = blue.get(f"/api/games/{ai_game.json['game_id']}").json["seats"]
    assert "name" not in ai_seats["red"]
