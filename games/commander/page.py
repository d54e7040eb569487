"""The words of Commander's own page parts (``web/*.js``), by message id (``page.*``):
the front end writes no English of its own. Merged into ``text.MESSAGES``."""

from __future__ import annotations

PAGE: dict[str, str] = {
    "page.board.label": "The board",
}
