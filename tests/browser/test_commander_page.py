"""Commander (issue 19) on the generic game page in chromium, through the controls a person
uses: a newcomer makes a game against the computer with the secret setup on the home page,
builds an arrangement (two pieces swapped by clicks, two by a drag), confirms it, and moves
by clicking (the legal destinations marked, captures apart), by dragging and by keys; the
last move stays marked; the replay shows the board. Two people: the first to arrange waits,
sees nothing of the other's side, and each sees the board from their own side."""

from __future__ import annotations

import random
import re

from browser_play import error, kind, over, sent, until, version

import games
from games.commander.board import STANDARD

RULES = games.get("commander")
BOARD = "#board [data-square]"


def caught_up(server, game_id, page) -> None:
    store = server.bingfa.store
    until(lambda: version(page) == store.version(game_id) and (kind(page) or over(page)), 20,
          "the page to show the latest position")  # fmt: skip


def square(page, name: str):
    return page.locator(f'#board [data-square="{name}"]')


def centre(locator) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def targets(page) -> dict[str, str]:
    return dict(
        page.locator("#board [data-target]").evaluate_all(
            "ns => ns.map(n => [n.dataset.square, n.dataset.target])"
        )
    )


def owners(page) -> dict[str, str]:
    return dict(
        page.locator("#board [data-square] .piece").evaluate_all(
            "ns => ns.map(n => [n.closest('[data-square]').dataset.square, n.dataset.owner])"
        )
    )


def swap(pieces: str, i: int, j: int) -> str:
    out = list(pieces)
    out[i], out[j] = out[j], out[i]
    return "".join(out)


VALUE = {"C": 100, "O": 3, "S": 1}


def greedy(moves, board, rng, end=True):
    """A move that takes the most (the Commander above all), else any; ``end`` false: not
    one that wins at once (the Commander taken, or arriving on the far rank)."""
    if not end:
        going = [m for m in moves if not wins(m, board)]
        moves = going or moves
    worth = {m: VALUE[board[m[1]]["piece"]] if m[1] in board else 0 for m in moves}
    best = max(worth.values())
    return rng.choice([m for m in moves if worth[m] == best])


def wins(move, board) -> bool:
    start, to = move
    taken = board.get(to, {}).get("piece")
    return taken == "C" or (board[start]["piece"] == "C" and to.endswith("8"))


def assert_last_move_marked(page, state) -> None:
    last = RULES.view(state, "blue")["last"]
    if last is None:
        return
    until(lambda: square(page, last["to"]).get_attribute("data-last") == "to", 20, "the last move")
    assert square(page, last["from"]).get_attribute("data-last") == "from"
    assert page.locator("#board [data-last]").count() == 2
    assert f"{last['from']} → {last['to']}" in page.inner_text("#last-move")


def play_through_page(server, page, game_id, rng, decisions, english=True):
    """Answer ``decisions`` of Blue's through the page's controls (the arrangement as
    shown, then moves by clicks, taking the most it can); the page's words are not read,
    so any language will do. Returns how many were answered before the end."""
    for done in range(decisions):
        caught_up(server, game_id, page)
        if over(page):
            return done
        before = sent(page)
        if kind(page) == "arrange":
            page.click("#arrange-confirm")
        else:
            state = server.bingfa.load(game_id).state
            moves = [(c["from"], c["to"]) for c in RULES.legal(state, "blue")]
            start, to = greedy(moves, RULES.view(state, "blue")["pieces"], rng)
            square(page, start).click()
            square(page, to).click()
        until(lambda b=before: sent(page) > b, 20, "the answer sent")
        assert not error(page), error(page)
    return decisions


