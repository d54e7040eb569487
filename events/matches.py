"""Matches: games linked into one contest, for a game whose package has a ``match`` part
(``games.base.MatchParts``; the platform names no game).

A match's first game is created with ``game_created.match`` = ``{"game": 1, "of": N}``.
When a game of a match ends and the match is not decided yet, the write path makes the
next game (``on_end``, its end hook, run once: only the append that ended the game runs
it): the same game, the options the package gives (``next_options``), the same players
in swapped seats (their token hashes and player ids carried over, so the same invite
links and the same browsers act in it, and it is dealt at once), the same clock and rated
flag. Its ``match`` field says where it stands: ``first`` (the first game's id: the
match's id), ``game`` (its number), ``of``, ``games`` (the ids before it), ``seats`` (for
each game so far, first-game seat -> that game's seat) and ``outcomes`` (how each game
before it ended), so the match's result is a pure function of its last game's stream
(the ratings read it there). The id of the game after is kept beside the game's secrets
(``NEXT``). The result is the package's ``result`` over the outcomes, players named by
their first-game seat.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from games.base import match_of
from games.messages import render

FIELD = "match"
NEXT = "match_next"  # the secret beside a game of a match: the id of the game after it
log = logging.getLogger(__name__)


def info(game: Any) -> Mapping[str, Any] | None:
    """The game's ``match`` field (``game_created``), or None: not part of a match."""
    found = game.created.get(FIELD)
    return found if isinstance(found, Mapping) else None


def first_field(rules: Any) -> dict[str, Any]:
    """The ``match`` field of a match's first game."""
    return {"game": 1, "of": int(match_of(rules).games_in_match)}


def seats_of(game: Any) -> list[dict[str, str]]:
    """For each game of the match up to this one: first-game seat -> its seat there."""
    found = info(game) or {}
    return [dict(s) for s in found.get("seats") or [{s: s for s in game.rules.seats}]]


def result(game: Any) -> dict[str, Any] | None:
    """The match's result as far as ``game`` (its last game so far) knows, or None."""
    found = info(game)
    parts = match_of(game.rules)
    if found is None or parts is None:
        return None
    outcomes = [dict(o) for o in found.get("outcomes") or []]
    if game.outcome is not None:
        outcomes.append(dict(game.outcome))
    if not outcomes:
        return None
    return parts.result(outcomes, seats_of(game))


def on_end(bingfa: Any, game: Any) -> str | None:
    """``game`` just ended: make the match's next game if the match goes on. Its id, or
    None. A failure is logged, never raised: the move that ended the game is stored."""
    try:
        return _next_game(bingfa, game)
    except Exception:
        log.exception("could not make the next game of the match of game %s", game.game_id)
        return None


def _next_game(bingfa: Any, game: Any) -> str | None:
    found = info(game)
    parts = match_of(game.rules)
    if found is None or parts is None or game.outcome is None:
        return None
    number, of = int(found.get("game", 1)), int(found.get("of", 1))
    if number >= of or result(game) is not None:
        return None
    if bingfa.store.get_secret(game.game_id, NEXT):
        return None  # made already
    order = list(game.rules.seats)
    swap = dict(zip(order, reversed(order), strict=True))
    seats = seats_of(game)
    kinds = dict(game.created_seats)  # as created: a seat handed to the AI was a person's
    created = game.created
    options = parts.next_options(created.get("options") or {}, game.outcome)
    field = {
        "first": found.get("first", game.game_id),
        "game": number + 1,
        "of": of,
        "games": [*(found.get("games") or []), game.game_id],
        "seats": [*seats, {first: swap[here] for first, here in seats[-1].items()}],
        "outcomes": [*(found.get("outcomes") or []), dict(game.outcome)],
    }
    access = {swap[s]: h for s, h in bingfa.access(game.game_id).items()}
    new_id = bingfa.create_game(
        created["game"], options, {swap[s]: kind for s, kind in kinds.items()},
        access=access or None, rated=bool(created.get("rated")), clock=created.get("clock"),
        extra={FIELD: field},
    )  # fmt: skip
    bingfa.store.put_secret(game.game_id, new_id, NEXT)
    for seat, kind in kinds.items():
        player = (game.joined.get(seat) or {}).get("player")
        if kind == "human" and player:
            bingfa.join(new_id, swap[seat], player=player)
    return new_id


def chain(bingfa: Any, game: Any) -> list[str]:
    """The ids of the match's games so far, in order (``game`` among them)."""
    found = info(game) or {}
    ids = [*(found.get("games") or []), game.game_id]
    here = game.game_id
    while True:
        after = bingfa.store.get_secret(here, NEXT)
        if not after or after in ids:
            return ids
        ids.append(after)
        here = after


def said(rules: Any, message: Any) -> str:
    """A match's message (``MatchParts.words``, ``label``) in the package's words."""
    return render(rules.text.messages, message)


def view(bingfa: Any, game: Any, seat: str | None) -> dict[str, Any] | None:
    """The match as a game's page shows it: its games, this game's number, the result once
    decided (``result``, players by first-game seat) and in words for ``seat`` (a seat of
    this game, or None: a spectator)."""
    found = info(game)
    parts = match_of(game.rules)
    if found is None or parts is None:
        return None
    ids = chain(bingfa, game)
    last = game if ids[-1] == game.game_id else bingfa.load(ids[-1])
    decided = result(last)
    mine = None
    if seat is not None:
        back = {here: first for first, here in seats_of(game)[-1].items()}
        mine = back.get(seat)
    body = {
        "id": found.get("first", game.game_id),
        "game": int(found.get("game", 1)),
        "of": int(found.get("of", 1)),
        "games": ids,
        "seat_in_first": mine,
        "result": decided,
        "result_text": said(game.rules, parts.words(decided, mine)) if decided else None,
        "label": said(game.rules, (parts.label, {})),
    }
    return body
