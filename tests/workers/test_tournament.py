"""Tournaments between AI levels: the statistics, the schedule, the pool, the command line
and the bench, on the random level (milliseconds a game). Speed is measured in bench.ai,
never asserted here."""

from __future__ import annotations

import math
import random
import re
from collections import Counter

import pytest

from bench import ai as bench_ai
from service import cli
from workers import tournament
from workers.ai import LEVELS

OPTIONS = {"variant": "standard", "events": True}
FAST_LEVEL = "easy" if "easy" in LEVELS else "random"  # a fraction of a second a game


# Statistics --------------------------------------------------------------------------------


def test_wilson_interval_of_an_even_score():
    lo, hi = tournament.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3)
    assert hi == pytest.approx(0.5962, abs=1e-3)


def test_wilson_interval_of_a_lopsided_score():
    # 95 of 100: the textbook Wilson interval is 0.8882 to 0.9785.
    lo, hi = tournament.wilson(95, 100)
    assert (lo, hi) == pytest.approx((0.8882, 0.9785), abs=1e-3)


@pytest.mark.parametrize("n", [1, 10, 200])
def test_wilson_interval_at_none_and_all(n):
    z2 = tournament.Z95**2
    lo, hi = tournament.wilson(0, n)
    assert lo == 0.0
    assert hi == pytest.approx(z2 / (n + z2))  # the closed form at zero successes
    lo, hi = tournament.wilson(n, n)
    assert hi == 1.0
    assert lo == pytest.approx(n / (n + z2))


def test_wilson_interval_with_no_games_says_nothing():
    assert tournament.wilson(0, 0) == (0.0, 1.0)


def test_elo_difference_from_a_score():
    assert tournament.elo_difference(0.5) == 0
    assert tournament.elo_difference(0.76) == pytest.approx(200, abs=1.0)
    assert tournament.elo_difference(0.24) == pytest.approx(-200, abs=1.0)


def test_elo_difference_is_finite_at_a_clean_sweep():
    assert tournament.elo_difference(1.0, 200) == pytest.approx(400 * math.log10(199.5 / 0.5))
    assert tournament.elo_difference(0.0, 200) == pytest.approx(-tournament.elo_difference(1, 200))
    assert math.isfinite(tournament.elo_difference(1.0))


def synthetic_tallies(true_elo, games, seed=0):
    """Every pairing of the given levels, results drawn from the Elo model."""
    rng = random.Random(seed)
    levels = list(true_elo)
    out = []
    for i, a in enumerate(levels):
        for b in levels[i + 1 :]:
            p = 1 / (1 + 10 ** ((true_elo[b] - true_elo[a]) / 400))
            wins = sum(rng.random() < p for _ in range(games))
            out.append(tournament.Tally(a, b, wins=wins, losses=games - wins))
    return out


def test_bradley_terry_recovers_the_order_and_roughly_the_gaps():
    true_elo = {"random": 0, "easy": 250, "medium": 450, "hard": 600}
    elo, anchor = tournament.bradley_terry(synthetic_tallies(true_elo, 400))
    assert anchor == "random"
    assert elo["random"] == 0
    assert sorted(elo, key=elo.get) == ["random", "easy", "medium", "hard"]
    for level, rating in true_elo.items():
        assert elo[level] == pytest.approx(rating, abs=60)


def test_bradley_terry_of_two_levels_is_the_pairings_elo_difference():
    tally = tournament.Tally("b", "a", wins=76, losses=24)
    elo, anchor = tournament.bradley_terry([tally], prior=0)
    assert anchor == "b"  # no random level: the first level met
    assert elo["a"] == pytest.approx(-tournament.elo_difference(0.76), abs=0.1)


def test_bradley_terry_stays_finite_when_one_level_wins_everything():
    tallies = [tournament.Tally("hard", "random", wins=200)]
    elo, _ = tournament.bradley_terry(tallies)
    assert 600 < elo["hard"] < 2000


