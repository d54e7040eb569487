"""The Warring States log per reader: the reader's own side is "You" (with the verb that
goes with it), the other side and every side for a spectator by name; a card played face
down is named to its owner only, even when the whole event is shown (after the game);
every event of a random game has a sentence; dice say what was rolled, for what, and
where to check them."""

from __future__ import annotations

import random
import re

import pytest

from games.playout import play
from games.warring_states import RULES
from games.warring_states.data import kind_of
from games.warring_states.text import MESSAGES
from service import narration

SEATS = ("first", "second")
OPTIONS = [{}, {"scenario": "QIN_DOMINATES", "first_side": "alliance"}, {"victory": "bid"}]


def line(event: dict, reader: str | None, whole: bool = False) -> str | None:
    """The sentence ``reader`` reads, from the event as the service hands it to them: whole
    when it is public, theirs, or ``whole`` (the game is over); else the redacted stub."""
    to = event.get("visible_to", "all")
    shown = event if whole or to in ("all", reader) else RULES.redact(event, reader)
    if to == "server" and not whole:
        shown = {"type": event["type"]}  # the service empties a server-only payload
    payload = {k: v for k, v in shown.items() if k not in ("type", "visible_to")}
    return narration.event_text(RULES, {"type": event["type"], "payload": payload}, reader)


@pytest.fixture(scope="module", params=range(len(OPTIONS)), ids=["five", "qin_alliance", "bid"])
def game(request):
    return play(RULES, OPTIONS[request.param], random.Random(f"log-lines:{request.param}"))


def _side_of(game, seat):
    return game.state["sides"][seat]


def test_every_event_type_of_a_random_game_has_a_line_for_every_reader(game):
    seen = set()
    for event in game.events:
        for reader in (*SEATS, None):
            for whole in (False, True):
                said = line(event, reader, whole)
                assert said and said.strip(), (event["type"], reader)
                assert not re.search(r"[{}]|\bNone\b|\[|\]", said), said
        seen.add(event["type"])
    assert {"card_played", "turn_started", "passed"} <= seen


def test_the_readers_own_side_is_you_and_the_other_side_is_named(game):
    names = {"lianheng": "Lianheng", "alliance": "The Alliance"}
    checked = 0
    for event in game.events:
        if event["type"] not in ("card_played", "passed", "cards_drawn", "chosen"):
            continue
        side = event["side"]
        for reader in SEATS:
            said = line(event, reader)
            if _side_of(game, reader) == side:
                assert said.startswith("You "), said
                # "You" takes the plural verb: never "You plays", "You draws", "You passes"
                assert not re.match(r"You \w+s\b", said) or said.startswith("You passed"), said
            else:
                assert said.startswith(names[side]) and "You" not in said, said
            checked += 1
        spectator = line(event, None)
        assert spectator.startswith(names[side]) and "You" not in spectator, spectator
    assert checked > 20


def test_a_card_played_face_down_is_named_to_its_owner_only(game):
    downs = [e for e in game.events if e["type"] == "card_played" and e["face"] == "down"]
    assert downs
    for event in downs:
        name = MESSAGES[f"card.{kind_of(event['card'])}"]
        for reader in SEATS:
            for whole in (False, True):  # the whole event, as shown when the game is over
                said = line(event, reader, whole)
                if _side_of(game, reader) == event["side"] and (
                    whole or event["visible_to"] == reader
                ):
                    assert said == f"You played {name} face down for {_action(event)}.", said
                else:
                    assert name not in said and "a card face down" in said, said
        assert name not in line(event, None, whole=True)


def _action(event: dict) -> str:
    return MESSAGES[f"action.{event['action']}"]


def test_the_other_sides_draws_and_discards_are_counted_not_named(game):
    for event in game.events:
        if event["type"] not in ("cards_drawn", "card_discarded", "hand_discarded"):
            continue
        cards = event.get("cards") or ([event["card"]] if event.get("card") else [])
        for reader in SEATS:
            if _side_of(game, reader) == event["side"]:
                continue
            said = line(event, reader, whole=True)
            assert not any(MESSAGES[f"card.{kind_of(c)}"] in said for c in cards), said


def test_dice_say_what_was_rolled_for_what_and_where_to_check_them(game):
    rolls = [e for e in game.events if e["type"] == "dice_rolled"]
    assert rolls, "each seeded game here has a fight"
    event = rolls[0]
    said = line(event, None)
    area = MESSAGES[f"area.{event['area']}"]
    assert said.startswith(f"Dice in {area}: ")
    assert f"rolled {event['dice']['attacker']} " in said
    assert f"rolled {event['dice']['defender']} " in said
    assert "committed seed" in said and "Verification" in said


