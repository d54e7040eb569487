"""§15 rulings that change play, each where it applies (others are covered beside the
worked examples, the cards and the config switches)."""

from __future__ import annotations

import random

import pytest

from games.base import RulesError
from games.warring_states import RULES, cards
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


def military(st, seat, cmd, dice=()):
    side = R.side_of(st, seat)
    st, _ = play(
        st,
        seat,
        {"type": "play", "card": st["hands"][side][0], "face": "down", "action": "military"},
    )
    return play(st, seat, {"type": "operate", "generals": [], "activate": None, **cmd}, Dice(*dice))


def test_ruling_4_an_alliance_force_attacking_an_alliance_force_sends_it_to_serve_qin():
    st = never_respond(
        position(
            hands=HANDS,
            active="alliance",
            areas={"LONGXI": (stack("QIN", 2), [stack("CHU", 1), stack("YIQU", 2)])},
        )
    )
    st, _ = military(st, AL, {"area": "LONGXI", "force": "YIQU", "armies": 2, "path": []})
    # Chu is friendly to Yiqu: the Qin city may be attacked too (Ruling 34); Yiqu picks Chu
    assert sorted(o["target"] for o in st["op"]["owed"]["options"]) == ["CHU", "QIN"]
    st, _ = choose(st, AL, (1, 1), target="CHU")
    assert st["track"]["CHU"] == {"box": "SERVE_QIN", "received": False}


def test_ruling_10_a_short_deck_draws_what_is_there():
    st = never_respond(
        position(
            hands={"lianheng": ["L_HAN_FEI", "L_FAN_JU"], "alliance": ["A_SU_QIN", "A_MAO_SUI"]}
        )
    )
    st["decks"]["lianheng"] = ["L_KING_OF_QIN"]
    st, _ = play(st, LH, {"type": "play", "card": "L_HAN_FEI", "face": "up", "action": "text"})
    assert st["hands"]["lianheng"] == ["L_FAN_JU", "L_KING_OF_QIN"]
    assert st["decks"]["lianheng"] == []


def test_ruling_33_a_stack_of_more_than_four_defends_with_four_of_the_defenders_choice():
    st = never_respond(
        position(
            hands=HANDS,
            areas={"HANZHONG": (stack("QIN", 3), []), "NANYANG": (stack("CHU", 4, 2), [])},
        )
    )
    st, _ = military(st, LH, {"area": "HANZHONG", "force": "QIN", "armies": 3, "path": ["NANYANG"]})
    assert R.pending(st) == {AL: "choose"} and st["op"]["owed"]["kind"] == "defend"
    picks = {(o["ready"], o["tired"]) for o in st["op"]["owed"]["options"]}
    assert picks == {(4, 0), (3, 1), (2, 2)}
    st, events = choose(st, AL, (1, 1), ready=2, tired=2)
    assert next(e for e in events if e["type"] == "defence_fixed")["defenders"]["tired"] == 2


def test_ruling_36_both_wiped_out_at_a_city_the_active_player_picks_who_moves_in():
    st = never_respond(
        position(
            "QIN_DOMINATES",
            hands=HANDS,
            active="lianheng",
            areas={
                "HEDONG": (stack("QIN", 1), []),
                "TAIYUAN": (stack("ZHAO", 1), [stack("HAN", 1), stack("WEI", 1)]),
            },
        )
    )
    st["track"]["ZHAO"] = {"box": "ANTI_QIN", "received": True}
    # Han and Wei stand in Serve Qin: friendly fields, so the city may be attacked
    st, _ = military(st, LH, {"area": "HEDONG", "force": "QIN", "armies": 1, "path": ["TAIYUAN"]})
    st, _ = choose(st, LH, (6, 6), target="ZHAO")  # 1 hit each way: both are gone
    assert st["op"]["owed"]["kind"] == "successor"
    assert sorted(o["force"] for o in st["op"]["owed"]["options"]) == ["HAN", "WEI"]
    st, _ = choose(st, LH, force="WEI")
    assert B.controller(st, "TAIYUAN") == "WEI"


def test_ruling_38_a_general_lost_in_the_last_turn_leaves_the_game():
    st = never_respond(
        position(
            hands=HANDS,
            areas={
                "HANZHONG": (stack("QIN", 0, gens=("SIMA_CUO",)), []),
                "NANYANG": (stack("CHU", 4), []),
            },
        )
    )
    st["turn"] = st["turns"]
    st, _ = military(
        st,
        LH,
        {
            "area": "HANZHONG",
            "force": "QIN",
            "armies": 0,
            "generals": ["SIMA_CUO"],
            "path": ["NANYANG"],
        },
        dice=(1, 6),
    )
    assert st["pool"]["SIMA_CUO"] == "removed"


