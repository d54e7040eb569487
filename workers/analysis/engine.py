"""The analysis of a finished game: every decision judged from what its seat knew then.

    analyse(record, strength=DEFAULT, seed=0, on_progress=None) -> dict   (JSON-ready)

For every ``command_given`` event (step ``n``) the seat's information set is its view of
the state before the command, ``replay.view_at(n - 1, seat)``; that view (never the true
position: hands, decks and face-down cards the seat could not see stay unknown) is all the
assessment gets. ``workers.ai.search.assess`` then runs the AI's information-set search
from it with the played command among the candidates and reports:

* ``chance``: the seat's winning chance before deciding, i.e. its chance with the best
  decision the search finds (``best_chance``);
* ``played_chance``: its chance with the decision it made;
* ``loss`` = best − played in points, and its class (``workers.analysis.scoring``).

Which decisions are assessed is the game's to say (``rules.ai.assessable``): those whose
position can be rebuilt from the view, answered by the command they owe. The decisions the
AI searches in play (``rules.ai.searchable``) are judged among the search's own candidates
(plus the one played); the others among the answers the game lists
(``rules.ai.alternatives``, the rule of thumb's first, the played one too) — the AI
answers those by rules of thumb in play, the analysis searches them anyway, with a smaller
budget (``Strength``: ``place`` is the searched decisions', ``other`` the others'). Not
assessed (``assessed: false``, no loss, no class): everything else (a position the view
does not hold, a stand-alone command), and every decision of a game without AI parts. A
decision with one possible answer is assessed for its chance but marked ``forced`` and
left out of the accuracy.

Deterministic: each decision has its own random stream, derived from ``seed``, the step
and the seat only, so the same record and seed give the same analysis, and a record that
differs only in what a seat could not see gives that seat the same assessments.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from events.envelope import canonical
from games.messages import render
from replays.record import Record
from replays.replay import replay_of
from workers.ai.search import Assessment, Budget, assess
from workers.analysis import scoring

VERSION = 1
MAX_OTHER_CANDIDATES = 12  # answers searched for a decision not searched in play (played too)
PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


@dataclass(frozen=True)
class Strength:
    """Playouts per decision: the search phase and the fresh evaluation of the best and
    the played command (each), for the decisions the AI searches in play (``place``, the
    name kept from the first game: it is in stored analyses) and for the others."""

    place: int
    place_evaluations: int
    other: int
    other_evaluations: int


# The default strength. Issue 18 asks for an analysis in <= 15 CPU s a game on one core at
# the same agreement with a deeper analysis (``workers.analysis.agreement``: 3x the
# playouts, another seed). The searched decisions' search phase only picks the best; their
# losses come from the evaluations, and the other decisions (three in four of those with a
# choice) lose agreement with fewer playouts. So the search phase went from 600 to 300
# playouts and nothing else: about a sixth less time, the same class as the deeper analysis
# as often as before (0.81 at both, 137 decisions), losses about 2 points apart either way.
# A searched decision's loss varies by about +-3 points between seeds. The figures per game:
# ``python -m bench.replays`` (analysis_seconds, analysis_agreement_*) and issue 18's note.
DEFAULT = Strength(place=300, place_evaluations=200, other=60, other_evaluations=40)
# For tests: quick and rough.
QUICK = Strength(place=12, place_evaluations=6, other=4, other_evaluations=4)

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Decision:
    """One ``command_given``: the step it is at, the seat, what it saw and what it sent."""

    step: int
    seat: str
    view: dict[str, Any]
    command: dict[str, Any]


def decisions_of(record: Record) -> tuple[Any, list[Decision]]:
    """The rules and every decision of the record, each with its seat's view before it."""
    replay = replay_of(record)
    out = []
    for event in record.events:
        if event.type == "command_given":
            seat, command = event.payload["seat"], event.payload["command"]
            out.append(Decision(event.seq, seat, replay.view_at(event.seq - 1, seat), command))
    return replay.rules, out


def decision_rng(seed: int, step: int, seat: str) -> random.Random:
    material = canonical({"analysis": seed, "step": step, "seat": seat})
    return random.Random(int.from_bytes(hashlib.sha256(material).digest()[:16], "big"))


