"""§15 rulings that change play, each where it applies (others are covered beside the
worked examples, the cards and the config switches)."""

from __future__ import annotations

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
