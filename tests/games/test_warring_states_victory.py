"""The two games victory rule (§13) as a pure function: known answers, and two real games."""

from __future__ import annotations

import random

import pytest

from games.playout import play
from games.warring_states import RULES
from games.warring_states.victory import lianheng_rp, two_game_result

LA = {"first": "lianheng", "second": "alliance"}
AL = {"first": "alliance", "second": "lianheng"}


def ended(sides, qin_rp, reason="rp", target=7, winner=None):
    lianheng = next(s for s, side in sides.items() if side == "lianheng")
    alliance = next(s for s in sides if s != lianheng)
    if winner is None:
        winner = lianheng if reason == "rp" and qin_rp >= target else alliance
    return {"winner": winner, "side": sides[winner], "reason": reason, "qin_rp": qin_rp,
            "target": target, "sides": dict(sides)}  # fmt: skip


@pytest.mark.parametrize(
    ("first_rp", "second_rp", "winner", "reason"),
    [
        (6, 5, "first", "more_rp"),  # both Lianheng games lost: the better loss wins
        (5, 6, "second", "more_rp"),
        (8, 7, "first", "more_rp"),  # both won: more RP still wins
        (7, 7, None, "equal_rp"),  # equal is a draw
        (3, 3, None, "equal_rp"),
    ],
)
def test_the_higher_lianheng_result_wins_and_equal_is_a_draw(first_rp, second_rp, winner,
                                                             reason):  # fmt: skip
    result = two_game_result(ended(LA, first_rp), ended(AL, second_rp))
    assert result == {"winner": winner, "reason": reason, "rp": {"first": first_rp,
                                                                  "second": second_rp}}  # fmt: skip


def test_a_game_ended_by_qin_eliminated_counts_zero():
    gone = ended(LA, 4, reason="qin_eliminated", winner="second")
    assert lianheng_rp(gone) == 0
    assert two_game_result(gone, ended(AL, 0)) == {
        "winner": None, "reason": "equal_rp", "rp": {"first": 0, "second": 0}}  # fmt: skip
    assert two_game_result(gone, ended(AL, 1))["winner"] == "second"


def test_players_are_named_by_their_first_game_seat_when_seats_change():
    # the second game seats the players the other way round: first-game "first" is now
    # "second", still Lianheng once each (here "second" of game 2 plays the Alliance)
    second = ended(LA, 9)  # game 2: seat "first" (the first game's "second") is Lianheng
    result = two_game_result(ended(LA, 6), second, {"first": "second", "second": "first"})
    assert result == {"winner": "second", "reason": "more_rp", "rp": {"first": 6, "second": 9}}


def test_a_resignation_loses_the_match():
    quit_first = ended(LA, 3, reason="resignation", winner="second")
    assert two_game_result(quit_first, None) == {"winner": "second", "reason": "resignation"}
    quit_second = ended(AL, 2, reason="resignation", winner="first")
    assert two_game_result(ended(LA, 5), quit_second, {"first": "second", "second": "first"}) == {
        "winner": "second", "reason": "resignation"}  # fmt: skip


@pytest.mark.parametrize(
    ("first", "second", "words"),
    [
        (ended(LA, 5), ended(LA, 6), "Lianheng in exactly one"),
        (ended(LA, 5), ended(AL, 6, target=11), "same scenario"),
        (ended(LA, 5), None, "second game's outcome"),
    ],
)
def test_outcomes_that_are_not_a_pair_of_games_are_refused(first, second, words):
    with pytest.raises(ValueError, match=words):
        two_game_result(first, second)


def test_two_played_games_give_a_result_from_their_outcomes():
    outcomes = [
        play(RULES, {"first_side": side}, random.Random(f"two:{side}")).outcome
        for side in ("lianheng", "alliance")
    ]
    assert outcomes[0]["sides"] == LA and outcomes[1]["sides"] == AL
    result = two_game_result(*outcomes)
    rp = {"first": lianheng_rp(outcomes[0]), "second": lianheng_rp(outcomes[1])}
    assert result["rp"] == rp
    assert result["winner"] == (None if rp["first"] == rp["second"]
                                else max(rp, key=rp.get))  # fmt: skip
