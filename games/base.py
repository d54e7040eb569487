"""What every game module provides: the Decider protocol and the rules error.

A game is a plain object whose functions take and return plain data: commands and events
are JSON-ready dicts with a ``type``; state is the game's own immutable value. Nothing
here reads a clock or a global random source: chance comes in through ``rng``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
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


# -- the catalogue: what a game is, as plain data the service derives its forms from ----------
@dataclass(frozen=True)
class SeatInfo:
    id: Seat  # stored in events: never renamed
    label: str  # what players read ("Blue")
    colour: str  # a CSS colour the pages draw the seat in


@dataclass(frozen=True)
class Option:
    """One option a game is created with. ``kind``: "choice" (one of ``choices``, each a
    (value, label) pair) or "bool"."""

    name: str
    kind: str
    label: str
    default: Any
    choices: tuple[tuple[Any, str], ...] = ()
    help: str = ""
    # False: a detail the game's summaries (a seek's words) leave out at its default.
    summary: bool = True


@dataclass(frozen=True)
class Catalogue:
    title: str  # "Sun Tzu"
    seats: tuple[SeatInfo, ...]
    options: tuple[Option, ...] = ()
    summary: str = ""  # one sentence for the list of games


class Knowledge(Protocol):
    """The inverse of ``view``: positions consistent with what a seat has seen (the AI,
    analysis and continue-from-here), and the documented everything-view of a replay."""

    def determinize(self, view: dict[str, Any], seat: Seat, rng: Rng) -> Any: ...
    def full_view(self, state: Any) -> dict[str, Any]: ...


class AiParts(Protocol):
    """What the generic search needs of a game, and its heuristic policy (the easy level)."""

    def searchable(self, view: dict[str, Any], seat: Seat) -> bool: ...
    def determinize(self, view: dict[str, Any], seat: Seat, rng: Any) -> Any: ...
    def candidates(self, state: Any, seat: Seat, rng: Any, root: bool) -> list[Command]: ...
    def rollout(self, state: Any, seat: Seat, rng: Any) -> Command | None: ...
    def evaluate(self, state: Any, seat: Seat) -> float: ...
    def horizon(self, root: Any, state: Any) -> bool: ...
    def key(self, command: Command) -> Hashable: ...
    def fallback(self, state: Any, seat: Seat, rng: Any) -> Command | None: ...
    def heuristic(self, view: dict[str, Any], seat: Seat, rng: Any) -> Command | None: ...
    # The analysis of finished games: whether the search can judge ``command`` sent from
    # ``view`` (its position can be rebuilt, it answers the decision owed), and the answers
    # a decision the search does not generate ``candidates`` for is judged among.
    def assessable(self, view: dict[str, Any], seat: Seat, command: Command) -> bool: ...
    def alternatives(self, state: Any, seat: Seat, played: Command) -> list[Command]: ...

    # Optional, not a function: ``analysis_scale`` (0 < x <= 1), the share of the analysis'
    # playouts this game's decisions get, for a game whose whole analysis would otherwise
    # take too long (many decisions, long playouts).


Message = tuple[str, dict[str, Any]]  # (message id, its placeholders' values)


class Text(Protocol):
    """Every word a game shows, keyed by message ids so translations can follow:
    ``messages`` is id -> English template (``str.format`` placeholders); the functions
    say which message (and its values) tells an event, a command, a decision owed or how
    the game ended, from a seat's perspective (None: a spectator's)."""

    messages: Mapping[str, str]

    def event(self, event: Event, seat: Seat | None) -> Message | None: ...
    def command(self, command: Command, seat: Seat | None) -> Message: ...
    def prompt(self, kind: str, seat: Seat | None) -> Message: ...
    def end(self, outcome: Mapping[str, Any], seat: Seat | None) -> Message: ...


class Rules(Protocol):
    """The Decider protocol of ``shared/design.md``; one object per game (its package's
    ``RULES``), with every other part of the package beside it."""

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
    # Optional: {number: bytes} preset dictionaries for compressing stored payloads
    # (events.dictionaries); a game without them is stored as plain JSON.
    payload_dictionaries: dict[int, bytes]
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

    # Optional: ``evolve_all(state, events)``, the state after the events of one decision,
    # what ``evolve`` one event after the other gives, for a game that has a faster way
    # (Sun Tzu hands back the state its ``decide`` computed); callers that play whole games
    # (games.playout) use it when it is there, else ``evolve`` each event.

    # -- the other parts of a game package (shared/design.md "A game is one package") ------
    catalogue: Catalogue
    knowledge: Knowledge
    ai: AiParts
    text: Text
    web: Path  # a folder of ES modules behind one interface (its index.js), see its README
    # Optional: the game's rules for players, an HTML fragment (no script, no style
    # attribute; figures as inline SVG) that the generic page /games/<key>/rules shows.
    # A game without it (``guide`` absent or None) has no rules page (a 404 that says so).
    guide: Path | None


def guide_of(rules: Any) -> Path | None:
    """The game's rules for players (its optional ``guide`` part), if it has one."""
    guide = getattr(rules, "guide", None)
    return guide if guide is not None and Path(guide).is_file() else None


class MatchParts(Protocol):
    """Optional (a game package's ``match``): the game can be played as a *match* of
    linked games, the next one made by the service when the one before ends, with the
    same players in swapped seats (two seats), and one result over them all.

    ``games_in_match``: how many games at most; ``label``: the message id (of the
    package's ``text.messages``) of what the new-game form says of it ("Victory: two
    games ..."); ``check(options)`` refuses, with a ``RulesError``
    sentence, options a match cannot be played with; ``next_options(options, outcome)``
    the options of the next game from the game before's and how it ended;
    ``result(outcomes, seats)`` the match's result over the outcomes so far (the games'
    ``outcome``, or the service's off-board ending: ``winner``, ``reason``), players named
    by their seat in the first game, ``seats[i]`` mapping them to their seat in game i:
    ``{"winner": first-game seat or None, "reason": ...}``, or None while undecided;
    ``words(result, seat)`` the result for ``seat`` (a first-game seat, or None for a
    spectator) as a message of the package's ``text.messages`` (``games.messages``), so
    another language is another table."""

    games_in_match: int
    label: str

    def check(self, options: Mapping[str, Any]) -> None: ...
    def next_options(
        self, options: Mapping[str, Any], outcome: Mapping[str, Any]
    ) -> dict[str, Any]: ...
    def result(
        self, outcomes: list[Mapping[str, Any]], seats: list[Mapping[Seat, Seat]]
    ) -> dict[str, Any] | None: ...
    def words(self, result: Mapping[str, Any], seat: Seat | None) -> Message: ...


def match_of(rules: Any) -> MatchParts | None:
    """The game's match part (``MatchParts``), if it can be played as a match."""
    return getattr(rules, "match", None)
