"""The human seat as a bot: an SDK :class:`~sdk.bot.Bot` whose ``decide`` asks a person.

The referee talks to it over gRPC like any bot, through the same encoder and decoder
(:mod:`sdk.runtime` serves it), so the person sees only the seat's view, the engine checks
every choice, and the replay, the clocks and the faults are those of any seat. Where the
person is asked is a :class:`Desk`: the terminal (:mod:`human_seat.terminal`) or a page in
the browser (:mod:`human_seat.web`). One desk serves every human seat of the process.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from human_seat.table import Ask, describe_events, family_of, inert
from sdk.bot import Bot
from sdk.errors import BullringError
from sdk.game import Option, View
from sdk.match import DecisionClock, MatchInfo, MatchOutcome


class SeatClosed(BullringError):
    """The person left: the terminal or the page closed, or they quit."""


class Desk(Protocol):
    """Where a person is asked (the terminal or a page)."""

    def choose(self, ask: Ask) -> int:
        """Block until the person chooses one of ``ask.options``; its index. SeatClosed
        when they have gone."""
        ...

    def ended(self, seat: int, names: Sequence[str], outcome: MatchOutcome) -> None:
        """The match is over: show the scores and the ranks."""
        ...


class HumanBot(Bot):
    """One human seat of one match (a session of the bot server)."""

    name = "human"
    version = "1"
    author = "a person"
    variants = ()  # a person plays every variant

    def __init__(self, desk: Desk) -> None:
        self.desk = desk
        self.seat = 0
        self.names: tuple[str, ...] = ()
        self.seen = 0  # history events already described

    def start_match(self, match: MatchInfo) -> None:
        self.seat = match.seat
        names = tuple(inert(name) for name in match.player_names)  # a bot's own text
        self.names = names or tuple(f"seat {s}" for s in range(match.players))

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        history = view.header.history
        family = family_of(view)
        happened = describe_events(history[self.seen :], self.names, self.seat, family)
        self.seen = len(history)
        ask = Ask(self.seat, self.names, view, tuple(options), clock, tuple(happened))
        return self.desk.choose(ask)

    def end_match(self, outcome: MatchOutcome) -> None:
        self.desk.ended(self.seat, self.names, outcome)
