"""Warring States as a Decider: setup, decide (with every consequence), pending.

``decide`` works on a copy of the state through a ``Ctx``: each event it makes is applied
at once (``state.apply_in_place``) so the next rule reads the board as it now is, and the
events returned are exactly what ``evolve`` needs to reach the same state. After the
command itself, ``advance`` carries the game forward (dice, losses nobody has a choice
about, the end step, the next turn) until some seat owes a decision.

Decisions owed. Outside an operation, the active side owes an ``action`` (play a card or
pass). Inside one, ``op["owed"]`` names the side and the kind: ``operate`` (a structured
command: which counters go where) or a choice among ``op["owed"]["options"]`` (``choose``
by index): the target and joiners (``engage``), the defenders (``defend``), casualties
(``losses``), what to do after a fight (``after``), who takes an emptied city
(``successor``), a retreat area (``retreat``) and the passive player's Break cards
(``respond``, §10 and Ruling 16).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.base import RulesError
from games.i18n import said
from games.warring_states import board as B
from games.warring_states import state as S
from games.warring_states.data import kind_of

D = B.D
SEATS = ("first", "second")
VICTORY = ("basic", "bid")
SCENARIOS = tuple(D.scenarios)
MAX_BID = sum(D.rp.values())
GENERIC = ("military", "reinforcement", "diplomacy", "weather")
# Break cards whose option b) answers an attack (§10): card kind -> side
COMBAT_BREAKS = {
    "A_EMERGENCY_MOBILIZATION": "alliance",
    "L_EMERGENCY_MOBILIZATION": "lianheng",
    "A_ELITE_CROSSBOWMEN": "alliance",
    "L_ELITE_CROSSBOWMEN": "lianheng",
}


# -- who is who ------------------------------------------------------------------------------
def side_of(st: dict, seat: str) -> str | None:
    return st["sides"].get(seat)


def seat_of(st: dict, side: str) -> str:
    for seat, s in st["sides"].items():
        if s == side:
            return seat
    raise KeyError(side)


def cfg(st: dict, name: str) -> Any:
    return st["config"][name]


class Ctx:
    """A decision in progress: the working state, the events so far, the rng."""

    __slots__ = ("copied", "events", "rng", "sides", "st")

    def __init__(self, st: dict, rng: Any) -> None:
        self.st = dict(st)  # each container is copied before its first write (as S.thaw)
        self.copied: set[str] = set()
        self.events: list[dict] = []
        self.rng = rng
        self.sides = dict(st["sides"]) or None  # the events' copy of st["sides"], if any

    def emit(self, ev: dict) -> None:
        if "visible_to" not in ev:
            ev["visible_to"] = "all"
        st = self.st
        if "sides" not in ev and self.sides is not None:  # (readers, the sides: one copy
            ev["sides"] = self.sides  # for the events of a decision)
        if "force" in ev or "target" in ev:  # (readers, the factions)
            force, target = ev.get("force"), ev.get("target")
            if type(force) is str and force in FIXED:
                factions = {force: B.faction(st, force)}
                if type(target) is str and target in FIXED:
                    factions[target] = B.faction(st, target)
                ev["factions"] = factions
            elif type(target) is str and target in FIXED:
                ev["factions"] = {target: B.faction(st, target)}
        kind = ev["type"]
        writes, apply = PLAN.get(kind, NO_PLAN)  # the containers it writes into, and how
        copied = self.copied
        for key in writes:
            if key not in copied:
                st[key] = dict(st[key])
                copied.add(key)
        # what S.apply_in_place does (keep them in step), written out here with the copies
        # of the mechanical fields' containers: this runs for every event made
        if "op" in ev:
            st["op"] = ev["op"]
        if "areas" in ev:
            if "areas" in copied:
                st["areas"].update(ev["areas"])
            else:
                st["areas"] = {**st["areas"], **ev["areas"]}
                copied.add("areas")
        if "track" in ev:
            if "track" not in copied:
                st["track"] = dict(st["track"])
                copied.add("track")
            S.set_or_drop(st["track"], ev["track"])
        if "pool" in ev:
            if "pool" not in copied:
                st["pool"] = dict(st["pool"])
                copied.add("pool")
            S.set_or_drop(st["pool"], ev["pool"])
        if apply is not None:
            apply(st, ev)
            if kind in SIDES_SET:
                self.sides = dict(st["sides"]) or None
        self.events.append(ev)

    def die(self) -> int:
        return DIE_MIN + self.rng.randrange(DIE_FACES)


SIDES_SET = frozenset({"game_started", "bids_revealed"})  # the events that set st["sides"]
FIXED = B.FIXED
DIE_MIN = D.constants.die_min
DIE_FACES = D.constants.die_max - D.constants.die_min + 1
# event type -> (the containers it writes into beside the mechanical fields, its
# S.APPLY), one look-up per event made
PLAN = {kind: (S.WRITES.get(kind, ()), S.APPLY.get(kind)) for kind in {*S.WRITES, *S.APPLY}}
NO_PLAN: tuple[tuple, None] = ((), None)


def readers(st: dict, ev: dict) -> None:
    """Stamp what the log needs to tell ``ev`` to each reader from their side ("You played…",
    "Your Wei lost…"), since a sentence is made from one event alone: ``sides`` (seat ->
    side, public once known) and ``factions`` (the faction of the forces it names, before
    it happens). Both are public; ``evolve`` ignores them. (``Ctx.emit`` does the same,
    written out: one copy of the sides for all the events of a decision, the factions
    looked up only when the event names a force or a target.)"""
    sides = st["sides"]
    if sides and "sides" not in ev:
        ev["sides"] = dict(sides)
    # (written out, not as a loop over the two keys)
    force, target = ev.get("force"), ev.get("target")
    if isinstance(force, str) and force in B.FIXED:
        factions = {force: B.faction(st, force)}
        if isinstance(target, str) and target in B.FIXED:
            factions[target] = B.faction(st, target)
        ev["factions"] = factions
    elif isinstance(target, str) and target in B.FIXED:
        ev["factions"] = {target: B.faction(st, target)}


# -- setup ------------------------------------------------------------------------------------
def options_of(options: Any) -> tuple[str, str, str, dict]:
    options = dict(options or {})
    scenario = options.pop("scenario", "FIVE_KINGDOMS")
    victory = options.pop("victory", "basic")
    first = options.pop("first_side", "lianheng")
    if scenario not in D.scenarios:
        raise RulesError(
            said(
                "there is no scenario {scenario!r}; they are {scenarios}",
                scenario=scenario,
                scenarios=", ".join(SCENARIOS),
            )
        )
    if victory not in VICTORY:
        raise RulesError(
            said(
                "the victory rule is one of {rules}, not {victory!r}",
                rules=", ".join(VICTORY),
                victory=victory,
            )
        )
    if first not in B.SIDES:
        raise RulesError(said("the first player plays lianheng or alliance"))
    overrides = dict(options.pop("config", None) or {})
    for name in list(options):
        if name in D.config_values:
            overrides[name] = options.pop(name)
    if options:
        raise RulesError(said("Warring States has no option {option!r}", option=sorted(options)[0]))
    try:
        config = D.config(overrides)
    except ValueError as exc:
        raise RulesError(exc.args[0]) from None  # a said() sentence (data.py)
    return scenario, victory, first, config.as_dict()


def board_for(scenario: str, config: dict) -> tuple[dict, dict, dict]:
    sc = D.scenarios[scenario]
    areas: dict[str, dict] = {}
    for area in D.areas:
        spec = sc.areas.get(area, {"city": None, "field": []})
        content = {"city": None, "field": []}
        for i, st in enumerate(
            ([spec["city"]] if spec.get("city") else []) + spec.get("field", [])
        ):
            stack = B.new_stack(st["force"], st["armies"], 0, {g: True for g in st["generals"]})
            if i == 0 and spec.get("city"):
                content["city"] = stack
            else:
                content["field"].append(stack)
        areas[area] = content
    if scenario == "QIN_DOMINATES" and config["qd_hedong_holder"] != "QIN":
        held = areas["HEDONG"]["city"]
        held["force"] = config["qd_hedong_holder"]  # the alternative: the same counters, Wei's
    track = {f: {"box": p["box"], "received": p["received"]} for f, p in sc.diplomacy.items()}
    if config["diplomacy_track_layout"] == "linear7":
        pass  # same boxes: only the steps between them differ (board.shifted)
    pool = {g: "available" for g in sc.off_board_generals}
    return areas, track, pool


def setup(options: Any, rng: Any) -> list[dict]:
    scenario, victory, first, config = options_of(options)
    sc = D.scenarios[scenario]
    sides = {} if victory == "bid" else {SEATS[0]: first, SEATS[1]: B.OTHER[first]}
    c = Ctx(S.initial(), rng)
    c.emit(
        {
            "type": "game_started",
            "scenario": scenario,
            "victory": victory,
            "config": config,
            "turns": sc.turns,
            "target": sc.qin_victory_rp,
            "sides": sides,
        }
    )
    areas, track, pool = sorted_board(scenario, config)
    c.emit(
        {
            "type": "board_set",
            "areas": areas,
            "track": track,
            "pool": pool,
            "initiative": {"flipped": False, "side": sc.initiative},
        }
    )
    cfg = D.config(config)
    for side in B.SIDES:
        deck = list(D.deck(side, cfg))
        rng.shuffle(deck)
        c.emit({"type": "deck_shuffled", "visible_to": "server", "side": side, "deck": deck})
    if sides:
        start_turn(c, 1)
        advance(c)
    S.remember_setup(c.events, c.st)  # for the fold that follows: c.st is not changed
    return c.events


# scenario and config -> the board of board_for with every dict's keys sorted, as the
# store gives the event back (S.SORTED): worked out once, copied for each game
_BOARDS: dict[tuple, tuple[dict, dict, dict]] = {}


def sorted_board(scenario: str, config: dict) -> tuple[dict, dict, dict]:
    """``board_for`` as ``S.sorted_copy`` lays it out (the board's areas, each stack's
    fields and generals, the track and the pool in key order), a new copy each time: the
    state a game's events fold into is then the one its ``setup`` computed."""
    key = (scenario, *sorted(config.items()))
    board = _BOARDS.get(key)
    if board is None:
        board = _BOARDS[key] = S.sorted_copy(board_for(scenario, config))
    areas, track, pool = board
    copy_area = S.copy_area
    return (
        {a: copy_area(content) for a, content in areas.items()},
        {f: dict(p) for f, p in track.items()},
        dict(pool),
    )


