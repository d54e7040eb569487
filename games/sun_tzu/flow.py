"""The automatic part of a round: everything that happens between two decisions.

``auto(state)`` gives the next events when nobody owes a decision (``owed``, in
``games.sun_tzu.owed``); ``run`` applies them until someone must decide or the game is over.
The position itself is the program counter (phase, current province, stage, tasks), so a
state folded from stored events resumes exactly where the game stopped.
"""

from __future__ import annotations

from typing import Any

from games.sun_tzu import battle, rulings
from games.sun_tzu.components import (
    BLUE,
    CARD_ORDER,
    MINUS,
    PLAGUE,
    PROVINCE_INDEX,
    PROVINCES,
    RED,
    SCORE_LIMIT,
    SCORING_ROUNDS,
    SEATS,
    SET_ASIDE_COST,
)
from games.sun_tzu.owed import (  # owed: read from here by the other modules
    armed,
    due,
    holds,
    next_province,  # noqa: F401
    owed,  # noqa: F401
    task_moves,
    unused_warlords,
)
from games.sun_tzu.plays import play_error, play_warlord  # noqa: F401
from games.sun_tzu.state import (
    HANDLERS,
    SEAT_INDEX,
    State,
    move_armies,
    plagues_played,
    with_seat,
)


# ---------------------------------------------------------------------------------------
# The next automatic events.
def round_started(n: int) -> dict[str, Any]:
    return {"type": "round_started", "visible_to": "all", "round": n}


def auto(st: State) -> list[dict[str, Any]]:
    if st.tasks:
        task = st.tasks[0]
        return [
            {
                "type": "armies_moved",
                "visible_to": "all",
                "seat": task["seat"],
                "why": task["why"],
                "moves": task_moves(st, task),
            }
        ]
    step = _PHASES[st.phase]
    return step(st)


def _after_setup(st: State) -> list[dict[str, Any]]:
    if st.variant == "standard":
        return [{"type": "warlords_to_choose", "visible_to": "all"}]
    return [round_started(1)]


def _after_warlords(st: State) -> list[dict[str, Any]]:
    events = []
    if holds(st, BLUE, "head_start"):
        events.append(
            {
                "type": "warlord_played",
                "visible_to": "all",
                "seat": "blue",
                "warlord": "head_start",
                "score": rulings.HEAD_START_BONUS,
            }
        )
    return [*events, round_started(1)]


def _after_placement(st: State) -> list[dict[str, Any]]:
    first = st.first_placer
    plays = [
        [SEATS[seat], play]
        for seat in (first, 1 - first)
        for play in st.plans[seat].get("warlords", ())
        # Double six shows only when the 6 is revealed on its marker (see _fight):
        # announcing it now would tell the opponent where the 6 lies.
        if play["warlord"] != "double_six"
    ]
    return [{"type": "cards_down", "visible_to": "all", "first": SEATS[first], "plays": plays}]


def _prebattle(st: State) -> list[dict[str, Any]]:
    if st.queue:
        return [play_warlord(st, *st.queue[0])]
    holder = st.privilege
    if st.round > 1:
        blue, red = st.on_board(BLUE), st.on_board(RED)
        if blue != red:
            holder = BLUE if blue < red else RED
    event: dict[str, Any] = {
        "type": "privilege_settled",
        "visible_to": "all",
        "holder": None if holder is None else SEATS[holder],
    }
    if holder is not None and st.round > 1 and st.plans[holder].get("order"):
        # The order given with the placement stays the holder's secret; the battles show it.
        return [event, order_named(holder, st.plans[holder]["order"])]
    return [event]


def order_named(seat: int, provinces: list[str]) -> dict[str, Any]:
    return {"type": "order_named", "visible_to": SEATS[seat], "seat": SEATS[seat],
            "provinces": list(provinces)}  # fmt: skip


def _battle(st: State) -> list[dict[str, Any]]:
    if st.current is None:
        # A province left to fight is ``run``'s (``_fight``): it applies the battle as it goes.
        if st.round in rulings.AFTER_BATTLES_ROUNDS:
            seats = [SEATS[s] for s in (BLUE, RED) if any(w not in st.spent[s] for w in st.kept[s])]
            if seats:
                return [{"type": "window_opened", "visible_to": "all", "seats": seats}]
        return _score(st)
    if st.stage == "effects":
        return [_resolve(st)]
    return _after_battle(st)


