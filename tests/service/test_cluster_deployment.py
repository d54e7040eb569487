"""The whole service past one machine, as docs/operations.md ("Past one machine") lays it
out, in processes on this host: the event store on a 3-node Redis Cluster, a separate
Redis as the broker, two web processes (two gunicorns, as on two hosts behind a load
balancer, sharing the secret key), the AI and the analysis workers apart, beat and the
projector, each started from its Procfile line (``bench.stack``).

Games are played through both web processes, command by command in turn, by two players
whose browser cookies go to either web (as behind a load balancer): two rated Sun Tzu
games between them, and one against the AI, whose moves worker-ai plays. Then: every game
ended; worker-analysis archived each into the replay store (before anything asked the
replay API, which would archive on demand) and the record verifies; the projector's read
models (the players' game lists and ratings), read through the web that did not create the
game, show the finished games; and the store's keys are spread over the cluster's nodes.
Every wait has a deadline and a failure shows the processes' logs.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import random
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from typing import Any

import pytest

import games
from bench.stack import Stack, wait_ready
from events.embedded import free_port
from events.projector import apply, load
from events.redis_store import RedisEventStore
from replays.store import ReplayStore
from service.cli import gunicorn_args

GAME = "sun-tzu"
WAIT = 60.0  # seconds any one expected change may take (this machine is shared)
ANALYSIS_WAIT = 120.0  # seconds for an analysis (under a minute at the default strength)
BEATS = ("beat1", "beat2")
BEAT_LEASE = 3.0  # seconds: the standby beat takes over this soon after the leader died
AI_WAIT = 45.0  # seconds for one AI move (the random level takes milliseconds)
RESERVED = ("REDIS_URL", "CELERY_BROKER_URL", "SECRET_KEY", "GUNICORN_CMD_ARGS",
            "PROMETHEUS_MULTIPROC_DIR", "WEB_CONCURRENCY", "PORT")  # fmt: skip


class Player:
    """A browser: its own cookies (its player id, signed by whichever web set it), sent to
    every web process, as a browser behind a load balancer sends them to every host."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def call(self, method: str, url: str, body: Any = None,
             token: str | None = None) -> tuple[int, Any]:  # fmt: skip
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        if method != "GET":
            request.add_header("Idempotency-Key", uuid.uuid4().hex)
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, error.read()[:500]

    def expect(self, status: int, method: str, url: str, **kwargs: Any) -> Any:
        got, body = self.call(method, url, **kwargs)
        assert got == status, f"{self.name}: {method} {url}: {got} (wanted {status}): {body!r}"
        return body


def wait_for(what: str, check: Callable[[], Any], timeout: float = WAIT) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} within {timeout:.0f} s")
        time.sleep(0.2)


@pytest.fixture
def cluster_url(redis_cluster):
    """REDIS_URL for the cluster (any one node), every node flushed before and after: the
    cluster is the session's, shared with other tests."""

    def flush() -> None:
        for node in redis_cluster.get_primaries():
            redis_cluster.get_redis_connection(node).flushdb()

    flush()
    node = redis_cluster.get_nodes()[0]
    yield f"redis+cluster://{node.host}:{node.port}"
    flush()


@pytest.fixture
def service(tmp_path, cluster_url, broker_url):
    """Every process of the deployment, started; yields (stack, [web1 url, web2 url])."""
    env = {k: v for k, v in os.environ.items() if k not in RESERVED}
    data = tmp_path / "data"
    data.mkdir()
    env.update(
        REDIS_URL=cluster_url,
        CELERY_BROKER_URL=broker_url,
        SECRET_KEY=uuid.uuid4().hex * 2,  # the same on every web host: cookies cross hosts
        BINGFA_DATA=str(data),
        BINGFA_RATELIMIT_WRITES="100000 per minute",
        BINGFA_BEAT_LEASE_SECONDS=str(BEAT_LEASE),  # one test client writes for everyone
        PYTHONUNBUFFERED="1",
    )
    env["GUNICORN_CMD_ARGS"] = gunicorn_args(env)  # no control socket shared by the two
    stack = Stack(tmp_path / "logs", env)
    ports = [free_port(), free_port()]
    stack.add("projector")
    for n, port in enumerate(ports, 1):
        stack.add(f"web{n}", kind="web", PORT=str(port), WEB_CONCURRENCY="1")
    stack.add("worker-ai", kind="worker")
    stack.add("worker-analysis", kind="analysis")
    for name in BEATS:  # two copies, as on two hosts: one sends, the other stands by
        stack.add(name, kind="beat", BINGFA_DATA=str(data / name))
        (data / name).mkdir()
    try:
        stack.start()
        urls = [f"http://127.0.0.1:{port}" for port in ports]
        try:
            for name, line in (("worker-ai", "ai@"), ("worker-analysis", "analysis@")):
                wait_for(f"{name} ready", lambda n=name, w=line: _ready(stack, n, w))
            wait_for("beat's lease", lambda: alive(stack) and all("beat lease" in
                     stack.log_tail(b, 20000) for b in BEATS))  # fmt: skip
            wait_for("the projector", lambda: alive(stack) and "partition feeds" in
                     stack.log_tail("projector", 20000))  # fmt: skip
            for url in urls:
                wait_ready(url, timeout=WAIT)
        except AssertionError as error:
            raise AssertionError(f"{error}\n{logs(stack)}") from None
        except RuntimeError as error:
            raise AssertionError(f"{error}\n{logs(stack)}") from None
        yield stack, urls
    finally:
        stack.close()


