"""The class a bot author subclasses.

A bot is one class with a ``decide`` method. The runtime (:func:`sdk.run`, :func:`sdk.serve`)
or local play (:func:`sdk.play_local`) creates a fresh instance for every (match, seat)
session, so a bot keeps per-match state on ``self`` and never shares it between seats or
matches::

    class Lowest(Bot):
        name = "lowest"

        def decide(self, view, options, clock):
            return 0  # options come in canonical order: the lowest card first
"""

from __future__ import annotations

import abc
import operator
from collections.abc import Callable, Sequence
from typing import SupportsIndex

from sdk.errors import BullringError
from sdk.game.core import Option
from sdk.game.views import View
from sdk.match import DecisionClock, MatchInfo, MatchOutcome


class Bot(abc.ABC):
    """A bot: what it is called, what it plays and how it decides.

    Lifecycle of one instance: ``start_match`` once, ``decide`` for each decision of its
    seat, ``end_match`` once. The instance is created with no arguments (or by the factory
    given to ``serve``) and is used for that one session only.
    """

    name: str = "bot"
    version: str = "0"
    author: str = ""
    # What it plays (sdk/wire/claims.py): "6nimmt" every format of 6 nimmt!, "6nimmt:rounds=1"
    # that format only; () means every variant in every format.
    variants: tuple[str, ...] = ()

    def start_match(self, match: MatchInfo) -> None:  # noqa: B027 (optional hook)
        """The match begins: the seat, the variant, the players and the clock limits."""

    @abc.abstractmethod
    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int | Option:
        """Choose one of `options` (legal, in canonical order): its index, or the Option.

        `view` is everything this seat may see. `clock.remaining()` says how long is left
        before the decision's deadline.
        """

    def end_match(self, outcome: MatchOutcome) -> None:  # noqa: B027 (optional hook)
        """The match is over: final scores and ranks of every seat."""


BotFactory = Callable[[], Bot]
"""Makes a fresh bot for one session: usually the Bot subclass itself."""


class InvalidChoice(BullringError, ValueError):
    """decide() returned something that is not one of the offered options."""


def choice_index(answer: object, options: Sequence[Option]) -> int:
    """The index in `options` that `answer` (an index or an Option) designates."""
    if type(answer) is int and 0 <= answer < len(options):
        return answer  # the common case, without the checks below
    if isinstance(answer, bool):
        raise InvalidChoice(f"decide() returned {answer!r}; return an index or an Option")
    if isinstance(answer, Option):
        for index, option in enumerate(options):
            if option == answer:
                return index
        raise InvalidChoice(f"decide() returned {answer.describe()!r}, which was not offered")
    if not isinstance(answer, SupportsIndex):  # int, or numpy's integers (argmax)
        raise InvalidChoice(
            f"decide() returned {type(answer).__name__} {answer!r}; return an index or an Option"
        )
    index = operator.index(answer)
    if 0 <= index < len(options):
        return index
    raise InvalidChoice(f"decide() returned index {index}; there are {len(options)} options")
