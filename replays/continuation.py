"""Continue a finished game from one of its steps: which position a seat may continue from,
checked against the record (the write path then starts the game: ``WritePath.continue_game``).

A position can be continued from when someone has a decision to make there, the game is
not over, and the seat's view is all a position sampled from it needs (the game's
``knowledge.determinize`` of that view shows the seat exactly that view again); the cards
the seat could not know are dealt afresh from the new game's own chance.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from events.errors import Invalid, NotFound, told
from games.i18n import said
from replays.record import Record
from replays.replay import BadStep, replay_of


def position(record: Record, step: int, seat: str,
             registry: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:  # fmt: skip
    """(the game's key, what ``seat`` saw at ``step``) of a position it may continue from;
    refuses with a sentence a step the record does not have, one where the game is over or
    nobody decides, and a position the seat's view cannot rebuild."""
    key = record.header.get("game")
    rules = registry.get(key)
    if rules is None:
        raise NotFound(said("there is no game called {key!r}", key=key))
    if seat not in rules.seats:
        seats = " and ".join(rules.seats)
        raise Invalid(
            said(
                "there is no seat {seat!r} to continue as; the seats are {seats}",
                seat=seat,
                seats=seats,
            )
        )
    knowledge = getattr(rules, "knowledge", None)
    if knowledge is None:
        raise Invalid(
            said(
                "{name} games cannot be continued from a replay: the game cannot "
                "rebuild a position from what a seat saw",
                name=rules.name,
            )
        )
    replay = replay_of(record)
    try:
        state = replay.state_at(step)
    except BadStep as error:
        raise Invalid(told(error)) from None
    if rules.outcome(state) is not None:
        raise Invalid(
            said("the game is over at step {step}: there is nothing left to play", step=step)
        )
    if not rules.pending(state):
        later = next((n for n in range(step + 1, replay.length + 1)
                      if rules.pending(replay.state_at(n))), None)  # fmt: skip
        hint = f"; step {later} is the next where someone decides" if later else ""
        raise Invalid(
            said(
                "at step {step} nobody has a decision to make (the rules are "
                "playing on by themselves){hint}",
                step=step,
                hint=hint,
            )
        )
    if not rebuilds(rules, state, seat):
        later = next((n for n in range(step + 1, replay.length + 1)
                      if rules.pending(replay.state_at(n))
                      and rebuilds(rules, replay.state_at(n), seat)), None)  # fmt: skip
        hint = f"; step {later} is the next where it can be" if later else ""
        raise Invalid(
            said(
                "the position at step {step} cannot be rebuilt from what {seat} "
                "saw there (part of it was not in {seat}'s view){hint}",
                step=step,
                seat=seat,
                hint=hint,
            )
        )
    return key, rules.view(state, seat)


def rebuilds(rules: Any, state: Any, seat: str) -> bool:
    """Whether ``seat``'s view of ``state`` is all a position sampled from it needs."""
    view = rules.view(state, seat)
    sample = rules.knowledge.determinize(view, seat, random.Random(0))  # a check only
    return rules.view(sample, seat) == view


def continue_from(write_path: Any, record: Record, step: int, seat: str, level: str,
                  access: Mapping[str, str] | None = None) -> str:  # fmt: skip
    """A new game against the AI at ``level`` from step ``step`` of ``record``, ``seat``
    played by a human: the id of the game the write path started."""
    key, view = position(record, step, seat, write_path.registry)
    options = record.events[0].payload.get("options") or {}
    origin = {"replay": record.header["id"], "step": step, "seat": seat}
    return write_path.continue_game(key, options, seat, level, view, origin, access)