# -- decide ------------------------------------------------------------------------------------
def decide(st: dict, seat: str, cmd: Any, rng: Any) -> list[dict]:
    if seat not in SEATS:
        raise RulesError(
            said("there is no seat {seat!r}; the seats are first and second", seat=seat)
        )
    if st["phase"] == "over":
        raise RulesError(said("the game is over"))
    if st["phase"] == "new":
        raise RulesError(said("the game has not been set up"))
    if not isinstance(cmd, dict) or not isinstance(cmd.get("type"), str):
        raise RulesError(said('a command is an object with a "type"'))
    kind = cmd["type"]
    c = Ctx(st, rng)
    if kind == "resign":
        other = SEATS[1 - SEATS.index(seat)]
        c.emit({"type": "resigned", "seat": seat})
        end_game(c, other, "resignation")
        return c.events
    if kind == "standing":
        set_standing(c, seat, cmd)
        return c.events
    owed = pending(st)
    if seat not in owed:
        raise RulesError(said("nothing is asked of you now: it is the other player's decision"))
    due = owed[seat]
    handler = HANDLERS.get(kind)
    if handler is None or kind not in ACCEPTS[due]:
        raise RulesError(
            said(
                "you are asked to {asked}; {kind!r} does not answer that",
                asked=PROMPT[due],
                kind=kind,
            )
        )
    handler(c, seat, cmd)
    advance(c)
    S.remember(st, c.events, c.st, pending_now(c.st))  # c.st is not changed after this
    return c.events


# what a decision asks, in an error's sentence (each said(): translated with the sentence)
PROMPT = {
    "bid": said("bid for Lianheng"),
    "action": said("play a card or pass"),
    "operate": said("carry out a military operation"),
    "choose": said("choose one of the options"),
    "respond": said("play a Break card or let it pass"),
    "pick": said("pick a card"),
}
ACCEPTS = {
    "bid": ("bid",),
    "action": ("play", "pass"),
    "operate": ("operate",),
    "choose": ("choose",),
    "respond": ("choose",),
    "pick": ("pick",),
}


# what is owed -> the decision asked (any other kind: "choose")
DUE = {"operate": "operate", "respond": "respond", "discard": "pick", "discard_drawn": "pick",
       "take": "pick"}  # fmt: skip


def pending(st: dict) -> dict[str, str]:
    """Seat -> the decision owed. Asked of the state a decision left again and again (the
    caller, ``random_command``, the next ``decide``): that one is answered from what
    ``decide`` worked out (``state.remember``), by identity; any other state afresh."""
    known = S.owed  # (S.owed_in, written out: asked three times a decision)
    if st is known[0]:
        return dict(known[1])
    return pending_now(st)


def pending_now(st: dict) -> dict[str, str]:
    """``pending`` worked out afresh."""
    phase = st["phase"]
    if phase == "bid":
        return {s: "bid" for s in SEATS if s not in st["bids"]}
    active = st["active"]
    if phase != "play" or active is None:
        return {}
    op = st["op"]
    if op is None:
        side, due = active, "action"
    else:
        owed = op.get("owed")
        if owed is None:
            return {}
        side, due = owed["side"], DUE.get(owed["kind"], "choose")
    for seat, s in st["sides"].items():  # (seat_of, written out: asked at every decision)
        if s == side:
            return {seat: due}
    raise KeyError(side)


# -- the opening bid (§13, competitive bid) ---------------------------------------------------
def do_bid(c: Ctx, seat: str, cmd: dict) -> None:
    value = cmd.get("rp")
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_BID:
        raise RulesError(said("a bid is a whole number of RP from 0 to {MAX_BID}", MAX_BID=MAX_BID))
    c.emit({"type": "bid_made", "visible_to": seat, "seat": seat, "rp": value})
    st = c.st
    if len(st["bids"]) < len(SEATS):
        return
    bids = dict(st["bids"])
    a, b = (bids[s] for s in SEATS)
    die = None
    if a == b:
        die = c.die()
        c.emit({"type": "die_rolled", "why": "bid_tie", "value": die})
        high = SEATS[0] if die <= 3 else SEATS[1]
    else:
        high = SEATS[0] if a > b else SEATS[1]
    sides = {high: "lianheng", SEATS[1 - SEATS.index(high)]: "alliance"}
    c.emit(
        {"type": "bids_revealed", "bids": bids, "sides": sides, "target": bids[high], "die": die}
    )
    start_turn(c, 1)


# -- turns -----------------------------------------------------------------------------------
def start_turn(c: Ctx, turn: int) -> None:
    st = c.st
    first = st["initiative"]["side"]
    c.emit({"type": "turn_started", "turn": turn, "first": first})
    rps = B.rps(st)
    for side in B.SIDES:
        more = rps[side] > rps[B.OTHER[side]]
        n = D.constants.draw_more_rp if more else D.constants.draw_fewer_or_equal_rp
        draw(c, side, n, "turn")


def draw(c: Ctx, side: str, n: int, why: str) -> None:
    cards = c.st["decks"][side][:n]  # Ruling 10: what is there
    c.emit(
        {
            "type": "cards_drawn",
            "visible_to": seat_of(c.st, side),
            "side": side,
            "cards": cards,
            "why": why,
        }
    )


def advance(c: Ctx) -> None:
    """Carry the game on until a decision is owed or it ends."""
    for _ in range(10_000):
        st = c.st
        if st["phase"] != "play" or st["result"] is not None:
            return
        op = st["op"]
        if op is not None:
            if op.get("owed") is not None:
                return
            STAGES.get(op.get("stage"), step_op)(c)  # (step_op, without its if-chain)
            continue
        if st["passes"] >= 2:
            end_step(c)
            continue
        side = st["active"]
        if not st["hands"][side]:  # §7.1: a player with no cards can only pass
            do_pass(c, seat_of(st, side), {})
            continue
        return
    raise AssertionError("the game does not advance")  # pragma: no cover


def do_pass(c: Ctx, seat: str, cmd: dict) -> None:
    side = c.st["sides"].get(seat)  # (side_of)
    c.emit({"type": "passed", "side": side})
    if c.st["passes"] < 2:
        c.emit({"type": "phase_ended", "next": B.OTHER[side]})


def end_phase(c: Ctx) -> None:
    side = c.st["active"]
    c.emit({"type": "phase_ended", "next": B.OTHER[side], "op": None})


def end_step(c: Ctx) -> None:
    """§12 (Ruling 43); after the last turn, victory (§13)."""
    st = c.st
    if st["turn"] >= st["turns"]:
        qin = B.qin_rp(st)
        side = "lianheng" if qin >= st["target"] else "alliance"
        end_game(c, seat_of(st, side), "rp")
        return
    for side in B.SIDES:
        c.emit(
            {
                "type": "hand_discarded",
                "visible_to": seat_of(st, side),
                "side": side,
                "cards": list(st["hands"][side]),
            }
        )
    for side in B.SIDES:
        deck = list(st["decks"][side]) + [d["card"] for d in st["discards"][side]]
        c.rng.shuffle(deck)
        c.emit({"type": "deck_shuffled", "visible_to": "server", "side": side, "deck": deck})
    areas = {}
    for area, content in st["areas"].items():
        city = content["city"]
        for s in (city, *content["field"]) if city else content["field"]:
            if s["tired"] or not all(s["gens"].values()):
                break  # (something to refresh in this area)
        else:
            continue
        new = S.copy_area(content)
        for s in B.stacks(new):
            s["ready"] += s["tired"]
            s["tired"] = 0
            s["gens"] = {g: True for g in s["gens"]}
        areas[area] = new
    track = {
        f: {"box": p["box"], "received": True}
        for f, p in st["track"].items()
        if not p["received"] and p["box"] != "REVENGE_QIN"
    }
    nxt = st["turn"] + 1
    pool = {g: "available" for g, w in st["pool"].items() if isinstance(w, int) and w <= nxt}
    c.emit({"type": "turn_ended", "turn": st["turn"], "areas": areas, "track": track, "pool": pool})
    c.emit({"type": "initiative_set", "side": st["initiative"]["side"], "flipped": False})
    start_turn(c, nxt)


def end_game(c: Ctx, winner: str | None, reason: str) -> None:
    st = c.st
    side = side_of(st, winner) if winner else None
    c.emit(
        {
            "type": "game_ended",
            "winner": winner,
            "side": side,
            "reason": reason,
            "qin_rp": B.qin_rp(st),
            "target": st["target"],
            "op": None,
        }
    )


