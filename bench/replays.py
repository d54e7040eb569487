"""Replays: verifying a record, the state at a step, and analysing a whole game.

    python -m bench.replays [--games N] [--analyse K] [--agreement K] [--steps S]
                            [--seed X] [--quick] [--game KEY] [--option name=value ...]

Games: ``--games`` (default 6; ``--quick`` 2) games of ``--game`` (default: every
registered game, one after the other) with the ``--option``s given (the game's defaults
for the rest; the figure in ``workers.analysis.DEFAULT``'s note was measured with
``--option events=true``),
played through the write path (``events.writepath.WritePath`` over an ``InMemoryEventStore``)
by the easy AI on both seats (it plays whole games to their natural end, as people do;
random play ends early more often), then made into records (``replays.record``).

* ``verify_ms``: ``replays.verify.verify(record)`` of a finished game (hash chain, seed and
  nonce commitments, header, a re-run of the deal and every command), the mean over the
  games (each verified 3 times).
* ``state_at_step_ms``: the state at a random step on a *fresh* replay object, i.e.
  ``Replay(record).state_at(n)`` with the fold of the record and its checkpoints included
  (what a request costs when the record is not in the replay cache), the mean over
  ``--steps`` random steps (default 200; ``--quick`` 50) spread over the games. The line
  before it gives the warm figure (``state_at`` on an already folded replay).
* ``analysis_seconds``: ``workers.analysis.analyse(record)`` at the default strength
  (``workers.analysis.DEFAULT``), in this one process (one core: the search is
  single-threaded), as CPU seconds (``time.process_time``: the figure on a loaded machine
  is not inflated by waiting for a core); the maximum over the ``--analyse`` games with
  the most decisions (default 3; ``--quick`` 1). The wall time is printed before it. Goal:
  ≤ 60 s.

* ``analysis_agreement_classes``, ``analysis_agreement_best``, ``analysis_loss_difference``:
  how far those analyses agree with a deeper one (``workers.analysis.agreement``: 3 times
  the playouts, another seed) of the first ``--agreement`` of them (default 1; 0: not
  measured, ``n/a``): the share of the decisions with a choice given the same class, the
  share given the same best decision, the mean absolute difference of the losses. The
  deeper analysis takes about 3 times as long as the one timed.

Prints, last: ``verify_ms``, ``state_at_step_ms``, ``analysis_seconds`` and the three
agreement figures; without ``--game``, every registered game in turn, and at the end each
game's figures under its key (``sun_tzu_verify_ms``, ``warring_states_verify_ms``, …).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

import games
from events.projector import load
from events.store import InMemoryEventStore
from events.writepath import WritePath
from replays.record import Record, record_of
from replays.replay import Replay
from replays.verify import verify
from service import tool_args
from workers.ai import choose_command
from workers.analysis import DEFAULT, analyse
from workers.analysis.agreement import (
    REFERENCE_FACTOR,
    REFERENCE_SEED,
    Agreement,
    agreement,
    deeper,
)


def play_games(n: int, seed: int, rules: Any = None,
               options: dict[str, Any] | None = None) -> list[Record]:  # fmt: skip
    """``n`` finished games (of ``rules``, default the first registered game, with
    ``options``) of the easy AI against itself, as records."""
    rules = rules or tool_args.rules_of(tool_args.default_game())
    counter = itertools.count()
    app = WritePath(InMemoryEventStore(), token=lambda size: f"{next(counter):0{size * 2}x}")
    out = []
    for g in range(n):
        game_id = app.create_game(rules.key, dict(options or {}),
                                  dict.fromkeys(rules.seats, "human"))  # fmt: skip
        for seat in rules.seats:
            app.join(game_id, seat, player=f"bench-{seat}")
        rng = random.Random(seed * 1000 + g)
        while True:
            game = load(app.store, game_id)
            if not game.pending:
                break
            seat = sorted(game.pending)[rng.randrange(len(game.pending))]
            app.submit(game_id, seat, choose_command(rules, game.state, seat, "easy", rng))
        out.append(record_of(app.store, game_id))
    return out


# The agreement's figures (``workers.analysis.agreement``), printed after analysis_seconds.
AGREEMENT_FIGURES = (("analysis_agreement_classes", "share"), ("analysis_agreement_best", "share"),
                     ("analysis_loss_difference", "points"))  # fmt: skip


def decisions(record: Record) -> int:
    return sum(e.type == "command_given" for e in record.events)


def time_verify(records: Sequence[Record], repeat: int = 3) -> float:
    times = []
    for record in records:
        for _ in range(repeat):
            started = time.perf_counter()
            report = verify(record)
            times.append(time.perf_counter() - started)
            assert report.ok, report.sentence
    return 1000 * statistics.mean(times)


def time_state_at(records: Sequence[Record], steps: int, rng: random.Random) -> tuple[float, float]:
    """(fresh, warm) mean milliseconds of ``state_at`` at random steps."""
    fresh, warm = [], []
    folded = [Replay(r) for r in records]
    for i in range(steps):
        record = records[i % len(records)]
        n = rng.randint(0, len(record.events))
        started = time.perf_counter()
        Replay(record).state_at(n)
        fresh.append(time.perf_counter() - started)
        started = time.perf_counter()
        folded[i % len(records)].state_at(n)
        warm.append(time.perf_counter() - started)
    return 1000 * statistics.mean(fresh), 1000 * statistics.mean(warm)


def time_analysis(records: Sequence[Record]) -> list[tuple[int, float, float, dict[str, Any]]]:
    """(decisions, CPU seconds, wall seconds, result) of each analysis at the default
    strength."""
    out = []
    for record in records:
        cpu, wall = time.process_time(), time.perf_counter()
        result = analyse(record, DEFAULT)
        out.append((decisions(record), time.process_time() - cpu, time.perf_counter() - wall,
                    result))  # fmt: skip
    return out


def measure_agreement(records: Sequence[Record], results: Sequence[dict[str, Any]]) -> Agreement:
    """The agreement of ``results`` (the default analyses of ``records``) with a deeper
    analysis of each record (``workers.analysis.agreement``)."""
    references = [analyse(r, deeper(DEFAULT), seed=REFERENCE_SEED) for r in records]
    return agreement(references, results)


def main(argv: list[str] | None = None) -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(prog="python -m bench.replays", description=__doc__,
                                     formatter_class=raw)  # fmt: skip
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--analyse", type=int, default=None)
    parser.add_argument("--steps", type=int, default=None)
    parser.add_argument("--agreement", type=int, default=1,
                        help="analysed games analysed deeper too, for the agreement")  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="2 games, 50 steps, 1 analysis")
    tool_args.add_game_arguments(parser)
    parser.set_defaults(game=None)  # no --game: every registered game, one after the other
    args = parser.parse_args(argv)
    if args.game is None and args.option:
        parser.error("--option needs --game: options belong to one game")
    keys = [args.game] if args.game else list(games.REGISTRY)
    try:
        plan = [(rules, tool_args.parse_options(rules, args.option))
                for rules in map(tool_args.rules_of, keys)]  # fmt: skip
    except tool_args.ToolArgError as error:
        parser.error(str(error))
    figures = [(rules, bench_game(rules, options, args)) for rules, options in plan]
    for rules, got in figures:
        # one game asked for: the figures' plain names; every game: each under its key
        prefix = "" if args.game else rules.key.replace("-", "_") + "_"
        print(f"{prefix}verify_ms: {got['verify_ms']:.1f} ms")
        print(f"{prefix}state_at_step_ms: {got['state_at_step_ms']:.2f} ms")
        print(f"{prefix}analysis_seconds: {got['analysis_seconds']:.1f} s")
        for name, unit in AGREEMENT_FIGURES:
            value = got.get(name)
            shown = "n/a" if value is None else f"{value:.3f} {unit}"
            print(f"{prefix}{name}: {shown}")


def bench_game(
    rules: Any, options: dict[str, Any], args: argparse.Namespace
) -> dict[str, float | None]:
    """Plays, verifies, steps through and analyses games of one game; prints what it saw and
    gives its figures."""
    n_games = args.games or (2 if args.quick else 6)
    n_analyse = args.analyse or (1 if args.quick else 3)
    n_steps = args.steps or (50 if args.quick else 200)

    started = time.perf_counter()
    records = play_games(n_games, args.seed, rules, options)
    events = [len(r.events) for r in records]
    rounds = [r.header["outcome"].get("round") for r in records]  # when the game has rounds
    took = time.perf_counter() - started
    mean_decisions = statistics.mean(map(decisions, records))
    played = f"{rules.key}, {tool_args.options_text(rules, options)}"
    print(f"{n_games} games of easy vs easy ({played}) in {took:.1f} s: "
          f"{statistics.mean(events):.0f} events a game (min {min(events)}, max {max(events)}), "
          f"ended in rounds {rounds}, {mean_decisions:.0f} decisions a game")  # fmt: skip
    verify_ms = time_verify(records)
    fresh_ms, warm_ms = time_state_at(records, n_steps, random.Random(args.seed))
    print(f"state at a random step on an already folded replay: {warm_ms:.3f} ms "
          f"(mean of {n_steps})")  # fmt: skip
    longest = sorted(records, key=decisions, reverse=True)[:n_analyse]
    timed = time_analysis(longest)
    s = DEFAULT
    print(f"analysis at the default strength (placements {s.place} playouts + 2 x "
          f"{s.place_evaluations}, other decisions {s.other} + 2 x {s.other_evaluations}), "
          f"load average {os.getloadavg()[0]:.1f}:")  # fmt: skip
    for n, cpu, wall, _ in timed:
        print(f"    {n} decisions: {cpu:.1f} CPU s, {wall:.1f} s wall, "
              f"{1000 * cpu / n:.0f} ms a decision")  # fmt: skip
    figures = {
        "verify_ms": verify_ms,
        "state_at_step_ms": fresh_ms,
        "analysis_seconds": max(cpu for _, cpu, _, _ in timed),
    }
    k = min(args.agreement, len(timed))
    if k > 0:
        started = time.perf_counter()
        found = measure_agreement(longest[:k], [result for *_, result in timed[:k]])
        print(f"agreement with an analysis of {REFERENCE_FACTOR}x the playouts (seed "
              f"{REFERENCE_SEED}) of {k} game(s): {found.decisions} decisions with a choice "
              f"compared, reference in {time.perf_counter() - started:.0f} s wall")  # fmt: skip
        figures.update(analysis_agreement_classes=found.classes,
                       analysis_agreement_best=found.best,
                       analysis_loss_difference=found.loss_difference)  # fmt: skip
    return figures


if __name__ == "__main__":
    main()
