"""The web's own refusals (the write path's are in ``events.errors``)."""

from __future__ import annotations

from games.i18n import said


class Unavailable(Exception):
    """Something the request needs (the workers, the broker) cannot be reached now."""


class TooManyStreams(Exception):
    """The client holds as many live streams as it may."""

    def __init__(self, cap: int) -> None:
        super().__init__(said("you have {cap} live streams open already (tabs, windows): "
                              "close one, or reload a page that still follows the game",
                              cap=cap))  # fmt: skip
