"""Known answers for one battle: card values, margins, Plague, card costs, army sources."""

from __future__ import annotations

import pytest
from sun_tzu_helpers import (
    CHU,
    HAN_QI,
    JIN_YAN,
    QIN,
    WU,
    act,
    battle_in,
    board,
    cards_of,
    fight,
    position,
    reject,
    revealed_order,
    totals,
)

from games.sun_tzu import RULES, battle, rulings

BLUE, RED = 0, 1


# ---------------------------------------------------------------------------------------
# The card table, on the pure functions.
@pytest.mark.parametrize(
    ("card", "value"),
    [
        ("1", ("number", 1)),
        ("6", ("number", 6)),
        ("10", ("number", 10)),
        ("+1", ("bonus", 1)),
        ("+2", ("bonus", 2)),
        ("+3", ("bonus", 3)),
        ("-1", ("minus", 1)),
        ("plague", ("plague", 0)),
    ],
)
def test_value_of_each_card(card, value):
    assert battle.value_of(card) == value


def test_value_of_restrained_and_counter_plagued_cards():
    for card in ("7", "8", "9", "10"):
        assert battle.value_of(card, restrained=True) == ("number", 6)
    # Restraint only changes a 7-10.
    assert battle.value_of("5", restrained=True) == ("number", 5)
    assert battle.value_of("+3", restrained=True) == ("bonus", 3)
    assert battle.value_of("plague", counter_plagued=True) == ("number", 0)


@pytest.mark.parametrize(
    ("blue", "red", "result"),
    [
        # number a vs number b: higher wins by |a - b|; equal: nothing
        ("9", "5", (BLUE, 4)),
        ("5", "9", (RED, 4)),
        ("1", "10", (RED, 9)),
        ("7", "7", (None, 0)),
        # +k vs number b: counts as b + k, wins by k
        ("+1", "10", (BLUE, 1)),
        ("+2", "3", (BLUE, 2)),
        ("8", "+3", (RED, 3)),
        # -1 vs number b: counts as b - 1, the number wins by 1
        ("-1", "10", (RED, 1)),
        ("1", "-1", (BLUE, 1)),
        # +k vs -1: +k wins by k (the ruling for k = 1)
        ("+1", "-1", (BLUE, 1)),
        ("+2", "-1", (BLUE, 2)),
        ("-1", "+3", (RED, 3)),
        # +a vs +b: larger bonus wins by |a - b|; equal: nothing
        ("+3", "+1", (BLUE, 2)),
        ("+1", "+2", (RED, 1)),
        ("+2", "+2", (None, 0)),
        ("+1", "+1", (None, 0)),
        # -1 vs -1: nothing
        ("-1", "-1", (None, 0)),
    ],
)
def test_compare_follows_the_card_table(blue, red, result):
    assert battle.compare(battle.value_of(blue), battle.value_of(red)) == result


def test_counter_plagued_plague_is_a_plain_zero():
    zero = battle.value_of("plague", counter_plagued=True)
    assert battle.compare(zero, battle.value_of("3")) == (RED, 3)
    assert battle.compare(zero, battle.value_of("+2")) == (RED, 2)
    assert battle.compare(zero, battle.value_of("-1")) == (BLUE, 1)


# ---------------------------------------------------------------------------------------
# The same table through a whole battle (Wu empty: the winner places the margin).
@pytest.mark.parametrize(
    ("blue", "red", "wu"),
    [
        ("9", "5", (4, 0)),
        ("5", "9", (0, 4)),
        ("4", "4", (0, 0)),
        ("+1", "10", (1, 0)),
        ("10", "+1", (0, 1)),
        ("-1", "7", (0, 1)),
        ("+1", "-1", (1, 0)),
        ("-1", "+1", (0, 1)),
        ("+1", "+1", (0, 0)),
        ("-1", "-1", (0, 0)),
        ("plague", "10", (0, 0)),
        ("10", "plague", (0, 0)),
        ("plague", "plague", (0, 0)),
    ],
)
def test_battle_in_an_empty_province(blue, red, wu):
    st, events = fight("Wu", blue, red)
    assert battle_in(events, "Wu")["cards"] == {"blue": blue, "red": red}
    assert st.armies[WU] == wu
    assert st.reserve == (18 - wu[0], 18 - wu[1])
    assert totals(st, BLUE) == totals(st, RED) == 21


