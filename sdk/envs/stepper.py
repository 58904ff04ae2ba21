"""A game played one seat's choice at a time, as the AEC API, Gymnasium and OpenSpiel want.

An engine step may wait on several seats at once (a simultaneous pick). The referee asks
every pending seat on the table as it stands when the step begins and applies the
choices in seat order once all have chosen (``sdk.game.driver``). :class:`Stepper` does
the same one seat at a time: each seat of a step is shown the step's starting view (so
an earlier seat's face-down pick is never shown to a later one), its choice is kept, and
the step is applied when its last seat has chosen. Games played through it are the games
the referee plays for the same choices.
"""

from __future__ import annotations

from sdk.game import driver
from sdk.game.core import GameState, Option
from sdk.game.views import View


class Stepper:
    """A game moved by one seat's choice at a time (see the module docstring)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.step: list[driver.Ask] = driver.asks(state)
        self.choices: list[int] = []
        self.record: list[tuple[int, Option]] = []
        """Every choice made so far, (seat, option), in the order the engine applies them."""

    @property
    def done(self) -> bool:
        return not self.step

    @property
    def ask(self) -> driver.Ask:
        """The ask of the seat to choose next (the game must not be over)."""
        return self.step[len(self.choices)]

    @property
    def seat(self) -> int:
        """The seat to choose next; -1 once the game is over."""
        return self.ask.seat if self.step else -1

    def view(self, seat: int) -> View:
        """What `seat` sees now: its ask's view while its step is open, else the table."""
        for ask in self.step:
            if ask.seat == seat:
                return ask.view
        return self.state.view(seat)

    def options(self) -> tuple[Option, ...]:
        return self.ask.options

    def choose(self, index: int) -> bool:
        """The seat to move chooses ``options()[index]``; True when that closed the step
        (the choices were applied and the next step's asks taken)."""
        if not 0 <= index < len(self.ask.options):
            raise IndexError(f"choice {index} of {len(self.ask.options)} options")
        self.record.append((self.ask.seat, self.ask.options[index]))
        self.choices.append(index)
        if len(self.choices) < len(self.step):
            return False
        driver.apply_choices(self.state, self.step, self.choices)
        self.step = driver.asks(self.state)
        self.choices = []
        return True

    def clone(self) -> Stepper:
        other = Stepper.__new__(Stepper)
        other.state = self.state.clone()
        other.step = list(self.step)
        other.choices = list(self.choices)
        other.record = list(self.record)
        return other
