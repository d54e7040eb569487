"""Logs: readable or JSON lines, a request id from the web into the Celery tasks it
queues, and no hidden information (hands, decks, the seed, tokens) in any log record."""

from __future__ import annotations

import io
import json
import logging
import random
import time

import fakeredis
import pytest
from celery.contrib.testing.worker import start_worker

import games
from events import logs
from events.store import InMemoryEventStore
from service import create_app
from workers.celery_app import make_celery

RULES = games.get("sun-tzu")


@pytest.fixture
def app():
    return create_app(
        {
            "STORE": InMemoryEventStore(),
            "REDIS": fakeredis.FakeRedis(),
            "TESTING": True,
            "RATELIMIT_WRITES": "1000 per second",
        }
    )


@pytest.fixture
def root_kept():
    """The root logger as it was, after a test that configures it (a Celery worker
    starting sends ``setup_logging``, so ``events.logs.configure`` runs)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield root
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    logs._configured.clear()
    root.setLevel(level)
    logs.request_id.set(None)


@pytest.fixture
def captured():
    """The root logger's lines as ``events.logs`` writes them in JSON, in a buffer."""
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(logs.JsonFormatter())
    handler.addFilter(logs.ContextFilter("test"))
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield lambda: [json.loads(line) for line in buffer.getvalue().splitlines()]
    root.removeHandler(handler)
    root.setLevel(old_level)


@pytest.mark.parametrize(
    ("incoming", "kept"),
    [("abc-123_X.y", True), ("a" * 64, True), ("a" * 65, False), ("a b", False),
     ("x\nINFO forged", False), ('x"', False), ("", False), (None, False)],
)  # fmt: skip
def test_an_incoming_id_is_kept_only_when_short_and_plain(incoming, kept):
    got = logs.clean_request_id(incoming)
    assert (got == incoming) is kept
    assert logs.SAFE_ID.fullmatch(got)


def test_lines_are_readable_by_default_and_json_when_configured(capsys, root_kept):
    logs.configure("web", {})
    logs.request_id.set("rid-1")
    logging.getLogger("bingfa.t").info("moved in game %s", "g1", extra={"seq": 4})
    readable = capsys.readouterr().err.strip()
    assert readable.endswith("INFO web bingfa.t [rid-1] moved in game g1"), readable
    logs.configure("worker", {"BINGFA_LOG_FORMAT": "json", "BINGFA_LOG_LEVEL": "debug"})
    logging.getLogger("bingfa.t").debug("moved in game %s", "g1", extra={"seq": 4})
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1  # configured twice: still one handler
    line = json.loads(lines[0])
    assert line["message"] == "moved in game g1" and line["level"] == "DEBUG"
    assert line["request_id"] == "rid-1" and line["process_name"] == "worker"
    assert line["seq"] == 4 and line["logger"] == "bingfa.t" and line["time"]


def test_a_response_returns_the_request_id_and_its_log_lines_carry_it(app, captured):
    @app.get("/_log_something")
    def log_something():
        logging.getLogger("bingfa.t").info("something")
        return {}

    client = app.test_client()
    given = client.get("/_log_something", headers={"X-Request-Id": "lb-7f3a"})
    assert given.headers["X-Request-Id"] == "lb-7f3a"
    forged = client.get("/_log_something", headers={"X-Request-Id": 'x" forged=1'})
    made = forged.headers["X-Request-Id"]
    assert made != 'x" forged=1' and logs.SAFE_ID.fullmatch(made)
    ids = [line["request_id"] for line in captured() if line["message"] == "something"]
    assert ids == ["lb-7f3a", made]
    refused = client.get("/api/games/nosuchgame")  # an error document has one too
    assert refused.status_code == 404 and logs.SAFE_ID.fullmatch(refused.headers["X-Request-Id"])
    assert logs.request_id.get() is None  # nothing left over for the next request


