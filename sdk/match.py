"""What a bot is told about its match, each decision's clock and the outcome.

Plain frozen dataclasses (no protobuf): the runtime builds them from the referee's
requests, :func:`sdk.local.play_local` builds them directly.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """A match as one seat sees it at the start (``Bot.start_match``)."""

    match_id: str
    variant: str  # preset id, e.g. "6nimmt-pro"
    options: Mapping[str, str]  # the resolved variant options
    seat: int  # this bot's seat, 0-based
    players: int
    player_names: tuple[str, ...] = ()  # bot names by seat
    decision_ms: int = 0  # each decision's own deadline; 0: no limit
    time_bank_ms: int = 0  # match time bank that overruns draw on
    setup_ms: int = 0  # limit for start-up and start_match
    seed_hint: int = 0  # a per-seat seed for the bot's own randomness


@dataclass(frozen=True, slots=True)
class DecisionClock:
    """The clock of one decision, fixed when the request arrived.

    ``deadline`` is a time on ``timer``: the decision's own deadline counted from receipt
    (``math.inf`` when there is no limit). Overrunning it draws on the match's time bank;
    overrunning both is a TIMEOUT fault. Leave a margin for the reply to travel back.

    ``timer`` is :func:`time.monotonic` (wall time) wherever a referee keeps the clock.
    :func:`sdk.local.play_local` can give :func:`time.thread_time` instead, so that a
    benchmark's bots get the same thinking time however loaded the machine is; a search
    that reads the clock itself should read ``clock.timer`` (as :mod:`sdk.montecarlo`'s
    ``clock=`` parameters do), never :func:`time.monotonic` directly.
    """

    deadline_ms: int  # this decision's own deadline; 0: no limit
    time_bank_ms: int  # match time bank left for overruns
    received: float = math.nan  # time of receipt on `timer` (nan: now)
    timer: Callable[[], float] = field(default=time.monotonic, repr=False, compare=False)

    def __post_init__(self) -> None:
        if math.isnan(self.received):
            object.__setattr__(self, "received", self.timer())

    @property
    def deadline(self) -> float:
        """Time on ``timer`` by which the decision should be answered."""
        if self.deadline_ms <= 0:
            return math.inf
        return self.received + self.deadline_ms / 1000.0

    def remaining(self, margin: float = 0.0) -> float:
        """Seconds left before the deadline minus `margin`, never below 0 (inf: no limit).

        A Monte Carlo bot loops ``while clock.remaining(0.05) > 0: simulate()``.
        """
        return max(0.0, self.deadline - margin - self.timer())

    def elapsed(self) -> float:
        """Seconds since the request arrived."""
        return self.timer() - self.received


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """How the match ended (``Bot.end_match``); lists are by seat."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]  # 1-based; equal scores share the better rank
    faults: int = 0  # faults recorded against this seat
    forfeited: bool = False  # this seat was forfeited and auto-played
