"""The rules of the table (``events.table``): while the computer plays a seat (handed over,
or standing in for a timed-out decision), its player gives no command, offers or answers
no draw and takes no vacation; taking a handed seat back is an explicit, recorded action;
the computer acts only for a seat it plays. The write path refuses, the audit catches a
record that breaks them."""

from __future__ import annotations

import dataclasses
import itertools
import random
from datetime import UTC, datetime, timedelta

import fakeredis
import pytest

import games
from events.envelope import chain_hash
from events.store import InMemoryEventStore
from events.table import Refused
from events.writepath import WritePath
from games.base import RulesError
from replays.record import Record, record_of
from replays.verify import verify
from service import create_app
from workers.tasks import take_ai_turn

RULES = games.get("sun-tzu")
HUMANS = {"blue": "human", "red": "human"}


class FakeClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def app(clock):
    n = itertools.count()
    return WritePath(InMemoryEventStore(), token=lambda size: f"{next(n):0{size * 2}x}",
                  clock=clock, ai_levels={"random", "easy"})  # fmt: skip


def start(app, **create):
    game_id = app.create_game("sun-tzu", {}, HUMANS, **create)
    app.join(game_id, "blue", player="p-blue")
    app.join(game_id, "red", player="p-red")
    return game_id


def legal(app, game_id, seat):
    game = app.load(game_id)
    return RULES.random_command(game.state, seat, random.Random(game.version))


def play_until_owed(app, game_id, seat):
    """Commands of the other seat until ``seat`` owes a decision."""
    while seat not in app.load(game_id).pending:
        other = next(iter(app.load(game_id).pending))
        app.submit(game_id, other, legal(app, game_id, other), by="player")


def ai_plays(app, game_id, seat):
    game = app.load(game_id)
    assert take_ai_turn(app, game_id, game.version, seat).startswith(f"{seat} played")


def unchanged(app, game_id, attempt):
    version = app.store.version(game_id)
    with pytest.raises((RulesError, Refused)) as refused:
        attempt()
    assert app.store.version(game_id) == version
    return str(refused.value)


# -- a seat handed to the computer ------------------------------------------------------------
def test_a_handed_seat_takes_nothing_from_its_player_until_taken_back(app):
    game_id = start(app)
    app.hand_to_ai(game_id, "blue", "random")
    command = legal(app, game_id, "blue")
    said = unchanged(app, game_id, lambda: app.submit(game_id, "blue", command, by="player"))
    assert "take it back first" in said
    assert "take it back" in unchanged(app, game_id, lambda: app.draw(game_id, "blue", "offer"))
    app.draw(game_id, "red", "offer")  # the human opponent offers…
    assert "take it back" in unchanged(app, game_id, lambda: app.draw(game_id, "blue", "accept"))
    resign = {"type": "resign"}
    said = unchanged(app, game_id, lambda: app.submit(game_id, "blue", resign, by="player"))
    assert "take it back" in said
    ai_plays(app, game_id, "blue")  # the computer plays it meanwhile

    app.take_back(game_id, "blue")
    assert app.store.read(game_id)[-1].type == "seat_taken_back"
    assert app.load(game_id).seats["blue"] == "human"
    play_until_owed(app, game_id, "blue")
    done = app.submit(game_id, "blue", legal(app, game_id, "blue"), by="player")
    assert done.events[0]["by"] == "player"
    # a stale AI task for the seat finds it is its player's again
    game = app.load(game_id)
    assert take_ai_turn(app, game_id, game.version, "blue") == "blue is not an AI seat"
    assert verify(record_of_finished(app, game_id)).ok


def test_only_a_handed_seat_can_be_taken_back_by_its_own_player(app):
    game_id = start(app)
    said = unchanged(app, game_id, lambda: app.take_back(game_id, "blue"))
    assert "you play it already" in said
    ai_game = app.create_game("sun-tzu", {}, {"blue": "human", "red": "ai:random"})
    app.join(ai_game, "blue", player="p")
    said = unchanged(app, ai_game, lambda: app.take_back(ai_game, "red"))
    assert "not the computer's to give back" in said


def test_the_computer_acts_only_for_a_seat_it_plays(app):
    game_id = start(app)
    command = legal(app, game_id, "blue")
    said = unchanged(app, game_id, lambda: app.submit(game_id, "blue", command, by="ai:easy"))
    assert "its player does" in said


def test_taking_a_seat_back_starts_its_clock_from_then(app, clock):
    game_id = start(app, clock={"per_move_seconds": 86400, "on_timeout": "forfeit"})
    app.hand_to_ai(game_id, "blue", "random")
    clock.now += timedelta(hours=20)  # the computer is off the clock (its task is late)
    app.take_back(game_id, "blue")
    game = app.load(game_id)
    due = game.table.deadline_ms("blue")
    assert due == app.now_ms() + 86400_000  # a day from the take-back, not 4 hours
    clock.now += timedelta(hours=5)
    assert app.expire(game_id) == ["red"]  # red's day ran out; blue's has not


# -- the computer standing in for a decision whose time ran out -------------------------------
def test_a_stand_in_decision_is_the_computers_alone(app, clock):
    game_id = start(app, clock={"per_move_seconds": 3600, "on_timeout": "ai:random"})
    clock.now += timedelta(hours=2)
    assert sorted(app.expire(game_id)) == ["blue", "red"]
    command = legal(app, game_id, "blue")
    said = unchanged(app, game_id, lambda: app.submit(game_id, "blue", command, by="player"))
    assert "your time ran out on this decision" in said
    assert "time ran out" in unchanged(app, game_id, lambda: app.draw(game_id, "blue", "offer"))
    assert "time ran out" in unchanged(app, game_id, lambda: app.take_back(game_id, "blue"))
    ai_plays(app, game_id, "blue")
    ai_plays(app, game_id, "red")
    # the stand-in is over: the next decision is the player's, and the computer's no more
    play_until_owed(app, game_id, "blue")
    command = legal(app, game_id, "blue")
    unchanged(app, game_id, lambda: app.submit(game_id, "blue", command, by="ai:random"))
    assert app.submit(game_id, "blue", command, by="player").events[0]["by"] == "player"


