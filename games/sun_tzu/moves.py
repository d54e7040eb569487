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
from games.sun_tzu.draws import choice, randrange, sample, shuffle
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
        return {"type": "keep", "cards": list(choice(rng, combos))}
    if kind == "sources":  # the answers listed, the one drawn made
        return _source_answer(*choice(rng, _source_choices(st, seat)))
    return choice(rng, _ANSWERS[kind](st, seat))


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


def _random_order(st: State, rng: Any) -> dict[str, Any]:
    """Uniform over the answers ``_next_provinces`` lists, without listing them."""
    left = [PROVINCES[p] for p in range(5) if p not in st.fought]
    advance = bool(rulings.ORDER_MAY_BE_NAMED_IN_ADVANCE)
    counts = _ORDER_COUNTS[advance][len(left)]
    pick = randrange(rng, 0, _ORDER_TOTALS[advance][len(left)])
    k = 1
    while pick >= counts[k - 1]:
        pick -= counts[k - 1]
        k += 1
    return {"type": "next_province", "provinces": sample(rng, left, k)}


def _random_placement(st: State, seat: int, rng: Any) -> dict[str, Any]:
    hand = st.hands[seat]
    kept, spent = st.kept[seat], st.spent[seat]
    double = "double_six" in kept and "double_six" not in spent  # holds()
    plays: list[dict[str, Any]] = []
    markers = st.markers
    while True:
        cards = sample(rng, hand, 5, by_index=True)
        if "6" not in cards or not markers[cards.index("6")][seat]:
            break
        if double:
            plays.append({"warlord": "double_six"})
            break
    command: dict[str, Any] = {"type": "place", "cards": dict(zip(PROVINCES, cards, strict=True))}
    if st.variant == "standard" and rng.random() < 0.5:
        options = [p for p in warlord_plays(st, seat) if p["warlord"] != "double_six"]
        if options:
            plays.append(choice(rng, options))
    if plays:
        command["warlords"] = plays
    if kept:
        arm = {}
        for warlord in _REACTIVE_SORTED:
            if warlord in kept and warlord not in spent and rng.random() < 0.5:  # holds()
                arm[warlord] = choice(rng, PROVINCES) if warlord == "restraint" else True
        if arm:
            command["arm"] = arm
    if rng.random() < 0.3:
        order = list(PROVINCES)
        shuffle(rng, order)
        command["order"] = order[: randrange(rng, 1, _longest_order(5) + 1)]
    roll = rng.random()
    if roll < 0.3:
        command["supply"] = choice(rng, _SUPPLIES)
    elif roll < 0.4:
        command["supply"] = sample(rng, PROVINCES, 5)
    # The spare cards matter only with armies set aside; whether there is one is told by
    # sets, the list made only when one is drawn.
    if st.aside[seat] and not _FRAMED_SET.union(cards).issuperset(hand) and rng.random() < 0.05:
        spare = [c for c in hand if c not in FRAMED and c not in cards]
        command["reinforce"] = [choice(rng, spare)]
    return command
