"""Commander's rules as a Decider (``shared/rules/commander.md``): state, setup, decide,
evolve, pending, legal, outcome. Every (R) choice of the rules that has an alternative is
an option of the game (``OPTIONS``), read here and nowhere else.

Events: ``game_set`` (the options, and the board when the arrangement is standard),
``arranged`` (one seat's secret arrangement, seen by that seat only), ``revealed`` (both
arrangements, once both are made), ``moved``, ``game_ended``.
"""

from __future__ import annotations

import json
from bisect import insort
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from games.base import RulesError
from games.commander.board import (
    COUNTS,
    EMPTY,
    GOALS,
    KING_STEPS,
    LINES,
    NAMES,
    RANK_OF,
    SEATS,
    SQUARE,
    STANDARD,
    STEPS,
    arrange,
    played,
)
from games.i18n import said
from games.remembered import SETUP, Remembered

# name -> (choices, default); the first choice is the rules' own (R) choice
OPTIONS: dict[str, tuple[tuple[Any, ...], Any]] = {
    "setup": (("secret", "standard"), "secret"),
    "soldier_takes_commander": ((True, False), True),
    "commander_goal": (("back_rank", "enemy_side"), "back_rank"),
}
QUIET_LIMIT = 80  # 40 moves by each player without a capture: a draw
REPEATS = 3  # the same position, the same player to move, for the third time: a draw

EVENT_FIELDS: dict[str, dict[str, str]] = {
    "game_set": {
        "setup": "str",
        "soldier_takes_commander": "bool",
        "commander_goal": "str",
        "board": "str?",
    },
    "arranged": {"seat": "str", "pieces": "str"},  # the seat only, until revealed
    "revealed": {"pieces": "dict"},  # seat -> arrangement
    "moved": {"seat": "str", "piece": "str", "from": "str", "to": "str", "captured": "str?"},
    "game_ended": {"winner": "str?", "reason": "str"},
}
EVENT_VERSIONS: dict[str, int] = {}
UPCASTERS: dict[tuple[str, int], Any] = {}
COMMAND_FIELDS: dict[str, dict[str, Any]] = {
    "arrange": {"pieces": "str"},  # 16 letters, back rank first, files a to d
    "move": {"from": "str", "to": "str"},
    "resign": {},  # at any time before the end (the page's "Resign this game")
}


class State(NamedTuple):
    """A position and how it came about. ``board``: 32 characters (``board.py``);
    ``seen``: every position (player to move and board) since the last capture, the
    current one last, for the repetition and no-capture draws; ``arranged``: each seat's
    arrangement while they are secret; ``last``: the last move (seat, piece, from, to,
    piece captured or None)."""

    phase: str = "new"  # new, arrange, play, over
    setup: str = "secret"
    takes: bool = True  # a Soldier takes the Commander, the Commander not a Soldier
    goal: str = "back_rank"
    board: str = EMPTY * 32
    turn: int = 0  # 0 Blue, 1 Red: to move
    plies: int = 0  # moves made
    seen: tuple[str, ...] = ()
    arranged: tuple[str | None, str | None] = (None, None)
    last: tuple[int, str, int, int, str | None] | None = None
    result: dict[str, Any] | None = None

    @property
    def quiet(self) -> int:
        """Moves made since the last capture (or the start)."""
        return len(self.seen) - 1 if self.seen else 0


OWN = (frozenset("COS"), frozenset("cos"))
# may_take[takes][attacker][defender], both upper case
_TAKES = {
    takes: {
        a: {d: (a == "S" and d == "C") if takes and {a, d} == {"S", "C"}
            else RANK_OF[a] >= RANK_OF[d] for d in "COS"}
        for a in "COS"
    }
    for takes in (True, False)
}  # fmt: skip


def may_take(takes: bool, attacker: str, defender: str) -> bool:
    """Whether a piece captures another (the rules' "Who captures whom"; upper case)."""
    return _TAKES[takes][attacker.upper()][defender.upper()]


# -- moves ------------------------------------------------------------------------------
# A move is (from, to), squares as numbers (board.py). Finding them is the game's inner
# loop: every position's moves are asked for, to choose one and to know whether the player
# to move has any (or lost). So each target comes with its move made once (no tuple is
# built while searching), each position's moves are remembered for the positions met last
# (``_legal_moves``: decide finds the next player's moves, and the choice, the check and
# the view that follow read them), and each side's squares go from one position to the
# next without a look at the whole board (``_squares``). Measured and slower (2026-12-02,
# instructions a call on 5,541 positions of random games): each piece's moves looked up by
# bit masks of its reach (``int(board.translate(...), 2)``; 35 K against 29 K), or by the
# classes of its reach squares (``operator.itemgetter``), or filtered by
# ``itertools.compress``; the loop below is about 200 ns a piece.

