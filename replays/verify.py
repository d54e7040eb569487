"""Auditing a record: does it hold, and if not, where exactly does it first go wrong?

    verify(record, registry=None) -> Report

The checks run in order and stop at the first divergence:

1. ``chain``: every event's ``seq`` is its position, its ``prev`` is the previous event's
   hash, its ``hash`` recomputes from its body (salt included); ``header.events`` and
   ``header.head`` agree with the events.
2. ``seed``: the revealed seed (the last event, ``seed_revealed``) matches the commitment
   of ``game_created.seed_sha256``; ``nonces``: every seat that committed to a nonce
   (``seat_joined.nonce_sha256``) revealed one that matches, and no other nonce appears;
   ``header``: every header field that the events state (game, options, seats, players,
   times, seed, nonces …) says what they say.
3. ``rules``: the rules are re-run, with the random generator ``game_created.rng`` names
   (``cpython-random`` when it names none: a game made before games named theirs; one
   this server does not know is refused, docs/rng.md). The deal is re-derived with
   ``setup(options, rng_for(seed, nonces, first setup seq))``; for every ``command_given``
   at seq n, ``decide(state, seat, command, rng_for(seed, nonces, n))`` must give exactly the
   recorded events that follow it (type, visible_to, payload, and the command's actor and
   time); ``outcome``: the game's outcome at the end is the header's result.
   ``position``: a game continued from a replay (``game_created.from``) has no deal; it
   starts from the position its ``position_set`` declares (written with the last seat's
   join), which is taken as given: the audit checks everything after it. (That position
   re-deals what the continuing seat could not see, with ``rng_for(seed, nonces, its
   seq)``; holding the original replay, one can re-derive it with the AI's
   ``determinize`` from that seat's view at the step ``from`` names.)

4. ``clocks``: what happened off the board is checked against the game as folded so far
   and the times the stream records: a ``clock_expired`` only at or after the seat's
   deadline (its turn's start, the move's time, its bank and its vacations, as
   ``events.clocks`` counts them), with the action the game was created with, and a
   forfeit followed by ``game_decided`` for the other seat; vacation only within the
   allowance; a draw answered only when the other seat offered it, an accepted one
   followed by ``game_decided`` as a draw.

A divergence names the ``step`` (the event's seq; 0 is the header line), the ``field`` (a
dotted path: ``hash``, ``prev``, ``payload.cards.1``, ``header.result`` …), what was
``expected`` and what was ``found``, and a sentence. A broken hash cannot say what was
edited, so the re-run's own first divergence, when it comes at or after that step, is
attached as the ``cause`` (e.g. ``payload.cards.0``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import games
from events import clocks, table
from events.codec import EventRejected
from events.envelope import GENESIS, SYSTEM, Envelope, canonical, chain_hash
from events.errors import told
from events.fairness import GENERATORS, LEGACY, commitment, generator_of, rng_for
from events.projector import LoadedGame, apply
from events.schemas import SYSTEM_FIELDS
from games.i18n import said
from replays.codec import codec, upcast_all
from replays.record import DERIVED_FIELDS, Record, declared_of, result_of

ABSENT = None  # what ``found`` / ``expected`` say for a value that is not there
# Events written off the board, checked against the folded turns, clocks and offers.
# The actions off the board the audit re-runs with the table's rules (``events.table``).
TABLE_ACTIONS = frozenset({"seat_handed_to_ai", "seat_taken_back", "vacation_taken",
                           "clock_expired", "draw_offered", "draw_declined",
                           "draw_accepted"})  # fmt: skip
CLOCK_ACTIONS = frozenset({"vacation_taken", "clock_expired"})
DRAW_ACTIONS = {"draw_offered": "offer", "draw_declined": "decline", "draw_accepted": "accept"}


@dataclass(frozen=True)
class Divergence:
    """The first place where a record and what it should be part ways."""

    check: str
    step: int  # the event's seq; 0 for the header line
    field: str
    expected: Any
    found: Any
    sentence: str
    cause: Divergence | None = None  # for a broken hash: what the re-run finds there

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Report:
    ok: bool
    checks: list[str] = field(default_factory=list)  # the checks passed, in order
    divergence: Divergence | None = None
    notes: list[str] = field(default_factory=list)
    events: int = 0

    @property
    def sentence(self) -> str:
        if self.divergence is not None:
            return self.divergence.sentence
        return said("The record holds: its {events} events are chained, the seed and "
                    "nonces match their commitments, and re-running the rules over every "
                    "command gives the same events and the same result.",
                    events=self.events)  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "sentence": self.sentence,
            "checks": list(self.checks),
            "divergence": None if self.divergence is None else self.divergence.to_dict(),
            "notes": list(self.notes),
            "events": self.events,
        }


class _Diverged(Exception):
    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.sentence)
        self.divergence = divergence


def _fail(check: str, step: int, field_: str, expected: Any, found: Any, sentence: str):
    raise _Diverged(Divergence(check, step, field_, expected, found, sentence))


def first_difference(expected: Any, found: Any, path: str) -> tuple[str, Any, Any] | None:
    """The first (dotted path, expected, found) where two JSON values differ, or None."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in sorted(set(expected) | set(found), key=str):
            if key not in found:
                return f"{path}.{key}", expected[key], ABSENT
            if key not in expected:
                return f"{path}.{key}", ABSENT, found[key]
            diff = first_difference(expected[key], found[key], f"{path}.{key}")
            if diff:
                return diff
        return None
    if isinstance(expected, list) and isinstance(found, list):
        for i, (a, b) in enumerate(zip(expected, found, strict=False)):
            diff = first_difference(a, b, f"{path}.{i}")
            if diff:
                return diff
        if len(expected) != len(found):
            i = min(len(expected), len(found))
            return (f"{path}.{i}", expected[i] if i < len(expected) else ABSENT,
                    found[i] if i < len(found) else ABSENT)  # fmt: skip
        return None
    if type(expected) is not type(found) or expected != found:
        return path, expected, found
    return None


