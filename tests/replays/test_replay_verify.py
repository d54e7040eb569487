"""The audit: honest records hold; every tampering is caught at the right step and field."""

from __future__ import annotations

import copy
import dataclasses
import itertools

import pytest
from replay_helpers import counter_tokens, play_game

from events.envelope import chain_hash
from events.fairness import commitment
from events.store import InMemoryEventStore
from events.writepath import WritePath
from replays.record import Record, record_of
from replays.verify import first_difference, verify


def edit(record, index, rechain=False, header=True, **changes):
    """The record with event ``index`` changed (``payload_path=(path, value)`` edits one
    payload field); ``rechain``: forge every hash after it, and the header's head."""
    events = list(record.events)
    env = events[index]
    if "payload_path" in changes:
        path, value = changes.pop("payload_path")
        payload = copy.deepcopy(dict(env.payload))
        target = payload
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        changes["payload"] = payload
    events[index] = dataclasses.replace(env, **changes)
    return rebuilt(record, events, rechain=rechain, header=header)


def rebuilt(record, events, rechain=False, header=True):
    if rechain:
        prev = ""
        forged = []
        for seq, env in enumerate(events, start=1):
            env = dataclasses.replace(env, seq=seq, prev=prev, hash="")
            env = dataclasses.replace(env, hash=chain_hash(prev, env.body()))
            forged.append(env)
            prev = env.hash
        events = forged
    out = Record(dict(record.header), tuple(events))
    if rechain and header:
        out = out.with_header(head=events[-1].hash, events=len(events))
    return out


def index_of(record, type_, visible=None, nth=0):
    found = [
        i
        for i, e in enumerate(record.events)
        if e.type == type_ and (visible is None or (e.visible_to == "all") == visible)
    ]
    return found[nth]


def caught(record, step, field, check=None):
    report = verify(record)
    assert not report.ok, "the tampering was not caught"
    d = report.divergence
    assert d.step == step and field in (None, d.field), d
    if check:
        assert d.check == check
    assert d.sentence and report.sentence == d.sentence
    return d


# -- honest records ---------------------------------------------------------------------
CASES = list(itertools.product(["standard", "beginner"], [False, True]))


@pytest.mark.parametrize(("variant", "events_on"), CASES)
def test_honest_records_of_random_games_hold(variant, events_on):
    app = WritePath(InMemoryEventStore(), token=counter_tokens())
    for seed in range(3):
        game_id = play_game(
            app,
            {"variant": variant, "events": events_on},
            seed=seed,
            nonces=(f"n{seed}", None if seed else "r"),
            hand_over=seed == 2,
        )
        report = verify(record_of(app.store, game_id))
        assert report.ok, report.divergence
        assert report.checks == ["chain", "seed", "nonces", "header", "deal", "commands", "table",
                                 "outcome"]  # fmt: skip


def test_games_with_ai_seats_hold():
    app = WritePath(InMemoryEventStore(), token=counter_tokens())
    game_id = play_game(app, {"events": True}, {"blue": "ai:random", "red": "human"}, seed=3)
    record = record_of(app.store, game_id)
    assert record.header["players"]["blue"] == "ai:random"
    assert verify(record).ok


def test_a_report_says_it_in_json(record):
    good = verify(record).to_dict()
    assert good["ok"] and good["divergence"] is None and "holds" in good["sentence"]
    bad = verify(edit(record, 3, at="2000-01-01T00:00:00.000Z")).to_dict()
    assert bad["divergence"]["step"] == 4 and bad["divergence"]["field"] == "hash"


# -- edits the hash chain catches ----------------------------------------------------------
def test_an_edited_public_payload(record):
    i = index_of(record, "game_started")
    d = caught(edit(record, i, payload_path=(("reserve", 0), 17)), i + 1, "hash", "chain")
    assert d.cause.field == "payload.reserve.0" and (d.cause.expected, d.cause.found) == (18, 17)
    assert "payload.reserve.0" in d.sentence


