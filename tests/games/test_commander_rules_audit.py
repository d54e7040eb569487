"""An independent audit of Commander's rules engine against its rulebook
(``shared/rules/commander.md``): known answers for the edge cases the worked examples and
the other Commander tests leave open. Each test names the rulebook sentence it checks
(quoted, or "README ruling" where the house decision in ``games/commander/README.md``
fills a silence of the rules).

Positions are in the game's notation (``games/commander/notation.py``): ranks 8 down to 1,
files a to d, ``C O S`` Blue's, ``c o s`` Red's, then who is to move.
"""

from __future__ import annotations

import random
import re

import pytest

from games.base import RulesError
from games.commander import RULES, notation
from games.commander.board import SQUARE, STANDARD
from tests.games.commander_helpers import move, moves_of, position

RNG = random.Random(0)


def ended(events):
    """(winner, reason) of the game_ended event among ``events``, or None."""
    last = [e for e in events if e["type"] == "game_ended"]
    return (last[0]["winner"], last[0]["reason"]) if last else None


def targets(state, square):
    """Where the piece on ``square`` may go, as the public ``legal`` lists it."""
    return {to for start, to in moves_of(state) if start == square}


def refused(state, start, to, words):
    seat = RULES.seats[state.turn]
    with pytest.raises(RulesError, match=re.escape(words)):
        RULES.decide(state, seat, {"type": "move", "from": start, "to": to}, RNG)


# -- the Officer's line and the river ----------------------------------------------------
# "Officer: any number of empty spaces in a straight orthogonal line, but a line move may
# not cross the river (terrain: it crosses only by a one-space step); it captures the first
# piece it meets on that line if that piece is an enemy it may capture."


def test_officer_on_rank_3_goes_up_to_rank_4_and_no_further():
    state = position("3c/4/4/4/4/O3/4/3C b 0 1")
    assert targets(state, "a3") == {"a4", "a2", "a1", "b3", "c3", "d3"}
    refused(state, "a3", "a5", "That piece cannot move from a3 to a5.")


def test_officer_on_rank_3_does_not_take_across_the_river_but_takes_on_rank_4():
    across = position("3c/4/4/s3/4/O3/4/3C b 0 1")
    assert "a5" not in targets(across, "a3") and "a4" in targets(across, "a3")
    refused(across, "a3", "a5", "That piece cannot move from a3 to a5.")
    near = position("3c/4/4/s3/s3/O3/4/3C b 0 1")
    assert "a4" in targets(near, "a3") and "a5" not in targets(near, "a3")
    after, events = move(near, "a3", "a4")
    assert events[0]["captured"] == "S" and ended(events) is None
    assert after.board[12] == "O" and after.board[16] == "s"  # a4 taken, a5 untouched


def test_officer_on_rank_4_steps_to_rank_5_only_and_does_not_take_on_rank_6():
    state = position("3c/4/s3/4/O3/4/4/3C b 0 1")
    assert "a5" in targets(state, "a4") and "a6" not in targets(state, "a4")
    refused(state, "a4", "a6", "That piece cannot move from a4 to a6.")


def test_officer_of_blue_on_rank_5_steps_back_to_rank_4_only():
    # A Blue Officer across the river: down by one step only, up along Red's side freely.
    state = position("3c/4/4/1O2/4/4/4/3C b 0 1")
    assert targets(state, "b5") == {"b6", "b7", "b8", "b4", "a5", "c5", "d5"}
    refused(state, "b5", "b3", "That piece cannot move from b5 to b3.")


def test_officer_of_blue_across_the_river_takes_along_a_line_that_stays_on_reds_side():
    state = position("1s1c/4/4/O2s/4/4/4/3C b 0 1")
    assert targets(state, "a5") == {"a6", "a7", "a8", "a4", "b5", "c5", "d5"}
    state = position("s2c/4/4/O3/4/4/4/3C b 0 1")
    after, events = move(state, "a5", "a8")
    assert events[0]["captured"] == "S" and after.board[28] == "O"


def test_red_officer_on_rank_6_goes_down_to_rank_5_and_no_further():
    state = position("3c/4/o3/4/4/4/4/3C r 0 1")
    assert targets(state, "a6") == {"a7", "a8", "a5", "b6", "c6", "d6"}
    refused(state, "a6", "a4", "That piece cannot move from a6 to a4.")
    blue_beyond = position("3c/4/o3/4/S3/4/4/3C r 0 1")
    assert "a4" not in targets(blue_beyond, "a6")


