"""What a Sun Tzu seat knows: full positions sampled consistently with its view, and the
everything-view of a finished game.

``determinize(view, seat, rng)`` starts from ``view(state, seat)``, never from the state:
whoever uses it (the AI, the analysis, continue-from-here) is honest by construction. It
rebuilds a complete ``State`` whose public part and whose own-seat part are the view's,
and whose hidden part (the opponent's hand, Warlords and face-down cards, both deck
orders, the event deck) is drawn at random among the ways consistent with the public
record. ``view(determinize(v, seat, rng), seat) == v`` for the decisions in ``PLAYABLE``.

``full_view(state)`` is the replay's "full" perspective: every card wherever it is. Its
keys are the spectator's view (``games.sun_tzu.view.view(state, None)``), with what the
spectator could not see filled in, and a few more:

* ``players[seat]``: as in every view (``reserve``, ``aside``, ``on_board``,
  ``hand_size``, ``deck_size``, ``warlords_held``, ``warlords_played``, ``discarded``,
  ``recycled_plague``),
  and always, whoever's they are:
  ``hand`` (cards in hand, hand order), ``warlords`` (the Warlords held, played or not),
  ``discarded_face_down`` (the cards discarded face down, a list), ``deck`` (the deck in
  order, top card first), ``drawn`` (cards drawn and still to be kept or put back) and
  ``keep`` (how many of them the seat keeps), ``plan`` (the standing choices given with
  this round's placement: armed reactions, ``supply``; None before it placed);
* ``provinces[i].cards[seat]``: the card placed there this round, face down or not (None:
  nothing placed yet);
* ``event_deck``: the event cards still to come, in order, the next first;
* ``first_placer``: the seat that placed first this round (None: nobody yet);
* ``order``: the provinces the privilege holder named in advance, in order;
* ``battle``: the battle being resolved, as its ``battle`` event recorded it (None
  between battles); ``tasks``: armies owed, the one being answered first;
* ``notation``: the whole position in the Sun Tzu position notation (``docs/notation.md``),
  the rules' own bookkeeping included (Warlord plays queued, the after-battles window...).

Nothing is secret in it: it is given only for finished games (or positions of them).
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any, NamedTuple

from games.sun_tzu import notation
from games.sun_tzu import view as views
from games.sun_tzu.components import (
    BEGINNER_DECK,
    EVENT_CARDS,
    FRAMED,
    PLAGUE,
    PROVINCE_INDEX,
    PROVINCES,
    SEATS,
    STANDARD_DECK,
    WARLORDS_OF,
)
from games.sun_tzu.state import DRAWN, State, sort_cards

# Decisions whose position can be rebuilt well enough to play on from it. "sources" is
# owed mid-battle, where the battle in progress is not all in the view: never searched.
PLAYABLE = frozenset({"place", "next_province", "keep", "after_battles", "choose_warlord"})
# Reactive Warlords a placement arms for free (a guessed plan arms every one still held).
ARMED = ("counter_plague", "plague_recycle", "minus_recycle")


# ---------------------------------------------------------------------------------------
# What the view says of the cards
def full_deck(view: dict[str, Any]) -> Counter:
    return Counter(STANDARD_DECK if view["variant"] == "standard" else BEGINNER_DECK)


def shown_cards(view: dict[str, Any], who: str) -> list[str]:
    """Cards ``who`` placed this round that the viewer can see."""
    return [
        p["cards"][who]
        for p in view["provinces"]
        if p["cards"][who] is not None and p["cards"][who] != "placed"
    ]


def hidden_slots(view: dict[str, Any], who: str) -> list[int]:
    """Provinces where ``who`` placed a card the viewer cannot see yet."""
    return [i for i, p in enumerate(view["provinces"]) if p["cards"][who] == "placed"]


def unseen_cards(view: dict[str, Any], seat: str) -> Counter:
    """The opponent's cards the seat has not seen, as a multiset: the opponent's 20 (or 18)
    cards less those discarded face up and those revealed on the board this round. They are
    somewhere in its hand, face-down placements, drawn cards, deck or face-down discards."""
    opp = SEATS[1 - SEATS.index(seat)]
    return (
        full_deck(view)
        - Counter(view["players"][opp]["discarded"])
        - Counter(shown_cards(view, opp))
    )


def _own_unseen(view: dict[str, Any], seat: str) -> Counter:
    """The seat's own cards whose place it does not know: exactly its deck, in some order."""
    me = view["players"][seat]
    seen = Counter(me["hand"]) + Counter(me["discarded"]) + Counter(me["discarded_face_down"])
    return full_deck(view) - seen - Counter(shown_cards(view, seat)) - Counter(_drawn(view))


