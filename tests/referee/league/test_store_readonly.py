"""A store the user may not write (a read-only folder, a read-only file): one line that
says so, not that the file is damaged."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.league.config import load_league
from referee.league.executors import LocalExecutor
from referee.league.runner import LeagueRunner
from tests.referee.league.leagues import bullring_argv, write_league

pytestmark = pytest.mark.slow

LEAGUE = """
[league]
name = "ro"
seed = 3
seats = 2
games = 1
store = "ro.sqlite"

[sandbox]
enabled = false

[[variants]]
id = "6nimmt"
options = { rounds = 1 }
"""


# Root writes whatever the modes say (CAP_DAC_OVERRIDE): as root, the command runs
# without those capabilities, so the modes hold for it as for any user.
NO_DAC = "-dac_override,-dac_read_search"
DROP = ["setpriv", f"--bounding-set={NO_DAC}", f"--inh-caps={NO_DAC}"]


def as_user(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``bullring ARGS`` bound by file modes (as root: without the DAC capabilities)."""
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        pytest.skip("root without setpriv: file modes do not bind")
    drop = DROP if os.geteuid() == 0 else []
    return subprocess.run(
        [*drop, *bullring_argv(*args)], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def played_store(folder: Path) -> Path:
    file = write_league(folder, LEAGUE, bots=["a", "b"])
    LeagueRunner(load_league(file), LocalExecutor(workers=1), folder / "ro.sqlite").run()
    return file


def test_reading_a_store_in_a_read_only_folder_says_the_folder_is_read_only(
    tmp_path: Path,
) -> None:
    folder = tmp_path
    file = played_store(folder)
    folder.chmod(0o555)
    before = sorted(p.name for p in folder.iterdir())
    for args in (("league", "status", str(file)), ("league", "run", str(file))):
        done = as_user(*args, cwd=folder)
        error = done.stderr.strip().splitlines()[-1]
        assert done.returncode == 2, done.stderr
        assert error.startswith("error: ") and "read-only" in error, error
        assert "damaged" not in error and "Traceback" not in done.stderr
        assert f"its folder {folder} is read-only" in error
    assert sorted(p.name for p in folder.iterdir()) == before


def test_running_into_a_read_only_store_file_says_the_file_is_read_only(tmp_path: Path) -> None:
    folder = tmp_path
    file = played_store(folder)
    (folder / "ro.sqlite").chmod(0o444)
    done = as_user("league", "run", str(file), cwd=folder)
    error = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 2, done.stderr
    assert "ro.sqlite: the store is read-only" in error, error
    assert "damaged" not in error and "Traceback" not in done.stderr
    assert as_user("league", "status", str(file), cwd=folder).returncode == 0
