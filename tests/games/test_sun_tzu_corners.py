"""Known answers for rules corners (issue 13): Epidemic counting Plague cards, exceptional
reinforcement offered for every army owed, the last event's ending, Counter-plague against
a Plague met by a Plague, and every switch in ``rulings.py`` tried both ways."""

from __future__ import annotations

import random

import pytest
from sun_tzu_helpers import (
    CHU,
    QIN,
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
from test_sun_tzu_properties import check_armies, check_cards, play, seat_index

from games.messages import render
from games.sun_tzu import RULES, battle, rulings
from games.sun_tzu.owed import holds

BLUE, RED = 0, 1


def flip(monkeypatch: pytest.MonkeyPatch, name: str, value: object) -> None:
    assert hasattr(rulings, name), name
    monkeypatch.setattr(rulings, name, value)


def legal_all_accepted(st, seat: str) -> None:
    """Every command ``legal`` lists is one ``decide`` accepts."""
    for command in RULES.legal(st, seat):
        RULES.decide(st, seat, command, None)


# ---------------------------------------------------------------------------------------
# 1. Epidemic counts Plague cards played, not Plague reveals.
def _recycled_plague_round(**kw):
    """Round 1: Red's Plague in Wu (Blue's two Plagues already played) is recycled."""
    blue, red = lineup("Wu", "3", "plague")
    kw.setdefault("hands", ((*blue, "+1", "6"), (*red, "+1", "plague", "6")))
    st = position(
        kept=((), ("plague_recycle",)),
        events=("epidemic", "light_infantry", "war_chariot"),
        plagues_played=2,
        **kw,
    )
    st, _ = play_round(st, blue, red, None, {"arm": {"plague_recycle": True}})
    assert st.plagues_played == 3 and st.event_up == "epidemic"
    return st


def test_a_recycled_plague_revealed_again_is_not_a_new_plague():
    # The recycled Plague goes onto an empty deck and is drawn back at once; Red, holding
    # it and the other Plague, reveals one: it is taken to be the recycled one.
    st = _recycled_plague_round()
    assert st.hands[RED].count("plague") == 2
    st, events = play_round(st, ["2", "4", "5", "+1", "3"], ["2", "4", "5", "+1", "plague"])
    assert st.plagues_played == 3
    assert not of_type(events, "event_triggered")
    assert st.event_up == "epidemic" and st.aside == (3, 3)
    # The other Plague, revealed later, is the fourth Plague card: Epidemic.
    st, events = play_round(st, ["2", "4", "5", "6", "3"], ["2", "4", "5", "6", "plague"])
    assert st.plagues_played == 4
    assert only(events, "event_triggered")["card"] == "epidemic"


def test_the_other_plague_counts_while_the_recycled_one_is_still_in_the_deck():
    # The recycled Plague lies at the bottom of a deck (8, 9, 10, +1, plague after the 7 is
    # burned); the draw takes 8 and 9 only, so the Plague Red reveals next is the other one.
    st = _recycled_plague_round(decks=((), ("7", "8", "9", "10", "+1")))
    assert st.decks[RED] == ("10", "+1", "plague") and st.drawn[RED] == ("8", "9")
    st, _ = act(st, "red", {"type": "keep", "cards": ["8"]})
    st, events = play_round(st, ["2", "4", "5", "+1", "3"], ["2", "4", "5", "8", "plague"])
    assert st.plagues_played == 4
    assert only(events, "event_triggered")["card"] == "epidemic"


def test_epidemic_counts_each_plague_once_when_both_are_revealed_in_one_battle():
    st, events = fight("Wu", "plague", "plague", events=("epidemic", "war_chariot"))
    assert st.plagues_played == 2 and not of_type(events, "event_triggered")


# ---------------------------------------------------------------------------------------
# 2. Exceptional reinforcement is offered for every army owed beyond the reserve.
@pytest.mark.parametrize(
    ("card", "to", "take"),
    [("6", "marker@Wu", {}), ("+2", "aside", {}), ("+3", "aside", {"Chu": 1})],
)
def test_a_cost_beyond_the_reserve_offers_exceptional_reinforcement(card, to, take):
    # Both play the same card in Wu (a tie); Red's reserve is empty, Chu its only stack.
    blue, red = lineup("Wu", card, card)
    st = position(
        armies=board(Chu=(0, 18)),
        reserve=(18, 0),
        hands=((*blue, "+1"), (*red, "10")),
    )
    st, _ = play_round(st, blue, red)
    assert RULES.pending(st) == {"red": "sources"}
    assert RULES.view(st, "red")["decision"]["to"] == to
    answer = {"type": "sources", "take": take, "reinforce": ["10"]}
    assert answer in RULES.legal(st, "red")
    st, events = act(st, "red", answer)
    assert only(events, "reinforced")["card"] == "10"
    assert st.armies[CHU][RED] == 18 - sum(take.values())
    assert totals(st, RED) == 21


def test_an_event_cost_beyond_the_reserve_offers_exceptional_reinforcement():
    blue, red = lineup("Wu", "10", "9")
    st = position(
        armies=board(Chu=(0, 18)),
        reserve=(18, 0),
        hands=((*blue, "+1"), (*red, "-1")),
        events=("champion_challenge", "light_infantry", "epidemic"),
    )
    st, events = play_round(st, blue, red)
    assert only(events, "event_triggered")["card"] == "champion_challenge"
    assert RULES.pending(st) == {"red": "sources"}
    st, _ = act(st, "red", {"type": "sources", "take": {"Chu": 1}})
    assert st.armies[CHU][RED] == 17 and st.aside[RED] == 4


def test_the_reinforcement_offer_does_not_tell_what_the_hand_holds():
    # Red owes a 6-marker army with an empty reserve, and holds only a framed card: it is
    # asked all the same (being asked only with a card to discard would say it holds one),
    # and answering with the army from Chu is all it can do.
    blue, red = lineup("Wu", "6", "6")
    st = position(armies=board(Chu=(0, 18)), reserve=(18, 0), hands=(blue, (*red, "1")))
    st, _ = play_round(st, blue, red)
    assert RULES.pending(st) == {"red": "sources"}
    assert RULES.legal(st, "red") == [{"type": "sources", "take": {"Chu": 1}}]
    st, _ = act(st, "red", {"type": "sources", "take": {"Chu": 1}})
    assert st.armies[CHU] == (0, 17) and st.markers[WU] == (1, 1)


@pytest.mark.parametrize("offer", [True, False])
def test_switch_offer_reinforcement_when_short(monkeypatch, offer):
    flip(monkeypatch, "OFFER_REINFORCEMENT_WHEN_SHORT", offer)
    blue, red = lineup("Wu", "+2", "+2")
    st = position(armies=board(Chu=(0, 18)), reserve=(18, 0), hands=(blue, (*red, "10")))
    st, _ = play_round(st, blue, red)
    if offer:
        assert RULES.pending(st) == {"red": "sources"}
    else:
        assert RULES.pending(st) == {"blue": "place", "red": "place"}
        assert st.armies[CHU] == (0, 17) and st.aside[RED] == 4


# ---------------------------------------------------------------------------------------
# 3. Every switch in rulings.py, both ways.
@pytest.mark.parametrize("previous_only", [True, False])
def test_switch_recycle_discards_from_previous_deck_only(monkeypatch, previous_only):
    flip(monkeypatch, "RECYCLE_DISCARDS_FROM_PREVIOUS_DECK_ONLY", previous_only)
    # Onto an empty deck: nothing (True), or the recycled card itself, now the top (False).
    st, events = fight(
        "Wu",
        "3",
        "plague",
        kept=((), ("plague_recycle",)),
        red_extra={"arm": {"plague_recycle": True}},
    )
    recycled = only(events, "card_recycled")
    if previous_only:
        assert recycled["burned"] is None and st.burned[RED] == ()
        assert "plague" in st.hands[RED]
    else:
        assert recycled["burned"] == "plague" and st.burned[RED] == ("plague",)
        assert "plague" not in st.hands[RED] and st.decks[RED] == ()
    # Onto a deck with cards, both burn its top card.
    st, events = fight(
        "Wu",
        "3",
        "plague",
        kept=((), ("plague_recycle",)),
        decks=((), ("7", "8")),
        red_extra={"arm": {"plague_recycle": True}},
    )
    assert only(events, "card_recycled")["burned"] == "7"
    assert st.burned[RED] == ("7",)


@pytest.mark.parametrize("before", [True, False])
def test_switch_last_event_ends_before_effect(monkeypatch, before):
    flip(monkeypatch, "LAST_EVENT_ENDS_BEFORE_EFFECT", before)
    st, events = fight("Qin", "10", "plague", events=("hero_challenge",), score=2)
    assert only(events, "event_triggered")["card"] == "hero_challenge"
    assert st.phase == "over" and RULES.pending(st) == {}
    assert (st.outcome["winner"], st.outcome["reason"]) == ("blue", "last_event")
    assert st.aside == ((3, 3) if before else (5, 3))
    assert [e["province"] for e in of_type(events, "battle_revealed")] == ["Qin"]


def test_last_event_after_its_effect_waits_for_the_armies_owed(monkeypatch):
    # The effect comes first: the reserve it empties decides the tie-break at 0.
    flip(monkeypatch, "LAST_EVENT_ENDS_BEFORE_EFFECT", False)
    blue, red = lineup("Qin", "10", "10")
    st = position(
        events=("hero_challenge",),
        armies=board(Chu=(0, 5), Wu=(0, 5)),
        reserve=(16, 0),
        aside=(5, 11),
        hands=((*blue,), (*red, "-1")),
    )
    st, _ = play_round(st, blue, red)
    assert RULES.pending(st) == {"red": "sources"}
    st, _ = act(st, "red", {"type": "sources", "take": {"Chu": 1, "Wu": 1}})
    assert st.phase == "over"
    assert st.outcome["reason"] == "last_event" and st.outcome["winner"] == "blue"
    assert st.aside == (7, 13)


@pytest.mark.parametrize("in_advance", [True, False])
def test_switch_order_may_be_named_in_advance(monkeypatch, in_advance):
    flip(monkeypatch, "ORDER_MAY_BE_NAMED_IN_ADVANCE", in_advance)
    st = position(round=2, privilege=BLUE)
    st, _ = play_round(st, ["2", "3", "4", "5", "7"], ["2", "3", "4", "5", "7"])
    assert RULES.pending(st) == {"blue": "next_province"}
    answers = [c for c in RULES.legal(st, "blue") if c["type"] == "next_province"]
    assert len(answers) == (325 if in_advance else 5)
    legal_all_accepted(st, "blue")
    two = {"type": "next_province", "provinces": ["Wu", "Qin"]}
    placed = position(round=2, privilege=BLUE)
    ordered = place(["2", "3", "4", "5", "7"], order=["Wu", "Qin"])
    if in_advance:
        act(st, "blue", two)
        act(placed, "blue", ordered)
    else:
        reject(st, "blue", two, "name only the next province")
        reject(placed, "blue", ordered, "name only the next province")
        act(placed, "blue", place(["2", "3", "4", "5", "7"], order=["Wu"]))


@pytest.mark.parametrize("stays", [True, False])
def test_switch_fizzled_warlord_stays_in_hand(monkeypatch, stays):
    flip(monkeypatch, "FIZZLED_WARLORD_STAYS_IN_HAND", stays)
    st = position(kept=(("manoeuvre",), ("remove",)), armies=board(Qin=(1, 0)))
    st, events = quiet_round(
        st,
        blue_extra={"warlords": [{"warlord": "manoeuvre", "from": "Qin", "to": "Chu"}]},
        red_extra={"warlords": [{"warlord": "remove", "province": "Qin"}]},
    )
    fizzled = only(events, "warlord_played", warlord="remove")
    assert fizzled["fizzled"] is True and fizzled["spent"] is (not stays)
    assert holds(st, RED, "remove") is stays
    assert st.spent[RED] == (() if stays else ("remove",))


@pytest.mark.parametrize("included", [True, False])
def test_switch_side_effect_sources_include_battle_province(monkeypatch, included):
    flip(monkeypatch, "SIDE_EFFECT_SOURCES_INCLUDE_BATTLE_PROVINCE", included)
    st, _ = fight("Wu", "6", "2", armies=board(Wu=(18, 0)), reserve=(0, 18), extra=())
    assert st.markers[WU] == ((1, 0) if included else (0, 0))
    assert st.armies[WU] == ((17, 0) if included else (18, 0))


@pytest.mark.parametrize("meets", [True, False])
def test_switch_restrained_card_meets_challenges(monkeypatch, meets):
    flip(monkeypatch, "RESTRAINED_CARD_MEETS_CHALLENGES", meets)
    st, events = fight(
        "Wu",
        "9",
        "8",
        events=("champion_challenge", "light_infantry", "epidemic"),
        kept=(("restraint",), ()),
        blue_extra={"arm": {"restraint": "Wu"}},
    )
    assert st.armies[WU] == (0, 2)  # the 9 counted as a 6 and lost
    assert bool(of_type(events, "event_triggered")) is meets
    assert st.aside == ((4, 3) if meets else (3, 3))


@pytest.mark.parametrize("needs", [True, False])
def test_switch_double_six_needs_six_on_marker(monkeypatch, needs):
    flip(monkeypatch, "DOUBLE_SIX_NEEDS_SIX_ON_MARKER", needs)
    st = position(kept=((), ("double_six",)), markers=board(Wu=(0, 1)))
    command = place(["2", "3", "4", "5", "7"], warlords=[{"warlord": "double_six"}])
    if needs:
        reject(st, "red", command, "Double six is played with a 6 placed where")
    else:
        st, _ = act(st, "red", command)
        st, _ = act(st, "blue", place(["2", "3", "4", "5", "7"]))
        assert holds(st, RED, "double_six")  # nothing to double: it stays in hand


@pytest.mark.parametrize("always", [True, False])
def test_switch_always_ask_to_keep(monkeypatch, always):
    flip(monkeypatch, "ALWAYS_ASK_TO_KEEP", always)
    st = position(decks=(("+1", "+1"), ()))
    st, _ = quiet_round(st)
    if always:
        assert RULES.pending(st) == {"blue": "keep"}
    else:
        assert RULES.pending(st) == {"blue": "place", "red": "place"}
        assert st.decks[BLUE] == ("+1",) and "+1" in st.hands[BLUE]


@pytest.mark.parametrize("k", [1, 2])
def test_switch_bonus_against_minus(monkeypatch, k):
    assert battle.compare(("bonus", k), ("minus", 1)) == (0, k)
    monkeypatch.setattr(rulings, "bonus_against_minus", lambda bonus: bonus + 1)
    assert battle.compare(("bonus", k), ("minus", 1)) == (0, k + 1)


# ---------------------------------------------------------------------------------------
# 4. The last event's ending at 0, and Counter-plague against a Plague met by a Plague.
@pytest.mark.parametrize(
    ("score", "reserve", "winner", "said"),
    [
        (-1, (18, 18), "red", "ahead on the score track"),
        (0, (18, 17), "blue", "more armies in reserve"),
        (0, (16, 18), "red", "more armies in reserve"),
        (0, (18, 18), None, "both reserves were equal"),
    ],
)
def test_the_last_event_is_the_reason_even_at_zero(score, reserve, winner, said):
    st, _ = fight(
        "Wu",
        "1",
        "1",
        events=("light_infantry",),
        score=score,
        reserve=reserve,
        aside=(21 - reserve[0], 21 - reserve[1]),
    )
    assert (st.outcome["winner"], st.outcome["reason"]) == (winner, "last_event")
    sentence = render(RULES.text.messages, RULES.text.end(st.outcome, None))
    assert "last event" in sentence and said in sentence


def _counter_plague_round(red_cards, blue_cards, **kw):
    st = position(
        kept=((), ("counter_plague",)),
        hands=(tuple(blue_cards), tuple(red_cards)),
        **kw,
    )
    return play_round(st, blue_cards, red_cards, None, {"arm": {"counter_plague": True}})


@pytest.mark.parametrize("waits", [True, False])
def test_switch_counter_plague_waits_when_both_play_a_plague(monkeypatch, waits):
    flip(monkeypatch, "COUNTER_PLAGUE_WAITS_WHEN_BOTH_PLAY_A_PLAGUE", waits)
    # Qin: both Plagues (4 Red armies: 2 removed either way). Wu: Blue's second Plague.
    st, events = _counter_plague_round(
        ["plague", "3", "4", "5", "2"],
        ["plague", "3", "4", "5", "plague"],
        armies=board(Qin=(0, 4), Wu=(0, 6)),
    )
    qin, wu = battle_in(events, "Qin"), battle_in(events, "Wu")
    assert qin["plague"] is True and st.armies[QIN] == (0, 2)
    assert st.spent[RED] == ("counter_plague",)
    if waits:
        assert qin["fired"] == {}
        assert wu["fired"] == {"red": ["counter_plague"]} and wu["plague"] is False
        assert st.armies[WU] == (0, 8)  # Red's 2 beat the 0 by 2
    else:
        assert qin["fired"] == {"red": ["counter_plague"]}
        assert wu["fired"] == {} and st.armies[WU] == (0, 3)


def test_counter_plague_with_only_a_plague_met_by_a_plague_stays_in_hand():
    st, _ = _counter_plague_round(["plague", "3", "4", "5", "2"], ["plague", "3", "4", "5", "7"])
    assert holds(st, RED, "counter_plague") and st.spent[RED] == ()


# ---------------------------------------------------------------------------------------
# Every switch flipped: random games still keep every invariant.
SWITCHES = (
    "ORDER_MAY_BE_NAMED_IN_ADVANCE",
    "FIZZLED_WARLORD_STAYS_IN_HAND",
    "SIDE_EFFECT_SOURCES_INCLUDE_BATTLE_PROVINCE",
    "LAST_EVENT_ENDS_BEFORE_EFFECT",
    "RESTRAINED_CARD_MEETS_CHALLENGES",
    "RECYCLE_DISCARDS_FROM_PREVIOUS_DECK_ONLY",
    "ALWAYS_ASK_TO_KEEP",
    "DOUBLE_SIX_NEEDS_SIX_ON_MARKER",
    "OFFER_REINFORCEMENT_WHEN_SHORT",
    "COUNTER_PLAGUE_WAITS_WHEN_BOTH_PLAY_A_PLAGUE",
)


def test_every_switch_is_tried_both_ways_here():
    switches = {name for name, value in vars(rulings).items() if isinstance(value, bool)}
    assert switches == set(SWITCHES)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("name", SWITCHES)
def test_random_games_keep_every_invariant_with_a_switch_flipped(monkeypatch, name, seed):
    flip(monkeypatch, name, not getattr(rulings, name))
    for options in ({"variant": "standard", "events": True}, {"variant": "beginner"}):
        dealt: set[int] = set()
        probe = random.Random(seed)

        def on_event(state, event, dealt=dealt):
            check_armies(state, event)
            if event["type"] == "deck_shuffled":
                dealt.add(seat_index(event["seat"]))
            check_cards(state, event, dealt)

        def before(state, seat, rng, probe=probe):
            if RULES.pending(state)[seat] == "place":
                return
            legal = RULES.legal(state, seat)
            for command in probe.sample(legal, min(4, len(legal))):
                RULES.decide(state, seat, command, probe)

        game = play(seed, options, on_event=on_event, before_decide=before)
        assert game.state.outcome is not None
        assert RULES.fold(game.events) == game.state
