"""The docs link only to files inside the repository, and every such link resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_resolves_inside_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "/work/" not in text, f"{page.name} names a path outside the repository"
    assert "shared/RULES.md" not in text, f"{page.name} links the rules outside the repo"
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        resolved = (page.parent / target).resolve()
        assert resolved.is_relative_to(REPO), f"{page.name}: {target} leaves the repository"
        assert resolved.exists(), f"{page.name}: {target} does not exist"


def test_the_rules_page_covers_every_variant() -> None:
    from sdk.game import PRESETS

    rules = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    for name in PRESETS:
        assert f"`{name}`" in rules, f"docs/rules.md does not name the variant {name}"


# A path the docs write out in full, from one of the repository's top-level folders.
NAMED_PATH = re.compile(
    r"`((?:sdk|referee|leaderboard|bullring_cli|example_bots|tests|benchmarks|proto|docs)"
    r"/[\w./-]*)`"
)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_file_a_page_names_exists(page: Path) -> None:
    missing = [
        path
        for path in NAMED_PATH.findall(page.read_text(encoding="utf-8"))
        if not (REPO / path.rstrip("/")).exists()
    ]
    assert missing == [], f"{page.name} names files the repository does not have"


def test_no_page_cites_a_file_the_repository_lacks() -> None:
    for path in [*PAGES, REPO / "tests" / "test_architecture.py"]:
        assert "DESIGN.md" not in path.read_text(encoding="utf-8"), path.name
