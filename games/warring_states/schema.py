"""What each Warring States event and command carries (the event store's declaration).

Every event may carry the mechanical fields ``areas``, ``track``, ``pool`` and ``op``
(``state.py``), declared as optional on every type.
"""

from __future__ import annotations

from typing import Any

_MECH = {"~areas": "dict", "~track": "dict", "~pool": "dict", "~op": "dict?"}
_BASE: dict[str, dict[str, str]] = {
    "game_started": {
        "scenario": "str",
        "victory": "str",
        "config": "dict",
        "turns": "int",
        "target": "int",
        "sides": "dict",
    },
    "board_set": {"initiative": "dict"},
    "bid_made": {"seat": "str", "~rp": "int"},
    "die_rolled": {"why": "str", "value": "int"},
    "bids_revealed": {"bids": "dict", "sides": "dict", "target": "int", "die": "int?"},
    "deck_shuffled": {"side": "str", "~deck": "list", "~count": "int"},
    "turn_started": {"turn": "int", "first": "str"},
    "cards_drawn": {"side": "str", "why": "str", "~cards": "list", "~count": "int"},
    "card_played": {
        "side": "str",
        "face": "str",
        "action": "str",
        "~card": "str",
        "~auto": "bool",
        "~option": "str",
        "~force": "str",
        "~area": "str",
        "~general": "str",
    },
    "operation_step": {},
    "card_discarded": {"side": "str", "~card": "str"},
    "deck_searched": {"side": "str", "~deck": "list", "~count": "int"},
    "card_cancelled": {"card": "str", "side": "str", "by": "str", "removed": "bool"},
    "general_removed": {"general": "str", "area": "str", "by": "str"},
    "general_placed": {"general": "str", "area": "str", "by": "str"},
    "general_left": {"general": "str"},
    "mobilized": {"areas_placed": "list"},
    "bolstered": {"force": "str", "area": "str", "armies": "int", "generals": "list"},
    "passed": {"side": "str"},
    "phase_ended": {"next": "str"},
    "operation_started": {"side": "str"},
    "initiative_set": {"side": "str", "flipped": "bool", "~by": "str"},
    "diplomacy_moved": {"force": "str", "from": "str", "to": "str", "by": "str"},
    "reinforced": {"force": "str", "area": "str", "by": "str"},
    "attacked_directly": {
        "force": "str",
        "area": "str",
        "armies": "int",
        "generals": "list",
        "activate": "str?",
    },
    "moved": {
        "force": "str",
        "from": "str",
        "path": "list",
        "armies": "int",
        "generals": "list",
        "activate": "str?",
        "~ally": "int",
        "fight": "bool",
    },
    "target_chosen": {"force": "str", "area": "str", "target": "str", "join": "dict"},
    "fight_started": {"area": "str", "force": "str", "target": "str", "~shift": "dict"},
    "window_opened": {"side": "str", "kinds": "list"},
    "window_skipped": {},
    "window_closed": {},
    "response_resolved": {
        "side": "str",
        "card": "str",
        "effect": "str",
        "~force": "str",
        "~from": "str",
        "~path": "list",
    },
    "standing_set": {"seat": "str", "~standing": "dict"},
    "decision_owed": {},
    "chosen": {"side": "str", "kind": "str", "option": "dict"},
    "defence_fixed": {"defenders": "dict"},
    "dice_rolled": {
        "area": "str",
        "force": "str",
        "target": "str",
        "dice": "dict",
        "results": "dict",
    },
    "second_strike": {"side": "str", "modified": "int", "hits": "int"},
    "losses_taken": {"force": "str", "side": "str", "lost": "dict"},
    "fight_over": {"~area": "str"},
    "fight_again": {"target": "str"},
    "city_taken": {"area": "str", "force": "str"},
    "city_entered": {"area": "str", "force": "str"},
    "stayed": {"area": "str", "force": "str"},
    "retreated": {"force": "str", "from": "str", "to": "str"},
    "area_settled": {"area": "str"},
    "force_eliminated": {"force": "str"},
    "hand_discarded": {"side": "str", "~cards": "list", "~count": "int"},
    "turn_ended": {"turn": "int"},
    "resigned": {"seat": "str"},
    "game_ended": {
        "winner": "str?",
        "side": "str?",
        "reason": "str",
        "qin_rp": "int",
        "target": "int",
    },
}
# What every event may carry for the log's sentences per reader (``rules.readers``).
_READERS = {"~sides": "dict", "~factions": "dict"}
EVENT_FIELDS: dict[str, dict[str, str]] = {
    k: {**v, **_MECH, **{f: t for f, t in _READERS.items() if f[1:] not in v}}
    for k, v in _BASE.items()
}
VERSIONS: dict[str, int] = {}
UPCASTERS: dict[tuple[str, int], Any] = {}

COMMAND_FIELDS: dict[str, dict[str, Any]] = {
    "bid": {"rp": "int"},
    "play": {
        "card": "str",
        "face": "str",
        "action": "str",
        "~force": "str",
        "~area": "str",
        "~dir": "int",
        "~move": "bool",
        "~option": "str",
        "~general": "str",
    },
    "pick": {"card": "str"},
    "pass": {},
    "operate": {
        "area": "str",
        "force": "str",
        "armies": "int",
        "generals": ["str"],
        "activate": "str?",
        "path": ["str"],
        "~ally": "int",
        "~successor": "str",
    },
    "choose": {"option": "int"},
    "standing": {"mode": "str", "~cards": ["str"]},
    "resign": {},
}
