"""``legal`` and ``random_command``: the commands a seat may send now.

``legal`` lists every answer to the seat's owed decision in its plain form (placements
without optional attachments, at most one exceptional reinforcement attached to an army
source answer), then the stand-alone exceptional reinforcements. ``random_command`` picks
uniformly among the plain answers (placements uniformly over the ways to lay out the hand)
and then adds optional plays at random, so that random games exercise every rule.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations
from math import perm
from typing import Any

from games.sun_tzu import battle, rulings
from games.sun_tzu.components import (
    ACTIVE_WARLORDS,
    CARD_ORDER,
    EARLY_WARLORDS,
    FRAMED,
    PROVINCE_INDEX,
    PROVINCES,
    REACTIVE_WARLORDS,
    SEATS,
    WARLORDS_OF,
)
from games.sun_tzu.flow import holds, owed, unused_warlords
from games.sun_tzu.state import State

# Warlords in a fixed order (random play draws in it), sorted once, not per command.
_ACTIVE_SORTED = tuple(sorted(ACTIVE_WARLORDS))
_REACTIVE_SORTED = tuple(sorted(REACTIVE_WARLORDS))
# Every Warlord play with targets there could be, per Warlord (``warlord_plays`` checks
# which of them the board allows now): built once.
_CANDIDATES = {
    warlord: (
        tuple(
            {"warlord": warlord, "from": PROVINCES[a], "to": PROVINCES[b]}
            for a in range(5)
            for b in sorted(rulings.ADJACENT[a])
        )
        if warlord == "manoeuvre"
        else tuple({"warlord": warlord, "province": p} for p in PROVINCES)
        if warlord in ("remove", "reinforce")
        else ({"warlord": warlord},)
    )
    for warlord in ACTIVE_WARLORDS
}


def legal(st: State, seat_name: str) -> list[dict[str, Any]]:
    seat = SEATS.index(seat_name)
    if st.phase == "over":
        return []
    kind = owed(st).get(seat)
    answers = _ANSWERS[kind](st, seat) if kind else []
    return answers + reinforcements(st, seat)


def reinforcements(st: State, seat: int) -> list[dict[str, Any]]:
    if not st.aside[seat] or st.phase in ("over", "new"):
        return []
    cards = sorted({c for c in st.hands[seat] if c not in FRAMED}, key=str)
    return [{"type": "reinforce", "card": c} for c in cards]


def _warlords(st: State, seat: int) -> list[dict[str, Any]]:
    return [{"type": "choose_warlord", "warlord": w} for w in WARLORDS_OF[seat]]


def _extra(st: State, seat: int) -> list[dict[str, Any]]:
    return [{"type": "extra_warlord", "warlord": w} for w in unused_warlords(st, seat)]


def _placements(st: State, seat: int) -> list[dict[str, Any]]:
    double = holds(st, seat, "double_six")
    out = []
    for cards in _layouts(Counter(st.hands[seat]), 5):
        command: dict[str, Any] = {
            "type": "place",
            "cards": dict(zip(PROVINCES, cards, strict=True)),
        }
        six = cards.index("6") if "6" in cards else None
        if six is not None and st.markers[six][seat]:
            if not double:
                continue
            command["warlords"] = [{"warlord": "double_six"}]
        out.append(command)
    return out


def _layouts(hand: Counter, k: int) -> list[tuple[str, ...]]:
    """Every distinct sequence of ``k`` cards from a hand that may hold alike cards."""
    if k == 0:
        return [()]
    out = []
    for card in sorted(hand, key=CARD_ORDER.__getitem__):
        if hand[card]:
            hand[card] -= 1
            out.extend((card, *rest) for rest in _layouts(hand, k - 1))
            hand[card] += 1
    return out


def _next_provinces(st: State, seat: int) -> list[dict[str, Any]]:
    """The next province alone, or any longer part of the remaining order, named at once."""
    left = [PROVINCES[p] for p in range(5) if p not in st.fought]
    return [
        {"type": "next_province", "provinces": list(order)}
        for k in range(1, _longest_order(len(left)) + 1)
        for order in permutations(left, k)
    ]


def _longest_order(left: int) -> int:
    """How many provinces the holder may name at once (rulings.ORDER_MAY_BE_NAMED_IN_ADVANCE)."""
    return left if rulings.ORDER_MAY_BE_NAMED_IN_ADVANCE else min(left, 1)


def _takes(tiers: list, need: int) -> list[dict[int, int]]:
    """Every legal board take of ``need`` armies from source tiers."""
    out: list[dict[int, int]] = []
    fixed: dict[int, int] = {}
    for tier in tiers:
        total = sum(n for _, n in tier)
        if total <= need:
            fixed.update(dict(tier))
            need -= total
            continue
        for split in _splits(tier, need):
            out.append({**fixed, **split})
        return out
    return [fixed]


def _splits(tier: list, need: int) -> list[dict[int, int]]:
    if not tier:
        return [{}] if need == 0 else []
    (p, n), rest = tier[0], tier[1:]
    out = []
    for k in range(min(n, need) + 1):
        for tail in _splits(rest, need - k):
            out.append({p: k, **tail} if k else tail)
    return out


def _sources(st: State, seat: int) -> list[dict[str, Any]]:
    return [_source_answer(take, card) for take, card in _source_choices(st, seat)]


def _source_choices(st: State, seat: int) -> list[tuple[dict[int, int], str | None]]:
    """The army source answers as (board take, card discarded first or None): the plain
    answers, then each exceptional reinforcement's. A reinforcement moves one army from
    the set-aside pool to the reserve (``reinforced``), so the board owes one fewer; the
    board itself is as it was."""
    task = st.tasks[0]
    tiers = battle.source_tiers(st.armies, seat, task)
    reserve = st.reserve[seat]
    out: list[tuple[dict[int, int], str | None]] = [
        (t, None) for t in _takes(tiers, battle.board_need(reserve, task))
    ]
    spare = reinforcements(st, seat)
    if spare:
        takes = _takes(tiers, battle.board_need(reserve + 1, task))
        for r in spare:
            out.extend((t, r["card"]) for t in takes)
    return out


def _source_answer(take: dict[int, int], card: str | None) -> dict[str, Any]:
    answer = {"type": "sources", "take": {PROVINCES[p]: k for p, k in sorted(take.items()) if k}}
    if card is not None:
        answer["reinforce"] = [card]
    return answer


def _keeps(st: State, seat: int) -> list[dict[str, Any]]:
    drawn, n = st.drawn[seat], st.keep_n[seat]
    combos = sorted({tuple(sorted(c)) for c in combinations(drawn, n)})
    return [{"type": "keep", "cards": list(c)} for c in combos]


def _after_battles(st: State, seat: int) -> list[dict[str, Any]]:
    return [{"type": "after_battles", "warlords": []}] + [
        {"type": "after_battles", "warlords": [play]}
        for play in warlord_plays(st, seat)
        if play["warlord"] in EARLY_WARLORDS
    ]


def warlord_plays(st: State, seat: int) -> list[dict[str, Any]]:
    """Every Warlord play with targets this seat could make against the board as it is:
    the candidates ``play_error`` has nothing against, told here without its sentences."""
    out: list[dict[str, Any]] = []
    kept, spent = st.kept[seat], st.spent[seat]
    late = st.round > 6
    armies = st.armies
    for warlord in _ACTIVE_SORTED:
        if warlord not in kept or warlord in spent:  # holds()
            continue
        if late and warlord in EARLY_WARLORDS:
            continue
        # copies: a caller may keep or change the play it is given
        if warlord == "remove":  # an army to remove
            for c, p, _ in _CANDIDATES_AT[warlord]:
                if armies[p][0] or armies[p][1]:
                    out.append(dict(c))
        elif warlord == "reinforce":  # a province the seat controls, and a reserve
            if st.reserve[seat]:
                for c, p, _ in _CANDIDATES_AT[warlord]:
                    blue, red = armies[p]
                    if (0 if blue else 1 if red else None) == seat:
                        out.append(dict(c))
        elif warlord == "manoeuvre":  # from an army of the seat's to an empty or own province
            for c, a, b in _CANDIDATES_AT[warlord]:
                if armies[a][seat]:
                    blue, red = armies[b]
                    if (0 if blue else 1 if red else None) in (None, seat):
                        out.append(dict(c))
        else:
            out.extend(dict(c) for c in _CANDIDATES[warlord])
    return out


# The candidates with the provinces they name (indices): (play, province or from, to).
_CANDIDATES_AT = {
    warlord: tuple(
        (
            c,
            PROVINCE_INDEX.get(c.get("province", c.get("from")), -1),
            PROVINCE_INDEX.get(c.get("to"), -1),
        )
        for c in plays
    )
    for warlord, plays in _CANDIDATES.items()
}


_ANSWERS = {
    "choose_warlord": _warlords,
    "extra_warlord": _extra,
    "place": _placements,
    "next_province": _next_provinces,
    "sources": _sources,
    "keep": _keeps,
    "after_battles": _after_battles,
}


# ---------------------------------------------------------------------------------------
def random_command(st: State, seat_name: str, rng: Any) -> dict[str, Any] | None:
    """A random answer to the seat's owed decision (None when it owes none)."""
    seat = SEATS.index(seat_name)
    kind = owed(st).get(seat)
    if kind is None:
        return None
    if kind == "place":
        return _random_placement(st, seat, rng)
    if kind == "next_province":
        return _random_order(st, rng)
    if kind == "keep":  # what rng.choice(_keeps(...)) gives, the choices listed once
        key = (st.drawn[seat], st.keep_n[seat])
        combos = _KEEP_CHOICES.get(key)
        if combos is None:
            combos = _KEEP_CHOICES[key] = tuple(c["cards"] for c in _keeps(st, seat))
        return {"type": "keep", "cards": list(_choice(rng, combos))}
    if kind == "sources":  # the answers listed, the one drawn made
        return _source_answer(*_choice(rng, _source_choices(st, seat)))
    return _choice(rng, _ANSWERS[kind](st, seat))