# What each piece may move onto, by setting of the soldier's dagger: an empty space, or an
# enemy it may capture.
_ENTERS = {
    takes: {piece: frozenset(EMPTY + "".join(
                enemy for enemy in OWN[piece in OWN[0]] if may_take(takes, piece, enemy)))
            for piece in "COScos"}
    for takes in (True, False)
}  # fmt: skip
_STEP_MOVES = tuple(tuple((to, (sq, to)) for to in STEPS[sq]) for sq in range(32))
_KING_MOVES = tuple(tuple((to, (sq, to)) for to in KING_STEPS[sq]) for sq in range(32))
_LINE_MOVES = tuple(tuple(tuple((to, (sq, to)) for to in line) for line in LINES[sq])
                    for sq in range(32))  # fmt: skip
# The search reads a board as a list of small numbers, the cheapest thing to index: 0 an
# empty space, then the pieces in the order of _CODES.
_CODES = EMPTY + "COScos"
_TO_CODES = bytes.maketrans(_CODES.encode(), bytes(range(len(_CODES))))


def _plan(enters: dict[str, frozenset[str]], piece: str) -> tuple[tuple[bool, ...], tuple, bool]:
    """How ``piece`` moves: whether it may move onto each number of ``_CODES``, its moves by
    square, and whether they are lines (an Officer's) or steps."""
    onto = tuple(there in enters[piece] for there in _CODES)
    if piece in "Oo":
        return onto, _LINE_MOVES, True
    return onto, _STEP_MOVES if piece in "Ss" else _KING_MOVES, False


# by setting, for each piece's number (none for an empty space): how it moves
_PLAN = {takes: (None, *(_plan(enters, piece) for piece in _CODES[1:]))
         for takes, enters in _ENTERS.items()}  # fmt: skip


def _moves_of(board: str, squares: Iterable[int], takes: bool) -> list[tuple[int, int]]:
    """The moves of the pieces on ``squares``, in that order: a Soldier's and a
    Commander's steps in the order of their tables, an Officer's lines each up to the
    first piece, taken when it may."""
    plan = _PLAN[takes]
    cells = list(board.encode().translate(_TO_CODES))
    out: list[tuple[int, int]] = []
    for sq in squares:
        ok, reach, lines = plan[cells[sq]]
        if lines:
            for line in reach[sq]:
                for to, move in line:
                    there = cells[to]
                    if not there:  # empty: on along the line
                        out.append(move)
                        continue
                    if ok[there]:
                        out.append(move)
                    break
        else:
            for to, move in reach[sq]:
                if ok[cells[to]]:
                    out.append(move)
    return out


# What is remembered is worked out from the board alone, so it is right for any state and
# any thread that meets the board again; a table that is full is emptied (a race between
# threads at worst works something out twice).
_KEPT = 128  # positions remembered (each table), then all forgotten at once: a game and a
# search ask again mostly for the positions just met, and small tables stay in the caches
_SQUARES: dict[str, tuple[list[int], list[int]]] = {}  # board -> each seat's squares, in order
# soldier_takes_commander -> seat -> board -> its moves
_MOVES: dict[bool, tuple[dict[str, list[tuple[int, int]]], ...]] = {True: ({}, {}), False: ({}, {})}


def _remember(table: dict, key: Any, value: Any) -> None:
    if len(table) >= _KEPT:
        table.clear()
    table[key] = value


def _squares(board: str) -> tuple[list[int], list[int]]:
    """Each seat's squares, in order (nobody changes the lists)."""
    known = _SQUARES.get(board)
    if known is None:
        known = ([sq for sq in range(32) if board[sq] in OWN[0]],
                 [sq for sq in range(32) if board[sq] in OWN[1]])  # fmt: skip
        _remember(_SQUARES, board, known)
    return known


def _legal_moves(board: str, seat: int, takes: bool) -> list[tuple[int, int]]:
    """Every move of ``seat`` (nobody changes the list)."""
    known = _MOVES[takes][seat]
    moves = known.get(board)
    if moves is None:  # (the calls of _squares and _remember written out: the inner loop)
        squares = _SQUARES.get(board) or _squares(board)
        moves = _moves_of(board, squares[seat], takes)
        if len(known) >= _KEPT:
            known.clear()
        known[board] = moves
    return moves


