"""Play a whole game in-process between Bot objects: no gRPC, breakpoints work.

Each bot sees exactly what the referee would send it: its seat's view, the legal options
in canonical order and a DecisionClock (enforced only with ``clock=True``). Simultaneous
picks are asked of every pending seat before any of them is applied, as the referee does.
An exception in a bot, or an answer that is not an offered option, propagates to the
caller.

With ``clock=True`` the clock is the referee's (referee/match/runner.py): each decision's time
beyond its deadline is taken from the seat's time bank; a decision that took longer than
its deadline and the bank left is a TIMEOUT fault: its answer is dropped, the seat gets
the fallback option (the first, in canonical order) and its bank is emptied; after
`max_faults` faults the seat is forfeited and auto-played with the fallback, never asked
again, and ranks below every seat that was not forfeited. The bot is not interrupted (it
runs in this thread): its late answer is dropped.

The deal and the seed hints come from :mod:`sdk.seeding`, as the referee's do: by default
with the public local key (the deal of ``bullring play --seed N``); given a league's key
and name and a match's seed (and its match id, for bots that read it), the same bots
make the same choices as in that refereed match.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from sdk.bot import Bot, BotFactory, choice_index
from sdk.game import driver
from sdk.game.core import DecisionKind, GameState, Option, forfeits_ranked_last
from sdk.game.variants import new_game, parse_variant
from sdk.match import DecisionClock, MatchInfo, MatchOutcome
from sdk.seeding import LOCAL_KEY, LOCAL_LEAGUE, match_seeds

FALLBACK = 0  # the option a faulted or forfeited seat gets: the first in canonical order


@dataclass(frozen=True)
class LocalDecision:
    """One decision of a local game."""

    seat: int
    kind: DecisionKind
    options: tuple[Option, ...]
    index: int
    seconds: float  # time spent in decide()
    fault: str = ""  # "TIMEOUT" (play_local(clock=True)): the fallback was played
    auto: bool = False  # the seat was forfeited: not asked, the fallback played

    @property
    def option(self) -> Option:
        return self.options[self.index]


@dataclass(frozen=True)
class LocalResult:
    """The outcome of a local game, with every decision and the final state."""

    variant: str
    seed: int
    deal_seed: int  # what the engine dealt from (sdk.seeding)
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    decisions: tuple[LocalDecision, ...]
    state: GameState
    faults: tuple[int, ...] = ()  # per seat, its TIMEOUT faults (clock=True)
    time_banks_ms: tuple[float, ...] = ()  # per seat, the time bank left (clock=True)

    @property
    def forfeited(self) -> tuple[bool, ...]:
        """Per seat: whether it was forfeited (clock=True, max_faults reached)."""
        return tuple(
            any(d.auto for d in self.decisions if d.seat == s) for s in range(len(self.scores))
        )


def play_local(
    variant: str,
    bots: Sequence[Bot | BotFactory],
    seed: int,
    options: Mapping[str, str] | None = None,
    *,
    decision_ms: int = 1000,
    time_bank_ms: int = 5000,
    match_id: str = "local",
    key: bytes = LOCAL_KEY,
    league: str = LOCAL_LEAGUE,
    clock: bool = False,
    max_faults: int = 3,
    timer: Callable[[], float] = time.monotonic,
) -> LocalResult:
    """Play `variant` (preset id, options allowed) with `bots[seat]` at each seat.

    A bot may be given as an instance or as a class/factory (called once for its seat).
    Every seat needs its own instance. `seed` is the match seed; with a league's `key`
    and `league` name the deal and seed hints are that league's (see sdk/seeding.py).
    With `clock`, decisions are timed as the referee times them (see the module
    docstring): a TIMEOUT plays the fallback, `max_faults` of them forfeit the seat.
    `timer` is what each decision's clock reads: wall time (time.monotonic, as a referee
    keeps it), or time.thread_time for a benchmark whose bots must get the same thinking
    time however loaded the machine is (the bots run in this thread, one at a time).
    """
    if max_faults < 1:
        raise ValueError("max_faults must be at least 1")
    seats = [bot if isinstance(bot, Bot) else bot() for bot in bots]
    if len({id(bot) for bot in seats}) != len(seats):
        raise ValueError("each seat needs its own Bot instance")
    spec = parse_variant(variant, options)
    seeds = match_seeds(key, league, seed, len(seats))
    state = new_game(variant, len(seats), seeds.deal, options)
    names = tuple(bot.name for bot in seats)
    for seat, bot in enumerate(seats):
        bot.start_match(
            MatchInfo(
                match_id=match_id,
                variant=spec.preset.name,
                options=dict(spec.options),
                seat=seat,
                players=len(seats),
                player_names=names,
                decision_ms=decision_ms,
                time_bank_ms=time_bank_ms,
                seed_hint=seeds.hint(seat),
            )
        )
    decisions: list[LocalDecision] = []
    banks = [float(time_bank_ms)] * len(seats)
    faults = [0] * len(seats)

    def choose(ask: driver.Ask) -> int:
        # Every seat of a step decides before any choice is applied (sdk.game.driver).
        seat = ask.seat
        kind = state.decision_kind(seat)
        if faults[seat] >= max_faults:  # forfeited: auto-played
            decisions.append(LocalDecision(seat, kind, ask.options, FALLBACK, 0.0, auto=True))
            return FALLBACK
        bank = int(banks[seat]) if clock else time_bank_ms
        decision_clock = DecisionClock(decision_ms, bank, timer=timer)
        answer = seats[seat].decide(ask.view, list(ask.options), decision_clock)
        seconds = decision_clock.elapsed()
        if clock:
            ms = seconds * 1000.0
            if ms > decision_ms + banks[seat]:
                banks[seat] = 0.0
                faults[seat] += 1
                decisions.append(
                    LocalDecision(seat, kind, ask.options, FALLBACK, seconds, fault="TIMEOUT")
                )
                return FALLBACK
            banks[seat] = max(0.0, banks[seat] - max(0.0, ms - decision_ms))
        index = choice_index(answer, ask.options)
        decisions.append(LocalDecision(seat, kind, ask.options, index, seconds))
        return index

    driver.play(state, choose)
    scores = tuple(state.scores())
    forfeited = [count >= max_faults for count in faults]
    ranks = tuple(forfeits_ranked_last(state.ranks(), forfeited))  # as the referee ranks
    for seat, bot in enumerate(seats):
        bot.end_match(MatchOutcome(scores, ranks, faults[seat], forfeited[seat]))
    return LocalResult(
        spec.id,
        seed,
        seeds.deal,
        scores,
        ranks,
        tuple(decisions),
        state,
        tuple(faults),
        tuple(banks) if clock else (),
    )
