"""Known answers for the event cards (optional module) and the last event ending the game."""

from __future__ import annotations

import pytest
from sun_tzu_helpers import (
    CHU,
    QIN,
    WU,
    act,
    board,
    fight,
    lineup,
    of_type,
    only,
    play_round,
    position,
    reject,
    revealed_order,
    totals,
)

from games.sun_tzu import RULES

BLUE, RED = 0, 1
LATER = ("light_infantry", "epidemic")  # cards that stay quiet in these tests


# ---------------------------------------------------------------------------------------
# Epidemic.
def test_epidemic_triggers_on_the_fourth_plague():
    st, events = fight(
        "Wu",
        "3",
        "plague",
        events=("epidemic", "hero_challenge", "light_infantry"),
        plagues_played=3,
    )
    triggered = only(events, "event_triggered")
    assert triggered["card"] == "epidemic" and triggered["visible_to"] == "all"
    assert st.aside == (4, 4) and st.reserve == (17, 17)
    assert st.event_up == "hero_challenge" and st.event_deck == ("light_infantry",)
    assert st.events_done == ("epidemic",)
    view = RULES.view(st, "blue")
    assert view["event_card"] == "hero_challenge"
    assert view["events_done"] == ["epidemic"] and view["events_left"] == 1


def test_epidemic_waits_for_four_plagues():
    st, events = fight("Wu", "3", "plague", events=("epidemic", *LATER[:1]), plagues_played=2)
    assert not of_type(events, "event_triggered")
    assert st.plagues_played == 3
    assert st.event_up == "epidemic" and st.aside == (3, 3)


def test_two_plagues_in_one_battle_count_twice():
    st, events = fight(
        "Wu", "plague", "plague", events=("epidemic", "war_chariot"), plagues_played=2
    )
    assert only(events, "event_triggered")["card"] == "epidemic"
    assert st.aside == (4, 4)


def test_epidemic_takes_from_the_board_when_the_reserve_is_empty():
    st, _ = fight(
        "Wu",
        "3",
        "plague",
        events=("epidemic", "war_chariot"),
        plagues_played=3,
        armies=board(Qin=(18, 0)),
        reserve=(0, 18),
        extra=(),
    )
    assert st.armies[QIN] == (17, 0)
    assert st.aside == (4, 4)
    assert totals(st, BLUE) == 21


# ---------------------------------------------------------------------------------------
# War chariot.
def _chariot(blue_card="6", red_card="2", markers=None, **kw):
    markers = board(Qin=(1, 0), Chu=(1, 0)) if markers is None else markers
    kw.setdefault("events", ("war_chariot", *LATER))
    kw.setdefault("kept", (("reinforce",), ("remove",)))
    return fight("Wu", blue_card, red_card, markers=markers, **kw)


def test_war_chariot_gives_an_extra_warlord():
    st, events = _chariot()
    assert only(events, "event_triggered")["card"] == "war_chariot"
    assert st.markers[WU] == (1, 0)
    assert RULES.pending(st) == {"blue": "extra_warlord"}
    legal = [c for c in RULES.legal(st, "blue") if c["type"] == "extra_warlord"]
    assert [c["warlord"] for c in legal] == ["minus_recycle", "manoeuvre", "restraint"]
    reject(st, "red", {"type": "extra_warlord", "warlord": "counter_plague"}, "cannot")
    reject(st, "blue", {"type": "extra_warlord", "warlord": "reinforce"}, "you already hold")
    reject(st, "blue", {"type": "extra_warlord", "warlord": "remove"}, "not one of your")
    reject(
        st,
        "blue",
        {"type": "extra_warlord", "warlord": "head_start"},
        "head_start only acts at the start of the game; choose another Warlord",
    )
    st, events = act(st, "blue", {"type": "extra_warlord", "warlord": "restraint"})
    assert only(events, "warlord_chosen")["visible_to"] == "blue"
    assert st.kept[BLUE] == ("reinforce", "restraint")
    assert st.extra == (0, 0)
    assert RULES.pending(st) == {"blue": "place", "red": "place"}
    assert st.round == 2


