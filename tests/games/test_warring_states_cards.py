"""The card texts (§14) played face up, and the response windows (§10, Ruling 16)."""

from __future__ import annotations

import random

import pytest

from games.base import RulesError
from games.warring_states import RULES
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


def up(st, seat, card, dice=(), **params):
    cmd = {"type": "play", "card": card, "face": "up", "action": "text", **params}
    return play(st, seat, cmd, Dice(*dice))


def pick(st, seat, card):
    return play(st, seat, {"type": "pick", "card": card}, random.Random(0))


def hands(lh, al):
    return {"lianheng": list(lh), "alliance": list(al)}


FILL_L = ["L_HAN_FEI", "L_FAN_JU", "L_BOLSTER_MORALE"]
FILL_A = ["A_MAO_SUI", "A_DOUBLE_RECRUITMENT:1", "A_BOLSTER_MORALE"]


# -- diplomacy cards -----------------------------------------------------------------------------
def test_zhang_yi_a_moves_a_received_counter_two_left_and_locks_it():
    st = never_respond(position(hands=hands(["L_ZHANG_YI", *FILL_L], FILL_A)))
    st, _ = up(st, LH, "L_ZHANG_YI", option="a", force="CHU")
    assert st["track"]["CHU"] == {"box": "NEUTRAL_2", "received": False}
    assert st["discards"]["lianheng"][-1] == {"card": "L_ZHANG_YI", "up": True}


def test_zhang_yi_b_takes_a_counter_out_of_revenge_qin_and_it_stays_locked():
    st = never_respond(position(hands=hands(["L_ZHANG_YI", *FILL_L], FILL_A)))
    with pytest.raises(RulesError):
        up(st, LH, "L_ZHANG_YI", option="a", force="ZHAO")  # Not Received
    st, _ = up(st, LH, "L_ZHANG_YI", option="b", force="ZHAO")
    assert st["track"]["ZHAO"] == {"box": "AFRAID_OF_QIN", "received": False}


def test_gongsun_yan_on_a_counter_at_the_end_locks_it_in_place():
    st = never_respond(position(hands=hands(FILL_L, ["A_GONGSUN_YAN", *FILL_A]), active="alliance"))
    st, _ = up(st, AL, "A_GONGSUN_YAN", option="a", force="WEI")
    assert st["track"]["WEI"] == {"box": "ANTI_QIN", "received": False}


def test_emissary_a_and_b():
    st = never_respond(
        position(hands=hands(FILL_L, ["A_EMISSARY_CHU", *FILL_A]), active="alliance")
    )
    st, _ = up(st, AL, "A_EMISSARY_CHU", option="a", force="CHU")
    assert st["track"]["CHU"] == {"box": "ANTI_QIN", "received": False}
    st = never_respond(
        position(hands=hands(FILL_L, ["A_EMISSARY_CHU", *FILL_A]), active="alliance")
    )
    st, _ = up(st, AL, "A_EMISSARY_CHU", option="b", force="CHU")  # Chu is Afraid of Qin
    assert {o["force"] for o in st["op"]["owed"]["options"]} == {"CHU"}
    st, _ = choose(st, AL, force="CHU", area="NANJUN")
    assert R.pending(st) == {AL: "operate"}
    with pytest.raises(RulesError, match="may not direct"):
        play(
            st,
            AL,
            {
                "type": "operate",
                "area": "HAN",
                "force": "HAN",
                "armies": 1,
                "generals": [],
                "activate": None,
                "path": ["SHANGDANG"],
            },
        )
    st, _ = play(
        st,
        AL,
        {
            "type": "operate",
            "area": "NANJUN",
            "force": "CHU",
            "armies": 3,
            "generals": [],
            "activate": None,
            "path": ["JIUJIANG"],
        },
    )
    assert st["areas"]["JIUJIANG"]["city"] == stack("CHU", 2, 3)


def test_lianheng_emissary_b_needs_the_kingdom_in_serve_qin():
    st = never_respond(position(hands=hands(["L_EMISSARY_ZHAO", *FILL_L], FILL_A)))
    with pytest.raises(RulesError):
        up(st, LH, "L_EMISSARY_ZHAO", option="b", force="ZHAO")


