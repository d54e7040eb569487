"""Whole games between policies, through the public protocol only (any registered game).

A policy is a function ``(rules, state, seat, rng) -> command``. Used by ``bingfa
selfplay``, ``bench.rules`` and the tests; pure: randomness only from the ``rng`` given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.base import Command, Event, Rules, Seat

Policy = Callable[[Rules, Any, Seat, Any], Command]


def random_policy(rules: Rules, state: Any, seat: Seat, rng: Any) -> Command:
    return rules.random_command(state, seat, rng)


def heuristic_policy(rules: Rules, state: Any, seat: Seat, rng: Any) -> Command:
    """The game's rule of thumb (its AI parts' ``heuristic``, the easy level) on the seat's
    view only."""
    command = rules.ai.heuristic(rules.view(state, seat), seat, rng)
    return command if command is not None else rules.random_command(state, seat, rng)


POLICIES: dict[str, Policy] = {"random": random_policy, "heuristic": heuristic_policy}


@dataclass
class Game:
    """A finished game: its events, the commands that made them, and the outcome."""

    events: list[Event] = field(default_factory=list)
    commands: list[tuple[Seat, Command]] = field(default_factory=list)
    state: Any = None
    outcome: dict[str, Any] | None = None


def play(
    rules: Rules,
    options: Mapping[str, Any],
    rng: Any,
    policies: Mapping[Seat, Policy] | None = None,
    max_commands: int = 100_000,
) -> Game:
    """Play one game to its end; each seat that owes a decision answers in seat order."""
    policies = policies or {}
    game = Game(events=rules.setup(options, rng))
    state = rules.fold(game.events)
    pending, decide, random_command = rules.pending, rules.decide, rules.random_command
    evolve = rules.evolve
    evolve_all = getattr(rules, "evolve_all", None)  # optional (games.base.Rules)
    for _ in range(max_commands):
        due = pending(state)
        if not due:
            break
        seat = next(iter(due))
        policy = policies.get(seat)  # (none: random_policy, called without its frame)
        if policy is None:
            command = random_command(state, seat, rng)
        else:
            command = policy(rules, state, seat, rng)
        events = decide(state, seat, command, rng)
        if evolve_all is not None:
            state = evolve_all(state, events)
        else:
            for event in events:
                state = evolve(state, event)
        game.commands.append((seat, command))
        game.events.extend(events)
    else:
        raise RuntimeError(f"{rules.key}: no end after {max_commands} commands")
    game.state = state
    game.outcome = rules.outcome(state)
    return game
