"""docs/rl.md: its Python examples run as written, and its encoding tables list every
segment of every family's layout and its action ranges."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from sdk.envs.encoding import CODECS

REPO = Path(__file__).resolve().parents[3]
PAGE = (REPO / "docs" / "rl.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"```python\n(.*?)```", PAGE, flags=re.DOTALL)


@pytest.mark.parametrize("number", range(len(EXAMPLES)))
def test_the_example_runs(number: int) -> None:
    done = subprocess.run(
        [sys.executable, "-c", EXAMPLES[number]],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("family", sorted(CODECS))
def test_the_tables_show_the_layout_and_the_actions(family: str) -> None:
    codec = CODECS[family]()
    for segment in codec.segments:
        row = f"| `{segment.name}` | {segment.start} | {segment.size} | {segment.meaning} |"
        assert row in PAGE
    for line in codec.describe_actions():
        actions, _, option = line.partition(": ")
        assert f"| {actions} | {option} |" in PAGE
    assert f"Observation: {codec.size} floats. Actions: {codec.action_size}." in PAGE


@pytest.mark.parametrize(
    "module", ["encoding", "codec_base", "family_codecs", "pettingzoo", "gymnasium", "openspiel"]
)
def test_without_numpy_an_adapter_names_the_extra_it_needs(module: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys; sys.modules['numpy'] = None\nimport sdk.envs.{module}",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError:") and "bullring[rl]" in last
