"""Commander's rules (``shared/rules/commander.md``) as known answers: the five worked
examples exactly as written, who captures whom in both settings of the soldier's dagger,
each piece's moves, the endings and the draws, and the precedence of a win over a draw."""

from __future__ import annotations

import random

import pytest

from games.base import RulesError
from games.commander import RULES
from games.commander.board import SQUARE
from games.commander.rules import QUIET_LIMIT, piece_moves
from tests.games.commander_helpers import move, moves_of, position


def standard_start():
    return RULES.fold(RULES.setup({"setup": "standard"}, random.Random(0)))


def ended(events):
    """(winner, reason) of the game_ended event among ``events``, or None."""
    last = [e for e in events if e["type"] == "game_ended"]
    return (last[0]["winner"], last[0]["reason"]) if last else None


def targets(state, square):
    """The squares the piece on ``square`` may move to, by name, in the rules' order."""
    names = {sq: name for name, sq in SQUARE.items()}
    return [names[to] for to in piece_moves(state.board, SQUARE[square], state.takes)]


# -- the worked examples ----------------------------------------------------------------
def test_example_1_the_standard_start_gives_blue_exactly_the_four_captures_across_the_river():
    state = standard_start()
    assert RULES.pending(state) == {"blue": "move"}
    assert moves_of(state) == {("a4", "a5"), ("b4", "b5"), ("c4", "c5"), ("d4", "d5")}
    assert all(state.board[SQUARE[to]] == "s" for _, to in moves_of(state))
    after, events = move(state, "c4", "c5")
    assert events[0]["captured"] == "S" and after.quiet == 0


def test_example_2_the_officer_line_stops_at_the_river_and_takes_by_a_step_from_a4():
    state = position("3c/4/4/s3/4/4/O3/3C b 0 1")
    assert {"a3", "a4"} <= set(targets(state, "a2"))
    assert "a5" not in targets(state, "a2")
    with pytest.raises(RulesError, match="cannot move from a2 to a5"):
        move(state, "a2", "a5")
    state, _ = move(state, "a2", "a4")
    state, _ = move(state, "d8", "c8")
    assert targets(state, "a4")[0] == "a5"
    state, events = move(state, "a4", "a5")
    assert events[0]["captured"] == "S" and state.board[SQUARE["a5"]] == "O"


def test_example_3_the_commander_may_not_take_the_soldier_beside_it_which_takes_it_and_wins():
    blue_to_move = position("3c/4/4/1s2/1C2/4/4/4 b 0 1")
    assert "b5" not in targets(blue_to_move, "b4")
    assert {"a5", "c5"} <= set(targets(blue_to_move, "b4"))
    state, events = move(position("3c/4/4/1s2/1C2/4/4/4 r 0 1"), "b5", "b4")
    assert events[0]["captured"] == "C"
    assert ended(events) == ("red", "commander_captured")
    assert RULES.outcome(state) == {"winner": "red", "reason": "commander_captured"}
    assert RULES.pending(state) == {}


def test_example_4_the_commander_on_the_enemy_back_rank_wins_even_where_it_could_be_taken():
    state = position("1s1c/1C2/4/4/4/4/4/4 b 0 1")
    state, events = move(state, "b7", "a8")
    assert SQUARE["a8"] in piece_moves(state.board, SQUARE["b8"], True)  # the dagger reaches it
    assert ended(events) == ("blue", "commander_arrived")
    assert RULES.pending(state) == {}


@pytest.mark.parametrize("goal, wins", [("enemy_side", True), ("back_rank", False)])
def test_example_5_with_enemy_side_the_commander_wins_on_stepping_onto_rank_5(goal, wins):
    state = position("3c/4/4/2s1/1C2/4/4/4 b 0 1", commander_goal=goal)
    state, events = move(state, "b4", "b5")
    assert ended(events) == (("blue", "commander_arrived") if wins else None)


def test_red_commander_wins_on_rank_1_and_with_enemy_side_on_rank_4():
    _, events = move(position("4/4/4/4/4/4/1c2/3C r 0 1"), "b2", "a1")
    assert ended(events) == ("red", "commander_arrived")
    _, events = move(position("4/4/4/1c2/4/4/4/3C r 0 1", commander_goal="enemy_side"),
                         "b5", "b4")  # fmt: skip
    assert ended(events) == ("red", "commander_arrived")


