"""A PettingZoo AEC environment for every Bullring variant (docs/rl.md).

    from sdk.envs.pettingzoo import env

    game = env(variant="6nimmt:rounds=1", players=4, seed=7)
    game.reset()
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        action = None if terminated or truncated else game.action_space(agent).sample(
            observation["action_mask"]
        )
        game.step(action)

Agents are ``seat_0 .. seat_{n-1}``. Each observes its own seat's view only, encoded by
:mod:`sdk.envs.encoding` (``{"observation": float32 vector, "action_mask": int8 vector}``);
the action space is the family's fixed one. Simultaneous picks are asked one seat at a
time, every seat on the table as it stood when the step began, and nothing is revealed
until all have chosen (:class:`sdk.envs.stepper.Stepper`, in the order of the referee's
driver).

Rewards: each seat's change of score, signed so that more is better: the negated penalty
(bull heads, penalty points) in the 6 nimmt!, X nimmt! and 11 nimmt! families, the points
in Hornochsen!. Over a game a seat's rewards add up to ``-final score`` (``+final score``
in Hornochsen!). The deal is ``sdk.game.new_game(variant, players, seed)``.
"""

from __future__ import annotations

import random
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as missing:  # the rl extra
    raise ImportError(
        "sdk.envs.pettingzoo needs pettingzoo: pip install 'bullring[rl]'"
    ) from missing

from sdk.envs.encoding import FamilyCodec, codec_for
from sdk.envs.stepper import Stepper
from sdk.game.core import Option
from sdk.game.variants import check_players, new_game, parse_variant

__all__ = [
    "BullringAECEnv",
    "Observation",
    "env",
    "observation_space",
]

Observation = dict[str, np.ndarray]


def observation_space(codec: FamilyCodec) -> spaces.Dict:
    """The Dict space of a family's observations."""
    return spaces.Dict(
        {
            "observation": spaces.Box(codec.low, codec.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (codec.action_size,), dtype=np.int8),
        }
    )


class BullringAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]  # untyped base
    """One Bullring variant as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"name": "bullring_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        variant: str = "6nimmt:rounds=1",
        players: int = 4,
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        spec = parse_variant(variant)
        check_players(spec.preset, players)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' is offered")
        self.variant = spec.id
        self.players = players
        self.render_mode = render_mode
        self.codec = codec_for(self.variant)
        self.possible_agents = [f"seat_{i}" for i in range(players)]
        self._observation_space = observation_space(self.codec)
        self._action_space = spaces.Discrete(self.codec.action_size)
        self._observation_spaces = {a: self._observation_space for a in self.possible_agents}
        self._action_spaces = {a: self._action_space for a in self.possible_agents}
        self._seeds = random.Random(seed)
        self._next_seed = seed
        self.game: Stepper | None = None
        self.deal_seed = 0
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # -- the game --

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: from `seed`, else the env's seed the first time, else a seed
        drawn from the env's own generator."""
        if seed is not None:
            self._seeds = random.Random(seed)
        elif self._next_seed is not None:
            seed = self._next_seed
        else:
            seed = self._seeds.randrange(2**31)
        self._next_seed = None
        self.deal_seed = seed
        self.game = Stepper(new_game(self.variant, self.players, seed))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._scores = list(self.game.state.scores())
        self.agent_selection = self.possible_agents[self.game.seat]

    def _game(self) -> Stepper:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def observe(self, agent: str) -> Observation:
        """`agent`'s own view, encoded, with its action mask (zeros unless it is to move)."""
        seat = self.possible_agents.index(agent)
        observation = self.codec.encode(self._game().view(seat))
        return {"observation": observation, "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str) -> np.ndarray:
        """`agent`'s action mask alone (what ``observe`` gives with the observation)."""
        game = self._game()
        if game.done or self.possible_agents[game.seat] != agent:
            return np.zeros(self.codec.action_size, np.int8)
        return self.codec.mask(game.options())

    def legal_options(self) -> tuple[Option, ...]:
        """The options of the agent to move, in the engine's canonical order."""
        return self._game().options()

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        if action is None:
            raise ValueError(f"{agent} is to move: give an action, not None")
        index = self.codec.index_of(int(action), game.options())
        if index is None:
            legal = np.flatnonzero(self.codec.mask(game.options())).tolist()
            raise ValueError(f"action {int(action)} is not legal for {agent}; legal: {legal}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if game.choose(index):
            scores = list(game.state.scores())
            sign = self.codec.sign()
            for seat, a in enumerate(self.possible_agents):
                self.rewards[a] = float(sign * (scores[seat] - self._scores[seat]))
            self._scores = scores
        if game.done:
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a] = {"scores": tuple(self._scores), "ranks": tuple(game.state.ranks())}
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[game.seat]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        return repr(self.game.state.view(-1))

    def close(self) -> None:
        pass


def env(
    variant: str = "6nimmt:rounds=1",
    players: int = 4,
    seed: int | None = None,
    render_mode: str | None = None,
) -> BullringAECEnv:
    """A PettingZoo AEC environment of `variant` for `players` seats."""
    return BullringAECEnv(variant, players, seed, render_mode)
