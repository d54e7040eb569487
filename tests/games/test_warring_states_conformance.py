"""Warring States beyond the generic checks (``tests/test_conformance.py`` and
``tests/test_game_parts.py`` play it with its default options, as every registered game):
the conformance checks with its other options (scenario, bid, the first player's side),
and every event and command of a game said by its text."""

from __future__ import annotations

import random

import pytest

from events.commands import Commands
from events.schemas import fast_check
from games.warring_states import RULES
from tests.test_conformance import play_checked
from tests.test_game_parts import said

SEEDS = (0, 1, 2)
OPTIONS = [  # the defaults are the generic test's
    {"scenario": "QIN_DOMINATES"},
    {"victory": "bid"},
    {"scenario": "QIN_DOMINATES", "first_side": "alliance"},
]


class _Setup:
    """RULES with the game's options fixed, for the generic checks (which use defaults)."""

    def __init__(self, options: dict) -> None:
        self.options = options

    def __getattr__(self, name: str):
        return getattr(RULES, name)

    def setup(self, options, rng):
        return RULES.setup({**self.options, **options}, rng)


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(map(str, o.values())) or "default"
)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_conform(options: dict, seed: int) -> None:
    commands = Commands({RULES.key: RULES})
    assert commands.declares(RULES.key)
    assert set(RULES.command_fields) == set(RULES.command_types)
    assert RULES.outcome(RULES.initial()) is None
    play_checked(_Setup(options), tuple(RULES.seats), seed, commands)


def test_every_event_and_command_is_said() -> None:
    rng = random.Random(5)
    events = RULES.setup({}, rng)
    state = RULES.fold(events)
    seen = set()
    while RULES.pending(state):
        for seat in list(RULES.pending(state)):
            if seat not in RULES.pending(state):
                continue
            cmd = RULES.random_command(state, seat, rng)
            for viewer in (*RULES.seats, None):
                said(RULES.text, RULES.text.command(cmd, viewer), f"command {cmd}")
            new = RULES.decide(state, seat, cmd, rng)
            for event in new:
                state = RULES.evolve(state, event)
                payload = {k: v for k, v in event.items() if k not in ("type", "visible_to")}
                assert fast_check(RULES.event_fields[event["type"]])(payload), event
                for viewer in (*RULES.seats, None):
                    seen_ev = RULES.redact(event, viewer)
                    if seen_ev is None:
                        continue
                    msg = RULES.text.event(seen_ev, viewer)
                    assert msg is not None, event["type"]
                    said(RULES.text, msg, f"event {event['type']}")
                seen.add(event["type"])
            events += new
    said(RULES.text, RULES.text.end(RULES.outcome(state), None), "end")
    assert {"dice_rolled", "losses_taken", "moved", "turn_ended", "game_ended"} <= seen
    for kind in ("bid", "action", "operate", "choose", "respond"):
        said(RULES.text, RULES.text.prompt(kind, None), kind)
