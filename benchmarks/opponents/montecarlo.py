"""The published ``mc:N`` 6 nimmt! bot, from its published description (issue 17):

    "The published mc:64: 64 sampled worlds; every card tried on each; every seat greedy;
    lowest margin over the table."

For each decision: N worlds (the hidden hands dealt anew, consistently with the view);
on each world every option is tried and the game is played to its end with every seat,
ours included, playing the published greedy rule (:mod:`benchmarks.opponents.greedy`:
the card of lowest immediate cost, the lowest card on ties; the cheapest row on a forced
take); the option whose mean margin over the table (own heads minus the others' mean)
is lowest wins, the first in canonical order on ties. It counts worlds, not time.

The playouts run on the numpy batch simulator (:mod:`sdk.game.sixnimmt.batch`, with the
Monte Carlo example bot's playout loop), all N worlds of an option at once; every option
gets the same N worlds (the same seed). Where the description is silent we chose: a Logic
draft still in progress is finished at random in the playouts (the greedy rule says
nothing of drafting), and of two tied Professional places a playout's card goes to the
lower row.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from benchmarks.opponents.greedy import SIXNIMMT_PRESETS
from example_bots.montecarlo_bot.sixnimmt import landing, play_out
from sdk.bot import Bot
from sdk.game.core import DecisionKind, Option
from sdk.game.sixnimmt import ROW_CAPACITY, ROWS, Phase, SixNimmtState, from_view
from sdk.game.sixnimmt.batch import Batch, FloatArray, IntArray, determinized_hands
from sdk.game.views import SixNimmtView, View
from sdk.match import DecisionClock, MatchInfo

_FAR = 1 << 20  # landing()'s distance for "below every row"
TIE_BREAK = 1e-6  # per card number: of equal costs the lowest card


def published_greedy_picks(
    batch: Batch, games: IntArray, hands: IntArray, rng: np.random.Generator
) -> IntArray:
    """The published greedy pick of every seat in every game, vectorised: the hand slot
    (len(games), n) of the card with the lowest immediate cost, the lowest card on ties.
    `hands` (len(games), n, H) holds 0 for a card already played."""
    k = len(games)
    heads = batch.heads[games]
    first = batch.first[games] if batch.rules.professional else None
    row, gap = landing(batch.last[games], first, hands)  # (k, n, H)
    sure = np.where(batch.length[games] >= ROW_CAPACITY, heads, 0).ravel()
    cost: FloatArray = sure[row + ROWS * np.arange(k)[:, None, None]].astype(np.float64)
    cheapest = heads.min(axis=1)[:, None, None]
    cost = np.where(gap >= _FAR, cheapest, cost) + hands * TIE_BREAK
    cost[hands == 0] = np.inf
    slots: IntArray = cost.argmin(axis=2)
    return slots


def margins(
    view: SixNimmtView, options: Sequence[Option], worlds: int, rng: random.Random
) -> list[float]:
    """Per option, its mean margin over the table (own heads minus the others' mean;
    lower is better) over the same `worlds` sampled worlds, every seat greedy."""
    seat = view.header.seat
    base = from_view(view, rng)
    public = bool(view.all_hands)
    seed = rng.getrandbits(63)
    result: list[float] = []
    for option in options:
        state: SixNimmtState = base
        first_card = 0
        if view.header.decision == DecisionKind.PICK_CARD:
            first_card = option.card
        else:
            state = base.clone()
            state.apply(seat, option)
        generator = np.random.default_rng(seed)
        if state.phase == Phase.DRAFT:  # the hands come from the rest of the draft
            hands = np.zeros((worlds, state.players, 0), dtype=np.int64)
        else:
            hands = determinized_hands(state, seat, worlds, generator, public)
        scores = play_out(
            state, worlds, hands, seat, first_card, generator, published_greedy_picks
        ).astype(np.float64)
        own = scores[:, seat]
        others = (scores.sum(axis=1) - own) / max(1, scores.shape[1] - 1)
        result.append(float((own - others).mean()))
    return result


class MonteCarloOpponent(Bot):
    """The published ``mc:N`` baseline (see the module docstring); N = `worlds`."""

    name = "mc"
    version = "1.0"
    author = "Bullring benchmarks (published description)"
    variants = SIXNIMMT_PRESETS
    worlds = 64

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def start_match(self, match: MatchInfo) -> None:
        self.rng = random.Random(match.seed_hint)

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> Option:
        if not isinstance(view, SixNimmtView):
            raise TypeError(f"mc plays the 6 nimmt! family only, not {view.header.variant}")
        if len(options) == 1:
            return options[0]
        found = margins(view, options, self.worlds, self.rng)
        return options[min(range(len(options)), key=lambda i: found[i])]


def mc_bot(worlds: int) -> type[MonteCarloOpponent]:
    """The ``mc:<worlds>`` bot class (named ``mc<worlds>``)."""
    if worlds < 1:
        raise ValueError("mc:N needs N >= 1 worlds")

    class Sized(MonteCarloOpponent):
        pass

    Sized.name = f"mc{worlds}"
    Sized.worlds = worlds
    Sized.__name__ = Sized.__qualname__ = f"MonteCarloOpponent{worlds}"
    return Sized
