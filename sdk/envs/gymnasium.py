"""A Gymnasium single-agent environment: one seat learns, SDK bots play the others
(docs/rl.md).

    from example_bots.rules_bot.bot import RulesBot
    from sdk.envs.gymnasium import BullringEnv

    env = BullringEnv("6nimmt:rounds=1", players=4, seat=0, opponents=[RulesBot])
    observation, info = env.reset(seed=7)
    while True:
        action = env.action_space.sample(observation["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated:
            break

Observations, the action space and the rewards are those of the PettingZoo environment
(:mod:`sdk.envs.pettingzoo`) for the learning seat. The other seats are ordinary
:class:`sdk.bot.Bot` objects (factories, used in turn seat after seat: one fresh bot per
seat and game), asked as ``play_local`` asks them. The SDK imports no bot, so they are
given; ``example_bots.gym_env.env`` makes this environment with the example bots.

An action that is not legal (masked out) plays the seat's first legal option, as the
referee's fallback does, and sets ``info["illegal_action"]``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as missing:  # the rl extra
    raise ImportError("sdk.envs.gymnasium needs gymnasium: pip install 'bullring[rl]'") from missing

from sdk.bot import Bot, BotFactory, choice_index
from sdk.envs.encoding import codec_for
from sdk.envs.pettingzoo import Observation, observation_space
from sdk.envs.stepper import Stepper
from sdk.game.variants import check_players, new_game, parse_variant
from sdk.match import DecisionClock, MatchInfo, MatchOutcome

__all__ = [
    "BullringEnv",
]


class BullringEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a Bullring variant; the other seats are SDK bots."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        variant: str = "6nimmt:rounds=1",
        players: int = 4,
        seat: int = 0,
        opponents: Sequence[BotFactory] = (),
        render_mode: str | None = None,
    ) -> None:
        spec = parse_variant(variant)
        check_players(spec.preset, players)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not one of 0..{players - 1}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' is offered")
        self.variant = spec.id
        self.preset = spec.preset.name
        self.options = dict(spec.options)
        self.players = players
        self.seat = seat
        self.render_mode = render_mode
        if not opponents:
            raise ValueError("give the bots that play the other seats: opponents=[MyBot, ...]")
        self.opponents = tuple(opponents)
        self.codec = codec_for(self.variant)
        self.observation_space = observation_space(self.codec)
        self.action_space = spaces.Discrete(self.codec.action_size)
        self.game: Stepper | None = None
        self.bots: dict[int, Bot] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        deal = int(self.np_random.integers(2**31))
        self.deal_seed = deal
        self.game = Stepper(new_game(self.variant, self.players, deal))
        hints = random.Random(deal)
        others = [s for s in range(self.players) if s != self.seat]
        self.bots = {}
        for i, other in enumerate(others):
            factory = self.opponents[i % len(self.opponents)]
            bot = factory()
            bot.start_match(
                MatchInfo(
                    match_id="gymnasium",
                    variant=self.preset,
                    options=self.options,
                    seat=other,
                    players=self.players,
                    seed_hint=hints.randrange(2**63),
                )
            )
            self.bots[other] = bot
        self._score = self.game.state.scores()[self.seat]
        self._advance()
        return self._observe(), {}

    def _advance(self) -> None:
        """Let the bots choose until the learning seat is to move or the game is over."""
        game = self._stepper()
        while not game.done and game.seat != self.seat:
            options = game.options()
            view = game.view(game.seat)
            answer = self.bots[game.seat].decide(view, list(options), DecisionClock(0, 0))
            game.choose(choice_index(answer, options))
        if game.done:
            outcome = MatchOutcome(tuple(game.state.scores()), tuple(game.state.ranks()))
            for bot in self.bots.values():
                bot.end_match(outcome)

    def _stepper(self) -> Stepper:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        return self.game

    def _observe(self) -> Observation:
        game = self._stepper()
        mask = np.zeros(self.codec.action_size, np.int8)
        if not game.done:
            mask = self.codec.mask(game.options())
        return {"observation": self.codec.encode(game.view(self.seat)), "action_mask": mask}

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        game = self._stepper()
        if game.done:
            raise RuntimeError("the game is over: call reset()")
        info: dict[str, Any] = {}
        index = self.codec.index_of(int(action), game.options())
        if index is None:
            index = 0
            info["illegal_action"] = True
        game.choose(index)
        self._advance()
        score = game.state.scores()[self.seat]
        reward = float(self.codec.sign() * (score - self._score))
        self._score = score
        if game.done:
            info["scores"] = tuple(game.state.scores())
            info["ranks"] = tuple(game.state.ranks())
        return self._observe(), reward, game.done, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        return repr(self.game.view(self.seat))
