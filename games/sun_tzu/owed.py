"""Questions a Sun Tzu position answers: who holds which Warlord, which decision each seat
owes now (``owed``), where the armies a task moves come from, which province is fought
next. Pure reads of the state; the automatic events are ``flow``'s."""

from __future__ import annotations

from typing import Any

from games.sun_tzu import battle, rulings
from games.sun_tzu.components import (
    BLUE,
    RED,
    SEATS,
    WARLORDS_OF,
)
from games.sun_tzu.state import State


def holds(st: State, seat: int, warlord: str) -> bool:
    """The seat kept this Warlord and has not played it yet."""
    return warlord in st.kept[seat] and warlord not in st.spent[seat]


def armed(st: State, seat: int, warlord: str) -> Any:
    return holds(st, seat, warlord) and st.plans[seat].get("arm", {}).get(warlord)


def unused_warlords(st: State, seat: int) -> list[str]:
    """The Warlords this seat may still take as an extra one (War chariot)."""
    return [
        w
        for w in WARLORDS_OF[seat]
        if w not in st.kept[seat] and w not in rulings.NOT_AN_EXTRA_WARLORD
    ]


# ---------------------------------------------------------------------------------------
# Which decisions are owed.
def task_moves(st: State, task: dict[str, Any]) -> list | None:
    """The moves that settle an army task, or None when its seat must choose."""
    seat = SEATS.index(task["seat"])
    reserve = st.reserve[seat]
    n = task["n"]
    if n <= reserve:  # the usual case: all from the reserve (battle.take_moves' first move)
        return [[task["seat"], "reserve", task["to"], n]] if n else []
    need = battle.board_need(reserve, task)
    policy = st.plans[seat].get("supply")
    if (
        need
        and rulings.OFFER_REINFORCEMENT_WHEN_SHORT
        and policy is None
        and st.aside[seat]
        and st.hands[seat]  # any card: see rulings.OFFER_REINFORCEMENT_WHEN_SHORT
    ):
        return None  # a winner's margin or a cost alike: the rules offer the reinforcement
    take: dict[int, int] | None = {}
    if need:
        tiers = battle.source_tiers(st.armies, seat, task)
        take = battle.forced_take(tiers, need)
        if take is None:
            if policy is None:
                return None
            take = battle.policy_take(tiers, need, policy)
    return battle.take_moves(seat, reserve, task, take)


def next_province(st: State) -> int | None:
    """The province fought next, or None when the privilege holder must name it."""
    fought = st.fought
    if st.privilege is None or st.round == 1:
        return len(fought)  # the fixed order is board order
    if st.order:
        return st.order[0]
    if len(fought) == 4:
        return 10 - sum(fought)  # the one province left (0 + 1 + 2 + 3 + 4 = 10)
    return None


# What ``decide`` found owed in the state it left (``remember``): asked of that very state
# again by ``pending``, ``random_command`` and the next ``decide``. Keyed by identity; a
# State is never changed in place once handed out (state.py), and the scratch states that
# are (``run``'s) ask ``due`` itself. Replaced whole, read once: safe across threads.
_memo: tuple[State | None, dict[int, str]] = (None, {})


def remember_owed(st: State, due: dict[int, str]) -> None:
    global _memo
    _memo = (st, due)


def owed(st: State) -> dict[int, str]:
    """Seat index → kind of decision owed now (empty when the flow can go on by itself).
    The dict is shared: read it, never change it."""
    memo = _memo
    if st is memo[0]:
        return memo[1]
    return due(st)


def due(st: State) -> dict[int, str]:
    """``owed`` worked out afresh (for a state that changes: ``run``'s scratch state)."""
    extra = st.extra
    if extra[BLUE] or extra[RED] or st.tasks:
        return _due(st)
    # The usual cases, unrolled (the flow asks this after every automatic event): what
    # ``_due`` answers without extra Warlords or army tasks owed.
    phase = st.phase
    if phase == "battle":
        # Mostly between battles: the holder names the next province, or nothing is owed.
        if st.current is None and len(st.fought) < 5 and next_province(st) is None:
            return {st.privilege: "next_province"}
        return {}
    if phase == "place":
        blue, red = st.placed
        if blue is None:
            return {BLUE: "place", RED: "place"} if red is None else {BLUE: "place"}
        return {RED: "place"} if red is None else {}
    if phase == "draw":
        blue, red = st.drawn
        if rulings.ALWAYS_ASK_TO_KEEP:
            if blue:
                return {BLUE: "keep", RED: "keep"} if red else {BLUE: "keep"}
            return {RED: "keep"} if red else {}
    elif phase == "over" or phase == "prebattle" or phase == "scored":
        return {}
    return _due(st)


def _due(st: State) -> dict[int, str]:
    """``due`` in general."""
    phase = st.phase
    out: dict[int, str] = {}
    if phase == "over":
        return out
    extra = st.extra
    if extra[BLUE]:
        out[BLUE] = "extra_warlord"
    if extra[RED]:
        out[RED] = "extra_warlord"
    if phase == "battle" and not st.tasks:
        if st.current is None and len(st.fought) < 5 and next_province(st) is None:
            out.setdefault(st.privilege, "next_province")
    elif phase == "warlords":
        kept = st.kept
        if not kept[BLUE]:
            out.setdefault(BLUE, "choose_warlord")
        if not kept[RED]:
            out.setdefault(RED, "choose_warlord")
    elif phase == "place":
        placed = st.placed
        if placed[BLUE] is None:
            out.setdefault(BLUE, "place")
        if placed[RED] is None:
            out.setdefault(RED, "place")
    elif phase == "draw":
        for seat in (BLUE, RED):
            drawn = st.drawn[seat]
            if drawn and (rulings.ALWAYS_ASK_TO_KEEP or len(set(drawn)) > 1):
                out.setdefault(seat, "keep")
    elif st.tasks:
        task = st.tasks[0]
        if task_moves(st, task) is None:
            out.setdefault(SEATS.index(task["seat"]), "sources")
    elif phase == "after":
        window = st.window
        if window[BLUE] is None:
            out.setdefault(BLUE, "after_battles")
        if window[RED] is None:
            out.setdefault(RED, "after_battles")
    return out
