"""Notifications across two browsers: Blue makes a friend game and waits on its page (in
the background, notifications allowed); Red joins through the invite link. Blue is told
"your opponent joined" by a system notification, and Red, on the home page, sees "your
turn" arrive in the list and as a toast once Blue has moved: each once."""

from __future__ import annotations

import random
import re

from browser_play import until

import games

RULES = games.get("sun-tzu")

# Blue's page is in the background (another tab in front) and records what it would show.
CAPTURE = """
window.__shown = [];
class Captured {
  constructor(title, options) { window.__shown.push({ title, ...options }); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
}
window.Notification = Captured;
Object.defineProperty(document, "visibilityState", { get: () => "hidden", configurable: true });
"""


def shown(page) -> list[dict]:
    return page.evaluate("window.__shown || []")


def stream_opened(page):
    """A check: has the page's notification stream answered (so it starts before what
    comes next)? Calling into the page lets Playwright hand over its events."""
    opened: list[str] = []
    page.on("response", lambda r: "/api/me/notifications/stream" in r.url and opened.append(r.url))
    return lambda: page.evaluate("1") and opened


def move(server, game_id, seat, rng):
    game = server.bingfa.load(game_id)
    server.bingfa.submit(game_id, seat, RULES.random_command(game.state, seat, rng))


def test_each_player_is_told_once(server, watch, shot):
    b = watch(permissions=["notifications"])
    blue = b.page
    blue.add_init_script(CAPTURE)
    blue.goto(server.url + "/")
    assert blue.locator("#enable-notifications").count() == 0  # allowed already: no button
    blue.check("input[name=mode][value=friend]")
    blue.click("#create")
    link = until(lambda: blue.input_value("#invite-link"), 20, "the invite link")
    opened = stream_opened(blue)
    blue.click("#go-to-game")
    blue.wait_for_url(re.compile(r"/g/\w+/blue$"))
    game_id = blue.get_attribute("#game", "data-game")
    until(lambda: blue.locator("#invite-box").is_visible(), 20, "blue's seat to be taken")
    until(opened, 20, "blue's notification stream")

    red = watch().page
    red.goto(server.url + "/")
    # Red has not allowed notifications: the page offers to, and asks nothing by itself.
    assert red.locator("#enable-notifications").is_visible()
    red.goto(link)
    until(lambda: "#" not in red.url, 20, "red to take the seat")

    joined = f"Your opponent joined game {game_id}: Red took their seat."
    turn = f"Your turn in game {game_id} (Blue) against Red."
    until(lambda: {joined, turn} <= {n["body"] for n in shown(blue)}, 20, "blue to be told")
    assert [n["tag"] for n in shown(blue) if n["body"] == joined] == [f"joined:{game_id}:red"]
    assert blue.locator(".toast").count() == 0  # in the background: the system's, not a toast

    opened = stream_opened(red)
    red.goto(server.url + "/")
    until(opened, 20, "red's notification stream")
    assert red.locator("#my-notifications li.unread").count() == 0  # Red joined last
    rng = random.Random(4)
    move(server, game_id, "red", rng)  # both choose a Warlord: Blue chooses last
    move(server, game_id, "blue", rng)
    yours = f"Your turn in game {game_id} (Red) against Blue."
    item = red.locator("#my-notifications li.unread", has_text=yours)
    until(lambda: item.count() == 1, 20, "red's list to show its turn")
    until(lambda: red.locator(".toast", has_text=yours).count() == 1, 20, "red's toast")
    assert red.inner_text("#unread-count") == "1 unread"
    shot(red, "your-turn")

    # Each once: a reload lists it once, shows no toast again, and Blue was told nothing new.
    red.reload()
    until(lambda: red.locator("#my-notifications li", has_text=yours).count() == 1, 20,
          "the list after a reload")  # fmt: skip
    assert red.locator(".toast").count() == 0
    red.click("#mark-read")
    until(lambda: red.locator("#my-notifications li.unread").count() == 0, 20, "read")
    assert red.locator("#unread-count").is_hidden()
    told = [n["body"] for n in shown(blue)]
    assert sorted(told) == sorted([joined, turn]), told
    blue.goto(server.url + "/")
    until(lambda: blue.locator("#my-notifications li.unread").count() == 2, 20, "blue's list")


class Receiver:
    """A webhook receiver on a free localhost port that keeps what it is sent."""

    def __init__(self) -> None:
        import http.server
        import threading

        got = self.got = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                got.append((dict(self.headers), body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):  # quiet
                pass

        self.http = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_port}/hook"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()


def test_a_player_registers_tests_and_removes_a_webhook_on_the_profile_page(server, watch, shot):
    import hashlib
    import hmac
    import json

    server.app.config["BINGFA_WEBHOOK_ALLOW_LOCAL"] = True
    receiver = Receiver()
    try:
        page = watch().page
        page.goto(server.url + "/me")
        page.fill("#hook-url", "ftp://example.com/x")
        page.click("#hook-save")
        until(lambda: "http" in page.inner_text("#hook-status"), 20, "the refusal")
        assert page.locator("#hook-secret-box").is_hidden()
        page.fill("#hook-url", receiver.url)
        page.click("#hook-save")
        secret = until(lambda: page.input_value("#hook-secret"), 20, "the secret, once")
        until(lambda: page.locator("#hook-test").is_visible(), 20, "the test button")
        page.click("#hook-test")
        until(lambda: "delivered" in page.inner_text("#hook-status"), 20, "the test's answer")
        headers, body = receiver.got[-1]
        stamp, signed = (part.split("=", 1)[1] for part in headers["X-Bingfa-Signature"].split(","))
        want = hmac.new(secret.encode(), f"{stamp}.".encode() + body, hashlib.sha256).hexdigest()
        assert hmac.compare_digest(signed, want) and json.loads(body)["kind"] == "test"
        until(lambda: page.locator("#hook-deliveries li").count(), 20, "the delivery listed")
        shot(page, "webhook")
        page.reload()
        until(lambda: page.input_value("#hook-url") == receiver.url, 20, "the saved address")
        assert page.locator("#hook-secret-box").is_hidden()  # never shown again
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#hook-delete")
        until(lambda: page.inner_text("#hook-status") == "Removed.", 20, "the removal")
    finally:
        receiver.http.shutdown()
        receiver.http.server_close()
