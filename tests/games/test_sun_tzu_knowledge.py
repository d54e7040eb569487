"""What a Sun Tzu seat knows (``RULES.knowledge``) and the game's AI parts (``RULES.ai``):
samples consistent with a view, the everything-view of a replay, the easy level's policy."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import games
from games.sun_tzu import knowledge, notation

RULES = games.get("sun-tzu")
OPTION_SETS = [{}, {"variant": "beginner"}, {"events": True}]


def decision_points(seed, options=None):
    """Yield (state, seat) for every decision of a seeded random game (both seats when both
    owe)."""
    rng = random.Random(seed)
    state = RULES.fold(RULES.setup(options or {}, rng))
    while RULES.pending(state):
        for seat in RULES.pending(state):
            yield state, seat
        seat = next(iter(RULES.pending(state)))
        command = RULES.random_command(state, seat, rng)
        state = RULES.fold(RULES.decide(state, seat, command, rng), state)


def positions(seed, options=None):
    """Every position of a seeded random game, the first and the last included."""
    rng = random.Random(seed)
    state = RULES.fold(RULES.setup(options or {}, rng))
    yield state
    while RULES.pending(state):
        seat = next(iter(RULES.pending(state)))
        command = RULES.random_command(state, seat, rng)
        state = RULES.fold(RULES.decide(state, seat, command, rng), state)
        yield state


# -- determinize -----------------------------------------------------------------------------
@pytest.mark.parametrize("options", OPTION_SETS)
def test_samples_agree_with_everything_the_seat_has_seen(options):
    checked = Counter()
    for i, (state, seat) in enumerate(decision_points(11, options)):
        view = RULES.view(state, seat)
        sample = RULES.knowledge.determinize(view, seat, random.Random(i))
        assert RULES.view(sample, seat) == view
        checked[view["decision"]["kind"]] += 1
    assert {"choose_warlord", "place", "keep"} <= set(checked) or options


def test_the_unseen_cards_are_exactly_the_opponents_hidden_cards():
    for state, seat in decision_points(4):
        opp = 1 - RULES.seats.index(seat)
        view = RULES.view(state, seat)
        slots = knowledge.hidden_slots(view, RULES.seats[opp])
        face_down = [state.placed[opp][p] for p in slots]
        hidden = Counter(face_down)
        for part in (state.hands, state.decks, state.burned, state.drawn):
            hidden += Counter(part[opp])
        assert knowledge.unseen_cards(view, seat) == hidden


def test_a_sample_is_the_same_for_the_same_rng_and_differs_between_rngs():
    state, seat = next((s, seat) for s, seat in decision_points(2)
                       if RULES.pending(s)[seat] == "place" and s.round >= 2)  # fmt: skip
    view = RULES.view(state, seat)
    one = RULES.knowledge.determinize(view, seat, random.Random(3))
    assert RULES.knowledge.determinize(view, seat, random.Random(3)) == one
    others = {RULES.dump_state(RULES.knowledge.determinize(view, seat, random.Random(k)))
              for k in range(8)}  # fmt: skip
    assert len(others) > 1  # the hidden cards are drawn


# -- full_view -------------------------------------------------------------------------------
DOCUMENTED_PLAYER_KEYS = {
    "reserve", "aside", "on_board", "hand", "hand_size", "deck_size", "warlords",
    "warlords_held", "warlords_played", "discarded", "discarded_face_down", "deck", "drawn",
    "keep", "plan", "recycled_plague",
}  # fmt: skip
DOCUMENTED_EXTRA_KEYS = {"event_deck", "first_placer", "order", "battle", "tasks", "notation"}


@pytest.mark.parametrize("options", [{"events": True}, {"variant": "beginner"}])
def test_the_full_view_shows_every_card_where_it_is(options):
    seen_face_down = 0
    for state in positions(5, options):
        full = RULES.knowledge.full_view(state)
        assert json.loads(json.dumps(full)) == full  # JSON as it is
        spectator = RULES.view(state, None)
        assert set(full) == set(spectator) | DOCUMENTED_EXTRA_KEYS
        for key in set(spectator) - {"players", "provinces"}:
            assert full[key] == spectator[key], key  # the public part is the spectator's
        for s, seat in enumerate(RULES.seats):
            player = full["players"][seat]
            assert set(player) == DOCUMENTED_PLAYER_KEYS
            assert player["hand"] == list(state.hands[s])
            assert player["deck"] == list(state.decks[s])  # in order, top first
            assert player["warlords"] == list(state.kept[s])
            assert player["discarded_face_down"] == list(state.burned[s])
            assert player["drawn"] == list(state.drawn[s])
            for p, province in enumerate(full["provinces"]):
                placed = state.placed[s]
                assert province["cards"][seat] == (None if placed is None else placed[p])
                seen_face_down += spectator["provinces"][p]["cards"][seat] == "placed"
        assert full["event_deck"] == list(state.event_deck)
        assert notation.parse(full["notation"]) == state
    assert seen_face_down  # face-down cards were there to be shown


def test_the_full_view_is_built_not_the_states_fields():
    state = next(positions(1))
    full = RULES.knowledge.full_view(state)
    internal = {"hands", "decks", "kept", "spent", "burned", "gone", "placed", "keep_n"}
    assert not internal & set(full)


# -- the AI parts ----------------------------------------------------------------------------
@pytest.mark.parametrize("options", OPTION_SETS)
def test_the_heuristic_answers_every_decision_with_a_command_the_rules_accept(options):
    kinds = Counter()
    for i, (state, seat) in enumerate(decision_points(7, options)):
        view = RULES.view(state, seat)
        command = RULES.ai.heuristic(view, seat, random.Random(i))
        RULES.decide(state, seat, command, random.Random(0))  # raises if refused
        kinds[RULES.pending(state)[seat]] += 1
    assert kinds["place"] >= 6


def test_only_decisions_a_view_rebuilds_are_assessable_and_alternatives_are_legal():
    kinds = Counter()
    for state, seat in decision_points(11, {"events": True}):
        view = RULES.view(state, seat)
        kind = RULES.pending(state)[seat]
        played = RULES.random_command(state, seat, random.Random(1))
        assessable = RULES.ai.assessable(view, seat, played)
        assert assessable == (kind in knowledge.PLAYABLE)
        assert not RULES.ai.assessable(view, seat, {"type": "resign"})
        assert RULES.ai.searchable(view, seat) == (kind == "place")
        if assessable and kind != "place":
            answers = RULES.ai.alternatives(state, seat, played)
            assert answers and all(a["type"] == kind for a in answers)
            legal = RULES.legal(state, seat)
            assert all(a in legal for a in answers)
            if kind == "next_province":
                assert all(len(a["provinces"]) == 1 for a in answers)
            kinds[kind] += 1
    assert {"keep", "next_province"} <= set(kinds)
