"""The seek and rematch API through Flask's test client (one client per browser: each has
its own session cookie, so its own player id), over an in-memory store."""

from __future__ import annotations

import fakeredis
import pytest

from events.store import InMemoryEventStore
from service import create_app


@pytest.fixture
def app():
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True,
                       "RATELIMIT_WRITES": "1000 per second"})  # fmt: skip


@pytest.fixture
def seeker(app):
    return app.test_client()


@pytest.fixture
def acceptor(app):
    return app.test_client()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def assert_problem(response, status, words):
    assert response.status_code == status, response.json
    assert response.mimetype == "application/problem+json"
    assert words in response.json["detail"], response.json


def post_seek(client, **body):
    response = client.post("/api/seeks", json=body)
    assert response.status_code == 201, response.json
    return response.json


def test_a_posted_seek_is_listed_for_everyone_with_its_summary(seeker, acceptor):
    posted = post_seek(seeker, options={"variant": "standard", "events": True},
                       clock={"per_move_seconds": 86400}, colour="blue")  # fmt: skip
    seek = posted["seek"]
    assert posted["token"] and "token_hash" not in seek and "nonce" not in seek
    assert seek["summary"] == "Sun Tzu, Standard, events, 1 day per move, unrated"
    assert seek["name"].startswith("Player ")  # no name chosen: the anonymous label
    listed = acceptor.get("/api/seeks").json["seeks"]
    assert [s["id"] for s in listed] == [seek["id"]] and listed[0]["colour"] == "blue"
    assert [s["id"] for s in seeker.get("/api/seeks/mine").json["seeks"]] == [seek["id"]]
    assert acceptor.get("/api/seeks/mine").json["seeks"] == []


def test_the_list_shows_the_name_the_seeker_chose(app, seeker, acceptor):
    seek = post_seek(seeker)["seek"]
    app.extensions["profiles"].set_name(seek["player"], "Sun Wu")
    assert [s["name"] for s in acceptor.get("/api/seeks").json["seeks"]] == ["Sun Wu"]


def test_accepting_starts_the_game_for_both_seats(app, seeker, acceptor):
    posted = post_seek(seeker, colour="red")
    seek_id = posted["seek"]["id"]
    made = acceptor.post(f"/api/seeks/{seek_id}/accept", json={"nonce": "abc"})
    assert made.status_code == 201, made.json
    game_id = made.json["game_id"]
    assert made.json["seat"] == "blue"
    assert made.json["invite"] == f"/g/{game_id}/blue#token={made.json['token']}"
    # the acceptor plays by its token, the seeker by the player id that took the seat
    assert acceptor.get(f"/api/games/{game_id}", headers=auth(made.json["token"])).json[
        "seat"] == "blue"  # fmt: skip
    view = seeker.get(f"/api/games/{game_id}").json
    assert view["seat"] == "red" and view["view"] is not None
    assert seeker.get(f"/api/games/{game_id}", headers=auth(posted["token"])).json[
        "seat"] == "red"  # fmt: skip
    mine = seeker.get("/api/seeks/mine").json["seeks"]
    assert [(s["status"], s["game_id"], s["seat"]) for s in mine] == [("made", game_id, "red")]
    assert acceptor.get("/api/seeks").json["seeks"] == []
    again = app.test_client().post(f"/api/seeks/{seek_id}/accept", json={})
    assert_problem(again, 409, "someone else accepted")


def test_your_own_seek_cannot_be_accepted_but_cancelled(seeker, acceptor):
    seek_id = post_seek(seeker)["seek"]["id"]
    assert_problem(seeker.post(f"/api/seeks/{seek_id}/accept", json={}), 403, "your own seek")
    assert_problem(acceptor.delete(f"/api/seeks/{seek_id}"), 403, "only the player")
    assert seeker.delete(f"/api/seeks/{seek_id}").status_code == 204
    assert seeker.get("/api/seeks").json["seeks"] == []
    assert_problem(acceptor.post(f"/api/seeks/{seek_id}/accept", json={}), 404, "no seek")
    assert_problem(seeker.delete(f"/api/seeks/{seek_id}"), 404, "no seek")


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"options": {"variant": "expert"}}, 422, "variant"),
        ({"options": {"events": "yes"}}, 422, "events"),
        ({"clock": {"per_move_seconds": 10}}, 422, "per_move_seconds"),
        ({"clock": {"per_move_seconds": 3600, "bank": 5}}, 422, "no setting 'bank'"),
        ({"clock": {"per_move_seconds": 3600, "on_timeout": "ai:medium"}, "rated": True},
         422, "forfeit"),
        ({"colour": "green"}, 422, "colour"),
        ({"rated": "maybe"}, 422, "rated"),
    ],
)  # fmt: skip
def test_a_bad_seek_is_refused_with_a_sentence_and_creates_nothing(app, seeker, body, status,
                                                                   words):  # fmt: skip
    assert_problem(seeker.post("/api/seeks", json=body), status, words)
    assert seeker.get("/api/seeks").json["seeks"] == []
    assert list(app.extensions["bingfa"].store.game_ids()) == []


