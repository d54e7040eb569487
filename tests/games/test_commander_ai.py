"""Commander's AI parts: the arrangements it draws, the easy level's rule of thumb, the
moves the search looks at and its judgement of a position (``games/commander/ai.py``,
``tactics.py``)."""

from __future__ import annotations

import itertools
import random

import games
from games.commander import ai, tactics
from games.commander.board import COUNTS, EMPTY, SQUARE, arrange, played
from games.commander.rules import State, can_move, check_arrangement
from games.commander.view import view

RULES = games.get("commander")


def position(pieces: dict[str, str], turn: int = 0, takes: bool = True,
             goal: str = "back_rank") -> State:  # fmt: skip
    board = [EMPTY] * 32
    for name, piece in pieces.items():
        board[SQUARE[name]] = piece
    text = "".join(board)
    return State(phase="play", board=text, turn=turn, takes=takes, goal=goal,
                 seen=("br"[turn] + text,))  # fmt: skip


def easy_move(state: State, seed: int = 1) -> tuple[str, str]:
    seat = ("blue", "red")[state.turn]
    command = ai.AI.heuristic(view(state, seat), seat, random.Random(seed))
    return command["from"], command["to"]


def every_front_rank() -> list[str]:
    """Every front rank Red could arrange (files a to d; at most one Commander)."""
    return ["".join(f) for f in itertools.product("COS", repeat=4) if f.count("C") <= 1]


def test_every_arrangement_gives_blue_a_capture_at_the_reveal_whatever_red_arranged():
    for pieces in ai.ARRANGEMENTS:
        assert check_arrangement(pieces) == pieces
        for front in every_front_rank():
            rest = list("C" + "O" * COUNTS["O"] + "S" * COUNTS["S"])
            for piece in front:
                rest.remove(piece)
            board = arrange((pieces, "".join(rest) + front))
            assert can_move(board, 0, True) and can_move(board, 0, False), (pieces, front)


def test_every_arrangement_keeps_the_commander_back_with_officers_beside_it():
    for pieces in ai.ARRANGEMENTS:
        board = arrange((pieces, pieces))
        at = board.index("C")
        assert at < 4, pieces  # the back rank
        assert all(board[n] == "O" for n in tactics.STEPS[at] if n < 16), pieces


def test_the_searching_and_easy_levels_do_not_always_arrange_alike():
    state = RULES.fold(RULES.setup({}, random.Random(1)))
    drawn = {ai.AI.fallback(state, "blue", random.Random(seed))["pieces"] for seed in range(30)}
    assert len(drawn) > 2 and drawn <= set(ai.ARRANGEMENTS)
    easy = {ai.AI.heuristic(view(state, "red"), "red", random.Random(s))["pieces"]
            for s in range(30)}  # fmt: skip
    assert len(easy) > 2 and easy <= set(ai.ARRANGEMENTS)


def test_easy_wins_at_once_by_taking_the_commander():
    state = position({"a1": "C", "b4": "S", "b5": "c", "d8": "o", "d4": "O", "d5": "s"})
    assert easy_move(state) == ("b4", "b5")


def test_easy_wins_at_once_by_reaching_the_back_rank():
    state = position({"b7": "C", "d1": "c", "a1": "s", "d4": "O", "d5": "o"})
    assert easy_move(state)[0] == "b7" and easy_move(state)[1] in ("a8", "b8", "c8")


def test_easy_answers_a_soldier_next_to_its_commander():
    # The Soldier on b3 would take the Commander on b2: only taking it (the Officer on a3)
    # or stepping the Commander away keeps the game going.
    state = position({"b2": "C", "b3": "s", "a3": "O", "d4": "S", "d5": "s", "a8": "c"})
    for seed in range(10):
        start, to = easy_move(state, seed)
        after = played(state.board, SQUARE[start], SQUARE[to])
        assert not tactics.can_win_at_once(after, 1, True, "back_rank"), (start, to)


def test_easy_takes_the_officer_that_is_safe_to_take_rather_than_a_soldier():
    state = position({"a1": "C", "c2": "O", "c4": "o", "b4": "S", "b5": "s", "d8": "c"})
    assert easy_move(state) == ("c2", "c4")


