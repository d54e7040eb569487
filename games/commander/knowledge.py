"""What a seat's view lets one rebuild (``determinize``: the whole state, a secret
arrangement not yet seen drawn at random) and the replay's everything-view."""

from __future__ import annotations

from typing import Any

from games.commander import notation
from games.commander.board import SEATS, SQUARE, STANDARD
from games.commander.rules import State
from games.commander.view import view


class Knowledge:
    @staticmethod
    def determinize(seen: dict[str, Any], seat: str, rng: Any) -> State:
        """The state ``seat`` sees. After the reveal it is the true one; while arranging,
        an arrangement the other seat made but ``seat`` has not seen is drawn at random."""
        options = seen["options"]
        base = State(setup=options["setup"], takes=options["soldier_takes_commander"],
                     goal=options["commander_goal"])  # fmt: skip
        if seen["phase"] == "arrange":
            arranged: list[str | None] = [None, None]
            for i, who in enumerate(SEATS):
                if who == seat:
                    arranged[i] = seen["mine"]
                elif seen["arranged"][who]:
                    pieces = list(STANDARD)
                    rng.shuffle(pieces)
                    arranged[i] = "".join(pieces)
            return base._replace(phase="arrange", arranged=tuple(arranged))
        board, turn, _, plies = notation.parse(seen["position"])
        last = seen["last"]
        return base._replace(
            phase=seen["phase"], board=board, turn=turn, plies=plies, seen=tuple(seen["seen"]),
            last=None if last is None else (SEATS.index(last["seat"]), last["piece"],
                                            SQUARE[last["from"]], SQUARE[last["to"]],
                                            last["captured"]),
            result=None if seen["result"] is None else dict(seen["result"]),
        )  # fmt: skip

    @staticmethod
    def full_view(state: State) -> dict[str, Any]:
        """Everything: the spectator's view with both arrangements (``arrangements``, seat
        -> 16 letters or None, back rank first) while they are secret."""
        out = view(state, None)
        out["arrangements"] = dict(zip(SEATS, state.arranged, strict=True))
        return out


KNOWLEDGE = Knowledge()
