"""OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts``) as an SDK bot.

For each decision it builds the OpenSpiel game of the match's variant
(:mod:`sdk.envs.openspiel`), a root state consistent with its view (hidden cards
sampled), and runs IS-MCTS searches (engine playouts as the evaluator) until 60% of the
decision's deadline is spent: a first search of 4 simulations measures the pace, the
next ones fill the time left. Their final policies are added up, each weighted by its
simulations; it plays the action with the most weight. Needs the rl extra (``open_spiel``).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

import numpy as np
from open_spiel.python.algorithms import ismcts

from sdk import Bot, DecisionClock, MatchInfo, Option, View
from sdk.envs.openspiel import GAMES, BullringGame, PlayoutEvaluator, root_state, short_name

FIRST_SEARCH = 4  # simulations of the first search; later ones fill the time measured
MOST_SIMULATIONS = 64  # per search
SHARE = 0.6  # of the decision's deadline
NO_CLOCK_SECONDS = 1.0  # thinking time when the decision has no deadline
UCT_C = {"6nimmt": 10.0, "xnimmt": 20.0, "11nimmt": 20.0, "hornochsen": 30.0}


class OpenSpielISMCTSBot(Bot):
    """IS-MCTS from OpenSpiel, time-bounded by repeated short searches."""

    name = "openspiel_ismcts_bot"
    version = "1.0"
    author = "Bullring examples"

    def __init__(self) -> None:
        self.rng = random.Random(0)
        self.games: dict[tuple[str, int], BullringGame] = {}

    def start_match(self, match: MatchInfo) -> None:
        self.rng = random.Random(match.seed_hint)

    def game_for(self, view: View) -> BullringGame:
        header = view.header
        options = ";".join(f"{k}={v}" for k, v in sorted(header.options.items()) if v)
        key = (f"{header.variant}:{options}", header.players)
        game = self.games.get(key)
        if game is None:
            cls = GAMES[short_name(header.variant)]
            params = {"players": header.players, "options": options, "rounds": 0}
            game = self.games[key] = cls({**params, "seed": self.rng.randrange(2**31)})
        return game

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        if len(options) == 1:
            return 0
        timer = clock.timer  # wall time under a referee
        started = timer()
        budget = SHARE * (clock.deadline_ms / 1000 if clock.deadline_ms > 0 else NO_CLOCK_SECONDS)
        game = self.game_for(view)
        root = root_state(game, view, self.rng)
        evaluator = PlayoutEvaluator(self.rng)
        uct_c = UCT_C[game.codec.family]
        weights: dict[int, float] = defaultdict(float)
        simulations = FIRST_SEARCH
        while simulations >= 2:
            search_started = timer()
            seed = self.rng.randrange(2**31)
            bot = ismcts.ISMCTSBot(
                game, evaluator, uct_c, simulations, random_state=np.random.RandomState(seed)
            )
            for action, probability in bot.get_policy(root):
                weights[int(action)] += probability * simulations
            per_simulation = (timer() - search_started) / simulations
            left = budget - (timer() - started)
            simulations = min(MOST_SIMULATIONS, int(0.8 * left / max(per_simulation, 1e-6)))
        best = max(weights, key=lambda action: weights[action])
        index = game.codec.index_of(best, options)
        return 0 if index is None else index