def test_easy_does_not_take_a_soldier_where_its_officer_would_be_lost():
    # c2xc3 wins a Soldier but the Officer on c4 takes the Officer back: a quiet move
    # scores better.
    state = position({"a1": "C", "c2": "O", "c3": "s", "c4": "o", "d8": "c", "a4": "S"})
    for seed in range(10):
        assert easy_move(state, seed) != ("c2", "c3")


def test_easy_keeps_its_commander_away_from_enemy_soldiers():
    # From b2 the Commander may step anywhere around; on c3 the Soldier on c5 could come
    # beside it in one step.
    state = position({"b2": "C", "c5": "s", "d8": "c", "a8": "o"})
    for seed in range(20):
        assert easy_move(state, seed) != ("b2", "c3")


def test_the_search_looks_only_at_a_win_when_there_is_one():
    state = position({"a1": "C", "b4": "S", "b5": "c", "d4": "O", "d5": "s"})
    assert ai.sensible(state) == [(SQUARE["b4"], SQUARE["b5"])]


def test_the_search_drops_moves_that_hand_over_a_win_and_puts_captures_first():
    # The Soldier on b3 threatens the Commander: only taking it or stepping away is kept.
    state = position({"b2": "C", "b3": "s", "a3": "O", "d2": "O", "a8": "c", "d4": "S",
                      "d5": "s", "d7": "o"})  # fmt: skip
    moves = ai.sensible(state)
    assert moves[0] == (SQUARE["a3"], SQUARE["b3"])
    assert all(start == SQUARE["b2"] for start, _ in moves[1:]) and len(moves) > 2
    assert (SQUARE["b2"], SQUARE["c3"]) not in moves  # beside the Soldier still


def test_the_judgement_favours_whoever_can_win_at_once_and_the_material():
    threat = position({"b2": "C", "b3": "s", "d8": "c"}, turn=1)
    assert ai.judge(threat, 1) > 0.9 and ai.judge(threat, 0) < 0.1
    more = position({"a1": "C", "d8": "c", "b2": "O", "c2": "O", "b7": "s"})
    assert ai.judge(more, 0) > 0.5 > ai.judge(more, 1)


def test_a_lead_fades_toward_a_draw_as_the_quiet_moves_run_out():
    more = position({"a1": "C", "d8": "c", "b2": "O", "c2": "O", "b7": "s"})
    late = more._replace(seen=more.seen * 71)  # 70 moves without a capture
    last = more._replace(seen=more.seen * 80)  # 79: one more and it is a draw
    fresh, fading, drawn = (ai.judge(s, 0) for s in (more, late, last))
    assert fresh > fading > drawn > 0.5  # still ahead, but worth less and less
    assert drawn - 0.5 < 0.1 * (fresh - 0.5)
    assert ai.judge(last, 1) == 1 - drawn  # the same for the side behind, from below


def test_attacks_follow_the_river_and_who_takes_whom():
    board = position({"a2": "O", "a5": "s", "a4": "c", "b4": "S", "d1": "C"}).board
    assert not tactics.attacked(board, SQUARE["a5"], "S", 0, True)  # a2's line stops at a4
    assert tactics.attacked(board, SQUARE["a4"], "C", 0, True)  # b4's Soldier, by the dagger
    assert not tactics.attacked(board, SQUARE["a4"], "C", 0, False)
    assert not tactics.attacked(board, SQUARE["b4"], "S", 1, True)  # a Commander never
    assert tactics.attacked(board, SQUARE["b4"], "S", 1, False)  # ... unless no dagger


def test_a_commanders_distance_avoids_the_squares_soldiers_guard():
    open_way = position({"a1": "C", "d8": "c"}).board
    assert tactics.commander_distance(open_way, 0, True, "back_rank") == 7
    assert tactics.commander_distance(open_way, 0, True, "enemy_side") == 4
    walled = position({"a1": "C", "d8": "c", "a6": "s", "b6": "s", "c6": "s", "d6": "s"}).board
    assert tactics.commander_distance(walled, 0, True, "back_rank") == tactics.FAR
