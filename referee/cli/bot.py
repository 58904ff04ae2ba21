"""``bullring bot submit``: check that a bot plays, then register it in a league."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from referee.bots.manifest import load_manifest
from referee.check import check_for_league
from referee.cli import check as cli_check
from referee.cli.errors import fail
from referee.cli.options import LOCK_TIMEOUT_OPTION
from referee.league.archive import BotArchive, staged_copy
from referee.league.config import load_league
from referee.league.runner import check_store, register_submission
from referee.league.store import LeagueStore, store_errors
from referee.limits import LOCK_TIMEOUT_S, check_lock_timeout
from referee.sandbox.probe import available
from referee.spec import BotSpec
from referee.terminal_text import inert_text

app = typer.Typer(help="Submit bots to leagues.", no_args_is_help=True)
MAX_PROBLEM_LINES = 10


def refuse_changed_tree(bot: BotSpec, store: Path) -> None:
    """Fail at once (one line, exit 2) if the store registers ``bot.key`` with another
    folder (registering would refuse it after the check, which may take minutes), or if
    the archived copies of the league's bots, the check's opponents, are not as
    registered."""
    if not store.is_file():
        return
    with LeagueStore.open_readonly(store) as db, store_errors(store, only_reads=True):
        db.verify_archive()
        conflict = db.tree_conflict(bot)
    if conflict:
        raise fail(conflict)


@app.command()
def submit(
    manifest: Annotated[Path, typer.Argument(help="The bot's manifest (bot.toml) or folder.")],
    league: Annotated[Path, typer.Option("--league", help="The league file (TOML).")],
    store: Annotated[Path | None, typer.Option(help="Store file (default: the file's).")] = None,
    lock_timeout: Annotated[float, LOCK_TIMEOUT_OPTION] = LOCK_TIMEOUT_S,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
) -> None:
    """Register a bot (or a new version of one) after a short check that it plays.

    A bot the league file names is checked too (the league registers it unchecked when
    it runs). Exits 0 when registered, 1 when the check fails, 2 on a bad argument."""
    config = load_league(league)
    store_path = store or config.store
    check_lock_timeout(lock_timeout)
    check_store(config, store_path)  # a store of another league or none: say so first
    bot = load_manifest(manifest)
    refuse_changed_tree(bot, store_path)
    # A submitted bot is untrusted: it is only ever started in the sandbox.
    if not config.sandbox.enabled:
        raise fail(
            f"{league}: [sandbox] enabled = false, but bot submit starts an untrusted bot "
            "only in the sandbox"
        )
    problem = available(config.sandbox)
    if problem is not None:
        raise fail(problem)
    typer.echo(
        f"checking {bot.key} (bullring bot check) on {len(config.variants)} variant(s)",
        err=as_json,
    )
    # The check runs a copy of the folder, and that very copy is what gets registered:
    # an edit of the folder during or after the check changes nothing that runs.
    with staged_copy(BotArchive.of_store(store_path), bot) as staged:
        problems = check_for_league(staged.spec, config, store_path)
        if not problems:
            with store_errors(store_path, lock_timeout):
                message = register_submission(config, staged.spec, store_path, lock_timeout)
    if problems:
        if as_json:
            outcome = {"bot": bot.key, "registered": False, "problems": problems}
            typer.echo(json.dumps(outcome, indent=2))
        else:
            # The problems quote the bot (its Hello, faults, output): shown inert.
            typer.echo(f"{bot.key} not registered: {inert_text(problems[0])}", err=True)
            for problem in problems[1:MAX_PROBLEM_LINES]:
                typer.echo(f"  also: {inert_text(problem)}", err=True)
        raise typer.Exit(1)
    if any(named.key == bot.key for named in config.bots):
        message = f"{bot.key} (named in {league}) passed the check; {message}"
    if as_json:
        outcome = {"bot": bot.key, "registered": True, "problems": [], "message": message}
        typer.echo(json.dumps(outcome, indent=2))
    else:
        typer.echo(message)


# `bullring bot check` lives in its own module (referee/check.py, referee/cli/check.py).
app.command("check")(cli_check.check)