def test_battle_events_carry_winner_and_margin():
    _, events = fight("Wu", "5", "9")
    fought = battle_in(events, "Wu")
    assert (fought["winner"], fought["margin"], fought["plague"]) == ("red", 4, False)
    assert fought["result"] == "win"


def test_tie_moves_nothing():
    st, events = fight("Qin", "8", "8", armies=board(Qin=(2, 0)))
    assert battle_in(events, "Qin")["result"] == "tie"
    assert st.armies[QIN] == (2, 0)
    assert st.reserve == (16, 18)


def test_round_one_reveals_in_board_order():
    # Even though Red has fewer armies on the board, round 1 keeps the fixed order.
    _, events = fight("Wu", "5", "9", armies=board(Chu=(3, 0)))
    assert revealed_order(events) == ["Qin", "Chu", "Jin-Yan", "Han-Qi", "Wu"]


# ---------------------------------------------------------------------------------------
# The rulebook's example: Wu, Blue 5 vs Red 9, Red wins by 4.
@pytest.mark.parametrize(
    ("before", "after", "reserve"),
    [
        ((0, 0), (0, 4), (18, 14)),  # empty: Red +4
        ((0, 2), (0, 6), (18, 12)),  # Red's: Red +4
        ((6, 0), (2, 0), (16, 18)),  # Blue with 6: Blue 2 left, 4 back to Blue's reserve
        ((4, 0), (0, 0), (18, 18)),  # Blue with exactly 4: Wu empty
        ((3, 0), (0, 1), (18, 17)),  # Blue with 3: Blue's 3 removed, Red places 1
    ],
)
def test_rulebook_wu_example(before, after, reserve):
    st, events = fight("Wu", "5", "9", armies=board(Wu=before))
    assert (battle_in(events, "Wu")["winner"], battle_in(events, "Wu")["margin"]) == ("red", 4)
    assert st.armies[WU] == after
    assert st.reserve == reserve
    assert st.owner(WU) == (None if after == (0, 0) else 0 if after[0] else 1)


def test_margin_cases_mirrored_for_blue():
    st, _ = fight("Chu", "10", "3", armies=board(Chu=(0, 9)))
    assert st.armies[CHU] == (0, 2)  # more than 7: Red keeps it
    st, _ = fight("Chu", "10", "3", armies=board(Chu=(0, 7)))
    assert st.armies[CHU] == (0, 0)  # exactly 7: empty
    st, _ = fight("Chu", "10", "3", armies=board(Chu=(0, 2)))
    assert st.armies[CHU] == (5, 0)  # fewer: removed, Blue adds 5
    assert st.reserve == (13, 18)  # Red's 2 back in Red's reserve


@pytest.mark.parametrize(
    ("before", "removed", "added"),
    [
        ((0, 0), 0, 4),
        ((0, 7), 0, 4),
        ((6, 0), 4, 0),
        ((4, 0), 4, 0),
        ((3, 0), 3, 1),
        ((1, 0), 1, 3),
    ],
)
def test_margin_moves_pure(before, removed, added):
    assert battle.margin_moves(before, RED, 4) == (removed, added)


# ---------------------------------------------------------------------------------------
# Plague.
@pytest.mark.parametrize(
    ("armies", "left"),
    [(5, 3), (1, 1), (2, 1), (3, 2), (4, 2), (9, 5), (0, 0)],
)
def test_plague_removes_half_rounded_down_and_never_empties(armies, left):
    st, events = fight("Han-Qi", "plague", "9", armies=board(Han_Qi=(0, armies)))
    assert st.armies[HAN_QI] == (0, left)
    # Removed armies go back to their owner's reserve.
    assert st.reserve == (18, 18 - left)
    assert battle_in(events, "Han-Qi")["result"] == "plague"