def _fight(st: State, p: int, out: list) -> None:
    """The battle in province ``p``, applied to ``run``'s scratch state as it is made: one
    ``battle`` event when nothing interrupts it (no decision, no event card, no recycling),
    else its parts (``battle_revealed``, ``battle_resolved``, ..., ``battle_ended``) so that
    a decision can come in between. The state is left as folding those events leaves it:
    the reveal, the resolution (``_resolve``) and their handlers' changes are worked out
    here in one go (some forty battles a game); the rare turns go through the general
    functions (``settle``, ``_margin``, ``_event_or_end``, ``_recycling``).
    """
    blue_card, red_card = st.placed[BLUE][p], st.placed[RED][p]
    province = PROVINCES[p]
    # The reveal: the cards are looked at before the plans, as most battles fire no Warlord.
    fired: dict[str, list[str]] = {}
    restrained = countered = False
    if blue_card in _RESTRAINED:
        restrained = armed(st, BLUE, "restraint") == province
        if restrained:
            fired["blue"] = ["restraint"]
    elif blue_card == PLAGUE:
        countered = not (
            red_card == PLAGUE and rulings.COUNTER_PLAGUE_WAITS_WHEN_BOTH_PLAY_A_PLAGUE
        ) and bool(armed(st, RED, "counter_plague"))
        if countered:
            fired["red"] = ["counter_plague"]
    if red_card == "6" and st.markers[p][RED] and holds(st, RED, "double_six"):
        fired.setdefault("red", []).append("double_six")
    if restrained or countered:
        blue_value = battle.value_of(blue_card, restrained=restrained, counter_plagued=countered)
        red_value = _PLAIN_VALUE[red_card]
        plague = blue_value[0] == "plague" or red_value[0] == "plague"
        winner, margin = (None, 0) if plague else battle.compare(blue_value, red_value)
    else:
        plain = _PLAIN_BATTLE.get((blue_card, red_card))
        if plain is None:  # a bonus against a -1: the ruling is asked each time
            plain = _plain_battle(blue_card, red_card)
        blue_value, red_value, plague, winner, margin = plain
    settled: list = []
    tasks: list = []
    if blue_card in _CARD_COST or red_card in _CARD_COST:
        # ``settle`` over the cards' costs (a seat's cost never changes the other's sources),
        # its usual case first: the reserve pays it all (what ``task_moves`` gives then).
        reserve = st.reserve
        for seat, card in ((BLUE, blue_card), (RED, red_card)):
            n = _CARD_COST.get(card)
            if n is None:
                continue
            to = "marker@" + province if card == "6" else "aside"
            if n <= reserve[seat]:
                settled.append([SEATS[seat], "reserve", to, n])
                continue
            task = _cost(seat, n, to, "six" if card == "6" else card, p)
            moves = task_moves(st, task)
            if moves is None:
                tasks.append(task)
            else:
                settled.extend(moves)
    deadly = plague and red_card == PLAGUE and st.deadly
    event = {
        "type": "battle_revealed",
        "visible_to": "all",
        "province": province,
        "cards": {"blue": blue_card, "red": red_card},
        "values": {"blue": [*blue_value], "red": [*red_value]},
        "plague": plague,
        "deadly": deadly,
        "winner": None if winner is None else SEATS[winner],
        "margin": margin,
        "fired": fired,
        "plagues": (blue_card == PLAGUE) + (red_card == PLAGUE),
        "moves": settled,
        "tasks": tasks,
    }
    # Its handler (``_battle_revealed``), but for the fields the battle's end resets.
    order = st.order
    if order and order[0] == p:
        st.order = order[1:]
    if settled:
        move_armies(st, settled)
    if blue_card == PLAGUE or red_card == PLAGUE:
        plagues_played(st, blue_card, red_card)
    if fired:
        for seat_name, warlords in fired.items():
            seat = SEAT_INDEX[seat_name]
            st.spent = with_seat(st.spent, seat, (*st.spent[seat], *warlords))
    if blue_card == "1" or red_card == "1":
        one = st.played_one
        st.played_one = (one[0] or blue_card == "1", one[1] or red_card == "1")
    if tasks:  # a decision before the resolution
        st.current, st.stage, st.battle = p, "effects", event
        st.tasks = st.tasks + tuple(tasks)
        out.append(event)
        return
    # The resolution (``_resolve``, ``_margin`` and ``battle.margin_moves`` unrolled).
    more: list = []
    if winner is not None:
        result = "win"
        armies = st.armies
        loser = 1 - winner
        held = armies[p][loser]
        if held >= margin:
            removed, add = margin, 0
        else:
            removed, add = held, margin - held
        moves = [[SEATS[loser], province, "reserve", removed]] if removed else []
        if add and add <= st.reserve[winner]:  # all from the reserve: what task_moves gives
            moves.append([SEATS[winner], "reserve", province, add])
            # applied here: the loser's armies back to its reserve, the winner's out of its
            blue, red = armies[p]
            in_blue, in_red = st.reserve
            if winner == BLUE:
                pair, reserve = (blue + add, red - removed), (in_blue - add, in_red + removed)
            else:
                pair, reserve = (blue - removed, red + add), (in_blue + removed, in_red - add)
            st.armies = (*armies[:p], pair, *armies[p + 1 :])
            st.reserve = reserve
        else:
            if add:  # the loser's removal never changes the winner's sources
                supplied, more = settle(st, [_supply(winner, add, p, "margin")])
                moves += supplied
            if moves:
                move_armies(st, moves)
    else:
        moves = []
        if plague:
            blue, red = st.armies[p]
            owner = BLUE if blue else RED if red else None
            if owner is not None:
                loss = rulings.plague_losses(st.armies[p][owner], deadly)
                if loss:
                    moves = [[SEATS[owner], province, "reserve", loss]]
                    move_armies(st, moves)
            result = "plague"
        else:
            result = "tie"
    after: list = []
    if more:
        st.tasks = st.tasks + tuple(more)
    else:
        if st.events_on:
            up = st.event_up
            # Most battles cannot trigger the card up: asked only when they can, or when
            # the last one is done (the game may end).
            if up is None or _may_trigger(st, up, blue_card, red_card):
                st.current, st.stage, st.battle = p, "after", event
                after = _event_or_end(st)
        if not after and (red_card == PLAGUE or blue_card == MINUS):
            after = _recycling(st, event)
        if not after:  # nothing but its end: one event
            event["type"] = "battle"  # (a new dict nobody holds yet: the same keys, in order)
            event["result"] = result
            event["resolution"] = moves
            st.fought = (*st.fought, p)
            st.current, st.stage, st.battle = None, "", None
            out.append(event)
            return
        if after[0]["type"] == "card_recycled":
            after.append({"type": "battle_ended", "visible_to": "all", "province": province})
    st.current, st.stage, st.battle = p, "after", event
    out.append(event)
    out.append({
        "type": "battle_resolved",
        "visible_to": "all",
        "province": province,
        "result": result,
        "winner": event["winner"],
        "margin": margin,
        "moves": moves,
        "tasks": more,
    })  # fmt: skip
    handlers = HANDLERS
    for e in after:
        handlers[e["type"]](st, e)
        out.append(e)