def _fill(pool: Counter, size: int, fallback: list[str]) -> Counter:
    """``pool`` grown to ``size`` from ``fallback`` when a recycled card is both on the board
    (revealed) and back in its deck; the view does not say which, so a revealed card of that
    seat is taken (Plague and -1 are the only cards recycled)."""
    pool = Counter(pool)
    extra = [c for c in fallback if c in (PLAGUE, "-1")] + [c for c in fallback if c not in FRAMED]
    while sum(pool.values()) < size and extra:
        pool[extra.pop(0)] += 1
    return pool


def _decision(view: dict[str, Any]) -> dict[str, Any]:
    return view.get("decision") or {}


def _drawn(view: dict[str, Any]) -> tuple[str, ...]:
    """The cards the seat drew and has still to keep (only a "keep" decision shows them)."""
    decision = _decision(view)
    return tuple(decision.get("drawn", ())) if decision.get("kind") == "keep" else ()


FIRST, SECOND = SEATS  # a state's pairs are in this order


def _pair(values: dict[str, Any], key: str | None = None) -> tuple:
    """A view's ``{seat: value}`` (or ``{seat: {key: value}}``) as the state's pair."""
    if key is None:
        return (values[FIRST], values[SECOND])
    return (values[FIRST][key], values[SECOND][key])


# ---------------------------------------------------------------------------------------
# Sampling a position. The parts are drawn from ``rng`` in a fixed order (the event deck,
# the opponent's Warlords, the seat's own deck, the opponent's cards, its face-down
# placements), so a given rng always gives the same sample.
def determinize(view: dict[str, Any], seat: str, rng: Any) -> State:
    """A complete position consistent with ``view`` (what ``seat`` sees), hidden parts drawn
    at random: ``view(result, seat)`` is ``view`` again for the decisions in ``PLAYABLE``."""
    st = State()
    _public(st, view)
    _event_deck(st, view, rng)
    _warlords(st, view, seat, rng)
    _cards(st, view, seat, rng)
    _plans(st, view, seat)
    _round_so_far(st, view, seat)
    return st


def _public(st: State, view: dict[str, Any]) -> None:
    """The board, the pools, the score and the discards: the same in every sample."""
    provinces, players, pending = view["provinces"], view["players"], view["pending"]
    st.variant, st.events_on = view["variant"], view["events"]
    st.round, st.phase, st.score = view["round"], view["phase"], view["score"]
    st.displays = tuple(tuple(p["display"]) for p in provinces)
    st.armies = tuple([_pair(p["armies"]) for p in provinces])
    st.markers = tuple([_pair(p["markers"]) for p in provinces])
    st.reserve = _pair(players, "reserve")
    st.aside = _pair(players, "aside")
    st.gone = (tuple(players[FIRST]["discarded"]), tuple(players[SECOND]["discarded"]))
    st.spent = (tuple(players[FIRST]["warlords_played"]),
                tuple(players[SECOND]["warlords_played"]))  # fmt: skip
    st.privilege = None if view["privilege"] is None else SEATS.index(view["privilege"])
    st.plagues_played = view["plagues_played"]
    back = [players[who]["recycled_plague"] for who in SEATS]
    st.plague_back = (_back(back[0]), _back(back[1]))
    st.fought = tuple(PROVINCE_INDEX[p] for p in view["fought"])
    st.current = None if view["current"] is None else PROVINCE_INDEX[view["current"]]
    st.extra = (int(pending.get(FIRST) == "extra_warlord"),
                int(pending.get(SECOND) == "extra_warlord"))  # fmt: skip


def _back(at: int | str | None) -> int | None:
    return DRAWN if at == "drawn" else at  # type: ignore[return-value]


def _event_deck(st: State, view: dict[str, Any], rng: Any) -> None:
    """The face-up event card and the number left are public; their order is drawn."""
    st.event_up = view["event_card"]
    st.events_done = tuple(view["events_done"])
    rest = [c for c in EVENT_CARDS if c not in st.events_done and c != st.event_up]
    rng.shuffle(rest)
    st.event_deck = tuple(rest[: view["events_left"]])


