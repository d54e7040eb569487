"""The record: made from a finished game, JSON Lines round trip, clear errors."""

from __future__ import annotations

import json

import pytest
from replay_helpers import HUMANS, RULES, counter_tokens, play_game

from events.fairness import commitment
from events.store import InMemoryEventStore, UnknownGame
from events.writepath import WritePath
from replays.record import FORMAT, NotFinished, RecordError, dumps, loads, record_of
from replays.replay import BadStep, replay_of, state_at, view_at


def test_the_header_says_what_the_game_was(finished):
    app, game_id, record = finished
    h = record.header
    stored = app.store.read(game_id)
    assert h["format"] == FORMAT and h["id"] == h["game_id"] == game_id
    assert h["game"] == "sun-tzu" and h["options"] == {"events": True}
    assert h["seats"] == HUMANS and h["handed_to_ai"] == {}
    assert h["players"] == {"blue": "player-blue-1", "red": "player-red-1"}
    assert h["result"] in ("blue", "red", "draw") and h["reason"]
    assert h["started_at"] == stored[0].at and h["ended_at"] == stored[-1].at
    assert h["head"] == stored[-1].hash and h["events"] == len(stored)
    assert commitment(h["seed"]) == h["seed_sha256"]
    assert commitment(h["nonces"]["blue"]) == stored[1].payload["nonce_sha256"]
    assert h["imported"] is False
    assert [e.to_dict() for e in record.events] == [e.to_dict() for e in stored]


@pytest.mark.parametrize("seed", range(4))
def test_records_of_random_games_round_trip(seed):
    app = WritePath(InMemoryEventStore(), token=counter_tokens())
    options = {"variant": ["standard", "beginner"][seed % 2], "events": seed < 2}
    game_id = play_game(app, options, seed=seed, hand_over=seed == 3)
    record = record_of(app.store, game_id)
    text = dumps(record)
    assert loads(text) == record and loads(text.encode()) == record
    assert dumps(loads(text)) == text  # the same bytes every time
    assert all(line.startswith("{") for line in text.splitlines())
    hidden = [e for e in record.events if e.visible_to != "all"]
    assert hidden and all(json.loads(text.splitlines()[e.seq])["salt"] for e in hidden)


def test_a_game_being_played_or_unknown_has_no_record(bingfa):
    game_id = bingfa.create_game("sun-tzu", {}, HUMANS)
    with pytest.raises(NotFinished, match="still being played"):
        record_of(bingfa.store, game_id)
    with pytest.raises(UnknownGame):
        record_of(bingfa.store, "nope")


@pytest.mark.parametrize(
    ("mangle", "words"),
    [
        (lambda lines: [], "line 1: the record is empty"),
        (lambda lines: ["[1, 2]", *lines[1:]], "line 1: the header is a JSON list"),
        (lambda lines: ["{", *lines[1:]], "line 1: the header is not valid JSON"),
        (
            lambda lines: [lines[0].replace("bingfa-replay", "pgn"), *lines[1:]],
            "not a Bingfa replay",
        ),
        (
            lambda lines: [
                lines[0].replace('"format_version":1', '"format_version":9'),
                *lines[1:],
            ],
            "format version 9",
        ),
        (
            lambda lines: [lines[0].replace('"head":', '"heads":'), *lines[1:]],
            "line 1: the header has no 'head'",
        ),
        (
            lambda lines: [lines[0].replace('"events":', '"events":"x","e":'), *lines[1:]],
            "line 1: the header's 'events' is a str, not a int",
        ),
        (lambda lines: lines[:1], "header but no events"),
        (lambda lines: [*lines[:3], "", *lines[3:]], "line 4: an empty line"),
        (
            lambda lines: [*lines[:3], lines[3][:40], *lines[4:]],
            "line 4: the event is not valid JSON",
        ),
        (
            lambda lines: [*lines[:2], lines[2].replace('"seq":', '"sequence":'), *lines[3:]],
            "line 3: the event has no 'seq'",
        ),
        (
            lambda lines: [*lines[:2], lines[2].replace('"seq":2', '"seq":"2"'), *lines[3:]],
            "line 3: the event's 'seq' is a str",
        ),
        (
            lambda lines: [*lines[:2], lines[2][:-1] + ',"extra":1}', *lines[3:]],
            "line 3: the event has an unknown field 'extra'",
        ),
    ],
)
def test_malformed_records_are_refused_with_the_line_and_the_fault(record, mangle, words):
    lines = dumps(record).splitlines()
    with pytest.raises(RecordError, match=words):
        loads("\n".join(mangle(lines)))


def test_not_utf8_is_refused(record):
    with pytest.raises(RecordError, match="not UTF-8"):
        loads(b"\xff\xfe" + dumps(record).encode())


def test_replay_gives_the_state_after_any_step(finished):
    _, game_id, record = finished
    from events.projector import LoadedGame, apply

    n = len(record.events)
    for step in (0, 1, 5, 17, n // 2, n - 1, n):
        game = apply(LoadedGame(game_id, RULES, state=RULES.initial()), record.events[:step])
        assert RULES.dump_state(state_at(record, step)) == RULES.dump_state(game.state)
    end = RULES.view(state_at(record, n), None)
    assert end == view_at(record, n, "spectator")
    mid = n // 2
    blue = view_at(record, mid, "blue")
    assert blue == RULES.view(state_at(record, mid), "blue")
    assert view_at(record, mid, "red")["players"]["blue"]["hand"] is None  # hidden then
    full = view_at(record, mid, "full")
    assert full == RULES.knowledge.full_view(state_at(record, mid))  # the game's own
    assert full["notation"] == RULES.dump_state(state_at(record, mid))
    assert full["players"]["blue"]["deck"]  # everything, decks included
    assert full["players"]["red"]["hand"] == list(state_at(record, mid).hands[1])
    assert replay_of(record) is replay_of(record)  # folded once


def test_a_game_without_knowledge_has_no_full_perspective(finished):
    _, _, record = finished

    class WithoutKnowledge:
        def __getattr__(self, name):
            if name == "knowledge":
                raise AttributeError(name)
            return getattr(RULES, name)

    replay = replay_of(record, {"sun-tzu": WithoutKnowledge()})
    assert replay.perspectives == ("blue", "red", "spectator")
    with pytest.raises(BadStep, match="no perspective 'full'"):
        replay.view_at(3, "full")


@pytest.mark.parametrize(("step", "perspective"), [(-1, "blue"), (10**6, "blue"), (3, "green")])
def test_replay_refuses_steps_and_perspectives_it_does_not_have(record, step, perspective):
    with pytest.raises(BadStep):
        view_at(record, step, perspective)
