"""The card plays the view lists to the seat that owes one (``decision.plays``): exactly the
rules' legal ``play`` commands, every one accepted; nobody else gets them (they name the
cards of the hand)."""

from __future__ import annotations

import json
import random

import pytest
from warring_states_helpers import AL, LH, position

from games.warring_states import RULES


def listed(plays: dict, hand: list[str]) -> list[dict]:
    """``decision.plays`` as the commands the page sends."""
    out = [
        {"type": "play", "card": card, "face": "down", **action}
        for card in hand
        for action in plays["down"]
    ]
    for card, variants in plays["up"].items():
        up = {"type": "play", "card": card, "face": "up", "action": "text"}
        out += [{**up, **v} for v in variants]
    return out


def key(cmd: dict) -> str:
    return json.dumps(cmd, sort_keys=True)


def check_position(st: dict, seat: str) -> int:
    """Asserts the listing is the rules' and each listed play is accepted; the number seen."""
    side = RULES.view(st, seat)["me"]
    plays = RULES.view(st, seat)["decision"]["plays"]
    hand = st["hands"][side]
    assert sorted(plays["up"]) == sorted(hand)
    assert set(plays["why"]) == {c for c, v in plays["up"].items() if not v}
    mine = listed(plays, hand)
    legal = [c for c in RULES.legal(st, seat) if c["type"] == "play"]
    assert sorted(map(key, mine)) == sorted(map(key, legal))
    for cmd in mine:
        assert RULES.decide(st, seat, cmd, random.Random(0)), cmd  # accepted
    for other in (*(s for s in RULES.seats if s != seat), None):
        seen = RULES.view(st, other)
        assert seen["decision"] is None or "plays" not in seen["decision"], other
        for card in hand:
            assert card not in json.dumps(seen["decision"]), (other, card)
    return len(mine)


@pytest.mark.parametrize(
    ("seed", "scenario"),
    [(1, "FIVE_KINGDOMS"), (2, "QIN_DOMINATES"), (3, "FIVE_KINGDOMS"), (4, "QIN_DOMINATES")],
)
def test_the_listed_plays_are_the_legal_ones_through_random_games(seed, scenario):
    rng = random.Random(f"view-plays:{seed}")
    st = RULES.fold(RULES.setup({"scenario": scenario, "victory": "bid"}, rng))
    positions = plays = face_up = 0
    while due := RULES.pending(st):
        seat = sorted(due)[0]
        for other in (*RULES.seats, None):  # only a card play lists plays, only to its seat
            decision = RULES.view(st, other)["decision"]
            if decision is not None and "plays" in decision:
                assert other == seat and due[seat] == "action", (other, due)
        if due[seat] == "action":
            positions += 1
            plays += check_position(st, seat)
            face_up += sum(map(len, RULES.view(st, seat)["decision"]["plays"]["up"].values()))
        cmd = RULES.random_command(st, seat, rng)
        st = RULES.fold(RULES.decide(st, seat, cmd, rng), st)
    assert RULES.outcome(st) is not None
    assert positions >= 10 and plays > positions and face_up > 0, (positions, plays, face_up)


def test_why_a_card_has_no_face_up_play():
    hands = {
        "lianheng": ["L_LI_SI", "L_EMISSARY_QI", "L_KING_OF_QIN"],
        "alliance": ["A_JING_KE", "A_LORD_MENGCHANG"],
    }
    st = position(hands=hands)
    st["eliminated"] = ["QI"]  # Lord Mengchang and the Qi emissary name Qi
    plays = RULES.view(st, LH)["decision"]["plays"]
    assert plays["why"]["L_LI_SI"] == "response"  # only answers the opponent
    assert plays["why"]["L_EMISSARY_QI"] == "condition"  # an emissary outlives its kingdom
    assert "L_KING_OF_QIN" not in plays["why"] and plays["up"]["L_KING_OF_QIN"] == [{}]
    for why in plays["why"].values():
        assert f"play.up.{why}" in RULES.text.messages
    st["active"] = "alliance"
    plays = RULES.view(st, AL)["decision"]["plays"]
    assert plays["why"] == {"A_JING_KE": "response", "A_LORD_MENGCHANG": "eliminated"}
    assert RULES.view(st, LH)["decision"] is None
