"""Commander's position notation: the standard start, round trips over random positions
and random games, and malformed positions refused in words."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from games.base import RulesError
from games.commander import RULES, notation
from games.commander.board import COUNTS, EMPTY, SQUARES
from games.commander.rules import QUIET_LIMIT
from games.playout import play

START = "ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/OOCO b 0 1"


def test_the_standard_start():
    state = RULES.fold(RULES.setup({"setup": "standard"}, random.Random(0)))
    assert notation.of_state(state) == START
    assert RULES.view(state, None)["position"] == START
    assert notation.parse(START) == (state.board, 0, 0, 0)


def test_known_positions():
    board = EMPTY * SQUARES
    assert notation.position(board, 0, 0, 0) == "4/4/4/4/4/4/4/4 b 0 1"
    board = "C" + EMPTY * 30 + "c"  # a1 and d8
    assert notation.position(board, 1, 7, 9) == "3c/4/4/4/4/4/4/C3 r 7 5"
    assert notation.parse("3c/4/4/4/4/4/4/C3 r 7 5") == (board, 1, 7, 9)
    assert notation.parse("1o1c/4/4/4/4/4/2S1/C3 b 0 1")[0][4:8] == "..S."
    assert notation.parse("13/22/31/4/112/211/1111/4 b 0 1")[0] == EMPTY * SQUARES


@hs.composite
def positions(draw):
    """A board with at most each side's pieces, who moves, the quiet moves, the plies."""
    squares = draw(hs.permutations(range(SQUARES)))
    board = [EMPTY] * SQUARES
    at = 0
    for piece, most in COUNTS.items():
        for letter in (piece, piece.lower()):
            for _ in range(draw(hs.integers(0, most))):
                board[squares[at]] = letter
                at += 1
    turn = draw(hs.integers(0, 1))
    plies = 2 * draw(hs.integers(0, 500)) + turn
    return "".join(board), turn, draw(hs.integers(0, QUIET_LIMIT)), plies


@settings(max_examples=300, deadline=None)
@given(positions())
def test_parse_of_position_round_trips(pos):
    text = notation.position(*pos)
    assert notation.parse(text) == pos
    assert notation.position(*notation.parse(text)) == text


@pytest.mark.parametrize("options", [{"setup": "secret"}, {"setup": "standard"}])
def test_every_position_of_random_games_round_trips_and_so_does_the_snapshot(options):
    for seed in range(8):
        game = play(RULES, options, random.Random(seed))
        state = RULES.fold(game.events[:1])
        for event in game.events[1:]:
            state = RULES.evolve(state, event)
            if state.board != EMPTY * SQUARES:
                assert notation.parse(notation.of_state(state)) == (
                    state.board, state.turn, state.quiet, state.plies)  # fmt: skip
            line = RULES.dump_state(state)
            assert "\n" not in line and json.loads(line)
            assert RULES.load_state(line) == state


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "A position is the board, who moves"),
        (None, "A position is the board, who moves"),
        (START + " 5", "A position is the board, who moves"),
        ("ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/OOCO b 0", "A position is the board"),
        ("ooco/soso/ssss/ssss/SSSS/SSSS/SOSO b 0 1", "A position has 8 ranks."),
        ("4/ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/OOCO b 0 1", "A position has 8 ranks."),
        ("ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/OOCOS b 0 1", "'OOCOS' is not a rank"),
        ("ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/OOC b 0 1", "'OOC' is not a rank"),
        ("ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/5 b 0 1", "'5' is not a rank"),
        ("ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/0OOCO b 0 1", "'0OOCO' is not a rank"),
        ("ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/OOXO b 0 1", "'OOXO' is not a rank"),
        ("ooco/soso/ssss/ssss/SSSS/SSSS/SOSO//OOCO b 0 1", "'' is not a rank"),
        ("ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/OOCO w 0 1", "b \\(Blue\\) or r \\(Red\\)"),
        ("ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/OOCO b -1 1", "whole numbers"),
        ("ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/OOCO b 0 0", "whole numbers"),
        ("ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/OOCO b x 1", "whole numbers"),
        ("ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/OOCO b 81 1", "after 80 moves without a capture"),
        ("ooco/soso/ssss/ssss/SSSS/SSSS/SOCO/OOCO b 0 1", "at most 1 Commander"),
        ("ooco/soso/ssss/ssss/SSSS/SSSS/SOSO/OOOO b 0 1", "at most 1 Commander, 5 Officers"),
        ("ooco/soso/ssss/sssS/SSSS/SSSS/SOSO/OOCO b 0 1", "10 Soldiers"),
    ],
)
def test_a_malformed_position_is_refused_in_a_sentence(text, words):
    with pytest.raises(RulesError, match=words) as refusal:
        notation.parse(text)
    assert str(refusal.value)[0].isupper() or str(refusal.value)[0] == "'"
    assert str(refusal.value).endswith(".")
