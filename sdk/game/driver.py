"""One driver for every way a game is played: ask the pending seats, apply their choices
in seat order.

An engine step may wait on several seats at once (a simultaneous pick). Every one of them
is asked on the table as it stands when the step begins (:func:`asks`: its view and its
legal options, all computed before any choice of the step is applied), and then the
choices are applied in seat order (:func:`apply_choices`). The referee (over gRPC, asking
the seats concurrently), ``play_local`` (in-process bots, :func:`play`), the replay
functions (recorded choices, :func:`recorded_steps`) and the benchmarks all go through
here, so they cannot differ in how a step is played.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from sdk.game.core import GameState, Option
from sdk.game.views import View

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Ask:
    """What one pending seat is asked at an engine step: its view and its legal options
    in canonical order (a choice is an index into them)."""

    seat: int
    view: View
    options: tuple[Option, ...]


def asks(state: GameState) -> list[Ask]:
    """Every pending seat's ask, in seat order, all taken from the table as it stands (no
    choice of this step is applied yet). Empty when the game is over."""
    return [
        Ask(seat, state.view(seat), tuple(state.legal_options(seat))) for seat in state.pending()
    ]


def apply_choices(
    state: GameState,
    step: Sequence[Ask],
    choices: Sequence[int],
    after: Callable[[Ask, int], None] | None = None,
) -> None:
    """Apply ``choices[i]`` (an index into ``step[i].options``) for every ask of the step,
    in seat order; ``after(ask, choice)``, if given, runs once each choice is applied."""
    for ask, choice in zip(step, choices, strict=True):
        state.apply(ask.seat, ask.options[choice])
        if after is not None:
            after(ask, choice)


def play(
    state: GameState,
    choose: Callable[[Ask], int],
    after: Callable[[Ask, int], None] | None = None,
) -> None:
    """Play `state` to its end: at each step every pending seat is asked (``choose``,
    in seat order, returns the index of its choice), then the choices are applied in seat
    order; ``after(ask, choice)``, if given, runs once each choice is applied."""
    while step := asks(state):
        apply_choices(state, step, [choose(ask) for ask in step], after)


def recorded_steps(
    state: GameState,
    records: Sequence[R],
    move: Callable[[R], tuple[int, Option]],
    after: Callable[[R], None] | None = None,
) -> Iterator[list[R]]:
    """Replay recorded decisions (in the order they were asked: each step's pending seats
    in seat order) step by step. Yields each step's records while the table is the step's
    start, then applies their moves (``move(record)`` gives the seat and the option) in
    order, ``after(record)`` following each. Stops when the game or the records end; the
    caller compares the seats of each group with ``state.pending()`` if it must."""
    i = 0
    while i < len(records) and not state.is_terminal():
        group = list(records[i : i + len(state.pending())])
        yield group
        for record in group:
            seat, option = move(record)
            state.apply(seat, option)
            if after is not None:
                after(record)
        i += len(group)