def test_a_newcomer_arranges_in_secret_and_plays_commander(server, watch, shot):
    page = watch(viewport={"width": 1100, "height": 1000}).page
    page.goto(server.url + "/")
    page.check("input[name=mode][value=ai]")
    page.select_option("#level", "random")
    page.select_option("#game", "commander")
    page.select_option("[data-kind-fields=commander] [data-option=setup]", "secret")
    page.click("#create")
    page.wait_for_url(re.compile(r"/g/\w+/blue$"))
    game_id = page.get_attribute("#game", "data-game")

    # the arrangement: the standard one on Blue's half, rank 1 at the bottom, Red's half empty
    until(lambda: kind(page) == "arrange", 20, "the arrangement to make")
    assert page.locator(BOARD).count() == 32 and page.locator("#board .river").count() == 1
    assert page.locator(BOARD).first.get_attribute("data-square") == "a8"
    assert set(owners(page).values()) == {"blue"} and len(owners(page)) == 16
    written = page.locator("#arrange-written")
    assert written.get_attribute("data-pieces") == STANDARD
    shot(page, "arrange")
    square(page, "a1").click()  # an Officer …
    assert square(page, "a1").get_attribute("data-selected") == "yes"
    assert set(targets(page).values()) == {"swap"} and len(targets(page)) == 11  # not an O
    shot(page, "arrange-picked")
    square(page, "a2").click()  # … swapped with the Soldier in front of it
    expected = swap(STANDARD, 0, 4)
    assert written.get_attribute("data-pieces") == expected
    assert square(page, "a1").get_attribute("data-piece") == "S"
    square(page, "c1").drag_to(square(page, "b1"))  # the Commander dragged onto an Officer
    expected = swap(expected, 2, 1)
    until(lambda: written.get_attribute("data-pieces") == expected, 10, "the drag's swap")
    assert square(page, "b1").get_attribute("data-piece") == "C"
    square(page, "a6").click()  # not Blue's side: said, nothing changes
    assert "your own side" in page.inner_text("#arrange-help")  # by the board, where one looks
    before = sent(page)
    page.click("#arrange-confirm")
    until(lambda: sent(page) > before, 20, "the arrangement sent")
    assert not error(page), error(page)
    until(lambda: server.bingfa.load(game_id).state.arranged[0] == expected, 20, "it arranged")

    # the moves, toward the end: click a piece, its destinations are marked (captures
    # apart), click one; one move by dragging, one by keys. The newcomer takes what they
    # can (the Commander first), so the game ends soon.
    rng = random.Random(19)
    made = 0
    while made < 40:
        caught_up(server, game_id, page)
        if over(page):
            break
        state = server.bingfa.load(game_id).state
        assert_last_move_marked(page, state)
        board = RULES.view(state, "blue")["pieces"]
        moves = [(c["from"], c["to"]) for c in RULES.legal(state, "blue")]
        start, to = greedy(moves, board, rng, end=made >= 3)
        shown = page.locator("#board [data-movable=yes]").evaluate_all(
            "ns => ns.map(n => n.dataset.square)"
        )
        assert sorted(shown) == sorted({a for a, _ in moves})
        reach = {b: "capture" if b in board else "move" for a, b in moves if a == start}
        before = sent(page)
        if made == 1:  # dragged: while it is held, its destinations are marked
            page.mouse.move(*centre(square(page, start)))
            page.mouse.down()
            page.mouse.move(*centre(square(page, to)), steps=4)
            assert targets(page) == reach
            assert page.locator("main .cmd-ghost .piece[data-owner=blue]").count() == 1
            shot(page, "dragging")
            page.mouse.up()
        elif made == 2:  # by keys: Enter picks, Escape puts back, Space picks, Enter moves
            square(page, start).focus()
            page.keyboard.press("Enter")
            assert targets(page) == reach
            page.keyboard.press("Escape")
            assert targets(page) == {} and page.locator("[data-selected]").count() == 0
            page.keyboard.press("Space")
            assert targets(page) == reach
            square(page, to).focus()
            page.keyboard.press("Enter")
        else:
            square(page, start).click()
            assert square(page, start).get_attribute("data-selected") == "yes"
            assert targets(page) == reach, (start, targets(page), reach)
            if made == 0:
                shot(page, "picked")
                choices = page.locator("#move-choices [data-move]").all_inner_texts()
                assert len(choices) == len(reach)
            square(page, to).click()
        until(lambda b=before: sent(page) > b, 20, f"the move {start}-{to} sent")
        assert not error(page), (start, to, error(page))
        made += 1
    assert made >= 3
    until(lambda: version(page) == server.bingfa.store.version(game_id), 20, "the last answer")
    state = server.bingfa.load(game_id).state
    assert_last_move_marked(page, state)
    left = RULES.view(state, None)["left"]
    for seat in ("blue", "red"):
        count = page.get_attribute(f'#players .player[data-seat="{seat}"] .left', "data-left")
        assert int(count) == sum(left[seat].values())
    assert page.input_value("#position-text") == RULES.view(state, None)["position"]
    shot(page, "played")

    # the end, and the replay of a finished game (this one; else one the computer played)
    if over(page):
        assert page.locator("#outcome").is_visible()
        assert "Pieces left" in page.inner_text("#outcome")
        shot(page, "over")
    else:
        both = {"blue": "ai:random", "red": "ai:random"}
        client = server.app.test_client()
        made_ai = client.post("/api/games", json={"game": "commander", "seats": both})
        game_id = made_ai.json["game_id"]
        until(lambda: server.bingfa.load(game_id).outcome, 30, "the computer's game to end")
    # one arrangement made, the other not: a spectator sees neither, "everything" the one
    types = [e.type for e in server.bingfa.store.read(game_id)]
    first = types.index("arranged") + 1
    page.goto(f"{server.url}/r/{game_id}?step={first}&as=spectator")
    page.wait_for_selector(f'#replay[data-shown="{first}:spectator"]')
    assert page.locator(BOARD).count() == 32 and owners(page) == {}
    assert page.locator("#arrange-secret").is_visible()
    page.check("#perspective input[value=full]")
    until(lambda: len(owners(page)) == 16, 20, "the arrangement made, in the everything-view")
    assert len(set(owners(page).values())) == 1
    end = server.bingfa.store.version(game_id)
    page.locator("#step-slider").fill(str(end))
    until(lambda: page.get_attribute("#replay", "data-shown") == f"{end}:full", 20, "the end")
    final = server.bingfa.load(game_id).state
    assert_last_move_marked(page, final)
    assert page.locator("#outcome").is_visible()  # how it ended, from the game's outcome
    assert "over at this step" in page.inner_text("#continue-note")
    assert len(owners(page)) == sum(ch != "." for ch in final.board)
    shot(page, "replay")


