"""Lists: open games, the caller's games (by the browser's player id), finished games."""

from __future__ import annotations

from typing import Any

from flask import current_app
from marshmallow import Schema, fields, validate

import games
from events import matches
from service import narration
from service.api.games import player_id
from service.bodies import Blueprint
from service.queries import Queries

blp = Blueprint("lists", __name__, url_prefix="/api", description="Lobby and game lists")


class Listing(Schema):
    games = fields.List(fields.Dict())


class FinishedQuery(Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))


def queries() -> Queries:
    return current_app.extensions["queries"]


@blp.route("/lobby")
@blp.response(200, Listing)
def lobby():
    """Games waiting for a player, longest waiting first."""
    return {"games": queries().lobby()}


@blp.route("/me/games")
@blp.response(200, Listing)
def my_games():
    """Every game this browser holds a seat in, with whose turn it is (yours first); a
    finished one says how it ended for each of your seats (``outcome_text``)."""
    return {"games": [_told(g) for g in queries().games_of(player_id())]}


def _told(entry: dict[str, Any]) -> dict[str, Any]:
    if entry.get("match") and entry.get("seats"):  # the match's result, once decided
        bingfa = current_app.extensions["bingfa"]
        try:
            found = matches.view(bingfa, bingfa.load(entry["game"]), entry["seats"][0])
        except LookupError:
            found = None
        if found is not None:
            entry = {**entry, "match": {**entry["match"], **found}}
    rules = games.REGISTRY.get(entry.get("key"))
    if rules is None or entry.get("status") != "finished":
        return entry
    outcome = {"winner": entry.get("winner"), "reason": entry.get("reason")}
    told = {seat: narration.outcome_text(rules, outcome, seat) for seat in entry["seats"]}
    return {**entry, "outcome_text": told}


@blp.route("/finished")
@blp.arguments(FinishedQuery(), location="query")
@blp.response(200, Listing)
def finished(query):
    """The most recently finished games, for replay."""
    return {"games": queries().finished(query["limit"])}
