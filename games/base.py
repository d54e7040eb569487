"""What every game module provides: the Decider protocol and the rules error.

A game is a plain object whose functions take and return plain data: commands and events
are JSON-ready dicts with a ``type``; state is the game's own immutable value. Nothing
here reads a clock or a global random source: chance comes in through ``rng``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

Command = dict[str, Any]
Event = dict[str, Any]
Seat = str


class RulesError(ValueError):
    """A command the rules refuse. The message is written for the player who sent it."""


class Rng(Protocol):
    """The part of ``random.Random`` the rules use."""

    def random(self) -> float: ...
    def randrange(self, start: int, stop: int | None = ..., step: int = ...) -> int: ...
    def choice(self, seq: Any) -> Any: ...
    def shuffle(self, x: list[Any]) -> None: ...
    def sample(self, population: Any, k: int) -> list[Any]: ...


class Rules(Protocol):
    """The Decider protocol of ``shared/design.md``; one object per game."""

    key: str
    name: str
    version: str  # of the rules: snapshots made under another version are not used
    seats: tuple[Seat, ...]
    has_chance: bool
    has_hidden_information: bool
    max_rounds: int
    # What each event carries, for the event store's schemas (see games/sun_tzu/schema.py).
    event_fields: dict[str, dict[str, str]]
    event_versions: dict[str, int]
    upcasters: dict[tuple[str, int], Any]
    # What each command carries besides its "type" (the grammar: events/commands.py);
    # anything else is refused before ``decide`` sees it.
    command_fields: dict[str, dict[str, Any]]

    def initial(self) -> Any: ...
    def setup(self, options: Mapping[str, Any], rng: Rng) -> list[Event]: ...
    def decide(self, state: Any, seat: Seat, command: Command, rng: Rng) -> list[Event]: ...
    def evolve(self, state: Any, event: Event) -> Any: ...
    def fold(self, events: Iterable[Event], state: Any = None) -> Any: ...
    def view(self, state: Any, seat: Seat | None) -> dict[str, Any]: ...
    def redact(self, event: Event, seat: Seat | None) -> Event | None: ...
    def pending(self, state: Any) -> dict[Seat, str]: ...
    def legal(self, state: Any, seat: Seat) -> list[Command]: ...
    def random_command(self, state: Any, seat: Seat, rng: Rng) -> Command | None: ...
    def outcome(self, state: Any) -> dict[str, Any] | None: ...
    def dump_state(self, state: Any) -> str: ...
    def load_state(self, text: str) -> Any: ...
