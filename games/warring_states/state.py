"""The state of a game of Warring States and ``evolve``: one event applied, mechanically.

The state is plain JSON-ready data (a dict), so a snapshot is the state itself and the
position notation is exact. ``decide`` (``rules.py``) works out every consequence and puts
it in the events; ``evolve`` only writes what an event carries, never decides, never fails.

Board. ``areas``: area -> ``{"city": stack | None, "field": [stack, ...]}``; a stack is
``{"force", "ready", "tired", "gens": {general: ready?}}`` (armies ready / exhausted, and
the general counters with their side up). ``track``: force -> ``{"box", "received"}``.
``pool``: general -> ``"available" | "removed" | turn number it is available again`` for
generals off the map. Cards: ``decks``/``hands``/``discards``/``removed`` by side.
Any event may carry the mechanical fields ``areas`` (new content of those areas),
``track`` (new positions), ``pool`` (new pool entries; null removes) and ``op`` (the
operation in progress, or null).
"""

from __future__ import annotations

import json
from typing import Any

from games.remembered import SETUP, Remembered

State = dict[str, Any]


def initial() -> State:
    return {
        "scenario": None,
        "victory": "basic",
        "config": {},
        "turns": 0,
        "target": 0,
        "phase": "new",  # new | bid | play | over
        "sides": {},  # seat -> side
        "bids": {},
        "turn": 0,
        "active": None,  # side whose action phase it is
        "passes": 0,  # passes in succession
        "initiative": {"side": None, "flipped": False},
        "areas": {},
        "track": {},
        "pool": {},
        "eliminated": [],
        "decks": {"lianheng": [], "alliance": []},
        "hands": {"lianheng": [], "alliance": []},
        "discards": {"lianheng": [], "alliance": []},  # [{"card", "up"}], newest last
        "removed": {"lianheng": [], "alliance": []},
        "op": None,
        "standing": {},  # seat -> standing instructions for response windows
        "prompts": 0,  # response windows a seat was asked at (for the README's figure)
        "result": None,
    }


_ATOMS = (str, int, bool, type(None))


def copy(value: Any) -> Any:
    """A deep copy of plain data: what a JSON round trip gives (tuples become lists), done
    without the text in between."""
    t = type(value)
    if t is dict:
        out = {}
        for k, v in value.items():
            if type(k) is not str:  # a key JSON would turn into a string
                return json.loads(json.dumps(value))
            tv = type(v)
            if tv in _ATOMS:
                out[k] = v
            elif tv is list:  # (the list branch below, inline: an area's field)
                out[k] = [x if type(x) in _ATOMS else copy(x) for x in v]
            else:
                out[k] = copy(v)
        return out
    if t is list or t is tuple:
        return [v if type(v) in _ATOMS else copy(v) for v in value]
    if t in _ATOMS:
        return value
    return json.loads(json.dumps(value))


def copy_area(content: dict) -> dict:
    """``copy`` of an area's content (``city`` and ``field``, stacks of atoms and their
    ``gens``), written out for that shape: the rules copy an area for nearly every change
    to the board. Any other shape goes through ``copy``."""
    if len(content) != 2:
        return copy(content)
    new = dict(content)
    city = content["city"]
    if city is not None:
        new["city"] = _copy_stack(city)
    new["field"] = [_copy_stack(s) for s in content["field"]]
    return new


def _copy_stack(stack: dict) -> dict:
    if len(stack) != 4 or type(stack["force"]) is not str:
        return copy(stack)
    new = dict(stack)  # force, ready, tired: atoms
    new["gens"] = dict(stack["gens"])  # general -> bool
    return new


def thaw(state: State) -> State:
    """A copy ``apply_in_place`` may change: the top level and the containers it writes
    into are new, everything below is shared (``apply_in_place`` never changes a value
    below those: it replaces). Much cheaper than a deep copy, and just as safe."""
    new = dict(state)
    for key in (
        "areas",
        "track",
        "pool",
        "bids",
        "standing",
        "decks",
        "hands",
        "discards",
        "removed",
    ):
        new[key] = dict(state[key])
    return new


# the containers ``apply_in_place`` writes into, by event type (beside the mechanical fields
# ``areas``, ``track``, ``pool``); every other write replaces a top-level value
WRITES = {
    "bid_made": ("bids",),
    "deck_shuffled": ("decks", "discards"),
    "cards_drawn": ("decks", "hands"),
    "card_played": ("hands", "discards"),
    "hand_discarded": ("hands", "discards"),
    "card_discarded": ("hands", "discards"),
    "deck_searched": ("decks",),
    "card_cancelled": ("discards", "removed"),
    "standing_set": ("standing",),
}


