"""Setup, the data model, the config switches (each alternative), turns and end step."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games.base import RulesError
from games.warring_states import RULES, data
from games.warring_states import board as B
from games.warring_states import rules as R
from tests.games.warring_states_helpers import (
    AL,
    LH,
    Dice,
    choose,
    never_respond,
    play,
    position,
    stack,
)

D = data.load()
HANDS = {"lianheng": ["L_ZHANG_YI", "L_HAN_FEI"], "alliance": ["A_SU_QIN", "A_MAO_SUI"]}


# -- data and setup --------------------------------------------------------------------------
def test_the_data_file_loads_whole():
    assert len(D.areas) == 19 and sum(D.rp.values()) == 29
    assert len(D.borders) == 2 * 39
    assert D.rp["NANJUN"] == 2 and D.rp["JIUJIANG"] == 1
    for side in B.SIDES:
        assert len(D.deck(side, D.default_config)) == 23


def test_a_bad_data_file_is_refused():
    raw = json.loads(data.PATH.read_text(encoding="utf-8"))
    raw["borders"][0]["b"] = "ATLANTIS"
    with pytest.raises(ValueError, match="unknown area"):
        data.parse(raw)


def test_a_config_value_outside_its_alternatives_is_refused():
    with pytest.raises(RulesError, match="retreat_destination"):
        RULES.setup({"retreat_destination": "anywhere"}, random.Random(0))


@pytest.mark.parametrize(
    ("scenario", "rps", "hands"),
    [
        ("FIVE_KINGDOMS", {"lianheng": 6, "alliance": 18}, {"lianheng": 5, "alliance": 6}),
        ("QIN_DOMINATES", {"lianheng": 15, "alliance": 5}, {"lianheng": 6, "alliance": 5}),
    ],
)
def test_each_scenario_opens_as_the_reference_checks(scenario, rps, hands):
    st = RULES.fold(RULES.setup({"scenario": scenario}, random.Random(0)))
    assert {s: B.rp(st, s) for s in B.SIDES} == rps
    assert B.qin_rp(st) == D.scenarios[scenario].qin_victory_rp - 1  # one short (Ruling 50)
    assert {s: len(st["hands"][s]) for s in B.SIDES} == hands
    assert st["active"] == D.scenarios[scenario].initiative
    not_received = [f for f, p in st["track"].items() if not p["received"]]
    assert not_received == ["ZHAO" if scenario == "FIVE_KINGDOMS" else "CHU"]


def test_qin_dominates_he_dong_holder_switch():
    st = RULES.fold(RULES.setup({"scenario": "QIN_DOMINATES"}, random.Random(0)))
    assert B.controller(st, "HEDONG") == "QIN"
    st = RULES.fold(
        RULES.setup({"scenario": "QIN_DOMINATES", "qd_hedong_holder": "WEI"}, random.Random(0))
    )
    assert B.controller(st, "HEDONG") == "WEI" and B.qin_rp(st) == 8


@pytest.mark.parametrize(
    ("dropped", "nm", "em"), [("L_NATIONAL_MOBILIZATION", 2, 4), ("L_EMERGENCY_MOBILIZATION", 3, 3)]
)
def test_the_surplus_lianheng_card_switch(dropped, nm, em):
    st = RULES.fold(RULES.setup({"lianheng_surplus_card_dropped": dropped}, random.Random(0)))
    cards = st["decks"]["lianheng"] + st["hands"]["lianheng"]
    assert len(cards) == 23
    assert sum(c.startswith("L_NATIONAL_MOBILIZATION") for c in cards) == nm
    assert sum(c.startswith("L_EMERGENCY_MOBILIZATION") for c in cards) == em


# -- the diplomacy track ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("layout", "box"), [("revenge_subbox", "ANTI_QIN"), ("linear7", "REVENGE_QIN")]
)
def test_the_track_layout_switch(layout, box):
    st = position(hands=HANDS, active="alliance", diplomacy_track_layout=layout)
    st, _ = play(
        st,
        AL,
        {
            "type": "play",
            "card": "A_SU_QIN",
            "face": "down",
            "action": "diplomacy",
            "force": "CHU",
            "dir": 1,
        },
    )
    assert st["track"]["CHU"] == {"box": box, "received": False}


def test_the_end_step_flips_every_counter_but_revenge_qin():
    st = position(hands=HANDS)
    st["track"]["QI"] = {"box": "NEUTRAL_1", "received": False}
    st["areas"]["LONGXI"]["city"]["tired"] = 1
    st, _ = play(st, LH, {"type": "pass"})
    st, events = play(st, AL, {"type": "pass"}, random.Random(1))
    assert st["turn"] == 2
    assert st["track"]["QI"]["received"] and not st["track"]["ZHAO"]["received"]
    assert st["areas"]["LONGXI"]["city"]["tired"] == 0
    assert [e["side"] for e in events if e["type"] == "deck_shuffled"] == ["lianheng", "alliance"]
    assert all(e["visible_to"] == "server" for e in events if e["type"] == "deck_shuffled")


def test_a_pass_is_not_final_if_the_opponent_then_plays():
    st = position(hands=HANDS)
    st, _ = play(st, LH, {"type": "pass"})
    st, _ = play(
        st,
        AL,
        {
            "type": "play",
            "card": "A_SU_QIN",
            "face": "down",
            "action": "diplomacy",
            "force": "QI",
            "dir": 1,
        },
    )
    assert st["turn"] == 1 and st["active"] == "lianheng"


# -- combat switches ---------------------------------------------------------------------------
def _lost_general(return_rule):
    st = never_respond(
        position(
            hands=HANDS,
            lost_general_return=return_rule,
            areas={
                "HANZHONG": (stack("QIN", 0, gens=("SIMA_CUO",)), []),
                "NANYANG": (stack("CHU", 4), []),
            },
        )
    )
    card = st["hands"]["lianheng"][0]
    st, _ = play(st, LH, {"type": "play", "card": card, "face": "down", "action": "military"})
    cmd = {
        "type": "operate",
        "area": "HANZHONG",
        "force": "QIN",
        "armies": 0,
        "generals": ["SIMA_CUO"],
        "activate": None,
        "path": ["NANYANG"],
    }
    st, _ = play(st, LH, cmd, Dice(1, 6))  # Chu: strength 4, roll 6, 2 hits
    assert st["pool"]["SIMA_CUO"] == (2 if return_rule == "next_turn" else 3)
    return st


@pytest.mark.parametrize("rule", ["next_turn", "two_turns"])
def test_the_lost_general_switch(rule):
    st = _lost_general(rule)
    st, _ = play(st, AL, {"type": "pass"})
    st, _ = play(st, LH, {"type": "pass"}, random.Random(0))
    assert st["turn"] == 2
    assert st["pool"]["SIMA_CUO"] == ("available" if rule == "next_turn" else 3)


@pytest.mark.parametrize(("rule", "to"), [("last_area", "XIAOHAN"), ("friendly_area", "NANYANG")])
def test_the_retreat_switch(rule, to):
    # through an empty Xiao Han into Han; Nan Yang, beside Han, is Qin's
    st = never_respond(
        position(
            hands=HANDS,
            retreat_destination=rule,
            areas={
                "GUANZHONG": (stack("QIN", 4), []),
                "XIAOHAN": None,
                "NANYANG": (stack("QIN", 1), []),
            },
        )
    )
    card = st["hands"]["lianheng"][0]
    st, _ = play(st, LH, {"type": "play", "card": card, "face": "down", "action": "military"})
    cmd = {
        "type": "operate",
        "area": "GUANZHONG",
        "force": "QIN",
        "armies": 3,
        "generals": [],
        "activate": None,
        "path": ["XIAOHAN", "HAN"],
    }
    st, events = play(st, LH, cmd, Dice(1, 1))
    assert next(e for e in events if e["type"] == "retreated")["to"] == to
    assert B.stack_of(st["areas"][to], "QIN")["tired"] == 2  # one was lost


def _crossbow_fight(side_config, alliance_defends):
    if alliance_defends:
        st = position(
            hands={"lianheng": ["L_ZHANG_YI"], "alliance": ["A_ELITE_CROSSBOWMEN"]},
            areas={"SHANGDANG": (stack("QIN", 2), []), "HANDAN": (stack("ZHAO", 2), [])},
            **side_config,
        )
        attacker, defender, area, path = LH, AL, "SHANGDANG", ["HANDAN"]
        card, force = "A_ELITE_CROSSBOWMEN", "QIN"
    else:
        st = position(
            hands={"lianheng": ["L_ELITE_CROSSBOWMEN"], "alliance": ["A_SU_QIN"]},
            active="alliance",
            track={"HAN": "ANTI_QIN"},
            areas={"HAN": (stack("HAN", 2), []), "XIAOHAN": (stack("QIN", 2), [])},
            **side_config,
        )
        attacker, defender, area, path = AL, LH, "HAN", ["XIAOHAN"]
        card, force = "L_ELITE_CROSSBOWMEN", "HAN"
    side = R.side_of(st, attacker)
    st, _ = play(
        st,
        attacker,
        {"type": "play", "card": st["hands"][side][0], "face": "down", "action": "military"},
    )
    st, _ = play(
        st,
        attacker,
        {
            "type": "operate",
            "area": area,
            "force": force,
            "armies": 2,
            "generals": [],
            "activate": None,
            "path": path,
        },
    )
    st, events = choose(st, defender, (3, 3), card=card)
    return next(e for e in events if e["type"] == "dice_rolled")["results"]


@pytest.mark.parametrize(("value", "modified"), [(2, 5), (0, 3)])
def test_the_lianheng_crossbow_modifier_switch(value, modified):
    results = _crossbow_fight({"lianheng_elite_crossbowmen_drm": value}, False)
    assert results == {"defender": {"die": 3, "modified": modified, "hits": 1}}


@pytest.mark.parametrize(("value", "modified"), [("chinese_card", 3), ("player_aid", 5)])
def test_the_alliance_crossbow_switch(value, modified):
    results = _crossbow_fight({"alliance_elite_crossbowmen": value}, True)
    assert results["defender"]["modified"] == modified


# -- bids ------------------------------------------------------------------------------------
def test_sealed_bids_are_revealed_together_and_the_higher_plays_lianheng():
    events = RULES.setup({"victory": "bid"}, random.Random(0))
    st = RULES.fold(events)
    assert RULES.pending(st) == {"first": "bid", "second": "bid"}
    st, ev1 = play(st, "first", {"type": "bid", "rp": 8})
    assert ev1[0]["visible_to"] == "first" and RULES.view(st, "second")["bids"] == {
        "first": "hidden"
    }
    st, _ev2 = play(st, "second", {"type": "bid", "rp": 9}, random.Random(0))
    assert st["sides"] == {"second": "lianheng", "first": "alliance"} and st["target"] == 9
    assert RULES.pending(st) == {"second": "action"}  # Five Kingdoms: Lianheng acts first


def test_a_tied_bid_is_settled_by_a_die():
    st = RULES.fold(RULES.setup({"victory": "bid"}, random.Random(0)))
    st, _ = play(st, "first", {"type": "bid", "rp": 7})
    st, events = play(st, "second", {"type": "bid", "rp": 7}, Dice(5))
    assert [e["value"] for e in events if e["type"] == "die_rolled"] == [5]
    assert st["sides"]["second"] == "lianheng"


def test_victory_at_the_end_of_the_last_turn():
    st = position(hands=HANDS)
    st["turn"] = st["turns"]
    st["areas"]["HAN"] = {"city": stack("QIN", 1), "field": []}  # Qin 6 + 2 = 8 >= 7
    st, _ = play(st, LH, {"type": "pass"})
    st, _events = play(st, AL, {"type": "pass"})
    assert RULES.outcome(st) == {
        "winner": LH,
        "side": "lianheng",
        "reason": "rp",
        "qin_rp": 8,
        "target": 7,
        "sides": dict(st["sides"]),
    }


def test_sudden_death_when_qin_is_eliminated():
    st = never_respond(position(hands=HANDS, active="alliance"))
    for area, content in st["areas"].items():
        if content["city"] and content["city"]["force"] == "QIN":
            content["city"] = stack("YIQU", 1) if area != "LONGXI" else stack("QIN", 1)
    st["areas"]["LONGXI"]["field"] = [stack("YIQU", 4)]
    st, _ = play(st, AL, {"type": "play", "card": "A_SU_QIN", "face": "down", "action": "military"})
    st, _ = play(
        st,
        AL,
        {
            "type": "operate",
            "area": "LONGXI",
            "force": "YIQU",
            "armies": 4,
            "generals": [],
            "activate": None,
            "path": [],
        },
        Dice(6, 1),
    )
    assert RULES.outcome(st)["reason"] == "qin_eliminated"
    assert RULES.outcome(st)["winner"] == AL


def test_the_cheap_operation_test_agrees_with_the_enumeration():
    rng = random.Random(3)
    st = RULES.fold(RULES.setup({}, rng))
    assert R.ALWAYS_A_STEP
    seen = set()
    while RULES.pending(st):
        seat = sorted(RULES.pending(st))[0]
        for s in B.SIDES:
            if st["op"] is None or st["op"]["side"] == s:
                full = bool(R.operations(st, s))
                assert R.can_operate(st, s) == full
                seen.add(full)
        st = RULES.fold(RULES.decide(st, seat, RULES.random_command(st, seat, rng), rng), st)
    assert True in seen


def test_the_package_data_is_the_shared_rules_data_where_that_is_at_hand():
    """The package reads its own copy (it must install without ../shared); a rules edit in
    the shared file that was not copied here would leave the engine playing old data."""
    shared = Path(__file__).resolve().parents[3] / "shared" / "rules" / "warring_states_data.json"
    if not shared.exists():
        pytest.skip("no ../shared/rules beside this checkout")
    ours = Path(data.__file__).with_name("data.json")
    assert json.loads(ours.read_text()) == json.loads(shared.read_text())
