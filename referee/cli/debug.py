"""``bullring debug``: re-decide a recorded decision in-process, under your debugger.

``bullring debug REPLAY_OR_LEAGUE [MATCH_ID] --seat K --decision N --bot bot.py[:Class]``
re-simulates the recorded match and, for seat K, rebuilds what the seat received at each
of its decisions: the view, the options in canonical order, and the clock (the decision's
deadline and what was left of the time bank). It makes one instance of the bot, calls its
``start_match`` with the match as the seat saw it, then its ``decide()`` for each of the
seat's decisions in turn, in this process: a ``breakpoint()`` in the bot works, and
``--pdb`` stops at the start of decision N's ``decide()``. Every decision applies the
choice recorded in the match, whatever the bot now chooses, so the game stays the
recorded one. It prints decision N's new choice beside the recorded one; ``--all`` lists
every decision where the bot now chooses differently.

The seat's seed hint (``MatchInfo.seed_hint``) is rebuilt for a match dealt from the
public local key (``bullring play``, ``play_local``); a league's derive from its secret
key and are not in the replay: the bot gets 0 there.
"""

from __future__ import annotations

import importlib.util
import inspect
import pdb
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Annotated

import typer

from referee.league.replays import load_replay
from referee.replay.model import Replay
from referee.replay.resimulate import new_state, recorded_move, verify
from referee.terminal_text import inert_line
from sdk.bot import Bot, choice_index
from sdk.errors import BullringError
from sdk.game import Option, driver
from sdk.game.views import View
from sdk.match import DecisionClock, MatchInfo
from sdk.seeding import local_seeds


class DebugError(BullringError):
    """The bot or the decision asked for cannot be found."""


@dataclass(frozen=True)
class Redecided:
    """One decision of the seat: the index among the seat's decisions, what it chose in the
    match and what the bot chooses now."""

    decision: int
    recorded: Option
    now: Option


def load_bot_class(target: str) -> type[Bot]:
    """The Bot subclass named by ``path/to/bot.py[:Class]`` (without a class: the one Bot
    subclass the file defines). The file's folder goes first on sys.path, as when it runs."""
    path_text, _, class_name = target.partition(":")
    path = Path(path_text)
    if path.is_dir():
        path = path / "bot.py"
    if not path.is_file():
        raise DebugError(f"--bot {target}: no such file")
    sys.path.insert(0, str(path.resolve().parent))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise DebugError(f"--bot {target}: not a Python file")
    module: ModuleType = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)  # the bot's own code: its errors are its traceback
    classes = [
        c
        for c in vars(module).values()
        if inspect.isclass(c) and issubclass(c, Bot) and c.__module__ == module.__name__
    ]
    if class_name:
        chosen = getattr(module, class_name, None)
        if not (inspect.isclass(chosen) and issubclass(chosen, Bot)):
            raise DebugError(f"--bot {target}: {path} defines no Bot class {class_name}")
        return chosen
    if len(classes) != 1:
        names = ", ".join(c.__name__ for c in classes) or "none"
        raise DebugError(f"--bot {target}: say which class (path:Class); Bot classes: {names}")
    return classes[0]


def match_info(replay: Replay, seat: int) -> MatchInfo:
    clock = replay.clock
    return MatchInfo(
        match_id=replay.match_id,
        variant=replay.variant,
        options=dict(replay.options),
        seat=seat,
        players=replay.players,
        player_names=tuple(b.name for b in replay.bots),
        decision_ms=int(str(clock.get("decision_ms", 0))) if clock.get("enabled", True) else 0,
        time_bank_ms=int(str(clock.get("time_bank_ms", 0))) if clock.get("enabled", True) else 0,
        setup_ms=int(str(clock.get("setup_ms", 0))),
        seed_hint=seed_hint(replay, seat),
    )


def seed_hint(replay: Replay, seat: int) -> int:
    """The seat's seed hint if the match was dealt from the public local key, else 0."""
    local = local_seeds(replay.seed, replay.players)
    return local.hint(seat) if replay.deal_seed == local.deal else 0


