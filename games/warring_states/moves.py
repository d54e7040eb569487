"""The commands a seat may send now (``legal``), and one of them at random."""

from __future__ import annotations

from typing import Any

from games.warring_states import board as B
from games.warring_states import cards
from games.warring_states import rules as R
from games.warring_states.data import kind_of

D = B.D


GENERIC = ("military", "reinforcement", "diplomacy", "weather")


def action_commands(
    st: dict, side: str, kinds: tuple = GENERIC, hand: list | None = None
) -> list[dict]:
    """Any card face down for one generic action of ``kinds`` that is legal now (Ruling 13)."""
    out: list[dict] = []
    hand = st["hands"][side] if hand is None else hand
    if not hand:
        return out
    actions = generic_actions(st, side, kinds)
    for card in dict.fromkeys(hand):
        out += [{"type": "play", "card": card, "face": "down", **a} for a in actions]
    return out


def generic_actions(st: dict, side: str, kinds: tuple = GENERIC) -> list[dict]:
    """The generic actions of ``kinds`` open now (``action`` and its parameters), whichever
    card makes them."""
    actions: list[dict] = []
    if "military" in kinds and R.can_operate(st, side):
        actions.append({"action": "military"})
    if "reinforcement" in kinds:
        places = R.reinforce_table(st)
        for force in D.forces:
            for area in places.get(force, ()):
                actions.append({"action": "reinforcement", "force": force, "area": area})
    if "diplomacy" in kinds:
        for force, pos in sorted(st["track"].items()):
            if pos["received"]:
                actions += [{"action": "diplomacy", "force": force, "dir": d} for d in (-1, 1)]
    if "weather" in kinds and not st["initiative"]["flipped"]:
        actions += [{"action": "weather", "move": m} for m in (True, False)]
    return actions


def legal(st: dict, seat: str) -> list[dict[str, Any]]:
    due = R.pending(st).get(seat)
    if due is None:
        return []
    if due == "bid":
        return [{"type": "bid", "rp": r} for r in range(R.MAX_BID + 1)]
    side = R.side_of(st, seat)
    if due == "action":
        return [{"type": "pass"}, *action_commands(st, side), *cards.face_up_commands(st, side)]
    if due == "operate":
        return R.operations(st, side)
    if due == "pick":
        return cards.pick_commands(st, side, st["op"]["owed"]["kind"])
    options = st["op"]["owed"]["options"]
    if due == "respond":  # the options are public; which of them this seat can play is not
        hand = {kind_of(c) for c in st["hands"][R.side_of(st, seat)]}
        return [
            {"type": "choose", "option": i}
            for i, o in enumerate(options)
            if o["card"] is None or o["card"] in hand
        ]
    return [{"type": "choose", "option": i} for i in range(len(options))]


def random_command(st: dict, seat: str, rng: Any) -> dict[str, Any] | None:
    """A legal command, uniformly, except that a pass is one choice among the card plays'
    kinds (so random games are not all passes nor all diplomacy)."""
    due = R.pending(st).get(seat)
    if due is None:
        return None
    if due == "bid":
        return {"type": "bid", "rp": rng.randrange(R.MAX_BID + 1)}
    if due == "operate":
        return random_operation(st, st["sides"].get(seat), rng)  # (R.side_of)
    if due == "action":
        return _random_action(st, st["sides"].get(seat), rng)  # (R.side_of)
    if due == "choose":  # as legal lists them (an index per option): only the one drawn
        n = len(st["op"]["owed"]["options"])
        return {"type": "choose", "option": rng.randrange(n)} if n else None
    return _pick(legal(st, seat), rng)


def _pick(options: list[dict], rng: Any) -> dict | None:
    return options[rng.randrange(len(options))] if options else None


