"""Games name their random generator (``docs/rng.md``), and the games made before they did
keep the one they were dealt with: on the write path for the rest of a running game, and
in the audit of a finished one.

Given records made before the change (``data/legacy-*.jsonl``, made at commit a1307e2 by
``data/make_legacy_records.py``), when they are verified now, then they hold; a new game's
record names ``bingfa-sha256-ctr-1`` and holds; a record naming a generator nobody knows is
refused with a sentence.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from replay_helpers import RULES, counter_tokens, play_game
from test_replay_verify import edit

import events.writepath
from events.fairness import CURRENT, LEGACY, commitment, rng_for
from events.rng import HashRng
from events.store import InMemoryEventStore
from events.writepath import WritePath
from replays.continuation import continue_from
from replays.record import loads, record_of
from replays.replay import replay_of
from replays.verify import verify

DATA = Path(__file__).parent / "data"
LEGACY_RECORDS = sorted(DATA.glob("legacy-*.jsonl"))


def legacy(path: Path):
    return loads(path.read_text(encoding="utf-8"))


def deal_of(record) -> tuple[int, list[dict]]:
    """(seq of the first deal event, the deal's events as the rules give them)."""
    last_join = max(i for i, e in enumerate(record.events) if e.type == "seat_joined")
    first = record.events[last_join + 1].seq
    end = next(i for i, e in enumerate(record.events) if e.type == "command_given")
    return first, [e.event() for e in record.events[last_join + 1 : end]]


# -- records made before games named their generator --------------------------------------
def test_the_legacy_records_cover_events_nonces_and_the_ai():
    records = [legacy(p) for p in LEGACY_RECORDS]
    assert len(records) == 3
    assert any(r.header["options"].get("events") for r in records)
    assert any(r.header["nonces"] for r in records)
    assert any(r.header["handed_to_ai"] for r in records)
    assert sum(p.stat().st_size for p in LEGACY_RECORDS) < 400_000


@pytest.mark.parametrize("path", LEGACY_RECORDS, ids=lambda p: p.stem)
def test_a_record_made_before_games_named_their_generator_still_verifies(path):
    record = legacy(path)
    assert "rng" not in record.events[0].payload
    report = verify(record)
    assert report.ok, report.sentence
    assert {"deal", "commands", "outcome"} <= set(report.checks)
    assert any(LEGACY in note for note in report.notes)
    # the deal is the old generator's, and the new one would have dealt otherwise
    header = record.header
    seq, dealt = deal_of(record)
    options = header["options"]
    assert RULES.setup(options, rng_for(header["seed"], header["nonces"], seq, LEGACY)) == dealt
    assert RULES.setup(options, rng_for(header["seed"], header["nonces"], seq, CURRENT)) != dealt


def test_a_legacy_record_that_claims_the_new_generator_does_not_hold():
    """The name is read: the same game re-run with the other generator deals other cards."""
    record = legacy(LEGACY_RECORDS[0])
    payload = {**record.events[0].payload, "rng": CURRENT}
    claimed = edit(record, 0, rechain=True, payload=payload)
    report = verify(claimed)
    assert not report.ok
    d = report.divergence
    assert d.check == "rules" and d.step == deal_of(record)[0], d


# -- new games ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def new_record():
    app = WritePath(InMemoryEventStore(), token=counter_tokens())
    game_id = play_game(app, {"events": True}, nonces=("n1", "n2"), seed=4)
    return record_of(app.store, game_id)


def test_a_new_game_names_the_new_generator_and_its_record_verifies(new_record):
    assert new_record.events[0].payload["rng"] == CURRENT == "bingfa-sha256-ctr-1"
    report = verify(new_record)
    assert report.ok, report.sentence
    assert not any(LEGACY in note for note in report.notes)
    header = new_record.header
    seq, dealt = deal_of(new_record)
    assert RULES.setup(header["options"], HashRng.of(header["seed"], header["nonces"], seq)) == (
        dealt
    )


def test_a_new_record_without_its_generator_name_does_not_hold(new_record):
    payload = {k: v for k, v in new_record.events[0].payload.items() if k != "rng"}
    report = verify(edit(new_record, 0, rechain=True, payload=payload))
    assert not report.ok and report.divergence.step == deal_of(new_record)[0]


@pytest.mark.parametrize("name", ["bingfa-sha256-ctr-9", "", 5, ["bingfa-sha256-ctr-1"]])
def test_a_record_naming_an_unknown_generator_is_refused_with_a_sentence(new_record, name):
    payload = {**new_record.events[0].payload, "rng": name}
    report = verify(edit(new_record, 0, rechain=True, payload=payload))
    assert not report.ok
    d = report.divergence
    assert d.step == 1 and d.check == "rules" and d.field in ("payload.rng", "payload"), d
    assert d.sentence and "Traceback" not in d.sentence
    if isinstance(name, str):
        assert d.field == "payload.rng" and "random generator" in d.sentence
        assert json.dumps(name) in d.sentence and "cannot be re-derived" in d.sentence


def test_a_continued_game_names_the_new_generator():
    app = WritePath(InMemoryEventStore(), token=counter_tokens())
    record = record_of(app.store, play_game(app, seed=2))
    replay = replay_of(record)
    step = next(n for n in range(replay.length + 1)
                if RULES.pending(replay.state_at(n)).get("blue") == "place")  # fmt: skip
    game_id = continue_from(app, record, step, "blue", "random")
    assert app.load(game_id).created["rng"] == CURRENT


# -- the write path of a game made before -------------------------------------------------
def spy(monkeypatch) -> list:
    """The generator named in every rng the write path asks for from now on."""
    asked: list = []

    def recorded(seed, nonces, position, generator=CURRENT):
        asked.append(generator)
        return rng_for(seed, nonces, position, generator)

    monkeypatch.setattr(events.writepath, "rng_for", recorded)
    return asked


def made_before(app: WritePath) -> str:
    """A game as ``create_game`` wrote it before games named their generator."""
    game_id, seed = app.token(9), app.token(32)
    app.store.put_secret(game_id, json.dumps({"seed": seed, "nonces": {}}))
    created = {"type": "game_created", "visible_to": "all", "game": "sun-tzu",
               "rules_version": RULES.version, "options": {"events": True},
               "seats": {"blue": "human", "red": "human"},
               "seed_sha256": commitment(seed)}  # fmt: skip
    app.store.append(game_id, 0, [created], at=app.now())
    return game_id


def test_a_running_game_made_before_keeps_the_old_generator(monkeypatch):
    app = WritePath(InMemoryEventStore(), token=counter_tokens(50))
    game_id = made_before(app)
    asked = spy(monkeypatch)
    app.join(game_id, "blue", nonce="b")
    app.join(game_id, "red", nonce="r")
    secret = json.loads(app.store.get_secret(game_id))
    dealt = [e.event() for e in app.store.read(game_id)[3:]]
    assert RULES.setup({"events": True}, rng_for(secret["seed"], secret["nonces"], 4,
                                                 LEGACY)) == dealt  # fmt: skip
    play_game_on(app, game_id)
    assert asked and set(asked) == {LEGACY}
    report = verify(record_of(app.store, game_id))
    assert report.ok, report.sentence


def test_a_new_running_game_draws_from_the_new_generator(monkeypatch):
    app = WritePath(InMemoryEventStore(), token=counter_tokens(90))
    asked = spy(monkeypatch)
    game_id = app.create_game("sun-tzu", {}, {"blue": "human", "red": "human"})
    app.join(game_id, "blue")
    app.join(game_id, "red")
    play_game_on(app, game_id)
    assert asked and set(asked) == {CURRENT}


def play_game_on(app: WritePath, game_id: str) -> None:
    import random

    commands = random.Random(1)
    while (game := app.load(game_id)).pending:
        seat = sorted(game.pending)[0]
        app.submit(game_id, seat, RULES.random_command(game.state, seat, commands))