def test_red_officer_on_rank_5_takes_on_rank_4_by_a_step_only():
    state = position("3c/4/4/o3/S3/4/4/3C r 0 1")
    assert "a4" in targets(state, "a5")
    after, events = move(state, "a5", "a4")
    assert events[0]["captured"] == "S" and after.board[12] == "o"
    beyond = position("3c/4/4/o3/4/S3/4/3C r 0 1")
    assert "a3" not in targets(beyond, "a5") and "a4" in targets(beyond, "a5")


def test_officer_lines_run_the_whole_length_of_its_own_side():
    # three spaces up from rank 1 to rank 4; three down from rank 8 to rank 5
    blue = position("o2c/4/4/4/4/4/4/O2C b 0 1")
    assert targets(blue, "a1") == {"a2", "a3", "a4", "b1", "c1"}
    red = position("o2c/4/4/4/4/4/4/O2C r 0 1")
    assert targets(red, "a8") == {"a7", "a6", "a5", "b8", "c8"}


def test_officer_sideways_on_ranks_4_and_5_runs_the_whole_rank_and_takes_at_its_end():
    state = position("3c/4/4/O2s/O2s/4/4/3C b 0 1")
    assert {"b4", "c4", "d4"} <= targets(state, "a4") and {"b5", "c5", "d5"} <= targets(state, "a5")
    after, events = move(state, "a4", "d4")
    assert events[0]["captured"] == "S" and after.board[12:16] == "...O"


def test_officer_does_not_jump_over_a_piece_nor_move_diagonally():
    state = position("3c/4/4/4/4/4/S3/O2C b 0 1")
    refused(state, "a1", "a3", "That piece cannot move from a1 to a3.")
    refused(state, "a1", "b2", "That piece cannot move from a1 to b2.")
    refused(
        position("3c/4/4/4/4/4/1O2/3C b 0 1"), "b2", "c3", "That piece cannot move from b2 to c3."
    )
    state = position("3c/4/4/4/4/s3/s3/O2C b 0 1")
    assert targets(state, "a1") == {"a2", "b1", "c1"}  # the first Soldier taken, not the second


@pytest.mark.parametrize("takes", [True, False])
@pytest.mark.parametrize("defender, may", [("c", False), ("o", True), ("s", True)])
def test_officer_takes_at_a_distance_by_rank_in_either_setting(takes, defender, may):
    """ "Who captures whom: a piece captures an enemy of the same or lower rank": an
    Officer's capture along a line, two spaces away, in both settings of the dagger."""
    rank8 = "4" if defender == "c" else "3c"
    state = position(f"{rank8}/4/4/4/4/{defender}3/4/O2C b 0 1", soldier_takes_commander=takes)
    assert ("a3" in targets(state, "a1")) == may
    assert "a2" in targets(state, "a1")


# -- who captures whom: the Commander's diagonals and the Soldier's sides ----------------
CAPTURES = {
    True: {"S": {"S", "C"}, "O": {"O", "S"}, "C": {"C", "O"}},
    False: {"S": {"S"}, "O": {"O", "S"}, "C": {"C", "O", "S"}},
}


@pytest.mark.parametrize("takes", [True, False])
@pytest.mark.parametrize("defender", "COS")
@pytest.mark.parametrize("blue_attacks", [True, False])
def test_commander_takes_diagonally_by_rank_and_the_soldiers_dagger(takes, defender, blue_attacks):
    """ "Commander: one space in any of the 8 directions, to an empty space or a capture";
    "the Commander cannot capture a Soldier" (only with soldier_takes_commander = true)."""
    if blue_attacks:
        blue, red, start, to, turn = "C", defender.lower(), "b4", "c5", "b"
        rank8, rank1 = ("4" if red == "c" else "3c"), "4"
    else:
        blue, red, start, to, turn = defender, "c", "c5", "b4", "r"
        rank8, rank1 = "4", ("4" if blue == "C" else "3C")
    text = f"{rank8}/4/4/2{red}1/1{blue}2/4/4/{rank1} {turn} 0 1"
    state = position(text, soldier_takes_commander=takes)
    may = defender in CAPTURES[takes]["C"]
    assert (to in targets(state, start)) == may
    if may:
        after, events = move(state, start, to)
        assert events[0]["captured"] == defender and after.board[SQUARE[to]] in "Cc"
        if defender == "C":
            winner = "blue" if blue_attacks else "red"
            assert ended(events) == (winner, "commander_captured")
        else:
            assert ended(events) is None
    else:
        refused(state, start, to, f"That piece cannot move from {start} to {to}.")


