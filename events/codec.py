"""Check, encode, decode and upcast events for every registered game.

``Codec.check`` refuses an unknown type or a malformed payload before anything is
written; ``Codec.decode`` reads stored bytes back into an ``Envelope`` and upcasts old
schema versions (stored events are never rewritten).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from marshmallow import ValidationError

import games
from events.commands import CommandRefused, Commands
from events.envelope import Envelope
from events.errors import told
from events.schemas import SYSTEM_FIELDS, SYSTEM_VERSIONS, describe, fast_check, schema_for
from games.i18n import said

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class EventRejected(ValueError):
    """An event that may not be stored: unknown type or a payload of the wrong shape."""


class Codec:
    def __init__(self, registry: Mapping[str, games.Rules] | None = None) -> None:
        self.registry = dict(games.REGISTRY if registry is None else registry)
        self._schemas: dict[tuple[str, str], Any] = {}
        self._fast: dict[tuple[str, str], Callable[[Mapping[str, Any]], bool]] = {}
        self._versions: dict[tuple[str, str], int] = {}
        self._upcasters: dict[tuple[str, str, int], Upcaster] = {}
        self._by_game: dict[str, dict[str, int]] = {}  # versions(): asked at every append
        for key, rules in self.registry.items():
            declared = getattr(rules, "event_fields", {})
            clash = set(declared) & set(SYSTEM_FIELDS)
            if clash:
                raise ValueError(f"{key} declares system event types: {sorted(clash)}")
            for type_, spec in {**SYSTEM_FIELDS, **declared}.items():
                self._schemas[key, type_] = schema_for(type_, spec)
                self._fast[key, type_] = fast_check(spec)
            versions = {**SYSTEM_VERSIONS, **getattr(rules, "event_versions", {})}
            for type_ in {**SYSTEM_FIELDS, **declared}:
                self._versions[key, type_] = versions.get(type_, 1)
            for (type_, v), fn in getattr(rules, "upcasters", {}).items():
                self._upcasters[key, type_, v] = fn
        self.commands = Commands(self.registry)

    def version(self, game: str, event_type: str) -> int:
        return self._versions.get((game, event_type), 1)

    def versions(self, game: str) -> dict[str, int]:
        """Every event type's current schema version (made once per game, shared: do not
        change it)."""
        versions = self._by_game.get(game)
        if versions is None:
            versions = {t: v for (g, t), v in self._versions.items() if g == game}
            self._by_game[game] = versions
        return versions

    def check(self, game: str, event: Mapping[str, Any]) -> None:
        """Refuse anything the game has not declared, in words an operator understands."""
        if game not in self.registry:
            raise EventRejected(said("there is no game called {game!r}", game=game))
        event_type = event.get("type")
        fast = self._fast.get((game, event_type))
        if fast is None:
            raise EventRejected(
                said("{game} has no event type {event_type!r}", game=game, event_type=event_type)
            )
        visible_to = event.get("visible_to", "all")
        if not isinstance(visible_to, str):
            raise EventRejected(
                said("{event_type}: visible_to must be a string", event_type=event_type)
            )
        payload = {k: v for k, v in event.items() if k not in ("type", "visible_to")}
        if fast(payload):
            if event_type == "command_given":
                self._check_command(game, payload["command"])
            return
        try:
            self._schemas[game, event_type].load(payload)
        except ValidationError as error:
            raise EventRejected(
                said(
                    "{event_type} is malformed: {error}",
                    event_type=event_type,
                    error=describe(error),
                )
            ) from None
        raise AssertionError(f"{event_type}: the fast check and the schema disagree")

    def _check_command(self, game: str, command: Mapping[str, Any]) -> None:
        """A recorded command holds only what its game declares (the write path has
        refused anything else already; this keeps a forged one out of the store and the
        audit)."""
        if not self.commands.declares(game) or self.commands.valid(game, command):
            return
        try:
            self.commands.load(game, command)
        except CommandRefused as error:
            raise EventRejected(
                said(
                    "command_given holds a command {game} does not declare: {error}",
                    game=game,
                    error=told(error),
                )
            ) from None

    def upcast(self, game: str, env: Envelope) -> Envelope:
        """The envelope with its payload brought to the current schema version."""
        current = self.version(game, env.type)
        if env.v >= current:
            return env
        payload, v = dict(env.payload), env.v
        while v < current:
            fn = self._upcasters.get((game, env.type, v))
            if fn is None:
                raise EventRejected(
                    said("no upcaster for {type} from version {v}", type=env.type, v=v)
                )
            payload, v = fn(payload), v + 1
        if v == env.v:
            return env
        # The hash stays the stored one: it verifies the stored (old) form, kept in ``stored``.
        return Envelope(env.seq, env.type, v, env.at, env.actor, env.visible_to, payload,
                        env.prev, env.hash, env.salt, stored=env)  # fmt: skip

    def decode(self, game: str, raw: bytes | str) -> Envelope:
        return self.upcast(game, Envelope.from_bytes(raw))
