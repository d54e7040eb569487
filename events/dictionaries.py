"""Compressing stored payloads with a game's preset dictionaries (``events.redis_store``).

A game may give ``payload_dictionaries`` (``{number: bytes}``, numbers 1 to 122, e.g.
a game package's ``store_dictionary.py``): a payload of its events is then stored as one
byte, the number of the dictionary, then the raw deflate of its canonical JSON made with
that dictionary; new entries use the highest number. So these bytes are part of the
stored format, read back with the game's own dictionary of that number: a dictionary in
use is never edited or removed. A payload starting with ``{`` (123) is plain JSON: the
games without dictionaries, short payloads, and payloads that would not get shorter.
"""

from __future__ import annotations

import zlib
from typing import Any

import games

# Raw deflate (no header: the dictionary number says what it is). The window and memory
# settings are the writer's choice (an inflater with the largest window reads any), picked
# so that a fresh compressor, copied from one primed with the dictionary, is cheap.
_WBITS, _LEVEL, _MEMLEVEL = -14, 9, 4
_PLAIN = ord("{")
# Payloads shorter than this stay plain: deflated they save a few bytes each (about 1 kB
# of a 30 kB game's, for 3 in 10 of its events), and deflating and inflating them cost
# more than all the rest of their append and their read (``python -m bench.store``).
_SMALL = 48


class _Packer:
    """A compressor primed with one dictionary, copied for each payload."""

    __slots__ = ("number", "primed")

    def __init__(self, number: int, zdict: bytes) -> None:
        self.number = number
        self.primed = zlib.compressobj(_LEVEL, zlib.DEFLATED, _WBITS, _MEMLEVEL,
                                       zlib.Z_DEFAULT_STRATEGY, zdict)  # fmt: skip

    def pack(self, payload_json: bytes) -> bytes:
        if len(payload_json) < _SMALL:
            return payload_json
        deflate = self.primed.copy()
        packed = deflate.compress(payload_json) + deflate.flush()
        if len(packed) + 1 >= len(payload_json):
            return payload_json  # nothing gained: kept plain
        return bytes((self.number,)) + packed


def dictionaries_of(game: str | None) -> dict[int, bytes]:
    """The game's preset dictionaries by number ({} for a game without, or unknown)."""
    rules: Any = games.REGISTRY.get(game) if game else None
    found = dict(getattr(rules, "payload_dictionaries", None) or {})
    bad = [n for n in found if not (isinstance(n, int) and 0 < n < _PLAIN)]
    if bad:
        raise ValueError(f"{game}: payload dictionaries are numbered 1 to {_PLAIN - 1}: {bad}")
    return found


_packers: dict[str | None, _Packer | None] = {}


def pack(game: str | None, payload_json: bytes) -> bytes:
    """The stored form of a payload's canonical JSON: compressed with its game's newest
    dictionary, or plain when the game has none (or it would not be shorter)."""
    packer = _packers.get(game, False)
    if packer is False:
        found = dictionaries_of(game)
        newest = max(found, default=None)
        packer = _packers[game] = None if newest is None else _Packer(newest, found[newest])
    return payload_json if packer is None else packer.pack(payload_json)  # type: ignore[union-attr]


_known: dict[str | None, dict[int, bytes]] = {}


def unpack(stored: bytes, game: str | None) -> bytes:
    """The canonical JSON a stored payload of ``game``'s holds (plain JSON as it is)."""
    if not stored or stored[0] == _PLAIN:
        return stored
    found = _known.get(game)
    if found is None:
        found = _known[game] = dictionaries_of(game)
    zdict = found.get(stored[0])
    if zdict is None:
        raise ValueError(f"a payload of {game} packed with dictionary {stored[0]}, which "
                         "this release lacks")  # fmt: skip
    # a fresh inflater is cheaper than copying a primed one (no window to copy)
    inflate = zlib.decompressobj(-15, zdict)
    payload_json = inflate.decompress(stored[1:])
    if not inflate.eof:
        raise ValueError("a packed payload is cut short")
    return payload_json
