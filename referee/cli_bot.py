"""``bullring bot submit``: check that a bot plays, then register it in a league."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee import cli_check
from referee.check import run_check
from referee.cli_errors import fail
from referee.cli_league import USER_ERRORS, load
from referee.league.config import LeagueConfig
from referee.league.runner import LeagueError, register_submission
from referee.manifest import load_manifest
from referee.sandbox import available
from referee.spec import BotSpec

app = typer.Typer(help="Submit bots to leagues.", no_args_is_help=True)


def check_plays(bot: BotSpec, config: LeagueConfig) -> list[str]:
    """The conformance check (``bullring bot check``) on every league variant, with the
    league's clock and seat count; the problems found (empty: the bot may join)."""
    problems: list[str] = []
    for variant in config.variants:
        report = run_check(
            bot,
            games=1,
            variants=[variant.id],
            players=variant.seats,
            clock=config.clock,
            sandbox=config.sandbox,
        )
        problems += report.problems
        if problems:
            break
    return problems


@app.command()
def submit(
    manifest: Annotated[Path, typer.Argument(help="The bot's manifest (bot.toml) or folder.")],
    league: Annotated[Path, typer.Option("--league", help="The league file (TOML).")],
    store: Annotated[Path | None, typer.Option(help="Store file (default: the file's).")] = None,
) -> None:
    """Register a bot (or a new version of one) after a short check that it plays."""
    config = load(league)
    try:
        bot = load_manifest(manifest)
    except USER_ERRORS as error:
        raise fail(str(error)) from None
    # A submitted bot is untrusted: it is only ever started in the sandbox.
    if not config.sandbox.enabled:
        raise fail(
            f"{league}: [sandbox] enabled = false, but bot submit starts an untrusted bot "
            "only in the sandbox"
        )
    problem = available(config.sandbox)
    if problem is not None:
        raise fail(problem)
    typer.echo(f"checking {bot.key} (bullring bot check) on {len(config.variants)} variant(s)")
    problems = check_plays(bot, config)
    if problems:
        typer.echo(f"{bot.key} failed the check, not registered:", err=True)
        for problem in problems[:10]:
            typer.echo(f"  {problem}", err=True)
        raise typer.Exit(1)
    try:
        message = register_submission(config, bot, store or config.store)
    except (*USER_ERRORS, LeagueError) as error:
        raise fail(str(error)) from None
    typer.echo(message)


# `bullring bot check` lives in its own module (referee/check.py, referee/cli_check.py).
app.command("check")(cli_check.check)
