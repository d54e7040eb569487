"""AI levels against each other: whole games, a schedule, a process pool, statistics.

Pure apart from the pool and the progress bar: no Celery, no Redis, no store. Used by
``bingfa tournament`` and ``bench.ai``.

- ``play_game`` plays one game (of ``game``, a key of ``games.REGISTRY``; default: the
  first registered game) through ``games.playout.play``; each seat's decisions come
  from ``workers.ai.choose_command`` with that seat's level and a random stream of its own
  (derived from the game's seed and the seat), the game's chance from a third stream.
  Every ``choose_command`` is timed with ``time.process_time``: the CPU time of this
  process, which is the time on one core of its own, even when other processes share the
  machine (the search is single-threaded).
- ``schedule`` lists the games: ``games`` per pairing, seats alternated. Games ``2k`` and
  ``2k + 1`` of a pairing share a seed, so each deal is played once from each seat (the
  same opening cards; the games part once the choices differ). That halves the luck of the
  deal in a pairing's score, as duplicate bridge does.
- ``run`` plays a schedule on ``jobs`` processes (``ProcessPoolExecutor``) with a rich
  progress bar and gives the results back in schedule order, whatever order they finished in.
- Statistics: a pairing's score counts a draw as half a win; its 95% interval is the Wilson
  score interval; ``elo_difference`` turns a score into an Elo difference
  (400·log10(p / (1 − p))); ``bradley_terry`` fits one Elo per level to all games at once
  (maximum likelihood, anchored at ``random`` = 0 when it played, else the first level).

Think times measured inside a pool of more processes than free cores are inflated by the
contention; ``bench.ai`` measures them in a separate one-process pass.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

import games
from games.playout import play
from workers.ai import LEVELS, choose_command
from workers.ai.search import Budget

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


# Games ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """One scheduled game: level ``a`` against level ``b``, ``a`` in the game's first seat
    when ``a_first`` (else in the second); ``index`` counts in the pairing."""

    a: str
    b: str
    index: int
    seed: int
    a_first: bool

    @property
    def pairing(self) -> tuple[str, str]:
        return (self.a, self.b)


@dataclass
class Result:
    """One finished game, told from level ``a``'s side (``score``: 1 won, 0.5 draw, 0 lost).

    ``winner`` is the winning level's name (None for a draw); ``think`` maps each level to the
    seconds of each of its ``choose_command`` calls (one list if both seats play one level).
    ``first_seat`` is the game's first seat (``a`` had it when ``a_first``).
    """

    a: str
    b: str
    seed: int
    a_first: bool
    winner: str | None
    winner_seat: str | None
    score: float
    reason: str
    decisions: int
    think: dict[str, list[float]] = field(default_factory=dict)
    index: int = 0
    game: str = ""
    first_seat: str = ""


def derive_seed(*parts: Any) -> int:
    """A 64-bit seed from any labels, the same in every process and on every run."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def default_game() -> str:
    """The first registered game: the one played unless another is named."""
    return next(iter(games.REGISTRY))


