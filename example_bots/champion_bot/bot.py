"""The champion bot: in 6 nimmt! a policy network guides a Monte Carlo search; every
other variant is played by the winner bot.

In ``6nimmt`` (every player count and format) each decision is encoded from the seat's
view (:mod:`example_bots.champion_bot.features`), the network (:mod:`.net`, numpy only,
weights in ``weights.npz`` beside this file) gives a prior over the options, and the
search (:mod:`.search`) spends 75% of the decision's deadline on playouts in which its
own seat plays the network's choice and each other seat, by the toss of a coin per
playout, the greedy heuristic's or a draw from the network's policy at temperature 0.5
(:mod:`.playouts`, "mixed": a hedge between the two kinds of player it meets; with less
than :data:`NET_MIN_SEARCH_S` to search, the faster greedy playouts), the prior guiding
the visits (:func:`.search.search`), each playout scored by the seat's lead over the
best other seat (the goal "lead"). With ``racing`` a card pick is a race instead
(:func:`.search.race`: all options on the same deals, the clearly worse dropped); it
follows the network's model of the players more closely and played worse against
``mc:64`` (the README's "Measured"), so it is off.
With ``search=False`` it plays the network's most likely option at once (the training
pipeline's evaluation does). Where there are no weights, and in every other variant and
family (6nimmt-tactics, -logic, -pro, X nimmt!, 11 nimmt!, Hornochsen!), it plays as
:class:`example_bots.winner_bot.bot.WinnerBot`, the strongest example bot there.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from example_bots.champion_bot.belief import BELIEF_SPREAD, BELIEF_WORLDS, Belief
from example_bots.champion_bot.features import encode
from example_bots.champion_bot.net import Net, load, softmax
from example_bots.champion_bot.playouts import MIXED_GREEDY_SHARE, playout_policy
from example_bots.champion_bot.search import race, search
from example_bots.winner_bot.bot import WinnerBot
from sdk import (
    Bot,
    DecisionClock,
    DecisionKind,
    MatchInfo,
    MatchOutcome,
    Option,
    SixNimmtView,
    View,
)
from sdk.montecarlo import stop_time

WEIGHTS = Path(__file__).resolve().parent / "weights.npz"
NET_VARIANTS = frozenset({"6nimmt"})  # presets the network was trained for
SHARE = 0.75  # of each decision's deadline spent searching
SEARCH_GAMES = 32  # playouts per visit
MAX_VISITS = 1_000_000  # the clock stops the search first
NET_MIN_SEARCH_S = 0.25  # less time to search than this: greedy playouts (a net visit is
# 10-60 ms of CPU, by the player count; the search needs a few per option)
_LOADED: dict[Path, Net | None] = {}


def shipped_net(path: Path = WEIGHTS) -> Net | None:
    """The network stored at `path` (read once per process), or None without a file."""
    if path not in _LOADED:
        _LOADED[path] = load(path) if path.exists() else None
    return _LOADED[path]


class ChampionBot(Bot):
    """A network-guided search in 6 nimmt!, the winner bot elsewhere."""

    name = "champion_bot"
    version = "0.7"
    author = "Bullring examples"
    playout_policy = "mixed"  # the playouts' policy: mixed, net, greedy or rules (playouts.py)
    greedy_share = MIXED_GREEDY_SHARE  # mixed playouts: the chance another seat is greedy
    others_temperature = 0.5  # net and mixed playouts: the other seats' policy temperature
    search_games = SEARCH_GAMES  # playouts per visit
    goal = "lead"  # a playout's worth: "margin", "lead", "win" or "own" (montecarlo_bot.value)
    racing = False  # card picks by the race (search.race); else, and row choices: PUCT
    race_deals = 32  # the race's first round: deals per option
    belief_temperature = 0.0  # above 0: playouts deal worlds weighted by the other seats'
    # past plays under the network at this temperature (belief.py); 0: uniform deals
    belief_worlds = BELIEF_WORLDS  # the belief's candidate worlds a decision
    belief_spread = BELIEF_SPREAD  # the least effective share of them its weights keep

    def __init__(self, net: Net | None = None, *, search: bool = True) -> None:
        self.net = shipped_net() if net is None else net
        self.searching = search
        self.fallback = WinnerBot()
        self.own = False
        self.rng = random.Random(0)

    def start_match(self, match: MatchInfo) -> None:
        self.own = self.net is not None and match.variant in NET_VARIANTS
        self.rng = random.Random(match.seed_hint)
        if not self.own:
            self.fallback.start_match(match)
        elif self.searching:
            # As the Monte Carlo bot does: what lives now leaves the garbage collector's
            # reach, so a collection during a decision walks only what the match made.
            # (Not for the raw policy: the training pipeline plays thousands of games in
            # one process, and freezing each time would keep their cyclic garbage.)
            gc.collect()
            gc.freeze()

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int | Option:
        if not self.own or not isinstance(view, SixNimmtView):
            return self.fallback.decide(view, options, clock)
        if len(options) == 1:
            return 0
        assert self.net is not None
        state, rows = encode(view, options)
        logits = self.net.logits(state, rows)
        if not self.searching:
            return int(np.argmax(logits))
        stop = stop_time(clock, share=SHARE)
        playouts = self.playouts(stop - clock.timer())
        policy = playout_policy(
            playouts, self.net, view, self.greedy_share, self.others_temperature
        )
        deal = None
        if self.belief_temperature > 0.0 and not view.all_hands:
            deal = Belief(
                self.net, view, self.rng,
                worlds=self.belief_worlds, temperature=self.belief_temperature,
                spread=self.belief_spread,
            )  # fmt: skip
        if self.racing and view.header.decision == DecisionKind.PICK_CARD:
            result = race(
                view,
                options,
                softmax(logits),
                self.rng,
                deals=self.race_deals,
                goal=self.goal,
                stop=stop,
                timer=clock.timer,
                policy=policy,
                deal=deal,
            )
        else:
            result = search(
                view,
                options,
                softmax(logits),
                self.rng,
                games=self.search_games,
                goal=self.goal,
                visits=MAX_VISITS,
                stop=stop,
                timer=clock.timer,
                policy=policy,
                deal=deal,
            )
        return result.best

    def playouts(self, seconds: float) -> str:
        """The playouts' policy for a search of `seconds`: :attr:`playout_policy`, but
        greedy where the network's slower visits would not fit (:data:`NET_MIN_SEARCH_S`)."""
        if self.playout_policy in ("net", "mixed") and seconds < NET_MIN_SEARCH_S:
            return "greedy"
        return self.playout_policy

    def end_match(self, outcome: MatchOutcome) -> None:
        if not self.own:
            self.fallback.end_match(outcome)
