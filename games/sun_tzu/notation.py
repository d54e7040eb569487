"""A position notation for Sun Tzu: one line of ASCII that holds a whole ``State``.

Like chess FEN, but complete: hidden parts (hands, decks in order, plans) are in it too, so
a line is as secret as the state itself. ``format`` writes a line, ``parse`` reads one back;
``parse(format(s)) == s`` and ``format(parse(t)) == t`` for every reachable position.

The line is space-separated ``name=value`` fields in the fixed order of ``FIELDS`` after
the header ``sun-tzu/1``. Common parts are written for people (``board=Qin:b3B1,Chu:-,...``,
``hands=1,2,3,+1/1,2,plague``, blue's part before the ``/``, red's after; ``-`` is empty or
none). The rare structured parts (plans, queue, battle record, tasks, after-battles window,
outcome) are compact JSON with sorted keys, spaces inside strings written ``\\u0020`` so that
no field holds a space. A last ``pending=`` field shows the decisions owed; ``format``
always writes it, ``parse`` checks it against the position (and accepts its absence).

``parse`` checks the syntax and the names (cards, Warlords, provinces, seats, phases), not
whether the position could arise in play. Every error is a ``ValueError`` whose message
starts with the name of the field at fault. See ``docs/notation.md``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from games.notation_json import read_json, write_json
from games.sun_tzu.components import (
    CARD_ORDER,
    EVENT_CARDS,
    PROVINCE_INDEX,
    PROVINCES,
    SEATS,
    VARIANTS,
    WARLORDS_OF,
)
from games.sun_tzu.flow import owed
from games.sun_tzu.state import DRAWN, State

HEADER = "sun-tzu/1"
NONE = "-"
PHASES = (
    *("new", "setup", "warlords", "place", "prebattle"),
    *("battle", "after", "scored", "draw", "over"),
)
STAGES = ("effects", "after")  # "" (between battles) is written "-"
SEAT_INDEX = {name: i for i, name in enumerate(SEATS)}
WARLORD_SEAT = {w: seat for seat, names in enumerate(WARLORDS_OF) for w in names}
# Where a task's armies go: a pool, a province, or a 6-marker box.
DESTINATIONS = frozenset(("reserve", "aside", *PROVINCES, *(f"marker@{p}" for p in PROVINCES)))

_COUNT = re.compile(r"[0-9]+\Z")
_SIGNED = re.compile(r"[+-]?[0-9]+\Z")
_DISPLAY = re.compile(r"[0-9]{3}\Z")
_BOARD = re.compile(r"(?:b([0-9]+))?(?:r([0-9]+))?(?:B([0-9]+))?(?:R([0-9]+))?\Z")


# ---------------------------------------------------------------------------------------
# Small value codecs. Readers raise ValueError with a message about the value only;
# ``parse`` puts the field name in front.
def _count(text: str) -> int:
    if not _COUNT.match(text):
        raise ValueError(f"{text!r} is not a whole number")
    return int(text)


def _signed(text: str) -> int:
    if not _SIGNED.match(text):
        raise ValueError(f"{text!r} is not a whole number (write +2, 0 or -3)")
    return int(text)


def _write_signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _flag(text: str) -> bool:
    if text not in ("yes", "no"):
        raise ValueError(f"{text!r} is neither yes nor no")
    return text == "yes"


def _write_flag(value: bool) -> str:
    return "yes" if value else "no"


def _names(text: str, allowed: Any, what: str) -> tuple[str, ...]:
    """A comma-separated list of names, or ``-`` for none."""
    if text == NONE:
        return ()
    if not text:
        raise ValueError(f"empty; write {NONE} for no {what}s")
    items = tuple(text.split(","))
    for item in items:
        if item not in allowed:
            raise ValueError(f"{item!r} is not a {what}")
    return items


def _write_names(items: Any) -> str:
    return ",".join(items) or NONE


def _cards(text: str) -> tuple[str, ...]:
    return _names(text, CARD_ORDER, "card")


def _provinces(text: str) -> tuple[int, ...]:
    return tuple(PROVINCE_INDEX[p] for p in _names(text, PROVINCE_INDEX, "province"))


def _write_provinces(items: Any) -> str:
    return _write_names(PROVINCES[p] for p in items)


def _seat(text: str) -> int:
    if text not in SEAT_INDEX:
        raise ValueError(f"{text!r} is not a seat (blue or red)")
    return SEAT_INDEX[text]


def _seat_or_none(text: str) -> int | None:
    return None if text == NONE else _seat(text)


def _write_seat_or_none(seat: int | None) -> str:
    return NONE if seat is None else SEATS[seat]


def _pair(text: str, read: Callable[[str, int], Any]) -> tuple[Any, Any]:
    """Blue's part and red's part, separated by one ``/``."""
    parts = text.split("/")
    if len(parts) != 2:
        raise ValueError(f"write blue's part and red's part separated by one '/', not {text!r}")
    out = []
    for seat, part in enumerate(parts):
        try:
            out.append(read(part, seat))
        except ValueError as e:
            raise ValueError(f"{SEATS[seat]}'s part: {e}") from None
    return out[0], out[1]


def _write_pair(pair: Any, write: Callable[[Any], str]) -> str:
    return f"{write(pair[0])}/{write(pair[1])}"


def _warlords(text: str, seat: int) -> tuple[str, ...]:
    names = _names(text, WARLORD_SEAT, "Warlord")
    for name in names:
        if WARLORD_SEAT[name] != seat:
            raise ValueError(f"{name!r} is a {SEATS[1 - seat]} Warlord")
    return names


def _placement(text: str, seat: int) -> tuple[str, ...] | None:
    if text == NONE:
        return None
    cards = _cards(text)
    if len(cards) != len(PROVINCES):
        raise ValueError(f"a placement is {len(PROVINCES)} cards in board order, or {NONE}")
    return cards


# ---------------------------------------------------------------------------------------
# JSON for the rare structured parts.
_write_json = write_json
_json = read_json


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_play(play: Any, where: str) -> dict[str, Any]:
    if not isinstance(play, dict) or not isinstance(play.get("warlord"), str):
        raise ValueError(f'{where}: a Warlord play is an object with a "warlord"')
    return play


def _check_provinces(names: Any, where: str) -> None:
    if not isinstance(names, list) or any(n not in PROVINCE_INDEX for n in names):
        raise ValueError(f"{where} is a list of province names")


def _plan(plan: Any, seat: int) -> dict[str, Any]:
    who = SEATS[seat]
    if not isinstance(plan, dict):
        raise ValueError(f"{who}'s plan is not an object")
    plays = plan.get("warlords", [])
    if not isinstance(plays, list):
        raise ValueError(f"{who}'s warlords is not a list")
    for play in plays:
        _check_play(play, f"{who}'s warlords")
    if not isinstance(plan.get("arm", {}), dict):
        raise ValueError(f"{who}'s arm is not an object")
    if "order" in plan:
        _check_provinces(plan["order"], f"{who}'s order")
    supply = plan.get("supply", "largest")
    if supply not in ("largest", "smallest"):
        _check_provinces(supply, f'{who}\'s supply ("largest", "smallest" or a list)')
    return plan


def _plans(text: str) -> tuple[dict[str, Any], dict[str, Any]]:
    if text == NONE:
        return ({}, {})
    value = _json(text)
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError("a JSON list of two plans, blue's then red's")
    return _plan(value[0], 0), _plan(value[1], 1)


def _write_plans(plans: tuple) -> str:
    return NONE if plans == ({}, {}) else _write_json(list(plans))


def _queue(text: str) -> tuple[tuple[int, dict[str, Any]], ...]:
    if text == NONE:
        return ()
    value = _json(text)
    if not isinstance(value, list):
        raise ValueError('a JSON list of ["blue" or "red", play] pairs')
    out = []
    for item in value:
        if not isinstance(item, list) or len(item) != 2:
            raise ValueError('each entry is a ["blue" or "red", play] pair')
        out.append((_seat(item[0]), _check_play(item[1], "entry")))
    return tuple(out)


def _write_queue(queue: tuple) -> str:
    return _write_json([[SEATS[s], play] for s, play in queue]) if queue else NONE


def _object_or_none(text: str) -> dict[str, Any] | None:
    if text == NONE:
        return None
    value = _json(text)
    if not isinstance(value, dict):
        raise ValueError(f"a JSON object, or {NONE}")
    return value


def _write_object_or_none(value: dict | None) -> str:
    return NONE if value is None else _write_json(value)


def _battle(text: str) -> dict[str, Any] | None:
    battle = _object_or_none(text)
    if battle is not None and battle.get("province") not in PROVINCE_INDEX:
        raise ValueError('the battle record needs the "province" fought')
    return battle


def _tasks(text: str) -> tuple[dict[str, Any], ...]:
    if text == NONE:
        return ()
    value = _json(text)
    if not isinstance(value, list):
        raise ValueError("a JSON list of task objects")
    for task in value:
        ok = (
            isinstance(task, dict)
            and task.get("seat") in SEAT_INDEX
            and task.get("kind") in ("cost", "supply")
            and _is_int(task.get("n"))
            and task.get("to") in DESTINATIONS
            and task.get("province", "Qin") in PROVINCE_INDEX
        )
        if not ok:
            raise ValueError(
                'a task is an object with "seat", "kind" (cost or supply), "n", "to" '
                'and a "province"'
            )
    return tuple(value)


def _write_tasks(tasks: tuple) -> str:
    return _write_json(list(tasks)) if tasks else NONE


def _window(text: str) -> tuple[tuple | None, tuple | None]:
    if text == NONE:
        return ((), ())
    value = _json(text)
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError("a JSON list of two answers, blue's then red's (null = owed)")
    out: list[tuple | None] = []
    for seat, answer in enumerate(value):
        if answer is None:
            out.append(None)
            continue
        if not isinstance(answer, list):
            raise ValueError(f"{SEATS[seat]}'s answer is neither null nor a list of plays")
        out.append(tuple(_check_play(p, f"{SEATS[seat]}'s answer") for p in answer))
    return out[0], out[1]


def _write_window(window: tuple) -> str:
    if window == ((), ()):
        return NONE
    return _write_json([None if w is None else list(w) for w in window])


# ---------------------------------------------------------------------------------------
# The composite fields.
def _write_displays(displays: tuple) -> str:
    return ",".join("".join(str(n) for n in d) for d in displays) or NONE


def _displays(text: str) -> tuple[tuple[int, ...], ...]:
    if text == NONE:
        return ()
    items = text.split(",")
    if len(items) != len(PROVINCES) or not all(_DISPLAY.match(d) for d in items):
        raise ValueError(
            f"{len(PROVINCES)} displays in board order, each its three points "
            f"(e.g. 124), or {NONE} before setup"
        )
    return tuple(tuple(int(c) for c in d) for d in items)


def _write_board(st: State) -> str:
    cells = []
    for p, name in enumerate(PROVINCES):
        counts = (*st.armies[p], *st.markers[p])
        spec = "".join(f"{tag}{n}" for tag, n in zip("brBR", counts, strict=True) if n)
        cells.append(f"{name}:{spec or NONE}")
    return ",".join(cells)


def _board(text: str) -> tuple[tuple, tuple]:
    cells = text.split(",")
    if len(cells) != len(PROVINCES):
        raise ValueError(f"{len(PROVINCES)} provinces in board order: " + ",".join(PROVINCES))
    armies, markers = [], []
    for name, cell in zip(PROVINCES, cells, strict=True):
        got, sep, spec = cell.partition(":")
        if got != name or not sep:
            raise ValueError(f"expected {name}:<armies> in board order, found {cell!r}")
        match = _BOARD.match("" if spec == NONE else spec)
        if not spec or match is None:
            raise ValueError(f"{name}: {spec!r} is not like b3, r2B1 or {NONE}")
        b, r, bm, rm = (int(g) if g else 0 for g in match.groups())
        armies.append((b, r))
        markers.append((bm, rm))
    return tuple(armies), tuple(markers)


def _recycled(text: str) -> tuple[tuple[int, int], ...]:
    if text == NONE:
        return ()
    out = []
    for item in text.split(","):
        seat, sep, province = item.partition("@")
        if not sep or province not in PROVINCE_INDEX:
            raise ValueError(f"{item!r} is not like red@Wu")
        out.append((_seat(seat), PROVINCE_INDEX[province]))
    return tuple(out)


def _write_recycled(recycled: tuple) -> str:
    return ",".join(f"{SEATS[s]}@{PROVINCES[p]}" for s, p in recycled) or NONE


def _one_of(text: str, allowed: tuple[str, ...], what: str) -> str:
    if text not in allowed:
        raise ValueError(f"{text!r} is not a {what}: " + ", ".join(allowed))
    return text


def _event_or_none(text: str) -> str | None:
    return None if text == NONE else _one_of(text, EVENT_CARDS, "event card")


def _province_or_none(text: str) -> int | None:
    return None if text == NONE else PROVINCE_INDEX[_one_of(text, PROVINCES, "province")]


def write_pending(st: State) -> str:
    """The decisions owed, as ``blue:place,red:place`` (``-`` when none)."""
    return ",".join(f"{SEATS[s]}:{kind}" for s, kind in sorted(owed(st).items())) or NONE


# ---------------------------------------------------------------------------------------
# The fields, in order: name, the State attributes it holds, writer, reader. A reader
# returns the attribute values in the order of its attributes.
_Writer = Callable[[State], str]
_Reader = Callable[[str], tuple]


def _write_plagues(played: int, back: tuple[int | None, int | None]) -> str:
    where = [
        f"{SEATS[s]}@{'drawn' if at == DRAWN else at}"
        for s, at in enumerate(back)
        if at is not None
    ]
    return ",".join([str(played), *where])


def _plagues(text: str) -> tuple[int, tuple[int | None, int | None]]:
    """``3`` or ``3,red@4`` / ``3,red@drawn``: Plague cards played, then where a seat's
    recycled Plague is (cards above it in its deck, or drawn)."""
    played, *rest = text.split(",")
    back: list[int | None] = [None, None]
    for part in rest:
        seat, sep, at = part.partition("@")
        if seat not in SEAT_INDEX or not sep or back[SEAT_INDEX[seat]] is not None:
            raise ValueError(f"expected seat@position or seat@drawn, once per seat, not {part!r}")
        back[SEAT_INDEX[seat]] = DRAWN if at == "drawn" else _count(at)
    return _count(played), (back[0], back[1])


_FIELDS: tuple[tuple[str, tuple[str, ...], _Writer, _Reader], ...] = (
    (
        "variant",
        ("variant",),
        lambda s: s.variant,
        lambda t: (_one_of(t, VARIANTS, "variant"),),
    ),
    ("events", ("events_on",), lambda s: _write_flag(s.events_on), lambda t: (_flag(t),)),
    ("round", ("round",), lambda s: str(s.round), lambda t: (_count(t),)),
    ("phase", ("phase",), lambda s: s.phase, lambda t: (_one_of(t, PHASES, "phase"),)),
    ("displays", ("displays",), lambda s: _write_displays(s.displays), lambda t: (_displays(t),)),
    ("board", ("armies", "markers"), _write_board, _board),
    (
        "reserve",
        ("reserve",),
        lambda s: _write_pair(s.reserve, str),
        lambda t: (_pair(t, lambda x, _: _count(x)),),
    ),
    (
        "aside",
        ("aside",),
        lambda s: _write_pair(s.aside, str),
        lambda t: (_pair(t, lambda x, _: _count(x)),),
    ),
    ("score", ("score",), lambda s: _write_signed(s.score), lambda t: (_signed(t),)),
    *(
        (
            attr,
            (attr,),
            lambda s, attr=attr: _write_pair(getattr(s, attr), _write_names),
            lambda t: (_pair(t, lambda x, _: _cards(x)),),
        )
        for attr in ("hands", "decks", "gone", "burned", "drawn")
    ),
    (
        "keep",
        ("keep_n",),
        lambda s: _write_pair(s.keep_n, str),
        lambda t: (_pair(t, lambda x, _: _count(x)),),
    ),
    (
        "played1",
        ("played_one",),
        lambda s: _write_pair(s.played_one, _write_flag),
        lambda t: (_pair(t, lambda x, _: _flag(x)),),
    ),
    (
        "kept",
        ("kept",),
        lambda s: _write_pair(s.kept, _write_names),
        lambda t: (_pair(t, _warlords),),
    ),
    (
        "spent",
        ("spent",),
        lambda s: _write_pair(s.spent, _write_names),
        lambda t: (_pair(t, _warlords),),
    ),
    (
        "extra",
        ("extra",),
        lambda s: _write_pair(s.extra, str),
        lambda t: (_pair(t, lambda x, _: _count(x)),),
    ),
    (
        "placed",
        ("placed",),
        lambda s: _write_pair(s.placed, lambda c: NONE if c is None else ",".join(c)),
        lambda t: (_pair(t, _placement),),
    ),
    ("plans", ("plans",), lambda s: _write_plans(s.plans), lambda t: (_plans(t),)),
    (
        "first",
        ("first_placer",),
        lambda s: _write_seat_or_none(s.first_placer),
        lambda t: (_seat_or_none(t),),
    ),
    ("queue", ("queue",), lambda s: _write_queue(s.queue), lambda t: (_queue(t),)),
    ("deadly", ("deadly",), lambda s: _write_flag(s.deadly), lambda t: (_flag(t),)),
    (
        "privilege",
        ("privilege",),
        lambda s: _write_seat_or_none(s.privilege),
        lambda t: (_seat_or_none(t),),
    ),
    ("order", ("order",), lambda s: _write_provinces(s.order), lambda t: (_provinces(t),)),
    ("fought", ("fought",), lambda s: _write_provinces(s.fought), lambda t: (_provinces(t),)),
    (
        "current",
        ("current",),
        lambda s: NONE if s.current is None else PROVINCES[s.current],
        lambda t: (_province_or_none(t),),
    ),
    (
        "stage",
        ("stage",),
        lambda s: s.stage or NONE,
        lambda t: ("" if t == NONE else _one_of(t, STAGES, "stage"),),
    ),
    ("battle", ("battle",), lambda s: _write_object_or_none(s.battle), lambda t: (_battle(t),)),
    ("tasks", ("tasks",), lambda s: _write_tasks(s.tasks), lambda t: (_tasks(t),)),
    (
        "recycled",
        ("recycled",),
        lambda s: _write_recycled(s.recycled),
        lambda t: (_recycled(t),),
    ),
    ("window", ("window",), lambda s: _write_window(s.window), lambda t: (_window(t),)),
    (
        "answered",
        ("answered",),
        lambda s: _write_names(SEATS[i] for i in s.answered),
        lambda t: (tuple(SEAT_INDEX[n] for n in _names(t, SEAT_INDEX, "seat")),),
    ),
    (
        "event",
        ("event_up",),
        lambda s: s.event_up or NONE,
        lambda t: (_event_or_none(t),),
    ),
    (
        "eventdeck",
        ("event_deck",),
        lambda s: _write_names(s.event_deck),
        lambda t: (_names(t, EVENT_CARDS, "event card"),),
    ),
    (
        "eventsdone",
        ("events_done",),
        lambda s: _write_names(s.events_done),
        lambda t: (_names(t, EVENT_CARDS, "event card"),),
    ),
    (
        "plagues",
        ("plagues_played", "plague_back"),
        lambda s: _write_plagues(s.plagues_played, s.plague_back),
        _plagues,
    ),
    (
        "outcome",
        ("outcome",),
        lambda s: _write_object_or_none(s.outcome),
        lambda t: (_object_or_none(t),),
    ),
)


FIELDS: tuple[str, ...] = tuple(f[0] for f in _FIELDS)
"""The field names in their fixed order (``pending`` comes last, after these)."""
ATTRIBUTES: dict[str, tuple[str, ...]] = {f[0]: f[1] for f in _FIELDS}
"""Which ``State`` attributes each field holds."""
PENDING = "pending"


def format(state: State) -> str:  # shadows the builtin on purpose: notation.format
    """The position as one line of ASCII (hidden parts included)."""
    fields = [f"{name}={write(state)}" for name, _, write, _ in _FIELDS]
    return " ".join([HEADER, *fields, f"{PENDING}={write_pending(state)}"])


def parse(text: str) -> State:
    """The position a line describes. Raises ``ValueError`` naming the field at fault."""
    if not isinstance(text, str):
        raise ValueError(f"position: expected a line of text, not {type(text).__name__}")
    if not text.isascii() or not text.isprintable():
        raise ValueError("position: a position is one line of printable ASCII")
    tokens = text.split(" ")
    if tokens[0] != HEADER:
        raise ValueError(f"header: a Sun Tzu position starts with {HEADER!r}, not {tokens[0]!r}")
    st = State()
    previous = "header"
    for i, (name, attrs, _, read) in enumerate(_FIELDS, start=1):
        if i >= len(tokens):
            raise ValueError(f"{name}: missing (the position ends after {previous!r})")
        got, sep, value = tokens[i].partition("=")
        if got != name or not sep:
            raise ValueError(
                f"{name}: expected {name}=... as field {i} (after {previous!r}), "
                f"found {tokens[i][:40]!r}"
            )
        try:
            values = read(value)
        except ValueError as e:
            raise ValueError(f"{name}: {e}") from None
        for attr, v in zip(attrs, values, strict=True):
            setattr(st, attr, v)
        previous = name
    rest = tokens[len(_FIELDS) + 1 :]
    if rest:
        got, sep, value = rest[0].partition("=")
        if got != PENDING or not sep:
            raise ValueError(f"{PENDING}: expected {PENDING}=... or the end, found {rest[0]!r}")
        if len(rest) > 1:
            raise ValueError(f"{PENDING}: unexpected text after it: {' '.join(rest[1:])!r}")
        try:
            actual = write_pending(st)
        except (AttributeError, KeyError, IndexError, TypeError, ValueError) as e:
            raise ValueError(
                f"{PENDING}: the decisions owed cannot be worked out from this position ({e!r})"
            ) from None
        if value != actual:
            raise ValueError(f"{PENDING}: the text says {value!r} but the position owes {actual!r}")
    return st
