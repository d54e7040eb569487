"""The envelope (canonical JSON, hash chain, tamper detection) and the codec (schemas
derived from each game's declaration, refusals in words, upcasting on read)."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import random
from types import SimpleNamespace

import pytest
from event_data import CREATED

import games
from events import dictionaries
from events.codec import Codec, EventRejected
from events.envelope import (
    GENESIS,
    ChainError,
    Envelope,
    canonical,
    chain_hash,
    seal,
    seal_all,
    verify_chain,
)
from events.redis_store import (
    ENTRY_FIELDS,
    RedisEventStore,
    entry_fields,
    envelope_of,
    envelopes_of,
)
from events.schemas import SYSTEM_FIELDS, field_for, schema_for
from events.store import InMemoryEventStore
from games.playout import play

RULES = games.get("sun-tzu")
OPTION_SETS = [
    {"variant": variant, "events": events}
    for variant in ("standard", "beginner")
    for events in (True, False)
]


@functools.cache
def played(seed: int, variant: str = "standard", events: bool = True):
    return play(RULES, {"variant": variant, "events": events}, random.Random(seed))


@pytest.fixture(params=["fakeredis", "redis"])
def redis_store(request):
    client = request.getfixturevalue("fake_redis" if request.param == "fakeredis" else
                                     "redis_client")  # fmt: skip
    return RedisEventStore(client)


@pytest.fixture(params=["memory", "fakeredis", "redis"])
def store(request):
    if request.param == "memory":
        return InMemoryEventStore()
    client = request.getfixturevalue("fake_redis" if request.param == "fakeredis" else
                                     "redis_client")  # fmt: skip
    return RedisEventStore(client)


def stored_game(store, game_id: str = "g1", seed: int = 1) -> list[Envelope]:
    """A whole played game appended in a few batches; its envelopes as read back."""
    events = played(seed).events
    version = store.append(game_id, 0, [CREATED, *events[:10]])
    for i in range(10, len(events), 17):
        version = store.append(game_id, version, events[i : i + 17], actor="blue")
    envs = store.read(game_id)
    verify_chain(envs)
    return envs


# -- tamper detection in Redis ------------------------------------------------------------


def rewrite_stream(client, key: str, edit) -> None:
    """What a forger with write access could do: XADD cannot overwrite an entry, so
    rebuild the stream under the same entry IDs with ``edit`` applied to the entries."""
    stored = client.xrange(key)
    entries = [
        (entry_id, env.to_bytes())
        for (entry_id, _), env in zip(stored, envelopes_of(stored, game=RULES.key), strict=True)
    ]
    entries = edit(entries)
    client.delete(key)
    for entry_id, raw in entries:
        client.xadd(key, entry_fields(Envelope.from_bytes(raw)), id=entry_id)


def edit_event(seq: int, change, rehash: bool = False):
    def edit(entries):
        out = []
        for entry_id, raw in entries:
            data = json.loads(raw)
            if data["seq"] == seq:
                change(data)
                if rehash:
                    body = {k: v for k, v in data.items() if k != "hash"}
                    data["hash"] = chain_hash(data["prev"], body)
                raw = canonical(data)
            out.append((entry_id, raw))
        return out

    return edit


def first_of_type(envs, event_type: str) -> Envelope:
    return next(env for env in envs if env.type == event_type)


def test_an_edited_payload_is_named(redis_store):
    envs = stored_game(redis_store)
    target = first_of_type(envs, "placed")  # a face-down placement: the tempting cheat
    key = redis_store.key("g1", "events")

    def swap_cards(data):
        cards = data["payload"]["cards"]
        first = sorted(cards)[0]
        cards[first] = "tampered"

    rewrite_stream(redis_store.redis, key, edit_event(target.seq, swap_cards))
    tampered = redis_store.read("g1")
    assert len(tampered) == len(envs)
    assert tampered[target.seq - 1].payload != target.payload
    with pytest.raises(ChainError, match=rf"^event {target.seq} \(placed\) was altered"):
        verify_chain(tampered)
    verify_chain(tampered[: target.seq - 1])  # everything before it still verifies


@pytest.mark.parametrize("field", ["actor", "at", "visible_to", "v", "type"])
def test_an_edited_envelope_field_is_named(redis_store, field):
    envs = stored_game(redis_store)
    seq = 17
    new = {"actor": "red", "at": "1999-01-01T00:00:00.000Z", "visible_to": "all", "v": 9,
           "type": "reinforced"}[field]  # fmt: skip
    if envs[seq - 1].to_dict()[field] == new:
        new = "blue" if field in ("actor", "visible_to") else new
    key = redis_store.key("g1", "events")
    rewrite_stream(redis_store.redis, key, edit_event(seq, lambda d: d.__setitem__(field, new)))
    tampered = redis_store.read("g1")
    assert getattr(tampered[seq - 1], field) == new != getattr(envs[seq - 1], field)
    with pytest.raises(ChainError, match=rf"^event {seq} .*was altered"):
        verify_chain(tampered)


def test_an_edit_with_a_recomputed_hash_breaks_the_next_event(redis_store):
    """Redis keeps no ``prev``: each event's is the hash of the one before, so the next
    event, hashed over the old hash, no longer matches (in memory: no longer links)."""
    envs = stored_game(redis_store)
    target = first_of_type(envs, "battle")
    key = redis_store.key("g1", "events")

    def flip_winner(data):
        winner = data["payload"]["winner"]
        data["payload"]["winner"] = "red" if winner == "blue" else "blue"

    rewrite_stream(redis_store.redis, key, edit_event(target.seq, flip_winner, rehash=True))
    tampered = redis_store.read("g1")
    next_ = target.seq + 1
    with pytest.raises(ChainError, match=rf"^event {next_} (does not link|.*was altered)"):
        verify_chain(tampered)
    verify_chain(tampered[: target.seq])  # the edit itself carries a matching hash


def test_a_removed_event_is_named(redis_store):
    envs = stored_game(redis_store)
    key = redis_store.key("g1", "events")
    assert redis_store.redis.xdel(key, "12-1") == 1
    tampered = redis_store.read("g1")
    assert len(tampered) == len(envs) - 1
    with pytest.raises(ChainError, match=r"^event 12 is missing: found seq 13"):
        verify_chain(tampered)


def test_removing_the_first_event_is_detected(redis_store):
    stored_game(redis_store)
    redis_store.redis.xdel(redis_store.key("g1", "events"), "1-1")
    with pytest.raises(ChainError, match=r"^event 1 is missing"):
        verify_chain(redis_store.read("g1"))


def test_reordered_events_are_named(redis_store):
    envs = stored_game(redis_store)
    key = redis_store.key("g1", "events")

    def swap(entries):  # keep the entry IDs, swap what they hold
        entries = list(entries)
        (a_id, a), (b_id, b) = entries[19], entries[20]
        entries[19], entries[20] = (a_id, b), (b_id, a)
        return entries

    rewrite_stream(redis_store.redis, key, swap)
    tampered = redis_store.read("g1")
    # the entry ID is the seq, and the hash covers it: moved contents no longer verify
    assert [e.seq for e in tampered][18:22] == [19, 20, 21, 22]
    assert [e.type for e in tampered][19:21] == [envs[20].type, envs[19].type]
    with pytest.raises(ChainError, match=r"^event 20 .*(altered|does not link)"):
        verify_chain(tampered)


def test_reordered_and_renumbered_events_break_the_links(redis_store):
    envs = stored_game(redis_store)
    key = redis_store.key("g1", "events")

    def swap_renumbered(entries):
        entries = [(i, json.loads(raw)) for i, raw in entries]
        a, b = entries[19][1], entries[20][1]
        a["seq"], b["seq"] = b["seq"], a["seq"]
        entries[19], entries[20] = (entries[19][0], b), (entries[20][0], a)
        return [(i, canonical(d)) for i, d in entries]

    rewrite_stream(redis_store.redis, key, swap_renumbered)
    tampered = redis_store.read("g1")
    assert len(tampered) == len(envs)
    with pytest.raises(ChainError, match=r"^event 20 "):
        verify_chain(tampered)


def test_a_cut_tail_is_caught_by_the_version_not_the_chain(redis_store):
    """A chain alone cannot see its own end cut off; the recorded version can."""
    envs = stored_game(redis_store)
    redis_store.redis.xdel(redis_store.key("g1", "events"), f"{len(envs)}-1")
    tampered = redis_store.read("g1")
    verify_chain(tampered)
    assert redis_store.version("g1") == len(envs) != len(tampered)


def test_tampering_with_envelopes_read_back_is_named(store):
    envs = stored_game(store)
    k = 30
    edited = list(envs)
    edited[k] = dataclasses.replace(envs[k], payload={**envs[k].payload, "tampered": True})
    with pytest.raises(ChainError, match=rf"^event {k + 1} .*was altered"):
        verify_chain(edited)
    with pytest.raises(ChainError, match=rf"^event {k + 1} is missing"):
        verify_chain(envs[:k] + envs[k + 1 :])
    with pytest.raises(ChainError, match=rf"^event {k + 1} is missing"):
        verify_chain([*envs[:k], envs[k + 1], envs[k], *envs[k + 2 :]])
    with pytest.raises(ChainError, match=r"^event 1 does not link"):
        verify_chain(envs, prev="00" * 32)
    verify_chain(envs)  # the originals are untouched


# -- the envelope itself -------------------------------------------------------------------


def test_the_canonical_form_is_sorted_compact_utf8():
    env = seal(
        1,
        {"type": "seat_joined", "visible_to": "all", "seat": "blue", "player": "孫武",
         "nonce_sha256": None, "z": {"b": 1, "a": [1, {"d": 2, "c": 3}]}},
        prev=GENESIS, at="2024-01-02T03:04:05.678Z",
    )  # fmt: skip
    raw = env.to_bytes()
    assert raw == json.dumps(env.to_dict(), sort_keys=True, separators=(",", ":"),
                             ensure_ascii=False).encode("utf-8")  # fmt: skip
    assert raw.startswith(b'{"actor":"system","at":"2024-01-02T03:04:05.678Z","hash":"')
    assert b'"payload":{"nonce_sha256":null,"player":"\xe5\xad\xab\xe6\xad\xa6","seat":"blue",' \
           b'"z":{"a":[1,{"c":3,"d":2}],"b":1}}' in raw  # fmt: skip
    assert b" " not in raw and b"\\u" not in raw
    keys = list(json.loads(raw))
    assert keys == sorted(keys) == sorted(["seq", "type", "v", "at", "actor", "visible_to",
                                           "payload", "prev", "hash"])  # fmt: skip
    assert Envelope.from_bytes(raw) == env
    assert Envelope.from_bytes(raw.decode()) == env
    assert canonical({"b": 1, "a": 2}) == canonical({"a": 2, "b": 1}) == b'{"a":2,"b":1}'


def test_the_hash_is_sha256_of_prev_and_the_canonical_body():
    first, second = seal_all(1, played(1).events[:2], prev=GENESIS, actor="blue")
    body = {k: v for k, v in second.to_dict().items() if k != "hash"}
    compact = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    expected = hashlib.sha256(first.hash.encode() + compact.encode()).hexdigest()
    assert second.hash == expected and second.prev == first.hash
    assert first.prev == GENESIS == "" and len(first.hash) == 64
    assert first.at == second.at  # one batch, one time


def test_redis_stores_the_envelope_fields_and_the_canonical_payload(redis_store):
    envs = stored_game(redis_store)
    stored = redis_store.redis.xrange(redis_store.key("g1", "events"))
    assert [entry_id.decode() for entry_id, _ in stored] == [f"{e.seq}-1" for e in envs]
    assert envelopes_of(stored, game=RULES.key) == envs
    appends = 1 + -(-(len(envs) - 11) // 17)  # see stored_game: 11 events, then 17 at a time
    ends = {11 + 17 * i for i in range(appends - 1)} | {len(envs)}  # each append's last seq
    for (_, fields), env in zip(stored, envs, strict=True):
        # the canonical JSON, deflated with Sun Tzu's dictionary (or plain if no shorter)
        assert dictionaries.unpack(fields[b"p"], RULES.key) == canonical(env.payload)
        assert fields[b"p"][:1] == b"{" or len(fields[b"p"]) < len(canonical(env.payload))
        # the hash at the end of each append only (meta's last_hash is the last one)
        if env.seq in ends:
            assert fields[b"h"] == bytes.fromhex(env.hash) and len(fields[b"h"]) == 32
        else:
            assert fields[b"h"] == b""
        assert {k.decode() for k in fields} == set(ENTRY_FIELDS)  # no prev: the hash before
        assert fields[b"a"] in (b"", env.at.encode())
    assert sum(len(f[b"p"]) for _, f in stored) < sum(len(canonical(e.payload)) for e in envs) / 3
    named = [fields[b"a"] for _, fields in stored if fields[b"a"]]
    assert len(named) == appends  # each append names its time once, on its first entry
    # A read from the middle of an append takes the time from the append's first entry.
    batch = envs[11:28]  # events 12 to 28: the second append (see stored_game)
    assert all(not fields[b"a"] for _, fields in stored[12:28])
    assert redis_store.read("g1", after=batch[1].seq) == envs[batch[1].seq :]


def test_a_game_level_event_round_trips_through_an_envelope():
    for event in played(2).events:
        env = seal(5, event, prev="x")
        assert env.event() == event
        assert Envelope.from_bytes(env.to_bytes()).event() == event


# -- the codec: every real event passes, bad ones are refused in words -------------------------


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: f"{o['variant']}-{o['events']}")
def test_every_event_of_many_random_games_passes(options):
    codec = Codec()
    seen: set[str] = set()
    for seed in range(25):
        game = played(seed, **options)
        assert game.outcome is not None
        for event in game.events:
            codec.check("sun-tzu", event)
            seen.add(event["type"])
    assert {"game_started", "placed", "game_ended"} <= seen
    if options["events"]:
        assert "event_deck_shuffled" in seen


def test_every_event_type_is_seen_across_random_games():
    """So that the test above covers every type Sun Tzu declares."""
    seen = {e["type"] for opts in OPTION_SETS for seed in range(25)
            for e in played(seed, **opts).events}  # fmt: skip
    assert seen == set(RULES.event_fields), set(RULES.event_fields) ^ seen


BAD_EVENTS = {
    "unknown type": ({"type": "nuclear_strike", "visible_to": "all"},
                     "sun-tzu has no event type 'nuclear_strike'"),
    "no type": ({"visible_to": "all", "round": 1}, "sun-tzu has no event type None"),
    "missing field": ({"type": "round_started", "visible_to": "all"},
                      "round_started is malformed: round: Missing data for required field"),
    "string for an int": ({"type": "round_started", "round": "3"},
                          "round_started is malformed: round: Not a valid integer"),
    "float for an int": ({"type": "round_started", "round": 3.0},
                         "round: Not a valid integer"),
    "bool for an int": ({"type": "round_started", "round": True},
                        "round: Not a valid integer"),
    "int for a bool": ({"type": "game_started", "variant": "standard", "events": 1,
                        "displays": [], "reserve": [], "aside": [], "event_up": None},
                       "game_started is malformed: events: Not a valid boolean"),
    "string for a bool": ({"type": "game_started", "variant": "standard", "events": "true",
                           "displays": [], "reserve": [], "aside": [], "event_up": None},
                          "events: Not a valid boolean"),
    "int for a string": ({"type": "reinforced", "seat": 1, "card": "+1"},
                         "reinforced is malformed: seat: Not a valid string"),
    "null where not nullable": ({"type": "reinforced", "seat": None, "card": "+1"},
                                "seat: Field may not be null"),
    "list for a dict": ({"type": "placed", "seat": "blue", "cards": [], "plan": {}},
                        "placed is malformed: cards: Not a valid mapping type"),
    "string for a list": ({"type": "order_named", "seat": "blue", "provinces": "Qin"},
                          "order_named is malformed: provinces: Not a valid list"),
    "extra field": ({"type": "round_started", "round": 3, "cheat": True},
                    "round_started is malformed: cheat: Unknown field"),
    "two problems": ({"type": "reinforced", "seat": 2},
                     "reinforced is malformed: card: Missing data for required field., "
                     "seat: Not a valid string"),
    "visible_to not a string": ({"type": "round_started", "round": 3, "visible_to": None},
                                "round_started: visible_to must be a string"),
    "system event malformed": ({**CREATED, "options": "none"},
                               "game_created is malformed: options: Not a valid mapping"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(BAD_EVENTS))
def test_a_bad_event_is_refused_naming_the_problem(case):
    event, message = BAD_EVENTS[case]
    with pytest.raises(EventRejected) as info:
        Codec().check("sun-tzu", event)
    assert message in str(info.value)


def test_an_unknown_game_is_refused():
    with pytest.raises(EventRejected, match="there is no game called 'chess'"):
        Codec().check("chess", CREATED)


def test_a_game_may_not_declare_system_event_types():
    rogue = SimpleNamespace(event_fields={"seed_revealed": {"seed": "str"}})
    with pytest.raises(ValueError, match="seed_revealed"):
        Codec({"rogue": rogue})


def test_a_field_kind_must_be_known():
    with pytest.raises(ValueError, match="unknown field kind"):
        field_for("float")


# -- schemas for every type of every registered game ------------------------------------------

SAMPLE = {"str": "x", "int": 3, "bool": True, "list": [1, "a", None], "dict": {"k": 1},
          "any": {"anything": [1]}}  # fmt: skip
WRONG = {"str": 3, "int": "3", "bool": 1, "list": "x", "dict": [], "any": None}


def declared_types():
    for key, rules in sorted(games.REGISTRY.items()):
        declared = {**SYSTEM_FIELDS, **getattr(rules, "event_fields", {})}
        for event_type, spec in sorted(declared.items()):
            yield pytest.param(key, event_type, spec, id=f"{key}:{event_type}")


def sample_event(event_type: str, spec: dict[str, str]) -> dict:
    event = {"type": event_type, "visible_to": "all"}
    for name, kind in spec.items():
        event[name.lstrip("~")] = SAMPLE[kind.strip("~?")]
    if event_type == "command_given":  # a command its game declares (test_commands.py)
        event["command"] = {"type": "resign"}
    return event


@pytest.mark.parametrize("game,event_type,spec", list(declared_types()))
def test_a_schema_is_derived_for_every_declared_type(game, event_type, spec):
    codec = Codec()
    event = sample_event(event_type, spec)
    codec.check(game, event)
    with pytest.raises(EventRejected, match=rf"^{event_type} is malformed: zz_extra: Unknown"):
        codec.check(game, {**event, "zz_extra": 1})
    for name, kind in spec.items():
        field = name.lstrip("~")
        without = {k: v for k, v in event.items() if k != field}
        if name.startswith("~"):
            codec.check(game, without)
        else:
            with pytest.raises(EventRejected, match=rf"{field}: Missing data"):
                codec.check(game, without)
        if kind.endswith("?"):
            codec.check(game, {**event, field: None})
        elif kind.strip("~") != "any":
            with pytest.raises(EventRejected, match=rf"{field}: "):
                codec.check(game, {**event, field: None})
        if kind.strip("~?") != "any":
            with pytest.raises(EventRejected, match=rf"^{event_type} is malformed: {field}: "):
                codec.check(game, {**event, field: WRONG[kind.strip("~?")]})
    # and the derived schema is what schema_for gives
    schema_for(event_type, spec).load({k: v for k, v in event.items()
                                       if k not in ("type", "visible_to")})  # fmt: skip


@pytest.mark.parametrize("key", sorted(games.REGISTRY))
def test_every_type_a_game_evolves_is_declared_and_versioned(key):
    rules = games.REGISTRY[key]
    codec = Codec()
    declared = set(rules.event_fields)
    assert set(rules.event_types) == declared
    assert not declared & set(SYSTEM_FIELDS)
    for event_type in declared | set(SYSTEM_FIELDS):
        current = codec.version(key, event_type)
        assert current == getattr(rules, "event_versions", {}).get(event_type, 1)
        for v in range(1, current):  # an unbroken chain of upcasters up to the current one
            assert (event_type, v) in rules.upcasters, (event_type, v)
    if key == "sun-tzu":  # a known answer: its game_ended was upcast once
        assert codec.versions(key)["game_ended"] == 2


# -- upcasting old events on read --------------------------------------------------------------


def write_v1_game_ended(store, game_id: str, game) -> Envelope:
    """Store a played game whose last event is an old (v1) game_ended, as raw bytes."""
    version = store.append(game_id, 0, [CREATED, *game.events[:-1]])
    last = store.read(game_id, after=version - 1)[0]
    ended = {k: v for k, v in game.events[-1].items() if k != "round"}
    assert ended["type"] == "game_ended"
    env = seal(version + 1, ended, prev=last.hash, v=1)
    if isinstance(store, InMemoryEventStore):
        store._streams[game_id].append(env)
    else:  # exactly the bytes an older release would have written
        store.redis.xadd(store.key(game_id, "events"), entry_fields(env), id=f"{env.seq}-1")
        store.redis.hset(store.key(game_id, "meta"),
                         mapping={"version": env.seq, "last_hash": env.hash})  # fmt: skip
    return env


def test_codec_decode_upcasts_a_v1_game_ended():
    game = played(3)
    ended = {k: v for k, v in game.events[-1].items() if k != "round"}
    raw = seal(9, ended, prev="p", v=1).to_bytes()
    env = Codec().decode("sun-tzu", raw)
    assert env.v == 2 and env.seq == 9 and env.prev == "p"
    assert env.payload["round"] is None
    assert {k: v for k, v in env.payload.items() if k != "round"} == {
        k: v for k, v in ended.items() if k not in ("type", "visible_to")
    }
    assert env.event()["type"] == "game_ended"
    # a current (v2) event is left alone
    current = seal(9, game.events[-1], prev="p", v=2)
    assert Codec().decode("sun-tzu", current.to_bytes()) == current


def test_decode_without_an_upcaster_is_refused():
    toy = SimpleNamespace(
        event_fields={"moved": {"to": "str"}},
        event_versions={"moved": 3},
        upcasters={("moved", 1): lambda p: {**p, "to": "x"}},
    )
    codec = Codec({"toy": toy})
    v2 = seal(2, {"type": "moved", "to": "a"}, prev="", v=2)
    with pytest.raises(EventRejected, match="no upcaster for moved from version 2"):
        codec.decode("toy", v2.to_bytes())


def test_a_v1_game_ended_is_read_back_upcast_and_still_folds(store):
    game = played(4)
    stored = write_v1_game_ended(store, "g1", game)
    assert stored.v == 1 and "round" not in stored.payload
    envs = store.read("g1")
    last = envs[-1]
    assert (last.seq, last.type, last.v) == (stored.seq, "game_ended", 2)
    assert last.payload["round"] is None
    assert last.hash == stored.hash  # history is never rewritten
    if not isinstance(store, InMemoryEventStore):
        entry_id, fields = store.redis.xrange(store.key("g1", "events"), min=f"{stored.seq}-1")[0]
        as_stored = envelope_of(entry_id, fields, prev=stored.prev, game="sun-tzu")
        assert as_stored == stored and as_stored.v == 1  # still v1 in Redis
        assert store.codec.upcast("sun-tzu", as_stored) == last
    events = [env.event() for env in envs if env.type not in SYSTEM_FIELDS]
    state = RULES.fold(events)
    assert state.phase == "over"
    assert RULES.outcome(state) == {**game.outcome, "round": None}
    assert RULES.fold(events[:-1]).outcome is None
    # and the game goes on being appended to after an old event
    reveal = {"type": "seed_revealed", "visible_to": "all", "seed": "s", "nonces": {}}
    assert store.append("g1", stored.seq, [reveal]) == stored.seq + 1


def test_a_history_with_an_upcast_event_still_verifies(store):
    """What the store reads back must verify, old events included.

    BUG (events.codec.Codec.upcast / events.envelope.verify_chain): ``upcast`` returns an
    envelope with the new ``v`` and payload but the *stored* hash (its comment says it
    "verifies the stored (old) form, see ``stored``", but there is no ``stored`` anywhere).
    ``verify_chain`` rehashes ``env.body()`` - the upcast body - so every game holding a
    v1 game_ended fails its audit: "event N (game_ended) was altered".
    """
    game = played(4)
    stored = write_v1_game_ended(store, "g1", game)
    envs = store.read("g1")
    assert envs[-1].v == 2 and envs[-1].hash == stored.hash
    verify_chain(envs)


def test_reading_for_a_fold_gives_what_a_full_read_gives(store):
    """``read_for_fold`` (light entries, lazily parsed) against ``read`` (envelopes): the same
    seq, type, time, hash, payload and event, from any point, old schema versions upcast."""
    game = played(4)
    write_v1_game_ended(store, "g1", game)
    full = store.read("g1")
    for after in (0, 1, 5, 11, len(full) - 2):
        light = store.read_for_fold("g1", after)
        assert [e.seq for e in light] == [e.seq for e in full[after:]]
        for entry, env in zip(light, full[after:], strict=True):
            assert (entry.type, entry.at, entry.hash) == (env.type, env.at, env.hash)
            assert entry.payload == env.payload and entry.event() == env.event()
    assert store.read_for_fold("g1", len(full)) == []
