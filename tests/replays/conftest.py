"""Finished games to archive, verify and tamper with: played through the real write path
(``events.writepath.WritePath`` over an in-memory store) with random legal commands."""

from __future__ import annotations

import pytest
from replay_helpers import counter_tokens, play_game

from events.store import InMemoryEventStore
from events.writepath import WritePath
from replays.record import record_of


@pytest.fixture
def bingfa():
    return WritePath(InMemoryEventStore(), token=counter_tokens())


@pytest.fixture(scope="module")
def finished():
    """(write path, game id, record) of one finished game with events on and a nonce."""
    app = WritePath(InMemoryEventStore(), token=counter_tokens())
    game_id = play_game(app, {"events": True}, nonces=("blue's nonce", None), seed=7)
    return app, game_id, record_of(app.store, game_id)


@pytest.fixture(scope="module")
def record(finished):
    return finished[2]