def test_the_first_to_arrange_waits_and_sees_nothing_of_the_other_side(server, watch, shot):
    client = server.app.test_client()
    seats = {"blue": "human", "red": "human"}
    made = client.post("/api/games", json={"game": "commander", "seats": seats,
                                           "options": {"setup": "secret"}})  # fmt: skip
    assert made.status_code == 201, made.json
    game_id = made.json["game_id"]
    pages = {}
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    for seat in ("blue", "red"):  # the game starts once both have taken their seats
        pages[seat] = watch(**(phone if seat == "red" else {}))
        pages[seat].page.goto(server.url + made.json["seats"][seat]["invite"])
    blue, red = pages["blue"], pages["red"]
    until(lambda: kind(blue.page) == "arrange", 20, "Blue's arrangement")
    blue.page.click("#arrange-confirm")
    until(lambda: blue.page.locator("#arrange-waiting").is_visible(), 20, "Blue waiting")
    assert "Waiting for Red" in blue.page.inner_text("#arrange-waiting")
    assert set(owners(blue.page).values()) == {"blue"}  # its own, and nothing of Red's
    shot(blue.page, "waiting")

    until(lambda: kind(red.page) == "arrange", 20, "Red's arrangement")
    # Red sees its own side at the bottom: rank 1 at the top, file d on the left
    assert red.page.locator(BOARD).first.get_attribute("data-square") == "d1"
    assert red.page.locator(BOARD).last.get_attribute("data-square") == "a8"
    assert set(owners(red.page).values()) == {"red"}
    assert red.page.evaluate("document.documentElement.scrollWidth") <= 392  # fits a phone
    arranged = red.page.locator('#status .arranged[data-seat="blue"]')
    assert arranged.get_attribute("data-arranged") == "yes", "Red is told Blue has arranged"
    red.page.click("#arrange-shuffle")
    seen_before = len(blue.answers)
    red.page.click("#arrange-confirm")
    until(lambda: kind(blue.page) == "move", 20, "the reveal on Blue's page")
    red_pieces = server.bingfa.load(game_id).state.arranged[1]
    assert red_pieces and red_pieces != STANDARD
    for body in blue.answers[:seen_before]:  # nothing Blue's page was sent held it
        assert red_pieces not in body
    assert list(owners(blue.page).values()).count("red") == 16
    until(lambda: red.page.locator("#status .to-move").count() == 1, 20, "Red's page revealed")
    assert "Blue to move" in red.page.inner_text("#status")
    shot(red.page, "phone")
