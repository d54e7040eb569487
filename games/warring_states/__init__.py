"""Conflict of Alliances: Warring States: the rules as a Decider.

See ``shared/rules/warring_states.md`` (rules, rulings, worked examples) and ``data.json``
(areas, borders, forces, setups, table, decks, config switches). Registered in
``games.REGISTRY`` as ``warring-states``; README.md says what is done and what is not.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from games.remembered import SETUP
from games.warring_states import moves, notation, rules, schema, state
from games.warring_states import view as views
from games.warring_states.ai import AI
from games.warring_states.catalogue import CATALOGUE
from games.warring_states.knowledge import KNOWLEDGE
from games.warring_states.match import MATCH
from games.warring_states.text import TEXT


class WarringStates:
    """The ``games.base.Rules`` protocol for Warring States."""

    key = "warring-states"
    name = "Conflict of Alliances: Warring States"
    seats = rules.SEATS
    has_chance = True
    has_hidden_information = True
    max_rounds = max(s.turns for s in rules.D.scenarios.values())
    version = "0"
    event_fields = schema.EVENT_FIELDS
    event_types = tuple(schema.EVENT_FIELDS)
    event_versions = schema.VERSIONS
    upcasters = schema.UPCASTERS
    command_fields = schema.COMMAND_FIELDS
    command_types = tuple(schema.COMMAND_FIELDS)
    catalogue = CATALOGUE
    knowledge = KNOWLEDGE
    ai = AI
    text = TEXT
    match = MATCH  # the two games victory, played as a match of linked games
    web = Path(__file__).parent / "web"  # the pages' ES modules, behind web/index.js
    guide = Path(__file__).parent / "guide.html"  # the rules for players (/games/<key>/rules)

    initial = staticmethod(state.initial)
    setup = staticmethod(rules.setup)
    decide = staticmethod(rules.decide)
    view = staticmethod(views.view)
    redact = staticmethod(views.redact)
    pending = staticmethod(rules.pending)
    legal = staticmethod(moves.legal)
    random_command = staticmethod(moves.random_command)

    # The order of the areas in the state is the order the rules read them in (where a
    # reinforcement may go, the options of a decision), so it must not depend on where the
    # board came from: the store gives events back with their keys sorted, a decision makes
    # them in the data's order. The board is set with its keys sorted (``state.SORTED``,
    # in ``evolve`` itself: it runs for every event), and a position is dumped in its own
    # order, so a live game, its replay, its audit and a snapshot decide alike
    # (tests/test_every_game_on_the_platform.py).
    evolve = staticmethod(state.evolve)
    evolve_all = staticmethod(state.evolve_all)  # the state decide left, when it can

    @staticmethod
    def fold(events: Iterable[dict[str, Any]], st: dict | None = None) -> dict:
        if st is None and type(events) is list:  # a game's first events, as setup made them?
            known = state.taken(SETUP, events)
            if known is not None:  # (setup laid the board out sorted: what _sorted gives)
                return known
        return state.fold((_sorted(event) for event in events), st)

    @staticmethod
    def outcome(st: dict) -> dict[str, Any] | None:
        """How it ended (``winner`` a seat or None, ``side`` the winner's, ``reason``,
        ``qin_rp``, ``target``) and ``sides``: the side each seat played."""
        if st["result"] is None:
            return None
        return {**st["result"], "sides": dict(st["sides"])}

    @staticmethod
    def dump_state(st: dict) -> str:
        """The whole position, hidden parts included, as one line of the position notation
        (``notation.py``, ``docs/warring_states_notation.md``): server-side only."""
        return notation.dump(st)

    @staticmethod
    def load_state(text: str) -> dict:
        return notation.load(text)


def _sorted(event: dict[str, Any]) -> dict[str, Any]:
    """``event`` as the event store gives it back (every dict's keys sorted), for the
    events that lay out the state's dicts; the others as they are (sorting them all would
    cost a third of the speed of play)."""
    if event["type"] not in state.SORTED:
        return event
    return state.sorted_copy(event)


RULES = WarringStates()
