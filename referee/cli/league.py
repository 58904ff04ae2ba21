"""``bullring league run / status`` (``bullring demo`` is in bullring_cli/demo.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from referee.bots.log import printable_log
from referee.cli.errors import fail
from referee.cli.options import LOCK_TIMEOUT_OPTION
from referee.cli.output import make_output_folder
from referee.cli.progress import run_with_progress
from referee.league.config import EXECUTORS, LeagueConfig, load_league
from referee.league.keyfile import key_path
from referee.league.runner import (
    schedule_changed,
)
from referee.league.status import standings_json
from referee.league.store import LeagueStore, StoreError, store_errors
from referee.limits import LOCK_TIMEOUT_S, check_lock_timeout, check_parallel
from referee.sandbox.probe import available
from referee.terminal_text import inert_line, inert_markup, inert_text
from sdk.wire.error_status import clean

PIPED_WIDTH = 160  # columns of the standings when not printed to a terminal (none cut)

app = typer.Typer(help="Run leagues and show their standings.", no_args_is_help=True)
console = Console(stderr=True)


def require_sandbox(config: LeagueConfig) -> None:
    """Fail closed: exit 2 naming what is missing if the league's bots would need the
    sandbox and it cannot run here. A league file's ``enabled = false`` is said aloud."""
    if not config.sandbox.enabled:
        typer.echo(
            "notice: [sandbox] enabled = false: the bots run without the sandbox, with the "
            "referee's own rights",
            err=True,
        )
    elif any(bot.command for bot in config.bots):
        problem = available(config.sandbox)
        if problem is not None:
            raise fail(problem)


@app.command()
def run(
    file: Annotated[Path, typer.Argument(help="The league file (TOML).")],
    executor: Annotated[
        str | None, typer.Option(help=f"Where matches run: {' or '.join(EXECUTORS)}.")
    ] = None,
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: a local Ray instance).")
    ] = None,
    parallel: Annotated[
        int | None, typer.Option(min=0, help="Matches at once (0: one per core).")
    ] = None,
    store: Annotated[Path | None, typer.Option(help="Store file (default: the file's).")] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
    new_key: Annotated[
        bool, typer.Option("--new-key", help="Replace a lost league key (docs/leagues.md).")
    ] = False,
    lock_timeout: Annotated[float, LOCK_TIMEOUT_OPTION] = LOCK_TIMEOUT_S,
    log_dir: Annotated[
        Path | None, typer.Option(help="Keep every bot's full output there, a file per process")
    ] = None,
) -> None:
    """Play every match of the league that has no result yet (resumes where it stopped)."""
    config = load_league(file)
    if parallel is not None:
        config = config.with_overrides(parallel=parallel)
    kind = executor or config.executor
    if kind not in EXECUTORS:
        raise fail(f"--executor: {kind!r} is not one of: {', '.join(EXECUTORS)}")
    if log_dir is not None:  # before the store: a bad folder must not fail every match
        make_output_folder(log_dir, "--log-dir")
    require_sandbox(config)
    ray_address = address or config.ray_address
    store_path = store or config.store
    fresh = fresh_store_note(store_path)
    try:
        check_lock_timeout(lock_timeout)
        check_parallel(config.parallel, kind == "ray" and bool(ray_address), "--parallel")
        summary = run_with_progress(
            config,
            store_path,
            kind,
            ray_address,
            progress,
            lock_timeout=lock_timeout,
            new_key=new_key,
            log_dir=log_dir,
        )
    except KeyboardInterrupt:
        if fresh and key_path(store_path).is_file():
            typer.echo(fresh, err=True)
        typer.echo("interrupted: run the same command again to resume", err=True)
        raise typer.Exit(130) from None
    if fresh:
        typer.echo(fresh, err=True)
    report = {
        "store": str(summary.store),
        "played": summary.played,
        "finished": summary.finished,
        "scheduled": summary.scheduled,
        "errors": summary.errors,
        "worker_deaths": summary.worker_deaths,
        "seconds": round(summary.elapsed_s, 3),
    }
    if as_json:
        typer.echo(json.dumps(report))
    else:
        typer.echo(
            f"{summary.played} matches played in {summary.elapsed_s:.1f}s; "
            f"{summary.finished}/{summary.scheduled} finished; store: {summary.store}"
        )
        for death in summary.worker_deaths:  # (an exception's text may quote a bot's)
            typer.echo(f"note: {inert_text(death)}", err=True)
        for problem in summary.errors:
            typer.echo(f"referee error: {inert_text(problem)}", err=True)
    if summary.errors:
        raise typer.Exit(1)


