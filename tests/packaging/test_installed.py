"""The project installed non-editably (``pip install .``) into a fresh venv outside the
checkout runs ``bullring demo`` and ``bullring bot check`` with the bots it ships."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.referee.helpers import descendants

REPO = Path(__file__).resolve().parents[2]
SKIP = shutil.ignore_patterns(
    ".git", ".venv", "node_modules", "__pycache__", "build", "*.egg-info", "demo", "site"
)
SMALL_LEAGUE = """[league]
name = "installed"
seed = 7
format = "round-robin"
seats = 2
games = 2
parallel = 1
store = "league.sqlite"

[clock]
decision_ms = 2000
time_bank_ms = 5000
setup_ms = 30000

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}

[[bots]]
manifest = "{bots}/random_bot/bot.toml"

[[bots]]
manifest = "{bots}/rules_bot/bot.toml"
"""


def run(args: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["COLUMNS"] = "200"
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


@pytest.mark.slow
def test_pip_install_dot_runs_demo_and_bot_check(tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(REPO, source, ignore=SKIP)  # pip builds in the tree: not in the checkout
    venv = tmp_path / "venv"
    made = run([sys.executable, "-m", "venv", str(venv)], tmp_path)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    # A real install with its dependencies (from pip's cache), so that the sandbox, which
    # shows a bot only its own folder and this venv, finds everything the bots import.
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    installed = run([*pip, str(source)], tmp_path)
    assert installed.returncode == 0, installed.stderr
    shutil.rmtree(source)  # nothing may be found through the copied tree

    ask = "import referee, example_bots; print(referee.__file__); print(example_bots.__file__)"
    where = run([str(python), "-c", ask], tmp_path).stdout.split()
    assert len(where) == 2 and all(path.startswith(str(venv)) for path in where), where
    bots = Path(where[1]).parent
    assert (bots / "demo.toml").is_file() and (bots / "random_bot" / "bot.toml").is_file()

    bullring = str(venv / "bin" / "bullring")
    checked = run(
        [
            bullring,
            "bot",
            "check",
            str(bots / "random_bot"),
            "--games",
            "1",
            "--variant",
            "6nimmt:rounds=1",
            "--players",
            "3",
        ],
        tmp_path,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "PASS" in checked.stdout + checked.stderr

    league = tmp_path / "small.toml"
    league.write_text(SMALL_LEAGUE.format(bots=bots))
    demo = run(
        [bullring, "demo", "--league", str(league), "--out", "out", "--no-progress"], tmp_path
    )
    assert demo.returncode == 0, demo.stdout + demo.stderr
    assert "demo league: 2/2 matches" in demo.stdout, demo.stdout
    assert (tmp_path / "out" / "site" / "index.html").is_file()
    assert descendants() == []