_RESTRAINED = frozenset(("7", "8", "9", "10"))  # the cards Restraint holds to 6


# Each card's value when no Warlord changes it, and the set-aside cost it carries: read from
# tables (a battle reveals two cards, there are some forty battles a game).
_PLAIN_VALUE = {card: battle.value_of(card) for card in CARD_ORDER}
_CARD_COST = {"6": 1, **SET_ASIDE_COST}


def _plain_battle(blue: str, red: str) -> tuple:
    """(blue's value, red's value, plague, winner seat or None, margin) when no Warlord
    changes the two cards: read from ``_PLAIN_BATTLE``, built once."""
    blue_value, red_value = _PLAIN_VALUE[blue], _PLAIN_VALUE[red]
    plague = blue_value[0] == "plague" or red_value[0] == "plague"
    winner, margin = (None, 0) if plague else battle.compare(blue_value, red_value)
    return blue_value, red_value, plague, winner, margin


_PLAIN_BATTLE = {
    (b, r): _plain_battle(b, r)
    for b in CARD_ORDER
    for r in CARD_ORDER
    # (not a bonus against a -1: rulings.bonus_against_minus is a switch, asked each time)
    if {_PLAIN_VALUE[b][0], _PLAIN_VALUE[r][0]} != {"bonus", "minus"}
}


