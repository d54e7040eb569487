"""The game, its options and its seats, as the command-line tools take them (``bingfa
selfplay``, ``bingfa tournament``, ``bench.ai``, ``bench.replays``); none names a game.

* ``--game KEY``: a key of ``games.REGISTRY`` (default: the first registered game).
* ``--option name=value`` (repeatable): one option of the game. The value is read as JSON
  when it is JSON (``events=true``, ``size=9``, ``name="x"``), else as the text it is
  (``variant=beginner``). The options are checked by the rules themselves (``setup`` with
  them), so a tool refuses what a new game would refuse, in the rules' own words; options
  left out take the game's defaults.
* ``--seat seat=policy`` (repeatable, where a tool plays policies): who plays a seat.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

import games
from games.base import RulesError


class ToolArgError(ValueError):
    """A ``--game``, ``--option`` or ``--seat`` a tool cannot use; the message says why."""


def default_game() -> str:
    """The key of the first registered game (the only one, while there is one)."""
    return next(iter(games.REGISTRY))


def add_game_arguments(parser: argparse.ArgumentParser, seats: str | None = None) -> None:
    """``--game`` and ``--option`` on ``parser``; ``--seat`` too when ``seats`` says what a
    seat is given (e.g. "a policy")."""
    keys = ", ".join(games.REGISTRY)
    parser.add_argument("--game", default=default_game(),
                        help=f"the game: {keys} (default: {default_game()})")  # fmt: skip
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an option of the game (repeatable; the value as JSON if it is, "
                        "else as text; the game's default for the rest)")  # fmt: skip
    if seats:
        parser.add_argument("--seat", action="append", default=[], metavar="SEAT=WHO",
                            help=f"{seats} for a seat (repeatable)")  # fmt: skip


def rules_of(key: str) -> Any:
    try:
        return games.get(key)
    except KeyError as error:
        raise ToolArgError(error.args[0]) from None


def _pairs(specs: Iterable[str], what: str) -> list[tuple[str, str]]:
    out = []
    for spec in specs:
        name, sep, value = spec.partition("=")
        if not sep or not name.strip():
            raise ToolArgError(f"write {what} as name=value, not {spec!r}")
        out.append((name.strip(), value.strip()))
    seen = [name for name, _ in out]
    if twice := sorted({name for name in seen if seen.count(name) > 1}):
        raise ToolArgError(f"{what} {twice[0]!r} is given twice")
    return out


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_options(rules: Any, specs: Iterable[str]) -> dict[str, Any]:
    """The options ``--option`` gave, checked by the rules (a deal with them must work)."""
    options = {name: _value(text) for name, text in _pairs(specs, "an option")}
    try:
        rules.setup(options, random.Random(0))
    except RulesError as error:
        raise ToolArgError(f"{rules.name}: {error}") from None
    return options


def parse_seats(rules: Any, specs: Iterable[str], default: str) -> dict[str, str]:
    """Who plays each seat (``default`` for the seats ``--seat`` leaves out)."""
    given = dict(_pairs(specs, "a seat"))
    if unknown := [seat for seat in given if seat not in rules.seats]:
        seats = ", ".join(rules.seats)
        raise ToolArgError(f"{rules.name} has no seat {unknown[0]!r}; the seats are {seats}")
    return {seat: given.get(seat, default) for seat in rules.seats}


def options_text(rules: Any, options: Mapping[str, Any]) -> str:
    """The options a game is played with, for a tool's report: every option the game
    declares (``catalogue.options``) with its value (a detail left out of summaries only
    when given), else those given."""
    declared = getattr(getattr(rules, "catalogue", None), "options", None) or ()
    details = {o.name for o in declared if not getattr(o, "summary", True)}
    values = {o.name: options.get(o.name, o.default) for o in declared if o.name not in details}
    values.update(options)
    if not values:
        return "the default options"
    shown = (f"{name}={v if isinstance(v, str) else json.dumps(v)}" for name, v in values.items())
    rest = ", the rest at their defaults" if details - set(options) else ""
    return "options " + ", ".join(shown) + rest
