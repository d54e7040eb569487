"""Warlord plays with targets (before the battles, or in the after-battles window): whether
one can take effect now (``play_error``) and the event it makes (``play_warlord``)."""

from __future__ import annotations

from typing import Any

from games.sun_tzu import rulings
from games.sun_tzu.components import (
    ACTIVE_WARLORDS,
    EARLY_WARLORDS,
    PROVINCE_INDEX,
    PROVINCES,
    SEATS,
)
from games.sun_tzu.owed import holds
from games.sun_tzu.state import State


# ---------------------------------------------------------------------------------------
# Warlord plays with targets (before the battles, or in the after-battles window).
def play_error(st: State, seat: int, play: dict[str, Any]) -> str | None:
    """Why this Warlord play cannot take effect now (None when it can)."""
    warlord = play.get("warlord")
    if warlord not in ACTIVE_WARLORDS:
        return f"{warlord!r} is not a Warlord you can play with targets"
    if warlord in EARLY_WARLORDS and st.round > 6:
        return f"{warlord} can only be played in rounds 1 to 6"
    who = SEATS[seat]
    if warlord == "remove":
        p = _province(play, "province")
        if p is None:
            return "Remove needs a province: name one of " + ", ".join(PROVINCES)
        if st.owner(p) is None:
            return f"there is no army to remove in {PROVINCES[p]}"
    elif warlord == "reinforce":
        p = _province(play, "province")
        if p is None:
            return "Reinforce needs a province you control"
        if st.owner(p) != seat:
            return f"you do not control {PROVINCES[p]}, so you cannot reinforce it"
        if not st.reserve[seat]:
            return "your reserve is empty, so Reinforce has no army to place"
    elif warlord == "manoeuvre":
        a, b = _province(play, "from"), _province(play, "to")
        if a is None or b is None:
            return "Manoeuvre needs a province to move from and an adjacent one to move to"
        if not st.armies[a][seat]:
            return f"you have no army in {PROVINCES[a]} to move"
        if b not in rulings.ADJACENT[a]:
            return f"{PROVINCES[b]} is not adjacent to {PROVINCES[a]}"
        if st.owner(b) not in (None, seat):
            return f"{PROVINCES[b]} is held by your opponent; Manoeuvre needs an empty or {who} one"
    return None


def _province(play: dict[str, Any], key: str) -> int | None:
    name = play.get(key)
    return PROVINCE_INDEX.get(name) if isinstance(name, str) else None


def play_warlord(st: State, seat: int, play: dict[str, Any]) -> dict[str, Any]:
    warlord = play["warlord"]
    event: dict[str, Any] = {
        "type": "warlord_played",
        "visible_to": "all",
        "seat": SEATS[seat],
        **play,
        "queued": True,
    }
    if not holds(st, seat, warlord) or play_error(st, seat, play):
        # The card is shown; the ruling says whether it goes back to hand or is spent.
        event["fizzled"] = True
        event["spent"] = holds(st, seat, warlord) and not rulings.FIZZLED_WARLORD_STAYS_IN_HAND
        return event
    if warlord == "remove":
        p = PROVINCE_INDEX[play["province"]]
        owner = st.owner(p)
        if owner is not None:
            event["moves"] = [[SEATS[owner], PROVINCES[p], "reserve", 1]]
    elif warlord == "reinforce" and st.reserve[seat]:
        event["moves"] = [[SEATS[seat], "reserve", play["province"], 1]]
    elif warlord == "manoeuvre" and st.armies[PROVINCE_INDEX[play["from"]]][seat]:
        event["moves"] = [[SEATS[seat], play["from"], play["to"], 1]]
    return event
