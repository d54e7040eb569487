"""The words of Commander's own page parts (``web/*.js``), by message id (``page.*``):
the front end writes no English of its own. Merged into ``text.MESSAGES``."""

from __future__ import annotations

PAGE: dict[str, str] = {
    # the board
    "page.board.label": "The board, seen from {seat}'s side",
    "page.river": "River",
    "page.piece": "{seat} {piece}",  # "Blue Officer"
    "page.square": "{square}: {content}",
    "page.square.states": "{square}: {content} ({states})",
    "page.square.empty": "empty",
    "page.square.selected": "picked",
    "page.square.target.move": "it may move here",
    "page.square.target.capture": "it may capture here",
    "page.square.target.swap": "swap with this piece",
    "page.square.last.from": "the last move started here",
    "page.square.last.to": "the last move ended here",
    # the status line
    "page.status.label": "Game status",
    "page.status.arrange": "Setting up: each player arranges their pieces in secret.",
    "page.status.arranged": "{seat} has arranged",
    "page.status.arranging": "{seat} is arranging",
    "page.status.your_move": "Your move ({seat})",
    "page.status.to_move": "{seat} to move",
    "page.status.over": "Game over",
    "page.status.moves": "Moves made: {n}",
    "page.status.quiet": "Since the last capture: {n} of {limit}",
    "page.status.repeated": "This position has come {n} times",
    # the last move
    "page.last.none": "No move made yet.",
    "page.last.move": "Last move: {piece} {start} → {to}.",
    "page.last.capture": "Last move: {piece} {start} → {to}, capturing the {captured}.",
    # the position's notation
    "page.position.label": "Position",
    "page.position.copy": "Copy",
    # tooltips
    "page.tip.C": "The Commander steps one space in any of the eight directions.",
    "page.tip.C.dagger": "It captures an enemy Officer or the enemy Commander, but never a "
    "Soldier.",
    "page.tip.C.rank": "It captures any enemy piece.",
    "page.tip.C.goal.back_rank": "If it is captured you lose; if it reaches the enemy's back rank "
    "you win.",
    "page.tip.C.goal.enemy_side": "If it is captured you lose; if it crosses the river you win.",
    "page.tip.O": "An Officer moves any number of empty spaces in a straight line, forward, back "
    "or sideways (never diagonally), but crosses the river only by a one-space step. It captures "
    "the first enemy Officer or Soldier in its way.",
    "page.tip.S": "A Soldier steps one space forward, back or sideways (never diagonally).",
    "page.tip.S.dagger": "It captures an enemy Soldier, or the enemy Commander (the soldier's "
    "dagger).",
    "page.tip.S.rank": "It captures only an enemy Soldier.",
    "page.tip.river": "The river between ranks 4 and 5 divides the two sides. An Officer crosses "
    "it only by a one-space step.",
    "page.tip.moves": "The moves both players have made together.",
    "page.tip.quiet": "The moves made since the last capture. After {limit} in a row ({each} by "
    "each player) the game is a draw.",
    "page.tip.repeated": "How many times this position has come with the same player to move. "
    "The third time, the game is a draw.",
    "page.tip.position": "The position in Commander's notation: the ranks from 8 down to 1 "
    "(capitals for Blue, small letters for Red, a digit for empty spaces), who moves next (b or "
    "r), the moves since the last capture and the move number.",
    # the players' panels
    "page.seat.you": "{seat} (you)",
    "page.seat.you.ai": "{seat} (you, played by the computer: {level})",
    "page.seat.ai": "{seat} (computer, {level})",
    "page.player.your_move": "Your move",
    "page.player.to_move": "To move",
    "page.player.arranged": "Arranged",
    "page.player.arranging": "Arranging",
    "page.player.left": "Pieces left: {n}",
    "page.left.C": "Commanders: {n}",
    "page.left.O": "Officers: {n}",
    "page.left.S": "Soldiers: {n}",
    # under how the game ended
    "page.outcome.left": "{seat} {n}",
    "page.outcome.note": "After {moves} moves. Pieces left: {left}.",
    # a move
    "page.move.title": "Your move",
    "page.move.how": "Click one of your pieces, or drag it, to see where it may go: a dot marks "
    "a move, a ring a capture.",
    "page.move.keys": "Keys: the arrows move between spaces; Enter or Space picks a piece and "
    "moves it; Escape puts it back.",
    "page.move.selected": "{piece} on {square} picked: click a marked space, or choose here.",
    "page.move.choices": "Where it may go",
    "page.move.button": "{start} → {to}",
    "page.move.button.capture": "{start} × {to} (captures the {captured})",
    "page.move.cancel": "Put it back",
    "page.move.stuck": "Your {piece} on {square} has no legal move now.",
    "page.move.not_there": "The {piece} on {start} cannot move to {to}.",
    "page.move.pick_first": "Click one of your own pieces first: the spaces it may move to are "
    "then marked.",
    # the secret arrangement
    "page.arrange.title": "Arrange your pieces",
    "page.arrange.how": "Your sixteen pieces stand on your side of the board, the four ranks "
    "nearest you, in the standard arrangement. Click a piece and then another to swap them, or "
    "drag one onto another; then confirm.",
    "page.arrange.counts": "You have {c} Commander, {o} Officers and {s} Soldiers.",
    "page.arrange.pick": "Click a piece to pick it up.",
    "page.arrange.picked": "The {piece} on {square} is picked up: click another piece to swap "
    "them (Escape puts it back).",
    "page.arrange.written": "Written out, back rank first: {pieces}",
    "page.arrange.confirm": "Confirm arrangement",
    "page.arrange.standard": "Standard arrangement",
    "page.arrange.shuffle": "Mix at random",
    "page.arrange.secret.you": "{seat} cannot see your arrangement, nor you theirs, until both "
    "are confirmed.",
    "page.arrange.own_side": "Your pieces go on your own side of the board: the four ranks "
    "nearest you.",
    "page.arrange.waiting": "Your arrangement is made. Waiting for {seat} to arrange theirs; both "
    "are revealed together.",
    "page.arrange.secret": "The arrangements stay secret until both players have made theirs.",
}
