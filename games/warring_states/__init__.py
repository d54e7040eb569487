"""Conflict of Alliances: Warring States: the rules as a Decider.

See ``shared/rules/warring_states.md`` (rules, rulings, worked examples) and ``data.json``
(areas, borders, forces, setups, table, decks, config switches). Registered in
``games.REGISTRY`` as ``warring-states``; README.md says what is done and what is not.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from games.warring_states import moves, rules, schema, state
from games.warring_states import view as views
from games.warring_states.ai import AI
from games.warring_states.catalogue import CATALOGUE
from games.warring_states.knowledge import KNOWLEDGE
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
    web = Path(__file__).parent / "web"  # the front end comes with the next issue

    initial = staticmethod(state.initial)
    setup = staticmethod(rules.setup)
    decide = staticmethod(rules.decide)
    evolve = staticmethod(state.evolve)
    view = staticmethod(views.view)
    redact = staticmethod(views.redact)
    pending = staticmethod(rules.pending)
    legal = staticmethod(moves.legal)
    random_command = staticmethod(moves.random_command)

    @staticmethod
    def fold(events: Iterable[dict[str, Any]], st: dict | None = None) -> dict:
        return state.fold(events, st)

    @staticmethod
    def outcome(st: dict) -> dict[str, Any] | None:
        """How it ended (``winner`` a seat or None, ``side`` the winner's, ``reason``,
        ``qin_rp``, ``target``) and ``sides``: the side each seat played."""
        if st["result"] is None:
            return None
        return {**st["result"], "sides": dict(st["sides"])}

    @staticmethod
    def dump_state(st: dict) -> str:
        """The whole position, hidden parts included, as one line of canonical JSON."""
        return json.dumps(st, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @staticmethod
    def load_state(text: str) -> dict:
        return json.loads(text)


RULES = WarringStates()
