"""Builders for the Sun Tzu known-answer tests: positions, commands and checked moves.

A position is made the way a game makes it (``setup`` folded, Warlords chosen), then its
fields are replaced with the values a test needs. ``act`` sends one command through
``decide``, checks that ``decide`` left its input untouched, and folds the events.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from games.base import RulesError
from games.sun_tzu import RULES
from games.sun_tzu.components import ARMIES_PER_PLAYER, PROVINCE_INDEX, PROVINCES
from games.sun_tzu.state import State

QIN, CHU, JIN_YAN, HAN_QI, WU = range(5)
EMPTY = ((0, 0),) * 5

# Score displays for the tests (all printed ones): round 3 column 3, 2, 1, 2, 1.
DISPLAYS = ((3, 1, 5), (2, 3, 2), (1, 2, 4), (2, 5, 2), (1, 3, 5))

# Cards that make a battle where nothing happens when both players play the same one.
FILLERS = ("2", "3", "4", "5", "7", "8")


def board(**armies: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """Per-province pairs from keywords: ``board(Wu=(6, 0), Qin=(0, 2))``."""
    out = [(0, 0)] * 5
    for name, pair in armies.items():
        out[PROVINCE_INDEX[name.replace("_", "-")]] = pair
    return tuple(out)


def new_game(
    variant: str = "standard",
    events: bool = False,
    seed: int = 0,
    warlords: tuple[str, str] | None = ("manoeuvre", "remove"),
) -> State:
    """A freshly set-up game; in the standard game both Warlords are chosen."""
    st = RULES.fold(RULES.setup({"variant": variant, "events": events}, random.Random(seed)))
    if variant == "standard" and warlords:
        for seat, warlord in zip(("blue", "red"), warlords, strict=True):
            st, _ = act(st, seat, {"type": "choose_warlord", "warlord": warlord})
    return st


def position(
    *,
    variant: str = "standard",
    round: int = 1,
    armies: tuple = EMPTY,
    markers: tuple = EMPTY,
    aside: tuple[int, int] | None = None,
    reserve: tuple[int, int] | None = None,
    hands: tuple | None = None,
    decks: tuple = ((), ()),
    kept: tuple = ((), ()),
    spent: tuple = ((), ()),
    score: int = 0,
    privilege: int | None = None,
    displays: tuple = DISPLAYS,
    events: tuple[str, ...] | None = None,
    **fields: Any,
) -> State:
    """A position at the placement of ``round``. The reserve, unless given, is what is left
    of each player's 21 armies after the set-aside pool, the board and the 6-markers.
    ``events``: the face-up event card then the event deck, in order (None: no events)."""
    st = new_game(variant=variant).copy()
    if aside is None:
        aside = (3, 3) if variant == "standard" else (0, 0)
    if reserve is None:
        reserve = tuple(
            ARMIES_PER_PLAYER - aside[s] - sum(a[s] for a in armies) - sum(m[s] for m in markers)
            for s in (0, 1)
        )
    if hands is None:
        hands = (("1", "2", "3", "4", "5", "6", "7", "8", "9", "10"),) * 2
    st.round = round
    st.phase = "place"
    st.armies = tuple(armies)
    st.markers = tuple(markers)
    st.aside = tuple(aside)
    st.reserve = tuple(reserve)
    st.hands = tuple(tuple(h) for h in hands)
    st.decks = tuple(tuple(d) for d in decks)
    st.kept = tuple(tuple(k) for k in kept)
    st.spent = tuple(tuple(s) for s in spent)
    st.score = score
    st.privilege = privilege
    st.displays = tuple(displays)
    if events is not None:
        st.events_on = True
        st.event_up = events[0] if events else None
        st.event_deck = tuple(events[1:])
    for name, value in fields.items():
        assert hasattr(st, name), name
        setattr(st, name, value)
    return st


def place(cards: Any, **extra: Any) -> dict[str, Any]:
    """A place command; ``cards`` in board order (Qin, Chu, Jin-Yan, Han-Qi, Wu) or a dict."""
    if not isinstance(cards, dict):
        cards = dict(zip(PROVINCES, cards, strict=True))
    return {"type": "place", "cards": cards, **extra}


def cards_of(*cards: str) -> dict[str, str]:
    """Cards in board order as the ``cards`` object of a placement."""
    return dict(zip(PROVINCES, cards, strict=True))


def snapshot(st: State) -> dict[str, Any]:
    return copy.deepcopy(st.__dict__)


def act(st: State, seat: str, command: dict[str, Any], seed: int = 0) -> tuple[State, list]:
    """Send a command; check that decide left its input alone; fold the events."""
    before = snapshot(st)
    sent = copy.deepcopy(command)
    events = RULES.decide(st, seat, command, random.Random(seed))
    assert st.__dict__ == before, "decide changed the state it was given"
    assert command == sent, "decide changed the command it was given"
    return RULES.fold(events, st), events


def reject(st: State, seat: str, command: dict[str, Any], *words: str) -> str:
    """Check that the command is refused with a message containing every one of ``words``,
    and that the state is untouched; return the message."""
    before = snapshot(st)
    with pytest.raises(RulesError) as info:
        RULES.decide(st, seat, command, random.Random(0))
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    assert st.__dict__ == before, "a refused command changed the state"
    return message


def play_round(
    st: State,
    blue: Any,
    red: Any,
    blue_extra: dict[str, Any] | None = None,
    red_extra: dict[str, Any] | None = None,
    first: str = "blue",
) -> tuple[State, list]:
    """Both placements (``first`` places first); returns the state and all events."""
    commands = {
        "blue": place(blue, **(blue_extra or {})),
        "red": place(red, **(red_extra or {})),
    }
    second = "red" if first == "blue" else "blue"
    st, events1 = act(st, first, commands[first])
    st, events2 = act(st, second, commands[second])
    return st, events1 + events2


def lineup(province: str, blue_card: str, red_card: str) -> tuple[list[str], list[str]]:
    """Placements where only ``province`` sees a real battle: the other four provinces get
    the same filler card from both players (a tie that does nothing)."""
    fillers = [c for c in FILLERS if c not in (blue_card, red_card)][:4]
    blue, red = [], []
    for name in PROVINCES:
        if name == province:
            blue.append(blue_card)
            red.append(red_card)
        else:
            card = fillers.pop(0)
            blue.append(card)
            red.append(card)
    return blue, red


def hands_for(blue: list[str], red: list[str], extra: tuple[str, ...] = ("+1",)) -> tuple:
    return (tuple(blue) + extra, tuple(red) + extra)


def fight(
    province: str,
    blue_card: str,
    red_card: str,
    *,
    extra: tuple[str, ...] = ("+1",),
    blue_extra: dict[str, Any] | None = None,
    red_extra: dict[str, Any] | None = None,
    **kw: Any,
) -> tuple[State, list]:
    """One real battle in ``province`` (fillers elsewhere), from a position built with
    ``kw``; the hands hold exactly the placed cards plus ``extra``."""
    blue, red = lineup(province, blue_card, red_card)
    kw.setdefault("hands", hands_for(blue, red, extra))
    st = position(**kw)
    return play_round(st, blue, red, blue_extra, red_extra)


def of_type(events: list, kind: str, **match: Any) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind and all(e.get(k) == v for k, v in match.items())]


def only(events: list, kind: str, **match: Any) -> dict[str, Any]:
    found = of_type(events, kind, **match)
    assert len(found) == 1, f"expected one {kind} {match}, got {found}"
    return found[0]


def battle_in(events: list, province: str) -> dict[str, Any]:
    """What the events say about the battle in ``province``: one ``battle`` event, or its
    parts (``battle_revealed`` and ``battle_resolved``) merged."""
    merged: dict[str, Any] = {}
    for e in events:
        if e["type"] in ("battle", "battle_revealed", "battle_resolved") and (
            e.get("province") == province
        ):
            merged.update({k: v for k, v in e.items() if k != "type"})
    assert merged, f"no battle in {province}"
    return merged


def revealed_order(events: list) -> list[str]:
    return [e["province"] for e in events if e["type"] in ("battle", "battle_revealed")]


def totals(st: State, seat: int) -> int:
    """Every army of a player, wherever it is (always 21)."""
    return (
        st.reserve[seat]
        + st.aside[seat]
        + sum(a[seat] for a in st.armies)
        + sum(m[seat] for m in st.markers)
    )


QUIET = ("2", "3", "4", "5", "7")


def quiet_round(
    st: State,
    blue_extra: dict[str, Any] | None = None,
    red_extra: dict[str, Any] | None = None,
    first: str = "blue",
) -> tuple[State, list]:
    """A round where every battle is a tie (both place 2, 3, 4, 5, 7); both players name
    the board order in advance, so the privilege holder is never asked."""
    order = {"order": list(PROVINCES)}
    return play_round(
        st, QUIET, QUIET, {**order, **(blue_extra or {})}, {**order, **(red_extra or {})}, first
    )
