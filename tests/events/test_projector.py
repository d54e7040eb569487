"""Loading a game: snapshot + tail = full fold; snapshots of other rules are ignored."""

from __future__ import annotations

import random

import pytest
from event_data import CREATED
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from events.projector import GameCache, LoadedGame, apply, load, save_snapshot
from events.store import InMemoryEventStore, Snapshot
from games.playout import play

RULES = games.get("sun-tzu")
JOINS = [
    {"type": "seat_joined", "visible_to": "all", "seat": s, "player": s, "nonce_sha256": None}
    for s in ("blue", "red")
]


def stored_game(seed: int, options: dict) -> tuple[InMemoryEventStore, object]:
    store = InMemoryEventStore()
    game = play(RULES, options, random.Random(seed))
    version = store.append("g", 0, [CREATED, *JOINS])
    for i in range(0, len(game.events), 17):  # batches, as decide would produce them
        version = store.append("g", version, game.events[i : i + 17])
    return store, game


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    cut=st.floats(0, 1),
    variant=st.sampled_from(["standard", "beginner"]),
    events=st.booleans(),
)
def test_snapshot_plus_tail_equals_the_full_fold(seed, cut, variant, events):
    store, game = stored_game(seed, {"variant": variant, "events": events})
    total = store.version("g")
    at = max(3, int(cut * total))
    partial = load(store, "g", use_snapshot=False)
    # a snapshot taken at an arbitrary version: fold the first `at` events only
    early = apply(LoadedGame("g", RULES, state=RULES.initial()), store.read("g")[:at])
    save_snapshot(store, early)
    resumed = load(store, "g")
    assert resumed.from_snapshot == at
    assert resumed.state == partial.state == game.state
    assert resumed.version == partial.version == total
    assert resumed.last_hash == partial.last_hash
    assert resumed.table == partial.table


def test_a_snapshot_made_for_other_rules_is_ignored():
    store, game = stored_game(4, {"events": True})
    bogus = Snapshot(store.version("g"), "another-rules", "not a position", {})
    store.put_snapshot("g", bogus)
    loaded = load(store, "g")
    assert loaded.from_snapshot == 0
    assert loaded.state == game.state


def test_loading_reads_only_the_tail_after_a_snapshot():
    store, _ = stored_game(5, {})
    save_snapshot(store, load(store, "g"))
    reads = []
    original = store.read

    def counting_read(game_id, after=0):
        out = original(game_id, after)
        reads.append((after, len(out)))
        return out

    store.read = counting_read
    loaded = load(store, "g")
    assert reads == [(loaded.version, 0)]


def test_verify_catches_a_cut_off_tail():
    from events.envelope import ChainError

    store, _ = stored_game(6, {})
    assert len(store.verify("g")) == store.version("g")
    store._streams["g"] = store._streams["g"][:-3]  # lose the last three events
    with pytest.raises(ChainError, match="events are missing"):
        store.verify("g")


def test_the_game_cache_reads_only_what_was_appended_since_and_hands_out_copies():
    store = InMemoryEventStore()
    played = play(RULES, {}, random.Random(6))
    version = store.append("g", 0, [CREATED, *JOINS, *played.events[:40]])
    cache = GameCache()
    first = cache.load(store, "g")
    store.append("g", version, played.events[40:41])
    reads = []
    original = store.read
    store.read = lambda game_id, after=0: reads.append(after) or original(game_id, after)
    again = cache.load(store, "g")
    assert reads == [version]  # the tail since the remembered version, nothing else
    assert again.state == load(store, "g", use_snapshot=False).state
    # What a caller folds onto its copy reaches neither the cache nor the other copies.
    again.table.joined = {}
    assert cache.remembered("g").table.joined and first.version == version
    assert cache.remembered("g").version == version + 1


def test_the_game_cache_forgets_finished_games_and_keeps_a_bounded_number():
    store = InMemoryEventStore()
    cache = GameCache(size=3)
    for n in range(5):
        store.append(f"g{n}", 0, [CREATED, *JOINS])
        cache.load(store, f"g{n}")
    assert len(cache) == 3 and cache.remembered("g0") is None and cache.remembered("g4")
    played = play(RULES, {}, random.Random(7))
    store.append("g4", 3, played.events)
    assert cache.load(store, "g4").outcome is not None
    assert cache.remembered("g4") is None and len(cache) == 2
