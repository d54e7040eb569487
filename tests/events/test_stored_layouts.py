"""What the Redis store keeps of an entry, and that entries of every earlier layout still
read, fold and verify the same.

The layouts, oldest first (``events.redis_store``'s docstring has the current one):
1. every field, ``prev`` too (``q``), every ``at``, every hash, plain JSON payloads;
2. no ``q``, ``at`` once per append, every hash, plain JSON payloads;
3. (now) as 2, but the hash only at the end of each append, payloads deflated with the
   game's preset dictionary (``events.dictionaries``).
"""

from __future__ import annotations

import hashlib
import random

import pytest
from event_data import CREATED

import games
from events import dictionaries
from events.codec import Codec
from events.envelope import GENESIS, ChainError, canonical, seal_all, verify_chain
from events.redis_store import RedisEventStore
from events.schemas import SYSTEM_FIELDS
from games.playout import play

RULES = games.get("sun-tzu")

# A dictionary in use is never edited: entries packed with it would no longer read.
PINNED = {1: "c64cf065b5aac1ed2ca23a1ce867969b2e4fc57958f776f14bf6efe538d8c3e0"}


def test_every_dictionary_in_use_is_unchanged():
    used = dictionaries.dictionaries_of("sun-tzu")
    assert {n: hashlib.sha256(d).hexdigest() for n, d in used.items()} == PINNED
    assert dictionaries.dictionaries_of("warring-states") == {}
    assert dictionaries.dictionaries_of(None) == dictionaries.dictionaries_of("no-such") == {}


def test_a_game_numbering_its_dictionaries_out_of_range_is_refused(monkeypatch):
    monkeypatch.setattr(RULES, "payload_dictionaries", {123: b"{}"}, raising=False)
    with pytest.raises(ValueError, match="numbered 1 to 122"):
        dictionaries.dictionaries_of("sun-tzu")


def test_packing_round_trips_and_keeps_plain_what_it_cannot_shrink():
    events = play(RULES, {"events": True}, random.Random(5)).events
    for event in events:
        raw = canonical({k: v for k, v in event.items() if k not in ("type", "visible_to")})
        packed = dictionaries.pack("sun-tzu", raw)
        assert dictionaries.unpack(packed, "sun-tzu") == raw
        assert packed == raw or (packed[0] == 1 and len(packed) < len(raw))
        if len(raw) < dictionaries._SMALL:  # short: kept plain (deflating costs more)
            assert packed == raw
        assert dictionaries.pack("warring-states", raw) == raw  # no dictionary: plain
        assert dictionaries.pack(None, raw) == raw
    assert dictionaries.pack("sun-tzu", b"{}") == b"{}"  # nothing to gain


def test_a_payload_packed_with_an_unknown_dictionary_is_refused():
    with pytest.raises(ValueError, match="dictionary 99"):
        dictionaries.unpack(b"\x63abc", "sun-tzu")
    with pytest.raises(ValueError, match="dictionary 1"):  # a game without dictionaries
        dictionaries.unpack(b"\x01abc", "warring-states")


@pytest.fixture(params=["fakeredis", "redis"])
def store(request):
    client = request.getfixturevalue("fake_redis" if request.param == "fakeredis" else
                                     "redis_client")  # fmt: skip
    return RedisEventStore(client)


def write_old_game(store: RedisEventStore, game_id: str, layout: int) -> list:
    """A played game written by hand as a release of ``layout`` (1 or 2) wrote it, in
    appends of 7 events; its envelopes as sealed."""
    events = [CREATED, *play(RULES, {"events": True}, random.Random(8)).events]
    envs, prev = [], GENESIS
    for i in range(0, len(events), 7):
        batch = seal_all(i + 1, events[i : i + 7], prev=prev, actor="blue",
                         at=f"2024-01-01T00:00:{i // 7:02d}.000Z",
                         versions=Codec().versions("sun-tzu"))  # fmt: skip
        prev = batch[-1].hash
        envs += batch
    key = store.key(game_id, "events")
    for env in envs:
        first = (env.seq - 1) % 7 == 0
        fields = {
            "t": env.type,
            "v": env.v,
            "a": env.at if layout == 1 or first else "",
            "r": env.actor,
            "w": env.visible_to,
            "p": canonical(env.payload),
            "h": bytes.fromhex(env.hash),
            **({"q": bytes.fromhex(env.prev)} if layout == 1 else {}),
            "s": bytes.fromhex(env.salt),
        }
        store.redis.xadd(key, fields, id=f"{env.seq}-1")
    store.redis.hset(store.key(game_id, "meta"),
                     mapping={"version": envs[-1].seq, "last_hash": envs[-1].hash,
                              "game": "sun-tzu"})  # fmt: skip
    return envs


@pytest.mark.parametrize("layout", [1, 2])
def test_an_entry_of_an_older_layout_reads_folds_and_verifies_the_same(store, layout):
    envs = write_old_game(store, "old", layout)
    assert store.verify("old") == envs
    for after in (0, 1, 3, 7, 10, len(envs) - 1):
        assert store.read("old", after=after) == envs[after:]
        light = RedisEventStore(store.redis).read_for_fold("old", after)
        assert [(e.seq, e.type, e.at, e.hash) for e in light] == [
            (e.seq, e.type, e.at, e.hash) for e in envs[after:]
        ]
        assert [e.event() for e in light] == [e.event() for e in envs[after:]]
    folded = RULES.fold([e.event() for e in envs if e.type not in SYSTEM_FIELDS])
    assert folded.phase == "over"
    # and the game goes on in today's layout after its old entries, still verifying
    reveal = {"type": "seed_revealed", "visible_to": "all", "seed": "s", "nonces": {}}
    version = store.append("old", len(envs), [reveal, reveal])
    now = store.verify("old")
    assert now[: len(envs)] == envs and len(now) == version
    tail = store.redis.xrange(store.key("old", "events"), min=f"{len(envs) + 1}-1")
    assert [bool(f[b"h"]) for _, f in tail] == [False, True]  # the new layout


def test_an_entry_edited_inside_an_append_breaks_the_hash_at_its_end(store):
    """Entries inside an append store no hash: an edit shows at the append's end."""
    events = [CREATED, *play(RULES, {"events": True}, random.Random(2)).events]
    version = store.append("g", 0, events[:10])
    version = store.append("g", version, events[10:30], actor="blue")
    key = store.key("g", "events")
    entries = store.redis.xrange(key)
    assert [bool(f[b"h"]) for _, f in entries] == [i in (9, 29) for i in range(30)]
    verify_chain(store.read("g"))
    fields = entries[14][1]
    edited = {**fields, b"r": b"red" if fields[b"r"] == b"blue" else b"blue"}
    store.redis.delete(key)
    for i, (eid, f) in enumerate(entries):
        store.redis.xadd(key, edited if i == 14 else f, id=eid)
    with pytest.raises(ChainError, match=r"event 30 .* was altered"):
        verify_chain(store.read("g"))
