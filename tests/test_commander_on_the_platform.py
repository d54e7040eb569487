"""Commander through the REST API, as two browsers play it: the secret arrangement kept
secret until both are made (the view, the event listing, an error), a rated game with a
clock played to its end on the board and counted on the leaderboard, a timeout, and bad
commands refused with a sentence and nothing appended. Nothing here is platform code:
the platform knows the game only from its package (``games/commander``)."""

from __future__ import annotations

import json
import logging
import random
from datetime import UTC, datetime, timedelta

import fakeredis
import pytest

import games
from events.store import InMemoryEventStore
from games.commander.board import STANDARD
from service import create_app
from workers.dispatch import sweep_deadlines

KEY = "commander"
CLOCK = {"per_move_seconds": 86400, "bank_seconds": 3600}
MINE = "COOOSOSOSSSSSSSS"  # Blue's arrangement: the Commander on a1 (not the standard c1)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)

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


def started(app, **body):
    blue, red = app.test_client(), app.test_client()  # two browsers, two cookies
    made = blue.post("/api/games", json={"game": KEY, "seats": {"blue": "human", "red": "human"},
                                         **body})  # fmt: skip
    assert made.status_code == 201, made.json
    game_id = made.json["game_id"]
    tokens = {s: link["token"] for s, link in made.json["seats"].items()}
    for seat, client in (("blue", blue), ("red", red)):
        joined = client.post(f"/api/games/{game_id}/join", json={}, headers=auth(tokens[seat]))
        assert joined.status_code == 200, joined.json
    return game_id, {"blue": blue, "red": red}


def send(client, game_id, command):
    return client.post(f"/api/games/{game_id}/commands", json={"command": command})


def test_an_arrangement_stays_secret_until_both_are_made(app):
    game_id, browsers = started(app)
    assert send(browsers["blue"], game_id, {"type": "arrange", "pieces": MINE}).status_code == 201
    spectator = app.test_client()
    for client in (browsers["red"], spectator):
        shown = client.get(f"/api/games/{game_id}").json
        events = client.get(f"/api/games/{game_id}/events").json["events"]
        words = json.dumps([shown, events])
        assert MINE not in words  # not in the view, not in an event, not in a sentence
        assert shown["view"]["arranged"] == {"blue": True, "red": False}
        assert shown["view"]["pieces"] == {}
    assert browsers["blue"].get(f"/api/games/{game_id}").json["view"]["mine"] == MINE
    # a second arrangement is refused, in words, and gives nothing away
    again = send(browsers["blue"], game_id, {"type": "arrange", "pieces": STANDARD})
    assert again.status_code == 422 and "already" in again.json["detail"], again.json
    standard = {"type": "arrange", "pieces": STANDARD}
    assert send(browsers["red"], game_id, standard).status_code == 201
    shown = spectator.get(f"/api/games/{game_id}").json["view"]
    assert shown["phase"] == "play" and shown["pieces"]["a1"] == {"seat": "blue", "piece": "C"}
    assert shown["position"] == "ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/COOO b 0 1"


@pytest.mark.parametrize(
    ("command", "status", "words"),
    [
        ({"type": "move", "from": "a4", "to": "a6"}, 422, "cannot move"),
        ({"type": "move", "from": "a5", "to": "a4"}, 422, "no piece"),
        ({"type": "move", "from": "z9", "to": "a5"}, 422, "not a space"),
        ({"type": "move", "from": "a4"}, 422, "to"),
        ({"type": "move", "from": "a4", "to": "a5", "via": "b5"}, 422, "via"),
        ({"type": "arrange", "pieces": STANDARD}, 422, "already on the board"),
        ({"type": "fly", "to": "a8"}, 422, "fly"),
    ],
)
def test_a_bad_command_is_refused_with_a_sentence_and_appends_nothing(app, command, status,
                                                                      words):  # fmt: skip
    game_id, browsers = started(app, options={"setup": "standard"})
    store = app.extensions["bingfa"].store
    before = store.version(game_id)
    refused = send(browsers["blue"], game_id, command)
    assert refused.status_code == status, refused.json
    assert refused.mimetype == "application/problem+json" and words in refused.json["detail"]
    assert store.version(game_id) == before
    assert send(browsers["red"], game_id, {"type": "move", "from": "a5", "to": "a4"}
                ).json["detail"] == "It is not your turn."  # fmt: skip
    assert store.version(game_id) == before


def test_a_rated_game_with_a_clock_is_played_to_its_end_and_rated(app):
    game_id, browsers = started(app, rated=True, clock=CLOCK, options={"setup": "standard"})
    rules, bingfa = games.get(KEY), app.extensions["bingfa"]
    rng = random.Random(7)
    for _ in range(2_000):
        game = bingfa.load(game_id)
        if not game.pending:
            break
        seat = next(iter(game.pending))
        command = rules.ai.heuristic(rules.view(game.state, seat), seat, rng)
        assert send(browsers[seat], game_id, command).status_code == 201
    shown = browsers["blue"].get(f"/api/games/{game_id}").json
    outcome = shown["outcome"]
    assert outcome is not None and outcome["reason"] not in ("time", "resignation"), outcome
    assert shown["view"]["result"] == outcome and shown["clock"]["seats"]["blue"]["timeouts"] == 0
    board = app.test_client().get(f"/api/leaderboard?game={KEY}").json["players"]
    assert len(board) == 2
    if outcome["winner"] is not None:
        ratings = sorted(row["rating"] for row in board)
        assert ratings[0] < 1500 < ratings[1]
    replay = app.test_client().get(f"/api/replays/{game_id}/verify").json
    assert replay["ok"], replay


