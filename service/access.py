"""Seat tokens: unguessable, shown once (inside the invite link), stored only as hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from typing import Any

from flask import g


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(token: str | None, access: Mapping[str, str]) -> str | None:
    """The seat whose token this is, or None (compared in constant time)."""
    if not token:
        return None
    digest = token_hash(token)
    found = None
    for seat, stored in access.items():
        if hmac.compare_digest(digest, stored):
            found = seat
    return found


def bearer(header: str | None) -> str | None:
    if header and header.startswith("Bearer "):
        return header[7:].strip() or None
    return None


def request_seat(write_path: Any, game_id: str, token: str) -> str | None:
    """``seat_of`` the request's token in ``game_id``, worked out once a request: the
    write limit asks it (``service.security.rate_key``) before the view does."""
    kept = g.get("token_seat")
    if kept is not None and kept[0] == (game_id, token):
        return kept[1]
    seat = seat_of(token, write_path.access(game_id))
    g.token_seat = ((game_id, token), seat)
    return seat
