"""What the generic search needs of Commander, and its rule of thumb (the easy level).

The search (medium, hard) looks at sensible moves only: a move that wins at once is the
only one looked at, a move that lets the other player win at once is dropped (unless every
move does), captures come first, the biggest first. Its playouts play a win when there is
one, often a good capture, else a random move that does not hand the other a win at once;
after ``DEPTH`` moves the position is judged: a win for whoever is to move when they can
win at once, else material, how near each Commander is to its goal along squares where it
cannot be taken, and what the player to move could take.

The arrangement (secret setup) is drawn among ``ARRANGEMENTS``: each puts at least two
Officers on the front rank, so Blue always has a capture at the reveal whatever Red did
(an Officer takes anything but a Commander, and there is one Commander), and keeps the
Commander on the back rank with Officers beside it, which no Soldier can take.

Measured (``python -m bench.ai --game commander --pairings hard:random,hard:easy --timed
hard --games 40 --timed-games 4 --jobs 2``, seed 1, a loaded 2-core machine), with the
judgement fading toward a draw as the 80 quiet moves run out: secret arrangement, hard vs
random 1.000 (40-0-0), hard vs easy 0.887 (0.787 before the fading), hard's p95 0.253 s;
seed 2 0.800 (0.800 before); ``--option setup=standard``, seed 1: 1.000, 0.875 (0.925
before), 0.214 s. Most of hard's draws against easy are games it had lost material in as
Red and saved. A costed way for the Commander (every blocked square a price, so a
walled-in Commander still counts how walled in it is) scored 0.812 (29-7-4) in the same 40
secret games at 2.5 times the time a decision: not kept.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

from games.commander import rules
from games.commander.board import NAMES, SEATS, SQUARE, STEPS, goal_of, played
from games.commander.knowledge import KNOWLEDGE
from games.commander.rules import OWN, State, all_moves
from games.commander.tactics import (
    FAR,
    VALUE,
    attacked,
    can_win_at_once,
    commander_at,
    commander_distance,
    wins_at_once,
)

DEPTH = 6  # a playout looks this many moves past the decision, then the position is judged
CAPTURE_CHANCE = 0.6  # how often a playout takes its best capture rather than a random move
RETRIES = 2  # a playout's random move is drawn again this often if it hands over a win
# Each seat's arrangement, back rank first, files a to d (Blue's view; Red's is the same
# from its side). Two Officers or more on the front rank; the Commander in a back corner
# or beside one, its orthogonal neighbours Officers.
ARRANGEMENTS = (
    "COSS" "OSSS" "SSSS" "OOSO",
    "SSOC" "SSSO" "SSSS" "OSOO",
    "OCOS" "SOSS" "SSSS" "SOSO",
    "SOCO" "SSOS" "SSSS" "OSOS",
    "COSS" "OSSS" "SSSS" "SOOO",
    "SSOC" "SSSO" "SSSS" "OOOS",
)  # fmt: skip
_CACHE_SIZE = 20_000
_candidates: dict[tuple, list[dict[str, Any]]] = {}


def _command(move: tuple[int, int]) -> dict[str, Any]:
    return {"type": "move", "from": NAMES[move[0]], "to": NAMES[move[1]]}


def _arrangement(rng: Any) -> dict[str, Any]:
    return {"type": "arrange", "pieces": ARRANGEMENTS[int(rng.random() * len(ARRANGEMENTS))]}


def _hands_over(state: State, seat: int, move: tuple[int, int]) -> bool:
    """Whether the other player could win at once after ``move``."""
    return can_win_at_once(played(state.board, *move), 1 - seat, state.takes, state.goal)


def sensible(state: State) -> list[tuple[int, int]]:
    """The moves worth searching for the player to move: a win at once alone, else those
    that do not hand the other a win at once (all when every move does), captures first,
    most valuable victim first, then by the least valuable piece taking it."""
    seat, board = state.turn, state.board
    moves = all_moves(board, seat, state.takes)
    goal = goal_of(state.goal, seat)
    for move in moves:
        if wins_at_once(board, seat, *move, goal):
            return [move]
    safe = [m for m in moves if not _hands_over(state, seat, m)] or moves

    def order(move: tuple[int, int]) -> tuple[float, float]:
        there = board[move[1]]
        if there == ".":
            return (0.0, 0.0)
        return (-1.0 - VALUE[there.upper()], VALUE[board[move[0]].upper()])

    return sorted(safe, key=order)


def _best_capture(board: str, moves: list[tuple[int, int]]) -> tuple[int, int] | None:
    best, value = None, 0.0
    for start, to in moves:
        there = board[to]
        if there != ".":
            gain = VALUE[there.upper()] - 0.1 * VALUE[board[start].upper()]
            if gain > value:
                best, value = (start, to), gain
    return best


def judge(state: State, me: int) -> float:
    """A chance of winning for seat ``me`` in a position not yet decided."""
    board, turn, takes = state.board, state.turn, state.takes
    if can_win_at_once(board, turn, takes, state.goal):
        return 0.98 if turn == me else 0.02
    score = 0.0  # from Blue's side
    threat = 0.0  # the most valuable piece the player to move could take
    for sq, ch in enumerate(board):
        if ch == "." or ch in "Cc":
            continue
        value = VALUE[ch.upper()]
        owner = 0 if ch in OWN[0] else 1
        score += value if owner == 0 else -value
        if owner != turn and value > threat and attacked(board, sq, ch.upper(), turn, takes):
            threat = value
    score += 0.5 * threat if turn == 0 else -0.5 * threat
    near = [commander_distance(board, seat, takes, state.goal) for seat in (0, 1)]
    for seat, distance in enumerate(near):
        lead = 0.6 * (FAR - distance) + (1.5 if distance <= 2 else 0.0)
        score += lead if seat == 0 else -lead
    if me == 1:
        score = -score
    # 80 moves without a capture draw: a lead fades toward a draw as they run out, so the
    # side ahead prefers the capture that starts them again to shuffling until the draw
    score *= 1.0 - (state.quiet / rules.QUIET_LIMIT) ** 2
    return 1.0 / (1.0 + math.exp(-score / 4.0))


class Parts:
    determinize = staticmethod(KNOWLEDGE.determinize)

    @staticmethod
    def searchable(view: dict[str, Any], seat: str) -> bool:
        decision = view.get("decision")
        return decision is not None and decision["kind"] == "move"

    @staticmethod
    def candidates(state: State, seat: str, rng: Any, root: bool) -> list[dict]:
        if state.phase != "play":
            return rules.legal(state, seat)
        key = (state.board, state.turn, state.takes, state.goal)
        out = _candidates.get(key)
        if out is None:
            if len(_candidates) >= _CACHE_SIZE:
                _candidates.clear()
            out = _candidates[key] = [_command(m) for m in sensible(state)]
        return out

    @staticmethod
    def rollout(state: State, seat: str, rng: Any) -> dict | None:
        """A quick, likely move: a win when there is one, often the best capture, else a
        random move that does not hand the other a win at once when one is easily found."""
        if state.phase != "play":
            return _arrangement(rng)
        board, me = state.board, state.turn
        moves = all_moves(board, me, state.takes)
        if not moves:
            return None
        goal = goal_of(state.goal, me)
        for move in moves:
            if wins_at_once(board, me, *move, goal):
                return _command(move)
        move = _best_capture(board, moves) if rng.random() < CAPTURE_CHANCE else None
        if move is None:
            for _ in range(RETRIES + 1):
                move = moves[int(rng.random() * len(moves))]
                if not _hands_over(state, me, move):
                    break
        return _command(move)

    @staticmethod
    def evaluate(state: State, seat: str) -> float:
        if state.result is not None:
            winner = state.result["winner"]
            return 0.5 if winner is None else float(winner == seat)
        return judge(state, SEATS.index(seat))

    @staticmethod
    def horizon(root: State, state: State) -> bool:
        return state.result is not None or state.plies - root.plies >= DEPTH

    @staticmethod
    def key(command: dict[str, Any]) -> Hashable:
        return (command.get("type"), command.get("from"), command.get("to"),
                command.get("pieces"))  # fmt: skip

    @staticmethod
    def fallback(state: State, seat: str, rng: Any) -> dict | None:
        """The arrangement (the search does not look at it), or a first legal move."""
        if state.phase == "arrange":
            return _arrangement(rng)
        options = rules.legal(state, seat)
        return options[0] if options else None

    @staticmethod
    def assessable(view: dict[str, Any], seat: str, command: dict[str, Any]) -> bool:
        decision = view.get("decision")
        return decision is not None and decision["kind"] == "move" and command.get(
            "type") == "move"  # fmt: skip

    @staticmethod
    def alternatives(state: State, seat: str, played: dict[str, Any]) -> list[dict]:
        return rules.legal(state, seat)

    @staticmethod
    def heuristic(view: dict[str, Any], seat: str, rng: Any) -> dict | None:
        """The easy level, no lookahead: win at once when it can; never hand the other a
        win at once when another move does not (the Commander left to be taken, or theirs
        let through to its goal); else the move that scores best, ties drawn at random
        (``rule_of_thumb``). The arrangement is drawn among ``ARRANGEMENTS``."""
        decision = view.get("decision")
        if not decision:
            return None
        if decision["kind"] == "arrange":
            return _arrangement(rng)
        state = KNOWLEDGE.determinize(view, seat, rng)
        moves = [(SQUARE[a], SQUARE[b]) for a, b in decision["moves"]]
        me, board = state.turn, state.board
        goal = goal_of(state.goal, me)
        for move in moves:
            if wins_at_once(board, me, *move, goal):
                return _command(move)
        safe = [m for m in moves if not _hands_over(state, me, m)] or moves
        scored = [(rule_of_thumb(state, m), m) for m in safe]
        top = max(score for score, _ in scored)
        best = [m for score, m in scored if score >= top - 1e-9]
        return _command(best[int(rng.random() * len(best))])


def rule_of_thumb(state: State, move: tuple[int, int]) -> float:
    """The easy level's score of a move: what it takes, less what the moved piece may
    then lose where it lands (taking a valuable piece safely scores best; an even trade a
    little above a quiet move); a Commander kept off squares next to which an enemy
    Soldier could step (when the Soldier's dagger is on)."""
    board, me, takes = state.board, state.turn, state.takes
    start, to = move
    kind, there = board[start].upper(), board[to]
    after = played(board, start, to)
    gain = 0.0 if there == "." else VALUE[there.upper()]
    risk = VALUE[kind] if kind != "C" and attacked(after, to, kind, 1 - me, takes) else 0.0
    score = gain - risk + 0.1 * gain
    if kind == "C" and takes:
        soldier = "s" if me == 0 else "S"
        near = sum(after[n2] == soldier for n in STEPS[to] for n2 in STEPS[n] if n2 != to)
        score -= 0.5 * near
    elif kind != "C" and takes:
        # a piece that stood between the Commander and a Soldier should stay
        mine = commander_at(after, me)
        if mine >= 0 and start in STEPS[mine]:
            soldier = "s" if me == 0 else "S"
            score -= 0.3 * any(after[n] == soldier for n in STEPS[start])
    return score


AI = Parts()