def test_an_edited_hidden_payload(record):
    i = index_of(record, "cards_drawn", visible=False, nth=3)
    card = record.events[i].payload["cards"][0]
    d = caught(edit(record, i, payload_path=(("cards", 0), "+9")), i + 1, "hash")
    assert d.cause.field == "payload.cards.0" and d.cause.expected == card


def test_an_edited_command(record):
    i = index_of(record, "command_given", nth=5)
    command = {"type": "resign"}
    d = caught(edit(record, i, payload_path=(("command",), command)), i + 1, "hash")
    assert d.cause is not None and d.cause.step == i + 2  # the events it gave differ


def test_a_command_with_fields_its_game_does_not_declare_is_caught_where_it_stands(record):
    i = index_of(record, "command_given", nth=5)
    command = {**record.events[i].payload["command"], "zz": 10**30}
    d = caught(edit(record, i, payload_path=(("command",), command)), i + 1, "hash")
    assert d.cause is not None and d.cause.step == i + 1 and "command.zz" in d.cause.sentence


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("at", "2001-01-01T00:00:00.000Z"),
        ("actor", "mallory"),
        ("visible_to", "all"),
        ("type", "round_ended"),
        ("salt", "00"),
    ],
)
def test_edited_envelope_fields(record, name, value):
    i = index_of(record, "cards_drawn", visible=False, nth=2)
    caught(edit(record, i, **{name: value}), i + 1, "hash", "chain")


def test_a_forged_hash_alone(record):
    d = caught(edit(record, 9, hash="0" * 64), 10, "hash", "chain")
    assert d.found == "0" * 64 and d.cause is None  # the content itself is what the rules give


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_a_dropped_event(record, where):
    n = len(record.events)
    i = {"first": 0, "middle": n // 2, "last": n - 1}[where]
    events = record.events[:i] + record.events[i + 1 :]
    if where == "last":
        caught(rebuilt(record, events), n, "header.events")
    else:
        caught(rebuilt(record, events), i + 1, "seq")


def test_two_events_swapped(record):
    events = list(record.events)
    events[20], events[21] = events[21], events[20]
    caught(rebuilt(record, events), 21, "seq")


def test_an_inserted_event(record):
    events = list(record.events)
    events.insert(30, dataclasses.replace(events[29], seq=31))
    caught(rebuilt(record, events), 31, "prev")


def test_a_truncated_record(record):
    caught(rebuilt(record, record.events[:100]), 101, "header.events")
    caught(rebuilt(record, record.events[:100], rechain=True, header=False), 101, "header.events")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("result", "draw"),
        ("reason", "forfeit"),
        ("head", "ab" * 32),
        ("events", 3),
        ("seed", "f" * 64),
        ("options", {}),
        ("started_at", "1999-01-01T00:00:00.000Z"),
        ("players", {"blue": "mallory", "red": "player-red-1"}),
    ],
)
def test_an_edited_header(record, field, value):
    if field == "result" and record.header["result"] == "draw":
        value = "blue"
    d = verify(record.with_header(**{field: value})).divergence
    assert d is not None and d.field.startswith(f"header.{field}")
    if field == "head":
        assert d.step == len(record.events)
    elif field == "events":
        assert d.step == 4
    else:
        assert d.step == 0


# -- forgeries with a consistent chain: the commitments and the re-run catch them -----------
def test_a_swapped_seed(record):
    last = len(record.events) - 1
    new_seed = "e" * 64
    forged = edit(record, last, payload_path=(("seed",), new_seed), rechain=True)
    caught(forged.with_header(seed=new_seed), last + 1, "payload.seed", "seed")


def test_a_swapped_seed_with_a_new_commitment(record):
    new_seed = "e" * 64
    forged = edit(record, 0, payload_path=(("seed_sha256",), commitment(new_seed)))
    forged = edit(forged, len(record.events) - 1, payload_path=(("seed",), new_seed), rechain=True)
    forged = forged.with_header(seed=new_seed, seed_sha256=commitment(new_seed))
    deal = index_of(record, "game_started")
    d = caught(forged, deal + 1, None, "rules")
    assert d.field.startswith("payload.displays.") and "the deal" in d.sentence


