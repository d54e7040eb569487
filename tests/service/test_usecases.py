"""The write path, as given / when / then over an in-memory store."""

from __future__ import annotations

import hashlib
import itertools
import json
import random

import pytest

import games
from events.envelope import verify_chain
from events.errors import Invalid
from events.fairness import rng_for
from events.projector import GameCache, load
from events.schemas import SYSTEM_FIELDS
from events.store import ConcurrencyError, IdempotencyConflict, InMemoryEventStore
from events.table import Refused
from events.writepath import Forbidden, NotFound, WritePath
from games.base import RulesError

RULES = games.get("sun-tzu")
HUMANS = {"blue": "human", "red": "human"}


def counter_tokens():
    n = itertools.count()
    return lambda size: f"{next(n):0{size * 2}x}"


@pytest.fixture
def app():
    return WritePath(InMemoryEventStore(), token=counter_tokens())


def types(app, game_id):
    return [e.type for e in app.store.read(game_id)]


def play_out(app, game_id, rng, limit=10_000):
    for _ in range(limit):
        game = load(app.store, game_id)
        if not game.pending:
            return game
        seat = next(iter(game.pending))
        app.submit(game_id, seat, RULES.random_command(game.state, seat, rng))
    raise AssertionError("the game did not end")


def test_creating_publishes_only_the_seed_commitment(app):
    game_id = app.create_game("sun-tzu", {"events": True}, HUMANS)
    (created,) = app.store.read(game_id)
    secret = json.loads(app.store.get_secret(game_id))
    assert created.type == "game_created"
    assert created.payload["seed_sha256"] == hashlib.sha256(secret["seed"].encode()).hexdigest()
    assert secret["seed"] not in json.dumps(created.to_dict())
    assert created.payload["seats"] == HUMANS and created.payload["options"] == {"events": True}


@pytest.mark.parametrize(
    ("game", "options", "seats", "error", "words"),
    [
        ("chess", {}, HUMANS, NotFound, "no game called 'chess'"),
        ("sun-tzu", {"variant": "expert"}, HUMANS, RulesError, "standard or beginner"),
        ("sun-tzu", {"colour": 1}, HUMANS, RulesError, "no option 'colour'"),
        ("sun-tzu", {}, {"blue": "human"}, Invalid, "blue and red"),
        ("sun-tzu", {}, {"blue": "human", "red": "robot"}, Invalid, "not 'robot'"),
    ],
)
def test_a_bad_game_is_refused_and_nothing_is_written(app, game, options, seats, error, words):
    with pytest.raises(error, match=words):
        app.create_game(game, options, seats)
    assert list(app.store.game_ids()) == []


def test_ai_seats_are_taken_at_once_and_an_all_ai_game_is_dealt(app):
    game_id = app.create_game("sun-tzu", {}, {"blue": "ai:random", "red": "ai:random"})
    game = load(app.store, game_id)
    assert game.dealt and game.open_seats == []
    assert game.pending == {"blue": "choose_warlord", "red": "choose_warlord"}


def test_the_deal_happens_when_the_last_seat_is_taken(app):
    game_id = app.create_game("sun-tzu", {}, HUMANS)
    app.join(game_id, "red", player="ann", nonce="red's nonce")
    assert not load(app.store, game_id).dealt
    app.join(game_id, "blue", player="bo")
    game = load(app.store, game_id)
    assert game.dealt
    assert types(app, game_id)[:4] == ["game_created", "seat_joined", "seat_joined", "game_started"]
    joined = load(app.store, game_id).joined
    assert joined["red"]["nonce_sha256"] == hashlib.sha256(b"red's nonce").hexdigest()
    assert joined["blue"]["nonce_sha256"] is None


def test_the_deal_is_rederived_from_the_seed_the_nonces_and_the_position(app):
    game_id = app.create_game("sun-tzu", {"events": True}, HUMANS)
    app.join(game_id, "red", nonce="n1")
    app.join(game_id, "blue", nonce="n2")
    secret = json.loads(app.store.get_secret(game_id))
    stored = [e.event() for e in app.store.read(game_id)[3:]]
    again = RULES.setup({"events": True}, rng_for(secret["seed"], secret["nonces"], 4))
    assert stored == again
    other = RULES.setup({"events": True}, rng_for(secret["seed"], {"red": "n1"}, 4))
    assert other != again  # each nonce counts


