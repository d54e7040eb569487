"""The write path, without Flask: create a game, take a seat, submit a command.

Every write is load → decide → append with the expected version → only then follow-up
work (``on_appended``, e.g. queue an AI move). Bad input and rules errors append nothing.
A conflicting append reloads and decides once more, then reports the conflict.
"""

from __future__ import annotations

import copy
import hashlib
import json
import secrets as _secrets
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import games
from events import clocks, matches, metrics, table
from events.commands import CommandRefused
from events.envelope import canonical
from events.errors import Forbidden, Invalid, NotFound, told
from events.fairness import CURRENT, commitment, generator_of, rng_for
from events.offboard import OffBoard, over_text
from events.projector import GameCache, LoadedGame, Lru, apply, save_snapshot
from events.store import ConcurrencyError, EventStore, IdempotencyConflict
from events.store import fingerprint as store_fingerprint
from games.base import Rules, RulesError, match_of
from games.i18n import said

SNAPSHOT_EVERY = 64  # events between snapshots of a running game (and one at the end)
MAX_NONCE_LENGTH = 200


@dataclass
class Submitted:
    version: int
    events: list[dict[str, Any]] = field(default_factory=list)
    duplicate: bool = False  # a retry of a command already applied
    game: LoadedGame | None = None  # the game after this command (None for a retry)
    stored: list[Any] = field(default_factory=list)  # the envelopes this command wrote


