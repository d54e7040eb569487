"""Cases the rules file does not list but a careful reviewer would try, and the rulings of
``rulings.py`` not already pinned down by the other Sun Tzu test files."""

from __future__ import annotations

import random

from sun_tzu_helpers import (
    CHU,
    HAN_QI,
    QIN,
    QUIET,
    WU,
    act,
    board,
    fight,
    lineup,
    of_type,
    only,
    place,
    play_round,
    position,
    quiet_round,
    reject,
    totals,
)

from games.sun_tzu import RULES
from games.sun_tzu.flow import holds

BLUE, RED = 0, 1


# ---------------------------------------------------------------------------------------
# Order of effects inside one battle.
def test_card_cost_is_paid_before_the_plague_halves_the_province():
    # Blue's only armies are the 4 in Wu (reserve empty). The 6's marker army leaves Wu
    # when the 6 is revealed (3 left), then the Plague removes 1 of those 3: 2 remain.
    # (No card left to discard, so no exceptional reinforcement is offered.)
    st, _ = fight(
        "Wu", "6", "plague", armies=board(Wu=(4, 0)), reserve=(0, 18), aside=(17, 3), extra=()
    )
    assert st.markers[WU] == (1, 0)
    assert st.armies[WU] == (2, 0)
    assert st.reserve[BLUE] == 1
    assert totals(st, BLUE) == 21


def test_costs_of_the_loser_can_empty_the_province_before_the_margin():
    # Red holds Wu with 1 and has nothing else (reserve empty, 20 set aside). Red's +3 beats
    # the 8 by 3, but its cost of 2 takes Red's last army (from Wu itself), and then no
    # army is left to place.
    st, _ = fight(
        "Wu",
        "8",
        "+3",
        armies=board(Wu=(0, 1), Qin=(2, 0)),
        reserve=(16, 0),
        aside=(3, 20),
        extra=(),
    )
    assert st.aside[RED] == 21
    assert st.armies[WU] == (0, 0)
    assert st.armies[QIN] == (2, 0)


def test_a_cost_with_a_standing_choice_uses_it():
    st = position(
        armies=board(Qin=(10, 0), Chu=(8, 0)),
        hands=(("2", "3", "4", "5", "6", "+1"), ("2", "3", "4", "5", "7", "+1")),
    )
    st, _ = act(st, "blue", place(["2", "3", "4", "5", "6"], supply="smallest"))
    st, _ = act(st, "red", place(["2", "3", "4", "5", "7"]))
    assert RULES.pending(st) == {"blue": "place", "red": "place"}
    assert (st.armies[QIN], st.armies[CHU], st.markers[WU]) == ((10, 0), (7, 0), (1, 0))


def test_events_wait_until_the_battles_armies_are_all_placed():
    # Red's 10 beats Blue's 9 by 1 with a real choice of sources; Champion challenge (Blue's
    # 9 did not win) only triggers once Red has answered.
    hands = (("2", "3", "4", "7", "9", "+1"), ("2", "3", "4", "7", "10", "+1"))
    st = position(
        armies=board(Chu=(0, 2), Han_Qi=(0, 3), Qin=(0, 16)),
        aside=(3, 0),
        hands=hands,
        events=("champion_challenge", "light_infantry", "epidemic"),
    )
    st, _ = act(st, "blue", place(["2", "3", "4", "7", "9"]))
    st, events = act(st, "red", place(["2", "3", "4", "7", "10"]))
    assert RULES.pending(st) == {"red": "sources"}
    assert not of_type(events, "event_triggered")
    assert st.aside == (3, 0)
    st, events = act(st, "red", {"type": "sources", "take": {"Han-Qi": 1}})
    assert only(events, "event_triggered")["card"] == "champion_challenge"
    assert st.aside == (4, 0)
    assert st.armies[WU] == (0, 1) and st.armies[HAN_QI] == (0, 2)


