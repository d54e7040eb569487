"""The write path's refusals that are not the rules' own (``games.RulesError``)."""

from __future__ import annotations


class NotFound(LookupError):
    """No such game or seat."""


class Invalid(ValueError):
    """A request the service refuses that is not a move: no rule of the game says no, the
    request itself is wrong (a seat the game has not, a level there is not, a step …)."""


class Forbidden(PermissionError):
    """The seat is not the caller's to take or to play."""


class Unavailable(Exception):
    """Something the request needs (the workers, the broker) cannot be reached now."""


class TooManyStreams(Exception):
    """The client holds as many live streams as it may."""

    def __init__(self, cap: int) -> None:
        super().__init__(f"you have {cap} live streams open already (tabs, windows): close "
                         "one, or reload a page that still follows the game")  # fmt: skip