def test_ruling_28_a_neutral_yiqu_field_stack_in_a_qin_area_stops_a_move_and_is_fought():
    st = never_respond(
        position(
            hands=HANDS, track={"YIQU": "NEUTRAL_2"}, areas={"GUANZHONG": (stack("QIN", 4), [])}
        )
    )
    assert ["LONGXI", "SHANGJUN"] not in B.paths(st, "GUANZHONG", "QIN", 3)
    st, events = military(
        st, LH, {"area": "GUANZHONG", "force": "QIN", "armies": 4, "path": ["LONGXI"]}, dice=(1, 1)
    )
    assert next(e for e in events if e["type"] == "fight_started")["target"] == "YIQU"
    assert st["track"]["YIQU"] == {"box": "ANTI_QIN", "received": False}


def test_ruling_32_a_retreat_into_enemy_counters_does_not_fight():
    st = never_respond(
        position(
            hands=HANDS,
            areas={
                "GUANZHONG": (stack("QIN", 4), []),
                "XIAOHAN": (stack("QIN", 1), [stack("WEI", 2)]),
                "HAN": (stack("HAN", 4), []),
            },
        )
    )
    st["track"]["WEI"] = {"box": "SERVE_QIN", "received": True}
    st, events = military(
        st,
        LH,
        {"area": "GUANZHONG", "force": "QIN", "armies": 3, "path": ["XIAOHAN", "HAN"]},
        dice=(1, 1),
    )
    assert types(events).count("dice_rolled") == 1
    assert next(e for e in events if e["type"] == "retreated")["to"] == "XIAOHAN"


def test_a_player_with_no_cards_only_passes_and_two_passes_end_the_action_step():
    st = position(hands={"lianheng": [], "alliance": ["A_SU_QIN"]}, active="alliance")
    st, events = play(st, AL, {"type": "pass"})
    assert st["turn"] == 2 and "passed" in types(events)
    assert RULES.outcome(st) is None


# -- review of issue 14: rulings that change play, each where it applies ------------------------
FILL_L = ["L_HAN_FEI", "L_FAN_JU", "L_BOLSTER_MORALE"]
FILL_A = ["A_MAO_SUI", "A_DOUBLE_RECRUITMENT:1", "A_BOLSTER_MORALE"]


def hands(lh, al):
    return {"lianheng": list(lh), "alliance": list(al)}


def up(st, seat, card, dice=(), **params):
    cmd = {"type": "play", "card": card, "face": "up", "action": "text", **params}
    return play(st, seat, cmd, Dice(*dice))


def operate(**cmd):
    return {"type": "operate", "generals": [], "activate": None, **cmd}


def _mi_yue_b(areas):
    st = never_respond(
        position(
            "QIN_DOMINATES",
            hands=hands(["L_MI_YUE", *FILL_L], FILL_A),
            track={"WEI": "ANTI_QIN"},
            areas=areas,
        )
    )
    st, _ = up(st, LH, "L_MI_YUE", option="b")
    st, _ = choose(st, LH, force="QIN", area="LONGXI")
    return st


def test_ruling_27_yiqu_counters_already_in_the_battlefield_may_join_a_mi_yue_b_attack():
    st = _mi_yue_b(
        {
            "SHANGJUN": (stack("QIN", 2), []),
            "HEDONG": (stack("WEI", 3), [stack("YIQU", 2)]),
        }
    )
    st, _ = play(st, LH, operate(area="SHANGJUN", force="QIN", armies=2, path=["HEDONG"]))
    joins = [o["join"] for o in st["op"]["owed"]["options"]]
    assert {"n": 0, "gens": [], "ally": 2} in joins
    # Yiqu on the attacking side is never the target (Ruling 27): only Wei, in the city
    assert {o["target"] for o in st["op"]["owed"]["options"] if o["join"].get("ally")} == {"WEI"}
    st, events = choose(st, LH, (6, 1), target="WEI", join={"n": 0, "gens": [], "ally": 2})
    rolled = next(e for e in events if e["type"] == "dice_rolled")
    assert rolled["results"]["attacker"]["hits"] == 2  # strength 4 with the 2 Yiqu, roll 6
    assert st["areas"]["HEDONG"]["field"] == [stack("YIQU", 0, 2)]
    assert st["areas"]["HEDONG"]["city"] == stack("WEI", 1)  # 3 - 2


def test_ruling_27_moving_yiqu_count_against_the_four_counter_limit_of_joiners():
    st = _mi_yue_b(
        {
            "SHANGJUN": (stack("QIN", 2), [stack("YIQU", 2)]),
            "HEDONG": (stack("WEI", 3), [stack("QIN", 2)]),
        }
    )
    st, events = play(
        st,
        LH,
        operate(area="SHANGJUN", force="QIN", armies=2, ally=2, path=["HEDONG"]),
        Dice(1, 1),
    )
    # 2 Qin + 2 Yiqu moved: 4 already, no Qin of He Dong may join; the fight goes on at once
    assert next(e for e in events if e["type"] == "target_chosen")["join"] == {"n": 0, "gens": []}


def _xinling(handan, qin=3, wei_areas=None):
    st = position(
        hands=hands(["L_ZHANG_YI", *FILL_L], ["A_LORD_XINLING", *FILL_A]),
        track={"WEI": "ANTI_QIN"},
        areas={"SHANGDANG": (stack("QIN", qin), []), "HANDAN": (handan, []), **(wei_areas or {})},
    )
    st, _ = play(
        st, LH, {"type": "play", "card": "L_ZHANG_YI", "face": "down", "action": "military"}
    )
    st, events = play(st, LH, operate(area="SHANGDANG", force="QIN", armies=qin, path=["HANDAN"]))
    return st, events


