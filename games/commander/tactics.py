"""What the AI reads off a board at a glance: who could take what, whether a move wins at
once or lets the other player win at once, and how far a Commander is from its goal.
Pure table look-ups over the 32-character board (``board.py``); no search.

A square is *attacked* by a seat when one of its pieces could capture what stands there
(or what would stand there): a Soldier from an orthogonal neighbour, the Commander from
any neighbour, an Officer from the first square met along a line (``board.LINES`` is the
same both ways, river included), each only where ``rules.may_take`` allows.
"""

from __future__ import annotations

from games.commander.board import EMPTY, KING_STEPS, LINES, STEPS, goal_of
from games.commander.rules import OWN, may_take

VALUE = {"C": 0.0, "O": 3.0, "S": 1.0}  # material; the Commander is the game itself
FAR = 9  # a Commander's distance to its goal when no path is open


def commander_at(board: str, seat: int) -> int:
    """The square of ``seat``'s Commander (-1 if it is gone: the game is over)."""
    return board.find("C" if seat == 0 else "c")


def attacked(board: str, sq: int, kind: str, by: int, takes: bool) -> bool:
    """Whether ``by`` could capture a piece of ``kind`` on ``sq``."""
    soldier, officer, commander = ("S", "O", "C") if by == 0 else ("s", "o", "c")
    if may_take(takes, "S", kind) and any(board[n] == soldier for n in STEPS[sq]):
        return True
    if may_take(takes, "C", kind) and any(board[n] == commander for n in KING_STEPS[sq]):
        return True
    if may_take(takes, "O", kind):
        for line in LINES[sq]:
            for n in line:
                if board[n] != EMPTY:
                    if board[n] == officer:
                        return True
                    break
    return False


def wins_at_once(board: str, seat: int, start: int, to: int, goal: frozenset[int]) -> bool:
    """Whether the move takes the enemy Commander or brings ``seat``'s onto its goal."""
    return board[to] in "Cc" or (board[start] in "Cc" and to in goal)


def can_win_at_once(board: str, seat: int, takes: bool, goal: str) -> bool:
    """Whether ``seat``, to move, has a move that ends the game in its favour: taking the
    enemy Commander, or its own Commander stepping onto its goal."""
    theirs = commander_at(board, 1 - seat)
    if theirs >= 0 and attacked(board, theirs, "C", seat, takes):
        return True
    mine = commander_at(board, seat)
    if mine < 0:
        return False
    enemy = OWN[1 - seat]
    target = goal_of(goal, seat)
    for n in KING_STEPS[mine]:
        if n in target:
            there = board[n]
            if there == EMPTY or (there in enemy and may_take(takes, "C", there)):
                return True
    return False


def commander_distance(board: str, seat: int, takes: bool, goal: str) -> int:
    """The fewest Commander steps from ``seat``'s Commander to its goal, through squares it
    could stand on without being taken at once (empty, or an enemy it may capture; not
    next to an enemy Soldier or the enemy Commander as things stand). ``FAR`` if none."""
    start = commander_at(board, seat)
    if start < 0:
        return FAR
    target = goal_of(goal, seat)
    if start in target:
        return 0
    enemy = OWN[1 - seat]
    frontier, seen = [start], {start}
    for distance in range(1, FAR):
        nxt = []
        for sq in frontier:
            for n in KING_STEPS[sq]:
                if n in seen:
                    continue
                seen.add(n)
                there = board[n]
                if there != EMPTY and not (there in enemy and may_take(takes, "C", there)):
                    continue
                if n in target:
                    return distance
                if attacked(board, n, "C", 1 - seat, takes):
                    continue
                nxt.append(n)
        if not nxt:
            return FAR
        frontier = nxt
    return FAR
