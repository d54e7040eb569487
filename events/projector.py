"""Loading a game: fold its stream (from the latest valid snapshot) into a ``LoadedGame``.

The stream holds the service's system events (``game_created``, ``seat_joined``,
``seed_revealed`` …) and the game's own events; the first shape the game's metadata, the
second are folded with the game's ``evolve``. A continued game's ``position_set`` replaces
the state outright (``rules.load_state``): it stands where the deal stands in others.
A snapshot made for other rules (another ``rules.version``) is ignored and the stream is
folded from the start.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import games
from events import clocks, table
from events.envelope import GENESIS, Envelope
from events.schemas import SYSTEM_FIELDS
from events.store import EventStore, Snapshot, UnknownGame, rules_fingerprint
from events.table import APPEND_STARTS, Table


@dataclass
class LoadedGame:
    game_id: str
    rules: Any
    version: int = 0
    last_hash: str = GENESIS
    table: Table = field(default_factory=Table)  # what the service's own events said
    state: Any = None
    from_snapshot: int = 0  # the snapshot version the fold started from (0: none)

    # -- the table, as the write path and the read models ask for it ---------------------
    @property
    def created(self) -> Mapping[str, Any]:
        return self.table.created

    @property
    def seats(self) -> dict[str, str]:
        """Seat → "human" or "ai:<level>" as it is played now (``Table.seats``)."""
        return self.table.seats

    @property
    def created_seats(self) -> dict[str, str]:
        return self.table.created_seats

    @property
    def rated(self) -> bool:
        return self.table.rated

    @property
    def joined(self) -> Mapping[str, Mapping[str, Any]]:
        return self.table.joined

    @property
    def open_seats(self) -> list[str]:
        return self.table.open_seats

    @property
    def dealt(self) -> bool:
        return self.table.dealt

    @property
    def revealed(self) -> Mapping[str, Any] | None:
        return self.table.revealed

    @property
    def decided(self) -> Mapping[str, Any] | None:
        """How the game ended off the board (time, an agreed draw), or None."""
        return self.table.decided

    @property
    def outcome(self) -> Mapping[str, Any] | None:
        if self.table.decided is not None:
            return self.table.decided
        return self.rules.outcome(self.state) if self.table.dealt else None

    @property
    def pending(self) -> dict[str, str]:
        return pending_of(self.rules, self.state, self.table)

    @property
    def control(self) -> clocks.TimeControl | None:
        return self.table.control

    @property
    def off_the_clock(self) -> set[str]:
        return self.table.off_the_clock

    @property
    def draw_offer(self) -> str | None:
        return self.table.draw_offer

    def copy(self) -> LoadedGame:
        """A game that ``apply`` can bring forward without changing this one (the state
        is immutable; the table's mappings are replaced by ``apply``, never changed)."""
        return dataclasses.replace(self, table=self.table.copy())

    def snapshot(self) -> Snapshot:
        """The position at ``version``; the chain's last hash rides in ``meta``."""
        return Snapshot(
            self.version,
            rules_fingerprint(self.rules.key, self.rules.version),
            self.rules.dump_state(self.state),
            {"table": self.table.to_dict(), "last_hash": self.last_hash},
        )


def pending_of(rules: Any, state: Any, table: Table) -> dict[str, str]:
    """Who owes a decision: nobody before the deal or once the game is decided."""
    if not table.dealt or table.decided is not None:
        return {}
    return rules.pending(state)


def apply(game: LoadedGame, envelopes: Iterable[Envelope]) -> LoadedGame:
    """Fold envelopes onto a loaded game (in place) and return it.

    The service's own events go to the table (``events.table.evolve``), the game's to the
    rules (folded together, which is cheaper); at the end of each append (an append
    starts with one of ``APPEND_STARTS``; reads begin and end at appends) the turns are
    brought forward (``events.table.end_of_append``). The table's mappings are replaced,
    never changed in place, and the rules' states are immutable, so a ``copy`` of a game
    taken before shares nothing that this changes."""
    rules = game.rules
    state = game.state
    tab = game.table
    run: list[dict[str, Any]] = []  # game events not folded yet: folded together (cheaper)
    last = opener = None
    by_system = False
    for env in envelopes:
        kind = env.type
        system = kind in SYSTEM_FIELDS
        if system and run:
            state, run = rules.fold(run, state), []
        if kind in APPEND_STARTS:
            if last is not None:
                _append_ended(tab, rules, state, last, opener, by_system)
            opener = env
            # A stand-in AI's decision is nobody's own move: its seat is told of what follows.
            by_system = kind == "clock_expired" or (
                kind == "command_given" and env.payload["seat"] in tab.standing_in
            )
        if system:
            if kind == "position_set":  # a continued game starts from this position
                state = rules.load_state(env.payload["state"])
            table.evolve(tab, kind, env.payload, env.seq, env.at)
        else:
            tab.dealt = True
            run.append(env.event())
        last = env
    if run:
        state = rules.fold(run, state)
    if last is not None:
        _append_ended(tab, rules, state, last, opener, by_system)
        game.version, game.last_hash = last.seq, last.hash
        tab.last_at = last.at
    game.state = state
    return game


def _append_ended(tab: Table, rules: Any, state: Any, last: Any, opener: Any,
                  by_system: bool) -> None:  # fmt: skip
    """The turns after the append that ``opener`` began and ``last`` ended: begun by the
    seat that opened it, or by the system (the deal, a clock, a stand-in AI)."""
    by = table.SYSTEM
    if opener is not None and not by_system:
        by = opener.payload.get("seat") or table.SYSTEM
    table.end_of_append(tab, pending_of(rules, state, tab), last.seq, last.at, by)


def load(
    store: EventStore,
    game_id: str,
    registry: Mapping[str, Any] | None = None,
    use_snapshot: bool = True,
) -> LoadedGame:
    """The game as its stream says, starting from the latest snapshot of the same rules."""
    key = store.game_of(game_id)
    if key is None:
        raise UnknownGame(game_id)
    rules = (registry or games.REGISTRY)[key]
    game = LoadedGame(game_id, rules, state=rules.initial())
    snap = store.get_snapshot(game_id) if use_snapshot else None
    # (a snapshot of an older release keeps the table as a loose dict: folded anew instead)
    if (
        snap is not None
        and snap.rules == rules_fingerprint(key, rules.version)
        and ("table" in snap.meta)
    ):
        game.state = rules.load_state(snap.state)
        game.table = Table.from_dict(snap.meta["table"])
        game.version, game.last_hash = snap.version, snap.meta.get("last_hash", GENESIS)
        game.from_snapshot = snap.version
    return apply(game, store.read_for_fold(game_id, after=game.version))


def save_snapshot(store: EventStore, game: LoadedGame) -> None:
    store.put_snapshot(game.game_id, game.snapshot())


class Lru:
    """A bounded, thread-safe map that forgets what was used least recently."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Any, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def pop(self, key: Any) -> None:
        with self._lock:
            self._items.pop(key, None)

    def __len__(self) -> int:
        return len(self._items)


class GameCache:
    """The games a process has loaded lately, so that loading one again reads only the
    events appended since (one short read) instead of the snapshot and the tail after it.

    Bounded (least recently used goes first) and for running games only: a finished game
    does not change and is rarely loaded again. Thread-safe; it hands out copies, so what
    a caller folds onto its game never reaches the cache or another thread.
    """

    def __init__(self, size: int = 1024) -> None:
        self._games = Lru(size)

    def load(
        self, store: EventStore, game_id: str, registry: Mapping[str, Any] | None = None
    ) -> LoadedGame:
        cached = self._games.get(game_id)
        if cached is None:
            game = load(store, game_id, registry)
        else:
            game = apply(cached.copy(), store.read_for_fold(game_id, after=cached.version))
        self.keep(game)
        return game

    def remembered(self, game_id: str) -> LoadedGame | None:
        """A copy of the game as last seen here, without reading the store: it may be
        behind the stream (an append at its version is refused, so that is safe)."""
        cached = self._games.get(game_id)
        return None if cached is None else cached.copy()

    def keep(self, game: LoadedGame) -> None:
        """Remember ``game`` (a copy); a finished game is forgotten."""
        if game.outcome is not None:
            self._games.pop(game.game_id)
        else:
            self._games.put(game.game_id, game.copy())

    def __len__(self) -> int:
        return len(self._games)
