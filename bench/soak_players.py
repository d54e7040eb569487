"""The soak's simulated players: each has an identity (its session cookie), plays a few
asynchronous games at once (Sun Tzu, or a share of Warring States; against another player,
or against the AI), thinks between
looks at a game, and starts another game when one ends, until the time is up.

Scheduling: a heap of (when, action) and a pool of threads that run the actions that are
due; nobody sleeps on a thread while thinking. A game followed through its live stream is
looked at when the stream brings something (and every ``FALLBACK`` seconds anyway); the
others are polled through ``GET /api/games/<id>/events?after=<seen>`` after each think.

The command a player sends is picked with the rules' ``random_command`` on the game as
the player folds it from the event store (``events.projector.load``/``apply``, as
``bench.http`` does: the bench is no AI); the server still checks every command, sent with
``expected_version`` so a move made on a stale view is refused with 409 (then looked at
again: not an error) rather than judged on a position the player did not see.

Errors (``Tally.errors``): an answer other than the one expected (a 5xx; a 4xx for a
command the player believed legal; a stream refused), or a request no web process
answered in time. A connection refused or dropped and tried again on the other web
process is counted in ``retries``, not as an error.
"""

from __future__ import annotations

import heapq
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import games
from bench.soak_client import Answer, Streams, Unanswered, Web
from events.projector import LoadedGame, apply, load
from events.redis_store import RedisEventStore

# the kinds played, with their options (the second is played by a share ``ws_share``)
KINDS = {"sun-tzu": {"variant": "standard"}, "warring-states": {}}
AI_SEAT = "ai:easy"
FALLBACK = 20.0  # seconds: a streamed game is looked at anyway (a lost wake-up)


@dataclass
class Tally:
    commands: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds, every acknowledged command
    errors: list[str] = field(default_factory=list)
    stale: int = 0  # 409s for a stale expected_version (a simultaneous move): not errors
    started: int = 0
    kinds: Counter = field(default_factory=Counter)  # games started, by kind and opponent
    finished: int = 0
    acks: list[tuple[str, int, str | None]] = field(default_factory=list)  # (game, seq, hash)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


@dataclass
class Player:
    number: int
    cookie: str = ""
    games: int = 0  # games being played now


@dataclass
class Game:
    game_id: str
    seats: dict[str, tuple[Player, str]]  # seat -> (its bench player, its token)
    streamed: bool
    loaded: LoadedGame
    lock: threading.Lock = field(default_factory=threading.Lock)
    over: bool = False
    # seat -> (when, ticket) of its next look: an earlier wake-up supersedes a later one
    next_look: dict[str, tuple[float, int]] = field(default_factory=dict)