def test_rulebook_plague_examples():
    assert rulings.plague_losses(5, deadly=False) == 2
    assert rulings.plague_losses(1, deadly=False) == 0
    st, _ = fight("Wu", "3", "plague", armies=board(Wu=(5, 0)))
    assert st.armies[WU] == (3, 0)
    st, _ = fight("Wu", "3", "plague", armies=board(Wu=(1, 0)))
    assert st.armies[WU] == (1, 0)


def test_two_plagues_apply_once():
    st, events = fight("Qin", "plague", "plague", armies=board(Qin=(8, 0)))
    assert st.armies[QIN] == (4, 0)  # 8 -> 4, not 8 -> 4 -> 2
    assert battle_in(events, "Qin")["plagues"] == 2
    assert st.plagues_played == 2


def test_plague_cancels_the_other_card_even_a_winning_one():
    st, events = fight("Qin", "10", "plague", armies=board(Qin=(0, 6)))
    fought = battle_in(events, "Qin")
    assert (fought["winner"], fought["margin"], fought["plague"]) == (None, 0, True)
    assert st.armies[QIN] == (0, 3)


# ---------------------------------------------------------------------------------------
# Side effects of revealed cards.
def test_six_puts_an_army_on_the_marker_from_the_reserve():
    st, _ = fight("Jin-Yan", "6", "2", armies=board(Qin=(2, 0)))
    assert st.markers[JIN_YAN] == (1, 0)
    assert st.armies[JIN_YAN] == (4, 0)
    assert st.armies[QIN] == (2, 0)
    assert st.reserve == (16 - 1 - 4, 18)
    assert totals(st, BLUE) == 21


def test_six_marker_is_paid_even_when_a_plague_cancels_the_battle():
    st, _ = fight("Wu", "6", "plague", armies=board(Wu=(4, 0)))
    assert st.markers[WU] == (1, 0)
    assert st.armies[WU] == (2, 0)
    assert st.reserve == (21 - 3 - 4 - 1 + 2, 18)


def test_both_sixes_in_one_province_each_pay_a_marker_and_tie():
    st, events = fight("Chu", "6", "6", armies=board(Chu=(0, 3)))
    assert st.markers[CHU] == (1, 1)
    assert st.armies[CHU] == (0, 3)
    assert battle_in(events, "Chu")["result"] == "tie"
    assert st.reserve == (17, 21 - 3 - 3 - 1)


def test_six_markers_do_not_count_as_control_or_armies_on_board():
    st, _ = fight("Chu", "6", "6")
    assert st.owner(CHU) is None
    assert st.on_board(BLUE) == st.on_board(RED) == 0


@pytest.mark.parametrize(("card", "cost"), [("+2", 1), ("+3", 2)])
def test_bonus_cards_set_armies_aside_even_under_plague(card, cost):
    st, _ = fight("Wu", card, "plague")
    assert st.aside == (3 + cost, 3)
    assert st.reserve == (18 - cost, 18)
    assert st.armies[WU] == (0, 0)


def test_plus_two_against_plus_three_both_pay_and_red_wins_by_one():
    st, events = fight("Wu", "+2", "+3")
    assert st.aside == (4, 5)
    assert st.armies[WU] == (0, 1)
    assert st.reserve == (17, 18 - 2 - 1)
    assert (battle_in(events, "Wu")["winner"], battle_in(events, "Wu")["margin"]) == ("red", 1)


def test_plus_three_with_one_in_reserve_takes_the_other_from_the_board():
    # Blue: reserve 1, aside 3, 17 in Qin. The second army comes from Qin (the only stack).
    # +3 then beats the 2 by 3; the reserve is empty, so those come from Qin too.
    st, _ = fight("Wu", "+3", "2", armies=board(Qin=(17, 0)), extra=())
    assert st.reserve[BLUE] == 0
    assert st.aside[BLUE] == 5
    assert st.armies[WU] == (3, 0)
    assert st.armies[QIN] == (13, 0)
    assert totals(st, BLUE) == 21


