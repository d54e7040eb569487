"""Decisions owed per game, by kind: how often a game asks its players, and what.

    python -m bench.prompts [-n 100] [--seed 1] [--policy random|heuristic]
                            [--game KEY] [--option name=value ...]

Plays ``-n`` games of ``--game`` (default: the first registered game) with the
``--option``s given, both seats with ``--policy`` (``games.playout.POLICIES``), and counts
every decision a seat owed by its kind (``rules.pending``). Warring States' ``respond``
is a response window: the extra prompt a passive player answers unless standing
instructions answer it. Prints the median and maximum of each kind, then the figures:
``<kind>_per_game`` (the mean) for each kind and last ``prompts_per_game`` (every decision).
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter

from games.playout import POLICIES
from service import tool_args


def count(rules, options, policy, games: int, seed: int) -> list[Counter[str]]:
    """Per game, the decisions owed by kind."""
    counts = []
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        state = rules.fold(rules.setup(options, rng))
        owed: Counter[str] = Counter()
        while due := rules.pending(state):
            seat = next(iter(due))
            owed[due[seat]] += 1
            for event in rules.decide(state, seat, policy(rules, state, seat, rng), rng):
                state = rules.evolve(state, event)
        counts.append(owed)
    return counts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", "--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", choices=sorted(POLICIES), default="random")
    tool_args.add_game_arguments(parser)
    args = parser.parse_args(argv)
    try:
        rules = tool_args.rules_of(args.game)
        options = tool_args.parse_options(rules, args.option)
    except tool_args.ToolArgError as error:
        raise SystemExit(str(error)) from None
    counts = count(rules, options, POLICIES[args.policy], args.games, args.seed)
    kinds = sorted({kind for owed in counts for kind in owed})
    print(f"{args.games} games of {rules.key} ({tool_args.options_text(rules, options)}), "
          f"{args.policy} play, seed {args.seed}")  # fmt: skip
    for kind in kinds:
        each = [owed[kind] for owed in counts]
        print(f"{kind}: median {statistics.median(each)}, max {max(each)} per game")
    for kind in kinds:
        print(f"{kind}_per_game: {statistics.mean(o[kind] for o in counts):.1f} prompts")
    print(f"prompts_per_game: {statistics.mean(sum(o.values()) for o in counts):.1f} prompts")


if __name__ == "__main__":
    main()
