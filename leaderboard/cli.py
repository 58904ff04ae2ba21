"""`bullring leaderboard ...`: the typer sub-app registered on the root CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from leaderboard.build import BuildError, build_site
from referee.league.config import load_league
from referee.terminal_text import inert_line

app = typer.Typer(
    help="Build the static leaderboard site from a league store.", no_args_is_help=True
)


@app.callback()
def leaderboard() -> None:
    """Build the static leaderboard site from a league store."""


@app.command()
def build(
    out: Annotated[Path, typer.Option("--out", help="Folder to write the site into.")],
    league: Annotated[
        Path | None,
        typer.Argument(help="The league file (TOML) or its store (.sqlite); or --store."),
    ] = None,
    store: Annotated[
        Path | None, typer.Option("--store", help="The league's SQLite store file.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the build report as JSON.")
    ] = False,
) -> None:
    """Write the static site (index, standings, charts, bot pages, match replays)."""
    if (league is None) == (store is None):
        typer.echo("error: give the league file (or its store) or --store, one of them", err=True)
        raise typer.Exit(2)
    if league is not None:
        store = load_league(league).store if league.suffix == ".toml" else league
    assert store is not None
    try:
        report = build_site(store, out)
    except BuildError as exc:  # it may quote the store's text: shown inert
        typer.echo(f"error: {inert_line(str(exc))}", err=True)
        raise typer.Exit(2) from None
    except OSError as exc:  # the output folder cannot be made or written
        where = exc.filename or out
        typer.echo(f"error: {where}: cannot write the site ({exc.strerror or exc})", err=True)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "out_dir": str(report.out_dir),
                    "index": str(report.index),
                    "pages": report.pages,
                    "files": report.files,
                    "matches": report.matches,
                    "replays_made": report.replays_made,
                    "seconds": round(report.seconds, 3),
                }
            )
        )
    else:
        typer.echo(report.summary())


if __name__ == "__main__":
    app()
