"""How far an analysis agrees with a deeper one of the same game (pure: two results in).

The analysis searches each decision for a fixed number of playouts, so what it says is an
estimate. Its agreement with a *reference*, an analysis of the same record with several
times the playouts and another seed (``deeper``), tells how much of what it says would stay
if it searched longer. Only the decisions both analyses assessed with a choice (assessed,
not forced) count:

* ``classes``: the share of them given the same class (none, inaccuracy, mistake,
  blunder): what a player reads from the list of decisions;
* ``best``: the share for which both name the same best decision (placements often have
  several near-equal answers, so this is the strictest figure);
* ``loss_difference``: the mean absolute difference of their losses, in points.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from workers.analysis.engine import Strength

REFERENCE_FACTOR = 3  # the reference searches 3 times as many playouts
REFERENCE_SEED = 1  # and draws its own samples (the analyses' default seed is 0)


@dataclass(frozen=True)
class Agreement:
    decisions: int  # compared: assessed with a choice in both
    classes: float | None
    best: float | None
    loss_difference: float | None


def deeper(strength: Strength, factor: int = REFERENCE_FACTOR) -> Strength:
    """``strength`` with ``factor`` times every number of playouts: the reference's."""
    return Strength(**{name: value * factor for name, value in asdict(strength).items()})


def agreement(
    references: Iterable[dict[str, Any]], analyses: Iterable[dict[str, Any]]
) -> Agreement:
    """The agreement of ``analyses`` with ``references`` (results of ``analyse``, the same
    records in the same order), over all their decisions together."""
    n = same_class = same_best = 0
    difference = 0.0
    for reference, analysis in zip(references, analyses, strict=True):
        ours, theirs = analysis["decisions"], reference["decisions"]
        if [e["step"] for e in ours] != [e["step"] for e in theirs]:
            raise ValueError("the analyses are not of the same record")
        for a, r in zip(ours, theirs, strict=True):
            if not (a["assessed"] and r["assessed"]) or a["forced"] or r["forced"]:
                continue
            n += 1
            same_class += a["class"] == r["class"]
            same_best += a["best"] == r["best"]
            difference += abs(a["loss"] - r["loss"])
    if not n:
        return Agreement(0, None, None, None)
    return Agreement(n, same_class / n, same_best / n, difference / n)