def _json(value: Any) -> Any:
    """As it would be stored (tuples become lists …)."""
    return json.loads(canonical(value))


def _show(value: Any) -> str:
    text = "absent" if value is ABSENT else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


# -- 1. the chain -------------------------------------------------------------------------
def _chain(record: Record) -> None:
    prev = GENESIS
    for i, env in enumerate(record.events):
        seq = i + 1
        if env.seq != seq:
            _fail(
                "chain",
                seq,
                "seq",
                seq,
                env.seq,
                said(
                    "Event {seq} is missing or out of place: the event in its place says "
                    "it is event {seq_}.",
                    seq=seq,
                    seq_=env.seq,
                ),
            )
        if env.prev != prev:
            _fail(
                "chain",
                seq,
                "prev",
                prev,
                env.prev,
                said(
                    "Event {seq} ({type}) does not link to the event before it: its prev "
                    "is not the previous event's hash.",
                    seq=seq,
                    type=env.type,
                ),
            )
        recomputed = chain_hash(env.prev, env.body())
        if recomputed != env.hash:
            _fail(
                "chain",
                seq,
                "hash",
                recomputed,
                env.hash,
                said(
                    "Event {seq} ({type}) was altered: its hash does not match its content.",
                    seq=seq,
                    type=env.type,
                ),
            )
        prev = env.hash
    n, header = len(record.events), record.header
    if header.get("events") != n:
        claimed = header.get("events")
        step = (
            min(n, claimed) + 1 if isinstance(claimed, int) and not isinstance(claimed, bool) else 0
        )
        _fail("chain", max(step, 0), "header.events", n, claimed,
              said("The header says the game has {claimed} events but the record holds {n}: "
                   "events are missing from its end.", claimed=claimed, n=n)
              if isinstance(claimed, int) and claimed > n else
              said("The header says the game has {claimed} events but the record holds {n}: "
                   "the count is wrong.", claimed=claimed, n=n))  # fmt: skip
    if header.get("head") != prev:
        _fail(
            "chain",
            n,
            "header.head",
            prev,
            header.get("head"),
            said("The header's head hash is not the hash of the last event."),
        )