def test_mi_yue_a_sends_yiqu_straight_to_serve_qin():
    st = never_respond(position(hands=hands(["L_MI_YUE", *FILL_L], FILL_A)))
    st, _ = up(st, LH, "L_MI_YUE", option="a")
    assert st["track"]["YIQU"] == {"box": "SERVE_QIN", "received": False}


def test_a_card_linked_to_an_eliminated_force_is_played_face_down_only():
    st = never_respond(
        position(hands=hands(FILL_L, ["A_LORD_CHUNSHEN", *FILL_A]), active="alliance")
    )
    st["eliminated"].append("CHU")
    st["track"].pop("CHU")
    with pytest.raises(RulesError, match="cannot be played face up"):
        up(st, AL, "A_LORD_CHUNSHEN")


# -- cards and hands -------------------------------------------------------------------------
def test_han_fei_needs_a_hand_not_larger_than_the_opponents_counting_itself():
    st = never_respond(position(hands=hands(["L_HAN_FEI", "L_FAN_JU"], ["A_MAO_SUI"])))
    with pytest.raises(RulesError):
        up(st, LH, "L_HAN_FEI")
    st = never_respond(position(hands=hands(["L_HAN_FEI", "L_FAN_JU"], ["A_MAO_SUI", "A_SU_QIN"])))
    deck = list(st["decks"]["lianheng"])
    st, events = up(st, LH, "L_HAN_FEI")
    assert st["hands"]["lianheng"] == ["L_FAN_JU", *deck[:2]]
    drawn = next(e for e in events if e["type"] == "cards_drawn")
    assert drawn["visible_to"] == LH and RULES.redact(drawn, AL) == {
        "type": "cards_drawn",
        "visible_to": LH,
        "side": "lianheng",
        "why": "card",
        "count": 2,
    }


def test_lu_buwei_discards_another_card_then_draws_three():
    st = never_respond(position(hands=hands(["L_LU_BUWEI", "L_FAN_JU"], ["A_MAO_SUI", "A_SU_QIN"])))
    deck = list(st["decks"]["lianheng"])
    st, _ = up(st, LH, "L_LU_BUWEI")
    assert RULES.pending(st) == {LH: "pick"}
    assert RULES.legal(st, LH) == [{"type": "pick", "card": "L_FAN_JU"}]
    st, events = pick(st, LH, "L_FAN_JU")
    assert st["hands"]["lianheng"] == deck[:3]
    discarded = next(e for e in events if e["type"] == "card_discarded")
    assert "card" not in RULES.redact(discarded, AL)
    assert RULES.view(st, AL)["discards"]["lianheng"][-1] == {"card": None, "up": False}


def test_king_of_qin_takes_any_card_from_the_deck_then_shuffles_it():
    st = never_respond(position(hands=hands(["L_KING_OF_QIN", *FILL_L], FILL_A)))
    wanted = st["decks"]["lianheng"][-1]
    st, _ = up(st, LH, "L_KING_OF_QIN")
    assert {"type": "pick", "card": wanted} in RULES.legal(st, LH)
    st, events = pick(st, LH, wanted)
    assert wanted in st["hands"]["lianheng"] and wanted not in st["decks"]["lianheng"]
    assert [e["type"] for e in events][:2] == ["cards_drawn", "deck_searched"]
    assert next(e for e in events if e["type"] == "deck_searched")["visible_to"] == "server"


@pytest.mark.parametrize(("box", "step"), [("NEUTRAL_1", "draw"), ("AFRAID_OF_QIN", "take")])
def test_guo_wei_draws_for_a_neutral_yan_and_searches_for_an_allied_one(box, step):
    st = never_respond(
        position(hands=hands(FILL_L, ["A_GUO_WEI", *FILL_A]), active="alliance", track={"YAN": box})
    )
    st, _ = up(st, AL, "A_GUO_WEI")
    if step == "draw":
        assert len(st["hands"]["alliance"]) == 4 and st["active"] == "lianheng"
    else:
        assert RULES.pending(st) == {AL: "pick"}


