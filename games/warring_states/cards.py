"""The card texts of both decks (§14), played face up as an action, and the steps they grant.

A face-up play names the card, its option (``"a"``/``"b"`` where it has two) and the
public choices made when it is played (``force``, ``general``); choices among hidden
cards (which card to discard, which card to take from the deck) come afterwards as a
private ``pick``, so nothing the opponent may not see is ever written where they can.
The effect of a card is a list of steps (``op["todo"]``): automatic ones (``draw:N``) and
decisions (``operate``, ``reinforce``, ``general``, ``mobilize``, ``discard``,
``discard_drawn``, ``take``), carried out in order by ``rules.next_step``.

Every card of both decks is implemented.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.base import RulesError
from games.i18n import said
from games.warring_states import board as B
from games.warring_states import rules as R
from games.warring_states import state as S
from games.warring_states.data import kind_of

D = B.D
NOT_YET: set[str] = set()
DIPLOMATS = {"ZHANG_YI", "GONGSUN_YAN", "SU_QIN"}
SEARCH = {"GUO_WEI": "YAN", "LORD_MENGCHANG": "QI"}
EMISSARIES = {"EMISSARY_ZHAO": ("ZHAO",), "EMISSARY_QI": ("QI",), "EMISSARY_CHU": ("CHU",),
              "EMISSARY_MINOR": ("WEI", "HAN", "YAN", "YIQU")}  # fmt: skip
PRIVATE = ("discard", "discard_drawn", "take")
CANCELLERS = {"lianheng": "L_LI_SI", "alliance": "A_JING_KE"}


def base(card: str) -> str:
    return kind_of(card)[2:]


def hand_not_larger(st: dict, side: str) -> bool:
    """Ruling 11: judged with the card still in hand."""
    return len(st["hands"][side]) <= len(st["hands"][B.OTHER[side]])


def alive(st: dict, force: str) -> bool:
    return force not in st["eliminated"] and force in st["track"]


# -- what may be played face up ------------------------------------------------------------
def barred(st: dict, card: str) -> str | None:
    """Why ``card`` cannot be played face up now before its own condition is looked at (a
    message's key, ``play.up.<why>``): it only answers the opponent, or its force is gone
    (§11); None if its condition decides."""
    _, why, linked = _facts(card)
    if why:
        return why
    if linked and any(f in st["eliminated"] for f in linked):
        return "eliminated"  # §11: linked to an eliminated force
    return None


_FACTS: dict[str, tuple] = {}


def _facts(card: str) -> tuple[str, str | None, tuple]:
    """``card``'s name, why it is barred whatever the state (or None), and the forces whose
    elimination bars it: from the data alone, so kept per card (random play asks for every
    card in hand at every action)."""
    facts = _FACTS.get(card)
    if facts is None:
        name, info = base(card), D.cards[kind_of(card)]
        why = "response" if info.response_only else "condition" if name in NOT_YET else None
        linked = () if name in EMISSARIES else tuple(info.linked)
        facts = _FACTS[card] = (name, why, linked)
    return facts


def variants(st: dict, side: str, card: str, operable: bool | None = None) -> list[dict]:
    """Every face-up play of ``card`` legal now (its public parameters), [] if none.
    ``operable``: ``R.can_operate(st, side)`` if the caller knows it already."""
    if barred(st, card):
        return []
    name = _facts(card)[0]
    track = st["track"]
    out: list[dict] = []
    if name in DIPLOMATS:
        out += [{"option": "a", "force": f} for f, p in sorted(track.items()) if p["received"]]
        out += [{"option": "b", "force": f} for f, p in sorted(track.items()) if not p["received"]]
    elif name in SEARCH:
        fac = B.faction(st, SEARCH[name])
        if fac in ("neutral", "alliance"):
            out.append({})
    elif name == "LORD_XINLING":
        if alive(st, "WEI") and track["WEI"]["received"]:
            out.append({"option": "a"})
    elif name == "LORD_CHUNSHEN":
        if B.faction(st, "CHU") == "alliance" and hand_not_larger(st, side):
            out.append({})
    elif name == "MAO_SUI":
        out += [{"force": f} for f, p in sorted(track.items()) if p["received"]]
    elif name in ("DOUBLE_OPERATION", "ELITE_CROSSBOWMEN", "MOUNTED_ATTACK"):
        # (can_operate reads the forces of the operation op_for would make, and its
        # "must", which these cards do not set: the forces of §3.2 unless the card says)
        forces = grants(st, side, card, {"option": "a"}).get("forces")
        if forces is None and operable is not None:
            ok = operable  # (what can_operate gives outside a card's text)
        else:
            ok = R.can_operate(st, side, {"forces": forces})
        if ok:
            out.append({"option": "a"} if name == "ELITE_CROSSBOWMEN" else {})
    elif name == "EMERGENCY_MOBILIZATION":
        out.append({"option": "a"})  # the reinforcement is always possible (Qin is on the map)
    elif name == "DOUBLE_RECRUITMENT":
        out.append({})
    elif name == "BOLSTER_MORALE":  # Ruling 20: a force the player may direct face down
        mine = R.directed_forces(st, None, side)  # (B.directable_face_down of each force)
        if mine:
            areas = st["areas"]
            for area in D.areas:
                content = areas[area]
                city = content["city"]
                for s in (city, *content["field"]) if city else content["field"]:
                    tired = s["tired"] or not all(s["gens"].values())
                    if tired and s["force"] in mine:
                        out.append({"force": s["force"], "area": area})
    elif name == "LEGENDARY_GENERAL":
        if has_general_option(st, side):  # (general_options(st, side, []) not empty)
            out.append({"option": "a"})
            if len(st["hands"][side]) >= 3 and not friendly_general(st, side):
                out.append({"option": "b"})
    elif name in EMISSARIES:
        for force in EMISSARIES[name]:
            if not alive(st, force):
                continue
            if track[force]["received"]:
                out.append({"option": "a", "force": force})
            if B.faction(st, force) == side:
                out.append({"option": "b", "force": force})
    elif name == "NATIONAL_MOBILIZATION":
        out.append({})
    elif name == "FAN_JU":
        placed = set()
        for c in st["areas"].values():
            city = c["city"]
            if city is not None and city["gens"]:
                placed.update(city["gens"])
            for s in c["field"]:
                if s["gens"]:
                    placed.update(s["gens"])
        out += [{"general": g} for g in GENERALS if g in placed]  # B.general_at
    elif name == "KING_OF_QIN":
        out.append({})
    elif name == "MI_YUE":
        if alive(st, "YIQU") and track["YIQU"]["received"]:
            out.append({"option": "a"})
        if B.faction(st, "YIQU") == "lianheng":
            out.append({"option": "b"})  # Ruling 27
    elif name == "LU_BUWEI":
        if hand_not_larger(st, side) and len(st["hands"][side]) >= 2:
            out.append({})
    elif name == "HAN_FEI" and hand_not_larger(st, side):
        out.append({})
    return out


def face_up_commands(st: dict, side: str) -> list[dict]:
    out = []
    for card in dict.fromkeys(st["hands"][side]):
        for params in variants(st, side, card):
            out.append({"type": "play", "card": card, "face": "up", "action": "text", **params})
    return out


def check(st: dict, side: str, cmd: dict) -> dict:
    params = {k: cmd[k] for k in ("option", "force", "general", "area") if k in cmd}
    options = variants(st, side, cmd["card"])
    if params not in options:
        name = D.cards[kind_of(cmd["card"])].name
        if not options:
            raise RulesError(
                said(
                    "{name} cannot be played face up now (its condition does not hold, "
                    "or it only answers the opponent)",
                    name=name,
                )
            )
        raise RulesError(
            said(
                "{name} cannot be played that way now: {options}",
                name=name,
                options="; ".join(map(str, options)),
            )
        )
    return params


# -- playing it --------------------------------------------------------------------------------
def play(c: R.Ctx, side: str, cmd: dict) -> None:
    st = c.st
    params = check(st, side, cmd)
    card = cmd["card"]
    c.emit({"type": "card_played", "side": side, "card": card, "face": "up", "action": "text",
            **params})  # fmt: skip
    op = op_for(st, side, card, params)
    if D.cards[kind_of(card)].character and canceller_possible(st, side):
        op["stage"] = "char_window"
    c.emit({"type": "operation_started", "side": side, "op": op})
    if op["stage"] == "next":
        effect(c, side, card, params)


def op_for(st: dict, side: str, card: str, params: dict) -> dict:
    return {"side": side, "card": card, "face": "up", "todo": [], "mods": {}, "forces": None,
            "rforces": None, "used": [], "mil": None, "stage": "next", "owed": None,
            "effect": params, **grants(st, side, card, params)}  # fmt: skip


def grants(st: dict, side: str, card: str, params: dict) -> dict:
    """The steps and modifiers a card's text grants (the part of ``op`` it sets)."""
    name = base(card)
    option = params.get("option")
    if name == "DOUBLE_OPERATION":
        return {"todo": ["operate", "operate"]}
    if name == "MOUNTED_ATTACK":  # Ruling 19
        return {"todo": ["operate"], "mods": {"attacker_drm": 1, "mounted": True}}
    if name == "ELITE_CROSSBOWMEN":
        mods: dict[str, Any] = {"attacker_first": True}
        forces = None
        if side == "lianheng":
            mods["attacker_drm"] = int(R.cfg(st, "lianheng_elite_crossbowmen_drm"))
        elif R.cfg(st, "alliance_elite_crossbowmen") == "player_aid":
            mods["attacker_drm"] = 2
            forces = "afraid_too"
        else:
            mods["han_bonus"] = True
        return {"todo": ["operate"], "mods": mods, "forces": forces}
    if name == "EMERGENCY_MOBILIZATION":
        forces = None
        if side == "alliance" and R.cfg(st, "alliance_emergency_mobilization_a") == "afraid_of_qin":
            forces = "afraid_too"
        return {"todo": ["reinforce", "operate"], "forces": forces}
    if name == "DOUBLE_RECRUITMENT":
        return {"todo": ["reinforce", "reinforce"]}
    if name == "BOLSTER_MORALE":
        return {"todo": ["bolster", "operate"]}
    if name == "LEGENDARY_GENERAL":
        return {"todo": ["general"] if option == "a" else ["discard", "general", "general"]}
    if name in EMISSARIES and option == "b":
        force = params["force"]
        return {"todo": ["reinforce", "operate"], "forces": [force], "rforces": [force]}
    if name == "MAO_SUI":
        return {"todo": ["operate"]}
    if name == "MI_YUE" and option == "b":  # Ruling 27: Qin and Yiqu as one attacking side
        return {
            "todo": ["reinforce", "operate"],
            "rforces": ["QIN", "YIQU"],
            "forces": ["QIN", "YIQU"],
            "mods": {"combined": True},
        }
    if name == "NATIONAL_MOBILIZATION":
        return {"todo": ["mobilize"]}
    if name == "LU_BUWEI":
        return {"todo": ["discard", "draw:3"]}
    if name == "HAN_FEI":
        return {"todo": ["draw:2"]}
    if name == "LORD_CHUNSHEN":
        return {"todo": ["draw:3", "discard_drawn"]}
    if name == "KING_OF_QIN":
        return {"todo": ["take"]}
    if name in SEARCH:
        allied = B.faction(st, SEARCH[name]) == "alliance"
        return {"todo": ["take"] if allied else ["draw:1"]}
    return {}


def effect(c: R.Ctx, side: str, card: str, params: dict) -> None:
    """What happens at once when the card resolves (its later steps are ``op["todo"]``)."""
    st = c.st
    name = base(card)
    option, force = params.get("option"), params.get("force")
    layout = R.cfg(st, "diplomacy_track_layout")
    fav = B.favour(side)
    moves: dict[str, tuple[str, bool]] = {}
    if name in DIPLOMATS:
        box = st["track"][force]["box"]
        moves[force] = (B.shifted(box, 2 * fav if option == "a" else fav, layout), False)
    elif name == "MAO_SUI":
        moves[force] = (B.shifted(st["track"][force]["box"], fav, layout), False)
    elif name == "LORD_XINLING":
        moves["WEI"] = (B.shifted(st["track"]["WEI"]["box"], 2 * fav, layout), False)
    elif name in EMISSARIES and option == "a":
        moves[force] = (B.shifted(st["track"][force]["box"], 2 * fav, layout), False)
    elif name == "MI_YUE" and option == "a":
        moves["YIQU"] = ("SERVE_QIN", False)
    for f, (box, received) in moves.items():
        c.emit({"type": "diplomacy_moved", "force": f, "from": st["track"][f]["box"], "to": box,
                "by": side, "track": {f: {"box": box, "received": received}}})  # fmt: skip
    if name == "FAN_JU":
        gen = params["general"]
        area = B.general_at(st, gen)
        content = S.copy_area(st["areas"][area])
        for s in B.stacks(content):
            s["gens"].pop(gen, None)
        pick = B.tidy(content)
        c.emit(
            {
                "type": "general_removed",
                "general": gen,
                "area": area,
                "by": side,
                "areas": {area: content},
                "pool": {gen: R.lose_general(st, gen)},
            }
        )
        if pick:  # the city emptied: the player picks who moves in (§8 control)
            options = [{"area": area, "force": f} for f in pick]
            R.set_op(c, "decision_owed", owed={"side": side, "kind": "city", "options": options})
        R.check_eliminations(c)


# -- the steps a card grants ---------------------------------------------------------------------
def placements(st: dict, forces: list[str] | None, used: list[str]) -> list[dict]:
    out = []
    table = R.reinforce_table(st)  # (R.reinforce_places of every force, in one pass)
    for force in D.forces if forces is None else forces:
        if force in used:
            continue
        out += [{"force": force, "area": a} for a in table.get(force, ())]
    return out


def general_options(st: dict, side: str, used_areas: list[str]) -> list[dict]:
    """Ruling 14: an available general (not Wei Wuji) of a force of the player's faction,
    into an area holding that force's counters."""
    out = []
    present: dict[str, set[str]] | None = None  # force -> areas holding its counters
    for gen, where in sorted(st["pool"].items()):
        force = D.generals[gen].force
        if where != "available" or gen == "WEI_WUJI" or B.faction(st, force) != side:
            continue
        if present is None:
            present = {}
            for a, content in st["areas"].items():
                for s in B.stacks(content):
                    present.setdefault(s["force"], set()).add(a)
        mine = present.get(force, set())
        out += [{"general": gen, "area": a} for a in D.areas
                if a not in used_areas and a in mine]  # fmt: skip
    return out


GENERALS = sorted(D.generals)


def friendly_general(st: dict, side: str) -> bool:
    """Whether a general of a force of ``side``'s faction is on the map."""
    factions: dict[str, Any] = {}  # (B.faction, per force)
    for content in st["areas"].values():
        city = content["city"]
        for s in (city, *content["field"]) if city else content["field"]:
            for g in s["gens"]:
                force = D.generals[g].force
                fac = factions.get(force, 0)
                if fac == 0:
                    fac = factions[force] = B.faction(st, force)
                if fac == side:
                    return True
    return False


def has_general_option(st: dict, side: str) -> bool:
    """Whether ``general_options(st, side, [])`` lists anything, without listing it."""
    forces = set()
    for gen, where in st["pool"].items():
        if where == "available" and gen != "WEI_WUJI":
            force = D.generals[gen].force
            if B.faction(st, force) == side:
                forces.add(force)
    if not forces:
        return False
    for content in st["areas"].values():
        city = content["city"]
        if city is not None and city["force"] in forces:
            return True
        for s in content["field"]:
            if s["force"] in forces:
                return True
    return False


def bolster_options(st: dict, force: str, area: str) -> list[dict]:
    """Ruling 20: up to 4 exhausted counters of the stack (at least one)."""
    s = B.stack_of(st["areas"][area], force)
    if s is None:
        return []
    cap = D.constants.max_counters_per_military_op
    tired_gens = sorted(g for g, r in s["gens"].items() if not r)
    out = []
    for ng in range(min(cap, len(tired_gens)) + 1):
        for gens in combinations(tired_gens, ng):
            for n in range(min(cap - ng, s["tired"]) + 1):
                if n + ng:
                    out.append({"armies": n, "gens": list(gens)})
    return out


def mobilize_options(st: dict) -> list[dict]:
    """Ruling 25: two Qin-held areas, the fewest Qin counters first; ties: a choice."""
    held = sorted((B.size(st["areas"][a]["city"]), a) for a in D.areas
                  if B.controller(st, a) == "QIN")  # fmt: skip
    if len(held) <= 2:
        return [{"areas": [a for _, a in held]}] if held else []
    counts = sorted(n for n, _ in held)[:2]
    return [{"areas": [a, b]} for (n1, a), (n2, b) in combinations(held, 2)
            if sorted((n1, n2)) == counts]  # fmt: skip


def owed_for(st: dict, op: dict, step: str) -> dict | None:
    side = op["side"]
    if step == "operate":
        return {"side": side, "kind": "operate"} if R.can_operate(st, side, op) else None
    if step == "reinforce":
        options = placements(st, op.get("rforces"), op.get("used", []))
        return {"side": side, "kind": "reinforce", "options": options} if options else None
    if step == "general":
        options = general_options(st, side, op.get("used", []))
        return {"side": side, "kind": "general", "options": options} if options else None
    if step == "bolster":
        options = bolster_options(st, op["effect"]["force"], op["effect"]["area"])
        return {"side": side, "kind": "bolster", "options": options} if options else None
    if step == "mobilize":
        options = mobilize_options(st)
        return {"side": side, "kind": "mobilize", "options": options} if options else None
    if step in ("discard", "take", "discard_drawn"):
        if step == "take" and not st["decks"][side]:
            return None
        if step == "discard" and not st["hands"][side]:
            return None
        if step == "discard_drawn" and op.get("drawn", 0) <= 2:
            return None
        return {"side": side, "kind": step}
    return None


def automatic(c: R.Ctx, op: dict, step: str) -> bool:
    """Carry out an automatic step (``draw:N``); True if ``step`` was one."""
    if not step.startswith("draw:"):
        return False
    side = op["side"]
    n = int(step.split(":")[1])
    drawn = len(c.st["decks"][side][:n])
    R.draw(c, side, n, "card")
    c.emit({"type": "operation_step", "op": {**c.st["op"], "drawn": drawn}})
    return True


def chosen(c: R.Ctx, kind: str, option: dict) -> None:
    """A public choice a card's step asked for."""
    st = c.st
    op = st["op"]
    side = op["side"]
    if kind == "reinforce":
        R.reinforce(c, side, option)
        used = [*op.get("used", []), option["force"]]
    elif kind == "general":
        area, gen = option["area"], option["general"]
        content = S.copy_area(st["areas"][area])
        B.stack_of(content, D.generals[gen].force)["gens"][gen] = True
        c.emit({"type": "general_placed", "general": gen, "area": area, "by": side,
                "areas": {area: content}, "pool": {gen: None}})  # fmt: skip
        used = [*op.get("used", []), area]
    elif kind == "bolster":
        force, area = op["effect"]["force"], op["effect"]["area"]
        content = S.copy_area(st["areas"][area])
        s = B.stack_of(content, force)
        s["tired"] -= option["armies"]
        s["ready"] += option["armies"]
        for g in option["gens"]:
            s["gens"][g] = True
        c.emit(
            {
                "type": "bolstered",
                "force": force,
                "area": area,
                "armies": option["armies"],
                "generals": option["gens"],
                "areas": {area: content},
            }
        )
        must = {"force": force, "area": area, **option}
        R.set_op(c, "operation_step", stage="next", owed=None, must=must)
        return
    elif kind == "city":
        content = S.copy_area(st["areas"][option["area"]])
        B.promote(content, option["force"])
        c.emit(
            {
                "type": "city_entered",
                "area": option["area"],
                "force": option["force"],
                "areas": {option["area"]: content},
            }
        )
        used = op.get("used", [])
    else:  # mobilize
        areas = {}
        for area in option["areas"]:
            content = S.copy_area(st["areas"][area])
            content["city"]["ready"] += 1
            areas[area] = content
        c.emit({"type": "mobilized", "areas_placed": option["areas"], "areas": areas})
        used = op.get("used", [])
    R.set_op(c, "operation_step", stage="next", owed=None, used=used)


def pick_commands(st: dict, side: str, kind: str) -> list[dict]:
    hand = st["hands"][side]
    if kind == "discard":
        cards = hand
    elif kind == "discard_drawn":
        cards = hand[-st["op"].get("drawn", 0) :]
    else:
        cards = st["decks"][side]
    return [{"type": "pick", "card": c} for c in sorted(set(cards))]


def do_pick(c: R.Ctx, seat: str, cmd: dict) -> None:
    st = c.st
    op = st["op"]
    side = op["side"]
    kind = op["owed"]["kind"]
    card = cmd.get("card")
    if {"type": "pick", "card": card} not in pick_commands(st, side, kind):
        raise RulesError(said("that card is not one you may pick now"))
    if kind == "take":
        c.emit({"type": "cards_drawn", "visible_to": seat, "side": side, "cards": [card],
                "why": "search"})  # fmt: skip
        deck = list(c.st["decks"][side])
        c.rng.shuffle(deck)
        c.emit({"type": "deck_searched", "visible_to": "server", "side": side, "deck": deck})
    else:
        c.emit({"type": "card_discarded", "visible_to": seat, "side": side, "card": card})
    R.set_op(c, "operation_step", stage="next", owed=None)


# -- Jing Ke and Li Si: cancelling a character card (§10, Ruling 15) ----------------------------
def canceller_possible(st: dict, side: str) -> bool:
    """Whether the passive player could in principle cancel a character card now."""
    passive = B.OTHER[side]
    kind = CANCELLERS[passive]
    if not st["hands"][passive] or R.publicly_spent(st, passive, kind):
        return False
    return passive == "lianheng" or B.faction(st, "YAN") == "alliance"


def char_window(c: R.Ctx) -> None:
    st = c.st
    op = st["op"]
    passive = B.OTHER[op["side"]]
    kind = CANCELLERS[passive]
    seat = R.seat_of(st, passive)
    standing = st["standing"].get(seat) or {"mode": "ask"}
    if standing["mode"] == "ask":
        options = [{"card": None}, {"card": kind}]
        c.emit(
            {
                "type": "window_opened",
                "side": passive,
                "kinds": [kind],
                "op": {**op, "owed": {"side": passive, "kind": "respond", "options": options}},
            }
        )
        return
    hand = st["hands"][passive]
    mine = next((x for x in hand if kind_of(x) == kind), None)
    if standing["mode"] == "auto" and kind in standing.get("cards", []) and mine:
        cancel(c, passive, mine, auto=True)
        return
    resume(c)


def resume(c: R.Ctx) -> None:
    op = c.st["op"]
    c.emit({"type": "window_closed", "op": {**op, "stage": "next", "owed": None}})
    effect(c, op["side"], op["card"], op["effect"])


def cancel(c: R.Ctx, side: str, card: str, auto: bool) -> None:
    st = c.st
    op = st["op"]
    c.emit({"type": "card_played", "side": side, "card": card, "face": "up",
            "action": "response", "auto": auto})  # fmt: skip
    removed = kind_of(card) == "A_JING_KE"
    c.emit({"type": "card_cancelled", "card": op["card"], "side": op["side"], "by": card,
            "removed": removed})  # fmt: skip
    R.end_phase(c)


def respond_in_char_window(c: R.Ctx, seat: str, option: dict) -> None:
    if option["card"] is None:
        resume(c)
        return
    side = R.side_of(c.st, seat)
    card = next((x for x in c.st["hands"][side] if kind_of(x) == option["card"]), None)
    if card is None:
        raise RulesError(said("you hold no {card}", card=D.cards[option["card"]].name))
    cancel(c, side, card, auto=False)
