"""Commander's commands: the secret arrangement (its refusals in words, the reveal, Blue
without a move at once), and refusals of moves that change nothing."""

from __future__ import annotations

import random
import re

import pytest

from games.base import RulesError
from games.commander import RULES
from games.commander.board import STANDARD
from games.commander.rules import _memory
from games.playout import play
from tests.games.commander_helpers import position

RNG = random.Random(0)


def secret_start(**options):
    return RULES.fold(RULES.setup({"setup": "secret", **options}, RNG))


def arrange(state, seat, pieces):
    events = RULES.decide(state, seat, {"type": "arrange", "pieces": pieces}, RNG)
    for event in events:
        state = RULES.evolve(state, event)
    return state, events


def test_both_arrange_in_secret_then_both_are_revealed_and_blue_moves():
    state = secret_start()
    assert RULES.pending(state) == {"blue": "arrange", "red": "arrange"}
    red = "COOOSOSOSSSSSSSS"
    state, events = arrange(state, "red", red)
    assert events == [{"type": "arranged", "visible_to": "red", "seat": "red", "pieces": red}]
    assert RULES.pending(state) == {"blue": "arrange"}
    state, events = arrange(state, "blue", STANDARD)
    assert [e["type"] for e in events] == ["arranged", "revealed"]
    assert events[1] == {"type": "revealed", "visible_to": "all",
                         "pieces": {"blue": STANDARD, "red": red}}  # fmt: skip
    assert RULES.pending(state) == {"blue": "move"}
    # Red's back rank (rank 8) first, files a to d; Blue's rank 1 first.
    assert state.board[28:32] == "cooo" and state.board[16:20] == "ssss"
    assert state.board[0:4] == "OOCO" and state.quiet == 0 and len(state.seen) == 1


@pytest.mark.parametrize(
    "pieces, words",
    [
        (STANDARD[:15], "16 letters"),
        (STANDARD + "S", "16 letters"),
        (STANDARD.lower(), "16 letters, C, O or S"),
        ("X" + STANDARD[1:], "16 letters, C, O or S"),
        (list(STANDARD), "16 letters"),
        (None, "16 letters"),
        ("CCCOSOSOSSSSSSSS", "1 Commander \\(C\\), 5 Officers \\(O\\) and 10 Soldiers \\(S\\)"),
        ("OOOOOOSOSSSSSSSS", "1 Commander \\(C\\), 5 Officers"),
        ("OOCOSSSSSSSSSSSS", "5 Officers"),
        ("OOCOOOOOSSSSSSSS", "10 Soldiers"),
    ],
)
def test_a_wrong_arrangement_is_refused_in_a_sentence(pieces, words):
    state = secret_start()
    with pytest.raises(RulesError, match=words) as refusal:
        RULES.decide(state, "blue", {"type": "arrange", "pieces": pieces}, RNG)
    assert str(refusal.value).endswith(".")
    assert RULES.pending(state) == {"blue": "arrange", "red": "arrange"}


def test_arranging_twice_is_refused():
    state, _ = arrange(secret_start(), "blue", STANDARD)
    with pytest.raises(RulesError, match=re.escape("You have arranged your pieces already.")):
        arrange(state, "blue", STANDARD)


def test_arranging_after_the_reveal_or_in_the_standard_setup_is_refused():
    state, _ = arrange(secret_start(), "blue", STANDARD)
    state, _ = arrange(state, "red", STANDARD)
    standard = RULES.fold(RULES.setup({"setup": "standard"}, RNG))
    for already in (state, standard):
        with pytest.raises(RulesError, match=re.escape("The pieces are already on the board.")):
            arrange(already, "red", STANDARD)


def test_moving_before_the_reveal_is_refused_and_says_why():
    state = secret_start()
    command = {"type": "move", "from": "a4", "to": "a5"}
    with pytest.raises(RulesError, match=re.escape("Arrange your pieces first.")):
        RULES.decide(state, "blue", command, RNG)
    state, _ = arrange(state, "blue", STANDARD)
    with pytest.raises(RulesError, match="The other player is still arranging their pieces"):
        RULES.decide(state, "blue", command, RNG)


@pytest.mark.parametrize("takes", [True, False])
def test_blue_without_a_move_right_after_the_reveal_loses_at_once(takes):
    # Blue's front rank (its last four letters) all Soldiers, Red's all Officers: a
    # Soldier takes no Officer, and the full board leaves nothing else.
    blue, red = "OOCOSOSOSSSSSSSS", "SSSSSSSSSSCOOOOO"
    state = secret_start(soldier_takes_commander=takes)
    state, _ = arrange(state, "blue", blue)
    state, events = arrange(state, "red", red)
    assert [e["type"] for e in events] == ["arranged", "revealed", "game_ended"]
    assert events[-1] == {"type": "game_ended", "visible_to": "all", "winner": "red",
                          "reason": "no_moves"}  # fmt: skip
    assert RULES.outcome(state) == {"winner": "red", "reason": "no_moves"}
    assert RULES.pending(state) == {}
    assert state.board[12:20] == "SSSSoooo"