@pytest.mark.parametrize(
    ("seat", "nonce", "error", "words"),
    [
        ("green", None, NotFound, "no seat 'green'"),
        ("blue", "x" * 201, Invalid, "at most 200"),
        ("blue", 7, Invalid, "a nonce is a string"),
    ],
)
def test_a_bad_join_is_refused_and_nothing_is_written(app, seat, nonce, error, words):
    game_id = app.create_game("sun-tzu", {}, HUMANS)
    with pytest.raises(error, match=words):
        app.join(game_id, seat, nonce=nonce)
    assert types(app, game_id) == ["game_created"]


def test_a_taken_seat_cannot_be_taken_again(app):
    game_id = app.create_game("sun-tzu", {}, HUMANS)
    app.join(game_id, "blue")
    with pytest.raises(Forbidden, match="already taken"):
        app.join(game_id, "blue")
    assert types(app, game_id) == ["game_created", "seat_joined"]


def started(app, options=None):
    game_id = app.create_game("sun-tzu", options or {}, HUMANS)
    app.join(game_id, "blue")
    app.join(game_id, "red")
    return game_id


def test_a_command_appends_its_events_with_the_seat_as_actor(app):
    game_id = started(app)
    before = app.store.version(game_id)
    result = app.submit(game_id, "blue", {"type": "choose_warlord", "warlord": "reinforce"})
    stored = app.store.read(game_id, after=before)
    assert result.version == before + len(stored) and not result.duplicate
    assert [e.actor for e in stored] == ["blue"] * len(stored)
    assert stored[0].visible_to == "blue"


@pytest.mark.parametrize(
    ("seat", "command", "error", "words"),
    [
        (
            "blue",
            {"type": "choose_warlord", "warlord": "remove"},
            RulesError,
            "not one of your Warlords",
        ),
        ("blue", {"type": "fly"}, RulesError, "no command 'fly'"),
        ("blue", "place", RulesError, "a command is an object"),
        ("green", {"type": "resign"}, NotFound, "no seat 'green'"),
    ],
)
def test_a_refused_command_appends_nothing(app, seat, command, error, words):
    game_id = started(app)
    before = [e.to_dict() for e in app.store.read(game_id)]
    with pytest.raises(error, match=words):
        app.submit(game_id, seat, command)
    assert [e.to_dict() for e in app.store.read(game_id)] == before


def test_no_command_before_every_seat_is_taken(app):
    game_id = app.create_game("sun-tzu", {}, HUMANS)
    app.join(game_id, "blue")
    with pytest.raises(Refused, match="waiting for red to take a seat"):
        app.submit(game_id, "blue", {"type": "resign"})


def test_an_unknown_game_is_not_found(app):
    with pytest.raises(NotFound, match="no game 'nope'"):
        app.submit("nope", "blue", {"type": "resign"})


def test_a_stale_expected_version_is_a_conflict_and_appends_nothing(app):
    game_id = started(app)
    version = app.store.version(game_id)
    with pytest.raises(ConcurrencyError):
        app.submit(game_id, "blue", {"type": "resign"}, expected_version=version - 1)
    assert app.store.version(game_id) == version


def test_a_retry_with_the_same_idempotency_key_returns_the_original_result(app):
    game_id = started(app)
    command = {"type": "choose_warlord", "warlord": "reinforce"}
    first = app.submit(game_id, "blue", command, idempotency_key="k1")
    app.submit(game_id, "red", {"type": "choose_warlord", "warlord": "remove"})
    moved = app.store.version(game_id)
    again = app.submit(game_id, "blue", command, idempotency_key="k1")
    assert again.duplicate and again.version == first.version
    assert again.events == first.events and again.stored == first.stored  # red's move after
    assert app.store.version(game_id) == moved
    with pytest.raises(IdempotencyConflict):
        app.submit(game_id, "blue", {"type": "resign"}, idempotency_key="k1")
    assert app.store.version(game_id) == moved


class RacingStore(InMemoryEventStore):
    """Lets another writer slip in before the first ``races`` appends."""

    def __init__(self, rival, races=1):
        super().__init__()
        self.rival, self.races = rival, races

    def _write(self, game_id, game, expected, envelopes, key, fingerprint):
        if self.races and envelopes[0].actor != "system":
            self.races -= 1
            self.rival(self, game_id)
        return super()._write(game_id, game, expected, envelopes, key, fingerprint)


def red_chooses(store, game_id):
    store.append(
        game_id,
        store.version(game_id),
        RULES.decide(
            load(store, game_id).state, "red", {"type": "choose_warlord", "warlord": "remove"}
        ),
        actor="red",
    )


