"""The Sun Tzu position: one immutable value, and ``evolve`` that applies one event to it.

``State`` is treated as immutable: every field holds tuples, frozensets, ints, strings or
dicts that are never changed after they are built, and ``evolve`` returns a new ``State``
that shares whatever the event did not touch (a shallow copy, then copy-on-write of the
fields it changes). That keeps folding cheap and makes "decide never mutates its input"
true by construction.

Events are never changed after they are emitted, so a state may keep parts of an event by
reference (the current battle, a placement's plan, army tasks); whoever stores or wraps
events (the event store, the envelope) builds new objects and leaves the event as it is.

Per-seat fields are pairs indexed by seat (0 = blue, 1 = red); per-province fields are
5-tuples in board order.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from games.remembered import Remembered
from games.sun_tzu.components import (
    CARD_ORDER,
    FRAMED,
    PLAGUE,
    PROVINCE_INDEX,
    PROVINCES,
    SEATS,
)

SEAT_INDEX = {name: i for i, name in enumerate(SEATS)}
_BY_PROVINCE = itemgetter(*PROVINCES)
_FRAMED_SET = frozenset(FRAMED)  # a placement's cards in board order, as a tuple
DRAWN = -1  # ``plague_back``: the recycled Plague has been drawn (it may be in hand)


class State:
    """A complete Sun Tzu position, hidden parts included (never send it to a client)."""

    def __init__(self) -> None:
        self.variant = "standard"
        self.events_on = False
        self.round = 0
        self.phase = "new"
        self.displays: tuple[tuple[int, int, int], ...] = ()
        self.armies: tuple[tuple[int, int], ...] = ((0, 0),) * 5
        self.markers: tuple[tuple[int, int], ...] = ((0, 0),) * 5
        self.reserve = (0, 0)
        self.aside = (0, 0)
        self.score = 0
        self.hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        self.decks: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        self.gone: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # left face up
        self.burned: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # left face down
        self.drawn: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # awaiting "keep"
        self.keep_n = (0, 0)
        self.played_one = (False, False)
        self.kept: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # Warlords held
        self.spent: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # Warlords played
        self.extra = (0, 0)  # extra Warlords owed (War chariot)
        self.placed: tuple[tuple[str, ...] | None, tuple[str, ...] | None] = (None, None)
        self.plans: tuple[dict[str, Any], dict[str, Any]] = ({}, {})
        self.first_placer: int | None = None
        self.queue: tuple[tuple[int, dict[str, Any]], ...] = ()  # Warlord plays to apply
        self.deadly = False  # Deadly plague played this round
        self.privilege: int | None = None
        self.order: tuple[int, ...] = ()  # provinces named in advance by the holder
        self.fought: tuple[int, ...] = ()  # provinces resolved this round, in order
        self.current: int | None = None
        self.stage = ""
        self.battle: dict[str, Any] | None = None
        self.tasks: tuple[dict[str, Any], ...] = ()  # armies owed, head first
        self.recycled: tuple[tuple[int, int], ...] = ()  # (seat, province) cards recycled
        self.window: tuple[tuple | None, tuple | None] = ((), ())  # None = answer owed
        self.answered: tuple[int, ...] = ()
        self.event_up: str | None = None
        self.event_deck: tuple[str, ...] = ()
        self.events_done: tuple[str, ...] = ()
        self.plagues_played = 0  # Plague cards played so far, each counted once (Epidemic)
        # Per seat, where its recycled (already played) Plague is: cards above it in its
        # deck, DRAWN once the draws reached it, None when there is none (rulings.py).
        self.plague_back: tuple[int | None, int | None] = (None, None)
        self.outcome: dict[str, Any] | None = None

    def copy(self) -> State:
        # A shallow copy is enough: every field holds a value that is never changed in place.
        new = State.__new__(State)
        new.__dict__ = self.__dict__.copy()
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<sun-tzu State round={self.round} phase={self.phase} score={self.score}>"

    # Derived facts used by several modules.
    def on_board(self, seat: int) -> int:
        a, b, c, d, e = self.armies
        return a[seat] + b[seat] + c[seat] + d[seat] + e[seat]

    def owner(self, province: int) -> int | None:
        blue, red = self.armies[province]
        return 0 if blue else 1 if red else None


def with_seat(pair: tuple, seat: int, value: Any) -> tuple:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def sort_cards(cards: Any) -> tuple[str, ...]:
    return tuple(sorted(cards, key=CARD_ORDER.__getitem__))


def remove_cards(hand: tuple[str, ...], cards: Any) -> tuple[str, ...]:
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return tuple(rest)


# ---------------------------------------------------------------------------------------
# Army locations: "reserve", "aside", a province name, or "marker@<province>". Each has
# its own small function, read from a table (not parsed per move): moves are most of what
# evolve does, a few per battle.
def _add_reserve(st: State, seat: int, n: int) -> None:
    blue, red = st.reserve
    st.reserve = (blue + n, red) if seat == 0 else (blue, red + n)


def _add_aside(st: State, seat: int, n: int) -> None:
    blue, red = st.aside
    st.aside = (blue + n, red) if seat == 0 else (blue, red + n)


def _add_armies(p: int) -> Any:
    def add(st: State, seat: int, n: int) -> None:
        board = list(st.armies)
        blue, red = board[p]
        board[p] = (blue + n, red) if seat == 0 else (blue, red + n)
        st.armies = tuple(board)

    return add


def _add_marker(p: int) -> Any:
    def add(st: State, seat: int, n: int) -> None:
        board = list(st.markers)
        blue, red = board[p]
        board[p] = (blue + n, red) if seat == 0 else (blue, red + n)
        st.markers = tuple(board)

    return add


_ADD = {
    "reserve": _add_reserve,
    "aside": _add_aside,
    **{name: _add_armies(p) for name, p in PROVINCE_INDEX.items()},
    **{f"marker@{name}": _add_marker(p) for name, p in PROVINCE_INDEX.items()},
}


def move_armies(st: State, moves: Any) -> None:
    """Apply ``[seat, from, to, n]`` moves to a fresh copy (called only from evolve)."""
    add = _ADD
    for seat_name, src, dst, n in moves or ():
        seat = SEAT_INDEX[seat_name]
        add[src](st, seat, -n)
        add[dst](st, seat, n)


# ---------------------------------------------------------------------------------------
# evolve: one handler per event type; total, no validation, no randomness.
def _game_started(st: State, e: dict) -> None:
    st.variant = e["variant"]
    st.events_on = e["events"]
    st.displays = tuple(tuple(d) for d in e["displays"])
    st.reserve = tuple(e["reserve"])
    st.aside = tuple(e["aside"])
    st.event_up = e["event_up"]
    st.phase = "setup"


def _event_deck_shuffled(st: State, e: dict) -> None:
    st.event_deck = tuple(e["order"])


def _deck_shuffled(st: State, e: dict) -> None:
    seat = SEAT_INDEX[e["seat"]]
    st.decks = with_seat(st.decks, seat, tuple(e["deck"]))
    st.hands = with_seat(st.hands, seat, sort_cards(FRAMED))


def _cards_drawn(st: State, e: dict) -> None:
    seat = SEAT_INDEX[e["seat"]]
    cards = tuple(e["cards"])
    blue, red = st.decks
    st.decks = (blue[len(cards) :], red) if seat == 0 else (blue, red[len(cards) :])
    back = st.plague_back[seat]
    if back is not None and back != DRAWN:
        back -= len(cards)
        st.plague_back = with_seat(st.plague_back, seat, DRAWN if back < 0 else back)
    if len(cards) <= e["keep"]:
        st.hands = with_seat(st.hands, seat, sort_cards(st.hands[seat] + cards))
    else:
        blue, red = st.drawn
        st.drawn = (cards, red) if seat == 0 else (blue, cards)
        blue, red = st.keep_n
        st.keep_n = (e["keep"], red) if seat == 0 else (blue, e["keep"])


def _card_kept(st: State, e: dict) -> None:
    hands, decks = st.hands, st.decks
    if e["seat"] == "blue":
        st.hands = (sort_cards(hands[0] + tuple(e["keep"])), hands[1])
        st.decks = (decks[0] + tuple(e["bottom"]), decks[1])
        st.drawn = ((), st.drawn[1])
        st.keep_n = (0, st.keep_n[1])
    else:
        st.hands = (hands[0], sort_cards(hands[1] + tuple(e["keep"])))
        st.decks = (decks[0], decks[1] + tuple(e["bottom"]))
        st.drawn = (st.drawn[0], ())
        st.keep_n = (st.keep_n[0], 0)


def _warlords_to_choose(st: State, e: dict) -> None:
    st.phase = "warlords"


def _warlord_chosen(st: State, e: dict) -> None:
    seat = SEAT_INDEX[e["seat"]]
    st.kept = with_seat(st.kept, seat, (*st.kept[seat], e["warlord"]))
    if e.get("extra"):
        st.extra = with_seat(st.extra, seat, st.extra[seat] - 1)


def _warlord_played(st: State, e: dict) -> None:
    seat = SEAT_INDEX[e["seat"]]
    if st.queue and e.get("queued"):
        st.queue = st.queue[1:]
    if e.get("fizzled"):
        if e.get("spent"):
            st.spent = with_seat(st.spent, seat, (*st.spent[seat], e["warlord"]))
        return
    st.spent = with_seat(st.spent, seat, (*st.spent[seat], e["warlord"]))
    st.score += e.get("score", 0)
    if e["warlord"] == "deadly_plague":
        st.deadly = True
    move_armies(st, e.get("moves", ()))


def _round_started(st: State, e: dict) -> None:
    st.round = e["round"]
    st.phase = "place"
    st.placed = (None, None)
    st.plans = ({}, {})
    st.first_placer = None
    st.queue = ()
    st.deadly = False
    st.order = ()
    st.fought = ()
    st.current = None
    st.stage = ""
    st.battle = None
    st.recycled = ()
    st.played_one = (False, False)
    st.window = ((), ())
    st.answered = ()


def _placed(st: State, e: dict) -> None:
    cards = _BY_PROVINCE(e["cards"])
    rest = list(st.hands[0] if e["seat"] == "blue" else st.hands[1])
    for c in cards:
        rest.remove(c)
    if e["seat"] == "blue":
        st.placed = (cards, st.placed[1])
        st.hands = (tuple(rest), st.hands[1])
        st.plans = (e["plan"], st.plans[1])
        if st.first_placer is None:
            st.first_placer = 0
    else:
        st.placed = (st.placed[0], cards)
        st.hands = (st.hands[0], tuple(rest))
        st.plans = (st.plans[0], e["plan"])
        if st.first_placer is None:
            st.first_placer = 1


def _cards_down(st: State, e: dict) -> None:
    st.phase = "prebattle"
    st.queue = tuple((SEAT_INDEX[s], play) for s, play in e["plays"])


def _privilege_settled(st: State, e: dict) -> None:
    holder = e["holder"]
    st.privilege = None if holder is None else SEAT_INDEX[holder]
    st.phase = "battle"
    st.order = ()


def _order_named(st: State, e: dict) -> None:
    st.order = tuple(PROVINCE_INDEX[p] for p in e["provinces"])


def plagues_played(st: State, blue: str, red: str) -> None:
    """A battle's Plague cards leave play: the recycled one when its seat had drawn it
    (taken to be that one, rulings.py), else one more of the deck's."""
    for seat, card in ((0, blue), (1, red)):
        if card != PLAGUE:
            continue
        if st.plague_back[seat] == DRAWN:
            st.plague_back = with_seat(st.plague_back, seat, None)
        else:
            st.plagues_played += 1


