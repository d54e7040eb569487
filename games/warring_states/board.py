"""Reading the board: factions, stacks, control, RP, the diplomacy track, movement costs.

Pure functions of the state (``state.py``) and the data (``data.py``); nothing here
changes a state in place except the helpers named ``put_*``/``take_*``, which work on a
copy ``decide`` owns.
"""

from __future__ import annotations

from typing import Any

from games.warring_states import data

D = data.load()
SIDES = data.SIDES
OTHER = {"lianheng": "alliance", "alliance": "lianheng"}
LINEAR7 = (
    "SERVE_QIN",
    "NEUTRAL_1",
    "NEUTRAL_2",
    "NEUTRAL_3",
    "AFRAID_OF_QIN",
    "REVENGE_QIN",
    "ANTI_QIN",
)
BY_COLUMN = {0: "SERVE_QIN", 1: "NEUTRAL_1", 2: "NEUTRAL_2", 3: "NEUTRAL_3", 4: "AFRAID_OF_QIN"}
DIRECTABLE_FACE_DOWN = {"lianheng": ("lianheng_fixed",), "alliance": ("REVENGE_QIN", "ANTI_QIN")}


# -- stacks ---------------------------------------------------------------------------------
def new_stack(force: str, ready: int = 0, tired: int = 0, gens: dict | None = None) -> dict:
    return {"force": force, "ready": ready, "tired": tired, "gens": dict(gens or {})}


def size(stack: dict | None) -> int:
    return 0 if stack is None else stack["ready"] + stack["tired"] + len(stack["gens"])


def stacks(content: dict) -> list[dict]:
    city = content["city"]
    return [city, *content["field"]] if city else list(content["field"])


def stack_of(content: dict, force: str) -> dict | None:
    city = content["city"]
    if city and city["force"] == force:
        return city
    for st in content["field"]:
        if st["force"] == force:
            return st
    return None


def controller(state: dict, area: str) -> str | None:
    city = state["areas"][area]["city"]
    return city["force"] if city else None


def forces_in(content: dict) -> list[str]:
    return [s["force"] for s in stacks(content)]


def on_map(state: dict, force: str) -> bool:
    for c in state["areas"].values():  # noqa: SIM110 (a loop: faster than any() here)
        if stack_of(c, force):
            return True
    return False


def general_at(state: dict, gen: str) -> str | None:
    for area, content in state["areas"].items():
        for st in stacks(content):
            if gen in st["gens"]:
                return area
    return None


# -- factions -------------------------------------------------------------------------------
def faction(state: dict, force: str) -> str | None:
    """lianheng, alliance or neutral (None for an eliminated force)."""
    if force in state["eliminated"]:
        return None
    fixed = FIXED[force]
    if fixed:
        return fixed
    pos = state["track"].get(force)
    return None if pos is None else BOX_FACTION[pos["box"]]


FIXED = {f: force.fixed_faction for f, force in D.forces.items()}
BOX_FACTION = {box: b["faction"] for box, b in D.boxes.items()}


def directable_face_down(state: dict, side: str, force: str) -> bool:
    """§3.2: the forces a player may direct with any face-down card."""
    if force in state["eliminated"]:
        return False
    if side == "lianheng":
        return force == "QIN"
    pos = state["track"].get(force)
    return pos is not None and pos["box"] in ("REVENGE_QIN", "ANTI_QIN")


def rp(state: dict, side: str) -> int:
    """Ruling 9: the RP of the areas whose city holds a force of ``side``'s faction."""
    return sum(
        D.rp[a]
        for a, c in state["areas"].items()
        if c["city"] and faction(state, c["city"]["force"]) == side
    )


def rps(state: dict) -> dict[str, int]:
    """``rp`` of both sides (and "neutral", None: the rest), in one pass over the board."""
    out = dict.fromkeys(SIDES, 0)
    factions: dict[str, str | None] = {}  # (faction, per force)
    rp = D.rp
    for a, c in state["areas"].items():
        city = c["city"]
        if city:
            force = city["force"]
            fac = factions.get(force, 0)
            if fac == 0:
                fac = factions[force] = faction(state, force)
            out[fac] = out.get(fac, 0) + rp[a]
    return out


def qin_rp(state: dict) -> int:
    """§13: only the areas Qin itself controls."""
    return sum(
        D.rp[a] for a, c in state["areas"].items() if c["city"] and c["city"]["force"] == "QIN"
    )


# -- the diplomacy track --------------------------------------------------------------------
def column(box: str, layout: str) -> int:
    return LINEAR7.index(box) if layout == "linear7" else D.boxes[box]["column"]


def shifted(box: str, steps: int, layout: str) -> str:
    """The box ``steps`` columns along (negative: toward Serve Qin), stopping at the ends;
    a move into column 5 lands in Anti-Qin (Rulings 1-3)."""
    if layout == "linear7":
        i = max(0, min(len(LINEAR7) - 1, LINEAR7.index(box) + steps))
        return LINEAR7[i]
    col = D.boxes[box]["column"]
    new = max(0, min(5, col + steps))
    if new == col:
        return box
    return "ANTI_QIN" if new == 5 else BY_COLUMN[new]


def end_box(side: str, layout: str, box: str) -> str:
    """The favourable end for ``side`` (the attack shift, §3.4)."""
    if side == "lianheng":
        if layout != "linear7" and D.boxes[box]["column"] == 5:
            return box  # already rightmost (Ruling 2)
        return "ANTI_QIN"
    return "SERVE_QIN"


def favour(side: str) -> int:
    return -1 if side == "lianheng" else 1


# -- movement -------------------------------------------------------------------------------
COSTS = {(a, b): border.cost(a, b, D.constants) for (a, b), border in D.borders.items()}