def test_a_conflicting_append_reloads_and_decides_once_more():
    app = WritePath(RacingStore(red_chooses), token=counter_tokens())
    game_id = started(app)
    app.submit(game_id, "blue", {"type": "choose_warlord", "warlord": "reinforce"})
    game = load(app.store, game_id)
    assert game.state.kept == (("reinforce",), ("remove",))
    assert game.pending == {"blue": "place", "red": "place"}


def someone_else_writes(store, game_id):
    """Another writer moves the stream on (any event will do)."""
    joined = {"type": "seat_joined", "visible_to": "all", "seat": "x", "player": None,
              "nonce_sha256": None}  # fmt: skip
    store.append(game_id, store.version(game_id), [joined])


@pytest.mark.parametrize("remembered", [False, True], ids=["cold", "remembered"])
def test_a_second_conflict_is_reported_and_nothing_of_the_command_is_written(remembered):
    # A process that remembers the game first tries on that position without reading
    # the stream; a refusal there only sends it to the stream, so it takes one race more.
    races = 3 if remembered else 2
    app = WritePath(RacingStore(someone_else_writes, races=races), token=counter_tokens())
    game_id = started(app)
    if not remembered:
        app.games = GameCache()
    with pytest.raises(ConcurrencyError):
        app.submit(game_id, "blue", {"type": "choose_warlord", "warlord": "reinforce"})
    assert "warlord_chosen" not in types(app, game_id)
    assert app.store.races == 0  # every attempt met a rival


def test_a_position_remembered_from_before_another_process_moved_is_not_used():
    app = WritePath(InMemoryEventStore(), token=counter_tokens())
    game_id = started(app)
    other = WritePath(app.store)  # another web worker, or a Celery worker
    other.submit(game_id, "red", {"type": "choose_warlord", "warlord": "remove"})
    assert app.games.remembered(game_id).version < app.store.version(game_id)
    # Blue's command is judged on the stream's position (red has chosen), not the one
    # this process remembers: both Warlords are in, so placement is owed.
    app.submit(game_id, "blue", {"type": "choose_warlord", "warlord": "reinforce"})
    game = load(app.store, game_id)
    assert game.state.kept == (("reinforce",), ("remove",))
    assert app.games.remembered(game_id).version == game.version
    # And a command the remembered position would allow, but the stream's refuses, is
    # refused with the stream's reason: red chose already.
    stale = WritePath(app.store)
    stale.games.keep(load(app.store, game_id, use_snapshot=False))
    other.submit(game_id, "red", {"type": "resign"})
    with pytest.raises(Refused, match="over"):
        stale.submit(game_id, "blue", {"type": "resign"})


def test_a_finished_game_reveals_its_seed_and_can_be_audited(app):
    game_id = started(app, {"events": True})
    play_out(app, game_id, random.Random(11))
    envelopes = app.store.read(game_id)
    verify_chain(envelopes)
    last = envelopes[-1]
    assert last.type == "seed_revealed"
    created = envelopes[0].payload
    assert hashlib.sha256(last.payload["seed"].encode()).hexdigest() == created["seed_sha256"]
    # audit: re-run every recorded command with the revealed seed; the same events come out
    seed, nonces = last.payload["seed"], last.payload["nonces"]
    state, replayed = RULES.initial(), []
    for env in envelopes:
        if env.type == "command_given":
            rng = rng_for(seed, nonces, env.seq)
            replayed += RULES.decide(state, env.payload["seat"], env.payload["command"], rng)
        elif env.type not in SYSTEM_FIELDS:
            state = RULES.evolve(state, env.event())
    assert RULES.outcome(state) is not None
    decided = [e.event() for e in envelopes if e.type not in SYSTEM_FIELDS and e.actor != "system"]
    assert replayed == decided and len(decided) > 100
    assert app.store.get_snapshot(game_id).version == last.seq


def test_follow_up_work_runs_only_after_a_successful_append():
    calls = []

    def record(game, events):
        calls.append((game.version, len(events)))

    app = WritePath(InMemoryEventStore(), token=counter_tokens(), on_appended=record)
    game_id = started(app)
    # each join was followed up (the second one with the deal)
    assert [version for version, _ in calls] == [2, app.store.version(game_id)]
    calls.clear()
    with pytest.raises(RulesError):
        app.submit(game_id, "blue", {"type": "choose_warlord", "warlord": "remove"})
    with pytest.raises(Forbidden):
        app.join(game_id, "blue")
    assert calls == []
    result = app.submit(game_id, "blue", {"type": "choose_warlord", "warlord": "reinforce"})
    assert calls == [(result.version, len(result.events))]
