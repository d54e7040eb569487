"""The event envelope and its hash chain.

Every stored event is an ``Envelope``: ``seq`` (1, 2, 3 … = the stream version), ``type``,
schema version ``v``, ``at`` (UTC, ISO 8601), ``actor`` (a seat or ``system``),
``visible_to`` (``all``, a seat, or ``server``), ``payload``, ``prev`` (the previous event's
hash, ``""`` for the first) and ``hash`` = sha256(prev + canonical JSON of the body, i.e.
every field but ``hash``). Editing any stored event breaks every hash after it.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson

from games.i18n import said

GENESIS = ""  # the ``prev`` of a stream's first event
SYSTEM = "system"
ENVELOPE_FIELDS = ("seq", "type", "v", "at", "actor", "visible_to", "payload", "prev", "hash")
# An event hidden from someone carries a random salt inside its hashed body: without it, a
# hash (or the next event's ``prev``) would let anyone test the few possible contents of
# a hidden event (which piece, which card) against it. The salt is hidden with the
# payload and revealed with it.
SALT_BYTES = 16


def canonical(value: Any) -> bytes:
    """Canonical JSON: sorted keys, no spaces, UTF-8. This is the definition; ``fast_canonical``
    must give the same bytes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


class Unstorable(ValueError):
    """A value the event store's codec cannot write and read back exactly."""


# The one codec of stored payloads: orjson, sorted keys, whole numbers within what any JSON
# reader holds exactly (±(2**53 - 1)). What it refuses (larger integers, lone surrogates,
# anything not JSON) is never stored; fractions are refused before (``events.schemas``).
_STORE_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER


def fast_canonical(value: Any) -> bytes:
    """``canonical`` through orjson (about ten times faster), for the hot path: the same
    bytes for every value the store accepts (``tests/events/test_envelope_bytes.py``).
    Raises ``Unstorable`` for what it cannot write exactly: there is no fallback, so
    what is written is always what is read back."""
    try:
        return orjson.dumps(value, option=_STORE_OPTIONS)
    except (TypeError, orjson.JSONEncodeError) as error:
        raise Unstorable(f"it cannot be stored exactly ({error})") from None


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class Envelope:
    seq: int
    type: str
    v: int
    at: str
    actor: str
    visible_to: str
    payload: Mapping[str, Any]
    prev: str
    hash: str
    salt: str = ""  # "" for public events
    # The envelope as stored, when this one was upcast on read: the hash verifies that form.
    stored: Envelope | None = field(default=None, compare=False, repr=False)
    # The payload's canonical JSON when already at hand (sealing, reading): not made twice.
    payload_json: bytes | None = field(default=None, compare=False, repr=False)

    def body(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "type": self.type,
            "v": self.v,
            "at": self.at,
            "actor": self.actor,
            "visible_to": self.visible_to,
            "payload": self.payload,
            "prev": self.prev,
            **({"salt": self.salt} if self.salt else {}),
        }

    def to_dict(self) -> dict[str, Any]:
        return {**self.body(), "hash": self.hash}

    def to_bytes(self) -> bytes:
        return canonical(self.to_dict())

    def event(self) -> dict[str, Any]:
        """The game-level event this envelope carries (what ``evolve`` takes)."""
        return {"type": self.type, "visible_to": self.visible_to, **self.payload}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Envelope:
        return Envelope(**{name: data[name] for name in ENVELOPE_FIELDS}, salt=data.get("salt", ""))

    @staticmethod
    def from_bytes(raw: bytes | str) -> Envelope:
        return Envelope.from_dict(json.loads(raw))


def chain_hash(prev: str, body: Mapping[str, Any]) -> str:
    return hashlib.sha256(prev.encode() + canonical(body)).hexdigest()


def _text(value: str) -> bytes:
    if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
        return b'"' + value.encode() + b'"'  # nothing to escape: the common case
    return json.dumps(value, ensure_ascii=False).encode()


_NAMES: dict[str, bytes] = {}  # types, actors, visible_to: a few values, written often


def _name(value: str) -> bytes:
    """``_text`` of a value that repeats (a type, an actor, a visible_to), kept."""
    out = _NAMES.get(value)
    if out is None:
        out = _text(value)
        if len(_NAMES) < 4096:  # bounded, whatever is sealed
            _NAMES[value] = out
    return out


