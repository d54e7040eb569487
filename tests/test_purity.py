"""``games/`` is pure: standard library only, no clock, no global randomness, no I/O.

Chance and time are inputs (style.md, anchor 5; design.md "A game is a Decider"): the
service passes an ``rng`` in and stamps times outside. This reads the source of every module
in ``games/`` and refuses imports from outside the standard library, the modules that read
the clock, the OS or a global random source, and the builtins that do I/O or run code.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[1] / "games"
GAME_FILES = sorted(GAMES.rglob("*.py"))

# Nondeterminism or I/O: a game receives its chance through ``rng`` and never reads a clock.
FORBIDDEN_MODULES = {
    "random",
    "time",
    "datetime",
    "uuid",
    "secrets",
    "os",
    "subprocess",
    "socket",
    "threading",
    "multiprocessing",
    "asyncio",
    "importlib",
}
# Builtins that do I/O, run code, or vary between processes (hash() of a str is salted).
FORBIDDEN_BUILTINS = {"open", "input", "print", "eval", "exec", "__import__", "breakpoint"}
FORBIDDEN_BUILTINS |= {"hash", "id"}
# Calls that read a clock or an entropy source, however they were reached.
FORBIDDEN_ATTRIBUTES = {
    "now",
    "utcnow",
    "today",
    "time",
    "time_ns",
    "monotonic",
    "perf_counter",
    "urandom",
    "uuid1",
    "uuid4",
    "getrandbits",
    "token_bytes",
    "token_hex",
}


def violations(source: str, name: str = "<source>") -> list[str]:
    """What in this module breaks the purity of ``games/`` (empty when nothing does)."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            modules = [node.module or ""]
        for module in modules:
            top = module.split(".")[0]
            if top == "games":
                continue
            if top not in sys.stdlib_module_names:
                found.append(f"{name}:{node.lineno}: imports {module}, not the standard library")
            elif top in FORBIDDEN_MODULES:
                found.append(f"{name}:{node.lineno}: imports {module}")
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in FORBIDDEN_BUILTINS:
                found.append(f"{name}:{node.lineno}: calls {func.id}()")
            if isinstance(func, ast.Attribute) and func.attr in FORBIDDEN_ATTRIBUTES:
                found.append(f"{name}:{node.lineno}: calls .{func.attr}()")
    return found


def test_games_has_modules_to_check() -> None:
    names = {p.relative_to(GAMES).as_posix() for p in GAME_FILES}
    assert {"__init__.py", "base.py", "sun_tzu/flow.py", "sun_tzu/state.py"} <= names


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.relative_to(GAMES).as_posix())
def test_game_module_is_pure(path: Path) -> None:
    assert violations(path.read_text(encoding="utf-8"), str(path)) == []


BAD_SOURCES = [
    "import random",
    "import random as r",
    "from random import Random",
    "import time",
    "from time import time",
    "from datetime import datetime",
    "import os.path",
    "import uuid",
    "from secrets import token_hex",
    "import numpy",
    "from flask import Flask",
    "import events.store",
    "x = __import__('random')",
    "import importlib\nm = importlib.import_module('random')",
    "def f(d):\n    return d.now()",
    "def f(clock):\n    return clock.time()",
    "def f(cards):\n    return hash(cards)",
    "with open('log.txt', 'w') as f:\n    pass",
    "print('hello')",
]
GOOD_SOURCES = [
    "from __future__ import annotations",
    "from collections import Counter\nfrom itertools import permutations",
    "from typing import Any, Protocol",
    "import games\nfrom games.sun_tzu import flow",
    "from . import flow\nfrom .state import State",
    "def f(rng):\n    return rng.shuffle([1, 2])",
    "__hash__ = None",
]


@pytest.mark.parametrize("source", BAD_SOURCES)
def test_the_checker_flags_impure_source(source: str) -> None:
    assert violations(source), f"not flagged: {source!r}"


@pytest.mark.parametrize("source", GOOD_SOURCES)
def test_the_checker_accepts_pure_source(source: str) -> None:
    assert violations(source) == []