def settle(st: State, tasks: list[dict[str, Any]]) -> tuple[list, list]:
    """Split new army tasks into the moves that need no decision and the tasks that do.

    Tasks created together belong to different seats (or touch only one seat's armies),
    so settling one never changes another's sources; settling them inside the event that
    creates them saves an event per battle in the common case.
    """
    moves: list = []
    open_tasks: list = []
    for task in tasks:
        settled = task_moves(st, task)
        if settled is None:
            open_tasks.append(task)
        else:
            moves.extend(settled)
    return moves, open_tasks


def _cost(seat: int, n: int, to: str, why: str, p: int) -> dict[str, Any]:
    return {
        "kind": "cost",
        "seat": SEATS[seat],
        "n": n,
        "to": to,
        "why": why,
        "province": PROVINCES[p],
    }


def _supply(seat: int, n: int, p: int, why: str) -> dict[str, Any]:
    return {
        "kind": "supply",
        "seat": SEATS[seat],
        "n": n,
        "to": PROVINCES[p],
        "why": why,
        "province": PROVINCES[p],
    }


def _margin(st: State, p: int, winner: int, margin: int, why: str) -> tuple[list, list]:
    removed, add = battle.margin_moves(st.armies[p], winner, margin)
    moves = [[SEATS[1 - winner], PROVINCES[p], "reserve", removed]] if removed else []
    if add and add <= st.reserve[winner]:  # all from the reserve: what task_moves gives
        moves.append([SEATS[winner], "reserve", PROVINCES[p], add])
        return moves, []
    # The loser's removal never changes the winner's sources (reserve, other provinces).
    supplied, tasks = settle(st, [_supply(winner, add, p, why)] if add else [])
    return moves + supplied, tasks


def _resolve(st: State) -> dict[str, Any]:
    b = st.battle
    p = PROVINCE_INDEX[b["province"]]
    moves: list = []
    tasks: list = []
    if b["plague"]:
        owner = st.owner(p)
        if owner is not None:
            loss = rulings.plague_losses(st.armies[p][owner], b["deadly"])
            if loss:
                moves = [[SEATS[owner], PROVINCES[p], "reserve", loss]]
        result = "plague"
    elif b["winner"] is None:
        result = "tie"
    else:
        moves, tasks = _margin(st, p, SEATS.index(b["winner"]), b["margin"], "margin")
        result = "win"
    return {
        "type": "battle_resolved",
        "visible_to": "all",
        "province": b["province"],
        "result": result,
        "winner": b["winner"],
        "margin": b["margin"],
        "moves": moves,
        "tasks": tasks,
    }


def _after_battle(st: State) -> list[dict[str, Any]]:
    early = _event_or_end(st)
    if early:
        return early
    b = st.battle
    events = _recycling(st, b)
    events.append({"type": "battle_ended", "visible_to": "all", "province": b["province"]})
    return events


def _event_or_end(st: State) -> list[dict[str, Any]]:
    """What comes after a battle instead of its end: the event card it triggers, or the
    game's end after the last event card (empty: neither, as always without events)."""
    if not st.events_on:
        return []
    triggered = _event_check(st)
    if triggered:
        return triggered
    if st.event_up is None and st.events_done:
        # The last event card has triggered and its effect is done (the game ends after
        # it: rulings.LAST_EVENT_ENDS_BEFORE_EFFECT = False).
        return [_end(st, st.score, "last_event")]
    return []


def _recycling(st: State, b: dict[str, Any]) -> list[dict[str, Any]]:
    """The cards recycled after battle ``b`` (a Plague by red, a -1 by blue, when armed)."""
    events = []
    cards = b["cards"]
    if cards["red"] != PLAGUE and cards["blue"] != MINUS:  # the usual case
        return events
    for seat, warlord, card in ((RED, "plague_recycle", PLAGUE), (BLUE, "minus_recycle", MINUS)):
        if cards[SEATS[seat]] == card and armed(st, seat, warlord):
            # The card goes under the deck, then the top card is discarded: without the
            # ruling, the recycled card itself when the deck was empty.
            deck = st.decks[seat] or (
                () if rulings.RECYCLE_DISCARDS_FROM_PREVIOUS_DECK_ONLY else (card,)
            )
            burned = deck[0] if deck else None
            events.append(
                {
                    "type": "card_recycled",
                    "visible_to": SEATS[seat],
                    "seat": SEATS[seat],
                    "warlord": warlord,
                    "card": card,
                    "province": b["province"],
                    "burned": burned,
                }
            )
    return events


