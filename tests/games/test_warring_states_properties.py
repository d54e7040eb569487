"""Random legal games (hypothesis draws the seed and the options): every game ends, the
counters are conserved, fold equals state, every legal command is accepted, views and
redacted events never show a hidden card, the same seed and commands give the same game."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from games.warring_states import RULES
from games.warring_states import board as B
from games.warring_states.data import load

D = load()
OPTIONS = hs.fixed_dictionaries(
    {
        "scenario": hs.sampled_from(sorted(D.scenarios)),
        "victory": hs.sampled_from(["basic", "bid"]),
        **{name: hs.sampled_from(values) for name, values in D.config_values.items()},
    }
)


def counters(st: dict) -> int:
    return sum(B.size(s) for c in st["areas"].values() for s in B.stacks(c))


def in_op(st: dict) -> int:
    mil = (st["op"] or {}).get("mil") or {}
    ally = mil.get("ally") or {}
    return B.size(mil.get("movers")) + len(mil.get("extra") or []) + ally.get("moved", 0)


def lost(event: dict) -> int:
    if event["type"] in ("general_removed", "general_left"):
        return 1
    if event["type"] != "losses_taken":
        return 0
    return sum(v if isinstance(v, int) else len(v) for v in event["lost"].values())


def added(event: dict) -> int:
    if event["type"] == "mobilized":
        return len(event["areas_placed"])
    return int(
        event["type"] == "general_placed"
        or event["type"] == "reinforced"
        or (
            event["type"] == "response_resolved"
            and event.get("effect") in ("reinforced", "wei_wuji")
        )
    )


def hidden_cards_shown(st: dict, seat: str) -> list:
    view = RULES.view(st, seat)
    me = st["sides"].get(seat)
    out = []
    for side in B.SIDES:
        if side == me:
            continue
        if view["hands"][side] is not None and st["phase"] != "over":
            out.append("hand")
        # a face-down card stays hidden, even once the game is over (§7.3)
        out += [d for d in view["discards"][side] if d["card"] and not d["up"]]
    assert "decks" not in view
    return out


def play(seed: int, options: dict) -> tuple[list, list, dict]:
    rng = random.Random(seed)
    events = RULES.setup(options, rng)
    st = RULES.fold(events)
    commands = []
    total = counters(st)
    for _ in range(3000):
        due = RULES.pending(st)
        if not due:
            break
        seat = sorted(due)[0]
        legal = RULES.legal(st, seat)
        assert legal, f"{seat} owes {due[seat]} and has nothing legal"
        for probe in rng.sample(legal, min(3, len(legal))):
            RULES.decide(st, seat, probe, random.Random(0))  # legal is accepted
        cmd = RULES.random_command(st, seat, rng)
        assert cmd in legal or cmd["type"] == "bid"
        new = RULES.decide(st, seat, cmd, rng)
        commands.append((seat, cmd))
        for event in new:
            st = RULES.evolve(st, event)
            total += added(event) - lost(event)
            for viewer in (*RULES.seats, None):
                seen = RULES.redact(event, viewer)
                if event["visible_to"] not in ("all", viewer):
                    assert not {"cards", "deck", "rp"} & set(seen or {}), seen
                    if event["type"] == "card_played":
                        assert "card" not in seen
        assert counters(st) + in_op(st) == total, "counters are conserved"
        for viewer in RULES.seats:
            assert not hidden_cards_shown(st, viewer)
        events += new
    assert RULES.outcome(st) is not None, "every game ends"
    return events, commands, st


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 2**32 - 1), options=OPTIONS)
def test_random_legal_games(seed: int, options: dict) -> None:
    events, commands, st = play(seed, options)
    assert RULES.fold(events) == st
    assert RULES.fold(json.loads(json.dumps(events))) == st
    assert RULES.load_state(RULES.dump_state(st)) == st
    # the same seed and commands give the same game, byte for byte
    rng = random.Random(seed)
    again = RULES.setup(options, rng)
    state = RULES.fold(again)
    for seat, cmd in commands:
        rng.sample(RULES.legal(state, seat), min(3, len(RULES.legal(state, seat))))
        RULES.random_command(state, seat, rng)
        new = RULES.decide(state, seat, cmd, rng)
        state = RULES.fold(new, state)
        again += new
    assert json.dumps(again, sort_keys=True) == json.dumps(events, sort_keys=True)


def test_determinize_gives_a_position_the_seat_cannot_tell_from_the_true_one():
    for seed, victory in ((0, "basic"), (1, "bid")):
        rng = random.Random(seed)
        st = RULES.fold(RULES.setup({"victory": victory}, rng))
        while RULES.pending(st):
            for seat in RULES.seats:
                view = RULES.view(st, seat)
                guess = RULES.knowledge.determinize(view, seat, random.Random(seed))
                assert RULES.view(guess, seat) == view
                assert RULES.legal(guess, seat) == RULES.legal(st, seat)
            seat = sorted(RULES.pending(st))[0]
            st = RULES.fold(RULES.decide(st, seat, RULES.random_command(st, seat, rng), rng), st)


def test_the_heuristic_answers_every_decision_with_a_legal_command():
    rng = random.Random(4)
    st = RULES.fold(RULES.setup({"scenario": "QIN_DOMINATES", "victory": "bid"}, rng))
    while RULES.pending(st):
        seat = sorted(RULES.pending(st))[0]
        cmd = RULES.ai.heuristic(RULES.view(st, seat), seat, rng)
        assert cmd is not None
        assert cmd in RULES.legal(st, seat) or cmd["type"] == "bid"
        st = RULES.fold(RULES.decide(st, seat, cmd, rng), st)
    assert RULES.outcome(st) is not None