def test_a_soldier_takes_sideways_and_backwards_but_never_diagonally():
    """ "Soldier: one space orthogonally (forward, sideways or back) to an empty space, or a
    capture on an orthogonally adjacent space.\""""
    state = position("3c/2s1/4/sS2/1s2/4/4/3C b 0 1")
    assert targets(state, "b5") == {"a5", "b4", "b6", "c5"}
    refused(state, "b5", "c6", "That piece cannot move from b5 to c6.")
    _, events = move(state, "b5", "b4")
    assert events[0]["captured"] == "S"


@pytest.mark.parametrize("takes", [True, False])
def test_a_soldier_takes_the_commander_sideways_and_backwards_only_with_the_dagger(takes):
    """ "a Soldier captures the Commander" (soldier_takes_commander = true), from any
    orthogonally adjacent space, on its own side of the board too."""
    sideways = position("4/4/4/4/4/cS2/4/3C b 0 1", soldier_takes_commander=takes)
    backwards = position("4/4/1S2/1c2/4/4/4/3C b 0 1", soldier_takes_commander=takes)
    for state, start, to in [(sideways, "b3", "a3"), (backwards, "b6", "b5")]:
        assert (to in targets(state, start)) == takes
        if takes:
            after, events = move(state, start, to)
            assert ended(events) == ("blue", "commander_captured")
            assert RULES.pending(after) == {}
        else:
            refused(state, start, to, f"That piece cannot move from {start} to {to}.")


def test_with_the_dagger_off_a_commander_beside_soldiers_takes_them():
    """soldier_takes_commander = false: the Commander captures a Soldier (rank 3 over 1)
    and the Soldier no Commander."""
    state = position("3c/4/4/4/s3/Cs2/s3/4 b 0 1", soldier_takes_commander=False)
    assert {"a4", "b3", "a2"} <= targets(state, "a3")
    red = position("3c/4/4/4/s3/Cs2/s3/4 r 0 1", soldier_takes_commander=False)
    assert "a3" not in {to for _, to in moves_of(red)}


# -- the Commander's eight directions at the edges -----------------------------------------
@pytest.mark.parametrize(
    "text, square, expected",
    [
        ("3c/4/4/4/4/4/4/C3 b 0 1", "a1", {"a2", "b1", "b2"}),
        ("c3/4/4/4/4/4/4/3C b 0 1", "d1", {"c1", "c2", "d2"}),
        ("c3/4/4/4/4/4/4/3C r 0 1", "a8", {"a7", "b7", "b8"}),
        ("3c/4/4/4/4/4/4/C3 r 0 1", "d8", {"c8", "c7", "d7"}),
        ("3c/4/4/C3/4/4/4/4 b 0 1", "a5", {"a4", "a6", "b4", "b5", "b6"}),
        ("3c/4/4/4/3C/4/4/4 b 0 1", "d4", {"d3", "d5", "c3", "c4", "c5"}),
        ("4/4/4/4/c3/4/4/3C r 0 1", "a4", {"a3", "a5", "b3", "b4", "b5"}),
    ],
)
def test_the_commander_at_the_edges_and_corners(text, square, expected):
    """ "Commander: one space in any of the 8 directions": fewer at an edge, none off it."""
    assert targets(position(text), square) == expected


def test_the_commander_does_not_move_two_spaces_or_onto_its_own():
    state = position("3c/4/4/4/4/4/1S2/C3 b 0 1")
    assert targets(state, "a1") == {"a2", "b1"}
    refused(state, "a1", "a3", "That piece cannot move from a1 to a3.")
    refused(state, "a1", "b2", "That piece cannot move from a1 to b2.")


# -- winning: the Commander's arrival and the Commander's capture --------------------------
# "You win when you capture the enemy Commander, or when your Commander ends a move on the
# enemy's back rank (rank 8 for Blue, rank 1 for Red). (Config commander_goal = back_rank
# (default) | enemy_side: any space of ranks 5–8 / 1–4.)"


