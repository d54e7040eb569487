"""Information-set MCTS with determinization, for any game of the ``games.base`` protocol.

After Cowling, Powley & Whitehouse (2012), "Information Set Monte Carlo Tree Search".
The search starts from what the seat sees (its view), never from the true position. Each
iteration:

1. samples a full position consistent with the view (``adapter.determinize``);
2. walks down the tree. At each node every seat that owes a decision picks its action
   from its own statistics (decoupled UCT, Lanctot et al. 2013), all before any of them is
   applied, so a secret simultaneous choice (cards placed face down at once, say) is
   never made knowing the other's. A seat's actions depend on its cards, which differ
   between samples, so each action counts how often it was available and UCB uses that
   count (the "subset-armed bandit" of the paper);
3. below the tree, plays on with the adapter's cheap policy until ``adapter.horizon``
   (the game's choice: the end of the current set of rounds, say) and scores the
   position with ``adapter.evaluate``, a win probability for the searching seat.

At a simultaneous root the answer is drawn from the mixed strategy the visit counts give
(after dropping rarely visited actions: how rarely is the level's ``Style``), so the AI
cannot be read; elsewhere the most visited action is played. Given the same rng and an
iteration budget the result is always the same; a time cap makes it anytime (the best
answer so far) but no longer reproducible.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from games.base import AiParts, Command, Rules, RulesError, Seat


@dataclass(frozen=True)
class Budget:
    """How long to think: ``iterations`` playouts, stopping early after ``seconds``."""

    iterations: int
    seconds: float | None = None
    # Exceptions that end the thinking at once with the best decision found so far, e.g.
    # Celery's SoftTimeLimitExceeded, raised inside the task when its soft limit passes.
    interrupts: tuple[type[BaseException], ...] = ()


# What the search needs of a game beyond its rules: its AI parts (``rules.ai``).
Adapter = AiParts


EXPLORATION = 0.6  # UCB constant for rewards in [0, 1]
MIXED_FLOOR = 0.3  # at a simultaneous root, actions visited less than this x the most are dropped


@dataclass(frozen=True)
class Style:
    """How a level turns its statistics into a decision (the budget is how long it thinks).
    ``mixed_floor``: at a simultaneous root, the actions visited less than this times the
    most visited one are dropped from the mixed strategy (1.0: only the most visited)."""

    mixed_floor: float = MIXED_FLOOR


@dataclass
class Arm:
    visits: int = 0
    total: float = 0.0
    available: int = 0


@dataclass
class Node:
    arms: dict[Seat, dict[Hashable, Arm]] = field(default_factory=dict)
    children: dict[tuple, Node] = field(default_factory=dict)


def search(
    rules: Rules,
    adapter: Adapter,
    view: dict[str, Any],
    seat: Seat,
    rng: random.Random,
    budget: Budget,
    max_depth: int = 2,
    style: Style = Style(),
) -> Command:
    """The command ``seat`` should send, thinking within ``budget``, deciding in ``style``."""
    first = adapter.determinize(view, seat, rng)
    mine = _legal_in(rules, first, seat, adapter.candidates(first, seat, rng, root=True))
    if len(mine) <= 1 or budget.iterations <= 0:
        return mine[0] if mine else adapter.fallback(first, seat, rng)
    by_key = {adapter.key(c): c for c in mine}
    root = Node()
    started = time.perf_counter()
    try:
        for i in range(budget.iterations):
            if budget.seconds is not None and i and time.perf_counter() - started > budget.seconds:
                break
            state = first if i == 0 else adapter.determinize(view, seat, rng)
            _iterate(rules, adapter, root, state, seat, mine, rng, max_depth)
    except budget.interrupts:
        pass  # out of time: answer with what the iterations so far found
    arms = root.arms.get(seat)
    if not arms:  # interrupted before the first iteration finished
        return mine[0]
    simultaneous = len(root.arms) > 1
    return by_key[_final(arms, rng, simultaneous, style.mixed_floor)]


def _legal_in(rules: Rules, state: Any, seat: Seat, commands: list[Command]) -> list[Command]:
    out = []
    for command in commands:
        try:
            rules.decide(state, seat, command, random.Random(0))
        except RulesError:
            continue
        out.append(command)
    return out


def _iterate(
    rules: Rules,
    adapter: Adapter,
    root: Node,
    state: Any,
    me: Seat,
    mine: list[Command],
    rng: random.Random,
    max_depth: int,
) -> None:
    start = state
    node: Node | None = root
    path: list[tuple[Arm, Seat]] = []
    depth = 0
    horizon, pending = adapter.horizon, rules.pending
    due = pending(state)
    while node is not None and due and not horizon(start, state):
        picks = []
        for seat in due:
            options = (
                mine
                if node is root and seat == me
                else adapter.candidates(state, seat, rng, root=False)
            )
            arms = node.arms.setdefault(seat, {})
            command, k = _select(adapter, arms, options)
            picks.append((seat, command, k))
        # Every simultaneous choice is made above, before any of them is applied.
        for seat, command, k in picks:
            state = _apply(rules, adapter, state, seat, command, rng)
            path.append((node.arms[seat][k], seat))
        depth += 1
        joint = tuple((s, k) for s, _, k in picks)
        child = node.children.get(joint)
        if child is None and depth < max_depth:
            node.children[joint] = Node()  # expand one node per iteration
            node = None
        else:
            node = child
        due = pending(state)
    # Play on with the cheap policy up to the horizon.
    rollout = adapter.rollout
    for _ in range(1000):
        if not due or horizon(start, state):
            break
        seats = list(due)
        for i, seat in enumerate(seats):
            # the first seat owes for sure; a later one may have been answered for already
            if i == 0 or seat in pending(state):
                state = _apply(rules, adapter, state, seat, rollout(state, seat, rng), rng)
        due = pending(state)
    value = adapter.evaluate(state, me)
    for arm, seat in path:
        arm.visits += 1
        arm.total += value if seat == me else 1.0 - value


def _select(
    adapter: Adapter, arms: dict[Hashable, Arm], options: list[Command]
) -> tuple[Command, Hashable]:
    """UCB1 over the actions available now, with availability counts; untried first."""
    best, best_score = None, -1.0
    for command in options:
        k = adapter.key(command)
        arm = arms.setdefault(k, Arm())
        arm.available += 1
        if arm.visits == 0:
            score = math.inf
        else:
            score = arm.total / arm.visits + EXPLORATION * math.sqrt(
                math.log(arm.available) / arm.visits
            )
        if score > best_score:
            best, best_score = (command, k), score
    assert best is not None
    return best


def _apply(
    rules: Rules, adapter: Adapter, state: Any, seat: Seat, command: Command | None, rng: Any
) -> Any:
    """Play ``command``; a command a sampled position refuses is replaced by the rules'
    random one (a sample can hold a guess the guessing policy did not foresee)."""
    try:
        events = rules.decide(state, seat, command, rng)
    except RulesError:
        events = rules.decide(state, seat, rules.random_command(state, seat, rng), rng)
    # Event by event, as games are played (``games.playout``): a game may hand back the
    # states its ``decide`` already went through instead of applying each event again.
    evolve = rules.evolve
    for event in events:
        state = evolve(state, event)
    return state


def _final(
    arms: dict[Hashable, Arm], rng: random.Random, simultaneous: bool, floor: float = MIXED_FLOOR
) -> Hashable:
    ranked = sorted(arms.items(), key=lambda ka: (-ka[1].visits, -_mean(ka[1])))
    if not simultaneous:
        return ranked[0][0]
    top = ranked[0][1].visits
    kept = [(k, a.visits) for k, a in ranked if a.visits >= floor * top]
    pick = rng.random() * sum(v for _, v in kept)
    for k, v in kept:
        pick -= v
        if pick < 0:
            return k
    return kept[-1][0]


def _mean(arm: Arm) -> float:
    return arm.total / arm.visits if arm.visits else 0.0


# ---------------------------------------------------------------------------------------
# Assessing a decision that was made (the analysis of finished games, ``workers.analysis``)
@dataclass(frozen=True)
class Assessment:
    """How a decision compares with the search's own choice, as winning chances in [0, 1]
    for the seat that decided (judged from its view)."""

    best: Command  # the decision the search prefers (the played one when it did as well)
    best_value: float  # the chance with ``best``: the seat's chance before deciding
    played_value: float  # the chance with the decision that was made
    value: float  # the mean reward of every iteration of the search phase (its root value)
    iterations: int  # playouts run in all (search phase and both evaluations)


def assess(
    rules: Rules,
    adapter: Adapter,
    view: dict[str, Any],
    seat: Seat,
    rng: random.Random,
    budget: Budget,
    played: Command,
    evaluations: int | None = None,
    candidates: list[Command] | None = None,
    max_depth: int = 2,
) -> Assessment:
    """Judge ``played`` (a command ``seat`` sent when it saw ``view``) against the search.

    1. The search of ``search()`` runs for ``budget`` with ``played`` among the root
       candidates (``candidates``, else the adapter's; the played command replaces a
       candidate with the same key, so its own details are what is simulated).
    2. The most visited command is the best. Its chance and the played command's are then
       measured afresh, each with ``evaluations`` playouts of its own (default: a quarter
       of the budget's iterations) from the *same* sampled positions (common random
       numbers: the hidden cards, the biggest source of noise, are the same for both),
       each in a tree of its own so the opponent answers that command. Fresh playouts
       keep the selection of the best (a maximum of noisy means) from inflating its value.
    3. If the played command measured at least as well, it is the best (the loss is 0).

    Deterministic for a given ``rng`` when ``budget.seconds`` is None. ``search()`` is
    unchanged by this function."""
    evaluations = max(1, budget.iterations // 4) if evaluations is None else max(1, evaluations)
    first = adapter.determinize(view, seat, rng)
    options = candidates if candidates is not None else adapter.candidates(first, seat, rng, True)
    mine = _legal_in(rules, first, seat, options)
    played_key = adapter.key(played)
    mine = [played if adapter.key(c) == played_key else c for c in mine]
    if all(adapter.key(c) != played_key for c in mine):
        mine.append(played)
    by_key = {adapter.key(c): c for c in mine}
    root = Node()
    runs = 0
    started = time.perf_counter()
    if len(mine) > 1:
        for i in range(budget.iterations):
            if budget.seconds is not None and i and time.perf_counter() - started > budget.seconds:
                break
            state = first if i == 0 else adapter.determinize(view, seat, rng)
            _iterate(rules, adapter, root, state, seat, mine, rng, max_depth)
            runs += 1
    arms = root.arms.get(seat, {})
    if arms:
        best_key = sorted(arms.items(), key=lambda ka: (-ka[1].visits, -_mean(ka[1])))[0][0]
    else:  # nothing to choose between
        best_key = played_key
    value = sum(a.total for a in arms.values()) / max(1, sum(a.visits for a in arms.values()))
    judged = [best_key] if best_key == played_key else [best_key, played_key]
    trees = {k: Node() for k in judged}
    for j in range(evaluations):
        state = first if j == 0 else adapter.determinize(view, seat, rng)
        for k in judged:
            _iterate(rules, adapter, trees[k], state, seat, [by_key[k]], rng, max_depth)
            runs += 1
    means = {k: _mean(trees[k].arms[seat][k]) for k in judged}
    best_value, played_value = means[best_key], means[played_key]
    if not arms:
        value = best_value
    if played_value >= best_value:
        best_key, best_value = played_key, played_value
    return Assessment(by_key[best_key], best_value, played_value, value, runs)
