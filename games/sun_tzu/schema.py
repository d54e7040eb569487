"""What each Sun Tzu event carries: the declaration the event store derives its schemas from.

Field kinds: ``str``, ``int``, ``bool``, ``list``, ``dict``, ``any``; a trailing ``?``
means the value may be null, and a leading ``~`` that the field may be absent. Bump an
event's version in ``VERSIONS`` when its payload changes shape, and add an upcaster from
the old version: stored events are never rewritten, they are upcast when read.
"""

from __future__ import annotations

from typing import Any

_WARLORD_TARGETS = {"~province": "str", "~from": "str", "~to": "str"}
_BATTLE = {
    "province": "str",
    "cards": "dict",
    "values": "dict",
    "plague": "bool",
    "deadly": "bool",
    "winner": "str?",
    "margin": "int",
    "fired": "dict",
    "plagues": "int",
    "moves": "list",
    "tasks": "list",
}

EVENT_FIELDS: dict[str, dict[str, str]] = {
    "game_started": {
        "variant": "str",
        "events": "bool",
        "displays": "list",
        "reserve": "list",
        "aside": "list",
        "event_up": "str?",
    },
    "event_deck_shuffled": {"order": "list"},
    "deck_shuffled": {"seat": "str", "deck": "list"},
    "cards_drawn": {"seat": "str", "cards": "list", "keep": "int"},
    "card_kept": {"seat": "str", "keep": "list", "bottom": "list"},
    "warlords_to_choose": {},
    "warlord_chosen": {"seat": "str", "warlord": "str", "~extra": "bool"},
    "warlord_played": {
        "seat": "str",
        "warlord": "str",
        **_WARLORD_TARGETS,
        "~queued": "bool",
        "~fizzled": "bool",
        "~spent": "bool",
        "~moves": "list",
        "~score": "int",
    },
    "round_started": {"round": "int"},
    "placed": {"seat": "str", "cards": "dict", "plan": "dict"},
    "cards_down": {"first": "str", "plays": "list"},
    "privilege_settled": {"holder": "str?"},
    "order_named": {"seat": "str", "provinces": "list"},
    "battle_revealed": _BATTLE,
    "battle": {**_BATTLE, "result": "str", "resolution": "list"},
    "battle_resolved": {
        "province": "str",
        "result": "str",
        "winner": "str?",
        "margin": "int",
        "moves": "list",
        "tasks": "list",
    },
    "armies_moved": {"seat": "str", "why": "str", "moves": "list"},
    "event_triggered": {
        "card": "str",
        "next": "str?",
        "~tasks": "list",
        "~moves": "list",
        "~extra": "list",
    },
    "card_recycled": {
        "seat": "str",
        "warlord": "str",
        "card": "str",
        "province": "str",
        "burned": "str?",
    },
    "battle_ended": {"province": "str"},
    "window_opened": {"seats": "list"},
    "after_battles_chosen": {"seat": "str", "plays": "list"},
    "window_closed": {"plays": "list"},
    "scored": {"round": "int", "points": "dict", "marker": "int"},
    "round_ended": {"round": "int"},
    "reinforced": {"seat": "str", "card": "str"},
    "game_ended": {
        "winner": "str?",
        "reason": "str",
        "score": "int",
        "reserve": "dict",
        "round": "int?",
    },
}

# What each command carries besides its "type" (the grammar: ``events/commands.py``).
# Anything else is refused before the rules see it, so only these fields are stored.
_PLAY = {"warlord": "str", "~province": "str", "~from": "str", "~to": "str"}
_REINFORCE = {"~reinforce": ["str"]}  # exceptional reinforcements, before any command
COMMAND_FIELDS: dict[str, dict[str, Any]] = {
    "choose_warlord": {"warlord": "str", **_REINFORCE},
    "extra_warlord": {"warlord": "str", **_REINFORCE},
    "place": {
        "cards": {"*": "str"},  # province -> card
        "~warlords": [_PLAY],  # played before the battles, in this order
        "~arm": {"*": ("bool", "str?")},  # reactive Warlords: true/false, Restraint a province
        "~order": ["str"],  # the order of battle, given in advance
        "~supply": ("str", ["str"]),  # "largest", "smallest" or provinces in order
        **_REINFORCE,
    },
    "next_province": {"~province": "str", "~provinces": ["str"], **_REINFORCE},
    "sources": {"~take": {"*": "int"}, **_REINFORCE},  # province -> armies taken
    "keep": {"cards": ("str", ["str"]), **_REINFORCE},
    "after_battles": {"~warlords": [_PLAY], **_REINFORCE},
    "reinforce": {"card": "str"},
    "resign": {**_REINFORCE},
}

# Current schema version of each event type (1 when not listed).
VERSIONS: dict[str, int] = {"game_ended": 2}


def _game_ended_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 did not say in which round the game ended; it is unknown for those games."""
    return {**payload, "round": None}


# (type, version) -> the function that turns that version's payload into the next one.
UPCASTERS = {("game_ended", 1): _game_ended_v1_to_v2}
