"""Sun Tzu (Matagot 2014): the rules as a Decider. See ``shared/rules/sun_tzu.md``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.sun_tzu import (
    commands,
    components,
    moves,
    notation,
    owed,
    schema,
    store_dictionary,
)
from games.sun_tzu import view as views
from games.sun_tzu.ai import AI
from games.sun_tzu.catalogue import CATALOGUE
from games.sun_tzu.knowledge import KNOWLEDGE
from games.sun_tzu.state import EVENT_TYPES, State, evolve, evolve_all, fold
from games.sun_tzu.text import TEXT


class SunTzu:
    """The ``games.base.Rules`` protocol for Sun Tzu."""

    key = "sun-tzu"
    name = "Sun Tzu"
    seats = components.SEATS
    has_chance = True
    has_hidden_information = True
    max_rounds = components.MAX_ROUNDS
    version = "2"  # bump when a rule or ruling changes: snapshots of other versions are dropped
    event_types = EVENT_TYPES
    event_fields = schema.EVENT_FIELDS
    event_versions = schema.VERSIONS
    upcasters = schema.UPCASTERS
    # preset dictionaries the event store compresses payloads with (never edited)
    payload_dictionaries = store_dictionary.PAYLOAD_DICTIONARIES
    command_types = commands.COMMAND_TYPES
    command_fields = schema.COMMAND_FIELDS
    catalogue = CATALOGUE  # title, seats, options (the service's forms and schemas)
    text = TEXT  # every word: names, narration, prompts, endings (games.messages)
    web = Path(__file__).parent / "web"  # the pages' ES modules, behind web/index.js
    guide = Path(__file__).parent / "guide.html"  # the rules for players (/games/<key>/rules)

    initial = staticmethod(State)
    setup = staticmethod(commands.setup)
    decide = staticmethod(commands.decide)
    evolve = staticmethod(evolve)
    view = staticmethod(views.view)
    redact = staticmethod(views.redact)
    legal = staticmethod(moves.legal)
    random_command = staticmethod(moves.random_command)

    # The other parts of the package (games.base.Rules): what a seat knows (determinize,
    # full_view) and what the generic AI search needs, with the easy level's policy.
    knowledge = KNOWLEDGE
    ai = AI

    fold = staticmethod(fold)

    # The state after one decision's events (games.base.Rules): a fold, which hands back
    # the state ``decide`` left when these are its very events.
    evolve_all = staticmethod(evolve_all)

    @staticmethod
    def dump_state(state: State) -> str:
        """A snapshot of the whole position (hidden parts included: server-side only)."""
        return notation.format(state)

    @staticmethod
    def load_state(text: str) -> State:
        return notation.parse(text)

    @staticmethod
    def pending(state: State) -> dict[str, str]:
        memo = owed._memo  # (flow.owed, inlined: asked before every decision)
        due = memo[1] if state is memo[0] else owed.due(state)
        if len(due) == 1:  # the usual case
            for s, kind in due.items():
                return {components.SEATS[s]: kind}
        if len(due) > 1:  # both seats: in seat order
            due = dict(sorted(due.items()))
        return {components.SEATS[s]: kind for s, kind in due.items()}

    @staticmethod
    def outcome(state: State) -> dict[str, Any] | None:
        return state.outcome


RULES = SunTzu()