def check_eliminations(c: Ctx) -> bool:
    """§11: forces with no counter on the map are out; Qin out ends the game. True when
    the game ended."""
    st = c.st
    held = set()
    op = st["op"] or {}
    mil = op.get("mil") or {}
    if mil.get("movers") and B.size(mil["movers"]):
        held.add(mil["movers"]["force"])
    if (mil.get("ally") or {}).get("moved"):
        held.add(mil["ally"]["force"])
    areas = st["areas"].values()  # the forces with a stack on the map (B.on_map for each):
    on_map = {content["city"]["force"] for content in areas if content["city"]}
    eliminated = st["eliminated"]
    absent = D.scenarios[st["scenario"]].absent  # (was_present)
    out = [
        f
        for f in D.forces
        if f not in on_map and f not in eliminated and f not in held and f not in absent
    ]
    if out:  # holding no city: their field stacks, if any (most forces hold a city)
        on_map = {s["force"] for content in areas for s in content["field"]}
    for force in out:  # (the events below leave the areas as they are)
        if force not in on_map:
            c.emit({"type": "force_eliminated", "force": force, "track": {force: None}})
            if force == "QIN":
                end_game(c, seat_of(st, "alliance"), "qin_eliminated")
                return True
    return False


def was_present(st: dict, force: str) -> bool:
    """Forces absent from the scenario (Shu in Qin Dominates) are not 'eliminated'."""
    return force not in D.scenarios[st["scenario"]].absent


# -- playing a card ----------------------------------------------------------------------------
def do_play(c: Ctx, seat: str, cmd: dict) -> None:
    st = c.st
    side = st["sides"].get(seat)  # (side_of)
    card = cmd.get("card")
    if card not in st["hands"][side]:
        raise RulesError(said("you have no card {card!r} in hand", card=card))
    face = cmd.get("face")
    if face == "up":
        cards.play(c, side, cmd)
        return
    if face != "down":
        raise RulesError(said('a card is played "up" or "down"'))
    action = cmd.get("action")
    if action not in GENERIC:
        raise RulesError(
            said("a face-down card makes one of {actions}", actions=", ".join(GENERIC))
        )
    CHECKS[action](st, side, cmd)
    c.emit(
        {
            "type": "card_played",
            "visible_to": seat,
            "side": side,
            "card": card,
            "face": "down",
            "action": action,
        }
    )
    if action == "military":
        op = {
            "side": side,
            "card": None,
            "face": "down",
            "todo": ["operate"],
            "mods": {},
            "forces": None,
            "mil": None,
            "stage": "next",
            "owed": None,
        }
        c.emit({"type": "operation_started", "side": side, "op": op})
        return
    ACTIONS[action](c, side, cmd)
    end_phase(c)


def check_weather(st: dict, side: str, cmd: dict) -> None:
    if st["initiative"]["flipped"]:
        raise RulesError(said("the initiative token is flipped: no weather action this turn"))
    if cmd.get("move") not in (True, False):
        raise RulesError(said('a weather action says "move": true (to the other space) or false'))


def weather(c: Ctx, side: str, cmd: dict) -> None:
    """§7.7, Ruling 42."""
    here = c.st["initiative"]["side"]
    to = B.OTHER[here] if cmd["move"] else here
    c.emit({"type": "initiative_set", "side": to, "flipped": True, "by": side})


def check_diplomacy(st: dict, side: str, cmd: dict) -> None:
    force, step = cmd.get("force"), cmd.get("dir")
    pos = st["track"].get(force)
    if pos is None:
        raise RulesError(said("{force!r} has no diplomacy counter on the track", force=force))
    if not pos["received"]:
        raise RulesError(
            said("{force} is Not Received (locked) this turn", force=D.forces[force].id.title())
        )
    if step not in (-1, 1):
        raise RulesError(said('"dir" is -1 (left, toward Serve Qin) or 1 (right)'))


def diplomacy(c: Ctx, side: str, cmd: dict) -> None:
    """§7.6, Ruling 5: one column either way (or locked in place at an end)."""
    force = cmd["force"]
    box = c.st["track"][force]["box"]
    new = B.shifted(box, cmd["dir"], cfg(c.st, "diplomacy_track_layout"))
    c.emit(
        {
            "type": "diplomacy_moved",
            "force": force,
            "from": box,
            "to": new,
            "by": side,
            "track": {force: {"box": new, "received": False}},
        }
    )


def reinforce_places(st: dict, force: str) -> list[str]:
    """§7.5: areas holding that force's counters, and controlled (a city is held)."""
    if force in st["eliminated"]:
        return []
    return [
        a
        for a, content in st["areas"].items()
        if content["city"] is not None and B.stack_of(content, force)
    ]


def reinforce_table(st: dict) -> dict[str, list[str]]:
    """``reinforce_places`` of every force at once, in one pass over the board."""
    table: dict[str, list[str]] = {}
    get = table.get
    for a, content in st["areas"].items():
        city = content["city"]
        if city is None:
            continue
        force = city["force"]  # (the city's stack, then the field's: written out)
        places = get(force)
        if places is None:
            table[force] = [a]
        else:
            places.append(a)  # (a force has one stack in an area: not there yet)
        for s in content["field"]:
            force = s["force"]
            places = get(force)
            if places is None:
                table[force] = [a]
            elif places[-1] != a:
                places.append(a)
    for force in st["eliminated"]:
        table.pop(force, None)
    return table


def check_reinforcement(st: dict, side: str, cmd: dict) -> None:
    force, area = cmd.get("force"), cmd.get("area")
    if force not in D.forces:
        raise RulesError(said("there is no force {force!r}", force=force))
    content = st["areas"].get(area) if isinstance(area, str) else None
    if not (  # area in reinforce_places(st, force), without listing them
        content is not None
        and content["city"] is not None
        and force not in st["eliminated"]
        and B.stack_of(content, force)
    ):
        raise RulesError(
            said(
                "{force} cannot be reinforced in {area!r}: it needs counters there, "
                "in a controlled area",
                force=force.title(),
                area=area,
            )
        )


def reinforce(c: Ctx, side: str, cmd: dict) -> None:
    force, area = cmd["force"], cmd["area"]
    content = S.copy_area(c.st["areas"][area])
    B.stack_of(content, force)["ready"] += 1
    c.emit(
        {"type": "reinforced", "force": force, "area": area, "by": side, "areas": {area: content}}
    )


# Every area has a neighbour and no border costs more than the default allowance (checked
# here, from the data): then any ready counter a player may direct can at least move.
ALWAYS_A_STEP = all(D.neighbours[a] for a in D.areas) and all(
    b.cost(b.a, b.b, D.constants) <= D.constants.ma_default
    and b.cost(b.b, b.a, D.constants) <= D.constants.ma_default
    for b in D.borders.values()
)


def can_operate(st: dict, side: str, op: Any = ...) -> bool:
    """Whether some ``operate`` command is open to ``side`` (a cheap test of
    ``operations(st, side, limit=1)``); with ``op``: as if it were the operation in
    progress (without a copy of the state that says so)."""
    if op is ...:
        op = st["op"]
    if not ALWAYS_A_STEP:
        return bool(operations({**st, "op": op}, side, limit=1))
    must = op.get("must") if op else None
    if must:  # only that stack may go
        content = st["areas"][must["area"]]
        stack = B.stack_of(content, must["force"])
        return bool(
            stack is not None
            and directed(st, op, side, stack["force"])
            and stack["ready"] >= must["armies"]
            and all(stack["gens"].get(g) for g in must["gens"])
        )
    mine = directed_forces(st, op, side)  # (directed, of each force at once)
    if not mine:
        return False
    for content in st["areas"].values():  # (a yes or no: the order does not matter)
        city = content["city"]
        if city and city["force"] in mine and (city["ready"] or any(city["gens"].values())):
            return True
        for stack in content["field"]:
            if stack["force"] in mine and (stack["ready"] or any(stack["gens"].values())):
                return True
    return False


def check_military_possible(st: dict, side: str, cmd: dict) -> None:
    if not can_operate(st, side):
        raise RulesError(
            said("no force you may direct has a ready counter that can move or attack")
        )


# the generic actions: the check of a command, and what it does (military: an operation)
CHECKS = {
    "military": check_military_possible,
    "reinforcement": check_reinforcement,
    "diplomacy": check_diplomacy,
    "weather": check_weather,
}
ACTIONS = {"reinforcement": reinforce, "diplomacy": diplomacy, "weather": weather}


# -- military operations (§7.4, §8) ------------------------------------------------------------
def directable(st: dict, side: str, force: str) -> bool:
    return directed(st, st["op"], side, force)


def directed(st: dict, op: dict | None, side: str, force: str) -> bool:
    """``directable``, with ``op`` as the operation in progress."""
    allowed = op.get("forces") if op else None
    if allowed == "afraid_too":  # Ruling 22 / the English player aid's reading (config)
        pos = st["track"].get(force)
        afraid = pos is not None and pos["box"] == "AFRAID_OF_QIN" and force not in st["eliminated"]
        return afraid or B.directable_face_down(st, side, force)
    if allowed is not None:
        return force in allowed and force not in st["eliminated"]
    return B.directable_face_down(st, side, force)


def directed_forces(st: dict, op: dict | None, side: str) -> set[str] | frozenset[str]:
    """The forces ``directed`` answers yes for (with ``op`` as the operation in progress),
    worked out at once."""
    eliminated = st["eliminated"]
    allowed = op.get("forces") if op else None
    if allowed is not None and allowed != "afraid_too":
        return {f for f in allowed if f not in eliminated}
    if side == "lianheng":  # (B.directable_face_down, for every force)
        out = set() if "QIN" in eliminated else {"QIN"}
    else:
        out = {
            f
            for f, p in st["track"].items()
            if p["box"] in ("REVENGE_QIN", "ANTI_QIN") and f not in eliminated
        }
    if allowed == "afraid_too":  # Ruling 22 / the English player aid's reading (config)
        out |= {
            f for f, p in st["track"].items() if p["box"] == "AFRAID_OF_QIN" and f not in eliminated
        }
    return out


