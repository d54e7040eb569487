"""The Warring States AI parts: the rule of thumb (the easy level) beats random play
clearly, and the search's parts answer with legal, sensible moves."""

from __future__ import annotations

import random

import games
from games.warring_states import ai as A
from workers import tournament

GAME = "warring-states"


def test_the_rule_of_thumb_beats_random_play_clearly():
    """10 games of Five Kingdoms, seats alternated (5 deals, each from both seats): easy
    must win at least 8. Random play loses nearly all (measured: 10 of 10 for easy)."""
    score = 0.0
    for i in range(10):
        seed = tournament.derive_seed("ws-ai-test", i // 2)
        result = tournament.play_game("easy", "random", seed, i % 2 == 0, {}, None, GAME)
        score += result.score
    assert score >= 8, f"easy scored {score} of 10 against random"


def test_candidates_are_legal_and_fewer_than_every_move():
    rules = games.get(GAME)
    rng = random.Random(3)
    state = rules.fold(rules.setup({}, rng))
    checked = 0
    while state["result"] is None and checked < 40:
        seat = next(iter(rules.pending(state)))
        options = A.AI.candidates(state, seat, rng, True)
        legal = {A.AI.key(c) for c in rules.legal(state, seat)}
        assert options and all(A.AI.key(c) in legal for c in options)
        if rules.pending(state)[seat] == "action":
            assert len(options) <= len(legal)
        command = A.AI.rollout(state, seat, rng)
        assert A.AI.key(command) in legal
        value = A.AI.evaluate(state, seat)
        assert 0.0 <= value <= 1.0
        state = rules.fold(rules.decide(state, seat, command, rng), state)
        checked += 1
