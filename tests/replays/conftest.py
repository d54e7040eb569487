"""Finished games to archive, verify and tamper with: played through the real write path
(``service.usecases.Bingfa`` over an in-memory store) with random legal commands."""

from __future__ import annotations

import itertools
import random

import pytest

import games
from events.projector import load
from events.store import InMemoryEventStore
from replays.record import record_of
from service.usecases import Bingfa

RULES = games.get("sun-tzu")
HUMANS = {"blue": "human", "red": "human"}


def counter_tokens(start: int = 0):
    n = itertools.count(start)
    return lambda size: f"{next(n):0{size * 2}x}"


def play_game(app, options=None, seats=None, seed=1, nonces=(None, None), hand_over=False):
    """A finished game's id: seats joined (with nonces), random commands to the end;
    ``hand_over``: blue hands its seat to the AI halfway (its moves stay random here)."""
    seats = seats or HUMANS
    game_id = app.create_game("sun-tzu", options or {}, seats)
    for (seat, kind), nonce in zip(seats.items(), nonces, strict=True):
        if kind == "human":
            app.join(game_id, seat, player=f"player-{seat}-{seed % 3}", nonce=nonce)
    rng = random.Random(seed)
    for turn in itertools.count():
        game = load(app.store, game_id)
        if not game.pending:
            return game_id
        if hand_over and turn == 20 and game.seats["blue"] == "human":
            app.hand_to_ai(game_id, "blue", "random")
            continue
        seat = sorted(game.pending)[rng.randrange(len(game.pending))]
        app.submit(game_id, seat, RULES.random_command(game.state, seat, rng))


@pytest.fixture
def bingfa():
    return Bingfa(InMemoryEventStore(), token=counter_tokens())


@pytest.fixture(scope="module")
def finished():
    """(write path, game id, record) of one finished game with events on and a nonce."""
    app = Bingfa(InMemoryEventStore(), token=counter_tokens())
    game_id = play_game(app, {"events": True}, nonces=("blue's nonce", None), seed=7)
    return app, game_id, record_of(app.store, game_id)


@pytest.fixture(scope="module")
def record(finished):
    return finished[2]
