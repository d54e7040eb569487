"""What a Sun Tzu seat knows, and full positions sampled consistently with it.

Everything here starts from ``rules.view(state, seat)``, never from the state: the AI is
honest by construction. ``determinize`` rebuilds a complete ``State`` whose public part and
whose own-seat part are the view's, and whose hidden part (the opponent's hand, Warlords
and face-down cards, both deck orders, the event deck) is drawn at random among the ways
consistent with the public record.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

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
from games.sun_tzu.state import State, sort_cards

# Decisions whose position can be rebuilt well enough to play on from it. "sources" is
# owed mid-battle, where the battle in progress is not all in the view: never searched.
PLAYABLE = frozenset({"place", "next_province", "keep", "after_battles", "choose_warlord"})


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
    decision = view.get("decision") or {}
    drawn = decision.get("drawn", []) if decision.get("kind") == "keep" else []
    seen = Counter(me["hand"]) + Counter(me["discarded"]) + Counter(me["discarded_face_down"])
    return full_deck(view) - seen - Counter(shown_cards(view, seat)) - Counter(drawn)


def _fill(pool: Counter, size: int, fallback: list[str]) -> Counter:
    """``pool`` grown to ``size`` from ``fallback`` when a recycled card is both on the board
    (revealed) and back in its deck; the view does not say which, so a revealed card of that
    seat is taken (Plague and -1 are the only cards recycled)."""
    pool = Counter(pool)
    extra = [c for c in fallback if c in (PLAGUE, "-1")] + [c for c in fallback if c not in FRAMED]
    while sum(pool.values()) < size and extra:
        pool[extra.pop(0)] += 1
    return pool


def determinize(view: dict[str, Any], seat: str, rng: Any) -> State:
    """A complete position consistent with ``view`` (what ``seat`` sees), hidden parts drawn
    at random: ``view(result, seat)`` is ``view`` again for the decisions in ``PLAYABLE``."""
    me, opp = SEATS.index(seat), 1 - SEATS.index(seat)
    them = SEATS[opp]
    mine, theirs = view["players"][seat], view["players"][them]
    pending = view["pending"]
    st = State()
    st.variant, st.events_on = view["variant"], view["events"]
    st.round, st.phase, st.score = view["round"], view["phase"], view["score"]
    provinces = view["provinces"]
    st.displays = tuple(tuple(p["display"]) for p in provinces)
    st.armies = tuple((p["armies"]["blue"], p["armies"]["red"]) for p in provinces)
    st.markers = tuple((p["markers"]["blue"], p["markers"]["red"]) for p in provinces)
    st.reserve = (view["players"]["blue"]["reserve"], view["players"]["red"]["reserve"])
    st.aside = (view["players"]["blue"]["aside"], view["players"]["red"]["aside"])
    st.privilege = None if view["privilege"] is None else SEATS.index(view["privilege"])
    st.fought = tuple(PROVINCE_INDEX[p] for p in view["fought"])
    st.current = None if view["current"] is None else PROVINCE_INDEX[view["current"]]
    st.extra = tuple(int(pending.get(s) == "extra_warlord") for s in SEATS)

    # Events: the face-up card and the count left are public, the order is not.
    st.event_up = view["event_card"]
    st.events_done = tuple(view["events_done"])
    rest = [c for c in EVENT_CARDS if c not in st.events_done and c != st.event_up]
    rng.shuffle(rest)
    st.event_deck = tuple(rest[: view["events_left"]])

    # Warlords: the opponent's unplayed ones are drawn from those it could hold.
    spent = (tuple(view["players"]["blue"]["warlords_played"]),
             tuple(view["players"]["red"]["warlords_played"]))  # fmt: skip
    st.spent = spent
    open_pool = [w for w in WARLORDS_OF[opp] if w not in spent[opp] and w != "head_start"]
    hidden_n = max(0, theirs["warlords_held"] - len(spent[opp]))
    their_kept = (*spent[opp], *rng.sample(open_pool, min(hidden_n, len(open_pool))))
    kept = [(), ()]
    kept[me], kept[opp] = tuple(mine["warlords"]), their_kept
    st.kept = (kept[0], kept[1])

    # Cards. Own side: hand, discards and placements known; the deck's order is not.
    decision = view.get("decision") or {}
    own_drawn = tuple(decision.get("drawn", ())) if decision.get("kind") == "keep" else ()
    own_deck = _fill(_own_unseen(view, seat), mine["deck_size"], shown_cards(view, seat))
    own_deck_list = list(own_deck.elements())
    rng.shuffle(own_deck_list)
    hands, decks, burned, drawn, placed = [(), ()], [(), ()], [(), ()], [(), ()], [None, None]
    hands[me] = tuple(mine["hand"])
    decks[me] = tuple(own_deck_list[: mine["deck_size"]])
    burned[me] = tuple(mine["discarded_face_down"])
    drawn[me] = own_drawn
    if provinces[0]["cards"][seat] is not None:
        placed[me] = tuple(p["cards"][seat] for p in provinces)

    # Opponent: split the unseen cards among hidden placements, hand, deck, face-down
    # discards and cards drawn (the remainder), framed cards only ever in hand or placed.
    slots = hidden_slots(view, them)
    n_burned = theirs["discarded_face_down"]
    size = theirs["hand_size"] + len(slots) + theirs["deck_size"] + n_burned
    pool = _fill(unseen_cards(view, seat), size, shown_cards(view, them))
    framed = [c for c in pool.elements() if c in FRAMED]
    others = [c for c in pool.elements() if c not in FRAMED]
    rng.shuffle(others)
    handlike_n = theirs["hand_size"] + len(slots)
    handlike = framed + others[: max(0, handlike_n - len(framed))]
    others = others[max(0, handlike_n - len(framed)) :]
    decks[opp] = tuple(others[: theirs["deck_size"]])
    burned[opp] = tuple(others[theirs["deck_size"] : theirs["deck_size"] + n_burned])
    their_drawn = tuple(others[theirs["deck_size"] + n_burned :])
    if pending.get(them) == "keep":
        drawn[opp] = their_drawn
    hidden_cards = _hidden_placement(st, opp, handlike, slots, rng)
    hands[opp] = sort_cards(handlike)
    if provinces[0]["cards"][them] is not None:
        row = [p["cards"][them] for p in provinces]
        for p, card in zip(slots, hidden_cards, strict=True):
            row[p] = card
            hands[opp] = _without(hands[opp], card)
        placed[opp] = tuple(row)
    st.hands = (hands[0], hands[1])
    st.decks = (decks[0], decks[1])
    st.burned = (burned[0], burned[1])
    st.drawn = (drawn[0], drawn[1])
    st.keep_n = tuple(max(0, len(d) - 1) if s != me else decision.get("keep", 0)
                      for s, d in enumerate(st.drawn))  # fmt: skip
    st.gone = tuple(tuple(view["players"][s]["discarded"]) for s in SEATS)
    st.placed = (placed[0], placed[1])

    # Plans: our own is in the view; the opponent's (if it placed) is a plain guess.
    plans: list[dict[str, Any]] = [{}, {}]
    if view.get("plan") is not None:
        plans[me] = view["plan"]
    if placed[opp] is not None:
        arm = {w: True for w in ("counter_plague", "plague_recycle", "minus_recycle")
               if w in their_kept and w not in spent[opp]}  # fmt: skip
        plans[opp] = {"supply": "largest", **({"arm": arm} if arm else {})}
    st.plans = (plans[0], plans[1])
    if st.phase == "place":
        st.first_placer = opp if placed[opp] is not None else None
    else:
        st.first_placer = 0
    revealed = ({st.current} | set(st.fought)) - {None}
    st.played_one = tuple(
        any(placed[s] is not None and placed[s][p] == "1" for p in revealed) for s in (0, 1)
    )
    st.plague_reveals = sum(g.count(PLAGUE) for g in st.gone) + sum(
        1 for p in revealed for s in (0, 1) if placed[s] is not None and placed[s][p] == PLAGUE
    )
    if st.phase == "after":
        offered = [s for s in (0, 1) if len(st.kept[s]) > len(spent[s])]
        st.window = tuple(None if pending.get(SEATS[s]) == "after_battles" else () for s in (0, 1))
        st.answered = tuple(s for s in offered if st.window[s] is not None)
    if decision.get("kind") == "sources":
        st.tasks = (_task(view, seat, decision),)
        st.stage = "after"
    return st


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
