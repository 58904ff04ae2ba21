"""``bullring bot check MANIFEST``: the conformance check, as a command (see referee/check.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from referee.bots.manifest import resolve_bot
from referee.check import CheckReport, run_check
from referee.cli.errors import fail, user_errors
from referee.cli.options import CLOCK_FLAGS, NO_SANDBOX_HELP, local_sandbox
from referee.limits import MAX_CHECK_GAMES, check_clock
from referee.spec import ClockSpec
from referee.terminal_text import inert_markup
from sdk.game import parse_variant

EXIT_INCONCLUSIVE = 3  # the check could not judge the bot: its opponents failed


def print_report(report: CheckReport, console: Console) -> None:
    """The human-readable report: Hello, a table per variant, the verdict. What the bot
    said (its Hello, its faults' details, its output) is printed inert, never as markup."""
    hello = report.hello
    if hello:
        claimed = ", ".join(hello["variants"]) or "every variant"
        console.print(
            f"hello: {inert_markup(hello['name'])} {inert_markup(hello['version'])} "
            f"(protocol {hello['protocol_version']}), plays {inert_markup(claimed)}"
        )
    if report.variants:
        deadline = report.clock.decision_ms
        table = Table(title=f"{report.bot}: decision latency (deadline {deadline} ms)")
        longest = max(len(v.variant) for v in report.variants)
        table.add_column("variant", no_wrap=True, min_width=longest)  # never cut
        for column in ("games", "calls", "p50 ms", "p99 ms", "max ms", "late"):
            table.add_column(column, justify="right")
        table.add_column("faults")
        table.add_column("note")
        for v in report.variants:
            row = v.to_json(report.clock.decision_ms)
            faults = ", ".join(f"{k} {n}" for k, n in row["faults"].items()) or "-"
            table.add_row(
                inert_markup(row["variant"]),
                str(row["games"]),
                str(row["decisions"]),
                f"{row['p50_ms']:.1f}",
                f"{row['p99_ms']:.1f}",
                f"{row['max_ms']:.1f}",
                str(row["overruns"]),
                faults,
                inert_markup(row["error"]),
            )
        console.print(table)
    for note in report.notes:
        console.print(f"note: {inert_markup(note, keep_lines=True)}", soft_wrap=True)
    if report.passed:
        console.print(f"[green]PASS[/green] {report.bot} ({report.duration_s:.1f} s)")
        return
    if report.problems:
        console.print(f"[red]FAIL[/red] {report.bot}:")
        for problem in report.problems:
            console.print(f"  {inert_markup(problem, keep_lines=True)}", soft_wrap=True)
    if report.environment:
        console.print(
            f"[yellow]NOT CHECKED[/yellow] {report.bot}: the check could not judge it "
            "(not the bot's fault):"
        )
        for problem in report.environment:
            console.print(f"  {inert_markup(problem, keep_lines=True)}", soft_wrap=True)


def check(
    manifest: Annotated[Path, typer.Argument(help="The bot's manifest (bot.toml) or folder.")],
    games: Annotated[int, typer.Option(min=1, help="Matches per variant")] = 2,
    variant: Annotated[
        list[str] | None,
        typer.Option(help="Check only this variant (repeatable; options allowed: 6nimmt:rounds=1)"),
    ] = None,
    players: Annotated[int, typer.Option(min=2, help="Seats per match (within each preset)")] = 4,
    seed: Annotated[
        int, typer.Option(help="Match seed of each variant's first match (deals: a fresh key)")
    ] = 1,
    decision_ms: Annotated[int, typer.Option(help="Each decision's deadline")] = 1000,
    time_bank_ms: Annotated[int, typer.Option(help="Per-seat time bank")] = 5000,
    setup_ms: Annotated[int, typer.Option(help="Limit for start-up and Hello")] = 10000,
    opponent: Annotated[
        list[str] | None,
        typer.Option(help="Opponent manifest or endpoint (repeatable; default: example bots)"),
    ] = None,
    keep_going: Annotated[
        bool, typer.Option("--keep-going", help="Check every variant even after a failure")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON")] = False,
    no_sandbox: Annotated[bool, typer.Option("--no-sandbox", help=NO_SANDBOX_HELP)] = False,
) -> None:
    """Check that a bot starts, says hello and plays every variant it claims without faults.

    Exits 0 when it passes, 1 when it fails, 2 on a bad argument, 3 when the check
    could not judge it (an opponent failed even when its game was played again).
    """
    with user_errors():
        bot = resolve_bot(str(manifest))
        if bot.endpoint is None and not Path(manifest).exists():
            raise fail(f"{manifest}: no such manifest file")
        for v in variant or ():
            parse_variant(v)
        opponents = [resolve_bot(o) for o in opponent] if opponent else None
        clock = ClockSpec(decision_ms=decision_ms, time_bank_ms=time_bank_ms, setup_ms=setup_ms)
        check_clock(clock, CLOCK_FLAGS)
        if games > MAX_CHECK_GAMES:
            raise fail(f"--games: must be at most {MAX_CHECK_GAMES}, not {games:,}")
        sandbox = local_sandbox(no_sandbox, [bot, *(opponents or [])])
    console = Console(stderr=as_json, highlight=False, emoji=False)
    console.print(f"checking {bot.key} ...")

    def progress(stage: str) -> None:
        console.print(f"  {stage} ...", style="dim")

    report = run_check(
        bot,
        games=games,
        variants=variant or None,
        players=players,
        clock=clock,
        opponents=opponents,
        seed=seed,
        keep_going=keep_going,
        sandbox=sandbox,
        progress=progress,
    )
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2))
    else:
        print_report(report, console)
    if report.inconclusive:
        raise typer.Exit(EXIT_INCONCLUSIVE)
    if not report.passed:
        raise typer.Exit(1)
