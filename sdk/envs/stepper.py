"""A game played one seat's choice at a time, as the AEC API, Gymnasium and OpenSpiel want.

An engine step may wait on several seats at once (a simultaneous pick). The referee asks
every pending seat on the table as it stands when the step begins and applies the
choices in seat order once all have chosen (``sdk.game.driver``). :class:`Stepper` does
the same one seat at a time: the step's seats choose in seat order, their choices are
kept, and the step is applied, in seat order, when its last seat has chosen. The table
does not change while a step is open, so every seat of the step is shown the step's
starting view (an earlier seat's face-down pick is never shown to a later one), and views
and options are only computed when asked for. Games played through it are the games the
referee plays for the same choices (tests/sdk/envs replay them through the engine).
"""

from __future__ import annotations

from sdk.game.core import GameState, Option
from sdk.game.views import View


class Stepper:
    """A game moved by one seat's choice at a time (see the module docstring)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.step: tuple[int, ...] = state.pending()
        """The seats of the open step, in seat order (empty once the game is over)."""
        self.choices: list[Option] = []
        """The choices made so far in the open step, by the step's first seats."""
        self.record: list[tuple[int, Option]] = []
        """Every choice made so far, (seat, option), in the order the engine applies them."""
        self._options: tuple[Option, ...] | None = None

    @property
    def done(self) -> bool:
        return not self.step

    @property
    def seat(self) -> int:
        """The seat to choose next; -1 once the game is over."""
        return self.step[len(self.choices)] if self.step else -1

    def view(self, seat: int) -> View:
        """What `seat` sees now: the table as the open step began."""
        return self.state.view(seat)

    def options(self) -> tuple[Option, ...]:
        """The legal options of the seat to choose next, in canonical order."""
        if self._options is None:
            self._options = tuple(self.state.legal_options(self.seat))
        return self._options

    def choose(self, index: int) -> bool:
        """The seat to move chooses ``options()[index]``; True when that closed the step
        (its choices were applied in seat order and the next step begun)."""
        options = self.options()
        if not 0 <= index < len(options):
            raise IndexError(f"choice {index} of {len(options)} options")
        self.record.append((self.seat, options[index]))
        self.choices.append(options[index])
        self._options = None
        if len(self.choices) < len(self.step):
            return False
        for seat, option in zip(self.step, self.choices, strict=True):
            self.state.apply(seat, option)
        self.step = self.state.pending()
        self.choices = []
        return True

    def clone(self) -> Stepper:
        other = Stepper.__new__(Stepper)
        other.state = self.state.clone()
        other.step = self.step
        other.choices = list(self.choices)
        other.record = list(self.record)
        other._options = self._options
        return other