def _warlords(st: State, view: dict[str, Any], seat: str, rng: Any) -> None:
    """Our Warlords are in the view; the opponent's unplayed ones are drawn from those it
    could hold (Head start is only ever played at once)."""
    me = SEATS.index(seat)
    opp = 1 - me
    theirs = view["players"][SEATS[opp]]
    open_pool = [w for w in WARLORDS_OF[opp] if w not in st.spent[opp] and w != "head_start"]
    hidden_n = max(0, theirs["warlords_held"] - len(st.spent[opp]))
    kept: list[tuple[str, ...]] = [(), ()]
    kept[opp] = (*st.spent[opp], *rng.sample(open_pool, min(hidden_n, len(open_pool))))
    kept[me] = tuple(view["players"][seat]["warlords"])
    st.kept = (kept[0], kept[1])


class Side(NamedTuple):
    """Where one seat's cards are in a sample."""

    hand: tuple[str, ...]
    deck: tuple[str, ...]
    burned: tuple[str, ...]  # discarded face down
    drawn: tuple[str, ...]  # awaiting "keep"
    placed: tuple[str, ...] | None  # this round's placement, one card a province


def _cards(st: State, view: dict[str, Any], seat: str, rng: Any) -> None:
    """Every card of both seats: ours as the view shows them (our deck's order drawn), the
    opponent's unseen ones dealt among its hiding places."""
    me = SEATS.index(seat)
    sides: list[Side] = [None, None]  # type: ignore[list-item]
    sides[me] = _own_cards(view, seat, rng)
    sides[1 - me] = _their_cards(st, view, seat, rng)
    st.hands = (sides[0].hand, sides[1].hand)
    st.decks = (sides[0].deck, sides[1].deck)
    st.burned = (sides[0].burned, sides[1].burned)
    st.drawn = (sides[0].drawn, sides[1].drawn)
    st.placed = (sides[0].placed, sides[1].placed)
    keep = _decision(view).get("keep", 0)
    st.keep_n = tuple(keep if s == me else max(0, len(d) - 1) for s, d in enumerate(st.drawn))


def _own_cards(view: dict[str, Any], seat: str, rng: Any) -> Side:
    """Hand, discards and placements are known; the deck's order is not."""
    mine = view["players"][seat]
    pool = _fill(_own_unseen(view, seat), mine["deck_size"], shown_cards(view, seat))
    deck = list(pool.elements())
    rng.shuffle(deck)
    provinces = view["provinces"]
    placed = None
    if provinces[0]["cards"][seat] is not None:
        placed = tuple(p["cards"][seat] for p in provinces)
    return Side(
        hand=tuple(mine["hand"]),
        deck=tuple(deck[: mine["deck_size"]]),
        burned=tuple(mine["discarded_face_down"]),
        drawn=_drawn(view),
        placed=placed,
    )


def _their_cards(st: State, view: dict[str, Any], seat: str, rng: Any) -> Side:
    """The opponent's unseen cards split among its face-down placements, hand, deck,
    face-down discards and cards drawn (the remainder); framed cards only ever in hand or
    placed. Needs the Warlords and 6-markers of ``st`` (for its face-down placements)."""
    opp = 1 - SEATS.index(seat)
    them = SEATS[opp]
    theirs = view["players"][them]
    slots = hidden_slots(view, them)
    n_burned, deck_size = theirs["discarded_face_down"], theirs["deck_size"]
    size = theirs["hand_size"] + len(slots) + deck_size + n_burned
    pool = _fill(unseen_cards(view, seat), size, shown_cards(view, them))
    framed = [c for c in pool.elements() if c in FRAMED]
    others = [c for c in pool.elements() if c not in FRAMED]
    rng.shuffle(others)
    take = max(0, theirs["hand_size"] + len(slots) - len(framed))
    handlike, others = framed + others[:take], others[take:]
    drawn = tuple(others[deck_size + n_burned :]) if view["pending"].get(them) == "keep" else ()
    hidden_cards = _hidden_placement(st, opp, handlike, slots, rng)
    hand = sort_cards(handlike)
    placed = None
    provinces = view["provinces"]
    if provinces[0]["cards"][them] is not None:
        row = [p["cards"][them] for p in provinces]
        for p, card in zip(slots, hidden_cards, strict=True):
            row[p] = card
            hand = _without(hand, card)
        placed = tuple(row)
    return Side(
        hand=hand,
        deck=tuple(others[:deck_size]),
        burned=tuple(others[deck_size : deck_size + n_burned]),
        drawn=drawn,
        placed=placed,
    )


