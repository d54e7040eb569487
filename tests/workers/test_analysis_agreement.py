"""The agreement of an analysis with a deeper one (workers.analysis.agreement)."""

from __future__ import annotations

import pytest

from workers.analysis import DEFAULT
from workers.analysis.agreement import REFERENCE_FACTOR, agreement, deeper


def entry(step, loss, cls, best, assessed=True, forced=False):
    return {"step": step, "assessed": assessed, "forced": forced, "loss": loss,
            "class": cls, "best": best}  # fmt: skip


def result(*entries):
    return {"decisions": list(entries)}


def test_only_decisions_with_a_choice_in_both_count():
    reference = result(entry(1, 0.0, None, {"a": 1}), entry(2, 12.0, "mistake", {"b": 1}),
                       entry(3, 0.0, None, {"c": 1}, forced=True),
                       entry(4, None, None, None, assessed=False))  # fmt: skip
    analysis = result(entry(1, 2.0, None, {"a": 1}), entry(2, 6.0, "inaccuracy", {"b": 2}),
                      entry(3, 0.0, None, {"c": 1}, forced=True),
                      entry(4, None, None, None, assessed=False))  # fmt: skip
    got = agreement([reference], [analysis])
    assert got.decisions == 2
    assert got.classes == pytest.approx(0.5)  # step 1 agrees, step 2 does not
    assert got.best == pytest.approx(0.5)
    assert got.loss_difference == pytest.approx((2.0 + 6.0) / 2)


def test_games_are_pooled_and_an_analysis_agrees_with_itself():
    a = result(entry(1, 0.0, None, {"a": 1}), entry(2, 20.0, "blunder", {"b": 1}))
    b = result(entry(5, 7.0, "inaccuracy", {"x": 1}))
    got = agreement([a, b], [a, b])
    assert (got.decisions, got.classes, got.best, got.loss_difference) == (3, 1.0, 1.0, 0.0)


def test_nothing_to_compare_gives_no_figures():
    forced = result(entry(1, 0.0, None, {"a": 1}, forced=True))
    got = agreement([forced], [forced])
    assert (got.decisions, got.classes, got.best, got.loss_difference) == (0, None, None, None)


def test_analyses_of_different_records_are_refused():
    with pytest.raises(ValueError):
        agreement([result(entry(1, 0.0, None, {}))], [result(entry(2, 0.0, None, {}))])
    with pytest.raises(ValueError):  # not as many games on both sides
        agreement([result(), result()], [result()])


def test_the_reference_searches_more_playouts_of_every_kind():
    deep = deeper(DEFAULT)
    assert deep.place == REFERENCE_FACTOR * DEFAULT.place
    assert deep.place_evaluations == REFERENCE_FACTOR * DEFAULT.place_evaluations
    assert deep.other == REFERENCE_FACTOR * DEFAULT.other
    assert deep.other_evaluations == REFERENCE_FACTOR * DEFAULT.other_evaluations
