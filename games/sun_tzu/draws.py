"""Draws from the generator a game is given, exactly as its own methods draw them.

For a ``random.Random`` that keeps its own ``sample``, ``choice``, ``shuffle``,
``randrange`` and ``_randbelow``, their code is inlined here over ``getrandbits``: random
play draws a few times per decision, and the calls cost more than the draws. Any other
generator (``events.rng.HashRng``, a subclass with its own methods) is asked itself.
"""

from __future__ import annotations

from typing import Any

_BITS = tuple(m.bit_length() for m in range(22))
_STDLIB_SAMPLER: dict[type, bool] = {}  # per generator class: draws as random.Random does


def _stdlib_sampler(cls: type) -> bool:
    """The class keeps ``random.Random``'s own ``sample``, ``choice``, ``shuffle``,
    ``randrange`` and ``_randbelow`` (told by their names: ``games`` does not import
    ``random``, see tests/test_purity.py)."""
    known = _STDLIB_SAMPLER.get(cls)
    if known is None:
        known = _STDLIB_SAMPLER[cls] = all(
            getattr(getattr(cls, name, None), "__module__", None) == "random"
            and getattr(getattr(cls, name, None), "__qualname__", None) == qualname
            for name, qualname in (
                ("sample", "Random.sample"),
                ("choice", "Random.choice"),
                ("shuffle", "Random.shuffle"),
                ("randrange", "Random.randrange"),
                ("_randbelow", "Random._randbelow_with_getrandbits"),
            )
        )
    return known


# ``rng.choice``, ``rng.shuffle`` and ``rng.randrange(start, stop)``, the same draws: for a
# ``random.Random`` that keeps its own, their code inlined over ``getrandbits`` (a random
# command draws a few times; the calls cost more than the draws).
def choice(rng: Any, seq: Any) -> Any:
    n = len(seq)
    if not n or not (_STDLIB_SAMPLER.get(type(rng)) or _stdlib_sampler(type(rng))):
        return rng.choice(seq)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return seq[r]


def shuffle(rng: Any, x: list) -> None:
    if not (_STDLIB_SAMPLER.get(type(rng)) or _stdlib_sampler(type(rng))):
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(x))):
        k = (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def randrange(rng: Any, start: int, stop: int) -> int:
    n = stop - start
    if (
        type(n) is not int
        or n <= 0
        or not (_STDLIB_SAMPLER.get(type(rng)) or _stdlib_sampler(type(rng)))
    ):
        return rng.randrange(start, stop)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return start + r


def sample(rng: Any, population: Any, k: int, by_index: bool = False) -> list:
    """``rng.sample(population, k)``, the same draws: for a ``random.Random`` that keeps its
    own ``sample`` and ``_randbelow``, their small-population path is inlined (random play
    draws a few samples per decision; the calls cost more than the draws). ``by_index``:
    the draws of ``rng.sample(range(len(population)), k)``, the elements at those places
    (the inlined path swaps places alike whatever they hold)."""
    n = len(population)
    stdlib = _STDLIB_SAMPLER.get(type(rng))
    if stdlib is None:
        stdlib = _stdlib_sampler(type(rng))
    # the stdlib's pool path, as below, is the one it takes for k <= 5 and n <= 21
    if not stdlib or not 0 <= k <= 5 or k > n or n > 21:
        if by_index:
            return [population[i] for i in rng.sample(range(n), k)]
        return rng.sample(population, k)
    getrandbits = rng.getrandbits
    pool = list(population)
    result = []
    for m in range(n, n - k, -1):
        bits = _BITS[m]
        j = getrandbits(bits)
        while j >= m:
            j = getrandbits(bits)
        result.append(pool[j])
        pool[j] = pool[m - 1]
    return result