# -- who captures whom ------------------------------------------------------------------
# attacker -> the pieces it captures, by setting of soldier_takes_commander
CAPTURES = {
    True: {"S": {"S", "C"}, "O": {"O", "S"}, "C": {"C", "O"}},
    False: {"S": {"S"}, "O": {"O", "S"}, "C": {"C", "O", "S"}},
}


@pytest.mark.parametrize("takes", [True, False])
@pytest.mark.parametrize("attacker", "COS")
@pytest.mark.parametrize("defender", "COS")
@pytest.mark.parametrize("blue_attacks", [True, False])
def test_who_captures_whom(takes, attacker, defender, blue_attacks):
    # The attacker on b4 (Blue) or b5 (Red), the defender across the river, one step away;
    # each side's Commander elsewhere when it is not one of the two.
    if blue_attacks:
        blue, red, start, to = attacker, defender.lower(), "b4", "b5"
    else:
        blue, red, start, to = defender, attacker.lower(), "b5", "b4"
    rank8 = "4" if red == "c" else "3c"
    rank1 = "4" if blue == "C" else "3C"
    text = f"{rank8}/4/4/1{red}2/1{blue}2/4/4/{rank1} {'b' if blue_attacks else 'r'} 0 1"
    state = position(text, soldier_takes_commander=takes)
    may = defender in CAPTURES[takes][attacker]
    assert ((start, to) in moves_of(state)) == may
    if not may:
        with pytest.raises(RulesError, match=f"cannot move from {start} to {to}"):
            move(state, start, to)
    else:
        after, events = move(state, start, to)
        assert events[0]["captured"] == defender and events[0]["piece"] == attacker
        assert after.board[SQUARE[to]] == (attacker if blue_attacks else attacker.lower())


# -- each piece's moves ------------------------------------------------------------------
def test_a_soldier_steps_one_space_orthogonally_backwards_too_and_not_onto_its_own():
    assert set(targets(position("3c/4/4/4/4/1S2/4/3C b 0 1"), "b3")) == {"b4", "b2", "a3", "c3"}
    assert set(targets(position("3c/4/1s2/4/4/4/4/3C r 0 1"), "b6")) == {"b7", "b5", "a6", "c6"}
    assert set(targets(position("3c/4/4/4/1S2/1S2/4/3C b 0 1"), "b3")) == {"b2", "a3", "c3"}
    assert targets(position("3c/4/4/4/4/4/4/S2C b 0 1"), "a1") == ["a2", "b1"]  # a corner


def test_an_officer_moves_along_lines_blocked_by_pieces_and_takes_the_first_it_may():
    # Own Soldier on b4 blocks the way up at b3; Red's Officer on d2 is taken at the end of
    # the line right; Red's Commander on a2 is a piece an Officer may not take.
    state = position("4/4/4/4/1S1C/4/cO1o/4 b 0 1")
    assert targets(state, "b2") == ["b3", "b1", "c2", "d2"]
    state = position("3c/4/4/4/s3/s3/4/O2C b 0 1")
    assert targets(state, "a1") == ["a2", "a3", "b1", "c1"]  # a3 taken, a4 behind it not


def test_an_officer_crosses_the_river_by_one_step_only():
    state = position("3c/4/4/4/O3/4/4/3C b 0 1")
    assert targets(state, "a4") == ["a5", "a3", "a2", "a1", "b4", "c4", "d4"]
    state = position("3c/4/4/o3/4/4/4/3C r 0 1")
    assert targets(state, "a5") == ["a6", "a7", "a8", "a4", "b5", "c5", "d5"]


def test_a_commander_steps_one_space_in_the_eight_directions():
    state = position("3c/4/4/4/4/4/1C2/4 b 0 1")
    assert set(targets(state, "b2")) == {"a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"}
    state = position("3c/4/4/4/1C2/4/4/4 b 0 1")
    assert {"a5", "b5", "c5"} <= set(targets(state, "b4"))  # across the river, diagonally too


def test_an_empty_square_has_no_moves_and_all_moves_lists_pieces_from_a1_to_d8():
    from games.commander.rules import all_moves, can_move

    state = position("o2c/4/4/4/4/4/S3/O2C b 0 1")
    assert piece_moves(state.board, SQUARE["b1"], True) == []
    starts = [start for start, _ in all_moves(state.board, 0, True)]
    assert starts == sorted(starts) and set(starts) == {SQUARE["a1"], SQUARE["a2"], SQUARE["d1"]}
    assert can_move(state.board, 1, True)
    assert not can_move(position("4/4/4/4/4/4/4/3C b 0 1").board, 1, True)  # Red has nothing


