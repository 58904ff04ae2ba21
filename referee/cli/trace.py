"""A readable terminal trace of a match (rich): table after each step, events, faults.

Used live by ``bullring play`` (as the match runner's observer) and by ``bullring replay``
(fed from a re-simulated replay). With ``seat`` set, the trace shows only what that seat
saw: its own view of the table, its own choices and its public history.

Names and fault details come from the bots, or from a replay file anyone can write: they
are printed inert (referee/terminal_text.py), never as console markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from rich.console import Console
from rich.table import Table

from referee.faults import Fault
from referee.replay.result import MatchResult
from referee.terminal_text import inert_markup, inert_text
from sdk.game import (
    ElevenNimmtView,
    Event,
    EventKind,
    GameState,
    HornochsenView,
    Option,
    SixNimmtView,
    Special,
    View,
    XNimmtView,
)


class Choice(Protocol):
    """What the trace needs of one decision."""

    @property
    def seat(self) -> int: ...
    @property
    def option(self) -> Option: ...
    @property
    def ms(self) -> float: ...
    @property
    def fault(self) -> Fault | None: ...
    @property
    def auto(self) -> bool: ...


def _cards(cards: Sequence[int]) -> str:
    return " ".join(str(c) for c in cards) or "-"


class TracePrinter:
    """Prints a match step by step (see the module docstring)."""

    def __init__(
        self,
        console: Console | None = None,
        seat: int | None = None,
        steps: bool = True,
        variant: str | None = None,
    ) -> None:
        self.console = console or Console(highlight=False, emoji=False)
        self.variant = variant  # the variant id to head the match with; else the preset's
        self.seat = seat
        self.steps = steps  # False: print the start and the end, not every step (--quiet)
        self.names: list[str] = []  # each seat's name, inert and escaped as markup
        self.seen_events = 0
        self.step_no = 0

    def who(self, seat: int) -> str:
        name = self.names[seat] if 0 <= seat < len(self.names) else "?"
        return f"[bold]seat {seat}[/bold] ({name})"

    # --- observer interface ------------------------------------------------------------

    def on_start(self, state: GameState, names: Sequence[str]) -> None:
        self.names = [inert_markup(name) for name in names]
        perspective = "referee (all cards)" if self.seat is None else f"seat {self.seat}"
        variant = self.variant or state.variant
        self.console.rule(f"{inert_markup(variant)}: {len(names)} players, view of {perspective}")
        for seat, name in enumerate(self.names):
            self.console.print(f"  seat {seat}: {name}")
        if not self.steps:  # --quiet: not the deal either
            return
        self.print_events(state)
        self.print_table(state)

    def on_step(self, state: GameState, records: Sequence[Choice]) -> None:
        if not self.steps:
            return
        self.step_no += 1
        for record in records:
            if self.seat is not None and record.seat != self.seat:
                continue
            how = " [dim](auto-played)[/dim]" if record.auto else f" [dim]{record.ms:.0f} ms[/dim]"
            if record.fault is not None:
                how += f" [red]fault {record.fault.kind.value}, fallback[/red]"
            self.console.print(f"{self.who(record.seat)} chose {record.option.describe()}{how}")
        self.print_events(state)
        self.print_table(state)

    def on_fault(self, fault: Fault) -> None:
        if self.seat is not None and fault.seat != self.seat:
            return
        when = "setup" if fault.decision < 0 else f"decision {fault.decision}"
        self.console.print(
            f"[red]FAULT[/red] {self.who(fault.seat)} {fault.kind.value} at {when}: "
            + inert_markup(fault.detail)  # a bot's own text: never console markup
        )
        for line in inert_text(fault.traceback).splitlines():  # the bot's, bounded
            self.console.print(f"  [dim]|[/dim] {inert_markup(line)}", soft_wrap=True)

    def on_end(self, result: MatchResult) -> None:
        self.console.rule("result")
        table = Table("seat", "bot", "score", "rank", "faults", "forfeited")
        for seat, name in enumerate(self.names):
            faults = [f.kind.value for f in result.faults if f.seat == seat]
            table.add_row(
                str(seat),
                name,
                str(result.scores[seat]),
                str(result.ranks[seat]),
                ", ".join(faults) or "-",
                "yes" if result.forfeited[seat] else "",
            )
        self.console.print(table)
        self.console.print(f"{result.decisions} decisions in {result.duration_s:.2f} s")

    # --- state ------------------------------------------------------------------------

    def view_of(self, state: GameState) -> View:
        return state.view(-1 if self.seat is None else self.seat)

    def print_events(self, state: GameState) -> None:
        view = self.view_of(state)
        history = view.header.history
        for event in history[self.seen_events :]:
            text = self.describe_event(event)
            if text:
                self.console.print(f"  [cyan]{text}[/cyan]")
        self.seen_events = len(history)

    def describe_event(self, e: Event) -> str:
        k = e.kind
        if k == EventKind.ROUND_START:
            return f"round {e.round} starts: {_cards(e.cards)}"
        if k == EventKind.REVEAL:
            return f"seat {e.seat} reveals {e.card}"
        if k == EventKind.PLACE:
            return f"seat {e.seat} places {e.card} on row {e.row + 1}"
        if k == EventKind.TAKE:
            return f"seat {e.seat} takes row {e.row + 1}: {_cards(e.cards)}"
        if k == EventKind.DRAFT:
            return f"seat {e.seat} drafts {e.card}"
        if k == EventKind.X_ROW:
            return f"seat {e.seat} puts {e.card} in their X row"
        if k == EventKind.X_PILE:
            return f"seat {e.seat}'s X row goes to their X pile: {_cards(e.cards)}"
        if k == EventKind.NEW_PILE:
            return f"new pile {e.row + 1} starts with {e.card}"
        if k == EventKind.BULL:
            source = f"from seat {e.target}" if e.target >= 0 else "from the supply"
            return f"seat {e.seat} gets a bull card {source}"
        if k == EventKind.SPECIAL:
            return f"seat {e.seat} plays {Special(e.card).name} on row {e.row + 1}"
        if k == EventKind.COLLECT:
            specials = "".join(f" + {Special(k).name}" for k in e.specials)
            return f"seat {e.seat} collects row {e.row + 1}: {_cards(e.cards)}{specials}"
        if k == EventKind.END_TURN:
            return ""
        return f"round {e.round} ends: round scores {_cards(e.cards)}"

    def print_table(self, state: GameState) -> None:
        view = self.view_of(state)
        lines: list[str] = []
        if isinstance(view, SixNimmtView | XNimmtView):
            lines += [f"row {i + 1}: {_cards(row)}" for i, row in enumerate(view.rows)]
        elif isinstance(view, ElevenNimmtView):
            lines.append(f"pile tops: {_cards(view.pile_tops)}")
            lines.append(f"bulls: {_cards(view.bulls)}  supply {view.supply}")
        elif isinstance(view, HornochsenView):
            for i, row in enumerate(view.rows):
                marks = (" x2" if row.x2 else "") + (" +5" if row.plus5 else "")
                lines.append(f"row {i + 1}: {_cards(row.cards)}{marks}")
        hands = getattr(view, "all_hands", ()) or ()
        if hands:
            lines += [f"hand of seat {s}: {_cards(h)}" for s, h in enumerate(hands)]
        elif self.seat is not None:
            lines.append(f"my hand: {_cards(getattr(view, 'hand', ()))}")
        scores = view.header.scores
        lines.append("scores: " + "  ".join(f"{s}:{v}" for s, v in enumerate(scores)))
        for line in lines:
            self.console.print(f"    {line}", style="dim" if line.startswith("scores") else None)
