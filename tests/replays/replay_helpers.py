"""Helpers shared by the replay tests (a module of their own: test modules cannot import
from ``conftest`` reliably when several test folders each have one)."""

from __future__ import annotations

import itertools
import random

import games
from events.projector import load

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


def problem_of(response, status):
    """The problem document of a refused request, checked: status, media type, a sentence."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["detail"] and "Traceback" not in body["detail"]
    return body
