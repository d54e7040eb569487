"""Time controls through the write path, driven by an injected clock: deadlines, the
two timeout actions, vacation, draws, the deadline sweep, and the audit of each."""

from __future__ import annotations

import dataclasses
import itertools
import random
from datetime import UTC, datetime, timedelta

import pytest

import games
from events.envelope import chain_hash
from events.errors import Invalid
from events.store import InMemoryEventStore
from events.table import Refused
from events.writepath import WritePath
from replays.record import Record, record_of
from replays.verify import verify
from service.queries import Queries
from workers.dispatch import sweep_deadlines

RULES = games.get("sun-tzu")
HUMANS = {"blue": "human", "red": "human"}
DAY = timedelta(days=1)


class FakeClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def app(clock):
    n = itertools.count()
    return WritePath(InMemoryEventStore(), token=lambda size: f"{next(n):0{size * 2}x}",
                  clock=clock, ai_levels={"random", "easy", "medium"})  # fmt: skip


def start(app, **control):
    game_id = app.create_game("sun-tzu", {}, HUMANS, clock={"per_move_seconds": 86400, **control})
    app.join(game_id, "blue", player="p-blue")
    app.join(game_id, "red", player="p-red")
    return game_id


def move(app, game_id, seat, rng=None):
    game = app.load(game_id)
    command = RULES.random_command(game.state, seat, rng or random.Random(1))
    return app.submit(game_id, seat, command)


def test_a_game_left_idle_past_its_deadline_is_ended_by_the_sweep(app, clock):
    game_id = start(app)
    queries = Queries(app.store)
    clock.advance(DAY - timedelta(seconds=1))
    assert sweep_deadlines(app, queries, app.now_ms()) == []
    clock.advance(timedelta(seconds=1))
    # Both seats owed their first placement from the same moment: their time ran out
    # together, so neither outlasted the other: a draw on time, with the seed revealed.
    assert sweep_deadlines(app, queries, app.now_ms()) == [(game_id, "blue"), (game_id, "red")]
    game = app.load(game_id)
    assert game.outcome == {"winner": None, "reason": "time"}
    assert game.pending == {}
    tail = [e.type for e in app.store.read(game_id)][-4:]
    assert tail == ["clock_expired", "clock_expired", "game_decided", "seed_revealed"]
    assert {e.actor for e in app.store.read(game_id)[-4:]} == {"system"}
    assert sweep_deadlines(app, queries, app.now_ms()) == []  # once only
    with pytest.raises(Refused, match="over"):
        move(app, game_id, "red")
    assert verify(record_of(app.store, game_id)).ok


def test_of_two_seats_out_of_time_the_first_out_loses(app, clock):
    game_id = start(app, bank_seconds=3600)
    clock.advance(timedelta(hours=2))
    move(app, game_id, "red")
    clock.advance(timedelta(hours=22, minutes=30))
    move(app, game_id, "blue")  # a day and half an hour: half of blue's bank is spent
    assert app.load(game_id).table.clocks["blue"].bank == 1_800_000
    clock.advance(DAY + timedelta(minutes=35))  # both owe since the same moment
    assert app.expire(game_id) == ["blue"]
    assert app.load(game_id).outcome == {"winner": "red", "reason": "time"}
    assert verify(record_of(app.store, game_id)).ok


def test_the_seat_that_moved_is_not_the_one_that_times_out(app, clock):
    game_id = start(app)
    clock.advance(timedelta(hours=2))
    move(app, game_id, "blue")  # blue placed; red still owes its placement
    clock.advance(DAY)
    assert app.expire(game_id) == ["red"]
    assert app.load(game_id).outcome == {"winner": "blue", "reason": "time"}


def test_an_expired_seat_can_be_played_by_the_ai_for_that_decision_only(app, clock):
    game_id = start(app, on_timeout="ai:random")
    clock.advance(timedelta(hours=1))
    move(app, game_id, "blue")
    clock.advance(DAY)
    assert app.expire(game_id) == ["red"]
    game = app.load(game_id)
    assert game.seats["red"] == "ai:random" and game.created_seats["red"] == "human"
    assert game.outcome is None
    assert app.expire(game_id) == []  # the stand-in is on it: not expired twice
    from workers.tasks import take_ai_turn

    assert take_ai_turn(app, game_id, game.version, "red").startswith("red played")
    game = app.load(game_id)
    assert game.seats["red"] == "human"  # back to its player for the next decision
    assert game.table.clocks["red"].timeouts == 1
    assert game.table.clocks["red"].bank == 0


