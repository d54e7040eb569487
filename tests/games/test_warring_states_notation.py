"""The Warring States position notation: round trips over random games of both scenarios,
known answers for both setups, malformed lines refused with a sentence naming the field,
and a line much shorter than the JSON dump."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from games.warring_states import RULES, notation
from games.warring_states import state as S
from games.warring_states.data import load
from tests.games.warring_states_helpers import Dice

D = load()
DOC = Path(__file__).resolve().parents[2] / "docs" / "warring_states_notation.md"
OPTIONS = hs.fixed_dictionaries(
    {
        "scenario": hs.sampled_from(sorted(D.scenarios)),
        "victory": hs.sampled_from(["basic", "bid"]),
        "first_side": hs.sampled_from(["lianheng", "alliance"]),
        **{name: hs.sampled_from(values) for name, values in D.config_values.items()},
    }
)

FIVE_KINGDOMS = (
    "warring-states/1 scenario=five_kingdoms victory=basic config=default turn=1/5 target=7 "
    "phase=play sides=lianheng/alliance bids=-/- active=lianheng passes=0 initiative=lianheng "
    "track=Qi:n2*,Chu:afraid*,Zhao:revenge,Wei:anti*,Han:anti*,Yan:afraid*,Yiqu:anti* "
    "board=longxi:[Qin2]Yiqu2,shangjun:[Qin3],guanzhong:[Qin4@SimaCuo],hanzhong:[Qin2],"
    "bashu:[Shu2],xiaohan:[Qin3],hedong:[Wei3],taiyuan:[Zhao4],shangdang:[Han2],dai:[Zhao1],"
    "handan:[Zhao2],yan:[Yan4],qi:[Qi4],daliang:[Wei3],han:[Han3],song:[Song2],nanyang:[Chu4],"
    "nanjun:[Chu2],jiujiang:[Chu2] "
    "pool=BaiQi,WangJian,ShuLiJi,KuangZhang,TianDan,XiangYan,ZhaoShe,LianPo,LiMu,WeiWuji,YueYi "
    "eliminated=- hands=LB,HF,ZY,FJ,LS/gw,mc,xl,cs,jk,ms "
    "decks=KQ,MY,MA,DO,BM,XB,EM1,EM2,EM3,EM4,NM1,NM2,LG,EZ,EQ,EC,EK1,EK2/"
    "gy,sq,ma,do,bm,xb,em,dr1,dr2,lg1,lg2,lg3,ez,eq,ec,ek1,ek2 "
    "discards=-/- removed=-/- standing=-/- prompts=0 result=- op=- rp=6/18 qin=6 "
    "pending=first:action"
)
QIN_DOMINATES = (
    "warring-states/1 scenario=qin_dominates victory=basic config=default turn=1/7 target=11 "
    "phase=play sides=lianheng/alliance bids=-/- active=alliance passes=0 initiative=alliance "
    "track=Qi:n1*,Chu:revenge,Zhao:n3*,Wei:serve*,Han:serve*,Yan:n2*,Yiqu:serve* "
    "board=longxi:[Qin2]Yiqu2,shangjun:[Qin2]Yiqu1,guanzhong:[Qin4],hanzhong:[Qin3],"
    "bashu:[Qin2@SimaCuo],xiaohan:[Qin3@ShuLiJi],hedong:[Qin2],taiyuan:[Zhao4],shangdang:[Han2],"
    "dai:[Zhao1],handan:[Zhao3],yan:[Yan2],qi:[Qi4],daliang:[Wei3],han:[Han2],song:[Song2],"
    "nanyang:[Chu3],nanjun:[Chu3],jiujiang:[Chu2] "
    "pool=BaiQi,WangJian,KuangZhang,TianDan,XiangYan,ZhaoShe,LianPo,LiMu,WeiWuji,YueYi "
    "eliminated=- hands=LB,HF,ZY,FJ,LS,KQ/gw,mc,xl,cs,jk "
    "decks=MY,MA,DO,BM,XB,EM1,EM2,EM3,EM4,NM1,NM2,LG,EZ,EQ,EC,EK1,EK2/"
    "ms,gy,sq,ma,do,bm,xb,em,dr1,dr2,lg1,lg2,lg3,ez,eq,ec,ek1,ek2 "
    "discards=-/- removed=-/- standing=-/- prompts=0 result=- op=- rp=15/5 qin=10 "
    "pending=second:action"
)


def positions(seed: int, options: dict):
    """Every position of one random legal game, the first and the last included."""
    rng = random.Random(seed)
    st = RULES.fold(RULES.setup(options, rng))
    yield st
    for _ in range(3000):
        due = RULES.pending(st)
        if not due:
            return
        seat = sorted(due)[0]
        for event in RULES.decide(st, seat, RULES.random_command(st, seat, rng), rng):
            st = RULES.evolve(st, event)
            yield st
    raise AssertionError("the game did not end")


def round_trip(st: dict) -> str:
    line = notation.dump(st)
    back = notation.load(line)
    assert back == st, [k for k in st if back.get(k) != st[k]]
    assert notation.dump(back) == line
    return line


def field(line: str, name: str) -> str:
    for token in line.split(" "):
        key, _, value = token.partition("=")
        if key == name:
            return value
    raise KeyError(name)


def replace(line: str, name: str, value: str) -> str:
    return re.sub(rf"(?<= ){name}=\S*", lambda _: f"{name}={value}", line, count=1)


def random_options(rng: random.Random, scenario: str) -> dict:
    options = {
        "scenario": scenario,
        "victory": rng.choice(["basic", "bid"]),
        "first_side": rng.choice(["lianheng", "alliance"]),
    }
    for name, values in D.config_values.items():
        options[name] = rng.choice(values)
    return options


# -- round trips ----------------------------------------------------------------------------
@pytest.mark.parametrize("scenario", sorted(D.scenarios))
def test_every_position_of_random_games_round_trips(scenario: str) -> None:
    dumped = notation_total = json_total = 0
    kinds = set()
    for seed in range(12):
        options = random_options(random.Random(seed), scenario)
        for st in positions(1000 + seed, options):
            line = round_trip(st)
            assert "\n" not in line and line.isascii() and line.isprintable()
            dumped += 1
            notation_total += len(line)
            json_total += len(json.dumps(st, sort_keys=True, separators=(",", ":")))
            if st["op"] and st["op"].get("owed"):
                kinds.add(st["op"]["owed"]["kind"])
    ratio = notation_total / json_total
    message = (
        f"{scenario}: {dumped} positions, notation {notation_total / dumped:.0f} characters "
        f"on average, JSON {json_total / dumped:.0f} ({ratio:.0%})"
    )
    print(message)
    assert ratio <= 0.5, message
    assert {"operate", "defend", "losses"} <= kinds, kinds  # decisions in the middle were met


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 2**32 - 1), options=OPTIONS)
def test_random_games_round_trip_through_the_platform(seed: int, options: dict) -> None:
    for st in positions(seed, options):
        text = RULES.dump_state(st)
        assert RULES.load_state(text) == st
        assert RULES.dump_state(RULES.load_state(text)) == text


def test_the_fields_hold_every_key_of_the_state() -> None:
    held = [key for keys in notation.KEYS.values() for key in keys]
    assert sorted(held) == sorted(S.initial()) and len(held) == len(set(held))
    assert tuple(notation.KEYS) == notation.FIELDS


def test_the_initial_state_round_trips() -> None:
    line = round_trip(S.initial())
    assert field(line, "board") == "-" and field(line, "phase") == "new"


def test_every_card_has_a_code_and_back() -> None:
    assert set(notation.KIND_CODE) == set(D.cards)
    for card in notation.CARD_IDS:
        assert notation.card_id(notation.card_code(card)) == card
    for kind, code in notation.KIND_CODE.items():
        assert code.isupper() == (D.cards[kind].side == "lianheng")


def test_hidden_and_rare_parts_round_trip() -> None:
    """Parts random games seldom reach: sealed bids, standing instructions, a redacted
    discard, exhausted generals, generals off the map, an eliminated force, a result."""
    st = RULES.fold(RULES.setup({"scenario": "FIVE_KINGDOMS", "victory": "bid"}, Dice()))
    st["bids"] = {"first": 4, "second": None}
    st["standing"] = {
        "first": {"mode": "auto", "cards": ["L_LI_SI", "L_ELITE_CROSSBOWMEN"]},
        "second": {"mode": "never", "cards": []},
    }
    st["discards"]["alliance"] = [{"card": None, "up": False}, {"card": "A_JING_KE", "up": True}]
    st["areas"]["GUANZHONG"]["city"]["gens"] = {"SIMA_CUO": False, "BAI_QI": True}
    st["areas"]["GUANZHONG"]["city"]["tired"] = 2
    st["pool"]["WANG_JIAN"] = 3
    st["pool"]["LI_MU"] = "removed"
    st["eliminated"] = ["SONG"]
    st["areas"]["SONG"] = {"city": None, "field": []}
    st["result"] = {
        "winner": None,
        "side": None,
        "reason": "resignation",
        "qin_rp": 6,
        "target": 7,
    }
    st["initiative"] = {"side": "alliance", "flipped": True}
    line = round_trip(st)
    assert field(line, "bids") == "4/?"
    assert field(line, "standing") == "auto:LS+XB/never"
    assert field(line, "discards") == "-/?,jk^"
    assert "guanzhong:[Qin4~2@SimaCuo~@BaiQi]" in line
    assert "WangJian:3" in line and "LiMu:removed" in line
    assert "song:" not in line and field(line, "eliminated") == "Song"
    assert field(line, "result") == "winner:-,side:-,reason:resignation,qin_rp:6,target:7"
    assert field(line, "initiative") == "alliance:flipped"


# -- known answers --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("scenario", "line"), [("FIVE_KINGDOMS", FIVE_KINGDOMS), ("QIN_DOMINATES", QIN_DOMINATES)]
)
def test_setup_known_answer(scenario: str, line: str) -> None:
    """``Dice`` leaves the decks in file order, so the setup is the same every time."""
    st = RULES.fold(RULES.setup({"scenario": scenario}, Dice()))
    assert notation.dump(st) == line
    assert notation.load(line) == st


def test_a_line_reads_as_the_position_it_says() -> None:
    st = notation.load(FIVE_KINGDOMS)
    assert st["areas"]["GUANZHONG"]["city"] == {
        "force": "QIN",
        "ready": 4,
        "tired": 0,
        "gens": {"SIMA_CUO": True},
    }
    assert st["areas"]["LONGXI"]["field"] == [{"force": "YIQU", "ready": 2, "tired": 0, "gens": {}}]
    assert st["areas"]["SHANGJUN"]["field"] == [] and st["areas"]["SHANGJUN"]["city"]
    assert st["track"]["ZHAO"] == {"box": "REVENGE_QIN", "received": False}
    assert st["hands"]["lianheng"][0] == "L_LU_BUWEI"
    assert st["decks"]["lianheng"][6] == "L_EMERGENCY_MOBILIZATION:1"
    assert st["decks"]["alliance"][-1] == "A_EMISSARY_MINOR:2"
    assert RULES.pending(st) == {"first": "action"}


def test_the_derived_fields_may_be_left_out() -> None:
    short = FIVE_KINGDOMS.rsplit(" rp=", 1)[0]
    assert notation.load(short) == notation.load(FIVE_KINGDOMS)
    assert notation.load(short + " pending=first:action") == notation.load(FIVE_KINGDOMS)


def test_the_documented_lines_round_trip() -> None:
    lines = [
        t for t in DOC.read_text(encoding="utf-8").splitlines() if t.startswith("warring-states/1 ")
    ]
    assert len(lines) >= 3, "the page shows both setups and a position from mid-game"
    for line in lines:
        assert notation.dump(notation.load(line)) == line
    assert any(field(t, "op") != "-" for t in lines), "one documented line has an operation"


# -- malformed lines ------------------------------------------------------------------------
BAD = [
    (FIVE_KINGDOMS.replace("warring-states/1", "warring-states/9"), "header: "),
    ("sun-tzu/1 variant=standard", "header: "),
    (FIVE_KINGDOMS.split(" target=")[0], "target: missing"),
    (replace(FIVE_KINGDOMS, "scenario", "five"), "scenario: 'five' is not a scenario"),
    (replace(FIVE_KINGDOMS, "victory", "points"), "victory: 'points' is not a victory rule"),
    (replace(FIVE_KINGDOMS, "config", "weather:on"), "config: 'weather:on' is not switch:value"),
    (
        replace(FIVE_KINGDOMS, "config", "retreat_destination:home"),
        "config: 'home' is not a value of retreat_destination",
    ),
    (replace(FIVE_KINGDOMS, "turn", "1"), "turn: '1' is the turn, '/', the number of turns"),
    (replace(FIVE_KINGDOMS, "target", "seven"), "target: 'seven' is not a whole number"),
    (replace(FIVE_KINGDOMS, "phase", "battle"), "phase: 'battle' is not a phase"),
    (replace(FIVE_KINGDOMS, "sides", "lianheng"), "sides: write first's part and second's"),
    (replace(FIVE_KINGDOMS, "sides", "qin/alliance"), "sides: first's part: 'qin' is not a side"),
    (replace(FIVE_KINGDOMS, "bids", "x/-"), "bids: first's part: 'x' is not a whole number"),
    (replace(FIVE_KINGDOMS, "initiative", "alliance:up"), "initiative: 'alliance:up' is a side"),
    (replace(FIVE_KINGDOMS, "track", "Qi:n9"), "track: 'Qi:n9' is not like Qi:n2"),
    (replace(FIVE_KINGDOMS, "board", "longxi:[Qin]"), "board: longxi: 'Qin' is not a stack"),
    (
        replace(FIVE_KINGDOMS, "board", "longxi:[Qin2"),
        "board: 'longxi:[Qin2': only the city's stack is in brackets",
    ),
    (replace(FIVE_KINGDOMS, "board", "rome:[Qin2]"), "board: 'rome' is not an area"),
    (replace(FIVE_KINGDOMS, "board", "longxi:[Rome2]"), "board: longxi: 'Rome' is not a force"),
    (
        replace(FIVE_KINGDOMS, "board", "longxi:[Qin2@SunTzu]"),
        "board: longxi: 'SunTzu' is not a general",
    ),
    (
        replace(FIVE_KINGDOMS, "board", "longxi:[Qin2],longxi:Wei1"),
        "board: longxi is written twice",
    ),
    (replace(FIVE_KINGDOMS, "pool", "BaiQi:soon"), "pool: BaiQi: 'soon' is removed or the turn"),
    (replace(FIVE_KINGDOMS, "eliminated", "Rome"), "eliminated: 'Rome' is not a force"),
    (replace(FIVE_KINGDOMS, "hands", "KQ,ZZ/-"), "hands: lianheng's part: 'ZZ' is not a card code"),
    (replace(FIVE_KINGDOMS, "hands", "EM/-"), "hands: lianheng's part: 'EM': the copies of"),
    (replace(FIVE_KINGDOMS, "hands", "KQ2/-"), "hands: lianheng's part: 'KQ2': the copies of"),
    (replace(FIVE_KINGDOMS, "hands", "KQ,,LS/-"), "hands: lianheng's part: an empty item"),
    (replace(FIVE_KINGDOMS, "decks", "KQ"), "decks: write lianheng's part and alliance's part"),
    (replace(FIVE_KINGDOMS, "standing", "maybe/-"), "standing: first's part: 'maybe' is not a"),
    (replace(FIVE_KINGDOMS, "result", "winner:first"), "result: the result names winner"),
    (replace(FIVE_KINGDOMS, "op", "{oops"), "op: not valid JSON"),
    (replace(FIVE_KINGDOMS, "op", "[1]"), "op: a JSON object"),
    (replace(FIVE_KINGDOMS, "pending", "second:action"), "pending: the text says 'second:action'"),
    (
        replace(FIVE_KINGDOMS, "rp", "7/17"),
        "rp: the text says '7/17' but the position gives '6/18'",
    ),
    (FIVE_KINGDOMS + " extra=1", "extra: unexpected after 'pending'"),
    (FIVE_KINGDOMS.replace(" rp=6/18 qin=6", " qin=6 rp=6/18"), "rp: unexpected after 'qin'"),
    (
        FIVE_KINGDOMS.replace(" victory=basic config=default", " config=default victory=basic"),
        "victory: expected victory=...",
    ),
    (FIVE_KINGDOMS + "\n", "position: a position is one line"),
]


@pytest.mark.parametrize(("line", "message"), BAD, ids=[m[:30] for _, m in BAD])
def test_malformed_lines_are_refused_with_a_sentence(line: str, message: str) -> None:
    with pytest.raises(notation.NotationError) as caught:
        notation.load(line)
    assert str(caught.value).startswith(message), str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_not_text_is_refused() -> None:
    with pytest.raises(notation.NotationError, match="position: expected a line of text"):
        notation.load(None)  # type: ignore[arg-type]


def test_determinized_and_seat_folded_positions_round_trip() -> None:
    """The AI's determinized positions, and a seat's fold of its redacted events (cards it
    cannot name are ``?``), are states too."""
    rng = random.Random(5)
    events = RULES.setup({"scenario": "QIN_DOMINATES", "victory": "bid"}, rng)
    st = RULES.fold(events)
    unknown = 0
    while due := RULES.pending(st):
        seat = sorted(due)[0]
        round_trip(RULES.knowledge.determinize(RULES.view(st, seat), seat, random.Random(1)))
        new = RULES.decide(st, seat, RULES.random_command(st, seat, rng), rng)
        events += new
        for event in new:
            st = RULES.evolve(st, event)
    for seat in RULES.seats:
        seen = [e for e in (RULES.redact(e, seat) for e in events) if e is not None]
        folded = S.initial()
        for event in seen:
            folded = S.evolve(folded, event)
            unknown += "?" in field(round_trip(folded), "discards")
    assert unknown, "some discards were cards the seat could not name"