def test_lord_chunshen_draws_three_keeps_two():
    st = never_respond(
        position(
            hands=hands([*FILL_L, "L_ZHANG_YI"], ["A_LORD_CHUNSHEN", *FILL_A]), active="alliance"
        )
    )
    drawn = st["decks"]["alliance"][:3]
    st, _ = up(st, AL, "A_LORD_CHUNSHEN")
    assert sorted(c["card"] for c in RULES.legal(st, AL)) == sorted(drawn)  # only those drawn
    st, _ = pick(st, AL, drawn[0])
    assert st["hands"]["alliance"] == [*FILL_A, *drawn[1:]]


# -- counters -------------------------------------------------------------------------------------
def test_double_recruitment_reinforces_two_different_forces():
    st = never_respond(
        position(hands=hands(FILL_L, ["A_DOUBLE_RECRUITMENT:2", *FILL_A]), active="alliance")
    )
    st, _ = up(st, AL, "A_DOUBLE_RECRUITMENT:2")
    st, _ = choose(st, AL, force="ZHAO", area="DAI")
    assert "ZHAO" not in {o["force"] for o in st["op"]["owed"]["options"]}
    st, _ = choose(st, AL, force="SONG", area="SONG")
    assert (
        st["areas"]["DAI"]["city"] == stack("ZHAO", 2) and st["areas"]["SONG"]["city"]["ready"] == 3
    )


def test_national_mobilization_fills_the_weakest_qin_areas_first():
    st = never_respond(position(hands=hands(["L_NATIONAL_MOBILIZATION:1", *FILL_L], FILL_A)))
    # Qin: Hanzhong 2, Longxi 2, Xiao Han 3, Shang Jun 3, Guanzhong 5: the two 2s, no choice
    st, events = up(st, LH, "L_NATIONAL_MOBILIZATION:1")
    assert sorted(next(e for e in events if e["type"] == "mobilized")["areas_placed"]) == [
        "HANZHONG",
        "LONGXI",
    ]
    st = never_respond(position(hands=hands(["L_NATIONAL_MOBILIZATION:1", *FILL_L], FILL_A)))
    st["areas"]["HANZHONG"]["city"]["ready"] = 3  # now a tie for the second place
    st, _ = up(st, LH, "L_NATIONAL_MOBILIZATION:1")
    assert sorted(sorted(o["areas"]) for o in st["op"]["owed"]["options"]) == [
        ["HANZHONG", "LONGXI"],
        ["LONGXI", "SHANGJUN"],
        ["LONGXI", "XIAOHAN"],
    ]


def test_legendary_general_a_and_b():
    st = never_respond(
        position(hands=hands(FILL_L, ["A_LEGENDARY_GENERAL:1", *FILL_A]), active="alliance")
    )
    st, _ = up(st, AL, "A_LEGENDARY_GENERAL:1", option="a")
    assert all(o["general"] != "WEI_WUJI" for o in st["op"]["owed"]["options"])
    assert all(
        B.faction(st, B.D.generals[o["general"]].force) == "alliance"
        for o in st["op"]["owed"]["options"]
    )
    st, _ = choose(st, AL, general="LI_MU", area="HANDAN")
    assert st["areas"]["HANDAN"]["city"]["gens"] == {"LI_MU": True}
    assert "LI_MU" not in st["pool"]
    st = never_respond(
        position(hands=hands(FILL_L, ["A_LEGENDARY_GENERAL:2", *FILL_A]), active="alliance")
    )
    st, _ = up(st, AL, "A_LEGENDARY_GENERAL:2", option="b")
    st, _ = pick(st, AL, "A_MAO_SUI")
    st, _ = choose(st, AL, general="LI_MU", area="HANDAN")
    assert "HANDAN" not in {o["area"] for o in st["op"]["owed"]["options"]}  # different areas
    st, _ = choose(st, AL, general="XIANG_YAN", area="NANYANG")
    assert st["active"] == "lianheng"


def test_fan_ju_sends_a_general_to_the_turn_track():
    st = never_respond(position(hands=hands(["L_FAN_JU", *FILL_L[:1]], FILL_A)))
    st["areas"]["HANDAN"]["city"]["gens"] = {"LI_MU": True}
    st["pool"].pop("LI_MU")
    st, _ = up(st, LH, "L_FAN_JU", general="LI_MU")
    assert st["areas"]["HANDAN"]["city"]["gens"] == {} and st["pool"]["LI_MU"] == 2


