"""The write path's refusals that are not the rules' own (``games.RulesError``)."""

from __future__ import annotations


class NotFound(LookupError):
    """No such game or seat."""


class Forbidden(PermissionError):
    """The seat is not the caller's to take or to play."""