def assess_decision(rules: Any, decision: Decision, strength: Strength,
                    seed: int) -> dict[str, Any]:  # fmt: skip
    """The entry of one decision (see the module docstring), from its view alone."""
    view, seat, command = decision.view, decision.seat, decision.command
    entry: dict[str, Any] = {
        "step": decision.step, "seat": seat, "kind": command.get("type"),
        "round": view.get("round"), "played": command,
        "played_text": describe(rules, command, seat),
        "assessed": False, "forced": False, "best": None, "best_text": None,
        "chance": None, "best_chance": None, "played_chance": None,
        "loss": None, "class": None,
    }  # fmt: skip
    adapter = getattr(rules, "ai", None)
    if adapter is None or not adapter.assessable(view, seat, command):
        return entry
    rng = decision_rng(seed, decision.step, seat)
    if adapter.searchable(view, seat):
        budget, evaluations, candidates = Budget(strength.place), strength.place_evaluations, None
    else:
        budget, evaluations = Budget(strength.other), strength.other_evaluations
        candidates = other_candidates(adapter, view, seat, command)
    found: Assessment = assess(rules, adapter, view, seat, rng, budget, command,
                               evaluations=evaluations, candidates=candidates)  # fmt: skip
    loss = scoring.loss_points(found.best_value, found.played_value)
    forced = candidates is not None and len(candidates) <= 1
    entry.update(
        assessed=True, forced=forced, best=found.best, best_text=describe(rules, found.best, seat),
        chance=round(found.best_value, 4), best_chance=round(found.best_value, 4),
        played_chance=round(found.played_value, 4), loss=round(loss, 2),
        **{"class": None if forced else scoring.classify(loss)},
    )  # fmt: skip
    return entry


def other_candidates(adapter: Any, view: dict[str, Any], seat: str,
                     played: dict[str, Any]) -> list[dict[str, Any]]:  # fmt: skip
    """The answers searched for a decision the AI does not search in play: the game's
    ``alternatives`` (its own cards only matter, so any position consistent with the view
    lists them), the rule of thumb's first, at most ``MAX_OTHER_CANDIDATES``."""
    stand_in = adapter.determinize(view, seat, random.Random(0))
    legal = adapter.alternatives(stand_in, seat, played)
    thumb = adapter.fallback(stand_in, seat, random.Random(0))
    out, keys = [], set()
    for c in [thumb, played, *legal]:
        if c is not None and adapter.key(c) not in keys and len(out) < MAX_OTHER_CANDIDATES:
            keys.add(adapter.key(c))
            out.append(c)
    return out


def analyse(record: Record, strength: Strength = DEFAULT, seed: int = 0,
            on_progress: Progress | None = None) -> dict[str, Any]:  # fmt: skip
    """The analysis of a finished game's record (see the module docstring), JSON-ready.
    ``on_progress(done, total)`` is called before the first decision and after each."""
    started = time.perf_counter()
    rules, decisions = decisions_of(record)
    strength = scaled(strength, getattr(getattr(rules, "ai", None), "analysis_scale", 1.0))
    total = len(decisions)
    if on_progress:
        on_progress(0, total)
    entries = []
    for i, decision in enumerate(decisions, start=1):
        entries.append(assess_decision(rules, decision, strength, seed))
        if on_progress:
            on_progress(i, total)
    return summarise(record, rules, entries, strength, seed, time.perf_counter() - started)


def scaled(strength: Strength, scale: float) -> Strength:
    """The strength for a game whose AI parts ask for a share of the playouts
    (``analysis_scale``, optional: a game with long playouts or many decisions, so that its
    whole analysis takes about as long as another's); at least one playout of each kind."""
    if scale >= 1.0:
        return strength
    return Strength(**{name: max(1, round(value * scale))
                       for name, value in asdict(strength).items()})  # fmt: skip


def summarise(record: Record, rules: Any, entries: list[dict[str, Any]], strength: Strength,
              seed: int, seconds: float) -> dict[str, Any]:  # fmt: skip
    seats = list(rules.seats)
    winner = (record.header.get("outcome") or {}).get("winner")
    result = {s: 0.5 if winner is None else float(winner == s) for s in seats}
    counted = {s: [e for e in entries if e["seat"] == s and e["assessed"] and not e["forced"]]
               for s in seats}  # fmt: skip
    players = {}
    for s in seats:
        mine = counted[s]
        acc = scoring.accuracy(e["loss"] for e in mine)
        players[s] = {
            "accuracy": None if acc is None else round(acc, 1),
            "decisions": sum(e["seat"] == s for e in entries),
            "assessed": len(mine),
            "loss": round(sum(e["loss"] for e in mine), 1),
            **{PLURAL[c]: sum(e["class"] == c for e in mine) for c in scoring.CLASSES},
        }
    luck = {}
    for s in seats:
        other = [t for t in seats if t != s]
        theirs = [e["loss"] for t in other for e in counted[t]]
        luck[s] = scoring.luck(result[s], [e["loss"] for e in counted[s]], theirs)
    return {
        "version": VERSION,
        "game": rules.key,
        "length": len(record.events),
        "seed": seed,
        "strength": asdict(strength),
        "seconds": round(seconds, 2),
        "result": result,
        "decisions": entries,
        "players": players,
        "luck": luck,
    }


# -- words ---------------------------------------------------------------------------------
def describe(rules: Any, command: dict[str, Any] | None, seat: str | None = None) -> str:
    """A command in words, as its game's text says it, for the list of decisions."""
    if not command:
        return "—"
    return render(rules.text.messages, rules.text.command(command, seat))