def test_ruling_24_wei_wujis_route_to_the_battle_is_chosen_and_recorded():
    # Wei in Da Liang (normal border to Han Dan) and in Han (Han - Da Liang - Han Dan)
    st, _ = _xinling(stack("ZHAO", 2), wei_areas={"HAN": (stack("WEI", 1), [])})
    routes = [o for o in st["op"]["owed"]["options"] if o["card"] == "A_LORD_XINLING"]
    assert {"card": "A_LORD_XINLING", "from": "DALIANG", "path": ["HANDAN"]} in routes
    assert {"card": "A_LORD_XINLING", "from": "HAN", "path": ["DALIANG", "HANDAN"]} in routes
    st, events = choose(st, AL, card="A_LORD_XINLING", **{"from": "HAN"})
    resolved = next(e for e in events if e["type"] == "response_resolved")
    assert resolved["from"] == "HAN" and resolved["path"] == ["DALIANG", "HANDAN"]


def test_ruling_24_wei_wujis_sword_counts_beside_the_defending_forces_activated_general():
    # Zhao 1 + Li Mu (Sword, activated for Zhao) + Wei Wuji (Sword, his own force's): +2
    st, _ = _xinling(stack("ZHAO", 1, gens=("LI_MU",)))
    st["pool"].pop("LI_MU", None)
    st, _ = choose(st, AL, card="A_LORD_XINLING")
    st, events = choose(st, AL, (1, 4), card=None)
    rolled = next(e for e in events if e["type"] == "dice_rolled")
    assert rolled["results"]["defender"] == {"die": 4, "modified": 6, "hits": 3}


def test_ruling_24_wei_wuji_surviving_alone_keeps_the_city_from_being_taken():
    # Qin 4 against Zhao 1 + Wei Wuji in the city: 1 hit each way; the Alliance loses the Zhao
    st, _ = _xinling(stack("ZHAO", 1), qin=4)
    st, _ = choose(st, AL, card="A_LORD_XINLING")
    st, events = choose(st, AL, (1, 1), card=None)
    st, events = choose(st, AL, ready=1, gens=[])
    if st["op"] and (st["op"].get("owed") or {}).get("kind") == "losses":
        st, more = choose(st, LH, movers=1)
        events += more
    assert "city_taken" not in types(events)
    assert next(e for e in events if e["type"] == "retreated")["to"] == "SHANGDANG"
    assert st["areas"]["HANDAN"] == {"city": None, "field": []}  # he left after the battle
    assert st["pool"]["WEI_WUJI"] == "available"


def test_ruling_21_hans_plus_one_from_a_crossbow_response_lasts_for_that_fight_only():
    st = position(
        hands=hands(["L_ZHANG_YI", *FILL_L], ["A_ELITE_CROSSBOWMEN", *FILL_A]),
        areas={"XIAOHAN": (stack("QIN", 4), []), "HAN": (stack("HAN", 1), [stack("ZHAO", 1)])},
    )
    st["standing"] = {
        LH: {"mode": "never", "cards": []},
        AL: {"mode": "auto", "cards": ["A_ELITE_CROSSBOWMEN"]},
    }
    st, _ = play(
        st, LH, {"type": "play", "card": "L_ZHANG_YI", "face": "down", "action": "military"}
    )
    # Zhao's field stack first (Ruling 34); the crossbows answer, Zhao fires first: no hit
    st, events = play(
        st, LH, operate(area="XIAOHAN", force="QIN", armies=4, path=["HAN"]), Dice(6, 1)
    )
    assert "response_resolved" in types(events)
    assert not st["areas"]["HAN"]["field"]
    # fighting Han next, with no new response: no +1 for Han (2 stays 2: no hit at CF 2)
    st, events = choose(st, LH, (1, 2), do="again", target="HAN")
    rolled = next(e for e in events if e["type"] == "dice_rolled")
    assert rolled["results"]["defender"] == {"die": 2, "modified": 2, "hits": 0}


def test_generals_joining_from_the_battlefield_one_of_them_is_activated():
    """§2.2: one general of the force has its icon effect, picked by the attacker."""
    st = never_respond(
        position(
            hands=HANDS,
            areas={
                "XIAOHAN": (stack("QIN", 1), []),
                "HAN": (stack("HAN", 4), [stack("QIN", gens=("BAI_QI", "WANG_JIAN"))]),
            },
        )
    )
    st, _ = military(st, LH, {"area": "XIAOHAN", "force": "QIN", "armies": 1, "path": ["HAN"]})
    both = {"n": 0, "gens": ["BAI_QI", "WANG_JIAN"]}
    acts = {o.get("act") for o in st["op"]["owed"]["options"] if o["join"] == both}
    assert acts == {"BAI_QI", "WANG_JIAN"}
    st, events = choose(st, LH, (3, 1), join=both, act="BAI_QI")
    rolled = next(e for e in events if e["type"] == "dice_rolled")
    # strength 3, 3 + 1 (Bai Qi) = 4: "1+" with a general, 2 hits
    assert rolled["results"]["attacker"] == {"die": 3, "modified": 4, "hits": 2}


