"""The table: what is played off the board, the same for every game, as one pure
decide/evolve pair used alike by the write path, the projector and the audit.

Seats joined, a seat handed to the computer and taken back, the stand-in after a timeout,
clocks and vacations, draw offers, a game decided off the board, the seed revealed: the
service's own events (``events.schemas.SYSTEM_FIELDS``). ``evolve`` folds one of them
into a ``Table`` (typed, never a loose dict); the ``decide`` functions (``join``,
``hand_to_ai``, ``take_back``, ``vacation``, ``draw``, ``expire``) give the events an
action writes, or refuse it with a sentence (``Refused``). Nothing here reads a clock:
the time an action happens at is passed in, and the audit passes the time the stream
recorded, so it re-runs the very rules the write path ran.

Who may act for a seat (``refusal``): a seat is played by its player, or by the computer:
from the start (an ``ai:<level>`` seat), after its player handed it over until they take
it back (``seat_taken_back``: an explicit, recorded action), or for the one decision it
owed when its time ran out with an AI action (the stand-in). While the computer plays a
seat its player gives no command and answers no draw; the computer acts only for a seat
it plays. Every ``command_given`` says who gave it (``by``: ``player`` or
``ai:<level>``); games recorded before that rule say nothing and are not checked for it.

Clocks: a decision may take ``per_move`` ms; time beyond that is drawn from the bank,
which never refills; time on vacation does not count. A seat's turn starts with the
append after which it owes a decision (``end_of_append``). When the move's time and the
bank are both spent the seat has run out of time (``Table.expired``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from events.clocks import DAY_MS, FORFEIT, TimeControl, control_of, counted, deadline, iso, ms
from games.i18n import said

PLAYER = "player"
AI_PREFIX = "ai:"
SYSTEM = "system"

# The system events that begin an append (the others end one: the seed, a decided end).
APPEND_STARTS = frozenset({"game_created", "seat_joined", "command_given", "seat_handed_to_ai",
                           "seat_taken_back", "vacation_taken", "clock_expired",
                           "draw_offered", "draw_declined", "draw_accepted"})  # fmt: skip


class Refused(ValueError):
    """An action the table does not allow now; the message is for the player."""


@dataclass(frozen=True)
class SeatClock:
    bank: int  # ms left in the time bank
    vacation: int  # ms of vacation left
    away: tuple[tuple[int, int], ...] = ()  # the vacations taken: (start ms, end ms)
    timeouts: int = 0  # how many times this seat's time ran out


@dataclass(frozen=True)
class Turn:
    since: int  # the seq of the append after which the seat began to owe its decision
    at: str  # that append's time
    by: str  # who made that append: a seat, or "system"


@dataclass
class Table:
    """Everything the service's own events said of a game. ``evolve`` changes a table in
    place but replaces its mappings rather than changing them, so a ``copy`` taken before
    shares nothing that changes."""

    created: Mapping[str, Any] = field(default_factory=dict)  # game_created's payload
    created_at: str = ""
    last_at: str = ""  # the time of the last event folded
    joined: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # seat_joined's
    dealt: bool = False
    handed: Mapping[str, str] = field(default_factory=dict)  # seat -> "ai:<level>"
    standing_in: Mapping[str, str] = field(default_factory=dict)  # seat -> "ai:<level>"
    draw_offer: str | None = None  # the seat whose offer stands
    decided: Mapping[str, Any] | None = None  # an end off the board: winner, reason
    revealed: Mapping[str, Any] | None = None  # the seed and nonces, at the end
    clocks: Mapping[str, SeatClock] = field(default_factory=dict)  # when it has a control
    turns: Mapping[str, Turn] = field(default_factory=dict)  # seats that owe a decision
    acted: Mapping[str, int] = field(default_factory=dict)  # seat -> its last command's seq

    def copy(self) -> Table:
        return dataclasses.replace(self)

    # -- what it says -------------------------------------------------------------------
    @property
    def control(self) -> TimeControl | None:
        return control_of(self.created)

    @property
    def created_seats(self) -> dict[str, str]:
        """Seat -> kind as the game was created (whose game it is, whoever plays it now)."""
        return dict(self.created.get("seats", {}))

    @property
    def seats(self) -> dict[str, str]:
        """Seat -> "human" or "ai:<level>": as created, or the AI a player handed it to, or
        the AI standing in for one decision of a seat whose time ran out."""
        return {**self.created.get("seats", {}), **self.handed, **self.standing_in}

    @property
    def rated(self) -> bool:
        return bool(self.created.get("rated", False))

    @property
    def open_seats(self) -> list[str]:
        return [s for s in self.seats if s not in self.joined]

    @property
    def off_the_clock(self) -> set[str]:
        """The seats an AI plays now: their time never runs out (a late AI is the
        service's fault, not a player's)."""
        return {seat for seat, kind in self.seats.items() if kind.startswith(AI_PREFIX)}

    def deadline_ms(self, seat: str) -> int | None:
        """When ``seat`` runs out of time on the decision it owes (None: no clock running)."""
        control, turn, own = self.control, self.turns.get(seat), self.clocks.get(seat)
        if control is None or turn is None or own is None:
            return None
        return deadline(ms(turn.at), control.per_move_ms + own.bank, list(own.away))

    def expired(self, now_ms: int) -> list[str]:
        """The seats whose time has run out by ``now_ms`` (the computer's excepted)."""
        exempt = self.off_the_clock
        out = []
        for seat in self.turns:
            due = None if seat in exempt else self.deadline_ms(seat)
            if due is not None and due <= now_ms:
                out.append(seat)
        return out

    def next_deadline(self) -> int | None:
        """The earliest deadline of the seats that owe a decision (the sweep's index)."""
        exempt = self.off_the_clock
        found = [self.deadline_ms(s) for s in self.turns if s not in exempt]
        found = [d for d in found if d is not None]
        return min(found) if found else None

    def first_out(self, late: Collection[str]) -> list[str]:
        """Of the seats whose time has run out, those whose time ran out first (several
        when their deadlines are the same moment: seats that began to owe together with
        the same time left). On a forfeit these lose: one alone to the other, together a
        draw."""
        due = {seat: self.deadline_ms(seat) or 0 for seat in late}
        first = min(due.values())
        return sorted(seat for seat, at in due.items() if at == first)

    def seat_clock(self, seat: str) -> dict[str, Any]:
        """What a seat's clock shows (no ``now``: a page counts down to ``deadline``)."""
        own, turn = self.clocks[seat], self.turns.get(seat)
        shown: dict[str, Any] = {
            "bank_ms": own.bank,
            "vacation_days_left": own.vacation // DAY_MS,
            "vacation_ms_left": own.vacation,
            "timeouts": own.timeouts,
            "running": turn is not None,
            "deadline": None,
            "away_until": iso(own.away[-1][1]) if own.away else None,
            "standing_in": self.standing_in.get(seat),
        }
        if turn is not None:
            shown["turn_started"] = turn.at
            shown["deadline"] = iso(self.deadline_ms(seat) or 0)
        return shown

    # -- snapshots ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["clocks"] = {s: dataclasses.asdict(c) for s, c in self.clocks.items()}
        data["turns"] = {s: dataclasses.asdict(t) for s, t in self.turns.items()}
        return data

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Table:
        fields = {f.name for f in dataclasses.fields(Table)}
        table = Table(**{k: v for k, v in data.items() if k in fields})
        table.clocks = {s: SeatClock(c["bank"], c["vacation"],
                                     tuple(tuple(a) for a in c["away"]), c["timeouts"])
                        for s, c in table.clocks.items()}  # fmt: skip
        table.turns = {s: Turn(**t) for s, t in table.turns.items()}
        return table


# -- evolve: one system event -----------------------------------------------------------------
def evolve(table: Table, kind: str, payload: Mapping[str, Any], seq: int, at: str) -> None:
    """Fold one of the service's own events into ``table`` (in place: see ``Table``)."""
    fold = _FOLDS.get(kind)
    if fold is not None:
        fold(table, payload, seq, at)
    table.last_at = at


def _created(table: Table, payload: Mapping[str, Any], seq: int, at: str) -> None:
    table.created, table.created_at = dict(payload), at
    control = control_of(payload)
    if control is not None:  # every seat's bank and vacation allowance full
        table.clocks = {seat: SeatClock(control.bank_ms, control.vacation_days * DAY_MS)
                        for seat in payload.get("seats", {})}  # fmt: skip


def _joined(table: Table, payload: Mapping[str, Any], seq: int, at: str) -> None:
    table.joined = {**table.joined, payload["seat"]: dict(payload)}


def _command(table: Table, payload: Mapping[str, Any], seq: int, at: str) -> None:
    """``seat`` decided at ``at``: its clock stops; time past the move's allowance leaves
    its bank (never below zero: a stand-in may move after the bank ran out); a stand-in's
    one decision is made; an offer of a draw lapses as the game moves on."""
    seat = payload["seat"]
    table.acted = {**table.acted, seat: seq}
    turn, own, control = table.turns.get(seat), table.clocks.get(seat), table.control
    if turn is not None and own is not None and control is not None:
        spent = counted(ms(turn.at), ms(at), list(own.away))
        bank = max(0, own.bank - max(0, spent - control.per_move_ms))
        table.clocks = {**table.clocks, seat: dataclasses.replace(own, bank=bank)}
    if seat in table.standing_in:
        table.standing_in = {s: k for s, k in table.standing_in.items() if s != seat}
    table.draw_offer = None


def _handed(table: Table, payload: Mapping[str, Any], seq: int, at: str) -> None:
    table.handed = {**table.handed, payload["seat"]: AI_PREFIX + payload["level"]}


def _taken_back(table: Table, payload: Mapping[str, Any], seq: int, at: str) -> None:
    """Its player plays it again, on the clock anew (its turn starts with this append)."""
    seat = payload["seat"]
    table.handed = {s: k for s, k in table.handed.items() if s != seat}
    table.turns = {s: t for s, t in table.turns.items() if s != seat}


def _dealt(table: Table, payload: Mapping[str, Any], seq: int, at: str) -> None:
    table.dealt = True


def _revealed(table: Table, payload: Mapping[str, Any], seq: int, at: str) -> None:
    table.revealed = dict(payload)


def _vacation(table: Table, payload: Mapping[str, Any], seq: int, at: str) -> None:
    """``days`` of vacation from ``at`` (or from the end of the one under way)."""
    seat, own = payload["seat"], table.clocks.get(payload["seat"])
    if own is None:
        return
    begin = ms(at)
    if own.away and own.away[-1][1] > begin:
        begin = own.away[-1][1]
    length = min(payload["days"] * DAY_MS, own.vacation)
    own = dataclasses.replace(own, away=(*own.away, (begin, begin + length)),
                              vacation=own.vacation - length)  # fmt: skip
    table.clocks = {**table.clocks, seat: own}


def _expired(table: Table, payload: Mapping[str, Any], seq: int, at: str) -> None:
    seat, own = payload["seat"], table.clocks.get(payload["seat"])
    if own is not None:
        table.clocks = {**table.clocks, seat: dataclasses.replace(own, timeouts=own.timeouts + 1)}
    if payload["action"].startswith(AI_PREFIX):
        table.standing_in = {**table.standing_in, seat: payload["action"]}


def _offered(table: Table, payload: Mapping[str, Any], seq: int, at: str) -> None:
    table.draw_offer = payload["seat"]


def _answered(table: Table, payload: Mapping[str, Any], seq: int, at: str) -> None:
    table.draw_offer = None


def _decided(table: Table, payload: Mapping[str, Any], seq: int, at: str) -> None:
    table.decided = {"winner": payload["winner"], "reason": payload["reason"]}


_FOLDS = {
    "game_created": _created,
    "seat_joined": _joined,
    "command_given": _command,
    "seat_handed_to_ai": _handed,
    "seat_taken_back": _taken_back,
    "position_set": _dealt,
    "seed_revealed": _revealed,
    "vacation_taken": _vacation,
    "clock_expired": _expired,
    "draw_offered": _offered,
    "draw_declined": _answered,
    "draw_accepted": _answered,
    "game_decided": _decided,
}


def end_of_append(table: Table, pending: Collection[str], seq: int, at: str, by: str) -> None:
    """The append that ended at ``seq`` left ``pending`` owing: a seat that began to owe
    now starts its turn; one that still owes keeps its start; one that decided since its
    turn began starts again. ``by``: who made the append (a seat, or "system")."""
    turns, acted = table.turns, table.acted
    now = {}
    for seat in pending:
        turn = turns.get(seat)
        if turn is None or acted.get(seat, 0) > turn.since:
            turn = Turn(seq, at, by)
        now[seat] = turn
    table.turns = now


# -- decide: the actions off the board --------------------------------------------------------
def event(type_: str, **payload: Any) -> dict[str, Any]:
    return {"type": type_, "visible_to": "all", **payload}


def played_by(table: Table, seat: str) -> str:
    """Who plays ``seat`` now: ``player`` or ``ai:<level>``."""
    kind = table.seats.get(seat, "human")
    return kind if kind.startswith(AI_PREFIX) else PLAYER


def refusal(table: Table, seat: str, by: str) -> str | None:
    """Why ``by`` (``player``, or ``ai:<level>``) may not act for ``seat`` now, or None."""
    kind = table.seats.get(seat, "human")
    if by == PLAYER:
        if not kind.startswith(AI_PREFIX):
            return None
        if seat in table.standing_in:
            return said("your time ran out on this decision, so the computer is making it "
                        "for the {seat} seat; you play again from the next one",
                        seat=seat)  # fmt: skip
        if table.created_seats.get(seat, "human") == "human":
            return said("you handed the {seat} seat to the computer: take it back first to "
                        "play it yourself", seat=seat)  # fmt: skip
        return said("the {seat} seat is the computer's ({kind}) in this game", seat=seat, kind=kind)
    if not by.startswith(AI_PREFIX) or not kind.startswith(AI_PREFIX):
        return said("the computer does not play the {seat} seat now: its player does", seat=seat)
    return None


def join(table: Table, seat: str, player: str | None, nonce_sha256: str | None) -> list[dict]:
    if seat not in table.seats:
        raise Refused(
            said(
                "there is no seat {seat!r}; the seats are {seats}",
                seat=seat,
                seats=", ".join(table.seats),
            )
        )
    if seat in table.joined:
        raise Refused(said("the {seat} seat is already taken", seat=seat))
    return [event("seat_joined", seat=seat, player=player, nonce_sha256=nonce_sha256)]


def _players_own(table: Table, seat: str, over: bool) -> None:
    """Refuse an action only a seat's player takes: a running game, a seat its player
    plays now (``refusal``)."""
    if seat not in table.seats:
        raise Refused(
            said(
                "there is no seat {seat!r}; the seats are {seats}",
                seat=seat,
                seats=", ".join(table.seats),
            )
        )
    if over:
        raise Refused(said("the game is over"))
    if not table.dealt:
        raise Refused(said("the game has not started yet"))
    refused = refusal(table, seat, PLAYER)
    if refused:
        raise Refused(refused)


def hand_to_ai(table: Table, seat: str, level: str, over: bool) -> list[dict]:
    """The seat's player leaves it to the computer at ``level`` until they take it back."""
    if seat not in table.joined:
        raise Refused(said("the {seat} seat has not been taken yet", seat=seat))
    if over:
        raise Refused(said("the game is over"))
    if table.seats.get(seat) != "human":
        raise Refused(said("the {seat} seat is already played by the computer", seat=seat))
    if table.rated:  # the AI would play a rated game for its player: resign instead
        raise Refused(said("a rated game cannot be handed to the computer; you can resign"))
    return [event("seat_handed_to_ai", seat=seat, level=level)]


def take_back(table: Table, seat: str, over: bool) -> list[dict]:
    """The player takes back the seat they handed to the computer."""
    if over:
        raise Refused(said("the game is over"))
    if seat in table.standing_in:
        raise Refused(refusal(table, seat, PLAYER) or said("not now"))
    if seat not in table.handed:
        raise Refused(
            said(
                "the {seat} seat is not the computer's to give back: you play it already", seat=seat
            )
        )
    return [event("seat_taken_back", seat=seat)]


def vacation(table: Table, seat: str, days: Any, over: bool) -> list[dict]:
    """``days`` of the seat's vacation allowance: its clock stops for that long."""
    _players_own(table, seat, over)
    if table.control is None:
        raise Refused(said("this game has no clock, so there is no time to stop"))
    if isinstance(days, bool) or not isinstance(days, int) or days < 1:
        raise Refused(said("vacation is taken in whole days, at least one"))
    left = table.clocks[seat].vacation // DAY_MS
    if days > left:
        if left == 1:  # one sentence per number form: no English plural built in place
            raise Refused(said("you have 1 vacation day left in this game"))
        raise Refused(said("you have {left} vacation days left in this game", left=left))
    return [event("vacation_taken", seat=seat, days=days)]


def draw(table: Table, seat: str, action: str, over: bool) -> list[dict]:
    """Offer a draw, accept the one offered to you, or decline it. Offering when the other
    seat has offered accepts it. An accepted draw ends the game (``game_decided``)."""
    _players_own(table, seat, over)
    offer = table.draw_offer
    if action == "offer" and offer == seat:
        raise Refused(
            said(
                "you have already offered a draw; it stands until it is answered "
                "or the game moves on"
            )
        )
    if action == "offer" and offer is None:
        return [event("draw_offered", seat=seat)]
    if action in ("accept", "decline") and offer in (None, seat):
        if action == "accept":  # a whole sentence each: never a verb glued on
            raise Refused(said("there is no draw offered to you to accept"))
        raise Refused(said("there is no draw offered to you to decline"))
    if action == "decline":
        return [event("draw_declined", seat=seat)]
    if action not in ("offer", "accept"):
        raise Refused(
            said("a draw can be offered, accepted or declined, not {action!r}", action=action)
        )
    return [event("draw_accepted", seat=seat),
            event("game_decided", winner=None, reason="agreement")]  # fmt: skip


def expire(table: Table, now_ms: int, over: bool) -> list[dict]:
    """The deadlines that have passed by ``now_ms``: each seat whose time ran out forfeits
    (the seats out first lose; out together, they draw), or has the computer play that one
    decision for it, as the game was created. Nothing when nobody's time is up."""
    control = table.control
    if control is None or over:
        return []
    late = table.expired(now_ms)
    if not late:
        return []
    if control.on_timeout == FORFEIT:
        late = table.first_out(late)  # the game ends there
    events = [event("clock_expired", seat=seat, action=control.on_timeout) for seat in late]
    if control.on_timeout == FORFEIT:
        others = [s for s in table.seats if s not in late]
        events.append(event("game_decided", winner=others[0] if len(others) == 1 else None,
                            reason="time"))  # fmt: skip
    return events


def ends(events: list[dict]) -> bool:
    """Whether these events end the game off the board (the seed is revealed after them)."""
    return bool(events) and events[-1]["type"] == "game_decided"


def over_text(table: Table, seats: Collection[str]) -> str:
    """Why a game that ended off the board takes no more, in a sentence."""
    decided = table.decided or {}
    if decided.get("reason") == "time":
        if decided.get("winner") is None:
            return said("the game is over: both players ran out of time at once, a draw")
        out = [s for s in seats if s != decided.get("winner")]
        return said("the game is over: {seats} ran out of time, {winner} wins",
                    seats=" and ".join(out), winner=decided["winner"])  # fmt: skip
    if decided.get("reason") == "agreement":
        return said("the game is over: it was agreed a draw")
    return said("the game is over")
