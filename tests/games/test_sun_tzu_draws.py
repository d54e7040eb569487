"""The draws Sun Tzu inlines for speed (``games.sun_tzu.draws``) are ``random.Random``'s
own: the same results and the generator left in the same state, whatever the sizes; any
other generator is asked itself."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from games.sun_tzu import draws

SEEDS = st.integers(min_value=0, max_value=2**32)


def twins(seed: int) -> tuple[random.Random, random.Random]:
    return random.Random(seed), random.Random(seed)


@given(SEEDS, st.integers(min_value=1, max_value=40))
def test_choice_is_the_standard_librarys(seed, n):
    mine, theirs = twins(seed)
    seq = [f"c{i}" for i in range(n)]
    assert [draws.choice(mine, seq) for _ in range(5)] == [theirs.choice(seq) for _ in range(5)]
    assert mine.getstate() == theirs.getstate()


@given(SEEDS, st.integers(min_value=0, max_value=40))
def test_shuffle_is_the_standard_librarys(seed, n):
    mine, theirs = twins(seed)
    a, b = list(range(n)), list(range(n))
    draws.shuffle(mine, a)
    theirs.shuffle(b)
    assert a == b
    assert mine.getstate() == theirs.getstate()


@given(SEEDS, st.integers(min_value=-5, max_value=5), st.integers(min_value=1, max_value=40))
def test_randrange_is_the_standard_librarys(seed, start, width):
    mine, theirs = twins(seed)
    got = [draws.randrange(mine, start, start + width) for _ in range(5)]
    assert got == [theirs.randrange(start, start + width) for _ in range(5)]
    assert mine.getstate() == theirs.getstate()


@given(SEEDS, st.integers(min_value=0, max_value=30), st.integers(min_value=0, max_value=8),
       st.booleans())  # fmt: skip
def test_sample_is_the_standard_librarys(seed, n, k, by_index):
    k = min(k, n)  # (the inlined path and the fallback alike: sizes on both sides of it)
    mine, theirs = twins(seed)
    population = [f"p{i}" for i in range(n)]
    got = draws.sample(mine, population, k, by_index=by_index)
    if by_index:
        assert got == [population[i] for i in theirs.sample(range(n), k)]
    else:
        assert got == theirs.sample(population, k)
    assert mine.getstate() == theirs.getstate()


class OwnChoice(random.Random):
    """A generator with a method of its own: the inlined code must not stand in for it."""

    def choice(self, seq):
        return seq[-1]


def test_a_generator_with_its_own_methods_is_asked_itself():
    rng = OwnChoice(1)
    assert [draws.choice(rng, [1, 2, 3]) for _ in range(4)] == [3, 3, 3, 3]