@pytest.mark.parametrize(
    "text, start, to, goal",
    [
        ("3c/1C2/4/4/4/4/4/4 b 0 1", "b7", "c7", "back_rank"),  # along rank 7
        ("3c/4/4/4/4/4/1C2/4 b 0 1", "b2", "b1", "back_rank"),  # Blue's own back rank
        ("3c/4/4/4/4/4/1C2/4 b 0 1", "b2", "b1", "enemy_side"),
        ("4/1c2/4/4/4/4/4/3C r 0 1", "b7", "b8", "back_rank"),  # Red's own back rank
        ("4/4/4/4/4/4/1c2/3C r 0 1", "b2", "c2", "back_rank"),  # along rank 2
        ("3c/4/4/4/4/1C2/4/4 b 0 1", "b3", "b4", "enemy_side"),  # Blue's own side
        ("4/4/1c2/4/4/4/4/3C r 0 1", "b6", "b5", "enemy_side"),  # Red's own side
    ],
)
def test_the_commander_wins_only_on_the_enemys_goal(text, start, to, goal):
    _, events = move(position(text, commander_goal=goal), start, to)
    assert ended(events) is None


@pytest.mark.parametrize(
    "text, start, to, winner",
    [
        ("3c/4/4/4/1C2/4/4/4 b 0 1", "b4", "c5", "blue"),  # diagonally across the river
        ("4/4/4/1c2/4/4/4/3C r 0 1", "b5", "a4", "red"),
        ("3c/4/4/4/4/4/4/C3 r 0 1", "d8", "c7", None),  # not the enemy side yet
    ],
)
def test_with_enemy_side_a_diagonal_step_across_the_river_wins(text, start, to, winner):
    _, events = move(position(text, commander_goal="enemy_side"), start, to)
    assert ended(events) == ((winner, "commander_arrived") if winner else None)


@pytest.mark.parametrize("goal", ["back_rank", "enemy_side"])
def test_a_piece_other_than_the_commander_on_the_enemy_back_rank_does_not_win(goal):
    for text, start, to in [
        ("3c/O3/4/4/4/4/4/3C b 0 1", "a7", "a8"),
        ("3c/S3/4/4/4/4/4/3C b 0 1", "a7", "a8"),
        ("3c/4/4/4/4/4/s3/3C r 0 1", "a2", "a1"),
        ("3c/4/4/4/4/4/o3/3C r 0 1", "a2", "a1"),
    ]:
        _, events = move(position(text, commander_goal=goal), start, to)
        assert ended(events) is None, (text, goal)


@pytest.mark.parametrize("takes, taken", [(True, "o"), (False, "s"), (False, "o")])
def test_the_commander_arriving_by_a_capture_on_the_back_rank_wins(takes, taken):
    blue = position(f"{taken}2c/1C2/4/4/4/4/4/4 b 0 1", soldier_takes_commander=takes)
    _, events = move(blue, "b7", "a8")
    assert events[0]["captured"] == taken.upper()
    assert ended(events) == ("blue", "commander_arrived")
    red = position(f"4/4/4/4/4/4/1c2/{taken.upper()}2C r 0 1", soldier_takes_commander=takes)
    _, events = move(red, "b2", "a1")
    assert ended(events) == ("red", "commander_arrived")


def test_the_commander_taking_the_enemy_commander_on_its_back_rank_wins_by_the_capture():
    """Both winning sentences at once: the capture named first is the reason."""
    _, events = move(position("1c2/1C2/4/4/4/4/4/4 b 0 1"), "b7", "b8")
    assert events[0]["captured"] == "C"
    assert ended(events) == ("blue", "commander_captured")


def test_a_blue_soldier_taking_the_red_commander_wins():
    _, events = move(position("1c2/1S2/4/4/4/4/4/3C b 0 1"), "b7", "b8")
    assert ended(events) == ("blue", "commander_captured")


# -- a player with no legal move loses ------------------------------------------------------
def test_red_wins_when_its_move_leaves_blue_without_a_move():
    """ "A player with no legal move loses": Blue's Commander boxed by Red Soldiers (the
    dagger: it may not take them)."""
    state = position("c3/4/4/4/4/2s1/3s/2sC r 0 1")
    after, events = move(state, "c3", "c2")
    assert ended(events) == ("red", "no_moves")
    assert RULES.outcome(after) == {"winner": "red", "reason": "no_moves"}