class Players:
    """``count`` players playing for ``seconds`` (``run``), against ``web``'s processes."""

    def __init__(self, web: Web, ports: list[int], store: RedisEventStore, count: int,
                 think: float, ai_share: float, stream_share: float, games_each: int,
                 seed: int, ws_share: float = 0.0, threads: int = 24) -> None:  # fmt: skip
        self.web, self.store, self.think = web, store, think
        self.ai_share, self.stream_share, self.games_each = ai_share, stream_share, games_each
        self.rng = random.Random(seed)
        self.rng_lock = threading.Lock()
        self.players = [Player(i) for i in range(count)]
        self.ws_share = ws_share
        self.seats = {kind: games.get(kind).seats for kind in KINDS}
        self.tally = Tally()
        self.games: dict[str, Game] = {}
        self.heap: list[tuple[float, int, Callable[[], None]]] = []
        self.heap_lock = threading.Condition()
        self.counter = 0
        self.running = 0  # actions being run now
        self.closing = False  # time is up: no new game
        self.stopped = False  # no action at all any more
        self.streams = Streams(ports, self.woken)
        self.threads = [threading.Thread(target=self._work, name=f"soak-{i}", daemon=True)
                        for i in range(threads)]  # fmt: skip

    # -- scheduling -------------------------------------------------------------------------
    def later(self, delay: float, action: Callable[[], None]) -> None:
        with self.heap_lock:
            self.counter += 1
            heapq.heappush(self.heap, (time.monotonic() + delay, self.counter, action))
            self.heap_lock.notify()

    def thinking(self) -> float:
        with self.rng_lock:
            return self.rng.uniform(0.3, 1.7) * self.think

    def chance(self, share: float) -> bool:
        with self.rng_lock:
            return self.rng.random() < share

    def _work(self) -> None:
        while True:
            with self.heap_lock:
                while not self.stopped:
                    wait = self.heap[0][0] - time.monotonic() if self.heap else 1.0
                    if self.heap and wait <= 0:
                        break
                    self.heap_lock.wait(min(max(wait, 0.01), 1.0))
                if self.stopped:
                    return
                _, _, action = heapq.heappop(self.heap)
                self.running += 1
            try:
                action()
            except Unanswered as error:
                self.tally.error(str(error))
            except Exception as error:  # a bug of the bench or an answer it did not expect
                self.tally.error(f"{type(error).__name__}: {error}")
            finally:
                with self.heap_lock:
                    self.running -= 1

    def start(self) -> None:
        self.streams.thread.start()
        for thread in self.threads:
            thread.start()
        for player in self.players:  # identities first, then games, spread over a think
            self.later(self.thinking(), lambda p=player: self.begin(p))

    def close(self, grace: float) -> None:
        """No new game; the games in play go on for ``grace`` seconds, then everything
        stops (what was acknowledged so far is what the end check looks for)."""
        self.closing = True
        time.sleep(grace)
        with self.heap_lock:
            self.stopped = True
            self.heap_lock.notify_all()
        for thread in self.threads:
            thread.join(60)
        self.streams.stop.set()
        self.streams.thread.join(10)

    # -- a player's actions -----------------------------------------------------------------
    def call(self, player: Player, method: str, path: str, token: str | None = None,
             body: Any = None, key: str | None = None) -> Answer:  # fmt: skip
        headers = {"Cookie": player.cookie} if player.cookie else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key:
            headers["Idempotency-Key"] = key
        answer = self.web.call(method, path, body=body, headers=headers)
        if answer.set_cookie and not player.cookie:
            player.cookie = answer.set_cookie.split(";", 1)[0]
        return answer

    def expect(self, answer: Answer, status: int, what: str) -> bool:
        if answer.status == status:
            return True
        self.tally.error(f"{what}: {answer.status} (wanted {status}): {str(answer.body)[:300]}")
        return False

    def begin(self, player: Player) -> None:
        answer = self.call(player, "GET", "/api/me")
        if self.expect(answer, 200, "GET /api/me"):
            for _ in range(self.games_each):
                self.later(self.thinking(), lambda: self.new_game(player))

    def opponent_for(self, player: Player) -> Player | None:
        """Another player with room for a game (it takes the invitation), or None: then
        the AI plays the other seat."""
        with self.rng_lock:
            free = [p for p in self.players
                    if p is not player and p.cookie and p.games < self.games_each]  # fmt: skip
            if not free:
                return None
            other = self.rng.choice(free)
            other.games += 1
            return other

    def new_game(self, player: Player) -> None:
        if self.closing:
            return
        against_ai = self.chance(self.ai_share)
        with self.rng_lock:
            if player.games >= self.games_each:  # others' invitations filled its table
                return
            player.games += 1
        other = None if against_ai else self.opponent_for(player)
        kind = "warring-states" if self.chance(self.ws_share) else "sun-tzu"
        first, second = self.seats[kind]
        seats = {first: "human", second: "human" if other else AI_SEAT}
        body = {"game": kind, "options": KINDS[kind], "seats": seats}
        answer = self.call(player, "POST", "/api/games", body=body)
        if not self.expect(answer, 201, "POST /api/games"):
            self.release(player, other)
            return
        game_id = answer.body["game_id"]
        tokens = {seat: link.get("token") for seat, link in answer.body["seats"].items()}
        mine = {first: (player, tokens[first])}
        if other is not None:
            mine[second] = (other, tokens[second])
        for seat, (who, token) in mine.items():
            if not self.join(who, game_id, seat, token):
                self.release(player, other)
                return
        game = Game(game_id, mine, self.chance(self.stream_share), load(self.store, game_id))
        with self.tally.lock:
            self.games[game_id] = game
            self.tally.started += 1
            self.tally.kinds[f"{kind} vs {'a player' if other else 'the AI'}"] += 1
        if game.streamed:
            self.streams.follow(game_id, tokens[first], lambda: game.loaded.version)
        for seat in mine:
            self.look_later(game, seat, self.thinking())

    def join(self, who: Player, game_id: str, seat: str, token: str) -> bool:
        answer = self.call(who, "POST", f"/api/games/{game_id}/join", token=token, body={})
        if answer.status == 200:
            return True
        if answer.status == 403 and answer.retried:  # the first try went through, unanswered
            joined = load(self.store, game_id).joined.get(seat, {})
            if joined.get("player") and who.cookie:
                return True
        return self.expect(answer, 200, f"POST join {seat}")

    def release(self, player: Player, other: Player | None) -> None:
        with self.rng_lock:
            for who in (player, other):
                if who is not None:
                    who.games -= 1

    def woken(self, game_id: str) -> None:
        """The game's stream brought something: each of its bench seats looks after a think."""
        game = self.games.get(game_id)
        if game is None or game.over:
            return
        for seat in game.seats:
            self.look_later(game, seat, self.thinking())

    def look_later(self, game: Game, seat: str, delay: float) -> None:
        due = time.monotonic() + delay
        with game.lock:
            if game.over or game.next_look.get(seat, (float("inf"),))[0] <= due:
                return
            with self.heap_lock:
                self.counter += 1
                ticket = self.counter
            game.next_look[seat] = (due, ticket)
        self.later(delay, lambda: self.look(game, seat, ticket))

    def look(self, game: Game, seat: str, ticket: int) -> None:
        with game.lock:
            if game.next_look.get(seat, (0, None))[1] != ticket:
                return  # an earlier look took its place
            del game.next_look[seat]
        if game.over or self.stopped:
            return
        player, token = game.seats[seat]
        if not game.streamed:  # the poller's look: what happened since it last saw
            path = f"/api/games/{game.game_id}/events?after={game.loaded.version}"
            if not self.expect(self.call(player, "GET", path, token=token), 200, "GET events"):
                self.look_later(game, seat, self.thinking())
                return
        with game.lock:
            apply(game.loaded, self.store.read(game.game_id, after=game.loaded.version))
            if game.loaded.outcome is not None:
                self.finish(game)
                return
            owed = seat in game.loaded.pending and game.loaded.seats.get(seat) == "human"
            if owed:
                self.move(game, seat, player, token)
        if game.over:
            return
        # a poller looks again after a think; a streamed game waits for its stream
        again = FALLBACK if game.streamed and not owed else self.thinking()
        self.look_later(game, seat, again)

    def move(self, game: Game, seat: str, player: Player, token: str) -> None:
        with self.rng_lock:
            seed = self.rng.random()
        command = game.loaded.rules.random_command(game.loaded.state, seat, random.Random(seed))
        if command is None:
            return
        body = {"command": command, "expected_version": game.loaded.version}
        path = f"/api/games/{game.game_id}/commands"
        answer = self.call(player, "POST", path, token=token, body=body, key=uuid.uuid4().hex)
        if answer.status == 409:
            with self.tally.lock:
                self.tally.stale += 1
            return
        if not self.expect(answer, 201, f"POST command {command.get('type')}"):
            return
        with self.tally.lock:
            self.tally.commands += 1
            self.tally.latencies.append(answer.seconds)
            events = answer.body.get("events") or []
            if events:
                self.tally.acks += [(game.game_id, e["seq"], e.get("hash")) for e in events]
            else:  # a retry's answer: the command is in, at or before this version
                self.tally.acks.append((game.game_id, answer.body["version"], None))
        apply(game.loaded, self.store.read(game.game_id, after=game.loaded.version))
        if game.loaded.outcome is not None:
            self.finish(game)

    def finish(self, game: Game) -> None:
        """The game is over (``game.lock`` held): its players start another."""
        if game.over:
            return
        game.over = True
        self.streams.unfollow(game.game_id)
        with self.tally.lock:
            self.tally.finished += 1
        with self.rng_lock:
            for player, _ in game.seats.values():
                player.games -= 1
        for player, _ in game.seats.values():
            self.later(self.thinking(), lambda p=player: self.new_game(p))