def _battle_revealed(st: State, e: dict) -> None:
    p = PROVINCE_INDEX[e["province"]]
    st.current = p
    st.stage = "effects"
    if st.order and st.order[0] == p:
        st.order = st.order[1:]
    st.battle = e
    if e["moves"]:
        move_armies(st, e["moves"])
    if e["tasks"]:
        st.tasks = st.tasks + tuple(e["tasks"])
    cards = e["cards"]
    blue, red = cards["blue"], cards["red"]
    if blue == PLAGUE or red == PLAGUE:
        plagues_played(st, blue, red)
    fired = e["fired"]
    for seat_name in fired:
        seat = SEAT_INDEX[seat_name]
        st.spent = with_seat(st.spent, seat, (*st.spent[seat], *fired[seat_name]))
    if blue == "1" or red == "1":
        st.played_one = (st.played_one[0] or blue == "1", st.played_one[1] or red == "1")


def _battle_resolved(st: State, e: dict) -> None:
    if e["moves"]:
        move_armies(st, e["moves"])
    st.stage = "after"
    if e["tasks"]:
        st.tasks = st.tasks + tuple(e["tasks"])


def _armies_moved(st: State, e: dict) -> None:
    move_armies(st, e["moves"])
    st.tasks = st.tasks[1:]