def test_a_player_blocked_by_its_own_pieces_has_no_move_and_loses():
    # Blue: Commander a1 behind its Soldiers a2, b1, b2; Red's Officers (which no Soldier
    # takes) close every way out once d1 steps to c1.
    state = position("3c/4/4/4/4/oo2/SSo1/CS1o r 0 1")
    _, events = move(state, "d1", "c1")
    assert ended(events) == ("red", "no_moves")


@pytest.mark.parametrize("takes", [True, False])
def test_red_stuck_at_the_reveal_plays_on_and_loses_after_blues_first_move(takes):
    """ "A player with no legal move loses" concerns the player to move: at the reveal that
    is Blue (README ruling: "Blue moves first also after a secret arrangement"), so a Red
    without a move at the reveal loses only once Blue has moved."""
    blue = "C" + "S" * 10 + "O" * 5  # rank 4 all Officers
    red = "COOOOO" + "S" * 10  # ranks 6 and 5 all Soldiers
    state = RULES.fold(RULES.setup({"setup": "secret", "soldier_takes_commander": takes}, RNG))
    for seat, pieces in (("blue", blue), ("red", red)):
        events = RULES.decide(state, seat, {"type": "arrange", "pieces": pieces}, RNG)
        for event in events:
            state = RULES.evolve(state, event)
    assert [e["type"] for e in events] == ["arranged", "revealed"]
    assert RULES.pending(state) == {"blue": "move"}
    assert moves_of(state) == {("a4", "a5"), ("b4", "b5"), ("c4", "c5"), ("d4", "d5")}
    after, events = move(state, "a4", "a5")
    assert ended(events) == ("blue", "no_moves")
    assert RULES.legal(after, "red") == []


@pytest.mark.parametrize(
    "takes, expected",
    [
        (True, {("a4", "a5"), ("c4", "c5"), ("d4", "d5")}),
        (False, {("a4", "a5"), ("c4", "c5"), ("d4", "d5"), ("b4", "a5"), ("b4", "b5"),
                 ("b4", "c5")}),
    ],
)  # fmt: skip
def test_any_arrangement_is_allowed_and_the_first_moves_are_captures_across_the_river(
    takes, expected
):
    """ "Each player arranges all 16 pieces on the 16 spaces of their side": the Commander
    need not be on rank 3; "The board starts full, so the first moves are captures across
    the river" (here Blue's Commander on b4, Red's arrangement the standard one)."""
    blue = "OOOO" + "SSSS" + "SSSS" + "SCSO"
    state = RULES.fold(RULES.setup({"setup": "secret", "soldier_takes_commander": takes}, RNG))
    for seat, pieces in (("red", STANDARD), ("blue", blue)):
        for event in RULES.decide(state, seat, {"type": "arrange", "pieces": pieces}, RNG):
            state = RULES.evolve(state, event)
    assert notation.of_state(state) == "ooco/soso/ssss/ssss/SCSO/SSSS/SSSS/OOOO b 0 1"
    assert moves_of(state) == expected


@pytest.mark.parametrize("takes", [True, False])
def test_a_red_commander_arranged_on_the_front_rank_can_be_taken_by_blues_first_move(takes):
    """ "a Soldier captures the Commander" from the very first move: Red's Commander on
    b5 faces Blue's Soldier on b4 at the reveal."""
    red = "OOOO" + "SSSS" + "SSSS" + "SCSO"  # rank 5: s c s o
    state = RULES.fold(RULES.setup({"setup": "secret", "soldier_takes_commander": takes}, RNG))
    for seat, pieces in (("blue", STANDARD), ("red", red)):
        for event in RULES.decide(state, seat, {"type": "arrange", "pieces": pieces}, RNG):
            state = RULES.evolve(state, event)
    if takes:
        assert moves_of(state) == {("a4", "a5"), ("b4", "b5"), ("c4", "c5")}
        _, events = move(state, "b4", "b5")
        assert ended(events) == ("blue", "commander_captured")
    else:
        assert moves_of(state) == {("a4", "a5"), ("c4", "c5")}