# -- military cards -------------------------------------------------------------------------
def test_double_operation_is_two_operations_and_the_first_ones_counters_are_spent():
    st = never_respond(
        position(hands=hands(["L_DOUBLE_OPERATION", *FILL_L], FILL_A), areas={"XIAOHAN": None})
    )
    st, _ = up(st, LH, "L_DOUBLE_OPERATION")
    st, _ = play(
        st,
        LH,
        {
            "type": "operate",
            "area": "GUANZHONG",
            "force": "QIN",
            "armies": 4,
            "generals": [],
            "activate": None,
            "path": ["XIAOHAN"],
        },
    )
    assert RULES.pending(st) == {LH: "operate"}
    assert not any(o["area"] == "XIAOHAN" for o in RULES.legal(st, LH))  # exhausted
    st, _ = play(
        st,
        LH,
        {
            "type": "operate",
            "area": "SHANGJUN",
            "force": "QIN",
            "armies": 1,
            "generals": [],
            "activate": None,
            "path": ["GUANZHONG"],
        },
    )
    assert st["active"] == "alliance"


def test_lianheng_elite_crossbowmen_a_fires_first_with_plus_two():
    st = never_respond(
        position(
            hands=hands(["L_ELITE_CROSSBOWMEN", *FILL_L], FILL_A),
            areas={"XIAOHAN": (stack("QIN", 2), [])},
        )
    )
    st, _ = up(st, LH, "L_ELITE_CROSSBOWMEN", option="a")
    st, events = play(
        st,
        LH,
        {
            "type": "operate",
            "area": "XIAOHAN",
            "force": "QIN",
            "armies": 2,
            "generals": [],
            "activate": None,
            "path": ["HAN"],
        },
        Dice(4, 6),
    )
    rolled = next(e for e in events if e["type"] == "dice_rolled")
    assert rolled["results"] == {"attacker": {"die": 4, "modified": 6, "hits": 1}}
    # Han strikes second with its 2 survivors: strength 2 + 1 (city) = 3, roll 6: 2 hits
    assert next(e for e in events if e["type"] == "second_strike")["hits"] == 2


@pytest.mark.parametrize(("rule", "chu"), [("revenge_or_anti_qin", False), ("afraid_of_qin", True)])
def test_the_alliance_emergency_mobilization_a_switch(rule, chu):
    st = never_respond(
        position(
            hands=hands(FILL_L, ["A_EMERGENCY_MOBILIZATION", *FILL_A]),
            active="alliance",
            alliance_emergency_mobilization_a=rule,
        )
    )
    st, _ = up(st, AL, "A_EMERGENCY_MOBILIZATION", option="a")
    st, _ = choose(st, AL, force="ZHAO", area="DAI")
    assert ("CHU" in {o["force"] for o in RULES.legal(st, AL)}) is chu  # Chu: Afraid of Qin


# -- responses ------------------------------------------------------------------------------
def test_li_si_cancels_an_alliance_character_card():
    st = position(hands=hands(["L_LI_SI", *FILL_L], ["A_SU_QIN", *FILL_A]), active="alliance")
    st, _ = up(st, AL, "A_SU_QIN", option="a", force="CHU")
    assert RULES.pending(st) == {LH: "respond"}
    st, _events = choose(st, LH, card="L_LI_SI")
    assert st["track"]["CHU"] == {"box": "AFRAID_OF_QIN", "received": True}  # no effect
    assert {"card": "A_SU_QIN", "up": True} in st["discards"]["alliance"]
    assert st["active"] == "lianheng"


def test_jing_ke_removes_both_cards_from_the_game():
    st = position(hands=hands(["L_ZHANG_YI", *FILL_L], ["A_JING_KE", *FILL_A]))
    st, _ = up(st, LH, "L_ZHANG_YI", option="a", force="CHU")
    st, _ = choose(st, AL, card="A_JING_KE")
    assert st["removed"] == {"lianheng": ["L_ZHANG_YI"], "alliance": ["A_JING_KE"]}
    assert st["track"]["CHU"]["box"] == "AFRAID_OF_QIN"


def test_no_jing_ke_window_while_yan_is_not_alliance():
    st = position(
        hands=hands(["L_ZHANG_YI", *FILL_L], ["A_JING_KE", *FILL_A]), track={"YAN": "NEUTRAL_2"}
    )
    st, events = up(st, LH, "L_ZHANG_YI", option="a", force="CHU")
    assert "window_opened" not in types(events) and st["active"] == "alliance"


