"""Commander (將): the game of the preface of seed 000, as a Decider. See
``shared/rules/commander.md``: a 4 × 8 board with a river, a Commander, five Officers and
ten Soldiers a side, arranged in secret, then moved one at a time. Registered in
``games.REGISTRY`` as ``commander``; nothing outside this folder knows more of it."""

from __future__ import annotations

from pathlib import Path

from games.commander import notation, rules
from games.commander import view as views
from games.commander.ai import AI
from games.commander.catalogue import CATALOGUE
from games.commander.knowledge import KNOWLEDGE
from games.commander.text import TEXT


class Commander:
    """The ``games.base.Rules`` protocol for Commander, and the other parts beside it."""

    key = "commander"
    name = "Commander"
    seats = rules.SEATS
    has_chance = False
    has_hidden_information = True  # the arrangements, until both are made
    max_rounds = 0  # no rounds: moves, until a win or a draw
    version = "1"  # bump when a rule or ruling changes: snapshots of other versions are dropped
    event_fields = rules.EVENT_FIELDS
    event_types = tuple(rules.EVENT_FIELDS)
    event_versions = rules.EVENT_VERSIONS
    upcasters = rules.UPCASTERS
    command_fields = rules.COMMAND_FIELDS
    command_types = tuple(rules.COMMAND_FIELDS)
    catalogue = CATALOGUE
    knowledge = KNOWLEDGE
    ai = AI
    text = TEXT
    web = Path(__file__).parent / "web"  # the pages' ES modules, behind web/index.js
    guide = Path(__file__).parent / "guide.html"  # the rules for players (/games/<key>/rules)

    initial = staticmethod(rules.State)
    setup = staticmethod(rules.setup)
    decide = staticmethod(rules.decide)
    evolve = staticmethod(rules.evolve)
    evolve_all = staticmethod(rules.evolve_all)
    fold = staticmethod(rules.fold)
    view = staticmethod(views.view)
    redact = staticmethod(views.redact)
    pending = staticmethod(rules.pending)
    legal = staticmethod(rules.legal)
    random_command = staticmethod(rules.random_command)
    outcome = staticmethod(rules.outcome)
    dump_state = staticmethod(notation.dump)
    load_state = staticmethod(notation.load)


RULES = Commander()