def _without(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    rest = list(hand)
    rest.remove(card)
    return tuple(rest)


def _hidden_placement(st: State, opp: int, cards: list[str], slots: list[int], rng: Any) -> list:
    """Cards for the opponent's face-down placements, keeping its 6 off its own 6-markers
    unless it may hold Double six."""
    if not slots:
        return []
    doubled = "double_six" in st.kept[opp] and "double_six" not in st.spent[opp]
    for _ in range(20):
        pick = rng.sample(cards, len(slots))
        if doubled or "6" not in pick or not st.markers[slots[pick.index("6")]][opp]:
            return pick
    return [c for c in cards if c != "6"][: len(slots)]


def _plans(st: State, view: dict[str, Any], seat: str) -> None:
    """Our own plan is in the view; the opponent's (if it placed) is a plain guess."""
    me = SEATS.index(seat)
    opp = 1 - me
    plans: list[dict[str, Any]] = [{}, {}]
    if view.get("plan") is not None:
        plans[me] = view["plan"]
    if st.placed[opp] is not None:
        arm = {w: True for w in ARMED if w in st.kept[opp] and w not in st.spent[opp]}
        plans[opp] = {"supply": "largest", **({"arm": arm} if arm else {})}
    st.plans = (plans[0], plans[1])


def _round_so_far(st: State, view: dict[str, Any], seat: str) -> None:
    """The round's bookkeeping that follows from the board: who placed first, what the
    revealed cards did, who still answers after the battles, the army task owed."""
    me = SEATS.index(seat)
    opp = 1 - me
    pending = view["pending"]
    if st.phase == "place":
        st.first_placer = opp if st.placed[opp] is not None else None
    else:
        st.first_placer = 0
    revealed = ({st.current} | set(st.fought)) - {None}
    placed = st.placed
    st.played_one = tuple(
        any(placed[s] is not None and placed[s][p] == "1" for p in revealed) for s in (0, 1)
    )
    if st.phase == "after":
        offered = [s for s in (0, 1) if len(st.kept[s]) > len(st.spent[s])]
        st.window = tuple(None if pending.get(SEATS[s]) == "after_battles" else () for s in (0, 1))
        st.answered = tuple(s for s in offered if st.window[s] is not None)
    decision = _decision(view)
    if decision.get("kind") == "sources":
        st.tasks = (_task(view, seat, decision),)
        st.stage = "after"


def _task(view: dict[str, Any], seat: str, decision: dict[str, Any]) -> dict[str, Any]:
    """The army task a "sources" decision answers, rebuilt from what the view says of it."""
    to = decision["to"]
    supply = to in PROVINCE_INDEX
    return {
        "kind": "supply" if supply else "cost",
        "seat": seat,
        "n": decision["need"],
        "to": to,
        "why": decision["why"],
        "province": to if supply else view["current"] or PROVINCES[0],
    }


# ---------------------------------------------------------------------------------------
# Everything (the replay's "full" perspective; see the module docstring for its keys)
def full_view(st: State) -> dict[str, Any]:
    """Every card wherever it is, and the whole position's notation: the spectator's view
    with nothing hidden. For finished games only: nothing in it is secret then."""
    out = views.view(st, None)
    for s, who in enumerate(SEATS):
        out["players"][who].update(
            hand=list(st.hands[s]),
            warlords=list(st.kept[s]),
            discarded_face_down=list(st.burned[s]),
            deck=list(st.decks[s]),
            drawn=list(st.drawn[s]),
            keep=st.keep_n[s],
            plan=copy.deepcopy(st.plans[s]) if st.placed[s] is not None else None,
        )
    for p, province in enumerate(out["provinces"]):
        province["cards"] = {
            who: None if st.placed[s] is None else st.placed[s][p] for s, who in enumerate(SEATS)
        }
    out.update(
        event_deck=list(st.event_deck),
        first_placer=None if st.first_placer is None else SEATS[st.first_placer],
        order=[PROVINCES[p] for p in st.order],
        battle=copy.deepcopy(st.battle),
        tasks=copy.deepcopy(list(st.tasks)),
        notation=notation.format(st),
    )
    return out


class Knowledge:
    """``games.base.Knowledge`` for Sun Tzu."""

    determinize = staticmethod(determinize)
    full_view = staticmethod(full_view)


KNOWLEDGE = Knowledge()