def _attack_on_zhao(alliance_hand, standing=None):
    st = position(
        hands=hands(["L_ZHANG_YI", *FILL_L], alliance_hand),
        areas={"SHANGDANG": (stack("QIN", 3), []), "HANDAN": (stack("ZHAO", 2), [])},
    )
    if standing:
        st["standing"][AL] = standing
    st, _ = play(
        st, LH, {"type": "play", "card": "L_ZHANG_YI", "face": "down", "action": "military"}
    )
    return play(
        st,
        LH,
        {
            "type": "operate",
            "area": "SHANGDANG",
            "force": "QIN",
            "armies": 3,
            "generals": [],
            "activate": None,
            "path": ["HANDAN"],
        },
        Dice(1, 1),
    )


def test_the_passive_player_is_asked_whatever_the_hand():
    with_card, _ = _attack_on_zhao(["A_EMERGENCY_MOBILIZATION", *FILL_A])
    without, _ = _attack_on_zhao(FILL_A)
    assert RULES.pending(with_card) == RULES.pending(without) == {AL: "respond"}
    assert RULES.view(with_card, LH)["op"] == RULES.view(without, LH)["op"]  # no tell
    assert RULES.legal(without, AL) == [{"type": "choose", "option": 0}]  # only let it pass


def test_standing_instructions_never_and_auto():
    _, events = _attack_on_zhao(
        ["A_EMERGENCY_MOBILIZATION", *FILL_A], {"mode": "never", "cards": []}
    )
    assert "dice_rolled" in types(events) and "response_resolved" not in types(events)
    _st, events = _attack_on_zhao(
        ["A_EMERGENCY_MOBILIZATION", *FILL_A],
        {"mode": "auto", "cards": ["A_EMERGENCY_MOBILIZATION"]},
    )
    played = next(e for e in events if e["type"] == "card_played" and e["side"] == "alliance")
    assert played["auto"] and "dice_rolled" in types(events)


def test_standing_instructions_are_set_by_a_command_only_their_seat_sees():
    st = position(hands=hands(FILL_L, FILL_A))
    st, events = play(
        st, AL, {"type": "standing", "mode": "auto", "cards": ["A_ELITE_CROSSBOWMEN"]}
    )
    assert events[0]["visible_to"] == AL and RULES.view(st, LH)["standing"] is None
    with pytest.raises(RulesError):
        play(st, AL, {"type": "standing", "mode": "auto", "cards": ["L_LI_SI"]})


def test_bolster_morale_readies_exhausted_counters_and_the_operation_uses_them():
    st = never_respond(
        position(
            hands=hands(["L_BOLSTER_MORALE", "L_ZHANG_YI"], FILL_A),
            areas={"GUANZHONG": (stack("QIN", 1, 3), []), "XIAOHAN": None},
        )
    )
    with pytest.raises(RulesError):
        up(st, LH, "L_BOLSTER_MORALE", force="QIN", area="HANZHONG")  # nobody exhausted there
    st, _ = up(st, LH, "L_BOLSTER_MORALE", force="QIN", area="GUANZHONG")
    assert [o["armies"] for o in st["op"]["owed"]["options"]] == [1, 2, 3]
    st, _ = choose(st, LH, armies=2)
    assert st["areas"]["GUANZHONG"]["city"] == stack("QIN", 3, 1)
    assert {o["armies"] for o in RULES.legal(st, LH)} == {2, 3}  # the readied two at least
    with pytest.raises(RulesError, match="Bolster Morale"):
        play(
            st,
            LH,
            {
                "type": "operate",
                "area": "GUANZHONG",
                "force": "QIN",
                "armies": 1,
                "generals": [],
                "activate": None,
                "path": ["XIAOHAN"],
            },
        )
    st, _ = play(
        st,
        LH,
        {
            "type": "operate",
            "area": "GUANZHONG",
            "force": "QIN",
            "armies": 3,
            "generals": [],
            "activate": None,
            "path": ["XIAOHAN"],
        },
    )
    assert st["areas"]["XIAOHAN"]["city"] == stack("QIN", 0, 3)


