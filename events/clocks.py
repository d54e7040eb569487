"""Time controls and the arithmetic of time: what a game's clock is, when a deadline
falls. Pure: no clock is read here; times come from the events' ``at`` and the ``now`` a
caller passes in. The clocks of a game (banks, vacations, turns, timeouts) are part of its
table (``events.table``), which folds them from the stream.

A time control (``game_created.clock``, ``parse``): a decision may take ``per_move``;
time beyond that is drawn from the bank, which never refills; vacation days stop a seat's
clock; when the move's time and the bank are both spent the seat has run out of time and
the game does what it was created with (``on_timeout``): the seat forfeits, or an AI
plays that one decision for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.i18n import said

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
        raise ValueError(said('the clock is an object such as {"per_move_seconds": 86400}'))
    known = {"per_move_seconds", "bank_seconds", "vacation_days", "on_timeout"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ValueError(
            said(
                "the clock has no setting {unknown!r}; it has {known}",
                unknown=unknown[0],
                known=", ".join(sorted(known)),
            )
        )
    per_move = _whole(raw.get("per_move_seconds"), "per_move_seconds")
    if per_move is None or not MIN_PER_MOVE_S <= per_move <= MAX_PER_MOVE_S:
        raise ValueError(
            said(
                "per_move_seconds is the time for each decision, from "
                "{MIN_PER_MOVE_S} seconds to {value} days",
                MIN_PER_MOVE_S=MIN_PER_MOVE_S,
                value=MAX_PER_MOVE_S // 86400,
            )
        )
    bank = _whole(raw.get("bank_seconds", 0), "bank_seconds")
    if bank is None or not 0 <= bank <= MAX_BANK_S:
        raise ValueError(
            said("bank_seconds is a time bank of 0 to {value} days", value=MAX_BANK_S // 86400)
        )
    vacation = _whole(raw.get("vacation_days", 0), "vacation_days")
    if vacation is None or not 0 <= vacation <= MAX_VACATION_DAYS:
        raise ValueError(
            said(
                "vacation_days is a whole number of days from 0 to {MAX_VACATION_DAYS}",
                MAX_VACATION_DAYS=MAX_VACATION_DAYS,
            )
        )
    on_timeout = raw.get("on_timeout", FORFEIT)
    if not isinstance(on_timeout, str) or not (
        on_timeout == FORFEIT or (on_timeout.startswith(AI_PREFIX) and len(on_timeout) > 3)
    ):
        raise ValueError(
            said('on_timeout is "forfeit" or "ai:<level>" (the AI plays that decision)')
        )
    return {"per_move_seconds": per_move, "bank_seconds": bank, "vacation_days": vacation,
            "on_timeout": on_timeout}  # fmt: skip


def _whole(value: Any, name: str) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(said("{name} is a whole number", name=name))
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


# -- counting time ----------------------------------------------------------------------
def counted(begin: int, end: int, away: Sequence[Sequence[int]]) -> int:
    """Milliseconds from ``begin`` to ``end`` that count: those not on vacation."""
    total = max(0, end - begin)
    for low, high in away:
        total -= max(0, min(end, high) - max(begin, low))
    return total


def deadline(turn_at_ms: int, allowed_ms: int, away: Sequence[Sequence[int]]) -> int:
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