def play_game(
    level_a: str,
    level_b: str,
    seed: int,
    a_first: bool,
    options: Mapping[str, Any] | None = None,
    budget: Budget | None = None,
    game: str | None = None,
) -> Result:
    """Play one game of ``game`` (default: the first registered), ``level_a`` against
    ``level_b``; ``a_first`` gives ``a`` the first seat, else the second.

    The game's chance comes from ``Random(seed)``; each seat's AI gets
    ``Random(f"{seed}:ai:{seat}")``. So the opening deal depends on the seed alone (the
    same whichever level sits where), and a game is reproducible from its seed as long as
    no search hits its time cap. ``budget`` overrides the search levels' thinking budget.
    """
    for level in (level_a, level_b):
        if level not in LEVELS:
            known = ", ".join(LEVELS)
            raise ValueError(f"there is no AI level {level!r}; the levels are: {known}")
    rules = games.get(game or default_game())
    first, second = rules.seats  # a two-player game
    level_of = {first: level_a, second: level_b} if a_first else {first: level_b, second: level_a}
    think: dict[str, list[float]] = {level_a: [], level_b: []}

    def policy_for(seat: str) -> Callable[..., dict[str, Any]]:
        level = level_of[seat]
        own = random.Random(f"{seed}:ai:{seat}")
        times = think[level]

        def policy(rules: Any, state: Any, seat: str, _game_rng: Any) -> dict[str, Any]:
            start = time.process_time()
            command = choose_command(rules, state, seat, level, own, budget)
            times.append(time.process_time() - start)
            if command is None:  # play only asks a seat that owes a decision
                raise RuntimeError(f"level {level!r} had no answer for {seat}")
            return command

        return policy

    policies = {s: policy_for(s) for s in rules.seats}
    played = play(rules, dict(options or {}), random.Random(seed), policies)
    outcome = played.outcome or {}
    winner_seat = outcome.get("winner")
    if winner_seat is None:
        score, winner = 0.5, None
    else:
        winner = level_of[winner_seat]
        score = 1.0 if (winner_seat == first) == a_first else 0.0
    return Result(
        a=level_a,
        b=level_b,
        seed=seed,
        a_first=a_first,
        winner=winner,
        winner_seat=winner_seat,
        score=score,
        reason=str(outcome.get("reason")),
        decisions=len(played.commands),
        think=think,
        game=rules.key,
        first_seat=first,
    )


# Schedule ---------------------------------------------------------------------------------


def all_pairings(levels: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of distinct levels in the order given; one level alone plays itself."""
    distinct = list(dict.fromkeys(levels))
    if len(distinct) == 1:
        return [(distinct[0], distinct[0])]
    return list(combinations(distinct, 2))


def schedule(
    pairings: Iterable[tuple[str, str]], games_per_pairing: int, seed: int = 1
) -> list[Match]:
    """``games_per_pairing`` games per pairing, seats alternated: ``a`` has the first seat in
    the even games (so in exactly half of them when the number is even, one more when odd). Games
    ``2k`` and ``2k + 1`` share a seed: the same deal, once from each seat. The games of
    the pairings are interleaved so a partial run covers every pairing."""
    per_pairing = [
        [
            Match(a, b, i, derive_seed("tournament", seed, a, b, i // 2), i % 2 == 0)
            for i in range(games_per_pairing)
        ]
        for a, b in pairings
    ]
    return [games_[i] for i in range(games_per_pairing) for games_ in per_pairing]


def _play_match(match: Match, options: Mapping[str, Any], budget: Budget | None,
                game: str | None) -> Result:  # fmt: skip
    result = play_game(match.a, match.b, match.seed, match.a_first, options, budget, game)
    result.index = match.index
    return result


def run(
    matches: Sequence[Match],
    options: Mapping[str, Any] | None = None,
    budget: Budget | None = None,
    jobs: int | None = None,
    console: Console | None = None,
    description: str = "tournament",
    game: str | None = None,
) -> list[Result]:
    """Play every match (of ``game``, default the first registered) and return the results
    in the order of ``matches``.

    ``jobs`` processes (default ``os.cpu_count()``); with one job, or one match, the games
    are played in this process (no pool), which is also how to time moves without contention.
    """
    jobs = max(1, jobs or os.cpu_count() or 1)
    options = dict(options or {})
    results: list[Result | None] = [None] * len(matches)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console or Console(stderr=True),
        transient=True,
    ) as progress:
        task = progress.add_task(description, total=len(matches))
        if jobs == 1 or len(matches) <= 1:
            for i, match in enumerate(matches):
                results[i] = _play_match(match, options, budget, game)
                progress.advance(task)
        else:
            pool = ProcessPoolExecutor(max_workers=min(jobs, len(matches)))
            try:
                pending: dict[Future, int] = {
                    pool.submit(_play_match, match, options, budget, game): i
                    for i, match in enumerate(matches)
                }
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        results[pending.pop(future)] = future.result()
                        progress.advance(task)
            finally:  # on an error or Ctrl-C, drop the games not started yet
                pool.shutdown(wait=True, cancel_futures=True)
    return [r for r in results if r is not None]


# Statistics -------------------------------------------------------------------------------


def wilson(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``score`` successes in ``n`` trials (draws count half,
    so ``score`` may be fractional). (0, 1) when there are no trials."""
    if n <= 0:
        return (0.0, 1.0)
    p = score / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    lo = 0.0 if score <= 0 else max(0.0, centre - half)  # exact ends, not rounding errors
    hi = 1.0 if score >= n else min(1.0, centre + half)
    return (lo, hi)


def elo_difference(p: float, n: int | None = None) -> float:
    """The Elo difference that gives an expected score ``p``: 400·log10(p / (1 − p)).

    ``p`` is clamped away from 0 and 1, to half a game of ``n`` (as if the next game went
    the other way half the time) or, with no ``n``, to 0.001 / 0.999 (±1200 Elo)."""
    eps = 0.5 / n if n else 0.001
    p = min(max(p, eps), 1 - eps)
    return 400 * math.log10(p / (1 - p))


@dataclass
class Tally:
    """One pairing, from ``a``'s side."""

    a: str
    b: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    a_first: int = 0  # games where a had the first seat
    first_wins: int = 0  # games the first seat won
    reasons: dict[str, int] = field(default_factory=dict)
    first_seat: str = ""  # the game's first seat

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def rate(self) -> float:
        return self.score / self.games if self.games else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.score, self.games)

    @property
    def elo(self) -> float:
        return elo_difference(self.rate, self.games)


