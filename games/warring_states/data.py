"""The data of Warring States (``data.json``, a copy of ``shared/rules/warring_states_data.json``)
as a frozen, validated model: areas, borders, forces, generals, the diplomacy track, both
setups, the Battle Result Table, both decks, and the ``config`` switches as one object.

Every reconstructed (R) value the rules use is read from here, never written in code.
Loading validates the file (borders name known areas, setups name known forces, the table
is 6 x 4, decks hold 23 cards), so a bad edit fails at import, not in the middle of a game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from functools import cache
from pathlib import Path
from typing import Any

from games.i18n import said

PATH = Path(__file__).with_name("data.json")
SIDES = ("lianheng", "alliance")


@dataclass(frozen=True)
class Border:
    a: str
    b: str
    kind: str  # normal | mountain | waterway
    downstream: str | None  # for a waterway: the area the water flows into

    def cost(self, frm: str, to: str, c: Constants) -> int:
        if self.kind == "normal":
            return c.cost_normal
        if self.kind == "mountain":
            return c.cost_mountain
        return c.cost_waterway_downstream if to == self.downstream else c.cost_waterway_upstream


@dataclass(frozen=True)
class General:
    id: str
    force: str
    icons: tuple[str, ...]


@dataclass(frozen=True)
class Force:
    id: str
    kind: str
    has_counter: bool
    fixed_faction: str | None
    generals: tuple[str, ...]


@dataclass(frozen=True)
class Card:
    id: str  # the card's kind, e.g. L_EMERGENCY_MOBILIZATION
    side: str
    name: str
    count: int
    character: bool
    brk: bool
    linked: tuple[str, ...]
    response_only: bool


@dataclass(frozen=True)
class Constants:
    ma_default: int
    ma_horse: int
    cost_normal: int
    cost_mountain: int
    cost_waterway_downstream: int
    cost_waterway_upstream: int
    max_counters_per_military_op: int
    max_participants_per_side: int
    city_defender_bonus: int
    die_min: int
    die_max: int
    draw_more_rp: int
    draw_fewer_or_equal_rp: int
    deck_size: int


@dataclass(frozen=True)
class Config:
    """The ``config`` switches: each the file's value, or one of its alternatives."""

    diplomacy_track_layout: str = "revenge_subbox"
    alliance_elite_crossbowmen: str = "chinese_card"
    alliance_emergency_mobilization_a: str = "revenge_or_anti_qin"
    lianheng_elite_crossbowmen_drm: int = 2
    lianheng_surplus_card_dropped: str = "L_NATIONAL_MOBILIZATION"
    qd_hedong_holder: str = "QIN"
    lost_general_return: str = "next_turn"
    retreat_destination: str = "last_area"

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    turns: int
    qin_victory_rp: int
    initiative: str
    diplomacy: dict[str, dict[str, Any]]
    areas: dict[str, dict[str, Any]]
    absent: tuple[str, ...]
    off_board_generals: tuple[str, ...]


@dataclass(frozen=True)
class Data:
    constants: Constants
    areas: tuple[str, ...]
    rp: dict[str, int]
    names: dict[str, str]
    borders: dict[tuple[str, str], Border]
    neighbours: dict[str, tuple[str, ...]]
    forces: dict[str, Force]
    generals: dict[str, General]
    boxes: dict[str, dict[str, Any]]  # box id -> column, faction
    scenarios: dict[str, Scenario]
    table: tuple[tuple[tuple[int, int], ...], ...]  # [die-1][strength-1] -> (no general, general)
    cards: dict[str, Card]  # card kind -> card
    decks: dict[str, tuple[str, ...]]  # side -> card kinds, one entry per copy, file order
    config_values: dict[str, tuple[Any, ...]]  # switch -> (value, *alternatives)
    default_config: Config

    def border(self, a: str, b: str) -> Border | None:
        return self.borders.get((a, b))

    def config(self, overrides: dict[str, Any] | None = None) -> Config:
        """The file's switches with ``overrides``; a value that is neither the file's nor
        one of its alternatives is refused, naming the choices."""
        for name, value in (overrides or {}).items():
            if name not in self.config_values:
                raise ValueError(said("there is no config switch {name!r}", name=name))
            if value not in self.config_values[name]:
                choices = ", ".join(map(str, self.config_values[name]))
                raise ValueError(
                    said(
                        "{name} is one of {choices}, not {value!r}",
                        name=name,
                        choices=choices,
                        value=value,
                    )
                )
        return replace(self.default_config, **overrides) if overrides else self.default_config

    def deck(self, side: str, cfg: Config) -> tuple[str, ...]:
        """Card ids of one side's deck under ``cfg``: ``KIND`` for a single copy,
        ``KIND:n`` for the n-th copy; the surplus Lianheng card (Ruling 46) is dropped."""
        kinds = list(self.decks[side])
        filed = self.config_values["lianheng_surplus_card_dropped"][0]
        dropped = cfg.lianheng_surplus_card_dropped
        if side == "lianheng" and dropped != filed:
            # The file's deck already lacks one ``filed`` card: put it back, drop ``dropped``.
            kinds.insert(kinds.index(filed), filed)
            kinds.remove(dropped)
        out: list[str] = []
        for kind in dict.fromkeys(kinds):
            n = kinds.count(kind)
            out += [kind] if n == 1 else [f"{kind}:{i}" for i in range(1, n + 1)]
        return tuple(out)


def kind_of(card: str) -> str:
    return card.split(":", 1)[0]


def _problem(message: str) -> ValueError:
    return ValueError(f"{PATH.name}: {message}")