# -- the checklist: one test per ruling that changes play (see the README for the others) -------
def down(st, seat, card, action, **params):
    return play(
        st, seat, {"type": "play", "card": card, "face": "down", "action": action, **params}
    )


def test_ruling_1_column_five_is_one_step_and_the_linear7_alternative_is_not():
    for layout, box in (("revenge_subbox", "ANTI_QIN"), ("linear7", "REVENGE_QIN")):
        st = never_respond(position(hands=HANDS, active="alliance", diplomacy_track_layout=layout))
        st, _ = down(st, AL, "A_SU_QIN", "diplomacy", force="CHU", dir=1)
        assert st["track"]["CHU"] == {"box": box, "received": False}
    assert B.shifted("SERVE_QIN", 4, "revenge_subbox") == "AFRAID_OF_QIN"
    assert B.shifted("SERVE_QIN", 5, "revenge_subbox") == "ANTI_QIN"


def test_ruling_2_a_lianheng_attack_leaves_revenge_qin_and_a_move_out_leaves_it_for_good():
    st = never_respond(position(hands=HANDS))  # Zhao starts in Revenge Qin, Not Received
    st, _events = military(
        st, LH, {"area": "SHANGJUN", "force": "QIN", "armies": 3, "path": ["TAIYUAN"]}, (1, 1)
    )
    assert st["track"]["ZHAO"] == {"box": "REVENGE_QIN", "received": False}
    assert B.shifted("REVENGE_QIN", -1, "revenge_subbox") == "AFRAID_OF_QIN"
    assert B.shifted("AFRAID_OF_QIN", 1, "revenge_subbox") == "ANTI_QIN"


def test_ruling_3_a_card_move_past_the_end_stops_there_and_locks():
    st = never_respond(position(hands=HANDS, track={"QI": "NEUTRAL_1"}))
    st, _ = up(st, LH, "L_ZHANG_YI", option="a", force="QI")
    assert st["track"]["QI"] == {"box": "SERVE_QIN", "received": False}
    st = never_respond(position(hands=HANDS, track={"QI": "SERVE_QIN"}))
    st, _ = up(st, LH, "L_ZHANG_YI", option="a", force="QI")
    assert st["track"]["QI"] == {"box": "SERVE_QIN", "received": False}


def test_ruling_4_forces_without_a_counter_shift_nothing_a_not_received_one_is_shifted():
    st = never_respond(position(hands=HANDS, areas={"DALIANG": (stack("QIN", 2), [])}))
    st, events = military(
        st, LH, {"area": "DALIANG", "force": "QIN", "armies": 2, "path": ["SONG"]}, (1, 1)
    )
    assert "shift" not in next(e for e in events if e["type"] == "fight_started")
    st = never_respond(position(hands=HANDS, track={"CHU": ("NEUTRAL_1", False)}))
    st, _ = military(
        st, LH, {"area": "HANZHONG", "force": "QIN", "armies": 2, "path": ["NANYANG"]}, (1, 1)
    )
    assert st["track"]["CHU"] == {"box": "ANTI_QIN", "received": False}


def test_ruling_5_a_face_down_diplomacy_action_moves_either_way():
    st = never_respond(position(hands=HANDS))
    st, _ = down(st, LH, "L_ZHANG_YI", "diplomacy", force="QI", dir=1)  # against Lianheng
    assert st["track"]["QI"] == {"box": "NEUTRAL_3", "received": False}


def test_ruling_6_mi_yue_a_sends_a_received_yiqu_to_serve_qin_from_any_distance():
    st = never_respond(position(hands=hands(["L_MI_YUE", *FILL_L], FILL_A)))
    assert st["track"]["YIQU"]["box"] == "ANTI_QIN"
    st, _ = up(st, LH, "L_MI_YUE", option="a")
    assert st["track"]["YIQU"] == {"box": "SERVE_QIN", "received": False}
    st = position(hands=hands(["L_MI_YUE", *FILL_L], FILL_A), track={"YIQU": ("NEUTRAL_1", False)})
    assert {"option": "a"} not in cards.variants(st, "lianheng", "L_MI_YUE")


def test_ruling_7_option_b_moves_a_not_received_counter_one_column_and_it_stays_locked():
    st = never_respond(position(hands=hands(["L_ZHANG_YI", *FILL_L], FILL_A)))
    assert {"option": "a", "force": "ZHAO"} not in cards.variants(st, "lianheng", "L_ZHANG_YI")
    st, _ = up(st, LH, "L_ZHANG_YI", option="b", force="ZHAO")
    assert st["track"]["ZHAO"] == {"box": "AFRAID_OF_QIN", "received": False}
    st = never_respond(position(hands=hands(FILL_L, ["A_GONGSUN_YAN", *FILL_A]), active="alliance"))
    st, _ = up(st, AL, "A_GONGSUN_YAN", option="b", force="ZHAO")  # already at the end
    assert st["track"]["ZHAO"] == {"box": "REVENGE_QIN", "received": False}