def tally(results: Iterable[Result]) -> dict[tuple[str, str], Tally]:
    """Per pairing (in the order first met): wins, draws and losses of ``a`` against ``b``."""
    out: dict[tuple[str, str], Tally] = {}
    for r in results:
        t = out.setdefault((r.a, r.b), Tally(r.a, r.b, first_seat=r.first_seat))
        if r.score == 1.0:
            t.wins += 1
        elif r.score == 0.0:
            t.losses += 1
        else:
            t.draws += 1
        t.a_first += r.a_first
        t.first_wins += r.winner_seat is not None and r.winner_seat == r.first_seat
        t.reasons[r.reason] = t.reasons.get(r.reason, 0) + 1
    return out


def bradley_terry(
    tallies: Iterable[Tally], anchor: str | None = None, prior: float = 1.0
) -> tuple[dict[str, float], str]:
    """One Elo per level, the maximum-likelihood Bradley–Terry fit to every game.

    P(i beats j) = γi / (γi + γj); a draw counts as half a win each way. Fitted with
    Hunter's (2004) MM iteration. ``prior`` virtual draws are added to every pairing that
    was played, so a level that won every game gets a large finite rating rather than an
    infinite one. Elo = 400·log10(γ / γ_anchor); the anchor is ``anchor`` if given, else
    ``random`` if it played, else the first level met. Games of a level against itself say
    nothing and are skipped. Returns (Elo per level, the anchor).
    """
    wins: dict[str, float] = {}
    meetings: dict[tuple[str, str], float] = {}
    for t in tallies:
        for level in (t.a, t.b):
            wins.setdefault(level, 0.0)
        if t.a == t.b or t.games == 0:
            continue
        wins[t.a] += t.score + prior / 2
        wins[t.b] += t.games - t.score + prior / 2
        key = (t.a, t.b) if t.a < t.b else (t.b, t.a)
        meetings[key] = meetings.get(key, 0.0) + t.games + prior
    levels = list(wins)
    if not levels:
        return {}, anchor or ""
    anchor = anchor or ("random" if "random" in wins else levels[0])
    gamma = dict.fromkeys(levels, 1.0)
    for _ in range(10_000):
        new = {}
        for i in levels:
            denominator = sum(
                n / (gamma[x] + gamma[y]) for (x, y), n in meetings.items() if i in (x, y)
            )
            new[i] = wins[i] / denominator if denominator else gamma[i]
        scale = math.exp(sum(math.log(g) for g in new.values()) / len(new))
        new = {i: g / scale for i, g in new.items()}
        change = max(abs(math.log(new[i] / gamma[i])) for i in levels)
        gamma = new
        if change < 1e-10:
            break
    base = gamma[anchor]
    return {i: 400 * math.log10(gamma[i] / base) for i in levels}, anchor


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 < q ≤ 1) of ``values``; NaN when there are none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def think_times(results: Iterable[Result]) -> dict[str, list[float]]:
    """Every timed decision of each level over ``results``."""
    out: dict[str, list[float]] = {}
    for r in results:
        for level, times in r.think.items():
            out.setdefault(level, []).extend(times)
    return out


