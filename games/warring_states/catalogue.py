"""What Warring States is, as plain data: title, seats, options (``games.base.Catalogue``).
Every ``config`` switch of the data file is an option, its file value the default."""

from __future__ import annotations

from games.base import Catalogue, Option, SeatInfo
from games.warring_states.data import load

D = load()
_SCENARIO_LABELS = {
    s.id: f"{s.name} ({s.turns} turns, Qin needs {s.qin_victory_rp} RP)"
    for s in D.scenarios.values()
}

CATALOGUE = Catalogue(
    title="Conflict of Alliances: Warring States",
    seats=(
        SeatInfo("first", "First player", "#1c1c1c"),
        SeatInfo("second", "Second player", "#b8860b"),
    ),
    options=(
        Option(
            "scenario",
            "choice",
            "Scenario",
            "FIVE_KINGDOMS",
            tuple((k, v) for k, v in _SCENARIO_LABELS.items()),
        ),
        Option(
            "victory",
            "choice",
            "Victory rule",
            "basic",
            (("basic", "Basic"), ("bid", "Competitive bid for Lianheng")),
        ),
        Option(
            "first_side",
            "choice",
            "The first player plays",
            "lianheng",
            (("lianheng", "Lianheng (Qin)"), ("alliance", "the Alliance")),
            help="not used with the competitive bid: the bid decides",
        ),
        *(
            Option(
                name,
                "choice",
                name.replace("_", " ").capitalize(),
                values[0],
                tuple(
                    (v, str(v) + (" (rules reference)" if i == 0 else ""))
                    for i, v in enumerate(values)
                ),
                summary=False,
            )
            for name, values in D.config_values.items()
        ),
    ),
    summary="Qin against the Alliance of the Warring States: cards played for their text or "
    "face down for an operation, a diplomacy track that turns kingdoms, one die a side.",
)
