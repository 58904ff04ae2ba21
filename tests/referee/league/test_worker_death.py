"""A league worker killed mid-match (SIGKILL from outside) is replaced; only its match is
played again, and the league finishes with the same results as an undisturbed run."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from referee.league.config import RatingConfig, load_league
from referee.league.executors import BUSY_TITLE, LocalExecutor, RefereeRunner
from referee.league.ratings import replay_ratings
from referee.league.runner import LeagueRunner
from referee.league.store import LeagueStore
from referee.replay.result import MatchResult
from referee.spec import MatchSpec
from tests.referee.league.leagues import (
    REPO,
    bullring,
    bullring_argv,
    share_key,
    snapshot,
    write_league,
)
from tests.referee.league.test_resume import adopt_orphans, descendants, finished

pytestmark = pytest.mark.slow
__all__ = ["adopt_orphans"]  # the fixture, used by name

STEADY = REPO / "tests" / "referee" / "bad_bots" / "steady.toml"
TOTAL = 12  # C(4, 2) pairs x 2 games
PER_BOT = 6  # 3 opponents x 2 games
LEAGUE = """
[league]
name = "deaths"
seed = 5
seats = 2
games = 2
parallel = 2
store = "deaths.sqlite"

[clock]
decision_ms = 5000
setup_ms = 20000

[[variants]]
id = "6nimmt"
options = { rounds = 1 }
"""


def league_file(folder: Path) -> Path:
    body = LEAGUE + "".join(
        f'[[bots]]\nmanifest = "{STEADY}"\nname = "{name}"\n\n' for name in "abcd"
    )
    return write_league(folder, body, bots=[])


def title(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/comm").read_text().strip()
    return ""


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


def kill_a_busy_worker(league: subprocess.Popen[str], store: Path) -> int:
    """Once a match is recorded, SIGKILL a worker (a child of the league process) that
    is playing a match; its pid."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and league.poll() is None:
        if finished(store) >= 1:
            for pid in children(league.pid):
                if title(pid) == BUSY_TITLE:
                    os.kill(pid, signal.SIGKILL)
                    return pid
        time.sleep(0.02)
    raise AssertionError("no worker was found playing a match")


@pytest.mark.usefixtures("adopt_orphans")
def test_a_worker_killed_mid_match_costs_only_its_match(tmp_path: Path) -> None:
    file = league_file(tmp_path)
    reference = bullring(
        "league", "run", str(file), "--no-progress", "--store", "ref.sqlite", cwd=tmp_path
    )
    assert reference.returncode == 0, reference.stderr

    store = tmp_path / "deaths.sqlite"
    share_key(tmp_path / "ref.sqlite", store)  # the same deals
    league = subprocess.Popen(
        bullring_argv("league", "run", str(file), "--no-progress", "--json"),
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        victim = kill_a_busy_worker(league, store)
        out, err = league.communicate(timeout=300)
    finally:
        if league.poll() is None:
            league.kill()
            league.communicate()
    assert league.returncode == 0, err
    report = json.loads(out)
    assert report["errors"] == []
    assert report["finished"] == report["scheduled"] == TOTAL
    [death] = report["worker_deaths"]
    assert "killed by SIGKILL" in death and "played again" in death
    assert victim not in descendants(os.getpid())

    # Every match recorded once, with the results and ratings of an undisturbed run.
    assert snapshot(store) == snapshot(tmp_path / "ref.sqlite")
    with LeagueStore.open_readonly(store) as db:
        per_match = db.db.execute(
            "SELECT m.match_id, COUNT(r.seat) FROM matches m"
            " JOIN results r ON r.match_id = m.match_id GROUP BY m.match_id"
        ).fetchall()
        assert len(per_match) == TOTAL and all(seats == 2 for _, seats in per_match)
        killed_match = death.split(":", 1)[0]
        assert killed_match in {match_id for match_id, _ in per_match}
        # Standings agree with ratings recomputed from the results alone.
        final, _ = replay_ratings(RatingConfig(), db.rated_matches("6nimmt:rounds=1"))
        table = {s.bot: (s.mu, s.sigma, s.matches) for s in db.standings("6nimmt:rounds=1")}
        assert table == {bot: (r.mu, r.sigma, PER_BOT) for bot, r in final.items()}

    # The dead worker's bots did not outlive it (their watchdogs killed them).
    deadline = time.monotonic() + 10
    while live_descendants() and time.monotonic() < deadline:
        time.sleep(0.1)
    left = {pid: cmdline(pid) for pid in live_descendants()}
    assert left == {}


def live_descendants() -> set[int]:
    """League and bot processes below this test process (a subreaper: orphans come to it)
    that still run; the dead ones are reaped first. (Not the test process's own
    multiprocessing helpers, which an earlier test may have started.)"""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    ours = ("launch.py", "bad_bots", "bullring", "spawn_main")
    return {
        pid
        for pid in descendants(os.getpid())
        if state(pid) not in ("", "Z") and any(part in cmdline(pid) for part in ours)
    }


def cmdline(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:200]
    return ""


def state(pid: int) -> str:
    with contextlib.suppress(OSError, IndexError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    return ""


class DiesOnThirdMatch(RefereeRunner):
    """The real referee, in a worker that SIGKILLs itself whenever it starts match 3."""

    async def run(self, spec: MatchSpec) -> MatchResult:
        if spec.match_id.endswith("-000003"):
            os.kill(os.getpid(), signal.SIGKILL)
        return await super().run(spec)


@pytest.mark.usefixtures("adopt_orphans")
def test_a_match_whose_worker_always_dies_is_an_error_and_stays_scheduled(
    tmp_path: Path,
) -> None:
    config = load_league(write_league(tmp_path, LEAGUE))  # 4 first_option bots, 12 matches
    store = tmp_path / "deaths.sqlite"
    executor = LocalExecutor(DiesOnThirdMatch, workers=2)
    summary = LeagueRunner(config, executor, store).run()
    assert [e.split(":")[0] for e in summary.errors] == ["deaths-000003"]
    assert "died each of the 2 times" in summary.errors[0]
    assert len(summary.worker_deaths) == 2
    assert (summary.played, summary.finished, summary.scheduled) == (TOTAL - 1, TOTAL - 1, TOTAL)
    with LeagueStore.open_readonly(store) as db:
        [left] = db.matches(status="scheduled")
        assert left.match_id == "deaths-000003"
        assert db.results("deaths-000003") == []

    resumed = LeagueRunner(config, LocalExecutor(workers=2), store).run()
    assert resumed.errors == [] and resumed.played == 1
    share_key(store, tmp_path / "ref.sqlite")
    reference = LeagueRunner(config, LocalExecutor(workers=2), tmp_path / "ref.sqlite").run()
    assert reference.played == TOTAL
    assert snapshot(store) == snapshot(tmp_path / "ref.sqlite")
