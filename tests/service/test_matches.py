"""Matches of linked games through the API (events.matches, a package's ``match`` part):
the two games of Warring States' two-games victory, the second made when the first ends
with the seats swapped, the match result on both games and in the players' lists, one
rated result for the match, a match against the AI, and a game without matches refusing
the option. The platform code names no game; these tests do (they test one)."""

from __future__ import annotations

import random

import fakeredis
import pytest

import games
from events.ratings import table_from_games
from events.store import InMemoryEventStore
from service.app import create_app
from workers.tasks import take_ai_turn

KEY = "warring-states"
RULES = games.get(KEY)


@pytest.fixture
def app():
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True, "RATELIMIT_WRITES": "10000 per second"})  # fmt: skip


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def new_match(client, seats=None, rated=False, options=None):
    body = {"game": KEY, "match": True, "rated": rated, "options": options or {},
            "seats": seats or {"first": "human", "second": "human"}}  # fmt: skip
    made = client.post("/api/games", json=body)
    assert made.status_code == 201, made.json
    tokens = {s: link["token"] for s, link in made.json["seats"].items() if "token" in link}
    return made.json["game_id"], tokens


def view(client, game_id, token=None):
    got = client.get(f"/api/games/{game_id}", headers=auth(token) if token else {})
    assert got.status_code == 200, got.json
    return got.json


def command(client, game_id, token, cmd):
    done = client.post(f"/api/games/{game_id}/commands", json={"command": cmd},
                       headers=auth(token))  # fmt: skip
    assert done.status_code == 201, done.json
    return done.json


def play_out(app, client, game_id, tokens, rng, resign_at=None):
    """Random legal moves through the API for the human seats (the AI's by its task)
    until the game is over; ``resign_at``: the seat resigns at its first decision."""
    bingfa = app.extensions["bingfa"]
    for _ in range(3000):
        game = bingfa.load(game_id)
        if game.outcome is not None:
            return game
        seat = sorted(game.pending)[0]
        if game.seats[seat].startswith("ai:"):
            take_ai_turn(bingfa, game_id, game.version, seat)
            continue
        if seat == resign_at:
            command(client, game_id, tokens[seat], {"type": "resign"})
            continue
        cmd = RULES.random_command(game.state, seat, rng)
        command(client, game_id, tokens[seat], cmd)
    raise AssertionError("the game did not end")


def test_a_two_game_match_swaps_seats_and_shows_one_result_on_both_games(app):
    alice, bob = app.test_client(), app.test_client()
    first, tokens = new_match(alice, rated=True)
    for client, seat in ((alice, "first"), (bob, "second")):
        joined = client.post(f"/api/games/{first}/join", json={}, headers=auth(tokens[seat]))
        assert joined.status_code == 200
    assert view(alice, first, tokens["first"])["match"]["game"] == 1
    ended = play_out(app, alice, first, tokens, random.Random(1))
    assert "sides" in ended.outcome
    one = view(alice, first, tokens["first"])["match"]
    assert one["result"] is None and len(one["games"]) == 2
    second = one["games"][1]
    bingfa = app.extensions["bingfa"]
    g1, g2 = bingfa.load(first), bingfa.load(second)
    # the same players, seats swapped, dealt at once; each plays Lianheng once
    assert g2.joined["second"]["player"] == g1.joined["first"]["player"]
    assert g2.joined["first"]["player"] == g1.joined["second"]["player"]
    assert (
        g2.dealt
        and g2.rated
        and g2.created["options"].get("scenario", "FIVE_KINGDOMS") == "FIVE_KINGDOMS"
    )
    for player_seat_1, player_seat_2 in (("first", "second"), ("second", "first")):
        assert g2.state["sides"][player_seat_2] != g1.outcome["sides"][player_seat_1]
    # the same token acts in the other seat (its invite link carries over)
    assert view(alice, second, tokens["first"])["seat"] == "second"
    swapped = {"first": tokens["second"], "second": tokens["first"]}
    play_out(app, alice, second, swapped, random.Random(2))
    shown = [view(alice, g, tokens["first"])["match"] for g in (first, second)]
    assert shown[0]["result"] == shown[1]["result"] is not None
    result = shown[0]["result"]
    assert result["reason"] in ("more_rp", "equal_rp")
    assert shown[0]["games"] == shown[1]["games"] == [first, second]
    assert shown[0]["result_text"] == shown[1]["result_text"]
    assert "match" in shown[0]["result_text"]
    # the players' lists say the match's result on both games
    for client in (alice, bob):
        listed = [g for g in client.get("/api/me/games").json["games"] if "match" in g]
        assert {g["game"] for g in listed} == {first, second}
        assert all(g["match"]["result"] == result for g in listed)
    # ratings: the match is one rated result (its second game's), not two
    players = [g1.joined[s]["player"] for s in ("first", "second")]
    table = table_from_games(bingfa.load(g) for g in (first, second))
    standings = table.standings.get(KEY) or {}
    assert {p: standings[p].games for p in players} == {p: 1 for p in players}
    winner = result["winner"]
    if winner is not None:
        assert standings[g1.joined[winner]["player"]].wins == 1