def body_bytes(
    seq: int,
    type_: str,
    v: int,
    at: str,
    actor: str,
    visible_to: str,
    payload_json: bytes,
    prev: str,
    salt: str = "",
) -> bytes:
    """``canonical(body)`` assembled around a payload already in canonical JSON: the keys
    in sorted order, no spaces (``tests/events`` checks it against ``canonical``)."""
    return b"".join(
        (
            b'{"actor":', _name(actor), b',"at":', _text(at),
            b',"payload":', payload_json, b',"prev":', _text(prev),
            b',"salt":' + _text(salt) if salt else b"",
            b',"seq":', str(seq).encode(), b',"type":', _name(type_),
            b',"v":', str(v).encode(), b',"visible_to":', _name(visible_to), b"}",
        )
    )  # fmt: skip


def seal(
    seq: int,
    event: Mapping[str, Any],
    *,
    prev: str,
    actor: str = SYSTEM,
    at: str | None = None,
    v: int = 1,
    salt: str | None = None,
) -> Envelope:
    """Wrap one game-level event (a dict with ``type`` and ``visible_to``) at ``seq``.
    A hidden event gets a fresh random salt unless one is given."""
    payload = {k: val for k, val in event.items() if k not in ("type", "visible_to")}
    payload_json = fast_canonical(payload)
    at = at or utc_now()
    visible_to = event.get("visible_to", "all")
    if salt is None:
        salt = "" if visible_to == "all" else secrets.token_hex(SALT_BYTES)
    raw = body_bytes(seq, event["type"], v, at, actor, visible_to, payload_json, prev, salt)
    digest = hashlib.sha256(prev.encode() + raw).hexdigest()
    return Envelope(seq, event["type"], v, at, actor, visible_to, payload, prev, digest, salt,
                    payload_json=payload_json)  # fmt: skip


_SHA256 = hashlib.sha256()


def seal_all(
    first_seq: int,
    events: Iterable[Mapping[str, Any]],
    *,
    prev: str,
    actor: str = SYSTEM,
    at: str | None = None,
    versions: Mapping[str, int] | None = None,
) -> list[Envelope]:
    """Envelopes for consecutive events, chained from ``prev``: what ``seal`` makes of
    each (``tests/events`` checks it), with the work they share done once (the time, the
    actor, the salts of the hidden ones drawn together) and each body hashed straight from
    one buffer."""
    events = list(events)
    at = at or utc_now()
    head = b'{"actor":' + _name(actor) + b',"at":' + _text(at) + b',"payload":'
    get_v = (versions or {}).get
    hidden = sum(1 for e in events if e.get("visible_to", "all") != "all")
    salts = secrets.token_bytes(SALT_BYTES * hidden).hex() if hidden else ""
    out = []
    seq, n = first_seq, 0
    for event in events:
        payload = {k: val for k, val in event.items() if k != "type" and k != "visible_to"}
        payload_json = fast_canonical(payload)
        type_ = event["type"]
        visible_to = event.get("visible_to", "all")
        v = get_v(type_, 1)
        if visible_to == "all":
            salt, salted = "", b""
        else:
            salt = salts[n : n + 2 * SALT_BYTES]
            n += 2 * SALT_BYTES
            salted = b',"salt":"' + salt.encode() + b'"'
        sha = _SHA256.copy()  # cheaper than a new one (no digest looked up)
        sha.update(
            b"%s%s%s,\"prev\":%s%s,\"seq\":%d,\"type\":%s,\"v\":%d,\"visible_to\":%s}"
            % (prev.encode(), head, payload_json, _text(prev), salted, seq, _name(type_), v,
               _name(visible_to))
        )  # fmt: skip
        digest = sha.hexdigest()
        out.append(Envelope(seq, type_, v, at, actor, visible_to, payload, prev, digest, salt,
                            payload_json=payload_json))  # fmt: skip
        prev = digest
        seq += 1
    return out


class ChainError(ValueError):
    """The stored history does not verify: an event was edited, removed or reordered."""


def verify_chain(envelopes: Sequence[Envelope], prev: str = GENESIS, first_seq: int = 1) -> None:
    """Raise ``ChainError`` naming the first event whose hash or link is wrong."""
    for i, read in enumerate(envelopes):
        env = read.stored or read
        if env.seq != first_seq + i:
            raise ChainError(
                said(
                    "event {value} is missing: found seq {seq} instead",
                    value=first_seq + i,
                    seq=env.seq,
                )
            )
        if env.prev != prev:
            raise ChainError(said("event {seq} does not link to the event before it", seq=env.seq))
        if chain_hash(env.prev, env.body()) != env.hash:
            raise ChainError(
                said(
                    "event {seq} ({type}) was altered: its hash does not match",
                    seq=env.seq,
                    type=env.type,
                )
            )
        prev = env.hash