def test_six_with_empty_reserve_and_several_stacks_asks_where_from():
    st = position(
        armies=board(Qin=(10, 0), Chu=(8, 0)),
        hands=(("2", "3", "4", "5", "6", "+1"), ("2", "3", "4", "5", "7", "+1")),
    )
    assert st.reserve == (0, 18)
    st, _ = act(st, "blue", {"type": "place", "cards": cards_of("2", "3", "4", "5", "6")})
    st, _ = act(st, "red", {"type": "place", "cards": cards_of("2", "3", "4", "5", "7")})
    assert RULES.pending(st) == {"blue": "sources"}
    decision = RULES.view(st, "blue")["decision"]
    assert decision["why"] == "six" and decision["need"] == 1
    assert decision["tiers"] == [{"Qin": 10, "Chu": 8}]
    reject(st, "blue", {"type": "sources", "take": {"Qin": 1, "Chu": 1}}, "exactly 1")
    st, _ = act(st, "blue", {"type": "sources", "take": {"Chu": 1}})
    assert st.markers[WU] == (1, 0)
    assert st.armies[CHU] == (7, 0)
    assert st.armies[QIN] == (10, 0)
    assert st.armies[WU] == (0, 1)  # the 6 lost to the 7 by 1


def test_six_cost_may_come_from_the_battle_province_itself():
    # Ruling SIDE_EFFECT_SOURCES_INCLUDE_BATTLE_PROVINCE: the only stack is the battle's.
    # The 6 beats the 2 by 4 but no army can come (reserve empty, Wu itself excluded).
    st, _ = fight("Wu", "6", "2", armies=board(Wu=(18, 0)), reserve=(0, 18), extra=())
    assert st.markers[WU] == (1, 0)
    assert st.armies[WU] == (17, 0)
    assert totals(st, BLUE) == 21


def test_six_with_no_army_anywhere_costs_nothing():
    st, _ = fight("Qin", "6", "7", reserve=(0, 18), aside=(21, 3), extra=())
    assert st.markers[QIN] == (0, 0)
    assert st.armies[QIN] == (0, 1)


# ---------------------------------------------------------------------------------------
# Where the winner's armies come from.
def test_winner_takes_from_reserve_first():
    st, _ = fight("Wu", "5", "9", armies=board(Chu=(0, 3)))
    assert st.armies[WU] == (0, 4)
    assert st.armies[CHU] == (0, 3)
    assert st.reserve[RED] == 15 - 4


def test_winner_then_takes_from_the_only_adjacent_province():
    # Red: reserve 1, no set-aside armies; Chu (adjacent to Wu) 5, Qin (not adjacent) 15.
    st, _ = fight("Wu", "5", "9", armies=board(Chu=(0, 5), Qin=(0, 15)), aside=(3, 0))
    assert st.reserve[RED] == 0
    assert (st.armies[WU], st.armies[CHU], st.armies[QIN]) == ((0, 4), (0, 2), (0, 15))


def test_winner_takes_other_provinces_only_after_the_adjacent_ones():
    # Red reserve 0; Chu (adjacent) 1, Qin (not adjacent) 20: Chu 1 then Qin 3.
    st, _ = fight("Wu", "5", "9", armies=board(Chu=(0, 1), Qin=(0, 20)), aside=(3, 0))
    assert (st.armies[WU], st.armies[CHU], st.armies[QIN]) == ((0, 4), (0, 0), (0, 17))


def test_winner_never_takes_from_the_battle_province():
    st, _ = fight("Wu", "5", "9", armies=board(Wu=(0, 5), Qin=(0, 16)), aside=(3, 0))
    assert (st.armies[WU], st.armies[QIN]) == ((0, 9), (0, 12))


def _choice_position(**kw):
    """Red (reserve 0, nothing set aside) wins Wu by 4 with 2 in Chu and 3 in Han-Qi, both
    adjacent to Wu, and 16 in Qin: a real choice."""
    kw.setdefault("aside", (3, 0))
    return position(
        armies=board(Chu=(0, 2), Han_Qi=(0, 3), Qin=(0, 16)),
        hands=(("2", "3", "4", "7", "5", "+1"), ("2", "3", "4", "7", "9", "+1")),
        **kw,
    )


