"""A match's pages told live (events.matches.tell, WritePath.tell, the game stream's
``match`` notice): when a game of a match ends, the channels of its games so far are told
(on the event store's Redis, or this process's hub), and a finished game's stream says
where the match stands, once per change, until the match is decided."""

from __future__ import annotations

import json
import random

import fakeredis
import pytest

import games
from events import matches
from events.redis_store import RedisEventStore
from events.store import InMemoryEventStore
from service.app import create_app

KEY = "warring-states"
RULES = games.get(KEY)


@pytest.fixture
def app():
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True, "RATELIMIT_WRITES": "10000 per second",
                       "SSE_SECONDS": 0.3, "SSE_HEARTBEAT": 0.1})  # fmt: skip


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def first_game_over(app):
    """A two-game match whose first game ended on the board: (client, ids, tokens)."""
    client, bingfa = app.test_client(), app.extensions["bingfa"]
    body = {"game": KEY, "match": True, "seats": {"first": "human", "second": "human"}}
    made = client.post("/api/games", json=body).json
    first = made["game_id"]
    tokens = {s: link["token"] for s, link in made["seats"].items()}
    for token in tokens.values():
        assert (
            client.post(f"/api/games/{first}/join", json={}, headers=auth(token)).status_code == 200
        )
    rng = random.Random(7)
    while (game := bingfa.load(first)).outcome is None:
        seat = sorted(game.pending)[0]
        bingfa.submit(first, seat, RULES.random_command(game.state, seat, rng))
    return client, first, tokens


def notices(client, game_id, token):
    """The ``match`` notices of one connection to the game's stream (it closes itself)."""
    body = client.get(f"/api/games/{game_id}/stream?after=100000", headers=auth(token))
    text = body.get_data(as_text=True)
    said = [block for block in text.split("\n\n") if block.startswith("event: match")]
    return [json.loads(block.split("data: ", 1)[1]) for block in said]


def test_the_end_of_game_two_tells_game_one_and_its_stream_says_the_result(app):
    bingfa = app.extensions["bingfa"]
    told = []
    hub_told = bingfa.on_told
    bingfa.on_told = lambda game_id: (told.append(game_id), hub_told(game_id))
    client, first, tokens = first_game_over(app)
    second = matches.next_id(bingfa, first)
    assert second and told == [first]  # game 2 made: game 1's page looks again
    [waiting] = notices(client, first, tokens["first"])
    assert waiting == {"games": [first, second], "result": None}
    resigned = client.post(f"/api/games/{second}/commands", headers=auth(tokens["first"]),
                           json={"command": {"type": "resign"}})  # fmt: skip
    assert resigned.status_code == 201
    assert told == [first, first, second]  # game 2 over: both pages look again
    [decided] = notices(client, first, tokens["first"])
    assert decided["games"] == [first, second]
    assert decided["result"] == {"winner": "second", "reason": "resignation"}


def test_a_running_game_and_a_game_of_no_match_have_no_notice(app):
    client = app.test_client()
    made = client.post("/api/games", json={"game": KEY, "match": True}).json
    token = made["seats"]["first"]["token"]
    assert notices(client, made["game_id"], token) == []
    single = client.post("/api/games", json={"game": KEY}).json
    assert notices(client, single["game_id"], single["seats"]["first"]["token"]) == []


def test_the_redis_store_tells_on_the_channel_the_pages_listen_to():
    redis = fakeredis.FakeRedis()
    listening = redis.pubsub()
    listening.subscribe("live:g:abc")
    assert listening.get_message(timeout=1)["type"] == "subscribe"
    RedisEventStore(redis).tell("abc")
    message = listening.get_message(timeout=1)
    assert message["type"] == "message" and message["channel"] == b"live:g:abc"