def test_war_chariot_for_both_players_at_once():
    blue, red = lineup("Wu", "6", "6")
    st = position(
        events=("war_chariot", *LATER),
        kept=(("reinforce",), ("remove",)),
        markers=board(Qin=(1, 1), Chu=(1, 1)),
        hands=(blue, red),
    )
    st, _ = play_round(st, blue, red)
    assert RULES.pending(st) == {"blue": "extra_warlord", "red": "extra_warlord"}
    st, _ = act(st, "red", {"type": "extra_warlord", "warlord": "double_six"})
    st, _ = act(st, "blue", {"type": "extra_warlord", "warlord": "manoeuvre"})
    assert st.kept == (("reinforce", "manoeuvre"), ("remove", "double_six"))


def test_war_chariot_counts_provinces_not_marker_armies():
    st, events = _chariot(
        blue_card="2",
        red_card="6",
        markers=board(Wu=(0, 2), Qin=(0, 1)),
        kept=((), ("double_six",)),
        red_extra={"warlords": [{"warlord": "double_six"}]},
    )
    assert st.markers[WU] == (0, 3)
    assert not of_type(events, "event_triggered")
    assert st.event_up == "war_chariot"


def test_war_chariot_in_the_beginner_game_gives_nothing():
    st, events = _chariot(variant="beginner", kept=((), ()))
    assert only(events, "event_triggered")["card"] == "war_chariot"
    assert st.extra == (0, 0) and st.kept == ((), ())
    assert RULES.pending(st) == {"blue": "place", "red": "place"}


def test_a_state_condition_already_met_triggers_when_its_card_turns_up():
    # Champion challenge triggers (Blue's 9 loses); War chariot turns up with Blue already
    # holding 3 six-markers, and triggers after the same battle.
    st, events = fight(
        "Wu",
        "9",
        "10",
        events=("champion_challenge", "war_chariot", *LATER),
        markers=board(Qin=(1, 0), Chu=(1, 0), Jin_Yan=(1, 0)),
        kept=(("reinforce",), ()),
    )
    assert [e["card"] for e in of_type(events, "event_triggered")] == [
        "champion_challenge",
        "war_chariot",
    ]
    assert RULES.pending(st) == {"blue": "extra_warlord"}


# ---------------------------------------------------------------------------------------
# Champion challenge and Hero challenge.
@pytest.mark.parametrize(
    ("blue", "red", "aside"),
    [
        ("9", "10", (4, 3)),  # the 9 loses
        ("9", "9", (4, 4)),  # both played a 9 and neither won
        ("9", "plague", (4, 3)),  # no battle: not a win
        ("9", "+1", (4, 3)),
        ("10", "9", (3, 4)),
    ],
)
def test_champion_challenge(blue, red, aside):
    st, events = fight("Wu", blue, red, events=("champion_challenge", *LATER))
    assert only(events, "event_triggered")["card"] == "champion_challenge"
    assert st.aside == aside
    assert st.reserve[BLUE] + st.aside[BLUE] + st.armies[WU][BLUE] == 21
    assert st.event_up == "light_infantry"


def test_champion_challenge_does_not_trigger_when_the_9_wins():
    st, events = fight("Wu", "9", "8", events=("champion_challenge", *LATER))
    assert not of_type(events, "event_triggered")
    assert st.event_up == "champion_challenge" and st.aside == (3, 3)


def test_a_restrained_9_does_not_meet_the_champion():
    st, events = fight(
        "Wu",
        "9",
        "8",
        events=("champion_challenge", *LATER),
        kept=(("restraint",), ()),
        blue_extra={"arm": {"restraint": "Wu"}},
    )
    assert st.armies[WU] == (0, 2)  # the 9 counted as a 6 and lost
    assert not of_type(events, "event_triggered")
    assert st.aside == (3, 3)


