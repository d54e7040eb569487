"""Working out a hint (on an AI worker, so the web never spends a search's CPU on it): the
AI's suggestion for a seat's decision, judged from the seat's own view, at the level hints
use, kept by position (``events.hints``)."""

from __future__ import annotations

from typing import Any

from events.hints import HintCache
from workers import ai

HINT_LEVEL = "medium"  # strong enough to teach, quick enough to answer at once


def work_out(bingfa: Any, hints: HintCache, game_id: str, version: int, seat: str) -> str:
    """Put the hint for ``seat`` at ``version`` (once); a short status."""
    if hints.get(game_id, version, seat) is not None:
        return "already worked out"
    game = bingfa.load(game_id)
    if game.version != version or seat not in game.pending:
        return "the game moved on"
    rng = ai.move_rng(game_id, version, f"{seat}:hint", bingfa.store.get_secret(game_id))
    command = ai.choose_command(game.rules, game.state, seat, HINT_LEVEL, rng)
    hints.put(game_id, version, seat, {"version": version, "command": command,
                                       "level": HINT_LEVEL})  # fmt: skip
    return f"hint for {seat} at {version}"