def ally_of(st: dict, force: str) -> str | None:
    """Mi Yue b) (Ruling 27): Yiqu counters may join a Qin operation as one attacking side."""
    mods = (st["op"] or {}).get("mods") or {}
    return "YIQU" if mods.get("combined") and force == "QIN" else None


def vacated(content: dict, leaving: dict[str, int]) -> list[str] | None:
    """After ``leaving`` (force -> counters moving out) the forces among which the mover
    picks who takes the emptied city (§8 control); [] when nobody needs to be picked."""
    city = content["city"]
    if city is None or B.size(city) > leaving.get(city["force"], 0):
        return []
    rest = [x["force"] for x in content["field"] if B.size(x) > leaving.get(x["force"], 0)]
    return rest if len(rest) > 1 else []


def operations(st: dict, side: str, limit: int | None = None) -> list[dict]:
    """Every ``operate`` command open to ``side`` (``limit``: stop after that many)."""
    out: list[dict] = []
    routes: dict[tuple, list] = {}  # the paths of one stack, per allowance
    must = (st["op"] or {}).get("must")
    for area in D.areas:
        content = st["areas"][area]
        if must and area != must["area"]:
            continue
        for stack in B.stacks(content):
            force = stack["force"]
            if must and force != must["force"]:
                continue
            if not directable(st, side, force) or not (
                stack["ready"] or any(stack["gens"].values())
            ):
                continue
            ready_gens = sorted(g for g, r in stack["gens"].items() if r)
            others = [f for f in B.forces_in(content) if f != force]
            ally = ally_of(st, force)
            ally_stack = B.stack_of(content, ally) if ally else None
            ally_ready = ally_stack["ready"] if ally_stack else 0
            for ng in range(len(ready_gens) + 1):
                for gens in combinations(ready_gens, ng):
                    for n in range(0, stack["ready"] + 1):
                        if not 1 <= n + ng <= D.constants.max_counters_per_military_op:
                            continue
                        if must and (n < must["armies"] or not set(must["gens"]) <= set(gens)):
                            continue
                        acts = list(gens) if len(gens) > 1 else [None]
                        room = D.constants.max_counters_per_military_op - n - ng
                        for act, k in (
                            (a, k) for a in acts for k in range(min(room, ally_ready) + 1)
                        ):
                            active = act if act else (gens[0] if gens else None)
                            ma = B.ma_of(list(gens), active)
                            succ = vacated(content, {force: n + ng, **({ally: k} if k else {})})
                            succ = succ or [None]
                            base = {
                                "type": "operate",
                                "area": area,
                                "force": force,
                                "armies": n,
                                "generals": list(gens),
                                "activate": act,
                            }
                            if k:
                                base["ally"] = k
                            targets = [f for f in others if not (k and f == ally)]
                            if targets:
                                out.append({**base, "path": []})
                            if (area, force, ma) not in routes:
                                routes[area, force, ma] = B.paths(st, area, force, ma)
                            for path in routes[area, force, ma]:
                                for s in succ:
                                    cmd = {**base, "path": path}
                                    if s is not None:
                                        cmd["successor"] = s
                                    out.append(cmd)
                            if limit and len(out) >= limit:
                                return out
    return out


def do_operate(c: Ctx, seat: str, cmd: dict) -> None:
    st = c.st
    side = st["sides"].get(seat)  # (side_of)
    area, force = cmd.get("area"), cmd.get("force")
    if area not in D.rp:
        raise RulesError(said("there is no area {area!r}", area=area))
    if force not in D.forces or not directable(st, side, force):
        raise RulesError(said("you may not direct {force!r} with this card", force=force))
    content = st["areas"][area]
    stack = B.stack_of(content, force)
    if stack is None:
        raise RulesError(
            said("{force} has no counters in {area}", force=force.title(), area=D.names[area])
        )
    n, gens = cmd.get("armies"), cmd.get("generals") or []
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= stack["ready"]:
        raise RulesError(
            said(
                "{force} has {ready} ready armies there", force=force.title(), ready=stack["ready"]
            )
        )
    if len(set(gens)) != len(gens) or any(not stack["gens"].get(g) for g in gens):
        raise RulesError(said("those generals are not ready counters of that stack"))
    if not 1 <= n + len(gens) <= D.constants.max_counters_per_military_op:
        raise RulesError(said("a military operation uses 1 to 4 ready counters"))
    must = st["op"].get("must")
    if must and (
        area != must["area"]
        or force != must["force"]
        or n < must["armies"]
        or not set(must["gens"]) <= set(gens)
    ):
        raise RulesError(said("Bolster Morale: the operation uses the counters it readied"))
    act = cmd.get("activate")
    if act is None and len(gens) == 1:
        act = gens[0]
    if len(gens) > 1 and act not in gens:
        raise RulesError(said("with several generals, activate one of them (§2.2)"))
    path = cmd.get("path")
    if not isinstance(path, list):
        raise RulesError(said('"path" lists the areas entered, in order ([] for a direct attack)'))
    k = cmd.get("ally", 0)
    ally = ally_of(st, force) if k else None
    if k:
        ally_stack = B.stack_of(content, ally) if ally else None
        if ally_stack is None or not isinstance(k, int) or not 0 < k <= ally_stack["ready"]:
            raise RulesError(said("Mi Yue: only ready Yiqu armies of the same area may join Qin"))
        if n + len(gens) + k > D.constants.max_counters_per_military_op:
            raise RulesError(said("a military operation uses 1 to 4 ready counters"))
    others = [f for f in B.forces_in(content) if f != force and f != ally]
    mil = {
        "mp": B.ma_of(gens, act) - (B.path_cost(area, path) or 0) if isinstance(path, list) else 0,
        "force": force,
        "origin": area,
        "path": path,
        "act": act,
        "fights": 0,
        "movers": None,
        "join": None,
        "area": area,
        "last": None,
        "ally": {"force": ally, "moved": 0, "stay": 0} if ally else None,
    }
    if not path:
        if not others:
            raise RulesError(said("a direct attack needs another force's counters in the area"))
        new = S.copy_area(content)
        s = B.stack_of(new, force)
        s["ready"] -= n
        s["tired"] += n
        for g in gens:
            s["gens"][g] = False
        mil["join"] = {"n": n, "gens": list(gens)}
        if ally:
            a = B.stack_of(new, ally)
            a["ready"] -= k
            a["tired"] += k
            mil["ally"]["stay"] = k
        op = {**st["op"], "mil": mil, "owed": None, "stage": "engage"}
        c.emit(
            {
                "type": "attacked_directly",
                "force": force,
                "area": area,
                "armies": n,
                "generals": list(gens),
                "activate": act,
                "areas": {area: new},
                "op": op,
            }
        )
        return
    if not B.path_open(st, area, force, B.ma_of(gens, act), path):
        raise RulesError(
            said(
                "that path is not open: check the borders' costs, the movement "
                "allowance, and that a move stops where enemy or Neutral counters are"
            )
        )
    new = S.copy_area(content)
    pick = vacated(content, {force: n + len(gens), **({ally: k} if ally else {})})
    B.remove_counters(B.stack_of(new, force), n, 0, gens)
    if ally:
        B.remove_counters(B.stack_of(new, ally), k, 0, [])
        mil["ally"]["moved"] = k
    succ = cmd.get("successor")
    if pick:
        if succ not in pick:
            raise RulesError(
                said("the city empties: name the force that moves into it (successor)")
            )
        new["city"] = None
        new["field"] = [x for x in new["field"] if B.size(x)]
        B.promote(new, succ)
    B.tidy(new)
    movers = B.new_stack(force, 0, n, {g: False for g in gens})  # exhausted at the end of the move
    dest = path[-1]
    fac = B.faction(st, force)
    fight = B.hostile_to(st, st["areas"][dest], fac, force)
    mil.update(movers=movers, area=dest, last=path[-2] if len(path) > 1 else area)
    ev = {
        "type": "moved",
        "force": force,
        "from": area,
        "path": path,
        "armies": n,
        "generals": list(gens),
        "activate": act,
        "fight": fight,
    }
    if fight:
        if ally:
            ev["ally"] = k
        ev.update(areas={area: new}, op={**st["op"], "mil": mil, "owed": None, "stage": "engage"})
        c.emit(ev)
        return
    dcontent = S.copy_area(st["areas"][dest])
    B.put(dcontent, movers)
    if ally:
        B.put(dcontent, B.new_stack(ally, 0, k))
    ev.update(areas={area: new, dest: dcontent})
    if ally:
        ev["ally"] = k
    c.emit(ev)
    finish_military(c)


def finish_military(c: Ctx) -> None:
    """One military operation is over: the next step the card grants, or the phase ends."""
    if check_eliminations(c):
        return
    if c.st["op"] is None:
        return
    set_op(c, "operation_step", stage="next", mil=None, owed=None)


def next_step(c: Ctx) -> None:
    """The next thing the card in play grants (``op["todo"]``), or the end of the phase.
    A step that nothing can carry out now is skipped (Ruling 13)."""
    op = c.st["op"]
    while op["todo"]:
        nxt, rest = op["todo"][0], op["todo"][1:]
        if nxt.startswith("draw:"):
            c.emit({"type": "operation_step", "op": {**op, "todo": rest}})
            cards.automatic(c, c.st["op"], nxt)
            op = c.st["op"]
            continue
        owed = cards.owed_for(c.st, op, nxt)
        if owed is not None and len(owed.get("options") or ()) == 1:
            # one way to do it: no question asked
            c.emit({"type": "operation_step", "op": {**op, "todo": rest, "mil": None}})
            cards.chosen(c, owed["kind"], owed["options"][0])
            return
        if owed is not None:
            c.emit(
                {
                    "type": "operation_started",
                    "side": op["side"],
                    "op": {**op, "todo": rest, "mil": None, "stage": None, "owed": owed},
                }
            )
            return
        op = {**op, "todo": rest}
    end_phase(c)