def test_a_changed_nonce(record):
    last = len(record.events) - 1
    forged = edit(record, last, payload_path=(("nonces", "blue"), "other"), rechain=True)
    caught(forged.with_header(nonces={"blue": "other"}), last + 1, "payload.nonces.blue", "nonces")


def test_a_nonce_withheld_or_added(record):
    last = len(record.events) - 1
    withheld = edit(record, last, payload_path=(("nonces",), {}), rechain=True)
    caught(withheld.with_header(nonces={}), last + 1, "payload.nonces.blue", "nonces")
    nonces = {**record.header["nonces"], "red": "late"}
    added = edit(record, last, payload_path=(("nonces",), nonces), rechain=True)
    caught(added.with_header(nonces=nonces), last + 1, "payload.nonces.red", "nonces")


def test_a_changed_nonce_with_a_new_commitment(record):
    joined = index_of(record, "seat_joined")
    forged = edit(record, joined, payload_path=(("nonce_sha256",), commitment("other")))
    forged = edit(
        forged, len(record.events) - 1, payload_path=(("nonces", "blue"), "other"), rechain=True
    )
    forged = forged.with_header(nonces={"blue": "other"})
    d = caught(forged, index_of(record, "game_started") + 1, None, "rules")
    assert d.field.startswith("payload.displays.")


def test_a_rechained_payload_edit_is_caught_by_the_rerun(record):
    i = index_of(record, "cards_drawn", visible=False, nth=4)
    forged = edit(record, i, payload_path=(("cards", 0), "+9"), rechain=True)
    d = caught(forged, i + 1, "payload.cards.0", "rules")
    assert d.found == "+9"


def test_a_rechained_command_edit_is_caught_by_the_rerun(record):
    i = index_of(record, "command_given", nth=6)
    seat = record.events[i].payload["seat"]
    forged = edit(record, i, payload_path=(("command",), {"type": "resign"}), rechain=True)
    d = caught(forged, i + 2, "type", "rules")  # a resignation gives game_ended here
    assert d.expected == "game_ended" and seat


def test_a_rechained_actor_or_time_edit_is_caught_by_the_rerun(record):
    i = index_of(record, "command_given", nth=6)
    caught(edit(record, i + 1, actor="system", rechain=True), i + 2, "actor", "rules")
    caught(edit(record, i + 1, at="2001-01-01T00:00:00.000Z", rechain=True), i + 2, "at")
    caught(edit(record, i, actor="system", rechain=True), i + 1, "actor", "rules")


def test_a_rechained_drop_or_insert_is_caught_by_the_rerun(record):
    i = index_of(record, "command_given", nth=6)
    dropped = record.events[: i + 1] + record.events[i + 2 :]
    d = caught(rebuilt(record, dropped, rechain=True), i + 2, "type", "rules")
    assert d.expected == record.events[i + 1].type
    inserted = [*record.events[: i + 1], record.events[i + 1], *record.events[i + 1 :]]
    caught(rebuilt(record, inserted, rechain=True), i + 3, "type", "rules")


def test_a_rechained_visibility_edit_is_caught_by_the_rerun(record):
    i = index_of(record, "cards_drawn", visible=False, nth=2)
    caught(edit(record, i, visible_to="all", rechain=True), i + 1, "visible_to", "rules")


def test_a_rechained_result_edit_is_caught_by_the_rerun(record):
    i = index_of(record, "game_ended")
    other = "red" if record.header["result"] == "blue" else "blue"
    forged = edit(record, i, payload_path=(("winner",), other), rechain=True)
    caught(forged.with_header(result=other), i + 1, "payload.winner", "rules")


def test_first_difference_names_the_path():
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}, "p") == ("p.a.1.b", 2, 3)
    assert first_difference([1, 2], [1], "p") == ("p.1", 2, None)
    assert first_difference({"a": 1}, {"a": True}, "p") == ("p.a", 1, True)
    assert first_difference({"a": 1}, {"a": 1}, "p") is None
