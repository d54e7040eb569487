"""Warlord plays with targets (before the battles, or in the after-battles window): whether
one can take effect now (``play_error``) and the event it makes (``play_warlord``)."""

from __future__ import annotations

from typing import Any

from games.i18n import said
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
        return said("{warlord!r} is not a Warlord you can play with targets", warlord=warlord)
    if warlord in EARLY_WARLORDS and st.round > 6:
        return said("{warlord} can only be played in rounds 1 to 6", warlord=warlord)
    who = SEATS[seat]
    if warlord == "remove":
        p = _province(play, "province")
        if p is None:
            return said(
                "Remove needs a province: name one of {provinces}", provinces=", ".join(PROVINCES)
            )
        if st.owner(p) is None:
            return said("there is no army to remove in {province}", province=PROVINCES[p])
    elif warlord == "reinforce":
        p = _province(play, "province")
        if p is None:
            return said("Reinforce needs a province you control")
        if st.owner(p) != seat:
            return said(
                "you do not control {province}, so you cannot reinforce it", province=PROVINCES[p]
            )
        if not st.reserve[seat]:
            return said("your reserve is empty, so Reinforce has no army to place")
    elif warlord == "manoeuvre":
        a, b = _province(play, "from"), _province(play, "to")
        if a is None or b is None:
            return said("Manoeuvre needs a province to move from and an adjacent one to move to")
        if not st.armies[a][seat]:
            return said("you have no army in {province} to move", province=PROVINCES[a])
        if b not in rulings.ADJACENT[a]:
            return said(
                "{other} is not adjacent to {province}", other=PROVINCES[b], province=PROVINCES[a]
            )
        if st.owner(b) not in (None, seat):
            return said(
                "{other} is held by your opponent; Manoeuvre needs an empty or {who} one",
                other=PROVINCES[b],
                who=who,
            )
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