# How many answers name k = 1, 2, ... provinces, and in all, per number of provinces left:
# per value of rulings.ORDER_MAY_BE_NAMED_IN_ADVANCE (read at each draw, as a switch).
_ORDER_COUNTS = {
    advance: tuple(
        tuple(perm(left, k) for k in range(1, (left if advance else min(left, 1)) + 1))
        for left in range(6)
    )
    for advance in (False, True)
}
_ORDER_TOTALS = {advance: tuple(map(sum, counts)) for advance, counts in _ORDER_COUNTS.items()}
# The ways to keep n of the cards drawn, per (drawn, n): a few hundred at most.
_KEEP_CHOICES: dict[tuple, tuple] = {}
_FRAMED_SET = frozenset(FRAMED)
_SUPPLIES = ("largest", "smallest")
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
def _choice(rng: Any, seq: Any) -> Any:
    n = len(seq)
    if not n or not (_STDLIB_SAMPLER.get(type(rng)) or _stdlib_sampler(type(rng))):
        return rng.choice(seq)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return seq[r]


def _shuffle(rng: Any, x: list) -> None:
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


def _randrange(rng: Any, start: int, stop: int) -> int:
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


def _sample(rng: Any, population: Any, k: int, by_index: bool = False) -> list:
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


def _random_order(st: State, rng: Any) -> dict[str, Any]:
    """Uniform over the answers ``_next_provinces`` lists, without listing them."""
    left = [PROVINCES[p] for p in range(5) if p not in st.fought]
    advance = bool(rulings.ORDER_MAY_BE_NAMED_IN_ADVANCE)
    counts = _ORDER_COUNTS[advance][len(left)]
    pick = _randrange(rng, 0, _ORDER_TOTALS[advance][len(left)])
    k = 1
    while pick >= counts[k - 1]:
        pick -= counts[k - 1]
        k += 1
    return {"type": "next_province", "provinces": _sample(rng, left, k)}


