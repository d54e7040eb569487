"""Finished games to archive, verify and tamper with: played through the real write path
(``service.usecases.Bingfa`` over an in-memory store) with random legal commands."""

from __future__ import annotations

import pytest
from replay_helpers import counter_tokens, play_game

from events.store import InMemoryEventStore
from replays.record import record_of
from service.usecases import Bingfa


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
