"""A Ctrl-C that lands while the ladder records a result (the match has left the workers,
its record has not committed) leaves the match scheduled, and the ladder names it among
the abandoned ones, as the store holds them, and logs no result for it. Real workers,
real bots, a real store; the Ctrl-C is a KeyboardInterrupt raised where a signal could
land."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee.league.ladder_runner as ladder_runner
from referee.league.config import load_league
from referee.league.executors import LocalExecutor, MatchAttempt
from referee.league.ladder_runner import LadderRunner
from referee.league.runner import RatingKeeper, record_outcome
from referee.league.store import LeagueStore, MatchRow
from tests.referee.league.leagues import two_bot_league


def test_a_ctrl_c_while_a_result_is_recorded_leaves_it_scheduled_and_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = load_league(two_bot_league(tmp_path, "lad"))
    store = tmp_path / "lad.sqlite"
    interrupted: list[str] = []

    def ctrl_c_at_the_third(
        db: LeagueStore, keeper: RatingKeeper, match: MatchRow, outcome: MatchAttempt
    ) -> bool:
        if len(interrupted) == 0 and db.counts()[0] == 2:  # two recorded: now the third
            interrupted.append(match.match_id)
            raise KeyboardInterrupt
        return record_outcome(db, keeper, match, outcome)

    monkeypatch.setattr(ladder_runner, "record_outcome", ctrl_c_at_the_third)
    lines: list[str] = []
    ladder = LadderRunner(
        config, executor=LocalExecutor(workers=1), store_path=store, log=lines.append
    )
    with pytest.raises(KeyboardInterrupt):
        ladder.run(limit=6)
    assert len(interrupted) == 1
    (match_id,) = interrupted
    with LeagueStore.open_readonly(store) as db:
        states = {m.match_id: m.status for m in db.matches()}
    assert states[match_id] == "scheduled"
    # Named: every match it handed out that stays scheduled, the interrupted one among them.
    assert match_id in ladder.abandoned
    assert ladder.abandoned == sorted(m for m, s in states.items() if s == "scheduled")
    assert sum(s == "finished" for s in states.values()) == 2
    assert not [line for line in lines if line.startswith(f"match {match_id} ")]
    assert len([line for line in lines if line.startswith("match ")]) == 2
