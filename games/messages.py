"""Messages: the words a game shows, as (message id, values), rendered from a table.

A game's ``text.messages`` maps a message id to an English template with ``str.format``
placeholders (``"{who} drew {cards}."``); its text functions answer a ``Message``: the id
and the values for its placeholders. A value is a plain string or number, another message
(a card's name is ``("card.plague", {})``), a list of values (said as ``a, b, c``) or a
``Join`` (the same with another separator). So every word, component names included, is
looked up by id, and a translation is another table with the same ids.

``render(messages, message)`` is the one way a message becomes a sentence, on the server;
the pages' ``t(id, values)`` (``service/static/kinds.js``) does the same in the browser.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Message = tuple[str, dict[str, Any]]  # (message id, its placeholders' values)


@dataclass(frozen=True)
class Join:
    """Values said one after the other with ``sep`` between them (a list says ", ")."""

    items: tuple[Any, ...]
    sep: str = ", "


def msg(key: str, **values: Any) -> Message:
    """A message: ``msg("log.round_started", round=3)``."""
    return (key, values)


def is_message(value: Any) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], str)
        and isinstance(value[1], dict)
    )


def render(messages: Mapping[str, str], message: Message) -> str:
    """The sentence ``message`` says with ``messages``. An id the table lacks is a
    ``KeyError`` (a game's conformance test renders every message its text gives)."""
    key, values = message
    template = messages[key]
    return template.format_map({name: _said(messages, v) for name, v in values.items()})


# A separator said in the table's language when the table has it (the platform's table
# does: ``sep.*``, so a catalog can say "、" or " 및 "), else as written.
SEPARATORS = {", ": "sep.comma", "; ": "sep.semicolon", ". ": "sep.sentence",
              " and ": "sep.and", " - ": "sep.path"}  # fmt: skip


def separator(messages: Mapping[str, str], sep: str) -> str:
    return messages.get(SEPARATORS.get(sep, ""), sep)


def _said(messages: Mapping[str, str], value: Any) -> str:
    if type(value) is str:  # most values (a name, a seat): as they are, asked first
        return value
    if is_message(value):
        return render(messages, value)
    if isinstance(value, Join):
        return separator(messages, value.sep).join(_said(messages, v) for v in value.items)
    if isinstance(value, list):
        return separator(messages, ", ").join(_said(messages, v) for v in value)
    return str(value)
