"""The analysis of finished games: the figures, the engine on a real (quick) analysis, the
job that stores it beside the replay, and the Celery task called as a function."""

from __future__ import annotations

import itertools
import math
import random

import fakeredis
import pytest

import games
from events.projector import load
from events.store import InMemoryEventStore
from events.writepath import WritePath
from replays.analysis_store import AnalysisStore
from replays.record import record_of
from replays.replay import Replay
from replays.store import ReplayStore
from workers import bootstrap
from workers.analysis import QUICK, accuracy, analyse, classify, engine, job, luck, move_accuracy
from workers.analysis.scoring import loss_points
from workers.celery_app import ANALYSE_REPLAY, ANALYSIS_QUEUE, make_celery

RULES = games.get("sun-tzu")


def counter_tokens():
    n = itertools.count()
    return lambda size: f"{next(n):0{size * 2}x}"


def play_random(app: WritePath, seed: int, options=None) -> str:
    game_id = app.create_game("sun-tzu", options or {"events": True},
                              {"blue": "human", "red": "human"})  # fmt: skip
    for seat in ("blue", "red"):
        app.join(game_id, seat, player=f"p-{seat}")
    rng = random.Random(seed)
    while True:
        game = load(app.store, game_id)
        if not game.pending:
            return game_id
        seat = sorted(game.pending)[rng.randrange(len(game.pending))]
        app.submit(game_id, seat, RULES.random_command(game.state, seat, rng))


@pytest.fixture(scope="module")
def finished():
    app = WritePath(InMemoryEventStore(), token=counter_tokens())
    game_id = play_random(app, seed=11)
    return app, game_id, record_of(app.store, game_id)


@pytest.fixture(scope="module")
def record(finished):
    return finished[2]


@pytest.fixture(scope="module")
def report(record):
    seen = []
    result = analyse(record, QUICK, seed=3, on_progress=lambda d, t: seen.append((d, t)))
    return result, seen


# -- the figures ---------------------------------------------------------------------------
@pytest.mark.parametrize(("loss", "expected"), [
    (0.0, None), (4.99, None), (5.0, "inaccuracy"), (9.99, "inaccuracy"), (10.0, "mistake"),
    (14.99, "mistake"), (15.0, "blunder"), (80.0, "blunder"),
])  # fmt: skip
def test_classes_at_5_10_15_points(loss, expected):
    assert classify(loss) == expected


def test_accuracy_is_lichess_per_move_formula_averaged():
    assert move_accuracy(0) == pytest.approx(99.9999, abs=1e-4)
    assert move_accuracy(10) == pytest.approx(103.1668 * math.exp(-0.4354) - 3.1669)
    assert move_accuracy(10) == pytest.approx(63.582, abs=1e-3)
    assert move_accuracy(100) == 0.0  # clamped
    assert accuracy([0, 10]) == pytest.approx((move_accuracy(0) + move_accuracy(10)) / 2)
    assert accuracy([]) is None


def test_loss_is_best_minus_played_in_points_never_below_zero():
    assert loss_points(0.62, 0.50) == pytest.approx(12.0)
    assert loss_points(0.50, 0.62) == 0.0


def test_luck_is_the_result_the_decisions_do_not_explain():
    # blue won (+50 points from even); its decisions lost 10, red's lost 30: decisions +20
    won = luck(1.0, [10.0], [30.0])
    assert won == {"result": 1.0, "swing": 50.0, "decisions": 20.0, "luck": 30.0, "share": 0.6}
    lost = luck(0.0, [30.0], [10.0])
    assert (lost["luck"], lost["decisions"], lost["share"]) == (-30.0, -20.0, 0.6)
    assert luck(0.5, [], [])["share"] == 0.0


# -- a real analysis (quick strength) --------------------------------------------------------
def test_one_entry_per_command_given(record, report):
    result, _ = report
    commands = [e for e in record.events if e.type == "command_given"]
    assert [d["step"] for d in result["decisions"]] == [e.seq for e in commands]
    assert [d["seat"] for d in result["decisions"]] == [e.payload["seat"] for e in commands]
    assert [d["played"] for d in result["decisions"]] == [e.payload["command"] for e in commands]
    assert result["length"] == len(record.events)


