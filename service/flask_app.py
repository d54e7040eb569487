"""The Flask class the service runs on: Flask's own, with some costs every request paid
made once instead (``python -m bench.http`` compares a command with a trivial request;
these were a good part of the trivial one).

- Each of a request's hooks (before, after, teardown: eight here) went through
  ``ensure_sync``, which asked ``inspect`` whether it is a coroutine function every time;
  the answer is kept per function.
- The session's signer (``itsdangerous``) was built for every request, and building one
  serializes a test value; it is kept while the secret keys stay the same. A request
  without cookies (an API client's) opens an empty session without it, and an empty
  session nobody changed is not saved at all (nothing to set or delete).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.sessions import SecureCookieSessionInterface

from service.answers import Answer


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, with the signer kept while the keys stay the same."""

    _signer: tuple[Any, Any] | None = None

    def get_signing_serializer(self, app: Flask) -> Any:
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()),
                self.salt, self.digest_method, self.key_derivation)  # fmt: skip
        kept = self._signer
        if kept is None or kept[0] != keys:
            kept = self._signer = (keys, super().get_signing_serializer(app))
        return kept[1]

    def open_session(self, app: Flask, request: Any) -> Any:
        """Flask's; a request without cookies (an API client's) gets a new empty session
        without the signer or the cookies being looked at."""
        if "HTTP_COOKIE" not in request.environ and app.secret_key:
            return self.session_class()
        return super().open_session(app, request)

    def save_session(self, app: Flask, session: Any, response: Any) -> None:
        """Flask's, without working out the cookie's settings for an empty session that was
        not changed (an API client's: no cookie to set or delete, only ``Vary``)."""
        if not session and not session.modified:
            vary = response.headers.get("Vary", "")  # most often says Cookie already
            if session.accessed and "cookie" not in {v.strip() for v in vary.lower().split(",")}:
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)


class BingfaFlask(Flask):
    """Flask, with its hooks' sync wrappers and the session signer kept (see above), and
    answers whose headers go to the server without being checked twice
    (``service.answers.Answer``)."""

    response_class = Answer

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.session_interface = CookieSessions()  # its signer is this app's
        self._synced: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        found = self._synced.get(func)
        if found is None:
            found = self._synced[func] = super().ensure_sync(func)
        return found
