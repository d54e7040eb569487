"""Every registered game through what the platform does with a game besides the rules
(``tests/test_toy_game.py`` does the same for the toy game): played through the write
path, exported and read back, replayed from every perspective, audited, told in
notifications, analysed, and answered by every AI level from its own view. Kept fast for
long games: a game is played for a few dozen decisions and then resigned, and the search
levels think with small budgets."""

from __future__ import annotations

import random
import time

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
    from workers.analysis.engine import QUICK, analyse

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
