"""docs/referee.md's Python example runs as written, from the repository's folder: one
match by run_match, two in one pool of sandboxed processes, one without the sandbox."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_referee_doc_python_example_runs() -> None:
    doc = (REPO / "docs" / "referee.md").read_text()
    found = re.search(r"From Python:\n\n```python\n(.*?)```", doc, re.DOTALL)
    assert found is not None
    done = subprocess.run(
        [sys.executable, "-c", found.group(1)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 4 and all(line.startswith("(") for line in lines), done.stdout
    assert lines[3] == lines[0].split(") (")[0] + ")"  # the same match, without the sandbox
