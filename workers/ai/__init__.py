"""AI opponents as pure functions: a position and a random stream go in, a command comes out.

Nothing here touches Redis, Celery or a clock (the search may read ``time.perf_counter``
for a time cap only). The task in ``workers.tasks`` loads the game, calls
``choose_command`` and submits the result through the ordinary write path.

Honesty: ``choose_command`` turns the position into the seat's view first and the levels
get only that view, so no level can see the opponent's hand or the deck order.

Levels: ``random`` (uniform over legal answers), ``easy`` (the game's rules of thumb, one
decision at a time, no lookahead: ``rules.ai.heuristic``), ``medium`` and ``hard``
(information-set MCTS, ``workers.ai.search``, over the game's AI parts ``rules.ai``, with
smaller and bigger iteration budgets; at a simultaneous decision hard also draws only among
its near-best answers, ``STYLES``). Every level rebuilds positions from the view with the
game's own knowledge (``rules.knowledge.determinize``); nothing here names a game.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Callable
from typing import Any

from events.envelope import canonical
from workers.ai.search import Budget, Style, search

# Iteration budgets, so that a move is reproducible from its seed. The wall-clock caps are
# only a safety net for an overloaded worker; when one bites, the move is the best so far
# and no longer reproducible from the seed. Hard's 800 playouts (it had 1200) keep its
# p95 under 1 s a decision in both games of issue 18, and 40 games against medium (seats
# alternated, the same deals for both budgets) did not find it weaker: 0.825 (95% CI
# 0.68-0.91) with 800, 0.75 (0.60-0.86) with 1200. The figures per game: issue 18's note
# and ``python -m bench.ai``.
MEDIUM = Budget(iterations=200, seconds=2.0)
HARD = Budget(iterations=800, seconds=8.0)
# How each searching level decides once it has thought. At a simultaneous decision (secret
# choices made at once) medium draws among every action visited at least 0.3 times as often
# as the most visited one: at 800 playouts that is often ten actions, some a tenth of a win
# chance below the best. Hard draws only among those visited 0.7 times as often (the
# near-best, often one or two): still a mixed strategy, without the clearly worse moves.
# Its thinking, and so its time, is unchanged; a game whose searched decisions are never
# simultaneous plays exactly as before. Against medium, 40 games a seed (bench.ai
# --pairings hard:medium --games 40 --jobs 1, seats alternated, a loaded 2-core machine):
# seed 1 0.775 (95% CI 0.62-0.88) with medium's floor -> 0.850 (0.71-0.93) with 0.7, 0.875
# (0.74-0.95) with only the most visited action (1.0); seed 2 0.675 (0.52-0.80) -> 0.725
# (0.57-0.84) with 0.7 (the only two games that changed went hard's way), 0.725 with 1.0.
# Over the 80 games 0.725 -> 0.79: a gain, but not 0.85 for sure; playing only the most
# visited action would give up the mix for no measured gain.
STYLES: dict[str, Style] = {"medium": Style(), "hard": Style(mixed_floor=0.7)}

Chooser = Callable[[Any, dict[str, Any], str, random.Random, Budget | None], dict | None]


def _random(rules: Any, view: dict[str, Any], seat: str, rng: random.Random,
            budget: Budget | None) -> dict[str, Any] | None:  # fmt: skip
    """A uniformly random answer to whatever the seat owes (the rules define "random").
    The rules draw it from a position; any position consistent with the view will do, as
    a random answer depends only on the seat's own position and the public one. The sample
    is drawn from its own fixed stream, so ``rng`` gives the same answers as it always did."""
    stand_in = _knowledge(rules).determinize(view, seat, random.Random(0))
    return rules.random_command(stand_in, seat, rng)


def _easy(rules: Any, view: dict[str, Any], seat: str, rng: random.Random,
          budget: Budget | None) -> dict[str, Any] | None:  # fmt: skip
    return _ai(rules).heuristic(view, seat, rng)


def _searcher(default: Budget, style: Style) -> Chooser:
    def choose(rules: Any, view: dict[str, Any], seat: str, rng: random.Random,
               budget: Budget | None) -> dict[str, Any] | None:  # fmt: skip
        parts = _ai(rules)
        if not parts.searchable(view, seat):
            return parts.fallback(parts.determinize(view, seat, rng), seat, rng)
        return search(rules, parts, view, seat, rng, budget or default, style=style)

    return choose


def _ai(rules: Any) -> Any:
    """The game's AI parts (``games.base.AiParts``), or a ``ValueError`` that says so."""
    parts = getattr(rules, "ai", None)
    if parts is None:
        raise ValueError(f"{rules.name} has no AI beyond the random level (its package "
                         "supplies no AI parts)")  # fmt: skip
    return parts


def _knowledge(rules: Any) -> Any:
    """The game's knowledge (``games.base.Knowledge``): even a random answer is drawn from a
    position, and the AI only ever has a view to rebuild one from."""
    parts = getattr(rules, "knowledge", None)
    if parts is None:
        raise ValueError(f"{rules.name} has no AI: its package supplies no knowledge to "
                         "rebuild a position from what a seat sees")  # fmt: skip
    return parts


BUDGETS: dict[str, Budget] = {"medium": MEDIUM, "hard": HARD}  # the searching levels

LEVELS: dict[str, Chooser] = {
    "random": _random,
    "easy": _easy,
    "medium": _searcher(MEDIUM, STYLES["medium"]),
    "hard": _searcher(HARD, STYLES["hard"]),
}


def choose_command(
    rules: Any,
    state: Any,
    seat: str,
    level: str,
    rng: random.Random,
    budget: Budget | None = None,
    interrupts: tuple[type[BaseException], ...] = (),
) -> dict[str, Any] | None:
    """The command an AI of ``level`` plays for ``seat`` in ``state``. It is None when the
    seat owes nothing. An unknown level raises ``ValueError``. ``budget`` overrides the
    level's thinking budget (search levels only); ``interrupts`` end a search early with
    its best decision so far (the Celery task's soft time limit)."""
    if interrupts and level in BUDGETS:
        budget = dataclasses.replace(budget or BUDGETS[level], interrupts=interrupts)
    try:
        chooser = LEVELS[level]
    except KeyError:
        known = ", ".join(LEVELS)  # weakest first
        raise ValueError(f"there is no AI level {level!r}; the levels are: {known}") from None
    view = rules.view(state, seat)  # the only thing the level ever sees
    if seat not in rules.pending(state):  # public: every view shows who is waited for
        return None
    return chooser(rules, view, seat, rng, budget)


def move_rng(game_id: str, version: int, seat: str, secret: str | None) -> random.Random:
    """The AI's random stream for one decision. It is the same every time it is asked, so a
    task that is delivered again plays the same move.

    The game's secret seed is mixed in. Otherwise an opponent who knows the game id could
    predict a random AI's choices. After the seed is revealed at the end, anyone can re-derive
    them. The label keeps this stream separate from the game's own chance
    (`events.fairness.rng_for`).
    """
    material = canonical(
        {"ai": "move", "game": game_id, "version": version, "seat": seat, "secret": secret or ""}
    )
    return random.Random(int.from_bytes(hashlib.sha256(material).digest(), "big"))
