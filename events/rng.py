"""Our random generator, ``bingfa-sha256-ctr-1``: the cards and dice every audit re-derives.

The definition, byte for byte, with test vectors, is ``docs/rng.md``; this module is one
implementation of it (``tests/events/test_rng.py`` checks it against the vectors there).
In brief: a 32-byte key is the SHA-256 of the game's seed, nonces and stream position
(and the generator's name), each length-prefixed; the stream is SHA-256(key ‖ counter)
for counter 0, 1, 2 …, read as one run of bytes; an integer below n takes the fewest
whole bytes that hold n − 1, keeps the low bits it needs and draws again while it is too
large (rejection: no modulo bias); ``random()`` is 53 such bits over 2**53;
``shuffle`` is Fisher–Yates from the end; ``sample`` the first k places of a
Fisher–Yates from the front, on a copy.

Nothing here may change once a game has used it: a change in any draw is a new
generator with a new name (``bingfa-sha256-ctr-2``), and the old one stays, for the games
that name it.
"""

from __future__ import annotations

import hashlib
import operator
from collections.abc import Mapping, MutableSequence, Sequence
from typing import Any, TypeVar

NAME = "bingfa-sha256-ctr-1"
MAX_POSITION = 2**64 - 1
_LOW53 = (1 << 53) - 1
_EPSILON53 = 2.0**-53  # a power of two: multiplying by it is dividing by 2**53, exactly
# randbelow(m + 1) for m < 256 keeps the low bits of m's bit length of one byte
_MASKS = tuple((1 << m.bit_length()) - 1 for m in range(256))

T = TypeVar("T")
_sha256 = hashlib.sha256


def _text(value: str) -> bytes:
    data = value.encode("utf-8")
    return len(data).to_bytes(4, "big") + data


def key_of(seed: str, nonces: Mapping[str, str], position: int) -> bytes:
    """SHA-256 of: the name, the seed, the number of nonces, each (seat, nonce) in the
    order of the seats' UTF-8 bytes, every string as its UTF-8 length in 4 bytes then its
    UTF-8 bytes; then the position in 8 bytes (all big-endian)."""
    if not 0 <= position <= MAX_POSITION:
        raise ValueError(f"a stream position is between 0 and 2**64 - 1, not {position}")
    parts = [_text(NAME), _text(seed), len(nonces).to_bytes(4, "big")]
    for seat in sorted(nonces, key=lambda s: s.encode("utf-8")):
        parts += [_text(seat), _text(nonces[seat])]
    parts.append(position.to_bytes(8, "big"))
    return _sha256(b"".join(parts)).digest()