# -- 2. seed, nonces, header --------------------------------------------------------------
def _seed(record: Record) -> None:
    events = record.events
    first, last = events[0], events[-1]
    if first.type != "game_created":
        _fail(
            "seed",
            1,
            "type",
            "game_created",
            first.type,
            said("The record does not start with game_created."),
        )
    if last.type != "seed_revealed":
        _fail(
            "seed",
            last.seq,
            "type",
            "seed_revealed",
            last.type,
            said(
                "The record does not end with the revealed seed (seed_revealed): the game "
                "is not over, or its end was cut off."
            ),
        )
    seed = last.payload.get("seed")
    promised = first.payload.get("seed_sha256")
    found = commitment(seed) if isinstance(seed, str) else ABSENT
    if found != promised:
        _fail(
            "seed",
            last.seq,
            "payload.seed",
            promised,
            found,
            said(
                "The revealed seed (event {seq}) does not match the commitment published "
                "at the start (game_created.seed_sha256): its sha256 differs.",
                seq=last.seq,
            ),
        )


def _nonces(record: Record) -> None:
    events = record.events
    last = events[-1]
    committed: dict[str, Any] = {}
    for env in events:
        if env.type == "seat_joined" and env.payload.get("nonce_sha256") is not None:
            committed[str(env.payload.get("seat"))] = env.payload["nonce_sha256"]
    nonces = last.payload.get("nonces")
    if not isinstance(nonces, dict):
        _fail(
            "nonces",
            last.seq,
            "payload.nonces",
            "an object",
            nonces,
            said("The revealed nonces are not an object of seat → nonce."),
        )
    for seat in sorted(committed):
        nonce = nonces.get(seat)
        if not isinstance(nonce, str):
            _fail(
                "nonces",
                last.seq,
                f"payload.nonces.{seat}",
                committed[seat],
                ABSENT,
                said(
                    "The {seat} seat committed to a nonce when it joined, but its nonce "
                    "was not revealed.",
                    seat=seat,
                ),
            )
        if commitment(nonce) != committed[seat]:
            _fail(
                "nonces",
                last.seq,
                f"payload.nonces.{seat}",
                committed[seat],
                commitment(nonce),
                said(
                    "The revealed nonce of the {seat} seat does not match the commitment "
                    "it made when it joined (seat_joined.nonce_sha256).",
                    seat=seat,
                ),
            )
    for seat in sorted(set(nonces) - set(committed)):
        _fail(
            "nonces",
            last.seq,
            f"payload.nonces.{seat}",
            ABSENT,
            nonces[seat],
            said(
                "A nonce is revealed for the {seat} seat, which never committed to one.", seat=seat
            ),
        )


def _header(record: Record) -> None:
    declared = declared_of(record.events)
    for name in DERIVED_FIELDS:
        if name not in declared:
            continue
        diff = first_difference(_json(declared[name]), record.header.get(name), f"header.{name}")
        if diff:
            path, expected, found = diff
            _fail(
                "header",
                0,
                path,
                expected,
                found,
                said(
                    "The header's {path} is {found}, but the events say {expected}.",
                    path=path[7:],
                    found=_show(found),
                    expected=_show(expected),
                ),
            )