def _event_triggered(st: State, e: dict) -> None:
    st.events_done = (*st.events_done, e["card"])
    st.event_up = st.event_deck[0] if st.event_deck else None
    st.event_deck = st.event_deck[1:]
    st.tasks = st.tasks + tuple(e.get("tasks", ()))
    move_armies(st, e.get("moves", ()))
    for seat_name in e.get("extra", ()):
        seat = SEAT_INDEX[seat_name]
        st.extra = with_seat(st.extra, seat, st.extra[seat] + 1)


def _card_recycled(st: State, e: dict) -> None:
    seat = SEAT_INDEX[e["seat"]]
    deck = st.decks[seat]
    burned = e.get("burned")
    back = st.plague_back[seat]
    if burned is not None:
        st.burned = with_seat(st.burned, seat, (*st.burned[seat], burned))
    if burned is not None and not deck:
        # Put under an empty deck, the card itself was its top card, and was discarded
        # (rulings.RECYCLE_DISCARDS_FROM_PREVIOUS_DECK_ONLY = False).
        st.decks = with_seat(st.decks, seat, ())
        _recycler_spent(st, e, seat)
        return
    if burned is not None:
        deck = deck[1:]
        if back is not None and back != DRAWN:
            back = None if back == 0 else back - 1
    st.decks = with_seat(st.decks, seat, (*deck, e["card"]))
    if e["card"] == PLAGUE:
        back = len(deck)
    st.plague_back = with_seat(st.plague_back, seat, back)
    _recycler_spent(st, e, seat)