def alive(stack: Stack) -> bool:
    gone = [name for name, member in stack.members.items() if not member.running]
    assert not gone, f"exited: {', '.join(gone)}"
    return True


def _ready(stack: Stack, name: str, node: str) -> bool:
    alive(stack)
    text = stack.log_tail(name, 50000)
    return node in text and " ready" in text


def logs(stack: Stack) -> str:
    return "\n".join(f"--- {name} ---\n{stack.log_tail(name)}" for name in stack.members)


def play_between(store, webs: list[str], players: dict[str, Player], seed: int) -> str:
    """A rated game between two people, created on the first web, every command (and the
    joins) sent to the webs in turn; its id once it is over."""
    rules = games.get(GAME)
    rng = random.Random(seed)
    creator = players["blue"]
    created = creator.expect(201, "POST", f"{webs[0]}/api/games", body={
        "game": GAME, "seats": {"blue": "human", "red": "human"}, "rated": True})  # fmt: skip
    game_id = created["game_id"]
    tokens = {seat: link["token"] for seat, link in created["seats"].items()}
    for n, seat in enumerate(("blue", "red")):
        players[seat].expect(200, "POST", f"{webs[n % 2]}/api/games/{game_id}/join",
                             body={}, token=tokens[seat])  # fmt: skip
    game = load(store, game_id)
    sent = 0
    while due := rules.pending(game.state):
        seat = next(iter(due))
        command = rules.random_command(game.state, seat, rng)
        web = webs[sent % 2]
        players[seat].expect(201, "POST", f"{web}/api/games/{game_id}/commands",
                             body={"command": command}, token=tokens[seat])  # fmt: skip
        sent += 1
        apply(game, store.read(game_id, after=game.version))
    assert rules.outcome(game.state) is not None, f"{game_id}: nothing pending, no outcome"
    assert sent >= 2, f"{game_id}: ended after {sent} commands"
    return game_id


def play_against_the_ai(store, webs: list[str], player: Player, seed: int) -> str:
    """A game against the AI (its seat played by worker-ai), the person's commands sent to
    the webs in turn; its id once it is over."""
    rules = games.get(GAME)
    rng = random.Random(seed)
    created = player.expect(201, "POST", f"{webs[1]}/api/games", body={
        "game": GAME, "seats": {"blue": "human", "red": "ai:random"}})  # fmt: skip
    game_id = created["game_id"]
    token = created["seats"]["blue"]["token"]
    player.expect(200, "POST", f"{webs[0]}/api/games/{game_id}/join", body={}, token=token)
    game = load(store, game_id)
    sent = ai_moves = 0
    while due := rules.pending(game.state):
        if "blue" in due:
            command = rules.random_command(game.state, "blue", rng)
            player.expect(201, "POST", f"{webs[sent % 2]}/api/games/{game_id}/commands",
                          body={"command": command}, token=token)  # fmt: skip
            sent += 1
        else:
            version = game.version
            wait_for(f"the AI's move in {game_id} after version {version}",
                     lambda v=version: store.version(game_id) > v, AI_WAIT)  # fmt: skip
            ai_moves += 1
        apply(game, store.read(game_id, after=game.version))
    assert rules.outcome(game.state) is not None, f"{game_id}: nothing pending, no outcome"
    assert ai_moves > 0, f"{game_id}: the AI never moved"
    return game_id


