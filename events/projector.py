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
from events import clocks
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
        """Seat → "human" or "ai:<level>": as created, or the AI a player handed it to, or
        the AI standing in for one decision of a seat whose time ran out."""
        return {**self.created.get("seats", {}), **self.meta.get("handed", {}),
                **self.meta.get("standing_in", {})}  # fmt: skip

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
    def decided(self) -> Mapping[str, Any] | None:
        """How the game ended off the board (time, an agreed draw), or None."""
        return self.meta.get("decided")

    @property
    def outcome(self) -> Mapping[str, Any] | None:
        if self.decided is not None:
            return self.decided
        return self.rules.outcome(self.state) if self.dealt else None

    @property
    def pending(self) -> dict[str, str]:
        return pending_of(self.rules, self.state, self.meta)

    @property
    def control(self) -> clocks.TimeControl | None:
        return clocks.control_of(self.created)

    @property
    def off_the_clock(self) -> set[str]:
        """The seats an AI plays now (from the start, handed over, or standing in after a
        timeout): their time never runs out, since a late AI is the service's fault."""
        return {seat for seat, kind in self.seats.items() if kind.startswith(clocks.AI_PREFIX)}

    @property
    def draw_offer(self) -> str | None:
        """The seat whose offer of a draw stands, or None."""
        return self.meta.get("draw_offer")

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


# The system events that begin an append (the others end one: the seed, a decided end).
APPEND_STARTS = frozenset({"game_created", "seat_joined", "command_given", "seat_handed_to_ai",
                           "seat_taken_back", "vacation_taken", "clock_expired",
                           "draw_offered", "draw_declined", "draw_accepted"})  # fmt: skip


def pending_of(rules: Any, state: Any, meta: Mapping[str, Any]) -> dict[str, str]:
    """Who owes a decision: nobody before the deal or once the game is decided."""
    if not meta.get("dealt") or meta.get("decided") is not None:
        return {}
    return rules.pending(state)


def apply(game: LoadedGame, envelopes: Iterable[Envelope]) -> LoadedGame:
    """Fold envelopes onto a loaded game (in place) and return it.

    ``meta`` is replaced, never changed in place, and the rules' states are immutable, so
    a ``copy`` of a game taken before shares nothing that this changes. At the end of each
    append (an append starts with one of ``APPEND_STARTS``; reads begin and end at
    appends) the turns and clocks are brought forward (``events.clocks``)."""
    rules = game.rules
    state = game.state
    meta = dict(game.meta)
    run: list[dict[str, Any]] = []  # game events not folded yet: folded together (cheaper)
    last = opener = None
    by_system = False
    control = clocks.control_of(meta.get("created", {}))
    for env in envelopes:
        kind = env.type
        if kind in SYSTEM_FIELDS and run:
            state, run = rules.fold(run, state), []
        if kind in APPEND_STARTS and last is not None:
            _append_ended(meta, rules, state, last, opener, by_system)
        if kind in APPEND_STARTS:
            opener = env
            # A stand-in AI's decision is nobody's own move: its seat is told of what follows.
            by_system = kind == "clock_expired" or (
                kind == "command_given" and env.payload["seat"] in meta.get("standing_in", {})
            )
        if kind in SYSTEM_FIELDS:
            payload = env.payload
            if kind == "command_given":
                seat = payload["seat"]
                clocks.command_given(meta, seat, env.seq, env.at,
                                     control.per_move_ms if control else 0)  # fmt: skip
                if seat in meta.get("standing_in", {}):  # the stand-in played its decision
                    meta["standing_in"] = {
                        s: k for s, k in meta["standing_in"].items() if s != seat
                    }
                meta.pop("draw_offer", None)  # an offer lapses when the game moves on
            elif kind == "game_created":
                meta["created"] = dict(payload)
                meta["created_at"] = env.at
                clocks.start(meta, payload)
                control = clocks.control_of(payload)
            elif kind == "seat_joined":
                joined = {**meta.get("joined", {}), payload["seat"]: dict(payload)}
                meta["joined"] = joined
            elif kind == "seed_revealed":
                meta["revealed"] = dict(payload)
            elif kind == "seat_handed_to_ai":
                handed = {payload["seat"]: "ai:" + payload["level"]}
                meta["handed"] = {**meta.get("handed", {}), **handed}
            elif kind == "seat_taken_back":  # its player plays it again, on the clock anew
                seat = payload["seat"]
                meta["handed"] = {s: k for s, k in meta.get("handed", {}).items() if s != seat}
                meta["turns"] = {s: t for s, t in meta.get("turns", {}).items() if s != seat}
            elif kind == "position_set":  # a continued game starts from this position
                state = rules.load_state(payload["state"])
                meta["dealt"] = True
            elif kind == "vacation_taken":
                clocks.take_vacation(meta, payload["seat"], payload["days"], env.at)
            elif kind == "clock_expired":
                clocks.timed_out(meta, payload["seat"])
                if payload["action"].startswith(clocks.AI_PREFIX):
                    meta["standing_in"] = {**meta.get("standing_in", {}),
                                           payload["seat"]: payload["action"]}  # fmt: skip
            elif kind == "draw_offered":
                meta["draw_offer"] = payload["seat"]
            elif kind in ("draw_declined", "draw_accepted"):
                meta.pop("draw_offer", None)
            elif kind == "game_decided":
                meta["decided"] = {"winner": payload["winner"], "reason": payload["reason"]}
        else:
            meta["dealt"] = True
            run.append(env.event())
        last = env
    if run:
        state = rules.fold(run, state)
    if last is not None:
        _append_ended(meta, rules, state, last, opener, by_system)
        game.version, game.last_hash = last.seq, last.hash
        meta["last_at"] = last.at
    game.state, game.meta = state, meta
    return game


def _append_ended(meta: dict[str, Any], rules: Any, state: Any, last: Any, opener: Any,
                  by_system: bool) -> None:  # fmt: skip
    """The turns after the append that ``opener`` began and ``last`` ended: begun by the
    seat that opened it, or by the system (the deal, a clock, a stand-in AI)."""
    by = "system"
    if opener is not None and not by_system:
        by = opener.payload.get("seat") or "system"
    clocks.append_ended(meta, pending_of(rules, state, meta), last.seq, last.at, by)


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