def evolve(state: State, event: dict[str, Any]) -> State:
    """A new state; only the containers this event writes into are copied (``thaw``).
    Does what ``apply_in_place`` does, on those copies: keep the two (and
    ``rules.Ctx.emit``) in step. The events of ``SORTED`` are read as the store gives
    them back (``sorted_copy``)."""
    new = dict(state)
    kind = event["type"]
    if kind in SORTED:
        event = sorted_copy(event)
    for key in WRITES.get(kind, ()):
        new[key] = dict(state[key])
    if "areas" in event:  # (as apply_in_place: new contents replace the old)
        new["areas"] = {**state["areas"], **event["areas"]}
    if "track" in event:
        new["track"] = track = dict(state["track"])
        set_or_drop(track, event["track"])
    if "pool" in event:
        new["pool"] = pool = dict(state["pool"])
        set_or_drop(pool, event["pool"])
    if "op" in event:
        new["op"] = event["op"]
    apply = APPLY.get(kind)
    if apply is not None:
        apply(new, event)
    return new


# The state the last decision left, for the fold that follows it (``games.remembered``),
# and what is owed in it (``rules.pending``), asked by identity too: a state handed out is
# never changed in place.
REMEMBERED = Remembered()
owed: tuple[Any, Any] = (None, None)  # (the state a decision left, what is owed in it)


def remember(start: State, events: list[dict], final: State, due: dict) -> None:
    """Keep the state ``events`` lead to from ``start`` (``final``, which nobody changes
    from now on) and what is owed in it."""
    global owed
    REMEMBERED.keep(start, events, final)
    owed = (final, due)


def remember_setup(events: list[dict], final: State) -> None:
    """Keep the state a game's first events (``rules.setup``) lead to from nothing."""
    REMEMBERED.keep(SETUP, events, final)


def taken(start: Any, events: Any) -> State | None:
    """The remembered state ``events`` lead to from ``start`` (``SETUP``: from nothing),
    handed out once, or None when these are not the events remembered."""
    return REMEMBERED.take(start, events)


def owed_in(state: State) -> dict | None:
    """What is owed in ``state`` if it is the state the last decision left, else None
    (read it, never change it)."""
    known = owed
    return known[1] if state is known[0] else None


def evolve_all(state: State, events: list[dict[str, Any]]) -> State:
    """The state after one decision's events (``games.base.Rules``): what ``evolve``
    gives applied to each in turn; the state ``decide`` left when these are its very
    events from this very state (``remember``), handed out once."""
    if type(events) is not list and type(events) is not tuple:
        events = list(events)
    final = taken(state, events)
    if final is not None:
        return final
    for event in events:
        state = evolve(state, event)
    return state


SORTED = frozenset({"board_set"})  # the events whose dicts become the state's as they are


def sorted_copy(value: Any) -> Any:
    """What a JSON round trip with sorted keys gives (a new copy, tuples become lists),
    without the text in between (a whole board per game); anything else JSON would change
    (a key that is not a string, a float) goes through JSON itself."""
    t = type(value)
    if t is dict:
        if all(type(k) is str for k in value):
            return {k: sorted_copy(value[k]) for k in sorted(value)}
    elif t is list or t is tuple:
        return [sorted_copy(v) for v in value]
    elif t in _ATOMS:
        return value
    return json.loads(json.dumps(value, sort_keys=True, ensure_ascii=False))


def fold(events: Any, state: State | None = None) -> State:
    st = initial() if state is None else thaw(state)
    for event in events:
        apply_in_place(st, event)
    return st


def _take(cards: list[str], taken: list[str]) -> list[str]:
    left = list(cards)
    for c in taken:
        if c in left:
            left.remove(c)
    return left


def set_or_drop(into: dict, changes: dict) -> None:
    """The mechanical fields ``track`` and ``pool``: new values, null removes."""
    for key, value in changes.items():
        if value is None:
            into.pop(key, None)
        else:
            into[key] = value


def apply_in_place(st: State, ev: dict[str, Any]) -> None:
    # (``evolve`` does the same on copies, and so does ``rules.Ctx.emit``: keep them in step)
    if "areas" in ev:
        for area, content in ev["areas"].items():
            st["areas"][area] = content
    if "track" in ev:
        set_or_drop(st["track"], ev["track"])
    if "pool" in ev:
        set_or_drop(st["pool"], ev["pool"])
    if "op" in ev:
        st["op"] = ev["op"]
    apply = APPLY.get(ev["type"])  # None: only the mechanical fields above
    if apply is not None:
        apply(st, ev)


def _game_started(st: State, ev: dict[str, Any]) -> None:
    for key in ("scenario", "victory", "config", "turns", "target"):
        st[key] = ev[key]
    st["sides"] = dict(ev["sides"])
    st["phase"] = "bid" if not ev["sides"] else "play"


def _board_set(st: State, ev: dict[str, Any]) -> None:
    st["initiative"] = dict(ev["initiative"])


def _bid_made(st: State, ev: dict[str, Any]) -> None:
    st["bids"][ev["seat"]] = ev.get("rp")


