"""``bullring bot submit``: check that a bot plays, then register it in a league."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from referee.bots.manifest import load_manifest
from referee.check import LeagueLook, default_opponents, run_check
from referee.cli import check as cli_check
from referee.cli.errors import fail
from referee.cli.options import LOCK_TIMEOUT_OPTION
from referee.league.config import LeagueConfig, load_league
from referee.league.runner import (
    active_roster,
    check_store,
    register_submission,
)
from referee.league.store import LeagueStore, store_errors
from referee.league.store_rows import manifest_conflict, manifest_hash
from referee.limits import LOCK_TIMEOUT_S, check_lock_timeout
from referee.sandbox.probe import available
from referee.spec import BotSpec
from referee.terminal_text import inert_text

app = typer.Typer(help="Submit bots to leagues.", no_args_is_help=True)
MAX_PROBLEM_LINES = 10


def next_seq(store: Path) -> int:
    """The number the league's next scheduled match will get."""
    if not store.is_file():
        return 1
    with LeagueStore.open_readonly(store) as db:
        return db.counts()[1] + 1


def check_plays(bot: BotSpec, config: LeagueConfig, store: Path) -> list[str]:
    """The conformance check (``bullring bot check``) on every league variant, made to
    look like the league's own matches: its clock, seats, match ids, the league's bots as
    opponents (the example bots fill in for a league with too few) and a fresh secret key.
    The problems found (empty: the bot may join): Hello's name and version against the
    manifest, then every fault of the bot's seat."""
    look = LeagueLook(config.name, next_seq(store))
    roster = [b for b in active_roster(config, store) if b.name != bot.name]
    problems: list[str] = []
    for variant in config.variants:
        enough = len(roster) >= variant.seats - 1
        report = run_check(
            bot,
            games=1,
            variants=[variant.id],
            players=variant.seats,
            clock=config.clock,
            sandbox=config.sandbox,
            opponents=roster if enough else [*roster, *default_opponents()],
            look=look,
            strict_opponents=False,
        )
        problems += report.problems  # Hello's name and version against the manifest too
        if problems:
            break
    return problems


def refuse_changed_manifest(bot: BotSpec, store: Path) -> None:
    """Fail at once (one line, exit 2) if the store registers ``bot.key`` from another
    manifest: registering would refuse it after the check, which may take minutes."""
    if not store.is_file():
        return
    with LeagueStore.open_readonly(store) as db, store_errors(store, only_reads=True):
        known = {b.spec.key: b.manifest_hash for b in db.bots()}
    conflict = manifest_conflict(bot.key, manifest_hash(bot), known.get(bot.key))
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
    refuse_changed_manifest(bot, store_path)
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
    problems = check_plays(bot, config, store_path)
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
    with store_errors(store_path, lock_timeout):
        message = register_submission(config, bot, store_path, lock_timeout)
    if any(named.key == bot.key for named in config.bots):
        message = f"{bot.key} (named in {league}) passed the check; {message}"
    if as_json:
        outcome = {"bot": bot.key, "registered": True, "problems": [], "message": message}
        typer.echo(json.dumps(outcome, indent=2))
    else:
        typer.echo(message)


# `bullring bot check` lives in its own module (referee/check.py, referee/cli/check.py).
app.command("check")(cli_check.check)