# -- combat (§9) -----------------------------------------------------------------------------
def set_op(c: Ctx, kind: str, **changes: Any) -> None:
    op = {**c.st["op"], **changes}
    if kind in PLAN:  # (none of set_op's kinds writes more than the operation)
        c.emit({"type": kind, "op": op})
        return
    # what c.emit does with an event that carries only the operation, written out
    ev = {"type": kind, "op": op, "visible_to": "all"}
    if c.sides is not None:
        ev["sides"] = c.sides
    c.st["op"] = op
    c.events.append(ev)


def target_options(st: dict, area: str, force: str, ally: str | None = None) -> list[str]:
    """Ruling 34 (``ally``: the Yiqu of Mi Yue b), on the attacking side)."""
    content = st["areas"][area]
    fac = B.faction(st, force)
    mine = (force, ally)
    fields = [s["force"] for s in content["field"] if s["force"] not in mine]
    city = (
        content["city"]["force"]
        if content["city"] and content["city"]["force"] not in mine
        else None
    )
    hostile_field = any(B.faction(st, f) != fac for f in fields)
    out = list(fields)
    if city and not hostile_field:
        out.append(city)
    return out


def step_op(c: Ctx) -> None:
    """The automatic steps of an operation (nobody has a choice)."""
    op = c.st["op"]
    stage = op.get("stage")
    if stage == "next":
        next_step(c)
    elif stage == "char_window":
        cards.char_window(c)
    elif stage == "engage":
        engage(c)
    elif stage == "shift":
        attack_shift(c)
    elif stage == "window":
        open_window(c)
    elif stage == "defend":
        defend(c)
    elif stage == "roll":
        roll(c)
    elif stage == "losses":
        losses(c)
    elif stage == "after":
        after_fight(c)
    else:  # pragma: no cover - every stage above owes or moves on
        raise AssertionError(f"stage {stage}")


def engage(c: Ctx) -> None:
    """§9.2 steps 1-2: joiners (after a move) and the target."""
    st = c.st
    op = st["op"]
    mil = op["mil"]
    force, area = mil["force"], mil["area"]
    moved_ally = (mil.get("ally") or {}).get("force")
    targets = target_options(st, area, force, moved_ally)
    joins: list[dict] = [{"n": 0, "gens": []}]
    # Mi Yue b) (Ruling 27): ready Yiqu counters in the battlefield may join Qin's attack
    ally = ally_of(st, force)
    if mil["movers"] is not None and mil["fights"] == 0:
        content = st["areas"][area]
        here = B.stack_of(content, force) or B.new_stack(force)
        here_ally = B.stack_of(content, ally) if ally else None
        ally_ready = here_ally["ready"] if here_ally else 0
        moving = B.size(mil["movers"]) + (mil.get("ally") or {}).get("moved", 0)
        room = D.constants.max_participants_per_side - moving
        if room > 0 and (here["ready"] or any(here["gens"].values()) or ally_ready):
            ready_gens = sorted(g for g, r in here["gens"].items() if r)
            joins = []
            for ng in range(min(room, len(ready_gens)) + 1):
                for gens in combinations(ready_gens, ng):
                    for n in range(0, min(room - ng, here["ready"]) + 1):
                        for k in range(0, min(room - ng - n, ally_ready) + 1):
                            joins.append({"n": n, "gens": list(gens), **({"ally": k} if k else {})})
    options = [
        {"target": t, "join": j, **({"act": a} if a else {})}
        for t in targets
        for j in joins
        if not (j.get("ally") and t == ally)
        for a in joiner_acts(mil, j)
    ]
    if not options:  # nothing left to fight (cannot happen after a move that stopped)
        set_op(c, "fight_over", stage="after")
        return
    if len(options) == 1:
        choose_engage(c, options[0])
        return
    set_op(c, "decision_owed", owed={"side": op["side"], "kind": "engage", "options": options})


def joiner_acts(mil: dict, join: dict) -> list[str | None]:
    """§2.2: with several generals of the attacking force and none activated yet (the
    movers had none), the attacker activates one of those who join; [None]: no choice."""
    gens = sorted((mil["movers"]["gens"] if mil["movers"] else {}) | dict.fromkeys(join["gens"]))
    if mil["act"] in gens or len(gens) < 2:
        return [None]
    return gens


def choose_engage(c: Ctx, option: dict) -> None:
    st = c.st
    op = st["op"]
    mil = dict(op["mil"])
    force, area = mil["force"], mil["area"]
    ev: dict[str, Any] = {
        "type": "target_chosen",
        "force": force,
        "area": area,
        "target": option["target"],
        "join": option["join"],
    }
    join = option["join"]
    if join["n"] or join["gens"] or join.get("ally"):
        content = S.copy_area(st["areas"][area])
        s = B.stack_of(content, force)
        if join["n"] or join["gens"]:
            s["ready"] -= join["n"]
            s["tired"] += join["n"]
            for g in join["gens"]:
                s["gens"][g] = False
        if join.get("ally"):  # Mi Yue b): Yiqu of the battlefield join (Ruling 27)
            ally = ally_of(st, force)
            a = B.stack_of(content, ally)
            a["ready"] -= join["ally"]
            a["tired"] += join["ally"]
            part = mil.get("ally") or {"force": ally, "moved": 0, "stay": 0}
            mil["ally"] = {**part, "stay": part["stay"] + join["ally"]}
        ev["areas"] = {area: content}
        mil["join"] = join
    elif mil["join"] is None:
        mil["join"] = {"n": 0, "gens": []}
    mil["target"] = option["target"]
    mil["tloc"] = (
        "city" if (st["areas"][area]["city"] or {}).get("force") == option["target"] else "field"
    )
    mil["first"] = {"attacker": bool(op["mods"].get("attacker_first")), "defender": False}
    mil["drm"] = {"attacker": int(op["mods"].get("attacker_drm", 0)), "defender": 0}
    mil["responses"] = []
    mil["han_bonus"] = False  # a response's effects last for its own fight only
    mil["han_bonus_attacker"] = bool(op["mods"].get("han_bonus"))
    gens = (mil["movers"]["gens"] if mil["movers"] else {}) | dict.fromkeys(mil["join"]["gens"])
    if option.get("act"):
        mil["act"] = option["act"]
    elif mil["act"] not in gens:
        mil["act"] = sorted(gens)[0] if len(gens) == 1 else None
    ev["op"] = {**op, "mil": mil, "owed": None, "stage": "shift"}
    c.emit(ev)


def attack_shift(c: Ctx) -> None:
    """§3.4, Ruling 4: once per fight, before responses and dice."""
    st = c.st
    mil = st["op"]["mil"]
    target = mil["target"]
    pos = st["track"].get(target)
    op = {**st["op"], "stage": "window"}
    if pos is None:
        c.emit(
            {
                "type": "fight_started",
                "area": mil["area"],
                "force": mil["force"],
                "target": target,
                "op": op,
            }
        )
        return
    fac = B.faction(st, mil["force"])
    box = B.end_box(fac, cfg(st, "diplomacy_track_layout"), pos["box"])
    c.emit(
        {
            "type": "fight_started",
            "area": mil["area"],
            "force": mil["force"],
            "target": target,
            "shift": {"from": pos["box"], "to": box},
            "track": {target: {"box": box, "received": False}},
            "op": op,
        }
    )


# -- responses (§10, Ruling 16) --------------------------------------------------------------
def publicly_spent(st: dict, side: str, kind: str) -> bool:
    """Whether every copy of ``kind`` is known to everyone to be out of reach this turn
    (face up on the discard pile, or removed from the game)."""
    seen = 0
    for d in st["discards"][side]:
        if d["up"] and d["card"] and kind_of(d["card"]) == kind:
            seen += 1
    for card in st["removed"][side]:
        if kind_of(card) == kind:
            seen += 1
    return seen >= D.cards[kind].count


def response_kinds(st: dict, routes: list | None = None) -> list[str]:
    """The Break cards the passive player could in principle play now, whatever their hand
    (so being asked tells the opponent nothing). ``routes``: a list that receives Lord
    Xinling's routes (``xinling_routes``) when they were worked out."""
    op = st["op"]
    mil = op["mil"]
    passive = B.OTHER[op["side"]]
    if not st["hands"][passive]:  # hand sizes are public
        return []
    defending = B.faction(st, mil["target"]) == passive  # "your force is defending"
    out = []
    for kind, side in COMBAT_BREAKS.items():
        if side != passive or not defending or publicly_spent(st, side, kind):
            continue
        if kind.endswith("ELITE_CROSSBOWMEN") and mil["first"]["defender"]:
            continue  # it has fired first already: a second one adds nothing
        out.append(kind)
    if passive == "alliance" and defending:
        found = xinling_routes(st, mil)
        if found:
            out.append("A_LORD_XINLING")
            if routes is not None:
                routes += found
    return out


def xinling_routes(st: dict, mil: dict) -> list[dict]:
    """Lord Xinling b) (Ruling 24): Wei is Alliance, Wei Wuji is off the board, the card is
    not known to be spent, and he can reach the battle from some Wei stack (MA 2, normal
    movement, stopping on non-friendly counters other than the battlefield). Each route
    is ``{"from": area, "path": [...]}`` (``[]`` when that Wei stack is in the battlefield)."""
    if B.faction(st, "WEI") != "alliance" or st["pool"].get("WEI_WUJI") != "available":
        return []
    if publicly_spent(st, "alliance", "A_LORD_XINLING") or mil.get("extra"):
        return []
    battle = mil["area"]
    ma = B.ma_of(["WEI_WUJI"], "WEI_WUJI")
    out = []
    for area in D.areas:
        if not B.stack_of(st["areas"][area], "WEI"):
            continue
        if area == battle:
            out.append({"from": area, "path": []})
            continue
        out += [{"from": area, "path": p} for p in B.paths(st, area, "WEI", ma) if p[-1] == battle]
    return out