def fresh_store_note(store: Path) -> str | None:
    """What to tell the organiser when `league run` is about to make `store` or its key
    (None: both exist): a new store, in a new folder maybe (a typo in its path shows
    here), and its secret key, new or found beside it; or a new key for a store that
    has none yet (made by bot submit) (docs/leagues.md, The league key)."""
    key = key_path(store)
    if store.exists():  # made by bot submit, or before keys: the run makes the key
        if key.exists():
            return None
        return f"note: new secret key {key} of the league store {store}: back them up together"
    folder = "" if store.parent.is_dir() else f" (in a new folder, {store.parent})"
    if key.exists():
        return f"note: new league store {store}{folder}, dealt from the key found at {key}"
    return f"note: new league store {store}{folder} and its secret key {key}: back them up together"


RECENT_FAULTS = 5  # faults `league status` lists


def log_command(file: Path, match_id: str, seat: int) -> str:
    """The command that shows a seat's log tail in a match of the league `file`."""
    return f"bullring league log {file} {match_id} --seat {seat}"


def recent_faults(store: LeagueStore, file: Path) -> list[dict[str, Any]]:
    """The league's last faults, newest first, each with the command to show its seat's
    log tail (``log_command``: None when the league kept none)."""
    faults = store.recent_faults(RECENT_FAULTS)
    for fault in faults:
        has_log = fault.pop("has_log")
        fault["log_command"] = (
            log_command(file, fault["match_id"], fault["seat"]) if has_log else None
        )
    return faults