def test_chances_losses_and_classes_are_consistent(report):
    result, _ = report
    assessed = [d for d in result["decisions"] if d["assessed"]]
    assert sum(d["kind"] == "place" for d in assessed) >= 6
    for d in assessed:
        for key in ("chance", "best_chance", "played_chance"):
            assert 0.0 <= d[key] <= 1.0
        assert d["chance"] == d["best_chance"] >= d["played_chance"]
        assert d["loss"] >= 0
        assert d["loss"] == pytest.approx(100 * (d["best_chance"] - d["played_chance"]), abs=0.02)
        assert d["class"] == (None if d["forced"] else classify(d["loss"]))
        assert d["best"]["type"] == d["played"]["type"] and d["best_text"]
        if d["loss"] == 0:
            assert d["best"] == d["played"]
    for d in result["decisions"]:
        if not d["assessed"]:
            assert d["loss"] is None and d["class"] is None and d["kind"] != "place"


def test_players_and_luck(report):
    result, _ = report
    for seat, player in result["players"].items():
        mine = [d for d in result["decisions"]
                if d["seat"] == seat and d["assessed"] and not d["forced"]]  # fmt: skip
        assert player["assessed"] == len(mine)
        assert player["accuracy"] == pytest.approx(accuracy(d["loss"] for d in mine), abs=0.05)
        assert 0 <= player["accuracy"] <= 100
        assert player["blunders"] == sum(d["class"] == "blunder" for d in mine)
        assert player["inaccuracies"] == sum(d["class"] == "inaccuracy" for d in mine)
    blue, red = result["luck"]["blue"], result["luck"]["red"]
    assert blue["luck"] == pytest.approx(-red["luck"]) and blue["share"] == red["share"]
    assert sorted(result["result"].values()) in ([0.0, 1.0], [0.5, 0.5])


def test_progress_reaches_the_total(report):
    result, seen = report
    total = len(result["decisions"])
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert [d for d, _ in seen] == list(range(total + 1))


def test_deterministic_for_a_seed(record, report):
    result, _ = report
    again = analyse(record, QUICK, seed=3)
    assert again["decisions"] == result["decisions"] and again["luck"] == result["luck"]


def test_the_engine_gets_each_seats_view_before_its_decision(record, monkeypatch):
    seen = []
    real = engine.assess

    def spy(rules, adapter, view, seat, rng, budget, played, **kwargs):
        seen.append((view, seat, played))
        return real(rules, adapter, view, seat, rng, budget, played, **kwargs)

    monkeypatch.setattr(engine, "assess", spy)
    result = analyse(record, QUICK, seed=3)
    replay = Replay(record)
    by_step = {e.seq: e for e in record.events}
    assessed = [d for d in result["decisions"] if d["assessed"]]
    assert len(seen) == len(assessed)
    for (view, seat, played), d in zip(seen, assessed, strict=True):
        assert view == RULES.view(replay.state_at(d["step"] - 1), seat)
        assert by_step[d["step"]].payload == {"seat": seat, "command": played, "by": "player"}


def _scrambled(state):
    """The same position with what neither seat could see changed: both decks and the
    event deck in another order (a seat knows its deck's cards, never their order)."""
    new = state.copy()
    new.decks = tuple(tuple(reversed(d)) for d in state.decks)
    new.event_deck = tuple(reversed(state.event_deck))
    return new


def test_what_a_seat_could_not_see_does_not_change_its_assessment(record, monkeypatch):
    plain = analyse(record, QUICK, seed=5)
    real_state_at = Replay.state_at
    changed = []

    def state_at(self, n):
        state = real_state_at(self, n)
        new = _scrambled(state)
        for seat in RULES.seats:
            assert RULES.view(new, seat) == RULES.view(state, seat)
        changed.append(new != state)
        return new

    monkeypatch.setattr(Replay, "state_at", state_at)
    hidden = analyse(record, QUICK, seed=5)
    assert any(changed)  # the hidden parts did differ
    assert hidden["decisions"] == plain["decisions"]


# -- the job and the task --------------------------------------------------------------------
@pytest.fixture
def stores(finished):
    _app, game_id, record = finished
    redis = fakeredis.FakeRedis()
    replays = ReplayStore(redis)
    replays.put(record)
    return replays, AnalysisStore(redis), game_id


def test_the_job_stores_the_result_and_runs_once(stores, monkeypatch):
    replays, analyses, game_id = stores
    runs = []
    real = job.analyse
    monkeypatch.setattr(job, "analyse", lambda *a, **k: runs.append(1) or real(*a, **k))
    assert analyses.get(game_id).status == "none"
    assert analyses.request(game_id) and not analyses.request(game_id)  # one queued job
    assert job.run(replays, analyses, game_id, QUICK).startswith("analysed")
    status = analyses.get(game_id)
    assert status.status == "done" and status.done == status.total > 0
    assert status.result["decisions"] and status.result["players"]
    assert "already done" in job.run(replays, analyses, game_id, QUICK)
    assert not analyses.request(game_id)
    assert runs == [1]