def response_options(st: dict, kinds: list[str], routes: list | None = None) -> list[dict]:
    """The public options of a combat window: let it pass, or one of ``kinds`` (Lord
    Xinling b) once per route Wei Wuji may take to the battle, recorded when played;
    ``routes``: those routes if known already)."""
    options: list[dict] = [{"card": None}]
    for k in kinds:
        if k == "A_LORD_XINLING":
            if routes is None:
                routes = xinling_routes(st, st["op"]["mil"])
            options += [{"card": k, **r} for r in routes]
        else:
            options.append({"card": k})
    return options


def open_window(c: Ctx) -> None:
    st = c.st
    op = st["op"]
    routes: list[dict] = []
    kinds = response_kinds(st, routes)
    if not kinds:
        set_op(c, "window_skipped", stage="defend")
        return
    passive = B.OTHER[op["side"]]
    seat = seat_of(st, passive)
    standing = st["standing"].get(seat) or {"mode": "ask"}
    options = response_options(st, kinds, routes)
    if standing["mode"] == "ask":
        op2 = {**op, "owed": {"side": passive, "kind": "respond", "options": options}}
        c.emit({"type": "window_opened", "side": passive, "kinds": kinds, "op": op2})
        return
    wanted = [k for k in kinds if k in (standing.get("cards") or [])]
    hand = st["hands"][passive]
    for k in wanted:
        card = next((x for x in hand if kind_of(x) == k), None)
        if card is not None:
            route = next(o for o in options if o["card"] == k)
            play_response(c, passive, card, auto=True, route=route)
            return
    set_op(c, "window_closed", stage="defend")


def do_respond(c: Ctx, seat: str, option: dict) -> None:
    st = c.st
    side = st["sides"].get(seat)  # (side_of)
    kind = option["card"]
    if kind is None:
        set_op(c, "window_closed", stage="defend", owed=None)
        return
    card = next((x for x in st["hands"][side] if kind_of(x) == kind), None)
    if card is None:
        raise RulesError(said("you hold no {card}", card=D.cards[kind].name))
    play_response(c, side, card, auto=False, route=option)


def play_response(c: Ctx, side: str, card: str, auto: bool, route: dict | None = None) -> None:
    """A Break card's option b) as a response (Ruling 16); the window stays open for more."""
    st = c.st
    op = st["op"]
    mil = dict(op["mil"])
    kind = kind_of(card)
    c.emit(
        {
            "type": "card_played",
            "side": side,
            "card": card,
            "face": "up",
            "action": "response",
            "auto": auto,
        }
    )
    mil["responses"] = [*mil["responses"], kind]
    ev: dict[str, Any] = {"type": "response_resolved", "side": side, "card": card}
    if kind.endswith("EMERGENCY_MOBILIZATION"):
        area = mil["area"]
        content = S.copy_area(st["areas"][area])
        B.stack_of(content, mil["target"])["ready"] += 1
        ev.update(areas={area: content}, effect="reinforced", force=mil["target"])
    elif kind == "A_LORD_XINLING":
        mil["extra"] = ["WEI_WUJI"]
        ev.update(effect="wei_wuji", pool={"WEI_WUJI": None}, force="WEI")
        if route and route.get("from"):  # his route to the battle (Ruling 24)
            ev.update({"from": route["from"], "path": list(route["path"])})
    elif kind.endswith("ELITE_CROSSBOWMEN"):
        first = dict(mil["first"])
        first["defender"] = True
        mil["first"] = first
        drm = dict(mil["drm"])
        if side == "lianheng":
            drm["defender"] += int(cfg(st, "lianheng_elite_crossbowmen_drm"))
        elif cfg(st, "alliance_elite_crossbowmen") == "player_aid":
            drm["defender"] += 2
        mil["drm"] = drm
        mil["han_bonus"] = (
            side == "alliance" and cfg(st, "alliance_elite_crossbowmen") == "chinese_card"
        )
        ev.update(effect="fires_first")
    ev["op"] = {**op, "mil": mil, "owed": None, "stage": "window"}
    c.emit(ev)


def set_standing(c: Ctx, seat: str, cmd: dict) -> None:
    mode = cmd.get("mode")
    if mode not in ("ask", "never", "auto"):
        raise RulesError(said('standing instructions are "ask", "never" or "auto" (with "cards")'))
    cards = cmd.get("cards") or []
    side = side_of(c.st, seat)
    breaks = {
        **COMBAT_BREAKS,
        "A_LORD_XINLING": "alliance",
        "L_LI_SI": "lianheng",
        "A_JING_KE": "alliance",
    }
    known = [k for k, s in breaks.items() if side is None or s == side]
    if mode == "auto" and (not cards or any(k not in known for k in cards)):
        raise RulesError(
            said("auto plays some of your Break cards: {cards}", cards=", ".join(known))
        )
    standing = {"mode": mode, "cards": list(cards) if mode == "auto" else []}
    c.emit({"type": "standing_set", "visible_to": seat, "seat": seat, "standing": standing})


# -- the fight ---------------------------------------------------------------------------------
def defend(c: Ctx) -> None:
    """§9.2 step 5 (Ruling 33): up to 4 counters of the target stack, and the general whose
    icon counts (§2.2)."""
    st = c.st
    op = st["op"]
    mil = op["mil"]
    stack = B.stack_of(st["areas"][mil["area"]], mil["target"])
    cap = D.constants.max_participants_per_side
    gens = sorted(stack["gens"]) + list(mil.get("extra") or [])  # Wei Wuji (Ruling 24)
    total = B.size(stack) + len(mil.get("extra") or [])
    picks = []
    if total <= cap:
        picks = [(stack["ready"], stack["tired"], tuple(gens))]
    else:
        for ng in range(min(cap, len(gens)) + 1):
            for gs in combinations(gens, ng):
                for r in range(min(stack["ready"], cap - ng) + 1):
                    t = cap - ng - r
                    if t <= stack["tired"]:
                        picks.append((r, t, gs))
    options = []
    for r, t, gs in picks:
        # the player picks the activated general among the target force's own (§2.2);
        # a general of another force (Wei Wuji) has his own icon effect
        own = [g for g in gs if D.generals[g].force == mil["target"]]
        by_icon = {D.generals[g].icons[0]: g for g in own}
        acts = sorted(by_icon.values()) if len(by_icon) > 1 else [own[0] if own else None]
        for act in acts:
            options.append({"ready": r, "tired": t, "gens": list(gs), "act": act})
    if len(options) == 1:
        choose_defence(c, options[0])
        return
    set_op(
        c, "decision_owed", owed={"side": B.OTHER[op["side"]], "kind": "defend", "options": options}
    )


def choose_defence(c: Ctx, option: dict) -> None:
    op = c.st["op"]
    mil = {**op["mil"], "def": option}
    own = [g for g in option["gens"] if D.generals[g].force == mil["target"]]
    if option["act"] is None and len(own) == 1:
        mil["def"] = {**option, "act": own[0]}
    c.emit(
        {
            "type": "defence_fixed",
            "defenders": mil["def"],
            "op": {**op, "mil": mil, "owed": None, "stage": "roll"},
        }
    )


def attackers(mil: dict) -> tuple[int, list[str]]:
    """(armies, generals) of the attacking side; Yiqu armies of Mi Yue b) count as armies."""
    m = mil["movers"] or {"tired": 0, "gens": {}}
    j = mil["join"] or {"n": 0, "gens": []}
    a = mil.get("ally") or {"moved": 0, "stay": 0}
    armies = m["tired"] + j["n"] + a["moved"] + a["stay"]
    return armies, sorted(list(m["gens"]) + list(j["gens"]))


def strength(n_counters: int, city: bool) -> int:
    cap = D.constants.max_participants_per_side
    return min(cap, n_counters + (D.constants.city_defender_bonus if city else 0))


def icon(acts: list[str | None], gens: list[str], what: str) -> int:
    """The number of activated generals taking part with icon ``what``."""
    return sum(1 for g in set(acts) if g and g in gens and what in D.generals[g].icons)


def activated(mil: dict, who: str) -> list[str | None]:
    """The generals whose icons count (§2.2: one activated general per force): the
    attacker's, the defender's, and a general of another force defending with the target
    (Wei Wuji, Ruling 24)."""
    if who == "attacker":
        return [mil["act"]]
    d = mil["def"]
    return [d["act"], *(g for g in d["gens"] if D.generals[g].force != mil["target"])]


def result(mil: dict, who: str, die: int) -> tuple[int, int]:
    """(modified die, hits) for ``who`` at the survivors' strength (§9.3-9.5)."""
    n, gens = attackers(mil)
    n += len(gens)
    d = mil["def"]
    dn, dgens = d["ready"] + d["tired"] + len(d["gens"]), d["gens"]
    other = "defender" if who == "attacker" else "attacker"
    my_act, their_act = activated(mil, who), activated(mil, other)
    if who == "attacker":
        mine, my_gens, their_gens = n, gens, dgens
        st_ = strength(n, False)
    else:
        mine, my_gens, their_gens = dn, dgens, gens
        st_ = strength(dn, mil["tloc"] == "city")
    if mine == 0:
        return die, 0
    mod = mil["drm"][who] + icon(my_act, my_gens, "sword") - icon(their_act, their_gens, "shield")
    if mil.get("han_bonus") and who == "defender" and mil["target"] == "HAN":
        mod += 1
    if mil.get("han_bonus_attacker") and who == "attacker" and mil["force"] == "HAN":
        mod += 1
    lo, hi = D.constants.die_min, D.constants.die_max
    value = max(lo, min(hi, die + mod))
    hits = D.table[value - 1][st_ - 1][1 if my_gens else 0]
    return value, hits