def _place_both(st, red_extra=None):
    st, _ = act(st, "blue", {"type": "place", "cards": cards_of("2", "3", "4", "7", "5")})
    command = {"type": "place", "cards": cards_of("2", "3", "4", "7", "9"), **(red_extra or {})}
    return act(st, "red", command)


def test_real_choice_of_sources_becomes_a_decision():
    st, _ = _place_both(_choice_position())
    assert RULES.pending(st) == {"red": "sources"}
    assert st.current == WU
    decision = RULES.view(st, "red")["decision"]
    assert decision == {
        "kind": "sources",
        "need": 4,
        "why": "margin",
        "to": "Wu",
        "from_reserve": 0,
        "tiers": [{"Chu": 2, "Han-Qi": 3}, {"Qin": 16}],
    }
    assert RULES.view(st, "blue")["decision"] is None
    st, _ = act(st, "red", {"type": "sources", "take": {"Chu": 2, "Han-Qi": 2}})
    assert (st.armies[WU], st.armies[CHU], st.armies[HAN_QI]) == ((0, 4), (0, 0), (0, 1))
    assert st.armies[QIN] == (0, 16)
    assert RULES.pending(st) == {"blue": "place", "red": "place"}


@pytest.mark.parametrize(
    ("take", "words"),
    [
        ({"Qin": 4}, "take from the adjacent provinces (Chu, Han-Qi) before any other"),
        ({"Chu": 1, "Han-Qi": 2, "Qin": 1}, "before any other"),
        ({"Wu": 4}, "you cannot take armies from Wu for this"),
        ({"Chu": 3, "Han-Qi": 1}, "you have only 2 armies in Chu"),
        ({"Chu": 2, "Han-Qi": 1}, "you must take exactly 4 armies from the board"),
        ({"Chu": 2, "Han-Qi": 3}, "you must take exactly 4 armies from the board"),
        ({"Shu": 4}, "there is no province 'Shu'"),
        ({"Chu": -1}, "take a whole number of armies from Chu"),
        ({"Chu": 2.0}, "whole number"),
        ({"Chu": True}, "whole number"),
    ],
)
def test_bad_source_answers_are_refused(take, words):
    st, _ = _place_both(_choice_position())
    reject(st, "red", {"type": "sources", "take": take}, words)


def test_sources_from_the_wrong_seat_is_refused():
    st, _ = _place_both(_choice_position())
    reject(st, "blue", {"type": "sources", "take": {}}, "waiting for red")


@pytest.mark.parametrize(
    ("supply", "chu", "han_qi"),
    [
        ("largest", 1, 0),  # 3 from Han-Qi, then 1 from Chu
        ("smallest", 0, 1),  # 2 from Chu, then 2 from Han-Qi
        (["Han-Qi", "Chu"], 1, 0),
        (["Chu"], 0, 1),  # unlisted provinces come last
        (["Qin", "Chu"], 0, 1),  # a named far province still waits for the adjacent ones
    ],
)
def test_standing_supply_choice_settles_the_sources(supply, chu, han_qi):
    st, _ = _place_both(_choice_position(), red_extra={"supply": supply})
    assert RULES.pending(st) == {"blue": "place", "red": "place"}
    assert st.armies[WU] == (0, 4)
    assert (st.armies[CHU][RED], st.armies[HAN_QI][RED]) == (chu, han_qi)
    assert st.armies[QIN] == (0, 16)


def test_bad_standing_supply_choice_is_refused():
    st = _choice_position()
    st, _ = act(st, "blue", {"type": "place", "cards": cards_of("2", "3", "4", "7", "5")})
    command = {"type": "place", "cards": cards_of("2", "3", "4", "7", "9"), "supply": "nearest"}
    reject(st, "red", command, 'supply is "largest", "smallest" or a list of provinces')
    command["supply"] = ["Chu", "Shu"]
    reject(st, "red", command, "there is no province 'Shu'")


