"""Turns and clocks, folded from the stream's own times. Pure: no clock is read here, the
times come from the events' ``at`` and from the ``now`` a caller passes in.

Every game keeps, in its loaded ``meta`` (see ``events.projector.apply``):

    turns   seat -> {"since": seq, "at": iso, "by": actor} for each seat that owes a
            decision: the append after which it began to owe it (its last event's seq and
            time) and who made that append (a seat, or "system")
    acted   seat -> seq of that seat's latest ``command_given``

A game created with a time control (``game_created.clock``, see ``parse``) also keeps

    clock   seat -> {"bank": ms left in the time bank, "vacation": ms of vacation left,
                     "away": [[start_ms, end_ms], ...] the vacations taken,
                     "timeouts": how many times the seat's time ran out}

A decision may take ``per_move`` ms; time beyond that is drawn from the bank, which never
refills. The time a seat spends on vacation does not count. When the move's time and the
bank are both spent the seat has run out of time (``expired``): the write path then does
what the game was created with (``on_timeout``): the seat forfeits, or an AI plays that
one decision for it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS
MIN_PER_MOVE_S = 60  # a minute: enough to try a clock out; a correspondence game uses days
MAX_PER_MOVE_S = 30 * 24 * 3600
MAX_BANK_S = 60 * 24 * 3600
MAX_VACATION_DAYS = 60
FORFEIT = "forfeit"
AI_PREFIX = "ai:"


@dataclass(frozen=True)
class TimeControl:
    per_move_ms: int
    bank_ms: int
    vacation_days: int
    on_timeout: str  # "forfeit" or "ai:<level>"

    @property
    def ai_level(self) -> str | None:
        if self.on_timeout.startswith(AI_PREFIX):
            return self.on_timeout[len(AI_PREFIX) :]
        return None


def parse(raw: Any) -> dict[str, Any] | None:
    """A time control as given at creation, checked, in its stored form (None: no clock).

    ``{"per_move_seconds": n, "bank_seconds": n, "vacation_days": n, "on_timeout":
    "forfeit" | "ai:<level>"}``; all but ``per_move_seconds`` may be left out (no bank, no
    vacation, forfeit). Raises ValueError with a sentence for the player."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise ValueError('the clock is an object such as {"per_move_seconds": 86400}')
    known = {"per_move_seconds", "bank_seconds", "vacation_days", "on_timeout"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ValueError(f"the clock has no setting {unknown[0]!r}; it has " +
                         ", ".join(sorted(known)))  # fmt: skip
    per_move = _whole(raw.get("per_move_seconds"), "per_move_seconds")
    if per_move is None or not MIN_PER_MOVE_S <= per_move <= MAX_PER_MOVE_S:
        raise ValueError(f"per_move_seconds is the time for each decision, from "
                         f"{MIN_PER_MOVE_S} seconds to {MAX_PER_MOVE_S // 86400} days")  # fmt: skip
    bank = _whole(raw.get("bank_seconds", 0), "bank_seconds")
    if bank is None or not 0 <= bank <= MAX_BANK_S:
        raise ValueError(f"bank_seconds is a time bank of 0 to {MAX_BANK_S // 86400} days")
    vacation = _whole(raw.get("vacation_days", 0), "vacation_days")
    if vacation is None or not 0 <= vacation <= MAX_VACATION_DAYS:
        raise ValueError(f"vacation_days is a whole number of days from 0 to "
                         f"{MAX_VACATION_DAYS}")  # fmt: skip
    on_timeout = raw.get("on_timeout", FORFEIT)
    if not isinstance(on_timeout, str) or not (
        on_timeout == FORFEIT or (on_timeout.startswith(AI_PREFIX) and len(on_timeout) > 3)
    ):
        raise ValueError('on_timeout is "forfeit" or "ai:<level>" (the AI plays that decision)')
    return {"per_move_seconds": per_move, "bank_seconds": bank, "vacation_days": vacation,
            "on_timeout": on_timeout}  # fmt: skip


def _whole(value: Any, name: str) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} is a whole number")
    return value


def control_of(created: Mapping[str, Any]) -> TimeControl | None:
    """The time control a game was created with (``game_created``'s payload), or None."""
    clock = created.get("clock")
    if not clock:
        return None
    return TimeControl(
        clock["per_move_seconds"] * 1000,
        clock.get("bank_seconds", 0) * 1000,
        clock.get("vacation_days", 0),
        clock.get("on_timeout", FORFEIT),
    )


def ms(at: str) -> int:
    """An envelope's ``at`` (ISO 8601, UTC) as milliseconds since the epoch."""
    return round(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)


def iso(at_ms: int) -> str:
    from datetime import UTC

    stamp = datetime.fromtimestamp(at_ms / 1000, UTC).isoformat(timespec="milliseconds")
    return stamp.replace("+00:00", "Z")


# -- folding: called by the projector's apply ------------------------------------------
def start(meta: dict[str, Any], created: Mapping[str, Any]) -> None:
    """A new game: every seat's bank and vacation allowance full."""
    control = control_of(created)
    if control is not None:
        meta["clock"] = {
            seat: {"bank": control.bank_ms, "vacation": control.vacation_days * DAY_MS,
                   "away": [], "timeouts": 0}
            for seat in created.get("seats", {})
        }  # fmt: skip