def cost(frm: str, to: str) -> int | None:
    return COSTS.get((frm, to))


def path_cost(origin: str, path: list[str]) -> int | None:
    total, here = 0, origin
    for step in path:
        c = cost(here, step)
        if c is None:
            return None
        total, here = total + c, step
    return total


def hostile_to(state: dict, content: dict, fac: str | None, own: str) -> bool:
    """Whether ``content`` holds counters of a force that is not of faction ``fac``
    (enemy or Neutral), ``own`` (the moving force) aside."""
    city = content["city"]
    if city and city["force"] != own and faction(state, city["force"]) != fac:
        return True
    for s in content["field"]:  # noqa: SIM110 (a loop: faster than any() here)
        if s["force"] != own and faction(state, s["force"]) != fac:
            return True
    return False


def paths(state: dict, origin: str, force: str, ma: int) -> list[list[str]]:
    """Every simple path a stack of ``force`` may take from ``origin`` with ``ma`` MP: it
    stops on entering an area with enemy or Neutral counters (§8). (The paths of the
    empty board, ``tree``, those beyond a stop left out: the same paths, in the same
    order, as walking the board depth first.)"""
    fac = faction(state, force)
    out: list[list[str]] = []
    areas = state["areas"]
    hostile: dict[str, bool] = {}
    onward: list[bool] = []  # per path of the tree: taken, and a move may go on from it
    for path, parent, last in tree(origin, ma):
        if parent >= 0 and not onward[parent]:
            onward.append(False)
            continue
        out.append(list(path))
        stop = hostile.get(last)
        if stop is None:
            stop = hostile[last] = hostile_to(state, areas[last], fac, force)
        onward.append(not stop)
    return out


_TREES: dict[tuple[str, int], tuple] = {}


def tree(origin: str, ma: int) -> tuple:
    """Every simple path from ``origin`` with ``ma`` MP on an empty board, depth first:
    ``(path, index of the path it extends or -1, its last area)``; kept per origin and
    allowance (the board's borders do not change)."""
    found = _TREES.get((origin, ma))
    if found is None:
        out: list[tuple] = []

        def walk(here: str, left: int, path: tuple, parent: int) -> None:
            for nxt, c in STEPS[here]:
                if c > left or nxt == origin or nxt in path:
                    continue
                new = (*path, nxt)
                out.append((new, parent, nxt))
                walk(nxt, left - c, new, len(out) - 1)

        walk(origin, ma, (), -1)
        found = _TREES[origin, ma] = tuple(out)
    return found


# area -> ((neighbour, cost), ...) in ``D.neighbours`` order, the borders with a cost
STEPS = {
    a: tuple((n, COSTS[a, n]) for n in D.neighbours[a] if COSTS.get((a, n)) is not None)
    for a in D.areas
}


STEP_COST = {a: dict(steps) for a, steps in STEPS.items()}


def path_open(state: dict, origin: str, force: str, ma: int, path: Any) -> bool:
    """Whether ``path`` is one of ``paths(state, origin, force, ma)``, without listing them."""
    if not isinstance(path, list) or not path:
        return False
    if not all(isinstance(p, str) for p in path):
        return False
    fac = faction(state, force)
    here, left = origin, ma
    for i, nxt in enumerate(path):
        c = STEP_COST[here].get(nxt)
        if c is None or c > left or nxt == origin or nxt in path[:i]:
            return False
        if i < len(path) - 1 and hostile_to(state, state["areas"][nxt], fac, force):
            return False
        here, left = nxt, left - c
    return True


def ma_of(gens: list[str], activated: str | None) -> int:
    if activated and "horse" in D.generals[activated].icons and activated in gens:
        return D.constants.ma_horse
    return D.constants.ma_default


# -- placing counters (on a copy) ------------------------------------------------------------
def put(content: dict, stack: dict) -> None:
    """Ruling 29: join the force's city or field stack, else take an empty city, else
    stand in the field."""
    if size(stack) == 0:
        return
    same = stack_of(content, stack["force"])
    if same is not None:
        same["ready"] += stack["ready"]
        same["tired"] += stack["tired"]
        same["gens"].update(stack["gens"])
        return
    if content["city"] is None:
        content["city"] = stack
    else:
        content["field"].append(stack)
        content["field"].sort(key=lambda s: s["force"])


def tidy(content: dict) -> list[str]:
    """Drop empty stacks; Ruling 30: counters left alone in an uncontrolled area go into
    the city. Returns the forces among which someone must pick when the city is empty and
    several field stacks remain (Ruling 36 / §8 control), else []."""
    if content["city"] is not None and size(content["city"]) == 0:
        content["city"] = None
    content["field"] = [s for s in content["field"] if size(s)]
    if content["city"] is None and content["field"]:
        if len(content["field"]) == 1:
            content["city"] = content["field"].pop()
        else:
            return [s["force"] for s in content["field"]]
    return []


def promote(content: dict, force: str) -> None:
    """Move ``force``'s field stack into the empty city (not a move)."""
    for i, s in enumerate(content["field"]):
        if s["force"] == force:
            content["city"] = content["field"].pop(i)
            return


def remove_counters(stack: dict, ready: int, tired: int, gens: list[str]) -> None:
    stack["ready"] -= ready
    stack["tired"] -= tired
    for g in gens:
        stack["gens"].pop(g, None)


def counters_of(force: str, ready: int, tired: int, gens: list[str], gens_ready: bool) -> dict:
    return new_stack(force, ready, tired, {g: gens_ready for g in gens})


def any_counters(state: dict, force: str, extra: Any = None) -> bool:
    return on_map(state, force) or bool(extra)
