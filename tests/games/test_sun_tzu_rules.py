"""Known answers for setup, the round (privilege, order of battle, draw), scoring and the end."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from sun_tzu_helpers import (
    CHU,
    HAN_QI,
    JIN_YAN,
    QIN,
    QUIET,
    WU,
    act,
    board,
    fight,
    new_game,
    of_type,
    only,
    place,
    play_round,
    position,
    quiet_round,
    reject,
    revealed_order,
    totals,
)

from games.base import RulesError
from games.sun_tzu import RULES
from games.sun_tzu.components import BEGINNER_DECK, DISPLAYS, FRAMED, PROVINCES, STANDARD_DECK
from games.sun_tzu.state import State

BLUE, RED = 0, 1


# ---------------------------------------------------------------------------------------
# Setup.
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_standard_setup(seed):
    st = RULES.fold(RULES.setup({}, random.Random(seed)))
    assert st.variant == "standard" and st.events_on is False
    assert st.phase == "warlords" and st.round == 0
    assert RULES.pending(st) == {"blue": "choose_warlord", "red": "choose_warlord"}
    assert st.reserve == (18, 18) and st.aside == (3, 3)
    assert st.score == 0
    assert len(st.displays) == 5 and len(set(st.displays)) == 5
    assert set(st.displays) <= set(DISPLAYS)
    for seat in (BLUE, RED):
        assert len(st.hands[seat]) == 10
        assert set(FRAMED) <= set(st.hands[seat])
        assert len(st.decks[seat]) == 10
        everything = Counter(st.hands[seat]) + Counter(st.decks[seat])
        assert everything == Counter(STANDARD_DECK)
    assert st.armies == ((0, 0),) * 5 and st.markers == ((0, 0),) * 5
    assert st.event_up is None


def test_beginner_setup_has_no_bonus_cards_no_warlords_and_21_in_reserve():
    st = RULES.fold(RULES.setup({"variant": "beginner"}, random.Random(3)))
    assert st.reserve == (21, 21) and st.aside == (0, 0)
    assert st.round == 1 and st.phase == "place"
    assert RULES.pending(st) == {"blue": "place", "red": "place"}
    assert len(BEGINNER_DECK) == 18
    for seat in (BLUE, RED):
        everything = Counter(st.hands[seat]) + Counter(st.decks[seat])
        assert everything == Counter(BEGINNER_DECK)
        assert "+2" not in everything and "+3" not in everything
        assert len(st.hands[seat]) == 10 and len(st.decks[seat]) == 8
    assert st.kept == ((), ())


def test_beginner_refuses_warlords_and_reinforcements():
    st = new_game(variant="beginner")
    reject(st, "red", {"type": "choose_warlord", "warlord": "remove"}, "cannot choose")
    command = place(st.hands[RED][:5], warlords=[{"warlord": "remove", "province": "Qin"}])
    reject(st, "red", command, "you do not hold remove")
    non_framed = next(c for c in st.hands[BLUE] if c not in FRAMED)
    reject(st, "blue", {"type": "reinforce", "card": non_framed}, "set-aside pool is empty")


def test_events_setup_turns_up_one_event_card():
    st = RULES.fold(RULES.setup({"events": True}, random.Random(5)))
    assert st.events_on is True
    assert st.event_up is not None
    assert len(st.event_deck) == 4
    everything = {st.event_up, *st.event_deck}
    assert everything == {
        "epidemic",
        "war_chariot",
        "champion_challenge",
        "hero_challenge",
        "light_infantry",
    }
    view = RULES.view(st, "blue")
    assert view["event_card"] == st.event_up and view["events_left"] == 4


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"variant": "expert"}, "the variant must be standard or beginner, not 'expert'"),
        ({"players": 3}, "Sun Tzu has no option 'players'"),
        ({"events": "yes"}, "the events option is true or false"),
    ],
)
def test_bad_options_are_refused(options, words):
    with pytest.raises(RulesError) as info:
        RULES.setup(options, random.Random(0))
    assert words in str(info.value)


def test_same_seed_same_setup():
    one = RULES.setup({"events": True}, random.Random(42))
    two = RULES.setup({"events": True}, random.Random(42))
    assert one == two


# ---------------------------------------------------------------------------------------
# Choosing the Warlord.
def test_warlord_choice_is_secret_and_refuses_the_other_sides_cards():
    st = RULES.fold(RULES.setup({}, random.Random(0)))
    reject(st, "blue", {"type": "choose_warlord", "warlord": "remove"}, "not one of your")
    reject(st, "blue", {"type": "choose_warlord", "warlord": "archers"}, "not one of your")
    st, events = act(st, "blue", {"type": "choose_warlord", "warlord": "restraint"})
    assert only(events, "warlord_chosen")["visible_to"] == "blue"
    assert RULES.view(st, "red")["players"]["blue"]["warlords"] is None
    assert RULES.view(st, "blue")["players"]["blue"]["warlords"] == ["restraint"]
    assert RULES.pending(st) == {"red": "choose_warlord"}
    reject(st, "blue", {"type": "choose_warlord", "warlord": "manoeuvre"}, "waiting for red")
    st, _ = act(st, "red", {"type": "choose_warlord", "warlord": "double_six"})
    assert st.round == 1 and st.score == 0
    assert st.kept == (("restraint",), ("double_six",))
    assert RULES.pending(st) == {"blue": "place", "red": "place"}


def test_head_start_is_revealed_only_when_both_have_chosen():
    st = RULES.fold(RULES.setup({}, random.Random(0)))
    st, events = act(st, "blue", {"type": "choose_warlord", "warlord": "head_start"})
    assert st.score == 0
    assert not of_type(events, "warlord_played")
    st, events = act(st, "red", {"type": "choose_warlord", "warlord": "remove"})
    played = only(events, "warlord_played", warlord="head_start")
    assert played["visible_to"] == "all"
    assert st.score == 1
    assert st.spent == (("head_start",), ())
    assert RULES.view(st, "red")["players"]["blue"]["warlords_played"] == ["head_start"]


# ---------------------------------------------------------------------------------------
# Placement errors.
def test_placement_errors_say_what_is_wrong():
    st = position(hands=(("1", "2", "3", "4", "5", "6", "+1"), ("1", "2", "3", "4", "5", "6")))
    reject(st, "blue", {"type": "place", "cards": {"Qin": "1"}}, "place one card in front of")
    reject(st, "blue", {"type": "place"}, "Qin, Chu, Jin-Yan, Han-Qi, Wu")
    reject(st, "blue", place(["1", "2", "3", "4", "9"]), "'9'", "in hand")
    reject(st, "blue", place(["1", "2", "3", "+1", "+1"]), "2 × '+1'", "only 1 in hand")
    reject(st, "blue", place(["1", "2", "3", "4", "4"]), "'4'")


def test_missing_card_message_reads_as_a_sentence():
    st = position(hands=(("1", "2", "3", "4", "5", "6"),) * 2)
    message = reject(st, "blue", place(["1", "2", "3", "4", "9"]))
    # "you placed 1 × '9' but have no in hand" is not a sentence a player understands.
    assert "have no in hand" not in message
    assert "none" in message or "no '9'" in message or "not" in message


def test_six_cannot_go_on_its_own_marker():
    st = position(markers=board(Wu=(1, 0)))
    message = reject(st, "blue", place(["1", "2", "3", "4", "6"]), "6-marker already stands in Wu")
    assert message == "your 6-marker already stands in Wu; your 6 cannot go there"
    # The opponent's marker is no obstacle, nor is Blue's marker elsewhere.
    st2 = position(markers=board(Wu=(0, 1), Qin=(1, 0)))
    act(st2, "blue", place(["1", "2", "3", "4", "6"]))


def test_placing_twice_or_out_of_turn_is_refused():
    st = position()
    st, _ = act(st, "blue", place(["1", "2", "3", "4", "5"]))
    assert RULES.pending(st) == {"red": "place"}
    reject(st, "blue", place(["6", "7", "8", "9", "10"]), "waiting for red")
    # The placement stays face down for the opponent.
    red_view = RULES.view(st, "red")
    assert [p["cards"]["blue"] for p in red_view["provinces"]] == ["placed"] * 5
    assert red_view["players"]["blue"]["hand"] is None
    assert red_view["players"]["blue"]["hand_size"] == 5


def test_waiting_message_does_not_say_the_opponent_places_your_cards():
    st = position()
    st, _ = act(st, "blue", place(["1", "2", "3", "4", "5"]))
    message = reject(st, "blue", place(["6", "7", "8", "9", "10"]), "waiting for red")
    assert "red to place your cards" not in message


@pytest.mark.parametrize(
    ("seat", "command", "words"),
    [
        ("green", {"type": "place"}, "there is no seat 'green'"),
        ("blue", ["place"], 'a command is an object with a "type"'),
        ("blue", {"cards": {}}, 'a command is an object with a "type"'),
        ("blue", {"type": "attack"}, "there is no command 'attack'; the commands are:"),
        ("blue", {"type": "keep", "cards": ["7"]}, "you cannot choose the cards to keep now"),
        ("blue", {"type": "next_province", "province": "Wu"}, "first place your cards"),
    ],
)
def test_malformed_commands_are_refused(seat, command, words):
    reject(position(), seat, command, words)


def test_commands_before_setup_are_refused():
    with pytest.raises(RulesError, match="has not been set up"):
        RULES.decide(State(), "blue", {"type": "place"}, random.Random(0))


# ---------------------------------------------------------------------------------------
# The privilege and the order of battle.
def _round2(**kw):
    kw.setdefault("round", 2)
    return position(**kw)


def test_fewer_armies_on_board_holds_the_privilege_and_names_the_next_province():
    st = _round2(armies=board(Qin=(2, 0), Chu=(0, 5)))
    st, _ = play_round(st, QUIET, QUIET)
    assert st.privilege == BLUE
    assert RULES.pending(st) == {"blue": "next_province"}
    assert RULES.view(st, "blue")["decision"] == {
        "kind": "next_province",
        "provinces": list(PROVINCES),
    }
    assert RULES.view(st, "red")["decision"] is None
    reject(st, "red", {"type": "next_province", "province": "Wu"}, "waiting for blue")
    st, events = act(st, "blue", {"type": "next_province", "province": "Wu"})
    assert revealed_order(events) == ["Wu"]
    assert RULES.pending(st) == {"blue": "next_province"}
    assert RULES.view(st, "blue")["decision"]["provinces"] == ["Qin", "Chu", "Jin-Yan", "Han-Qi"]
    reject(st, "blue", {"type": "next_province", "province": "Wu"}, "already been fought")
    st, events = act(st, "blue", {"type": "next_province", "provinces": ["Han-Qi", "Qin", "Chu"]})
    assert revealed_order(events) == ["Han-Qi", "Qin", "Chu", "Jin-Yan"]
    assert st.round == 3


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ({"type": "next_province", "province": "Shu"}, "there is no province 'Shu'"),
        ({"type": "next_province", "provinces": []}, "give a list of province names"),
        ({"type": "next_province", "provinces": ["Wu", "Wu"]}, "name each province once"),
        ({"type": "next_province"}, "give a list of province names"),
    ],
)
def test_bad_next_province_answers(command, words):
    st = _round2(armies=board(Qin=(2, 0), Chu=(0, 5)))
    st, _ = play_round(st, QUIET, QUIET)
    reject(st, "blue", command, words)


def test_whole_order_named_with_the_placement():
    st = _round2(armies=board(Qin=(0, 2), Chu=(5, 0)))
    order = ["Jin-Yan", "Wu", "Qin", "Chu", "Han-Qi"]
    st, events = play_round(st, QUIET, QUIET, {"order": list(PROVINCES)}, {"order": order})
    assert st.privilege == RED
    assert revealed_order(events) == order
    # Red's order stays Red's secret until the battles show it.
    for event in events:
        if event["type"] == "order_named":
            assert event["visible_to"] == "red"
            assert "provinces" not in RULES.redact(event, "blue")


def test_partial_order_then_asked_again():
    st = _round2(armies=board(Qin=(0, 2), Chu=(5, 0)))
    st, events = play_round(st, QUIET, QUIET, None, {"order": ["Han-Qi", "Qin"]})
    assert revealed_order(events) == ["Han-Qi", "Qin"]
    assert RULES.pending(st) == {"red": "next_province"}
    st, events = act(st, "red", {"type": "next_province", "provinces": ["Wu", "Chu"]})
    assert revealed_order(events) == ["Wu", "Chu", "Jin-Yan"]


def test_order_given_by_the_other_player_is_ignored():
    st = _round2(armies=board(Qin=(0, 2), Chu=(5, 0)))
    st, events = play_round(st, QUIET, QUIET, {"order": ["Wu", "Qin"]}, None)
    assert revealed_order(events) == []
    assert RULES.pending(st) == {"red": "next_province"}


def test_six_markers_do_not_count_for_the_privilege():
    st = _round2(armies=board(Qin=(3, 0), Chu=(0, 4)), markers=board(Wu=(5, 0)))
    st, _ = play_round(st, QUIET, QUIET)
    assert st.privilege == BLUE


def test_tie_keeps_the_previous_holder():
    st = _round2(round=4, armies=board(Qin=(3, 0), Chu=(0, 3)), privilege=RED)
    st, _ = play_round(st, QUIET, QUIET)
    assert st.privilege == RED
    assert RULES.pending(st) == {"red": "next_province"}


def test_tie_with_no_previous_holder_uses_the_fixed_order():
    st = _round2(armies=board(Qin=(3, 0), Chu=(0, 3)))
    st, events = play_round(st, QUIET, QUIET)
    assert st.privilege is None
    assert revealed_order(events) == list(PROVINCES)
    assert st.round == 3


def test_privilege_is_settled_once_per_round():
    # Blue holds it (2 against 5), then wins Qin by 8 and has more armies than Red, but keeps
    # naming the provinces for the rest of the round.
    st = _round2(
        armies=board(Qin=(2, 0), Chu=(0, 5)),
        hands=(("10", "3", "4", "5", "7", "8"), ("2", "3", "4", "5", "7", "9")),
    )
    st, _ = play_round(st, ["10", "3", "4", "5", "7"], ["2", "3", "4", "5", "7"])
    st, _ = act(st, "blue", {"type": "next_province", "province": "Qin"})
    assert st.armies[QIN] == (10, 0)
    assert st.privilege == BLUE
    assert RULES.pending(st) == {"blue": "next_province"}


def test_privilege_moves_to_the_player_with_fewer_armies_next_round():
    hand = ("1", "2", "3", "4", "5", "6", "7", "7", "8", "9")
    st = _round2(armies=board(Qin=(2, 0), Chu=(0, 5)), privilege=BLUE, hands=(hand, hand))
    st, _ = play_round(st, QUIET, QUIET, {"order": list(PROVINCES)})
    assert st.privilege == BLUE and st.round == 3
    st = st.copy()
    st.armies = board(Qin=(9, 0), Chu=(0, 5))
    st.reserve = (9, 13)
    st, _ = play_round(st, QUIET, QUIET)
    assert st.privilege == RED


# ---------------------------------------------------------------------------------------
# The draw.
def test_draw_two_keep_one_and_put_the_other_at_the_bottom():
    st = position(decks=(("7", "8", "9"), ("+1", "-1", "plague")), hands=(QUIET, QUIET))
    st, events = play_round(st, QUIET, QUIET)
    assert RULES.pending(st) == {"blue": "keep", "red": "keep"}
    assert st.hands == (QUIET[:-1], QUIET[:-1])  # the 7s have left the game
    assert st.gone == (("7",), ("7",))
    assert RULES.view(st, "blue")["decision"] == {"kind": "keep", "drawn": ["7", "8"], "keep": 1}
    drawn = only(events, "cards_drawn", seat="red")
    assert drawn["visible_to"] == "red" and drawn["cards"] == ["+1", "-1"]
    reject(st, "blue", {"type": "keep", "cards": ["7", "8"]}, "keep exactly 1", "7, 8")
    reject(st, "blue", {"type": "keep", "cards": ["9"]}, "you did not draw '9'; you drew 7, 8")
    reject(st, "blue", place(QUIET), "first choose the cards to keep")
    st, _ = act(st, "blue", {"type": "keep", "cards": ["8"]})
    assert st.decks[BLUE] == ("9", "7")
    assert "8" in st.hands[BLUE]
    assert RULES.pending(st) == {"red": "keep"}
    st, _ = act(st, "red", {"type": "keep", "cards": "-1"})  # a single card as a string
    assert st.decks[RED] == ("plague", "+1")
    assert st.round == 2
    assert RULES.pending(st) == {"blue": "place", "red": "place"}


def test_playing_the_1_draws_three_keeps_two():
    st = position(decks=(("7", "8", "9", "10"), ("+1", "-1", "plague")))
    st, _ = play_round(st, ["1", "3", "4", "5", "7"], ["2", "3", "4", "5", "7"])
    assert st.drawn == (("7", "8", "9"), ("+1", "-1"))
    assert st.keep_n == (2, 1)
    reject(st, "blue", {"type": "keep", "cards": ["7"]}, "keep exactly 2")
    st, _ = act(st, "blue", {"type": "keep", "cards": ["9", "7"]})
    assert st.decks[BLUE] == ("10", "8")
    assert {"7", "9"} <= set(st.hands[BLUE])


def test_the_1_cancelled_by_a_plague_still_draws_three():
    st = position(
        decks=(("7", "8", "9", "10"), ()),
        hands=(("1", "2", "3", "4", "5"), ("plague", "2", "3", "4", "5")),
    )
    st, _ = play_round(st, ["1", "2", "3", "4", "5"], ["plague", "2", "3", "4", "5"])
    assert st.drawn[BLUE] == ("7", "8", "9") and st.keep_n[BLUE] == 2


def test_both_ones_both_draw_three():
    st = position(decks=(("7", "8", "9"), ("+1", "-1", "plague")))
    st, _ = play_round(st, ["1", "3", "4", "5", "7"], ["1", "3", "4", "5", "7"])
    assert st.keep_n == (2, 2)


@pytest.mark.parametrize(
    ("deck", "one", "hand_gets"),
    [
        (("9",), False, ("9",)),  # 1 card left: it is kept, nobody is asked
        (("9", "10"), True, ("9", "10")),  # after the 1, 2 left: both kept
        (("9",), True, ("9",)),
        ((), False, ()),  # no card: nothing
        ((), True, ()),
    ],
)
def test_draw_with_fewer_cards_left(deck, one, hand_gets):
    first = "1" if one else "2"
    st = position(decks=(deck, ()))
    blue = [first, "3", "4", "5", "7"]
    st, _ = play_round(st, blue, ["2", "3", "4", "5", "7"])
    assert st.round == 2
    assert RULES.pending(st) == {"blue": "place", "red": "place"}
    assert st.decks[BLUE] == ()
    for card in hand_gets:
        assert card in st.hands[BLUE]
    # 10 in hand, 5 placed, the 4 framed ones back, plus what was drawn.
    assert len(st.hands[BLUE]) == 9 + len(hand_gets)


def test_alike_cards_are_still_asked_about():
    st = position(decks=(("+1", "+1"), ()))
    st, _ = quiet_round(st)
    assert RULES.pending(st) == {"blue": "keep"}
    st, _ = act(st, "blue", {"type": "keep", "cards": ["+1"]})
    assert st.decks[BLUE] == ("+1",)


def test_framed_cards_return_to_hand_and_others_leave_the_game():
    st = position()
    st, _ = play_round(st, ["6", "7", "8", "9", "10"], ["6", "10", "9", "8", "7"])
    assert st.hands[BLUE] == ("1", "2", "3", "4", "5", "6")
    assert st.hands[RED] == ("1", "2", "3", "4", "5", "6")
    assert st.gone == (("7", "8", "9", "10"), ("10", "9", "8", "7"))
    assert RULES.view(st, "red")["players"]["blue"]["discarded"] == ["7", "8", "9", "10"]


# ---------------------------------------------------------------------------------------
# Scoring and the end of the game.
def _scoring_position(round_, **kw):
    # Blue holds Qin, Chu, Jin-Yan; Red holds Han-Qi and Wu.
    kw.setdefault("armies", board(Qin=(1, 0), Chu=(1, 0), Jin_Yan=(1, 0), Han_Qi=(0, 1), Wu=(0, 1)))
    return position(round=round_, **kw)


def test_rulebook_scoring_example():
    # Round-3 values 3, 2, 1, 2, 1: Red scores 2 + 1 = 3, Blue 3 + 2 + 1 = 6.
    st, events = quiet_round(_scoring_position(3))
    scored = only(events, "scored")
    assert scored["points"] == {"blue": 6, "red": 3}
    assert scored["marker"] == 3
    assert st.score == 3
    assert st.round == 4


@pytest.mark.parametrize(
    ("round_", "blue", "red"),
    [(6, 1 + 3 + 2, 5 + 3), (9, 5 + 2 + 4, 2 + 5)],
)
def test_scoring_uses_the_column_of_the_round(round_, blue, red):
    st, events = quiet_round(_scoring_position(round_, score=-1))
    assert only(events, "scored")["points"] == {"blue": blue, "red": red}
    assert st.score == -1 + blue - red


def test_no_scoring_outside_rounds_3_6_9():
    st, events = quiet_round(_scoring_position(4, score=2))
    assert not of_type(events, "scored")
    assert st.score == 2 and st.round == 5


def test_empty_provinces_score_for_nobody():
    st, events = quiet_round(position(round=3, armies=board(Wu=(0, 2))))
    assert only(events, "scored")["points"] == {"blue": 0, "red": 1}
    assert st.score == -1


def test_marker_stops_at_the_big_box_and_knocks_out_after_round_3():
    st, events = quiet_round(_scoring_position(3, score=7))
    assert only(events, "scored")["marker"] == 9
    assert st.phase == "over"
    assert st.outcome["winner"] == "blue"
    assert st.outcome["reason"] == "knockout"
    assert st.outcome["score"] == 9
    assert st.outcome["round"] == 3
    assert RULES.pending(st) == {}
    reject(st, "red", place(QUIET), "the game is over")
    reject(st, "red", {"type": "resign"}, "the game is over")


def test_knockout_toward_red_after_round_6():
    armies = board(Qin=(0, 1), Chu=(0, 1), Jin_Yan=(0, 1), Han_Qi=(0, 1), Wu=(0, 1))
    st, _ = quiet_round(_scoring_position(6, score=-2, armies=armies))
    assert st.score == -9
    assert (st.outcome["winner"], st.outcome["reason"]) == ("red", "knockout")
    assert st.outcome["round"] == 6


def test_exactly_nine_by_scoring_is_a_knockout_not_more():
    # 1 + 6 - 3 = 4: no knockout; 6 + 3 = 9: knockout.
    st, _ = quiet_round(_scoring_position(3, score=1))
    assert st.outcome is None and st.score == 4
    st, _ = quiet_round(_scoring_position(3, score=6))
    assert st.outcome["reason"] == "knockout"


@pytest.mark.parametrize(
    ("score", "reserve", "winner", "reason"),
    [
        (-2, None, "blue", "points"),  # -2 + 11 - 7 = 2
        (-6, None, "red", "points"),  # -6 + 4 = -2
        (-4, (12, 11), "blue", "reserve"),  # -4 + 4 = 0, more reserve wins
        (-4, (11, 12), "red", "reserve"),
        (-4, (12, 12), None, "draw"),
    ],
)
def test_end_after_round_9(score, reserve, winner, reason):
    kw = {"score": score}
    if reserve is not None:
        kw.update(reserve=reserve, aside=(21 - 3 - reserve[0], 21 - 2 - reserve[1]))
    st, _ = quiet_round(_scoring_position(9, **kw))
    assert st.phase == "over"
    assert st.outcome["winner"] == winner
    assert st.outcome["reason"] == reason
    assert RULES.pending(st) == {}
    view = RULES.view(st, None)
    assert view["outcome"] == st.outcome
    # When the game is over every hand is shown, even to spectators.
    assert view["players"]["red"]["hand"] == list(st.hands[RED])


def test_marker_at_nine_after_round_9_is_a_points_win():
    st, _ = quiet_round(_scoring_position(9, score=8))
    assert (st.outcome["winner"], st.outcome["reason"], st.outcome["score"]) == (
        "blue",
        "points",
        9,
    )


def test_no_draw_after_round_9():
    st, events = quiet_round(_scoring_position(9, decks=(("7", "8"), ("9", "10"))))
    assert not of_type(events, "cards_drawn")
    assert st.phase == "over"


# ---------------------------------------------------------------------------------------
# Resigning.
def test_resign_forfeits_to_the_opponent():
    st = position(score=4)
    st, _ = act(st, "blue", {"type": "resign"})
    assert st.outcome["winner"] == "red"
    assert st.outcome["reason"] == "forfeit"
    assert st.phase == "over"
    assert RULES.pending(st) == {}


def test_resign_while_the_opponent_owes_a_decision():
    st = position()
    st, _ = act(st, "blue", place(QUIET))
    st, _ = act(st, "blue", {"type": "resign"})
    assert (st.outcome["winner"], st.outcome["reason"]) == ("red", "forfeit")
    st = position(score=-3)
    st, _ = act(st, "red", {"type": "resign"})
    assert (st.outcome["winner"], st.outcome["reason"]) == ("blue", "forfeit")


def test_resign_at_score_zero_is_still_a_forfeit():
    st, _ = act(position(reserve=(10, 12), aside=(11, 9)), "red", {"type": "resign"})
    assert (st.outcome["winner"], st.outcome["reason"]) == ("blue", "forfeit")


# ---------------------------------------------------------------------------------------
# Exceptional reinforcement.
def test_standalone_reinforcement():
    st = position()
    st, events = act(st, "blue", {"type": "reinforce", "card": "8"})
    assert only(events, "reinforced")["visible_to"] == "all"
    assert st.aside == (2, 3) and st.reserve == (19, 18)
    assert "8" not in st.hands[BLUE]
    assert st.gone[BLUE] == ("8",)
    assert RULES.pending(st) == {"blue": "place", "red": "place"}


@pytest.mark.parametrize(
    ("card", "words"),
    [
        ("6", "the 6 is a framed card; discard a 7-10, a bonus, -1 or Plague"),
        ("1", "framed card"),
        ("+2", "you have no '+2' in hand to discard"),
        (None, "in hand to discard"),
    ],
)
def test_bad_reinforcements(card, words):
    reject(position(), "blue", {"type": "reinforce", "card": card}, words)


def test_reinforcement_needs_a_set_aside_army():
    st = position(aside=(0, 3))
    reject(st, "blue", {"type": "reinforce", "card": "8"}, "your set-aside pool is empty")


@pytest.mark.parametrize("card", ["7", "8", "9", "10", "+1", "-1", "+2", "+3", "plague"])
def test_every_non_framed_card_can_pay_a_reinforcement(card):
    st = position(hands=(("1", "2", "3", "4", "5", "6", card), ()))
    st, _ = act(st, "blue", {"type": "reinforce", "card": card})
    assert st.aside[BLUE] == 2 and st.gone[BLUE] == (card,)


def test_reinforcements_attached_to_a_placement_come_first():
    st = position()
    command = place(QUIET, reinforce=["8", "10"])
    st, events = act(st, "blue", command)
    assert [e["type"] for e in events] == ["reinforced", "reinforced", "placed"]
    assert st.aside[BLUE] == 1 and st.reserve[BLUE] == 20
    assert st.hands[BLUE] == ("1", "6", "9")
    # A card used for the reinforcement cannot also be placed.
    st = position()
    reject(st, "blue", place(["8", "2", "3", "4", "5"], reinforce=["8"]), "'8'")
    reject(st, "blue", place(QUIET, reinforce="8"), "reinforce is a list")


def test_reinforcement_attached_to_a_refused_command_is_not_made():
    st = position()
    reject(st, "blue", {"type": "keep", "cards": ["7"], "reinforce": ["8"]}, "cannot")


def test_reinforcement_attached_to_keep_and_next_province():
    st = position(decks=(("+1", "-1"), ()))
    st, _ = quiet_round(st)
    st, events = act(st, "blue", {"type": "keep", "cards": ["-1"], "reinforce": ["8"]})
    assert [e["type"] for e in events][:2] == ["reinforced", "card_kept"]
    assert st.aside[BLUE] == 2
    st = _round2(armies=board(Qin=(2, 0), Chu=(0, 5)))
    st, _ = play_round(st, QUIET, QUIET)
    st, _ = act(st, "blue", {"type": "next_province", "provinces": ["Wu"], "reinforce": ["9"]})
    assert st.aside[BLUE] == 2 and st.reserve[BLUE] == 21 - 2 - 2


def test_reinforcement_while_the_opponent_decides_and_before_round_one():
    st = RULES.fold(RULES.setup({}, random.Random(0)))
    card = next(c for c in st.hands[RED] if c not in FRAMED)
    st, _ = act(st, "red", {"type": "reinforce", "card": card})
    assert st.aside == (3, 2)
    st = position()
    st, _ = act(st, "blue", place(QUIET))
    st, _ = act(st, "blue", {"type": "reinforce", "card": "9"})
    assert st.aside == (2, 3)
    assert RULES.pending(st) == {"red": "place"}


def test_legal_lists_reinforcements():
    legal = RULES.legal(
        position(hands=(("1", "2", "3", "4", "5", "6", "9", "9", "+1"), ())), "blue"
    )
    reinforcements = [c for c in legal if c["type"] == "reinforce"]
    assert reinforcements == [
        {"type": "reinforce", "card": "+1"},
        {"type": "reinforce", "card": "9"},
    ]


# ---------------------------------------------------------------------------------------
# A whole round through the protocol, and the province constants.
def test_battles_follow_the_board_geometry():
    from games.sun_tzu import rulings

    assert rulings.ADJACENT[WU] == frozenset({CHU, HAN_QI})
    assert rulings.ADJACENT[QIN] == frozenset({CHU, JIN_YAN, HAN_QI})
    assert rulings.ADJACENT[JIN_YAN] == frozenset({QIN, HAN_QI})
    assert rulings.ADJACENT[HAN_QI] == frozenset({QIN, JIN_YAN, CHU, WU})
    assert rulings.ADJACENT[CHU] == frozenset({QIN, HAN_QI, WU})


def test_a_fight_leaves_both_players_21_armies_and_next_round_ready():
    st, _ = fight("Qin", "10", "2", armies=board(Qin=(0, 3)))
    assert st.armies[QIN] == (5, 0)
    assert st.round == 2 and st.phase == "place"
    assert st.reserve == (13, 18)
    assert totals(st, BLUE) == totals(st, RED) == 21