def test_mounted_attack_goes_on_after_a_cleared_fight_with_plus_one_each_time():
    st = never_respond(
        position(
            hands=hands(["L_MOUNTED_ATTACK", "L_ZHANG_YI"], FILL_A),
            areas={"GUANZHONG": (stack("QIN", 4), []), "XIAOHAN": (stack("SONG", 1), [])},
        )
    )
    st, _ = up(st, LH, "L_MOUNTED_ATTACK")
    cmd = {
        "type": "operate",
        "area": "GUANZHONG",
        "force": "QIN",
        "armies": 4,
        "generals": [],
        "activate": None,
        "path": ["XIAOHAN"],
    }
    st, events = play(st, LH, cmd, Dice(5, 1))  # 5 + 1 = 6 at strength 4: 2 hits
    assert (
        next(e for e in events if e["type"] == "dice_rolled")["results"]["attacker"]["modified"]
        == 6
    )
    assert B.controller(st, "XIAOHAN") == "QIN"
    onward = {tuple(o.get("path", ())) for o in st["op"]["owed"]["options"]}
    assert ("HAN",) in onward and () in onward  # 1 MP left: one normal border, or stop
    st, events = choose(st, LH, (2, 1), do="onward", path=["HAN"])  # 2 + 1 = 3: 1 hit
    assert (
        next(e for e in events if e["type"] == "dice_rolled")["results"]["attacker"]["modified"]
        == 3
    )
    # Han is not cleared: the card ends, the stack retreats to the area it came from
    assert next(e for e in events if e["type"] == "retreated")["to"] == "XIAOHAN"
    # Han (strength 3 + 1) rolled 1: one Qin lost; the 3 left take the empty Xiao Han again
    assert st["areas"]["XIAOHAN"]["city"] == stack("QIN", 0, 3) and st["active"] == "alliance"


def test_mounted_attack_stops_when_the_fight_does_not_clear_the_area():
    st = never_respond(
        position(
            hands=hands(["L_MOUNTED_ATTACK", "L_ZHANG_YI"], FILL_A),
            areas={"GUANZHONG": (stack("QIN", 4), [])},
        )
    )
    st, _ = up(st, LH, "L_MOUNTED_ATTACK")
    cmd = {
        "type": "operate",
        "area": "XIAOHAN",
        "force": "QIN",
        "armies": 3,
        "generals": [],
        "activate": None,
        "path": ["HAN"],
    }
    st, events = play(st, LH, cmd, Dice(1, 1))
    assert "retreated" in types(events) and st["op"] is None and st["active"] == "alliance"


@pytest.mark.parametrize("wei", ["ANTI_QIN", "NEUTRAL_1"])
def test_lord_xinling_b_wei_wuji_marches_to_the_battle_and_leaves_after_it(wei):
    st = position(
        hands=hands(["L_ZHANG_YI", *FILL_L], ["A_LORD_XINLING", *FILL_A]),
        track={"WEI": wei},
        areas={"SHANGDANG": (stack("QIN", 3), []), "HANDAN": (stack("ZHAO", 2), [])},
    )
    st, _ = play(
        st, LH, {"type": "play", "card": "L_ZHANG_YI", "face": "down", "action": "military"}
    )
    st, events = play(
        st,
        LH,
        {
            "type": "operate",
            "area": "SHANGDANG",
            "force": "QIN",
            "armies": 3,
            "generals": [],
            "activate": None,
            "path": ["HANDAN"],
        },
    )
    kinds = [o["card"] for o in st["op"]["owed"]["options"]]
    assert ("A_LORD_XINLING" in kinds) is (wei == "ANTI_QIN")
    if wei != "ANTI_QIN":
        return
    # Zhao 2 + Wei Wuji (Sword) in the city: strength 4, 5 + 1 = 6 with a general: 3 hits
    st, _ = choose(st, AL, card="A_LORD_XINLING")
    assert "A_LORD_XINLING" not in [o["card"] for o in st["op"]["owed"]["options"]]
    st, events = choose(st, AL, (1, 5), card=None)  # the window stays open until a pass
    rolled = next(e for e in events if e["type"] == "dice_rolled")
    assert rolled["results"]["defender"] == {"die": 5, "modified": 6, "hits": 3}
    assert st["areas"]["SHANGDANG"]["city"] is None  # the 3 Qin are lost
    assert st["pool"]["WEI_WUJI"] == "available" and not B.general_at(st, "WEI_WUJI")