def test_a_recycled_plague_does_not_count_again_for_epidemic():
    # Round 1: Red's Plague (the 3rd Plague card played) is recycled onto an empty deck and
    # drawn back. Round 2: the same Plague revealed again is not a 4th Plague card: Red's
    # other Plague was never played (rulings.EPIDEMIC_PLAGUES), so no Epidemic.
    blue, red = lineup("Wu", "3", "plague")
    st = position(
        kept=((), ("plague_recycle",)),
        events=("epidemic", "light_infantry", "war_chariot"),
        plagues_played=2,
        hands=((*blue, "+1"), (*red, "+1")),
    )
    st, _ = play_round(st, blue, red, None, {"arm": {"plague_recycle": True}})
    assert st.plagues_played == 3 and st.event_up == "epidemic"
    assert "plague" in st.hands[RED] and st.plague_back == (None, -1)
    st, events = play_round(st, ["2", "4", "5", "+1", "3"], ["2", "4", "5", "+1", "plague"])
    assert st.plagues_played == 3 and st.plague_back == (None, None)
    assert not of_type(events, "event_triggered")
    assert st.event_up == "epidemic" and st.aside == (3, 3)


# ---------------------------------------------------------------------------------------
# Warlord corner cases.
def test_warlord_plays_take_effect_in_the_order_given():
    # With two Warlords (War chariot), Blue manoeuvres into empty Chu and then reinforces
    # Chu. The rules: plays "take effect, in the order given"; the second play is valid once
    # the first has taken effect.
    st = position(kept=(("reinforce", "manoeuvre"), ()), armies=board(Qin=(2, 0)))
    plays = [
        {"warlord": "manoeuvre", "from": "Qin", "to": "Chu"},
        {"warlord": "reinforce", "province": "Chu"},
    ]
    st, _ = quiet_round(st, blue_extra={"warlords": plays})
    assert st.armies[QIN] == (1, 0)
    assert st.armies[CHU] == (2, 0)


def test_remove_finds_no_army_on_a_marker():
    st = position(kept=((), ("remove",)), markers=board(Wu=(1, 0)))
    st, _ = act(st, "blue", place(QUIET))
    reject(st, "red", place(QUIET, warlords=[{"warlord": "remove", "province": "Wu"}]), "no army")


def test_manoeuvre_into_a_province_holding_only_an_opponents_marker():
    # A 6-marker alone does not make a province held: Manoeuvre into it is fine.
    st = position(kept=(("manoeuvre",), ()), armies=board(Qin=(2, 0)), markers=board(Chu=(0, 1)))
    play = {"warlord": "manoeuvre", "from": "Qin", "to": "Chu"}
    st, _ = quiet_round(st, blue_extra={"warlords": [play]})
    assert st.armies[CHU] == (1, 0)


def test_war_chariot_with_no_unused_warlord_gives_nothing():
    kept = (("reinforce", "minus_recycle", "manoeuvre", "restraint"), ())
    st, events = fight(
        "Wu",
        "6",
        "2",
        events=("war_chariot", "epidemic"),
        kept=kept,
        markers=board(Qin=(1, 0), Chu=(1, 0)),
    )
    assert only(events, "event_triggered")["card"] == "war_chariot"
    assert st.extra == (0, 0)
    assert RULES.pending(st) == {"blue": "place", "red": "place"}


def test_extra_warlord_can_be_played_like_any_other():
    st, _ = fight(
        "Wu",
        "2",
        "6",
        events=("war_chariot", "epidemic"),
        kept=((), ("remove",)),
        markers=board(Qin=(0, 1), Chu=(0, 1)),
        armies=board(Han_Qi=(5, 0)),
    )
    st, _ = act(st, "red", {"type": "extra_warlord", "warlord": "deadly_plague"})
    assert st.kept[RED] == ("remove", "deadly_plague")
    st = st.copy()
    st.hands = (("2", "3", "4", "5", "7"), ("2", "3", "4", "5", "plague"))
    st, _ = play_round(
        st,
        ["2", "3", "4", "5", "7"],
        ["2", "3", "4", "plague", "5"],
        None,
        {"warlords": [{"warlord": "deadly_plague"}], "order": ["Han-Qi"]},
    )
    assert st.armies[HAN_QI] == (1, 0)
    assert st.spent[RED] == ("deadly_plague",)
    assert holds(st, RED, "remove")


