"""No file of the project carries a merge's conflict markers (a merge once left them in
example_bots/README.md, and nothing failed)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {".git", ".venv", "node_modules", "dist", "__pycache__", ".mypy_cache", ".ruff_cache"}
SUFFIXES = {".py", ".md", ".toml", ".proto", ".js", ".ts", ".html", ".css", ".json", ".txt", ".cfg"}
MARKER = re.compile(r"^(<{7}|>{7})( |$)|^={7}$", re.MULTILINE)


def project_files() -> list[Path]:
    found: list[Path] = []
    stack = [ROOT]
    while stack:
        folder = stack.pop()
        for path in folder.iterdir():
            if path.is_dir():
                if path.name not in SKIPPED and not path.name.startswith(".pytest"):
                    stack.append(path)
            elif path.suffix in SUFFIXES or path.name in {"Makefile", "run"}:
                found.append(path)
    return found


def test_no_file_holds_conflict_markers() -> None:
    files = project_files()
    assert len(files) > 100  # the walk found the project
    marked = [
        str(path.relative_to(ROOT))
        for path in files
        if MARKER.search(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert marked == []
