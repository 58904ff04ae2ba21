"""The ``bullring`` command line: a root typer app; each command lives in its own module.

This is the one module that imports both ``referee``'s and ``leaderboard``'s commands:
neither package imports the other's CLI (or this package).

Sub-commands and sub-apps register themselves here (``app.command`` / ``app.add_typer``).
User errors (every ``BullringError``: bad variant, manifest, league file, store, replay
file...) are caught once, by :class:`~referee.cli.errors.UserErrorGroup`: one line, exit 2.
"""

from __future__ import annotations

import logging
import os
import sys
from importlib.metadata import version
from typing import Annotated

import typer

from arena import cli as cli_arena
from bullring_cli import demo, help_format, new_bot
from leaderboard import cli as cli_leaderboard
from referee.cli import bot as cli_bot
from referee.cli import debug as cli_debug
from referee.cli import league as cli_league
from referee.cli import play as cli_play
from referee.cli import replay as cli_replay
from referee.cli.errors import UserErrorGroup

INTERRUPTED = 130  # the exit code of a command stopped by Ctrl-C

app = typer.Typer(
    name="bullring",
    cls=UserErrorGroup,
    help="Bullring: a bot tournament platform for the 6 nimmt! family of card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
assert help_format  # imported for its effect: flags show no `<bool>` in --help


def show_version(value: bool) -> None:
    if value:
        typer.echo(f"bullring {version('bullring')}")
        raise typer.Exit()


@app.callback()
def root(
    _version: Annotated[
        bool,
        typer.Option(
            "--version", callback=show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Bullring: a bot tournament platform for the 6 nimmt! family of card games."""


app.command("play")(cli_play.play)
app.command("replay", cls=cli_replay.ReplayCommand)(cli_replay.replay)
app.command("debug")(cli_debug.debug)
app.add_typer(cli_league.app, name="league")
app.add_typer(cli_bot.app, name="bot")
cli_bot.app.command("upload")(cli_arena.upload)
cli_bot.app.command("status")(cli_arena.status)
cli_bot.app.command("retire")(cli_arena.retire)
app.add_typer(cli_arena.app, name="arena")
app.command("demo")(demo.demo)
app.command("new-bot")(new_bot.new_bot)
app.add_typer(cli_leaderboard.app, name="leaderboard")


def main() -> None:
    """Entry point of the ``bullring`` console script.

    Interrupted (exit code 130: the command has already stopped its work and closed its
    files), the process exits at once, without the interpreter's teardown of every module,
    which takes a second or more on a loaded machine."""
    try:
        app()
    except SystemExit as done:
        if done.code != INTERRUPTED:
            raise
        sys.stdout.flush()
        sys.stderr.flush()
        logging.shutdown()
        os._exit(INTERRUPTED)
