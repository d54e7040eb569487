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
(``NEXT``), claimed first (``claim_secret``: SET NX with a lease), so the end hook and
beat's ``sweep`` (which makes the game an end hook failed to make: Redis away, a process
dead) make one game however many run at once. When a game of a match ends, the live
channels of its games so far are told (``tell``): a page left open on game 1 learns the
result when game 2 ends. The result is the package's ``result`` over the outcomes, players
named by their first-game seat; its words are the package's messages (``words``).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from games.base import match_of
from games.messages import render

FIELD = "match"
NEXT = "match_next"  # the secret beside a game of a match: the id of the game after it
MAKING = "making:"  # NEXT while the game after is being made (a claim, with a lease)
CLAIM_MS = 5 * 60_000  # a claim's lease: making a game takes milliseconds
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
    None. A failure is logged, never raised: the move that ended the game is stored, and
    the sweep (``sweep``) makes the game later."""
    try:
        made = _next_game(bingfa, game)
    except Exception:
        log.exception("could not make the next game of the match of game %s", game.game_id)
        return None
    tell(bingfa, game)
    return made


def tell(bingfa: Any, game: Any) -> None:
    """The pages of the match's games up to ``game`` look again (a game of the match
    ended: the next one is made, or the match decided): a page left open on game 1
    learns the match's result when game 2 ends. Never raises: a page also looks again
    at its stream's heartbeat."""
    found = info(game)
    if found is None:
        return
    for game_id in [*(found.get("games") or []), game.game_id]:
        try:
            bingfa.tell(game_id)
        except Exception:
            log.exception("could not tell the page of game %s that its match went on", game_id)


def owed(game: Any) -> bool:
    """Is the match of finished ``game`` owed a game after it (undecided, games left)?"""
    found = info(game)
    if found is None or match_of(game.rules) is None or game.outcome is None:
        return False
    return int(found.get("game", 1)) < int(found.get("of", 1)) and result(game) is None


def next_id(bingfa: Any, game_id: str) -> str | None:
    """The id of the game after ``game_id`` in its match, once made (not a claim)."""
    found = bingfa.store.get_secret(game_id, NEXT)
    return None if not found or found.startswith(MAKING) else found


def sweep(bingfa: Any, game_ids: Iterable[str]) -> list[str]:
    """Make the next game of each finished game of ``game_ids`` whose match is owed one
    and has none (its end hook failed: Redis was away, the process died), and seat the
    players in a next game made but not yet taken. Beat runs it over the recently
    finished games (``workers.dispatch.sweep_matches``); it races the end hook and other
    sweeps safely (the claim on ``NEXT``). The ids of the games made or completed."""
    done = []
    for game_id in game_ids:
        try:
            if match_of(bingfa.registry.get(bingfa.store.game_of(game_id) or "")) is None:
                continue  # a game that is never played in a match: not even loaded
            made = bingfa.store.get_secret(game_id, NEXT)
            if made and made.startswith(MAKING):
                continue  # being made right now (or its maker died: free after the lease)
            game = bingfa.load(game_id)
            if made:
                if _seat_players(bingfa, game, made):
                    done.append(made)
            elif owed(game):
                new_id = _next_game(bingfa, game)
                if new_id is not None:
                    log.warning("made the next game %s of the match of game %s late",
                                new_id, game_id)  # fmt: skip
                    done.append(new_id)
                    tell(bingfa, game)
        except LookupError:  # gone since the read model was written
            continue
        except Exception:  # one broken game must not keep the others waiting
            log.exception("the sweep could not make the next game after game %s", game_id)
    return done


def _next_game(bingfa: Any, game: Any) -> str | None:
    if not owed(game):
        return None
    found = info(game) or {}
    number, of = int(found.get("game", 1)), int(found.get("of", 1))
    # The claim: of the end hook and sweeps at once only one makes the game; a claim
    # whose maker died is free again after the lease (far longer than making takes).
    claim = MAKING + secrets.token_hex(8)
    if not bingfa.store.claim_secret(game.game_id, claim, NEXT, CLAIM_MS):
        return None  # made already, or being made
    try:
        new_id = _make(bingfa, game, found, number, of)
    except BaseException:
        bingfa.store.drop_secret(game.game_id, NEXT, claim)  # nothing made: free again
        raise
    bingfa.store.put_secret(game.game_id, new_id, NEXT)
    _seat_players(bingfa, game, new_id)
    return new_id


def _make(bingfa: Any, game: Any, found: Mapping[str, Any], number: int, of: int) -> str:
    parts = match_of(game.rules)
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
    return bingfa.create_game(
        created["game"], options, {swap[s]: kind for s, kind in kinds.items()},
        access=access or None, rated=bool(created.get("rated")), clock=created.get("clock"),
        extra={FIELD: field},
    )  # fmt: skip


def _seat_players(bingfa: Any, game: Any, new_id: str) -> bool:
    """The players of ``game`` take their swapped seats in the next game ``new_id`` (the
    seats not taken yet: a sweep finishes what a failed end hook began). Whether any
    seat was taken now."""
    order = list(game.rules.seats)
    swap = dict(zip(order, reversed(order), strict=True))
    taken = set(bingfa.load(new_id).joined)
    seated = False
    for seat, kind in dict(game.created_seats).items():
        player = (game.joined.get(seat) or {}).get("player")
        if kind == "human" and player and swap[seat] not in taken:
            bingfa.join(new_id, swap[seat], player=player)
            seated = True
    return seated


def chain(bingfa: Any, game: Any) -> list[str]:
    """The ids of the match's games so far, in order (``game`` among them)."""
    found = info(game) or {}
    ids = [*(found.get("games") or []), game.game_id]
    here = game.game_id
    while True:
        after = next_id(bingfa, here)
        if not after or after in ids:
            return ids
        ids.append(after)
        here = after


def progress(bingfa: Any, game: Any) -> dict[str, Any] | None:
    """Where the match of ``game`` stands: its games so far and its result (None while
    undecided), or None: not a game of a match. What a page watching it waits on."""
    if info(game) is None or match_of(game.rules) is None:
        return None
    ids = chain(bingfa, game)
    last = game if ids[-1] == game.game_id else bingfa.load(ids[-1])
    return {"games": ids, "result": result(last)}


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
    now = progress(bingfa, game) or {}
    ids, decided = now["games"], now["result"]
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