def _recycler_spent(st: State, e: dict, seat: int) -> None:
    st.spent = with_seat(st.spent, seat, (*st.spent[seat], e["warlord"]))
    st.recycled = (*st.recycled, (seat, PROVINCE_INDEX[e["province"]]))


def _battle_ended(st: State, e: dict) -> None:
    st.fought = (*st.fought, st.current)
    st.current = None
    st.stage = ""
    st.battle = None


def _battle(st: State, e: dict) -> None:
    """A whole battle that no decision interrupted: reveal, resolution, end."""
    _battle_revealed(st, e)
    move_armies(st, e["resolution"])
    _battle_ended(st, e)


def _window_opened(st: State, e: dict) -> None:
    st.phase = "after"
    st.window = tuple(None if s in e["seats"] else () for s in SEATS)
    st.answered = ()


def _after_battles_chosen(st: State, e: dict) -> None:
    seat = SEAT_INDEX[e["seat"]]
    st.window = with_seat(st.window, seat, tuple(e["plays"]))
    st.answered = (*st.answered, seat)


def _window_closed(st: State, e: dict) -> None:
    st.queue = tuple((SEAT_INDEX[s], play) for s, play in e["plays"])
    st.window = ((), ())
    st.answered = ()


def _scored(st: State, e: dict) -> None:
    st.score = e["marker"]
    st.phase = "scored"


