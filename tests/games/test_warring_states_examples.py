"""§16 of the rules reference: every worked example as a known-answer test."""

from __future__ import annotations

import pytest

from games.base import RulesError
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
    types,
)

HANDS = {"lianheng": ["L_ZHANG_YI", "L_HAN_FEI"], "alliance": ["A_SU_QIN", "A_MAO_SUI"]}


def operate(st, seat, area, force, armies, generals=(), path=(), activate=None, dice=()):
    card = st["hands"][R.side_of(st, seat)][0]
    st, _ = play(st, seat, {"type": "play", "card": card, "face": "down", "action": "military"})
    cmd = {
        "type": "operate",
        "area": area,
        "force": force,
        "armies": armies,
        "generals": list(generals),
        "activate": activate,
        "path": list(path),
    }
    return play(st, seat, cmd, Dice(*dice))


# 1. Movement -------------------------------------------------------------------------------
def test_1_sima_cuo_leads_qin_over_the_mountain_and_down_the_waterway():
    st = never_respond(position("QIN_DOMINATES", hands=HANDS, areas={"NANYANG": None}))
    assert B.cost("BASHU", "HANZHONG") == 2 and B.cost("HANZHONG", "NANYANG") == 1
    assert B.cost("NANYANG", "HANZHONG") == 2
    st, _events = operate(st, LH, "BASHU", "QIN", 2, ["SIMA_CUO"], ["HANZHONG", "NANYANG"])
    assert st["areas"]["NANYANG"]["city"] == stack("QIN", tired=2) | {"gens": {"SIMA_CUO": False}}
    assert st["areas"]["BASHU"]["city"] is None  # left uncontrolled
    assert st["active"] == "alliance"


def test_1_the_same_path_is_illegal_for_an_ma_2_stack():
    st = never_respond(position("QIN_DOMINATES", hands=HANDS, areas={"NANYANG": None}))
    with pytest.raises(RulesError, match="path is not open"):
        operate(st, LH, "BASHU", "QIN", 2, [], ["HANZHONG", "NANYANG"])


# 2. Moving together ------------------------------------------------------------------------
def test_2_three_of_four_go_through_xiao_han_to_han_and_nobody_is_dropped_or_picked_up():
    st = never_respond(position(hands=HANDS, areas={"GUANZHONG": (stack("QIN", 4), [])}))
    before = st["areas"]["XIAOHAN"]["city"]
    assert ["XIAOHAN", "HAN"] in B.paths(st, "GUANZHONG", "QIN", 2)
    # Qin (strength 3) rolls 1: no hit; Han (3 + 1 in the city) rolls 1: one hit
    st, events = operate(st, LH, "GUANZHONG", "QIN", 3, path=["XIAOHAN", "HAN"], dice=(1, 1))
    moved = next(e for e in events if e["type"] == "moved")
    assert moved["armies"] == 3 and moved["path"] == ["XIAOHAN", "HAN"] and moved["fight"]
    assert before == stack("QIN", 3) and st["areas"]["GUANZHONG"]["city"] == stack("QIN", 1)
    # nobody was dropped at Xiao Han: the 2 survivors come back to it only by retreating
    assert next(e for e in events if e["type"] == "retreated")["to"] == "XIAOHAN"
    assert st["areas"]["XIAOHAN"]["city"] == stack("QIN", 3, 2)


# 3. Control --------------------------------------------------------------------------------
def test_3_leaving_a_city_empty_and_taking_an_empty_one():
    st = never_respond(
        position(hands=HANDS, areas={"GUANZHONG": (stack("QIN", 4), []), "XIAOHAN": None})
    )
    st, _ = operate(st, LH, "GUANZHONG", "QIN", 4, path=["XIAOHAN"])
    assert B.controller(st, "XIAOHAN") == "QIN"
    assert B.controller(st, "GUANZHONG") is None


