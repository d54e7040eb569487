"""The AI as pure functions: no broker, no store."""

from __future__ import annotations

import random

import pytest

import games
from workers import ai
from workers.celery_app import AI_QUEUE, PLAY_AI_MOVE, make_celery, settings
from workers.dispatch import ai_level

RULES = games.get("sun-tzu")


def dealt(seed=1):
    return RULES.fold(RULES.setup({}, random.Random(seed)))


def play_random_game(seed):
    """Yield (state, seat) for every decision of a game the random AI plays against itself."""
    state = dealt(seed)
    rng = random.Random(seed)
    for _ in range(10_000):
        pending = RULES.pending(state)
        if not pending:
            return
        seat = next(iter(pending))
        yield state, seat
        command = ai.choose_command(RULES, state, seat, "random", rng)
        state = RULES.fold(RULES.decide(state, seat, command, rng), state)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", range(5))
def test_the_random_level_only_plays_commands_the_rules_accept(seed):
    decisions = 0
    for state, seat in play_random_game(seed):
        command = ai.choose_command(RULES, state, seat, "random", random.Random(decisions))
        RULES.decide(state, seat, command, random.Random(0))  # raises if the rules refuse
        decisions += 1
    assert decisions > 10


def test_the_same_random_stream_gives_the_same_command():
    state = dealt()
    seat = next(iter(RULES.pending(state)))
    first = ai.choose_command(RULES, state, seat, "random", ai.move_rng("g", 9, seat, "s"))
    again = ai.choose_command(RULES, state, seat, "random", ai.move_rng("g", 9, seat, "s"))
    assert first == again and first["type"] == RULES.pending(state)[seat]


def test_a_seat_that_owes_nothing_gets_no_command():
    state = dealt()
    assert set(RULES.pending(state)) == {"blue", "red"}  # both choose a warlord at once
    command = RULES.random_command(state, "blue", random.Random(1))
    state = RULES.fold(RULES.decide(state, "blue", command, random.Random(1)), state)
    assert "blue" not in RULES.pending(state)
    assert ai.choose_command(RULES, state, "blue", "random", random.Random(1)) is None


def test_an_unknown_level_is_refused_with_the_levels_named():
    with pytest.raises(ValueError, match=r"no AI level 'grandmaster'.*levels are: random"):
        ai.choose_command(RULES, dealt(), "blue", "grandmaster", random.Random(1))


def test_the_move_stream_depends_on_game_version_seat_and_secret():
    def draw(*args):
        return ai.move_rng(*args).random()

    base = draw("g1", 5, "blue", "secret")
    assert draw("g1", 5, "blue", "secret") == base
    others = [
        ("g2", 5, "blue", "secret"),
        ("g1", 6, "blue", "secret"),
        ("g1", 5, "red", "secret"),
        ("g1", 5, "blue", "other"),
        ("g1", 5, "blue", None),
    ]
    assert all(draw(*args) != base for args in others)


@pytest.mark.parametrize(
    ("kind", "level"),
    [("ai:random", "random"), ("ai:strong", "strong"), ("human", None), (None, None)],
)
def test_ai_level_reads_the_seat_kind(kind, level):
    assert ai_level(kind) == level


def test_celery_settings_come_from_the_environment_and_config():
    assert settings({"REDIS_URL": "redis://a:1/0"})["broker_url"] == "redis://a:1/0"
    both = {"REDIS_URL": "redis://a:1/0", "CELERY_BROKER_URL": "redis://b:2/1"}
    assert settings(both)["broker_url"] == "redis://b:2/1"
    options = settings({"BINGFA_VISIBILITY_TIMEOUT": "3"})["broker_transport_options"]
    assert options["visibility_timeout"] == 3 and options["unacked_restore_interval"] == 1
    assert settings({})["broker_transport_options"]["visibility_timeout"] == 60

    app = make_celery({"broker_url": "redis://c:3/4"})
    try:
        conf = app.conf
        assert conf.broker_url == "redis://c:3/4"
        assert conf.task_acks_late and conf.task_reject_on_worker_lost
        assert conf.task_ignore_result and conf.worker_prefetch_multiplier == 1
        assert {q.name for q in conf.task_queues} == {"ai", "analysis", "notify"}
        route = app.amqp.router.route({}, PLAY_AI_MOVE, args=("g", 1, "blue"))
        assert route["queue"].name == AI_QUEUE
    finally:
        app.close()


class TimeUp(Exception):
    """Stands in for Celery's SoftTimeLimitExceeded."""


@pytest.mark.parametrize("after", [0, 1, 7])
def test_a_search_cut_short_by_the_time_limit_plays_its_best_so_far(monkeypatch, after):
    state, seat = next((s, seat) for s, seat in play_random_game(4)
                       if RULES.pending(s)[seat] == "place")  # fmt: skip
    adapter = RULES.ai
    calls = {"n": 0}
    real = adapter.determinize

    def determinize_until_time_is_up(view, who, rng):
        calls["n"] += 1
        if calls["n"] > after + 1:  # the first sample is the root's, then one per iteration
            raise TimeUp
        return real(view, who, rng)

    monkeypatch.setattr(adapter, "determinize", determinize_until_time_is_up)
    command = ai.choose_command(RULES, state, seat, "hard", random.Random(1),
                                interrupts=(TimeUp,))  # fmt: skip
    RULES.decide(state, seat, command, random.Random(0))  # legal
    assert calls["n"] == after + 2  # it stopped there, far short of hard's 800 iterations
    with pytest.raises(TimeUp):  # without the interrupt named, the exception goes through
        ai.choose_command(RULES, state, seat, "hard", random.Random(1))


class Without:
    """The rules of a game whose package lacks some of its parts."""

    def __init__(self, rules, *missing):
        self._rules, self._missing = rules, missing

    def __getattr__(self, name):
        if name in self._missing:
            raise AttributeError(name)
        return getattr(self._rules, name)


def test_a_game_without_ai_parts_has_the_random_level_only():
    state = dealt()
    seat = next(iter(RULES.pending(state)))
    plain = Without(RULES, "ai")
    command = ai.choose_command(plain, state, seat, "random", random.Random(3))
    assert command == ai.choose_command(RULES, state, seat, "random", random.Random(3))
    for level in ("easy", "medium", "hard"):
        with pytest.raises(ValueError, match="Sun Tzu has no AI beyond the random level"):
            ai.choose_command(plain, state, seat, level, random.Random(3))
    with pytest.raises(ValueError, match="no knowledge to rebuild a position"):
        ai.choose_command(Without(RULES, "ai", "knowledge"), state, seat, "random",
                          random.Random(3))  # fmt: skip
