"""A league run with a progress bar on stderr (matches done, rate, time left): ``bullring
league run`` and ``bullring demo``."""

from __future__ import annotations

import functools
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
from rich.progress import Progress as Bar

from referee.bots.process import ProcessLimits
from referee.league.config import LeagueConfig
from referee.league.executors import RefereeRunner, make_executor
from referee.league.runner import (
    LeagueRunner,
    LeagueSummary,
    Progress,
)
from referee.league.store import store_errors
from referee.limits import LOCK_TIMEOUT_S

console = Console(stderr=True)


def run_with_progress(
    config: LeagueConfig,
    store: Path,
    executor: str,
    address: str | None,
    show: bool,
    lock_timeout: float = LOCK_TIMEOUT_S,
    new_key: bool = False,
    log_dir: Path | None = None,
) -> LeagueSummary:
    """Run a league, drawing a progress bar (matches done, rate, time left) on stderr.
    Its bots run in the league file's sandbox (see :func:`require_sandbox`); with
    `log_dir`, every bot process's full output is kept there."""
    limits = ProcessLimits(log_dir=str(log_dir.resolve())) if log_dir is not None else None
    factory = functools.partial(RefereeRunner, config.sandbox, limits)
    runner_executor = make_executor(executor, config.workers, factory, address=address)
    bar = Bar(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TextColumn("{task.fields[left]}"),
        console=console,
        disable=not show,
        transient=False,
    )
    task = bar.add_task(config.name, total=None, rate="", left="")

    def update(p: Progress) -> None:
        # Drawn from the first report on, made once the league is ready (matches already
        # played, before any is played now): a league that cannot run shows its error only.
        rate_text = left_text = ""  # no rate before this run's first match
        if p.played_now:
            rate = p.played_now / p.elapsed_s if p.elapsed_s > 0 else 0.0
            left = (p.total - p.done) / rate if rate > 0 else 0.0
            rate_text, left_text = f"{rate:.2f} matches/s", f"{_duration(left)} left"
        bar.update(task, completed=p.done, total=p.total, rate=rate_text, left=left_text)
        bar.start()  # after the update: a Ctrl-C between them must not leave "0/?"

    runner = LeagueRunner(
        config, runner_executor, store, update, new_key=new_key, lock_timeout=lock_timeout
    )
    try:
        with store_errors(store, lock_timeout):
            return runner.run()
    finally:
        if bar.live.is_started:
            bar.stop()


def _duration(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