def test_fan_ju_emptying_a_city_lets_the_player_pick_who_moves_in():
    st = never_respond(position(hands=hands(["L_FAN_JU", *FILL_L[1:]], FILL_A)))
    st["areas"]["DAI"] = {
        "city": stack("ZHAO", gens=("LI_MU",)),
        "field": [stack("YAN", 1), stack("QI", 1)],
    }
    st["pool"].pop("LI_MU")
    st, _ = up(st, LH, "L_FAN_JU", general="LI_MU")
    assert sorted(o["force"] for o in st["op"]["owed"]["options"]) == ["QI", "YAN"]
    st, _ = choose(st, LH, force="YAN")
    assert B.controller(st, "DAI") == "YAN" and st["active"] == "alliance"


def _mi_yue_b(wei_armies):
    st = never_respond(
        position(
            "QIN_DOMINATES",
            hands=hands(["L_MI_YUE", *FILL_L], FILL_A),
            track={"WEI": "ANTI_QIN"},
            areas={
                "SHANGJUN": (stack("QIN", 2), [stack("YIQU", 2)]),
                "HEDONG": (stack("WEI", wei_armies), []),
            },
        )
    )
    st, _ = up(st, LH, "L_MI_YUE", option="b")
    assert {o["force"] for o in st["op"]["owed"]["options"]} == {"QIN", "YIQU"}
    st, _ = choose(st, LH, force="QIN", area="LONGXI")
    assert {
        "type": "operate",
        "area": "SHANGJUN",
        "force": "QIN",
        "armies": 2,
        "generals": [],
        "activate": None,
        "ally": 2,
        "path": ["HEDONG"],
    } in RULES.legal(st, LH)
    return st


def test_mi_yue_b_qin_and_yiqu_attack_as_one_side_and_qin_holds_the_city():
    st = _mi_yue_b(2)
    cmd = {
        "type": "operate",
        "area": "SHANGJUN",
        "force": "QIN",
        "armies": 2,
        "generals": [],
        "activate": None,
        "ally": 2,
        "path": ["HEDONG"],
    }
    st, events = play(st, LH, cmd, Dice(6, 1))  # strength 4, roll 6: 2 hits; Wei: none
    assert next(e for e in events if e["type"] == "dice_rolled")["results"]["attacker"]["hits"] == 2
    assert st["areas"]["HEDONG"] == {"city": stack("QIN", 0, 2), "field": [stack("YIQU", 0, 2)]}
    assert st["areas"]["SHANGJUN"] == {"city": None, "field": []}


def test_mi_yue_b_a_retreat_takes_each_back_and_losses_may_be_yiqu():
    st = _mi_yue_b(4)
    cmd = {
        "type": "operate",
        "area": "SHANGJUN",
        "force": "QIN",
        "armies": 2,
        "generals": [],
        "activate": None,
        "ally": 2,
        "path": ["HEDONG"],
    }
    st, _ = play(st, LH, cmd, Dice(1, 1))  # 1 hit each way
    options = st["op"]["owed"]["options"]
    assert {(o["movers"], o["ally_moved"]) for o in options} == {(1, 0), (0, 1)}
    st, events = choose(st, LH, movers=0, ally_moved=1)  # a Yiqu is lost
    assert next(e for e in events if e["type"] == "retreated")["to"] == "SHANGJUN"
    assert st["areas"]["SHANGJUN"] == {"city": stack("QIN", 0, 2), "field": [stack("YIQU", 0, 1)]}


def test_a_seat_searching_its_deck_sees_its_cards_sorted_and_nobody_else_does():
    st = never_respond(position(hands=hands(["L_KING_OF_QIN", *FILL_L], FILL_A)))
    st, _ = up(st, LH, "L_KING_OF_QIN")
    deck = st["decks"]["lianheng"]
    shown = RULES.view(st, LH)["decision"]["cards"]
    assert shown == sorted(set(deck)) and set(shown) == set(deck)
    assert shown == [c["card"] for c in RULES.legal(st, LH)]  # what the page offers is legal
    assert RULES.view(st, AL)["decision"] is None  # the opponent owes nothing, sees nothing
    assert "cards" not in str(RULES.view(st, None)["decision"])
