"""JSON inside a one-line position notation, shared by the games' notations.

A notation keeps its readable fields for what players talk about and falls back to compact
JSON for rare, irregular parts; the line is split on spaces, so a space inside the JSON is
written as its escape.
"""

from __future__ import annotations

import json
from typing import Any


def write_json(value: Any) -> str:
    """``value`` as one space-free token (canonical: sorted keys, ASCII)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return text.replace(" ", "\\u0020")


def read_json(text: str) -> Any:
    """The value a token written by ``write_json`` holds; a ``ValueError`` that says why not."""
    try:
        return json.loads(text)
    except ValueError as e:
        raise ValueError(f"not valid JSON ({e})") from None