@cache
def load() -> Data:
    raw = json.loads(PATH.read_text(encoding="utf-8"))
    return parse(raw)


def parse(raw: dict[str, Any]) -> Data:
    consts = {f.name: raw["constants"][f.name] for f in fields(Constants)}
    constants = Constants(**consts)
    areas = tuple(a["id"] for a in raw["areas"])
    if len(set(areas)) != len(areas):
        raise _problem("an area id is repeated")
    rp = {a["id"]: int(a["rp"]) for a in raw["areas"]}
    names = {a["id"]: a["en"] for a in raw["areas"]}
    borders: dict[tuple[str, str], Border] = {}
    for b in raw["borders"]:
        if b["a"] not in rp or b["b"] not in rp:
            raise _problem(f"border {b['a']}-{b['b']} names an unknown area")
        kind = b["type"]
        if kind == "mountain_waterway":
            kind = "waterway"
        if kind not in ("normal", "mountain", "waterway"):
            raise _problem(f"border {b['a']}-{b['b']} has an unknown type {b['type']!r}")
        down = b.get("downstream")
        if kind == "waterway" and down not in (b["a"], b["b"]):
            raise _problem(f"waterway {b['a']}-{b['b']} has no downstream end")
        border = Border(b["a"], b["b"], kind, down)
        borders[b["a"], b["b"]] = borders[b["b"], b["a"]] = border
    for a, b in raw.get("non_adjacent_on_purpose", []):
        if (a, b) in borders:
            raise _problem(f"{a} and {b} are listed as not adjacent but share a border")
    neighbours = {a: tuple(sorted(b for (x, b) in borders if x == a)) for a in areas}
    forces: dict[str, Force] = {}
    generals: dict[str, General] = {}
    for f in raw["forces"]:
        gens = tuple(g["id"] for g in f["generals"])
        forces[f["id"]] = Force(
            f["id"], f["kind"], bool(f["diplomacy_counter"]), f["fixed_faction"], gens
        )
        for g in f["generals"]:
            if len(g["icons"]) != 1:
                raise _problem(f"general {g['id']} carries {len(g['icons'])} icons, not one")
            generals[g["id"]] = General(g["id"], f["id"], tuple(g["icons"]))
    track = raw["diplomacy_track"]
    boxes: dict[str, dict[str, Any]] = {}
    for col in track["columns"]:
        for box in col["boxes"]:
            boxes[box["id"]] = {"column": col["index"], "faction": col["faction"]}
    scenarios: dict[str, Scenario] = {}
    for s in raw["scenarios"]:
        for force, pos in s["diplomacy"].items():
            if force not in forces or not forces[force].has_counter:
                raise _problem(f"{s['id']}: {force} has no diplomacy counter")
            if boxes.get(pos["box"], {}).get("column") != pos["column"]:
                raise _problem(f"{s['id']}: {force} box {pos['box']} is not column {pos['column']}")
        for area, content in s["areas"].items():
            if area not in rp:
                raise _problem(f"{s['id']}: unknown area {area}")
            stacks = ([content["city"]] if content.get("city") else []) + content.get("field", [])
            for st in stacks:
                if st["force"] not in forces:
                    raise _problem(f"{s['id']} {area}: unknown force {st['force']}")
                for g in st.get("generals", []):
                    if generals.get(g, General("", "", ())).force != st["force"]:
                        raise _problem(f"{s['id']} {area}: {g} is not a general of {st['force']}")
        scenarios[s["id"]] = Scenario(
            s["id"],
            s["en"],
            int(s["turns"]),
            int(s["qin_victory_rp"]),
            s["initiative"],
            s["diplomacy"],
            s["areas"],
            tuple(s.get("absent_forces", [])),
            tuple(s.get("off_board_generals", [])),
        )
    brt = raw["battle_result_table"]
    rows = sorted(brt["rows"], key=lambda r: r["die"])
    if [r["die"] for r in rows] != list(range(1, 7)) or any(len(r["hits"]) != 4 for r in rows):
        raise _problem("the Battle Result Table is not 6 rows of 4 columns")
    table = tuple(tuple((int(h[0]), int(h[1])) for h in r["hits"]) for r in rows)
    cards: dict[str, Card] = {}
    decks: dict[str, tuple[str, ...]] = {}
    for side in SIDES:
        kinds: list[str] = []
        for c in raw["decks"][side]:
            cards[c["id"]] = Card(
                c["id"],
                side,
                c["name"],
                int(c["count"]),
                bool(c["character"]),
                bool(c["break"]),
                tuple(c.get("linked_forces", [])),
                bool(c.get("response_only", False)),
            )
            kinds += [c["id"]] * int(c["count"])
        decks[side] = tuple(kinds)
    config_values = {k: (v["value"], *v["alternatives"]) for k, v in raw["config"].items()}
    known = {f.name for f in fields(Config)}
    if set(config_values) != known:
        raise _problem(f"config switches {sorted(set(config_values) ^ known)} not modelled")
    default = Config(**{k: v[0] for k, v in config_values.items()})
    data = Data(
        constants,
        areas,
        rp,
        names,
        borders,
        neighbours,
        forces,
        generals,
        boxes,
        scenarios,
        table,
        cards,
        decks,
        config_values,
        default,
    )
    for side in SIDES:
        for cfg in (
            default,
            data.config(
                {
                    "lianheng_surplus_card_dropped": config_values["lianheng_surplus_card_dropped"][
                        -1
                    ]
                }
            ),
        ):
            if len(data.deck(side, cfg)) != constants.deck_size:
                raise _problem(f"the {side} deck does not hold {constants.deck_size} cards")
    return data
