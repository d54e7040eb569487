"""The event store: one append-only stream of envelopes per game.

``append(game_id, expected_version, events, idempotency_key=None) -> new_version`` is
all-or-nothing: it checks every event against its schema, chains their hashes, and
writes them only if the stream is still at ``expected_version`` (else
``ConcurrencyError``). With an idempotency key, a retry of the same command returns the
original version and writes nothing; the same key with a different command is refused.

``InMemoryEventStore`` is the reference implementation (tests, tools); the Redis Streams
one lives in ``events.redis_store`` and passes the same contract suite.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from events.codec import Codec, EventRejected
from events.envelope import (
    GENESIS,
    SYSTEM,
    ChainError,
    Envelope,
    Unstorable,
    canonical,
    fast_canonical,
    seal_all,
    verify_chain,
)
from games.i18n import said

__all__ = [
    "Appended",
    "ConcurrencyError",
    "EventRejected",
    "EventStore",
    "IdempotencyConflict",
    "InMemoryEventStore",
    "Snapshot",
    "UnknownGame",
]


# A game's id (and so its replay's): ``secrets.token_hex`` here; any URL-safe token from
# elsewhere (an imported record), never anything that could be a path or a key pattern.
VALID_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class ConcurrencyError(Exception):
    """The stream moved on since the caller read it: reload and decide again."""

    def __init__(self, game_id: str, expected: int, actual: int, moved: bool = False) -> None:
        if moved:  # same version, other history: the caller's view of the game is stale
            text = said("game {game_id} is not as you last read it: reload it and try again",
                        game_id=game_id)  # fmt: skip
        else:
            text = said("game {game_id} is at version {actual}, not {expected}: someone moved "
                        "first", game_id=game_id, actual=actual, expected=expected)  # fmt: skip
        super().__init__(text)
        self.game_id, self.expected, self.actual = game_id, expected, actual


class IdempotencyConflict(Exception):
    """An idempotency key reused for a different command."""

    SHOWN = 40  # characters of the key the sentence repeats (a header may be kilobytes)

    def __init__(self, game_id: str, key: str) -> None:
        shown = key if len(key) <= self.SHOWN else key[: self.SHOWN] + "…"
        super().__init__(said("the idempotency key {key!r} was already used for another "
                              "command", key=shown))  # fmt: skip
        self.game_id, self.key = game_id, key


class UnknownGame(KeyError):
    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        self.game_id = game_id

    def __str__(self) -> str:
        return said("there is no game {game_id!r}", game_id=self.game_id)


@dataclass(frozen=True)
class Snapshot:
    """A folded state at ``version``, valid only for the rules it was made with."""

    version: int
    rules: str  # rules_fingerprint(game, rules version)
    state: str  # the game's own dump of its state
    meta: Mapping[str, Any] = field(default_factory=dict)  # what the system events said

    def to_bytes(self) -> bytes:
        return canonical(
            {"version": self.version, "rules": self.rules, "state": self.state, "meta": self.meta}
        )

    @staticmethod
    def from_bytes(raw: bytes | str) -> Snapshot:
        data = json.loads(raw)
        return Snapshot(data["version"], data["rules"], data["state"], data.get("meta", {}))


def rules_fingerprint(game: str, version: str) -> str:
    return hashlib.sha256(f"{game}/{version}".encode()).hexdigest()[:16]


def fingerprint(digest: Any) -> str:
    """An idempotency fingerprint from a sha256 in progress: its first 128 bits in hex are
    plenty to tell two commands sent under one key apart, and half the bytes kept."""
    return digest.hexdigest()[:32]


def fingerprint_of(events: Sequence[Mapping[str, Any]], actor: str) -> str:
    """What makes two appends "the same command": who sent it and what it writes (not
    when, not at which version)."""
    digest = hashlib.sha256()
    for event in events:
        payload = {k: v for k, v in event.items() if k not in ("type", "visible_to")}
        digest.update(canonical([actor, event["type"], event.get("visible_to", "all")]))
        digest.update(canonical(payload))
    return fingerprint(digest)


def _fingerprint_sealed(envelopes: Sequence[Envelope]) -> str:
    """``fingerprint_of`` the same events, reusing the payload JSON sealing made (and
    ``fast_canonical``: the same bytes as ``canonical`` for what the store accepts)."""
    digest = hashlib.sha256()
    for env in envelopes:
        digest.update(fast_canonical([env.actor, env.type, env.visible_to]))
        digest.update(env.payload_json or canonical(env.payload))
    return fingerprint(digest)


@dataclass(frozen=True)
class Appended:
    version: int
    envelopes: list[Envelope]  # as written (empty for a retry)
    duplicate: bool = False  # the idempotency key had been used: nothing written


class EventStore:
    """What every store does; subclasses provide the storage operations."""

    codec: Codec

    # -- the contract ---------------------------------------------------------------
    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[Mapping[str, Any]],
        idempotency_key: str | None = None,
        **kwargs: Any,
    ) -> int:
        """Append all of ``events`` or none; the new version (see the module's doc)."""
        return self.append_events(game_id, expected_version, events, idempotency_key,
                                  **kwargs).version  # fmt: skip

    def append_events(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[Mapping[str, Any]],
        idempotency_key: str | None = None,
        *,
        actor: str = SYSTEM,
        fingerprint: str | None = None,
        at: str | None = None,
    ) -> Appended:
        """``append``, also giving the envelopes as written (so the writer need not read
        them back) and whether it was a retry of an earlier append (nothing written)."""
        if not events:
            raise ValueError("append needs at least one event")
        if isinstance(expected_version, bool) or not isinstance(expected_version, int):
            raise ValueError("expected_version is a whole number")
        if idempotency_key == "":
            raise ValueError("an idempotency key may not be empty")
        game = self._game_for(game_id, expected_version, events)
        for event in events:
            self.codec.check(game, event)
        prev = self._prev_hash(game_id, expected_version)
        try:
            envelopes = seal_all(
                expected_version + 1,
                events,
                prev=prev,
                actor=actor,
                at=at,
                versions=self.codec.versions(game),
            )
        except Unstorable as error:  # never written: it would not read back as it was
            raise EventRejected(said("an event was refused: {error}", error=error)) from None
        if idempotency_key is not None and fingerprint is None:
            fingerprint = _fingerprint_sealed(envelopes)
        version, duplicate = self._write(
            game_id, game, expected_version, envelopes, idempotency_key, fingerprint
        )
        return Appended(version, [] if duplicate else envelopes, duplicate)

    def read(self, game_id: str, after: int = 0) -> list[Envelope]:
        raise NotImplementedError

    def read_for_fold(self, game_id: str, after: int = 0) -> list[Any]:
        """What folding a game needs: entries with ``seq``, ``type``, ``at``, ``hash``,
        ``payload`` and ``event()`` (a store may give lighter objects than envelopes)."""
        return self.read(game_id, after)

    def version(self, game_id: str) -> int:
        raise NotImplementedError

    def game_of(self, game_id: str) -> str | None:
        raise NotImplementedError

    def head(self, game_id: str) -> tuple[int, str]:
        """(version, hash of the last event) as the store's own record keeps them."""
        raise NotImplementedError

    def verify(self, game_id: str) -> list[Envelope]:
        """The game's events, checked: the chain holds and ends where the record says (so
        a cut-off tail is caught too). Raises ``ChainError``."""
        envelopes = self.read(game_id)
        verify_chain(envelopes)
        version, last = self.head(game_id)
        tip = envelopes[-1] if envelopes else None
        if (tip.seq if tip else 0) != version or (tip.hash if tip else GENESIS) != last:
            raise ChainError(
                said(
                    "the stream ends at event {value}, but the record says "
                    "{version}: events are missing",
                    value=tip.seq if tip else 0,
                    version=version,
                )
            )
        return envelopes

    def idempotent(self, game_id: str, key: str) -> tuple[str, int] | None:
        """(fingerprint, version) recorded for an idempotency key, if any."""
        raise NotImplementedError

    def put_snapshot(self, game_id: str, snapshot: Snapshot) -> None:
        raise NotImplementedError

    def get_snapshot(self, game_id: str) -> Snapshot | None:
        raise NotImplementedError

    def put_secret(self, game_id: str, secret: str, name: str = "secret") -> None:
        """Server-only data of a game (``secret``: seed and nonces; ``access``: the hashes
        of the seat tokens). Never part of the stream."""
        raise NotImplementedError

    def get_secret(self, game_id: str, name: str = "secret") -> str | None:
        raise NotImplementedError

    def claim_secret(self, game_id: str, secret: str, name: str, lease_ms: int) -> bool:
        """Keep ``secret`` under ``name`` only if nothing is kept there (atomic: of two
        claims at once one wins), for ``lease_ms`` (a ``put_secret`` after it keeps it for
        good). Whether this claim won."""
        raise NotImplementedError

    def drop_secret(self, game_id: str, name: str, secret: str) -> bool:
        """Forget ``name`` if it still holds ``secret`` (a claim given back). Whether it
        did."""
        raise NotImplementedError

    def tell(self, game_id: str) -> None:
        """Say on the game's live channel that something beside its stream changed (its
        match went on): the pages watching it look again. Here no one listens; the
        service's own hub is told by the write path (``WritePath.on_told``)."""

    def game_ids(self) -> Iterator[str]:
        """Every game with at least one event."""
        raise NotImplementedError

    # -- helpers shared by the implementations ----------------------------------------
    def _game_for(self, game_id: str, expected: int, events: Sequence[Mapping[str, Any]]) -> str:
        if expected == 0:
            first = events[0]
            if first.get("type") != "game_created" or not isinstance(first.get("game"), str):
                raise EventRejected(said("a game's first event is game_created, naming the game"))
            return first["game"]
        if any(e.get("type") == "game_created" for e in events):
            raise EventRejected(said("game_created can only be a game's first event"))
        game = self.game_of(game_id)
        if game is None:
            raise UnknownGame(game_id)
        return game

    def _prev_hash(self, game_id: str, expected: int) -> str:
        if expected == 0:
            return GENESIS
        last = self.read(game_id, after=expected - 1)
        # Stream shorter than expected: the write will refuse with the real version.
        return last[0].hash if last else GENESIS

    def _write(
        self,
        game_id: str,
        game: str,
        expected: int,
        envelopes: list[Envelope],
        key: str | None,
        fingerprint: str | None,
    ) -> tuple[int, bool]:
        """(version, whether the idempotency key had been used: nothing written)."""
        raise NotImplementedError


class InMemoryEventStore(EventStore):
    """Streams in a dict; thread-safe; the reference for the contract tests."""

    def __init__(self, codec: Codec | None = None) -> None:
        self.codec = codec or Codec()
        self._lock = threading.Lock()
        self._streams: dict[str, list[Envelope]] = {}
        self._games: dict[str, str] = {}
        self._heads: dict[str, tuple[int, str]] = {}  # kept apart, like Redis's meta hash
        self._idem: dict[tuple[str, str], tuple[str, int]] = {}
        self._snaps: dict[str, Snapshot] = {}
        self._secrets: dict[tuple[str, str], str] = {}
        self._leases: dict[tuple[str, str], float] = {}  # claimed secrets: until (monotonic)
        self.feed: list[tuple[str, int]] = []  # (game, last seq) per append, in order

    def read(self, game_id: str, after: int = 0) -> list[Envelope]:
        with self._lock:
            stream = self._streams.get(game_id, [])
            game = self._games.get(game_id)
            return [self.codec.upcast(game, e) for e in stream[after:]] if game else []

    def version(self, game_id: str) -> int:
        with self._lock:
            return len(self._streams.get(game_id, ()))

    def game_of(self, game_id: str) -> str | None:
        return self._games.get(game_id)

    def head(self, game_id: str) -> tuple[int, str]:
        return self._heads.get(game_id, (0, GENESIS))

    def idempotent(self, game_id: str, key: str) -> tuple[str, int] | None:
        return self._idem.get((game_id, key))

    def _write(self, game_id, game, expected, envelopes, key, fingerprint) -> tuple[int, bool]:
        with self._lock:
            if key is not None and (game_id, key) in self._idem:
                recorded, version = self._idem[game_id, key]
                if recorded != fingerprint:
                    raise IdempotencyConflict(game_id, key)
                return version, True
            stream = self._streams.get(game_id, [])
            if len(stream) != expected:
                raise ConcurrencyError(game_id, expected, len(stream))
            if (stream[-1].hash if stream else GENESIS) != envelopes[0].prev:
                raise ConcurrencyError(game_id, expected, len(stream), moved=True)
            self._streams[game_id] = [*stream, *envelopes]
            self._games.setdefault(game_id, game)
            version = envelopes[-1].seq
            self._heads[game_id] = (version, envelopes[-1].hash)
            if key is not None:
                self._idem[game_id, key] = (fingerprint, version)
            self.feed.append((game_id, version))
            return version, False

    def put_snapshot(self, game_id: str, snapshot: Snapshot) -> None:
        self._snaps[game_id] = snapshot

    def get_snapshot(self, game_id: str) -> Snapshot | None:
        return self._snaps.get(game_id)

    def put_secret(self, game_id: str, secret: str, name: str = "secret") -> None:
        with self._lock:
            self._secrets[game_id, name] = secret
            self._leases.pop((game_id, name), None)  # kept for good, as Redis's SET does

    def get_secret(self, game_id: str, name: str = "secret") -> str | None:
        with self._lock:
            self._expire(game_id, name)
            return self._secrets.get((game_id, name))

    def claim_secret(self, game_id: str, secret: str, name: str, lease_ms: int) -> bool:
        with self._lock:
            self._expire(game_id, name)
            if (game_id, name) in self._secrets:
                return False
            self._secrets[game_id, name] = secret
            self._leases[game_id, name] = time.monotonic() + lease_ms / 1000
            return True

    def drop_secret(self, game_id: str, name: str, secret: str) -> bool:
        with self._lock:
            if self._secrets.get((game_id, name)) != secret:
                return False
            del self._secrets[game_id, name]
            self._leases.pop((game_id, name), None)
            return True

    def _expire(self, game_id: str, name: str) -> None:
        """Forget a claim whose lease ran out (under the lock)."""
        until = self._leases.get((game_id, name))
        if until is not None and time.monotonic() >= until:
            self._secrets.pop((game_id, name), None)
            del self._leases[game_id, name]

    def game_ids(self) -> Iterator[str]:
        return iter(list(self._streams))
