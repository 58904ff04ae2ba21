"""Play a whole game in-process between Bot objects: no gRPC, breakpoints work.

Each bot sees exactly what the referee would send it: its seat's view, the legal options
in canonical order and a DecisionClock (not enforced here). Simultaneous picks are asked
of every pending seat before any of them is applied, as the referee does. An exception
in a bot, or an answer that is not an offered option, propagates to the caller.

The deal and the seed hints come from :mod:`sdk.seeding`, as the referee's do: by default
with the public local key (the deal of ``bullring play --seed N``); given a league's key
and name and a match's seed (and its match id, for bots that read it), the same bots
make the same choices as in that refereed match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sdk.bot import Bot, BotFactory, choice_index
from sdk.game import driver
from sdk.game.core import DecisionKind, GameState, Option
from sdk.game.variants import new_game, parse_variant
from sdk.match import DecisionClock, MatchInfo, MatchOutcome
from sdk.seeding import LOCAL_KEY, LOCAL_LEAGUE, match_seeds


@dataclass(frozen=True)
class LocalDecision:
    """One decision of a local game."""

    seat: int
    kind: DecisionKind
    options: tuple[Option, ...]
    index: int
    seconds: float  # time spent in decide()

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
) -> LocalResult:
    """Play `variant` (preset id, options allowed) with `bots[seat]` at each seat.

    A bot may be given as an instance or as a class/factory (called once for its seat).
    Every seat needs its own instance. `seed` is the match seed; with a league's `key`
    and `league` name the deal and seed hints are that league's (see sdk/seeding.py).
    """
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

    def choose(ask: driver.Ask) -> int:
        # Every seat of a step decides before any choice is applied (sdk.game.driver).
        kind = state.decision_kind(ask.seat)
        clock = DecisionClock(decision_ms, time_bank_ms)
        answer = seats[ask.seat].decide(ask.view, list(ask.options), clock)
        index = choice_index(answer, ask.options)
        decisions.append(LocalDecision(ask.seat, kind, ask.options, index, clock.elapsed()))
        return index

    driver.play(state, choose)
    scores = tuple(state.scores())
    ranks = tuple(state.ranks())
    for bot in seats:
        bot.end_match(MatchOutcome(scores=scores, ranks=ranks))
    return LocalResult(spec.id, seed, seeds.deal, scores, ranks, tuple(decisions), state)
