"""Building Warring States positions for known-answer tests, and dice that say what they roll."""

from __future__ import annotations

import random
from typing import Any

from games.warring_states import RULES
from games.warring_states import board as B
from games.warring_states import state as S

LH, AL = "first", "second"  # with the default options the first player is Lianheng


class Dice:
    """An rng whose dice are given in order (attacker first in a fight); shuffles keep order."""

    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert stop is None and start == 6, "only dice are rolled here"
        return self.rolls.pop(0) - 1

    def shuffle(self, x: list) -> None:
        pass

    def random(self) -> float:  # pragma: no cover - not used by the rules
        return 0.0


def stack(force: str, ready: int = 0, tired: int = 0, gens: tuple[str, ...] = ()) -> dict:
    return B.new_stack(force, ready, tired, {g: True for g in gens})


def position(
    scenario: str = "FIVE_KINGDOMS",
    areas: dict | None = None,
    track: dict | None = None,
    active: str = "lianheng",
    hands: dict | None = None,
    **options: Any,
) -> dict:
    """The scenario's opening, with ``areas`` replaced (area -> (city, [field...]) or None
    for an empty area), ``track`` boxes set (force -> box or (box, received)), ``active``
    side to act, and hands as given; nobody has standing instructions."""
    st = RULES.fold(RULES.setup({"scenario": scenario, **options}, random.Random(0)))
    for area, content in (areas or {}).items():
        if content is None:
            st["areas"][area] = {"city": None, "field": []}
        else:
            city, field = content
            st["areas"][area] = {"city": city, "field": list(field)}
    for force, box in (track or {}).items():
        box, received = box if isinstance(box, tuple) else (box, True)
        st["track"][force] = {"box": box, "received": received}
    st["active"] = active
    for side, cards in (hands or {}).items():
        st["hands"][side] = list(cards)
    return st


def play(st: dict, seat: str, cmd: dict, rng: Any = None) -> tuple[dict, list[dict]]:
    events = RULES.decide(st, seat, cmd, rng or Dice())
    return RULES.fold(events, st), events


def choose(st: dict, seat: str, dice: tuple = (), **match: Any) -> tuple[dict, list[dict]]:
    """Choose the option owed to ``seat`` whose fields include ``match`` (``dice``: the
    rolls that choice leads to)."""
    options = st["op"]["owed"]["options"]
    for i, o in enumerate(options):
        if all(o.get(k) == v for k, v in match.items()):
            return play(st, seat, {"type": "choose", "option": i}, Dice(*dice))
    raise AssertionError(f"no option {match} among {options}")


def never_respond(st: dict) -> dict:
    st = S.copy(st)
    for seat in (LH, AL):
        st["standing"][seat] = {"mode": "never", "cards": []}
    return st


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]