def test_ruling_8_neutral_forces_are_never_directed_but_anyone_may_reinforce_them():
    st = never_respond(position(hands=HANDS, active="alliance", track={"QI": "NEUTRAL_2"}))
    st, _ = down(st, AL, "A_SU_QIN", "reinforcement", force="QI", area="QI")
    assert st["areas"]["QI"]["city"]["ready"] == 5
    st = never_respond(position(hands=HANDS, active="alliance"))
    st, _ = down(st, AL, "A_SU_QIN", "military")
    assert not any(o["force"] in ("QI", "SONG", "SHU") for o in RULES.legal(st, AL))
    with pytest.raises(RulesError):
        play(st, AL, operate(area="QI", force="QI", armies=1, path=["SONG"]))


def test_ruling_9_areas_of_neutral_forces_count_for_nobody_at_the_draw():
    st = position(hands=HANDS)
    assert (B.rp(st, "lianheng"), B.rp(st, "alliance")) == (6, 18)  # Qi, Song, Shu: nobody's
    st["track"]["QI"] = {"box": "SERVE_QIN", "received": True}
    assert B.rp(st, "lianheng") == 6 + B.D.rp["QI"]


def test_ruling_11_hand_size_conditions_count_the_card_itself():
    chunshen = ["A_LORD_CHUNSHEN", "A_MAO_SUI", "A_BOLSTER_MORALE"]
    st = position(hands=hands(FILL_L, chunshen), active="alliance")  # 3 against 3
    assert cards.variants(st, "alliance", "A_LORD_CHUNSHEN") == [{}]
    st = position(hands=hands(FILL_L[:2], chunshen), active="alliance")  # 3 against 2
    assert cards.variants(st, "alliance", "A_LORD_CHUNSHEN") == []
    st = position(hands=hands(["L_HAN_FEI", "L_FAN_JU"], FILL_A[:2]))
    assert cards.variants(st, "lianheng", "L_HAN_FEI") == [{}]


def test_ruling_12_lu_buwei_needs_another_card_to_discard():
    st = position(hands=hands(["L_LU_BUWEI"], FILL_A))
    assert cards.variants(st, "lianheng", "L_LU_BUWEI") == []
    st = position(hands=hands(["L_LU_BUWEI", "L_FAN_JU"], FILL_A))
    assert cards.variants(st, "lianheng", "L_LU_BUWEI") == [{}]


def test_ruling_13_plays_must_be_legal_now():
    st = position(hands=HANDS)
    with pytest.raises(RulesError):  # Zhao is Not Received
        down(st, LH, "L_ZHANG_YI", "diplomacy", force="ZHAO", dir=-1)
    st["initiative"]["flipped"] = True
    with pytest.raises(RulesError):
        down(st, LH, "L_ZHANG_YI", "weather", move=True)
    st = position(hands=hands(FILL_L, ["A_GUO_WEI", *FILL_A]), track={"YAN": "SERVE_QIN"})
    assert cards.variants(st, "alliance", "A_GUO_WEI") == []


def test_ruling_14_legendary_general_places_an_available_general_of_a_friendly_force():
    st = never_respond(
        position(hands=hands(FILL_L, ["A_LEGENDARY_GENERAL:1", *FILL_A]), active="alliance")
    )
    st["pool"]["LI_MU"] = 2  # on the turn track: not available
    st, _ = up(st, AL, "A_LEGENDARY_GENERAL:1", option="a")
    offered = {o["general"] for o in st["op"]["owed"]["options"]}
    assert "LI_MU" not in offered and "WEI_WUJI" not in offered and "KUANG_ZHANG" not in offered
    assert {"ZHAO_SHE", "LIAN_PO", "XIANG_YAN", "YUE_YI"} <= offered  # Qi is Neutral
    # b): no friendly general on the map and 2 other cards in hand
    st = position(hands=hands(FILL_L, ["A_LEGENDARY_GENERAL:1", "A_MAO_SUI"]), active="alliance")
    assert {"option": "b"} not in cards.variants(st, "alliance", "A_LEGENDARY_GENERAL:1")
    st = position(hands=hands(FILL_L, ["A_LEGENDARY_GENERAL:1", *FILL_A]), active="alliance")
    assert {"option": "b"} in cards.variants(st, "alliance", "A_LEGENDARY_GENERAL:1")
    st["areas"]["HANDAN"]["city"]["gens"] = {"LI_MU": True}
    assert {"option": "b"} not in cards.variants(st, "alliance", "A_LEGENDARY_GENERAL:1")


def test_ruling_15_li_si_and_jing_ke_cancel_and_end_the_phase():
    from tests.games import test_warring_states_cards as T

    T.test_li_si_cancels_an_alliance_character_card()
    T.test_jing_ke_removes_both_cards_from_the_game()


