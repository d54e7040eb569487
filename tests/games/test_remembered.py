"""The state a decision left, kept for the fold after it (``games.remembered``): handed
back only for the very events from the very state, once; and a process that folds before
it has decided anything (a fresh web worker, the projector, a replay's verification) folds
as any other."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import games
from games.playout import play
from games.remembered import SETUP, Remembered

ROOT = Path(__file__).resolve().parents[2]


def test_the_state_is_handed_back_once_for_the_very_events_only():
    memory = Remembered()
    start, final = object(), object()
    events = [{"type": "a"}, {"type": "b"}]
    memory.keep(start, events, final)
    assert memory.take(start, [dict(e) for e in events]) is None  # equal is not enough
    assert memory.take(object(), events) is None  # another state
    assert memory.take(start, events[:1]) is None
    assert memory.take(start, events) is final
    assert memory.take(start, events) is None  # once
    memory.keep(SETUP, events, final)
    assert memory.start() is SETUP and memory.take(SETUP, tuple(events)) is final


@pytest.mark.parametrize("key", ["sun-tzu", "warring-states"])
def test_a_fresh_process_folds_a_game_before_deciding_anything(key, tmp_path):
    rules = games.get(key)
    game = play(rules, {}, random.Random(3), max_commands=60) if key == "sun-tzu" else None
    if game is None:  # a whole Warring States game is long: its opening and a few decisions
        events = rules.setup({}, random.Random(3))
        state = rules.fold(events)
        rng = random.Random(4)
        for _ in range(5):
            seat = next(iter(rules.pending(state)))
            made = rules.decide(state, seat, rules.random_command(state, seat, rng), rng)
            state = rules.evolve_all(state, made)
            events += made
    else:
        events, state = game.events, game.state
    stored = tmp_path / "events.json"
    stored.write_text(json.dumps(events))  # as the store gives them back: new objects
    expected = rules.dump_state(state)
    script = (
        "import json, sys, games\n"
        f"rules = games.get({key!r})\n"
        "events = json.load(open(sys.argv[1]))\n"
        "folded = rules.fold(events)\n"
        "stepped = rules.fold(events[:1])\n"
        "stepped = rules.evolve_all(stepped, events[1:])\n"
        "print(rules.dump_state(folded) == rules.dump_state(stepped))\n"
        "print(rules.dump_state(folded))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(stored)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    same, dumped = done.stdout.split("\n", 1)
    assert same == "True"
    assert dumped.strip() == expected.strip()
