"""The command line and the rules bench, run as a user would run them."""

from __future__ import annotations

import json
import re

import pytest

import games
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
    argv = ["selfplay", "-n", "6", "--seed", "9", "--option", "variant=beginner",
            "--option", "events=false"]  # fmt: skip
    cli.main(argv)
    first = capsys.readouterr().out
    assert "6 games of sun-tzu (options variant=beginner, events=false), seed 9" in first
    cli.main(argv)
    assert capsys.readouterr().out == first


def test_selfplay_plays_the_options_given(capsys):
    cli.main(["selfplay", "-n", "4", "--seed", "2", "--option", "events=true"])
    with_events = capsys.readouterr().out
    cli.main(["selfplay", "-n", "4", "--seed", "2"])
    default = capsys.readouterr().out
    # every option's value is said, from the game's catalogue (the defaults filled in)
    assert "(options variant=standard, events=false)" in default
    assert "(options variant=standard, events=true)" in with_events
    assert with_events.split("\n", 1)[1] != default.split("\n", 1)[1]  # other games


def test_selfplay_accepts_a_policy_given_as_module_function(capsys):
    policy = "games.playout:random_policy"
    assert cli.main(["selfplay", "-n", "3", "--seat", f"blue={policy}"]) == 0
    assert "blue = games.playout:random_policy, red = random" in capsys.readouterr().out


def test_selfplay_refuses_an_unknown_policy_with_a_sentence():
    with pytest.raises(SystemExit, match="unknown policy 'clever'"):
        cli.main(["selfplay", "-n", "1", "--seat", "red=clever"])


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--game", "chess"], "there is no game called 'chess'"),
        (["--option", "variant=huge"], "the variant must be standard or beginner, not 'huge'"),
        (["--option", "colour=green"], "has no option 'colour'"),
        (["--option", "events"], "write an option as name=value, not 'events'"),
        (["--option", "events=true", "--option", "events=false"], "'events' is given twice"),
        (["--seat", "green=random"], "no seat 'green'; the seats are blue, red"),
    ],
)
def test_selfplay_refuses_a_game_option_or_seat_it_cannot_play_with_a_sentence(capsys, argv,
                                                                               words):  # fmt: skip
    assert cli.main(["selfplay", "-n", "1", *argv]) == 2
    assert words in capsys.readouterr().out.replace("\n", " ")


def test_bench_prints_its_figures_last(capsys):
    bench_rules.main(["--games", "5", "--seconds", "30"])
    last = capsys.readouterr().out.strip().splitlines()[-3:]
    assert re.fullmatch(r"random_games_per_second: \d+ games/s", last[0])
    assert re.fullmatch(r"events_per_game: \d+\.\d", last[1])
    assert re.fullmatch(r"bytes_per_game: \d+ B", last[2])
    assert float(last[1].split()[1]) > 50


def test_bench_prints_warring_states_figures_beside_sun_tzus(capsys):
    bench_rules.main(["--games", "3", "--seconds", "30"])
    last = capsys.readouterr().out.strip().splitlines()[-6:]
    assert re.fullmatch(r"warring_states_decisions_per_second: \d+ decisions/s", last[0])
    assert re.fullmatch(r"warring_states_five_kingdoms_games_per_second: [\d.]+ games/s", last[1])
    assert re.fullmatch(r"warring_states_qin_dominates_games_per_second: [\d.]+ games/s", last[2])
    assert re.fullmatch(r"random_games_per_second: \d+ games/s", last[3])
    assert int(last[0].split()[1]) > 0


def test_bench_times_warring_states_alone_when_asked(capsys):
    bench_rules.main(["--game", "warring-states", "--games", "2", "--seconds", "30"])
    out = capsys.readouterr().out
    last = out.strip().splitlines()[-3:]
    assert re.fullmatch(r"warring_states_decisions_per_second: \d+ decisions/s", last[0])
    assert "random_games_per_second" not in out


def test_bench_can_skip_warring_states(capsys):
    bench_rules.main(["--games", "2", "--no-warring-states"])
    assert "warring_states" not in capsys.readouterr().out


OTHER_GAMES = sorted(set(games.REGISTRY) - {"sun-tzu", "warring-states"})


@pytest.mark.parametrize("key", OTHER_GAMES)
def test_bench_times_any_other_game_alone_with_its_default_options(capsys, key):
    bench_rules.main(["--game", key, "--games", "3", "--seconds", "30"])
    out = capsys.readouterr().out
    name = key.replace("-", "_")
    last = out.strip().splitlines()[-2:]
    assert re.fullmatch(rf"{name}_random_games_per_second: \d+ games/s", last[0])
    assert re.fullmatch(rf"{name}_events_per_game: \d+\.\d", last[1])
    assert float(last[1].split()[1]) > 1
    assert "games timed: 3 in" in out and "warring_states" not in out
    defaults = {o.name: o.default for o in games.get(key).catalogue.options}
    assert f"game: {key} {defaults}," in out


@pytest.mark.parametrize("key", OTHER_GAMES)
def test_bench_plays_another_game_with_the_options_given_and_refuses_unknown_ones(capsys, key):
    option = games.get(key).catalogue.options[0]
    other = next(v for v, _ in option.choices if v != option.default) if option.choices else (
        not option.default)  # fmt: skip
    value = other if isinstance(other, str) else json.dumps(other)
    bench_rules.main(["--game", key, "--games", "1", "--option", f"{option.name}={value}"])
    assert f"{option.name!r}: {other!r}" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        bench_rules.main(["--game", key, "--games", "1", "--option", "colour=green"])
    assert "has no option 'colour'" in capsys.readouterr().err