def test_3_a_yiqu_in_the_field_takes_the_emptied_city_and_a_later_retreat_goes_to_the_field():
    st = never_respond(
        position(
            hands=HANDS, areas={"GUANZHONG": (stack("QIN", 4), [stack("YIQU", 1)]), "XIAOHAN": None}
        )
    )
    st, _ = operate(st, LH, "GUANZHONG", "QIN", 4, path=["XIAOHAN"])
    assert B.controller(st, "GUANZHONG") == "YIQU"
    content = st["areas"]["GUANZHONG"]
    B.put(content, stack("QIN", tired=2))  # where a retreating Qin stack is placed
    assert content["city"]["force"] == "YIQU" and content["field"][0]["force"] == "QIN"


def test_3_yan_entering_zhao_held_dai_stands_in_the_field_without_combat():
    st = never_respond(position(hands=HANDS, active="alliance", track={"YAN": "ANTI_QIN"}))
    st, events = operate(st, AL, "YAN", "YAN", 3, path=["DAI"])
    assert "dice_rolled" not in types(events)
    assert B.controller(st, "DAI") == "ZHAO"
    assert st["areas"]["DAI"]["field"] == [stack("YAN", tired=3)]


# 4. Combat ---------------------------------------------------------------------------------
def test_4_sima_cuo_and_three_qin_against_two_chu_in_a_city():
    st = never_respond(
        position(
            hands=HANDS,
            areas={
                "HANZHONG": (stack("QIN", 3, gens=("SIMA_CUO",)), []),
                "NANYANG": (stack("CHU", 2), []),
            },
        )
    )
    st, events = operate(st, LH, "HANZHONG", "QIN", 3, ["SIMA_CUO"], ["NANYANG"], dice=(2, 4))
    rolled = next(e for e in events if e["type"] == "dice_rolled")
    assert rolled["results"]["attacker"]["hits"] == 2  # strength 4, roll 2: 1+, with a general
    assert rolled["results"]["defender"]["hits"] == 1  # strength 2 + 1 = 3, roll 4: 1+, none
    assert R.pending(st) == {LH: "choose"}  # the Lianheng picks its loss: an army or Sima Cuo
    st, _ = choose(st, LH, movers=1, gens=[])
    assert st["areas"]["NANYANG"] == {
        "city": stack("QIN", tired=2) | {"gens": {"SIMA_CUO": False}},
        "field": [],
    }
    assert st["areas"]["HANZHONG"]["city"] is None and st["active"] == "alliance"


# 5. Modifiers ------------------------------------------------------------------------------
def test_5_li_mu_with_mounted_attack_against_shu_li_ji():
    mil = {
        "act": "LI_MU",
        "movers": stack("ZHAO", tired=2, gens=("LI_MU",)),
        "join": None,
        "drm": {"attacker": 1, "defender": 0},  # Mounted Attack's +1 (the card: TODO)
        "def": {"ready": 2, "tired": 0, "gens": ["SHU_LI_JI"], "act": "SHU_LI_JI"},
        "tloc": "city",
        "target": "QIN",
        "force": "ZHAO",
    }
    assert R.result(mil, "attacker", 5)[0] == 6  # +1 Li Mu +1 Mounted Attack -1 Shu Li Ji
    assert R.result(mil, "defender", 5)[0] == 5  # the defender has no modifier


# 6. Example I ------------------------------------------------------------------------------
@pytest.mark.parametrize("dice", [(6, 1), (1, 6), (3, 3)])
def test_6_yiqu_attack_the_qin_in_longxi_directly_and_stay(dice):
    st = never_respond(position(hands=HANDS, active="alliance"))
    st, events = operate(st, AL, "LONGXI", "YIQU", 2, path=[], dice=dice)
    assert "dice_rolled" in types(events) and "retreated" not in types(events)
    yiqu = B.stack_of(st["areas"]["LONGXI"], "YIQU")
    assert yiqu is None or (yiqu["ready"] == 0 and yiqu["tired"] >= 1)