def redecide(replay: Replay, seat: int, bot: Bot, stop_at: int | None = None) -> list[Redecided]:
    """Feed `bot` every decision of `seat` in the recorded match (see the module
    docstring); with `stop_at`, enter pdb at the start of that decision's decide()."""
    info = match_info(replay, seat)
    bot.start_match(info)
    bank = float(info.time_bank_ms)
    out: list[Redecided] = []
    state = new_state(replay)
    for group in driver.recorded_steps(state, replay.decisions, recorded_move):
        asks = {ask.seat: ask for ask in driver.asks(state)}
        for record in group:
            if record.seat != seat or record.auto:
                continue
            ask = asks[seat]
            clock = DecisionClock(info.decision_ms, int(bank))
            chosen = _decide(bot, ask.view, ask.options, clock, len(out) == stop_at)
            index = choice_index(chosen, ask.options)
            out.append(Redecided(len(out), ask.options[record.choice], ask.options[index]))
            if info.decision_ms:
                bank = max(0.0, bank - max(0.0, record.ms - info.decision_ms))
    return out


def _decide(
    bot: Bot, view: View, options: tuple[Option, ...], clock: DecisionClock, debug: bool
) -> int | Option:
    if debug:
        result: int | Option | None = pdb.Pdb().runcall(bot.decide, view, options, clock)
        if result is None:  # pdb's quit ends the call without a result
            raise DebugError("stopped in the debugger before decide() returned")
        return result
    return bot.decide(view, options, clock)


def debug(
    source: Annotated[
        Path, typer.Argument(help="A replay file, or a league file or store (with MATCH_ID)")
    ],
    match_id: Annotated[str | None, typer.Argument(help="The match, for a league")] = None,
    seat: Annotated[int, typer.Option(help="The seat to re-decide")] = 0,
    decision: Annotated[int, typer.Option(help="The seat's decision, from 0")] = 0,
    bot: Annotated[str, typer.Option(help="path/to/bot.py[:Class] (or the bot's folder)")] = "",
    use_pdb: Annotated[
        bool, typer.Option("--pdb", help="Stop in pdb as the decision's decide() starts")
    ] = False,
    all_decisions: Annotated[
        bool, typer.Option("--all", help="List every decision the bot now takes differently")
    ] = False,
) -> None:
    """Re-decide a recorded decision in this process (breakpoints work): the bot's choice
    beside the recorded one."""
    if not bot:
        raise DebugError("--bot path/to/bot.py[:Class] is required")
    replay = load_replay(source, match_id)
    verify(replay, str(source))
    if not 0 <= seat < replay.players:
        raise DebugError(f"--seat {seat}: seats are 0..{replay.players - 1}")
    cls = load_bot_class(bot)
    results = redecide(replay, seat, cls(), decision if use_pdb else None)
    if not results:
        raise DebugError(f"seat {seat} made no decision of its own in {replay.match_id}")
    if not all_decisions:
        if not 0 <= decision < len(results):
            raise DebugError(
                f"--decision {decision}: seat {seat}'s decisions are 0..{len(results) - 1}"
            )
        r = results[decision]
        same = "same" if r.recorded == r.now else "DIFFERENT"
        typer.echo(
            f"{inert_line(replay.match_id)} seat {seat} decision {decision}: recorded "
            f"{r.recorded.describe()}, {cls.__name__} now {r.now.describe()} ({same})"
        )
        note_other_bot(replay, seat, cls, r.recorded != r.now)
        return
    differ = [r for r in results if r.recorded != r.now]
    match = inert_line(replay.match_id)
    typer.echo(f"{match} seat {seat}: {len(differ)} of {len(results)} decisions differ")
    for r in differ:
        typer.echo(
            f"  decision {r.decision}: recorded {r.recorded.describe()}, now {r.now.describe()}"
        )
    note_other_bot(replay, seat, cls, bool(differ))


def note_other_bot(replay: Replay, seat: int, cls: type[Bot], differs: bool) -> None:
    """Where the bot chose otherwise, say so if another bot's name played the seat (a wrong
    --seat, most likely; a league may also have renamed the bot)."""
    played = replay.bots[seat].name
    if differs and cls.name and cls.name != played:
        typer.echo(
            f"note: seat {seat} was played by {inert_line(played)}; {cls.__name__} is "
            f"{inert_line(cls.name)}",
            err=True,
        )