# -- no legal move -----------------------------------------------------------------------
def test_a_player_left_without_a_legal_move_loses():
    # Red's Commander on a8 among Blue Soldiers (it may not take them) and nothing else.
    state = position("cS2/S1S1/4/4/4/4/4/3C b 0 1")
    state, events = move(state, "c7", "b7")
    assert ended(events) == ("blue", "no_moves")
    assert RULES.outcome(state) == {"winner": "blue", "reason": "no_moves"}


def test_with_rank_alone_the_boxed_commander_takes_its_way_out():
    state = position("cS2/S1S1/4/4/4/4/4/3C b 0 1", soldier_takes_commander=False)
    state, events = move(state, "c7", "b7")
    assert ended(events) is None and ("a8", "b8") in moves_of(state)


# -- draws ---------------------------------------------------------------------------------
def quiet_history(n: int) -> tuple[str, ...]:
    """``n`` positions since the last capture, none the same as another or as the tests'."""
    return tuple(f"{'br'[i % 2]}{i:032d}" for i in range(n))


def test_forty_moves_each_without_a_capture_is_a_draw_at_the_eightieth():
    text = "3c/4/4/4/4/4/O3/3C b 0 1"
    state, events = move(position(text, quiet_history(QUIET_LIMIT - 2)), "a2", "a3")
    assert ended(events) is None and state.quiet == QUIET_LIMIT - 1
    state, events = move(position(text, quiet_history(QUIET_LIMIT - 1)), "a2", "a3")
    assert state.quiet == QUIET_LIMIT
    assert ended(events) == (None, "no_captures")
    assert RULES.outcome(state) == {"winner": None, "reason": "no_captures"}


def test_a_capture_as_the_eightieth_move_starts_the_count_again():
    state = position("3c/4/4/4/4/s3/O3/3C b 0 1", quiet_history(QUIET_LIMIT - 1))
    state, events = move(state, "a2", "a3")
    assert ended(events) is None and state.quiet == 0 and len(state.seen) == 1


def test_the_same_position_with_the_same_player_to_move_a_third_time_is_a_draw():
    state = position("c3/4/4/4/4/4/4/O2C b 0 1")
    shuffle = [("a1", "a2"), ("a8", "b8"), ("a2", "a1"), ("b8", "a8")]
    for i, (start, to) in enumerate(shuffle * 2):
        state, events = move(state, start, to)
        assert ended(events) == ((None, "repetition") if i == 7 else None), i
    assert state.seen.count(state.seen[-1]) == 3 and state.seen[0] == state.seen[-1]


def test_the_same_board_with_the_other_player_to_move_is_another_position():
    state = position("c3/4/4/4/4/4/4/O2C b 0 1")
    # Blue's Officer and Red's Commander each take three moves to come back: the board
    # repeats with the other player to move, which is not a repetition.
    for start, to in [("a1", "a2"), ("a8", "b8"), ("a2", "a3"), ("b8", "a8"), ("a3", "a1")]:
        state, events = move(state, start, to)
    assert state.seen[-1][1:] == state.seen[0][1:] and state.seen[-1] != state.seen[0]
    assert ended(events) is None


# -- a win comes before a draw on the same move -------------------------------------------
def test_a_commander_arriving_as_the_eightieth_quiet_move_wins():
    state = position("3c/1C2/4/4/4/4/4/4 b 0 1", quiet_history(QUIET_LIMIT - 1))
    state, events = move(state, "b7", "b8")
    assert ended(events) == ("blue", "commander_arrived")


def test_leaving_the_other_without_a_move_as_the_eightieth_quiet_move_wins():
    state = position("cS2/S1S1/4/4/4/4/4/3C b 0 1", quiet_history(QUIET_LIMIT - 1))
    state, events = move(state, "c7", "b7")
    assert ended(events) == ("blue", "no_moves")


def test_leaving_the_other_without_a_move_wins_even_on_a_third_repetition():
    # (made up: the position after the move had come twice, Red to move each time)
    after = "r" + position("cS2/SS2/4/4/4/4/4/3C r 0 1").board
    repeated = (after, "b" + "." * 32, after, "b" + "x" * 32)
    state = position("cS2/S1S1/4/4/4/4/4/3C b 0 1", repeated)
    state, events = move(state, "c7", "b7")
    assert state.seen.count(state.seen[-1]) == 3
    assert ended(events) == ("blue", "no_moves")
