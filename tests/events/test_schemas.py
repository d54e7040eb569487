"""The store's fast payload check accepts exactly what the marshmallow schema accepts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

import games
from events.schemas import SYSTEM_FIELDS, fast_check, schema_for

DECLARED = {
    (key, event_type): spec
    for key, rules in games.REGISTRY.items()
    for event_type, spec in {**SYSTEM_FIELDS, **rules.event_fields}.items()
}
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(allow_nan=False, width=16),
    st.text(max_size=3),
    st.lists(st.integers(0, 3), max_size=2),
    st.tuples(st.integers(0, 3)),
    st.dictionaries(st.text(max_size=2), st.integers(0, 3), max_size=2),
    st.dictionaries(st.integers(0, 3), st.integers(0, 3), min_size=1, max_size=1),
    st.frozensets(st.integers(0, 3), max_size=2),
)


@st.composite
def payloads(draw):
    key, event_type = draw(st.sampled_from(sorted(DECLARED)))
    spec = DECLARED[key, event_type]
    payload = {}
    for name in spec:
        if draw(st.integers(0, 9)) == 0:
            continue  # sometimes leave a field out
        payload[name.lstrip("~")] = draw(VALUES)
    if draw(st.integers(0, 9)) == 0:
        payload[draw(st.sampled_from(["extra", "seat", "round", "x"]))] = draw(VALUES)
    return spec, payload


@settings(max_examples=1500, deadline=None)
@given(payloads())
def test_the_fast_check_agrees_with_the_schema(case):
    spec, payload = case
    try:
        schema_for("t", spec).load(payload)
        accepted = True
    except ValidationError:
        accepted = False
    assert fast_check(spec)(payload) is accepted


def test_the_agreement_test_meets_both_answers():
    spec = DECLARED["sun-tzu", "scored"]
    good = {"round": 3, "points": {"blue": 1, "red": 2}, "marker": -1}
    assert fast_check(spec)(good)
    assert not fast_check(spec)({**good, "round": True})
    assert not fast_check(spec)({**good, "marker": None})
