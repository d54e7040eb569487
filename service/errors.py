"""The web's own refusals (the write path's are in ``events.errors``)."""

from __future__ import annotations


class Unavailable(Exception):
    """Something the request needs (the workers, the broker) cannot be reached now."""


class TooManyStreams(Exception):
    """The client holds as many live streams as it may."""

    def __init__(self, cap: int) -> None:
        super().__init__(f"you have {cap} live streams open already (tabs, windows): close "
                         "one, or reload a page that still follows the game")  # fmt: skip