def _bids_revealed(st: State, ev: dict[str, Any]) -> None:
    st["bids"] = dict(ev["bids"])
    st["sides"] = dict(ev["sides"])
    st["target"] = ev["target"]
    st["phase"] = "play"


def _deck_shuffled(st: State, ev: dict[str, Any]) -> None:
    st["decks"][ev["side"]] = list(ev.get("deck", []))
    st["discards"][ev["side"]] = []


def _cards_drawn(st: State, ev: dict[str, Any]) -> None:
    side, cards = ev["side"], ev.get("cards", [])
    deck = st["decks"][side]
    n = len(cards)
    if deck[:n] == cards:  # the cards off the top, as drawn (what _take gives then)
        st["decks"][side] = deck[n:]
    else:
        st["decks"][side] = _take(deck, cards)
    st["hands"][side] = st["hands"][side] + list(cards)


def _turn_started(st: State, ev: dict[str, Any]) -> None:
    st["turn"] = ev["turn"]
    st["active"] = ev["first"]
    st["passes"] = 0


def _card_played(st: State, ev: dict[str, Any]) -> None:
    side, card = ev["side"], ev.get("card")
    if card is not None:
        hand = st["hands"][side]
        if card in hand:  # (_take of one card, written out)
            i = hand.index(card)
            st["hands"][side] = hand[:i] + hand[i + 1 :]
        else:
            st["hands"][side] = list(hand)
        st["discards"][side] = [*st["discards"][side], {"card": card, "up": ev["face"] == "up"}]
    else:  # a redacted copy: the seat cannot tell which card left the hand
        st["hands"][side] = st["hands"][side][1:]
        st["discards"][side] = [*st["discards"][side], {"card": None, "up": False}]
    st["passes"] = 0


def _passed(st: State, ev: dict[str, Any]) -> None:
    st["passes"] += 1


def _phase_ended(st: State, ev: dict[str, Any]) -> None:
    st["active"] = ev["next"]


def _initiative_set(st: State, ev: dict[str, Any]) -> None:
    st["initiative"] = {"side": ev["side"], "flipped": ev["flipped"]}


def _force_eliminated(st: State, ev: dict[str, Any]) -> None:
    st["eliminated"] = [*st["eliminated"], ev["force"]]


def _hand_discarded(st: State, ev: dict[str, Any]) -> None:
    side = ev["side"]
    cards = ev.get("cards")
    n = len(cards) if cards is not None else ev.get("count", 0)
    st["hands"][side] = []
    st["discards"][side] = st["discards"][side] + [
        {"card": c, "up": False} for c in (cards or [None] * n)
    ]


def _card_discarded(st: State, ev: dict[str, Any]) -> None:
    side, card = ev["side"], ev.get("card")
    st["hands"][side] = _take(st["hands"][side], [card]) if card else st["hands"][side][1:]
    st["discards"][side] = [*st["discards"][side], {"card": card, "up": False}]


def _deck_searched(st: State, ev: dict[str, Any]) -> None:
    st["decks"][ev["side"]] = list(ev.get("deck", []))


def _card_cancelled(st: State, ev: dict[str, Any]) -> None:
    if ev["removed"]:  # Jing Ke: the cancelled card and Jing Ke leave the game
        for side, card in ((ev["side"], ev["card"]), ("alliance", "A_JING_KE")):
            st["discards"][side] = [d for d in st["discards"][side] if d["card"] != card]
            st["removed"][side] = [*st["removed"][side], card]


def _window_opened(st: State, ev: dict[str, Any]) -> None:  # (prompts: an int, replaced)
    st["prompts"] += 1


def _standing_set(st: State, ev: dict[str, Any]) -> None:
    st["standing"][ev["seat"]] = ev.get("standing")


def _game_ended(st: State, ev: dict[str, Any]) -> None:
    st["phase"] = "over"
    st["op"] = None
    st["result"] = {k: ev[k] for k in ("winner", "side", "reason", "qin_rp", "target")}


# what each event type writes beyond the mechanical fields (the others write only those)
APPLY = {
    "game_started": _game_started,
    "board_set": _board_set,
    "bid_made": _bid_made,
    "bids_revealed": _bids_revealed,
    "deck_shuffled": _deck_shuffled,
    "cards_drawn": _cards_drawn,
    "turn_started": _turn_started,
    "card_played": _card_played,
    "passed": _passed,
    "phase_ended": _phase_ended,
    "initiative_set": _initiative_set,
    "force_eliminated": _force_eliminated,
    "hand_discarded": _hand_discarded,
    "card_discarded": _card_discarded,
    "deck_searched": _deck_searched,
    "card_cancelled": _card_cancelled,
    "window_opened": _window_opened,
    "standing_set": _standing_set,
    "game_ended": _game_ended,
}
