"""Imports point one way: ``games`` <- ``events`` <- ``replays`` <- ``workers`` <-
``service``; ``games`` imports nothing of ours, and no two top-level packages import each
other. (The design drew ``workers`` and ``service`` side by side; the web sends the
workers' tasks and its tools drive the AI, so ``service`` sits on top, and the write path
both use lives in ``events``.) ``bench`` and ``tests`` may use anything."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# What each package may import of ours (besides itself).
ALLOWED = {
    "games": set(),
    "events": {"games"},
    "replays": {"games", "events"},
    "workers": {"games", "events", "replays"},
    "service": {"games", "events", "replays", "workers"},
}


def imports_of(path: Path) -> set[str]:
    """The top-level packages of ours a module imports (at any depth in the module)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found |= {name.split(".")[0] for name in names} & set(ALLOWED)
    return found


def violations(package: str) -> list[str]:
    out = []
    for path in sorted((ROOT / package).rglob("*.py")):
        wrong = imports_of(path) - ALLOWED[package] - {package}
        out += [f"{path.relative_to(ROOT)} imports {name}" for name in sorted(wrong)]
    return out


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_imports_point_one_way(package):
    assert violations(package) == []


def test_the_check_catches_an_import_the_wrong_way(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from service.app import create_app\n")
    assert imports_of(module) == {"service"}
    assert "service" not in ALLOWED["workers"] and "workers" not in ALLOWED["replays"]