def _random_placement(st: State, seat: int, rng: Any) -> dict[str, Any]:
    hand = st.hands[seat]
    kept, spent = st.kept[seat], st.spent[seat]
    double = "double_six" in kept and "double_six" not in spent  # holds()
    plays: list[dict[str, Any]] = []
    markers = st.markers
    while True:
        cards = _sample(rng, hand, 5, by_index=True)
        if "6" not in cards or not markers[cards.index("6")][seat]:
            break
        if double:
            plays.append({"warlord": "double_six"})
            break
    command: dict[str, Any] = {"type": "place", "cards": dict(zip(PROVINCES, cards, strict=True))}
    if st.variant == "standard" and rng.random() < 0.5:
        options = [p for p in warlord_plays(st, seat) if p["warlord"] != "double_six"]
        if options:
            plays.append(_choice(rng, options))
    if plays:
        command["warlords"] = plays
    if kept:
        arm = {}
        for warlord in _REACTIVE_SORTED:
            if warlord in kept and warlord not in spent and rng.random() < 0.5:  # holds()
                arm[warlord] = _choice(rng, PROVINCES) if warlord == "restraint" else True
        if arm:
            command["arm"] = arm
    if rng.random() < 0.3:
        order = list(PROVINCES)
        _shuffle(rng, order)
        command["order"] = order[: _randrange(rng, 1, _longest_order(5) + 1)]
    roll = rng.random()
    if roll < 0.3:
        command["supply"] = _choice(rng, _SUPPLIES)
    elif roll < 0.4:
        command["supply"] = _sample(rng, PROVINCES, 5)
    # The spare cards matter only with armies set aside; whether there is one is told by
    # sets, the list made only when one is drawn.
    if st.aside[seat] and not _FRAMED_SET.union(cards).issuperset(hand) and rng.random() < 0.05:
        spare = [c for c in hand if c not in FRAMED and c not in cards]
        command["reinforce"] = [_choice(rng, spare)]
    return command
