"""Hidden information (issue 14): a card played face down stays hidden to the opponent (and
spectators) in views and redacted events unless a rule reveals it — none does, not even the
end of the game (§7.3: "the opponent never sees its face"); sealed bids stay sealed until
both are in (§13)."""

from __future__ import annotations

import random

from games.warring_states import RULES
from tests.games.warring_states_helpers import AL, LH, play, position

DOWN = {"type": "play", "card": "L_HAN_FEI", "face": "down", "action": "diplomacy"}


def _face_down_played():
    st = position(hands={"lianheng": ["L_HAN_FEI", "L_FAN_JU"], "alliance": ["A_SU_QIN"]})
    st["turn"] = st["turns"]  # the last turn: two passes end the game
    st, events = play(st, LH, {**DOWN, "force": "CHU", "dir": -1})
    return st, events


def test_a_face_down_card_is_hidden_from_the_opponent_in_views_and_events():
    st, events = _face_down_played()
    played = next(e for e in events if e["type"] == "card_played")
    for viewer in (AL, None):
        seen = RULES.redact(played, viewer)
        assert "card" not in seen and seen["face"] == "down" and seen["action"] == "diplomacy"
        assert RULES.view(st, viewer)["discards"]["lianheng"] == [{"card": None, "up": False}]
    assert RULES.redact(played, LH)["card"] == "L_HAN_FEI"
    assert RULES.view(st, LH)["discards"]["lianheng"] == [{"card": "L_HAN_FEI", "up": False}]
    # the redacted log folds to the same public view
    moved = next(e for e in events if e["type"] == "diplomacy_moved")
    assert RULES.redact(moved, AL) == moved


def test_a_face_down_card_stays_hidden_once_the_game_is_over():
    st, _ = _face_down_played()
    st, _ = play(st, AL, {"type": "pass"})
    st, _ = play(st, LH, {"type": "pass"})
    assert st["phase"] == "over"
    for viewer in (AL, None):
        assert RULES.view(st, viewer)["discards"]["lianheng"] == [{"card": None, "up": False}]
    assert RULES.view(st, LH)["discards"]["lianheng"][0]["card"] == "L_HAN_FEI"


def test_bids_stay_sealed_until_both_are_in():
    st = RULES.fold(RULES.setup({"victory": "bid"}, random.Random(0)))
    st, events = play(st, LH, {"type": "bid", "rp": 9})
    made = events[0]
    assert made["visible_to"] == LH and "rp" not in RULES.redact(made, AL)
    assert "rp" not in RULES.redact(made, None)
    assert RULES.view(st, AL)["bids"] == {LH: "hidden"}
    assert RULES.view(st, None)["bids"] == {LH: "hidden"}
    assert RULES.view(st, LH)["bids"] == {LH: 9}
    st, events = play(st, AL, {"type": "bid", "rp": 7})
    revealed = next(e for e in events if e["type"] == "bids_revealed")
    assert revealed["visible_to"] == "all" and revealed["bids"] == {LH: 9, AL: 7}
    assert RULES.view(st, AL)["bids"] == {LH: 9, AL: 7}