# -- the draws --------------------------------------------------------------------------------
def quiet_walk(state, plies):
    """Make ``plies`` quiet moves, each to a position not met before, checking that none
    ends the game; return the state and the events of the last move."""
    events = []
    for i in range(plies):
        for start, to in sorted(moves_of(state)):
            board = state.board
            if board[SQUARE[to]] != ".":
                continue  # a capture
            if board[SQUARE[start]] in "Cc" and to[1] in "18":
                continue  # a Commander's arrival
            after, events = move(state, start, to)
            if after.seen[-1] in state.seen:
                continue
            break
        else:
            raise AssertionError(f"no new quiet move at ply {i}")
        if i < plies - 1:
            assert ended(events) is None, (i, notation.of_state(state), start, to)
        state = after
    return state, events


def test_forty_quiet_moves_each_played_out_draw_exactly_on_reds_fortieth():
    """ "Draw: 40 moves by each player with no capture": not at Blue's 40th (the 79th
    move), at Red's 40th (the 80th), counted from the start of play."""
    start = position("o2c/4/4/4/4/4/4/O2C b 0 1")
    before, _ = quiet_walk(start, 79)
    assert notation.of_state(before).split()[1:] == ["r", "79", "40"]
    after, events = quiet_walk(before, 1)
    assert ended(events) == (None, "no_captures")
    assert RULES.pending(after) == {}


def test_the_forty_moves_are_counted_again_from_the_last_capture():
    """ "40 moves by each player with no capture": a capture as the first move, then 80
    quiet moves: the draw comes with the 81st move of the game, not the 80th."""
    state = position("o2c/4/4/4/4/s3/O3/3C b 0 1")
    state, events = move(state, "a2", "a3")
    assert events[0]["captured"] == "S" and notation.of_state(state).split()[2] == "0"
    state, events = quiet_walk(state, 79)  # the 80th move of the game: no end
    assert ended(events) is None and state.plies == 80
    state, events = quiet_walk(state, 1)
    assert ended(events) == (None, "no_captures") and state.plies == 81


def test_taking_the_commander_after_seventy_nine_quiet_moves_wins():
    """A win comes before the draw (README ruling), and a capture is no quiet move."""
    history = tuple(f"{'br'[i % 2]}{i:032d}" for i in range(79))
    state = position("1c2/1S2/4/4/4/4/4/3C b 0 1", history)
    _, events = move(state, "b7", "b8")
    assert ended(events) == ("blue", "commander_captured")


def test_a_third_repetition_not_involving_the_start_is_a_draw():
    """ "the same position with the same player to move for the third time": a position
    first met after the start, repeated later."""
    state = position("c3/4/4/4/4/4/4/O2C b 0 1")
    seq = [("d1", "d2"), ("a8", "a7")] + [
        ("a1", "a2"),
        ("a7", "b7"),
        ("a2", "a1"),
        ("b7", "a7"),
    ] * 2
    for i, (start, to) in enumerate(seq):
        state, events = move(state, start, to)
        assert ended(events) == ((None, "repetition") if i == len(seq) - 1 else None), i
    assert state.seen.count(state.seen[-1]) == 3 and state.seen[0] != state.seen[-1]


def test_a_repetition_interrupted_by_other_moves_still_counts():
    """The three times need not follow each other (A … A … A)."""
    state = position("c3/4/4/4/4/4/4/O2C b 0 1")
    loops = [
        [("a1", "a2"), ("a8", "b8"), ("a2", "a1"), ("b8", "a8")],  # back to the start
        [("d1", "d2"), ("a8", "a7"), ("d2", "d1"), ("a7", "a8")],  # back to the start: 3rd
    ]
    moves = loops[0] + loops[1]
    for i, (start, to) in enumerate(moves):
        state, events = move(state, start, to)
        assert ended(events) == ((None, "repetition") if i == len(moves) - 1 else None), i


# -- commands that are not moves of the rules -----------------------------------------------
def test_moving_onto_your_own_piece_is_refused():
    state = position("3c/4/4/4/4/4/SS2/OC2 b 0 1")
    refused(state, "a1", "a2", "That piece cannot move from a1 to a2.")  # Officer
    refused(state, "a2", "b2", "That piece cannot move from a2 to b2.")  # Soldier
    refused(state, "b1", "a1", "That piece cannot move from b1 to a1.")  # Commander
    refused(state, "b1", "a2", "That piece cannot move from b1 to a2.")


def test_red_may_not_move_blues_piece_on_reds_turn():
    state = position("3c/4/4/4/4/4/4/S2C r 0 1")
    refused(state, "a1", "a2", "You have no piece on a1.")