def _challenged(st: State, card: str) -> list[int]:
    """Seats that played ``card`` in this battle and did not win it."""
    b = st.battle
    seats = []
    for seat in (BLUE, RED):
        name = SEATS[seat]
        if b["cards"][name] != card or b["winner"] == name:
            continue
        if "restraint" in b["fired"].get(name, ()) and not rulings.RESTRAINED_CARD_MEETS_CHALLENGES:
            continue
        seats.append(seat)
    return seats


def _may_trigger(st: State, card: str, blue: str, red: str) -> bool:
    """What of event ``card``'s trigger reads only the battle's cards (``blue``, ``red``)
    and the Plagues played: false, and the battle cannot trigger it (most cannot; the
    combined battle in ``_fight`` asks before anything else). The rest is
    ``_event_check``'s."""
    if card == "epidemic":
        return st.plagues_played >= rulings.EPIDEMIC_PLAGUES
    if card == "champion_challenge":  # a 9 played that did not win (``_challenged``)
        return blue == "9" or red == "9"
    if card == "hero_challenge":
        return blue == "10" or red == "10"
    if card == "light_infantry":
        return blue == "1" and red == "1"
    return True


def _event_check(st: State) -> list[dict[str, Any]]:
    """The face-up event card's trigger after a battle, if its condition holds."""
    card = st.event_up
    if not st.events_on or card is None:
        return []
    b = st.battle
    if not _may_trigger(st, card, b["cards"]["blue"], b["cards"]["red"]):
        return []
    p = PROVINCE_INDEX[b["province"]]
    tasks: list = []
    moves: list = []
    extra: list = []
    if card == "epidemic":
        moves, tasks = settle(st, [_cost(s, 1, "aside", card, p) for s in (BLUE, RED)])
    elif card == "war_chariot":
        seats = [
            s
            for s in (BLUE, RED)
            if sum(1 for m in st.markers if m[s]) >= rulings.WAR_CHARIOT_MARKER_PROVINCES
        ]
        if not seats:
            return []
        extra = [SEATS[s] for s in seats if st.variant == "standard" and unused_warlords(st, s)]
    elif card in ("champion_challenge", "hero_challenge"):
        nine_or_ten, cost = ("9", 1) if card == "champion_challenge" else ("10", 2)
        seats = _challenged(st, nine_or_ten)
        if not seats:
            return []
        moves, tasks = settle(st, [_cost(s, cost, "aside", card, p) for s in seats])
    elif card == "light_infantry" and st.score:  # (a tie: the event, nothing to move)
        behind = RED if st.score > 0 else BLUE
        moves, tasks = _margin(st, p, behind, 1, card)
    event = {
        "type": "event_triggered",
        "visible_to": "all",
        "card": card,
        "next": st.event_deck[0] if st.event_deck else None,
    }
    if not st.event_deck and rulings.LAST_EVENT_ENDS_BEFORE_EFFECT:
        return [event, _end(st, st.score, "last_event")]
    if not st.event_deck:
        extra = []  # the game ends after this effect: an extra Warlord could change nothing
    event.update(tasks=tasks, moves=moves, extra=extra)
    return [event]


def _score(st: State) -> list[dict[str, Any]]:
    if st.round not in SCORING_ROUNDS:
        return _end_round(st)
    column = SCORING_ROUNDS.index(st.round)
    points = [0, 0]
    for p in range(5):
        owner = st.owner(p)
        if owner is not None:
            points[owner] += st.displays[p][column]
    marker = max(-SCORE_LIMIT, min(SCORE_LIMIT, st.score + points[BLUE] - points[RED]))
    return [
        {
            "type": "scored",
            "visible_to": "all",
            "round": st.round,
            "points": {"blue": points[BLUE], "red": points[RED]},
            "marker": marker,
        }
    ]