@dataclass
class WritePath(OffBoard):
    """The write path over one event store (tests pass an in-memory one); what is played
    off the board (clocks, vacation, draws) is ``OffBoard``'s."""

    store: EventStore
    registry: Mapping[str, Any] = field(default_factory=lambda: dict(games.REGISTRY))
    token: Callable[[int], str] = _secrets.token_hex  # CSPRNG for seeds and game ids
    on_appended: Callable[[LoadedGame, list[dict[str, Any]]], None] | None = None
    on_told: Callable[[str], None] | None = None  # a game's page must look again (``tell``)
    ai_levels: Collection[str] | None = None  # None: any ai:<level> is accepted
    games: GameCache = field(default_factory=GameCache)  # running games, to read only tails
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)  # tests inject their own
    _kept: Lru = field(default_factory=lambda: Lru(4096))  # token hashes, dealt seeds

    def now(self) -> str:
        """The time stamped on the events written now (the envelope's ``at``)."""
        return clocks.iso(round(self.clock().timestamp() * 1000))

    def now_ms(self) -> int:
        return round(self.clock().timestamp() * 1000)

    # -- create ------------------------------------------------------------------------
    def create_game(
        self,
        game: str,
        options: Mapping[str, Any] | None,
        seats: Mapping[str, str],
        access: Mapping[str, str] | None = None,
        rated: bool = False,
        clock: Mapping[str, Any] | None = None,
        extra: Mapping[str, Any] | None = None,
        match: bool = False,
    ) -> str:
        """A new game; ``seats`` maps every seat to ``human`` or ``ai:<level>``. AI seats
        are taken at once; the cards are dealt when the last seat is taken. ``access``
        (seat → hash of its token) is kept server-side before the game exists. ``clock``
        is a time control (``events.clocks.parse``); ``extra`` further ``game_created``
        fields (``rematch_of``, ``seek``, ``match``). ``match``: the first game of a match
        (``events.matches``), for a game whose package supports matches."""
        rules, options, clock = self.check_new_game(game, options, seats, rated, clock, match)
        fields: dict[str, Any] = {}
        if match:
            fields[matches.FIELD] = matches.first_field(rules)
        if rated:
            fields["rated"] = True
        if clock is not None:
            fields["clock"] = clock
        fields.update(extra or {})
        game_id = self._open(game, rules, options, seats, access, fields)
        for seat, kind in seats.items():
            if kind != "human":
                self.join(game_id, seat, player=kind)
        return game_id

    def check_new_game(
        self,
        game: str,
        options: Mapping[str, Any] | None,
        seats: Mapping[str, str],
        rated: bool = False,
        clock: Mapping[str, Any] | None = None,
        match: bool = False,
    ) -> tuple[Any, dict[str, Any], dict[str, Any] | None]:
        """(rules, options, clock as stored) of a game ``create_game`` would make, or the
        refusal it would give (NotFound for an unknown game, the game's RulesError for its
        options, else Invalid): writes
        nothing, so a seek can be checked long before its game exists."""
        rules = self.registry.get(game)
        if rules is None:
            raise NotFound(said("there is no game called {game!r}", game=game))
        options = dict(options or {})
        rules.setup(options, rng_for("check", {}, 0))  # refuses bad options with a sentence
        if match:
            parts = match_of(rules)
            if parts is None:
                raise Invalid(
                    said(
                        "{name} is not played as a match of linked games: create "
                        "a single game (no match option)",
                        name=rules.name,
                    )
                )
            parts.check(options)
        if set(seats) != set(rules.seats):
            raise Invalid(
                said(
                    "{name} has the seats {seats}", name=rules.name, seats=" and ".join(rules.seats)
                )
            )
        for seat, kind in seats.items():
            if kind != "human" and not (isinstance(kind, str) and kind.startswith("ai:")):
                raise Invalid(
                    said(
                        "seat {seat} is for a human or an ai:<level>, not {kind!r}",
                        seat=seat,
                        kind=kind,
                    )
                )
            level = kind[3:] if kind != "human" else None
            if level is not None:
                self._check_level(level)
        if rated and any(kind != "human" for kind in seats.values()):
            raise Invalid(said("games against the AI are not rated"))
        try:
            clock = clocks.parse(clock)
        except ValueError as error:
            raise Invalid(told(error)) from None
        if clock is not None:
            on_timeout = clocks.control_of({"clock": clock})
            if on_timeout.ai_level is not None:
                self._check_level(on_timeout.ai_level)
                if rated:  # else a player could let a strong AI play for them on purpose
                    raise Invalid(
                        said(
                            "in a rated game a seat whose time runs out forfeits: "
                            'choose on_timeout "forfeit"'
                        )
                    )
        return rules, options, clock

    # -- join --------------------------------------------------------------------------
    def join(
        self, game_id: str, seat: str, player: str | None = None, nonce: str | None = None
    ) -> int:
        """Take a seat, optionally adding a nonce to the game's chance. Deals when full."""
        game = self._load(game_id)
        if seat not in game.seats:
            raise NotFound(
                said(
                    "there is no seat {seat!r}; the seats are {seats}",
                    seat=seat,
                    seats=", ".join(game.seats),
                )
            )
        if seat in game.joined:
            raise Forbidden(said("the {seat} seat is already taken", seat=seat))
        if nonce is not None and (not isinstance(nonce, str) or len(nonce) > MAX_NONCE_LENGTH):
            raise Invalid(
                said(
                    "a nonce is a string of at most {MAX_NONCE_LENGTH} characters",
                    MAX_NONCE_LENGTH=MAX_NONCE_LENGTH,
                )
            )
        events = table.join(game.table, seat, player,
                            None if nonce is None else commitment(nonce))  # fmt: skip
        secret = self._secret(game)
        if nonce is not None:
            secret["nonces"][seat] = nonce
            self.store.put_secret(game_id, json.dumps(secret))
        if len(game.open_seats) == 1:  # this seat was the last one: deal
            rng = rng_for(secret["seed"], secret["nonces"], game.version + 2,
                          generator_of(game.created))  # fmt: skip
            events += self._opening(game, rng)
        version = self.store.append(game_id, game.version, events, at=self.now())
        self._after(game, events)
        return version

    # -- play --------------------------------------------------------------------------
    def submit(
        self,
        game_id: str,
        seat: str,
        command: Mapping[str, Any],
        idempotency_key: str | None = None,
        expected_version: int | None = None,
        by: str | None = None,
    ) -> Submitted:
        """Decide a seat's command against the current position and append its events.
        ``by``: who gives it, the seat's player (``table.PLAYER``: the API always says so)
        or the computer (``ai:<level>``: the AI task); only the one that plays the seat
        now may (``events.table``). None: whoever plays it now (tools and tests).

        The first try decides on the position this process remembers, without reading
        the stream: the append's version check refuses it if the game has moved on. Any
        refusal of a remembered position is looked at again on the stream's own."""
        game = self.games.remembered(game_id)
        fresh = game is None
        if game is None:
            game = self._load(game_id)
        key = game.rules.key
        started = time.perf_counter()
        result = "error"
        try:
            # Only the shape the game declares goes further (and into the stream): anything
            # else is refused here, naming what is wrong, before the rules or the store see
            # it.
            command = self.store.codec.commands.load(game.rules.key, command)
            fingerprint = store_fingerprint(
                hashlib.sha256(canonical({"seat": seat, "command": command}))
            )
            if self._overdue(game):  # a clock ran out and the sweep has not come by yet
                self.expire(game_id)
                game, fresh = self._load(game_id), True
            done = self._settle(game, fresh, game_id, seat, command, fingerprint,
                                idempotency_key, expected_version, by)  # fmt: skip
            result = "accepted"
            if done.duplicate:
                metrics.RETRIES.labels(key, "duplicate").inc()
            return done
        except ConcurrencyError:
            result = "conflict"
            raise
        except (RulesError, table.Refused, CommandRefused, IdempotencyConflict, Invalid,
                Forbidden, NotFound):  # fmt: skip
            result = "refused"
            raise
        finally:
            metrics.COMMANDS.labels(key, result).inc()
            metrics.COMMAND_SECONDS.labels(key).observe(time.perf_counter() - started)

    def _settle(self, game: LoadedGame, fresh: bool, game_id: str, seat: str,
                command: Mapping[str, Any], fingerprint: str, idempotency_key: str | None,
                expected_version: int | None, by: str | None) -> Submitted:  # fmt: skip
        """``submit``'s decide-and-append, with its one look again on a refusal."""
        key = game.rules.key
        reloaded = False
        while True:
            try:
                if expected_version is not None and expected_version != game.version:
                    raise ConcurrencyError(game_id, expected_version, game.version)
                events = self._decide(game, seat, command, by)
                appended = self.store.append_events(
                    game_id,
                    game.version,
                    events,
                    idempotency_key,
                    actor=seat,
                    fingerprint=fingerprint,
                    at=self.now(),
                )
            except (RulesError, table.Refused, ConcurrencyError) as refused:
                if not fresh:  # a remembered position is not yet a conflict: look again
                    metrics.RETRIES.labels(key, "reload").inc()
                    game, fresh = self._load(game_id), True
                    continue
                if isinstance(refused, ConcurrencyError):
                    metrics.CONFLICTS.labels(key).inc()
                # A retry of a command that went through is refused by the position it
                # moved on (or by the version it was sent with): answer it as the retry.
                retry = self._retry_of(game_id, idempotency_key, fingerprint)
                if retry is not None:
                    return retry
                if (
                    not isinstance(refused, ConcurrencyError)
                    or reloaded
                    or (expected_version is not None)
                ):
                    raise
                metrics.RETRIES.labels(key, "reload").inc()
                game, reloaded = self._load(game_id), True  # someone moved first: once more
                continue
            if appended.duplicate:
                return self._original(game_id, appended.version)
            game = self._after(game, events, appended.envelopes)
            return Submitted(appended.version, events, game=game, stored=appended.envelopes)

    def _retry_of(self, game_id: str, key: str | None, fingerprint: str) -> Submitted | None:
        """The answer to a retry of an applied command (None if ``key`` is new)."""
        seen = None if key is None else self.store.idempotent(game_id, key)
        if seen is None:
            return None
        if seen[0] != fingerprint:
            raise IdempotencyConflict(game_id, key or "")
        return self._original(game_id, seen[1])

    def _original(self, game_id: str, version: int) -> Submitted:
        """The answer a command that ended at ``version`` was given: its events, from its
        ``command_given`` on (a retry gets what the lost answer said)."""

        def starts(events: list) -> list[int]:
            given = "command_given"
            return [i for i, e in enumerate(events) if e.seq <= version and e.type == given]

        tail = self.store.read(game_id, after=max(0, version - 64))
        if not starts(tail) and version > 64:
            tail = self.store.read(game_id)
        found = starts(tail)
        batch = [e for e in tail[found[-1] :] if e.seq <= version] if found else []
        return Submitted(version, [e.event() for e in batch], duplicate=True, stored=batch)

    # -- the AI on demand ----------------------------------------------------------------
    def hint_position(self, game_id: str, seat: str) -> int:
        """The version a hint for ``seat`` is asked at, once the asking is allowed: unrated
        games only, a seat that owes a decision its player makes (the AI works it out on a
        worker: ``workers.hints``)."""
        game = self._load(game_id)
        if game.rated:
            raise Forbidden(said("hints are for unrated games only"))
        refused = table.refusal(game.table, seat, table.PLAYER)
        if refused:
            raise table.Refused(refused)
        if seat not in game.pending:
            raise table.Refused(
                said("you have no decision to make now, so there is nothing to hint")
            )
        return game.version

    def _check_level(self, level: str) -> None:
        if self.ai_levels is not None and level not in self.ai_levels:
            known = ", ".join(sorted(self.ai_levels))
            raise Invalid(
                said(
                    "there is no AI level {level!r}; the levels are: {known}",
                    level=level,
                    known=known,
                )
            )

    # -- helpers -------------------------------------------------------------------------
    def _load(self, game_id: str) -> LoadedGame:
        try:
            return self.games.load(self.store, game_id, self.registry)
        except KeyError:
            raise NotFound(said("there is no game {game_id!r}", game_id=game_id)) from None

    def access(self, game_id: str) -> dict[str, str]:
        """Seat → hash of its token (empty when the game was made without tokens). Set
        once, before the game exists, and never changed: kept in memory once read."""
        found = self._kept.get(("access", game_id))
        if found is None:
            raw = self.store.get_secret(game_id, "access")
            found = {} if raw is None else json.loads(raw)
            if raw is not None:
                self._kept.put(("access", game_id), found)
        return dict(found)

    def load(self, game_id: str) -> LoadedGame:
        return self._load(game_id)

    def _secret(self, game: LoadedGame) -> dict[str, Any]:
        """Seed and nonces. They change no more once the cards are dealt, so from then on
        this process keeps them (in its memory only, like the store's own copy)."""
        found = self._kept.get(("secret", game.game_id)) if game.dealt else None
        if found is None:
            raw = self.store.get_secret(game.game_id)
            if raw is None:
                raise NotFound(said("game {game_id!r} has lost its seed", game_id=game.game_id))
            found = json.loads(raw)
            if game.dealt:
                self._kept.put(("secret", game.game_id), found)
        return copy.deepcopy(found)

    def _decide(self, game: LoadedGame, seat: str, command: Mapping[str, Any],
                by: str | None = None) -> list:  # fmt: skip
        if seat not in game.seats:
            raise NotFound(
                said(
                    "there is no seat {seat!r}; the seats are {seats}",
                    seat=seat,
                    seats=", ".join(game.seats),
                )
            )
        if game.outcome is not None:
            raise table.Refused(over_text(game))
        if not game.dealt:
            waiting = ", ".join(game.open_seats)
            raise table.Refused(
                said(
                    "the game has not started: waiting for {waiting} to take a seat",
                    waiting=waiting,
                )
            )
        if by is None:
            by = table.played_by(game.table, seat)
        refused = table.refusal(game.table, seat, by)
        if refused:
            raise table.Refused(refused)
        secret = self._secret(game)
        # The rng of a command is the one of its command_given event's position, from the
        # generator the game was made with (a game made before games named one: the old).
        rng = rng_for(secret["seed"], secret["nonces"], game.version + 1,
                      generator_of(game.created))  # fmt: skip
        events = game.rules.decide(game.state, seat, command, rng)
        state = game.rules.fold(events, game.state)
        given = {"type": "command_given", "visible_to": seat, "seat": seat,
                 "command": dict(command), "by": by}  # fmt: skip
        events = [given, *events]
        if game.rules.outcome(state) is not None:
            events = [*events, self._revealed(game)]
        return events

    def _after(
        self, game: LoadedGame, events: list[dict[str, Any]], stored: list[Any] | None = None
    ) -> LoadedGame:
        """Follow-up work, only once the events are stored; the game as it is now."""
        before = game.version
        if stored is None:
            stored = self.store.read(game.game_id, after=before)
        game = apply(game, stored)
        self.games.keep(game)
        if game.outcome is not None or game.version // SNAPSHOT_EVERY > before // SNAPSHOT_EVERY:
            save_snapshot(self.store, game)
        if self.on_appended is not None:
            self.on_appended(game, events)
        if any(event.get("type") == "seed_revealed" for event in events):
            matches.on_end(self, game)  # a game of a match ended: the next one, if owed
        return game

    def tell(self, game_id: str) -> None:
        """The pages watching ``game_id`` look again: something beside its stream changed
        (its match: the next game made, the result decided in a later game)."""
        self.store.tell(game_id)
        if self.on_told is not None:
            self.on_told(game_id)

    # -- a game continued from a position of another ------------------------------------
    def _open(
        self,
        game: str,
        rules: Rules,
        options: Mapping[str, Any],
        seats: Mapping[str, str],
        access: Mapping[str, str] | None,
        fields: Mapping[str, Any],
        position: Mapping[str, Any] | None = None,
    ) -> str:
        """A new stream with its ``game_created``: a fresh id and seed (kept secret, its
        commitment public), the seats' token hashes and, for a continuation, the position
        it starts from, kept server-side before the game exists."""
        game_id = self.token(9)
        seed = self.token(32)
        self.store.put_secret(game_id, json.dumps({"seed": seed, "nonces": {}}))
        if position is not None:
            self.store.put_secret(game_id, json.dumps(dict(position)), "position")
        if access is not None:
            self.store.put_secret(game_id, json.dumps(dict(access)), "access")
        created = {
            "type": "game_created",
            "visible_to": "all",
            "game": game,
            "rules_version": rules.version,
            "options": dict(options),
            "seats": dict(seats),
            "seed_sha256": commitment(seed),
            "rng": CURRENT,  # the generator of its chance (docs/rng.md)
            **fields,
        }
        self.store.append(game_id, 0, [created], at=self.now())
        return game_id

    def continue_game(
        self,
        key: str,
        options: Mapping[str, Any],
        seat: str,
        level: str,
        view: Mapping[str, Any],
        origin: Mapping[str, Any],
        access: Mapping[str, str] | None = None,
    ) -> str:
        """A new game of ``key`` against the AI at ``level``, ``seat`` played by a human,
        from the position ``seat`` saw (``view``, checked by the caller: see
        ``replays.continuation``). The stream is ``game_created`` (``from``: ``origin``),
        the AI's ``seat_joined``, and, when the human takes the seat, ``position_set``
        instead of the deal: what ``seat`` saw, the rest re-dealt at random from the new
        game's own chance, with the human's nonce in it (see ``_opening``)."""
        rules = self.registry[key]
        self._check_level(level)
        opponent = next(s for s in rules.seats if s != seat)
        seats = {seat: "human", opponent: f"ai:{level}"}
        position = {"seat": seat, "view": dict(view)}
        game_id = self._open(key, rules, dict(options), seats, access, {"from": dict(origin)},
                             position=position)  # fmt: skip
        self.join(game_id, opponent, player=seats[opponent])
        return game_id

    def _opening(self, game: LoadedGame, rng: Any) -> list[dict[str, Any]]:
        """The events that start a game once its seats are taken: the rules' deal, or for
        a continued game its position, re-dealt with ``rng`` (the deal's own chance)."""
        if not game.created.get("from"):
            return game.rules.setup(game.created.get("options", {}), rng)
        raw = self.store.get_secret(game.game_id, "position")
        if raw is None:
            raise NotFound(
                said(
                    "game {game_id!r} has lost the position it continues from", game_id=game.game_id
                )
            )
        position = json.loads(raw)
        state = self._knowledge(game.rules).determinize(position["view"], position["seat"], rng)
        return [{"type": "position_set", "visible_to": "server",
                 "state": game.rules.dump_state(state)}]  # fmt: skip

    @staticmethod
    def _knowledge(rules: Any) -> Any:
        """The game's knowledge (``games.base.Knowledge``): its ``determinize`` samples a
        position from a seat's view."""
        knowledge = getattr(rules, "knowledge", None)
        if knowledge is None:
            raise Invalid(
                said(
                    "{name} games cannot be continued from a replay: the game "
                    "cannot rebuild a position from what a seat saw",
                    name=rules.name,
                )
            )
        return knowledge