def test_fizzled_warlord_is_shown_to_both():
    st = position(kept=(("manoeuvre",), ("remove",)), armies=board(Qin=(1, 0)))
    st, events = quiet_round(
        st,
        blue_extra={"warlords": [{"warlord": "manoeuvre", "from": "Qin", "to": "Chu"}]},
        red_extra={"warlords": [{"warlord": "remove", "province": "Qin"}]},
    )
    fizzled = only(events, "warlord_played", warlord="remove")
    assert RULES.redact(fizzled, "blue") == fizzled
    assert RULES.view(st, "blue")["players"]["red"]["warlords_played"] == []


# ---------------------------------------------------------------------------------------
# Hands, decks and placements at the limits.
def test_six_markers_everywhere_leave_a_legal_placement():
    hand = ("1", "2", "3", "4", "5", "6")
    st = position(markers=((1, 0),) * 5, hands=(hand, hand))
    placements = [c for c in RULES.legal(st, "blue") if c["type"] == "place"]
    assert len(placements) == 120  # 5! orders of 1-5; the 6 fits nowhere
    assert all("6" not in c["cards"].values() for c in placements)
    act(st, "blue", placements[0])


def test_a_hand_of_framed_cards_only_offers_no_reinforcement():
    st = position(hands=(("1", "2", "3", "4", "5", "6"),) * 2)
    assert [c for c in RULES.legal(st, "blue") if c["type"] == "reinforce"] == []


def test_decks_run_dry_over_several_rounds():
    # One card left: drawn and kept without a question; then nothing more to draw.
    st = position(decks=(("9",), ("10",)), hands=((*QUIET, "1", "6"), (*QUIET, "1", "6")))
    st, _ = quiet_round(st)
    assert st.round == 2 and st.decks == ((), ())
    assert "9" in st.hands[BLUE] and "10" in st.hands[RED]
    st, _ = play_round(
        st,
        ["2", "3", "4", "5", "9"],
        ["2", "3", "4", "5", "10"],
        {"order": ["Qin", "Chu", "Jin-Yan", "Han-Qi", "Wu"]},
    )
    assert st.round == 3
    assert RULES.pending(st) == {"blue": "place", "red": "place"}


def test_view_shows_the_value_of_the_next_scoring():
    for round_, column in ((1, 0), (3, 0), (4, 1), (6, 1), (7, 2), (9, 2)):
        view = RULES.view(position(round=round_), "blue")
        assert [p["value"] for p in view["provinces"]] == [
            d[column] for d in ((3, 1, 5), (2, 3, 2), (1, 2, 4), (2, 5, 2), (1, 3, 5))
        ]


def test_view_counts_armies_on_board_without_markers():
    st = position(armies=board(Qin=(3, 0), Wu=(0, 2)), markers=board(Chu=(1, 1)))
    view = RULES.view(st, None)
    assert view["players"]["blue"]["on_board"] == 3
    assert view["players"]["red"]["on_board"] == 2
    assert view["provinces"][CHU]["markers"] == {"blue": 1, "red": 1}
    assert view["players"]["blue"]["hand"] is None


def test_resign_during_the_warlord_choice():
    st = RULES.fold(RULES.setup({}, random.Random(0)))
    st, _ = act(st, "red", {"type": "resign"})
    assert (st.outcome["winner"], st.outcome["reason"]) == ("blue", "forfeit")


def test_several_reinforcements_in_one_command_are_checked_one_by_one():
    st = position(aside=(1, 3))
    reject(st, "blue", {"type": "resign", "reinforce": ["8", "9"]}, "set-aside pool is empty")
    st = position(hands=(("1", "2", "3", "4", "5", "6", "8"), ()))
    reject(st, "blue", place(["1", "2", "3", "4", "5"], reinforce=["8", "8"]), "no '8' in hand")
    st, _ = act(st, "blue", place(["1", "2", "3", "4", "5"], reinforce=["8"]))
    assert st.aside[BLUE] == 2 and st.hands[BLUE] == ("6",)


def test_minus_recycle_fires_even_when_a_plague_cancels_the_battle():
    st, events = fight(
        "Chu",
        "-1",
        "plague",
        kept=(("minus_recycle",), ()),
        decks=(("9",), ()),
        blue_extra={"arm": {"minus_recycle": True}},
    )
    assert only(events, "card_recycled")["burned"] == "9"
    assert st.decks[BLUE] == () and "-1" in st.hands[BLUE]