def test_a_task_sent_during_a_request_logs_with_the_request_id(root_kept, captured):
    celery = make_celery({"broker_url": "memory://", "task_default_queue": "ai"})
    seen = []

    @celery.task(name="bingfa.test_log_request_id")
    def job():
        seen.append(logs.request_id.get())
        logging.getLogger("bingfa.t").info("task ran")

    with start_worker(celery, pool="solo", perform_ping_check=False, loglevel="INFO"):
        logs.request_id.set("req-42")
        try:
            job.delay()
        finally:
            logs.request_id.set(None)
        job.delay()  # sent outside any request: no id
        for _ in range(100):
            if len(seen) == 2:
                break
            time.sleep(0.05)
    assert seen == ["req-42", None]
    lines = captured()
    ran = [line["request_id"] for line in lines if line["message"] == "task ran"]
    assert ran == ["req-42", "-"]
    traced = [line for line in lines if line["logger"] == "celery.app.trace"]
    assert any(line["request_id"] == "req-42" for line in traced), traced  # Celery's own


def hidden_texts(app, game_id: str, tokens: dict[str, str]) -> set[str]:
    """What no log may show: the seat tokens, the seed and the secret record, and each
    hand and deck (two cards or more) written the ways Python or JSON would write them.
    (Not joined with spaces: "1 4" is in "201 4.7 ms".)"""
    store = app.extensions["bingfa"].store
    secret = json.loads(store.get_secret(game_id))
    found = set(tokens.values()) | {str(secret["seed"]), json.dumps(secret), repr(secret)}
    state = app.extensions["bingfa"].load(game_id).state
    for cards in (*state.hands, *state.decks, *state.drawn):
        if len(cards) >= 2:
            found |= {repr(tuple(cards)), repr(list(cards)), json.dumps(list(cards))}
    return found


def record_text(record: logging.LogRecord) -> str:
    """A record's message, its arguments and every extra attribute, as text."""
    return record.getMessage() + repr(record.args) + repr(vars(record))


def test_no_log_record_of_a_whole_game_carries_hidden_information(app, caplog):
    caplog.set_level(logging.DEBUG)
    client = app.test_client()
    body = {"options": {"events": True}, "seats": {"blue": "human", "red": "human"}}
    created = client.post("/api/games", json=body).json
    game_id = created["game_id"]
    tokens = {seat: link["token"] for seat, link in created["seats"].items()}
    auth = {seat: {"Authorization": f"Bearer {token}"} for seat, token in tokens.items()}
    for seat in tokens:
        assert (
            client.post(f"/api/games/{game_id}/join", json={}, headers=auth[seat]).status_code
            == 200
        )
    bingfa = app.extensions["bingfa"]
    hidden: set[str] = set()
    first_state = bingfa.load(game_id).state
    rng = random.Random(11)
    for _ in range(600):
        game = bingfa.load(game_id)
        hidden |= hidden_texts(app, game_id, tokens)
        if not game.pending:
            break
        seat = next(iter(game.pending))
        command = RULES.random_command(game.state, seat, rng)
        sent = client.post(f"/api/games/{game_id}/commands", json={"command": command},
                           headers=auth[seat])  # fmt: skip
        assert sent.status_code == 201, sent.json
        client.get(f"/api/games/{game_id}", headers=auth[seat])
        client.get(f"/api/games/{game_id}/events")
    else:
        pytest.fail("the game did not end")
    # A few wrong things on purpose: refusals log too, and may not echo the token.
    client.post(f"/api/games/{game_id}/commands", json={"command": {}}, headers=auth["blue"])
    client.get(f"/api/games/{game_id}", headers={"Authorization": "Bearer " + tokens["red"] + "x"})
    logging.getLogger("bingfa.t").debug("the check sees records")  # the capture works
    texts = [record_text(record) for record in caplog.records]
    assert any("the check sees records" in text for text in texts)
    assert len(hidden) > 10
    assert leaks(texts, hidden) == []
    # The check itself finds a hand or a token logged the usual ways.
    hand = next(cards for cards in first_state.hands if len(cards) >= 2)
    planted = [
        logging.makeLogRecord({"msg": "dealt %s", "args": (hand,)}),
        logging.makeLogRecord({"msg": "dealt", "hand": list(hand)}),
        logging.makeLogRecord({"msg": "seat %s", "args": (tokens["red"],)}),
    ]
    assert all(leaks([record_text(record)], hidden) for record in planted)


def leaks(texts: list[str], hidden: set[str]) -> list[tuple[str, str]]:
    return [(secret, text[:300]) for text in texts for secret in hidden if secret in text]
