"""What is played off the board, for every game, as the write path does it: seats handed to
the computer and taken back, clocks that run out, vacation, draws.

The rules of all of it are the table's (``events.table``: pure, the time passed in); here
they are applied to a game as stored and their events appended. ``OffBoard`` is part of
the write path (``events.writepath.WritePath`` is one): it uses the write path's store,
loading, follow-up work and clock.
"""

from __future__ import annotations

from typing import Any

from events import table
from events.errors import NotFound
from events.projector import LoadedGame
from events.store import ConcurrencyError
from games.i18n import said


def over_text(game: LoadedGame) -> str:
    """Why a game that ended takes no more: its end, in a sentence."""
    return table.over_text(game.table, game.seats)


class OffBoard:
    """Mixed into the write path: needs its ``store``, ``_load``, ``_after``, ``_secret``,
    ``now``, ``now_ms`` and ``_check_level``."""

    def seats_of_player(self, game_id: str, player: str) -> list[str]:
        """The seats of ``game_id`` that ``player`` (a browser's player id) took."""
        game = self._load(game_id)
        return [seat for seat, joined in game.joined.items()
                if player and joined.get("player") == player]  # fmt: skip

    def expire(self, game_id: str) -> list[str]:
        """Enforce the deadlines of ``game_id`` at the clock's time (``table.expire``).
        Returns the seats it acted for (none when nobody's time is up: the sweep may look
        at a game twice, or after its player moved)."""
        for _ in range(3):  # a move may land in between: look again at the new position
            game = self._load(game_id)
            events = table.expire(game.table, self.now_ms(), game.outcome is not None)
            if not events:
                return []
            try:
                self._write(game, table.SYSTEM, events)
            except ConcurrencyError:
                continue
            return [e["seat"] for e in events if e["type"] == "clock_expired"]
        return []

    def hand_to_ai(self, game_id: str, seat: str, level: str) -> int:
        """The seat's player leaves it to the computer at ``level`` until they take it back."""
        self._check_level(level)
        game = self._live(game_id, seat)
        return self._write(game, seat, table.hand_to_ai(game.table, seat, level, False))

    def take_back(self, game_id: str, seat: str) -> int:
        """The seat's player takes back the seat they handed to the computer: from now on
        they play it again (and their clock runs for the decision it owes, from now)."""
        game = self._live(game_id, seat)
        return self._write(game, seat, table.take_back(game.table, seat, False))

    def take_vacation(self, game_id: str, seat: str, days: int) -> int:
        """``days`` of the seat's vacation allowance: its clock stops for that long."""
        game = self._live(game_id, seat)
        return self._write(game, seat, table.vacation(game.table, seat, days, False))

    def draw(self, game_id: str, seat: str, action: str) -> int:
        """Offer a draw, accept the one offered to you, or decline it."""
        game = self._live(game_id, seat)
        return self._write(game, seat, table.draw(game.table, seat, action, False))

    def _overdue(self, game: LoadedGame) -> bool:
        """Has a seat's time run out by now (the sweep will come, but a write now must see
        the game as it stands: ended, or with the AI on the seat's decision)?"""
        return game.outcome is None and bool(game.table.expired(self.now_ms()))

    def _live(self, game_id: str, seat: str) -> LoadedGame:
        """The game, for a write by ``seat`` other than a command, after enforcing a
        deadline that has passed; refused once it is over."""
        game = self._load(game_id)
        if seat not in game.seats:
            raise NotFound(
                said(
                    "there is no seat {seat!r}; the seats are {seats}",
                    seat=seat,
                    seats=", ".join(game.seats),
                )
            )
        if self._overdue(game):
            self.expire(game_id)
            game = self._load(game_id)
        if game.outcome is not None:
            raise table.Refused(over_text(game))
        return game

    def _write(self, game: LoadedGame, actor: str, events: list[dict[str, Any]]) -> int:
        """Append what the table decided (and the revealed seed when it ended the game)."""
        if table.ends(events):
            events = [*events, self._revealed(game)]
        version = self.store.append(game.game_id, game.version, events, actor=actor,
                                    at=self.now())  # fmt: skip
        self._after(game, events)
        return version

    def _revealed(self, game: LoadedGame) -> dict[str, Any]:
        return {"type": "seed_revealed", "visible_to": "all", **self._secret(game)}
