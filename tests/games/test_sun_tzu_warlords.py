"""Known answers for every Warlord, the order of their plays and the after-battles window."""

from __future__ import annotations

import pytest
from sun_tzu_helpers import (
    CHU,
    HAN_QI,
    QIN,
    QUIET,
    WU,
    act,
    battle_in,
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


def warlords(blue=(), red=(), **kw):
    """A position where Blue kept ``blue`` and Red kept ``red`` Warlords."""
    return position(kept=(tuple(blue), tuple(red)), **kw)


def play(warlord, **targets):
    return {"warlords": [{"warlord": warlord, **targets}]}


# ---------------------------------------------------------------------------------------
# Remove (Red, rounds 1-6).
def test_remove_takes_one_army_back_to_its_owners_reserve():
    st = warlords(red=["remove"], armies=board(Qin=(3, 0)))
    st, events = quiet_round(st, red_extra=play("remove", province="Qin"))
    played = only(events, "warlord_played", warlord="remove")
    assert played["visible_to"] == "all" and played["seat"] == "red"
    assert st.armies[QIN] == (2, 0)
    assert st.reserve[BLUE] == 21 - 3 - 2
    assert st.spent[RED] == ("remove",)
    assert not holds(st, RED, "remove")
    assert totals(st, BLUE) == 21


def test_remove_may_take_an_own_army():
    st = warlords(red=["remove"], armies=board(Wu=(0, 2)))
    st, _ = quiet_round(st, red_extra=play("remove", province="Wu"))
    assert st.armies[WU] == (0, 1)
    assert st.reserve[RED] == 21 - 3 - 1


def test_remove_can_empty_a_province():
    st = warlords(red=["remove"], armies=board(Qin=(1, 0)))
    st, _ = quiet_round(st, red_extra=play("remove", province="Qin"))
    assert st.armies[QIN] == (0, 0)
    assert st.owner(QIN) is None


@pytest.mark.parametrize(
    ("targets", "words"),
    [
        ({"province": "Wu"}, "there is no army to remove in Wu"),
        ({}, "Remove needs a province"),
        ({"province": "Shu"}, "Remove needs a province"),
    ],
)
def test_bad_remove_plays(targets, words):
    st = warlords(red=["remove"], armies=board(Qin=(3, 0)))
    st, _ = act(st, "blue", place(QUIET))
    reject(st, "red", place(QUIET, **play("remove", **targets)), words)


def test_warlords_not_held_or_played_twice_are_refused():
    st = warlords(blue=["reinforce"], red=["remove"], armies=board(Qin=(3, 0)))
    reject(st, "blue", place(QUIET, **play("remove", province="Qin")), "you do not hold remove")
    reject(st, "blue", place(QUIET, **play("double_six")), "you do not hold double_six")
    reject(st, "red", place(QUIET, **play("manoeuvre")), "you do not hold manoeuvre")
    command = place(QUIET, warlords=[{"warlord": "remove", "province": "Qin"}] * 2)
    reject(st, "red", command, "you can play remove only once")
    reject(st, "red", place(QUIET, warlords={"warlord": "remove"}), "warlords is a list")
    reject(st, "red", place(QUIET, warlords=["remove"]), "a Warlord play is an object")
    command = place(QUIET, **play("counter_plague"))
    reject(st, "red", command, "'counter_plague' is not a Warlord you play with targets")
    st2 = warlords(red=["remove"], spent=((), ("remove",)), armies=board(Qin=(3, 0)))
    reject(st2, "red", place(QUIET, **play("remove", province="Qin")), "you do not hold remove")


@pytest.mark.parametrize("warlord", ["remove", "reinforce", "manoeuvre"])
def test_early_warlords_are_limited_to_rounds_1_to_6(warlord):
    seat, kept = ("red", ((), (warlord,))) if warlord == "remove" else ("blue", ((warlord,), ()))
    targets = {"from": "Qin", "to": "Chu"} if warlord == "manoeuvre" else {"province": "Qin"}
    for round_ in (6, 7, 9):
        st = position(round=round_, kept=kept, armies=board(Qin=(3, 0)))
        command = place(QUIET, **play(warlord, **targets))
        if round_ <= 6:
            act(st, seat, command)
        else:
            reject(st, seat, command, f"{warlord} can only be played in rounds 1 to 6")


def test_remove_before_the_privilege_is_settled():
    # 4 against 4 and Red held the privilege; Red removes a Blue army first, so Blue (3)
    # holds the privilege this round.
    st = warlords(red=["remove"], round=2, privilege=RED, armies=board(Qin=(4, 0), Wu=(0, 4)))
    st, events = play_round(st, QUIET, QUIET, None, play("remove", province="Qin"))
    assert only(events, "privilege_settled")["holder"] == "blue"
    assert RULES.pending(st) == {"blue": "next_province"}


# ---------------------------------------------------------------------------------------
# Reinforce (Blue, rounds 1-6).
def test_reinforce_places_one_army_from_the_reserve_in_a_controlled_province():
    st = warlords(blue=["reinforce"], armies=board(Han_Qi=(2, 0)))
    st, events = quiet_round(st, blue_extra=play("reinforce", province="Han-Qi"))
    assert only(events, "warlord_played", warlord="reinforce")["visible_to"] == "all"
    assert st.armies[HAN_QI] == (3, 0)
    assert st.reserve[BLUE] == 21 - 3 - 3
    assert st.spent[BLUE] == ("reinforce",)


@pytest.mark.parametrize(
    ("targets", "kw", "words"),
    [
        ({"province": "Wu"}, {}, "you do not control Wu, so you cannot reinforce it"),
        ({"province": "Chu"}, {}, "you do not control Chu"),  # Red's
        ({}, {}, "Reinforce needs a province you control"),
        ({"province": "Han-Qi"}, {"reserve": (0, 16), "aside": (19, 3)}, "reserve is empty"),
    ],
)
def test_bad_reinforce_plays(targets, kw, words):
    st = warlords(blue=["reinforce"], armies=board(Han_Qi=(2, 0), Chu=(0, 2)), **kw)
    reject(st, "blue", place(QUIET, **play("reinforce", **targets)), words)


# ---------------------------------------------------------------------------------------
# Manoeuvre (Blue, rounds 1-6).
@pytest.mark.parametrize(
    ("to", "before", "after"),
    [
        ("Chu", (0, 0), (1, 0)),  # empty
        ("Chu", (2, 0), (3, 0)),  # Blue's own
    ],
)
def test_manoeuvre_moves_one_army_to_an_adjacent_empty_or_own_province(to, before, after):
    st = warlords(blue=["manoeuvre"], armies=board(Qin=(3, 0), Chu=before))
    st, events = quiet_round(st, blue_extra=play("manoeuvre", **{"from": "Qin", "to": to}))
    assert only(events, "warlord_played", warlord="manoeuvre")["visible_to"] == "all"
    assert st.armies[QIN] == (2, 0)
    assert st.armies[CHU] == after
    assert st.reserve[BLUE] == 21 - 3 - 3 - before[0]


def test_manoeuvre_may_leave_a_province_empty():
    st = warlords(blue=["manoeuvre"], armies=board(Wu=(1, 0)))
    st, _ = quiet_round(st, blue_extra=play("manoeuvre", **{"from": "Wu", "to": "Han-Qi"}))
    assert st.armies[WU] == (0, 0) and st.armies[HAN_QI] == (1, 0)


@pytest.mark.parametrize(
    ("source", "to", "words"),
    [
        ("Qin", "Wu", "Wu is not adjacent to Qin"),
        ("Jin-Yan", "Chu", "Chu is not adjacent to Jin-Yan"),
        ("Qin", "Han-Qi", "Han-Qi is held by your opponent"),
        ("Wu", "Chu", "you have no army in Wu to move"),
        ("Qin", None, "Manoeuvre needs a province to move from and an adjacent one"),
    ],
)
def test_bad_manoeuvres(source, to, words):
    st = warlords(blue=["manoeuvre"], armies=board(Qin=(3, 0), Jin_Yan=(1, 0), Han_Qi=(0, 2)))
    reject(st, "blue", place(QUIET, **play("manoeuvre", **{"from": source, "to": to})), words)


# ---------------------------------------------------------------------------------------
# The order of plays before the battles, and fizzled plays.
def test_first_placer_plays_first_and_a_fizzled_warlord_stays_in_hand():
    # Blue placed first: Manoeuvre empties Qin, so Red's Remove on Qin finds nothing there.
    st = warlords(blue=["manoeuvre"], red=["remove"], armies=board(Qin=(1, 0)))
    st, events = quiet_round(
        st,
        blue_extra=play("manoeuvre", **{"from": "Qin", "to": "Chu"}),
        red_extra=play("remove", province="Qin"),
        first="blue",
    )
    down = only(events, "cards_down")
    assert [seat for seat, _ in down["plays"]] == ["blue", "red"]
    fizzled = only(events, "warlord_played", warlord="remove")
    assert fizzled["fizzled"] is True and fizzled["visible_to"] == "all"
    assert st.armies[QIN] == (0, 0) and st.armies[CHU] == (1, 0)
    assert holds(st, RED, "remove")
    assert st.spent == (("manoeuvre",), ())


def test_when_red_places_first_red_plays_first():
    st = warlords(blue=["manoeuvre"], red=["remove"], armies=board(Qin=(1, 0)))
    st, events = quiet_round(
        st,
        blue_extra=play("manoeuvre", **{"from": "Qin", "to": "Chu"}),
        red_extra=play("remove", province="Qin"),
        first="red",
    )
    assert [seat for seat, _ in only(events, "cards_down")["plays"]] == ["red", "blue"]
    assert st.armies[QIN] == (0, 0) and st.armies[CHU] == (0, 0)
    assert st.reserve[BLUE] == 21 - 3
    assert holds(st, BLUE, "manoeuvre")
    assert only(events, "warlord_played", warlord="manoeuvre")["fizzled"] is True
    assert st.spent == ((), ("remove",))


def test_warlord_plays_stay_secret_until_both_have_placed():
    st = warlords(red=["remove"], armies=board(Qin=(3, 0)))
    st, events = act(st, "red", place(QUIET, **play("remove", province="Qin")))
    assert only(events, "placed")["visible_to"] == "red"
    assert "plan" not in RULES.redact(only(events, "placed"), "blue")
    assert RULES.view(st, "blue").get("plan") is None
    assert RULES.view(st, "red")["plan"]["warlords"] == [{"warlord": "remove", "province": "Qin"}]
    assert st.armies[QIN] == (3, 0)


# ---------------------------------------------------------------------------------------
# Counter-plague (Red, armed).
def test_counter_plague_makes_the_plague_a_plain_zero():
    # Blue holds Wu with 4 and plays a Plague; Red's 3 wins by 3 instead.
    st, events = fight(
        "Wu",
        "plague",
        "3",
        kept=((), ("counter_plague",)),
        armies=board(Wu=(4, 0)),
        red_extra={"arm": {"counter_plague": True}},
    )
    fought = battle_in(events, "Wu")
    assert fought["fired"] == {"red": ["counter_plague"]}
    assert (fought["plague"], fought["winner"], fought["margin"]) == (False, "red", 3)
    assert st.armies[WU] == (1, 0)
    assert st.spent[RED] == ("counter_plague",)
    # It is still a Plague revealed, for Epidemic.
    assert st.plagues_played == 1


def test_counter_plague_fires_on_the_first_plague_only():
    blue = ["plague", "3", "4", "5", "plague"]
    red = ["2", "3", "4", "5", "7"]
    st = position(
        kept=((), ("counter_plague",)),
        armies=board(Qin=(0, 4), Wu=(0, 6)),
        hands=(tuple(blue), tuple(red)),
    )
    st, events = play_round(st, blue, red, None, {"arm": {"counter_plague": True}})
    assert battle_in(events, "Qin")["fired"] == {"red": ["counter_plague"]}
    assert st.armies[QIN] == (0, 6)  # red 2 beat the 0 by 2
    assert battle_in(events, "Wu")["fired"] == {}
    assert st.armies[WU] == (0, 3)  # an ordinary Plague


def test_counter_plague_not_armed_stays_in_hand():
    st, _ = fight("Wu", "plague", "3", kept=((), ("counter_plague",)), armies=board(Wu=(4, 0)))
    assert st.armies[WU] == (2, 0)
    assert holds(st, RED, "counter_plague")


def test_counter_plague_ignores_reds_own_plague():
    st, events = fight(
        "Wu",
        "3",
        "plague",
        kept=((), ("counter_plague",)),
        armies=board(Wu=(4, 0)),
        red_extra={"arm": {"counter_plague": True}},
    )
    assert st.armies[WU] == (2, 0)
    assert holds(st, RED, "counter_plague")
    assert battle_in(events, "Wu")["fired"] == {}


@pytest.mark.parametrize(
    ("arm", "words"),
    [
        ({"counter_plague": "yes"}, "arm counter_plague with true or false"),
        ({"remove": True}, "'remove' is not a Warlord that fires by itself"),
        ({"plague_recycle": True}, "you do not hold plague_recycle"),
        (["counter_plague"], "arm is an object"),
    ],
)
def test_bad_arming(arm, words):
    st = warlords(red=["counter_plague"])
    reject(st, "red", place(QUIET, arm=arm), words)


# ---------------------------------------------------------------------------------------
# Plague recycle (Red) and Minus recycle (Blue).
def test_plague_recycle_puts_the_plague_under_the_deck_and_burns_the_top_card():
    st, events = fight(
        "Wu",
        "3",
        "plague",
        kept=((), ("plague_recycle",)),
        decks=((), ("7", "8")),
        armies=board(Wu=(4, 0)),
        red_extra={"arm": {"plague_recycle": True}},
    )
    recycled = only(events, "card_recycled")
    assert recycled["visible_to"] == "red" and recycled["burned"] == "7"
    assert RULES.redact(recycled, "blue")["burned"] == "hidden"
    assert st.armies[WU] == (2, 0)
    assert st.spent[RED] == ("plague_recycle",)
    assert st.burned[RED] == ("7",)
    assert "plague" not in st.gone[RED]
    # then the draw: 8 and plague come back up; Red keeps one.
    assert st.drawn[RED] == ("8", "plague")


def test_plague_recycle_onto_an_empty_deck_burns_nothing():
    st, events = fight(
        "Wu",
        "3",
        "plague",
        kept=((), ("plague_recycle",)),
        red_extra={"arm": {"plague_recycle": True}},
    )
    assert only(events, "card_recycled")["burned"] is None
    assert st.burned[RED] == ()
    # The only card in the deck is drawn again at the end of the round.
    assert "plague" in st.hands[RED]
    assert st.decks[RED] == ()


def test_plague_recycle_is_used_once():
    blue = ["2", "3", "4", "5", "7"]
    red = ["plague", "3", "4", "5", "plague"]
    st = position(
        kept=((), ("plague_recycle",)),
        hands=(tuple(blue), tuple(red)),
        decks=((), ("9", "10", "+1")),
    )
    st, events = play_round(st, blue, red, None, {"arm": {"plague_recycle": True}})
    assert [e["province"] for e in of_type(events, "card_recycled")] == ["Qin"]
    assert st.gone[RED] == ("plague",)
    assert st.burned[RED] == ("9",)


def test_plague_recycle_not_armed_does_nothing():
    st, events = fight("Wu", "3", "plague", kept=((), ("plague_recycle",)), decks=((), ("7",)))
    assert not of_type(events, "card_recycled")
    assert st.gone[RED] == ("7", "plague")
    assert st.decks[RED] == () and "plague" not in st.hands[RED]
    assert holds(st, RED, "plague_recycle")


def test_minus_recycle():
    st, events = fight(
        "Chu",
        "-1",
        "5",
        kept=(("minus_recycle",), ()),
        decks=(("9", "10", "+2"), ()),
        blue_extra={"arm": {"minus_recycle": True}},
    )
    assert only(events, "card_recycled")["card"] == "-1"
    assert st.armies[CHU] == (0, 1)
    assert st.burned[BLUE] == ("9",)
    assert st.drawn[BLUE] == ("10", "+2")
    assert st.decks[BLUE] == ("-1",)
    assert "-1" not in st.gone[BLUE]
    assert st.spent[BLUE] == ("minus_recycle",)


def test_minus_recycle_does_not_fire_for_reds_minus():
    st, events = fight(
        "Chu",
        "5",
        "-1",
        kept=(("minus_recycle",), ()),
        blue_extra={"arm": {"minus_recycle": True}},
    )
    assert not of_type(events, "card_recycled")
    assert holds(st, BLUE, "minus_recycle")


# ---------------------------------------------------------------------------------------
# Deadly plague (Red).
@pytest.mark.parametrize(("armies", "left"), [(5, 1), (2, 1), (1, 1), (9, 1)])
def test_deadly_plague_removes_all_but_one(armies, left):
    st, events = fight(
        "Han-Qi",
        "9",
        "plague",
        kept=((), ("deadly_plague",)),
        armies=board(Han_Qi=(armies, 0)),
        red_extra=play("deadly_plague"),
    )
    assert only(events, "warlord_played", warlord="deadly_plague")["visible_to"] == "all"
    assert battle_in(events, "Han-Qi")["deadly"] is True
    assert st.armies[HAN_QI] == (left, 0)
    assert st.reserve[BLUE] == 21 - 3 - left


def test_deadly_plague_does_not_strengthen_blues_plague():
    st, _ = fight(
        "Han-Qi",
        "plague",
        "9",
        kept=((), ("deadly_plague",)),
        armies=board(Han_Qi=(0, 6)),
        red_extra=play("deadly_plague"),
    )
    assert st.armies[HAN_QI] == (0, 3)


def test_deadly_plague_applies_where_both_played_a_plague():
    st, _ = fight(
        "Han-Qi",
        "plague",
        "plague",
        kept=((), ("deadly_plague",)),
        armies=board(Han_Qi=(6, 0)),
        red_extra=play("deadly_plague"),
    )
    assert st.armies[HAN_QI] == (1, 0)


def test_deadly_plague_lasts_one_round():
    blue, red = lineup("Wu", "9", "plague")
    st = position(
        kept=((), ("deadly_plague",)),
        armies=board(Wu=(6, 0)),
        hands=((*blue, "2"), (*red, "plague")),
    )
    st, _ = play_round(st, blue, red, None, play("deadly_plague"))
    assert st.armies[WU] == (1, 0) and st.deadly is False
    st = st.copy()
    st.armies = board(Wu=(6, 0))
    st.reserve = (12, 18)
    st.hands = ((*blue, "2"), (*red, "plague"))
    order = {"order": ["Qin", "Chu", "Jin-Yan", "Han-Qi", "Wu"]}
    st, _ = play_round(st, blue, red, order, order)
    assert st.round == 3
    assert st.armies[WU] == (3, 0)


# ---------------------------------------------------------------------------------------
# Double six (Red).
def test_double_six_puts_a_second_marker_army():
    blue, red = lineup("Wu", "2", "6")
    st = position(kept=((), ("double_six",)), markers=board(Wu=(0, 1)), hands=(blue, red))
    reject(st, "red", place(red), "your 6-marker already stands in Wu; your 6 cannot go there")
    st, events = play_round(st, blue, red, None, play("double_six"))
    # Announcing Double six before the reveal would show where the 6 lies.
    assert only(events, "cards_down")["plays"] == []
    assert battle_in(events, "Wu")["fired"] == {"red": ["double_six"]}
    assert st.markers[WU] == (0, 2)
    assert st.armies[WU] == (0, 4)
    assert st.spent[RED] == ("double_six",)
    assert st.reserve[RED] == 21 - 3 - 2 - 4


def test_double_six_needs_the_six_on_the_marker():
    st = position(kept=((), ("double_six",)), markers=board(Wu=(0, 1)))
    words = "Double six is played with a 6 placed where your 6-marker stands"
    reject(st, "red", place(["6", "2", "3", "4", "5"], **play("double_six")), words)
    reject(st, "red", place(QUIET, **play("double_six")), words)


def test_legal_placements_offer_double_six_only_where_needed():
    hand = ("2", "3", "4", "5", "6")
    st = position(kept=((), ("double_six",)), markers=board(Wu=(0, 1)), hands=(hand, hand))
    legal = [c for c in RULES.legal(st, "red") if c["type"] == "place"]
    on_marker = [c for c in legal if c["cards"]["Wu"] == "6"]
    assert on_marker and all(c["warlords"] == [{"warlord": "double_six"}] for c in on_marker)
    assert all("warlords" not in c for c in legal if c["cards"]["Wu"] != "6")
    st2 = position(markers=board(Wu=(0, 1)), hands=(hand, hand))
    assert all(c["cards"]["Wu"] != "6" for c in RULES.legal(st2, "red") if c["type"] == "place")


# ---------------------------------------------------------------------------------------
# Restraint (Blue, armed with a province).
def test_restraint_makes_a_7_to_10_count_as_6_without_a_marker():
    st, events = fight(
        "Wu",
        "9",
        "8",
        kept=(("restraint",), ()),
        blue_extra={"arm": {"restraint": "Wu"}},
    )
    fought = battle_in(events, "Wu")
    assert fought["fired"] == {"blue": ["restraint"]}
    assert fought["values"]["blue"] == ["number", 6]
    assert (fought["winner"], fought["margin"]) == ("red", 2)
    assert st.armies[WU] == (0, 2)
    assert st.markers[WU] == (0, 0)
    assert st.spent[BLUE] == ("restraint",)


def test_restraint_does_not_fire_on_other_cards_or_provinces():
    st, _ = fight(
        "Wu", "5", "4", kept=(("restraint",), ()), blue_extra={"arm": {"restraint": "Wu"}}
    )
    assert st.armies[WU] == (1, 0)
    assert holds(st, BLUE, "restraint")
    st, _ = fight(
        "Wu", "9", "8", kept=(("restraint",), ()), blue_extra={"arm": {"restraint": "Qin"}}
    )
    assert st.armies[WU] == (1, 0)
    assert holds(st, BLUE, "restraint")


def test_restraint_needs_a_province():
    st = warlords(blue=["restraint"])
    reject(st, "blue", place(QUIET, arm={"restraint": "Shu"}), "arm Restraint with the province")
    reject(st, "blue", place(QUIET, arm={"restraint": True}), "arm Restraint with the province")


# ---------------------------------------------------------------------------------------
# The after-battles window (rounds 3 and 6).
def _window(round_=3, blue=("reinforce",), red=("remove",), **kw):
    kw.setdefault("armies", board(Qin=(1, 0), Wu=(0, 1)))
    st = warlords(blue=blue, red=red, round=round_, **kw)
    st, _ = quiet_round(st)
    return st


def test_window_opens_after_the_battles_of_round_3_for_both():
    st = _window()
    assert st.phase == "after"
    assert RULES.pending(st) == {"blue": "after_battles", "red": "after_battles"}
    decision = RULES.view(st, "blue")["decision"]
    assert decision["kind"] == "after_battles"
    assert decision["warlord_plays"] == [{"warlord": "reinforce", "province": "Qin"}]
    # Red's Remove may target either army.
    red_plays = RULES.view(st, "red")["decision"]["warlord_plays"]
    assert {p["province"] for p in red_plays} == {"Qin", "Wu"}


def test_window_plays_happen_before_scoring():
    # Qin is worth 3 and Wu 1 at round 3. Red removes Blue's only army in Qin: Blue scores 0.
    st = _window()
    st, events = act(st, "blue", {"type": "after_battles", "warlords": []})
    assert only(events, "after_battles_chosen")["visible_to"] == "blue"
    assert RULES.pending(st) == {"red": "after_battles"}
    st, events = act(
        st, "red", {"type": "after_battles", "warlords": [{"warlord": "remove", "province": "Qin"}]}
    )
    assert only(events, "scored")["points"] == {"blue": 0, "red": 1}
    assert st.score == -1
    assert st.spent[RED] == ("remove",)
    assert holds(st, BLUE, "reinforce")


def test_window_plays_of_both_players():
    st = _window()
    reinforce = {"type": "after_battles", "warlords": [{"warlord": "reinforce", "province": "Qin"}]}
    st, _ = act(st, "blue", reinforce)
    remove = {"type": "after_battles", "warlords": [{"warlord": "remove", "province": "Qin"}]}
    st, events = act(st, "red", remove)
    # Blue's Reinforce (answered first) then Red's Remove: Blue still holds Qin with 1.
    assert st.armies[QIN] == (1, 0)
    assert only(events, "scored")["points"] == {"blue": 3, "red": 1}
    assert st.spent == (("reinforce",), ("remove",))


def test_window_in_round_6_and_not_in_other_rounds():
    assert RULES.pending(_window(round_=6)) == {"blue": "after_battles", "red": "after_battles"}
    for round_ in (1, 2, 4, 5):
        st = _window(round_=round_)
        assert st.phase == "place" and st.round == round_ + 1
    st = _window(round_=9)
    assert st.phase == "over"


def test_window_asks_every_holder_of_an_unplayed_warlord_but_nobody_else():
    # Red holds Counter-plague, which cannot be played here; Red is asked all the same so
    # that being asked reveals nothing. Blue's Head start is already played: not asked.
    st = _window(blue=("head_start",), red=("counter_plague",), spent=(("head_start",), ()))
    assert RULES.pending(st) == {"red": "after_battles"}
    answers = [c for c in RULES.legal(st, "red") if c["type"] == "after_battles"]
    assert answers == [{"type": "after_battles", "warlords": []}]
    words = "counter_plague"
    command = {"type": "after_battles", "warlords": [{"warlord": "counter_plague"}]}
    reject(st, "red", command, words)
    st, events = act(st, "red", {"type": "after_battles", "warlords": []})
    assert of_type(events, "scored")


def test_no_window_when_nobody_holds_an_unplayed_warlord():
    st = _window(blue=("reinforce",), red=("remove",), spent=(("reinforce",), ("remove",)))
    assert st.round == 4 and st.phase == "place"


@pytest.mark.parametrize(
    ("play_", "words"),
    [
        ({"warlord": "deadly_plague"}, "deadly_plague cannot be played after the battles"),
        ({"warlord": "double_six"}, "double_six cannot be played after the battles"),
        ({"warlord": "remove", "province": "Chu"}, "there is no army to remove in Chu"),
        ({"warlord": "reinforce", "province": "Qin"}, "you do not hold reinforce"),
    ],
)
def test_bad_window_plays(play_, words):
    st = _window(red=("remove", "deadly_plague", "double_six"))
    reject(st, "red", {"type": "after_battles", "warlords": [play_]}, words)


def test_window_answer_twice_or_out_of_turn_is_refused():
    st = _window()
    st, _ = act(st, "blue", {"type": "after_battles", "warlords": []})
    reject(st, "blue", {"type": "after_battles", "warlords": []}, "waiting for red")
    st2 = warlords(blue=["reinforce"], armies=board(Qin=(1, 0)))
    reject(st2, "blue", {"type": "after_battles", "warlords": []}, "first place your cards")


def test_early_warlords_in_the_round_6_window():
    st = _window(round_=6, blue=("manoeuvre",), red=("counter_plague",))
    command = {
        "type": "after_battles",
        "warlords": [{"warlord": "manoeuvre", "from": "Qin", "to": "Chu"}],
    }
    st, _ = act(st, "blue", command)
    st, events = act(st, "red", {"type": "after_battles", "warlords": []})
    # Round 6 values: Qin 1, Chu 3, Wu 3.
    assert only(events, "scored")["points"] == {"blue": 3, "red": 3}
    assert st.armies[CHU] == (1, 0)