def test_a_rated_game_forfeits_on_timeout(app):
    with pytest.raises(Invalid, match="forfeit"):
        app.create_game("sun-tzu", {}, HUMANS, rated=True,
                        clock={"per_move_seconds": 3600, "on_timeout": "ai:random"})  # fmt: skip
    with pytest.raises(Invalid, match="no AI level"):
        app.create_game("sun-tzu", {}, HUMANS, clock={"per_move_seconds": 3600,
                                                       "on_timeout": "ai:godlike"})  # fmt: skip
    assert list(app.store.game_ids()) == []


def test_vacation_stops_the_clock_for_its_days(app, clock):
    game_id = start(app, vacation_days=3)
    clock.advance(timedelta(hours=6))
    app.take_vacation(game_id, "blue", 2)
    move(app, game_id, "red")
    clock.advance(2 * DAY + timedelta(hours=17))  # 23 h of blue's day counted so far
    assert app.expire(game_id) == []
    clock.advance(timedelta(hours=1))
    assert app.expire(game_id) == ["blue"]
    game_id = start(app, vacation_days=3)
    app.take_vacation(game_id, "red", 3)
    with pytest.raises(Refused, match="0 vacation days left"):
        app.take_vacation(game_id, "red", 1)
    no_clock = app.create_game("sun-tzu", {}, HUMANS)
    app.join(no_clock, "blue")
    app.join(no_clock, "red")
    before = app.store.version(no_clock)
    with pytest.raises(Refused, match="no clock"):
        app.take_vacation(no_clock, "blue", 1)
    assert app.store.version(no_clock) == before


def test_a_draw_is_offered_and_accepted_or_declined_or_lapses(app):
    game_id = start(app)
    app.draw(game_id, "blue", "offer")
    with pytest.raises(Refused, match="already offered"):
        app.draw(game_id, "blue", "offer")
    with pytest.raises(Refused, match="no draw offered to you"):
        app.draw(game_id, "blue", "accept")
    app.draw(game_id, "red", "decline")
    assert app.load(game_id).draw_offer is None
    app.draw(game_id, "red", "offer")
    move(app, game_id, "blue")  # the game moved on: the offer lapsed
    assert app.load(game_id).draw_offer is None
    with pytest.raises(Refused, match="no draw offered"):
        app.draw(game_id, "blue", "accept")
    app.draw(game_id, "blue", "offer")
    app.draw(game_id, "red", "offer")  # offering back accepts
    assert app.load(game_id).outcome == {"winner": None, "reason": "agreement"}


def finish_by(app, clock, how):
    game_id = start(app, vacation_days=2, on_timeout="ai:random")
    rng = random.Random(3)
    for _ in range(4):
        clock.advance(timedelta(hours=3))
        game = app.load(game_id)
        move(app, game_id, next(iter(game.pending)), rng)
    app.take_vacation(game_id, "blue", 1)
    clock.advance(3 * DAY)
    from workers.tasks import take_ai_turn

    for seat in app.expire(game_id):
        take_ai_turn(app, game_id, app.load(game_id).version, seat)
    app.draw(game_id, "blue", "offer")
    if how == "draw":
        app.draw(game_id, "red", "accept")
    else:
        app.submit(game_id, "red", {"type": "resign"})
    return game_id


@pytest.mark.parametrize("how", ["draw", "resign"])
def test_a_game_with_clocks_vacations_timeouts_and_draws_passes_the_audit(app, clock, how):
    game_id = finish_by(app, clock, how)
    report = verify(record_of(app.store, game_id))
    assert report.ok, report.failure


def forged(record, changes, **header):
    """The record with events changed (index -> fields) and the whole chain re-hashed, as
    a forger who rewrote history would (the clock check must catch it, not the chain)."""
    events, prev = [], ""
    for seq, env in enumerate(record.events, start=1):
        env = dataclasses.replace(env, **changes.get(seq - 1, {}), prev=prev, hash="")
        env = dataclasses.replace(env, hash=chain_hash(prev, env.body()))
        events.append(env)
        prev = env.hash
    return Record(dict(record.header), tuple(events)).with_header(head=prev, **header)