def test_the_api_speaks_for_the_player_never_the_computer(clock):
    flask_app = create_app(
        {
            "STORE": InMemoryEventStore(),
            "REDIS": fakeredis.FakeRedis(),
            "TESTING": True,
            "CLOCK": clock,
        }
    )
    client = flask_app.test_client()
    created = client.post("/api/games", json={}).json
    game_id = created["game_id"]
    tokens = {seat: link["token"] for seat, link in created["seats"].items()}
    for token in tokens.values():
        client.post(f"/api/games/{game_id}/join", json={},
                    headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    blue = {"Authorization": f"Bearer {tokens['blue']}"}
    assert client.post(f"/api/games/{game_id}/ai", json={"level": "easy"},
                       headers=blue).status_code == 200  # fmt: skip
    refused = client.post(f"/api/games/{game_id}/commands", json={"command": {"type": "resign"}},
                          headers=blue)  # fmt: skip
    assert refused.status_code == 422 and "take it back first" in refused.json["detail"]
    back = client.post(f"/api/games/{game_id}/take-back", headers=blue)
    assert back.status_code == 200, back.json
    again = client.post(f"/api/games/{game_id}/take-back", headers=blue)
    assert again.status_code == 422 and "you play it already" in again.json["detail"]
    done = client.post(f"/api/games/{game_id}/commands", json={"command": {"type": "resign"}},
                       headers=blue)  # fmt: skip
    assert done.status_code == 201, done.json


# -- the audit ----------------------------------------------------------------------------------
def record_of_finished(app, game_id):
    if app.load(game_id).outcome is None:
        seat = next(s for s in ("blue", "red") if app.load(game_id).seats[s] == "human")
        app.submit(game_id, seat, {"type": "resign"}, by="player")
    return record_of(app.store, game_id)


def forged(record, index, **payload):
    """The record with event ``index``'s payload changed and every hash after it forged
    (a forger who rewrites the whole chain: only the rules of the table can catch it)."""
    events = list(record.events)
    env = events[index]
    new_payload = {k: v for k, v in {**env.payload, **payload}.items() if v is not ...}
    events[index] = dataclasses.replace(env, payload=new_payload)
    prev, out = "", []
    for env in events:
        env = dataclasses.replace(env, prev=prev, hash="", stored=None, payload_json=None)
        env = dataclasses.replace(env, hash=chain_hash(prev, env.body()))
        out.append(env)
        prev = env.hash
    return Record(dict(record.header), tuple(out)).with_header(head=prev)


def handed_game(app):
    game_id = start(app)
    app.hand_to_ai(game_id, "blue", "random")
    ai_plays(app, game_id, "blue")
    return game_id


def test_the_audit_catches_a_players_command_for_a_seat_the_computer_played(app):
    record = record_of_finished(app, handed_game(app))
    assert verify(record).ok and "table" in verify(record).checks
    i = next(i for i, e in enumerate(record.events)
             if e.type == "command_given" and e.payload["by"] == "ai:random")  # fmt: skip
    report = verify(forged(record, i, by="player"))
    assert not report.ok
    assert report.divergence.check == "table" and report.divergence.step == i + 1
    assert "take it back first" in report.divergence.sentence


def test_the_audit_catches_a_computers_command_for_a_players_seat(app):
    game_id = start(app)
    app.submit(game_id, "blue", legal(app, game_id, "blue"), by="player")
    record = record_of_finished(app, game_id)
    i = next(i for i, e in enumerate(record.events) if e.type == "command_given")
    report = verify(forged(record, i, by="ai:hard"))
    assert report.divergence.check == "table" and "its player does" in report.divergence.sentence


def test_the_audit_catches_a_record_that_stops_saying_who_gave_a_command(app):
    game_id = start(app)
    app.submit(game_id, "blue", legal(app, game_id, "blue"), by="player")
    app.submit(game_id, "red", legal(app, game_id, "red"), by="player")
    record = record_of_finished(app, game_id)
    i = [i for i, e in enumerate(record.events) if e.type == "command_given"][1]
    report = verify(forged(record, i, by=...))
    assert report.divergence.check == "table" and "does not say who" in report.divergence.sentence


def test_the_audit_catches_a_stand_in_decision_the_player_made(app, clock):
    game_id = start(app, clock={"per_move_seconds": 3600, "on_timeout": "ai:random"})
    clock.now += timedelta(hours=2)
    app.expire(game_id)
    ai_plays(app, game_id, "blue")
    record = record_of_finished(app, game_id)
    i = next(i for i, e in enumerate(record.events) if e.type == "command_given")
    report = verify(forged(record, i, by="player"))
    assert report.divergence.check == "table" and "time ran out" in report.divergence.sentence


def test_the_audit_catches_a_seat_taken_back_that_was_never_handed(app):
    game_id = handed_game(app)
    app.take_back(game_id, "blue")
    record = record_of_finished(app, game_id)
    assert verify(record).ok
    handing = next(i for i, e in enumerate(record.events) if e.type == "seat_handed_to_ai")
    # the handing rewritten as red's: blue was never handed, so it cannot be taken back
    report = verify(forged(record, handing, seat="red"))
    assert not report.ok