def test_short_supply_places_what_exists():
    # Red: nothing in reserve or set aside; Wu (the battle province) 19, Qin 2. Red wins Wu
    # by 4: only the 2 in Qin can come (ruling SHORT_SUPPLY_PLACES_WHAT_EXISTS).
    st, _ = fight("Wu", "5", "9", armies=board(Wu=(0, 19), Qin=(0, 2)), aside=(3, 0))
    assert st.armies[WU] == (0, 21)
    assert st.armies[QIN] == (0, 0)
    assert RULES.pending(st) == {"blue": "place", "red": "place"}


def test_short_supply_with_nothing_anywhere_places_nothing():
    st, _ = fight("Wu", "5", "9", armies=board(Wu=(0, 21)), aside=(3, 0))
    assert st.armies[WU] == (0, 21)
    assert RULES.pending(st) == {"blue": "place", "red": "place"}


def test_short_supply_still_removes_the_losers_armies():
    # Blue holds Wu with 2; Red wins by 4 with only 1 army available (Qin): Blue's 2 are
    # removed, Red places the 1 that exists.
    st, _ = fight(
        "Wu",
        "5",
        "9",
        armies=board(Wu=(2, 0), Qin=(0, 1)),
        reserve=(16, 0),
        aside=(3, 20),
        extra=(),
    )
    assert st.armies[WU] == (0, 1)
    assert st.armies[QIN] == (0, 0)
    assert st.reserve[BLUE] == 18


def test_short_winner_with_set_aside_armies_is_offered_a_reinforcement():
    # Red must take from the board (reserve 0) and holds set-aside armies and cards: asked,
    # even though Chu is the only source (ruling OFFER_REINFORCEMENT_WHEN_SHORT).
    st = position(
        armies=board(Chu=(0, 18)),
        hands=(("2", "3", "4", "7", "5", "+1"), ("2", "3", "4", "7", "9", "10", "-1")),
    )
    assert st.reserve == (18, 0) and st.aside == (3, 3)
    st, _ = act(st, "blue", {"type": "place", "cards": cards_of("2", "3", "4", "7", "5")})
    st, _ = act(st, "red", {"type": "place", "cards": cards_of("2", "3", "4", "7", "9")})
    assert RULES.pending(st) == {"red": "sources"}
    legal = RULES.legal(st, "red")
    assert {"type": "sources", "take": {"Chu": 4}} in legal
    assert {"type": "sources", "take": {"Chu": 3}, "reinforce": ["10"]} in legal
    assert {"type": "reinforce", "card": "-1"} in legal
    # Two reinforcements attached to the answer: 2 from the reserve, 2 from Chu.
    command = {"type": "sources", "take": {"Chu": 2}, "reinforce": ["10", "-1"]}
    st, events = act(st, "red", command)
    assert [(e["type"], e["card"]) for e in events[:2]] == [
        ("reinforced", "10"),
        ("reinforced", "-1"),
    ]
    assert st.aside[RED] == 1
    assert st.armies[WU] == (0, 4)
    assert st.armies[CHU] == (0, 16)
    assert st.gone[RED] == ("10", "-1", "7", "9")
    assert st.hands[RED] == ("2", "3", "4")
    assert totals(st, RED) == 21


def test_short_winner_with_a_standing_choice_is_not_asked():
    st = position(
        armies=board(Chu=(0, 18)),
        hands=(("2", "3", "4", "7", "5", "+1"), ("2", "3", "4", "7", "9", "10", "-1")),
    )
    st, _ = act(st, "blue", {"type": "place", "cards": cards_of("2", "3", "4", "7", "5")})
    command = {"type": "place", "cards": cards_of("2", "3", "4", "7", "9"), "supply": "largest"}
    st, _ = act(st, "red", command)
    assert RULES.pending(st) == {"blue": "place", "red": "place"}
    assert (st.armies[WU], st.armies[CHU], st.aside[RED]) == ((0, 4), (0, 14), 3)