def test_the_audit_refuses_a_timeout_written_before_the_deadline(app, clock):
    game_id = start(app)
    move(app, game_id, "blue")
    clock.advance(DAY)
    assert app.expire(game_id) == ["red"]
    record = record_of(app.store, game_id)
    assert verify(record).ok
    assert "clocks" in verify(record).checks
    early = "2026-12-01T21:00:00.000Z"  # twelve hours into red's day
    n = len(record.events)
    report = verify(forged(record, {i: {"at": early} for i in range(n - 3, n)}, ended_at=early))
    assert not report.ok
    d = report.divergence
    assert (d.check, d.step, d.field) == ("clock", n - 2, "at")
    assert "before its deadline" in d.sentence


def test_the_audit_refuses_a_timeout_that_names_the_wrong_loser(app, clock):
    game_id = start(app)
    move(app, game_id, "blue")
    clock.advance(DAY)
    assert app.expire(game_id) == ["red"]
    record = record_of(app.store, game_id)
    n = len(record.events)
    decided = record.events[n - 2]
    wrong = {**decided.payload, "winner": "red"}
    report = verify(forged(record, {n - 2: {"payload": wrong}}))
    assert not report.ok and report.divergence.step == n - 1


def test_a_seat_the_ai_plays_never_runs_out_of_time(app, clock):
    game_id = app.create_game("sun-tzu", {}, {"blue": "human", "red": "ai:random"},
                              clock={"per_move_seconds": 3600})  # fmt: skip
    app.join(game_id, "blue", player="p-blue")
    move(app, game_id, "blue")
    clock.advance(timedelta(days=2))  # the AI's task was lost: the service's fault
    assert app.expire(game_id) == []
    queries = Queries(app.store)
    assert sweep_deadlines(app, queries, app.now_ms()) == []
    game = app.load(game_id)
    assert game.outcome is None and "red" in game.pending


def test_the_audit_refuses_a_timeout_of_a_seat_the_ai_played(app, clock):
    game_id = app.create_game("sun-tzu", {}, {"blue": "human", "red": "ai:random"},
                              clock={"per_move_seconds": 3600})  # fmt: skip
    app.join(game_id, "blue", player="p-blue")
    move(app, game_id, "blue")
    app.submit(game_id, "blue", {"type": "resign"})
    record = record_of(app.store, game_id)
    assert verify(record).ok
    # A forger rewrites the end: the AI's red seat "ran out of time" and blue won.
    n = len(record.events)
    resign_at = record.events[n - 1].at
    late = dataclasses.replace(
        record.events[n - 3],
        type="clock_expired",
        actor="system",
        visible_to="all",
        payload={"seat": "red", "action": "forfeit"},
    )
    decided = dataclasses.replace(
        record.events[n - 2],
        type="game_decided",
        actor="system",
        visible_to="all",
        payload={"winner": "blue", "reason": "time"},
    )
    events = [*record.events[: n - 3], late, decided, record.events[n - 1]]
    forgery = forged(Record(dict(record.header), tuple(events)), {}, ended_at=resign_at)
    report = verify(forgery)
    assert not report.ok and "AI was playing it" in report.divergence.sentence


def test_a_late_seat_finds_the_game_ended_before_the_sweep_comes_by(app, clock):
    game_id = start(app, vacation_days=3)
    move(app, game_id, "red")
    app.draw(game_id, "red", "offer")
    clock.advance(DAY + timedelta(minutes=1))  # blue's time has run out; no sweep yet
    with pytest.raises(Refused, match="blue ran out of time, red wins"):
        app.draw(game_id, "blue", "accept")  # too late to take the draw instead
    types = [e.type for e in app.store.read(game_id)]
    assert types.count("clock_expired") == 1 and "draw_accepted" not in types
    assert app.load(game_id).outcome == {"winner": "red", "reason": "time"}
    for late in (lambda: app.take_vacation(game_id, "blue", 1),
                 lambda: move(app, game_id, "blue")):  # fmt: skip
        with pytest.raises(Refused, match="ran out of time"):
            late()
    assert "vacation_taken" not in [e.type for e in app.store.read(game_id)]


def test_one_broken_game_does_not_keep_the_sweep_from_the_others(app, clock, monkeypatch):
    broken, fine = start(app), start(app)
    clock.advance(2 * DAY)
    enforce = app.expire

    def expire(game_id):
        if game_id == broken:
            raise RuntimeError("a game whose secret was lost")
        return enforce(game_id)

    monkeypatch.setattr(app, "expire", expire)
    assert sweep_deadlines(app, Queries(app.store), app.now_ms()) == [(fine, "blue"),
                                                                      (fine, "red")]  # fmt: skip
    assert app.load(fine).outcome is not None and app.load(broken).outcome is None
