"""Sealing builds the hashed body by hand; it must be exactly ``canonical(body)``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.envelope import (
    Unstorable,
    canonical,
    chain_hash,
    fast_canonical,
    seal,
    seal_all,
    verify_chain,
)
from events.redis_store import entry_fields, envelope_of
from events.schemas import JSON_INT_MAX
from events.store import _fingerprint_sealed, fingerprint_of

TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=12)
WHOLE = st.integers(-JSON_INT_MAX, JSON_INT_MAX)
PAYLOADS = st.dictionaries(TEXT, st.one_of(WHOLE, TEXT, st.none(), st.lists(TEXT)))
# what an envelope holds besides its seq and schema version
ENVELOPE_PARTS = {"type_": TEXT, "actor": TEXT, "at": TEXT, "visible_to": TEXT,
                  "prev": st.sampled_from(["", "ab" * 32]), "payload": PAYLOADS}  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(
    seq=st.integers(1, 10**6),
    **ENVELOPE_PARTS,
    v=st.integers(1, 9),
)
def test_the_sealed_hash_is_the_hash_of_the_canonical_body(
    seq, type_, actor, at, visible_to, prev, payload, v
):
    event = {**payload, "type": type_, "visible_to": visible_to}  # a payload key cannot win
    env = seal(seq, event, prev=prev, actor=actor, at=at, v=v)
    assert env.hash == chain_hash(prev, env.body())
    assert env.payload_json == canonical(env.payload)


@settings(max_examples=200, deadline=None)
@given(
    first=st.integers(1, 10**6),
    actor=TEXT,
    at=TEXT.filter(bool),
    prev=st.sampled_from(["", "ab" * 32]),
    events=st.lists(
        st.tuples(TEXT, st.sampled_from(["all", "blue", "server"]), PAYLOADS),
        min_size=1,
        max_size=6,
    ),
)
def test_sealing_a_batch_seals_each_event_as_seal_does(first, actor, at, prev, events):
    batch = [{**payload, "type": type_, "visible_to": to} for type_, to, payload in events]
    versions = {type_: 2 for type_, _, _ in events[:1]}
    envelopes = seal_all(first, batch, prev=prev, actor=actor, at=at, versions=versions)
    verify_chain(envelopes, prev, first)
    salts = set()
    for event, env in zip(batch, envelopes, strict=True):
        assert (env.salt == "") == (event["visible_to"] == "all")  # hidden: salted
        assert len(env.salt) in (0, 32)
        salts.add(env.salt)
        alone = seal(env.seq, event, prev=env.prev, actor=actor, at=at, salt=env.salt,
                     v=versions.get(event["type"], 1))  # fmt: skip
        assert alone == env and alone.payload_json == env.payload_json
    hidden = sum(1 for e in batch if e["visible_to"] != "all")
    assert len(salts - {""}) == hidden  # each hidden event its own salt


JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), WHOLE, TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=20,
)


@settings(max_examples=1500, deadline=None)
@given(JSON)
def test_fast_canonical_gives_the_canonical_bytes(value):
    assert fast_canonical(value) == canonical(value)


def test_fast_canonical_meets_the_hard_cases():
    hard = ["\u2028", "\x00\x1f\x7f", 'é"\\', JSON_INT_MAX, -JSON_INT_MAX,
            {"b": 1, "a": [True, None]}]  # fmt: skip
    for value in hard:
        assert fast_canonical(value) == canonical(value)


@pytest.mark.parametrize(
    "value",
    ["\ud800", JSON_INT_MAX + 1, -JSON_INT_MAX - 1, 2**64, 10**400, {1: "x"}, {"a": b"x"}, {1, 2}],
    ids=["lone surrogate", "2**53", "-2**53", "2**64", "10**400", "number key", "bytes", "set"],
)
def test_what_the_store_cannot_read_back_exactly_is_refused_not_written_otherwise(value):
    # No fallback: a value is written by the one codec that reads it back, or not at all.
    with pytest.raises(Unstorable):
        fast_canonical(value)


@settings(max_examples=300, deadline=None)
@given(
    **ENVELOPE_PARTS,
    game=st.sampled_from([None, "sun-tzu"]),
)
def test_an_entry_stored_without_its_hash_reads_back_the_same(
    type_, actor, at, visible_to, prev, payload, game
):
    """The Redis entry of an append's inner event keeps no hash and a packed payload:
    reading it works the hash out from the entry before, exactly; and the idempotency
    fingerprint of the sealed envelope is ``fingerprint_of`` the events."""
    event = {**payload, "type": type_, "visible_to": visible_to}
    env = seal(7, event, prev=prev, actor=actor, at=at)
    fields = {k.encode(): v if isinstance(v, bytes) else str(v).encode()
              for k, v in entry_fields(env, game=game, tip=False).items()}  # fmt: skip
    assert fields[b"h"] == b""
    assert envelope_of(b"7-1", fields, prev=prev, game=game) == env
    assert _fingerprint_sealed([env]) == fingerprint_of([event], actor)
