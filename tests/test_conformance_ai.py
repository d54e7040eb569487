"""Every registered game supplies the knowledge and the AI parts the platform's AI, analysis
and replays use (``games.base.Knowledge``, ``games.base.AiParts``; shared/design.md "A game
is one package"), and they behave as ``workers/`` and ``replays/`` rely on, through the
protocol only: a searched decision's view is rebuilt exactly, the easy level's answer is
legal, the everything-view is JSON, an evaluation is a chance."""

from __future__ import annotations

import json
import random

import pytest

import games
from games.base import AiParts, Knowledge

SEEDS = (0, 1)


def declared(protocol: type) -> list[str]:
    return [name for name in vars(protocol) if not name.startswith("_")]


@pytest.mark.parametrize("key", sorted(games.REGISTRY))
def test_game_supplies_its_knowledge_and_ai_parts(key: str) -> None:
    game = games.REGISTRY[key]
    for part, protocol in (("knowledge", Knowledge), ("ai", AiParts)):
        supplied = getattr(game, part, None)
        assert supplied is not None, f"{key} has no {part}"
        for name in declared(protocol):
            assert callable(getattr(supplied, name, None)), f"{key}: {part}.{name} is missing"
    for seed in SEEDS:
        play_checked(game, seed)


def play_checked(game, seed: int) -> None:
    where = f"{game.key} seed {seed}"
    rng = random.Random(seed)
    state = game.fold(game.setup({}, rng))
    searched = 0
    for n in range(5_000):
        full = game.knowledge.full_view(state)
        assert json.loads(json.dumps(full)) == full, f"{where}: full_view is not JSON"
        due = game.pending(state)
        if not due:
            break
        for seat in due:
            view = game.view(state, seat)
            if game.ai.searchable(view, seat):
                searched += 1
                sample = game.knowledge.determinize(view, seat, random.Random(n))
                assert game.view(sample, seat) == view, f"{where}: {seat} would see another view"
                assert 0.0 <= game.ai.evaluate(sample, seat) <= 1.0
            command = game.ai.heuristic(view, seat, random.Random(n))
            game.decide(state, seat, command, random.Random(0))  # raises if refused
        seat = next(iter(due))
        state = game.fold(game.decide(state, seat, game.random_command(state, seat, rng), rng),
                          state)  # fmt: skip
    assert game.outcome(state) is not None, f"{where}: no end"
    assert searched, f"{where}: the AI searched no decision"