def test_ruling_16_break_options_b_are_responses_only_and_responses_are_not_actions():
    st = position(
        hands=hands(["L_LI_SI", "L_EMERGENCY_MOBILIZATION:1", "L_ELITE_CROSSBOWMEN"], FILL_A)
    )
    assert cards.variants(st, "lianheng", "L_LI_SI") == []
    assert cards.variants(st, "lianheng", "L_EMERGENCY_MOBILIZATION:1") == [{"option": "a"}]
    with pytest.raises(RulesError):
        up(st, LH, "L_EMERGENCY_MOBILIZATION:1", option="b")
    from tests.games import test_warring_states_examples as E

    E.test_10_emergency_mobilization_and_elite_crossbowmen_answer_wang_jian()


def test_ruling_17_card_operations_direct_only_what_face_down_could():
    st = never_respond(
        position(hands=hands(FILL_L, ["A_DOUBLE_OPERATION", *FILL_A]), active="alliance")
    )
    st, _ = up(st, AL, "A_DOUBLE_OPERATION")
    forces = {o["force"] for o in RULES.legal(st, AL)}
    assert "CHU" not in forces and "YAN" not in forces  # Afraid of Qin
    assert {"WEI", "HAN", "YIQU", "ZHAO"} <= forces
    with pytest.raises(RulesError):
        play(st, AL, operate(area="NANYANG", force="CHU", armies=1, path=["HAN"]))


def test_ruling_18_double_operation_is_two_operations():
    from tests.games import test_warring_states_cards as T

    T.test_double_operation_is_two_operations_and_the_first_ones_counters_are_spent()


def test_ruling_19_mounted_attack():
    from tests.games import test_warring_states_cards as T

    T.test_mounted_attack_goes_on_after_a_cleared_fight_with_plus_one_each_time()
    T.test_mounted_attack_stops_when_the_fight_does_not_clear_the_area()


def test_ruling_20_bolster_morale():
    from tests.games import test_warring_states_cards as T

    T.test_bolster_morale_readies_exhausted_counters_and_the_operation_uses_them()


def test_ruling_22_alliance_emergency_mobilization_a_both_readings():
    from tests.games import test_warring_states_cards as T

    for rule, chu in (("revenge_or_anti_qin", False), ("afraid_of_qin", True)):
        T.test_the_alliance_emergency_mobilization_a_switch(rule, chu)


def test_ruling_23_first_strike_the_other_side_reads_its_surviving_strength():
    from tests.games import test_warring_states_examples as E

    E.test_10_emergency_mobilization_and_elite_crossbowmen_answer_wang_jian()


def test_ruling_25_national_mobilization():
    from tests.games import test_warring_states_cards as T

    T.test_national_mobilization_fills_the_weakest_qin_areas_first()


def test_ruling_26_fan_ju_a_removed_general_cannot_come_back_the_same_turn():
    st = never_respond(
        position(hands=hands(["L_FAN_JU", "L_LEGENDARY_GENERAL", "L_HAN_FEI"], FILL_A))
    )
    st["areas"]["XIAOHAN"]["city"]["gens"] = {"BAI_QI": True}
    st["pool"].pop("BAI_QI")
    st, _ = up(st, LH, "L_FAN_JU", general="BAI_QI")
    assert st["pool"]["BAI_QI"] == st["turn"] + 1
    st["active"] = "lianheng"
    st, _ = up(st, LH, "L_LEGENDARY_GENERAL", option="a")
    assert "BAI_QI" not in {o["general"] for o in st["op"]["owed"]["options"]}


def test_ruling_29_a_stopped_stack_joins_its_force_else_takes_an_empty_city_else_the_field():
    st = never_respond(
        position(
            hands=HANDS,
            areas={
                "GUANZHONG": (stack("QIN", 3), []),
                "XIAOHAN": (stack("HAN", 1), [stack("QIN", 1)]),
            },
            track={"HAN": "SERVE_QIN"},
        )
    )
    st, _ = military(
        st, LH, {"area": "GUANZHONG", "force": "QIN", "armies": 2, "path": ["XIAOHAN"]}
    )
    assert st["areas"]["XIAOHAN"] == {"city": stack("HAN", 1), "field": [stack("QIN", 1, 2)]}


def test_ruling_30_counters_left_alone_in_an_uncontrolled_area_take_the_city():
    st = never_respond(
        position(
            hands=HANDS,
            areas={"XIAOHAN": (stack("QIN", 2), [stack("HAN", 1)])},
            track={"HAN": "SERVE_QIN"},
        )
    )
    st, _ = military(
        st, LH, {"area": "XIAOHAN", "force": "QIN", "armies": 2, "path": ["GUANZHONG"]}
    )
    assert st["areas"]["XIAOHAN"] == {"city": stack("HAN", 1), "field": []}


def test_ruling_31_an_operation_uses_one_force_in_one_area():
    st = never_respond(
        position(
            hands=HANDS,
            active="alliance",
            areas={"HAN": (stack("HAN", 2), [stack("WEI", 2)])},
        )
    )
    st, _ = down(st, AL, "A_SU_QIN", "military")
    with pytest.raises(RulesError):  # no Mi Yue: an ally is not accepted
        play(st, AL, operate(area="HAN", force="HAN", armies=2, ally=2, path=["DALIANG"]))
    assert all("ally" not in o for o in RULES.legal(st, AL))