def piece_moves(board: str, sq: int, takes: bool) -> list[int]:
    """The squares the piece on ``sq`` may move to (captures included)."""
    if board[sq] == EMPTY:
        return []
    return [to for _, to in _moves_of(board, (sq,), takes)]


def all_moves(board: str, seat: int, takes: bool) -> list[tuple[int, int]]:
    """Every move of ``seat``: its pieces from a1 to d8, each piece's as ``piece_moves``."""
    return list(_legal_moves(board, seat, takes))


def can_move(board: str, seat: int, takes: bool) -> bool:
    return bool(_legal_moves(board, seat, takes))


# -- setup ------------------------------------------------------------------------------
def options_of(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game's options, defaults filled in; anything else is refused in words."""
    options = options if type(options) is dict else dict(options or {})
    for name in options:
        if name not in OPTIONS:
            unknown = sorted(name for name in options if name not in OPTIONS)
            raise RulesError(said("Commander has no option {name!r}", name=unknown[0]))
    out = {}
    for name, (choices, default) in OPTIONS.items():
        value = options.get(name, default)
        for choice in choices:  # (a loop, not any(...): every random game starts here)
            if value == choice and type(value) is type(choice):
                break
        else:
            raise RulesError(said("{name} is one of {choices}", name=name,
                                  choices=", ".join(json.dumps(c) for c in choices)))  # fmt: skip
        out[name] = value
    return out


def setup(options: Mapping[str, Any] | None, rng: Any) -> list[dict[str, Any]]:
    """The opening event: the options, and the board at once with the standard arrangement
    (no chance: the secret arrangement is the players')."""
    chosen = options_of(options)
    board = arrange((STANDARD, STANDARD)) if chosen["setup"] == "standard" else None
    event = {"type": "game_set", "visible_to": "all", **chosen, "board": board}
    events = [event]
    _memory.keep(SETUP, events, evolve(State(), event))
    return events


# -- deciding ---------------------------------------------------------------------------
_memory = Remembered()


def check_arrangement(pieces: Any) -> str:
    """An arrangement as written (16 letters C, O, S: back rank first, files a to d), or a
    refusal that says what is wrong."""
    if not isinstance(pieces, str) or len(pieces) != 16 or set(pieces) - set("COS"):
        raise RulesError(
            said("An arrangement is 16 letters, C, O or S, one for each space of your side "
                 "from your back rank forward, files a to d.")
        )  # fmt: skip
    for piece, count in COUNTS.items():
        if pieces.count(piece) != count:
            raise RulesError(said("An arrangement has 1 Commander (C), 5 Officers (O) and "
                                  "10 Soldiers (S)."))  # fmt: skip
    return pieces


def decide(state: State, seat: str, command: Mapping[str, Any], rng: Any) -> list[dict]:
    if state.phase == "over":
        raise RulesError(said("The game is over."))
    me = _SEAT_INDEX.get(seat) if type(seat) is str else None
    if me is None:
        raise RulesError(said("There is no seat {seat!r} in Commander.", seat=seat))
    kind = command.get("type")
    if kind == "move":
        return _move(state, me, command)
    if kind == "arrange":
        return _arrange(state, me, command)
    if kind == "resign":
        return [{"type": "game_ended", "visible_to": "all", "winner": SEATS[1 - me],
                 "reason": "resignation"}]  # fmt: skip
    raise RulesError(said("Commander has no command {kind!r}: arrange, move or resign.",
                          kind=kind))  # fmt: skip


_SEAT_INDEX = {seat: i for i, seat in enumerate(SEATS)}
_KIND = {ch: ch.upper() for ch in "COScos"} | {EMPTY: None}  # a piece's letter, upper case


def _arrange(state: State, me: int, command: Mapping[str, Any]) -> list[dict]:
    if state.phase != "arrange":
        raise RulesError(said("The pieces are already on the board."))
    if state.arranged[me] is not None:
        raise RulesError(said("You have arranged your pieces already."))
    pieces = check_arrangement(command.get("pieces"))
    seat = SEATS[me]
    events = [{"type": "arranged", "visible_to": seat, "seat": seat, "pieces": pieces}]
    other = state.arranged[1 - me]
    if other is not None:
        both = {seat: pieces, SEATS[1 - me]: other}
        events.append({"type": "revealed", "visible_to": "all", "pieces": both})
        board = arrange((both[SEATS[0]], both[SEATS[1]]))
        if not can_move(board, 0, state.takes):  # Blue, to move first, cannot: Red wins
            events.append({"type": "game_ended", "visible_to": "all", "winner": SEATS[1],
                           "reason": "no_moves"})  # fmt: skip
    return events


def _square(name: Any) -> int:
    sq = SQUARE.get(name) if type(name) is str else None
    if sq is None:
        raise RulesError(said("{name} is not a space of the board (a1 to d8).", name=_quoted(name)))
    return sq


_SHOWN = 8  # characters of what was sent that a refusal repeats


def _quoted(name: Any) -> str:
    """What was sent for a space, as a refusal repeats it: a plain word as it is, anything
    else (nothing, spaces, a control character, a letter of another alphabet that looks
    like a1's) in quotes with its codes, so the sentence shows what is wrong; cut short,
    with an ellipsis."""
    text = str(name)
    shown = text[:_SHOWN]
    if not (shown.isascii() and shown.isprintable() and shown.strip() == shown and shown):
        shown = json.dumps(shown)  # "", "a5 ", "a4\u0000", "\u04304" (a Cyrillic а)
    return shown + "…" if len(text) > _SHOWN else shown


def _move(state: State, me: int, command: Mapping[str, Any]) -> list[dict]:
    if state.phase != "play":
        if state.phase == "arrange" and state.arranged[me] is not None:
            raise RulesError(said("The other player is still arranging their pieces: the "
                                  "first move comes when both are revealed."))  # fmt: skip
        raise RulesError(said("Arrange your pieces first."))
    if state.turn != me:
        raise RulesError(said("It is not your turn."))
    try:
        start, to = SQUARE[command["from"]], SQUARE[command["to"]]
    except (KeyError, TypeError):  # (a call less for every good move)
        start, to = _square(command.get("from")), _square(command.get("to"))
    board, takes = state.board, state.takes
    piece = board[start]
    if piece not in OWN[me]:
        raise RulesError(said("You have no piece on {square}.", square=NAMES[start]))
    if (start, to) not in _legal_moves(board, me, takes):
        raise RulesError(said("That piece cannot move from {start} to {to}.",
                              start=NAMES[start], to=NAMES[to]))  # fmt: skip
    captured = board[to]
    after = _after_move(state, me, start, to, piece, captured)
    events = [{"type": "moved", "visible_to": "all", "seat": SEATS[me], "piece": _KIND[piece],
               "from": NAMES[start], "to": NAMES[to], "captured": _KIND[captured]}]  # fmt: skip
    ending = _ending(after, me, piece, to, captured)
    if ending is not None:
        winner, reason = ending
        events.append({"type": "game_ended", "visible_to": "all", "winner": winner,
                       "reason": reason})  # fmt: skip
        after = after._replace(phase="over", result={"winner": winner, "reason": reason})
    _memory.keep(state, events, after)
    return events


def _after_move(state: State, me: int, start: int, to: int, piece: str, captured: str) -> State:
    board = state.board
    after = played(board, start, to)
    known = _SQUARES.get(board)
    own = OWN[me]
    # Each side's squares, moved on (``evolve`` never fails: a move that is not a move of the
    # mover's piece, which no game stores, leaves them to be worked out from the board.)
    if known is not None and piece in own and captured not in own and after not in _SQUARES:
        mine, theirs = list(known[me]), known[1 - me]
        mine.remove(start)
        insort(mine, to)
        if captured != EMPTY:
            theirs = list(theirs)
            theirs.remove(to)
        _remember(_SQUARES, after, (mine, theirs) if me == 0 else (theirs, mine))
    turn = 1 - me
    key = _TO_MOVE[turn] + after
    seen = (key,) if captured != EMPTY else (*state.seen, key)
    last = (me, _KIND[piece], start, to, _KIND[captured])
    # State's fields in order, made as the tuple it is (without State(...)'s keywords)
    return tuple.__new__(State, ("play", state.setup, state.takes, state.goal, after, turn,
                                 state.plies + 1, seen, state.arranged, last, None))  # fmt: skip


_TO_MOVE = "br"  # the first letter of a position in ``State.seen``: who is to move


def _ending(after: State, me: int, piece: str, to: int, captured: str) -> tuple | None:
    """(winner, reason) when the move just made ends the game. A win on the board comes
    before a draw: a move that leaves the other player without a move wins even as the
    40th quiet move or the third repetition (R)."""
    if captured == "C" or captured == "c":
        return SEATS[me], "commander_captured"
    if (piece == "C" or piece == "c") and to in GOALS[after.goal][me]:
        return SEATS[me], "commander_arrived"
    if not _legal_moves(after.board, 1 - me, after.takes):
        return SEATS[me], "no_moves"
    seen = after.seen
    if len(seen) > QUIET_LIMIT:
        return None, "no_captures"
    if len(seen) >= 2 * REPEATS - 1 and seen.count(seen[-1]) >= REPEATS:
        return None, "repetition"
    return None


# -- evolving ---------------------------------------------------------------------------
def evolve(state: State, event: Mapping[str, Any]) -> State:
    kind = event["type"]
    if kind == "moved":
        start, to = SQUARE[event["from"]], SQUARE[event["to"]]
        me = SEATS.index(event["seat"])
        return _after_move(state, me, start, to, state.board[start], state.board[to])
    if kind == "game_ended":
        result = {"winner": event["winner"], "reason": event["reason"]}
        return state._replace(phase="over", result=result)
    if kind == "game_set":
        board = event["board"]
        if board is None:
            return State(phase="arrange", setup=event["setup"],
                         takes=event["soldier_takes_commander"],
                         goal=event["commander_goal"])  # fmt: skip
        return State(phase="play", setup=event["setup"], takes=event["soldier_takes_commander"],
                     goal=event["commander_goal"], board=board, seen=("b" + board,))  # fmt: skip
    if kind == "arranged":
        if "pieces" not in event:  # as another seat saw it (redacted): nothing to place
            return state
        arranged = list(state.arranged)
        arranged[SEATS.index(event["seat"])] = event["pieces"]
        return state._replace(arranged=tuple(arranged))
    if kind == "revealed":
        pieces = tuple(event["pieces"][seat] for seat in SEATS)
        board = arrange(pieces)  # type: ignore[arg-type]
        return state._replace(phase="play", board=board, seen=("b" + board,), arranged=pieces)
    return state  # an event of the table's: nothing on the board changes


def evolve_all(state: State, events: list[dict[str, Any]]) -> State:
    """The state after one decision's events: the one ``decide`` computed, when these are
    its very events, else each applied in turn."""
    known = _memory.take(state, events)
    if known is not None:
        return known
    for event in events:
        state = evolve(state, event)
    return state


def fold(events: Iterable[dict[str, Any]], state: State | None = None) -> State:
    if state is None:
        state = State()
        if type(events) is list:
            known = _memory.take(SETUP, events)
            if known is not None:
                return known
    for event in events:
        state = evolve(state, event)
    return state


# -- asking -----------------------------------------------------------------------------
def pending(state: State) -> dict[str, str]:
    if state.phase == "play":
        return {SEATS[state.turn]: "move"}
    if state.phase == "arrange":  # (written out: every random game asks it four times)
        blue, red = state.arranged
        due = {}
        if blue is None:
            due[SEATS[0]] = "arrange"
        if red is None:
            due[SEATS[1]] = "arrange"
        return due
    return {}


def legal(state: State, seat: str) -> list[dict[str, Any]]:
    """Every move of the seat to move; while arranging, a few arrangements (there are
    48,048: the standard one, then each with the Commander on another back-rank space)."""
    due = pending(state).get(seat)
    if due == "move":
        return [{"type": "move", "from": NAMES[a], "to": NAMES[b]}
                for a, b in all_moves(state.board, state.turn, state.takes)]  # fmt: skip
    if due == "arrange":
        out = []
        for at in range(4):  # the Commander on each back-rank space, Officers beside
            back = ["O"] * 4
            back[at] = "C"
            out.append({"type": "arrange", "pieces": "".join(back) + STANDARD[4:]})
        return sorted(out, key=lambda c: c["pieces"] != STANDARD)
    return []


def random_command(state: State, seat: str, rng: Any) -> dict[str, Any] | None:
    if state.phase == "play" and SEATS[state.turn] == seat:  # (pending's "move", first)
        moves = _MOVES[state.takes][state.turn].get(state.board)  # (decide found them)
        if moves is None:
            moves = _legal_moves(state.board, state.turn, state.takes)
        start, to = moves[int(rng.random() * len(moves))]
        return {"type": "move", "from": NAMES[start], "to": NAMES[to]}
    if pending(state).get(seat) == "arrange":  # (who owes an arrangement: pending says)
        pieces = list(STANDARD)
        rng.shuffle(pieces)
        return {"type": "arrange", "pieces": "".join(pieces)}
    return None


def outcome(state: State) -> dict[str, Any] | None:
    return None if state.result is None else dict(state.result)