def test_bench_replays_plays_the_game_and_options_given():
    from bench import replays as bench_replays

    rules = games.get("sun-tzu")
    (record,) = bench_replays.play_games(1, 3, rules, {"variant": "beginner"})
    assert record.header["game"] == "sun-tzu"
    assert record.events[0].payload["options"] == {"variant": "beginner"}
    with pytest.raises(SystemExit):  # refused before anything is played
        bench_replays.main(["--quick", "--game", "sun-tzu", "--option", "variant=huge"])


def test_bench_replays_without_a_game_gives_every_game_its_figures(monkeypatch, capsys):
    from bench import replays as bench_replays

    benched = []

    def bench_game(rules, options, args):
        benched.append((rules.key, options))
        return {"verify_ms": 1.0, "state_at_step_ms": 2.0, "analysis_seconds": 3.0,
                "analysis_agreement_classes": 0.75, "analysis_agreement_best": None}  # fmt: skip

    monkeypatch.setattr(bench_replays, "bench_game", bench_game)
    bench_replays.main(["--quick"])
    assert benched == [(key, {}) for key in games.REGISTRY]
    last = capsys.readouterr().out.strip().splitlines()[-6 * len(games.REGISTRY) :]
    for key in games.REGISTRY:
        name = key.replace("-", "_")
        assert f"{name}_verify_ms: 1.0 ms" in last
        assert f"{name}_analysis_seconds: 3.0 s" in last
        assert f"{name}_analysis_agreement_classes: 0.750 share" in last
        assert f"{name}_analysis_agreement_best: n/a" in last  # not measured
        assert f"{name}_analysis_loss_difference: n/a" in last


def test_bench_replays_agreement_compares_with_a_deeper_analysis(monkeypatch):
    from bench import replays as bench_replays
    from workers.analysis import QUICK, analyse

    monkeypatch.setattr(bench_replays, "DEFAULT", QUICK)  # quick and rough, for the test
    (record,) = bench_replays.play_games(1, 3, games.get("sun-tzu"))
    ours = analyse(record, QUICK)
    found = bench_replays.measure_agreement([record], [ours])
    assert found.decisions == sum(e["assessed"] and not e["forced"] for e in ours["decisions"])
    assert found.decisions > 0 and 0.0 <= found.classes <= 1.0 and found.loss_difference >= 0
    with pytest.raises(ValueError):  # an analysis of another record
        bench_replays.measure_agreement([record], [{"decisions": ours["decisions"][1:]}])
    with pytest.raises(SystemExit):  # an option belongs to one game
        bench_replays.main(["--quick", "--option", "variant=beginner"])


def test_selfplay_prints_win_rates_by_side_for_a_game_whose_seats_play_sides(capsys):
    # Warring States: seats are first and second, the side each plays comes from the
    # options (or the bid) and the outcome says it; --each plays every scenario
    argv = ["selfplay", "--game", "warring-states", "-n", "4", "--seed", "2",
            "--option", "first_side=alliance", "--each", "scenario"]  # fmt: skip
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert out.count("4 games of warring-states (options scenario=") == 2
    assert "scenario=FIVE_KINGDOMS" in out and "scenario=QIN_DOMINATES" in out
    assert out.count("sides: first played alliance 4, second played lianheng 4") == 2
    by_side = re.findall(r"(lianheng|alliance) wins\s*│\s*(\d+)\s*│\s*\d+\.\d%", out)
    assert [side for side, _ in by_side] == ["alliance", "lianheng"] * 2  # the first seat's first
    seats = dict(re.findall(r"(first|second) wins\s*│\s*(\d+)", out[: out.index("sides:")]))
    draws = re.findall(r"draws\s*│\s*(\d+)", out[: out.index("ending")])
    first = {side: int(n) for side, n in by_side[:2]}
    assert sum(first.values()) + int(draws[1]) == 4
    assert first["alliance"] == int(seats["first"])  # the first seat plays the Alliance


def test_selfplay_plays_the_heuristic_and_ai_levels():
    argv = ["selfplay", "--game", "warring-states", "-n", "1", "--seat", "first=heuristic",
            "--seat", "second=ai:easy"]  # fmt: skip
    assert cli.main(argv) == 0
    with pytest.raises(SystemExit, match="no AI level 'genius'"):
        cli.main(["selfplay", "-n", "1", "--seat", "red=ai:genius"])


def test_selfplay_each_refuses_an_option_it_cannot_play_through(capsys):
    assert cli.main(["selfplay", "-n", "1", "--each", "colour"]) == 2
    assert "has no option 'colour'" in capsys.readouterr().out
    assert cli.main(["selfplay", "-n", "1", "--each", "events", "--option", "events=true"]) == 2
    assert "given with --option and with --each" in capsys.readouterr().out.replace("\n", " ")


def test_bench_prompts_counts_the_decisions_of_each_kind_per_game(capsys):
    from bench import prompts

    prompts.main(["-n", "3", "--game", "warring-states", "--policy", "heuristic"])
    out = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(r"prompts_per_game: \d+\.\d prompts", out[-1])
    assert any(re.fullmatch(r"respond_per_game: \d+\.\d prompts", line) for line in out)
