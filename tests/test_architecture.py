"""Imports between the packages run one way (DESIGN.md, docs/architecture.md).

Every import in every module (inside functions too) is read with ``ast``; a package may
import only the packages listed for it, and the package graph has no circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# Each package and the packages of this project it may import.
ALLOWED: dict[str, frozenset[str]] = {
    "sdk": frozenset(),
    "example_bots": frozenset({"sdk"}),
    "referee": frozenset({"sdk"}),
    "leaderboard": frozenset({"referee", "sdk"}),
    "bullring_cli": frozenset({"referee", "leaderboard", "sdk"}),
}


def imported_packages(module: Path) -> set[str]:
    """The top-level names `module` imports (relative imports stay in its package)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def package_graph() -> dict[str, dict[str, list[str]]]:
    """For each package: each other project package it imports, and the modules that do."""
    graph: dict[str, dict[str, list[str]]] = {package: {} for package in ALLOWED}
    for package in ALLOWED:
        for module in sorted((REPO / package).rglob("*.py")):
            if "node_modules" in module.parts:
                continue
            for name in imported_packages(module) & ALLOWED.keys() - {package}:
                graph[package].setdefault(name, []).append(str(module.relative_to(REPO)))
    return graph


def circles(graph: dict[str, dict[str, list[str]]]) -> list[list[str]]:
    """Every circle found by a depth-first walk (as the path that closes it)."""
    found: list[list[str]] = []

    def walk(package: str, path: list[str]) -> None:
        for target in graph[package]:
            if target in path:
                found.append([*path[path.index(target) :], target])
            else:
                walk(target, [*path, target])

    for package in graph:
        walk(package, [package])
    return found


def test_every_package_imports_only_what_it_may() -> None:
    graph = package_graph()
    wrong = [
        f"{package} imports {target} ({', '.join(modules[:3])})"
        for package, targets in graph.items()
        for target, modules in targets.items()
        if target not in ALLOWED[package]
    ]
    assert wrong == []


def test_no_circle_between_packages() -> None:
    assert circles(package_graph()) == []


def test_the_checks_see_a_circle_and_a_forbidden_import(tmp_path: Path) -> None:
    graph = {"sdk": {"referee": ["sdk/x.py"]}, "referee": {"sdk": ["referee/y.py"]}}
    assert ["sdk", "referee", "sdk"] in circles(graph)
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from leaderboard.build import build_site\nimport sdk.game\n")
    assert imported_packages(module) == {"leaderboard", "sdk"}


def test_the_rules_import_no_grpc() -> None:
    for module in (REPO / "sdk" / "game").rglob("*.py"):
        assert "grpc" not in imported_packages(module), module
