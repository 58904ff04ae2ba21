"""A Ctrl-C while a league's worker processes start (they import for a second or two on
a loaded machine): the worker neither dies nor prints a KeyboardInterrupt traceback; the
league process alone handles Ctrl-C (docs/leagues.md)."""

from __future__ import annotations

import multiprocessing
import os

import pytest

from referee.league.local_pool import Done, ProcessPool
from tests.referee.league import sigint_probe


def test_a_sigint_while_a_worker_starts_neither_kills_it_nor_shows(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(sigint_probe.PARENT, str(os.getpid()))
    pool: ProcessPool[int, int] = ProcessPool(
        multiprocessing.get_context("spawn"), 2, sigint_probe.main, ()
    )
    try:
        ended = list(pool.run([1, 2, 3]))
    finally:
        pool.close()
    assert sorted(e.result for e in ended if isinstance(e, Done)) == [2, 3, 4]
    assert pool.deaths == []
    assert "KeyboardInterrupt" not in capfd.readouterr().err