@app.command()
def status(
    file: Annotated[Path, typer.Argument(help="The league file (TOML) or its store (.sqlite).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
) -> None:
    """Standings of every variant: rating (mu - 3 sigma), mu, sigma, matches, wins, win
    rate (a first place shared by k bots counts 1/k), mean rank and mean score."""
    config = load_league(file) if file.suffix == ".toml" else None
    path = config.store if config is not None else file
    try:
        store = LeagueStore.open_readonly(path)
    except StoreError as error:
        hint = " (has the league been run?)" if not path.exists() else ""
        raise fail(f"{error}{hint}") from None
    try:
        with store, store_errors(path, only_reads=True):
            if config is not None and schedule_changed(store.meta(), config):
                typer.echo(
                    f"note: {file} no longer matches {path} (its seed, variants, games, "
                    "seats, format, clock or rating changed since the store was scheduled): "
                    "league run refuses it; these are the store's standings",
                    err=True,
                )
                config = None  # what the file would schedule is not what the store holds
            data = standings_json(store, config)
            data["recent_faults"] = recent_faults(store, file)
    except StoreError as error:
        raise fail(str(error)) from None
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    # The store's text (names, faults' details) is printed inert, never as markup: a
    # store may come from elsewhere, and the details quote the bots.
    out = Console(width=None if sys.stdout.isatty() else PIPED_WIDTH, emoji=False)
    to_come = data["unscheduled"]
    later = f" ({to_come} to be scheduled by the next league run)" if to_come else ""
    out.print(
        f"[bold]{inert_markup(data['league'])}[/]: {data['finished']}/{data['scheduled']} "
        f"matches played{later}"
    )
    for variant, rows in data["variants"].items():
        if not rows:  # no table of headings alone
            out.print(
                f"{inert_line(variant)}: no match has finished yet", markup=False, highlight=False
            )
            continue
        table = Table(title=inert_markup(variant), title_justify="left")
        columns = ("#", "bot", "rating", "mu", "sigma", "matches", "wins", "win %", "mean rank")
        for column in (*columns, "mean score"):
            if column == "bot":
                table.add_column(column, no_wrap=True, min_width=12)
            else:
                table.add_column(column, justify="right")
        table.add_column("faults", justify="right")
        for place, row in enumerate(rows, start=1):
            table.add_row(
                str(place),
                inert_markup(row["bot"]),
                f"{row['rating']:.2f}",
                f"{row['mu']:.2f}",
                f"{row['sigma']:.2f}",
                str(row["matches"]),
                str(row["wins"]),
                f"{100 * row['win_share']:.1f}",
                f"{row['mean_rank']:.2f}",
                f"{row['mean_score']:.2f}",
                str(row["faults"]),
            )
        out.print(table)
    _print_faults(out, data["recent_faults"])


def _print_faults(out: Console, faults: list[dict[str, Any]]) -> None:
    """The last faults, each with the command that shows its bot's log tail (a fault's
    detail quotes the bot: it is printed as text, never as markup)."""
    if not faults:
        return
    out.print(f"[bold]last {len(faults)} faults[/] (newest first):")
    for fault in faults:
        when = "setup" if fault["decision"] < 0 else f"decision {fault['decision']}"
        detail = clean(str(fault["detail"]), 160)
        match_id, bot, kind = (inert_line(str(fault[k])) for k in ("match_id", "bot", "kind"))
        out.print(
            f"  {match_id} seat {fault['seat']} {bot}: {kind} at {when}: {detail}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
        if fault["log_command"]:
            command = inert_line(fault["log_command"])
            out.print(f"    its log: {command}", markup=False, highlight=False)


@app.command()
def log(
    file: Annotated[Path, typer.Argument(help="The league file (TOML) or its store (.sqlite).")],
    match_id: Annotated[str, typer.Argument(help="The match, e.g. LEAGUE-000012.")],
    seat: Annotated[
        int | None, typer.Option(min=0, help="Only this seat (default: every seat kept).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
) -> None:
    """The end of what each bot printed during one league match (its stdout and stderr,
    the last 8 KiB of it per seat), control characters shown escaped."""
    config = load_league(file) if file.suffix == ".toml" else None
    path = config.store if config is not None else file
    try:
        with LeagueStore.open_readonly(path) as store, store_errors(path, only_reads=True):
            known = store.has_match(match_id)
            seats = len(store.results(match_id))  # 0: not played yet
            logs = store.log_tails(match_id, seat)
    except StoreError as error:
        raise fail(str(error)) from None
    if not known:
        raise fail(f"{path} holds no match {match_id!r} (`bullring league status` lists faults)")
    if not seats:
        raise fail(f"{match_id} has not been played yet; `bullring league run` plays it")
    if seat is not None and seat >= seats:
        raise fail(f"{match_id} has seats 0 to {seats - 1}, not {seat}")
    if not logs:
        which = f"seat {seat} of " if seat is not None else ""
        said = "its bot printed nothing" if seat is not None else "no bot printed anything"
        raise fail(
            f"no bot log kept for {which}{match_id}: {said} during it, "
            "or the match was played before leagues kept log tails"
        )
    if as_json:
        typer.echo(json.dumps([entry.to_json() for entry in logs], indent=2))
        return
    for entry in logs:
        kept = len(entry.data)
        part = "all" if kept == entry.total else f"the last {kept} bytes"
        typer.echo(
            f"--- seat {entry.seat} {inert_line(entry.bot)}: {part} of {entry.total} bytes "
            f"printed during {inert_line(entry.match_id)}"
        )
        typer.echo(printable_log(entry.data))