def test_ruling_34_the_city_is_a_target_only_when_every_field_stack_is_friendly():
    st = never_respond(
        position(
            hands=HANDS,
            areas={
                "GUANZHONG": (stack("QIN", 3), []),
                "XIAOHAN": (stack("ZHAO", 1), [stack("WEI", 1), stack("HAN", 1)]),
            },
            track={"WEI": "SERVE_QIN", "HAN": "NEUTRAL_1"},
        )
    )
    st, _ = military(
        st, LH, {"area": "GUANZHONG", "force": "QIN", "armies": 3, "path": ["XIAOHAN"]}
    )
    # a Neutral Han field stack: only a field stack, friendly Wei included; not Zhao's city
    assert {o["target"] for o in st["op"]["owed"]["options"]} == {"WEI", "HAN"}


def test_ruling_35_with_only_friendly_forces_left_the_attacker_may_stay():
    st = never_respond(
        position(
            hands=HANDS,
            areas={
                "GUANZHONG": (stack("QIN", 3), []),
                "XIAOHAN": (stack("WEI", 1), [stack("HAN", 1)]),
            },
            track={"WEI": "SERVE_QIN", "HAN": "NEUTRAL_1"},
        )
    )
    st, _ = military(
        st, LH, {"area": "GUANZHONG", "force": "QIN", "armies": 3, "path": ["XIAOHAN"]}, (6, 1)
    )
    assert {o["do"] for o in st["op"]["owed"]["options"]} == {"again", "retreat", "stay"}
    st, _ = choose(st, LH, do="stay")
    assert st["areas"]["XIAOHAN"] == {"city": stack("WEI", 1), "field": [stack("QIN", 0, 3)]}


def test_ruling_35_with_a_non_friendly_force_left_the_attacker_fights_again_or_retreats():
    st = never_respond(
        position(
            hands=HANDS,
            areas={
                "GUANZHONG": (stack("QIN", 3), []),
                "XIAOHAN": (stack("ZHAO", 1), [stack("WEI", 1)]),
            },
            track={"WEI": "NEUTRAL_1"},
        )
    )
    st, _ = military(
        st, LH, {"area": "GUANZHONG", "force": "QIN", "armies": 3, "path": ["XIAOHAN"]}, (6, 1)
    )
    assert {o["do"] for o in st["op"]["owed"]["options"]} == {"again", "retreat"}


def test_ruling_37_each_side_chooses_its_casualties_generals_included():
    st = never_respond(
        position(
            hands=HANDS,
            areas={
                "HANZHONG": (stack("QIN", 2, gens=("BAI_QI",)), []),
                "NANYANG": (stack("CHU", 2, gens=("XIANG_YAN",)), []),
            },
        )
    )
    st["pool"].pop("BAI_QI")
    st["pool"].pop("XIANG_YAN")
    st, _ = military(
        st,
        LH,
        {"area": "HANZHONG", "force": "QIN", "armies": 2, "generals": ["BAI_QI"],
         "path": ["NANYANG"]},
        (1, 1),
    )  # fmt: skip
    # Qin 3 at 1+1 = 2: 1 hit; Chu 3 + city = 4 at 1: 1 hit; each side picks its own
    assert st["op"]["owed"]["side"] == "alliance"
    st, _ = choose(st, AL, gens=["XIANG_YAN"])
    assert st["op"]["owed"]["side"] == "lianheng"
    st, _ = choose(st, LH, gens=["BAI_QI"])
    assert st["pool"]["BAI_QI"] == st["pool"]["XIANG_YAN"] == st["turn"] + 1


def test_ruling_38_a_general_lost_comes_back_off_the_board_at_the_end_step():
    from tests.games import test_warring_states_rules as T

    T.test_the_lost_general_switch("next_turn")


def test_ruling_39_an_eliminated_force_is_out_for_good():
    st = never_respond(
        position(hands=HANDS, areas={"HAN": (stack("HAN", 1), []), "SHANGDANG": None})
    )
    st, _events = military(
        st, LH, {"area": "XIAOHAN", "force": "QIN", "armies": 3, "path": ["HAN"]}, (6, 1)
    )
    assert "HAN" in st["eliminated"] and "HAN" not in st["track"]
    assert R.reinforce_places(st, "HAN") == []
    assert B.faction(st, "HAN") is None
    st["hands"]["alliance"] = ["A_EMISSARY_MINOR:1"]
    forces = {v["force"] for v in cards.variants(st, "alliance", "A_EMISSARY_MINOR:1")}
    assert "HAN" not in forces


def test_ruling_40_army_counters_are_unlimited():
    st = never_respond(position(hands=HANDS))
    st["areas"]["GUANZHONG"]["city"]["ready"] = 200
    st, _ = down(st, LH, "L_ZHANG_YI", "reinforcement", force="QIN", area="GUANZHONG")
    assert st["areas"]["GUANZHONG"]["city"]["ready"] == 201


