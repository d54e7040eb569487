"""``setup`` and ``decide``: every choice a player has is a command; each is checked here.

A command is a dict with a ``type``. Any command may also carry ``"reinforce": [cards]``,
exceptional reinforcements made just before it. A refused command raises ``RulesError``
with a sentence for the player and returns no events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import RulesError
from games.i18n import said
from games.sun_tzu import battle, rulings
from games.sun_tzu.components import (
    ACTIVE_WARLORDS,
    BEGINNER_DECK,
    DISPLAYS,
    EARLY_WARLORDS,
    EVENT_CARDS,
    FRAMED,
    PROVINCE_INDEX,
    PROVINCES,
    REACTIVE_WARLORDS,
    SEATS,
    STANDARD_DECK,
    STARTING_HAND_DRAW,
    VARIANTS,
    WARLORDS_OF,
)
from games.sun_tzu.draws import sample, shuffle
from games.sun_tzu.flow import (
    holds,
    next_province,
    order_named,
    owed,
    play_error,
    play_warlord,
    resigned,
    run,
    unused_warlords,
)
from games.sun_tzu.owed import remember_owed
from games.sun_tzu.state import HANDLERS as STATE_HANDLERS
from games.sun_tzu.state import State, apply_in_place, remember

# The same decisions, said of the other player.
THEIR_WORDS = {
    "choose_warlord": said("choose their Warlord"),
    "extra_warlord": said("choose an extra Warlord (War chariot)"),
    "place": said("place their cards"),
    "next_province": said("name the next province to fight"),
    "sources": said("say where their armies come from"),
    "after_battles": said("play or pass their Warlord after the battles"),
    "keep": said("choose the cards to keep"),
}
# what a decision asks, in an error's sentence (each said(): translated with the sentence)
KIND_WORDS = {
    "choose_warlord": said("choose your Warlord"),
    "extra_warlord": said("choose an extra Warlord (War chariot)"),
    "place": said("place your cards"),
    "next_province": said("name the next province to fight"),
    "sources": said("say where your armies come from"),
    "after_battles": said("play or pass your Warlord after the battles"),
    "keep": said("choose the cards to keep"),
}


def options_of(options: Mapping[str, Any] | None) -> tuple[str, bool]:
    options = dict(options or {})
    unknown = set(options) - {"variant", "events"}
    if unknown:
        raise RulesError(
            said(
                "Sun Tzu has no option {option!r}; use variant and events",
                option=sorted(unknown)[0],
            )
        )
    variant = options.get("variant", "standard")
    if variant not in VARIANTS:
        raise RulesError(
            said("the variant must be standard or beginner, not {variant!r}", variant=variant)
        )
    events = options.get("events", False)
    if not isinstance(events, bool):
        raise RulesError(said("the events option is true or false"))
    return variant, events


def setup(options: Mapping[str, Any] | None, rng: Any) -> list[dict[str, Any]]:
    """The opening events: displays, event cards, both decks, the first hands."""
    variant, events_on = options_of(options)
    displays = sample(rng, DISPLAYS, 5)
    event_order = list(EVENT_CARDS)
    if events_on:
        shuffle(rng, event_order)
    standard = variant == "standard"
    events: list[dict[str, Any]] = [
        {
            "type": "game_started",
            "visible_to": "all",
            "variant": variant,
            "events": events_on,
            "displays": [list(d) for d in displays],
            "reserve": [18, 18] if standard else [21, 21],
            "aside": [3, 3] if standard else [0, 0],
            "event_up": event_order[0] if events_on else None,
        }
    ]
    if events_on:
        events.append(
            {"type": "event_deck_shuffled", "visible_to": "server", "order": event_order[1:]}
        )
    deck = STANDARD_DECK if standard else BEGINNER_DECK
    for seat in SEATS:
        cards = [c for c in deck if c not in FRAMED]
        shuffle(rng, cards)
        events.append(
            {"type": "deck_shuffled", "visible_to": "server", "seat": seat, "deck": cards}
        )
        events.append(
            {
                "type": "cards_drawn",
                "visible_to": seat,
                "seat": seat,
                "cards": cards[:STARTING_HAND_DRAW],
                "keep": STARTING_HAND_DRAW,
            }
        )
    st = State()
    for event in events:
        apply_in_place(st, event)
    run(st, events)
    return events


_LISTS = (list, tuple)  # (a union built once, not per call)


def decide(state: State, seat_name: str, command: Any, rng: Any = None) -> list[dict[str, Any]]:
    if seat_name == "blue" or seat_name == "red":  # (compared, not looked up: any value)
        seat = 0 if seat_name == "blue" else 1
    else:
        raise RulesError(
            said(
                "there is no seat {seat_name!r} in Sun Tzu; the seats are blue and red",
                seat_name=seat_name,
            )
        )
    mapping = type(command) is dict or isinstance(command, Mapping)
    kind = command.get("type") if mapping else None
    if type(kind) is not str and not isinstance(kind, str):
        raise RulesError(
            said('a command is an object with a "type", for example {"type": "place"}')
        )
    phase = state.phase
    if phase == "over":
        raise RulesError(said("the game is over"))
    if phase == "new":
        raise RulesError(said("the game has not been set up yet"))
    handler = HANDLERS.get(kind)
    if handler is None:
        kinds = ", ".join(sorted(HANDLERS))
        raise RulesError(
            said(
                "there is no command {command!r}; the commands are: {kinds}",
                command=kind,
                kinds=kinds,
            )
        )
    out: list[dict[str, Any]] = []
    st = state.copy()  # decide's private scratch state; the caller's state is never touched
    extra = command.get("reinforce", ())
    if not extra:  # the command's checks see st as state is: so is what it owes
        remember_owed(st, owed(state))
    if kind != "reinforce":
        if type(extra) is not tuple and not isinstance(extra, _LISTS):
            raise RulesError(said("reinforce is a list of the cards you discard, one per army"))
        for card in extra:
            _apply(st, _reinforcement(st, seat, card), out)
    apply = STATE_HANDLERS
    for event in handler(st, seat, command):  # _apply, inlined
        out.append(event)
        apply[event["type"]](st, event)
    remember_owed(st, run(st, out))
    remember(state, out, st)  # for the fold that follows: st is not changed after this
    return out


def _apply(st: State, event: dict[str, Any], out: list) -> None:
    out.append(event)
    apply_in_place(st, event)


def _owes(st: State, seat: int, kind: str) -> None:
    """Refuse a command that answers a decision this seat does not owe now."""
    due = owed(st)
    if due.get(seat) == kind:
        return
    mine = due.get(seat)
    if mine:
        raise RulesError(
            said(
                "you cannot {asked} now: first {owed}",
                asked=KIND_WORDS[kind],
                owed=KIND_WORDS[mine],
            )
        )
    if due:
        owing = [
            said("{seat} to {asked}", seat=SEATS[s], asked=THEIR_WORDS[k])
            for s, k in sorted(due.items())
        ]
        waiting = (
            owing[0]
            if len(owing) == 1
            else said("{first} and {second}", first=owing[0], second=owing[1])
        )
        raise RulesError(
            said(
                "you cannot {asked} now: waiting for {waiting}",
                asked=KIND_WORDS[kind],
                waiting=waiting,
            )
        )
    raise RulesError(said("you cannot {asked} now", asked=KIND_WORDS[kind]))


# ---------------------------------------------------------------------------------------
def _reinforcement(st: State, seat: int, card: Any) -> dict[str, Any]:
    if not st.aside[seat]:
        raise RulesError(
            said("your set-aside pool is empty, so there is no army to reinforce with")
        )
    if not isinstance(card, str) or card not in st.hands[seat]:
        raise RulesError(said("you have no {card!r} in hand to discard", card=card))
    if card in FRAMED:
        raise RulesError(
            said("the {card} is a framed card; discard a 7-10, a bonus, -1 or Plague", card=card)
        )
    return {"type": "reinforced", "visible_to": "all", "seat": SEATS[seat], "card": card}


def _cmd_reinforce(st: State, seat: int, cmd: Mapping[str, Any]) -> list:
    return [_reinforcement(st, seat, cmd.get("card"))]


def _cmd_resign(st: State, seat: int, cmd: Mapping[str, Any]) -> list:
    return [resigned(st, seat)]


def _cmd_choose_warlord(st: State, seat: int, cmd: Mapping[str, Any]) -> list:
    _owes(st, seat, "choose_warlord")
    return [_warlord_choice(st, seat, cmd, extra=False)]


def _cmd_extra_warlord(st: State, seat: int, cmd: Mapping[str, Any]) -> list:
    _owes(st, seat, "extra_warlord")
    return [_warlord_choice(st, seat, cmd, extra=True)]


def _warlord_choice(st: State, seat: int, cmd: Mapping[str, Any], extra: bool) -> dict:
    warlord = cmd.get("warlord")
    mine = WARLORDS_OF[seat]
    if warlord not in mine:
        raise RulesError(
            said(
                "{warlord!r} is not one of your Warlords: {warlords}",
                warlord=warlord,
                warlords=", ".join(mine),
            )
        )
    if warlord in st.kept[seat]:
        raise RulesError(said("you already hold {warlord}", warlord=warlord))
    if extra and warlord not in unused_warlords(st, seat):
        raise RulesError(
            said(
                "{warlord} only acts at the start of the game; choose another Warlord",
                warlord=warlord,
            )
        )
    event = {
        "type": "warlord_chosen",
        "visible_to": SEATS[seat],
        "seat": SEATS[seat],
        "warlord": warlord,
    }
    if extra:
        event["extra"] = True
    return event


_PROVINCE_SET = frozenset(PROVINCES)
_NONE: dict[str, Any] = {}  # (read only)


def _cmd_place(st: State, seat: int, cmd: Mapping[str, Any]) -> list:
    _owes(st, seat, "place")
    cards = cmd.get("cards")
    mapping = type(cards) is dict or isinstance(cards, Mapping)
    if not mapping or cards.keys() != _PROVINCE_SET:
        raise RulesError(
            said(
                "place one card in front of each province: {provinces}",
                provinces=", ".join(PROVINCES),
            )
        )
    wanted = list(cards.values())
    hand = st.hands[seat]
    rest = list(hand)
    try:  # five cards taken from the hand in place: counted only when one is missing
        for card in wanted:
            rest.remove(card)
    except ValueError:
        for card in dict.fromkeys(wanted):
            n, have = wanted.count(card), hand.count(card)
            if have < n:
                held = f"only {have}" if have else "none"
                raise RulesError(
                    said(
                        "you placed {n} × {card!r} but have {held} in hand",
                        n=n,
                        card=card,
                        held=held,
                    )
                ) from None
        raise
    plan = _plan(st, seat, cmd)
    doubled = "warlords" in plan and any(p.get("warlord") == "double_six" for p in plan["warlords"])
    for name, card in cards.items() if "6" in wanted and not doubled else ():
        if card == "6" and st.markers[PROVINCE_INDEX[name]][seat]:
            raise RulesError(
                said("your 6-marker already stands in {name}; your 6 cannot go there", name=name)
            )
    if doubled and rulings.DOUBLE_SIX_NEEDS_SIX_ON_MARKER:
        where = next(n for n, c in cards.items() if c == "6") if "6" in wanted else None
        if where is None or not st.markers[PROVINCE_INDEX[where]][seat]:
            raise RulesError(
                said("Double six is played with a 6 placed where your 6-marker stands")
            )
    return [
        {
            "type": "placed",
            "visible_to": SEATS[seat],
            "seat": SEATS[seat],
            "cards": (  # in board order (a random placement's order already: copied)
                dict(cards)
                if type(cards) is dict and tuple(cards) == PROVINCES
                else {p: cards[p] for p in PROVINCES}
            ),
            "plan": plan,
        }
    ]


def _plan(st: State, seat: int, cmd: Mapping[str, Any]) -> dict[str, Any]:
    """The choices given in advance with a placement (see the rules' "Decisions made in
    advance"): Warlord plays before the battles, armed reactive Warlords, an order of
    battle, and a standing choice of army sources."""
    plan: dict[str, Any] = {}
    plays = _check_plays(st, seat, cmd.get("warlords", []), before=True)
    if plays:
        plan["warlords"] = plays
    arm = cmd.get("arm", _NONE)
    if type(arm) is not dict and not isinstance(arm, Mapping):
        raise RulesError(said('arm is an object such as {"counter_plague": true}'))
    for warlord, how in arm.items() if arm else ():
        if warlord not in REACTIVE_WARLORDS:
            raise RulesError(
                said("{warlord!r} is not a Warlord that fires by itself", warlord=warlord)
            )
        if not holds(st, seat, warlord):
            raise RulesError(said("you do not hold {warlord}", warlord=warlord))
        if warlord == "restraint" and how not in PROVINCES and how is not None:
            raise RulesError(said("arm Restraint with the province it guards"))
        if warlord != "restraint" and not isinstance(how, bool):
            raise RulesError(said("arm {warlord} with true or false", warlord=warlord))
    armed = {w: h for w, h in arm.items() if h} if arm else None
    if armed:
        plan["arm"] = armed
    order = cmd.get("order")
    if order is not None:
        plan["order"] = _provinces(order, st)
        if len(plan["order"]) > 1 and not rulings.ORDER_MAY_BE_NAMED_IN_ADVANCE:
            raise RulesError(said("name only the next province"))
    supply = cmd.get("supply")
    if supply is not None:
        if isinstance(supply, list):
            _provinces(supply, st, fought_ok=True)
        elif supply not in ("largest", "smallest"):
            raise RulesError(said('supply is "largest", "smallest" or a list of provinces'))
        plan["supply"] = supply
    return plan


def _check_plays(st: State, seat: int, plays: Any, before: bool) -> list[dict[str, Any]]:
    """Warlord plays take effect in the order given, so each is checked against the board
    as the plays before it leave it (on a scratch copy)."""
    if not isinstance(plays, list):
        raise RulesError(said("warlords is a list of Warlord plays (empty for none)"))
    if not plays:  # the usual case: no scratch copy to check against
        return []
    scratch = st.copy()
    checked = []
    for play in plays:
        if not isinstance(play, Mapping):
            raise RulesError(said('a Warlord play is an object such as {"warlord": "remove", ...}'))
        if any(p["warlord"] == play.get("warlord") for p in checked):
            raise RulesError(said("you can play {warlord} only once", warlord=play.get("warlord")))
        _check_play(scratch, seat, play, before)
        checked.append(dict(play))
        effect = play_warlord(scratch, seat, checked[-1])
        effect["queued"] = False  # applied here only to check the next play
        apply_in_place(scratch, effect)
    return checked


def _check_play(st: State, seat: int, play: Mapping[str, Any], before: bool) -> None:
    warlord = play.get("warlord")
    if warlord not in ACTIVE_WARLORDS:
        raise RulesError(
            said("{warlord!r} is not a Warlord you play with targets", warlord=warlord)
        )
    if not holds(st, seat, warlord):
        raise RulesError(said("you do not hold {warlord}", warlord=warlord))
    if not before and warlord not in EARLY_WARLORDS:
        raise RulesError(said("{warlord} cannot be played after the battles", warlord=warlord))
    error = play_error(st, seat, dict(play))
    if error:
        raise RulesError(error)


def _provinces(names: Any, st: State, fought_ok: bool = False) -> list[str]:
    if not isinstance(names, list) or not names:
        raise RulesError(
            said("give a list of province names: {provinces}", provinces=", ".join(PROVINCES))
        )
    if len(set(map(str, names))) != len(names):
        raise RulesError(said("name each province once"))
    if fought_ok or not st.fought:  # the usual case, nothing to say, told at once
        try:
            known = _PROVINCE_SET.issuperset(names)
        except TypeError:  # (a name that cannot be looked up: below)
            known = False
        if known:
            return list(names)
    for name in names:
        if name not in PROVINCE_INDEX:
            raise RulesError(
                said(
                    "there is no province {name!r}; they are {provinces}",
                    name=name,
                    provinces=", ".join(PROVINCES),
                )
            )
        if not fought_ok and PROVINCE_INDEX[name] in st.fought:
            raise RulesError(
                said("the battle in {name} has already been fought this round", name=name)
            )
    return list(names)


def _cmd_next_province(st: State, seat: int, cmd: Mapping[str, Any]) -> list:
    _owes(st, seat, "next_province")
    names = cmd.get("provinces")
    if isinstance(cmd.get("province"), str):
        names = [cmd["province"]]
    names = _provinces(names, st)
    if len(names) > 1 and not rulings.ORDER_MAY_BE_NAMED_IN_ADVANCE:
        raise RulesError(said("name only the next province"))
    assert next_province(st) is None
    return [order_named(seat, names)]


def _cmd_sources(st: State, seat: int, cmd: Mapping[str, Any]) -> list:
    # An exceptional reinforcement attached to this answer may have settled the choice
    # already; the answer stays valid as long as the armies owed are still this seat's.
    if not (st.tasks and st.tasks[0]["seat"] == SEATS[seat] and owed(st).get(seat) is None):
        _owes(st, seat, "sources")
    task = st.tasks[0]
    take_in = cmd.get("take", {})
    if not isinstance(take_in, Mapping):
        raise RulesError(said('take is an object such as {"Qin": 2}'))
    take: dict[int, int] = {}
    for name, n in take_in.items():
        if name not in PROVINCE_INDEX:
            raise RulesError(said("there is no province {name!r}", name=name))
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise RulesError(said("take a whole number of armies from {name}", name=name))
        if n:
            take[PROVINCE_INDEX[name]] = n
    reserve = st.reserve[seat]
    tiers = battle.source_tiers(st.armies, seat, task)
    error = battle.take_error(tiers, battle.board_need(reserve, task), take)
    if error:
        raise RulesError(error)
    moves = battle.take_moves(seat, reserve, task, take)
    return [
        {
            "type": "armies_moved",
            "visible_to": "all",
            "seat": SEATS[seat],
            "why": task["why"],
            "moves": moves,
        }
    ]


def _cmd_keep(st: State, seat: int, cmd: Mapping[str, Any]) -> list:
    _owes(st, seat, "keep")
    keep = cmd.get("cards")
    if isinstance(keep, str):
        keep = [keep]
    n = st.keep_n[seat]
    drawn = st.drawn[seat]
    if not isinstance(keep, list) or len(keep) != n:
        raise RulesError(
            said("keep exactly {n} of the cards you drew: {drawn}", n=n, drawn=", ".join(drawn))
        )
    rest = list(drawn)
    for card in keep:
        if card not in rest:
            raise RulesError(
                said(
                    "you did not draw {card!r}; you drew {drawn}", card=card, drawn=", ".join(drawn)
                )
            )
        rest.remove(card)
    return [
        {
            "type": "card_kept",
            "visible_to": SEATS[seat],
            "seat": SEATS[seat],
            "keep": list(keep),
            "bottom": rest,
        }
    ]


def _cmd_after_battles(st: State, seat: int, cmd: Mapping[str, Any]) -> list:
    _owes(st, seat, "after_battles")
    plays = _check_plays(st, seat, cmd.get("warlords", []), before=False)
    return [
        {
            "type": "after_battles_chosen",
            "visible_to": SEATS[seat],
            "seat": SEATS[seat],
            "plays": plays,
        }
    ]


HANDLERS = {
    "choose_warlord": _cmd_choose_warlord,
    "extra_warlord": _cmd_extra_warlord,
    "place": _cmd_place,
    "next_province": _cmd_next_province,
    "sources": _cmd_sources,
    "keep": _cmd_keep,
    "after_battles": _cmd_after_battles,
    "reinforce": _cmd_reinforce,
    "resign": _cmd_resign,
}
COMMAND_TYPES = tuple(HANDLERS)
