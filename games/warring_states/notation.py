"""A position notation for Warring States: one line of ASCII that holds a whole state.

Like chess FEN, but complete: the hidden parts (hands, decks in order, face-down discards,
sealed bids, standing instructions, the operation in progress with the decision owed) are
in it too, so a line is as secret as the state itself. ``dump`` writes a line, ``load``
reads one back; ``load(dump(s)) == s`` and ``dump(load(t)) == t`` for every position
reached in play.

The line is the header ``warring-states/1`` and space-separated ``name=value`` fields in
the fixed order of ``FIELDS``. The common parts are written for people:
``board=guanzhong:[Qin6@BaiQi],hedong:[Wei2]Qin3~1,...`` (the stack in brackets holds the
city), ``track=Qi:n2,Chu:anti*``, ``hands=KQ,EM2/gw,jk`` (Lianheng's cards upper case before
the ``/``, the Alliance's lower case after it). ``-`` is empty or none. The operation in
progress (``op``) is compact JSON, the one part too irregular to compress. The derived
fields ``rp``, ``qin`` and ``pending`` close the line: ``dump`` always writes them, ``load``
checks them against the position (and accepts their absence).

``load`` checks the syntax and the names (areas, forces, generals, cards, boxes, seats,
sides, phases, config switches), not whether the position could arise in play. Every error
is a ``NotationError`` (a ``ValueError``) whose message starts with the field at fault.
See ``docs/warring_states_notation.md``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from games.notation_json import read_json, write_json
from games.warring_states import board as B
from games.warring_states.data import SIDES
from games.warring_states.data import load as load_data
from games.warring_states.rules import pending
from games.warring_states.state import State, initial

D = load_data()
HEADER = "warring-states/1"
NONE = "-"
SEATS = ("first", "second")
PHASES = ("new", "bid", "play", "over")
POOL_WORDS = {"removed": "removed"}
BOXES = {
    "SERVE_QIN": "serve",
    "NEUTRAL_1": "n1",
    "NEUTRAL_2": "n2",
    "NEUTRAL_3": "n3",
    "AFRAID_OF_QIN": "afraid",
    "REVENGE_QIN": "revenge",
    "ANTI_QIN": "anti",
}
STANDING_MODES = ("ask", "never", "auto")
RESULT_KEYS = ("winner", "side", "reason", "qin_rp", "target")

# Card kinds: two letters, upper case for Lianheng, lower case for the Alliance (as white
# and black in chess FEN); the copy number follows (EM3 is L_EMERGENCY_MOBILIZATION:3).
_LIANHENG_CODES = {
    "LU_BUWEI": "LB",
    "HAN_FEI": "HF",
    "ZHANG_YI": "ZY",
    "FAN_JU": "FJ",
    "LI_SI": "LS",
    "KING_OF_QIN": "KQ",
    "MI_YUE": "MY",
    "NATIONAL_MOBILIZATION": "NM",
}
_ALLIANCE_CODES = {
    "GUO_WEI": "GW",
    "LORD_MENGCHANG": "MC",
    "LORD_XINLING": "XL",
    "LORD_CHUNSHEN": "CS",
    "JING_KE": "JK",
    "MAO_SUI": "MS",
    "GONGSUN_YAN": "GY",
    "SU_QIN": "SQ",
    "DOUBLE_RECRUITMENT": "DR",
}
_COMMON_CODES = {
    "MOUNTED_ATTACK": "MA",
    "DOUBLE_OPERATION": "DO",
    "BOLSTER_MORALE": "BM",
    "ELITE_CROSSBOWMEN": "XB",
    "EMERGENCY_MOBILIZATION": "EM",
    "LEGENDARY_GENERAL": "LG",
    "EMISSARY_ZHAO": "EZ",
    "EMISSARY_QI": "EQ",
    "EMISSARY_CHU": "EC",
    "EMISSARY_MINOR": "EK",
}


def _kind_codes() -> dict[str, str]:
    out = {}
    for kind, card in D.cards.items():
        bare = kind.split("_", 1)[1]
        own = _LIANHENG_CODES if card.side == "lianheng" else _ALLIANCE_CODES
        code = own.get(bare) or _COMMON_CODES[bare]
        out[kind] = code if card.side == "lianheng" else code.lower()
    return out


KIND_CODE: dict[str, str] = _kind_codes()
"""Card kind -> its code (``L_KING_OF_QIN`` -> ``KQ``, ``A_JING_KE`` -> ``jk``)."""
CODE_KIND: dict[str, str] = {code: kind for kind, code in KIND_CODE.items()}
assert len(CODE_KIND) == len(KIND_CODE), "card codes must be unique"

CARD_IDS = frozenset(
    card
    for side in SIDES
    for dropped in D.config_values["lianheng_surplus_card_dropped"]
    for card in D.deck(side, D.config({"lianheng_surplus_card_dropped": dropped}))
)
"""Every card id of either deck under any config (the surplus card changes the copies)."""

AREA_CODE = {a: a.lower() for a in D.areas}
CODE_AREA = {c: a for a, c in AREA_CODE.items()}
FORCE_CODE = {f: f.capitalize() for f in D.forces}
CODE_FORCE = {c: f for f, c in FORCE_CODE.items()}
GENERAL_CODE = {g: "".join(w.capitalize() for w in g.split("_")) for g in D.generals}
CODE_GENERAL = {c: g for g, c in GENERAL_CODE.items()}
CODE_BOX = {c: b for b, c in BOXES.items()}
SCENARIO_CODE = {s: s.lower() for s in D.scenarios}
CODE_SCENARIO = {c: s for s, c in SCENARIO_CODE.items()}

_COUNT = re.compile(r"[0-9]+\Z")
_CARD = re.compile(r"([A-Za-z]{2})([0-9]*)\Z")
_STACK = re.compile(r"([A-Z][a-z]+)([0-9]+)(?:~([0-9]+))?((?:@[A-Za-z]+~?)*)\Z")
_CELL = re.compile(r"([a-z]+):(?:\[([^\]]*)\])?(.*)\Z")


class NotationError(ValueError):
    """A line that is not a Warring States position; the message names the field."""


# ---------------------------------------------------------------------------------------
# Small codecs. Readers raise ValueError about the value only; ``load`` names the field.
def _count(text: str) -> int:
    if not _COUNT.match(text):
        raise ValueError(f"{text!r} is not a whole number")
    return int(text)


def _one_of(text: str, allowed: Any, what: str) -> str:
    if text not in allowed:
        raise ValueError(f"{text!r} is not a {what}: " + ", ".join(allowed))
    return text


def _or_none(text: str, read: Callable[[str], Any]) -> Any:
    return None if text == NONE else read(text)


def _write_or_none(value: Any, write: Callable[[Any], str] = str) -> str:
    return NONE if value is None else write(value)


def _items(text: str, what: str) -> list[str]:
    """A comma-separated list, or ``-`` for none."""
    if text == NONE:
        return []
    if not text or "" in text.split(","):
        raise ValueError(f"an empty item; write {NONE} for no {what}s")
    return text.split(",")


def _pair(text: str, names: tuple[str, str], read: Callable[[str, str], Any]) -> list[Any]:
    """Two parts separated by one ``/``: ``names[0]``'s before it, ``names[1]``'s after."""
    parts = text.split("/")
    if len(parts) != 2:
        raise ValueError(
            f"write {names[0]}'s part and {names[1]}'s part separated by one '/', not {text!r}"
        )
    out = []
    for name, part in zip(names, parts, strict=True):
        try:
            out.append(read(part, name))
        except ValueError as e:
            raise ValueError(f"{name}'s part: {e}") from None
    return out


def card_code(card: str | None) -> str:
    """``L_EMERGENCY_MOBILIZATION:3`` -> ``EM3``; an unknown card (redacted) -> ``?``."""
    if card is None:
        return "?"
    kind, _, copy = card.partition(":")
    return KIND_CODE[kind] + copy


def card_id(code: str) -> str | None:
    if code == "?":
        return None
    match = _CARD.match(code)
    kind = CODE_KIND.get(match.group(1)) if match else None
    if kind is None or match is None:
        raise ValueError(f"{code!r} is not a card code (like KQ, EM3, jk or dr1)")
    card = f"{kind}:{match.group(2)}" if match.group(2) else kind
    if card not in CARD_IDS:
        copies = sorted(c for c in CARD_IDS if c.split(":")[0] == kind)
        raise ValueError(
            f"{code!r}: the copies of {D.cards[kind].name} are " + ", ".join(map(card_code, copies))
        )
    return card


def _write_cards(cards: list) -> str:
    return ",".join(card_code(c) for c in cards) or NONE


def _cards(text: str, _side: str = "") -> list:
    return [card_id(c) for c in _items(text, "card")]


def _write_discards(pile: list) -> str:
    return ",".join(card_code(d["card"]) + ("^" if d["up"] else "") for d in pile) or NONE


def _discards(text: str, _side: str = "") -> list:
    out = []
    for item in _items(text, "card"):
        up = item.endswith("^")
        out.append({"card": card_id(item[:-1] if up else item), "up": up})
    return out


def _by_side(write: Callable[[Any], str]) -> Callable[[State, str], str]:
    return lambda st, key: "/".join(write(st[key][side]) for side in SIDES)


# ---------------------------------------------------------------------------------------
# The board: stacks, areas, the track, the pool.
def write_stack(stack: dict) -> str:
    text = FORCE_CODE[stack["force"]] + str(stack["ready"])
    if stack["tired"]:
        text += f"~{stack['tired']}"
    gens = stack["gens"]
    for g in sorted(gens, key=list(D.generals).index):
        text += "@" + GENERAL_CODE[g] + ("" if gens[g] else "~")
    return text


def read_stack(text: str) -> dict:
    match = _STACK.match(text)
    if match is None:
        raise ValueError(f"{text!r} is not a stack (like Qin4, Qin4~2@BaiQi or Wei1@WeiWuji~)")
    force, ready, tired, gens = match.groups()
    if force not in CODE_FORCE:
        raise ValueError(f"{force!r} is not a force: " + ", ".join(CODE_FORCE))
    out: dict[str, bool] = {}
    for g in gens.split("@")[1:]:
        name = g.rstrip("~")
        if name not in CODE_GENERAL:
            raise ValueError(f"{name!r} is not a general: " + ", ".join(CODE_GENERAL))
        if CODE_GENERAL[name] in out:
            raise ValueError(f"{name} is twice in the stack {text!r}")
        out[CODE_GENERAL[name]] = not g.endswith("~")
    return {
        "force": CODE_FORCE[force],
        "ready": int(ready),
        "tired": int(tired or 0),
        "gens": out,
    }


def _write_board(st: State) -> str:
    areas = st["areas"]
    if not areas:
        return NONE
    cells = []
    for area in D.areas:
        content = areas[area]
        if content["city"] is None and not content["field"]:
            continue
        city = "" if content["city"] is None else f"[{write_stack(content['city'])}]"
        field = "+".join(write_stack(s) for s in content["field"])
        cells.append(f"{AREA_CODE[area]}:{city}{field}")
    return ",".join(cells) or "empty"


def _board(text: str) -> dict:
    if text == NONE:
        return {}
    areas: dict[str, dict] = {a: {"city": None, "field": []} for a in D.areas}
    if text == "empty":
        return areas
    for cell in text.split(","):
        match = _CELL.match(cell)
        if match is None:
            raise ValueError(f"{cell!r} is not like area:[City3]Field2+Field1")
        name, city, field = match.groups()
        if "[" in field or "]" in field:
            raise ValueError(f"{cell!r}: only the city's stack is in brackets, once, first")
        if name not in CODE_AREA:
            raise ValueError(f"{name!r} is not an area: " + ", ".join(CODE_AREA))
        area = CODE_AREA[name]
        if areas[area]["city"] is not None or areas[area]["field"]:
            raise ValueError(f"{name} is written twice")
        if city is None and not field:
            raise ValueError(f"{name}: nothing in it; leave an empty area out")
        try:
            content = {
                "city": None if city is None else read_stack(city),
                "field": [read_stack(s) for s in field.split("+")] if field else [],
            }
        except ValueError as e:
            raise ValueError(f"{name}: {e}") from None
        areas[area] = content
    return areas


def _write_track(st: State) -> str:
    track = st["track"]
    order = [f for f in D.forces if f in track] + [f for f in track if f not in D.forces]
    return (
        ",".join(
            f"{FORCE_CODE[f]}:{BOXES[track[f]['box']]}" + ("*" if track[f]["received"] else "")
            for f in order
        )
        or NONE
    )


def _track(text: str) -> dict:
    out = {}
    for item in _items(text, "counter"):
        force, sep, box = item.partition(":")
        received = box.endswith("*")
        box = box.rstrip("*")
        if not sep or force not in CODE_FORCE or box not in CODE_BOX:
            raise ValueError(
                f"{item!r} is not like Qi:n2 or Chu:anti* (a force, one of the boxes "
                + ", ".join(CODE_BOX)
                + "; * when the counter has received its move)"
            )
        if CODE_FORCE[force] in out:
            raise ValueError(f"{force} is written twice")
        out[CODE_FORCE[force]] = {"box": CODE_BOX[box], "received": received}
    return out


def _write_pool(st: State) -> str:
    pool = st["pool"]
    gens = sorted(pool, key=list(D.generals).index)
    return (
        ",".join(
            GENERAL_CODE[g]
            + ("" if pool[g] == "available" else f":{POOL_WORDS.get(pool[g], pool[g])}")
            for g in gens
        )
        or NONE
    )


def _pool(text: str) -> dict:
    words = {w: v for v, w in POOL_WORDS.items()}
    out: dict[str, Any] = {}
    for item in _items(text, "general"):
        name, sep, where = item.partition(":")
        if name not in CODE_GENERAL or (sep and not where):
            raise ValueError(f"{item!r} is not like BaiQi (available), LiMu:3 or TianDan:removed")
        if CODE_GENERAL[name] in out:
            raise ValueError(f"{name} is written twice")
        if not sep:
            out[CODE_GENERAL[name]] = "available"
            continue
        if where in words:
            out[CODE_GENERAL[name]] = words[where]
        elif _COUNT.match(where):
            out[CODE_GENERAL[name]] = int(where)
        else:
            raise ValueError(f"{name}: {where!r} is removed or the turn it comes back")
    return out


def _forces(text: str) -> list[str]:
    out = []
    for item in _items(text, "force"):
        out.append(CODE_FORCE[_one_of(item, CODE_FORCE, "force")])
    return out


# ---------------------------------------------------------------------------------------
# Options, turn, seats.
def _write_config(cfg: dict) -> str:
    default = D.default_config.as_dict()
    if not cfg:
        return NONE
    if set(cfg) != set(default):
        return _write_json(cfg)
    changed = [f"{k}:{cfg[k]}" for k in default if cfg[k] != default[k]]
    return ",".join(changed) or "default"


def _config(text: str) -> dict:
    if text == NONE:
        return {}
    if text.startswith("{"):
        value = _json(text)
        if not isinstance(value, dict):
            raise ValueError("a JSON object")
        return value
    cfg = D.default_config.as_dict()
    if text == "default":
        return cfg
    for item in _items(text, "switch"):
        name, sep, value = item.partition(":")
        if not sep or name not in D.config_values:
            raise ValueError(f"{item!r} is not switch:value; the switches are " + ", ".join(cfg))
        values = {str(v): v for v in D.config_values[name]}
        cfg[name] = values[_one_of(value, values, f"value of {name}")]
    return cfg


def _write_seats(st: State, key: str, write: Callable[[Any], str]) -> str:
    return "/".join(write(st[key][s]) if s in st[key] else NONE for s in SEATS)


def _seat_dict(text: str, read: Callable[[str], Any]) -> dict:
    values = _pair(text, SEATS, lambda part, _: part if part == NONE else [read(part)])
    return {s: v[0] for s, v in zip(SEATS, values, strict=True) if v != NONE}


def _bid(text: str) -> int | None:
    return None if text == "?" else _count(text)


def _write_standing(standing: dict | None) -> str:
    if standing is None:
        return "?"
    cards = standing["cards"]
    return standing["mode"] + (":" + "+".join(KIND_CODE[k] for k in cards) if cards else "")


def _standing(text: str) -> dict | None:
    if text == "?":
        return None
    mode, sep, cards = text.partition(":")
    _one_of(mode, STANDING_MODES, "standing instruction")
    kinds = []
    for code in cards.split("+") if sep else []:
        kinds.append(CODE_KIND[_one_of(code, CODE_KIND, "card kind")])
    return {"mode": mode, "cards": kinds}


def _write_initiative(ini: dict) -> str:
    return _write_or_none(ini["side"]) + (":flipped" if ini["flipped"] else "")


def _initiative(text: str) -> dict:
    side, sep, flag = text.partition(":")
    if sep and flag != "flipped":
        raise ValueError(f"{text!r} is a side, then :flipped when the marker was flipped")
    return {
        "side": _or_none(side, lambda t: _one_of(t, SIDES, "side")),
        "flipped": bool(sep),
    }


def _write_result(result: dict | None) -> str:
    if result is None:
        return NONE
    if set(result) != set(RESULT_KEYS):
        return _write_json(result)
    return ",".join(f"{k}:{_write_or_none(result[k])}" for k in RESULT_KEYS)


def _result(text: str) -> dict | None:
    if text == NONE:
        return None
    if text.startswith("{"):
        return _json(text)
    out: dict[str, Any] = {}
    for item in _items(text, "part"):
        key, sep, value = item.partition(":")
        if not sep or key not in RESULT_KEYS or key in out:
            raise ValueError(
                f"{item!r}: the result is " + ",".join(f"{k}:..." for k in RESULT_KEYS)
            )
        if value == NONE:
            out[key] = None
        elif key in ("qin_rp", "target"):
            out[key] = _count(value)
        else:
            out[key] = value
    if set(out) != set(RESULT_KEYS):
        raise ValueError("the result names " + ", ".join(RESULT_KEYS))
    return out


# ---------------------------------------------------------------------------------------
# JSON for the operation in progress.
_write_json = write_json
_json = read_json


def _op(text: str) -> dict | None:
    if text == NONE:
        return None
    value = _json(text)
    if not isinstance(value, dict):
        raise ValueError(f"a JSON object, or {NONE}")
    return value


def _turn(text: str) -> tuple[int, int]:
    turn, sep, turns = text.partition("/")
    if not sep:
        raise ValueError(f"{text!r} is the turn, '/', the number of turns (like 2/5)")
    return _count(turn), _count(turns)


# ---------------------------------------------------------------------------------------
# The fields, in order: name, writer, reader (which sets its keys of the state).
_Writer = Callable[[State], str]
_Reader = Callable[[str, State], None]


def _set(*keys: str, read: Callable[[str], Any]) -> _Reader:
    def reader(text: str, st: State) -> None:
        value = read(text)
        values = value if len(keys) > 1 else (value,)
        for key, v in zip(keys, values, strict=True):
            st[key] = v

    return reader


def _sides_pair(read: Callable[[str, str], Any]) -> Callable[[str], dict]:
    return lambda t: dict(zip(SIDES, _pair(t, SIDES, read), strict=True))


_FIELDS: tuple[tuple[str, _Writer, _Reader], ...] = (
    (
        "scenario",
        lambda s: _write_or_none(s["scenario"], SCENARIO_CODE.__getitem__),
        _set(
            "scenario",
            read=lambda t: _or_none(
                t, lambda x: CODE_SCENARIO[_one_of(x, CODE_SCENARIO, "scenario")]
            ),
        ),
    ),
    (
        "victory",
        lambda s: s["victory"],
        _set("victory", read=lambda t: _one_of(t, ("basic", "bid"), "victory rule")),
    ),
    ("config", lambda s: _write_config(s["config"]), _set("config", read=_config)),
    ("turn", lambda s: f"{s['turn']}/{s['turns']}", _set("turn", "turns", read=_turn)),
    ("target", lambda s: str(s["target"]), _set("target", read=_count)),
    ("phase", lambda s: s["phase"], _set("phase", read=lambda t: _one_of(t, PHASES, "phase"))),
    (
        "sides",
        lambda s: _write_seats(s, "sides", str),
        _set("sides", read=lambda t: _seat_dict(t, lambda x: _one_of(x, SIDES, "side"))),
    ),
    (
        "bids",
        lambda s: _write_seats(s, "bids", lambda b: "?" if b is None else str(b)),
        _set("bids", read=lambda t: _seat_dict(t, _bid)),
    ),
    (
        "active",
        lambda s: _write_or_none(s["active"]),
        _set("active", read=lambda t: _or_none(t, lambda x: _one_of(x, SIDES, "side"))),
    ),
    ("passes", lambda s: str(s["passes"]), _set("passes", read=_count)),
    (
        "initiative",
        lambda s: _write_initiative(s["initiative"]),
        _set("initiative", read=_initiative),
    ),
    ("track", _write_track, _set("track", read=_track)),
    ("board", _write_board, _set("areas", read=_board)),
    ("pool", _write_pool, _set("pool", read=_pool)),
    (
        "eliminated",
        lambda s: ",".join(FORCE_CODE[f] for f in s["eliminated"]) or NONE,
        _set("eliminated", read=_forces),
    ),
    (
        "hands",
        lambda s: _by_side(_write_cards)(s, "hands"),
        _set("hands", read=_sides_pair(_cards)),
    ),
    (
        "decks",
        lambda s: _by_side(_write_cards)(s, "decks"),
        _set("decks", read=_sides_pair(_cards)),
    ),
    (
        "discards",
        lambda s: _by_side(_write_discards)(s, "discards"),
        _set("discards", read=_sides_pair(_discards)),
    ),
    (
        "removed",
        lambda s: _by_side(_write_cards)(s, "removed"),
        _set("removed", read=_sides_pair(_cards)),
    ),
    (
        "standing",
        lambda s: _write_seats(s, "standing", _write_standing),
        _set("standing", read=lambda t: _seat_dict(t, _standing)),
    ),
    ("prompts", lambda s: str(s["prompts"]), _set("prompts", read=_count)),
    ("result", lambda s: _write_result(s["result"]), _set("result", read=_result)),
    ("op", lambda s: _write_or_none(s["op"], _write_json), _set("op", read=_op)),
)

FIELDS: tuple[str, ...] = tuple(f[0] for f in _FIELDS)
"""The stored fields in their fixed order (the derived ``DERIVED`` ones come after)."""
KEYS: dict[str, tuple[str, ...]] = {
    name: {"board": ("areas",), "turn": ("turn", "turns")}.get(name, (name,)) for name in FIELDS
}
"""The state keys each field holds (together: every key of ``state.initial()``)."""


def write_pending(st: State) -> str:
    """The decisions owed, ``first:action`` (``-`` when none)."""
    return ",".join(f"{seat}:{kind}" for seat, kind in sorted(pending(st).items())) or NONE


_DERIVED: tuple[tuple[str, _Writer], ...] = (
    ("rp", lambda s: "/".join(str(B.rp(s, side)) for side in SIDES)),
    ("qin", lambda s: str(B.qin_rp(s))),
    ("pending", write_pending),
)
DERIVED: tuple[str, ...] = tuple(f[0] for f in _DERIVED)
"""Fields worked out from the position: RP by side, Qin's own RP, the decisions owed."""


