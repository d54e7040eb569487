"""The command line and the rules bench, run as a user would run them."""

from __future__ import annotations

import re

import pytest

from bench import rules as bench_rules
from service import cli


def test_selfplay_prints_win_rates_lengths_and_endings(capsys):
    assert cli.main(["selfplay", "-n", "12", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    rates = {who: int(n) for who, n in re.findall(r"(blue wins|red wins|draws)\s*│\s*(\d+)", out)}
    assert set(rates) == {"blue wins", "red wins", "draws"}
    assert sum(rates.values()) == 12
    assert re.search(r"average length: \d\.\d\d rounds, \d+\.\d events", out)
    endings = re.findall(r"│ (knockout|points|reserve|last_event|draw)\s*│\s*(\d+)", out)
    assert sum(int(n) for _, n in endings) == 12


def test_selfplay_is_reproducible_for_a_seed(capsys):
    cli.main(["selfplay", "-n", "6", "--seed", "9", "--variant", "beginner", "--no-events"])
    first = capsys.readouterr().out
    cli.main(["selfplay", "-n", "6", "--seed", "9", "--variant", "beginner", "--no-events"])
    assert capsys.readouterr().out == first


def test_selfplay_accepts_a_policy_given_as_module_function(capsys):
    policy = "games.playout:random_policy"
    assert cli.main(["selfplay", "-n", "3", "--blue", policy]) == 0
    assert "blue = games.playout:random_policy" in capsys.readouterr().out


def test_selfplay_refuses_an_unknown_policy_with_a_sentence():
    with pytest.raises(SystemExit, match="unknown policy 'clever'"):
        cli.main(["selfplay", "-n", "1", "--red", "clever"])


def test_selfplay_refuses_an_unknown_game(capsys):
    assert cli.main(["selfplay", "--game", "chess"]) == 2
    assert "there is no game called 'chess'" in capsys.readouterr().out


def test_bench_prints_its_figures_last(capsys):
    bench_rules.main(["--games", "5", "--seconds", "30"])
    last = capsys.readouterr().out.strip().splitlines()[-3:]
    assert re.fullmatch(r"random_games_per_second: \d+ games/s", last[0])
    assert re.fullmatch(r"events_per_game: \d+\.\d", last[1])
    assert re.fullmatch(r"bytes_per_game: \d+ B", last[2])
    assert float(last[1].split()[1]) > 50
