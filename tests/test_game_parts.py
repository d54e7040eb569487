"""Every registered game supplies the parts the pages need (design.md, "A game is one
package"): a catalogue the service can derive its forms and checks from, a text that says
every event, command, decision and ending it can give from every perspective, and a front
end folder behind the one interface. Played through the protocol, as the conformance
test does; the AI's parts are checked beside the AI."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import games
from games.base import Catalogue
from games.messages import is_message, render

SEEDS = (0, 1, 2)
LEFT_OVER = re.compile(r"(?<!\{)\{\w+\}(?!\})")  # a placeholder no value filled
INTERFACE = ("init", "renderBoard", "renderPlayers", "renderHand", "renderDecision")


def said(text: Any, message: Any, where: str) -> str:
    assert is_message(message), f"{where}: not a (message id, values) pair: {message!r}"
    sentence = render(text.messages, message)
    assert sentence.strip() or message[0] == "raw", f"{where}: {message} says nothing"
    assert not LEFT_OVER.search(sentence), f"{where}: {sentence!r}"
    return sentence


@pytest.mark.parametrize("key", sorted(games.REGISTRY))
def test_the_catalogue_is_plain_data_the_service_can_use(key: str) -> None:
    rules = games.get(key)
    cat = rules.catalogue
    assert isinstance(cat, Catalogue) and cat.title and cat.summary
    assert tuple(s.id for s in cat.seats) == tuple(rules.seats)
    for seat in cat.seats:
        assert seat.label and re.fullmatch(r"#[0-9a-fA-F]{6}", seat.colour), seat
    assert len({s.label for s in cat.seats}) == len(cat.seats)
    rng = random.Random(0)
    defaults = {o.name: o.default for o in cat.options}
    rules.setup(defaults, rng)  # the defaults make a game
    for option in cat.options:
        assert option.name and option.label and option.kind in ("choice", "bool"), option
        if option.kind == "bool":
            assert isinstance(option.default, bool) and not option.choices
            for value in (True, False):
                rules.setup({**defaults, option.name: value}, rng)
        else:
            values = [v for v, _ in option.choices]
            assert option.default in values and all(label for _, label in option.choices)
            for value in values:  # every choice makes a game
                rules.setup({**defaults, option.name: value}, rng)


@pytest.mark.parametrize("key", sorted(games.REGISTRY))
def test_the_text_says_everything_a_game_gives(key: str) -> None:
    rules = games.get(key)
    text = rules.text
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in text.messages.items())
    seats = tuple(rules.seats)
    viewers = (*seats, None)
    told: set[str] = set()
    for seed in SEEDS:
        rng = random.Random(seed)
        events = rules.setup({}, rng)
        state = rules.fold(events)
        while rules.pending(state):
            for seat, kind in list(rules.pending(state).items()):
                if rules.pending(state).get(seat) != kind:
                    continue
                said(text, text.prompt(kind, seat), f"{key} prompt {kind} for {seat}")
                said(text, text.prompt(kind, None), f"{key} prompt {kind}")
                for command in rules.legal(state, seat)[:20]:
                    said(text, text.command(command, seat), f"{key} command {command}")
                command = rules.random_command(state, seat, rng)
                said(text, text.command(command, None), f"{key} command {command}")
                new = rules.decide(state, seat, command, rng)
                for event in new:
                    state = rules.evolve(state, event)
                events += new
        for event in events:
            for viewer in viewers:
                seen = rules.redact(event, viewer)
                if seen is None:
                    continue
                for shown in (seen, event):  # as seen during play; whole once it is over
                    message = text.event(shown, viewer)
                    if message is not None:
                        said(text, message, f"{key} {shown} to {viewer}")
                        told.add(event["type"])
        outcome = rules.outcome(state)
        endings = [
            outcome,
            {"winner": seats[0], "reason": "time"},
            {"winner": None, "reason": "agreement"},
        ]  # the table's endings too
        for ending in endings:
            for viewer in viewers:
                message = text.end(ending, viewer)
                said(text, message, f"{key} end {ending} for {viewer}")
                # the pages show how it ended as a head and a reason
                assert {"head", "reason"} <= set(message[1]), message
    enough = len(rules.event_fields) // 3  # most of a game's events are worth a sentence
    assert len(told) >= enough, f"{key}'s text tells only {sorted(told)}"


@pytest.mark.parametrize("key", sorted(games.REGISTRY))
def test_the_front_end_is_a_folder_behind_the_interface(key: str) -> None:
    web = games.get(key).web
    assert (web / "index.js").is_file() and (web / "README.md").is_file()
    index = (web / "index.js").read_text(encoding="utf-8")
    exported = set(re.findall(r"export (?:async )?(?:function|const) (\w+)", index))
    for block in re.findall(r"export \{([^}]*)\}", index):
        exported |= {name.strip().split(" as ")[-1] for name in block.split(",") if name.strip()}
    assert set(INTERFACE) <= exported, set(INTERFACE) - exported