def test_a_blue_arrangement_that_can_move_does_not_end_the_game():
    state, _ = arrange(secret_start(), "blue", "OOCOSOSOSSSSSSSS")
    state, events = arrange(state, "red", "SSSSSSSSSOCOOOOS")  # one Soldier on d5
    assert [e["type"] for e in events] == ["arranged", "revealed"]
    assert [(c["from"], c["to"]) for c in RULES.legal(state, "blue")] == [("d4", "d5")]


# -- refusals change nothing -------------------------------------------------------------
def mid_game(seed=3, plies=12):
    events = play(RULES, {"setup": "standard"}, random.Random(seed)).events
    state = RULES.fold(events[:1])
    for event in events[1 : plies + 1]:
        state = RULES.evolve(state, event)
    assert state.phase == "play"
    return state


BAD = [
    ("red", {"type": "move", "from": "a5", "to": "a4"}, "It is not your turn."),
    ("blue", {"type": "move", "from": "e9", "to": "a4"}, "e9 is not a space of the board"),
    ("blue", {"type": "move", "from": None, "to": "a4"}, "None is not a space of the board"),
    ("blue", {"type": "move", "from": "a1", "to": ["a2"]}, "is not a space of the board"),
    ("blue", {"type": "move"}, "None is not a space"),
    ("blue", {"type": "fly", "from": "a1"}, "has no command 'fly': arrange, move or resign."),
    ("green", {"type": "move", "from": "a1", "to": "a2"}, "There is no seat 'green'"),
    ("blue", {"type": "arrange", "pieces": STANDARD}, "The pieces are already on the board."),
]


@pytest.mark.parametrize("seat, command, words", BAD)
def test_a_refused_command_changes_nothing(seat, command, words):
    state = mid_game()
    assert RULES.pending(state) == {"blue": "move"}
    before = (RULES.dump_state(state), RULES.legal(state, "blue"), RULES.view(state, "blue"))
    good = RULES.legal(state, "blue")[0]
    events = RULES.decide(state, "blue", good, RNG)
    with pytest.raises(RulesError, match=words):
        RULES.decide(state, seat, command, RNG)
    assert (
        RULES.dump_state(state),
        RULES.legal(state, "blue"),
        RULES.view(state, "blue"),
    ) == before
    # the decision made before the refusal still folds to its own state
    folded = state
    for event in events:
        folded = RULES.evolve(folded, event)
    assert RULES.evolve_all(state, events) == folded


def test_moves_that_are_not_the_players_are_refused_by_name():
    state = position("3c/4/4/s3/4/4/O3/3C b 0 1")
    for start, to, words in [
        ("b2", "b3", "You have no piece on b2."),
        ("d8", "c8", "You have no piece on d8."),
        ("a2", "b3", "That piece cannot move from a2 to b3."),
        ("a2", "a2", "That piece cannot move from a2 to a2."),
        ("d1", "d3", "That piece cannot move from d1 to d3."),
    ]:
        with pytest.raises(RulesError, match=words):
            RULES.decide(state, "blue", {"type": "move", "from": start, "to": to}, RNG)


def test_nothing_is_decided_once_the_game_is_over():
    game = play(RULES, {"setup": "standard"}, random.Random(1))
    assert RULES.pending(game.state) == {} and RULES.legal(game.state, "blue") == []
    assert RULES.random_command(game.state, "blue", RNG) is None
    with pytest.raises(RulesError, match=re.escape("The game is over.")):
        RULES.decide(game.state, "blue", {"type": "move", "from": "a1", "to": "a2"}, RNG)
    assert _memory.start() is not game.state  # nothing was remembered from it


def test_evolve_never_fails_on_a_stored_move_and_the_moves_follow_the_board():
    from games.commander.rules import all_moves, piece_moves

    state = position("3c/4/4/4/4/4/O3/3C b 0 1")
    all_moves(state.board, 0, True)  # its squares are known now
    odd = {"type": "moved", "visible_to": "all", "seat": "blue", "piece": "O", "from": "b2",
           "to": "b3", "captured": None}  # fmt: skip
    after = RULES.evolve(state, odd)  # from an empty space: no game stores it, yet no failure
    assert after.board == state.board and after.turn == 1
    after = RULES.evolve(state, {**odd, "from": "a2"})
    mine = [sq for sq, ch in enumerate(after.board) if ch in "COS"]
    expected = [(sq, to) for sq in mine for to in piece_moves(after.board, sq, True)]
    assert all_moves(after.board, 0, True) == expected