# 7. Example II -----------------------------------------------------------------------------
def _example_ii():
    st = never_respond(
        position(
            hands=HANDS,
            active="alliance",
            areas={"SHANGJUN": (stack("QIN", 3), [stack("YIQU", 3)])},
        )
    )
    card = st["hands"]["alliance"][0]
    st, _ = play(st, AL, {"type": "play", "card": card, "face": "down", "action": "military"})
    return st


def test_7_five_yiqu_four_fight_and_a_wiped_out_qin_gives_them_the_city():
    st = _example_ii()
    cmd = {
        "type": "operate",
        "area": "SHANGJUN",
        "force": "YIQU",
        "armies": 3,
        "generals": [],
        "activate": None,
        "path": ["LONGXI"],
    }
    st, _ = play(st, AL, cmd)
    assert [o["join"]["n"] for o in st["op"]["owed"]["options"]] == [0, 1]
    st, _events = choose(st, AL, (6, 1), join={"n": 1, "gens": []})  # 2 hits, none back
    # all Yiqu go into the city; the fifth, left out of the fight, is still ready
    assert st["areas"]["LONGXI"] == {"city": stack("YIQU", 1, 4), "field": []}


def test_7_otherwise_the_movers_go_back_to_shang_juns_field():
    st = _example_ii()
    cmd = {
        "type": "operate",
        "area": "SHANGJUN",
        "force": "YIQU",
        "armies": 3,
        "generals": [],
        "activate": None,
        "path": ["LONGXI"],
    }
    st, _ = play(st, AL, cmd)
    st, events = choose(st, AL, (1, 1), join={"n": 1, "gens": []})  # 1 hit, none back
    assert "retreated" in types(events)
    # the joiner stays (exhausted) with the one left out; the movers go back
    assert st["areas"]["LONGXI"] == {"city": stack("QIN", 1), "field": [stack("YIQU", 1, 1)]}
    assert st["areas"]["SHANGJUN"]["field"] == [stack("YIQU", tired=3)]  # the 3 movers
    assert st["areas"]["SHANGJUN"]["city"] == stack("QIN", 3)  # not fought


# 8./9. Example III -------------------------------------------------------------------------
def _xiaohan(wei_box):
    return never_respond(
        position(
            hands=HANDS,
            track={"WEI": wei_box},
            areas={
                "GUANZHONG": (stack("QIN", 4), []),
                "XIAOHAN": (stack("ZHAO", 1), [stack("WEI", 1)]),
            },
        )
    )


def _attack_xiaohan(st, dice=()):
    card = st["hands"]["lianheng"][0]
    st, _ = play(st, LH, {"type": "play", "card": card, "face": "down", "action": "military"})
    cmd = {
        "type": "operate",
        "area": "GUANZHONG",
        "force": "QIN",
        "armies": 4,
        "generals": [],
        "activate": None,
        "path": ["XIAOHAN"],
    }
    return play(st, LH, cmd, Dice(*dice))


def test_8_qin_must_fight_wei_first_and_retreats_if_wei_stands():
    st, events = _attack_xiaohan(_xiaohan("NEUTRAL_2"), dice=(1, 1))
    started = next(e for e in events if e["type"] == "fight_started")
    assert started["target"] == "WEI" and st["track"]["WEI"] == {
        "box": "ANTI_QIN",
        "received": False,
    }
    # strength 4, roll 1 -> 1 hit: Wei's only counter is gone; then fight Zhao or retreat
    assert [o["do"] for o in st["op"]["owed"]["options"]] == ["again", "retreat"]


def test_8_wei_not_wiped_out_qin_retreats_to_guanzhong():
    st = _xiaohan("AFRAID_OF_QIN")
    st["areas"]["XIAOHAN"]["field"] = [stack("WEI", 3)]
    st, events = _attack_xiaohan(st, dice=(1, 1))
    assert "retreated" in types(events)
    assert st["areas"]["GUANZHONG"]["city"] == stack("QIN", tired=4)