@pytest.mark.parametrize(
    ("blue", "red", "aside"),
    [
        ("10", "plague", (5, 3)),
        ("10", "10", (5, 5)),  # both pay
        ("10", "+2", (5, 4)),  # the +2 costs Red 1 as well
        ("-1", "10", None),  # the 10 wins: nothing
    ],
)
def test_hero_challenge(blue, red, aside):
    st, events = fight("Wu", blue, red, events=("hero_challenge", *LATER))
    if aside is None:
        assert not of_type(events, "event_triggered")
        assert st.aside == (3, 3)
    else:
        assert only(events, "event_triggered")["card"] == "hero_challenge"
        assert st.aside == aside
    assert totals(st, BLUE) == totals(st, RED) == 21


def test_challenge_armies_come_from_the_board_when_the_reserve_is_empty():
    st, _ = fight(
        "Wu",
        "10",
        "10",
        events=("hero_challenge", *LATER),
        armies=board(Qin=(18, 0)),
        reserve=(0, 18),
        extra=(),
    )
    assert st.armies[QIN] == (16, 0)
    assert st.aside == (5, 5)


# ---------------------------------------------------------------------------------------
# Light infantry.
@pytest.mark.parametrize(
    ("score", "before", "after"),
    [
        (2, (0, 0), (0, 1)),  # Blue ahead: Red places 1
        (-1, (0, 0), (1, 0)),  # Red ahead: Blue places 1
        (-1, (0, 3), (0, 2)),  # as if winning by 1 against Red's 3
        (-1, (0, 1), (0, 0)),  # exactly 1: emptied
        (3, (0, 2), (0, 3)),
    ],
)
def test_light_infantry(score, before, after):
    st, events = fight(
        "Chu",
        "1",
        "1",
        events=("light_infantry", "epidemic"),
        score=score,
        armies=board(Chu=before),
    )
    assert only(events, "event_triggered")["card"] == "light_infantry"
    assert st.armies[CHU] == after
    assert totals(st, BLUE) == totals(st, RED) == 21


def test_light_infantry_at_zero_does_nothing_but_is_discarded():
    st, events = fight("Chu", "1", "1", events=("light_infantry", "epidemic"))
    assert only(events, "event_triggered")["card"] == "light_infantry"
    assert st.armies[CHU] == (0, 0)
    assert st.event_up == "epidemic"


def test_light_infantry_needs_two_ones():
    st, events = fight("Chu", "1", "2", events=("light_infantry", "epidemic"), score=2)
    assert not of_type(events, "event_triggered")
    assert st.armies[CHU] == (0, 1)


# ---------------------------------------------------------------------------------------
# The last event card.
def test_last_event_ends_the_game_at_once_before_its_effect():
    st, events = fight("Qin", "10", "plague", events=("hero_challenge",), score=2)
    assert only(events, "event_triggered")["card"] == "hero_challenge"
    assert st.phase == "over"
    assert st.outcome["winner"] == "blue"
    assert st.outcome["reason"] == "last_event"
    assert st.aside == (3, 3)  # the Hero challenge's cost is not paid
    assert revealed_order(events) == ["Qin"]  # the other battles are never fought
    assert RULES.pending(st) == {}


@pytest.mark.parametrize(
    ("score", "reserve", "winner", "reason"),
    [
        (-1, (18, 18), "red", "last_event"),
        # at 0 the reserves decide, and the reason is still the last event
        (0, (18, 17), "blue", "last_event"),
        (0, (16, 18), "red", "last_event"),
        (0, (18, 18), None, "last_event"),
    ],
)
def test_last_event_winner(score, reserve, winner, reason):
    st, _ = fight(
        "Wu",
        "1",
        "1",
        events=("light_infantry",),
        score=score,
        reserve=reserve,
        aside=(21 - reserve[0], 21 - reserve[1]),
    )
    assert (st.outcome["winner"], st.outcome["reason"]) == (winner, reason)


def test_events_off_never_trigger():
    st, events = fight("Wu", "10", "10", events=None)
    assert st.events_on is False
    assert not of_type(events, "event_triggered")
    assert st.aside == (3, 3)
    assert st.event_up is None