def roll(c: Ctx) -> None:
    st = c.st
    op = st["op"]
    mil = dict(op["mil"])
    dice = {"attacker": c.die(), "defender": c.die()}
    first = mil["first"]
    order = ["attacker", "defender"]
    if first["attacker"] != first["defender"]:
        order = ["attacker"] if first["attacker"] else ["defender"]  # the other after losses
    mil["dice"] = dice
    mil["queue"] = []
    shown = {}
    for who in order:
        value, hits = result(mil, who, dice[who])
        shown[who] = {"die": dice[who], "modified": value, "hits": hits}
        mil["queue"].append(
            {"victim": "defender" if who == "attacker" else "attacker", "hits": hits}
        )
    if len(order) == 1:
        mil["second"] = "defender" if order[0] == "attacker" else "attacker"
    mil["fights"] += 1
    c.emit(
        {
            "type": "dice_rolled",
            "area": mil["area"],
            "force": mil["force"],
            "target": mil["target"],
            "dice": dice,
            "results": shown,
            "op": {**op, "mil": mil, "stage": "losses"},
        }
    )


def loss_options(mil: dict, victim: str, hits: int) -> list[dict]:
    if victim == "attacker":
        m = mil["movers"] or {"tired": 0, "gens": {}}
        j = mil["join"] or {"n": 0, "gens": []}
        a = mil.get("ally") or {"moved": 0, "stay": 0}
        gens = sorted(list(m["gens"]) + list(j["gens"]))
        total = m["tired"] + j["n"] + len(gens) + a["moved"] + a["stay"]
        k = min(hits, total)
        out = []
        for ng in range(min(k, len(gens)) + 1):
            for gs in combinations(gens, ng):
                for am in range(min(k - ng, a["moved"]) + 1):
                    for ast in range(min(k - ng - am, a["stay"]) + 1):
                        for mm in range(min(k - ng - am - ast, m["tired"]) + 1):
                            jj = k - ng - am - ast - mm
                            if 0 <= jj <= j["n"]:
                                option = {"movers": mm, "join": jj, "gens": list(gs)}
                                if mil.get("ally"):
                                    option.update(ally_moved=am, ally_stay=ast)
                                out.append(option)
        return out
    d = mil["def"]
    total = d["ready"] + d["tired"] + len(d["gens"])
    k = min(hits, total)
    out = []
    for ng in range(min(k, len(d["gens"])) + 1):
        for gs in combinations(d["gens"], ng):
            for r in range(min(k - ng, d["ready"]) + 1):
                t = k - ng - r
                if 0 <= t <= d["tired"]:
                    out.append({"ready": r, "tired": t, "gens": list(gs)})
    return out


def losses(c: Ctx) -> None:
    op = c.st["op"]
    mil = op["mil"]
    if not mil["queue"]:
        if mil.get("second"):
            who = mil["second"]
            value, hits = result(mil, who, mil["dice"][who])
            victim = "defender" if who == "attacker" else "attacker"
            mil2 = {**mil, "second": None, "queue": [{"victim": victim, "hits": hits}]}
            c.emit(
                {
                    "type": "second_strike",
                    "side": who,
                    "modified": value,
                    "hits": hits,
                    "op": {**op, "mil": mil2},
                }
            )
            return
        set_op(c, "fight_over", stage="after")
        return
    item = mil["queue"][0]
    options = loss_options(mil, item["victim"], item["hits"])
    if len(options) == 1:
        take_losses(c, options[0])
        return
    commander = op["side"] if item["victim"] == "attacker" else B.OTHER[op["side"]]
    set_op(c, "decision_owed", owed={"side": commander, "kind": "losses", "options": options})


def lose_general(st: dict, gen: str) -> Any:
    """§9.6, Ruling 38: the turn track, or out of the game in the last turn."""
    if gen == "WEI_WUJI":
        return "available"
    delay = 2 if cfg(st, "lost_general_return") == "two_turns" else 1
    if st["turn"] >= st["turns"]:
        return "removed"
    return st["turn"] + delay


def take_losses(c: Ctx, option: dict) -> None:
    st = c.st
    op = st["op"]
    mil = dict(op["mil"])
    item = mil["queue"][0]
    mil["queue"] = mil["queue"][1:]
    area = mil["area"]
    content = S.copy_area(st["areas"][area])
    pool = {g: lose_general(st, g) for g in option["gens"]}
    if item["victim"] == "attacker":
        force = mil["force"]
        movers = S.copy(mil["movers"]) if mil["movers"] else None
        join = dict(mil["join"])
        for g in option["gens"]:
            if movers and g in movers["gens"]:
                movers["gens"].pop(g)
            else:
                join["gens"] = [x for x in join["gens"] if x != g]
                B.stack_of(content, force)["gens"].pop(g, None)
        if movers:
            movers["tired"] -= option["movers"]
        join["n"] -= option["join"]
        if option["join"]:
            B.stack_of(content, force)["tired"] -= option["join"]
        mil["movers"], mil["join"] = movers, join
        if mil["act"] in option["gens"]:
            mil["act"] = None
        if mil.get("ally"):  # Mi Yue b): Yiqu armies among the attackers
            ally = dict(mil["ally"])
            ally["moved"] -= option.get("ally_moved", 0)
            ally["stay"] -= option.get("ally_stay", 0)
            if option.get("ally_stay"):
                B.stack_of(content, ally["force"])["tired"] -= option["ally_stay"]
            mil["ally"] = ally
        lost_force = force
    else:
        stack = B.stack_of(content, mil["target"])
        B.remove_counters(stack, option["ready"], option["tired"], option["gens"])
        d = dict(mil["def"])
        d["ready"] -= option["ready"]
        d["tired"] -= option["tired"]
        d["gens"] = [g for g in d["gens"] if g not in option["gens"]]
        if mil.get("extra"):
            mil["extra"] = [g for g in mil["extra"] if g not in option["gens"]]
        if d["act"] in option["gens"]:
            d["act"] = None
        mil["def"] = d
        lost_force = mil["target"]
    content["field"] = [s for s in content["field"] if B.size(s)]
    if content["city"] is not None and B.size(content["city"]) == 0:
        content["city"] = None
    c.emit(
        {
            "type": "losses_taken",
            "force": lost_force,
            "side": item["victim"],
            "lost": option,
            "areas": {area: content},
            "pool": pool,
            "op": {**op, "mil": mil, "owed": None, "stage": "losses"},
        }
    )
    movers = mil.get("movers") or {}
    if (
        lost_force == "QIN"
        and not B.on_map(c.st, "QIN")
        and not (movers.get("force") == "QIN" and B.size(movers))
    ):
        check_eliminations(c)  # §11: Qin eliminated ends the game at once


def retreat_area(st: dict, mil: dict) -> list[str]:
    """§9.7 / Ruling 32: the last area before the battlefield, or (config) a friendly-held
    neighbouring area of the attacker's choice."""
    last = mil["last"]
    if cfg(st, "retreat_destination") == "last_area":
        return [last]
    fac = B.faction(st, mil["force"])
    ok = [
        a
        for a in D.neighbours[mil["area"]]
        if st["areas"][a]["city"] and B.faction(st, st["areas"][a]["city"]["force"]) == fac
    ]
    return ok or [last]


def after_fight(c: Ctx) -> None:
    """§9.7 and Rulings 35-36."""
    st = c.st
    op = st["op"]
    mil = op["mil"]
    area, force = mil["area"], mil["force"]
    content = st["areas"][area]
    n, gens = attackers(mil)
    left = n + len(gens)
    tgt = B.stack_of(content, mil["target"])
    if tgt is None and mil.get("extra"):
        # Wei Wuji survived: a defending counter is left, nothing is taken (Ruling 24, §9.7)
        tgt = {"force": "WEI", "ready": 0, "tired": 0, "gens": dict.fromkeys(mil["extra"])}
    movers = mil["movers"]
    if mil["tloc"] == "city" and tgt is None:
        new = S.copy_area(content)
        if left:
            # city taken: every counter of the attacking force in the area goes in; with
            # Mi Yue b) Qin holds it, the Yiqu stand in the field (Ruling 27)
            ally = mil.get("ally") or {"force": None, "moved": 0, "stay": 0}
            main_left = (
                (movers and B.size(movers))
                or (mil["join"] or {}).get("n")
                or ((mil["join"] or {}).get("gens"))
            )
            taker = force if main_left or not ally["force"] else ally["force"]
            own = B.stack_of(new, taker)
            if own is not None:
                new["field"] = [s for s in new["field"] if s["force"] != taker]
            new["city"] = own or B.new_stack(taker)
            if movers:
                B.put(new, movers)
            if ally["moved"]:
                B.put(new, B.new_stack(ally["force"], 0, ally["moved"]))
            c.emit(
                {
                    "type": "city_taken",
                    "area": area,
                    "force": taker,
                    "areas": {area: new},
                    "op": {**op, "mil": {**mil, "movers": None, "ally": unmoved(mil)}},
                }
            )
            return cleared(c, n, gens)
        pick = B.tidy(new)
        if pick:
            opts = [{"force": f} for f in pick]
            c.emit(
                {
                    "type": "decision_owed",
                    "areas": {area: new},
                    "op": {
                        **op,
                        "owed": {"side": op["side"], "kind": "successor", "options": opts},
                    },
                }
            )
            return
        c.emit({"type": "fight_over", "area": area, "areas": {area: new}, "op": op})
        return end_fight(c)
    if left == 0:
        return end_fight(c)
    if tgt is not None:  # both sides still stand: the movers go back
        return retreat(c)
    ally_force = (mil.get("ally") or {}).get("force")
    others = [f for f in B.forces_in(content) if f not in (force, ally_force)]
    if not others:
        return stay(c)
    fac = B.faction(st, force)
    hostile = [f for f in others if B.faction(st, f) != fac]
    options = [
        {"do": "again", "target": t}
        for t in target_options(st, area, force, (mil.get("ally") or {}).get("force"))
    ]
    if movers:
        options.append({"do": "retreat"})
    if not hostile or not movers:
        options.append({"do": "stay"})
    if len(options) == 1:
        return after_choice(c, options[0])
    set_op(c, "decision_owed", owed={"side": op["side"], "kind": "after", "options": options})