def test_8_wei_wiped_then_zhao_wiped_qin_takes_xiao_han():
    st, _ = _attack_xiaohan(_xiaohan("NEUTRAL_2"), dice=(1, 1))
    # strength 4 (no losses: Wei rolled 1 at strength 1), roll 6: 2 hits; Zhao rolls 1
    st, events = choose(st, LH, (6, 1), do="again", target="ZHAO")
    assert st["track"]["ZHAO"] == {"box": "REVENGE_QIN", "received": False}
    assert "city_taken" in types(events)
    assert st["areas"]["XIAOHAN"] == {"city": stack("QIN", tired=4), "field": []}


def test_8_zhao_not_wiped_qin_retreats_to_guanzhong():
    st, _ = _attack_xiaohan(_xiaohan("NEUTRAL_2"), dice=(1, 1))
    st["areas"]["XIAOHAN"]["city"] = stack("ZHAO", 3)
    st, events = choose(st, LH, (1, 1), do="again", target="ZHAO")
    assert next(e for e in events if e["type"] == "retreated")["to"] == "GUANZHONG"
    assert B.controller(st, "XIAOHAN") == "ZHAO"


def test_9_a_lianheng_wei_may_be_passed_by_or_attacked():
    st, _ = _attack_xiaohan(_xiaohan("SERVE_QIN"))
    assert sorted(o["target"] for o in st["op"]["owed"]["options"]) == ["WEI", "ZHAO"]
    st, _events = choose(st, LH, (5, 1), target="WEI")  # Qin: 2 hits, Wei wiped out
    assert st["track"]["WEI"] == {"box": "ANTI_QIN", "received": False}
    assert [o["do"] for o in st["op"]["owed"]["options"]] == ["again", "retreat"]


# 10. Responses -----------------------------------------------------------------------------
def test_10_emergency_mobilization_and_elite_crossbowmen_answer_wang_jian():
    st = position(
        hands={
            "lianheng": ["L_ZHANG_YI", "L_HAN_FEI"],
            "alliance": ["A_EMERGENCY_MOBILIZATION", "A_ELITE_CROSSBOWMEN", "A_SU_QIN"],
        },
        areas={
            "SHANGDANG": (stack("QIN", 3, gens=("WANG_JIAN",)), []),
            "HANDAN": (stack("ZHAO", 1, gens=("LI_MU",)), []),
        },
    )
    st, _ = operate(st, LH, "SHANGDANG", "QIN", 3, ["WANG_JIAN"], ["HANDAN"])
    assert R.pending(st) == {AL: "respond"}
    st, _ = choose(st, AL, card="A_EMERGENCY_MOBILIZATION")
    assert B.stack_of(st["areas"]["HANDAN"], "ZHAO")["ready"] == 2
    st, _ = choose(st, AL, card="A_ELITE_CROSSBOWMEN")
    # both cards are face up now: only Lord Xinling could still answer (Wei is Anti-Qin and
    # Wei Wuji could march from Da Liang); the Alliance lets it pass and the dice roll
    assert [o["card"] for o in st["op"]["owed"]["options"]] == [None, "A_LORD_XINLING"]
    st, events = choose(st, AL, (6, 6), card=None)
    rolled = next(e for e in events if e["type"] == "dice_rolled")
    assert rolled["results"] == {"defender": {"die": 6, "modified": 6, "hits": 3}}
    st, events = choose(st, LH, movers=3, gens=[])  # the 3 Qin armies
    second = next(e for e in events if e["type"] == "second_strike")
    assert second["hits"] == 1  # Wang Jian alone, strength 1, inflicts at most 1
    st, events = choose(st, AL, ready=1, gens=[])
    assert B.stack_of(st["areas"]["HANDAN"], "ZHAO")["gens"] == {"LI_MU": True}
    assert st["areas"]["SHANGDANG"]["city"] == stack("QIN", gens=("WANG_JIAN",)) | {
        "gens": {"WANG_JIAN": False}
    }  # he retreats
    assert st["active"] == "alliance"  # the responses were not actions


