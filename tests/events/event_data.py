"""Test data shared by the event-store tests."""

from __future__ import annotations

# The first event of a two-human Sun Tzu game, as the write path would append it.
CREATED = {
    "type": "game_created",
    "visible_to": "all",
    "game": "sun-tzu",
    "rules_version": "1",
    "options": {},
    "seats": {"blue": "human", "red": "human"},
    "seed_sha256": "ab" * 32,
}
