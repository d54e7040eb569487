"""What is played off the board, for every game: clocks that run out, vacation, draws.

``OffBoard`` is part of the write path (``service.usecases.Bingfa`` is one): it uses the
write path's store, loading, follow-up work and clock. The clocks themselves are folded
from the stream (``events.clocks``); here is what is written when they run out, and the
checks that refuse a write to a game a clock has ended.
"""

from __future__ import annotations

from typing import Any

from events import clocks, table
from events.projector import LoadedGame
from events.store import ConcurrencyError
from games.base import RulesError
from service.errors import NotFound


def over_text(game: LoadedGame) -> str:
    """Why a game that ended takes no more: its end, in a sentence."""
    decided = game.decided or {}
    if decided.get("reason") == "time":
        out = [s for s in game.seats if s != decided.get("winner")]
        if decided.get("winner") is None:
            return "the game is over: both players ran out of time at once, a draw"
        return f"the game is over: {' and '.join(out)} ran out of time, {decided['winner']} wins"
    if decided.get("reason") == "agreement":
        return "the game is over: it was agreed a draw"
    return "the game is over"


class OffBoard:
    """Mixed into the write path: needs its ``store``, ``_load``, ``_after``, ``_secret``,
    ``now`` and ``now_ms``."""

    def seats_of_player(self, game_id: str, player: str) -> list[str]:
        """The seats of ``game_id`` that ``player`` (a browser's player id) took."""
        game = self._load(game_id)
        return [seat for seat, joined in game.joined.items()
                if player and joined.get("player") == player]  # fmt: skip

    def expire(self, game_id: str) -> list[str]:
        """Enforce the deadlines of ``game_id`` at the clock's time: each seat whose time
        has run out forfeits, or has an AI play that one decision for it, as the game was
        created. Returns the seats it acted for (none when nobody's time is up: the sweep
        may look at a game twice, or after its player moved)."""
        for _ in range(3):  # a move may land in between: look again at the new position
            game = self._load(game_id)
            control = game.control
            if control is None or game.outcome is not None:
                return []
            late = clocks.expired(game.meta, control, self.now_ms(),
                                  exempt=game.off_the_clock)  # fmt: skip
            if not late:
                return []
            if control.on_timeout == clocks.FORFEIT:
                late = clocks.first_out(game.meta, control, late)  # the game ends there
            events: list[dict[str, Any]] = [
                {"type": "clock_expired", "visible_to": "all", "seat": seat,
                 "action": control.on_timeout}
                for seat in late
            ]  # fmt: skip
            if control.on_timeout == clocks.FORFEIT:
                others = [s for s in game.seats if s not in late]
                winner = others[0] if len(others) == 1 else None  # out together: a draw
                events.append({"type": "game_decided", "visible_to": "all", "winner": winner,
                               "reason": "time"})  # fmt: skip
            if events[-1]["type"] == "game_decided":
                events.append(self._revealed(game))
            try:
                self.store.append(game_id, game.version, events, at=self.now())
            except ConcurrencyError:
                continue
            self._after(game, events)
            return late
        return []

    def take_vacation(self, game_id: str, seat: str, days: int) -> int:
        """``days`` of the seat's vacation allowance: its clock stops for that long."""
        game = self._players(game_id, seat)
        control = game.control
        if control is None:
            raise RulesError("this game has no clock, so there is no time to stop")
        left = game.meta["clock"][seat]["vacation"] // clocks.DAY_MS
        if isinstance(days, bool) or not isinstance(days, int) or days < 1:
            raise RulesError("vacation is taken in whole days, at least one")
        if days > left:
            raise RulesError(f"you have {left} vacation day{'s' if left != 1 else ''} left "
                             f"in this game")  # fmt: skip
        event = {"type": "vacation_taken", "visible_to": "all", "seat": seat, "days": days}
        return self._write(game, seat, [event])

    def draw(self, game_id: str, seat: str, action: str) -> int:
        """Offer a draw, accept the one offered to you, or decline it. Offering when the
        other seat has offered one accepts it."""
        game = self._players(game_id, seat)
        offer = game.draw_offer
        if action == "offer" and offer == seat:
            raise RulesError("you have already offered a draw; it stands until it is "
                             "answered or the game moves on")  # fmt: skip
        if action == "offer" and offer is None:
            return self._write(game, seat, [{"type": "draw_offered", "visible_to": "all",
                                             "seat": seat}])  # fmt: skip
        if action in ("accept", "decline") and (offer is None or offer == seat):
            raise RulesError("there is no draw offered to you to " + action)
        if action == "decline":
            return self._write(game, seat, [{"type": "draw_declined", "visible_to": "all",
                                             "seat": seat}])  # fmt: skip
        if action not in ("offer", "accept"):
            raise RulesError(f"a draw can be offered, accepted or declined, not {action!r}")
        events = [
            {"type": "draw_accepted", "visible_to": "all", "seat": seat},
            {"type": "game_decided", "visible_to": "all", "winner": None, "reason": "agreement"},
            self._revealed(game),
        ]
        return self._write(game, seat, events)

    def _overdue(self, game: LoadedGame) -> bool:
        """Has a seat's time run out by now (the sweep will come, but a write now must see
        the game as it stands: ended, or with the AI on the seat's decision)?"""
        control = game.control
        if control is None or game.outcome is not None:
            return False
        return bool(clocks.expired(game.meta, control, self.now_ms(), game.off_the_clock))

    def _live(self, game_id: str, seat: str) -> LoadedGame:
        """The game, for a write by ``seat`` other than a command: refused once it is over
        (after enforcing a deadline that has passed)."""
        game = self._load(game_id)
        if seat not in game.seats:
            raise NotFound(f"there is no seat {seat!r}; the seats are " + ", ".join(game.seats))
        if self._overdue(game):
            self.expire(game_id)
            game = self._load(game_id)
        if game.outcome is not None:
            raise RulesError(over_text(game))
        return game

    def _running(self, game_id: str, seat: str) -> LoadedGame:
        game = self._live(game_id, seat)
        if not game.dealt:
            raise RulesError("the game has not started yet")
        return game

    def _players(self, game_id: str, seat: str) -> LoadedGame:
        """The running game, for a write only the seat's player makes (not while the
        computer plays the seat: ``events.table``)."""
        game = self._running(game_id, seat)
        refused = table.refusal(game, seat, table.PLAYER)
        if refused:
            raise RulesError(refused)
        return game

    def _write(self, game: LoadedGame, seat: str, events: list[dict[str, Any]]) -> int:
        version = self.store.append(game.game_id, game.version, events, actor=seat,
                                    at=self.now())  # fmt: skip
        self._after(game, events)
        return version

    def _revealed(self, game: LoadedGame) -> dict[str, Any]:
        return {"type": "seed_revealed", "visible_to": "all", **self._secret(game)}
