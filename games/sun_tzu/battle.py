"""Battle arithmetic: what two revealed cards do, and where armies come from.

Pure functions over plain values; the flow (``flow.py``) turns their answers into events.
"""

from __future__ import annotations

from typing import Any

from games.i18n import said
from games.sun_tzu import rulings
from games.sun_tzu.components import BONUS, MINUS, NUMBERS, PLAGUE, PROVINCE_INDEX, PROVINCES, SEATS

# A card's value in a battle: ("number", n) | ("bonus", k) | ("minus", 1) | ("plague", 0).
Value = tuple[str, int]


def value_of(card: str, *, restrained: bool = False, counter_plagued: bool = False) -> Value:
    if card == PLAGUE:
        return ("number", 0) if counter_plagued else ("plague", 0)
    if card in BONUS:
        return ("bonus", BONUS[card])
    if card == MINUS:
        return ("minus", 1)
    n = NUMBERS[card]
    if restrained and 7 <= n <= 10:
        return ("number", 6)
    return ("number", n)


def compare(blue: Value, red: Value) -> tuple[int | None, int]:
    """(winner seat or None, margin) for two non-Plague values (the rules' table)."""
    (kb, b), (kr, r) = blue, red
    if kb == "number" and kr == "number":
        if b == r:
            return None, 0
        return (0, b - r) if b > r else (1, r - b)
    if kb == "bonus" and kr == "bonus":
        if b == r:
            return None, 0
        return (0, b - r) if b > r else (1, r - b)
    if kb == "minus" and kr == "minus":
        return None, 0
    if kb == "bonus":  # against a number or a -1
        return 0, b if kr == "number" else rulings.bonus_against_minus(b)
    if kr == "bonus":
        return 1, r if kb == "number" else rulings.bonus_against_minus(r)
    # a -1 against a number: the number wins by 1
    return (0, 1) if kb == "number" else (1, 1)


def margin_moves(armies: tuple[int, int], winner: int, margin: int) -> tuple[int, int]:
    """Applying a winning margin to a province: (loser's armies removed, winner's to add).

    The four cases of the rules: empty or the winner's → add d; the loser's with more than
    d → remove d; exactly d → remove all; fewer (n) → remove n and add d − n.
    """
    held = armies[1 - winner]
    if held == 0:
        return 0, margin
    if held >= margin:
        return margin, 0
    return held, margin - held


# ---------------------------------------------------------------------------------------
# Where owed armies come from.
def source_tiers(armies: tuple[tuple[int, int], ...], seat: int, task: dict[str, Any]) -> list:
    """The board source tiers of a task, in the order the rules use them.

    Winning armies (``task["kind"] == "supply"``): provinces adjacent to the battle, then
    any other; never the battle province itself. Costs (6-marker, set-aside): any province.
    Each tier is a list of ``(province, armies available)`` with armies > 0.
    """
    if task["kind"] == "supply":
        target = PROVINCE_INDEX[task["province"]]
        near = rulings.ADJACENT[target]
        first = [(p, armies[p][seat]) for p in sorted(near) if armies[p][seat]]
        rest = [
            (p, armies[p][seat])
            for p in range(5)
            if p != target and p not in near and armies[p][seat]
        ]
        return [first, rest]
    every = [(p, armies[p][seat]) for p in range(5) if armies[p][seat]]
    if not rulings.SIDE_EFFECT_SOURCES_INCLUDE_BATTLE_PROVINCE and "province" in task:
        every = [(p, n) for p, n in every if PROVINCES[p] != task["province"]]
    return [every]


def board_need(reserve: int, task: dict[str, Any]) -> int:
    return max(0, task["n"] - reserve)


def forced_take(tiers: list, need: int) -> dict[int, int] | None:
    """The board take when the rules leave no choice, else None."""
    take: dict[int, int] = {}
    for tier in tiers:
        if need == 0:
            break
        total = sum(n for _, n in tier)
        if total <= need:
            for p, n in tier:
                take[p] = n
            need -= total
        elif len(tier) == 1:
            take[tier[0][0]] = need
            need = 0
        else:
            return None
    return take


def policy_take(tiers: list, need: int, policy: Any) -> dict[int, int]:
    """The board take a standing choice gives: "largest" / "smallest" stack first, or a
    list of province names in order of preference (unlisted provinces last)."""
    take: dict[int, int] = {}
    for tier in tiers:
        if isinstance(policy, list):
            rank = {PROVINCES.index(name): i for i, name in enumerate(policy)}
            ordered = sorted(tier, key=lambda pn: (rank.get(pn[0], 99), pn[0]))
        else:
            sign = -1 if policy == "largest" else 1
            ordered = sorted(tier, key=lambda pn: (sign * pn[1], pn[0]))
        for p, n in ordered:
            if need == 0:
                return take
            k = min(n, need)
            take[p] = k
            need -= k
    return take


def take_error(tiers: list, need: int, take: dict[int, int]) -> str | None:
    """Why a chosen board take breaks the rules (None when it is fine)."""
    available = {p: n for tier in tiers for p, n in tier}
    for p, k in take.items():
        if p not in available:
            return said("you cannot take armies from {province} for this", province=PROVINCES[p])
        if k > available[p]:
            return said(
                "you have only {n} armies in {province}", n=available[p], province=PROVINCES[p]
            )
    expected = rulings.armies_placed(need, sum(available.values()))
    if sum(take.values()) != expected:
        return said("you must take exactly {expected} armies from the board", expected=expected)
    for i, tier in enumerate(tiers[:-1]):
        emptied = all(take.get(p, 0) == n for p, n in tier)
        later = any(take.get(p, 0) for t in tiers[i + 1 :] for p, _ in t)
        if later and not emptied:
            names = ", ".join(PROVINCES[p] for p, _ in tier)
            return said("take from the adjacent provinces ({names}) before any other", names=names)
    return None


def take_moves(seat: int, reserve: int, task: dict[str, Any], take: dict[int, int]) -> list:
    """The ``[seat, from, to, n]`` moves that settle a task."""
    who = SEATS[seat]
    dest = task["to"]
    moves = []
    from_reserve = min(reserve, task["n"])
    if from_reserve:
        moves.append([who, "reserve", dest, from_reserve])
    for p in sorted(take):
        if take[p]:
            moves.append([who, PROVINCES[p], dest, take[p]])
    return moves