# -- known answers ---------------------------------------------------------------------------
SIDES = {"first": "alliance", "second": "lianheng"}


def said(event: dict, reader: str | None) -> str:
    return narration.event_text(RULES, {"type": event["type"], "payload": event}, reader)


def test_known_sentences_per_reader():
    up = {"side": "alliance", "card": "A_LORD_XINLING", "face": "up", "action": "text",
          "sides": SIDES, "type": "card_played"}  # fmt: skip
    assert said(up, "first") == "You played Lord Xinling face up."
    assert said(up, "second") == "The Alliance played Lord Xinling face up."
    down = {"side": "lianheng", "face": "down", "action": "military", "sides": SIDES,
            "type": "card_played"}  # fmt: skip
    assert said(down, "first") == "Lianheng played a card face down for a military operation."
    lost = {"type": "losses_taken", "force": "WEI", "side": "defender",
            "lost": {"ready": 1, "tired": 1, "gens": []}, "sides": SIDES,
            "factions": {"WEI": "alliance"}}  # fmt: skip
    assert said(lost, "first") == "Your Wei lost 2 counters."
    assert said(lost, "second") == said(lost, None) == "Wei lost 2 counters."
    there = {**lost, "areas": {"DALIANG": {"city": None, "field": []}}}
    assert said(there, "first") == "Your Wei lost 2 counters in Da Liang."
    phase = {"type": "phase_ended", "next": "alliance", "sides": SIDES}
    assert said(phase, "first") == "Your action phase begins."
    assert said(phase, "second") == "The Alliance's action phase begins."
    old = {k: v for k, v in down.items() if k != "sides"}  # stored before the stamp: by name
    assert said(old, "second") == "Lianheng played a card face down for a military operation."


def test_a_tied_bid_says_what_the_die_decided():
    event = {"type": "die_rolled", "why": "bid_tie", "value": 4}
    text = said(event, "first")
    assert "rolled 4" in text and "who plays Lianheng" in text and "Verification" in text


END_SIDES = {"first": "lianheng", "second": "alliance"}
ENDINGS = [
    # (outcome, first's head and reason, second's, a spectator's)
    (
        {"winner": "second", "side": "alliance", "reason": "rp", "qin_rp": 6, "target": 7},
        ("You lose", "On resource points: Qin holds 6 RP of the 7 it needed."),
        ("You win", "On resource points: Qin holds 6 RP of the 7 it needed."),
        ("The Alliance wins", "On resource points: Qin holds 6 RP of the 7 it needed."),
    ),
    (
        {"winner": "first", "side": "lianheng", "reason": "rp", "qin_rp": 7, "target": 7},
        ("You win", "On resource points: Qin holds 7 RP, its target was 7."),
        ("You lose", "On resource points: Qin holds 7 RP, its target was 7."),
        ("Lianheng wins", "On resource points: Qin holds 7 RP, its target was 7."),
    ),
    (
        {"winner": "second", "reason": "resignation"},
        ("You lose", "You resigned."),
        ("You win", "Lianheng resigned."),
        ("The Alliance wins", "Lianheng resigned."),
    ),
    (
        {"winner": "first", "reason": "time"},
        ("You win", "The Alliance ran out of time."),
        ("You lose", "You ran out of time."),
        ("Lianheng wins", "The Alliance ran out of time."),
    ),
    (
        {"winner": None, "reason": "agreement"},
        ("A draw", "By agreement."),
        ("A draw", "By agreement."),
        ("A draw", "By agreement."),
    ),
]


@pytest.mark.parametrize(("outcome", "first", "second", "spectator"), ENDINGS)
def test_the_end_is_told_from_each_readers_side(outcome, first, second, spectator):
    outcome = {**outcome, "sides": END_SIDES}
    for reader, expected in (("first", first), ("second", second), (None, spectator)):
        said_ = narration.outcome_text(RULES, outcome, reader)
        assert (said_["head"], said_["reason"]) == expected, reader


def test_before_the_sides_are_known_the_end_names_the_seats():
    said_ = narration.outcome_text(RULES, {"winner": "first", "reason": "resignation"}, None)
    assert (said_["head"], said_["reason"]) == ("First player wins", "Second player resigned.")


def test_an_end_without_the_figures_still_says_why():
    said_ = narration.outcome_text(RULES, {"winner": "first", "reason": "rp"}, "second")
    assert (said_["head"], said_["reason"]) == ("You lose", "On resource points.")