# -- 3. the rules, re-run -----------------------------------------------------------------
class _Rerun:
    def __init__(self, record: Record, rules: Any, seed: str, nonces: Mapping[str, str],
                 generator: str = LEGACY):  # fmt: skip
        self.rules, self.seed, self.nonces = rules, seed, dict(nonces)
        self.generator = generator  # the game's random generator (docs/rng.md)
        self.key = record.header.get("game") or record.events[0].payload.get("game")
        self.codec = codec({self.key: rules})
        self.events = upcast_all(self.key, record.events, self.codec)
        self.n = len(self.events)
        self.checked: set[str] = set()
        self.said_who = False  # a command said who gave it: every later one must
        # Has the computer played a seat (from the start, handed over, standing in)? Until
        # it has, a player's command needs no fold of the table to be checked.
        seats = self.events[0].payload.get("seats") if self.events else None
        self.computer_played = (
            isinstance(seats, dict)
            and any(isinstance(k, str) and k.startswith(table.AI_PREFIX) for k in seats.values())
        ) or any(e.type == "clock_expired" for e in self.events)

    @property
    def continued(self) -> bool:
        """A game continued from a replay: it starts from a declared position."""
        return bool(self.events[0].payload.get("from"))

    def declared(self, i: int, at: str) -> Any:
        """The position a continued game declares (``position_set`` at index ``i``, written
        with the last seat's join): taken as the start, what follows is re-run from it."""
        env = self.events[i] if i < self.n else None
        seq = i + 1
        if env is None or env.type != "position_set":
            _fail(
                "rules",
                seq,
                "type",
                "position_set",
                None if env is None else env.type,
                said(
                    "Event {seq} should set the position the game continues from, once "
                    "its seats are taken.",
                    seq=seq,
                ),
            )
        self.check_schema(env)
        for name, want, found in (("actor", SYSTEM, env.actor), ("visible_to", "server",
                                  env.visible_to), ("at", at, env.at)):  # fmt: skip
            if found != want:
                _fail(
                    "rules",
                    seq,
                    name,
                    want,
                    found,
                    said(
                        "Event {seq} sets the position with {name} {found!r}, not {want!r}.",
                        seq=seq,
                        name=name,
                        found=found,
                        want=want,
                    ),
                )
        try:
            state = self.rules.load_state(env.payload.get("state"))
        except Exception as error:  # a position a forger made up
            _fail(
                "rules",
                seq,
                "payload.state",
                "a position the rules can read",
                env.payload.get("state"),
                said(
                    "Event {seq} sets a position the rules cannot read: {error}.",
                    seq=seq,
                    error=told(error),
                ),
            )
        self.checked.add("position")
        return state

    def check_schema(self, env: Envelope) -> None:
        try:
            self.codec.check(self.key, env.event())
        except EventRejected as error:
            _fail(
                "rules",
                env.seq,
                "payload",
                "an event of the game's schema",
                env.type,
                said("Event {seq} is not a valid event: {error}.", seq=env.seq, error=told(error)),
            )

    def game_events(self, start: int, end: int) -> list[dict[str, Any]]:
        return [env.event() for env in self.events[start:end]]

    def batch(self, start: int, decided: Sequence[Mapping[str, Any]], actor: str, at: str,
              cause: str) -> int:  # fmt: skip
        """Compare the events from index ``start`` with ``decided``; the index after them."""
        for k, event in enumerate(decided):
            j = start + k
            seq = j + 1
            want = event.get("type")
            if j >= self.n:
                _fail(
                    "rules",
                    seq,
                    "type",
                    want,
                    ABSENT,
                    said(
                        "Event {seq} is missing: {cause} gives {want} here.",
                        seq=seq,
                        cause=cause,
                        want=want,
                    ),
                )
            env = self.events[j]
            if env.type != want:
                _fail(
                    "rules",
                    seq,
                    "type",
                    want,
                    env.type,
                    said(
                        "Event {seq} is {type}, but {cause} gives {want} here.",
                        seq=seq,
                        type=env.type,
                        cause=cause,
                        want=want,
                    ),
                )
            self.check_schema(env)
            visible_to = event.get("visible_to", "all")
            if env.visible_to != visible_to:
                _fail(
                    "rules",
                    seq,
                    "visible_to",
                    visible_to,
                    env.visible_to,
                    said(
                        "Event {seq} ({want}) is visible to {visible_to}, but {cause} "
                        "makes it visible to {visible_to_}.",
                        seq=seq,
                        want=want,
                        visible_to=env.visible_to,
                        cause=cause,
                        visible_to_=visible_to,
                    ),
                )
            payload = _json({k: v for k, v in event.items() if k not in ("type", "visible_to")})
            diff = first_difference(payload, _json(dict(env.payload)), "payload")
            if diff:
                path, expected, found = diff
                _fail(
                    "rules",
                    seq,
                    path,
                    expected,
                    found,
                    said(
                        "Event {seq} ({want}) is not what {cause} gives: its {path} is "
                        "{found}, the rules give {expected}.",
                        seq=seq,
                        want=want,
                        cause=cause,
                        path=path,
                        found=_show(found),
                        expected=_show(expected),
                    ),
                )
            if env.actor != actor:
                _fail(
                    "rules",
                    seq,
                    "actor",
                    actor,
                    env.actor,
                    said(
                        "Event {seq} ({want}) names {actor} as its actor, but it was "
                        "caused by {actor_}.",
                        seq=seq,
                        want=want,
                        actor=env.actor,
                        actor_=actor,
                    ),
                )
            if env.at != at:
                _fail(
                    "rules",
                    seq,
                    "at",
                    at,
                    env.at,
                    said(
                        "Event {seq} ({want}) has another time than the events written "
                        "with it ({at}).",
                        seq=seq,
                        want=want,
                        at=at,
                    ),
                )
        end = start + len(decided)
        if end < self.n and self.events[end].type not in SYSTEM_FIELDS:
            extra = self.events[end]
            _fail(
                "rules",
                extra.seq,
                "type",
                ABSENT,
                extra.type,
                said(
                    "Event {seq} ({type}) is one that {cause} does not give: the rules "
                    "gave fewer events.",
                    seq=extra.seq,
                    type=extra.type,
                    cause=cause,
                ),
            )
        return end

    def run(self) -> Any:
        """Re-run the whole record; the state at its end. Each step takes the event at
        index ``i`` (and those it caused) and gives the index after them."""
        self.state, self.joined, self.dealt = self.rules.initial(), set(), False
        self.decided: dict[str, Any] | None = None
        steps = {"game_created": self.created, "seat_joined": self.seat_joined,
                 "command_given": self.command_given,
                 **dict.fromkeys(TABLE_ACTIONS, self.table_step)}  # fmt: skip
        i = 0
        while i < self.n:
            env = self.events[i]
            self.check_schema(env)
            if env.type == "seed_revealed":
                self.seed_revealed(i)
                i += 1
                continue
            if self.over:
                _fail(
                    "rules",
                    env.seq,
                    "type",
                    "seed_revealed",
                    env.type,
                    said(
                        "Event {seq} ({type}) comes after the end of the game, where only "
                        "the revealed seed may follow.",
                        seq=env.seq,
                        type=env.type,
                    ),
                )
            step = steps.get(env.type)
            if step is None:
                _fail(
                    "rules",
                    env.seq,
                    "type",
                    ABSENT,
                    env.type,
                    said(
                        "Event {seq} ({type}) was caused by no command: every event of "
                        "the game follows the deal or a command.",
                        seq=env.seq,
                        type=env.type,
                    ),
                )
            i = step(i)
        return self.state

    @property
    def over(self) -> bool:
        return self.decided is not None or (
            self.dealt and self.rules.outcome(self.state) is not None
        )

    def seed_revealed(self, i: int) -> None:
        env = self.events[i]
        if not self.over or i != self.n - 1:
            sentence = (said("Event {seq} reveals the seed, but the game is not over.",
                             seq=env.seq) if not self.over else
                        said("Event {seq} reveals the seed, but the game goes on after it.",
                             seq=env.seq))  # fmt: skip
            _fail("rules", env.seq, "type", ABSENT, env.type, sentence)

    def created(self, i: int) -> int:
        if i != 0:
            _fail(
                "rules",
                i + 1,
                "type",
                ABSENT,
                "game_created",
                said("Event {value} creates the game again.", value=i + 1),
            )
        return i + 1

    def seat_joined(self, i: int) -> int:
        """A seat taken (the table's rule: a seat the game has, not taken yet); with the
        last one, the deal (or a continued game's declared position)."""
        env = self.events[i]
        seat = env.payload.get("seat")
        try:
            table.join(self.game_before(i).table, seat, None, None)
        except table.Refused as refused:
            _fail(
                "rules",
                env.seq,
                "payload.seat",
                "a seat not yet taken",
                seat,
                said(
                    "Event {seq} takes the seat {seat!r}: {refused}.",
                    seq=env.seq,
                    seat=seat,
                    refused=told(refused),
                ),
            )
        self.joined.add(seat)
        i += 1
        if self.joined != set(self.events[0].payload.get("seats") or {}) or self.dealt:
            return i
        self.dealt = True
        if self.continued:
            self.state = self.declared(i, env.at)
            return i + 1
        return self.deal(i, env)

    def deal(self, i: int, joined: Envelope) -> int:
        """The deal re-derived from the seed must be the recorded events from ``i``."""
        options = self.events[0].payload.get("options") or {}
        try:
            deal = self.rules.setup(options, rng_for(self.seed, self.nonces, joined.seq + 1,
                                                     self.generator))  # fmt: skip
        except Exception as error:  # options a forger made up
            _fail(
                "rules",
                1,
                "payload.options",
                "options the rules accept",
                options,
                said("The rules refuse the game's options: {error}.", error=told(error)),
            )
        end = self.batch(i, deal, SYSTEM, joined.at, "the deal")
        self.state = self.rules.fold(self.game_events(i, end), self.state)
        self.checked.add("deal")
        return end

    def command_given(self, i: int) -> int:
        """A command re-run with the rng of its position must give exactly the recorded
        events after it (and, when it ends the game, the revealed seed with them)."""
        env = self.events[i]
        seq, seat, command = env.seq, env.payload.get("seat"), env.payload.get("command")
        if not self.dealt:
            _fail(
                "rules",
                seq,
                "type",
                ABSENT,
                env.type,
                said("Event {seq} is a command given before the cards were dealt.", seq=seq),
            )
        for name, found in (("actor", env.actor), ("visible_to", env.visible_to)):
            if found != seat:
                _fail(
                    "rules",
                    seq,
                    name,
                    seat,
                    found,
                    said(
                        "Event {seq}, the {seat} seat's command, has {name} {found!r} "
                        "instead of its seat.",
                        seq=seq,
                        seat=seat,
                        name=name,
                        found=found,
                    ),
                )
        self.who_gave(i, env)
        try:
            rng = rng_for(self.seed, self.nonces, seq, self.generator)
            decided = self.rules.decide(self.state, seat, command, rng)
        except Exception as error:  # RulesError, or a command nobody could send
            _fail(
                "rules",
                seq,
                "payload.command",
                "a command the rules allow",
                command,
                said(
                    "The rules refuse the {seat} seat's command of event {seq}: {error}",
                    seat=seat,
                    seq=seq,
                    error=told(error),
                ),
            )
        end = self.batch(i + 1, decided, seat, env.at, said("the command of event {seq}", seq=seq))
        self.state = self.rules.fold(self.game_events(i + 1, end), self.state)
        self.checked.add("commands")
        if self.rules.outcome(self.state) is not None:
            self.revealed_after(end, env)
        return end

    def table_step(self, i: int) -> int:
        env = self.events[i]
        if not self.dealt and env.type not in ("seat_handed_to_ai", "seat_taken_back"):
            _fail(
                "rules",
                env.seq,
                "type",
                ABSENT,
                env.type,
                said(
                    "Event {seq} ({type}) comes before the game started.",
                    seq=env.seq,
                    type=env.type,
                ),
            )
        return self.table_action(i)

    def who_gave(self, i: int, env: Envelope) -> None:
        """The table's rule for a recorded command (``events.table``): given by whoever
        plays the seat then, its player or the computer; said of every command once it is
        said of one (a record that stops saying it was edited)."""
        seq, seat, by = env.seq, env.payload.get("seat"), env.payload.get("by")
        if by is None:
            if self.said_who:
                _fail(
                    "table",
                    seq,
                    "payload.by",
                    "who gave the command",
                    None,
                    said(
                        "Event {seq} does not say who gave the {seat} seat's command, "
                        "though the commands before it did.",
                        seq=seq,
                        seat=seat,
                    ),
                )
            return
        self.said_who = True
        self.checked.add("table")
        if by == table.PLAYER and not self.computer_played:
            return  # nobody but the players has played: no need to fold the table
        refused = table.refusal(self.game_before(i).table, seat, by)
        if refused:
            _fail(
                "table",
                seq,
                "payload.by",
                "the one who played the seat then",
                by,
                said(
                    "Event {seq} is a command given by {by} for the {seat} seat, but {refused}.",
                    seq=seq,
                    by=by,
                    seat=seat,
                    refused=told(refused),
                ),
            )

    def game_before(self, i: int) -> LoadedGame:
        """The game as the projector folds the first ``i`` events (its turns and clocks),
        folded on from where the last call left it (the re-run only goes forward)."""
        folded, at = getattr(self, "_folded", (None, 0))
        if folded is None or at > i:
            folded, at = LoadedGame(self.key, self.rules, state=self.rules.initial()), 0
        self._folded = (apply(folded, self.events[at:i]), i)
        return self._folded[0]

    def table_action(self, i: int) -> int:
        """An action off the board at index ``i``, re-run with the table's own rules
        (``events.table``) on the game as folded so far, at the time the stream recorded:
        it must give exactly the recorded events (and the revealed seed after a game it
        ended); the index after them."""
        env = self.events[i]
        seq, payload, kind = env.seq, env.payload, env.type
        seat = payload.get("seat")
        tab = self.game_before(i).table
        actor = SYSTEM if kind == "clock_expired" else seat
        if env.actor != actor:
            _fail(
                "rules",
                seq,
                "actor",
                actor,
                env.actor,
                said(
                    "Event {seq} ({kind}) names {actor} as its actor, not {actor_}.",
                    seq=seq,
                    kind=kind,
                    actor=env.actor,
                    actor_=actor,
                ),
            )
        try:
            if kind == "clock_expired":
                decided = self.timeouts(env, tab)
            elif kind == "seat_handed_to_ai":
                decided = table.hand_to_ai(tab, seat, str(payload.get("level")), False)
                self.computer_played = True
            elif kind == "seat_taken_back":
                decided = table.take_back(tab, seat, False)
            elif kind == "vacation_taken":
                decided = table.vacation(tab, seat, payload.get("days"), False)
            else:  # draw_offered, draw_declined, draw_accepted
                decided = table.draw(tab, seat, DRAW_ACTIONS[kind], False)
        except table.Refused as refused:
            _fail(
                "table",
                seq,
                "type",
                ABSENT,
                kind,
                said(
                    "Event {seq} ({kind}) was refused by the rules of the table: {refused}.",
                    seq=seq,
                    kind=kind,
                    refused=told(refused),
                ),
            )
        self.checked.add("clocks" if kind in CLOCK_ACTIONS else "table")
        end = self.batch(i, decided, actor, env.at, said("the table at event {seq}", seq=seq))
        if table.ends(decided):
            self.decided = dict(self.events[end - 1].payload)
            self.revealed_after(end, env)
        return end

    def timeouts(self, env: Envelope, tab: table.Table) -> list[dict[str, Any]]:
        """What ``table.expire`` gives at the time of the ``clock_expired`` at ``env``,
        with a sentence of its own for a seat whose time had not run out."""
        seat, seq = env.payload.get("seat"), env.seq
        if seat in tab.off_the_clock:
            _fail(
                "clock",
                seq,
                "payload.seat",
                "a seat a person plays",
                seat,
                said(
                    "Event {seq} says the {seat} seat's time ran out, but the AI was "
                    "playing it, and an AI's time never runs out.",
                    seq=seq,
                    seat=seat,
                ),
            )
        due = tab.deadline_ms(seat)
        if due is None:
            _fail(
                "rules",
                seq,
                "payload.seat",
                "a seat on the clock",
                seat,
                said(
                    "Event {seq} says the {seat} seat's time ran out, but it had no clock running.",
                    seq=seq,
                    seat=seat,
                ),
            )
        if clocks.ms(env.at) < due:
            _fail(
                "clock",
                seq,
                "at",
                clocks.iso(due),
                env.at,
                said(
                    "Event {seq} says the {seat} seat's time ran out at {at}, before its "
                    "deadline {value}.",
                    seq=seq,
                    seat=seat,
                    at=env.at,
                    value=clocks.iso(due),
                ),
            )
        return table.expire(tab, clocks.ms(env.at), False)

    def revealed_after(self, j: int, cause: Envelope) -> None:
        """The seed must be revealed at index ``j``, written with the action that ended
        the game."""
        env = self.events[j] if j < self.n else None
        if env is None or env.type != "seed_revealed":
            _fail(
                "rules",
                j + 1,
                "type",
                "seed_revealed",
                None if env is None else env.type,
                said(
                    "Event {seq} ends the game, but the seed is not revealed right after it.",
                    seq=cause.seq,
                ),
            )
        if env.actor != cause.actor or env.at != cause.at:
            _fail(
                "rules",
                env.seq,
                "actor",
                cause.actor,
                env.actor,
                said(
                    "The revealed seed was not written with the event that ended the game "
                    "(event {seq}).",
                    seq=cause.seq,
                ),
            )