# Tables -----------------------------------------------------------------------------------


def crosstable(tallies: Mapping[tuple[str, str], Tally], levels: Sequence[str]) -> Table:
    """Row level's score against the column level: rate (score/games), 95% interval below."""
    table = Table(show_lines=True)
    table.add_column("row vs column")
    for level in levels:
        table.add_column(level)
    for row in levels:
        cells = []
        for col in levels:
            t = _oriented(tallies, row, col)
            if t is None or t.games == 0:
                cells.append("—")
            else:
                lo, hi = t.interval
                cells.append(f"{t.rate:.2f} ({t.score:g}/{t.games})\n{lo:.2f}–{hi:.2f}")
        table.add_row(row, *cells)
    return table


def _oriented(tallies: Mapping[tuple[str, str], Tally], row: str, col: str) -> Tally | None:
    if (row, col) in tallies:
        return tallies[(row, col)]
    t = tallies.get((col, row))
    if t is None:
        return None
    return Tally(row, col, t.losses, t.draws, t.wins, t.games - t.a_first, t.first_wins,
                 t.reasons, t.first_seat)  # fmt: skip


def pairing_table(tallies: Mapping[tuple[str, str], Tally]) -> Table:
    """One row per pairing: a's won–drawn–lost, score, 95% interval, Elo difference."""
    table = Table("a vs b", "games", "W–D–L", "score", "95% CI", "Elo diff (95% CI)")
    for t in tallies.values():
        lo, hi = t.interval
        elo_lo, elo_hi = elo_difference(lo, t.games), elo_difference(hi, t.games)
        table.add_row(
            f"{t.a} vs {t.b}",
            str(t.games),
            f"{t.wins}–{t.draws}–{t.losses}",
            f"{t.rate:.3f}",
            f"{lo:.2f}–{hi:.2f}",
            f"{t.elo:+.0f} ({elo_lo:+.0f}…{elo_hi:+.0f})",
        )
    return table


def elo_table(elo: Mapping[str, float]) -> Table:
    table = Table("level", "Elo")
    for level, rating in sorted(elo.items(), key=lambda kv: -kv[1]):
        table.add_row(level, f"{rating:+.0f}")
    return table


def think_table(times: Mapping[str, list[float]]) -> Table:
    table = Table("level", "decisions", "mean s", "p95 s", "max s")
    for level, values in times.items():
        if values:
            table.add_row(
                level,
                str(len(values)),
                f"{sum(values) / len(values):.3f}",
                f"{percentile(values, 0.95):.3f}",
                f"{max(values):.3f}",
            )
    return table


def report(
    results: Sequence[Result],
    levels: Sequence[str],
    console: Console,
    jobs: int,
    think: bool = True,
) -> None:
    """Print the crosstable, the win rates with their intervals, the Elo fit and (``think``)
    the seconds per decision."""
    tallies = tally(results)
    console.print("Score of the row level against the column level (draws count half), "
                  "95% Wilson interval below:", soft_wrap=True)  # fmt: skip
    console.print(crosstable(tallies, levels))
    first = ", ".join(f"{t.a_first} of {t.games}" for t in tallies.values())
    seat = next((t.first_seat for t in tallies.values() if t.first_seat), "first")
    console.print(f"Win rates per pairing, from a's side (a had the first seat, {seat}, in "
                  f"{first}):", soft_wrap=True)  # fmt: skip
    console.print(pairing_table(tallies))
    if any(a != b for a, b in tallies):
        elo, anchor = bradley_terry(tallies.values())
        console.print(f"Elo, a Bradley–Terry fit to every game, anchored at {anchor} = 0:")
        console.print(elo_table(elo))
    if not think:
        return
    where = "one process" if jobs == 1 else f"{jobs} processes at once, slower if cores are short"
    console.print(f"Seconds per decision ({where}):", soft_wrap=True)
    console.print(think_table(think_times(results)))