class HashRng:
    """The ``games.base.Rng`` a game's ``setup`` and ``decide`` draw from: ``random``,
    ``randrange``, ``choice``, ``shuffle`` and ``sample``, each as ``docs/rng.md``
    defines it (their errors are ``random.Random``'s)."""

    name = NAME
    __slots__ = ("_at", "_buffer", "_counter", "_key")

    def __init__(self, key: bytes) -> None:
        if len(key) != 32:
            raise ValueError("the key is 32 bytes")
        self._key = bytes(key)
        self._counter = 0
        self._buffer = b""
        self._at = 0  # the next unread byte of _buffer

    @classmethod
    def of(cls, seed: str, nonces: Mapping[str, str], position: int) -> HashRng:
        return cls(key_of(seed, nonces, position))

    def block(self, counter: int) -> bytes:
        """Block ``counter`` of the stream: SHA-256(key ‖ counter as 8 bytes big-endian)."""
        return _sha256(self._key + counter.to_bytes(8, "big")).digest()

    def _more(self, m: int) -> None:
        """Make at least ``m`` unread bytes ready (the unread rest, then new blocks)."""
        rest = self._buffer[self._at :]
        blocks = [rest]
        have = len(rest)
        while have < m or have < 128:  # four blocks at a time: fewer refills, same stream
            blocks.append(self.block(self._counter))
            self._counter += 1
            have += 32
        self._buffer = b"".join(blocks)
        self._at = 0

    def _below(self, n: int) -> int:
        """A whole number in [0, n): ``randbelow`` in the docs."""
        if n <= 1:
            if n == 1:
                return 0  # draws nothing
            raise ValueError("randbelow needs n >= 1")
        k = (n - 1).bit_length()
        if k <= 8:  # one byte a draw: the common case, kept short
            mask = (1 << k) - 1
            buffer, at = self._buffer, self._at
            while True:
                if at >= len(buffer):
                    self._at = at
                    self._more(1)
                    buffer, at = self._buffer, 0
                x = buffer[at] & mask
                at += 1
                if x < n:
                    self._at = at
                    return x
        m = (k + 7) >> 3
        mask = (1 << k) - 1
        while True:
            if self._at + m > len(self._buffer):
                self._more(m)
            at = self._at
            x = int.from_bytes(self._buffer[at : at + m], "big") & mask
            self._at = at + m
            if x < n:
                return x

    # -- the Rng protocol ------------------------------------------------------------------
    def random(self) -> float:
        """randbelow(2**53) / 2**53: a float in [0, 1), exact in any IEEE double (the
        low 53 bits of the next 7 bytes; it never draws again)."""
        at = self._at
        if at + 7 > len(self._buffer):
            self._more(7)
            at = 0
        self._at = at + 7
        return (int.from_bytes(self._buffer[at : at + 7], "big") & _LOW53) * _EPSILON53

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        """An element of ``range(start, stop, step)``: start + step · randbelow(its length)."""
        start = operator.index(start)
        if stop is None:
            if step != 1:
                raise TypeError("Missing a non-None stop argument")
            if start > 0:
                return self._below(start)
            raise ValueError("empty range for randrange()")
        stop, step = operator.index(stop), operator.index(step)
        if step == 0:
            raise ValueError("zero step for randrange()")
        width = stop - start  # n = ⌈width / step⌉, the length of range(start, stop, step)
        n = (width + step - 1) // step if step > 0 else (width + step + 1) // step
        if n <= 0:
            raise ValueError(f"empty range for randrange({start}, {stop}, {step})")
        return start + step * self._below(n)

    def choice(self, seq: Sequence[T]) -> T:
        """seq[randbelow(len(seq))]."""
        if not len(seq):
            raise IndexError("Cannot choose from an empty sequence")
        return seq[self._below(len(seq))]

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """In place: for i from len − 1 down to 1, swap x[i] and x[randbelow(i + 1)]."""
        i = len(x) - 1
        while i >= 256:
            j = self._below(i + 1)
            x[i], x[j] = x[j], x[i]
            i -= 1
        # randbelow(i + 1) for i < 256, inline: one byte, its low bits, again if over i
        buffer, at, masks = self._buffer, self._at, _MASKS
        while i > 0:
            mask = masks[i]
            while True:
                if at >= len(buffer):
                    self._at = at
                    self._more(1)
                    buffer, at = self._buffer, 0
                j = buffer[at] & mask
                at += 1
                if j <= i:
                    break
            x[i], x[j] = x[j], x[i]
            i -= 1
        self._at = at

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        """k distinct elements: on a copy, for i from 0 to k − 1, swap places i and
        i + randbelow(n − i); the first k places, in order."""
        if not isinstance(population, Sequence):
            raise TypeError("Population must be a sequence. For dicts or sets, use sorted(d).")
        pool = list(population)
        n = len(pool)
        k = operator.index(k)
        if not 0 <= k <= n:
            raise ValueError("Sample larger than population or is negative")
        for i in range(k):
            top = n - i - 1  # randbelow(top + 1)
            if top > 255 or top == 0:
                j = i + self._below(top + 1)
            else:  # inline, as in shuffle
                buffer, at, mask = self._buffer, self._at, _MASKS[top]
                while True:
                    if at >= len(buffer):
                        self._at = at
                        self._more(1)
                        buffer, at = self._buffer, 0
                    r = buffer[at] & mask
                    at += 1
                    if r <= top:
                        break
                self._at = at
                j = i + r
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
