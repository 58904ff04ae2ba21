"""``bullring play``: one match between bots, with a readable trace and the final table."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer

from referee.bots.manifest import resolve_bot
from referee.bots.output import OutputEcho
from referee.bots.preflight import preflight
from referee.bots.process import BotPool, ProcessLimits
from referee.cli.errors import fail, user_errors
from referee.cli.options import CLOCK_FLAGS, NO_SANDBOX_HELP, local_sandbox
from referee.cli.output import check_output_file, make_output_folder, save_replay
from referee.cli.trace import TracePrinter
from referee.limits import check_clock
from referee.match.runner import MatchObserver, new_match_id, play_match
from referee.replay.result import MatchResult
from referee.sandbox.config import SandboxConfig
from referee.spec import ClockSpec, MatchSpec
from sdk.game import parse_variant
from sdk.game.variants import check_players


async def play_in(
    match: MatchSpec,
    sandbox: SandboxConfig,
    observer: MatchObserver | None,
    limits: ProcessLimits | None = None,
    echo: OutputEcho | None = None,
) -> MatchResult:
    """Play one match in its own pool of `sandbox`ed processes, all gone when it returns,
    their output echoed live by `echo`. BotNotReady, before the match, for a bot that does
    not start or does not claim the variant."""
    async with BotPool(limits or ProcessLimits(), sandbox=sandbox, echo=echo) as pool:
        await preflight(
            pool,
            match.bots,
            match.variant,
            match.clock.setup_ms,
            match.options,
            shown_live=echo is not None,
        )
        return await play_match(match, pool, observer)


def play(
    variant: Annotated[str, typer.Argument(help="Preset id, options allowed: 6nimmt:rounds=1")],
    bot: Annotated[
        list[str],
        typer.Option(help="Manifest (bot.toml or its folder) or endpoint, once per seat"),
    ],
    seed: Annotated[int, typer.Option(help="Deal seed")] = 1,
    seat: Annotated[int | None, typer.Option(help="Show the match as this seat saw it")] = None,
    no_clock: Annotated[bool, typer.Option("--no-clock", help="No deadlines (debugging)")] = False,
    decision_ms: Annotated[int, typer.Option(help="Each decision's deadline")] = 1000,
    time_bank_ms: Annotated[int, typer.Option(help="Per-seat time bank for overruns")] = 5000,
    setup_ms: Annotated[int, typer.Option(help="Limit for start-up, Hello, StartMatch")] = 10000,
    max_faults: Annotated[int, typer.Option(help="Faults before a seat is forfeited")] = 3,
    replay_out: Annotated[Path | None, typer.Option(help="Write the replay (.json/.gz)")] = None,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet", "-q", help="Only the seats, faults and final table (and the bots' output)"
        ),
    ] = False,
    quiet_bots: Annotated[
        bool, typer.Option("--quiet-bots", help="Hide what the bots print (shown live)")
    ] = False,
    log_dir: Annotated[
        Path | None, typer.Option(help="Keep every bot's full output there, a file per process")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the result as JSON (no trace, no bot output)")
    ] = False,
    no_sandbox: Annotated[bool, typer.Option("--no-sandbox", help=NO_SANDBOX_HELP)] = False,
) -> None:
    """Play one match and print it step by step, with each bot's output live.

    What a bot prints (stdout and stderr) is shown as it comes, each line prefixed by its
    seat and name (--quiet-bots hides it). A bot that does not start or does not claim the
    variant is refused before the match (exit 2)."""
    with user_errors():
        spec = parse_variant(variant)
        check_players(spec.preset, len(bot))
        bots = tuple(resolve_bot(b) for b in bot)
        sandbox = local_sandbox(no_sandbox, bots)
        if seat is not None and not 0 <= seat < len(bots):
            raise fail(f"--seat {seat}: seats are 0..{len(bots) - 1}")
        clock = ClockSpec(
            decision_ms=decision_ms,
            time_bank_ms=time_bank_ms,
            setup_ms=setup_ms,
            max_faults=max_faults,
            enabled=not no_clock,
        )
        check_clock(clock, CLOCK_FLAGS)
        if replay_out is not None:
            check_output_file(replay_out, "--replay-out")
        match = MatchSpec(new_match_id(), spec.preset.name, spec.options, seed, bots, clock)
        printer = TracePrinter(seat=seat, steps=not quiet, variant=spec.id)
        echo = None if quiet_bots or as_json else OutputEcho(printer.console)
        limits = ProcessLimits(log_dir=str(log_dir)) if log_dir is not None else None
        if log_dir is not None:
            make_output_folder(log_dir, "--log-dir")
        observer = None if as_json else printer
        result = asyncio.run(play_in(match, sandbox, observer, limits, echo))
        if replay_out is not None and result.replay is not None:
            save_replay(result.replay, replay_out, "--replay-out")
        if as_json:
            data = result.to_json()
            data.pop("replay", None)
            data["bots"] = [b.key for b in bots]
            data["replay_file"] = str(replay_out) if replay_out is not None else None
            typer.echo(json.dumps(data, indent=2))
            return
        if replay_out is not None:
            printer.console.print(f"replay written to {replay_out}")
        if log_dir is not None:
            printer.console.print(f"bot logs kept in {log_dir}")
