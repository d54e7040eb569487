"""The write path's refusals that are not the rules' own (``games.RulesError``) nor the
table's (``events.table.Refused``): a game or seat that is not there, a seat that is not
the caller's, a request that cannot be done."""

from __future__ import annotations

from typing import Any


class NotFound(LookupError):
    """No such game or seat."""


class Forbidden(PermissionError):
    """The seat is not the caller's to take or to play."""


class Invalid(ValueError):
    """A request the service refuses that is not a move: no rule of the game says no, the
    request itself is wrong (a seat the game has not, a level there is not, a step …)."""


def told(error: Any) -> str:
    """What ``error`` says, keeping the sentence a ``games.i18n.Said`` when it is one (so a
    problem document can say it again in the reader's language); ``str(error)`` else. A
    sentence already (a refusal's reason) is itself."""
    from games.i18n import Said

    if not isinstance(error, BaseException):
        return error if isinstance(error, Said) else str(error)
    for said in (error.args[0] if error.args else None, error.__str__()):
        if isinstance(said, Said):
            return said
    return str(error)
