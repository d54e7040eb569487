"""Clocks folded from the stream's times (pure): parsing, deadlines, vacations, turns."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events import clocks, table
from events.table import Table, Turn

H = clocks.HOUR_MS
D = clocks.DAY_MS


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("1d", "is an object"),
        ({"per_move_seconds": 10}, "from 60 seconds"),
        ({"per_move_seconds": True}, "whole number"),
        ({"per_move_seconds": 3600, "bank_seconds": -1}, "time bank"),
        ({"per_move_seconds": 3600, "vacation_days": 61}, "vacation_days"),
        ({"per_move_seconds": 3600, "on_timeout": "resign"}, "on_timeout"),
        ({"per_move_seconds": 3600, "increment": 5}, "no setting 'increment'"),
    ],
)
def test_a_bad_time_control_is_refused_with_a_sentence(raw, words):
    with pytest.raises(ValueError, match=words):
        clocks.parse(raw)


def test_a_time_control_is_stored_whole_with_its_defaults():
    assert clocks.parse({"per_move_seconds": 86400}) == {
        "per_move_seconds": 86400,
        "bank_seconds": 0,
        "vacation_days": 0,
        "on_timeout": "forfeit",
    }
    assert clocks.parse(None) is None


def test_the_deadline_skips_vacations():
    # A move of one day from t=0, a vacation from 12h to 36h: the clock stops for 24 h.
    assert clocks.deadline(0, D, []) == D
    assert clocks.deadline(0, D, [[12 * H, 36 * H]]) == 2 * D
    # A vacation already over, or one that starts after the deadline, changes nothing.
    assert clocks.deadline(10 * D, D, [[0, H]]) == 11 * D
    assert clocks.deadline(0, D, [[2 * D, 3 * D]]) == D
    # A vacation under way when the turn starts: the clock starts when it ends.
    assert clocks.deadline(5 * H, D, [[0, 10 * H]]) == 10 * H + D


@given(
    start=st.integers(0, 10 * D),
    allowed=st.integers(1, 5 * D),
    windows=st.lists(st.tuples(st.integers(0, 20 * D), st.integers(1, 3 * D)), max_size=4),
)
def test_the_deadline_is_when_the_counted_time_is_used_up(start, allowed, windows):
    away = []  # vacations as taken: each one starts at or after the end of the one before
    for low, length in sorted(windows):
        low = max(low, away[-1][1]) if away else low
        away.append([low, low + length])
    due = clocks.deadline(start, allowed, away)
    assert clocks.counted(start, due, away) == allowed
    assert clocks.counted(start, due - 1, away) < allowed


def table_for(control: dict) -> Table:
    tab = Table()
    table.evolve(tab, "game_created", {"seats": {"blue": "human", "red": "human"},
                                       "clock": control}, 1, clocks.iso(0))  # fmt: skip
    return tab


def command(tab: Table, seat: str, seq: int, at_ms: int) -> None:
    table.evolve(tab, "command_given", {"seat": seat, "command": {}}, seq, clocks.iso(at_ms))


def test_a_turn_starts_when_a_seat_begins_to_owe_and_keeps_its_start_while_it_owes():
    tab = table_for(clocks.parse({"per_move_seconds": 3600}))
    table.end_of_append(tab, {"blue": "place", "red": "place"}, 5, clocks.iso(0), "red")
    command(tab, "blue", 6, 10 * 60_000)
    table.end_of_append(tab, {"red": "place"}, 8, clocks.iso(10 * 60_000), "blue")
    assert tab.turns == {"red": Turn(5, clocks.iso(0), "red")}
    command(tab, "red", 9, 20 * 60_000)
    table.end_of_append(tab, {"blue": "place", "red": "place"}, 15, clocks.iso(20 * 60_000),
                        "red")  # fmt: skip
    assert {s: t.since for s, t in tab.turns.items()} == {"blue": 15, "red": 15}


def test_time_past_the_move_comes_out_of_the_bank_and_the_bank_never_refills():
    tab = table_for(clocks.parse({"per_move_seconds": 3600, "bank_seconds": 7200}))
    table.end_of_append(tab, {"blue": "place"}, 1, clocks.iso(0), "system")
    assert tab.deadline_ms("blue") == 3 * H
    command(tab, "blue", 2, int(1.5 * H))
    assert tab.clocks["blue"].bank == int(1.5 * H)
    table.end_of_append(tab, {"blue": "place"}, 3, clocks.iso(int(1.5 * H)), "blue")
    command(tab, "blue", 4, int(1.6 * H))
    assert tab.clocks["blue"].bank == int(1.5 * H)  # a quick move gives nothing back
    table.end_of_append(tab, {"blue": "place"}, 5, clocks.iso(2 * H), "red")
    assert tab.expired(2 * H + H + int(1.5 * H) - 1) == []
    assert tab.expired(2 * H + H + int(1.5 * H)) == ["blue"]


def test_vacation_is_limited_to_the_allowance_and_follows_the_one_under_way():
    tab = table_for(clocks.parse({"per_move_seconds": 3600, "vacation_days": 3}))
    table.evolve(tab, "vacation_taken", {"seat": "blue", "days": 2}, 2, clocks.iso(0))
    table.evolve(tab, "vacation_taken", {"seat": "blue", "days": 5}, 3, clocks.iso(H))
    assert tab.clocks["blue"].away == ((0, 2 * D), (2 * D, 3 * D))  # one day left: it got one
    assert tab.clocks["blue"].vacation == 0
    assert tab.clocks["red"].away == ()


def test_a_table_survives_its_snapshot():
    tab = table_for(clocks.parse({"per_move_seconds": 3600, "vacation_days": 3}))
    table.end_of_append(tab, {"blue": "place"}, 1, clocks.iso(0), "system")
    table.evolve(tab, "vacation_taken", {"seat": "blue", "days": 1}, 2, clocks.iso(0))
    import json

    assert Table.from_dict(json.loads(json.dumps(tab.to_dict()))) == tab