def test_draws_count_half():
    tally = tournament.Tally("a", "b", wins=3, draws=2, losses=5)
    assert tally.games == 10
    assert tally.rate == pytest.approx(0.4)


def test_percentile_is_the_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert tournament.percentile(values, 0.95) == 95.0
    assert tournament.percentile([3.0], 0.95) == 3.0
    assert math.isnan(tournament.percentile([], 0.95))


# Schedule ----------------------------------------------------------------------------------


@pytest.mark.parametrize("games", [2, 10, 20])
def test_seats_are_alternated_exactly(games):
    pairings = tournament.all_pairings(["random", "easy", "medium"])
    matches = tournament.schedule(pairings, games, seed=5)
    assert len(matches) == 3 * games
    for pairing in pairings:
        mine = [m for m in matches if m.pairing == pairing]
        assert [m.a_first for m in mine] == [True, False] * (games // 2)
        # each deal twice, once from each seat; different deals otherwise
        assert [m.seed for m in mine[::2]] == [m.seed for m in mine[1::2]]
        assert len({m.seed for m in mine}) == games // 2


def test_an_odd_number_of_games_gives_the_first_level_the_first_seat_once_more():
    matches = tournament.schedule([("random", "easy")], 5)
    assert Counter(m.a_first for m in matches) == {True: 3, False: 2}


def test_the_schedule_is_the_same_for_a_seed_and_differs_between_seeds():
    pairings = [("random", "easy")]
    assert tournament.schedule(pairings, 4, 1) == tournament.schedule(pairings, 4, 1)
    assert tournament.schedule(pairings, 4, 1) != tournament.schedule(pairings, 4, 2)


def test_every_pairing_of_distinct_levels_and_a_lone_level_against_itself():
    assert tournament.all_pairings(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert tournament.all_pairings(["random"]) == [("random", "random")]
    assert tournament.all_pairings(["a", "a", "b"]) == [("a", "b")]


# Games -------------------------------------------------------------------------------------


def test_a_game_names_the_winning_level_and_times_every_decision():
    result = tournament.play_game("random", "random", 7, True, OPTIONS)
    assert result.winner_seat in ("blue", "red", None)
    assert result.score in (0.0, 0.5, 1.0)
    assert result.score == {"blue": 1.0, "red": 0.0, None: 0.5}[result.winner_seat]
    assert result.reason
    assert result.decisions == len(result.think["random"]) > 10
    assert all(t >= 0 for t in result.think["random"])


def test_a_game_is_told_from_a_s_side_whichever_seat_a_has():
    level = FAST_LEVEL
    as_blue = tournament.play_game(level, "random", 3, True, OPTIONS)
    as_red = tournament.play_game(level, "random", 3, False, OPTIONS)
    for result, a_seat in ((as_blue, "blue"), (as_red, "red")):
        if result.winner_seat is None:
            assert result.score == 0.5 and result.winner is None
        else:
            won = result.winner_seat == a_seat
            assert result.score == (1.0 if won else 0.0)
            assert result.winner == (level if won else "random")


def test_a_game_is_reproducible_from_its_seed():
    first = tournament.play_game("random", "random", 11, False, OPTIONS)
    again = tournament.play_game("random", "random", 11, False, OPTIONS)
    assert (first.winner_seat, first.reason, first.decisions) == (
        again.winner_seat,
        again.reason,
        again.decisions,
    )


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="no AI level 'clever'"):
        tournament.play_game("clever", "random", 1, True, OPTIONS)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_tiny_tournament_adds_up(jobs):
    matches = tournament.schedule([("random", "random")], 6, seed=3)
    results = tournament.run(matches, OPTIONS, jobs=jobs)
    assert [(r.seed, r.a_first, r.index) for r in results] == [
        (m.seed, m.a_first, m.index) for m in matches
    ]
    tallies = tournament.tally(results)
    t = tallies[("random", "random")]
    assert t.wins + t.losses + t.draws == t.games == 6
    assert t.a_first == 3
    assert t.first_seat == "blue" and t.first_wins == sum(r.winner_seat == "blue" for r in results)
    assert sum(t.reasons.values()) == 6


def test_the_pool_plays_the_same_games_as_one_process():
    matches = tournament.schedule([("random", "random")], 4, seed=8)
    one = tournament.run(matches, OPTIONS, jobs=1)
    two = tournament.run(matches, OPTIONS, jobs=2)
    assert [(r.score, r.reason, r.decisions) for r in one] == [
        (r.score, r.reason, r.decisions) for r in two
    ]


def test_the_crosstable_mirrors_each_pairing():
    tallies = {("hard", "random"): tournament.Tally("hard", "random", wins=7, draws=1, losses=2)}
    mirrored = tournament._oriented(tallies, "random", "hard")
    assert (mirrored.wins, mirrored.draws, mirrored.losses) == (2, 1, 7)
    assert mirrored.rate == pytest.approx(1 - tallies[("hard", "random")].rate)


# Command line and bench --------------------------------------------------------------------


def test_cli_tournament_prints_the_table_the_intervals_and_the_elo(capsys):
    argv = ["tournament", "--levels", "random", "--games", "4", "--jobs", "1",
            "--option", "variant=standard", "--option", "events=true"]  # fmt: skip
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert ("4 games of sun-tzu (4 per pairing, seats alternated), options variant=standard, "
            "events=true, seed 1") in out  # fmt: skip
    assert "a had the first seat, blue, in 2 of 4" in out
    assert "random vs random" in out
    assert "95% CI" in out
    assert re.search(r"\d\.\d\d–\d\.\d\d", out)  # an interval
    assert re.search(r"random\s*│\s*4\s*│\s*\d–\d–\d", out)  # games, won–drawn–lost


def test_cli_tournament_fits_elo_for_two_levels(capsys):
    levels = "random," + FAST_LEVEL
    argv = ["tournament", "--levels", levels, "-n", "2", "--jobs", "2"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    if levels != "random,random":
        assert "anchored at random = 0" in out


def test_cli_tournament_refuses_an_unknown_level(capsys):
    assert cli.main(["tournament", "--levels", "random,clever"]) == 2
    assert "no AI level clever" in capsys.readouterr().out


def test_cli_tournament_refuses_an_unknown_game_or_option(capsys):
    assert cli.main(["tournament", "--levels", "random", "--game", "go"]) == 2
    assert "there is no game called 'go'" in capsys.readouterr().out
    assert cli.main(["tournament", "--levels", "random", "--option", "events=maybe"]) == 2
    assert "the events option is true or false" in capsys.readouterr().out


def test_bench_prints_its_figures_last(capsys):
    bench_ai.main(
        ["--games", "2", "--pairings", "random:random", "--timed", "random", "--timed-games", "1"]
    )
    last = capsys.readouterr().out.strip().splitlines()[-3:]
    assert re.fullmatch(
        r"random_vs_random_win_rate: \d\.\d{3} \(95% CI \d\.\d\d–\d\.\d\d, 2 games\)", last[0]
    )
    assert re.fullmatch(r"random_move_p95_seconds: \d+\.\d{3} s", last[1])
    assert re.fullmatch(r"total_wall_seconds: \d+ s", last[2])


def test_bench_says_n_a_for_a_level_that_does_not_exist(capsys):
    bench_ai.main(
        ["--games", "2", "--pairings", "random:random,ghost:random", "--timed", "random,ghost"]
    )
    out = capsys.readouterr().out
    assert "ghost_vs_random_win_rate: n/a (no level 'ghost')" in out
    assert "ghost_move_p95_seconds: n/a" in out


def test_bench_times_the_first_games_of_each_level_in_one_process():
    matches = tournament.schedule(bench_ai.PAIRINGS, 4)
    chosen = bench_ai.timed_matches(matches, ["hard", "medium"], 3)
    assert [m.pairing for m in chosen["hard"]] == [("hard", "random")] * 3
    assert [m.pairing for m in chosen["medium"]] == [("medium", "easy")] * 3
    assert [m.a_first for m in chosen["hard"]] == [True, False, True]