def command_given(meta: dict[str, Any], seat: str, seq: int, at: str, per_move_ms: int) -> None:
    """``seat`` decided at ``at``: its clock stops; time past the move's allowance leaves
    its bank (never below zero: a stand-in AI may move after the bank ran out)."""
    meta["acted"] = {**meta.get("acted", {}), seat: seq}
    turn = meta.get("turns", {}).get(seat)
    clock = meta.get("clock")
    if turn is None or clock is None or seat not in clock:
        return
    own = dict(clock[seat])
    spent = counted(ms(turn["at"]), ms(at), own["away"])
    own["bank"] = max(0, own["bank"] - max(0, spent - per_move_ms))
    meta["clock"] = {**clock, seat: own}


def append_ended(meta: dict[str, Any], pending: Mapping[str, str], seq: int, at: str,
                 actor: str) -> None:  # fmt: skip
    """The append that ended at ``seq`` left ``pending`` owing: a seat that began to owe
    now starts its turn; a seat that still owes keeps its start; one that decided (a
    ``command_given`` since its turn began) starts again."""
    turns = meta.get("turns", {})
    acted = meta.get("acted", {})
    now = {}
    for seat in pending:
        turn = turns.get(seat)
        if turn is None or acted.get(seat, 0) > turn["since"]:
            turn = {"since": seq, "at": at, "by": actor}
        now[seat] = turn
    meta["turns"] = now


def take_vacation(meta: dict[str, Any], seat: str, days: int, at: str) -> None:
    """``days`` of vacation from ``at`` (or from the end of the one under way)."""
    clock = meta.get("clock")
    if clock is None or seat not in clock:
        return
    own = dict(clock[seat])
    begin = ms(at)
    if own["away"] and own["away"][-1][1] > begin:
        begin = own["away"][-1][1]
    length = min(days * DAY_MS, own["vacation"])
    own["away"] = [*own["away"], [begin, begin + length]]
    own["vacation"] -= length
    meta["clock"] = {**clock, seat: own}


def timed_out(meta: dict[str, Any], seat: str) -> None:
    clock = meta.get("clock")
    if clock is not None and seat in clock:
        meta["clock"] = {**clock, seat: {**clock[seat], "timeouts": clock[seat]["timeouts"] + 1}}


# -- reading ----------------------------------------------------------------------------
def counted(begin: int, end: int, away: list[list[int]]) -> int:
    """Milliseconds from ``begin`` to ``end`` that count: those not on vacation."""
    total = max(0, end - begin)
    for low, high in away:
        total -= max(0, min(end, high) - max(begin, low))
    return total


def deadline(turn_at_ms: int, allowed_ms: int, away: list[list[int]]) -> int:
    """The moment ``allowed_ms`` of counted time have passed since ``turn_at_ms``."""
    at, left = turn_at_ms, allowed_ms
    for low, high in sorted(away):
        if high <= at:
            continue
        if low > at:
            if at + left <= low:
                return at + left
            left -= low - at
        at = max(at, high)
    return at + left


def seat_clock(meta: Mapping[str, Any], control: TimeControl, seat: str) -> dict[str, Any]:
    """What a seat's clock shows (no ``now``: the browser counts down to ``deadline``)."""
    own = meta["clock"][seat]
    turn = meta.get("turns", {}).get(seat)
    shown: dict[str, Any] = {
        "bank_ms": own["bank"],
        "vacation_days_left": own["vacation"] // DAY_MS,
        "vacation_ms_left": own["vacation"],
        "timeouts": own["timeouts"],
        "running": turn is not None,
        "deadline": None,
        "away_until": None,
    }
    if own["away"]:
        shown["away_until"] = iso(own["away"][-1][1])
    if turn is not None:
        shown["turn_started"] = turn["at"]
        shown["deadline"] = iso(deadline_ms(meta, control, seat))
    return shown


def deadline_ms(meta: Mapping[str, Any], control: TimeControl, seat: str) -> int | None:
    """When ``seat`` runs out of time on the decision it owes (None: it owes none)."""
    turn = meta.get("turns", {}).get(seat)
    clock = meta.get("clock")
    if turn is None or clock is None or seat not in clock:
        return None
    own = clock[seat]
    return deadline(ms(turn["at"]), control.per_move_ms + own["bank"], own["away"])


def expired(meta: Mapping[str, Any], control: TimeControl | None, now_ms: int,
            exempt: Collection[str] = ()) -> list[str]:  # fmt: skip
    """The seats whose time has run out by ``now_ms`` (seats in ``exempt`` excepted)."""
    if control is None:
        return []
    out = []
    for seat in meta.get("turns", {}):
        if seat in exempt:
            continue
        due = deadline_ms(meta, control, seat)
        if due is not None and due <= now_ms:
            out.append(seat)
    return out


def next_deadline(meta: Mapping[str, Any], control: TimeControl | None,
                  exempt: Collection[str] = ()) -> int | None:  # fmt: skip
    """The earliest deadline among the seats that owe a decision (for the sweep's index)."""
    if control is None:
        return None
    found = [deadline_ms(meta, control, s) for s in meta.get("turns", {}) if s not in exempt]
    found = [d for d in found if d is not None]
    return min(found) if found else None


def first_out(meta: Mapping[str, Any], control: TimeControl, late: Collection[str]) -> list[str]:
    """Of the seats whose time has run out, those whose time ran out first (several when
    their deadlines are the same moment: seats that began to owe together, as in a
    simultaneous placement, with the same time left). When a seat forfeits on time, these
    lose: one alone loses to the other, together they draw."""
    due = {seat: deadline_ms(meta, control, seat) for seat in late}
    first = min(due.values())
    return sorted(seat for seat, at in due.items() if at == first)