def _after_scoring(st: State) -> list[dict[str, Any]]:
    if st.round == SCORING_ROUNDS[-1]:
        return [_end(st, st.score, "points")]
    if abs(st.score) == SCORE_LIMIT:
        return [_end(st, st.score, "knockout")]
    return _end_round(st)


def _end(st: State, score: int, reason: str) -> dict[str, Any]:
    """The game-ended event: the side of the marker wins, else more reserve, else a draw.
    After round 9 the reason says which (points, reserve, draw); the last event stays the
    reason whoever it makes win (the outcome's score and reserves say how)."""
    if score:
        winner: int | None = BLUE if score > 0 else RED
    else:
        blue, red = st.reserve
        winner = None if blue == red else BLUE if blue > red else RED
        if reason != "last_event":
            reason = "draw" if winner is None else "reserve"
    return {
        "type": "game_ended",
        "visible_to": "all",
        "winner": None if winner is None else SEATS[winner],
        "reason": reason,
        "score": score,
        "reserve": {"blue": st.reserve[BLUE], "red": st.reserve[RED]},
        "round": st.round,
    }


def resigned(st: State, seat: int) -> dict[str, Any]:
    event = _end(st, st.score, "forfeit")
    event.update(winner=SEATS[1 - seat], reason="forfeit")
    return event


def _end_round(st: State) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [{"type": "round_ended", "visible_to": "all", "round": st.round}]
    for seat in (BLUE, RED):
        draw, keep = (3, 2) if st.played_one[seat] else (2, 1)
        cards = st.decks[seat][:draw]
        if cards:
            events.append(
                {
                    "type": "cards_drawn",
                    "visible_to": SEATS[seat],
                    "seat": SEATS[seat],
                    "cards": list(cards),
                    "keep": min(keep, len(cards)),
                }
            )
    return events


def _after_window(st: State) -> list[dict[str, Any]]:
    if st.answered:
        plays = [[SEATS[s], play] for s in st.answered for play in st.window[s]]
        return [{"type": "window_closed", "visible_to": "all", "plays": plays}]
    if st.queue:
        return [play_warlord(st, *st.queue[0])]
    return _score(st)


def _next_round(st: State) -> list[dict[str, Any]]:
    # Only reached with drawn cards left when the ruling lets alike cards be kept unasked.
    kept = [
        {
            "type": "card_kept",
            "visible_to": SEATS[seat],
            "seat": SEATS[seat],
            "keep": list(st.drawn[seat][: st.keep_n[seat]]),
            "bottom": list(st.drawn[seat][st.keep_n[seat] :]),
        }
        for seat in (BLUE, RED)
        if st.drawn[seat]
    ]
    return kept or [round_started(st.round + 1)]


_PHASES = {
    "setup": _after_setup,
    "warlords": _after_warlords,
    "place": _after_placement,
    "prebattle": _prebattle,
    "battle": _battle,
    "after": _after_window,
    "scored": _after_scoring,
    "draw": _next_round,
}


def run(scratch: State, out: list[dict[str, Any]]) -> dict[int, str]:
    """Apply automatic events to a private scratch state, and append them to ``out``,
    until a decision is owed or the game is over; give what is owed then."""
    handlers = HANDLERS
    while True:
        if scratch.phase == "battle":
            # The battles in a row, while nothing else is owed (``due``'s first case,
            # answered here without asking twice): each applied as it is made.
            while (
                scratch.current is None
                and len(scratch.fought) < 5
                and not scratch.tasks
                and not (scratch.extra[BLUE] or scratch.extra[RED])
                and scratch.phase == "battle"
            ):
                # next_province, inlined
                fought = scratch.fought
                if scratch.privilege is None or scratch.round == 1:
                    p = len(fought)  # the fixed order is board order
                elif scratch.order:
                    p = scratch.order[0]
                elif len(fought) == 4:
                    p = 10 - sum(fought)  # the one province left
                else:  # its holder names it
                    return {scratch.privilege: "next_province"}
                _fight(scratch, p, out)
            if scratch.phase == "over":  # the last event card ended the game
                return {}
        elif scratch.phase == "over":
            return {}
        owing = due(scratch)
        if owing:
            return owing
        for event in auto(scratch):  # apply_in_place, inlined: every event
            handlers[event["type"]](scratch, event)
            out.append(event)