def test_a_running_job_is_not_started_twice_unless_it_went_stale(stores):
    replays, _, game_id = stores
    now = [1_000_000]
    analyses = AnalysisStore(replays.redis, stale_ms=60_000, clock=lambda: now[0])
    assert analyses.start(game_id)
    assert "already running" in job.run(replays, analyses, game_id, QUICK)
    assert not analyses.request(game_id)
    now[0] += 60_000  # its worker died: nothing moved for the stale time
    assert analyses.request(game_id) and analyses.get(game_id).status == "queued"


def test_a_failed_job_is_stored_and_can_be_retried(stores, monkeypatch):
    replays, analyses, game_id = stores

    def broken(*args, **kwargs):
        raise RuntimeError("out of time")

    monkeypatch.setattr(job, "analyse", broken)
    with pytest.raises(RuntimeError):
        job.run(replays, analyses, game_id, QUICK)
    failed = analyses.get(game_id)
    assert failed.status == "failed" and "out of time" in failed.error
    monkeypatch.undo()
    assert analyses.request(game_id)
    assert job.run(replays, analyses, game_id, QUICK).startswith("analysed")


def test_an_unknown_replay_fails_with_a_sentence():
    redis = fakeredis.FakeRedis()
    replays, analyses = ReplayStore(redis), AnalysisStore(redis)
    assert "no replay" in job.run(replays, analyses, "nope", QUICK)
    assert analyses.get("nope").status == "failed"


def test_the_analysis_key_shares_the_replays_hash_tag(stores):
    replays, analyses, game_id = stores
    assert analyses.key(game_id).startswith(replays.record_key(game_id))


def test_the_task_analyses_once_on_the_analysis_queue(finished, monkeypatch):
    from workers.tasks import analyse_replay as analyse_replay_task

    app, game_id, _ = finished  # not archived yet: the task archives it first
    real = job.analyse
    runs = []

    def quick(record, strength, seed, on_progress):
        runs.append(record.id)
        return real(record, QUICK, seed, on_progress=on_progress)

    monkeypatch.setattr(job, "analyse", quick)
    parts = bootstrap.use(app, fakeredis.FakeRedis())
    try:
        assert analyse_replay_task(game_id).startswith("analysed")
        assert "already done" in analyse_replay_task(game_id)
    finally:
        bootstrap.reset()
    assert runs == [game_id]
    status = parts.analyses.get(game_id)
    assert status.status == "done" and status.result["decisions"]
    assert make_celery().conf.task_routes[ANALYSE_REPLAY] == {"queue": ANALYSIS_QUEUE}


def test_the_analysis_store_on_a_real_redis(redis_client):
    analyses = AnalysisStore(redis_client)
    assert analyses.get("g1").to_dict() == {"status": "none", "done": 0, "total": 0,
                                            "error": None, "result": None}  # fmt: skip
    assert analyses.request("g1") and not analyses.request("g1")
    assert analyses.start("g1") and not analyses.start("g1") and not analyses.request("g1")
    analyses.progress("g1", 3, 10)
    assert (analyses.get("g1").status, analyses.get("g1").done) == ("running", 3)
    analyses.fail("g1", "stopped")
    assert analyses.get("g1").error == "stopped" and analyses.request("g1")
    analyses.finish("g1", {"decisions": [{"step": 1}, {"step": 2}]})
    done = analyses.get("g1")
    assert (done.status, done.done, done.total) == ("done", 2, 2)
    assert done.result == {"decisions": [{"step": 1}, {"step": 2}]}
    assert not analyses.request("g1") and not analyses.start("g1")


def test_a_game_without_ai_parts_has_its_decisions_listed_not_judged(record):
    class WithoutAi:
        def __getattr__(self, name):
            if name == "ai":
                raise AttributeError(name)
            return getattr(RULES, name)

    _, decisions = engine.decisions_of(record)
    entries = [engine.assess_decision(WithoutAi(), d, QUICK, 0) for d in decisions[:12]]
    assert entries and not any(e["assessed"] for e in entries)
    assert [e["played"] for e in entries] == [d.command for d in decisions[:12]]
    assert any(engine.assess_decision(RULES, d, QUICK, 0)["assessed"] for d in decisions[:12])