def _outcome(record: Record, rules: Any, state: Any, decided: Any = None) -> None:
    n = len(record.events)
    outcome = decided or rules.outcome(state)
    if outcome is None:
        _fail(
            "outcome",
            n,
            "outcome",
            "the end of the game",
            ABSENT,
            said("Re-running the rules, the game has not ended by the last event."),
        )
    expected = {"result": result_of(outcome), "reason": outcome.get("reason"),
                "outcome": _json(dict(outcome))}  # fmt: skip
    for name, value in expected.items():
        diff = first_difference(value, record.header.get(name), f"header.{name}")
        if diff:
            path, want, found = diff
            _fail(
                "outcome",
                0,
                path,
                want,
                found,
                said(
                    "The header's {path} is {found}, but re-running the rules the game "
                    "ends with {want}.",
                    path=path[7:],
                    found=_show(found),
                    want=_show(want),
                ),
            )


# -- the whole audit ----------------------------------------------------------------------
def _rules_for(record: Record, registry: Mapping[str, Any] | None) -> Any:
    key = record.events[0].payload.get("game")
    rules = (registry or games.REGISTRY).get(key)
    if rules is None:
        _fail(
            "rules",
            1,
            "payload.game",
            "a game this server knows",
            key,
            said("There is no game called {key!r} here to re-run.", key=key),
        )
    return rules


