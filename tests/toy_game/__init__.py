"""Duel: a tiny two-seat game with hidden hands and a shuffled deck, defined only here, to
prove that a game is one package: registered by the tests that use it
(``register()``), it is played through the HTTP API, the generic game page, every AI
level, replays from every perspective, the audit and the analysis, with no file outside
this folder knowing it exists.

Rules. A deck of the cards 1 to 6, twice, is shuffled; each seat (north and south) is
dealt ``hand`` cards (an option, 3 or 4) that only it sees. For ``hand`` rounds both seats
play a card face down at once; then both are shown, and the higher card wins the round (a
tie wins nothing). The seat that won more rounds wins; as many is a draw. A seat may
resign at any time.
"""

from __future__ import annotations

from pathlib import Path

from toy_game import ai, knowledge, rules, text
from toy_game.catalogue import CATALOGUE


class Duel:
    """The ``games.base.Rules`` protocol, and every other part of a game package."""

    key = "duel"
    name = "Duel"
    seats = rules.SEATS
    has_chance = True
    has_hidden_information = True
    max_rounds = 4
    version = "1"
    event_fields = rules.EVENT_FIELDS
    event_versions = rules.EVENT_VERSIONS
    upcasters = rules.UPCASTERS
    command_fields = rules.COMMAND_FIELDS
    command_types = tuple(rules.COMMAND_FIELDS)

    initial = staticmethod(rules.State)
    setup = staticmethod(rules.setup)
    decide = staticmethod(rules.decide)
    evolve = staticmethod(rules.evolve)
    fold = staticmethod(rules.fold)
    view = staticmethod(rules.view)
    redact = staticmethod(rules.redact)
    pending = staticmethod(rules.pending)
    legal = staticmethod(rules.legal)
    random_command = staticmethod(rules.random_command)
    outcome = staticmethod(rules.outcome)
    dump_state = staticmethod(rules.dump_state)
    load_state = staticmethod(rules.load_state)

    catalogue = CATALOGUE
    knowledge = knowledge.KNOWLEDGE
    ai = ai.AI
    text = text.TEXT
    web = Path(__file__).resolve().parent / "web"


RULES = Duel()


def register(registry: dict) -> None:
    """Add the game to a games registry (``games.REGISTRY``, or a copy a test uses)."""
    registry[RULES.key] = RULES
