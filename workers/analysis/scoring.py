"""The figures of an analysis, from the winning chances the search measured (pure math).

Winning chances are in [0, 1]; losses are in percentage points (0–100), as lichess counts
them ("win%" points), so the thresholds and the accuracy formula are lichess's:

* a decision's **loss** is ``100 · (best chance − played chance)``, never below 0;
* it is an **inaccuracy** from 5 points, a **mistake** from 10, a **blunder** from 15
  (lichess: 0.1 / 0.2 / 0.3 of its [−1, 1] winning-chances scale);
* its **accuracy** is ``103.1668 · exp(−0.04354 · loss) − 3.1669`` clamped to [0, 100]
  (lichess's per-move formula, without its +1 "uncertainty bonus"); a player's accuracy
  is the plain mean over its assessed decisions that offered a choice (lichess weights
  and mixes in a harmonic mean; a plain mean is simpler to read and to check);
* **luck** is the part of the result that the decisions do not explain (see ``luck``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

INACCURACY, MISTAKE, BLUNDER = 5.0, 10.0, 15.0  # loss thresholds in points
CLASSES = ("inaccuracy", "mistake", "blunder")


def loss_points(best: float, played: float) -> float:
    """The drop in winning chance from the best decision to the one played, in points."""
    return max(0.0, 100.0 * (best - played))


def classify(loss: float) -> str | None:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or None for a loss in points."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def move_accuracy(loss: float) -> float:
    """lichess's accuracy of one move (0–100) for a loss in points."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))


def accuracy(losses: Iterable[float]) -> float | None:
    """The mean accuracy of some decisions' losses; None when there are none."""
    values = [move_accuracy(x) for x in losses]
    return sum(values) / len(values) if values else None


def luck(result: float, own_losses: Iterable[float], their_losses: Iterable[float]) -> dict:
    """How much of a seat's result came from the cards rather than the decisions.

    Before the deal the game is taken as even (0.5). The result (1 win, 0.5 draw, 0 loss)
    moved away from that by ``result − 0.5``. The decisions explain part of it: the seat's
    own losses pushed it down, the opponent's losses (a gain for this seat) pushed it up,
    so ``decisions = Σ their losses − Σ own losses`` (in points). **Luck** is the rest,
    ``luck = 100 · (result − 0.5) − decisions``: the deal and the draws, what neither seat
    could see, and — honestly — the analysis's own misjudgements. ``share`` is
    ``|luck| / (|luck| + |decisions|)``: how much of the result the cards made (0 when
    nothing moved). For the other seat every figure has the opposite sign, the same share.
    """
    decisions = sum(their_losses) - sum(own_losses)
    swing = 100.0 * (result - 0.5)
    rest = swing - decisions
    moved = abs(rest) + abs(decisions)
    return {
        "result": result,
        "swing": round(swing, 1),
        "decisions": round(decisions, 1),
        "luck": round(rest, 1),
        "share": round(abs(rest) / moved, 3) if moved else 0.0,
    }
