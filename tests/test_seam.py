"""The platform names no game (design.md, "A game is one package").

Nothing in ``events/``, ``replays/``, ``workers/`` or ``service/`` (Python, scripts,
templates, stylesheets) names a game, a seat colour, a card or a province: everything the
platform says about a game comes from the game's package. One scan, the same as the
README's one-line ``grep`` (the test checks that the README carries this very pattern).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLATFORM = ("service", "events", "workers", "replays")
SUFFIXES = (".py", ".js", ".html", ".css")
GAME_WORDS = (
    r"sun[_ -]?tzu|suntzu|warlord|plague|jin-yan|han-qi|\bqin\b|\bchu\b|6-marker|lianheng"
    r"|warring|commander|\bblue\b|\bred\b"
)
PATTERN = re.compile(GAME_WORDS, re.IGNORECASE)


def platform_files() -> list[Path]:
    return sorted(p for d in PLATFORM for p in (ROOT / d).rglob("*")
                  if p.suffix in SUFFIXES and p.is_file())  # fmt: skip


def game_words() -> list[str]:
    """Every line of the platform that names a game's words, as grep -n prints it."""
    hits = []
    for path in platform_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if PATTERN.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    return hits


def test_the_scan_sees_the_platform_and_catches_a_game_word() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in platform_files()}
    assert {"service/static/game.js", "service/templates/game.html", "events/projector.py",
            "service/static/bingfa.css"} <= names  # fmt: skip
    for line in ("seats = ('blue', 'red')", "a Warlord", "RED = 1", "Sun Tzu", "sun-tzu"):
        assert PATTERN.search(line), line
    for line in ("credits", "stored", "bluebird", "the seat's colour", "Qinghai"):
        assert not PATTERN.search(line), line


def test_the_readme_gives_the_same_scan() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"grep -rniE '{GAME_WORDS}'" in readme.replace("\n", " ")
    assert "service events workers replays" in readme


def test_the_platform_names_no_game() -> None:
    hits = game_words()
    assert not hits, "the platform names a game:\n" + "\n".join(hits)
