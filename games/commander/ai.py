"""What the generic search needs of Commander, and its rule of thumb (the easy level)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from games.commander import rules
from games.commander.board import BACK_RANK, ENEMY_SIDE, NAMES, SEATS, SQUARE, STANDARD
from games.commander.knowledge import KNOWLEDGE
from games.commander.rules import OWN, State, all_moves

VALUE = {"C": 0.0, "O": 3.0, "S": 1.0}  # material; the Commander is the game itself
DEPTH = 8  # a playout looks this many moves ahead, then the position is judged


def _winning(state: State, seat: int, moves: list[tuple[int, int]]) -> tuple[int, int] | None:
    goal = (BACK_RANK if state.goal == "back_rank" else ENEMY_SIDE)[seat]
    board = state.board
    for start, to in moves:
        if board[to] in "Cc" or (board[start] in "Cc" and to in goal):
            return start, to
    return None


def _best_capture(state: State, moves: list[tuple[int, int]]) -> tuple[int, int] | None:
    board, best, value = state.board, None, 0.0
    for start, to in moves:
        there = board[to]
        if there != ".":
            gain = VALUE[there.upper()] - 0.1 * VALUE[board[start].upper()]
            if gain > value:
                best, value = (start, to), gain
    return best


def _command(move: tuple[int, int]) -> dict[str, Any]:
    return {"type": "move", "from": NAMES[move[0]], "to": NAMES[move[1]]}


class Parts:
    determinize = staticmethod(KNOWLEDGE.determinize)

    @staticmethod
    def searchable(view: dict[str, Any], seat: str) -> bool:
        decision = view.get("decision")
        return decision is not None and decision["kind"] == "move"

    @staticmethod
    def candidates(state: State, seat: str, rng: Any, root: bool) -> list[dict]:
        return rules.legal(state, seat)

    @staticmethod
    def rollout(state: State, seat: str, rng: Any) -> dict | None:
        """A quick, likely move: a win when there is one, often a capture, else random."""
        if state.phase != "play":
            return rules.random_command(state, seat, rng)
        moves = all_moves(state.board, state.turn, state.takes)
        if not moves:
            return None
        move = _winning(state, state.turn, moves)
        if move is None and rng.random() < 0.5:
            move = _best_capture(state, moves)
        if move is None:
            move = moves[int(rng.random() * len(moves))]
        return _command(move)

    @staticmethod
    def evaluate(state: State, seat: str) -> float:
        if state.result is not None:
            winner = state.result["winner"]
            return 0.5 if winner is None else float(winner == seat)
        me = SEATS.index(seat)
        score = 0.0
        for sq, ch in enumerate(state.board):
            if ch != ".":
                value = VALUE[ch.upper()]
                if ch in "Cc":  # a Commander nearer the far side is worth more
                    value = 0.15 * (sq // 4 if ch == "C" else 7 - sq // 4)
                score += value if (ch in OWN[me]) else -value
        return min(0.95, max(0.05, 0.5 + score / 40))

    @staticmethod
    def horizon(root: State, state: State) -> bool:
        return state.result is not None or state.plies - root.plies >= DEPTH

    @staticmethod
    def key(command: dict[str, Any]) -> Hashable:
        return (command.get("type"), command.get("from"), command.get("to"),
                command.get("pieces"))  # fmt: skip

    @staticmethod
    def fallback(state: State, seat: str, rng: Any) -> dict | None:
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
        """Win at once when it can, else take the most valuable piece it can, else any
        move; the standard arrangement."""
        decision = view.get("decision")
        if not decision:
            return None
        if decision["kind"] == "arrange":
            return {"type": "arrange", "pieces": STANDARD}
        state = KNOWLEDGE.determinize(view, seat, rng)
        moves = [(SQUARE[a], SQUARE[b]) for a, b in decision["moves"]]
        move = _winning(state, state.turn, moves) or _best_capture(state, moves)
        if move is None:
            move = moves[int(rng.random() * len(moves))]
        return _command(move)


AI = Parts()
