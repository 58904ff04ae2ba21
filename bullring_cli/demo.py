"""``bullring demo``: the demo league over the example bots, then its leaderboard.

It lives above both ``referee`` (which runs the league) and ``leaderboard`` (which builds
the site), so neither of those imports the other. The league file and the bots ship
inside the installed ``example_bots`` package.
"""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from leaderboard.build import build_site
from referee.cli.errors import fail
from referee.cli.output import make_output_folder
from referee.cli.progress import run_with_progress
from referee.league.archive import remove_tree
from referee.league.config import load_league
from referee.league.status import standings_json
from referee.league.store import LeagueStore, StoreError, store_errors
from referee.sandbox.config import NO_SANDBOX
from referee.sandbox.probe import available

# example_bots is installed as plain files (not zipped), so its resources are real paths.
DEMO_LEAGUE = Path(str(resources.files("example_bots").joinpath("demo.toml")))


def demo(
    out: Annotated[Path, typer.Option(help="Folder for the store and the site.")] = Path("demo"),
    league: Annotated[Path, typer.Option(help="The demo league file.")] = DEMO_LEAGUE,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Run the demo league (example bots, every variant) and build its leaderboard."""
    config = load_league(league)
    make_output_folder(out, "--out")
    problem = available(config.sandbox) if config.sandbox.enabled else None
    if problem is not None:
        # The demo runs only the shipped example bots: it may do without the sandbox.
        typer.echo(f"notice: the demo runs its example bots unsandboxed: {problem}", err=True)
        config = config.with_overrides(sandbox=NO_SANDBOX)
    store = out / "league.sqlite"
    if store.exists():
        try:
            with LeagueStore.open_readonly(store) as existing, store_errors(store):
                stale = existing.meta().get("digest") != config.digest()
                # Example bots changed since (a new release, npm ci in ts_bot): afresh too.
                stale = stale or any(existing.tree_conflict(bot) for bot in config.bots)
        except StoreError as error:
            raise fail(f"{error}; remove it to start the demo afresh") from None
        if stale:
            typer.echo(f"{store} is from another demo league: starting afresh", err=True)
            for old in out.glob("league.sqlite*"):
                if old.is_dir() and not old.is_symlink():
                    remove_tree(old)  # the bot archive (league.sqlite.bots/)
                else:
                    old.unlink()
    summary = run_with_progress(config, store, config.executor, None, progress)
    typer.echo(f"demo league: {summary.finished}/{summary.scheduled} matches in {store}")
    for problem in summary.errors:
        typer.echo(f"referee error: {problem}", err=True)
    with LeagueStore.open_readonly(store) as done:
        for variant, rows in standings_json(done)["variants"].items():
            best = rows[0] if rows else None
            if best:
                typer.echo(
                    f"  {variant}: best {best['bot']} (rating {best['rating']:.2f}: mu - 3 sigma)"
                )
    site = out / "site"
    shutil.rmtree(site, ignore_errors=True)
    try:
        report = build_site(store, site)
    except Exception as error:  # the leaderboard's own failure: say it in one line
        raise fail(f"leaderboard build failed: {type(error).__name__}: {error}") from None
    typer.echo(f"leaderboard: {report.index}")
