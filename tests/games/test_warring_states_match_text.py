"""The two-games match's sentences (games/warring_states/match.py) are message ids of the
package's ``text.MESSAGES`` with placeholders, rendered by ``games.messages.render``: every
result in words for each reader, and the label and refusal from the same table."""

from __future__ import annotations

import pytest

from games.base import RulesError
from games.messages import render
from games.warring_states.match import MATCH
from games.warring_states.text import MESSAGES

RESULTS = [
    {"winner": "first", "reason": "more_rp", "rp": {"first": 12, "second": 9}},
    {"winner": "second", "reason": "more_rp", "rp": {"first": 7, "second": 10}},
    {"winner": None, "reason": "equal_rp", "rp": {"first": 8, "second": 8}},
    {"winner": "second", "reason": "resignation"},
    {"winner": "first", "reason": "time"},
    {"winner": None, "reason": "agreement"},
    {"winner": "first", "reason": "something new"},
]


def ids_in(message) -> list[str]:
    key, values = message
    nested = [v for v in values.values() if isinstance(v, tuple)]
    return [key, *(k for v in nested for k in ids_in(v))]


@pytest.mark.parametrize("result", RESULTS)
@pytest.mark.parametrize("seat", ["first", "second", None])
def test_every_result_is_a_message_of_the_package_table(result, seat):
    message = MATCH.words(result, seat)
    assert all(key.startswith("match.") and key in MESSAGES for key in ids_in(message))
    text = render(MESSAGES, message)
    assert "{" not in text and text.endswith(".") and "match" in text


def test_the_sentences_say_who_won_and_the_rp():
    won = RESULTS[0]
    assert render(MESSAGES, MATCH.words(won, "first")) == (
        "You won the match: more Qin RP as Lianheng (12 to 9 RP)."
    )
    assert render(MESSAGES, MATCH.words(won, "second")) == (
        "You lost the match: more Qin RP as Lianheng (12 to 9 RP)."
    )
    assert render(MESSAGES, MATCH.words(RESULTS[3], None)) == (
        "The match goes to the second player of the first game: a resignation."
    )
    assert render(MESSAGES, MATCH.words(RESULTS[2], "second")) == (
        "The match is drawn: equal Qin RP as Lianheng (8 to 8 RP)."
    )
    assert render(MESSAGES, MATCH.words(RESULTS[6], "first")).endswith(": something new.")


def test_the_label_and_the_refusal_come_from_the_table():
    assert MESSAGES[MATCH.label].startswith("Victory: two games")
    with pytest.raises(RulesError) as refused:
        MATCH.check({"victory": "bid"})
    assert str(refused.value) == MESSAGES["match.basic_only"]
