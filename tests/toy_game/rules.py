"""Duel's rules as a Decider: state, setup, decide, evolve, view, redact, pending, legal."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.base import RulesError

SEATS = ("north", "south")
DECK = tuple(n for n in range(1, 7) for _ in range(2))
HANDS = (3, 4)

EVENT_FIELDS: dict[str, dict[str, str]] = {
    "dealt": {"hand": "int"},  # public: how many cards each
    "deck_shuffled": {"deck": "list"},  # server only
    "hand_dealt": {"seat": "str", "cards": "list"},  # the seat only
    "card_played": {"seat": "str", "card": "int"},  # the seat only until shown
    "cards_shown": {"cards": "dict", "winner": "str?"},  # public
    "resigned": {"seat": "str"},
    "game_over": {"winner": "str?", "reason": "str", "won": "dict"},
}
EVENT_VERSIONS: dict[str, int] = {}  # every event at version 1: nothing to upcast
UPCASTERS: dict[tuple[str, int], Any] = {}
COMMAND_FIELDS: dict[str, dict[str, Any]] = {"play": {"card": "int"}, "resign": {}}


@dataclass(frozen=True)
class State:
    hand_size: int = 0
    deck: tuple[int, ...] = ()
    hands: Mapping[str, tuple[int, ...]] = None  # type: ignore[assignment]
    played: Mapping[str, int] = None  # type: ignore[assignment]  # face down this round
    won: Mapping[str, int] = None  # type: ignore[assignment]
    rounds: int = 0  # rounds fought
    shown: tuple[Mapping[str, Any], ...] = ()  # every round's cards and winner
    result: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        for name in ("hands", "played", "won"):
            if getattr(self, name) is None:
                object.__setattr__(self, name, {})


def setup(options: Mapping[str, Any] | None, rng: Any) -> list[dict[str, Any]]:
    options = dict(options or {})
    unknown = sorted(set(options) - {"hand"})
    if unknown:
        raise RulesError(f"Duel has no option {unknown[0]!r}; it has hand")
    hand = options.get("hand", 3)
    if hand not in HANDS or isinstance(hand, bool):
        raise RulesError("hand is 3 or 4 cards")
    deck = list(DECK)
    rng.shuffle(deck)
    events = [{"type": "dealt", "visible_to": "all", "hand": hand},
              {"type": "deck_shuffled", "visible_to": "server", "deck": deck}]  # fmt: skip
    for i, seat in enumerate(SEATS):
        cards = sorted(deck[i * hand : (i + 1) * hand])
        events.append({"type": "hand_dealt", "visible_to": seat, "seat": seat, "cards": cards})
    return events


def decide(state: State, seat: str, command: Any, rng: Any = None) -> list[dict[str, Any]]:
    if seat not in SEATS:
        raise RulesError(f"there is no seat {seat!r} in Duel; the seats are north and south")
    if state.result is not None:
        raise RulesError("the game is over")
    if not state.hand_size:
        raise RulesError("the cards have not been dealt")
    kind = command.get("type") if isinstance(command, Mapping) else None
    if kind == "resign":
        other = SEATS[1 - SEATS.index(seat)]
        return [{"type": "resigned", "visible_to": "all", "seat": seat},
                _over(state, other, "resignation")]  # fmt: skip
    if kind != "play":
        raise RulesError('the commands are play {"card": n} and resign')
    card = command.get("card")
    if seat in state.played:
        raise RulesError("you have played this round's card already: waiting for the other")
    if card not in state.hands.get(seat, ()):
        raise RulesError(f"you have no {card!r} in hand")
    events = [{"type": "card_played", "visible_to": seat, "seat": seat, "card": card}]
    after = evolve(state, events[0])
    if len(after.played) == len(SEATS):  # both are down: show them
        cards = dict(after.played)
        a, b = (cards[s] for s in SEATS)
        winner = SEATS[0] if a > b else SEATS[1] if b > a else None
        shown = {"type": "cards_shown", "visible_to": "all", "cards": cards, "winner": winner}
        events.append(shown)
        after = evolve(after, shown)
        if after.rounds == after.hand_size:
            north, south = (after.won.get(s, 0) for s in SEATS)
            best = SEATS[0] if north > south else SEATS[1] if south > north else None
            events.append(_over(after, best, "rounds"))
    return events


def _over(state: State, winner: str | None, reason: str) -> dict[str, Any]:
    return {"type": "game_over", "visible_to": "all", "winner": winner, "reason": reason,
            "won": {s: state.won.get(s, 0) for s in SEATS}}  # fmt: skip


def evolve(state: State, event: Mapping[str, Any]) -> State:
    kind = event["type"]
    if kind == "dealt":
        return replace(state, hand_size=event["hand"])
    if kind == "deck_shuffled":
        return replace(state, deck=tuple(event["deck"]))
    if kind == "hand_dealt":
        return replace(state, hands={**state.hands, event["seat"]: tuple(event["cards"])})
    if kind == "card_played":
        seat, card = event["seat"], event["card"]
        hand = list(state.hands.get(seat, ()))
        if card in hand:
            hand.remove(card)
        return replace(state, hands={**state.hands, seat: tuple(hand)},
                       played={**state.played, seat: card})  # fmt: skip
    if kind == "cards_shown":
        won = dict(state.won)
        if event["winner"] is not None:
            won[event["winner"]] = won.get(event["winner"], 0) + 1
        shown = {"cards": dict(event["cards"]), "winner": event["winner"]}
        return replace(state, played={}, won=won, rounds=state.rounds + 1,
                       shown=(*state.shown, shown))  # fmt: skip
    if kind == "game_over":
        return replace(state, result={"winner": event["winner"], "reason": event["reason"]})
    return state  # resigned: the game_over that follows says it all


def fold(events: Iterable[Mapping[str, Any]], state: State | None = None) -> State:
    state = State() if state is None else state
    for event in events:
        state = evolve(state, event)
    return state


def pending(state: State) -> dict[str, str]:
    if state.result is not None or not state.hand_size:
        return {}
    return {seat: "play" for seat in SEATS if seat not in state.played}


def legal(state: State, seat: str) -> list[dict[str, Any]]:
    if seat not in pending(state):
        return []
    return [{"type": "play", "card": c} for c in sorted(set(state.hands[seat]))]


def random_command(state: State, seat: str, rng: Any) -> dict[str, Any] | None:
    options = legal(state, seat)
    return options[rng.randrange(len(options))] if options else None


def outcome(state: State) -> dict[str, Any] | None:
    return None if state.result is None else dict(state.result)


def view(state: State, seat: str | None) -> dict[str, Any]:
    over = state.result is not None
    return {
        "hand_size": state.hand_size,
        "round": state.rounds + (0 if over else 1),
        "won": {s: state.won.get(s, 0) for s in SEATS},
        "shown": [dict(r) for r in state.shown],
        "played": {s: (state.played[s] if over or s == seat else "hidden") for s in state.played},
        "hands": {s: (list(state.hands.get(s, ())) if over or s == seat else None) for s in SEATS},
        "cards_left": {s: len(state.hands.get(s, ())) for s in SEATS},
        "decision": (
            {"kind": "play", "cards": sorted(set(state.hands.get(seat, ())))}
            if seat in pending(state)
            else None
        ),
        "result": None if state.result is None else dict(state.result),
    }


def redact(event: Mapping[str, Any], seat: str | None) -> dict[str, Any]:
    to = event.get("visible_to", "all")
    if to == "all" or to == seat:
        return dict(event)
    stub = {"type": event["type"], "visible_to": to}
    if "seat" in event:
        stub["seat"] = event["seat"]
    if event["type"] == "hand_dealt":
        stub["count"] = len(event["cards"])
    return stub


def dump_state(state: State) -> str:
    return json.dumps({"hand_size": state.hand_size, "deck": list(state.deck),
                       "hands": {s: list(h) for s, h in state.hands.items()},
                       "played": dict(state.played), "won": dict(state.won),
                       "rounds": state.rounds, "shown": [dict(r) for r in state.shown],
                       "result": state.result}, sort_keys=True)  # fmt: skip


def load_state(text: str) -> State:
    data = json.loads(text)
    return State(data["hand_size"], tuple(data["deck"]),
                 {s: tuple(h) for s, h in data["hands"].items()}, dict(data["played"]),
                 dict(data["won"]), data["rounds"], tuple(data["shown"]),
                 data["result"])  # fmt: skip