def test_seeks_are_documented(app):
    paths = app.test_client().get("/api/openapi.json").json["paths"]
    for path in ("/api/seeks", "/api/seeks/mine", "/api/seeks/{seek_id}",
                 "/api/seeks/{seek_id}/accept", "/api/games/{game_id}/rematch"):  # fmt: skip
        assert path in paths


def test_the_seek_page_is_served_without_inline_scripts(app):
    page = app.test_client().get("/seeks")
    assert page.status_code == 200 and b"Find a game" in page.data
    assert b'src="/static/seeks.js"' in page.data and b"<script>" not in page.data


# -- rematch -------------------------------------------------------------------------------
def finished_game(seeker, acceptor):
    """A game made from a seek, the acceptor (blue) resigned."""
    posted = post_seek(seeker, colour="red", options={"events": True},
                       clock={"per_move_seconds": 3600})  # fmt: skip
    made = acceptor.post(f"/api/seeks/{posted['seek']['id']}/accept", json={}).json
    resign = acceptor.post(f"/api/games/{made['game_id']}/commands", headers=auth(made["token"]),
                           json={"command": {"type": "resign"}})  # fmt: skip
    assert resign.status_code == 201, resign.json
    return made


def test_a_rematch_is_made_when_both_seats_ask_with_colours_swapped(app, seeker, acceptor):
    made = finished_game(seeker, acceptor)
    old = made["game_id"]
    asked = acceptor.post(f"/api/games/{old}/rematch", json={}, headers=auth(made["token"]))
    assert asked.status_code == 200, asked.json
    assert asked.json["offered_by"] == "blue" and asked.json["game_id"] is None
    assert asked.json["seat"] == "red" and asked.json["token"]
    seen = seeker.get(f"/api/games/{old}/rematch").json
    assert (seen["offered_by"], seen["game_id"], seen["seat"]) == ("blue", None, "blue")
    accepted = seeker.post(f"/api/games/{old}/rematch", json={})  # by its player id
    new = accepted.json["game_id"]
    assert accepted.json["seat"] == "blue" and new
    assert accepted.json["invite"] == f"/g/{new}/blue#token={accepted.json['token']}"
    game = app.extensions["bingfa"].load(new)
    assert game.dealt and game.created["rematch_of"] == old
    assert game.created["options"] == {"events": True}
    assert game.created["clock"]["per_move_seconds"] == 3600
    assert acceptor.get(f"/api/games/{new}", headers=auth(asked.json["token"])).json[
        "seat"] == "red"  # fmt: skip
    assert acceptor.get(f"/api/games/{new}").json["seat"] == "red"  # its player id too
    both = [c.get(f"/api/games/{old}/rematch").json["game_id"] for c in (seeker, acceptor)]
    assert both == [new, new]
    again = acceptor.post(f"/api/games/{old}/rematch", json={}, headers=auth(made["token"]))
    assert again.json["game_id"] == new and "token" not in again.json
    assert len(list(app.extensions["bingfa"].store.game_ids())) == 2


def test_a_rematch_against_the_ai_starts_at_once(app, seeker):
    created = seeker.post("/api/games", json={"seats": {"blue": "human", "red": "ai:easy"}})
    game_id, token = created.json["game_id"], created.json["seats"]["blue"]["token"]
    seeker.post(f"/api/games/{game_id}/join", json={}, headers=auth(token))
    seeker.post(f"/api/games/{game_id}/commands", json={"command": {"type": "resign"}},
                headers=auth(token))  # fmt: skip
    made = seeker.post(f"/api/games/{game_id}/rematch", json={}, headers=auth(token)).json
    game = app.extensions["bingfa"].load(made["game_id"])
    assert made["seat"] == "red" and game.created_seats == {"blue": "ai:easy", "red": "human"}


def test_no_rematch_of_a_running_game_nor_for_a_spectator(app, seeker, acceptor):
    posted = post_seek(seeker)
    made = acceptor.post(f"/api/seeks/{posted['seek']['id']}/accept", json={}).json
    running = acceptor.post(f"/api/games/{made['game_id']}/rematch", json={},
                            headers=auth(made["token"]))  # fmt: skip
    assert_problem(running, 422, "still being played")
    finished = finished_game(seeker, acceptor)
    spectator = app.test_client().post(f"/api/games/{finished['game_id']}/rematch", json={})
    assert_problem(spectator, 401, "only the players")
    forged = app.test_client().post(f"/api/games/{finished['game_id']}/rematch", json={},
                                    headers=auth("not-a-token"))  # fmt: skip
    assert_problem(forged, 401, "token")
    assert_problem(app.test_client().get("/api/games/nope/rematch"), 404, "no game")