def _generator_for(record: Record, notes: list[str]) -> str:
    """The random generator the record's game names (docs/rng.md), if this server knows it."""
    name = generator_of(record.events[0].payload)
    if name not in GENERATORS:
        known = " and ".join(GENERATORS)
        _fail(
            "rules",
            1,
            "payload.rng",
            f"a random generator this server knows ({known})",
            name,
            said(
                "The game's chance comes from a random generator called {value}, "
                "which this server does not know (it knows {known}), so its cards "
                "and dice cannot be re-derived.",
                value=json.dumps(name, ensure_ascii=False)[:80],
                known=known,
            ),
        )
    if name == LEGACY and "rng" not in record.events[0].payload:
        notes.append(said("The game was made before games named their random generator: its "
                          "chance is re-derived with the one games used then ({legacy}).",
                          legacy=LEGACY))  # fmt: skip
    return name


def _audit(record: Record, registry: Mapping[str, Any] | None, passed: list[str],
           notes: list[str], chain: bool = True) -> None:  # fmt: skip
    if not record.events:
        _fail("chain", 1, "seq", 1, ABSENT, said("The record has no events."))
    if chain:
        _chain(record)
        passed.append("chain")
        _seed(record)
        passed.append("seed")
        _nonces(record)
        passed.append("nonces")
        _header(record)
        passed.append("header")
    rules = _rules_for(record, registry)
    generator = _generator_for(record, notes)
    version = record.events[0].payload.get("rules_version")
    if version != rules.version:
        notes.append(said("The game was played under rules version {version}; it is re-run "
                          "under version {now}.", version=version, now=rules.version))  # fmt: skip
    last = record.events[-1].payload
    nonces = last.get("nonces") if isinstance(last.get("nonces"), dict) else {}
    rerun = _Rerun(record, rules, str(last.get("seed")), nonces, generator)
    state = rerun.run()
    passed += [c for c in ("deal", "position", "commands", "table", "clocks")
               if c in rerun.checked]  # fmt: skip
    if rerun.continued:
        origin = record.events[0].payload.get("from") or {}
        notes.append(said("This game continues replay {replay!r} from its step {step} as "
                          "{seat}: its record starts from the position it declares "
                          "(position_set), and the audit checks everything after it.",
                          replay=origin.get("replay"), step=origin.get("step"),
                          seat=origin.get("seat")))  # fmt: skip
    _outcome(record, rules, state, rerun.decided)
    passed.append("outcome")


def verify(record: Record, registry: Mapping[str, Any] | None = None) -> Report:
    """Audit ``record`` (see the module's doc). Never raises for a bad record: the report
    says what is wrong."""
    passed: list[str] = []
    notes: list[str] = []
    try:
        _audit(record, registry, passed, notes)
    except _Diverged as stop:
        found = stop.divergence
        if found.field == "hash":
            found = _with_cause(record, registry, found)
        return Report(False, passed, found, notes, len(record.events))
    return Report(True, passed, None, notes, len(record.events))


def _with_cause(record: Record, registry: Mapping[str, Any] | None,
                found: Divergence) -> Divergence:  # fmt: skip
    """A broken hash, with what the re-run says of the same event if it says anything."""
    try:
        _audit(record, registry, [], [], chain=False)
    except _Diverged as stop:
        if stop.divergence.step >= found.step:  # a re-run that holds up to the edit
            cause = stop.divergence
            sentence = said("{found} Re-running the rules: {cause}", found=found.sentence,
                            cause=cause.sentence)  # fmt: skip
            return Divergence(found.check, found.step, found.field, found.expected,
                              found.found, sentence, cause)  # fmt: skip
    except Exception:  # the re-run of a broken record may fail in any way: no cause then
        pass
    return found
