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
from events.envelope import GENESIS, Envelope
from events.schemas import SYSTEM_FIELDS
from events.store import EventStore, Snapshot, UnknownGame, rules_fingerprint


@dataclass
class LoadedGame:
    game_id: str
    rules: Any
    version: int = 0
    last_hash: str = GENESIS
    meta: dict[str, Any] = field(default_factory=dict)
    state: Any = None
    from_snapshot: int = 0  # the snapshot version the fold started from (0: none)

    # -- what the system events said ------------------------------------------------
    @property
    def created(self) -> Mapping[str, Any]:
        return self.meta.get("created", {})

    @property
    def seats(self) -> dict[str, str]:
        """Seat → "human" or "ai:<level>": as created, or the AI a player handed it to."""
        return {**self.created.get("seats", {}), **self.meta.get("handed", {})}

    @property
    def created_seats(self) -> dict[str, str]:
        """Seat → kind as the game was created (whose game it is, whoever plays it now)."""
        return dict(self.created.get("seats", {}))

    @property
    def rated(self) -> bool:
        return bool(self.created.get("rated", False))

    @property
    def joined(self) -> dict[str, dict[str, Any]]:
        return self.meta.get("joined", {})

    @property
    def open_seats(self) -> list[str]:
        return [s for s in self.seats if s not in self.joined]

    @property
    def dealt(self) -> bool:
        return bool(self.meta.get("dealt"))

    @property
    def revealed(self) -> Mapping[str, Any] | None:
        return self.meta.get("revealed")

    @property
    def outcome(self) -> Mapping[str, Any] | None:
        return self.rules.outcome(self.state) if self.dealt else None

    @property
    def pending(self) -> dict[str, str]:
        return self.rules.pending(self.state) if self.dealt else {}

    def copy(self) -> LoadedGame:
        """A game that ``apply`` can bring forward without changing this one (the state
        is immutable; ``meta``'s own values are replaced by ``apply``, never changed)."""
        return dataclasses.replace(self, meta=dict(self.meta))

    def snapshot(self) -> Snapshot:
        """The position at ``version``; the chain's last hash rides in ``meta``."""
        return Snapshot(
            self.version,
            rules_fingerprint(self.rules.key, self.rules.version),
            self.rules.dump_state(self.state),
            {**self.meta, "last_hash": self.last_hash},
        )


def apply(game: LoadedGame, envelopes: Iterable[Envelope]) -> LoadedGame:
    """Fold envelopes onto a loaded game (in place) and return it.

    ``meta`` is replaced, never changed in place, and the rules' states are immutable, so
    a ``copy`` of a game taken before shares nothing that this changes."""
    rules = game.rules
    state = game.state
    meta = dict(game.meta)
    run: list[dict[str, Any]] = []  # game events not folded yet: folded together (cheaper)
    last = None
    for env in envelopes:
        if env.type in SYSTEM_FIELDS and run:
            state, run = rules.fold(run, state), []
        if env.type in SYSTEM_FIELDS:
            if env.type == "game_created":
                meta["created"] = dict(env.payload)
                meta["created_at"] = env.at
            elif env.type == "seat_joined":
                joined = {**meta.get("joined", {}), env.payload["seat"]: dict(env.payload)}
                meta["joined"] = joined
            elif env.type == "seed_revealed":
                meta["revealed"] = dict(env.payload)
            elif env.type == "seat_handed_to_ai":
                handed = {env.payload["seat"]: "ai:" + env.payload["level"]}
                meta["handed"] = {**meta.get("handed", {}), **handed}
            elif env.type == "position_set":  # a continued game starts from this position
                state = rules.load_state(env.payload["state"])
                meta["dealt"] = True
        else:
            meta["dealt"] = True
            run.append(env.event())
        last = env
    if run:
        state = rules.fold(run, state)
    if last is not None:
        game.version, game.last_hash = last.seq, last.hash
        meta["last_at"] = last.at
    game.state, game.meta = state, meta
    return game


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
    if snap is not None and snap.rules == rules_fingerprint(key, rules.version):
        game.state = rules.load_state(snap.state)
        game.meta = {k: v for k, v in snap.meta.items() if k != "last_hash"}
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
