"""A real server on a free localhost port and Debian's Chromium driven by Playwright.

Never a downloaded browser: ``/usr/bin/chromium`` (``scripts/browser-setup`` installs it).
AI seats are played by ``AiSeats``, the write path's ``on_appended`` hook for tests: it
plays every AI seat that owes a move with the rules' ``random_command``, in one
background thread, so no Celery is needed.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import random
import threading
from pathlib import Path

import fakeredis
import pytest
from werkzeug.serving import make_server

import games
from events.store import ConcurrencyError, InMemoryEventStore
from service import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).parent / "artifacts"


class AiSeats:
    """``ON_APPENDED`` hook: after each append, AI seats that owe a move get one."""

    def __init__(self, seed: int = 7) -> None:
        self.bingfa = None  # set once the app exists
        self.rng = random.Random(seed)
        self.errors: list[BaseException] = []
        self.jobs: queue.Queue[str | None] = queue.Queue()
        self.thread = threading.Thread(target=self.run, name="ai-seats", daemon=True)
        self.thread.start()

    def __call__(self, game, events) -> None:
        if self.owing(game):
            self.jobs.put(game.game_id)

    @staticmethod
    def owing(game) -> list[str]:
        return [s for s in game.pending if str(game.seats.get(s, "")).startswith("ai:")]

    def run(self) -> None:
        while (game_id := self.jobs.get()) is not None:
            try:
                self.play(game_id)
            except Exception as exc:  # reported by the tests through ``errors``
                self.errors.append(exc)

    def play(self, game_id: str) -> None:
        for _ in range(5000):
            game = self.bingfa.load(game_id)
            seats = self.owing(game)
            if not seats:
                return
            rules = games.get(game.created["game"])
            command = rules.random_command(game.state, seats[0], self.rng)
            try:
                self.bingfa.submit(game_id, seats[0], command, expected_version=game.version)
            except ConcurrencyError:
                continue  # a human moved at the same moment; look again

    def stop(self) -> None:
        self.jobs.put(None)
        self.thread.join(timeout=5)


class Server:
    def __init__(self, app, url: str, ai: AiSeats) -> None:
        self.app = app
        self.url = url
        self.ai = ai

    @property
    def bingfa(self):
        return self.app.extensions["bingfa"]


@contextlib.contextmanager
def serving(**config):
    """An app over an in-memory store (``config`` added to the test settings) served on a
    free localhost port, its AI seats played by ``AiSeats``."""
    ai = AiSeats()
    settings = {"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                "TESTING": True, "SSE_SECONDS": 5,
                "SSE_HEARTBEAT": 0.1, "ON_APPENDED": ai}  # fmt: skip
    app = create_app({**settings, **config})
    ai.bingfa = app.extensions["bingfa"]
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    http = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=http.serve_forever, name="http", daemon=True)
    thread.start()
    try:
        yield Server(app, f"http://127.0.0.1:{http.server_port}", ai)
    finally:
        http.shutdown()
        ai.stop()
    assert not ai.errors, ai.errors


@pytest.fixture(scope="session")
def server():
    with serving() as running:
        yield running


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "run scripts/browser-setup: Debian's chromium is missing"
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_context(browser):
    """Browser contexts (separate profiles: cookies, localStorage), closed after the test."""
    made = []

    def make(**options):
        context = browser.new_context(**options)
        context.set_default_timeout(20_000)  # generous: CI machines are often busy
        made.append(context)
        return context

    yield make
    # A headless Chromium renderer has been seen to hang for good while its context
    # closes (the close has no timeout): past CLOSE_PATIENCE seconds, the renderers are
    # killed, which lets the close finish, rather than the whole run waiting forever.
    watchdog = threading.Timer(CLOSE_PATIENCE, kill_renderers)
    watchdog.start()
    try:
        for context in made:
            context.close()
    finally:
        watchdog.cancel()


CLOSE_PATIENCE = 60.0  # seconds


def kill_renderers() -> None:
    """Kill this test run's Chromium renderer processes (a stuck close then returns)."""
    import psutil

    for proc in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if "--type=renderer" in proc.cmdline():
                logging.getLogger(__name__).warning("killing a stuck renderer %s", proc.pid)
                proc.kill()


@pytest.fixture
def shot(request):
    """Save a screenshot of a page under tests/browser/artifacts/<test>-<name>.png."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page, name: str) -> Path:
        path = ARTIFACTS / f"{request.node.name}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


class Watched:
    """A page with the uncaught script errors and the API answers it received."""

    def __init__(self, context) -> None:
        self.page = context.new_page()
        self.errors: list[str] = []
        self.answers: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("response", self._keep)

    def _keep(self, response) -> None:
        url = response.url
        api = "/api/games/" in url and "/stream" not in url
        if api and response.request.method == "GET" and response.ok:
            self.answers.append(response.text())


@pytest.fixture
def watch(new_context):
    made: list[Watched] = []

    def make(**options) -> Watched:
        made.append(Watched(new_context(**options)))
        return made[-1]

    yield make
    for w in made:
        assert not w.errors, f"script errors on {w.page.url}: {w.errors}"