def test_a_resignation_in_the_first_game_decides_the_match(app):
    client = app.test_client()
    first, tokens = new_match(client)
    for seat in ("first", "second"):
        client.post(f"/api/games/{first}/join", json={}, headers=auth(tokens[seat]))
    play_out(app, client, first, tokens, random.Random(3), resign_at="second")
    match = view(client, first, tokens["first"])["match"]
    assert match["games"] == [first]
    assert match["result"] == {"winner": "first", "reason": "resignation"}
    assert match["result_text"].startswith("You won the match")
    assert view(client, first, tokens["second"])["match"]["result_text"].startswith("You lost")


def test_a_match_against_the_ai(app):
    client = app.test_client()
    first, tokens = new_match(client, seats={"first": "human", "second": "ai:random"})
    client.post(f"/api/games/{first}/join", json={}, headers=auth(tokens["first"]))
    play_out(app, client, first, tokens, random.Random(4))
    second = view(client, first, tokens["first"])["match"]["games"][1]
    g2 = app.extensions["bingfa"].load(second)
    assert g2.seats == {"first": "ai:random", "second": "human"}
    play_out(app, client, second, {"second": tokens["first"]}, random.Random(5))
    match = view(client, second, tokens["first"])["match"]
    assert match["result"] is not None and match["game"] == 2
    assert view(client, first)["match"]["result"] == match["result"]


def test_a_game_without_matches_or_a_bid_refuses_the_match_option(app):
    client = app.test_client()
    refused = client.post("/api/games", json={"game": "sun-tzu", "match": True})
    assert refused.status_code == 422
    assert "not played as a match" in refused.json["detail"]
    bid = client.post("/api/games", json={"game": KEY, "match": True,
                                           "options": {"victory": "bid"}})  # fmt: skip
    assert bid.status_code == 422 and "two-game match" in bid.json["detail"]
    kinds = {k["key"]: k["match"] for k in client.get("/api/kinds").json["kinds"]}
    assert kinds["sun-tzu"] is None and kinds[KEY]["games_in_match"] == 2


def test_sealed_bids_stay_hidden_until_both_are_in(app):
    client = app.test_client()
    made = client.post("/api/games", json={"game": KEY, "options": {"victory": "bid"}})
    game_id = made.json["game_id"]
    tokens = {s: link["token"] for s, link in made.json["seats"].items()}
    for seat in ("first", "second"):
        client.post(f"/api/games/{game_id}/join", json={}, headers=auth(tokens[seat]))
    game = app.extensions["bingfa"].load(game_id)
    assert set(game.pending) == {"first", "second"}, game.pending
    command(client, game_id, tokens["first"], {"type": "bid", "rp": 17})
    assert view(client, game_id, tokens["second"])["view"]["bids"]["first"] == "hidden"
    assert view(client, game_id)["view"]["bids"]["first"] == "hidden"
    assert view(client, game_id, tokens["first"])["view"]["bids"]["first"] == 17
    listed = client.get(f"/api/games/{game_id}/events", headers=auth(tokens["second"]))
    made = [e for e in listed.json["events"] if e["type"] == "bid_made"]
    assert made and all("rp" not in e["payload"] for e in made)
    command(client, game_id, tokens["second"], {"type": "bid", "rp": 12})
    listed = client.get(f"/api/games/{game_id}/events", headers=auth(tokens["second"]))
    (revealed,) = [e for e in listed.json["events"] if e["type"] == "bids_revealed"]
    assert revealed["payload"]["bids"] == {"first": 17, "second": 12}
