"""Seat tokens: unguessable, shown once (inside the invite link), stored only as hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping


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