def _round_ended(st: State, e: dict) -> None:
    hands, gone = list(st.hands), list(st.gone)
    recycled = st.recycled
    for seat in (0, 1):
        back: list[str] = []
        left: list[str] = []
        for p, c in enumerate(st.placed[seat] or ()):
            if c in _FRAMED_SET:
                back.append(c)
            elif not recycled or (seat, p) not in recycled:
                left.append(c)
        hands[seat] = sort_cards(hands[seat] + tuple(back))
        if left:
            gone[seat] = gone[seat] + tuple(left)
    st.hands, st.gone = tuple(hands), tuple(gone)
    st.placed = (None, None)
    st.phase = "draw"


def _reinforced(st: State, e: dict) -> None:
    seat = SEAT_INDEX[e["seat"]]
    st.hands = with_seat(st.hands, seat, remove_cards(st.hands[seat], (e["card"],)))
    st.gone = with_seat(st.gone, seat, (*st.gone[seat], e["card"]))
    move_armies(st, [[e["seat"], "aside", "reserve", 1]])


def _game_ended(st: State, e: dict) -> None:
    st.phase = "over"
    st.outcome = {k: e[k] for k in ("winner", "reason", "score", "reserve", "round")}
    st.tasks = ()  # armies still owed are owed no more; drawn cards stay where they are
    st.extra = (0, 0)


HANDLERS = {
    "game_started": _game_started,
    "event_deck_shuffled": _event_deck_shuffled,
    "deck_shuffled": _deck_shuffled,
    "cards_drawn": _cards_drawn,
    "card_kept": _card_kept,
    "warlords_to_choose": _warlords_to_choose,
    "warlord_chosen": _warlord_chosen,
    "warlord_played": _warlord_played,
    "round_started": _round_started,
    "placed": _placed,
    "cards_down": _cards_down,
    "privilege_settled": _privilege_settled,
    "order_named": _order_named,
    "battle_revealed": _battle_revealed,
    "battle_resolved": _battle_resolved,
    "armies_moved": _armies_moved,
    "event_triggered": _event_triggered,
    "card_recycled": _card_recycled,
    "battle_ended": _battle_ended,
    "battle": _battle,
    "window_opened": _window_opened,
    "after_battles_chosen": _after_battles_chosen,
    "window_closed": _window_closed,
    "scored": _scored,
    "round_ended": _round_ended,
    "reinforced": _reinforced,
    "game_ended": _game_ended,
}
EVENT_TYPES = tuple(HANDLERS)


# The state the last decision left, for the fold that follows it (``games.remembered``).
_REMEMBERED = Remembered()


def remember(start: State, events: list[dict], final: State) -> None:
    """Keep the state ``events`` lead to from ``start`` (a private copy nobody changes)."""
    _REMEMBERED.keep(start, events, final)


def evolve(state: State, event: dict) -> State:
    """Apply one event; total for every event ``decide`` or ``setup`` emits."""
    if state is _REMEMBERED.passed[0]:
        known = _REMEMBERED.take(state, (event,))
        if known is not None:
            return known
    new = state.copy()
    HANDLERS[event["type"]](new, event)
    return new


_LISTS = (list, tuple)  # (a union built once, not per call)


def fold(events: Any, state: State | None = None) -> State:
    """The state after ``events``; ``state`` itself is left as it was. One copy, then
    each event applied to it in place (handlers replace fields, never change their
    values, so nothing the original holds is touched): what ``evolve`` would give."""
    if state is None:
        st = State()
    else:
        if state is _REMEMBERED.passed[0]:
            if not isinstance(events, _LISTS):
                events = list(events)
            known = _REMEMBERED.take(state, events)
            if known is not None:
                return known
        st = state.copy()
    handlers = HANDLERS
    for event in events:
        handlers[event["type"]](st, event)
    return st


def evolve_all(state: State, events: list[dict[str, Any]]) -> State:
    """``fold(events, state)``: the state after one decision's events, handed back from
    ``remember`` when these are its very events (asked here first, as after every
    decision)."""
    if type(events) is list:
        known = _REMEMBERED.take(state, events)
        if known is not None:
            return known
    return fold(events, state)


def apply_in_place(scratch: State, event: dict) -> None:
    """Apply an event to a private copy that nobody else holds (``decide``'s scratch
    state). Safe because handlers only ever replace fields, never change their values."""
    HANDLERS[event["type"]](scratch, event)
