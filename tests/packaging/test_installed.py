"""The project installed non-editably (``pip install .``) into a fresh venv outside the
checkout runs ``bullring demo`` and ``bullring bot check`` with the bots it ships."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.referee.helpers import descendants

REPO = Path(__file__).resolve().parents[2]
SKIP = shutil.ignore_patterns(
    ".git", ".venv", "node_modules", "__pycache__", "build", "*.egg-info", "demo", "site"
)
PURELIB = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
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


def dependency_closure(project: str) -> list[metadata.Distribution]:
    """The installed distributions `project` needs (extras left out), found by name."""
    found: dict[str, metadata.Distribution] = {}
    todo = [project]
    while todo:
        name = canonicalize_name(todo.pop())
        if name in found:
            continue
        dist = metadata.distribution(name)
        found[name] = dist
        for line in dist.requires or []:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    del found[project]
    return list(found.values())


def copy_dependencies(project: str, site: Path) -> None:
    """Install `project`'s dependencies into `site` from this venv, file by file (as their
    RECORDs list them): no index or network, so the test costs seconds, not minutes."""
    here = Path(sysconfig.get_paths()["purelib"])
    for dist in dependency_closure(project):
        for file in dist.files or []:
            source = Path(str(dist.locate_file(file))).resolve()
            if not source.is_relative_to(here) or not source.is_file():
                continue  # console scripts and the like: the bots need none of them
            target = site / source.relative_to(here)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


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
    # The dependencies are copied into the fresh venv from this one (an index would cost
    # minutes of network round trips), so the sandbox, which shows a bot only its own
    # folder and this venv, finds everything the bots import; `pip check` proves them whole.
    site = Path(run([str(python), "-c", PURELIB], tmp_path).stdout.strip())
    copy_dependencies("bullring", site)
    wheels = tmp_path / "wheels"
    built = run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(wheels),
            str(source),
        ],
        tmp_path,
    )
    assert built.returncode == 0, built.stderr
    shutil.rmtree(source)  # nothing may be found through the copied tree
    (wheel,) = wheels.glob("bullring-*.whl")
    pip = [str(python), "-m", "pip", "--disable-pip-version-check"]
    installed = run([*pip, "install", "-q", "--no-index", "--no-deps", str(wheel)], tmp_path)
    assert installed.returncode == 0, installed.stderr
    whole = run([*pip, "check"], tmp_path)
    assert whole.returncode == 0, whole.stdout + whole.stderr

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