def test_a_player_who_lets_the_clock_run_out_loses_on_time(app, clock):
    game_id, browsers = started(app, clock=CLOCK)
    standard = {"type": "arrange", "pieces": STANDARD}
    assert send(browsers["red"], game_id, standard).status_code == 201
    clock.now += timedelta(days=1, hours=1, seconds=1)
    bingfa = app.extensions["bingfa"]
    assert sweep_deadlines(bingfa, app.extensions["queries"], bingfa.now_ms()) == [
        (game_id, "blue")
    ]
    shown = browsers["red"].get(f"/api/games/{game_id}").json
    assert shown["outcome"] == {"winner": "red", "reason": "time"}
    assert shown["outcome_text"], shown  # the game's own words for how it ended


def play_out(bingfa, game_id, seed=5):
    """The rule of thumb for whoever owes a command (no worker runs here)."""
    rules, rng = games.get(KEY), random.Random(seed)
    for _ in range(2_000):
        game = bingfa.load(game_id)
        if not game.pending:
            return game
        seat = sorted(game.pending)[0]
        bingfa.submit(game_id, seat, rules.ai.heuristic(rules.view(game.state, seat), seat, rng))
    raise AssertionError("no end")


@pytest.mark.parametrize(("setup", "seat"), [("standard", "red"), ("secret", "blue")])
def test_a_finished_game_is_continued_from_a_step_against_the_computer(app, setup, seat):
    game_id, _ = started(app, options={"setup": setup})
    bingfa = app.extensions["bingfa"]
    play_out(bingfa, game_id)
    client = app.test_client()
    steps = client.get(f"/api/replays/{game_id}").json["header"]["events"]
    # the middle of the game, where ``seat`` is to move; while arranging (secret), the step
    # where the other seat has arranged and ``seat`` not yet: its arrangement re-drawn
    wanted = "move" if setup == "standard" else "arrange"

    def owed(n: int) -> str | None:
        decision = client.get(f"/api/replays/{game_id}/states/{n}?as={seat}").json["view"]
        return (decision.get("decision") or {}).get("kind")

    step = next(n for n in range(steps // 2 if wanted == "move" else 1, steps)
                if owed(n) == wanted)  # fmt: skip
    then = client.get(f"/api/replays/{game_id}/states/{step}?as={seat}").json["view"]
    created = client.post(f"/api/replays/{game_id}/continue",
                          json={"step": step, "seat": seat, "level": "easy"})  # fmt: skip
    assert created.status_code == 201, created.json
    new_id, token = created.json["game_id"], created.json["seats"][seat]["token"]
    joined = client.post(f"/api/games/{new_id}/join", json={}, headers=auth(token))
    assert joined.status_code == 200, joined.json
    now = client.get(f"/api/games/{new_id}", headers=auth(token)).json["view"]
    assert now == then  # what the seat saw, nothing more, nothing less
    finished = play_out(bingfa, new_id, seed=6)
    assert finished.outcome is not None
    assert client.get(f"/api/replays/{new_id}/verify").json["ok"]


def test_a_player_resigns_while_arranging_and_the_other_wins(app):
    game_id, browsers = started(app)
    assert send(browsers["red"], game_id, {"type": "resign"}).status_code == 201
    shown = browsers["blue"].get(f"/api/games/{game_id}").json
    assert shown["outcome"] == {"winner": "blue", "reason": "resignation"}
    assert shown["pending"] == {} and shown["outcome_text"]["reason"] == "Red resigned."
    again = send(browsers["blue"], game_id, {"type": "resign"})
    assert again.status_code in (409, 422) and again.json["detail"], again.json


def test_no_log_record_carries_an_arrangement_before_the_reveal(app, caplog):
    caplog.set_level(logging.DEBUG)
    game_id, browsers = started(app)
    assert send(browsers["blue"], game_id, {"type": "arrange", "pieces": MINE}).status_code == 201
    for client in (browsers["red"], app.test_client()):
        client.get(f"/api/games/{game_id}")
        client.get(f"/api/games/{game_id}/events")
    send(browsers["blue"], game_id, {"type": "arrange", "pieces": MINE})  # refused: logs too
    logging.getLogger("bingfa.t").debug("arranged %s", "the check sees records")
    texts = [r.getMessage() + repr(r.args) + repr(vars(r)) for r in caplog.records]
    assert any("the check sees records" in text for text in texts)
    assert [text[:200] for text in texts if MINE in text] == []