def test_the_service_on_a_redis_cluster_plays_through_two_web_processes(service, redis_cluster):
    stack, webs = service
    try:
        check_the_deployment(stack, webs, redis_cluster)
    except AssertionError as error:
        raise AssertionError(f"{error}\n{logs(stack)}") from None


def check_the_deployment(stack: Stack, webs: list[str], cluster: Any) -> None:
    store = RedisEventStore(cluster, partitions=16)
    replays = ReplayStore(cluster)
    alice, bob = Player("alice"), Player("bob")
    played = [
        play_between(store, webs, {"blue": alice, "red": bob}, seed=1),
        play_between(store, list(reversed(webs)), {"blue": bob, "red": alice}, seed=2),
    ]
    against_ai = play_against_the_ai(store, webs, alice, seed=3)
    finished = [*played, against_ai]

    # worker-analysis archived every game: the replay store has it before the replay API
    # (which archives on demand) was ever asked
    for game_id in finished:
        wait_for(f"the archive of {game_id}", lambda g=game_id: replays.exists(g))
    analysis_log = stack.log_tail("worker-analysis", 200000)
    assert "Task bingfa.archive_game[" in analysis_log  # (a task's lines, not the banner)
    assert "Task bingfa.play_ai_move[" in stack.log_tail("worker-ai", 200000)
    assert "Task bingfa.play_ai_move[" not in analysis_log  # the queues are apart
    for n, game_id in enumerate(finished):
        report = alice.expect(200, "GET", f"{webs[n % 2]}/api/replays/{game_id}/verify")
        assert report["ok"], report

    # the projector's read models, read through the web that did not create each game
    for player, mine in ((alice, finished), (bob, played)):
        me = player.expect(200, "GET", f"{webs[1]}/api/me")["player"]
        for web in webs:  # the cookie web1 signed is good on web2 (one secret key)
            assert player.expect(200, "GET", f"{web}/api/me")["player"] == me

        def listed(player=player, mine=mine) -> bool:
            games_of = player.expect(200, "GET", f"{webs[1]}/api/me/games")["games"]
            status = {g.get("game"): g.get("status") for g in games_of}
            return all(status.get(g) == "finished" for g in mine)

        wait_for(f"{player.name}'s finished games in the read model", listed)
        page = wait_for(f"{player.name}'s rated games on the player page", lambda p=player,
                        m=me: _rated(p, webs[0], m, len(played)))  # fmt: skip
        assert page["games"]["finished"] == len(mine), page["games"]

    # the store's keys carry their partition's hash tag: spread over the cluster's nodes
    sizes = [cluster.get_redis_connection(node).dbsize() for node in cluster.get_primaries()]
    assert sum(1 for size in sizes if size > 0) >= 2, sizes

    # the analysis of a replay, asked on one web, followed on the other
    alice.expect(202, "POST", f"{webs[0]}/api/replays/{against_ai}/analysis", body={})
    analysed = wait_for(
        f"the analysis of {against_ai}",
        lambda: _analysis_over(alice, f"{webs[1]}/api/replays/{against_ai}/analysis"),
        ANALYSIS_WAIT,
    )
    assert analysed["status"] == "done", analysed
    assert "Task bingfa.analyse_replay[" in stack.log_tail("worker-analysis", 200000)

    # beat ran once: one copy holds the lease and sends, the other stands by and sends
    # nothing, until the holder dies (kill -9: its lease is not given back but expires)
    leader, standby = sorted(BEATS, key=lambda b: "this beat sends" not in stack.log_tail(b))
    assert "this beat sends" in stack.log_tail(leader, 200000)
    assert "stands by" in stack.log_tail(standby, 200000)
    assert "Sending due task" not in stack.log_tail(standby, 200000)
    stack.kill(leader)
    wait_for(
        "the standby beat's takeover",
        lambda: "Sending due task" in stack.log_tail(standby, 200000),
        BEAT_LEASE + WAIT,
    )
    assert "this beat sends" in stack.log_tail(standby, 200000)


def _analysis_over(player: Player, url: str) -> dict | None:
    found = player.expect(200, "GET", url)
    return found if found["status"] in ("done", "failed") else None


def _rated(player: Player, web: str, me: str, games_rated: int) -> dict | None:
    page = player.expect(200, "GET", f"{web}/api/players/{me}?game={GAME}")
    rated = page["history"]["total"] == games_rated and page["ratings"]
    return page if rated else None