def dump(state: State) -> str:
    """The position as one line of ASCII (hidden parts included)."""
    fields = [f"{name}={write(state)}" for name, write, _ in _FIELDS]
    fields += [f"{name}={write(state)}" for name, write in _DERIVED]
    return " ".join([HEADER, *fields])


def load(line: str) -> State:
    """The position a line describes. Raises ``NotationError`` naming the field at fault."""
    if not isinstance(line, str):
        raise NotationError(f"position: expected a line of text, not {type(line).__name__}")
    if not line.isascii() or not line.isprintable():
        raise NotationError("position: a position is one line of printable ASCII")
    tokens = line.split(" ")
    if tokens[0] != HEADER:
        raise NotationError(
            f"header: a Warring States position starts with {HEADER!r}, not {tokens[0][:40]!r}"
        )
    st = initial()
    previous = "header"
    for i, (name, _, read) in enumerate(_FIELDS, start=1):
        if i >= len(tokens):
            raise NotationError(f"{name}: missing (the position ends after {previous!r})")
        got, sep, value = tokens[i].partition("=")
        if got != name or not sep:
            raise NotationError(
                f"{name}: expected {name}=... as field {i} (after {previous!r}), "
                f"found {tokens[i][:40]!r}"
            )
        try:
            read(value, st)
        except ValueError as e:
            raise NotationError(f"{name}: {e}") from None
        previous = name
    at = 0  # the derived fields may be left out, but come in their order
    for token in tokens[len(_FIELDS) + 1 :]:
        got, sep, value = token.partition("=")
        if got not in DERIVED[at:] or not sep:
            raise NotationError(
                f"{got or token[:40]}: unexpected after {previous!r}; only "
                + ", ".join(f"{d}=..." for d in DERIVED[at:])
                + " may follow, in that order"
            )
        at = DERIVED.index(got) + 1
        try:
            actual = dict(_DERIVED)[got](st)
        except (AttributeError, KeyError, IndexError, TypeError, ValueError) as e:
            raise NotationError(
                f"{got}: it cannot be worked out from this position ({e!r})"
            ) from None
        if value != actual:
            raise NotationError(f"{got}: the text says {value!r} but the position gives {actual!r}")
        previous = got
    return _as_laid_out(st)


def _as_laid_out(st: State) -> State:
    """The board's dicts in the order a live game holds them: the rules read areas, counters
    and generals in that order (the options they offer, and so random play, follow it), and
    a game lays them out from its ``board_set`` event with sorted keys, as the event store
    gives events back. A snapshot read from a line must offer what the live game offers."""
    for key in ("areas", "track", "pool"):
        st[key] = dict(sorted(st[key].items()))
    return st
