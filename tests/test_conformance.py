"""One conformance test for every registered game (style.md, anchor 4).

A game plugs in by being listed in ``games.REGISTRY``; this test then plays a few seeded
random games of it to the end through the protocol of ``games/base.py`` only, and checks
what every other layer relies on: events fold back to the state, survive JSON, say who
may see them; a seat that owes a decision always has a legal command; views serialise;
the game ends with an outcome.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import games
from events.commands import Commands
from events.schemas import plain

SEEDS = (0, 1, 2)
MAX_COMMANDS = 5_000


def roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("key", sorted(games.REGISTRY))
def test_game_conforms_to_the_protocol(key: str) -> None:
    game = games.REGISTRY[key]
    assert game.key == key
    assert games.get(key) is game
    seats = tuple(game.seats)
    assert seats, "a game has seats"
    assert len(set(seats)) == len(seats)
    assert all(isinstance(s, str) and s for s in seats)
    assert isinstance(game.has_chance, bool)
    assert isinstance(game.has_hidden_information, bool)
    assert isinstance(game.max_rounds, int)
    assert game.outcome(game.initial()) is None
    # Every command type the game takes is declared, so the write path can refuse the rest.
    declared = game.command_fields
    assert set(declared) == set(game.command_types), set(declared) ^ set(game.command_types)
    commands = Commands({key: game})
    assert commands.declares(key)

    for seed in SEEDS:
        play_checked(game, seats, seed, commands)


def play_checked(game: Any, seats: tuple[str, ...], seed: int, declared: Commands) -> None:
    where = f"{game.key} seed {seed}"
    rng = random.Random(seed)
    events = game.setup({}, rng)
    check_events(game, seats, events, where)
    state = game.fold(events)
    commands = 0
    while game.pending(state):
        due = game.pending(state)
        assert set(due) <= set(seats), f"{where}: pending names unknown seats {due}"
        check_views(game, seats, state, where)
        for seat in list(due):
            if seat not in game.pending(state):
                continue
            assert game.outcome(state) is None, f"{where}: pending after the outcome"
            assert game.legal(state, seat), f"{where}: {seat} owes {due[seat]}, nothing legal"
            command = game.random_command(state, seat, rng)
            assert command is not None, f"{where}: {seat} owes a decision, no random command"
            assert roundtrip(command) == command, f"{where}: command not JSON: {command}"
            for legal in [command, *game.legal(state, seat)]:
                assert declared.valid(game.key, legal), f"{where}: undeclared shape {legal}"
            new = game.decide(state, seat, command, rng)
            check_events(game, seats, new, where)
            for event in new:
                state = game.evolve(state, event)
            events += new
            commands += 1
            assert commands < MAX_COMMANDS, f"{where}: no end after {MAX_COMMANDS} commands"

    outcome = game.outcome(state)
    assert outcome is not None, f"{where}: nobody owes anything but there is no outcome"
    assert roundtrip(outcome) == outcome
    check_views(game, seats, state, where)
    for seat in seats:
        assert game.legal(state, seat) == [], f"{where}: {seat} has legal commands at the end"
        with pytest.raises(games.RulesError):
            game.decide(state, seat, {"type": "resign"}, rng)
    # The projector's fold, from scratch and from the stored (JSON) form, is the same state.
    assert game.fold(events) == state, f"{where}: fold of the events differs"
    assert game.fold(roundtrip(events)) == state, f"{where}: fold of stored events differs"
    assert commands > 0


def check_events(game: Any, seats: tuple[str, ...], events: list, where: str) -> None:
    assert isinstance(events, list)
    for event in events:
        assert isinstance(event.get("type"), str), f"{where}: event without a type {event}"
        assert event.get("visible_to") in ("all", "server", *seats), f"{where}: {event}"
        assert roundtrip(event) == event, f"{where}: event does not survive JSON: {event}"
        assert plain(event), f"{where}: the store cannot keep it exactly: {event}"
        for viewer in (*seats, None):
            seen = game.redact(event, viewer)
            if event["visible_to"] in ("all", viewer):
                assert seen == event, f"{where}: {viewer} may see all of {event}"
                continue
            if seen is not None:
                assert seen["type"] == event["type"]
                assert roundtrip(seen) == seen
                assert seen != event, f"{where}: {viewer} sees a private event whole: {event}"


def check_views(game: Any, seats: tuple[str, ...], state: Any, where: str) -> None:
    for viewer in (*seats, None):
        view = game.view(state, viewer)
        assert isinstance(view, dict)
        json.dumps(view)  # raises TypeError when a value is not JSON
