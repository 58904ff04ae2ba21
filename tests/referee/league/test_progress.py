"""The progress a league run reports: matches done and scheduled, as the store counts them,
from a fresh start and when a run resumes (first where it stands, before any match)."""

from __future__ import annotations

from pathlib import Path

from referee.league.config import load_league
from referee.league.executors import LocalExecutor
from referee.league.runner import LeagueRunner, Progress
from referee.league.store import LeagueStore
from tests.referee.league.leagues import write_league

TOTAL = 12  # C(4, 2) pairs x 2 games
LEAGUE = """
[league]
name = "progress"
seed = 3
seats = 2
games = 2
store = "progress.sqlite"

[clock]
decision_ms = 5000
setup_ms = 20000

[[variants]]
id = "6nimmt"
options = { rounds = 1 }
"""


def test_progress_counts_what_the_store_holds_also_when_resumed(tmp_path: Path) -> None:
    config = load_league(write_league(tmp_path, LEAGUE))
    store = tmp_path / "progress.sqlite"
    seen: list[tuple[int, int, int, int]] = []

    def progress(now: Progress) -> None:
        with LeagueStore.open_readonly(store) as db:
            finished, scheduled = db.counts()
        assert (now.done, now.total) == (finished, scheduled)
        seen.append((now.done, now.total, now.played_now, now.errors))

    first = LeagueRunner(config, LocalExecutor(workers=1), store, progress).run(limit=5)
    assert first.played == 5
    # The first report comes before any match: where the league stands.
    assert seen == [(n, TOTAL, n, 0) for n in range(0, 6)]
    seen.clear()
    rest = LeagueRunner(config, LocalExecutor(workers=1), store, progress).run()
    assert rest.played == TOTAL - 5 and rest.finished == TOTAL
    assert seen == [(5 + n, TOTAL, n, 0) for n in range(0, TOTAL - 4)]  # resumed at 5
    seen.clear()
    again = LeagueRunner(config, LocalExecutor(workers=1), store, progress).run()
    assert again.played == 0 and seen == [(TOTAL, TOTAL, 0, 0)]
