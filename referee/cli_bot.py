"""``bullring bot submit``: check that a bot plays, then register it in a league."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee import cli_check
from referee.cli_errors import fail
from referee.cli_league import USER_ERRORS, load
from referee.league.config import LeagueConfig
from referee.league.runner import LeagueError, register_submission
from referee.manifest import load_manifest
from referee.match import run_match
from referee.spec import BotSpec, MatchSpec

app = typer.Typer(help="Submit bots to leagues.", no_args_is_help=True)


def check_plays(bot: BotSpec, config: LeagueConfig) -> list[str]:
    """One match of every league variant with `bot` in every seat; the problems found."""
    problems = []
    for index, variant in enumerate(config.variants):
        spec = MatchSpec(
            match_id=f"check-{bot.name}-{index}",
            variant=variant.preset,
            options=dict(variant.options),
            seed=index,
            bots=(bot,) * variant.seats,
            clock=config.clock,
        )
        result = run_match(spec)
        problems += [
            f"{variant.id}: seat {f.seat} {f.kind.value} at decision {f.decision}: {f.detail}"
            for f in result.faults
        ]
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
    typer.echo(f"checking {bot.key}: one match of each of {len(config.variants)} variant(s)")
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
