"""``bullring play``: one match between bots, with a readable trace and the final table."""

from __future__ import annotations

import asyncio
import json
import signal
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated

import typer

from referee.bots.manifest import resolve_bot
from referee.bots.output import OutputEcho
from referee.bots.preflight import preflight
from referee.bots.process import BotPool, ProcessLimits
from referee.cli.errors import fail, user_errors
from referee.cli.human import HUMAN, HumanSeats, human_seats, linger
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
        typer.Option(
            help="Manifest (bot.toml or its folder) or endpoint, once per seat; "
            "'human' for a seat you play yourself"
        ),
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
    human_clock: Annotated[
        bool,
        typer.Option("--human-clock", help="Hold the human seats to the clock too (off: no limit)"),
    ] = False,
    web: Annotated[
        bool, typer.Option("--web", help="Play the human seats in the browser (a loopback page)")
    ] = False,
    no_browser: Annotated[
        bool,
        typer.Option("--no-browser", help="With --web: only print the page's address"),
    ] = False,
    web_linger_s: Annotated[
        float, typer.Option(help="With --web: how long the page stays up for its last screen")
    ] = 60.0,
) -> None:
    """Play one match and print it step by step, with each bot's output live.

    What a bot prints (stdout and stderr) is shown as it comes, each line prefixed by its
    seat and name (--quiet-bots hides it). A bot that does not start or does not claim the
    variant is refused before the match (exit 2).

    A seat given as --bot human is yours: the table is drawn in this terminal (or, with
    --web, in a browser page) and you choose with the keyboard (or the mouse). You see only
    your seat's view, with no clock unless --human-clock; the replay (--replay-out) then
    lets `bullring debug` ask your bot what it would have done."""
    with user_errors():
        spec = parse_variant(variant)
        check_players(spec.preset, len(bot))
        humans = frozenset(i for i, b in enumerate(bot) if b == HUMAN)
        others = {i: resolve_bot(b) for i, b in enumerate(bot) if i not in humans}
        sandbox = local_sandbox(no_sandbox, tuple(others.values()))
        if seat is not None and not 0 <= seat < len(bot):
            raise fail(f"--seat {seat}: seats are 0..{len(bot) - 1}")
        if web and not humans:
            raise fail("--web: no seat is --bot human")
        if humans and seat is not None and seat not in humans:
            raise fail(f"--seat {seat}: with a human seat, only a human seat's view is shown")
        if humans and seat is None:
            seat = min(humans)  # a person never sees more than their seat's view
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
        if log_dir is not None:
            make_output_folder(log_dir, "--log-dir")
        # In the terminal, the screen is the person's during the match: no trace, no bot
        # output (--log-dir keeps it); with --web the trace shows the human seat's view.
        in_terminal = bool(humans) and not web
        printer = TracePrinter(seat=seat, steps=not quiet, variant=spec.id)
        echo = None if quiet_bots or as_json or in_terminal else OutputEcho(printer.console)
        limits = ProcessLimits(log_dir=str(log_dir)) if log_dir is not None else None
        observer = None if as_json or in_terminal else printer
        with ExitStack() as stack:
            seats: HumanSeats | None = None
            if humans:
                seats = stack.enter_context(human_seats(web, replay_out, not no_browser))
                if seats.url:
                    printer.console.print(f"play in your browser: {seats.url}")
            bots = tuple(
                others[i] if seats is None or i in others else seats.bot() for i in range(len(bot))
            )
            unclocked = frozenset() if human_clock else humans
            match = MatchSpec(
                new_match_id(),
                spec.preset.name,
                spec.options,
                seed,
                bots,
                clock,
                unclocked_seats=unclocked,
            )
            if in_terminal:  # a closed terminal ends the person's seat, not the match
                previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
                stack.callback(signal.signal, signal.SIGHUP, previous)
            result = asyncio.run(play_in(match, sandbox, observer, limits, echo))
            if replay_out is not None and result.replay is not None:
                save_replay(result.replay, replay_out, "--replay-out")
            if seats is not None and web:
                if result.replay is not None:
                    seats.write_replay_data(result.replay)
                printer.console.print(
                    f"the page and its replay stay up for {web_linger_s:.0f} s, "
                    "until the replay page is open (Ctrl-C closes them)"
                )
                linger(seats, web_linger_s)
        if as_json:
            data = result.to_json()
            data.pop("replay", None)
            data["bots"] = [b.key for b in bots]
            data["replay_file"] = str(replay_out) if replay_out is not None else None
            typer.echo(json.dumps(data, indent=2))
            return
        try:
            if in_terminal:
                printer.names = [b.name for b in bots]
                printer.on_end(result)
            if replay_out is not None:
                printer.console.print(f"replay written to {replay_out}")
                if humans:
                    printer.console.print(
                        f"what would your bot have done? bullring debug {replay_out} "
                        f"--seat {seat} --decision N --bot my_bot.py"
                    )
            if log_dir is not None:
                printer.console.print(f"bot logs kept in {log_dir}")
        except OSError:  # the terminal has gone: the replay is written
            return
