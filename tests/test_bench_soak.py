"""``python -m bench.soak``, very short: a few players, the whole stack as separate
processes, the rolling restart and the projector's kill -9 in the middle. Its figure lines
must parse, and no acknowledged command may be lost nor any request fail; no timing is
asserted (speed is the bench's to measure)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from bench.soak import check, rss_growth

ROOT = Path(__file__).resolve().parent.parent
FIGURES = {
    "soak_commands": "commands",
    "soak_games_finished": "games",
    "soak_errors": "errors",
    "soak_p99_ms": "ms",
    "soak_rss_growth_mb": "MB",
    "soak_rss_growth_pct": "%",
    "soak_lost_events": "events",
}


def figures(stdout: str) -> dict[str, float]:
    lines = stdout.strip().splitlines()[-len(FIGURES) :]  # the figures are the last lines
    found = {}
    for line in lines:
        match = re.fullmatch(r"(\w+): (-?[\d.]+) (\S+)", line)
        assert match, f"not a figure line: {line!r}"
        name, value, unit = match.groups()
        assert FIGURES.get(name) == unit, line
        found[name] = float(value)
    assert set(found) == set(FIGURES)
    return found


def test_a_short_soak_loses_nothing_and_fails_nothing(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("REDIS_URL", None)  # its own bundled Redis: the soak restarts what uses it
    command = [sys.executable, "-m", "bench.soak", "--players", "6", "--seconds", "20",
               "--think", "0.5"]  # fmt: skip
    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600)  # fmt: skip
    said = f"stdout:\n{run.stdout[-3000:]}\nstderr:\n{run.stderr[-5000:]}"
    found = figures(run.stdout)
    assert found["soak_commands"] > 0, said
    assert found["soak_errors"] == 0, said
    assert found["soak_lost_events"] == 0, said
    assert "kill -9 of the projector" in run.stderr, said
    assert run.returncode == 0, said


def test_figure_lines_that_do_not_parse_are_refused():
    with pytest.raises(AssertionError):
        figures("soak_commands: 3 commands\nsoak_errors: many errors\n")


class Stream:
    """An event store of one game, as ``bench.soak.check`` reads it."""

    redis = None

    def read(self, game_id, after=0):
        return [SimpleNamespace(seq=1, hash="a"), SimpleNamespace(seq=2, hash="b")]


def played(acks):
    return SimpleNamespace(tally=SimpleNamespace(acks=acks), games={})


def test_the_end_check_counts_what_was_acknowledged_but_is_not_in_the_stream():
    assert check(Stream(), played([("g", 1, "a"), ("g", 2, "b"), ("g", 2, None)]))[0] == 0
    lost, why = check(Stream(), played([("g", 2, "x"), ("g", 3, "c"), ("g", 3, None)]))
    assert lost == 3 and len(why) == 3


def test_rss_growth_is_the_worst_sample_after_the_warm_up():
    samples = [(1, 100.0), (2, 110.0), (5, 130.0), (9, 105.0)]
    assert rss_growth(samples, seconds=10) == (20.0, 100 * 20 / 110, 110.0)