@pytest.mark.parametrize(
    "text, start, to, reason",
    [
        ("1c2/1C2/4/4/4/4/4/4 b 0 1", "b7", "b8", "commander_captured"),
        ("3c/1C2/4/4/4/4/4/4 b 0 1", "b7", "b8", "commander_arrived"),
        ("cS2/S1S1/4/4/4/4/4/3C b 0 1", "c7", "b7", "no_moves"),
    ],
)
def test_after_the_end_neither_player_may_move_or_resign(text, start, to, reason):
    state, events = move(position(text), start, to)
    assert ended(events)[1] == reason
    assert RULES.pending(state) == {}
    for seat in RULES.seats:
        assert RULES.legal(state, seat) == []
        for command in ({"type": "move", "from": "d1", "to": "d2"}, {"type": "resign"}):
            with pytest.raises(RulesError, match=re.escape("The game is over.")):
                RULES.decide(state, seat, command, RNG)


def test_after_a_draw_no_one_may_move():
    state = position("c3/4/4/4/4/4/4/O2C b 0 1")
    for start, to in [("a1", "a2"), ("a8", "b8"), ("a2", "a1"), ("b8", "a8")] * 2:
        state, events = move(state, start, to)
    assert ended(events) == (None, "repetition")
    with pytest.raises(RulesError, match=re.escape("The game is over.")):
        RULES.decide(state, "blue", {"type": "move", "from": "a1", "to": "a2"}, RNG)


# -- the secret setup ----------------------------------------------------------------------
def test_the_first_to_arrange_learns_nothing_of_the_others_arrangement():
    """ "the first to finish learns nothing of the other's": what Red (or a spectator) is
    shown after Blue arranged is the same whatever Blue arranged."""
    shown = []
    for blue in (STANDARD, "SSSSSSSSSSOOOOOC"):
        state = RULES.fold(RULES.setup({"setup": "secret"}, RNG))
        events = RULES.decide(state, "blue", {"type": "arrange", "pieces": blue}, RNG)
        for event in events:
            state = RULES.evolve(state, event)
        shown.append(
            {
                viewer: (
                    [RULES.redact(e, viewer) for e in events],
                    RULES.view(state, viewer),
                    RULES.legal(state, viewer) if viewer else None,
                    RULES.pending(state),
                )
                for viewer in ("red", None)
            }
        )
        assert RULES.view(state, "blue")["mine"] == blue
    assert shown[0] == shown[1]


def test_the_reveal_places_both_arrangements_at_once_and_red_mirrored():
    """ "both arrangements are revealed together" (every seat and a spectator then see the
    same board); an arrangement is read from its back rank forward, files a to d (README:
    "Blue a1…d1, a2…d4; Red a8…d8, a7…d5"), as the rules' standard one is mirrored."""
    blue, red = "SSSSSSSSSSOOOOOC", "CSSSSSSSSSSOOOOO"
    state = RULES.fold(RULES.setup({"setup": "secret"}, RNG))
    for seat, pieces in (("blue", blue), ("red", red)):
        for event in RULES.decide(state, seat, {"type": "arrange", "pieces": pieces}, RNG):
            state = RULES.evolve(state, event)
    assert notation.of_state(state) == "csss/ssss/ssso/oooo/OOOC/SSOO/SSSS/SSSS b 0 1"
    for viewer in ("blue", "red", None):
        assert RULES.view(state, viewer)["position"] == notation.of_state(state)


def test_the_notation_counts_quiet_moves_and_full_moves_after_real_moves():
    """Position notation (README): "the moves made since the last capture, and the move
    number (Blue's and Red's moves count one together)"."""
    state = RULES.fold(RULES.setup({"setup": "standard"}, RNG))
    state, _ = move(state, "a4", "a5")
    assert notation.of_state(state) == "ooco/soso/ssss/Ssss/1SSS/SSSS/SOSO/OOCO r 0 1"
    state, _ = move(state, "a6", "a5")
    assert notation.of_state(state) == "ooco/soso/1sss/ssss/1SSS/SSSS/SOSO/OOCO b 0 2"
    state, _ = move(state, "a3", "a4")
    assert notation.of_state(state) == "ooco/soso/1sss/ssss/SSSS/1SSS/SOSO/OOCO r 1 2"
