"""How strong and how quick the AI levels are, at their default budgets.

    python -m bench.ai [--games N] [--jobs J] [--seed S] [--quick] [--game KEY]
                       [--option name=value ...]

Strength: the pairings hard–random, hard–easy, medium–easy and hard–medium, each ``--games``
games (default 200; ``--quick`` 4) of ``--game`` (default: the first registered game) with
the ``--option``s given (the game's defaults for the rest; the timings below were measured
with ``--option events=true``), through ``workers.tournament``: seats alternated, so each
level has the first seat in half the games, and games 2k and 2k + 1 share a seed (the same
deal, once from each seat). A game's score counts a draw as half a win; the interval is the
95% Wilson score interval.

Speed: the seconds of every ``choose_command`` of hard and of medium, measured with
``time.process_time`` around the call (CPU time: the time on one core of its own, however
busy the machine), as the 95th percentile (nearest rank) over all their decisions in
``--timed-games`` games each (default 10; ``--quick`` 2). Those games are played first, in
this one process, with nothing else of the bench running; they are the first games of the
first pairing each level plays (hard–random, medium–easy) and count in the win rates too.
The rest of the games then run on ``--jobs`` processes (default one per core), whose think
times are not used.

Goals: hard vs random ≥ 0.95, hard vs easy ≥ 0.75, hard vs medium ≥ 0.85 (issue 18, over 40
games), hard's p95 ≤ 1 s (issue 18), medium's p95 ≤ 0.5 s a decision (one core); a game's AI
parts may add or change win-rate goals of their own (``strength_goals``, e.g.
``{"hard_vs_medium": 0.6}``). ``--quick`` says in its output that
it played fewer games. Hard plays about 15 decisions a game, under 1 s each at the 95th
percentile since issue 18 (800 playouts; ``workers/ai/__init__.py``); the full bench still
takes hours, ``--quick`` a few minutes.

Prints the crosstable and the Elo fit, then, last, one line each:
``hard_vs_random_win_rate``, ``hard_vs_easy_win_rate``, ``medium_vs_easy_win_rate``,
``hard_vs_medium_win_rate`` (as ``0.975 (95% CI 0.94–0.99, 200 games)``),
``hard_move_p95_seconds``, ``medium_move_p95_seconds`` and ``total_wall_seconds``.
A pairing or level that ``workers.ai.LEVELS`` does not have prints ``n/a``.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console

from service import tool_args
from workers import tournament
from workers.ai import LEVELS

PAIRINGS = [("hard", "random"), ("hard", "easy"), ("medium", "easy"), ("hard", "medium")]
TIMED = ["hard", "medium"]
WIN_GOALS = {("hard", "random"): 0.95, ("hard", "easy"): 0.75, ("hard", "medium"): 0.85}
P95_GOALS = {"hard": 1.0, "medium": 0.5}
QUICK_GAMES, QUICK_TIMED = 4, 2


@dataclass
class Outcome:
    """What one run of the bench measured."""

    pairings: list[tuple[str, str]]
    timed: list[str]
    tallies: dict[tuple[str, str], tournament.Tally]
    p95: dict[str, float]
    decisions: dict[str, tuple[int, int]]  # level -> (timed decisions, timed games)
    missing: dict[str, str] = field(default_factory=dict)  # figure name -> why n/a
    results: list[tournament.Result] = field(default_factory=list)
    seconds: tuple[float, float] = (0.0, 0.0)  # wall time of the timed pass and of the pool


def timed_matches(
    matches: Sequence[tournament.Match], levels: Sequence[str], per_level: int
) -> dict[str, list[tournament.Match]]:
    """For each level, the first ``per_level`` games of the first pairing it plays."""
    out: dict[str, list[tournament.Match]] = {}
    for level in levels:
        first = next((m.pairing for m in matches if level in m.pairing), None)
        out[level] = [m for m in matches if m.pairing == first][:per_level]
    return out


def measure(
    pairings: Sequence[tuple[str, str]],
    games: int,
    timed: Sequence[str],
    timed_games: int,
    jobs: int,
    seed: int = 1,
    console: Console | None = None,
    game: str | None = None,
    options: dict[str, Any] | None = None,
) -> Outcome:
    """Play the timed games (of ``game`` with ``options``: default the first registered game
    with its default options) in this process, then the rest on ``jobs`` processes."""
    console = console or Console(stderr=True)
    missing: dict[str, str] = {}
    playable = []
    for a, b in pairings:
        absent = [level for level in (a, b) if level not in LEVELS]
        if absent:
            missing[f"{a}_vs_{b}_win_rate"] = f"no level {absent[0]!r}"
        else:
            playable.append((a, b))
    matches = tournament.schedule(playable, games, seed)
    per_level = timed_matches(matches, [t for t in timed if t in LEVELS], timed_games)
    for level in timed:
        if not per_level.get(level):
            missing[f"{level}_move_p95_seconds"] = f"no games of level {level!r}"
    first = list(dict.fromkeys(m for ms in per_level.values() for m in ms))
    start = time.perf_counter()
    played = tournament.run(first, options, jobs=1, console=console,
                            description="timed games", game=game)  # fmt: skip
    done = dict(zip(first, played, strict=True))
    middle = time.perf_counter()
    rest = [m for m in matches if m not in done]
    others = tournament.run(rest, options, jobs=jobs, console=console, game=game)
    done.update(zip(rest, others, strict=True))
    seconds = (middle - start, time.perf_counter() - middle)
    p95, decisions = {}, {}
    for level, ms in per_level.items():
        times = [t for m in ms for t in done[m].think.get(level, [])]
        if times:
            p95[level] = tournament.percentile(times, 0.95)
            decisions[level] = (len(times), len(ms))
    results = [done[m] for m in matches]
    tallies = tournament.tally(results)
    return Outcome(list(playable), list(timed), tallies, p95, decisions, missing, results, seconds)


def figure_lines(outcome: Outcome, pairings: Sequence[tuple[str, str]]) -> list[str]:
    lines = []
    for a, b in pairings:
        name = f"{a}_vs_{b}_win_rate"
        t = outcome.tallies.get((a, b))
        if t is None:
            lines.append(f"{name}: n/a ({outcome.missing.get(name, 'not played')})")
            continue
        lo, hi = t.interval
        lines.append(f"{name}: {t.rate:.3f} (95% CI {lo:.2f}–{hi:.2f}, {t.games} games)")
    for level in outcome.timed:
        name = f"{level}_move_p95_seconds"
        if level in outcome.p95:
            lines.append(f"{name}: {outcome.p95[level]:.3f} s")
        else:
            lines.append(f"{name}: n/a ({outcome.missing.get(name, 'no decisions')})")
    return lines


def win_goals(rules: Any) -> dict[tuple[str, str], float]:
    """The win-rate goals: the bench's own, with those the game's AI parts add or change
    (their optional ``strength_goals``, "a_vs_b" -> the lowest acceptable score)."""
    goals = dict(WIN_GOALS)
    extra = getattr(getattr(rules, "ai", None), "strength_goals", None) or {}
    for name, goal in extra.items():
        a, _, b = name.partition("_vs_")
        goals[(a, b)] = goal
    return goals


def goal_lines(outcome: Outcome, goals: dict[tuple[str, str], float] | None = None) -> list[str]:
    lines = []
    for (a, b), goal in (WIN_GOALS if goals is None else goals).items():
        t = outcome.tallies.get((a, b))
        if t is not None:
            verdict = "met" if t.rate >= goal else "NOT met"
            lines.append(f"goal {a} vs {b} ≥ {goal}: {verdict} ({t.rate:.3f})")
    for level, goal in P95_GOALS.items():
        if level in outcome.p95:
            verdict = "met" if outcome.p95[level] <= goal else "NOT met"
            lines.append(f"goal {level} p95 ≤ {goal} s: {verdict} ({outcome.p95[level]:.3f} s)")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.ai",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, help="games per pairing (200; --quick 4)")
    parser.add_argument("--timed-games", type=int, help="one-core games per timed level (10)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="4 games per pairing, 2 timed")
    tool_args.add_game_arguments(parser)
    # For the tests: other pairings ("a:b,c:d") and timed levels ("x,y").
    parser.add_argument("--pairings", help=argparse.SUPPRESS)
    parser.add_argument("--timed", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    games = args.games or (QUICK_GAMES if args.quick else 200)
    timed_games = args.timed_games or (QUICK_TIMED if args.quick else 10)
    pairings = (
        [tuple(p.split(":", 1)) for p in args.pairings.split(",")] if args.pairings else PAIRINGS
    )
    timed = args.timed.split(",") if args.timed else TIMED
    try:
        rules = tool_args.rules_of(args.game)
        options = tool_args.parse_options(rules, args.option)
    except tool_args.ToolArgError as error:
        parser.error(str(error))

    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    outcome = measure(pairings, games, timed, timed_games, args.jobs, args.seed,
                      game=rules.key, options=options)  # fmt: skip
    wall = time.perf_counter() - start

    out = Console(width=100)
    levels = sorted(
        {level for pairing in outcome.pairings for level in pairing}, key=list(LEVELS).index
    )
    if outcome.results:
        tournament.report(outcome.results, levels, out, args.jobs, think=False)
    print(
        f"games: {games} per pairing (seats alternated) of {rules.key}, "
        f"{tool_args.options_text(rules, options)}, seed {args.seed}, "
        f"default budgets, {args.jobs} process(es) for the untimed games"
    )
    for level, (n, g) in outcome.decisions.items():
        print(f"timed on one core: {level}, {n} decisions in {g} games")
    print(
        f"wall time: {outcome.seconds[0]:.0f} s timed pass (one process), "
        f"{outcome.seconds[1]:.0f} s the other games ({args.jobs} processes); 1-minute load "
        f"average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after (other programs "
        "running slow the timed moves down)"
    )
    if args.quick and not args.games:
        print(
            f"quick: {games} games per pairing and {timed_games} timed games per level, "
            "fewer than a full run (200 a pairing; an issue's measure may ask for another "
            "number: --games N), so the intervals are wide"
        )
    for line in goal_lines(outcome, win_goals(rules)):
        print(line)
    for line in figure_lines(outcome, pairings):
        print(line)
    print(f"total_wall_seconds: {wall:.0f} s")


if __name__ == "__main__":
    main()
