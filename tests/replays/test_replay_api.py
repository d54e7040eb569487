"""The replay API over the in-memory app (its replay store on fakeredis)."""

from __future__ import annotations

import dataclasses
import io
import json

import fakeredis
import pytest
from replay_helpers import HUMANS, counter_tokens, play_game, problem_of

from events.store import InMemoryEventStore
from events.writepath import WritePath
from replays.record import dumps, loads, record_of
from service.app import create_app


@pytest.fixture(scope="module")
def app():
    flask_app = create_app(
        {"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(), "TESTING": True}
    )
    bingfa = flask_app.extensions["bingfa"]
    flask_app.config["game_ids"] = [play_game(bingfa, {"events": s == 0}, seed=s) for s in range(3)]
    flask_app.config["running"] = bingfa.create_game("sun-tzu", {}, HUMANS)
    return flask_app


@pytest.fixture
def client(app):
    return app.test_client()


def test_a_finished_game_is_archived_on_first_read(app, client):
    game_id = app.config["game_ids"][0]
    body = client.get(f"/api/replays/{game_id}").get_json()
    assert body["header"]["id"] == game_id and len(body["events"]) == body["header"]["events"]
    assert body["events"][-1]["type"] == "seed_revealed"
    assert any(e.get("salt") for e in body["events"])  # everything public now


def test_list_newest_first_with_filters_and_paging(app, client):
    for game_id in app.config["game_ids"]:
        client.get(f"/api/replays/{game_id}/verify")
    body = client.get("/api/replays?limit=2").get_json()
    assert body["total"] == 3 and len(body["replays"]) == 2 and body["next"]
    rest = client.get(f"/api/replays?limit=2&cursor={body['next']}").get_json()
    ids = [r["id"] for r in body["replays"] + rest["replays"]]
    assert sorted(ids) == sorted(app.config["game_ids"]) and rest["next"] is None
    ended = [r["ended_at"] for r in body["replays"] + rest["replays"]]
    assert ended == sorted(ended, reverse=True)
    first = body["replays"][0]
    same = client.get(f"/api/replays?result={first['result']}&imported=false").get_json()
    assert first["id"] in [r["id"] for r in same["replays"]]
    player = first["players"]["blue"]
    theirs = client.get(f"/api/replays?player={player}").get_json()
    assert all(player in r["players"].values() for r in theirs["replays"])


@pytest.mark.parametrize("query", ["limit=0", "limit=x", "imported=maybe", "cursor=nonsense"])
def test_bad_list_parameters(client, query):
    status = 400 if query.startswith("cursor") else 422  # a bad cursor; bad fields
    problem_of(client.get(f"/api/replays?{query}"), status)


def test_unknown_and_running_games_are_not_replays(app, client):
    assert "no replay" in problem_of(client.get("/api/replays/nope"), 404)["detail"]
    running = app.config["running"]
    for path in ("", "/verify", "/export", "/states/0"):
        body = problem_of(client.get(f"/api/replays/{running}{path}"), 404)
        assert "still being played" in body["detail"]


def test_export_is_a_jsonl_download(app, client):
    game_id = app.config["game_ids"][1]
    response = client.get(f"/api/replays/{game_id}/export")
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    assert "attachment" in response.headers["Content-Disposition"]
    record = loads(response.get_data())
    assert record.id == game_id


def test_states_as_each_perspective(app, client):
    game_id = app.config["game_ids"][1]
    n = client.get(f"/api/replays/{game_id}").get_json()["header"]["events"]
    start = client.get(f"/api/replays/{game_id}/states/0").get_json()
    assert start["step"] == 0 and start["event"] is None and start["steps"] == n
    mid = n // 2
    blue = client.get(f"/api/replays/{game_id}/states/{mid}?as=blue").get_json()
    red = client.get(f"/api/replays/{game_id}/states/{mid}?as=red").get_json()
    spectator = client.get(f"/api/replays/{game_id}/states/{mid}").get_json()
    full = client.get(f"/api/replays/{game_id}/states/{mid}?as=full").get_json()
    assert blue["view"]["players"]["blue"]["hand"] is not None
    assert blue["view"]["players"]["red"]["hand"] is None
    assert red["view"]["players"]["blue"]["hand"] is None
    assert spectator["view"]["players"]["blue"]["hand"] is None
    assert spectator["perspective"] == "spectator" and full["view"]["notation"]
    assert blue["event"]["seq"] == mid
    end = client.get(f"/api/replays/{game_id}/states/{n}?as=spectator").get_json()
    assert end["view"]["players"]["red"]["hand"] is not None  # shown once the game is over
    problem_of(client.get(f"/api/replays/{game_id}/states/{n + 1}"), 404)
    problem_of(client.get(f"/api/replays/{game_id}/states/3?as=green"), 400)


def test_verify(app, client):
    game_id = app.config["game_ids"][2]
    body = client.get(f"/api/replays/{game_id}/verify").get_json()
    assert body["ok"] and body["divergence"] is None and "outcome" in body["checks"]


@pytest.fixture(scope="module")
def foreign():
    """The record of a game played on another server."""
    elsewhere = WritePath(InMemoryEventStore(), token=counter_tokens(1000))
    return record_of(elsewhere.store, play_game(elsewhere, {"events": True}, seed=11))


def imported(client, text, **kwargs):
    return client.post("/api/replays", data=text,
                       headers={"Content-Type": "application/x-ndjson"}, **kwargs)  # fmt: skip


def test_import_as_body_or_file_refused_when_tampered(app, client, foreign):
    before = client.get("/api/replays?imported=true").get_json()["total"]
    fresh = dumps(foreign.with_header(id="from-elsewhere"))
    done = imported(client, fresh)
    assert done.status_code == 201, done.get_json()
    assert done.get_json()["id"] == "from-elsewhere" and done.get_json()["report"]["ok"]
    header = client.get("/api/replays/from-elsewhere").get_json()["header"]
    assert header["imported"] is True
    assert client.get("/api/replays?imported=true").get_json()["total"] == before + 1
    # an id of a game still being played here is never taken by an import
    squat = dumps(foreign.with_header(id=app.config["running"]))
    elsewhere = WritePath(InMemoryEventStore(), token=counter_tokens(2000))
    other = record_of(elsewhere.store, play_game(elsewhere, seed=12))
    moved = imported(client, dumps(other.with_header(id=app.config["running"])))
    assert moved.status_code == 201 and moved.get_json()["renamed"]
    assert moved.get_json()["id"] != app.config["running"]
    events = list(foreign.events)
    payload = json.loads(json.dumps(events[5].payload))
    events[5] = dataclasses.replace(events[5], payload={**payload, "extra": 1})
    bad = dumps(dataclasses.replace(foreign, events=tuple(events)).with_header(id="bad"))
    body = problem_of(client.post("/api/replays", data=bad), 422)
    assert body["divergence"]["step"] == 6 and body["divergence"]["field"] == "hash"
    assert "Event 6" in body["detail"]
    problem_of(client.get("/api/replays/bad"), 404)
    assert "line 1" in problem_of(client.post("/api/replays", data="{}\n"), 400)["detail"]
    problem_of(client.post("/api/replays", data=""), 400)
    assert squat  # (the same history under a running game's id: a duplicate, below)


def test_one_history_is_one_replay_whatever_id_or_route_it_comes_by(app, client):
    elsewhere = WritePath(InMemoryEventStore(), token=counter_tokens(3000))
    foreign = record_of(elsewhere.store, play_game(elsewhere, seed=13))
    first = imported(client, dumps(foreign.with_header(id="history-1")))
    assert first.status_code == 201 and not first.get_json()["duplicate"]
    total = client.get("/api/replays").get_json()["total"]
    for again in ("history-1", "history-2", app.config["running"]):
        repeat = imported(client, dumps(foreign.with_header(id=again)))
        assert repeat.status_code == 200, repeat.get_json()
        assert repeat.get_json()["duplicate"] and repeat.get_json()["id"] == "history-1"
    # this server's own game, exported and imported back (as a file): the game's replay
    game_id = app.config["game_ids"][1]
    text = client.get(f"/api/replays/{game_id}/export").get_data()
    upload = {"file": (io.BytesIO(text), "game.jsonl")}
    back = client.post("/api/replays", data=upload, content_type="multipart/form-data")
    assert back.status_code == 200 and back.get_json()["id"] == game_id
    assert back.get_json()["duplicate"]
    assert client.get("/api/replays").get_json()["total"] == total


@pytest.mark.parametrize("bad_id", ["", "../../../etc/passwd", "x" * 10_000, "a b", "é"],
                         ids=["empty", "path", "10k", "space", "accent"])  # fmt: skip
def test_an_import_under_an_id_that_is_no_id_is_refused(client, foreign, bad_id):
    total = client.get("/api/replays").get_json()["total"]
    body = problem_of(imported(client, dumps(foreign.with_header(id=bad_id))), 400)
    assert "is not an id" in body["detail"] and len(body["detail"]) < 400
    assert client.get("/api/replays").get_json()["total"] == total


def test_the_api_is_documented(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    assert {
        "/api/replays",
        "/api/replays/{replay_id}/states/{n}",
        "/api/replays/{replay_id}/verify",
        "/api/replays/{replay_id}/export",
    } <= set(paths)
    assert {"get", "post"} <= set(paths["/api/replays"])
