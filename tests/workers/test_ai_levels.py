"""The AI levels as pure functions: legal, reproducible, honest, and stronger than random."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter

import pytest

import games
from games.playout import play
from games.sun_tzu.components import FRAMED
from workers import ai
from workers.ai.search import Arm, Budget, _final

RULES = games.get("sun-tzu")
LEVELS = ("random", "easy", "medium", "hard")
QUICK = Budget(iterations=12)  # enough to exercise the search, fast enough for many positions


def decision_points(seed, options=None, policy="random"):
    """Yield (state, seat) for every decision of a seeded game (both seats when both owe)."""
    rng = random.Random(seed)
    state = RULES.fold(RULES.setup(options or {}, rng))
    while RULES.pending(state):
        for seat in RULES.pending(state):
            yield state, seat
        seat = next(iter(RULES.pending(state)))
        command = ai.choose_command(RULES, state, seat, policy, rng, QUICK)
        state = RULES.fold(RULES.decide(state, seat, command, rng), state)


def budget_for(level):
    return QUICK if level in ("medium", "hard") else None


@pytest.mark.parametrize("options", [{}, {"variant": "beginner"}, {"events": True}])
def test_every_level_answers_only_with_commands_the_rules_accept(options):
    kinds = Counter()
    for i, (state, seat) in enumerate(decision_points(7, options)):
        kinds[RULES.pending(state)[seat]] += 1
        for level in LEVELS if i % 3 == 0 else ("easy",):
            rng = random.Random(i)
            command = ai.choose_command(RULES, state, seat, level, rng, budget_for(level))
            RULES.decide(state, seat, command, random.Random(0))  # raises if refused
    assert kinds["place"] >= 6


def test_search_levels_answer_legally_in_games_they_play_themselves():
    decisions = 0
    for state, seat in decision_points(3, policy="medium"):
        command = ai.choose_command(RULES, state, seat, "hard", random.Random(decisions), QUICK)
        RULES.decide(state, seat, command, random.Random(0))
        decisions += 1
    assert decisions > 20


def first_placement(seed=1):
    return next(s for s, seat in decision_points(seed) if RULES.pending(s).get(seat) == "place")


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_gives_the_same_command(level):
    state = first_placement()
    budget = Budget(iterations=40) if level in ("medium", "hard") else None
    first = ai.choose_command(RULES, state, "red", level, random.Random(5), budget)
    again = ai.choose_command(RULES, state, "red", level, random.Random(5), budget)
    assert first == again


def test_a_seat_that_owes_nothing_gets_nothing_and_unknown_levels_are_named():
    state = first_placement()
    command = ai.choose_command(RULES, state, "blue", "easy", random.Random(1))
    state = RULES.fold(RULES.decide(state, "blue", command, random.Random(1)), state)
    for level in LEVELS:
        assert ai.choose_command(RULES, state, "blue", level, random.Random(1)) is None
    with pytest.raises(ValueError, match=r"no AI level 'wise'.*random, easy, medium, hard"):
        ai.choose_command(RULES, state, "red", "wise", random.Random(1))


def hidden_twin(state, seat, rng):
    """A legal position that differs from ``state`` only in what ``seat`` cannot see: the
    opponent's hand cards (other than framed ones) swapped with cards of its deck, and both
    decks reshuffled."""
    opp = 1 - RULES.seats.index(seat)
    hand = list(state.hands[opp])
    deck = list(state.decks[opp])
    for i, card in enumerate(hand):
        if card not in FRAMED and deck:
            j = rng.randrange(len(deck))
            hand[i], deck[j] = deck[j], hand[i]
    rng.shuffle(deck)
    mine = list(state.decks[1 - opp])
    rng.shuffle(mine)
    twin = state.copy()
    hands, decks = [None, None], [None, None]
    hands[opp], decks[opp] = tuple(sorted(hand)), tuple(deck)
    hands[1 - opp], decks[1 - opp] = state.hands[1 - opp], tuple(mine)
    twin.hands, twin.decks = tuple(hands), tuple(decks)
    return twin


@pytest.mark.parametrize("seed", range(3))
def test_what_the_seat_cannot_see_does_not_change_its_decision(seed):
    rng = random.Random(seed)
    points = [(s, seat) for s, seat in decision_points(seed) if RULES.pending(s)[seat] == "place"]
    checked = 0
    for state, seat in points[:: max(1, len(points) // 4)]:
        twin = hidden_twin(state, seat, rng)
        if twin == state:  # late in the game there may be nothing left to swap
            continue
        checked += 1
        assert RULES.view(twin, seat) == RULES.view(state, seat)
        for level in LEVELS:
            budget = Budget(iterations=30) if level in ("medium", "hard") else None
            a = ai.choose_command(RULES, state, seat, level, random.Random(9), budget)
            b = ai.choose_command(RULES, twin, seat, level, random.Random(9), budget)
            assert a == b, level
    assert checked >= 2


def test_a_tiny_budget_still_gives_a_legal_command():
    state = first_placement(2)
    for budget in (Budget(iterations=0), Budget(iterations=1), Budget(1000, seconds=0.0)):
        command = ai.choose_command(RULES, state, "blue", "hard", random.Random(1), budget)
        RULES.decide(state, "blue", command, random.Random(0))


def test_a_placement_is_drawn_from_a_mixed_strategy():
    state = first_placement(3)
    budget = Budget(iterations=60)
    commands = {
        str(ai.choose_command(RULES, state, "blue", "medium", random.Random(s), budget))
        for s in range(6)
    }
    assert len(commands) > 1


def level_policy(level):
    def policy(rules, state, seat, rng):
        return ai.choose_command(rules, state, seat, level, rng, budget_for(level))

    return policy


def test_easy_beats_random():
    wins = 0
    for seed in range(40):
        easy = "blue" if seed % 2 else "red"
        game = play(RULES, {}, random.Random(seed), {easy: level_policy("easy")})
        wins += game.outcome["winner"] == easy
    assert wins >= 28, wins


def test_the_ai_is_pure_it_loads_no_broker_store_or_web_framework():
    code = (
        "import sys, workers.ai; "
        "print(sorted(m for m in ('celery', 'redis', 'flask') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_hard_mixes_only_among_its_near_best_actions():
    """At a simultaneous root both levels draw from their visit counts; hard drops the
    actions that are clearly behind (medium keeps any visited 0.3 times as often as the
    best)."""
    arms = {"a": Arm(100, 60.0), "b": Arm(80, 46.0), "c": Arm(45, 20.0), "d": Arm(10, 3.0)}

    def drawn(level):
        floor = ai.STYLES[level].mixed_floor
        return {_final(arms, random.Random(s), True, floor) for s in range(200)}

    assert drawn("medium") == {"a", "b", "c"}
    assert drawn("hard") == {"a", "b"}
    # Elsewhere (one seat deciding) both play the most visited action.
    assert _final(arms, random.Random(0), False, ai.STYLES["medium"].mixed_floor) == "a"