def after_choice(c: Ctx, option: dict) -> None:
    op = c.st["op"]
    if option["do"] == "again":
        mil = {**op["mil"], "target": None}
        c.emit(
            {
                "type": "fight_again",
                "target": option["target"],
                "op": {**op, "mil": mil, "owed": None, "stage": "engage"},
            }
        )
        choose_engage(c, {"target": option["target"], "join": {"n": 0, "gens": []}})
        return
    if option["do"] == "retreat":
        return retreat(c)
    return stay(c)


def unmoved(mil: dict) -> dict | None:
    """The Mi Yue b) part once its movers are placed."""
    return {**mil["ally"], "moved": 0} if mil.get("ally") else None


def stay(c: Ctx) -> None:
    op = c.st["op"]
    mil = op["mil"]
    n, gens = attackers(mil)
    ally = mil.get("ally") or {"moved": 0}
    if ally["moved"] and not mil["movers"]:
        mil = {**mil, "movers": B.new_stack(mil["force"])}
    if mil["movers"]:
        new = S.copy_area(c.st["areas"][mil["area"]])
        B.put(new, mil["movers"])
        if ally["moved"]:
            B.put(new, B.new_stack(ally["force"], 0, ally["moved"]))
        c.emit(
            {
                "type": "stayed",
                "area": mil["area"],
                "force": mil["force"],
                "areas": {mil["area"]: new},
                "op": {**op, "mil": {**mil, "movers": None, "ally": unmoved(mil)}, "owed": None},
            }
        )
    cleared(c, n, gens)


def cleared(c: Ctx, n: int, gens: list[str]) -> None:
    """Ruling 19: after a fight that clears the area, a Mounted Attack may go on with its
    remaining MP (its surviving participants, all exhausted)."""
    st = c.st
    op = st["op"]
    mil = op["mil"]
    area, force = mil["area"], mil["force"]
    hostile = B.hostile_to(st, st["areas"][area], B.faction(st, force), force)
    if not op["mods"].get("mounted") or mil["mp"] <= 0 or not n + len(gens) or hostile:
        return end_fight(c)
    content = st["areas"][area]
    own = B.stack_of(content, force)
    empties = content["city"] is own and B.size(own) == n + len(gens)
    others = [f for f in B.forces_in(content) if f != force]
    options: list[dict] = [{"do": "stop"}]
    for path in B.paths(st, area, force, mil["mp"]):
        for succ in others if empties and len(others) > 1 else [None]:
            options.append({"do": "onward", "path": path, "successor": succ})
    if len(options) == 1:
        return end_fight(c)
    part = {"n": n, "gens": list(gens)}
    c.emit(
        {
            "type": "decision_owed",
            "op": {
                **op,
                "mil": {**mil, "part": part},
                "owed": {"side": op["side"], "kind": "onward", "options": options},
            },
        }
    )


def onward(c: Ctx, option: dict) -> None:
    st = c.st
    op = st["op"]
    mil = op["mil"]
    if option["do"] == "stop":
        return end_fight(c)
    area, force, part, path = mil["area"], mil["force"], mil["part"], option["path"]
    new = S.copy_area(st["areas"][area])
    s = B.stack_of(new, force)
    leaving_city = new["city"] is s and B.size(s) == part["n"] + len(part["gens"])
    B.remove_counters(s, 0, part["n"], part["gens"])
    if leaving_city:
        new["city"] = None
        new["field"] = [x for x in new["field"] if B.size(x)]
        if option["successor"]:
            B.promote(new, option["successor"])
    B.tidy(new)
    movers = B.new_stack(force, 0, part["n"], {g: False for g in part["gens"]})
    dest = path[-1]
    fight = B.hostile_to(st, st["areas"][dest], B.faction(st, force), force)
    mil2 = {
        **mil,
        "movers": movers,
        "join": None,
        "fights": 0,
        "origin": area,
        "path": path,
        "area": dest,
        "last": path[-2] if len(path) > 1 else area,
        "target": None,
        "mp": mil["mp"] - B.path_cost(area, path),
        "part": None,
    }
    ev = {
        "type": "moved",
        "force": force,
        "from": area,
        "path": path,
        "armies": part["n"],
        "generals": list(part["gens"]),
        "activate": mil["act"],
        "fight": fight,
    }
    if fight:
        ev.update(areas={area: new}, op={**op, "mil": mil2, "owed": None, "stage": "engage"})
        c.emit(ev)
        return
    dcontent = S.copy_area(st["areas"][dest])
    B.put(dcontent, movers)
    ev.update(
        areas={area: new, dest: dcontent}, op={**op, "mil": {**mil2, "movers": None}, "owed": None}
    )
    c.emit(ev)
    end_fight(c)


def retreat(c: Ctx, to: str | None = None) -> None:
    st = c.st
    op = st["op"]
    mil = op["mil"]
    ally = mil.get("ally") or {"moved": 0}
    if (not mil["movers"] or not B.size(mil["movers"])) and not ally["moved"]:
        return end_fight(c)
    choices = retreat_area(st, mil)
    if to is None and len(choices) > 1:
        opts = [{"area": a} for a in choices]
        set_op(c, "decision_owed", owed={"side": op["side"], "kind": "retreat", "options": opts})
        return
    dest = to or choices[0]
    new = S.copy_area(st["areas"][dest])
    if mil["movers"]:
        B.put(new, mil["movers"])
    if ally["moved"]:  # Mi Yue b): each to the last area (Ruling 27)
        B.put(new, B.new_stack(ally["force"], 0, ally["moved"]))
    c.emit(
        {
            "type": "retreated",
            "force": mil["force"],
            "from": mil["area"],
            "to": dest,
            "areas": {dest: new},
            "op": {**op, "mil": {**mil, "movers": None, "ally": unmoved(mil)}, "owed": None},
        }
    )
    end_fight(c)


def end_fight(c: Ctx) -> None:
    st = c.st
    op = st["op"]
    mil = op["mil"]
    if mil.get("extra"):  # Wei Wuji leaves the board after the battle (Ruling 24)
        mil = {**mil, "extra": []}
        c.emit(
            {
                "type": "general_left",
                "general": "WEI_WUJI",
                "pool": {"WEI_WUJI": "available"},
                "op": {**op, "mil": mil},
            }
        )
        op = c.st["op"]
    area = mil["area"]
    new = S.copy_area(st["areas"][area])
    pick = B.tidy(new)
    if pick:  # Ruling 36: the active player picks who moves into the empty city
        opts = [{"force": f} for f in pick]
        c.emit(
            {
                "type": "decision_owed",
                "areas": {area: new},
                "op": {**op, "owed": {"side": op["side"], "kind": "successor", "options": opts}},
            }
        )
        return
    if new != st["areas"][area]:
        c.emit({"type": "area_settled", "area": area, "areas": {area: new}})
    finish_military(c)


def do_choose(c: Ctx, seat: str, cmd: dict) -> None:
    op = c.st["op"]
    owed = op["owed"]
    i = cmd.get("option")
    if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(owed["options"]):
        raise RulesError(said("choose an option from 0 to {last}", last=len(owed["options"]) - 1))
    option = owed["options"][i]
    kind = owed["kind"]
    c.emit(
        {
            "type": "chosen",
            "side": owed["side"],
            "kind": kind,
            "option": option,
            "op": {**op, "owed": None},
        }
    )
    if kind == "engage":
        choose_engage(c, option)
    elif kind == "respond" and op.get("stage") == "char_window":
        cards.respond_in_char_window(c, seat, option)
    elif kind == "respond":
        do_respond(c, seat, option)
    elif kind == "onward":
        onward(c, option)
    elif kind in ("reinforce", "general", "mobilize", "bolster", "city"):
        cards.chosen(c, kind, option)
    elif kind == "defend":
        choose_defence(c, option)
    elif kind == "losses":
        take_losses(c, option)
    elif kind == "after":
        after_choice(c, option)
    elif kind == "retreat":
        retreat(c, option["area"])
    elif kind == "successor":
        area = op["mil"]["area"]
        new = S.copy_area(c.st["areas"][area])
        B.promote(new, option["force"])
        c.emit(
            {"type": "city_entered", "area": area, "force": option["force"], "areas": {area: new}}
        )
        end_fight(c)


def do_pick(c: Ctx, seat: str, cmd: dict) -> None:
    cards.do_pick(c, seat, cmd)


HANDLERS = {
    "bid": do_bid,
    "play": do_play,
    "pass": do_pass,
    "operate": do_operate,
    "choose": do_choose,
    "pick": do_pick,
}


# The card texts build on these rules (cards.py imports this module): imported once the
# rules above are defined, not at each call.
from games.warring_states import cards  # noqa: E402

# operation stage -> its automatic step (what step_op does, one look-up; the card texts'
# window, defined in cards.py, which imports this module, goes through step_op)
STAGES = {
    "next": next_step,
    "engage": engage,
    "shift": attack_shift,
    "window": open_window,
    "defend": defend,
    "roll": roll,
    "losses": losses,
    "after": after_fight,
}