def test_ruling_41_a_general_stays_with_his_force_and_serves_who_directs_it():
    st = never_respond(
        position(
            hands=hands(FILL_L, ["A_SU_QIN", *FILL_A]),
            active="alliance",
            track={"QI": "ANTI_QIN"},
            areas={"QI": (stack("QI", 1, gens=("KUANG_ZHANG",)), [])},
        )
    )
    st, _ = down(st, AL, "A_SU_QIN", "military")
    assert any(o["force"] == "QI" and o["generals"] == ["KUANG_ZHANG"] for o in RULES.legal(st, AL))


def test_ruling_42_weather():
    from tests.games import test_warring_states_examples as E

    E.test_12_the_alliance_takes_the_initiative_for_the_next_turn()
    E.test_12_the_lianheng_acting_first_can_block_it_by_flipping_in_place()


def test_ruling_44_a_pass_is_final_only_when_the_opponent_passes_next():
    from tests.games import test_warring_states_rules as T

    T.test_a_pass_is_not_final_if_the_opponent_then_plays()


def test_ruling_46_the_lianheng_deck_has_23_cards_two_national_mobilizations():
    st = RULES.fold(RULES.setup({}, random.Random(0)))
    deck = st["decks"]["lianheng"] + st["hands"]["lianheng"]
    assert len(deck) == 23
    assert sum(c.startswith("L_NATIONAL_MOBILIZATION") for c in deck) == 2
    assert sum(c.startswith("L_EMERGENCY_MOBILIZATION") for c in deck) == 4


def test_ruling_47_king_of_qin_is_a_character_card_jing_ke_can_cancel():
    st = position(hands=hands(["L_KING_OF_QIN", *FILL_L], ["A_JING_KE", *FILL_A]))
    st, _ = up(st, LH, "L_KING_OF_QIN")
    assert RULES.pending(st) == {AL: "respond"}
    st, _ = choose(st, AL, card="A_JING_KE")
    assert st["removed"] == {"lianheng": ["L_KING_OF_QIN"], "alliance": ["A_JING_KE"]}


def test_ruling_48_49_50_setup_data():
    fk = RULES.fold(RULES.setup({}, random.Random(0)))
    assert fk["areas"]["GUANZHONG"]["city"] == stack("QIN", 4, gens=("SIMA_CUO",))
    qd = RULES.fold(RULES.setup({"scenario": "QIN_DOMINATES"}, random.Random(0)))
    assert not any(B.stack_of(c, "SHU") for c in qd["areas"].values())
    assert qd["areas"]["BASHU"]["city"]["force"] == "QIN" and "SHU" not in qd["eliminated"]
    assert qd["areas"]["HEDONG"]["city"] == stack("QIN", 2)
    assert B.qin_rp(qd) == qd["target"] - 1 and B.qin_rp(fk) == fk["target"] - 1


def test_ruling_51_card_links_and_the_emissary_to_a_minor_kingdom():
    st = position(hands=hands(FILL_L, ["A_GUO_WEI", "A_EMISSARY_MINOR:1", "A_LORD_MENGCHANG"]))
    st["eliminated"] = ["YAN", "WEI"]
    for force in ("YAN", "WEI"):
        st["track"].pop(force)
    assert cards.variants(st, "alliance", "A_GUO_WEI") == []
    assert cards.variants(st, "alliance", "A_LORD_MENGCHANG") == [{}]
    forces = {v["force"] for v in cards.variants(st, "alliance", "A_EMISSARY_MINOR:1")}
    assert forces == {"HAN", "YIQU"}
    st["eliminated"] += ["HAN", "YIQU"]
    for force in ("HAN", "YIQU"):
        st["track"].pop(force)
    assert cards.variants(st, "alliance", "A_EMISSARY_MINOR:1") == []
    st2 = position(hands=hands(["L_MI_YUE"], FILL_A))
    st2["eliminated"] = ["YIQU"]
    st2["track"].pop("YIQU")
    assert cards.variants(st2, "lianheng", "L_MI_YUE") == []


def test_ruling_21_elite_crossbowmen_a_fires_first_in_every_fight_of_the_operation():
    st = never_respond(
        position(
            hands=hands(["L_ELITE_CROSSBOWMEN", *FILL_L], FILL_A),
            areas={
                "GUANZHONG": (stack("QIN", 4), []),
                "XIAOHAN": (stack("ZHAO", 1), [stack("WEI", 1)]),
            },
            track={"WEI": "NEUTRAL_1"},
        )
    )
    st, _ = up(st, LH, "L_ELITE_CROSSBOWMEN", option="a")
    st, events = play(
        st, LH, operate(area="GUANZHONG", force="QIN", armies=4, path=["XIAOHAN"]), Dice(6, 6)
    )
    first = next(e for e in events if e["type"] == "dice_rolled")
    assert set(first["results"]) == {"attacker"}  # Wei (wiped out first) strikes back with 0
    assert next(e for e in events if e["type"] == "second_strike")["hits"] == 0
    st, events = choose(st, LH, (6, 6), do="again", target="ZHAO")
    again = next(e for e in events if e["type"] == "dice_rolled")
    assert set(again["results"]) == {"attacker"}
    assert again["results"]["attacker"]["modified"] == 6  # +2, clamped
    assert st["areas"]["XIAOHAN"]["city"]["force"] == "QIN"