# 11. Diplomacy -----------------------------------------------------------------------------
def test_11_diplomacy_face_down():
    st = position(hands=HANDS, track={"QI": "SERVE_QIN"})
    st, _ = play(
        st,
        LH,
        {
            "type": "play",
            "card": "L_ZHANG_YI",
            "face": "down",
            "action": "diplomacy",
            "force": "CHU",
            "dir": -1,
        },
    )
    assert st["track"]["CHU"] == {"box": "NEUTRAL_3", "received": False}
    st["active"] = "lianheng"
    with pytest.raises(RulesError, match="Not Received"):
        play(
            st,
            LH,
            {
                "type": "play",
                "card": "L_HAN_FEI",
                "face": "down",
                "action": "diplomacy",
                "force": "ZHAO",
                "dir": -1,
            },
        )
    st, _ = play(
        st,
        LH,
        {
            "type": "play",
            "card": "L_HAN_FEI",
            "face": "down",
            "action": "diplomacy",
            "force": "QI",
            "dir": -1,
        },
    )
    assert st["track"]["QI"] == {"box": "SERVE_QIN", "received": False}


@pytest.mark.parametrize("box", ["NEUTRAL_1", "ANTI_QIN"])
def test_11_qin_attacking_wei_sends_it_to_anti_qin_locked(box):
    st = never_respond(
        position(hands=HANDS, track={"WEI": box}, areas={"GUANZHONG": (stack("QIN", 4), [])})
    )
    st, _events = operate(st, LH, "XIAOHAN", "QIN", 3, path=["HEDONG"], dice=(1, 1))
    assert st["track"]["WEI"] == {"box": "ANTI_QIN", "received": False}


# 12. Weather -------------------------------------------------------------------------------
def test_12_the_alliance_takes_the_initiative_for_the_next_turn():
    st = position(hands=HANDS, active="alliance")
    assert st["initiative"] == {"side": "lianheng", "flipped": False}
    st, _ = play(
        st,
        AL,
        {"type": "play", "card": "A_SU_QIN", "face": "down", "action": "weather", "move": True},
    )
    assert st["initiative"] == {"side": "alliance", "flipped": True}
    assert st["active"] == "lianheng"  # this turn's order is already running
    st, _ = play(st, LH, {"type": "pass"})
    st, _ = play(st, AL, {"type": "pass"})
    assert st["turn"] == 2 and st["active"] == "alliance"


def test_12_the_lianheng_acting_first_can_block_it_by_flipping_in_place():
    st = position(hands=HANDS)
    st, _ = play(
        st,
        LH,
        {"type": "play", "card": "L_ZHANG_YI", "face": "down", "action": "weather", "move": False},
    )
    assert st["initiative"] == {"side": "lianheng", "flipped": True}
    with pytest.raises(RulesError, match="flipped"):
        play(
            st,
            AL,
            {"type": "play", "card": "A_SU_QIN", "face": "down", "action": "weather", "move": True},
        )


# 13. Generals ------------------------------------------------------------------------------
def test_13_only_the_activated_general_counts():
    assert B.ma_of(["SIMA_CUO", "BAI_QI"], "SIMA_CUO") == 3
    assert B.ma_of(["SIMA_CUO", "BAI_QI"], "BAI_QI") == 2
    base = {
        "movers": stack("QIN", tired=2, gens=("SIMA_CUO", "BAI_QI")),
        "join": None,
        "drm": {"attacker": 0, "defender": 0},
        "tloc": "field",
        "target": "CHU",
        "force": "QIN",
        "def": {"ready": 2, "tired": 0, "gens": [], "act": None},
    }
    assert R.result({**base, "act": "SIMA_CUO"}, "attacker", 3)[0] == 3
    assert R.result({**base, "act": "BAI_QI"}, "attacker", 3)[0] == 4