def _random_action(st: dict, side: str, rng: Any) -> dict | None:
    """One of the legal actions of one kind (pass, each generic action, face-up texts),
    the kind drawn first among those open, so that a random game is neither all passes nor
    all reinforcements; cheaper than listing every action."""
    hand = st["hands"][side]
    if not hand:
        return _pick([{"type": "pass"}], rng)
    kinds = ["pass", "reinforcement"]
    operable = R.can_operate(st, side)
    if operable:
        kinds.append("military")
    for p in st["track"].values():
        if p["received"]:
            kinds.append("diplomacy")
            break
    if not st["initiative"]["flipped"]:
        kinds.append("weather")
    kinds.append("text")
    kind = kinds[rng.randrange(len(kinds))]
    if kind == "text":  # as face_up_commands lists them; only the one drawn is made
        texts = [(c, v) for c in dict.fromkeys(hand) for v in cards.variants(st, side, c, operable)]
        if texts:
            card, params = texts[rng.randrange(len(texts))]
            return {"type": "play", "card": card, "face": "up", "action": "text", **params}
        kinds.remove("text")
        kind = kinds[rng.randrange(len(kinds))]
    if kind == "pass":
        return _pick([{"type": "pass"}], rng)
    card = hand[rng.randrange(len(hand))]
    if kind == "military":  # open: R.can_operate held above
        return _pick([{"type": "play", "card": card, "face": "down", "action": "military"}], rng)
    if kind == "reinforcement":  # as action_commands lists them; only the one drawn is made
        places = R.reinforce_table(st)
        pairs = [(force, area) for force in D.forces for area in places.get(force, ())]
        if not pairs:
            return None
        force, area = pairs[rng.randrange(len(pairs))]
        return {"type": "play", "card": card, "face": "down", "action": "reinforcement",
                "force": force, "area": area}  # fmt: skip
    if kind == "diplomacy":  # as generic_actions lists them: each force received, -1 then 1
        forces = sorted(f for f, p in st["track"].items() if p["received"])
        i = rng.randrange(2 * len(forces))
        return {"type": "play", "card": card, "face": "down", "action": "diplomacy",
                "force": forces[i // 2], "dir": (-1, 1)[i % 2]}  # fmt: skip
    move = (True, False)[rng.randrange(2)]  # weather, as generic_actions lists it
    return {"type": "play", "card": card, "face": "down", "action": "weather", "move": move}


def random_operation(st: dict, side: str, rng: Any) -> dict | None:
    """One of ``R.operations(st, side)``, drawn stack first, without listing them all."""
    must = (st["op"] or {}).get("must")
    cap = D.constants.max_counters_per_military_op
    stacks = []
    mine = R.directed_forces(st, st["op"], side)  # (R.directable of each force)
    if must:
        mine = mine & {must["force"]}
    if not mine:
        return None
    areas = st["areas"]
    for area in [must["area"]] if must else D.areas:
        content = areas[area]
        city = content["city"]
        if (
            city is not None
            and city["force"] in mine
            and (city["ready"] or any(city["gens"].values()))
        ):
            stacks.append((area, city))
        for stack in content["field"]:
            if stack["force"] in mine and (stack["ready"] or any(stack["gens"].values())):
                stacks.append((area, stack))
    if not stacks:
        return None
    area, stack = stacks[rng.randrange(len(stacks))]
    force, content = stack["force"], st["areas"][area]
    ready_gens = sorted(g for g, r in stack["gens"].items() if r)
    need = sorted(must["gens"]) if must else []
    floor = must["armies"] if must else 0
    optional = [g for g in ready_gens if g not in need]
    choices = []  # (generals, lowest armies, highest armies) that make 1-4 counters
    for extra in range(len(optional) + 1):
        gens = need + optional[:extra]
        low, high = max(1 - len(gens), floor), min(stack["ready"], cap - len(gens))
        if low <= high:
            choices.append((gens, low, high))
    gens, low, high = choices[rng.randrange(len(choices))]
    gens = sorted(gens)
    n = low + rng.randrange(high - low + 1)
    act = gens[rng.randrange(len(gens))] if len(gens) > 1 else None
    ally = R.ally_of(st, force)
    ally_stack = B.stack_of(content, ally) if ally else None
    k = rng.randrange(min(cap - n - len(gens), ally_stack["ready"]) + 1) if ally_stack else 0
    active = act or (gens[0] if gens else None)
    others = [f for f in B.forces_in(content) if f != force and not (k and f == ally)]
    routes = ([[]] if others else []) + B.paths(st, area, force, B.ma_of(gens, active))
    path = routes[rng.randrange(len(routes))]
    cmd = {
        "type": "operate",
        "area": area,
        "force": force,
        "armies": n,
        "generals": gens,
        "activate": act,
    }
    if k:
        cmd["ally"] = k
    cmd["path"] = path
    if path:
        pick = R.vacated(content, {force: n + len(gens), **({ally: k} if k else {})})
        if pick:
            cmd["successor"] = pick[rng.randrange(len(pick))]
    return cmd
