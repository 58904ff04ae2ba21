"""``bullring replay``: check a replay by re-simulating it, then print it step by step;
``bullring replay export SOURCE [MATCH_ID] OUT`` writes it to a replay file.

``replay`` takes a file as its first argument and ``export`` as a word: one click command
cannot have both, so :class:`ReplayCommand` (the ``replay`` command's class) hands the
arguments after the word ``export`` to the export command (a replay file named
``export`` is opened as ``./export``). ``--export OUT`` is the same, as an option.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from referee.cli.errors import fail, user_errors
from referee.cli.output import check_output_file, save_replay
from referee.cli.replay_browser import browse, frame_console
from referee.cli.trace import TracePrinter
from referee.faults import Fault
from referee.league.replays import load_replay
from referee.replay.model import Replay, ReplayDecision
from referee.replay.resimulate import new_state, steps, verify
from referee.replay.result import MatchResult
from referee.replay.values import option_from_json
from referee.terminal_text import inert_line
from sdk.game import Option, RulesError, parse_variant


def variant_id(data: Replay) -> str:
    """The replay's variant as an id with the options that differ from its preset's
    (``6nimmt:rounds=1``); the bare preset if they do not parse."""
    try:
        return parse_variant(data.variant, data.options).id
    except RulesError:
        return data.variant


@dataclass(frozen=True)
class ReplayedChoice:
    """A recorded decision, in the shape the trace prints."""

    seat: int
    option: Option
    ms: float
    fault: Fault | None
    auto: bool

    @classmethod
    def of(cls, record: ReplayDecision) -> ReplayedChoice:
        option = option_from_json(record.options[record.choice])
        return cls(record.seat, option, record.ms, record.fault, record.auto)


def replay(
    file: Annotated[
        Path,
        typer.Argument(help="A replay file (play --replay-out), or a league file or store"),
    ],
    match_id: Annotated[
        str | None, typer.Argument(help="The match, when FILE is a league or its store")
    ] = None,
    seat: Annotated[int | None, typer.Option(help="Show the match as this seat saw it")] = None,
    step: Annotated[
        bool,
        typer.Option(
            "--step/--print-all",
            help="Step through it (n, b, j N, q) in a terminal; --print-all prints it all",
        ),
    ] = True,
    export: Annotated[
        Path | None,
        typer.Option(
            help="Write the replay to this file (.json or .json.gz) instead "
            "(as `bullring replay export`)"
        ),
    ] = None,
) -> None:
    """Re-simulate a replay (it must match exactly), then step through it in a terminal
    (next, back, jump, quit) or print every step when piped.

    FILE is a replay file, or a league (its file or store) with MATCH_ID: a league match.

    To write it to a file instead: `bullring replay export SOURCE [MATCH_ID] OUT`
    (see `bullring replay export --help`)."""
    with user_errors():
        if export is not None:
            check_output_file(export, "--export")
        data = load_replay(file, match_id)
        verify(data, str(file))
        if export is not None:
            write_export(data, export)
            return
        players = data.players
        if seat is not None and not 0 <= seat < players:
            raise fail(f"--seat {seat}: seats are 0..{players - 1}")
        printer = TracePrinter(seat=seat, variant=variant_id(data))
        screen = printer.console
        interactive = step and sys.stdin.isatty() and screen.is_terminal
        frames: list[str] = []

        def new_frame() -> None:
            """Print what follows into a frame of its own (a terminal's browser)."""
            if interactive:
                if frames or printer.console is not screen:
                    frames.append(printer.console.export_text(styles=True))
                printer.console = frame_console(screen)

        new_frame()
        state = new_state(data)
        printer.on_start(state, [b.name for b in data.bots])
        for fault in data.setup_faults:
            printer.on_fault(fault)
        for group in steps(data):
            new_frame()
            choices = [ReplayedChoice.of(r) for r in group]
            for choice in choices:
                state.apply(choice.seat, choice.option)
                if choice.fault is not None:
                    printer.on_fault(choice.fault)
            printer.on_step(state, choices)
        new_frame()
        result = data.final_result()
        printer.on_end(
            MatchResult(
                match_id=data.match_id,
                scores=tuple(result.scores),
                ranks=tuple(result.ranks),
                faults=tuple(result.faults),
                forfeited=tuple(result.forfeited),
                decisions=len(data.decisions),
                duration_s=sum(d.ms for d in data.decisions) / 1000.0,
                replay=data,
            )
        )
        if interactive:
            frames.append(printer.console.export_text(styles=True))

            def show(frame: str) -> None:
                screen.clear()
                screen.file.write(frame)  # already rendered (bots' text escaped)
                screen.file.flush()

            browse(frames, screen.input, show)


def write_export(data: Replay, out: Path) -> None:
    """Write the (verified) replay to `out` and say so."""
    save_replay(data, out)
    typer.echo(f"replay of {inert_line(data.match_id)} written to {out}")


def export(
    source: Annotated[
        Path,
        typer.Argument(help="A replay file, or a league file or store", metavar="SOURCE"),
    ],
    rest: Annotated[
        list[str],
        typer.Argument(
            help="MATCH_ID when SOURCE is a league or its store, then OUT: the file to "
            "write (.json, or .json.gz: compressed)",
            metavar="[MATCH_ID] OUT",
            show_default=False,
        ),
    ],
) -> None:
    """Write a replay to file OUT, checked by re-simulating it first: a league match's
    (SOURCE a league file or store, then MATCH_ID) or a replay file's (a copy, or
    compressed when OUT ends in .gz). `bullring replay OUT` opens the file written."""
    if len(rest) not in (1, 2):
        raise fail(f"replay export takes SOURCE [MATCH_ID] OUT: {len(rest) + 1} arguments given")
    match_id, out = (None, rest[0]) if len(rest) == 1 else (rest[0], rest[1])
    with user_errors():
        check_output_file(Path(out))
        data = load_replay(source, match_id)
        verify(data, str(source))
        write_export(data, Path(out))


class ExportCommand(TyperCommand):
    """The export command, its usage line spelled out (its second argument is a list)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return ["[OPTIONS]", "SOURCE", "[MATCH_ID]", "OUT"]


_export_app = typer.Typer(add_completion=False)
_export_app.command(cls=ExportCommand)(export)


class ReplayCommand(TyperCommand):
    """The ``replay`` command; ``replay export ...`` runs the export command instead (see
    the module docstring)."""

    # Any: the Context is typer's private vendored click's.
    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> Any:
        if args and args[0] == "export":
            command = typer.main.get_command(_export_app)
            return command.make_context(f"{info_name} export", args[1:], parent=parent, **extra)
        return super().make_context(info_name, args, parent=parent, **extra)
