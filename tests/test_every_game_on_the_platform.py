"""Every registered game through what the platform does with a game besides the rules
(``tests/test_toy_game.py`` does the same for the toy game): played through the write
path, exported and read back, replayed from every perspective, audited, told in
notifications, analysed, and answered by every AI level from its own view. Kept fast for
long games: a game is played for a few dozen decisions and then resigned, and the search
levels think with small budgets."""

from __future__ import annotations

import itertools
import json
import random
import time
from dataclasses import asdict

import fakeredis
import pytest

import games
from events.notifications import due
from events.store import InMemoryEventStore
from replays.record import dumps, loads, record_of
from replays.verify import verify
from service import create_app

MOVES = 30  # decisions before the game is resigned


@pytest.fixture
def app():
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True, "RATELIMIT_WRITES": "1000 per second"})  # fmt: skip


@pytest.mark.parametrize("key", sorted(games.REGISTRY))
def test_a_game_is_played_exported_replayed_audited_told_and_analysed(app, key):
    from workers.analysis.engine import QUICK, analyse, scaled

    rules = games.get(key)
    bingfa = app.extensions["bingfa"]
    first, second = rules.seats
    game_id = bingfa.create_game(key, {}, {first: "human", second: "human"})
    bingfa.join(game_id, first, player="P1")
    bingfa.join(game_id, second, player="P2")
    rng = random.Random(4)
    turns: list[str] = []  # "your turn" notifications, in the game's words (its seats' labels)
    for n in range(5_000):
        game = bingfa.load(game_id)
        if not game.pending:
            break
        turns += [note.text for note in due(game) if note.kind == "turn"]
        seat = sorted(game.pending)[0]
        command = rules.random_command(game.state, seat, rng)
        if n >= MOVES and "resign" in rules.command_fields:
            command = {"type": "resign"}
        bingfa.submit(game_id, seat, command)
    game = bingfa.load(game_id)
    assert game.outcome is not None
    assert turns and all(game_id in text for text in turns)
    over = [note for note in due(game) if note.kind == "over"]
    assert len(over) == 2 and all(note.text.strip() for note in over), over

    record = record_of(bingfa.store, game_id)
    again = loads(dumps(record))  # the export, read back
    assert verify(again).ok and verify(record).ok
    client = app.test_client()
    steps = client.get(f"/api/replays/{game_id}").json["header"]["events"]
    for perspective in (*rules.seats, "spectator", "full"):
        for step in (1, steps // 2, steps):
            shown = client.get(f"/api/replays/{game_id}/states/{step}?as={perspective}")
            assert shown.status_code == 200, (perspective, step, shown.json)
    assert client.get(f"/api/replays/{game_id}/verify").json["ok"]

    started = time.process_time()
    result = analyse(record, QUICK, 0)
    assert result["decisions"] and any(d["assessed"] for d in result["decisions"])
    share = getattr(rules.ai, "analysis_scale", 1.0)  # a long game asks for fewer playouts
    assert 0 < share <= 1 and result["strength"] == asdict(scaled(QUICK, share))
    assert time.process_time() - started < 60


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard"])
@pytest.mark.parametrize("key", sorted(games.REGISTRY))
def test_every_ai_level_answers_from_its_own_view_with_a_command_the_rules_take(key, level):
    from workers.ai import Budget, choose_command

    rules = games.get(key)
    rng = random.Random(6)
    state = rules.fold(rules.setup({}, rng))
    budget = Budget(iterations=20) if level in ("medium", "hard") else None
    for _ in range(40 if level in ("random", "easy") else 12):
        pending = rules.pending(state)
        if not pending:
            break
        seat = sorted(pending)[0]
        command = choose_command(rules, state, seat, level, random.Random(1), budget)
        assert command is not None, (level, seat)
        state = rules.fold(rules.decide(state, seat, command, rng), state)  # refused: raises


def test_a_scaled_analysis_strength_keeps_a_playout_of_each_kind():
    from workers.analysis.engine import DEFAULT, QUICK, Strength, scaled

    assert scaled(DEFAULT, 1.0) is DEFAULT
    assert scaled(DEFAULT, 0.2) == Strength(place=60, place_evaluations=40, other=12,
                                            other_evaluations=8)  # fmt: skip
    assert scaled(QUICK, 0.01) == Strength(1, 1, 1, 1)


def stored(value):
    """An event as the store gives it back: JSON with every dict's keys sorted."""
    return json.loads(json.dumps(value, sort_keys=True))


@pytest.mark.parametrize("key", sorted(games.REGISTRY))
def test_a_game_decides_alike_from_its_events_as_made_and_as_stored(key):
    """The write path folds the events a decision made; the replay, the audit and a worker
    fold them as the store gives them back (keys sorted), or load a snapshot: the rules must
    not read anything from the order of a state's dicts."""
    rules = games.get(key)
    for seed in range(3):
        rng = random.Random(seed)
        made = rules.setup({}, rng)
        live, kept = rules.fold(made), rules.fold(stored(made))
        for n in itertools.count():
            if not (pending := rules.pending(live)):
                break
            seat = sorted(pending)[0]
            snapshot = rules.load_state(rules.dump_state(live))
            if n % 5 == 0:  # listing every legal command can be long (placements)
                legal = rules.legal(live, seat)
                assert legal == rules.legal(kept, seat) == rules.legal(snapshot, seat), seed
            command = rules.random_command(live, seat, rng)
            at = rng.getstate()
            new = rules.decide(live, seat, command, rng)
            again = random.Random()
            for other in (kept, snapshot):
                again.setstate(at)
                assert stored(rules.decide(other, seat, command, again)) == stored(new), seed
            live = rules.fold(new, live)
            kept = rules.fold(stored(new), kept)
        assert rules.outcome(kept) == rules.outcome(live)
