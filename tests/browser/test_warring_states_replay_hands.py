"""A finished Warring States game on the replay page: each seat's perspective shows that
seat's hand and never the other's, a spectator sees no hand, and "Everything" shows both
hands, each deck in order and the faces of the cards played face down."""

from __future__ import annotations

import pytest
from browser_play import until

import games
from replays.archive import archive
from replays.record import record_of
from replays.replay import replay_of

RULES = games.get("warring-states")


@pytest.fixture(scope="module")
def finished_ws(server):
    client = server.app.test_client()
    seats = {"first": "ai:random", "second": "ai:random"}
    made = client.post("/api/games", json={"game": "warring-states", "seats": seats})
    assert made.status_code == 201, made.json
    game_id = made.json["game_id"]
    until(lambda: server.bingfa.load(game_id).outcome is not None, 90, "the game to end")
    until(lambda: server.bingfa.load(game_id).revealed is not None, 10, "the seed")
    from service.api.replays import replay_store

    with server.app.app_context():
        archive(server.bingfa.store, replay_store(), game_id)
    return game_id, record_of(server.bingfa.store, game_id)


def cards_in(page, selector: str) -> list[str]:
    return page.locator(selector).evaluate_all("cards => cards.map(c => c.dataset.card)")


def shown(page, step: int, perspective: str) -> None:
    until(
        lambda: page.get_attribute("#replay", "data-shown") == f"{step}:{perspective}",
        20,
        f"step {step} as {perspective}",
    )


def test_each_perspective_shows_the_hands_it_may_see(server, finished_ws, watch, shot):
    game_id, record = finished_ws
    replay = replay_of(record)
    # a step in the play with cards in both hands and a card played face down before it
    steps = [
        n
        for n in range(replay.length + 1)
        if (st := replay.state_at(n))["phase"] == "play"
        and all(st["hands"].values())
        and any(not d["up"] for ds in st["discards"].values() for d in ds)
    ]
    assert steps, "no step with both hands held after a face-down play"
    step = steps[len(steps) // 2]
    st = replay.state_at(step)
    side = {seat: st["sides"][seat] for seat in RULES.seats}
    page = watch().page
    page.goto(f"{server.url}/r/{game_id}?step={step}&as=first")
    shown(page, step, "first")
    first_hand = cards_in(page, "#hands [data-seat=first] .hand [data-card]")
    assert first_hand == st["hands"][side["first"]]
    assert page.locator("#hands [data-seat=second]").count() == 0
    assert page.locator("#hands .deck").count() == 0
    shot(page, "ws-replay-first")

    page.check("#perspective input[value=spectator]")
    shown(page, step, "spectator")
    assert page.locator("#hands [data-card]").count() == 0

    page.check("#perspective input[value=full]")
    shown(page, step, "full")
    for seat in RULES.seats:
        hand = cards_in(page, f"#hands [data-seat={seat}] .hand [data-card]")
        assert hand == st["hands"][side[seat]]
        deck = cards_in(page, f"#hands [data-seat={seat}] .deck [data-card]")
        assert deck == st["decks"][side[seat]]
    faces = cards_in(page, "#hands .face-down [data-card]")
    assert sorted(faces) == sorted(
        d["card"] for ds in st["discards"].values() for d in ds if not d["up"]
    )
    shot(page, "ws-replay-everything")

    # the dice box shows the last rolls up to the step, as the game page did during play
    rolled = [n for n in range(1, step + 1) if record.events[n - 1].type == "dice_rolled"]
    if rolled:
        assert "No dice rolled yet" not in page.locator("#dice").inner_text()
    page.goto(f"{server.url}/r/{game_id}?step=0&as=full")
    shown(page, 0, "full")
    assert "No dice rolled yet" in page.locator("#dice").inner_text()
