"""A match of linked games asked for by an open seek (service.matchmaking, events.matches):
the seek says it, the accepted seek makes the match's first game, and a game whose package
plays no matches (or options a match cannot be played with) is refused at once, with a
sentence, leaving nothing behind. The platform code names no game; these tests do."""

from __future__ import annotations

import fakeredis
import pytest

from events.store import InMemoryEventStore
from service import create_app

KEY = "warring-states"
SINGLE = "sun-tzu"  # a game without a match part


@pytest.fixture
def app():
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True, "RATELIMIT_WRITES": "1000 per second"})  # fmt: skip


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def test_an_accepted_match_seek_makes_the_first_game_of_the_match(app):
    seeker, acceptor = app.test_client(), app.test_client()
    posted = seeker.post("/api/seeks", json={"game": KEY, "match": True, "colour": "first"})
    assert posted.status_code == 201, posted.json
    seek = posted.json["seek"]
    assert seek["match"] is True and "a match of 2 games" in seek["summary"]
    listed = acceptor.get("/api/seeks").json["seeks"]
    assert [(s["id"], s["match"]) for s in listed] == [(seek["id"], True)]
    made = acceptor.post(f"/api/seeks/{seek['id']}/accept", json={})
    assert made.status_code == 201, made.json
    game_id = made.json["game_id"]
    shown = acceptor.get(f"/api/games/{game_id}", headers=auth(made.json["token"])).json
    assert shown["seat"] == "second" and shown["match"]["game"] == 1
    assert shown["match"]["of"] == 2 and shown["match"]["games"] == [game_id]
    game = app.extensions["bingfa"].load(game_id)
    assert game.created["match"] == {"game": 1, "of": 2} and game.created["seek"] == seek["id"]
    assert game.dealt and set(game.joined) == {"first", "second"}
    # the seeker's token (given with the seek) plays the first seat of the match's game
    mine = seeker.get(f"/api/games/{game_id}", headers=auth(posted.json["token"])).json
    assert mine["seat"] == "first" and mine["match"]["game"] == 1


def test_a_seek_without_match_makes_a_single_game(app):
    seeker, acceptor = app.test_client(), app.test_client()
    seek = seeker.post("/api/seeks", json={"game": KEY}).json["seek"]
    assert seek["match"] is False and "match" not in seek["summary"]
    made = acceptor.post(f"/api/seeks/{seek['id']}/accept", json={}).json
    assert acceptor.get(f"/api/games/{made['game_id']}").json["match"] is None


@pytest.mark.parametrize(
    "body, words",
    [
        ({"game": SINGLE, "match": True}, "is not played as a match of linked games"),
        ({"game": KEY, "match": True, "options": {"victory": "bid"}},
         "play it with the basic victory rule"),
    ],
)  # fmt: skip
def test_a_match_seek_the_game_cannot_play_is_refused_and_changes_nothing(app, body, words):
    seeker = app.test_client()
    refused = seeker.post("/api/seeks", json=body)
    assert refused.status_code == 422, refused.json
    assert refused.mimetype == "application/problem+json"
    assert words in refused.json["detail"], refused.json
    assert seeker.get("/api/seeks").json["seeks"] == []
    assert seeker.get("/api/seeks/mine").json["seeks"] == []
    assert list(app.extensions["bingfa"].store.game_ids()) == []
