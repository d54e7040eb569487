"""Schemathesis against the API: requests drawn from the OpenAPI document itself, and
every answer checked against it with schemathesis's default checks: no 5xx; only
documented statuses, content types, response shapes and headers; an undeclared method
answered 405 with ``Allow``; what the document calls invalid refused (a missing required
body, a value of the wrong type); what it calls valid not refused (but see ``ACCEPTED``).

The app runs over an in-memory store. Each case gets a game of its own, started (both
seats joined), with its blue seat's token in ``Authorization`` and its id in ``game_id``,
so the seat endpoints are exercised past the 401; ``replay_id`` names a finished game,
``seek_id`` an open seek of another browser and ``player`` a player who played (unless the
case is about an invalid path). The live streams (``…/stream``) never end by themselves
and are left out. Examples are bounded, and drawn the same on every run under the suite's
hypothesis profile (``derandomize``; ``HYPOTHESIS_PROFILE=explore`` draws new ones).
"""

from __future__ import annotations

from typing import Any

import fakeredis
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.core.parameters import ParameterLocation

from events.store import InMemoryEventStore
from service import create_app

EXAMPLES = 25  # per operation, in the fuzzing phase (the examples and coverage phases add theirs)

# A request the document calls valid may still be refused for what no JSON schema says:
# the rules (422: an illegal command, a seat the game does not have, a name that is taken
# or looks like a label) and values only the server can judge (400: a cursor it did not
# give, a perspective the replay does not have).
ACCEPTED = ["2xx", "3xx", "400", "401", "403", "404", "409", "422", "429"]

# What schemathesis finds that is not fixed yet (each reported with the request that shows
# it): operation -> the checks that stand aside for it until then.
KNOWN: dict[tuple[str, str], dict[str, str]] = {}


@schemathesis.serializer("application/x-ndjson")
def json_lines(_ctx: Any, value: Any) -> bytes:
    """A replay record's body (JSON Lines): what schemathesis drew, as it is."""
    return value.encode() if isinstance(value, str) else bytes(str(value), "utf-8")


DERANDOMIZE = settings.default.derandomize  # the profile tests/conftest.py loaded
CONFIG = {
    **({"seed": 1} if DERANDOMIZE else {}),
    "generation": {"deterministic": DERANDOMIZE, "max-examples": EXAMPLES},
    "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED}},
    "operations": [
        {"include-method": method, "include-path": path,
         "checks": {check: {"enabled": False} for check in checks}}
        for (method, path), checks in KNOWN.items()
    ],
}  # fmt: skip


def make_app():
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True,
                       "RATELIMIT_WRITES": "1000000 per second",
                       "ANALYSE": lambda replay_id: None})  # a queue taking the job  # fmt: skip


class World:
    """What the ids in paths name: a started game per case, one finished game (a replay),
    an open seek per case, a player who has played."""

    def __init__(self, app) -> None:
        self.app = app
        self.client = app.test_client()
        game_id, tokens = self.started()
        self.sent("POST", f"/api/games/{game_id}/commands", json={"command": {"type": "resign"}},
                  headers=auth(tokens["blue"]))  # fmt: skip
        self.finished = game_id
        self.player = self.sent("GET", f"/api/games/{game_id}").json["seats"]["blue"]["player"]

    def sent(self, method: str, path: str, client: Any = None, **kwargs: Any):
        response = (client or self.client).open(path, method=method, **kwargs)
        assert response.status_code < 300, (path, response.get_data(as_text=True))
        return response

    def started(self) -> tuple[str, dict[str, str]]:
        created = self.sent("POST", "/api/games", json={}).json
        tokens = {seat: link["token"] for seat, link in created["seats"].items()}
        for token in tokens.values():
            self.sent("POST", f"/api/games/{created['game_id']}/join", json={},
                      headers=auth(token))  # fmt: skip
        return created["game_id"], tokens

    def seek(self) -> str:
        seeker = self.app.test_client()  # another browser (a player has at most 5 seeks)
        return self.sent("POST", "/api/seeks", client=seeker, json={}).json["seek"]["id"]

    def fill(self, case: schemathesis.Case) -> dict[str, str]:
        """Real ids in the case's path (unless the path is what the case makes invalid), and
        the headers to send: the token of the blue seat of the game it names."""
        game_id, tokens = self.started()
        meta = case.meta
        if case.path_parameters and not (meta and meta.is_negative_at(ParameterLocation.PATH)):
            names = {"game_id": lambda: game_id, "replay_id": lambda: self.finished,
                     "player": lambda: self.player, "seek_id": self.seek}  # fmt: skip
            for name in case.path_parameters:
                if name in names:
                    case.path_parameters[name] = names[name]()
        return auth(tokens["blue"])


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


APP = make_app()
WORLD = World(APP)
schema = schemathesis.openapi.from_wsgi(
    "/api/openapi.json", APP, config=schemathesis.Config.from_dict(CONFIG)
).exclude(path_regex=r"/stream$")


@schema.parametrize()
@settings(max_examples=EXAMPLES, derandomize=DERANDOMIZE, deadline=None,
          suppress_health_check=list(HealthCheck))  # fmt: skip
def test_the_api_answers_as_its_openapi_says(case):
    case.call_and_validate(headers=WORLD.fill(case))
